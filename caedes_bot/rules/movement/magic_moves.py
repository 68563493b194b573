"""Teleportation and divination, the two things a unit may do in step 6 instead of moving
(R-MAGIC-TELE-01, R-MAGIC-DIV-01, R-GEN-08).

:class:`Teleport`: a unit with Teleportation that has not moved this turn takes itself and up to
1d10 companions (units of its faction in its province, never Tower-type) to one land province
that holds no units of any other faction, pact partners included. The player lists the
companions in order; the choice is final before the die is rolled; if the die shows fewer than
the list is long, the first ones listed go and the rest stay where they are, unmoved. Every
unit that goes ends its movement. No battle can follow (the destination holds no other
faction), but an empty province of another faction is taken at the end of step 7 as any
unopposed province is (R-COLL-02), or at once with ``capture_on_entry``.

:class:`Divine`: a Diviner that has not moved this turn, in a province its faction owns, names a
commodity; two dice are rolled and their difference (0..9) is a one-time bonus of that
commodity. Option ``diviner_commodity``: ``produced`` (default) asks for a commodity the
province produces, ``any`` for any commodity. Option ``diviner_timing``: ``next_collect``
(default) pays it at the faction's next step 3 if the province is then collectible (R-COLL-04,
R-COLL-07: :func:`caedes_bot.rules.collect.collect`), ``immediate`` at once. Divining ends the
Diviner's movement.

Both roll dice, so neither can be taken back (:mod:`caedes_bot.rules.undo`); the dice are in
the events, which everyone sees (R-GEN-08).
"""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.gamedata.model import Attribute, BaseType, Commodity, Ruleset, movement_allowance
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalMove, RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement.refusals import check_destination
from caedes_bot.rules.movement.stuck import check_movable, unit_label
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import capture
from caedes_bot.rules.state import DivinerBonus, GameState, Unit


@dataclass(frozen=True, slots=True)
class Teleport(Order):
    """Teleport ``unit_id`` and the ``companions`` the die allows to ``destination``
    (R-MAGIC-TELE-01).

    Attributes:
        unit_id: a unit with Teleportation that has not moved this turn.
        destination: a land province holding no units of any other faction.
        companions: other units of the faction in the same province, in the order they go.
    """

    label = "Teleporting"

    unit_id: int
    destination: str
    companions: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class UnitsTeleported(Event):
    """``faction``'s teleporter ``unit_id`` rolled ``roll`` and went from ``origin`` to
    ``destination`` with ``went``; ``stayed`` were listed but the die was too low
    (R-MAGIC-TELE-01, R-GEN-08)."""

    faction: str
    unit_id: int
    origin: str
    destination: str
    roll: int
    went: tuple[int, ...]
    stayed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Divine(Order):
    """Divine with ``unit_id`` for ``commodity`` (R-MAGIC-DIV-01).

    Attributes:
        unit_id: a Diviner that has not moved this turn, in a province its faction owns.
        commodity: a commodity value (``"grain"``); under ``diviner_commodity = produced`` one
            the province produces.
    """

    label = "Divining"

    unit_id: int
    commodity: str


@dataclass(frozen=True, slots=True)
class Divined(Event):
    """``faction``'s Diviner ``unit_id`` in ``province`` rolled ``dice``; the difference
    ``amount`` of ``commodity`` is added at once (``immediate``) or at its next step 3
    (R-MAGIC-DIV-01, R-GEN-08)."""

    faction: str
    unit_id: int
    province: str
    commodity: str
    dice: tuple[int, int]
    amount: int
    immediate: bool


def _own_unit(state: GameState, ruleset: Ruleset, faction: str, unit_id: int) -> Unit:
    unit = state.units.get(str(unit_id))
    if unit is None:
        raise RuleViolation(
            f"There is no unit #{unit_id} on the board.",
            rule="R-MOVE-01",
            allowed="one of your units by number, as the option lists them (#4)",
        )
    if unit.owner != faction:
        raise RuleViolation(
            f"{unit_label(ruleset, unit)} belongs to {unit.owner}, not {faction}.",
            rule="R-TURN-03",
            allowed="use your own units",
        )
    return unit


def _not_moved(ruleset: Ruleset, unit: Unit, rule: str, what: str) -> None:
    if unit.movement_used or unit.path:
        raise IllegalMove(
            f"{unit_label(ruleset, unit)} has moved this turn; {what} is done instead of moving.",
            rule=rule,
            allowed=f"{what} with a unit that has not moved this turn",
        )


def _end_movement(ruleset: Ruleset, unit: Unit) -> None:
    unit.move_ended = True
    unit.movement_used = max(unit.movement_used, movement_allowance(ruleset.kind(unit.kind)))


# --------------------------------------------------------------------------- teleport


def check_teleport(state: GameState, ruleset: Ruleset, order: Teleport) -> list[Unit]:
    """Check ``order`` before any die is rolled; return the teleporter and its companions in
    order (R-MAGIC-TELE-01).

    Raises:
        RuleViolation: unknown units, not the faction's own, listed twice.
        UnknownName: unknown destination.
        IllegalMove: no Teleportation; moved this turn; a companion elsewhere, a Tower, or
            unable to move; the destination at sea, its own province, or holding units of
            another faction.
    """
    check_destination(ruleset, order.destination)
    unit = _own_unit(state, ruleset, order.faction, order.unit_id)
    label = unit_label(ruleset, unit)
    if not ruleset.kind(unit.kind).has(Attribute.TELEPORTATION):
        raise IllegalMove(
            f"{label} cannot teleport: it has no Teleportation.",
            rule="R-MAGIC-TELE-01",
            allowed="a unit with Teleportation, as the unit option lists them",
        )
    check_movable(state, ruleset, unit)
    _not_moved(ruleset, unit, "R-MAGIC-TELE-01", "teleportation")
    destination = order.destination
    name = ruleset.map.space_name(destination)
    if not ruleset.map.is_province(destination):
        raise IllegalMove(
            f"Teleportation goes to a land province, not to {name}.",
            rule="R-MAGIC-TELE-01",
            allowed="a land province that no other faction occupies",
        )
    if destination == unit.location:
        raise IllegalMove(
            f"{label} is already in {name}.",
            rule="R-MAGIC-TELE-01",
            allowed="another land province that no other faction occupies",
        )
    others = sorted({u.owner for u in state.units_at(destination) if u.owner != order.faction})
    if others:
        raise IllegalMove(
            f"{name} holds units of {', '.join(others)}; teleportation goes only to a province "
            "no other faction occupies.",
            rule="R-MAGIC-TELE-01",
            allowed="a province that is empty or holds only your own units",
        )
    if len(set(order.companions)) != len(order.companions) or unit.id in order.companions:
        raise RuleViolation(
            "A unit is listed twice in one teleport.",
            rule="R-MAGIC-TELE-01",
            allowed="each companion once, and not the teleporter itself",
        )
    going = [unit]
    for uid in order.companions:
        other = _own_unit(state, ruleset, order.faction, uid)
        other_label = unit_label(ruleset, other)
        if other.location != unit.location:
            raise IllegalMove(
                f"{other_label} is not in {ruleset.map.space_name(unit.location)} with {label}.",
                rule="R-MAGIC-TELE-01",
                allowed="companions in the teleporter's own province, as the option lists them",
            )
        kind = ruleset.kind(other.kind)
        if kind.base_type is BaseType.TOWER or kind.has(Attribute.FORTIFICATION):
            raise IllegalMove(
                f"{other_label} is a Tower; Towers are never teleported.",
                rule="R-ATTR-FORT-01",
                allowed="companions that are not Towers; leave the Tower out of the list",
            )
        check_movable(state, ruleset, other)
        going.append(other)
    return going


def handle_teleport(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`Teleport`: check everything, roll the d10, move the teleporter and the
    first companions the die allows (R-MAGIC-TELE-01, R-GEN-08).

    Raises:
        RuleViolation: see :func:`check_teleport`; then no die is rolled and nothing moves.
    """
    assert isinstance(order, Teleport)
    units = check_teleport(state, ruleset, order)
    teleporter, companions = units[0], units[1:]
    (roll,) = dice.roll(10, 1, reason=f"Teleportation of unit {teleporter.id}")
    went = companions[:roll]
    stayed = companions[roll:]
    origin = teleporter.location
    for unit in [teleporter, *went]:
        moving = state.unit(unit.id)
        moving.location = order.destination
        moving.path = [*moving.path, order.destination]
        moving.entered_from = origin
        moving.terrain = None
        moving.attacking = False
        _end_movement(ruleset, moving)
    events: list[Event] = [
        UnitsTeleported(
            order.faction,
            teleporter.id,
            origin,
            order.destination,
            roll,
            tuple(u.id for u in went),
            tuple(u.id for u in stayed),
        )
    ]
    if state.options.capture_on_entry:
        events += capture(state, order.destination, order.faction)
    return events


# --------------------------------------------------------------------------- divination


def divinable_commodities(state: GameState, ruleset: Ruleset, unit: Unit) -> list[str]:
    """The commodities ``unit`` may divine for where it stands (R-MAGIC-DIV-01,
    ``diviner_commodity``), in the commodities' order."""
    if state.options.diviner_commodity == "any" or not ruleset.map.is_province(unit.location):
        return [c.value for c in Commodity]
    produced = {c.value for c in ruleset.map.provinces[unit.location].commodities}
    return [c.value for c in Commodity if c.value in produced]


def check_divine(state: GameState, ruleset: Ruleset, order: Divine) -> Unit:
    """Check ``order`` before the dice are rolled (R-MAGIC-DIV-01).

    Raises:
        RuleViolation: unknown unit, not the faction's own.
        UnknownName: unknown commodity.
        IllegalMove: no Diviner; moved this turn; not in a province its faction owns; a
            commodity the province does not produce (option ``diviner_commodity``).
    """
    unit = _own_unit(state, ruleset, order.faction, order.unit_id)
    label = unit_label(ruleset, unit)
    if not ruleset.kind(unit.kind).has(Attribute.DIVINER):
        raise IllegalMove(
            f"{label} is not a Diviner.",
            rule="R-MAGIC-DIV-01",
            allowed="a unit with Diviner, as the unit option lists them",
        )
    check_movable(state, ruleset, unit)
    _not_moved(ruleset, unit, "R-MAGIC-DIV-01", "divining")
    place = ruleset.map.space_name(unit.location)
    if state.owner(unit.location) != order.faction:
        raise IllegalMove(
            f"{label} is in {place}, which {order.faction} does not own; a Diviner divines in "
            "a province its faction owns.",
            rule="R-MAGIC-DIV-01",
            allowed="divine with a Diviner standing in a province your faction owns",
        )
    names = [c.value for c in Commodity]
    if order.commodity not in names:
        unknown = UnknownName("commodity", order.commodity, (), rule="R-MAGIC-DIV-01")
        unknown.allowed = "one of: " + ", ".join(names)
        raise unknown
    allowed = divinable_commodities(state, ruleset, unit)
    if order.commodity not in allowed:
        raise IllegalMove(
            f"{place} does not produce {order.commodity}.",
            rule="R-MAGIC-DIV-01",
            allowed="one of: " + (", ".join(allowed) or "none (it produces nothing)"),
        )
    return unit


def handle_divine(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`Divine`: roll two dice; their difference of the commodity is added now or
    kept for the next step 3 (R-MAGIC-DIV-01, R-GEN-08).

    Raises:
        RuleViolation: see :func:`check_divine`; then no die is rolled.
    """
    assert isinstance(order, Divine)
    unit = check_divine(state, ruleset, order)
    first, second = dice.roll(10, 2, reason=f"Divination of unit {unit.id}")
    amount = abs(first - second)
    immediate = state.options.diviner_timing == "immediate"
    faction = state.factions[order.faction]
    if immediate:
        if amount:
            faction.commodities[order.commodity] = (
                faction.commodities.get(order.commodity, 0) + amount
            )
    elif amount:
        faction.diviner_bonuses = [
            *faction.diviner_bonuses,
            DivinerBonus(unit.location, order.commodity, amount),
        ]
    _end_movement(ruleset, state.unit(unit.id))
    return [
        Divined(
            order.faction,
            unit.id,
            unit.location,
            order.commodity,
            (first, second),
            amount,
            immediate,
        )
    ]
