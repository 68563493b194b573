"""What Discord refuses, and why: error bodies, and the limits the fake enforces.

Every number and code here is Discord's, from its API documentation
(https://discord.com/developers/docs): the JSON error codes of "Opcodes and Status Codes",
the message and embed limits of the Message resource, and the server limits of the Channel
resource and the Threads topic. :class:`~tests.fakediscord.world.World` raises these.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

JSON = dict[str, Any]


class ApiError(Exception):
    """A refusal the fake answers with a 4xx and a Discord error body."""

    def __init__(self, status: int, code: int, message: str, *, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def missing_permissions(what: str) -> ApiError:
    return ApiError(403, 50013, f"Missing Permissions: {what}")


def unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


def invalid_form(why: str) -> ApiError:
    return ApiError(400, 50035, f"Invalid Form Body: {why}")


# --- JSON error codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes,
# "JSON Error Codes") -------------------------------------------------------------------------

UNKNOWN_MESSAGE = 10008  #: the message does not exist (any more: a moderator deleted it)
MAX_GUILD_CHANNELS_REACHED = 30013  #: the server already holds its 500 channels
MISSING_ACCESS = 50001  #: the bot may not reach the resource (e.g. a server it is not in)
THREAD_ARCHIVED = 50083  #: the thread is archived: no message edits, no member changes
MAX_ACTIVE_THREADS_REACHED = 160006  #: the server already holds its active threads

# --- Server limits ----------------------------------------------------------------------------

#: Channels a server may hold, categories included (30013 above). Threads do not count against
#: it (https://discord.com/developers/docs/topics/threads#active-archived-threads).
MAX_GUILD_CHANNELS = 500
#: Channels one category may hold (the ``parent_id`` field of the channel object,
#: https://discord.com/developers/docs/resources/channel#channel-object). Discord answers one
#: more with a form error (50035) on ``parent_id``.
MAX_CATEGORY_CHANNELS = 50
#: Active threads a server may hold. At the cap Discord neither makes nor unarchives a thread
#: (https://discord.com/developers/docs/resources/channel, "Threads"; 160006 above).
MAX_ACTIVE_THREADS = 1000
#: How long Discord remembers a message's ``nonce`` for ``enforce_nonce``: the documentation
#: says a few minutes (https://discord.com/developers/docs/resources/message#create-message).
NONCE_MEMORY = dt.timedelta(minutes=5)


def guild_full() -> ApiError:
    return ApiError(
        400, MAX_GUILD_CHANNELS_REACHED, "Maximum number of guild channels reached (500)"
    )


def category_full() -> ApiError:
    """A form error on ``parent_id``, in Discord's nested error format
    (https://discord.com/developers/docs/reference#error-messages)."""
    why = f"Maximum number of channels in category reached ({MAX_CATEGORY_CHANNELS})"
    return ApiError(
        400,
        50035,
        "Invalid Form Body",
        errors={
            "parent_id": {"_errors": [{"code": "CHANNEL_PARENT_MAX_CHANNELS", "message": why}]}
        },
    )


def thread_archived() -> ApiError:
    return ApiError(400, THREAD_ARCHIVED, "Thread is archived")


# --- Discord limits (checked on everything the bot sends) ------------------------------------

MESSAGE_CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_FIELDS_MAX = 25
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
BUTTON_LABEL_MAX = 80
SELECT_LABEL_MAX = 100
CUSTOM_ID_MAX = 100
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHANNEL_NAME_MAX = 100


def embed_length(embed: JSON) -> int:
    """Characters counted towards Discord's 6,000 per embed."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    return total


def check_message_body(body: JSON) -> None:
    """Refuse (400, 50035) a message body beyond Discord's limits."""
    content = body.get("content")
    if content is not None and len(content) > MESSAGE_CONTENT_MAX:
        raise invalid_form(f"content: {len(content)} > {MESSAGE_CONTENT_MAX} characters")
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        raise invalid_form(f"embeds: {len(embeds)} > {EMBEDS_MAX}")
    total = 0
    for i, e in enumerate(embeds):
        limits = (
            ("title", len(e.get("title") or ""), EMBED_TITLE_MAX),
            ("description", len(e.get("description") or ""), EMBED_DESCRIPTION_MAX),
            ("fields", len(e.get("fields") or []), EMBED_FIELDS_MAX),
            ("footer", len((e.get("footer") or {}).get("text") or ""), EMBED_FOOTER_MAX),
            ("author", len((e.get("author") or {}).get("name") or ""), EMBED_AUTHOR_MAX),
        )
        for name, size, limit in limits:
            if size > limit:
                raise invalid_form(f"embeds.{i}.{name}: {size} > {limit}")
        for j, f in enumerate(e.get("fields") or []):
            if not f.get("name") or not f.get("value"):
                raise invalid_form(f"embeds.{i}.fields.{j}: name and value are required")
            if len(f["name"]) > EMBED_FIELD_NAME_MAX or len(f["value"]) > EMBED_FIELD_VALUE_MAX:
                raise invalid_form(f"embeds.{i}.fields.{j}: too long")
        total += embed_length(e)
    if total > EMBED_TOTAL_MAX:
        raise invalid_form(f"embeds: {total} > {EMBED_TOTAL_MAX} characters in all")
    check_components(body.get("components") or [])


def check_components(rows: list[JSON]) -> None:
    if len(rows) > ACTION_ROWS_MAX:
        raise invalid_form(f"components: {len(rows)} rows > {ACTION_ROWS_MAX}")
    for i, row in enumerate(rows):
        children = row.get("components") or []
        if row.get("type") != 1:
            continue
        if not children or len(children) > ROW_BUTTONS_MAX:
            raise invalid_form(f"components.{i}: 1..{ROW_BUTTONS_MAX} components per row")
        for c in children:
            cid = c.get("custom_id")
            if cid is not None and len(cid) > CUSTOM_ID_MAX:
                raise invalid_form(f"custom_id longer than {CUSTOM_ID_MAX}")
            if c.get("type") == 2 and len(c.get("label") or "") > BUTTON_LABEL_MAX:
                raise invalid_form(f"button label longer than {BUTTON_LABEL_MAX}")
            if c.get("type") == 3:
                if len(children) != 1:
                    raise invalid_form("a select menu must be alone in its row")
                options = c.get("options") or []
                if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
                    raise invalid_form(f"select options: {len(options)} not in 1..25")
                for o in options:
                    if len(o.get("label") or "") > SELECT_LABEL_MAX:
                        raise invalid_form(f"select label longer than {SELECT_LABEL_MAX}")
