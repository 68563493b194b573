"""The clearest reason a move is refused, and reading the names in an order (R-MOVE-01..13)."""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Iterable, Sequence

from caedes_bot.gamedata.model import Attribute, Ruleset, Terrain
from caedes_bot.gamedata.names import find, fold
from caedes_bot.rules.errors import IllegalMove, UnknownName
from caedes_bot.rules.movement.costs import (
    Entry,
    EntryCost,
    Occupation,
    entry_cost,
    remaining_movement,
)
from caedes_bot.rules.movement.stuck import unit_label
from caedes_bot.rules.state import GameState, Unit


def land_distance(
    ruleset: Ruleset, start: str, goal: str, allowed: Iterable[str] | None = None
) -> int | None:
    """Fewest land steps from ``start`` to ``goal`` through ``allowed`` provinces (all if
    ``None``; the goal is always allowed), or ``None`` if there is no land route."""
    ok = None if allowed is None else set(allowed) | {goal}
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return seen[here]
        for nxt in sorted(ruleset.map.land_neighbours(here)):
            if nxt in seen or (ok is not None and nxt not in ok):
                continue
            seen[nxt] = seen[here] + 1
            queue.append(nxt)
    return None


def why_unreachable(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    destination: str,
    terrain: Terrain | None,
    reachable: Sequence[str],
) -> IllegalMove:
    """The clearest reason ``unit`` cannot reach ``destination`` (R-MOVE-01, -02, -04..12)."""
    kind = ruleset.kind(unit.kind)
    label = unit_label(ruleset, unit)
    name = ruleset.map.space_name(destination)
    names = [ruleset.map.space_name(p) for p in reachable]
    allowed = (
        f"{label} can reach: " + ", ".join(names[:15]) + (" ..." if len(names) > 15 else "")
        if names
        else f"{label} cannot move anywhere from here this turn"
    )
    remaining = remaining_movement(unit, kind)
    distance = land_distance(ruleset, unit.location, destination)
    seas = sorted(
        s for s in ruleset.map.seas_of(unit.location) if destination in ruleset.map.coast_of(s)
    )
    if kind.has(Attribute.AMPHIBIAN) and seas and (distance is None or distance > remaining):
        return _why_no_crossing(state, ruleset, unit, destination, terrain, seas, allowed)
    if distance is None:
        return IllegalMove(
            f"{label} has no land route to {name}; islands are reached only by sea or air.",
            rule="R-MOVE-10",
            allowed=allowed,
        )
    if distance > remaining:
        return IllegalMove(
            f"{name} is {distance} provinces away by land; {label} has {remaining} movement left.",
            rule="R-MOVE-01",
            allowed=allowed,
        )
    terrains = (
        [terrain] if terrain is not None else list(ruleset.map.provinces[destination].terrains)
    )
    entries = [
        entry_cost(ruleset, kind, src, destination, t)
        for src in ruleset.map.land_neighbours(destination)
        for t in terrains
    ]
    if entries and all(e.entry is Entry.FORBIDDEN for e in entries):
        first = entries[0]
        return IllegalMove(f"{label}: {first.reason}.", rule=first.rule, allowed=allowed)
    occupation = Occupation(state, ruleset, unit.owner)
    clear = [p for p in ruleset.map.provinces if not occupation.hostile(p)]
    open_distance = land_distance(ruleset, unit.location, destination, clear)
    if open_distance is None or open_distance > remaining:
        blocking = sorted(
            ruleset.map.space_name(p)
            for p in ruleset.map.provinces
            if p != destination
            and occupation.hostile(p)
            and (ahead := land_distance(ruleset, unit.location, p)) is not None
            and (behind := land_distance(ruleset, p, destination)) is not None
            and ahead + behind <= remaining
        )
        where = f" ({', '.join(blocking)})" if blocking else ""
        return IllegalMove(
            f"{label} cannot reach {name}: every way there within its {remaining} movement passes "
            f"through provinces held by other factions' units{where}, where a move must stop.",
            rule="R-MOVE-02",
            allowed=allowed,
        )
    dearest = max(entries, key=lambda e: e.entry) if entries else EntryCost(Entry.NORMAL)
    if dearest.entry is Entry.ENTIRE and unit.movement_used > 0:
        detail = f"{dearest.reason}, which needs a unit that has not moved yet this turn"
    elif dearest.entry is Entry.ENTIRE:
        detail = f"{dearest.reason}, so it must be the unit's first step this turn"
    else:
        detail = "every route there costs its entire movement before the last step"
    return IllegalMove(
        f"{label} cannot reach {name}: {detail}.",
        rule=dearest.rule if dearest.entry is Entry.ENTIRE else "R-MOVE-04",
        allowed=allowed,
    )


def _why_no_crossing(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    destination: str,
    terrain: Terrain | None,
    seas: Sequence[str],
    allowed: str,
) -> IllegalMove:
    """Why an Amphibian ``unit`` cannot cross one of ``seas`` to ``destination`` on their
    coast (R-ATTR-AMPH-01, R-MOVE-06)."""
    label = unit_label(ruleset, unit)
    name = ruleset.map.space_name(destination)
    if unit.movement_used > 0 or unit.path:
        return IllegalMove(
            f"{label} has moved this turn; an Amphibian crossing to {name} replaces a unit's "
            "whole move.",
            rule="R-ATTR-AMPH-01",
            allowed=allowed,
        )
    kind = ruleset.kind(unit.kind)
    terrains = [terrain] if terrain is not None else ruleset.map.provinces[destination].terrains
    costs = [entry_cost(ruleset, kind, seas[0], destination, t) for t in terrains]
    if all(c.entry is Entry.FORBIDDEN for c in costs):
        return IllegalMove(f"{label}: {costs[0].reason}.", rule=costs[0].rule, allowed=allowed)
    sea_names = ", ".join(ruleset.map.space_name(s) for s in seas)
    return IllegalMove(
        f"{label} cannot cross {sea_names} to {name}: units of a faction that is not your pact "
        "partner hold it.",
        rule="R-ATTR-AMPH-01",
        allowed=allowed,
    )


def parse_terrain(name: str | None) -> Terrain | None:
    """The :class:`Terrain` named ``name`` as people type it, or by the start of its name
    (R-MOVE-03, R-GEN-04), or ``None`` for ``None``.

    Raises:
        UnknownName: no such terrain.
    """
    if name is None:
        return None
    found = find(name, ((t, (t.value,)) for t in Terrain)).item  # "mountain" starts one: R-GEN-04
    if found is not None:
        return found
    options = [t.value for t in Terrain]
    close = tuple(difflib.get_close_matches(fold(name), options, n=2))
    unknown = UnknownName("terrain", name, close, rule="R-MOVE-03")
    unknown.allowed = "one of: " + ", ".join(options)
    raise unknown


def check_destination(ruleset: Ruleset, destination: str) -> None:
    game_map = ruleset.map
    if game_map.is_province(destination) or game_map.is_sea(destination):
        return
    if destination in game_map.rivers:
        raise IllegalMove(
            "Only ships move along river edges; land units cross them between provinces.",
            rule="R-MOVE-13",
            allowed="name a province",
        )
    by_name = {p.name.lower(): pid for pid, p in game_map.provinces.items()}
    pool = list(game_map.provinces) + [p.name for p in game_map.provinces.values()]
    near = difflib.get_close_matches(destination, pool, n=2)
    suggestions = tuple(game_map.space_name(by_name.get(n.lower(), n)) for n in near)
    raise UnknownName("province", destination, suggestions, rule="R-MOVE-01")
