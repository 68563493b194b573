"""Where a unit can go now, and by which route (R-MOVE-01..12): :func:`plan_moves` and what
the edge asks before giving orders."""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Attribute, Ruleset, Terrain
from caedes_bot.rules.combat.arithmetic import combat_terrain_key
from caedes_bot.rules.movement.costs import (
    Entry,
    EntryCost,
    Occupation,
    entry_cost,
    remaining_movement,
)
from caedes_bot.rules.movement.flight import plan_flights
from caedes_bot.rules.movement.plans import MoveKind, MovePlan
from caedes_bot.rules.movement.steps_table import Choice, KindTable, kind_table
from caedes_bot.rules.movement.stuck import Stuck, blocked
from caedes_bot.rules.state import GameState, Unit

# --------------------------------------------------------------------------- route finding


def follows(path: Sequence[str], via: Sequence[str]) -> bool:
    """``path`` passes through every space of ``via``, in that order (not necessarily next
    to each other)."""
    spaces = iter(path)
    return all(any(space == waypoint for space in spaces) for waypoint in via)


def plan_moves(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    terrain: Terrain | None = None,
    via: Sequence[str] = (),
    occupation: Occupation | None = None,
) -> dict[str, MovePlan]:
    """Every province ``unit`` may move to now, with the preferred route to each (R-MOVE-01..12,
    R-ATTR-AMPH-01).

    An Amphibian unit that has not moved this turn may also cross one sea zone on its coast to
    a province on that sea zone's coast, instead of its normal move (R-ATTR-AMPH-01): the
    crossing uses its whole allowance, it is offered only where no land route reaches, and it
    is refused over a sea zone holding units of a faction that is not a pact partner. A unit
    that lands on non-partner units attacks from the sea zone, so it may not withdraw
    (R-COMBAT-09). Entire-movement terrain costs do not apply to the landing; prohibitions do
    (cavalry into mountains without Mountainlore, R-MOVE-06).

    Args:
        terrain: the terrain the owner names for the destination (R-MOVE-03); destinations
            without it are left out.
        via: spaces the route must pass through, in this order (a sea zone for a crossing).
        occupation: who stands where for ``unit``'s faction, when the caller asks for several
            units of one faction on the same state (it is read once).

    Returns:
        destination id -> plan, empty if the unit cannot move (whatever the reason; see
        :func:`why_stuck` for the reason). Provinces are in id order.
    """
    kind = ruleset.kind(unit.kind)
    options = state.options
    if terrain is None and not via:  # the common question, from the precomputed steps
        single = options.terrain_single_choice
        stop = options.entire_move_mode == "stop_on_entry"
        table = kind_table(ruleset, kind, single, stop)
        left = table.allowance - unit.movement_used
        if (
            table.never_moves
            or unit.aboard is not None
            or unit.location not in table.steps
            or unit.attacking
            or unit.move_ended
            or left <= 0
        ):
            return {}  # as blocked() says (R-MOVE-01, -22, R-ATTR-FORT-01)
        if occupation is None:
            occupation = Occupation(state, ruleset, unit.owner)
        return _routes(table, unit, left, unit.movement_used == 0, stop, occupation)
    if blocked(ruleset, unit, kind) is not None:
        return {}
    remaining = remaining_movement(unit, kind)
    game_map = ruleset.map
    faction = unit.owner
    start = unit.location
    first_move = unit.movement_used == 0
    stop_on_entry = state.options.entire_move_mode == "stop_on_entry"
    single_choice = state.options.terrain_single_choice
    if occupation is None:
        occupation = Occupation(state, ruleset, faction)
    best: dict[str, tuple[tuple[int, int, tuple[str, ...]], MovePlan]] = {}

    costs: dict[tuple[str, str, Terrain], EntryCost] = {}

    def cost_of(here: str, dest: str, t: Terrain) -> EntryCost:
        key = (here, dest, t)
        found = costs.get(key)
        if found is None:
            found = costs[key] = entry_cost(ruleset, kind, here, dest, t)
        return found

    def consider(path: tuple[str, ...], here: str) -> None:
        if via and not follows(path, via):
            return
        dest = path[-1]
        province = game_map.provinces[dest]
        if terrain is not None and terrain not in province.terrains:
            return
        foreign = sum(1 for p in path[:-1] if occupation.foreign(p))
        rank = (len(path), foreign, path)
        if dest in best and not rank < best[dest][0]:
            return  # a route at least as good is known already
        pool = [terrain] if (single_choice and terrain is not None) else list(province.terrains)
        candidates: list[tuple[tuple[int, ...], Terrain, EntryCost]] = []
        for t in pool:
            cost = cost_of(here, dest, t)
            if cost.entry is Entry.FORBIDDEN:
                continue
            if (
                cost.entry is Entry.ENTIRE
                and not stop_on_entry
                and not (first_move and len(path) == 1)
            ):
                continue
            move_key = (-int(cost.entry), -province.terrains.index(t))
            key = (*combat_terrain_key(kind, t), *move_key) if single_choice else move_key
            candidates.append((key, t, cost))
        if not candidates:
            return
        _key, chosen, cost = max(candidates, key=lambda c: c[0])
        multi = len(province.terrains) > 1
        stored = (chosen if multi else None) if single_choice else terrain
        entire = cost.entry is Entry.ENTIRE
        best[dest] = (
            rank,
            MovePlan(
                unit_id=unit.id,
                origin=start,
                path=path,
                terrain=stored,
                cost=remaining if entire else len(path),
                entire=entire,
                attack=occupation.hostile(dest),
            ),
        )

    def passable(here: str, nxt: str) -> bool:
        if occupation.hostile(nxt):
            return False
        return any(
            cost_of(here, nxt, t).entry is Entry.NORMAL for t in game_map.provinces[nxt].terrains
        )

    def visit(path: tuple[str, ...], here: str) -> None:
        for nxt in sorted(game_map.land_neighbours(here)):
            if nxt == start or nxt in path or nxt not in game_map.provinces:
                continue
            new_path = (*path, nxt)
            consider(new_path, here)
            if len(new_path) < remaining and passable(here, nxt):
                visit(new_path, nxt)

    if remaining > 0:
        visit((), start)
    if kind.has(Attribute.AMPHIBIAN) and first_move and not unit.path:
        for dest, plan in _crossings(state, ruleset, unit, terrain, via, occupation).items():
            if dest not in best:
                best[dest] = ((len(plan.path), 0, plan.path), plan)
    return {dest: best[dest][1] for dest in sorted(best)}


def _routes(
    table: KindTable,
    unit: Unit,
    remaining: int,
    first_move: bool,
    stop_on_entry: bool,
    occupation: Occupation,
) -> dict[str, MovePlan]:
    """:func:`plan_moves` without a named terrain or ``via``, from the precomputed steps of
    the unit's kind (:mod:`.steps_table`): a breadth-first search that settles each province
    once, at the fewest steps, keeping for each the best route by the same order as the full
    search (fewer provinces of other factions passed, then the first by province ids). The
    results are the same: a route a step longer never beats a shorter one, and the best route
    to a province is made of the best route to the one before it."""
    start = unit.location
    hostile = occupation.hostile
    foreign = occupation.foreign
    steps = table.steps
    # province -> (other factions' provinces passed, path) of the best route that may go on
    reached: dict[str, tuple[int, tuple[str, ...]]] = {start: (0, ())}
    frontier = [start]
    found: dict[str, tuple[int, tuple[str, ...], Choice]] = {}
    depth = 0
    while frontier and depth < remaining:
        depth += 1
        entire_ok = stop_on_entry or (first_move and depth == 1)
        go_on = depth < remaining
        arrived: dict[str, tuple[int, tuple[str, ...], Choice]] = {}
        onward: dict[str, tuple[int, tuple[str, ...]]] = {}
        for here in frontier:
            passed, path = reached[here]
            if here != start and foreign(here):
                passed += 1
            for step in steps[here]:
                to = step.to
                if to == start:
                    continue
                route = (*path, to)
                if to not in found:
                    choice = step.first if entire_ok else step.later
                    if choice is not None:
                        known = arrived.get(to)
                        if known is None or (passed, route) < (known[0], known[1]):
                            arrived[to] = (passed, route, choice)
                if go_on and step.normal and to not in reached and not hostile(to):
                    known_on = onward.get(to)
                    if known_on is None or (passed, route) < known_on:
                        onward[to] = (passed, route)
        found.update(arrived)
        if not go_on:
            break
        reached.update(onward)
        frontier = list(onward)
    crossings = (
        _table_crossings(table, unit, occupation)
        if table.amphibian and first_move and not unit.path
        else ()
    )
    plans: dict[str, MovePlan] = {}
    uid = unit.id
    for dest in sorted([*found, *(d for d, _ in crossings if d not in found)]):
        hit = found.get(dest)
        if hit is not None:
            _passed, path, choice = hit
            entire = choice.entire
            plans[dest] = MovePlan(
                uid,
                start,
                path,
                choice.terrain,
                remaining if entire else len(path),
                entire,
                hostile(dest),
            )
        else:
            route, landing = dict(crossings)[dest]
            plans[dest] = MovePlan(
                uid, start, route, landing, remaining, True, hostile(dest), MoveKind.CROSSING
            )
    return plans


def _table_crossings(
    table: KindTable, unit: Unit, occupation: Occupation
) -> list[tuple[str, tuple[tuple[str, str], Terrain | None]]]:
    """The Amphibian crossings of ``unit`` from the precomputed landings (R-ATTR-AMPH-01), as
    :func:`_crossings` finds them without a named terrain or ``via``: the first sea zone by id
    that reaches each province."""
    out: list[tuple[str, tuple[tuple[str, str], Terrain | None]]] = []
    seen: set[str] = set()
    for sea in table.seas.get(unit.location, ()):
        if occupation.hostile(sea):
            continue
        for dest in table.coasts[sea]:
            if dest == unit.location or dest in seen:
                continue
            landing = table.landings[dest]
            if landing is None:
                continue
            seen.add(dest)
            out.append((dest, ((sea, dest), landing.terrain)))
    return out


def _crossings(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    terrain: Terrain | None,
    via: Sequence[str],
    occupation: Occupation,
) -> dict[str, MovePlan]:
    """The Amphibian crossings ``unit`` may make now, by destination (R-ATTR-AMPH-01)."""
    game_map = ruleset.map
    kind = ruleset.kind(unit.kind)
    single_choice = state.options.terrain_single_choice
    remaining = remaining_movement(unit, kind)
    found: dict[str, MovePlan] = {}
    for sea in sorted(game_map.seas_of(unit.location)):
        if occupation.hostile(sea):
            continue
        for dest in sorted(game_map.coast_of(sea)):
            path = (sea, dest)
            if dest == unit.location or dest in found or (via and not follows(path, via)):
                continue
            province = game_map.provinces[dest]
            pool = [terrain] if terrain is not None else list(province.terrains)
            allowed = [
                t
                for t in pool
                if t in province.terrains
                and entry_cost(ruleset, kind, sea, dest, t).entry is not Entry.FORBIDDEN
            ]
            if not allowed:
                continue
            if terrain is not None:
                stored: Terrain | None = terrain
            elif single_choice and len(province.terrains) > 1:
                stored = max(
                    allowed,
                    key=lambda t: (*combat_terrain_key(kind, t), -province.terrains.index(t)),
                )
            else:
                stored = None
            found[dest] = MovePlan(
                unit_id=unit.id,
                origin=unit.location,
                path=path,
                terrain=stored,
                cost=remaining,
                entire=True,
                attack=occupation.hostile(dest),
                how=MoveKind.CROSSING,
            )
    return found


def why_stuck(state: GameState, ruleset: Ruleset, unit: Unit) -> Stuck | None:
    """Why ``unit`` cannot move now, or ``None`` if some province is within its reach
    (R-MOVE-01..12, R-MOVE-22, R-ATTR-FORT-01).

    Returns:
        The first reason that holds, in the order of :class:`Stuck`: what keeps the unit from
        moving at all, else :attr:`Stuck.NOWHERE` when :func:`plan_moves` finds no destination.
    """
    reason = blocked(ruleset, unit, ruleset.kind(unit.kind))
    if reason is not None:
        return reason
    return None if can_move_somewhere(state, ruleset, unit) else Stuck.NOWHERE


def can_move_somewhere(
    state: GameState, ruleset: Ruleset, unit: Unit, occupation: Occupation | None = None
) -> bool:
    """Some province is within ``unit``'s reach now, by land, crossing or flight (R-MOVE-21)."""
    return bool(
        plan_moves(state, ruleset, unit, occupation=occupation)
        or plan_flights(state, ruleset, unit, occupation=occupation)
    )


def movable_units(state: GameState, ruleset: Ruleset, faction: str) -> list[Unit]:
    """``faction``'s units that can still move somewhere this step, in id order (R-MOVE-01)."""
    occupation = Occupation(state, ruleset, faction)
    return [u for u in state.units_of(faction) if can_move_somewhere(state, ruleset, u, occupation)]


def legal_destinations(
    state: GameState,
    ruleset: Ruleset,
    unit_ids: Sequence[int],
    terrain: Terrain | None = None,
    via: Sequence[str] = (),
) -> dict[str, bool]:
    """Where ALL of ``unit_ids`` may move now, for autocomplete (R-MOVE-01..12).

    Returns:
        province id -> ``True`` if moving there is an attack (R-MOVE-02), in id order. Empty if
        any unit is unknown or cannot move.
    """
    result: dict[str, bool] | None = None
    occupations: dict[str, Occupation] = {}
    for uid in unit_ids:
        unit = state.units.get(str(uid))
        if unit is None:
            return {}
        if occupations.get(unit.owner) is None:
            occupations[unit.owner] = Occupation(state, ruleset, unit.owner)
        plans = plan_moves(state, ruleset, unit, terrain, via, occupations[unit.owner])
        here = {dest: plan.attack for dest, plan in plans.items()}
        result = here if result is None else {d: a for d, a in result.items() if d in here}
    return result or {}
