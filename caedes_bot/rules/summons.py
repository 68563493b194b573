"""Summoned units (R-MAGIC-SUMM-01..04, R-RACE-SUM-01, R-ATTR-FORT-06, R-COMM-11, R-BUY-05).

Summoned units last only until the next Muster step of any faction: when a step 8 begins,
every Summoned unit on the board vanishes (R-MAGIC-SUMM-02), before the board that step's
musters are judged on is fixed (R-MUSTER-01). A unit summoned during a step 8 lasts until the
next one. Losing the last Summoner takes them too (:mod:`caedes_bot.rules.dependants`).
"""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.gamedata.model import Race, Ruleset, UnitKind
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState


def is_summoned(kind: UnitKind) -> bool:
    """Whether ``kind`` is a Summoned unit (R-RACE-SUM-01)."""
    return kind.race is Race.SUMMONED


@dataclass(frozen=True, slots=True)
class SummonsVanished(Event):
    """A Muster step began (``faction``'s, game round ``round``) and every Summoned unit on
    the board vanished (R-MAGIC-SUMM-02); ``units`` are ``(unit id, kind id, space, owner)``.
    Public."""

    faction: str
    round: int
    units: tuple[tuple[int, str, str, str], ...]


def vanish_summons(state: GameState, ruleset: Ruleset) -> list[Event]:
    """At the start of a Muster step, of any faction, every Summoned unit on the board is
    destroyed (R-MAGIC-SUMM-02). Mutates ``state``; returns ``[SummonsVanished]`` or nothing."""
    gone = sorted(
        (u for u in state.peek_units() if is_summoned(ruleset.kind(u.kind))), key=lambda u: u.id
    )
    if not gone:
        return []
    for unit in gone:
        del state.units[str(unit.id)]
    return [
        SummonsVanished(
            state.active or "",
            state.round,
            tuple((u.id, u.kind, u.location, u.owner) for u in gone),
        )
    ]
