"""``/history`` in words: a turn's events as lines, for one reader, cut into pages that fit a
Discord message (R-GEN-07: a private event only for its factions and the umpire). Pure."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.lines import event_line
from caedes_bot.ui.text import MESSAGE_LIMIT, split_message

#: Room kept on each page for its heading.
HEADING_ROOM = 200


def history_lines(
    events: Sequence[Event],
    state: GameState,
    ruleset: Ruleset,
    *,
    factions: Collection[str],
    sees_all: bool,
) -> list[str]:
    """The lines of ``events`` the reader may see: every public event, and a private one if
    ``sees_all`` (the umpire) or one of ``factions`` (the reader's own) is in its audience.
    Events shown elsewhere (the turn panel's step, the battle message) have no line."""
    lines: list[str] = []
    for event in events:
        audience = event.audience()
        if audience is not None and not sees_all and not set(audience) & set(factions):
            continue
        line = event_line(event, state, ruleset)
        if line is not None:
            lines.append(f"• {line}")
    return lines


def history_pages(lines: Sequence[str], heading: str) -> list[str]:
    """``lines`` in pages of one Discord message each, every page headed by ``heading`` and
    "page n of m"; one page saying nothing was seen if ``lines`` is empty."""
    if not lines:
        return [f"{heading}\nNothing you may see happened in this turn."]
    bodies = split_message("\n".join(lines), MESSAGE_LIMIT - HEADING_ROOM)
    total = len(bodies)
    return [f"{heading} (page {n} of {total})\n{body}" for n, body in enumerate(bodies, 1)]


def history_heading(ruleset: Ruleset, round_no: int, faction: str) -> str:
    """``"**History: game round 2, the turn of 🌅 Dawnians (DAW)**"``."""
    return f"**History: game round {round_no}, the turn of {faction_name(ruleset, faction)}**"
