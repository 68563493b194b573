"""Balance checks for scenarios: who could reach whom in the first game round.

These are authoring tools for scenario designers and for ``docs/scenarios.md``, not rules of
play. The reach computed here is deliberately GENEROUS (an over-estimate): it ignores terrain
costs (R-MOVE-04..07, R-MOVE-12), blocking by other units (R-MOVE-02) and RP limits on
summoning, so a province it calls safe is safe under the real rules too.

What a faction's starting units could enter in its first turn (R-MOVE-01):

* a land unit: every province within its move allowance over land borders (type move,
  +1 Quick, -1 Slow but never below 1: R-ATTR-QUICK-01, R-ATTR-SLOW-01); cavalry that wins
  may continue (R-ATTR-BLITZ-02), which stays within the same allowance;
* Flying: up to 4 spaces, over sea zones too, ending in a province (R-ATTR-FLY-01);
* Amphibian: across one adjacent sea zone (R-ATTR-AMPH-01);
* a Summoner: units it summons before moving move from its province (R-MAGIC-SUMM-04);
* ships: a land unit next to water its ship passes can embark and land on any province beside
  water the ship can reach with its 2 moves, sea zones and navigable river edges alike
  (R-MOVE-13, R-MOVE-15, R-MOVE-18);
* Teleportation cannot attack (R-MAGIC-TELE-01), so it adds nothing here.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from caedes_bot.gamedata.model import (
    Attribute,
    BaseType,
    GameMap,
    Race,
    Ruleset,
    Scenario,
    UnitKind,
    movement_allowance,
)

__all__ = [
    "FLYING_ALLOWANCE",
    "SHIP_CAPACITY",
    "Exposure",
    "allowance",
    "exposure",
    "first_turn_income",
    "round_one_reach",
    "water_within",
]

#: Spaces a flying move may cover (R-ATTR-FLY-01).
FLYING_ALLOWANCE = 4


@dataclass(frozen=True, slots=True)
class Exposure:
    """How one faction stands at the start of a scenario.

    Attributes:
        faction: faction code.
        provinces: provinces it owns, sorted.
        units: its starting units (count, ships included).
        threatened: its provinces that a rival could enter in game round 1.
        safe_units: its land units standing in provinces no rival can enter in round 1.
        attackers: rival land units able to enter at least one of its provinces in round 1
            (by ship at most two per ship, R-MOVE-14).
        income: RP its first collection yields (R-COLL-04: owned provinces holding its units).
        upkeep: RP its first upkeep costs before Salt (R-UPK-01: ceil(non-Undead units / 6)).
    """

    faction: str
    provinces: tuple[str, ...]
    units: int
    threatened: tuple[str, ...]
    safe_units: int
    attackers: int
    income: int
    upkeep: int


def allowance(kind: UnitKind) -> int:
    """Movement allowance of ``kind``: :func:`~caedes_bot.gamedata.model.movement_allowance`.

    Raises ``ValueError`` for kinds that never move (Towers). R-MOVE-01, R-ATTR-QUICK-01,
    R-ATTR-SLOW-01.
    """
    if kind.move is None:
        raise ValueError(f"{kind.id} never moves")
    return movement_allowance(kind)


def _within(start: str, steps: int, neighbours: Callable[[str], Iterable[str]]) -> set[str]:
    """Spaces at most ``steps`` moves from ``start`` (included), one move = one ``neighbours``."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] == steps:
            continue
        for nxt in neighbours(here):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return set(seen)


def _land_within(game_map: GameMap, start: str, steps: int) -> set[str]:
    return _within(start, steps, game_map.land_neighbours)


def _flying_within(game_map: GameMap, start: str) -> set[str]:
    def neighbours(here: str) -> frozenset[str]:
        if game_map.is_province(here):
            return game_map.land_neighbours(here) | game_map.seas_of(here)
        return game_map.sea_adjacency.get(here, frozenset()) | game_map.coast_of(here)

    reached = _within(start, FLYING_ALLOWANCE, neighbours)
    return {s for s in reached if game_map.is_province(s)}


def _amphibian_targets(game_map: GameMap, start: str) -> set[str]:
    out: set[str] = set()
    for sea in game_map.seas_of(start):
        out |= game_map.coast_of(sea)
    return out


def _water_neighbours(game_map: GameMap, space: str) -> set[str]:
    if game_map.is_sea(space):
        out = set(game_map.sea_adjacency.get(space, frozenset()))
        out |= {e.id for e in game_map.rivers.values() if e.navigable and e.mouth == space}
        return out
    edge = game_map.rivers[space]
    out = {
        e.id
        for e in game_map.rivers.values()
        if e.navigable and e.id != edge.id and {e.a, e.b} & {edge.a, edge.b}
    }
    if edge.mouth is not None:
        out.add(edge.mouth)
    return out


def water_within(game_map: GameMap, start: str, steps: int) -> set[str]:
    """Sea zones and navigable river edges a ship at ``start`` can reach in ``steps`` moves.

    A ship moves between touching sea zones, between a mouth edge and its sea zone, and along
    navigable river edges that share a province (R-MOVE-13, R-MOVE-18). ``start`` is included.
    """
    return _within(start, steps, lambda here: _water_neighbours(game_map, here))


def _shore_of(game_map: GameMap, water: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for space in water:
        if game_map.is_sea(space):
            out |= game_map.coast_of(space)
        else:
            edge = game_map.rivers[space]
            out |= {edge.a, edge.b}
    return out


def round_one_reach(ruleset: Ruleset, scenario: Scenario) -> Mapping[str, frozenset[str]]:
    """Provinces each faction's starting units could enter in game round 1 (generous).

    Args:
        ruleset: the game data.
        scenario: the scenario whose starting units are used.

    Returns:
        Faction code -> provinces any of its units could enter (its own included).
    """
    game_map = ruleset.map
    reach: dict[str, set[str]] = {code: set() for code in scenario.faction_codes}
    kinds = {u.kind: ruleset.kind(u.kind) for u in scenario.units}
    summoned: dict[str, list[UnitKind]] = {}
    for kind in ruleset.units.values():
        if kind.race is Race.SUMMONED and kind.move is not None:
            summoned.setdefault(kind.faction, []).append(kind)
    land_positions: dict[str, set[str]] = {code: set() for code in scenario.faction_codes}
    for unit in scenario.units:
        kind = kinds[unit.kind]
        if kind.base_type is BaseType.SHIP or kind.move is None:
            continue
        if not game_map.is_province(unit.location):
            continue
        land_positions[kind.faction].add(unit.location)
        movers = [kind]
        if kind.has(Attribute.SUMMONER):
            movers += summoned.get(kind.faction, [])
        for mover in movers:
            reach[kind.faction] |= _land_within(game_map, unit.location, allowance(mover))
            if mover.has(Attribute.FLYING):
                reach[kind.faction] |= _flying_within(game_map, unit.location)
            if mover.has(Attribute.AMPHIBIAN):
                reach[kind.faction] |= _amphibian_targets(game_map, unit.location)
    for unit in scenario.units:
        kind = kinds[unit.kind]
        if kind.base_type is not BaseType.SHIP or kind.move is None:
            continue
        water = water_within(game_map, unit.location, allowance(kind))
        shore = _shore_of(game_map, water)
        if shore & land_positions[kind.faction]:
            reach[kind.faction] |= shore
    return {code: frozenset(provinces) for code, provinces in reach.items()}


def first_turn_income(ruleset: Ruleset, scenario: Scenario, faction: str) -> int:
    """RP of the first collection: owned provinces holding one of its units (R-COLL-04)."""
    garrisoned = {
        u.location
        for u in scenario.units
        if ruleset.kind(u.kind).faction == faction and ruleset.map.is_province(u.location)
    }
    return sum(
        ruleset.map.provinces[p].rp
        for p, owner in scenario.owners.items()
        if owner == faction and p in garrisoned
    )


def exposure(ruleset: Ruleset, scenario: Scenario) -> tuple[Exposure, ...]:
    """How exposed each faction is in game round 1, in turn order.

    A province is threatened when a rival's starting units could enter it in round 1
    (:func:`round_one_reach`); rivals are every other faction in play, pacts ignored.
    """
    reach = round_one_reach(ruleset, scenario)
    out = []
    for code in scenario.faction_codes:
        owned = sorted(p for p, o in scenario.owners.items() if o == code)
        rivals_reach: set[str] = set()
        for other, provinces in reach.items():
            if other != code:
                rivals_reach |= provinces
        threatened = tuple(p for p in owned if p in rivals_reach)
        units = [(ruleset.kind(u.kind), u) for u in scenario.units]
        own = [(k, u) for k, u in units if k.faction == code]
        safe = sum(
            u.count
            for k, u in own
            if ruleset.map.is_province(u.location) and u.location not in rivals_reach
        )
        attackers = _attackers(ruleset, scenario, code, set(owned))
        not_undead = sum(u.count for k, u in own if not k.has(Attribute.UNDEAD))
        out.append(
            Exposure(
                faction=code,
                provinces=tuple(owned),
                units=sum(u.count for _, u in own),
                threatened=threatened,
                safe_units=safe,
                attackers=attackers,
                income=first_turn_income(ruleset, scenario, code),
                upkeep=math.ceil(not_undead / 6),
            )
        )
    return tuple(out)


#: Land units one ship carries at most: two infantry or one cavalry (R-MOVE-14).
SHIP_CAPACITY = 2


def _attackers(ruleset: Ruleset, scenario: Scenario, faction: str, owned: set[str]) -> int:
    """Rival land units that could enter one of ``owned`` in round 1: those that reach it on
    their own, plus for each rival ship that could land there, up to :data:`SHIP_CAPACITY` of
    its faction's other units standing beside the water it can reach."""
    game_map = ruleset.map
    counted: set[int] = set()
    total = 0
    placed = [(i, ruleset.kind(u.kind), u) for i, u in enumerate(scenario.units)]
    for i, kind, unit in placed:
        if kind.faction == faction or kind.move is None or kind.base_type is BaseType.SHIP:
            continue
        if not game_map.is_province(unit.location):
            continue
        if _unit_reach(game_map, kind, unit.location) & owned:
            counted.add(i)
            total += unit.count
    for _, ship, unit in placed:
        if ship.faction == faction or ship.base_type is not BaseType.SHIP or ship.move is None:
            continue
        shore = _shore_of(game_map, water_within(game_map, unit.location, allowance(ship)))
        if not shore & owned:
            continue
        riders = sum(
            u.count
            for i, k, u in placed
            if i not in counted
            and k.faction == ship.faction
            and k.move is not None
            and k.base_type is not BaseType.SHIP
            and u.location in shore
        )
        total += min(SHIP_CAPACITY * unit.count, riders)
    return total


def _unit_reach(game_map: GameMap, kind: UnitKind, location: str) -> set[str]:
    """Provinces one land unit could enter in round 1 by land, air or amphibian crossing."""
    out = _land_within(game_map, location, allowance(kind))
    if kind.has(Attribute.FLYING):
        out |= _flying_within(game_map, location)
    if kind.has(Attribute.AMPHIBIAN):
        out |= _amphibian_targets(game_map, location)
    return out
