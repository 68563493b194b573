"""Several bot processes on one PostgreSQL database (issue 18, decision 0024).

* STRESS: 2 processes x 25 tasks x 100 read-modify-write orders on one campaign, then on 10
  campaigns: no lost update, no refused order, no deadlock, and each campaign's final state
  equals a serial replay of its order log.
* Two services in one test (as two processes would be) see each other's changes: an order
  always checks the campaign in the database; a read is answered from the cache for at most
  ``read_recheck`` seconds.
* Migrations started at once by several processes run once.

These run only when a PostgreSQL server is given (``CAEDES_TEST_POSTGRES_URL``, started by
``scripts/test``); on SQLite one process owns the file (``test_sqlite_claim.py``).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignStatus
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database, sync_url
from caedes_bot.persistence.tables import campaign_events, campaign_orders
from caedes_bot.service import Actor, RulesService
from tests.persistence import postgres
from tests.persistence.fixtures import db, db_template, db_url
from tests.persistence.support import (
    StandInBump,
    small_ruleset,
    stand_in_apply,
    stand_in_new_game,
)

__all__ = ["db", "db_template", "db_url"]

ROOT = Path(__file__).resolve().parents[1]
PLAYER = 101
#: Seconds a stress worker may take before the test calls it hung (a run takes about 10-20 s
#: on an idle 2-core machine): this catches a hang, it times nothing.
WORKER_TIMEOUT = 300.0

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.skipif(
        postgres.server_url() is None, reason="needs a PostgreSQL server (scripts/test starts one)"
    ),
]


@pytest.fixture
def pg_url(db_url: str) -> str:
    return db_url


def _service(database: Database) -> RulesService:
    return RulesService(database, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game)


async def _active_campaigns(service: RulesService, count: int) -> list[int]:
    ids = []
    for n in range(count):
        info = await service.create_campaign(1, f"Load {n}", "test", created_by=9, umpire_user_id=9)
        await service.assign(info.id, PLAYER, "DAW")
        await service.set_status(info.id, CampaignStatus.ACTIVE)
        ids.append(info.id)
    return ids


def _run_workers(url: str, processes: int, tasks: int, orders: int, cids: list[int]) -> list[Any]:
    """Start the worker processes, let them go together once all are ready, and return what
    each reported."""
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.persistence.stress_worker",
                url,
                f"p{p}",
                str(tasks),
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
    try:
        for worker in workers:
            assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write("go\n")
            worker.stdin.flush()
        reports = []
        for worker in workers:
            out, _ = worker.communicate(timeout=WORKER_TIMEOUT)
            assert worker.returncode == 0, out
            reports.append(json.loads(out.strip().splitlines()[-1]))
        return reports
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()


async def _check_campaigns(service: RulesService, cids: list[int], orders_each: int) -> None:
    service.forget()
    for cid in cids:
        state = await service.get_state(cid)
        assert state.factions["DAW"].rp == 10 + orders_each  # no lost update

        def _q(conn: Connection, cid: int = cid) -> None:
            info = repo.campaign_info(conn, cid)
            assert info is not None
            assert repo.count_rows(conn, campaign_orders, cid) == orders_each
            assert repo.count_rows(conn, campaign_events, cid) == 2 * orders_each
            seqs = conn.scalars(
                sa.select(campaign_orders.c.seq).where(campaign_orders.c.campaign_id == cid)
            ).all()
            assert sorted(seqs) == list(range(info.version - orders_each + 1, info.version + 1))

        await service.db.read(_q)
        assert await service.replay(cid) == state  # a serial replay of the order log


@pytest.mark.slow
@pytest.mark.parametrize("campaigns", [1, 10])
async def test_two_processes_x_25_tasks_x_100_orders_lose_nothing(
    pg_url: str, db: Database, campaigns: int
) -> None:
    service = _service(db)
    cids = await _active_campaigns(service, campaigns)
    reports = await asyncio.to_thread(_run_workers, pg_url, 2, 25, 100, cids)
    assert [r["errors"] for r in reports] == [[], []]
    assert sum(r["refused"] for r in reports) == 0
    assert sum(r["deadlocks"] for r in reports) == 0
    assert sum(r["accepted"] for r in reports) == 5000
    await _check_campaigns(service, cids, 5000 // campaigns)


async def test_an_order_in_one_process_sees_the_change_of_another(pg_url: str) -> None:
    first, second = Database(pg_url), Database(pg_url)
    try:
        one, two = _service(first), _service(second)
        [cid] = await _active_campaigns(one, 1)
        await two.get_state(cid)  # both have it cached now
        await one.submit(cid, Actor(PLAYER), StandInBump("DAW", 5))
        # the other's order checks the database under the lock: it builds on the first
        result = await two.submit(cid, Actor(PLAYER), StandInBump("DAW", 1))
        assert result.state.factions["DAW"].rp == 10 + 5 + 1
        # a member assigned by one process is known to the other's next order
        await one.unassign(cid, "DAW")
        with pytest.raises(Exception, match="do not play"):
            await two.submit(cid, Actor(PLAYER), StandInBump("DAW", 1))
    finally:
        await first.dispose()
        await second.dispose()


async def test_a_read_is_served_from_the_cache_for_a_few_seconds_at_most(pg_url: str) -> None:
    first, second = Database(pg_url), Database(pg_url)
    try:
        one, two = _service(first), _service(second)
        [cid] = await _active_campaigns(one, 1)
        two.read_recheck = 3600.0  # a read never checks: it keeps what it has
        await two.get_state(cid)
        await one.submit(cid, Actor(PLAYER), StandInBump("DAW", 5))
        assert (await two.get_state(cid)).factions["DAW"].rp == 10
        two.read_recheck = 0.0  # past the window: the read checks and reloads
        assert (await two.get_state(cid)).factions["DAW"].rp == 15
        # with nothing changed, the check keeps the cached state
        cached = await two.get_state(cid)
        assert await two.get_state(cid) is cached
    finally:
        await first.dispose()
        await second.dispose()


def test_migrations_started_at_once_run_once() -> None:
    server = postgres.server_url()
    assert server is not None
    name = postgres.new_database(server)  # empty: nothing migrated yet
    try:
        url = postgres.database_url(server, name)
        # three processes at once, as three bot processes started together would
        code = (
            "import sys; from caedes_bot.persistence.db import migrate_to_head as m; m(sys.argv[1])"
        )
        runs = [
            subprocess.Popen([sys.executable, "-c", code, url], cwd=ROOT, stderr=subprocess.PIPE)
            for _ in range(3)
        ]
        for run in runs:
            _, err = run.communicate(timeout=WORKER_TIMEOUT)
            assert run.returncode == 0, err
        engine = sa.create_engine(sync_url(url))
        with engine.connect() as conn:
            versions = conn.scalars(sa.text("SELECT version_num FROM alembic_version")).all()
            tables = set(sa.inspect(conn).get_table_names())
        engine.dispose()
        assert len(versions) == 1
        assert {"campaigns", "campaign_orders", "outbox", "deadlines"} <= tables
    finally:
        postgres.drop_database(server, name)


async def test_a_cancelled_wait_for_a_campaign_lock_leaves_it_free(pg_url: str) -> None:
    databases = [Database(pg_url) for _ in range(3)]
    try:
        [cid] = await _active_campaigns(_service(databases[0]), 1)
        async with databases[0].campaign_lock(cid) as held:
            assert held is not None and held.before % 2 == 0
            waiting = asyncio.create_task(databases[1].campaign_lock(cid).__aenter__())
            await asyncio.sleep(0)  # it is waiting for the lock held above
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
        assert held.after == held.before + 2
        # the cancelled waiter got the lock once it was free, and let it go at once
        async with databases[2].campaign_lock(cid) as third:
            assert third is not None and third.before % 2 == 0
    finally:
        for database in databases:
            await database.dispose()
