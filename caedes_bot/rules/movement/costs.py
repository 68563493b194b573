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
    name = ruleset.map.space_name(destination)
    if terrain is Terrain.MOUNTAINS and cavalry and not kind.has(Attribute.MOUNTAINLORE):
        return EntryCost(
            Entry.FORBIDDEN,
            "R-MOVE-06",
            f"cavalry may not enter mountains without Mountainlore, and {name} is mountains",
        )
    reasons: list[tuple[str, str]] = []
    if terrain is Terrain.MOUNTAINS:
        rule = "R-ATTR-MTN-01" if cavalry else "R-MOVE-06"
        reasons.append(
            (rule, f"entering mountains ({name}) costs {type_word(kind)} its entire movement")
        )
    elif terrain is Terrain.FOREST and cavalry and not kind.has(Attribute.WOODLORE):
        reasons.append(
            (
                "R-MOVE-05",
                f"cavalry without Woodlore must spend its entire movement to enter forest ({name})",
            )
        )
    elif terrain is Terrain.SWAMP and cavalry and not kind.has(Attribute.AMPHIBIAN):
        reasons.append(
            (
                "R-MOVE-07",
                f"cavalry must spend its entire movement to enter swamp ({name}) unless Amphibian",
            )
        )
    river = ruleset.map.river_between(origin, destination)
    if river is not None and not (kind.has(Attribute.AMPHIBIAN) or kind.has(Attribute.FLYING)):
        reasons.append(
            (
                "R-MOVE-12",
                f"crossing the {river.river} into {name} costs its entire movement",
            )
        )
    if not reasons:
        return EntryCost(Entry.NORMAL)
    return EntryCost(Entry.ENTIRE, reasons[-1][0], "; ".join(r for _, r in reasons))


def type_word(kind: UnitKind) -> str:
    return "cavalry" if kind.base_type is BaseType.CAVALRY else "infantry"


# --------------------------------------------------------------------------- occupation


class Occupation:
    """Who stands where, read once per route search (R-MOVE-02, R-MOVE-13)."""

    def __init__(self, state: GameState, ruleset: Ruleset, faction: str) -> None:
        owners: dict[str, set[str]] = {}
        for unit in state.units.values():
            owners.setdefault(unit.location, set()).add(unit.owner)
        self._owners = owners
        self._state = state
        self._ruleset = ruleset
        self._faction = faction
        self._hostile: dict[str, bool] = {}

    def hostile(self, province: str) -> bool:
        """Units of a non-partner faction hold ``province`` (as :func:`hostile_units`)."""
        found = self._hostile.get(province)
        if found is None:
            spaces = [province]
            if self._state.options.river_ship_occupies:
                spaces += [e.id for e in self._ruleset.map.river_edges_of(province)]
            found = any(
                not self._state.are_partners(owner, self._faction)
                for space in spaces
                for owner in self._owners.get(space, ())
            )
            self._hostile[province] = found
        return found

    def foreign(self, province: str) -> bool:
        """Units of any other faction (partners included) stand in ``province``."""
        return bool(self._owners.get(province, set()) - {self._faction})


def remaining_movement(unit: Unit, kind: UnitKind) -> int:
    """Movement points ``unit`` has left this turn (R-MOVE-01)."""
    return max(movement_allowance(kind) - unit.movement_used, 0)
