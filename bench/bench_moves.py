"""Benchmark: legal-destination search on the full map, per unit kind, against a plain BFS.

Run from the repository root::

    .venv/bin/python -m bench.bench_moves

For each kind of mover (infantry, cavalry, Quick Amphibian infantry, flying cavalry) a unit of
that kind is put in every province of the default scenario's map in turn, with the scenario's
units on the board, and every destination it may reach now is asked for: what autocomplete and
``/move`` ask (``movement.plan_moves``; ``movement.plan_flights`` for a flight). The reference
is a plain breadth-first search over the same adjacency to the same depth (land borders for a
land move; land borders and coasts, sea zones and their neighbours for a flight), with nothing
of the rules: no terrain, no rivers, no occupation, no ranking of routes. The ratio of the
medians per query is the cost of the rules.

Two figures per kind: "cold", where each query also reads who stands where from every unit on
the board (one pass over about 180 units, which the plain search does not do at all), and
"shared", where that reading is made once per faction and handed to each query, as
``movable_units`` and ``legal_destinations`` do for the several units one interaction asks
about.

Target (exit code 1 if missed): the shared figure at most 5x the plain search for every kind.
The cold figure is printed beside it and not held to the target.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import replace

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import GameMap, Ruleset, movement_allowance
from caedes_bot.rules.movement import FLYING_ALLOWANCE, plan_flights, plan_moves
from caedes_bot.rules.movement.costs import Occupation
from caedes_bot.rules.movement.flight import flight_neighbours
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import GameState, Unit
from tests.rules.builders import kind

TARGET = 5.0
KINDS = {
    "infantry": kind("B-INF", "DAW"),
    "cavalry": kind("B-CAV", "DAW", "cavalry"),
    "amphibian (quick)": kind("B-AMPH", "DAW", attributes=["amphibian", "quick"]),
    "flying cavalry (flight)": kind("B-FLY", "DAW", "cavalry", ["flying"]),
}
REPEAT = 5


def _bfs(graph: Mapping[str, object], start: str, depth: int) -> set[str]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] >= depth:
            continue
        for nxt in graph[here]:  # type: ignore[attr-defined]
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return set(seen)


def _land_graph(game_map: GameMap) -> dict[str, tuple[str, ...]]:
    return {p: tuple(sorted(game_map.land_neighbours(p))) for p in game_map.provinces}


def _median(run: Callable[[str], object], starts: list[str]) -> float:
    times = []
    for _ in range(REPEAT):
        for start in starts:
            began = time.perf_counter()
            run(start)
            times.append(time.perf_counter() - began)
    return statistics.median(times)


def bench_kind(ruleset: Ruleset, state: GameState, label: str) -> tuple[float, float, float]:
    kind_ = KINDS[label]
    rs = ruleset
    flying = "flight" in label
    starts = sorted(rs.map.provinces)
    units = {p: Unit(id=99_999, kind=kind_.id, owner="DAW", location=p) for p in starts}
    graph = flight_neighbours(rs.map) if flying else _land_graph(rs.map)
    depth = FLYING_ALLOWANCE if flying else movement_allowance(kind_)
    occupation = Occupation(state, rs, "DAW")
    if flying:
        cold = _median(lambda p: plan_flights(state, rs, units[p], graph=graph), starts)
        shared = _median(
            lambda p: plan_flights(state, rs, units[p], graph=graph, occupation=occupation),
            starts,
        )
    else:
        cold = _median(lambda p: plan_moves(state, rs, units[p]), starts)
        shared = _median(lambda p: plan_moves(state, rs, units[p], occupation=occupation), starts)
    plain = _median(lambda p: _bfs(graph, p, depth), starts)
    return cold, shared, plain


def main() -> int:
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    base = load_ruleset()
    ruleset = replace(base, units={**base.units, **{k.id: k for k in KINDS.values()}})
    state = new_game(ruleset, "default", "bench")
    worst = 0.0
    for label in KINDS:
        cold, shared, plain = bench_kind(ruleset, state, label)
        ratio = shared / plain
        worst = max(worst, ratio)
        print(
            f"{label:24s} plain BFS {plain * 1e6:5.1f} us | shared {shared * 1e6:6.1f} us "
            f"{ratio:5.1f}x (target {TARGET:.0f}x) | cold {cold * 1e6:6.1f} us "
            f"{cold / plain:5.1f}x"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
