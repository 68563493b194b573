"""Ships on the water: where they are mustered and how they sail in step 6 (R-ATTR-WATER-01..03,
R-MOVE-13, R-MOVE-18, R-RACE-NONE-01, R-BUY-04).

Where ships are (:mod:`caedes_bot.gamedata.water`): sea zones and navigable river edges, never a
province (R-ATTR-WATER-01). Carried units stand where their ship stands, with ``aboard`` naming
it (R-MOVE-14; boarding and landing are :mod:`caedes_bot.rules.cargo`).

Mustering (step 8, R-ATTR-WATER-03, R-RACE-NONE-01): a ship is placed on a water space touching
a province that held the faction's Fortification when step 8 began (R-ATTR-FORT-05), never on a
space holding units of a non-pact faction. :func:`ship_muster_places` lists them;
:func:`ship_purchase_warning` is the R-BUY-04 warning of a purchase with none, naming why (the
Fortification's province touches no navigable water, or every such space is held).

Sailing (step 6, :class:`SailShips`): a ship has its allowance (2, R-MOVE-18) for the turn and
keeps what it has not spent between orders. Each step enters a linked water space for 1 point.
The order names a destination and, optionally, spaces to pass through (``via``); the rules take
the shortest legal route, the first by space ids among equals. On the way:

* a space holding units of a non-pact faction (their ships, with cargo) ends the move there and
  makes the ship an attacker in step 7 (R-MOVE-18); it can be only the last space;
* a ship never attacks into a river edge nor from one (R-MOVE-13): a held river edge cannot be
  entered, and a held sea zone cannot be entered from a river edge;
* a ship mustered this turn, one that attacks, or one that has spent its allowance does not
  sail again this turn (R-MOVE-22, R-MOVE-18, R-MOVE-01).

Units aboard move with their ship (R-MOVE-14): their space and the space they entered from
follow the ship's, so a ship that withdraws takes them back with it (R-COMBAT-08).
"""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import (
    Attribute,
    BaseType,
    Race,
    Ruleset,
    UnitKind,
    movement_allowance,
)
from caedes_bot.gamedata.names import find
from caedes_bot.gamedata.water import (
    is_navigable,
    province_waters,
    water_neighbours,
)
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import AmbiguousName, IllegalMove, RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.rules.steps import Accepts, StepSpec

# --------------------------------------------------------------------------- helpers


def is_ship(ruleset: Ruleset, unit: Unit) -> bool:
    """Whether ``unit`` is a Ship-type unit (R-ATTR-WATER-01)."""
    return ruleset.kind(unit.kind).base_type is BaseType.SHIP


def cargo_of(state: GameState, ship_id: int) -> list[Unit]:
    """The units aboard ship ``ship_id``, in id order (R-MOVE-14); read-only copies are not
    made, so the caller must not change them unless it owns the state."""
    return sorted((u for u in state.peek_units() if u.aboard == ship_id), key=lambda u: u.id)


def unit_label(ruleset: Ruleset, unit: Unit) -> str:
    return f"{ruleset.kind(unit.kind).display_name} #{unit.id}"


def hostile_at(state: GameState, space: str, faction: str) -> bool:
    """Units of a faction that is not ``faction``'s pact partner stand on water space ``space``
    (R-MOVE-18)."""
    return any(
        u.location == space and not state.are_partners(u.owner, faction) for u in state.peek_units()
    )


def ship_remaining(unit: Unit, kind: UnitKind) -> int:
    """Movement points ship ``unit`` has left this turn (R-MOVE-18: 2 a turn)."""
    return max(movement_allowance(kind) - unit.movement_used, 0)


# --------------------------------------------------------------------------- mustering


def _fortified_provinces(state: GameState, ruleset: Ruleset, faction: str) -> list[str]:
    """Provinces holding ``faction``'s Fortification, as the board stood when its step 8
    began (R-ATTR-FORT-05) during that step, else as it stands; in id order."""
    judging = state.step is Step.MUSTER and state.active == faction
    limit = state.muster_start_seq if judging else state.mustered_seq
    return sorted(
        {
            u.location
            for u in state.peek_units()
            if u.owner == faction
            and u.muster_seq <= limit
            and ruleset.map.is_province(u.location)
            and ruleset.kind(u.kind).has(Attribute.FORTIFICATION)
            # never a summoned Tower: it vanishes as a step 8 begins (R-MAGIC-SUMM-02), and
            # one summoned during the step came after the board was fixed (R-ATTR-FORT-05)
            and ruleset.kind(u.kind).race is not Race.SUMMONED
        }
    )


def ship_muster_places(state: GameState, ruleset: Ruleset, faction: str) -> list[str]:
    """Water spaces where ``faction`` may muster a ship now (R-ATTR-WATER-03, R-ATTR-FORT-05,
    R-RACE-NONE-01): sea zones and navigable river edges touching a province with its
    Fortification, with no unit of a non-pact faction on them. Sorted by space name."""
    places: set[str] = set()
    for province in _fortified_provinces(state, ruleset, faction):
        for space in province_waters(ruleset.map, province):
            if not hostile_at(state, space, faction):
                places.add(space)
    return sorted(places, key=lambda s: (ruleset.map.space_name(s), s))


def ship_muster_refusal(
    state: GameState, ruleset: Ruleset, faction: str, space: str
) -> tuple[str, str] | None:
    """Why ``faction`` may not muster a ship on ``space`` now, as (rule, message), or ``None``
    if it may (R-ATTR-WATER-03, R-MUSTER-07)."""
    game_map = ruleset.map
    name = game_map.space_name(space)
    if game_map.is_province(space):
        return (
            "R-ATTR-WATER-03",
            f"Ships are mustered on the water, never in a province ({name}).",
        )
    if not is_navigable(game_map, space):
        return ("R-ATTR-WATER-03", f"{name} is not navigable; a ship there could never move.")
    forts = _fortified_provinces(state, ruleset, faction)
    if not any(space in province_waters(game_map, p) for p in forts):
        return (
            "R-ATTR-WATER-03",
            f"{name} touches no province holding your Fortification (as the board stood when "
            "step 8 began).",
        )
    if hostile_at(state, space, faction):
        return ("R-ATTR-WATER-03", f"{name} holds units of another faction.")
    return None


def ship_purchase_warning(
    state: GameState, ruleset: Ruleset, faction: str, kind: UnitKind
) -> str | None:
    """The R-BUY-04 warning for buying a ship of ``kind`` with nowhere to muster it, or
    ``None`` if some water space can take it now (R-ATTR-WATER-03)."""
    if ship_muster_places(state, ruleset, faction):
        return None
    return (
        f"No water can take a {kind.display_name} in step 8 on the board as it stands: "
        f"{ship_nowhere(state, ruleset, faction)}. Unless that changes it will be lost without "
        "refund (R-BUY-04, R-ATTR-WATER-03)."
    )


def ship_nowhere(state: GameState, ruleset: Ruleset, faction: str) -> str:
    """Why no water space can take a ship of ``faction`` now, in a player's words: it holds
    no Fortification, or the Fortifications' provinces touch no navigable water, or that water
    holds other factions' units (R-ATTR-WATER-03)."""
    forts = _fortified_provinces(state, ruleset, faction)
    game_map = ruleset.map
    if not forts:
        why = "you hold no Fortification, and ships are mustered only next to one"
    else:
        dry = [game_map.space_name(p) for p in forts if not province_waters(game_map, p)]
        held = [game_map.space_name(p) for p in forts if province_waters(game_map, p)]
        parts = []
        if dry:
            parts.append(
                f"{', '.join(dry)} (with your Fortification) touches no sea zone and no "
                "navigable river"
            )
        if held:
            parts.append(f"the water next to {', '.join(held)} holds other factions' units")
        why = "; ".join(parts)
    return why


# --------------------------------------------------------------------------- sailing


@dataclass(frozen=True, slots=True)
class SailShips(Order):
    """Sail ships of the active faction to ``destination`` in step 6 (R-MOVE-18, R-MOVE-13).

    Attributes:
        unit_ids: the ships; each takes the same route; all or none sail.
        destination: a sea zone or navigable river edge id.
        via: water spaces to pass through, in order, on the way (optional).
    """

    label = "Sailing ships"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    unit_ids: tuple[int, ...]
    destination: str
    via: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ShipsSailed(Event):
    """Ships of ``faction`` sailed from ``origin`` along ``path`` (R-MOVE-18).

    Attributes:
        unit_ids: the ships. cargo: ids of the units aboard them, which moved with them.
        path: every water space entered, in order, ending with the destination.
        attack: the destination holds non-pact units; the ships fight there in step 7.
        movement_left: movement points the ships have left this turn (the least among them).
    """

    faction: str
    unit_ids: tuple[int, ...]
    cargo: tuple[int, ...]
    origin: str
    destination: str
    path: tuple[str, ...]
    attack: bool
    movement_left: int


@dataclass(frozen=True, slots=True)
class SailPlan:
    """A legal sail of one ship: the spaces entered (last = destination) and whether it attacks."""

    unit_id: int
    origin: str
    path: tuple[str, ...]
    attack: bool

    @property
    def destination(self) -> str:
        return self.path[-1]


def _step_allowed(state: GameState, ruleset: Ruleset, faction: str, here: str, nxt: str) -> bool:
    """Whether a ship of ``faction`` may step from ``here`` into ``nxt`` at all (R-MOVE-13):
    never into a held river edge, never into a held space from a river edge."""
    if not hostile_at(state, nxt, faction):
        return True
    rivers = ruleset.map.rivers
    return nxt not in rivers and here not in rivers


def _routes(
    state: GameState, ruleset: Ruleset, faction: str, start: str, budget: int
) -> dict[str, tuple[str, ...]]:
    """Shortest legal paths from ``start`` to every water space within ``budget`` points, the
    first by space ids among equals (R-MOVE-18). A held space ends a path."""
    best: dict[str, tuple[str, ...]] = {start: ()}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        path = best[here]
        if len(path) >= budget or (path and hostile_at(state, here, faction)):
            continue
        for nxt in sorted(water_neighbours(ruleset.map, here)):
            if nxt in best or not _step_allowed(state, ruleset, faction, here, nxt):
                continue
            best[nxt] = (*path, nxt)
            queue.append(nxt)
    best.pop(start)
    return best


def _why_ship_stuck(state: GameState, ruleset: Ruleset, ship: Unit) -> IllegalMove | None:
    label = unit_label(ruleset, ship)
    kind = ruleset.kind(ship.kind)
    if ship.attacking:
        return IllegalMove(
            f"{label} entered another faction's ships and must fight there in step 7.",
            rule="R-MOVE-18",
            allowed="sail your other ships; this one sails again next turn",
        )
    if ship.move_ended and ship.movement_used == 0 and not ship.path:
        return IllegalMove(
            f"{label} was mustered this turn and may sail from its faction's next turn.",
            rule="R-MOVE-22",
            allowed="sail ships mustered before this turn",
        )
    if ship.move_ended:
        return IllegalMove(
            f"{label} has ended its movement this turn.",
            rule="R-MOVE-18",
            allowed="sail ships with movement left, as the ship option lists them",
        )
    if ship_remaining(ship, kind) <= 0:
        return IllegalMove(
            f"{label} has no movement left this turn.",
            rule="R-MOVE-18",
            allowed="sail ships with movement left (2 spaces a turn each)",
        )
    return None


def sail_destinations(state: GameState, ruleset: Ruleset, ship: Unit) -> dict[str, SailPlan]:
    """Every water space ``ship`` may sail to now with its preferred route (R-MOVE-13,
    R-MOVE-18), in id order; empty if it cannot sail."""
    if not is_ship(ruleset, ship) or _why_ship_stuck(state, ruleset, ship) is not None:
        return {}
    budget = ship_remaining(ship, ruleset.kind(ship.kind))
    routes = _routes(state, ruleset, ship.owner, ship.location, budget)
    return {
        dest: SailPlan(ship.id, ship.location, path, hostile_at(state, dest, ship.owner))
        for dest, path in sorted(routes.items())
    }


def resolve_water(ruleset: Ruleset, name: str) -> str:
    """The water space id for ``name``: an id, or the name of a sea zone or river edge, any
    case (R-GEN-04).

    Raises:
        IllegalMove: ``name`` is a province (R-ATTR-WATER-01).
        UnknownName: no such water space.
    """
    game_map = ruleset.map
    if name in game_map.sea_zones or name in game_map.rivers:
        return name
    waters = [(s, (s, game_map.space_name(s))) for s in game_map.sea_zones]
    waters += [
        (e, (e, game_map.space_name(e))) for e, edge in game_map.rivers.items() if edge.navigable
    ]
    found = find(name, waters)
    if found.item is not None:
        return found.item
    lands = find(name, ((p.id, (p.id, p.name)) for p in game_map.provinces.values()))
    if lands.item is not None:
        raise IllegalMove(
            f"Ships never enter a province ({game_map.space_name(lands.item)}).",
            rule="R-ATTR-WATER-01",
            allowed="a sea zone or a navigable river edge",
        )
    if found.ambiguous:
        names = tuple(game_map.space_name(s) for s in found.ambiguous)
        raise AmbiguousName("sea zone or river", name, names, rule="R-MOVE-18")
    labels = [label for _s, (_i, label) in waters]
    near = tuple(difflib.get_close_matches(name, labels, n=3, cutoff=0.5))
    unknown = UnknownName("sea zone or river", name, near, rule="R-MOVE-18")
    unknown.allowed = "a sea zone's or navigable river's name (or its start)"
    raise unknown


def _route_via(
    state: GameState, ruleset: Ruleset, ship: Unit, stops: Sequence[str]
) -> tuple[str, ...] | None:
    """The shortest legal path through ``stops`` in order, within the ship's movement left;
    ``None`` if there is none."""
    budget = ship_remaining(ship, ruleset.kind(ship.kind))
    here = ship.location
    path: tuple[str, ...] = ()
    for stop in stops:
        if path and hostile_at(state, here, ship.owner):
            return None  # a held space ends the move (R-MOVE-18)
        leg = _routes(state, ruleset, ship.owner, here, budget - len(path)).get(stop)
        if leg is None:
            return None
        path, here = (*path, *leg), stop
    return path


def plan_sail(state: GameState, ruleset: Ruleset, order: SailShips) -> list[SailPlan]:
    """Check ``order`` and return one plan per ship, in the order given (R-MOVE-13, R-MOVE-18,
    R-ATTR-WATER-01).

    Raises:
        RuleViolation: no ships, a unit listed twice, not a ship, not the faction's own.
        UnknownName: the destination or a ``via`` space is no water space.
        IllegalMove: a ship cannot sail now, or cannot reach the destination that way (with
            where it can go in ``allowed``).
    """
    if not order.unit_ids:
        raise RuleViolation(
            "Name at least one ship to sail.", rule="R-MOVE-18", allowed="a ship, like #12"
        )
    if len(set(order.unit_ids)) != len(order.unit_ids):
        raise RuleViolation(
            "A ship is listed twice in one order.",
            rule="R-MOVE-18",
            allowed="each ship once, like #12, #13",
        )
    stops = [resolve_water(ruleset, s) for s in (*order.via, order.destination)]
    destination = stops[-1]
    game_map = ruleset.map
    name = game_map.space_name(destination)
    if not is_navigable(game_map, destination):
        raise IllegalMove(
            f"{name} is not navigable; ships sail only on sea zones and navigable rivers.",
            rule="R-ATTR-WATER-01",
            allowed="a sea zone or a navigable river edge, as the to option lists them",
        )
    plans: list[SailPlan] = []
    for uid in order.unit_ids:
        ship = state.units.get(str(uid))
        if ship is None:
            raise RuleViolation(
                f"There is no unit #{uid} on the board.",
                rule="R-MOVE-18",
                allowed="your ships by number, as the ship option lists them (#12)",
            )
        label = unit_label(ruleset, ship)
        if ship.owner != order.faction:
            raise RuleViolation(
                f"{label} belongs to {ship.owner}, not {order.faction}.",
                rule="R-TURN-03",
                allowed="sail your own ships",
            )
        if not is_ship(ruleset, ship):
            raise IllegalMove(
                f"{label} is not a ship; land units go aboard with /embark.",
                rule="R-MOVE-18",
                allowed="name ships",
            )
        stuck = _why_ship_stuck(state, ruleset, ship)
        if stuck is not None:
            raise stuck
        if ship.location == destination and not order.via:
            raise IllegalMove(
                f"{label} is already on {name}.",
                rule="R-MOVE-18",
                allowed="another sea zone or river edge as the destination",
            )
        path = _route_via(state, ruleset, ship, stops)
        if path is None:
            raise _why_unreachable(state, ruleset, ship, stops)
        plans.append(
            SailPlan(ship.id, ship.location, path, hostile_at(state, destination, ship.owner))
        )
    return plans


def _why_unreachable(
    state: GameState, ruleset: Ruleset, ship: Unit, stops: Sequence[str]
) -> IllegalMove:
    """The clearest reason ``ship`` cannot sail through ``stops`` (the ``via`` spaces, then
    the destination, last) (R-MOVE-13, R-MOVE-18): a river edge it may not attack into, no
    water route, too far (straight or through the ``via`` spaces), a ``via`` space where the
    ship already is at that point of the route; else another faction's ships in the way."""
    destination = stops[-1]
    game_map = ruleset.map
    label = unit_label(ruleset, ship)
    name = game_map.space_name(destination)
    reachable = [game_map.space_name(s) for s in sail_destinations(state, ruleset, ship)]
    allowed = (
        f"{label} can reach: " + ", ".join(reachable)
        if reachable
        else f"{label} can reach nothing from here this turn"
    )
    left = ship_remaining(ship, ruleset.kind(ship.kind))
    if hostile_at(state, destination, ship.owner) and destination in game_map.rivers:
        return IllegalMove(
            f"{name} holds another faction's ships, and ships never attack into a river edge.",
            rule="R-MOVE-13",
            allowed=allowed,
        )
    links = game_map_neighbours(ruleset)
    free = _distance(links, ship.location, destination)
    if free is None:
        return IllegalMove(
            f"No water route links {game_map.space_name(ship.location)} to {name}.",
            rule="R-MOVE-18",
            allowed=allowed,
        )
    if free > left:
        return IllegalMove(
            f"{name} is {free} spaces away by water; {label} has {left} movement left.",
            rule="R-MOVE-18",
            allowed=allowed,
        )
    via = _why_via_blocks(links, ship, stops, label, left, game_map.space_name)
    if via is not None:
        return IllegalMove(via, rule="R-MOVE-18", allowed=allowed)
    return IllegalMove(
        f"{label} cannot reach {name} that way: another faction's ships stand on the route, "
        "where a ship must stop, or the last step would attack from a river edge.",
        rule="R-MOVE-18" if ship.location not in game_map.rivers else "R-MOVE-13",
        allowed=allowed,
    )


def _why_via_blocks(
    links: dict[str, frozenset[str]],
    ship: Unit,
    stops: Sequence[str],
    label: str,
    left: int,
    space_name: Callable[[str], str],
) -> str | None:
    """Why the route through ``stops`` (``via`` spaces, then the destination) fails whatever
    other ships stand on the water, or ``None`` if it does not on an empty sea (R-MOVE-18):
    a stop that is where the ship already is at that point, or a route longer than ``left``."""
    if len(stops) < 2:
        return None
    here, total = ship.location, 0
    for stop in stops:
        if stop == here:
            return (
                f"The route names {space_name(stop)} where {label} already is at that point; "
                "each space of via and the destination must be a step onward."
            )
        leg = _distance(links, here, stop)
        if leg is None:
            return f"No water route links {space_name(here)} to {space_name(stop)}."
        here, total = stop, total + leg
    if total > left:
        names = ", ".join(space_name(s) for s in stops[:-1])
        return (
            f"Through {names}, {space_name(stops[-1])} is {total} spaces away by water; "
            f"{label} has {left} movement left."
        )
    return None


def game_map_neighbours(ruleset: Ruleset) -> dict[str, frozenset[str]]:
    """Every water space's links (R-MOVE-13, R-MOVE-18)."""
    game_map = ruleset.map
    spaces: Iterable[str] = [*game_map.sea_zones, *game_map.rivers]
    return {s: water_neighbours(game_map, s) for s in spaces}


def _distance(links: dict[str, frozenset[str]], start: str, goal: str) -> int | None:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return seen[here]
        for nxt in sorted(links.get(here, frozenset())):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return None


def carry_out_sail(
    state: GameState, ruleset: Ruleset, faction: str, plans: Sequence[SailPlan]
) -> list[Event]:
    """Sail the ships along ``plans`` (already checked) with their cargo (R-MOVE-14, R-MOVE-18).

    Each ship's ``location``, ``path``, ``entered_from`` and ``movement_used`` change; a ship
    entering held water gets ``attacking`` and ``move_ended``. Units aboard follow its space and
    the space it entered from."""
    events: list[Event] = []
    for plan in plans:
        ship = state.unit(plan.unit_id)
        entered_from = plan.path[-2] if len(plan.path) > 1 else plan.origin
        ship.location = plan.destination
        ship.path = [*ship.path, *plan.path]
        ship.entered_from = entered_from
        ship.movement_used += len(plan.path)
        if plan.attack:
            ship.attacking = True
            ship.move_ended = True
        cargo = [u.id for u in cargo_of(state, ship.id)]
        for uid in cargo:
            unit = state.unit(uid)
            unit.location = plan.destination
            unit.entered_from = entered_from
        events.append(
            ShipsSailed(
                faction=faction,
                unit_ids=(ship.id,),
                cargo=tuple(cargo),
                origin=plan.origin,
                destination=plan.destination,
                path=plan.path,
                attack=plan.attack,
                movement_left=ship_remaining(ship, ruleset.kind(ship.kind)),
            )
        )
    return _merge(events)


def _merge(events: list[Event]) -> list[Event]:
    """One :class:`ShipsSailed` per route and outcome, the ships of a stack together."""
    merged: list[ShipsSailed] = []
    for event in events:
        assert isinstance(event, ShipsSailed)
        last = merged[-1] if merged else None
        if last is not None and (last.origin, last.path, last.attack) == (
            event.origin,
            event.path,
            event.attack,
        ):
            merged[-1] = ShipsSailed(
                event.faction,
                last.unit_ids + event.unit_ids,
                last.cargo + event.cargo,
                event.origin,
                event.destination,
                event.path,
                event.attack,
                min(last.movement_left, event.movement_left),
            )
        else:
            merged.append(event)
    return list(merged)


def handle_sail_ships(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`SailShips` (step 6, active faction only; R-MOVE-13, R-MOVE-18).

    Raises:
        RuleViolation: see :func:`plan_sail`; nothing moves on a refusal.
    """
    assert isinstance(order, SailShips)
    return carry_out_sail(state, ruleset, order.faction, plan_sail(state, ruleset, order))


# --------------------------------------------------------------------------- step 6

#: Ship orders of step 6 (R-MOVE-13, R-MOVE-18); step 6's own spec is
#: :data:`caedes_bot.rules.movement.SPEC`.
SPEC = StepSpec(
    "ships",
    accepts=(Accepts(SailShips, handle_sail_ships, steps=(Step.MOVE,)),),
)
