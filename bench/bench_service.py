"""Benchmark: one order through RulesService against a bare sqlite3 transaction (not a test).

Usage (from the repository root)::

    .venv/bin/python -m bench.bench_service               # 3 runs of 5,000 orders each
    .venv/bin/python -m bench.bench_service --runs 5 --orders 5000   # 10,000 orders a run
    .venv/bin/python -m bench.bench_service --quick       # 1 run of 5,000 (about a minute)

What it measures: a mid-game campaign of the shipped default scenario (game round 6, 200
units, listed kind by kind when it runs, 3,000 events in its log) takes alternating
``BuyUnits`` / ``CancelPurchase`` orders from the Dawnians in step 5, one after the other as
fast as they complete: real orders through ``rules.engine.apply``, each one transaction with
the state parts it changed, the order row, its events, its outbox rows and the processed
interaction.
Each run also times the cold paths beside the cached one:

* **first order after a restart**: a new ``Database`` and ``RulesService`` on the same file,
  so the state is read and parsed from the database;
* **stale-version retry**: another service instance gave an order first, so the write fails
  its version check, the state is reloaded and the order applied again;
* **uncached campaign**: the service's cache holds fewer campaigns than are played in turn,
  so every order finds its campaign evicted and reads it back. Each uncached order is
  followed by the same order on a campaign that stays cached (another service on the same
  database, the same kind of campaign): the ratio is taken against those, so both sides of
  it are timed in the same seconds.

The reference, and why it is fair: in the same run, a bare ``sqlite3`` connection to **its own
database file** (migrated the same way, holding the same campaign) runs the statements of one
order with the same data already serialised (``BEGIN IMMEDIATE``; insert the interaction;
``UPDATE campaigns SET version=version+1 WHERE id=? AND version=?``; update the state parts the
order changed (``UPDATE campaign_state_parts SET doc=? WHERE campaign_id=? AND key=?``) and
insert the one it adds, its undo record;
insert the order; its events; its outbox rows; ``COMMIT``), on the event loop's thread. That is
the least any order can cost on this machine at this moment. It keeps SQLite's own automatic checkpoints
(it is plain SQLite), which is why its p99 is far from its median. The service and the bare
connection take turns, order by order, so both see the same load.

The bot freezes its start-up heap for the garbage collector (``gc.freeze()``); so does this
benchmark after its warm-up, as the bot does after start-up.

With ``--beside-thread`` as many orders again are timed, every other pair writing on the
writer thread (``Database.inline_writes`` off; decision 0009) and timed apart, so the two ways
of writing are compared in the same seconds: 5,000 of each by default, enough for a p99 of
each; the service's figures are those of the inline half. ``--quick`` sets only what is not
given beside it (``--quick --orders 500`` is one run of 1,000 orders).

Targets, per run, each printed as min / median / max over the runs: the service's median at
most 20x the bare median; the service's p99 at most 3x its own median (over at least 5,000
orders: with fewer no p99 is reported); an uncached order's median at most 3x a cached one's.
Exits with 1 if the median over the runs misses any.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.common import at_least_one, load, machine, ms, percentile, ratio, spread, units_listed
from caedes_bot.domain.records import CampaignStatus, utcnow
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database, migrate_to_head
from caedes_bot.persistence.mappers import dump_event, dump_order
from caedes_bot.persistence.stateparts import diff_state, split_state
from caedes_bot.rules import engine
from caedes_bot.rules.buy import BuyUnits, CancelPurchase
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.service import Actor, RulesService, SubmitResult

UMPIRE = 900
PLAYER = 101
KIND = "U-DAW-01"
TARGET_RATIO = 20.0
TARGET_TAIL = 3.0
TARGET_UNCACHED = 3.0


def mid_game(state: GameState, ruleset: Ruleset, units: int = 200) -> GameState:
    """Round 6, the Dawnians in step 5 with RP to spare, and ``units`` units on the board
    (the scenario's, plus infantry spread over each faction's provinces)."""
    st = state.clone()
    st.round, st.active, st.step = 6, "DAW", Step.BUY
    st.factions["DAW"].rp = 1_000_000
    for f in st.factions.values():
        f.turns_taken = 5
    owned = sorted(st.owners.items())
    kinds = {f: ruleset.order_of_battle(f)[0].id for f in st.in_play}
    i = 0
    while len(st.units) < units:
        province, owner = owned[i % len(owned)]
        uid = st.new_id()
        st.mustered_seq += 1
        st.units[str(uid)] = Unit(uid, kinds[owner], owner, province, muster_seq=st.mustered_seq)
        i += 1
    return st


class Timed:
    """Wraps ``engine.apply`` to measure the rules' share of an order."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    def __call__(self, state: GameState, order: Order, rs: Ruleset, dice: Dice) -> engine.Outcome:
        start = time.perf_counter()
        try:
            return engine.apply(state, order, rs, dice)
        finally:
            self.seconds.append(time.perf_counter() - start)


def order_of(n: int) -> Order:
    """The n-th order: buy one unit, then cancel it (the state keeps its size)."""
    return BuyUnits("DAW", KIND, 1) if n % 2 == 0 else CancelPurchase("DAW", KIND, 1)


async def build(
    db: Database,
    ruleset: Ruleset,
    service: RulesService,
    events: int,
    count: int = 1,
    *,
    units: int = 200,
) -> list[int]:
    """``count`` campaigns at the same mid-game point, each with ``units`` units on the board
    and ``events`` events logged."""
    ids = []
    for _ in range(count):
        info = await service.create_campaign(
            1, f"bench {utcnow().timestamp()}", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
        )
        await service.assign(info.id, PLAYER, "DAW")
        await service.set_status(info.id, CampaignStatus.ACTIVE)
        state = mid_game(await service.get_state(info.id), ruleset, units)
        now = utcnow()
        filler: list[tuple[dict[str, Any], None]] = [
            ({"type": "StepBegan", "faction": "DAW", "round": 1, "step": 1}, None)
        ] * events

        def tx(
            conn: Any,
            cid: int = info.id,
            st: GameState = state,
            at: datetime = now,
            rows: list[tuple[dict[str, Any], None]] = filler,
        ) -> None:
            repo.replace_state(
                conn,
                campaign_id=cid,
                expected_version=0,
                parts=split_state(st),
                last_event_seq=len(rows),
                now=at,
            )
            repo.insert_events(conn, campaign_id=cid, first_seq=1, order_seq=0, events=rows, now=at)

        await db.write(tx)
        ids.append(info.id)
    service.forget()
    return ids


def bare_transaction(
    path: Path, campaign_id: int, service_state: GameState, ruleset: Ruleset
) -> tuple[Callable[[int], None], sqlite3.Connection]:
    """A bare sqlite3 transaction on the database file ``path`` (its own, not the service's)
    with the same statements and data as one service order; and its connection."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    from caedes_bot.rules.dice import SeededDice

    out = engine.apply(service_state, BuyUnits("DAW", KIND, 1), ruleset, SeededDice("x"))
    changes = diff_state(service_state, out.state, 1)
    assert not (changes.deletes or changes.reorders)
    # the one part an order adds: its undo record (the n-th order's, ``undo:<n>``)
    (undo_doc,) = [p.doc for p in changes.inserts if p.key.startswith("undo:")]
    assert len(changes.inserts) == 1
    part_rows = [(doc, campaign_id, key) for key, doc in changes.updates]
    order_json = json.dumps(dump_order(BuyUnits("DAW", KIND, 1)))
    event_rows = [
        (
            json.dumps(dump_event(e)),
            json.dumps(list(a)) if (a := e.audience()) else None,
            type(e).__name__,
        )
        for e in out.events
    ]
    outbox_rows = [json.dumps({"content": f"event {i}"}) for i in range(len(out.events))]
    now = utcnow().replace(tzinfo=None).isoformat(" ")
    row = conn.execute(
        "SELECT version, last_event_seq FROM campaigns WHERE id=?", (campaign_id,)
    ).fetchone()
    counters = {"version": row[0], "seq": row[1]}

    def run(n: int) -> None:
        v, seq = counters["version"], counters["seq"]
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO processed_interactions (interaction_id, campaign_id, result, created_at) VALUES (?,?,?,?)",
            (f"bare-{n}", campaign_id, '{"events":[]}', now),
        )
        cur = conn.execute(
            "UPDATE campaigns SET version=version+1, last_event_seq=?, updated_at=? WHERE id=? AND version=?",
            (seq + len(event_rows), now, campaign_id, v),
        )
        assert cur.rowcount == 1
        conn.executemany(
            "UPDATE campaign_state_parts SET doc=? WHERE campaign_id=? AND key=?", part_rows
        )
        conn.execute(
            "INSERT INTO campaign_state_parts (campaign_id, key, ord, doc) VALUES (?,?,?,?)",
            (campaign_id, f"undo:{n}", n, undo_doc),
        )
        conn.execute(
            "INSERT INTO campaign_orders (campaign_id, seq, actor_user_id, acting_as, faction, type, payload, interaction_id, dice_before, dice_after, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                campaign_id,
                v + 1,
                PLAYER,
                "player",
                "DAW",
                "BuyUnits",
                order_json,
                f"bare-{n}",
                0,
                0,
                now,
            ),
        )
        conn.executemany(
            "INSERT INTO campaign_events (campaign_id, seq, order_seq, type, payload, audience, created_at) VALUES (?,?,?,?,?,?,?)",
            [
                (campaign_id, seq + 1 + i, v + 1, t, p, a, now)
                for i, (p, a, t) in enumerate(event_rows)
            ],
        )
        conn.executemany(
            "INSERT INTO outbox (campaign_id, channel_key, kind, payload, nonce, status, attempts, next_attempt_at, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
            [
                (campaign_id, "orders:DAW", "post", p, f"n{n}-{i}", "delivered", 1, now, now)
                for i, p in enumerate(outbox_rows)
            ],
        )
        conn.execute("COMMIT")
        counters["version"] = v + 1
        counters["seq"] = seq + len(event_rows)

    return run, conn


class Run:
    """The samples of one run, in seconds."""

    def __init__(self) -> None:
        self.service: list[float] = []
        self.bare: list[float] = []
        self.rules: list[float] = []
        self.restart: list[float] = []
        self.stale: list[float] = []
        self.uncached: list[float] = []
        self.cached: list[float] = []  # beside the uncached ones, in the same seconds
        self.threaded: list[float] = []  # --beside-thread: writes on the writer thread
        self.checkpoints: Counter[str] = Counter()
        self.units: list[str] = []
        self.size = ""

    def ratios(self) -> dict[str, float | None]:
        p50 = statistics.median(self.service)
        return {
            "service / bare (median)": ratio(p50, statistics.median(self.bare)),
            "p99 / median (service)": ratio(percentile(self.service, 0.99), p50),
            "uncached / cached (median)": ratio(
                statistics.median(self.uncached), statistics.median(self.cached)
            ),
            "after restart / cached (median)": ratio(statistics.median(self.restart), p50),
            "stale retry / cached (median)": ratio(statistics.median(self.stale), p50),
        }


async def timed(coro: Coroutine[Any, Any, Any]) -> float:
    start = time.perf_counter()
    await coro
    return time.perf_counter() - start


async def one_run(args: argparse.Namespace, ruleset: Ruleset, template: Path) -> Run:
    """One run in a fresh folder: the service's database and the bare one, each its own file."""
    folder = Path(tempfile.mkdtemp(prefix="caedes-bench-"))
    try:
        return await _one_run(args, ruleset, template, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _one_run(args: argparse.Namespace, ruleset: Ruleset, template: Path, folder: Path) -> Run:
    run = Run()
    paths = {name: folder / f"{name}.db" for name in ("service", "bare")}
    for path in paths.values():
        shutil.copyfile(template, path)
    url = f"sqlite+aiosqlite:///{paths['service']}"
    timing = Timed()
    db = Database(url)
    service = RulesService(db, ruleset, apply=timing)
    (service_id,) = await build(db, ruleset, service, args.events)
    start_state = await service.get_state(service_id)
    run.units = units_listed(start_state, ruleset)
    run.size = f"round {start_state.round}, {len(start_state.units)} units, {args.events} events"
    bare_db = Database(f"sqlite+aiosqlite:///{paths['bare']}")
    (bare_id,) = await build(bare_db, ruleset, RulesService(bare_db, ruleset), args.events)
    await bare_db.dispose()
    bare, bare_conn = bare_transaction(paths["bare"], bare_id, start_state, ruleset)
    actor = Actor(PLAYER)
    counter = iter(range(10**9))

    def submit(
        svc: RulesService, campaign_id: int, order: Order
    ) -> Coroutine[Any, Any, SubmitResult]:
        return svc.submit(campaign_id, actor, order, interaction_id=f"svc-{next(counter)}")

    def one_bare(n: int) -> float:
        t = time.perf_counter()
        bare(n)
        return time.perf_counter() - t

    # an even number of orders each time, so every phase starts with nothing bought
    for n in range(args.warmup * 2):
        await submit(service, service_id, order_of(n))
        one_bare(n)
    gc.collect()
    gc.freeze()  # as the bot does after start-up
    timing.seconds.clear()
    seen = len(db.writer_thread.checkpoints)
    # --beside-thread: as many orders again, every other pair writing on the writer thread
    for n in range(args.orders * (4 if args.beside_thread else 2)):
        on_thread = args.beside_thread and (n // 2) % 2 == 1
        db.inline_writes = not on_thread
        sample = await timed(submit(service, service_id, order_of(n)))
        (run.threaded if on_thread else run.service).append(sample)
        run.bare.append(one_bare(args.warmup * 2 + n))
    db.inline_writes = True
    run.rules = list(timing.seconds)
    run.checkpoints.update(c.reason for c in db.writer_thread.checkpoints[seen:])
    bare_conn.close()

    # the cold paths, one sample at a time
    other = RulesService(db, ruleset)
    for _ in range(args.cold):
        other.forget(service_id)
        await submit(other, service_id, order_of(0))  # bought and cancelled behind the
        await submit(other, service_id, order_of(1))  # service's back: its version is stale
        run.stale.append(await timed(submit(service, service_id, order_of(0))))
        await submit(service, service_id, order_of(1))
    await db.dispose()
    for n in range(args.cold * 2):
        fresh = Database(url)
        run.restart.append(
            await timed(submit(RulesService(fresh, ruleset), service_id, order_of(n)))
        )
        await fresh.dispose()
    db = Database(url)
    small = RulesService(db, ruleset, cache_size=1)
    # two new campaigns, of the same kind as the cached one beside them (the main phase's
    # campaign has thousands of purchases in its undo log by now, which the read would pay)
    turn = await build(db, ruleset, small, args.events, 2)
    big = RulesService(db, ruleset)
    (kept,) = await build(db, ruleset, big, args.events)
    for campaign_id in turn:  # an order each first, so the code paths are warm
        await submit(small, campaign_id, order_of(0))
        await submit(small, campaign_id, order_of(1))
    await submit(big, kept, order_of(0))
    await submit(big, kept, order_of(1))
    for n in range(args.cold * 10):
        order = order_of(n // len(turn))
        run.uncached.append(await timed(submit(small, turn[n % len(turn)], order)))
        run.cached.append(await timed(submit(big, kept, order_of(n))))
    await db.dispose()
    gc.unfreeze()
    return run


def report(index: int, run: Run) -> None:
    p50 = statistics.median(run.service)
    print(
        f"run {index + 1}: service median {ms(p50)}, p90 {ms(percentile(run.service, 0.9))}, "
        f"p99 {ms(percentile(run.service, 0.99))}; rules.apply median "
        f"{ms(statistics.median(run.rules))}; bare median {ms(statistics.median(run.bare))}, "
        f"p99 {ms(percentile(run.bare, 0.99))}"
    )
    print(
        f"       cold medians: after a restart {ms(statistics.median(run.restart))}, "
        f"stale retry {ms(statistics.median(run.stale))}, uncached "
        f"{ms(statistics.median(run.uncached))} (cached beside it "
        f"{ms(statistics.median(run.cached))}); writer checkpoints while timed: "
        f"{dict(run.checkpoints) or 'none'}; load {load()}"
    )
    if run.threaded:
        t50 = statistics.median(run.threaded)
        print(
            f"       beside it, writes on the writer thread ({len(run.threaded)} orders): "
            f"median {ms(t50)}, p90 {ms(percentile(run.threaded, 0.9))}, "
            f"p99 {ms(percentile(run.threaded, 0.99))}"
        )


async def main(args: argparse.Namespace) -> int:
    # the stale-version retries are on purpose: not worth a warning each
    logging.getLogger("caedes_bot.service.orders").setLevel(logging.ERROR)
    print(f"machine: {machine()}; load average at start {load()}")
    ruleset = load_ruleset()
    template = Path(tempfile.mkdtemp(prefix="caedes-bench-template-")) / "template.db"
    await asyncio.to_thread(migrate_to_head, f"sqlite+aiosqlite:///{template}")
    runs = []
    try:
        for index in range(args.runs):
            run = await one_run(args, ruleset, template)
            runs.append(run)
            if index == 0:
                print(f"campaign: {run.size}; units:", *run.units, sep="\n")
                print(
                    f"per run: {args.orders * 2} orders timed after {args.warmup * 2} warm-up"
                    + (
                        f" (and {args.orders * 2} more beside them on the writer thread)"
                        if args.beside_thread
                        else ""
                    )
                    + ", "
                    f"alternating BuyUnits / CancelPurchase; cold paths: {args.cold * 2} orders "
                    f"after a restart, {args.cold} stale-version retries, {args.cold * 10} "
                    "uncached orders (a cache of one campaign, two campaigns in turn)"
                )
            report(index, run)
    finally:
        shutil.rmtree(template.parent, ignore_errors=True)
    targets = {
        "service / bare (median)": TARGET_RATIO,
        "p99 / median (service)": TARGET_TAIL,
        "uncached / cached (median)": TARGET_UNCACHED,
    }
    print(f"ratios over {args.runs} runs (min / median / max); load average at end {load()}")
    ok = True
    for name in runs[0].ratios():
        values = [r.ratios()[name] for r in runs]
        known = [v for v in values if v is not None]
        target = targets.get(name)
        verdict = ""
        if target is not None:
            met = len(known) == len(values) and statistics.median(known) <= target
            ok = ok and met
            verdict = f"(target <= {target:.0f}x) {'ok' if met else 'MISSED'}"
        print(f"  {name:<34}{spread(values):>22}  {verdict}")
    print("PASS" if ok else "MISS")
    return 0 if ok else 1


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line's settings; ``--quick`` fills only what is not given beside it.

    Raises:
        SystemExit: a bad argument (argparse's message, exit code 2).
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--runs", type=at_least_one, help="runs (default 3)")
    parser.add_argument("--orders", type=at_least_one, help="pairs of orders timed (default 2,500)")
    parser.add_argument("--warmup", type=at_least_one, default=100, help="pairs of orders first")
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument(
        "--cold",
        type=at_least_one,
        help="stale retries (twice as many restarts, ten times as many uncached orders; "
        "default 20)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="one run of 5,000 orders, 10 stale retries (what is given beside it wins)",
    )
    parser.add_argument(
        "--beside-thread",
        action="store_true",
        help="as many orders again, every other pair writing on the writer thread "
        "(Database.inline_writes off), timed apart: the two ways of writing in the same seconds",
    )
    parsed = parser.parse_args(argv)
    quick = parsed.quick
    parsed.runs = parsed.runs or (1 if quick else 3)
    parsed.orders = parsed.orders or 2500
    parsed.cold = parsed.cold or (10 if quick else 20)
    return parsed


if __name__ == "__main__":
    sys.exit(asyncio.run(main(arguments())))
