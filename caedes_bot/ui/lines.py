"""One line per event class: what each event of the rules tells its audience (ux.md "Every
order gets an answer").

:func:`event_line` is the entry point. Each event class of the rules has its own entry in the
table :data:`~caedes_bot.ui.lines_registry.LINES`, made by a function of one of the topic modules
and registered with :func:`~caedes_bot.ui.lines_registry.line_of`:

* :mod:`caedes_bot.ui.lines_board`: the turn and the board (moves, ships, blitzes, landings,
  captures, musters, losses, summons, the end of the campaign);
* :mod:`caedes_bot.ui.lines_treasury`: the treasury and trade;
* :mod:`caedes_bot.ui.lines_diplomacy`: pacts and neighbours;
* :mod:`caedes_bot.ui.lines_umpire`: the umpire's acts and a scenario's events.

This module imports all of them, so every line is registered wherever :func:`event_line` is
used. An entry may say "no line of its own" (``None``) only for a reason recorded in
:data:`~caedes_bot.ui.lines_registry.SILENT` (a battle's events are shown on its battle
message, a step's start on the turn panel). There is no generic fallback: :func:`event_line`
raises :class:`~caedes_bot.ui.lines_registry.NoWording` for a class without an entry, and
``tests/test_meta.py`` fails for any event class of the rules that has none. A new event gets
its line in the topic module it belongs to.

Pure functions of the event, the state after it and the static ruleset: no discord, no I/O.
"""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState
from caedes_bot.ui import lines_board, lines_diplomacy, lines_treasury, lines_umpire
from caedes_bot.ui.lines_registry import LINES, NoWording

__all__ = ["TOPICS", "event_line"]

#: The modules that register the lines, by topic: importing them fills the table.
TOPICS = (lines_board, lines_treasury, lines_diplomacy, lines_umpire)


def event_line(event: Event, state: GameState, ruleset: Ruleset) -> str | None:
    """One line telling what ``event`` did, for its audience; ``None`` for the events of
    :data:`~caedes_bot.ui.lines_registry.SILENT`, shown elsewhere.

    Raises:
        NoWording: ``type(event)`` has no line of its own.
    """
    make = LINES.get(type(event))
    if make is None:
        name = type(event).__name__
        raise NoWording(
            f"the event {name} has no line: add one in the caedes_bot/ui/lines_*.py of its topic"
        )
    return make(event, state, ruleset)
