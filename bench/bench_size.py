"""Benchmark: the same order on a small campaign and on a large one (not a test).

Usage (from the repository root)::

    .venv/bin/python -m bench.bench_size              # 5 runs of 1,000 orders on each campaign
    .venv/bin/python -m bench.bench_size --quick      # 3 runs of 300 (about half a minute)

What it measures: two campaigns of the shipped default scenario at the same mid-game point
(game round 6, the Dawnians in step 5 with RP to spare, ``bench_service.mid_game``), in ONE
database and ONE ``RulesService``: the small one with ``--small-units`` units (104 by default)
and ``--small-events`` events in its log (100), the large one with ``--large-units`` (500)
and ``--large-events`` (10,000). Both take the same alternating ``BuyUnits`` /
``CancelPurchase`` orders, through ``rules.engine.apply`` and one transaction each, taking
turns order by order, so both see the same load, the same WAL and the same caches; both are
cached (the cold paths are ``bench_service``'s). It prints the units of each, faction by
faction and kind by kind.

What else it measures, per order at each size, after the timed orders:

* **bytes of state written**: the characters of JSON text the order's state statements
  carry (``PartChanges.bytes_written``, the parts it changed), and all the text and blob
  parameters of every statement of the transaction (order row, events, outbox rows and the
  processed interaction included), counted by an SQLAlchemy ``before_cursor_execute`` hook;
* **WAL frames**: SQLite's frames (pages) appended to the WAL per order, over ``--wal-orders``
  orders between a ``TRUNCATE`` checkpoint and a ``PASSIVE`` one, both run on the writer's
  own connection as the writer does.

Why the reference is fair: the small campaign is the same scenario, the same order and the
same code, in the same process, the same database and the same seconds; only the number of
units and of logged events differ.

Targets (docs/decisions/0008): the large order's median at most 1.3x the small one's (per
run, judged on the median run), and the bytes of state written and the WAL frames per order
no larger at 500 units than at 104 (10% leeway on frames, which depend on where rows fall in
pages). Exits with 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from bench.bench_service import PLAYER, build, order_of
from bench.common import at_least_one, load, machine, ms, spread, units_listed
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.persistence import stateparts
from caedes_bot.persistence.db import Database, migrate_to_head
from caedes_bot.service import Actor, RulesService

TARGET_RATIO = 1.3
FRAMES_LEEWAY = 1.1


class Written:
    """Counts the text and blob parameters of every statement run on the writer's engine."""

    def __init__(self, db: Database) -> None:
        self.chars = 0
        sa.event.listen(db.writer, "before_cursor_execute", self._count)

    def _count(
        self, _conn: Any, _cursor: Any, _sql: str, params: Any, _context: Any, many: bool
    ) -> None:
        rows = params if many else [params]
        for row in rows:
            values = row.values() if isinstance(row, dict) else row
            self.chars += sum(len(v) for v in values if isinstance(v, str | bytes))


class StateBytes:
    """Wraps ``stateparts.diff_state`` to record the state text each order writes."""

    def __init__(self) -> None:
        self.chars: list[int] = []
        self._diff = stateparts.diff_state

    def __enter__(self) -> StateBytes:
        def diff(old: Any, new: Any, version: int) -> stateparts.PartChanges:
            changes = self._diff(old, new, version)
            self.chars.append(changes.bytes_written)
            return changes

        import caedes_bot.service.orders as orders

        orders.diff_state = diff  # type: ignore[assignment]
        return self

    def __exit__(self, *_exc: object) -> None:
        import caedes_bot.service.orders as orders

        orders.diff_state = self._diff


async def one_run(args: argparse.Namespace, template: Path, index: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="caedes-bench-size-"))
    try:
        path = folder / "size.db"
        shutil.copyfile(template, path)
        ruleset = load_ruleset()
        db = Database(f"sqlite+aiosqlite:///{path}")
        service = RulesService(db, ruleset)
        sizes = {
            "small": (args.small_units, args.small_events),
            "large": (args.large_units, args.large_events),
        }
        ids: dict[str, int] = {}
        for name, (units, events) in sizes.items():
            (ids[name],) = await build(db, ruleset, service, events, units=units)
        if index == 0:
            for name, cid in ids.items():
                state = await service.get_state(cid)
                units, events = sizes[name]
                print(
                    f"{name} campaign: round {state.round}, {len(state.units)} units, {events} events"
                )
                print(*units_listed(state, ruleset), sep="\n")
        actor = Actor(PLAYER)
        counter = iter(range(10**9))

        async def submit(cid: int, n: int) -> float:
            start = time.perf_counter()
            await service.submit(cid, actor, order_of(n), interaction_id=f"size-{next(counter)}")
            return time.perf_counter() - start

        for n in range(args.warmup * 2):
            for cid in ids.values():
                await submit(cid, n)
        gc.collect()
        gc.freeze()
        times: dict[str, list[float]] = {name: [] for name in ids}
        for n in range(args.orders * 2):
            first, second = ("small", "large") if n % 4 < 2 else ("large", "small")
            for name in (first, second):
                times[name].append(await submit(ids[name], n))
        gc.unfreeze()

        written = Written(db)
        result: dict[str, Any] = {"times": times}
        writer = db.writer_thread

        def truncate() -> Any:
            return writer.checkpoint("bench", "TRUNCATE")

        def passive() -> Any:
            return writer.checkpoint("bench", "PASSIVE")

        for name, cid in ids.items():
            idle, writer.idle_seconds = writer.idle_seconds, 3600.0  # no checkpoint meanwhile
            with StateBytes() as state_bytes:
                await asyncio.wrap_future(writer.submit(truncate, write=False))
                before = written.chars
                for n in range(args.wal_orders * 2):
                    await submit(cid, n)
                chars = written.chars - before
                done = await asyncio.wrap_future(writer.submit(passive, write=False))
            writer.idle_seconds = idle
            frames = done.frames[0] if done is not None else -1
            orders = args.wal_orders * 2
            result[name] = {
                "state chars": statistics.mean(state_bytes.chars),
                "statement chars": chars / orders,
                "wal frames": frames / orders,
            }
        await db.dispose()
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def main(args: argparse.Namespace) -> int:
    logging.getLogger("caedes_bot.service.orders").setLevel(logging.ERROR)
    print(f"machine: {machine()}; load average at start {load()}")
    template = Path(tempfile.mkdtemp(prefix="caedes-bench-template-")) / "template.db"
    await asyncio.to_thread(migrate_to_head, f"sqlite+aiosqlite:///{template}")
    print(
        f"per run: {args.orders * 2} orders timed on each campaign after {args.warmup * 2} "
        f"warm-up, taking turns; then {args.wal_orders * 2} orders on each for the bytes written"
    )
    ratios: list[float | None] = []
    results = []
    try:
        for index in range(args.runs):
            res = await one_run(args, template, index)
            results.append(res)
            small, large = (statistics.median(res["times"][n]) for n in ("small", "large"))
            ratios.append(large / small)
            print(
                f"run {index + 1}: median small {ms(small)}, large {ms(large)}, "
                f"large / small {large / small:.2f}; load {load()}"
            )
            for name in ("small", "large"):
                w = res[name]
                print(
                    f"       {name}: state text written {w['state chars']:.0f} chars per order, "
                    f"all statement text {w['statement chars']:.0f} chars, "
                    f"WAL {w['wal frames']:.1f} frames per order"
                )
    finally:
        shutil.rmtree(template.parent, ignore_errors=True)
    median_ratio = statistics.median(r for r in ratios if r is not None)
    state_ok = all(r["large"]["state chars"] <= r["small"]["state chars"] for r in results)
    frames_ok = all(
        r["large"]["wal frames"] <= r["small"]["wal frames"] * FRAMES_LEEWAY for r in results
    )
    print(f"over {args.runs} runs (min / median / max); load average at end {load()}")
    print(
        f"  large / small (median order)     {spread(ratios):>22}  (target <= {TARGET_RATIO}x) "
        f"{'ok' if median_ratio <= TARGET_RATIO else 'MISSED'}"
    )
    for key, label in (
        ("state chars", "state text per order"),
        ("wal frames", "WAL frames per order"),
    ):
        print(
            f"  {label:<33}"
            f"{spread([r['small'][key] for r in results]):>22} small, "
            f"{spread([r['large'][key] for r in results])} large"
        )
    print(f"  state text no larger at the large size: {'ok' if state_ok else 'MISSED'}")
    print(f"  WAL frames no larger at the large size: {'ok' if frames_ok else 'MISSED'}")
    ok = median_ratio <= TARGET_RATIO and state_ok and frames_ok
    print("PASS" if ok else "MISS")
    return 0 if ok else 1


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line's settings; ``--quick`` fills only what is not given beside it.

    Raises:
        SystemExit: a bad argument (argparse's message, exit code 2).
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--runs", type=at_least_one, help="runs (default 5)")
    parser.add_argument("--orders", type=at_least_one, help="pairs of orders timed (default 500)")
    parser.add_argument("--warmup", type=at_least_one, help="pairs of orders first (default 50)")
    parser.add_argument(
        "--wal-orders", type=at_least_one, help="pairs for the bytes written (default 50)"
    )
    parser.add_argument("--small-units", type=at_least_one, default=104)
    parser.add_argument("--small-events", type=int, default=100)
    parser.add_argument("--large-units", type=at_least_one, default=500)
    parser.add_argument("--large-events", type=int, default=10_000)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="3 runs of 300 orders each (what is given beside it wins)",
    )
    parsed = parser.parse_args(argv)
    quick = parsed.quick
    parsed.runs = parsed.runs or (3 if quick else 5)
    parsed.orders = parsed.orders or (150 if quick else 500)
    parsed.warmup = parsed.warmup or (25 if quick else 50)
    parsed.wal_orders = parsed.wal_orders or (25 if quick else 50)
    return parsed


if __name__ == "__main__":
    sys.exit(asyncio.run(main(arguments())))
