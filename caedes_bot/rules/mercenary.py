"""The Mercenary rule (R-ATTR-MERC-01, R-ATTR-MERC-02, R-ATTR-MISS-03).

Mercenaries may never outnumber the other units of their own faction in one place. At the very
start of every turn :func:`mercenary_check` destroys the excess in every space (R-TURN-04),
cheapest first; in battle the same count is made at the start of every round on each side
(:func:`caedes_bot.rules.combat.arithmetic.mercenary_losses`, which the battle machine and the
odds calculator share). The Orc Giant allies count as Mercenaries only under the option
``giant_allies_mercenary``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import Attribute, Options, Ruleset, UnitKind
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import (
    GameState,
    Unit,
)


@dataclass(frozen=True, slots=True)
class MercenariesDeserted(Event):
    """Mercenaries outnumbering their faction's other units in ``space`` were destroyed
    (R-ATTR-MERC-01). ``units`` are ``(unit id, kind id)`` pairs."""

    faction: str
    space: str
    units: tuple[tuple[int, str], ...]
    mercenaries: int
    others: int


#: The Orc Giant allies, Mercenary only under the option ``giant_allies_mercenary``.
GIANT_ALLIES = "U-ORC-07"


def is_mercenary(kind: UnitKind, options: Options) -> bool:
    """Whether ``kind`` is a Mercenary (R-ATTR-MERC-01), counting the Giant allies when the
    option ``giant_allies_mercenary`` is on (R-ATTR-MISS-03)."""
    if kind.has(Attribute.MERCENARY):
        return True
    return options.giant_allies_mercenary and kind.id == GIANT_ALLIES


def mercenary_excess(units: Sequence[Unit], ruleset: Ruleset, options: Options) -> list[Unit]:
    """The Mercenaries of one faction that must go from one space or battle side (R-ATTR-MERC-01).

    Args:
        units: every unit of ONE faction in one space (or on one battle side); enchanted units
            should be left out by the caller.

    Returns:
        The excess Mercenaries, as many as they outnumber the other units, cheapest first
        (ties: most recently mustered first): the default choice.
    """
    mercs = [u for u in units if is_mercenary(ruleset.kind(u.kind), options)]
    excess = len(mercs) - (len(units) - len(mercs))
    if excess <= 0:
        return []
    mercs.sort(key=lambda u: (ruleset.kind(u.kind).cost or 0, -u.muster_seq))
    return mercs[:excess]


def mercenary_check(state: GameState, ruleset: Ruleset) -> list[Event]:
    """The turn-start Mercenary check in every space for every faction (R-TURN-04,
    R-ATTR-MERC-01): in each space where a faction's Mercenaries outnumber its other units
    (Towers, ships, cargo, Heroes all count), the excess is destroyed, cheapest first.
    Mutates ``state``; returns one :class:`MercenariesDeserted` per space and faction hit."""
    groups: dict[tuple[str, str], list[Unit]] = {}
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        groups.setdefault((unit.location, unit.owner), []).append(unit)
    events: list[Event] = []
    for (space, faction), units in sorted(groups.items()):
        gone = mercenary_excess(units, ruleset, state.options)
        if not gone:
            continue
        mercs = sum(1 for u in units if is_mercenary(ruleset.kind(u.kind), state.options))
        for unit in gone:
            del state.units[str(unit.id)]
        events.append(
            MercenariesDeserted(
                faction,
                space,
                tuple((u.id, u.kind) for u in gone),
                mercenaries=mercs,
                others=len(units) - mercs,
            )
        )
    return events
