"""Flying moves (R-ATTR-FLY-01, R-ATTR-FLY-02, R-MOVE-21).

A unit with Flying may, instead of its normal move, fly up to :data:`FLYING_ALLOWANCE` spaces.
A flight passes over anything: other factions' units, every terrain, rivers and sea zones. It
starts in a province and must end in one; ending in a province that holds units of a faction
that is not a pact partner is an attack (R-MOVE-02). Quick and Slow never change the 4
(R-ATTR-QUICK-01). A flight is made instead of the unit's normal move, so only a unit that has
not moved this turn may fly, and the flight ends its movement; it stores ``Unit.flew`` so the
battle knows it may not fly back out (R-ATTR-FLY-02). A Flying unit may always make a normal
move instead (:func:`~caedes_bot.rules.movement.reach.plan_moves`), which ignores river costs
(R-MOVE-12).

The spaces of a flight: a province's land neighbours and the sea zones on its coast; a sea
zone's neighbouring sea zones and the provinces on its coast. River edges are not spaces a
flyer stops in: it crosses the border they run along.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from caedes_bot.gamedata.model import Attribute, GameMap, Ruleset, Terrain
from caedes_bot.rules.movement.costs import Occupation
from caedes_bot.rules.movement.plans import MoveKind, MovePlan
from caedes_bot.rules.movement.steps_table import kind_table
from caedes_bot.rules.movement.stuck import blocked
from caedes_bot.rules.state import GameState, Unit

#: Spaces a flying move may cover, whatever Quick or Slow say (R-ATTR-FLY-01).
FLYING_ALLOWANCE = 4


def flight_neighbours(game_map: GameMap) -> Mapping[str, tuple[str, ...]]:
    """Every space -> the spaces a flyer may go to next, in id order (R-ATTR-FLY-01)."""
    coast: dict[str, set[str]] = {sea: set() for sea in game_map.sea_zones}
    for province, seas in game_map.coasts.items():
        for sea in seas:
            coast.setdefault(sea, set()).add(province)
    out: dict[str, tuple[str, ...]] = {}
    for province in game_map.provinces:
        out[province] = tuple(
            sorted(game_map.land_neighbours(province) | game_map.seas_of(province))
        )
    for sea in game_map.sea_zones:
        out[sea] = tuple(sorted(game_map.sea_adjacency.get(sea, frozenset()) | coast[sea]))
    return out


def _shortest(
    graph: Mapping[str, tuple[str, ...]], start: str, limit: int
) -> dict[str, tuple[str, ...]]:
    """Space -> the first shortest path (spaces entered) from ``start``, up to ``limit``."""
    paths: dict[str, tuple[str, ...]] = {start: ()}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if len(paths[here]) >= limit:
            continue
        for nxt in graph.get(here, ()):
            if nxt not in paths:
                paths[nxt] = (*paths[here], nxt)
                queue.append(nxt)
    return paths


def can_fly(ruleset: Ruleset, unit: Unit) -> bool:
    """``unit`` may make a flying move now, wherever to (R-ATTR-FLY-01): it has Flying, stands
    in a province, and has not moved or ended its movement this turn."""
    kind = ruleset.kind(unit.kind)
    return (
        kind.has(Attribute.FLYING)
        and blocked(ruleset, unit, kind) is None
        and unit.movement_used == 0
        and not unit.path
    )


def plan_flights(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    terrain: Terrain | None = None,
    via: Sequence[str] = (),
    graph: Mapping[str, tuple[str, ...]] | None = None,
    occupation: Occupation | None = None,
) -> dict[str, MovePlan]:
    """Every province ``unit`` may fly to now, with the shortest flight to each (R-ATTR-FLY-01).

    Args:
        terrain: the terrain named for the destination (R-MOVE-03); others are left out.
        via: spaces (provinces or sea zones) the flight must pass through, in this order.
        graph: :func:`flight_neighbours` of the map, when the caller has it already.
        occupation: who stands where for the unit's faction, when the caller has it already.

    Returns:
        destination id -> plan (``how`` is :attr:`MoveKind.FLIGHT`, ``cost`` the spaces
        flown), in id order; empty if the unit may not fly now (:func:`can_fly`).
    """
    if not can_fly(ruleset, unit):
        return {}
    game_map = ruleset.map
    graph = flight_neighbours(game_map) if graph is None else graph
    start = unit.location
    # one leg per waypoint: the shortest path to each waypoint, then on from there
    prefix: tuple[str, ...] = ()
    here = start
    for waypoint in via:
        leg = _shortest(graph, here, FLYING_ALLOWANCE - len(prefix)).get(waypoint)
        if leg is None or waypoint == here:
            return {}
        prefix += leg
        here = waypoint
    reach = _shortest(graph, here, FLYING_ALLOWANCE - len(prefix))
    kind = ruleset.kind(unit.kind)
    if occupation is None:
        occupation = Occupation(state, ruleset, unit.owner)
    single_choice = state.options.terrain_single_choice
    stop = state.options.entire_move_mode == "stop_on_entry"
    best = kind_table(ruleset, kind, single_choice, stop).best_terrain
    provinces = game_map.provinces
    hostile = occupation.hostile
    plans: dict[str, MovePlan] = {}
    for dest in sorted(reach):
        if dest == start or dest not in provinces:
            continue
        path = prefix + reach[dest]
        if not path:
            continue
        if terrain is not None:
            if terrain not in provinces[dest].terrains:
                continue
            stored: Terrain | None = terrain
        else:
            stored = best[dest]
        plans[dest] = MovePlan(
            unit_id=unit.id,
            origin=start,
            path=path,
            terrain=stored,
            cost=len(path),
            entire=False,
            attack=hostile(dest),
            how=MoveKind.FLIGHT,
        )
    return plans
