"""Checking and carrying out :class:`MoveUnits` and :class:`FlyUnits`, and step 6 itself
(R-MOVE-01..12, R-ATTR-FLY-01, R-ATTR-AMPH-01)."""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Attribute, Ruleset, Terrain
from caedes_bot.rules.combat.battle import begin_combat_step
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalMove, RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement.amphibian import plan_sea_attack
from caedes_bot.rules.movement.flight import (
    FLYING_ALLOWANCE,
    can_fly,
    flight_neighbours,
    plan_flights,
)
from caedes_bot.rules.movement.magic_moves import Divine, Teleport, handle_divine, handle_teleport
from caedes_bot.rules.movement.orders import FlyUnits, MoveUnits, UnitsMoved
from caedes_bot.rules.movement.plans import MoveKind, MovePlan
from caedes_bot.rules.movement.reach import plan_moves
from caedes_bot.rules.movement.refusals import check_destination, parse_terrain, why_unreachable
from caedes_bot.rules.movement.stuck import check_movable, unit_label
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import capture, hostile_units
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.rules.steps import Accepts, StepSpec, always

# --------------------------------------------------------------------------- the order


def _units_of_order(
    state: GameState, ruleset: Ruleset, faction: str, unit_ids: Sequence[int]
) -> list[Unit]:
    """The units an order moves, each checked to be the faction's own and free to move
    (R-MOVE-01, R-TURN-03)."""
    if not unit_ids:
        raise RuleViolation(
            "Name at least one unit to move.",
            rule="R-MOVE-01",
            allowed="one or more units, like #3, #4",
        )
    if len(set(unit_ids)) != len(unit_ids):
        raise RuleViolation(
            "A unit is listed twice in one move.", rule="R-MOVE-01", allowed="each unit once"
        )
    units: list[Unit] = []
    for uid in unit_ids:
        unit = state.units.get(str(uid))
        if unit is None:
            raise RuleViolation(
                f"There is no unit #{uid} on the board.",
                rule="R-MOVE-01",
                allowed="your own units by number, as the units option lists them (#4)",
            )
        if unit.owner != faction:
            raise RuleViolation(
                f"{unit_label(ruleset, unit)} belongs to {unit.owner}, not {faction}.",
                rule="R-TURN-03",
                allowed="move your own units",
            )
        check_movable(state, ruleset, unit)
        units.append(unit)
    return units


def _check_via(ruleset: Ruleset, via: Sequence[str]) -> None:
    """Each space of a ``via`` list is a province or a sea zone (R-MOVE-01)."""
    for space in via:
        check_destination(ruleset, space)


def _check_terrain(ruleset: Ruleset, destination: str, terrain: Terrain | None) -> None:
    province = ruleset.map.provinces[destination]
    if terrain is not None and terrain not in province.terrains:
        name = province.name
        have = ", ".join(t.value for t in province.terrains)
        raise IllegalMove(
            f"{name} has no {terrain.value}; its terrain is {have}.",
            rule="R-MOVE-03",
            allowed=f"name one of: {have}, or none",
        )


def plan_order(state: GameState, ruleset: Ruleset, order: MoveUnits) -> list[MovePlan]:
    """Check ``order`` and return one plan per unit, in the order given (R-MOVE-01..12,
    R-ATTR-AMPH-01, R-ATTR-AMPH-02).

    Raises:
        RuleViolation: no units, a unit listed twice, not the faction's own (R-TURN-03).
        UnknownName: unknown destination, ``via`` space or terrain.
        IllegalMove: a unit cannot move, or cannot reach the destination (rule of the reason;
            ``allowed`` lists where it can go); a sea zone as destination (R-MOVE-09), unless
            Amphibian units attack non-pact units there (R-ATTR-AMPH-02,
            :func:`~caedes_bot.rules.movement.amphibian.plan_sea_attack`).
        NotBuiltYet: a ship or cargo.
    """
    terrain = parse_terrain(order.terrain)
    check_destination(ruleset, order.destination)
    _check_via(ruleset, order.via)
    units = _units_of_order(state, ruleset, order.faction, order.unit_ids)
    destination = order.destination
    name = ruleset.map.space_name(destination)
    if ruleset.map.is_sea(destination):
        first = ruleset.kind(units[0].kind)
        if first.has(Attribute.AMPHIBIAN) and hostile_units(
            state, ruleset, destination, order.faction
        ):
            return plan_sea_attack(state, ruleset, units, destination, order.terrain, order.via)
        if first.has(Attribute.AMPHIBIAN):
            raise IllegalMove(
                f"An Amphibian unit crosses a sea zone ({name}) but never stops there.",
                rule="R-ATTR-AMPH-01",
                allowed="name a province on the far coast, with the sea zone in via",
            )
        raise IllegalMove(
            f"Infantry and cavalry never enter a sea zone ({name}) over land.",
            rule="R-MOVE-09",
            allowed="move to a province; at sea, land units go aboard ships (/embark)",
        )
    _check_terrain(ruleset, destination, terrain)
    plans: list[MovePlan] = []
    for unit in units:
        if unit.location == destination:
            raise IllegalMove(
                f"{unit_label(ruleset, unit)} is already in {name}.",
                rule="R-MOVE-01",
                allowed="another province as the destination",
            )
        options = plan_moves(state, ruleset, unit, terrain, order.via)
        plan = options.get(destination)
        if plan is None and order.via and destination in plan_moves(state, ruleset, unit, terrain):
            through = ", ".join(ruleset.map.space_name(s) for s in order.via)
            raise IllegalMove(
                f"{unit_label(ruleset, unit)} can reach {name}, but not through {through} "
                "within its movement this turn.",
                rule="R-MOVE-01",
                allowed="leave via out to let the bot find the route, or name other spaces",
            )
        if plan is None:
            # where it can go at all, not only through ``via``: the list is what is allowed
            reachable = plan_moves(state, ruleset, unit, terrain) if order.via else options
            raise why_unreachable(state, ruleset, unit, destination, terrain, list(reachable))
        plans.append(plan)
    return plans


def plan_flight_order(state: GameState, ruleset: Ruleset, order: FlyUnits) -> list[MovePlan]:
    """Check ``order`` and return one flight per unit, in the order given (R-ATTR-FLY-01).

    Raises:
        RuleViolation, UnknownName: as :func:`plan_order`.
        IllegalMove: a unit without Flying, one that has moved this turn, a sea zone as the
            destination, or a province more than 4 spaces away (R-ATTR-FLY-01).
    """
    terrain = parse_terrain(order.terrain)
    check_destination(ruleset, order.destination)
    _check_via(ruleset, order.via)
    units = _units_of_order(state, ruleset, order.faction, order.unit_ids)
    destination = order.destination
    name = ruleset.map.space_name(destination)
    if ruleset.map.is_sea(destination):
        raise IllegalMove(
            f"A flight starts and ends in a province, never at sea ({name}).",
            rule="R-ATTR-FLY-01",
            allowed="name a province; a flight may pass over sea zones on the way",
        )
    _check_terrain(ruleset, destination, terrain)
    graph = flight_neighbours(ruleset.map)
    plans: list[MovePlan] = []
    for unit in units:
        label = unit_label(ruleset, unit)
        if not ruleset.kind(unit.kind).has(Attribute.FLYING):
            raise IllegalMove(
                f"{label} cannot fly.", rule="R-ATTR-FLY-01", allowed="use /move for it"
            )
        if unit.location == destination:
            raise IllegalMove(
                f"{label} is already in {name}.",
                rule="R-MOVE-01",
                allowed="another province as the destination",
            )
        if not can_fly(ruleset, unit):
            raise IllegalMove(
                f"{label} has moved this turn; a flight is made instead of a unit's move.",
                rule="R-ATTR-FLY-01",
                allowed="a normal move with /move while it has movement left, or a flight next turn",
            )
        plan = plan_flights(state, ruleset, unit, terrain, order.via, graph).get(destination)
        if plan is None:
            through = (
                " through " + ", ".join(ruleset.map.space_name(s) for s in order.via)
                if order.via
                else ""
            )
            raise IllegalMove(
                f"{name} is more than {FLYING_ALLOWANCE} spaces from {label}{through}.",
                rule="R-ATTR-FLY-01",
                allowed=f"a province within {FLYING_ALLOWANCE} spaces (sea zones count)",
            )
        plans.append(plan)
    return plans


def carry_out(
    state: GameState, ruleset: Ruleset, faction: str, plans: Sequence[MovePlan]
) -> list[Event]:
    """Move the units along ``plans`` (already checked) and return the events (R-MOVE-01, -02).

    Each unit's ``location``, ``path``, ``entered_from``, ``movement_used``, ``terrain``,
    ``move_ended``, ``attacking`` and ``flew`` are updated. With the option ``capture_on_entry`` an
    unoccupied destination not held by the faction or a partner passes to it at once
    (R-COLL-02); by default ownership changes only at the end of step 7.
    """
    groups: dict[tuple[str, tuple[str, ...], Terrain | None, MoveKind], list[MovePlan]] = {}
    for plan in plans:
        unit = state.unit(plan.unit_id)
        unit.location = plan.destination
        unit.path = [*unit.path, *plan.path]
        unit.entered_from = plan.entered_from
        unit.movement_used += plan.cost
        unit.terrain = plan.terrain
        unit.move_ended = unit.move_ended or plan.move_ended
        unit.attacking = plan.attack
        unit.flew = unit.flew or plan.how is MoveKind.FLIGHT
        groups.setdefault((plan.origin, plan.path, plan.terrain, plan.how), []).append(plan)
    events: list[Event] = []
    for (origin, path, terrain, how), group in groups.items():
        events.append(
            UnitsMoved(
                faction=faction,
                unit_ids=tuple(p.unit_id for p in group),
                origin=origin,
                destination=path[-1],
                path=path,
                attack=group[0].attack,
                terrain=terrain,
                move_ended=all(p.move_ended for p in group),
                how=how,
            )
        )
    destination = plans[0].destination if plans else None
    if destination is not None and state.options.capture_on_entry and not plans[0].attack:
        events += capture(state, destination, faction)
    return events


def handle_move_units(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`MoveUnits` (step 6, active faction only; R-MOVE-01..12).

    Raises:
        RuleViolation: see :func:`plan_order`; nothing moves on a refusal.
    """
    assert isinstance(order, MoveUnits)
    plans = plan_order(state, ruleset, order)
    return carry_out(state, ruleset, order.faction, plans)


def handle_fly_units(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`FlyUnits` (step 6, active faction only; R-ATTR-FLY-01).

    Raises:
        RuleViolation: see :func:`plan_flight_order`; nothing moves on a refusal.
    """
    assert isinstance(order, FlyUnits)
    plans = plan_flight_order(state, ruleset, order)
    return carry_out(state, ruleset, order.faction, plans)


# --------------------------------------------------------------------------- step 6


def _list_battles(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return begin_combat_step(state, ruleset)  # R-COMBAT-01: the battles of step 7


#: Step 6, Move (R-MOVE-01..22). When it ends the battles of step 7 are listed.
SPEC = StepSpec(
    "move",
    Step.MOVE,
    accepts=(
        Accepts(MoveUnits, handle_move_units),
        Accepts(FlyUnits, handle_fly_units),
        Accepts(Teleport, handle_teleport),
        Accepts(Divine, handle_divine),
    ),
    on_leave=_list_battles,
    waits=always,
)
