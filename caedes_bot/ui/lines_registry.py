"""The one table of the lines of events (:mod:`caedes_bot.ui.lines`): :data:`LINES` maps each
event class of the rules to the function that makes its line, and :func:`line_of` registers
such a function, refusing a second one for a class.

An entry may say "no line of its own" (``None``) only for a reason recorded in :data:`SILENT`
(a battle's events are shown on its battle message, a step's start on the turn panel); those
are registered here. The lines themselves are registered by the topic modules
(:mod:`caedes_bot.ui.lines_board`, :mod:`caedes_bot.ui.lines_treasury`,
:mod:`caedes_bot.ui.lines_diplomacy`, :mod:`caedes_bot.ui.lines_umpire`), which
:mod:`caedes_bot.ui.lines` imports: read the table after importing that module.

No discord, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import turn
from caedes_bot.rules.combat import events as combat_events
from caedes_bot.rules.combat import magic_events
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState

__all__ = ["BATTLE_DETAIL", "LINES", "SILENT", "LineMaker", "NoWording", "line_of"]

E = TypeVar("E", bound=Event)

#: Makes the line of one event: ``(event, state after it, ruleset) -> line or None``.
LineMaker = Callable[[Any, GameState, Ruleset], "str | None"]

#: The line maker of every event class, by its exact class.
LINES: dict[type[Event], LineMaker] = {}

#: Battle events (each names its battle): shown on the battle message rather than as lines of
#: their own, and grouped by battle by the announcer.
BATTLE_DETAIL = (
    combat_events.BattleBegan,
    combat_events.BattleOddsAsked,
    combat_events.BattleOddsNoted,
    combat_events.BattleStepResolved,
    combat_events.CasualtiesOwed,
    combat_events.CasualtiesRemoved,
    combat_events.BattleRoundEnded,
    combat_events.WithdrawalOffered,
    combat_events.AttackerWithdrew,
    combat_events.BattleEnded,
    magic_events.DeclarationsOwed,
    magic_events.StandingOrdersSet,
    magic_events.RerollOwed,
    magic_events.DiceRerolled,
    magic_events.EnchantVictimsOwed,
    magic_events.UnitsEnchanted,
    magic_events.EnchantmentsBroken,
)

#: The events that have no line of their own, and where they are shown instead.
SILENT: Mapping[type[Event], str] = {
    turn.StepBegan: "the turn panel shows the step the turn is at",
    **{cls: "the battle message in #battles shows it (R-COMBAT-16)" for cls in BATTLE_DETAIL},
}


class NoWording(LookupError):
    """An event class has no line in :data:`LINES` (a new event was added without one)."""


def line_of(
    *classes: type[E],
) -> Callable[[Callable[[E, GameState, Ruleset], str | None]], LineMaker]:
    """Register the decorated function as the line maker of ``classes``.

    Raises:
        ValueError: one of them already has a line maker.
    """

    def register(make: Callable[[E, GameState, Ruleset], str | None]) -> LineMaker:
        for cls in classes:
            if cls in LINES:
                raise ValueError(f"{cls.__name__} already has a line")
            LINES[cls] = make
        return make

    return register


def _silent(event: Event, state: GameState, ruleset: Ruleset) -> None:
    return None


for _cls in SILENT:
    LINES[_cls] = _silent
