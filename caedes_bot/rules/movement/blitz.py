"""Blitz: moving on after a won battle, in step 7 (R-ATTR-BLITZ-01..03, R-COMBAT-02).

Which units have Blitz (R-ATTR-BLITZ-01): those whose kind has the attribute; cavalry has it from
the unit-type table unless the option ``cavalry_blitz`` is off, and then no cavalry unit has it.

When a battle ends with the attacker's win (R-COMBAT-10, R-COMBAT-11: the province has already
changed hands, whatever the units do next), every surviving attacking blitz unit there with
movement left is offered a continuation: a ``blitz`` decision (:class:`BlitzDetail`) asks the
attacker which of them move on, and where; the default, at the deadline, is to stop. Battles cost
no movement (R-ATTR-BLITZ-03), so a unit has what it had left when it entered the battle; one that
paid an entire-movement cost, or withdrew, has none. After a flying move the unused part of the
4 spaces may be used (option ``blitz_after_flying``; off, a unit that flew has none), as normal
land steps.

:class:`BlitzOn` moves the chosen units, with the route rules of a normal move from the battle
province (:func:`~caedes_bot.rules.movement.reach.plan_moves`). Entering a province held by
units of a faction that is not a pact partner starts a further battle there at once
(R-ATTR-BLITZ-02); a move into an empty province ends there and, if movement is left, the
units are asked again. :class:`BlitzStop` ends the continuation. While a ``blitz`` decision is
pending no other battle begins (step 7 waits for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import Attribute, BaseType, Ruleset, UnitKind, movement_allowance
from caedes_bot.rules.combat.arithmetic import BattleResult
from caedes_bot.rules.combat.battle import begin_battle
from caedes_bot.rules.combat.events import BattleEnded
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalCombat, IllegalMove, RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement.amphibian import offer_ashore
from caedes_bot.rules.movement.apply import carry_out
from caedes_bot.rules.movement.flight import FLYING_ALLOWANCE
from caedes_bot.rules.movement.plans import MovePlan
from caedes_bot.rules.movement.reach import plan_moves
from caedes_bot.rules.movement.refusals import check_destination, parse_terrain
from caedes_bot.rules.movement.stuck import unit_label
from caedes_bot.rules.orders import Order
from caedes_bot.rules.sharing import copy_plain
from caedes_bot.rules.state import (
    BlitzDetail,
    DecisionKind,
    GameState,
    PendingDecision,
    Unit,
)


@dataclass(frozen=True, slots=True)
class BlitzOn(Order):
    """Move blitz units on from the battle they won (R-ATTR-BLITZ-02).

    Attributes:
        unit_ids: units of the pending ``blitz`` decision; all or none move.
        destination: a province id.
        terrain, via: as in :class:`~caedes_bot.rules.movement.MoveUnits`.
        decision: the ``blitz`` decision the member answered (the controls carry it); refused
            if another is pending now, so a double click after a second battle does not move
            the units on again. ``None`` (``/blitz``): not checked.
    """

    label = "Blitzing on"

    unit_ids: tuple[int, ...]
    destination: str
    terrain: str | None = None
    via: tuple[str, ...] = ()
    decision: int | None = None


@dataclass(frozen=True, slots=True)
class BlitzStop(Order):
    """The blitz units of the pending ``blitz`` decision stay where they are (R-ATTR-BLITZ-02).
    ``decision``: as in :class:`BlitzOn`."""

    label = "Stopping the blitz"

    decision: int | None = None


@dataclass(frozen=True, slots=True)
class BlitzOffered(Event):
    """``faction``'s blitz units ``unit_ids`` in ``space`` may move on (decision ``decision``,
    R-ATTR-BLITZ-02)."""

    faction: str
    space: str
    decision: int
    unit_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BlitzEnded(Event):
    """``faction``'s blitz from ``space`` stopped there; ``by_default``: at the deadline."""

    faction: str
    space: str
    unit_ids: tuple[int, ...]
    by_default: bool = False


def has_blitz(kind: UnitKind, cavalry_blitz: bool) -> bool:
    """Whether units of ``kind`` have Blitz (R-ATTR-BLITZ-01, option ``cavalry_blitz``)."""
    if kind.base_type is BaseType.CAVALRY and not cavalry_blitz:
        return False
    return kind.has(Attribute.BLITZ)


def blitz_movement_left(state: GameState, ruleset: Ruleset, unit: Unit) -> int:
    """Movement ``unit`` may still use for a continuation (R-ATTR-BLITZ-03): what its allowance
    leaves, or after a flight what the 4 leave (option ``blitz_after_flying``; 0 when off)."""
    kind = ruleset.kind(unit.kind)
    if not has_blitz(kind, state.options.cavalry_blitz):
        return 0
    if unit.flew:
        if not state.options.blitz_after_flying:
            return 0
        return max(FLYING_ALLOWANCE - unit.movement_used, 0)
    return max(movement_allowance(kind) - unit.movement_used, 0)


def _offer(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    space: str,
    battle: int,
    candidates: Sequence[int],
) -> list[Event]:
    if not ruleset.map.is_province(space):
        return []  # a battle at sea: land units aboard do not blitz (R-ATTR-BLITZ-02)
    # each survivor read once, without copying; whether its kind has Blitz asked once per
    # kind (most winners have none, and then no unit of theirs has movement to blitz with)
    blitzing: dict[str, bool] = {}
    cavalry_blitz = state.options.cavalry_blitz
    found: list[int] = []
    for uid in candidates:
        unit: Unit | None = dict.get(state.units, str(uid))
        if unit is None or unit.location != space or unit.aboard is not None:
            continue
        kind_blitzes = blitzing.get(unit.kind)
        if kind_blitzes is None:
            kind_blitzes = blitzing[unit.kind] = has_blitz(ruleset.kind(unit.kind), cavalry_blitz)
        if kind_blitzes and blitz_movement_left(state, ruleset, unit) > 0:
            found.append(uid)
    units = tuple(found)
    if not units:
        return []
    decision = PendingDecision(
        id=state.new_id(),
        faction=faction,
        kind=DecisionKind.BLITZ,
        reaction=faction != state.active,
        detail=BlitzDetail(battle, space, units),
    )
    state.pending.append(decision)
    return [BlitzOffered(faction, space, decision.id, units)]


def offer_after_battles(state: GameState, ruleset: Ruleset, events: Sequence[Event]) -> list[Event]:
    """The ``blitz`` decision after a battle among ``events`` that the attacker won, if any of
    its units may move on (R-ATTR-BLITZ-02); after a battle won at sea, the ``come_ashore``
    decision of its Amphibian units there (R-ATTR-AMPH-02). Mutates ``state``; returns the new
    events."""
    if state.battle is not None:  # a battle under way (most orders): neither is asked now
        return []
    for event in events:
        if isinstance(event, BattleEnded) and event.result is BattleResult.ATTACKER_WON:
            faction = state.active
            if faction is not None and state.battle is None and ruleset.map.is_sea(event.space):
                # Amphibian winners at sea go ashore (R-ATTR-AMPH-02)
                return offer_ashore(
                    state, ruleset, faction, event.space, event.battle, event.attacker_survivors
                )
            if faction is not None and state.battle is None:
                return _offer(
                    state, ruleset, faction, event.space, event.battle, event.attacker_survivors
                )
    return []


def pending_blitz(state: GameState, faction: str) -> PendingDecision | None:
    """The ``blitz`` decision waiting for ``faction``, if any."""
    return next(
        (d for d in state.pending if d.kind is DecisionKind.BLITZ and d.faction == faction), None
    )


def _answered(state: GameState, faction: str, decision_id: int | None) -> PendingDecision:
    """The pending ``blitz`` decision an order answers (R-ATTR-BLITZ-02).

    Raises:
        IllegalCombat: none is pending, or another than ``decision_id`` (a click on controls
            drawn for an earlier blitz); nothing changes.
    """
    decision = pending_blitz(state, faction)
    if decision is None or not isinstance(decision.detail, BlitzDetail):
        raise IllegalCombat(
            "No blitz waits for your units now.",
            rule="R-ATTR-BLITZ-02",
            allowed="stop or move on only when the bot asks, after a battle your blitz units won",
        )
    if decision_id is not None and decision_id != decision.id:
        raise IllegalCombat(
            "That blitz was answered already; nothing changed (a double click, or controls "
            "drawn before a later battle).",
            rule="R-ATTR-BLITZ-02",
            allowed="the blitz controls drawn after the latest battle",
        )
    return decision


def _drop(state: GameState, decision: PendingDecision) -> None:
    state.pending = [d for d in state.pending if d.id != decision.id]


def _plan(state: GameState, ruleset: Ruleset, unit: Unit, order: BlitzOn) -> dict[str, MovePlan]:
    """Where ``unit`` may blitz to: a normal move from where it stands with its blitz movement
    left (R-ATTR-BLITZ-02, -03); the unit is looked at as if its move had not ended."""
    kind = ruleset.kind(unit.kind)
    free = copy_plain(unit)
    free.move_ended = False
    free.attacking = False
    free.movement_used = movement_allowance(kind) - blitz_movement_left(state, ruleset, unit)
    return plan_moves(state, ruleset, free, parse_terrain(order.terrain), order.via)


def blitz_destinations(state: GameState, ruleset: Ruleset, faction: str) -> dict[str, bool]:
    """Where all the units of ``faction``'s pending ``blitz`` decision may move on now, each
    ``True`` if it starts a battle (R-ATTR-BLITZ-02); empty if nothing is pending."""
    decision = pending_blitz(state, faction)
    if decision is None or not isinstance(decision.detail, BlitzDetail):
        return {}
    found: dict[str, bool] | None = None
    for uid in decision.detail.units:
        plans = _plan(state, ruleset, state.peek_unit(uid), BlitzOn(faction, (uid,), ""))
        here = {dest: plan.attack for dest, plan in plans.items()}
        found = here if found is None else {d: a for d, a in found.items() if d in here}
    return found or {}


def handle_blitz_on(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`BlitzOn`: move the units on; an attack is fought at once, and a move into
    an empty province with movement left asks again (R-ATTR-BLITZ-02).

    Raises:
        IllegalCombat: no ``blitz`` decision waits for the faction, or not ``order.decision``.
        RuleViolation: a unit not offered; IllegalMove: a unit cannot reach the destination.
    """
    assert isinstance(order, BlitzOn)
    decision = _answered(state, order.faction, order.decision)
    detail = decision.detail
    assert isinstance(detail, BlitzDetail)
    if not order.unit_ids or not set(order.unit_ids) <= set(detail.units):
        offered = ", ".join(f"#{u}" for u in detail.units)
        raise RuleViolation(
            "Only the blitz units of the battle just won may move on.",
            rule="R-ATTR-BLITZ-02",
            allowed=f"units {offered}",
        )
    check_destination(ruleset, order.destination)
    name = ruleset.map.space_name(order.destination)
    plans: list[MovePlan] = []
    for uid in order.unit_ids:
        unit = state.unit(uid)
        plan = _plan(state, ruleset, unit, order).get(order.destination)
        if plan is None:
            left = blitz_movement_left(state, ruleset, unit)
            raise IllegalMove(
                f"{unit_label(ruleset, unit)} cannot blitz on to {name} with {left} movement left.",
                rule="R-ATTR-BLITZ-02",
                allowed="a province a normal move from here reaches with that movement",
            )
        plans.append(plan)
    _drop(state, decision)
    events = carry_out(state, ruleset, order.faction, plans)
    for plan in plans:  # battles cost no movement: the move ends only as a move ends
        unit = state.unit(plan.unit_id)
        unit.move_ended = True
    if plans[0].attack:
        return events + begin_battle(state, ruleset, dice, order.destination, order.faction)
    return events + _offer(
        state, ruleset, order.faction, order.destination, detail.after_battle, order.unit_ids
    )


def handle_blitz_stop(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`BlitzStop` (R-ATTR-BLITZ-02).

    Raises:
        IllegalCombat: no ``blitz`` decision waits for the faction, or not ``order.decision``.
    """
    assert isinstance(order, BlitzStop)
    decision = _answered(state, order.faction, order.decision)
    detail = decision.detail
    assert isinstance(detail, BlitzDetail)
    _drop(state, decision)
    return [BlitzEnded(order.faction, detail.space, detail.units)]


def stop_by_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    """The default answer of a ``blitz`` decision: stop (R-ATTR-BLITZ-02, R-PBP-DEAD-04)."""
    assert isinstance(decision.detail, BlitzDetail)
    _drop(state, decision)
    return [BlitzEnded(decision.faction, decision.detail.space, decision.detail.units, True)]
