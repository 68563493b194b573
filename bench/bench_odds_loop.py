"""Benchmark: the event loop while battle odds are worked out (issue 13).

Run from the repository root::

    .venv/bin/python -m bench.bench_odds_loop            # 3 runs
    .venv/bin/python -m bench.bench_odds_loop --runs 5

What it measures: an asyncio loop with a watchdog task that sleeps 5 ms at a time and records
the longest gap between two of its wake-ups beyond the 5 ms asked for, while the bot's
:class:`~caedes_bot.service.odds.OddsWorker` (one worker process, as the bot runs it) works out
the odds of a 100 against 100 battle (40 Yeomen, 20 Crossbowmen, 30 Knights, 10 Infantry
against 60 Orc Troopers, 20 Heavy Infantry, 20 Wolfriders: exact, about 12,000 states), the
issue's 20 against 20 and 30 against 30 battles, and the 100 against 100 again by Monte Carlo
(20,000 battles), one after the other, with the cache emptied so each is computed. The
reference, in the same run: the same watchdog for the same time with the worker idle.

It also prints the resident memory of the bot's process and of the worker process (the
worker's share of the bot's memory).

Target: the longest gap at most **100 ms** in every run (min / median / max over the runs of
the longest gap, with the idle reference beside it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

from bench.bench_odds import BIG, FORTITUDE, MIXED, Spec, fighters
from bench.common import load, machine
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules.odds import Method
from caedes_bot.service.odds import OddsWorker

HUNDRED: Spec = (
    (("U-DAW-02", 40), ("U-DAW-03", 20), ("U-DAW-04", 30), ("U-DAW-01", 10)),
    (("U-ORC-02", 60), ("U-ORC-05", 20), ("U-ORC-06", 20)),
    "DAW",
    "ORC",
)
TARGET = 0.100
TICK = 0.005


def rss(pid: int | None) -> str:
    """The resident size of process ``pid`` (Linux ``/proc``), or why there is none."""
    if pid is None:
        return "n/a (not started)"
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return f"{int(line.split()[1]) / 1024:.1f} MB"
    except OSError:
        pass
    return "n/a"


async def watch(stop: asyncio.Event) -> float:
    """The longest gap beyond :data:`TICK` between two wake-ups until ``stop`` is set."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    while not stop.is_set():
        before = loop.time()
        await asyncio.sleep(TICK)
        worst = max(worst, loop.time() - before - TICK)
    return worst


async def one_run(
    worker: OddsWorker, rs: Ruleset, battles: list[tuple[Spec, Method | None]]
) -> tuple[float, float, float]:
    """Work out ``battles`` one after the other while watched; then watch as long again (at
    most 3 s) with the worker idle. Returns both longest gaps and the time the odds took."""
    made = [(spec, fighters(rs, spec), method) for spec, method in battles]
    stop = asyncio.Event()
    watcher = asyncio.create_task(watch(stop))
    start = time.perf_counter()
    for spec, fs, method in made:
        worker.clear()
        await worker.odds(fs, Options(), attacker=spec[2], defender_order=[spec[3]], method=method)
    took = time.perf_counter() - start
    stop.set()
    busy = await watcher
    idle_stop = asyncio.Event()
    idle = asyncio.create_task(watch(idle_stop))
    await asyncio.sleep(min(took, 3.0))
    idle_stop.set()
    return busy, await idle, took


async def main_async(runs: int) -> int:
    worker = OddsWorker()
    rs = load_ruleset()
    battles: list[tuple[Spec, Method | None]] = [
        (HUNDRED, None),
        (MIXED, None),
        (FORTITUDE, None),
        (BIG, None),
        (HUNDRED, "monte_carlo"),
    ]
    busy: list[float] = []
    idle: list[float] = []
    for run in range(runs):
        gap, quiet, took = await one_run(worker, rs, battles)
        busy.append(gap)
        idle.append(quiet)
        print(
            f"run {run + 1}: odds for {took:.2f} s; longest gap {gap * 1e3:.1f} ms "
            f"(idle reference {quiet * 1e3:.1f} ms)"
        )
    print(f"resident memory: this process {rss(os.getpid())}, the odds worker {rss(worker.pid)}")
    worker.close()
    worst = max(busy)
    print(
        f"longest gap while odds run: {min(busy) * 1e3:.1f} / {statistics.median(busy) * 1e3:.1f}"
        f" / {worst * 1e3:.1f} ms (target {TARGET * 1e3:.0f} ms: "
        f"{'met' if worst <= TARGET else 'MISSED'}); idle: {min(idle) * 1e3:.1f} / "
        f"{statistics.median(idle) * 1e3:.1f} / {max(idle) * 1e3:.1f} ms"
    )
    return 0 if worst <= TARGET else 1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {machine()}; load at start: {load()}")
    code = asyncio.run(main_async(args.runs))
    print(f"load at end: {load()}")
    return code


if __name__ == "__main__":
    sys.exit(main())
