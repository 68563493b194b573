"""Benchmark: exact battle odds (``caedes_bot.rules.odds``) and route planning on the real map.

Run from the repository root::

    .venv/bin/python -m bench.bench_odds

Targets (exit code 1 if one is missed):

* odds of a battle of 10 mixed units a side: at most 1 s (a player asks for odds before an
  attack; the bot computes them off the event loop and must answer well within minutes, but a
  second keeps the thread pool free);
* every legal destination of every unit of the default scenario at its start
  (``movement.plan_moves``, what autocomplete calls): at most 0.25 s in total.
"""

from __future__ import annotations

import sys
import time

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Options
from caedes_bot.rules.combat.arithmetic import Fighter
from caedes_bot.rules.movement import plan_moves
from caedes_bot.rules.odds import odds_for
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import Side
from tests.rules.builders import kind

ATTACKERS = [
    kind("INF", "DAW"),
    kind("ARCHER", "DAW", attributes=["missile"]),
    kind("FORT", "DAW", attributes=["fortitude"]),
    kind("PREDCAV", "DAW", "cavalry", ["predator"]),
    kind("ELITE", "DAW", attributes=["elite"]),
    kind("MIGHTY", "DAW", attributes=["mighty"]),
]
DEFENDERS = [
    kind("ORCI", "ORC"),
    kind("ORCCAV", "ORC", "cavalry"),
    kind("ORCFORT", "ORC", attributes=["fortitude"]),
    kind("ORCARROW", "ORC", attributes=["missile", "meek"]),
    kind("ORCVET", "ORC", attributes=["veteran"]),
    kind("ORCMEEK", "ORC", attributes=["meek"]),
]


def time_odds(per_side: int) -> float:
    fighters = [
        Fighter(i, ATTACKERS[i % len(ATTACKERS)], "DAW", Side.ATTACKER) for i in range(per_side)
    ] + [
        Fighter(100 + i, DEFENDERS[i % len(DEFENDERS)], "ORC", Side.DEFENDER)
        for i in range(per_side)
    ]
    start = time.perf_counter()
    odds_for(fighters, Options(), attacker="DAW", defender_order=["ORC"])
    return time.perf_counter() - start


def time_routes() -> float:
    ruleset = load_ruleset()
    state = new_game(ruleset, "default", "bench")
    start = time.perf_counter()
    for unit in state.units.values():
        if ruleset.map.is_province(unit.location):
            plan_moves(state, ruleset, unit)
    return time.perf_counter() - start


def main() -> int:
    odds = time_odds(10)
    routes = time_routes()
    print(f"odds, 10 a side: {odds:.3f} s (target 1 s)")
    print(f"routes, every unit of the default scenario: {routes:.3f} s (target 0.25 s)")
    return 0 if odds <= 1.0 and routes <= 0.25 else 1


if __name__ == "__main__":
    sys.exit(main())
