"""What each land step and each landing from a sea zone costs one kind of unit, worked out once
per map, kind and movement options (R-MOVE-03..08, R-MOVE-12, R-ATTR-AMPH-01, -04).

The route search (:func:`~caedes_bot.rules.movement.reach.plan_moves`) asks the same questions
for every query: which terrain of the next province a unit of this kind would use, and whether
stepping there costs its whole movement or is forbidden. The answers depend only on the map,
the kind and two options (``terrain_single_choice``, ``entire_move_mode``), never on the
state, so they are worked out here once, with :func:`~caedes_bot.rules.movement.costs.entry_cost`
itself, and kept: a search then reads one tuple per step.

The tables are a memo of a pure function of immutable game data, keyed by the map's identity
(the map object is kept with its tables, so the key cannot be reused by another map) and
bounded to a few maps. Nothing in them depends on a game, so no game can see another's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from caedes_bot.gamedata.model import (
    Attribute,
    BaseType,
    GameMap,
    Ruleset,
    Terrain,
    UnitKind,
    movement_allowance,
)
from caedes_bot.rules.combat.arithmetic import combat_terrain_key
from caedes_bot.rules.movement.costs import Entry, entry_cost

#: How many maps' tables are kept (a process plays one map; tests build many small ones).
_MAPS_KEPT = 8


@dataclass(frozen=True, slots=True)
class Choice:
    """The terrain a unit uses in the province it steps into, and whether that step costs its
    entire movement (R-MOVE-03, R-MOVE-04)."""

    terrain: Terrain | None  # what :attr:`Unit.terrain` stores (``None``: a single terrain)
    entire: bool


@dataclass(frozen=True, slots=True)
class Step:
    """One step over a land border, from the province it is listed under to ``to``.

    Attributes:
        to: the province entered.
        normal: some terrain of ``to`` is entered at no extra cost, so a route may go on.
        first: the choice when an entire-movement entry is allowed (the unit's first step of
            the turn, or ``entire_move_mode = stop_on_entry``); ``None``: forbidden.
        later: the choice when it is not (a later step under ``full_allowance``); ``None``:
            no terrain of ``to`` is entered at normal cost.
    """

    to: str
    normal: bool
    first: Choice | None
    later: Choice | None


@dataclass(frozen=True, slots=True)
class KindTable:
    """The steps of one kind under one pair of options.

    Attributes:
        steps: province -> its steps, the provinces entered in id order.
        allowance: the kind's movement points a turn (:func:`movement_allowance`).
        never_moves: a Tower, a Fortification or a ship (R-ATTR-FORT-01; ships sail).
        amphibian: the kind has Amphibian (R-ATTR-AMPH-01).
        best_terrain: province -> the terrain stored for a unit that ends a flight there
            (R-MOVE-03: the best for its combat, ties to the first listed), ``None`` for a
            province of one terrain or with ``terrain_single_choice`` off.
        landings: province -> the choice of a unit landing there from a sea zone (an
            Amphibian crossing: entire-movement costs do not apply, prohibitions do), or
            ``None`` if it may not.
        coasts: sea zone -> the provinces on its coast, in id order.
        seas: province -> the sea zones on its coast, in id order.
    """

    steps: Mapping[str, tuple[Step, ...]]
    landings: Mapping[str, Choice | None]
    coasts: Mapping[str, tuple[str, ...]]
    seas: Mapping[str, tuple[str, ...]]
    allowance: int
    never_moves: bool  # a Tower, a Fortification or a ship: never a land move
    amphibian: bool
    best_terrain: Mapping[str, Terrain | None]


_MEMO: dict[int, tuple[GameMap, dict[tuple[int, bool, bool], tuple[UnitKind, KindTable]]]] = {}


def kind_table(
    ruleset: Ruleset, kind: UnitKind, single_choice: bool, stop_on_entry: bool
) -> KindTable:
    """The :class:`KindTable` of ``kind`` on ``ruleset``'s map under the options
    ``terrain_single_choice`` and ``entire_move_mode = stop_on_entry``; made on first use."""
    game_map = ruleset.map
    held = _MEMO.get(id(game_map))
    if held is None or held[0] is not game_map:
        if len(_MEMO) >= _MAPS_KEPT:
            _MEMO.clear()
        held = _MEMO[id(game_map)] = (game_map, {})
    key = (id(kind), single_choice, stop_on_entry)  # kinds are long-lived: kept with it
    found = held[1].get(key)
    if found is None or found[0] is not kind:
        found = held[1][key] = (kind, _build(ruleset, kind, single_choice, stop_on_entry))
    return found[1]


def _choice(
    kind: UnitKind,
    terrains: tuple[Terrain, ...],
    costs: list[tuple[Terrain, Entry]],
    single_choice: bool,
    allow_entire: bool,
) -> Choice | None:
    """As :func:`~caedes_bot.rules.movement.reach.plan_moves` chooses among the terrains that
    make the step legal: the best for combat, then the cheaper entry, then the province's own
    order (with ``terrain_single_choice`` off only the cheaper entry and the order count)."""
    best: tuple[tuple[int, ...], Terrain, Entry] | None = None
    for terrain, entry in costs:
        if entry is Entry.FORBIDDEN or (entry is Entry.ENTIRE and not allow_entire):
            continue
        move_key = (-int(entry), -terrains.index(terrain))
        rank = (*combat_terrain_key(kind, terrain), *move_key) if single_choice else move_key
        if best is None or rank > best[0]:
            best = (rank, terrain, entry)
    if best is None:
        return None
    stored = best[1] if (single_choice and len(terrains) > 1) else None
    return Choice(stored, best[2] is Entry.ENTIRE)


def _build(ruleset: Ruleset, kind: UnitKind, single_choice: bool, stop_on_entry: bool) -> KindTable:
    game_map = ruleset.map
    provinces = game_map.provinces
    steps: dict[str, tuple[Step, ...]] = {}
    for here in provinces:
        out = []
        for to in sorted(game_map.land_neighbours(here)):
            if to not in provinces:
                continue
            terrains = provinces[to].terrains
            costs = [(t, entry_cost(ruleset, kind, here, to, t).entry) for t in terrains]
            out.append(
                Step(
                    to=to,
                    normal=any(entry is Entry.NORMAL for _, entry in costs),
                    first=_choice(kind, terrains, costs, single_choice, True),
                    later=_choice(kind, terrains, costs, single_choice, stop_on_entry),
                )
            )
        steps[here] = tuple(out)
    coasts = {sea: tuple(sorted(game_map.coast_of(sea))) for sea in game_map.sea_zones}
    seas = {p: tuple(sorted(game_map.seas_of(p))) for p in provinces}
    landings: dict[str, Choice | None] = {}
    for dest, province in provinces.items():
        sea = seas[dest][0] if seas[dest] else None
        if sea is None:
            landings[dest] = None
            continue
        allowed = [
            t
            for t in province.terrains
            if entry_cost(ruleset, kind, sea, dest, t).entry is not Entry.FORBIDDEN
        ]
        if not allowed:
            landings[dest] = None
        elif single_choice and len(province.terrains) > 1:
            best = max(
                allowed, key=lambda t: (*combat_terrain_key(kind, t), -province.terrains.index(t))
            )
            landings[dest] = Choice(best, True)
        else:
            landings[dest] = Choice(None, True)
    never = kind.base_type in (BaseType.TOWER, BaseType.SHIP) or kind.has(Attribute.FORTIFICATION)
    return KindTable(
        steps=steps,
        landings=landings,
        coasts=coasts,
        seas=seas,
        allowance=movement_allowance(kind),
        never_moves=never,
        amphibian=kind.has(Attribute.AMPHIBIAN),
        best_terrain={
            p: (
                max(
                    province.terrains,
                    key=lambda t, pr=province: (  # type: ignore[misc]
                        *combat_terrain_key(kind, t),
                        -pr.terrains.index(t),
                    ),
                )
                if single_choice and len(province.terrains) > 1
                else None
            )
            for p, province in provinces.items()
        },
    )
