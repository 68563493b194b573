"""Discord's size limits and the helpers that keep the bot's output inside them.

Discord refuses (HTTP 400) a message over its limits, so everything the bot shows goes through
these helpers: long text is cut with an ellipsis or split at line breaks, embeds are trimmed to
6,000 characters and 25 fields, autocomplete and select lists to 25 entries with labels under
100 characters (design.md section 5, ux.md "Autocomplete that knows the game").

Lengths are counted in Python characters (code points), as Discord counts them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord
from discord import app_commands

#: Characters in a message's content.
MESSAGE_LIMIT = 2000
#: Characters across one embed's title, description, field names and values, footer and author.
EMBED_TOTAL_LIMIT = 6000
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_FIELDS_LIMIT = 25
EMBED_FIELD_NAME_LIMIT = 256
EMBED_FIELD_VALUE_LIMIT = 1024
EMBED_FOOTER_LIMIT = 2048
EMBED_AUTHOR_LIMIT = 256
#: Embeds in one message.
EMBEDS_PER_MESSAGE = 10
#: Autocomplete choices, and static choices of one option.
CHOICES_LIMIT = 25
#: Characters in an autocomplete or option choice's name, and in a string choice's value.
CHOICE_NAME_LIMIT = 100
CHOICE_VALUE_LIMIT = 100
#: Options in a select menu.
SELECT_OPTIONS_LIMIT = 25
#: Characters in a select option's label and description.
SELECT_LABEL_LIMIT = 100
#: Characters in a button's label.
BUTTON_LABEL_LIMIT = 80
#: Characters in a component's custom_id.
CUSTOM_ID_LIMIT = 100

ELLIPSIS = "…"


def truncate(text: str, limit: int, *, ellipsis: str = ELLIPSIS) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``ellipsis`` if it was cut.

    Raises:
        ValueError: ``limit`` is shorter than the ellipsis.
    """
    if limit < len(ellipsis):
        raise ValueError(f"limit {limit} is shorter than the ellipsis")
    if len(text) <= limit:
        return text
    return text[: limit - len(ellipsis)] + ellipsis


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` split into pieces of at most ``limit`` characters, at line breaks if possible.

    Lines longer than ``limit`` are cut hard. Pieces that would be empty are dropped (Discord
    refuses an empty message), so empty text gives no pieces.

    Raises:
        ValueError: ``limit`` is not positive.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    pieces: list[str] = []
    current: str | None = None
    for line in text.split("\n"):
        while len(line) > limit:
            if current is not None:
                pieces.append(current)
                current = None
            pieces.append(line[:limit])
            line = line[limit:]
        if current is None:
            current = line
        elif len(current) + 1 + len(line) <= limit:
            current = f"{current}\n{line}"
        else:
            pieces.append(current)
            current = line
    if current is not None:
        pieces.append(current)
    return [p for p in pieces if p.strip()]


def embed_length(embed: discord.Embed) -> int:
    """The characters of ``embed`` that count towards Discord's 6,000 per embed."""
    return len(embed)


def fit_embed(embed: discord.Embed, *, more_note: str = "{n} more not shown") -> discord.Embed:
    """``embed`` trimmed in place to Discord's limits, and returned.

    Title, description, field names and values, footer and author name are truncated to their
    own limits; fields beyond 25 are dropped; then, while the total is over 6,000 characters,
    fields are dropped from the end, and last the description and the footer are shortened.
    When fields were dropped the footer says how many (``more_note`` with ``{n}``).
    """
    if embed.title is not None:
        embed.title = truncate(embed.title, EMBED_TITLE_LIMIT)
    if embed.description is not None:
        embed.description = truncate(embed.description, EMBED_DESCRIPTION_LIMIT)
    if embed.author.name is not None:
        embed.set_author(
            name=truncate(embed.author.name, EMBED_AUTHOR_LIMIT),
            url=embed.author.url,
            icon_url=embed.author.icon_url,
        )
    footer_base = embed.footer.text or ""
    footer_icon = embed.footer.icon_url
    fields = [
        (
            truncate(f.name or "\u200b", EMBED_FIELD_NAME_LIMIT),
            truncate(f.value or "\u200b", EMBED_FIELD_VALUE_LIMIT),
            bool(f.inline),
        )
        for f in embed.fields
    ]
    dropped = max(0, len(fields) - EMBED_FIELDS_LIMIT)
    fields = fields[:EMBED_FIELDS_LIMIT]

    def rebuild() -> None:
        embed.clear_fields()
        for name, value, inline in fields:
            embed.add_field(name=name, value=value, inline=inline)
        note = more_note.format(n=dropped) if dropped else ""
        text = " · ".join(p for p in (footer_base, note) if p)
        if text or footer_icon:
            embed.set_footer(
                text=truncate(text, EMBED_FOOTER_LIMIT) if text else None, icon_url=footer_icon
            )
        else:
            embed.remove_footer()

    rebuild()
    while len(embed) > EMBED_TOTAL_LIMIT and fields:
        fields.pop()
        dropped += 1
        rebuild()
    excess = len(embed) - EMBED_TOTAL_LIMIT
    if excess > 0 and embed.description:
        keep = max(len(ELLIPSIS), len(embed.description) - excess)
        embed.description = truncate(embed.description, keep)
    excess = len(embed) - EMBED_TOTAL_LIMIT
    if excess > 0 and embed.footer.text:
        keep = max(len(ELLIPSIS), len(embed.footer.text) - excess)
        embed.set_footer(text=truncate(embed.footer.text, keep), icon_url=footer_icon)
    return embed


def choice_label(*parts: str, separator: str = " - ") -> str:
    """Parts joined into one choice or select label under 100 characters.

    Empty parts are skipped; the first part (the name to choose) is kept whole as long as
    possible and later parts are shortened first.
    """
    kept = [p for p in parts if p]
    if not kept:
        raise ValueError("a label needs at least one non-empty part")
    label = separator.join(kept)
    while len(label) > CHOICE_NAME_LIMIT and len(kept) > 1:
        kept.pop()
        label = separator.join(kept)
    return truncate(label, CHOICE_NAME_LIMIT)


def choices(
    items: Iterable[tuple[str, str]], *, limit: int = CHOICES_LIMIT
) -> list[app_commands.Choice[str]]:
    """Autocomplete choices from ``(label, value)`` pairs: at most ``limit`` (25), in order,
    labels cut to 100 characters. Values must already be at most 100 characters.

    Raises:
        ValueError: a value is longer than 100 characters (it cannot be shortened safely).
    """
    out: list[app_commands.Choice[str]] = []
    for label, value in items:
        if len(out) >= min(limit, CHOICES_LIMIT):
            break
        if len(value) > CHOICE_VALUE_LIMIT:
            raise ValueError(f"choice value longer than {CHOICE_VALUE_LIMIT}: {value[:20]}...")
        out.append(
            app_commands.Choice(name=truncate(label or value, CHOICE_NAME_LIMIT), value=value)
        )
    return out


def bullet_list(lines: Sequence[str], *, limit: int, more: str = "... and {n} more") -> str:
    """Lines joined under ``limit`` characters; lines that do not fit are counted in ``more``."""
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        rest = len(lines) - i - 1
        tail = more.format(n=rest + 1)
        needed = len(line) + (1 if out else 0)
        reserve = len(tail) + 1 if rest else 0
        if used + needed + reserve > limit:
            if used + len(tail) + (1 if out else 0) <= limit:
                out.append(tail)
            break
        out.append(line)
        used += needed
    return "\n".join(out)
