"""Why a unit cannot move at all now (R-MOVE-01, -02, -04, -15, -18, -22, R-ATTR-FORT-01)."""

from __future__ import annotations

import enum

from caedes_bot.gamedata.model import Attribute, BaseType, Ruleset, UnitKind
from caedes_bot.rules.errors import IllegalMove, NotBuiltYet, RuleViolation
from caedes_bot.rules.movement.costs import remaining_movement
from caedes_bot.rules.state import GameState, Unit

# --------------------------------------------------------------------------- checks


def unit_label(ruleset: Ruleset, unit: Unit) -> str:
    return f"{ruleset.kind(unit.kind).display_name} #{unit.id}"


class Stuck(enum.Enum):
    """Why a unit cannot move now (R-MOVE-01, -02, -04, -15, -18, -22, R-ATTR-FORT-01): the
    answer of :func:`why_stuck`. Each member's :attr:`rule` is the rule behind it; the words
    for players are the edge's (``caedes_bot.ui``)."""

    FORTIFICATION = "fortification"
    """A Tower or other Fortification: it never moves (R-ATTR-FORT-01)."""
    SHIP = "ship"
    """A ship: it sails (:mod:`caedes_bot.rules.ships`), never over land (R-MOVE-18)."""
    AFLOAT = "afloat"
    """Aboard a ship: it moves with the ship and lands by a boarding move
    (:mod:`caedes_bot.rules.cargo`, R-MOVE-15)."""
    ATTACKING = "attacking"
    """It entered another faction's units and must fight there in step 7 (R-MOVE-02)."""
    MUSTERED = "mustered"
    """Mustered this turn: it moves from its faction's next turn (R-MOVE-22)."""
    MOVE_ENDED = "move_ended"
    """Its movement has ended this turn (entire movement paid, attack made; R-MOVE-04)."""
    NO_MOVEMENT_LEFT = "no_movement_left"
    """Its allowance is spent this turn (R-MOVE-01)."""
    NOWHERE = "nowhere"
    """It could move, but no province is within reach now (R-MOVE-01)."""

    @property
    def rule(self) -> str:
        """The catalogue rule behind this reason."""
        return _STUCK_RULES[self]

    @property
    def not_built(self) -> bool:
        """The rule that would let the unit move is not built yet."""
        return False


_STUCK_RULES = {
    Stuck.FORTIFICATION: "R-ATTR-FORT-01",
    Stuck.SHIP: "R-MOVE-18",
    Stuck.AFLOAT: "R-MOVE-15",
    Stuck.ATTACKING: "R-MOVE-02",
    Stuck.MUSTERED: "R-MOVE-22",
    Stuck.MOVE_ENDED: "R-MOVE-04",
    Stuck.NO_MOVEMENT_LEFT: "R-MOVE-01",
    Stuck.NOWHERE: "R-MOVE-01",
}


def blocked(ruleset: Ruleset, unit: Unit, kind: UnitKind) -> Stuck | None:
    """Why ``unit`` cannot move at all this step, or ``None`` if it may try (never
    :attr:`Stuck.NOWHERE`)."""
    if kind.base_type is BaseType.TOWER or kind.has(Attribute.FORTIFICATION):
        return Stuck.FORTIFICATION
    if kind.base_type is BaseType.SHIP:
        return Stuck.SHIP
    if unit.aboard is not None or not ruleset.map.is_province(unit.location):
        return Stuck.AFLOAT
    if unit.attacking:
        return Stuck.ATTACKING
    if unit.move_ended:
        if unit.movement_used == 0 and not unit.path:
            return Stuck.MUSTERED
        return Stuck.MOVE_ENDED
    if remaining_movement(unit, kind) <= 0:
        return Stuck.NO_MOVEMENT_LEFT
    return None


def _refusal(ruleset: Ruleset, unit: Unit, stuck: Stuck) -> RuleViolation:
    """The refusal of an order that moves ``unit``, which ``stuck`` keeps in place."""
    label = unit_label(ruleset, unit)
    text = {
        Stuck.FORTIFICATION: f"{label} is a Fortification and never moves.",
        Stuck.SHIP: f"{label} is a ship; ships sail (/sail), never over land.",
        Stuck.AFLOAT: f"{label} is aboard a ship; it moves with the ship and lands with /disembark.",
        Stuck.ATTACKING: (
            f"{label} entered a province held by another faction and must fight there in step 7."
        ),
        Stuck.MUSTERED: (
            f"{label} was mustered this turn and may move from its faction's next turn."
        ),
        Stuck.MOVE_ENDED: f"{label} has ended its movement this turn.",
        Stuck.NO_MOVEMENT_LEFT: f"{label} has no movement left this turn.",
        Stuck.NOWHERE: f"{label} can reach no province from here now.",
    }[stuck]
    allowed = {
        Stuck.FORTIFICATION: "move your infantry and cavalry",
        Stuck.SHIP: "/sail for the ship, /embark and /disembark for its cargo",
        Stuck.AFLOAT: "/disembark it into a province the ship touches",
        Stuck.ATTACKING: "move your other units; it fights in step 7",
        Stuck.MUSTERED: "move units mustered before this turn",
    }.get(stuck, "move units with movement left, as the units option lists them")
    error = NotBuiltYet if stuck.not_built else IllegalMove
    return error(text, rule=stuck.rule, allowed=allowed)


def check_movable(state: GameState, ruleset: Ruleset, unit: Unit) -> None:
    """Raise the reason ``unit`` cannot move at all now, if any (R-MOVE-01, -02, -04, -22,
    R-ATTR-FORT-01; :class:`NotBuiltYet` for ships and cargo). A unit that may move but has
    nowhere to go passes: the destination check says why."""
    stuck = blocked(ruleset, unit, ruleset.kind(unit.kind))
    if stuck is not None:
        raise _refusal(ruleset, unit, stuck)
