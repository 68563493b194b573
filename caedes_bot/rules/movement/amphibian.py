"""Amphibian units at sea: attacking units in a sea zone, going ashore after that battle, and
retreating by sea from a land battle (R-ATTR-AMPH-02, R-ATTR-AMPH-03; the crossing of
R-ATTR-AMPH-01 is a route of :func:`~caedes_bot.rules.movement.reach.plan_moves`).

* **An attack at sea** (R-ATTR-AMPH-02, :func:`sea_attacks`): instead of its normal move, an
  Amphibian unit that has not moved this turn may enter a sea zone on its province's coast
  that holds units of a faction that is not its pact partner (a :class:`MoveUnits` whose
  destination is that sea zone). It uses its whole allowance, its move ends, and it fights
  there in step 7: a naval battle (:mod:`caedes_bot.rules.combat.naval`) in which it attacks
  beside its faction's ships there, with its own values. It may withdraw, back to its origin.
* **Going ashore** (R-ATTR-AMPH-02): if its side wins, its survivors may not stay at sea. A
  ``come_ashore`` decision (:class:`~caedes_bot.rules.state.ComeAshoreDetail`) asks where they
  go: any province on that sea zone's coast with no non-pact units (their origin among them),
  all together (:class:`ComeAshore`). The default, at the deadline or when step 7 ends, sends
  each unit back to the province it came from.
* **A retreat by sea** (R-ATTR-AMPH-03, :func:`sea_retreats`): when the attacker withdraws
  from a land battle, its Amphibian units that entered the battle by land (not by a crossing,
  a landing from a ship, a flight or a teleport) may cross one sea zone on the battle
  province's coast, holding no non-pact units, to a province on that sea zone's coast with no
  non-pact units, instead of going back to where they came from
  (:class:`~caedes_bot.rules.combat.orders.Withdraw` with ``by_sea``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import Attribute, BaseType, Ruleset, Terrain
from caedes_bot.rules.combat.arithmetic import combat_terrain_key
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalCombat, IllegalMove
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement.costs import Entry, Occupation, entry_cost, remaining_movement
from caedes_bot.rules.movement.plans import MoveKind, MovePlan
from caedes_bot.rules.movement.refusals import parse_terrain
from caedes_bot.rules.movement.stuck import blocked, unit_label
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    ComeAshoreDetail,
    DecisionKind,
    GameState,
    PendingDecision,
    Unit,
)

RULE_ATTACK = "R-ATTR-AMPH-02"
RULE_RETREAT = "R-ATTR-AMPH-03"

# --------------------------------------------------------------------------- orders, events


@dataclass(frozen=True, slots=True)
class ComeAshore(Order):
    """Send the Amphibian units of the pending ``come_ashore`` decision ashore at
    ``destination`` (R-ATTR-AMPH-02).

    Attributes:
        destination: one of the decision's choices (a province id); ``None``: each unit back
            to the province it came from (what the default does).
        terrain: the terrain they use there, by name, if it has several (R-MOVE-03).
        decision: the decision the member answered (the controls carry it); if another is
            pending now (a double click after a later battle) the order is refused. ``None``:
            not checked.
    """

    label = "Going ashore"

    destination: str | None
    terrain: str | None = None
    decision: int | None = None


@dataclass(frozen=True, slots=True)
class AshoreOffered(Event):
    """``faction``'s Amphibian units ``unit_ids`` won at sea in ``space`` and must go ashore
    (decision ``decision``); ``choices``: where they may go (R-ATTR-AMPH-02)."""

    faction: str
    space: str
    decision: int
    unit_ids: tuple[int, ...]
    choices: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CameAshore(Event):
    """``faction``'s Amphibian units left sea zone ``space``: ``unit_ids[i]`` went ashore in
    ``destinations[i]`` (R-ATTR-AMPH-02); ``by_default``: each back where it came from, at the
    deadline or as step 7 ended."""

    faction: str
    space: str
    unit_ids: tuple[int, ...]
    destinations: tuple[str, ...]
    by_default: bool = False


# --------------------------------------------------------------------------- attacking at sea


def is_swimmer(ruleset: Ruleset, unit: Unit) -> bool:
    """``unit`` is a land unit in a sea zone and not aboard a ship: an Amphibian attacker
    (R-MOVE-09, R-ATTR-AMPH-02)."""
    return (
        unit.aboard is None
        and ruleset.map.is_sea(unit.location)
        and ruleset.kind(unit.kind).base_type in (BaseType.INFANTRY, BaseType.CAVALRY)
    )


def sea_attacks(
    state: GameState, ruleset: Ruleset, unit: Unit, occupation: Occupation | None = None
) -> dict[str, MovePlan]:
    """The sea zones ``unit`` may attack now, each with its plan (R-ATTR-AMPH-02): those on
    its province's coast holding units of a non-pact faction, if it is Amphibian, free to move
    and has not moved this turn. The attack uses its whole allowance. Sea zones in id order;
    empty if it may attack none."""
    kind = ruleset.kind(unit.kind)
    if not kind.has(Attribute.AMPHIBIAN) or blocked(ruleset, unit, kind) is not None:
        return {}
    if unit.movement_used or unit.path:
        return {}
    if occupation is None:
        occupation = Occupation(state, ruleset, unit.owner)
    remaining = remaining_movement(unit, kind)
    return {
        sea: MovePlan(
            unit_id=unit.id,
            origin=unit.location,
            path=(sea,),
            terrain=None,
            cost=remaining,
            entire=True,
            attack=True,
            how=MoveKind.SEA_ATTACK,
        )
        for sea in sorted(ruleset.map.seas_of(unit.location))
        if occupation.hostile(sea)
    }


def plan_sea_attack(
    state: GameState,
    ruleset: Ruleset,
    units: Sequence[Unit],
    sea: str,
    terrain: str | None,
    via: Sequence[str],
) -> list[MovePlan]:
    """The plans of a :class:`MoveUnits` into sea zone ``sea`` holding non-pact units: an
    Amphibian attack at sea for every unit (R-ATTR-AMPH-02).

    Raises:
        IllegalMove: a terrain or ``via`` named (the attack goes straight from the coast); a
            unit without Amphibian, one that has moved this turn, or one whose province does
            not touch ``sea``.
    """
    name = ruleset.map.space_name(sea)
    if terrain is not None or via:
        raise IllegalMove(
            f"An attack at sea ({name}) goes straight from the coast: no terrain and no via.",
            rule=RULE_ATTACK,
            allowed=f"/move the Amphibian units to {name} without terrain or via",
        )
    plans: list[MovePlan] = []
    for unit in units:
        label = unit_label(ruleset, unit)
        kind = ruleset.kind(unit.kind)
        if not kind.has(Attribute.AMPHIBIAN):
            raise IllegalMove(
                f"{label} is not Amphibian; only Amphibian units and ships attack at sea ({name}).",
                rule="R-MOVE-09",
                allowed="Amphibian units on its coast, or ships sailing in (/sail)",
            )
        if unit.movement_used or unit.path:
            raise IllegalMove(
                f"{label} has moved this turn; an attack at sea is made instead of its move.",
                rule=RULE_ATTACK,
                allowed="Amphibian units that have not moved this turn",
            )
        plan = sea_attacks(state, ruleset, unit).get(sea)
        if plan is None:
            raise IllegalMove(
                f"{ruleset.map.space_name(unit.location)}, where {label} stands, does not touch "
                f"{name}.",
                rule=RULE_ATTACK,
                allowed="a sea zone on the coast of the unit's own province",
            )
        plans.append(plan)
    return plans


# --------------------------------------------------------------------------- going ashore


def _landing_terrain(
    ruleset: Ruleset, units: Sequence[Unit], sea: str, dest: str, named: Terrain | None
) -> tuple[Terrain | None, bool]:
    """The terrain the units use in ``dest`` and whether every one of them may enter it from
    ``sea`` (prohibitions hold, entire-movement costs do not: R-MOVE-16, R-MOVE-06)."""
    province = ruleset.map.provinces[dest]
    pool = [named] if named is not None else list(province.terrains)
    pool = [t for t in pool if t in province.terrains]
    allowed = [
        t
        for t in pool
        if all(
            entry_cost(ruleset, ruleset.kind(u.kind), sea, dest, t).entry is not Entry.FORBIDDEN
            for u in units
        )
    ]
    if not allowed:
        return None, False
    if named is not None:
        return named, True
    if len(province.terrains) == 1:
        return None, True
    first = ruleset.kind(units[0].kind)
    best = max(allowed, key=lambda t: (*combat_terrain_key(first, t), -province.terrains.index(t)))
    return best, True


def ashore_choices(
    state: GameState, ruleset: Ruleset, faction: str, sea: str, units: Sequence[Unit]
) -> list[str]:
    """The provinces on ``sea``'s coast that ``units`` of ``faction`` may all go ashore in
    (R-ATTR-AMPH-02): no units of a non-pact faction there (nor, with ``river_ship_occupies``,
    on its river edges), and none a unit is forbidden to enter. In id order."""
    occupation = Occupation(state, ruleset, faction)
    return [
        p
        for p in sorted(ruleset.map.coast_of(sea))
        if not occupation.hostile(p) and _landing_terrain(ruleset, units, sea, p, None)[1]
    ]


def offer_ashore(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    sea: str,
    battle: int,
    survivors: Sequence[int],
) -> list[Event]:
    """After ``faction`` won the battle ``battle`` in sea zone ``sea``: the ``come_ashore``
    decision for its surviving Amphibian units there, if any (R-ATTR-AMPH-02). Mutates
    ``state``; returns the new events."""
    units = [
        state.peek_unit(uid)
        for uid in survivors
        if str(uid) in state.units and is_swimmer(ruleset, state.peek_unit(uid))
    ]
    units = [u for u in units if u.location == sea]
    if not units:
        return []
    choices = tuple(ashore_choices(state, ruleset, faction, sea, units))
    ids = tuple(u.id for u in units)
    decision = PendingDecision(
        id=state.new_id(),
        faction=faction,
        kind=DecisionKind.COME_ASHORE,
        reaction=faction != state.active,
        detail=ComeAshoreDetail(battle, sea, ids, choices),
    )
    state.pending.append(decision)
    return [AshoreOffered(faction, sea, decision.id, ids, choices)]


def pending_ashore(state: GameState, faction: str) -> PendingDecision | None:
    """The ``come_ashore`` decision waiting for ``faction``, if any."""
    return next(
        (d for d in state.pending if d.kind is DecisionKind.COME_ASHORE and d.faction == faction),
        None,
    )


def _go_ashore(unit: Unit, sea: str, dest: str, terrain: Terrain | None) -> None:
    unit.location = dest
    unit.path = [*unit.path, dest]
    unit.entered_from = sea
    unit.attacking = False
    unit.move_ended = True
    unit.terrain = terrain


def handle_come_ashore(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`ComeAshore` (R-ATTR-AMPH-02): every unit of the decision goes ashore at
    the destination.

    Raises:
        IllegalCombat: no ``come_ashore`` decision waits for the faction, or not the one the
            order answers. IllegalMove: a destination that is not one of the choices, or a
            terrain a unit may not use there. UnknownName: an unknown terrain.
    """
    assert isinstance(order, ComeAshore)
    decision = pending_ashore(state, order.faction)
    if decision is None or (order.decision is not None and order.decision != decision.id):
        raise IllegalCombat(
            "No landing after a battle at sea waits for your units now (it was answered already).",
            rule=RULE_ATTACK,
            allowed="choose where Amphibian units go ashore when the bot asks, once",
        )
    detail = decision.detail
    assert isinstance(detail, ComeAshoreDetail)
    if order.destination is None:
        return _home(state, ruleset, decision, by_default=False)
    names = ", ".join(ruleset.map.space_name(p) for p in detail.choices) or "none"
    if order.destination not in detail.choices:
        raise IllegalMove(
            f"The Amphibian units in {ruleset.map.space_name(detail.space)} may not go ashore "
            f"in {ruleset.map.space_name(order.destination)}: it is not on that sea zone's "
            "coast, or non-pact units hold it.",
            rule=RULE_ATTACK,
            allowed=f"one of: {names}; or leave it to the default, back where they came from",
        )
    units = [state.unit(uid) for uid in detail.units]
    terrain, ok = _landing_terrain(
        ruleset, units, detail.space, order.destination, parse_terrain(order.terrain)
    )
    if not ok:
        raise IllegalMove(
            f"Not every unit may use {order.terrain} in "
            f"{ruleset.map.space_name(order.destination)}.",
            rule="R-MOVE-03",
            allowed="another terrain of that province, or none to let the bot choose",
        )
    state.pending = [d for d in state.pending if d.id != decision.id]
    for unit in units:
        _go_ashore(unit, detail.space, order.destination, terrain)
    return [
        CameAshore(
            order.faction,
            detail.space,
            detail.units,
            tuple(order.destination for _ in detail.units),
        )
    ]


def ashore_by_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    """The default answer of a ``come_ashore`` decision: each unit goes back to the province it
    came from (R-ATTR-AMPH-02, R-PBP-DEAD-04)."""
    return _home(state, ruleset, decision, by_default=True)


def _home(
    state: GameState, ruleset: Ruleset, decision: PendingDecision, *, by_default: bool
) -> list[Event]:
    detail = decision.detail
    assert isinstance(detail, ComeAshoreDetail)
    state.pending = [d for d in state.pending if d.id != decision.id]
    destinations: list[str] = []
    for uid in detail.units:
        unit = state.unit(uid)
        home = unit.entered_from
        if home is None or not ruleset.map.is_province(home):
            home = detail.choices[0] if detail.choices else unit.location
        _go_ashore(unit, detail.space, home, None)
        destinations.append(home)
    return [
        CameAshore(decision.faction, detail.space, detail.units, tuple(destinations), by_default)
    ]


# --------------------------------------------------------------------------- retreat by sea


def may_retreat_by_sea(ruleset: Ruleset, unit: Unit, space: str) -> bool:
    """``unit`` may withdraw from the land battle in ``space`` by sea (R-ATTR-AMPH-03): it is
    Amphibian and entered the battle by land, from a province bordering ``space`` (not by a
    crossing, a landing, a flight or a teleport: the ruling of R-ATTR-AMPH-03)."""
    kind = ruleset.kind(unit.kind)
    origin = unit.entered_from
    return (
        kind.has(Attribute.AMPHIBIAN)
        and ruleset.map.is_province(space)
        and unit.aboard is None
        and not unit.flew
        and not unit.landed
        and origin is not None
        and ruleset.map.is_province(origin)
        and origin in ruleset.map.land_neighbours(space)
    )


def sea_retreats(
    state: GameState, ruleset: Ruleset, space: str, faction: str, unit_ids: Sequence[int]
) -> dict[str, str]:
    """Where the units among ``unit_ids`` that may retreat by sea (:func:`may_retreat_by_sea`)
    can all go from the battle in ``space`` (R-ATTR-AMPH-03): province -> the sea zone crossed
    (the first by id). A sea zone on ``space``'s coast holding no non-pact units, then a
    province on its coast other than ``space`` with none, that every such unit may enter.
    Empty if no unit may retreat by sea or nowhere is open. Provinces in id order."""
    units = [
        state.peek_unit(uid)
        for uid in unit_ids
        if str(uid) in state.units and may_retreat_by_sea(ruleset, state.peek_unit(uid), space)
    ]
    if not units:
        return {}
    occupation = Occupation(state, ruleset, faction)
    found: dict[str, str] = {}
    for sea in sorted(ruleset.map.seas_of(space)):
        if occupation.hostile(sea):
            continue
        for dest in sorted(ruleset.map.coast_of(sea)):
            if dest == space or dest in found or occupation.hostile(dest):
                continue
            if _landing_terrain(ruleset, units, sea, dest, None)[1]:
                found[dest] = sea
    return dict(sorted(found.items()))


def retreat_routes(
    state: GameState,
    ruleset: Ruleset,
    space: str,
    faction: str,
    leaving: Sequence[int],
    destination: str,
) -> dict[int, tuple[str, str]]:
    """The units among ``leaving`` that retreat by sea to ``destination``: unit id -> (sea
    zone, province) (R-ATTR-AMPH-03). The other withdrawing units go back as usual.

    Raises:
        IllegalCombat: none of them may retreat by sea, or ``destination`` is not open to them
            (``allowed`` lists where they may go).
    """
    choices = sea_retreats(state, ruleset, space, faction, leaving)
    if not choices:
        raise IllegalCombat(
            "None of your withdrawing units may retreat by sea: only Amphibian units that "
            "entered the battle by land may, across a sea zone free of enemy units.",
            rule=RULE_RETREAT,
            allowed="withdraw without a sea route, or press on",
        )
    if destination not in choices:
        names = ", ".join(ruleset.map.space_name(p) for p in choices)
        raise IllegalCombat(
            f"Your Amphibian units cannot retreat by sea to {ruleset.map.space_name(destination)}.",
            rule=RULE_RETREAT,
            allowed=f"one of: {names}",
        )
    sea = choices[destination]
    return {
        uid: (sea, destination)
        for uid in leaving
        if may_retreat_by_sea(ruleset, state.peek_unit(uid), space)
    }
