"""Checking and carrying out :class:`MoveUnits`, and step 6 itself (R-MOVE-01..12)."""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Attribute, Ruleset, Terrain
from caedes_bot.rules.combat.battle import begin_combat_step
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalMove, NotBuiltYet, RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement.orders import MoveUnits, UnitsMoved
from caedes_bot.rules.movement.reach import MovePlan, plan_moves
from caedes_bot.rules.movement.refusals import check_destination, parse_terrain, why_unreachable
from caedes_bot.rules.movement.stuck import check_movable, unit_label
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import capture
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.rules.steps import Accepts, StepSpec, always

# --------------------------------------------------------------------------- the order


def plan_order(state: GameState, ruleset: Ruleset, order: MoveUnits) -> list[MovePlan]:
    """Check ``order`` and return one plan per unit, in the order given (R-MOVE-01..12).

    Raises:
        RuleViolation: no units, a unit listed twice, not the faction's own (R-TURN-03).
        UnknownName: unknown destination or terrain.
        IllegalMove: a unit cannot move, or cannot reach the destination (rule of the reason;
            ``allowed`` lists where it can go).
        NotBuiltYet: a ship, cargo, or a sea destination (ships, Amphibian crossings, flying).
    """
    if not order.unit_ids:
        raise RuleViolation("Name at least one unit to move.", rule="R-MOVE-01")
    if len(set(order.unit_ids)) != len(order.unit_ids):
        raise RuleViolation("A unit is listed twice in one move.", rule="R-MOVE-01")
    terrain = parse_terrain(order.terrain)
    check_destination(ruleset, order.destination)
    units: list[Unit] = []
    for uid in order.unit_ids:
        unit = state.units.get(str(uid))
        if unit is None:
            raise RuleViolation(f"There is no unit #{uid} on the board.", rule="R-MOVE-01")
        if unit.owner != order.faction:
            raise RuleViolation(
                f"{unit_label(ruleset, unit)} belongs to {unit.owner}, not {order.faction}.",
                rule="R-TURN-03",
                allowed="move your own units",
            )
        check_movable(state, ruleset, unit)
        units.append(unit)
    destination = order.destination
    name = ruleset.map.space_name(destination)
    if ruleset.map.is_sea(destination):
        first = ruleset.kind(units[0].kind)
        if first.has(Attribute.AMPHIBIAN):
            raise NotBuiltYet(
                f"Amphibian crossings and attacks at sea ({name}) are not built yet.",
                rule="R-ATTR-AMPH-01",
            )
        raise IllegalMove(
            f"Infantry and cavalry never enter a sea zone ({name}) over land.",
            rule="R-MOVE-09",
            allowed="move to a province; sea travel by ship is not built yet",
        )
    province = ruleset.map.provinces[destination]
    if terrain is not None and terrain not in province.terrains:
        have = ", ".join(t.value for t in province.terrains)
        raise IllegalMove(
            f"{name} has no {terrain.value}; its terrain is {have}.",
            rule="R-MOVE-03",
            allowed=f"name one of: {have}, or none",
        )
    plans: list[MovePlan] = []
    for unit in units:
        if unit.location == destination:
            raise IllegalMove(
                f"{unit_label(ruleset, unit)} is already in {name}.", rule="R-MOVE-01"
            )
        options = plan_moves(state, ruleset, unit, terrain)
        plan = options.get(destination)
        if plan is None:
            raise why_unreachable(state, ruleset, unit, destination, terrain, list(options))
        plans.append(plan)
    return plans


def carry_out(
    state: GameState, ruleset: Ruleset, faction: str, plans: Sequence[MovePlan]
) -> list[Event]:
    """Move the units along ``plans`` (already checked) and return the events (R-MOVE-01, -02).

    Each unit's ``location``, ``path``, ``entered_from``, ``movement_used``, ``terrain``,
    ``move_ended`` and ``attacking`` are updated. With the option ``capture_on_entry`` an
    unoccupied destination not held by the faction or a partner passes to it at once
    (R-COLL-02); by default ownership changes only at the end of step 7.
    """
    groups: dict[tuple[str, tuple[str, ...], Terrain | None], list[MovePlan]] = {}
    for plan in plans:
        unit = state.unit(plan.unit_id)
        unit.location = plan.destination
        unit.path = [*unit.path, *plan.path]
        unit.entered_from = plan.entered_from
        unit.movement_used += plan.cost
        unit.terrain = plan.terrain
        unit.move_ended = unit.move_ended or plan.move_ended
        unit.attacking = plan.attack
        groups.setdefault((plan.origin, plan.path, plan.terrain), []).append(plan)
    events: list[Event] = []
    for (origin, path, terrain), group in groups.items():
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


# --------------------------------------------------------------------------- step 6


def _list_battles(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return begin_combat_step(state, ruleset)  # R-COMBAT-01: the battles of step 7


#: Step 6, Move (R-MOVE-01..22). When it ends the battles of step 7 are listed.
SPEC = StepSpec(
    "move",
    Step.MOVE,
    accepts=(Accepts(MoveUnits, handle_move_units),),
    on_leave=_list_battles,
    waits=always,
)
