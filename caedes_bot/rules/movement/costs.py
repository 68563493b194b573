"""What one step costs a unit, and who stands where (R-MOVE-01, -02, -04..08, -12, -13)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from caedes_bot.gamedata.model import (
    Attribute,
    BaseType,
    Ruleset,
    Terrain,
    UnitKind,
    movement_allowance,
)
from caedes_bot.rules.state import GameState, Unit

# --------------------------------------------------------------------------- entry costs


class Entry(enum.IntEnum):
    """What entering a province costs a unit (R-MOVE-04..12), cheapest first."""

    NORMAL = 0
    ENTIRE = 1
    FORBIDDEN = 2


@dataclass(frozen=True, slots=True)
class EntryCost:
    """The cost of one step, with the rule and the reason when it is not normal."""

    entry: Entry
    rule: str = "R-MOVE-01"
    reason: str = ""


_NORMAL = EntryCost(Entry.NORMAL)


def entry_cost(
    ruleset: Ruleset, kind: UnitKind, origin: str, destination: str, terrain: Terrain
) -> EntryCost:
    """The cost for a unit of ``kind`` to step from ``origin`` into ``destination`` using
    ``terrain`` there (R-MOVE-05, -06, -07, -08, -12; R-ATTR-WOOD-01, -MTN-01, -AMPH-04).

    Returns :attr:`Entry.FORBIDDEN` for cavalry into mountains without Mountainlore,
    :attr:`Entry.ENTIRE` when the step costs the unit's entire movement (a river crossing into
    such terrain costs it once), else :attr:`Entry.NORMAL`.
    """
    cavalry = kind.base_type is BaseType.CAVALRY
    mountains = terrain is Terrain.MOUNTAINS
    if mountains and cavalry and not kind.has(Attribute.MOUNTAINLORE):
        name = ruleset.map.space_name(destination)
        return EntryCost(
            Entry.FORBIDDEN,
            "R-MOVE-06",
            f"cavalry may not enter mountains without Mountainlore, and {name} is mountains",
        )
    forest = terrain is Terrain.FOREST and cavalry and not kind.has(Attribute.WOODLORE)
    swamp = terrain is Terrain.SWAMP and cavalry and not kind.has(Attribute.AMPHIBIAN)
    river = (
        None
        if kind.has(Attribute.AMPHIBIAN) or kind.has(Attribute.FLYING)
        else ruleset.map.river_between(origin, destination)
    )
    if not (mountains or forest or swamp or river is not None):
        return _NORMAL
    name = ruleset.map.space_name(destination)
    reasons: list[tuple[str, str]] = []
    if mountains:
        rule = "R-ATTR-MTN-01" if cavalry else "R-MOVE-06"
        reasons.append(
            (rule, f"entering mountains ({name}) costs {type_word(kind)} its entire movement")
        )
    elif forest:
        reasons.append(
            (
                "R-MOVE-05",
                f"cavalry without Woodlore must spend its entire movement to enter forest ({name})",
            )
        )
    elif swamp:
        reasons.append(
            (
                "R-MOVE-07",
                f"cavalry must spend its entire movement to enter swamp ({name}) unless Amphibian",
            )
        )
    if river is not None:
        reasons.append(
            (
                "R-MOVE-12",
                f"crossing the {river.river} into {name} costs its entire movement",
            )
        )
    return EntryCost(Entry.ENTIRE, reasons[-1][0], "; ".join(r for _, r in reasons))


def type_word(kind: UnitKind) -> str:
    return "cavalry" if kind.base_type is BaseType.CAVALRY else "infantry"


# --------------------------------------------------------------------------- occupation


class Occupation:
    """Who stands where, read once per route search (R-MOVE-02, R-MOVE-13).

    Built in one pass over the units without copying any (``peek_units``): the spaces holding
    units of a faction that is not ``faction``'s pact partner, and those holding units of any
    other faction. With ``river_ship_occupies`` a river edge holding such units makes both
    provinces it borders hostile."""

    def __init__(self, state: GameState, ruleset: Ruleset, faction: str) -> None:
        partner: dict[str, bool] = {}
        hostile: set[str] = set()
        foreign: set[str] = set()
        for unit in state.peek_units():
            owner = unit.owner
            if owner == faction:
                continue
            foreign.add(unit.location)
            friendly = partner.get(owner)
            if friendly is None:
                friendly = partner[owner] = state.are_partners(owner, faction)
            if not friendly:
                hostile.add(unit.location)
        if state.options.river_ship_occupies:
            for space in list(hostile):
                edge = ruleset.map.rivers.get(space)
                if edge is not None:
                    hostile.update((edge.a, edge.b))
        self._hostile = hostile
        self._foreign = foreign

    def hostile(self, province: str) -> bool:
        """Units of a non-partner faction hold ``province`` (as :func:`hostile_units`)."""
        return province in self._hostile

    def foreign(self, province: str) -> bool:
        """Units of any other faction (partners included) stand in ``province``."""
        return province in self._foreign


def remaining_movement(unit: Unit, kind: UnitKind) -> int:
    """Movement points ``unit`` has left this turn (R-MOVE-01)."""
    return max(movement_allowance(kind) - unit.movement_used, 0)
