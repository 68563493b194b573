"""Where a unit can go now, and by which route (R-MOVE-01..12): :func:`plan_moves` and what
the edge asks before giving orders."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset, Terrain
from caedes_bot.rules.combat.arithmetic import combat_terrain_key
from caedes_bot.rules.movement.costs import (
    Entry,
    EntryCost,
    Occupation,
    entry_cost,
    remaining_movement,
)
from caedes_bot.rules.movement.stuck import Stuck, blocked
from caedes_bot.rules.state import GameState, Unit

# --------------------------------------------------------------------------- route finding


@dataclass(frozen=True, slots=True)
class MovePlan:
    """A legal move of one unit to one destination (what :class:`MoveUnits` carries out).

    Attributes:
        unit_id: the unit.
        origin: where it starts.
        path: provinces entered, in order; the last is the destination.
        terrain: terrain to store in :attr:`Unit.terrain` (R-MOVE-03), or ``None``.
        cost: movement points it uses (its whole remaining allowance for an entire-movement
            entry, R-MOVE-04).
        entire: the last step cost its entire movement.
        attack: the destination holds non-partner units (R-MOVE-02).
    """

    unit_id: int
    origin: str
    path: tuple[str, ...]
    terrain: Terrain | None
    cost: int
    entire: bool
    attack: bool

    @property
    def destination(self) -> str:
        return self.path[-1]

    @property
    def entered_from(self) -> str:
        """The space the unit enters the destination from (R-COMBAT-08)."""
        return self.path[-2] if len(self.path) > 1 else self.origin

    @property
    def move_ended(self) -> bool:
        return self.entire or self.attack


def plan_moves(
    state: GameState, ruleset: Ruleset, unit: Unit, terrain: Terrain | None = None
) -> dict[str, MovePlan]:
    """Every province ``unit`` may move to now, with the preferred route to each (R-MOVE-01..12).

    Args:
        terrain: the terrain the owner names for the destination (R-MOVE-03); destinations
            without it are left out.

    Returns:
        destination id -> plan, empty if the unit cannot move (whatever the reason; see
        :func:`why_stuck` for the reason). Provinces are in id order.
    """
    kind = ruleset.kind(unit.kind)
    if blocked(ruleset, unit, kind) is not None:
        return {}
    remaining = remaining_movement(unit, kind)
    game_map = ruleset.map
    faction = unit.owner
    start = unit.location
    first_move = unit.movement_used == 0
    stop_on_entry = state.options.entire_move_mode == "stop_on_entry"
    single_choice = state.options.terrain_single_choice
    occupation = Occupation(state, ruleset, faction)
    best: dict[str, tuple[tuple[int, int, tuple[str, ...]], MovePlan]] = {}

    def consider(path: tuple[str, ...], here: str) -> None:
        dest = path[-1]
        province = game_map.provinces[dest]
        if terrain is not None and terrain not in province.terrains:
            return
        pool = [terrain] if (single_choice and terrain is not None) else list(province.terrains)
        candidates: list[tuple[tuple[int, ...], Terrain, EntryCost]] = []
        for t in pool:
            cost = entry_cost(ruleset, kind, here, dest, t)
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
        plan = MovePlan(
            unit_id=unit.id,
            origin=start,
            path=path,
            terrain=stored,
            cost=remaining if entire else len(path),
            entire=entire,
            attack=occupation.hostile(dest),
        )
        foreign = sum(1 for p in path[:-1] if occupation.foreign(p))
        rank = (len(path), foreign, path)
        if dest not in best or rank < best[dest][0]:
            best[dest] = (rank, plan)

    def passable(here: str, nxt: str) -> bool:
        if occupation.hostile(nxt):
            return False
        return any(
            entry_cost(ruleset, kind, here, nxt, t).entry is Entry.NORMAL
            for t in game_map.provinces[nxt].terrains
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
    return {dest: best[dest][1] for dest in sorted(best)}


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
    return None if plan_moves(state, ruleset, unit) else Stuck.NOWHERE


def movable_units(state: GameState, ruleset: Ruleset, faction: str) -> list[Unit]:
    """``faction``'s units that can still move somewhere this step, in id order (R-MOVE-01)."""
    return [u for u in state.units_of(faction) if plan_moves(state, ruleset, u)]


def legal_destinations(
    state: GameState, ruleset: Ruleset, unit_ids: Sequence[int], terrain: Terrain | None = None
) -> dict[str, bool]:
    """Where ALL of ``unit_ids`` may move now, for autocomplete (R-MOVE-01..12).

    Returns:
        province id -> ``True`` if moving there is an attack (R-MOVE-02), in id order. Empty if
        any unit is unknown or cannot move.
    """
    result: dict[str, bool] | None = None
    for uid in unit_ids:
        unit = state.units.get(str(uid))
        if unit is None:
            return {}
        plans = plan_moves(state, ruleset, unit, terrain)
        here = {dest: plan.attack for dest, plan in plans.items()}
        result = here if result is None else {d: a for d, a in result.items() if d in here}
    return result or {}
