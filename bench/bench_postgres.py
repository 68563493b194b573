"""Benchmark: orders on PostgreSQL against SQLite, with one and two processes (not a test).

Usage (a server on which it may create databases; ``scripts/_postgres.sh`` makes one)::

    bash -c 'source scripts/_postgres.sh && pg_start && .venv/bin/python -m bench.bench_postgres'
    .venv/bin/python -m bench.bench_postgres --orders 500 --runs 1   # a quick look (no p99)

It reads the server from ``CAEDES_TEST_POSTGRES_URL``. Two measurements, each in fresh
databases (stand-in orders of ``tests/persistence/support.py``: +1 RP, one die every other
order, so that the figures are about storage and locking, not about a rule):

* **latency**: one process, one task, ``--orders`` orders in a row on one campaign, on SQLite
  and on PostgreSQL; beside each PostgreSQL order, in the same loop, a **bare psycopg
  transaction of the same statements** on a database of its own (the campaign lock and its
  counter, the processed interaction, the version bump, the two changed parts, the order, its
  two events and its outbox row, the counter and the unlock). Target: PostgreSQL's median
  order at most **20x** the bare transaction's median (the target SQLite's order has against
  a bare sqlite3 transaction, ``bench_service.py``).
* **throughput**: 1 and 2 processes (``tests/persistence/stress_worker.py``), each 25 tasks,
  2 x 25 x ``--tasks-orders`` orders in all (one process plays twice as many per task, so
  that its p99 has as many samples), spread over 10 campaigns, started together: orders per
  second (all the orders over the slowest process's seconds) and p50 / p99 per order. SQLite with two
  processes is not run: a SQLite file serves one process (decision 0024).

Every ratio is printed as min / median / max over ``--runs`` runs; the target is judged on the
median. Exits with 1 if the target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Json

from bench.common import load, machine, ms, percentile, ratio, spread
from caedes_bot.domain.records import CampaignStatus
from caedes_bot.persistence.db import Database, migrate_to_head
from caedes_bot.persistence.locks import LOCK_NAMESPACE
from caedes_bot.service import Actor, RulesService
from tests.persistence import postgres
from tests.persistence.support import (
    StandInBump,
    small_ruleset,
    stand_in_apply,
    stand_in_new_game,
)

ROOT = Path(__file__).resolve().parents[1]
PLAYER = 101
TARGET_RATIO = 20.0


def _service(db: Database) -> RulesService:
    return RulesService(db, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game)


async def _campaigns(url: str, count: int) -> list[int]:
    db = Database(url)
    service = _service(db)
    ids = []
    for n in range(count):
        info = await service.create_campaign(
            1, f"Bench {n}", "test", created_by=9, umpire_user_id=9
        )
        await service.assign(info.id, PLAYER, "DAW")
        await service.set_status(info.id, CampaignStatus.ACTIVE)
        ids.append(info.id)
    await db.dispose()
    return ids


def _fresh(store: str, server: str, folder: Path, name: str) -> str:
    """A new migrated database: a SQLite file in ``folder`` or a PostgreSQL database."""
    if store == "sqlite":
        url = f"sqlite+aiosqlite:///{folder / (name + '.db')}"
    else:
        url = postgres.database_url(server, postgres.new_database(server))
    migrate_to_head(url)
    return url


class Bare:
    """The order's statements, written out by hand, on a psycopg connection of its own."""

    def __init__(self, url: str, campaign_id: int) -> None:
        libpq = url.replace("postgresql+asyncpg://", "postgresql://")
        self.conn = psycopg.connect(libpq)
        self.lock = psycopg.connect(libpq, autocommit=True)
        self.lock.execute("SET synchronous_commit = off")
        self.cid = campaign_id
        row = self.conn.execute(
            "SELECT doc::text FROM campaign_state_parts WHERE campaign_id = %s AND key = 'f:DAW'",
            (campaign_id,),
        ).fetchone()
        self.conn.commit()
        assert row is not None
        self.faction = json.loads(row[0])
        self.version = int(
            self.conn.execute(
                "SELECT version FROM campaigns WHERE id = %s", (campaign_id,)
            ).fetchone()[0]  # type: ignore[index]
        )
        self.conn.commit()

    def run(self, n: int) -> None:
        now = datetime.now(UTC)
        cid = self.cid
        self.lock.execute("SELECT pg_advisory_lock(%s, %s)", (LOCK_NAMESPACE, cid))
        self.lock.execute(
            "UPDATE campaigns SET lock_seq = lock_seq + 1 WHERE id = %s RETURNING lock_seq", (cid,)
        ).fetchone()
        self.faction["rp"] += 1
        result = {"events": [{"type": "StandInBumped"}], "state_version": self.version + 1}
        with self.conn.transaction():
            cur = self.conn.cursor()
            cur.execute(
                "INSERT INTO processed_interactions (interaction_id, campaign_id, result, created_at) VALUES (%s, %s, %s, %s)",
                (f"bare-{n}", cid, Json(result), now),
            )
            cur.execute(
                "UPDATE campaigns SET version = version + 1, last_event_seq = last_event_seq + 2, updated_at = %s WHERE id = %s AND version = %s",
                (now, cid, self.version),
            )
            assert cur.rowcount == 1
            cur.executemany(
                "UPDATE campaign_state_parts SET doc = %s WHERE campaign_id = %s AND key = %s",
                [(Json({"dice_rolls": n}), cid, "game"), (Json(self.faction), cid, "f:DAW")],
            )
            self.version += 1
            cur.execute(
                "INSERT INTO campaign_orders (campaign_id, seq, actor_user_id, acting_as, faction, type, payload, interaction_id, dice_before, dice_after, created_at) VALUES (%s, %s, %s, 'player', 'DAW', 'StandInBump', %s, %s, %s, %s, %s)",
                (
                    cid,
                    self.version,
                    PLAYER,
                    Json({"type": "StandInBump", "faction": "DAW"}),
                    f"bare-{n}",
                    n,
                    n + 1,
                    now,
                ),
            )
            cur.executemany(
                "INSERT INTO campaign_events (campaign_id, seq, order_seq, type, payload, audience, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                [
                    (
                        cid,
                        1_000_000 + 2 * n,
                        self.version,
                        "StandInBumped",
                        Json({"rp": 1}),
                        Json(None),
                        now,
                    ),
                    (
                        cid,
                        1_000_001 + 2 * n,
                        self.version,
                        "StandInSecret",
                        Json({"rp": 1}),
                        Json(["DAW"]),
                        now,
                    ),
                ],
            )
            cur.execute(
                "INSERT INTO outbox (campaign_id, channel_key, kind, payload, nonce, status, attempts, next_attempt_at, created_at) VALUES (%s, 'announcements', 'post', %s, %s, 'pending', 0, %s, %s)",
                (cid, Json({"content": "Stand in bumped"}), f"bare-{n}", now, now),
            )
        self.lock.execute(
            "UPDATE campaigns SET lock_seq = lock_seq + 1 WHERE id = %s RETURNING lock_seq", (cid,)
        ).fetchone()
        self.lock.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_NAMESPACE, cid))

    def close(self) -> None:
        self.conn.close()
        self.lock.close()


async def latency(store: str, server: str, folder: Path, orders: int) -> dict[str, Any]:
    """One task's orders in a row on one campaign; on PostgreSQL each beside a bare one."""
    url = await asyncio.to_thread(_fresh, store, server, folder, f"latency-{store}")
    (cid,) = await _campaigns(url, 1)
    bare = None
    if store == "postgresql":
        bare_url = await asyncio.to_thread(_fresh, store, server, folder, "bare")
        (bare_cid,) = await _campaigns(bare_url, 1)
        bare = Bare(bare_url, bare_cid)
    db = Database(url)
    service = _service(db)
    await service.get_state(cid)
    orders_s: list[float] = []
    bare_s: list[float] = []
    for n in range(orders + 50):
        started = time.perf_counter()
        await service.submit(
            cid, Actor(PLAYER), StandInBump("DAW", 1, rolls=n % 2), interaction_id=f"o{n}"
        )
        took = time.perf_counter() - started
        if n >= 50:  # the first 50 warm up
            orders_s.append(took)
        if bare is not None:
            started = time.perf_counter()
            await asyncio.to_thread(bare.run, n)  # one hop, as the service's writer pays
            if n >= 50:
                bare_s.append(time.perf_counter() - started)
    await db.dispose()
    if bare is not None:
        bare.close()
    return {"orders": orders_s, "bare": bare_s}


def throughput(
    store: str, server: str, folder: Path, processes: int, orders: int
) -> dict[str, Any]:
    """``processes`` stress workers, 25 tasks each, on 10 campaigns, started together."""
    url = _fresh(store, server, folder, f"tp-{store}-{processes}")
    cids = asyncio.run(_campaigns(url, 10))
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.persistence.stress_worker",
                url,
                f"p{p}",
                "25",
                str(orders),
                *map(str, cids),
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for p in range(processes)
    ]
    for worker in workers:
        assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.write("go\n")
        worker.stdin.flush()
    reports = []
    for worker in workers:
        out, _ = worker.communicate(timeout=1800)
        reports.append(json.loads(out.strip().splitlines()[-1]))
    latencies = [v / 1e3 for r in reports for v in r["latencies_ms"]]
    accepted = sum(r["accepted"] for r in reports)
    return {
        "per_second": accepted / max(r["seconds"] for r in reports),
        "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99),
        "refused": sum(r["refused"] for r in reports),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--orders", type=int, default=5000, help="orders of the latency run")
    parser.add_argument(
        "--tasks-orders", type=int, default=100, help="orders per task (throughput)"
    )
    args = parser.parse_args()
    server = postgres.server_url()
    if server is None:
        print(f"needs a PostgreSQL server in {postgres.POSTGRES_ENV} (see the docstring)")
        return 2
    print(f"machine: {machine()}; load at start {load()}")
    ratios: list[float | None] = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            lat = {
                s: asyncio.run(latency(s, server, folder, args.orders))
                for s in ("sqlite", "postgresql")
            }
            pg, bare, lite = (
                lat["postgresql"]["orders"],
                lat["postgresql"]["bare"],
                lat["sqlite"]["orders"],
            )
            r = ratio(statistics.median(pg), statistics.median(bare))
            ratios.append(r)
            print(f"run {run + 1}: latency, one task in a row ({args.orders} orders)")
            print(
                f"  SQLite order      p50 {ms(percentile(lite, 0.5))}, p99 {ms(percentile(lite, 0.99))}"
            )
            print(
                f"  PostgreSQL order  p50 {ms(percentile(pg, 0.5))}, p99 {ms(percentile(pg, 0.99))}"
            )
            print(
                f"  bare psycopg tx   p50 {ms(percentile(bare, 0.5))}, p99 {ms(percentile(bare, 0.99))}"
            )
            print(f"  PostgreSQL order / bare (median): {r:.2f}x" if r else "  ratio n/a")
            print(f"run {run + 1}: throughput, 25 tasks per process on 10 campaigns")
            for store, procs in (("sqlite", 1), ("postgresql", 1), ("postgresql", 2)):
                # the same orders in all whatever the processes (2 x 25 x --tasks-orders), so
                # that one process has as many samples for its p99 as two
                per_task = args.tasks_orders * 2 // procs
                t = throughput(store, server, folder, procs, per_task)
                print(
                    f"  {store:<10} {procs} process{'es' if procs > 1 else '  '}: "
                    f"{t['per_second']:7.0f} orders/s, p50 {ms(t['p50'])}, p99 {ms(t['p99'])}, "
                    f"refused {t['refused']} ({per_task} orders per task)"
                )
            print("  sqlite     2 processes: not run (a SQLite file serves one process)")
    print(
        f"PostgreSQL order / bare psycopg transaction (median), min / median / max: {spread(ratios)}"
    )
    known = [x for x in ratios if x is not None]
    met = bool(known) and statistics.median(known) <= TARGET_RATIO
    print(f"target at most {TARGET_RATIO:.0f}x: {'met' if met else 'MISSED'}; load at end {load()}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
