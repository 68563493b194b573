"""What a planned move of one unit is (R-MOVE-01, R-MOVE-21): :class:`MovePlan`."""

from __future__ import annotations

import enum
from typing import NamedTuple

from caedes_bot.gamedata.model import Terrain


class MoveKind(enum.StrEnum):
    """How a unit makes a move (R-MOVE-21)."""

    LAND = "land"
    """A normal move over land borders (R-MOVE-01)."""
    FLIGHT = "flight"
    """A flying move, up to 4 spaces over anything (R-ATTR-FLY-01)."""
    CROSSING = "crossing"
    """An Amphibian crossing of one sea zone (R-ATTR-AMPH-01)."""
    SEA_ATTACK = "sea_attack"
    """An Amphibian attack on units in a sea zone next to its province (R-ATTR-AMPH-02)."""


class MovePlan(NamedTuple):
    """A legal move of one unit to one destination (what :class:`MoveUnits` carries out).

    An immutable named tuple rather than a frozen dataclass: a route search makes one per
    destination for every query, and a tuple is made in a third of the time (decision 0016).

    Attributes:
        unit_id: the unit.
        origin: where it starts.
        path: provinces entered, in order; the last is the destination.
        terrain: terrain to store in :attr:`Unit.terrain` (R-MOVE-03), or ``None``.
        cost: movement points it uses (its whole remaining allowance for an entire-movement
            entry, R-MOVE-04).
        entire: the last step cost its entire movement.
        attack: the destination holds non-partner units (R-MOVE-02).
        how: by land, by a flying move (R-ATTR-FLY-01) or by an Amphibian crossing
            (R-ATTR-AMPH-01); the last two are made instead of a normal move and end it.
    """

    unit_id: int
    origin: str
    path: tuple[str, ...]
    terrain: Terrain | None
    cost: int
    entire: bool
    attack: bool
    how: MoveKind = MoveKind.LAND

    @property
    def destination(self) -> str:
        return self.path[-1]

    @property
    def entered_from(self) -> str:
        """The space the unit enters the destination from (R-COMBAT-08)."""
        return self.path[-2] if len(self.path) > 1 else self.origin

    @property
    def move_ended(self) -> bool:
        return self.entire or self.attack or self.how is not MoveKind.LAND
