"""The orders and events of land movement in step 6 (R-MOVE-01, R-MOVE-02)."""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.gamedata.model import Terrain
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement.plans import MoveKind
from caedes_bot.rules.orders import Order

# --------------------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class MoveUnits(Order):
    """Move units of the active faction to ``destination`` in step 6 (R-MOVE-01).

    Attributes:
        unit_ids: the units to move; each finds its own route; all or none move.
        destination: a province id.
        terrain: the terrain the units use in a multi-terrain destination (R-MOVE-03), by name
            (``"forest"``); ``None`` lets the rules choose for each unit.
        via: spaces (province or sea zone ids) every unit's route must pass through, in this
            order; a sea zone asks for an Amphibian crossing (R-ATTR-AMPH-01).
    """

    label = "Moving units"
    undoable = True

    unit_ids: tuple[int, ...]
    destination: str
    terrain: str | None = None
    via: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FlyUnits(Order):
    """Fly units of the active faction to ``destination`` in step 6, instead of their normal
    move (R-ATTR-FLY-01).

    Attributes:
        unit_ids: units with Flying that have not moved this turn; all or none fly.
        destination: a province id (a flight never ends at sea).
        terrain: as in :class:`MoveUnits` (R-MOVE-03).
        via: spaces (provinces or sea zones) every flight must pass over, in this order.
    """

    label = "Flying"
    undoable = True

    unit_ids: tuple[int, ...]
    destination: str
    terrain: str | None = None
    via: tuple[str, ...] = ()


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class UnitsMoved(Event):
    """Units of ``faction`` moved from ``origin`` along ``path`` to ``destination`` (R-MOVE-01).

    Attributes:
        unit_ids: the units that took this route.
        path: every province entered, in order, ending with ``destination``.
        attack: the destination holds units of a non-partner faction; the units will fight
            there in step 7 (R-MOVE-02).
        terrain: the terrain they use there (R-MOVE-03), if it has several.
        move_ended: they may not move again this turn (R-MOVE-04, R-MOVE-02).
        how: ``"land"``, ``"flight"`` (R-ATTR-FLY-01) or ``"crossing"`` (R-ATTR-AMPH-01);
            ``path`` then holds the sea zones flown over or crossed.
    """

    faction: str
    unit_ids: tuple[int, ...]
    origin: str
    destination: str
    path: tuple[str, ...]
    attack: bool
    terrain: Terrain | None = None
    move_ended: bool = False
    how: MoveKind = MoveKind.LAND
