"""The service under load and under crashes (design.md section 4, "One writer").

* STRESS (SQLite; two processes on PostgreSQL are in ``test_service_postgres.py``): 50 tasks
  x 100 orders on one campaign, with an outbox dispatcher and readers running
  at the same time: no lost update, no "database is locked", and the final state equals a
  serial replay of the order log.
* CRASH: a process submitting orders is killed with SIGKILL at seeded points inside its
  transactions, again and again; afterwards the database holds only whole orders and a fresh
  dispatcher delivers every message owed. It runs on SQLite and on PostgreSQL, where a killed
  process may die holding the campaign's advisory lock: the next run must still get it.

Neither test depends on timing. The crash worker kills itself at its N-th write statement or
commit (counted from its first write, so never during its start-up), so the orders each run
commits are the same on an idle or a busy machine; the only clock in the test is a guard
against a hung worker, set far above any run's length.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignStatus, OutboxKind, OutboxStatus
from caedes_bot.outbox import OutboxDispatcher
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.locks import LOCK_NAMESPACE
from caedes_bot.persistence.tables import campaign_events, campaign_orders, outbox
from caedes_bot.service import Actor, Delivery, RulesService
from tests.persistence.fake_sender import FakeDiscord
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
SETUP_ROWS = 12  # outbox rows of a new campaign (two factions, an umpire), one assign, and
# the commitment to the dice seed posted when it goes active (decision 0023)
#: Seconds a crash worker may take before the test calls it hung. A run takes about a second
#: on an idle 2-core machine and up to about 35 s with the test at nice 19 beside three busy
#: processes: this catches a hang, it times nothing.
WORKER_TIMEOUT = 180.0


@pytest.fixture
async def service(db: Database) -> AsyncIterator[RulesService]:
    yield RulesService(db, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game)


async def _active_campaign(service: RulesService) -> int:
    info = await service.create_campaign(1, "Load", "test", created_by=9, umpire_user_id=9)
    await service.assign(info.id, PLAYER, "DAW")
    await service.set_status(info.id, CampaignStatus.ACTIVE)
    return info.id


@pytest.mark.slow
@pytest.mark.sqlite_only
async def test_stress_50_tasks_x_100_orders_lose_nothing(
    service: RulesService, db: Database
) -> None:
    cid = await _active_campaign(service)
    discord = FakeDiscord()
    dispatcher = OutboxDispatcher(Delivery(db), discord, idle_poll=0.05)
    service.add_listener(dispatcher.wake)
    delivering = asyncio.create_task(dispatcher.run())
    errors: list[BaseException] = []

    async def player(task: int) -> None:
        for n in range(100):
            try:
                await service.submit(
                    cid,
                    Actor(PLAYER),
                    StandInBump("DAW", 1, rolls=n % 2),
                    interaction_id=f"t{task}-{n}",
                )
            except Exception as err:  # any error at all fails the test below
                errors.append(err)
            if n % 25 == 0:  # readers on the reader pool at the same time
                await service.campaign_for_channel(123)

    await asyncio.gather(*(player(t) for t in range(50)))
    dispatcher.stop()
    await delivering

    assert errors == []
    state = await service.get_state(cid)
    assert state.factions["DAW"].rp == 10 + 5000
    assert state.dice_rolls == 2500

    def _q(conn: Connection) -> Any:
        info = repo.campaign_info(conn, cid)
        assert info is not None and info.version == 5000
        assert repo.count_rows(conn, campaign_orders, cid) == 5000
        assert repo.count_rows(conn, campaign_events, cid) == 10000
        assert repo.count_rows(conn, outbox, cid) == SETUP_ROWS + 10000
        return info

    await db.read(_q)
    service.forget()
    assert await service.get_state(cid) == state
    assert await service.replay(cid) == state  # serial replay of the accepted orders


@pytest.mark.slow
async def test_sigkill_at_random_points_leaves_only_whole_orders(
    service: RulesService, db: Database, db_url: str
) -> None:
    cid = await _active_campaign(service)
    rng = random.Random(20301)  # seeded: the same kill points on every run
    runs: list[str] = []  # run, kill point, exit code, orders stored after it
    finished_runs = 0
    for run in range(10):
        kill_at = rng.randint(1, 300)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "tests.persistence.crash_worker",
                db_url,
                str(cid),
                str(run),
                str(kill_at),
                "60",
            ],
            cwd=ROOT,
            capture_output=True,
            timeout=WORKER_TIMEOUT,
            check=False,
        )
        stored = await db.read(lambda conn: repo.count_rows(conn, campaign_orders, cid))
        runs.append(f"run {run}: kill at {kill_at}, exit {proc.returncode}, {stored} orders")
        assert proc.returncode in (0, -9), "\n".join([*runs, proc.stderr.decode()[-2000:]])
        finished_runs += proc.returncode == 0
    assert finished_runs < 10, runs  # most runs really were killed

    def _released(conn: Connection) -> None:
        """Wait, on the server, until the campaign's lock is free: PostgreSQL ends a killed
        client's session (and lets its advisory locks go) a moment after the client dies."""
        if conn.dialect.name == "sqlite":
            return
        conn.execute(sa.text("SET LOCAL lock_timeout = '30s'"))
        key = {"ns": LOCK_NAMESPACE, "id": cid}
        conn.execute(sa.text("SELECT pg_advisory_lock(:ns, :id)"), key)
        conn.execute(sa.text("SELECT pg_advisory_unlock(:ns, :id)"), key)

    await db.read(_released)

    def _q(conn: Connection) -> Any:
        if conn.dialect.name == "sqlite":
            assert conn.scalar(sa.text("PRAGMA integrity_check")) == "ok"
        else:  # no campaign lock left held by a killed process (decision 0024)
            held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            assert conn.scalar(sa.text(held)) == 0
        info = repo.campaign_info(conn, cid)
        assert info is not None
        orders = repo.count_rows(conn, campaign_orders, cid)
        events = repo.count_rows(conn, campaign_events, cid)
        rows = repo.outbox_rows(conn, cid)
        return info, orders, events, rows

    info, orders, events, rows = await db.read(_q)
    assert orders > 0
    assert info.version == orders
    assert events == 2 * orders
    assert len(rows) == SETUP_ROWS + 2 * orders
    service.forget()
    state = await service.get_state(cid)
    assert state.factions["DAW"].rp == 10 + orders
    assert state.dice_rolls == orders
    assert await service.replay(cid) == state

    discord = FakeDiscord()
    await OutboxDispatcher(Delivery(db), discord).run_once()

    rows = await db.read(lambda conn: repo.outbox_rows(conn, cid))
    assert {r.status for r in rows} == {OutboxStatus.DELIVERED}
    announcements = (await service.channels(cid))["announcements"].discord_id
    assert announcements is not None
    posted = discord.messages[announcements][2:]  # after the welcome and the seed's commitment
    expected = [
        r.payload["content"]
        for r in rows
        if r.channel_key == "announcements" and r.kind is OutboxKind.POST
    ][2:]
    assert posted == expected and len(posted) == orders
