"""Benchmark: one order through RulesService against a bare sqlite3 transaction (not a test).

Usage (from the repository root)::

    .venv/bin/python -m bench.bench_service                 # 2,000 orders after 200 warm-up
    .venv/bin/python -m bench.bench_service --orders 5000

A mid-game campaign of the shipped default scenario (game round 6, about 200 units, about
3,000 events in its log) takes alternating ``BuyUnits`` / ``CancelPurchase`` orders from the
Dawnians in step 5: real orders through ``rules.engine.apply``, each one transaction with the
state document, the order row, its events and its outbox rows. Side by side, in the same run
and the same database file, a bare ``sqlite3`` connection runs the same statements with the
same data already serialised (``BEGIN IMMEDIATE``; insert the interaction; ``UPDATE campaigns
SET state=?, version=version+1 WHERE id=? AND version=?``; insert the order; insert the
events; insert the outbox rows; ``COMMIT``) on a second campaign row.

Targets: the service's median at most 20x the bare median; the service's p99 at most 3x its
own median. Exits with 1 if either is missed. Prints where the service's time goes
(rules, serialisation, database) so a miss can be explained.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from caedes_bot.domain.records import CampaignStatus, utcnow
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database, migrate_to_head
from caedes_bot.persistence.mappers import dump_event, dump_order, dump_state
from caedes_bot.rules import engine
from caedes_bot.rules.buy import BuyUnits, CancelPurchase
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.service import Actor, RulesService

UMPIRE = 900
PLAYER = 101
KIND = "U-DAW-01"
TARGET_RATIO = 20.0
TARGET_TAIL = 3.0


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


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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


async def build(
    db: Database, ruleset: Ruleset, service: RulesService, events: int
) -> tuple[int, int]:
    """Two campaigns at the same point: one for the service, one for the bare transaction."""
    ids = []
    for name in ("service", "bare"):
        info = await service.create_campaign(
            1, name, "default", created_by=UMPIRE, umpire_user_id=UMPIRE
        )
        await service.assign(info.id, PLAYER, "DAW")
        await service.set_status(info.id, CampaignStatus.ACTIVE)
        state = mid_game(await service.get_state(info.id), ruleset)
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
            repo.save_state(
                conn,
                campaign_id=cid,
                expected_version=0,
                state_json=dump_state(st),
                last_event_seq=len(rows),
                now=at,
            )
            repo.insert_events(conn, campaign_id=cid, first_seq=1, order_seq=0, events=rows, now=at)

        await db.write(tx)
        ids.append(info.id)
    service.forget()
    return ids[0], ids[1]


def bare_transaction(
    path: Path, campaign_id: int, service_state: GameState, ruleset: Ruleset
) -> Callable[[int], None]:
    """A bare sqlite3 transaction with the same statements and data as one service order."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    from caedes_bot.rules.dice import SeededDice

    out = engine.apply(service_state, BuyUnits("DAW", KIND, 1), ruleset, SeededDice("x"))
    state_json = dump_state(out.state)
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
            "UPDATE campaigns SET state=?, version=version+1, last_event_seq=?, updated_at=? WHERE id=? AND version=?",
            (state_json, seq + len(event_rows), now, campaign_id, v),
        )
        assert cur.rowcount == 1
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

    return run


async def main(orders: int, warmup: int, events: int) -> int:
    folder = Path(tempfile.mkdtemp(prefix="caedes-bench-"))
    path = folder / "bench.db"
    url = f"sqlite+aiosqlite:///{path}"
    await asyncio.to_thread(migrate_to_head, url)
    ruleset = load_ruleset()
    db = Database(url)
    timed = Timed()
    service = RulesService(db, ruleset, apply=timed)
    service_id, bare_id = await build(db, ruleset, service, events)
    start_state = await service.get_state(service_id)
    bare = bare_transaction(path, bare_id, start_state, ruleset)
    actor = Actor(PLAYER)

    async def one(n: int) -> float:
        order: Order = BuyUnits("DAW", KIND, 1) if n % 2 == 0 else CancelPurchase("DAW", KIND, 1)
        t = time.perf_counter()
        await service.submit(service_id, actor, order, interaction_id=f"svc-{n}")
        return time.perf_counter() - t

    async def one_bare(n: int) -> float:
        t = time.perf_counter()
        bare(n)
        return time.perf_counter() - t

    for n in range(warmup):
        await one(n)
        await one_bare(n)
    gc.collect()
    gc.freeze()
    svc: list[float] = []
    raw: list[float] = []
    timed.seconds.clear()
    for n in range(warmup, warmup + orders):
        svc.append(await one(n))
        raw.append(await one_bare(n))
    await db.dispose()

    units = len(start_state.units)
    med_s, med_b = statistics.median(svc), statistics.median(raw)
    p99_s = percentile(svc, 0.99)
    ratio, tail = med_s / med_b, p99_s / med_s
    rules_med = statistics.median(timed.seconds)
    print(f"campaign: round {start_state.round}, {units} units, {events} events in the log")
    print(f"orders timed: {orders} (after {warmup} warm-up), alternating BuyUnits / CancelPurchase")
    p99_b = percentile(raw, 0.99)
    print(
        f"bare sqlite3 transaction: median {med_b * 1e3:.3f} ms, p90 "
        f"{percentile(raw, 0.9) * 1e3:.3f} ms, p99 {p99_b * 1e3:.3f} ms "
        f"(its p99/median {p99_b / med_b:.1f}x: its commits pay SQLite's automatic checkpoints)"
    )
    print(
        f"RulesService.submit:      median {med_s * 1e3:.3f} ms, p90 "
        f"{percentile(svc, 0.9) * 1e3:.3f} ms, p99 {p99_s * 1e3:.3f} ms"
    )
    print(f"  of which rules.apply:   median {rules_med * 1e3:.3f} ms")
    print(f"ratio median service / bare: {ratio:.1f}x (target <= {TARGET_RATIO:.0f}x)")
    print(f"ratio p99 / median (service): {tail:.2f}x (target <= {TARGET_TAIL:.0f}x)")
    ok = ratio <= TARGET_RATIO and tail <= TARGET_TAIL
    print("PASS" if ok else "MISS")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orders", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--events", type=int, default=3000)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.orders, args.warmup, args.events)))
