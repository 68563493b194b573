"""Several bot processes delivering one outbox on PostgreSQL (issue 18, decision 0025).

Two campaigns, one in a guild on shard 0 and one on shard 1 of 2, each with two channels of
posts queued. Process A (shard 0) is killed with SIGKILL while Discord has one of its posts and
before it is recorded; process B (shard 1) carries on and delivers its guild's posts; process
C (shard 0 again, a restart) takes A's queues over once their leases run out. Every post is
sent once, in order per channel, and every row ends delivered.

Runs only when a PostgreSQL server is given (``scripts/test`` starts one).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import OutboxKind, OutboxMessage, OutboxStatus, utcnow
from caedes_bot.outbox import OutboxDispatcher
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.tables import outbox, outbox_leases
from caedes_bot.service import Delivery, RulesService
from tests.persistence import postgres
from tests.persistence.fake_sender import FakeDiscord
from tests.persistence.fixtures import db, db_template, db_url
from tests.persistence.support import small_ruleset, stand_in_apply, stand_in_new_game

__all__ = ["db", "db_template", "db_url"]

ROOT = Path(__file__).resolve().parents[1]
GUILD_0 = 4 << 22
GUILD_1 = 5 << 22
POSTS = 15
#: Seconds a worker may take before the test calls it hung: this catches a hang, it times
#: nothing.
TIMEOUT = 120.0

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.skipif(
        postgres.server_url() is None, reason="needs a PostgreSQL server (scripts/test starts one)"
    ),
]


def _worker(url: str, owner: str, ids: str, log: Path, block: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.persistence.outbox_worker",
            url,
            owner,
            ids,
            str(log),
            block,
            "1.0",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )


async def _campaign(service: RulesService, discord: FakeDiscord, guild: int) -> int:
    """A campaign whose channels are made; its posts are queued by :func:`_queue_posts`."""
    info = await service.create_campaign(guild, f"Camp{guild}", "test", created_by=9)
    assert await OutboxDispatcher(Delivery(service.db, owner="setup"), discord).run_once()
    return info.id


async def _queue_posts(service: RulesService, cid: int, guild: int) -> None:
    def _q(conn: Connection) -> Any:
        conn.execute(sa.delete(outbox_leases))
        messages = [
            OutboxMessage(key, OutboxKind.POST, {"content": f"g{guild >> 22}-{key}-{n}"})
            for n in range(POSTS)
            for key in (ChannelKey.ANNOUNCEMENTS, ChannelKey.BATTLES)
        ]
        return repo.insert_outbox(conn, cid, messages, now=utcnow())

    await service.db.write(_q)


async def test_two_processes_deliver_each_post_once_and_one_killed_is_taken_over(
    db: Database, db_url: str, tmp_path: Path
) -> None:
    service = RulesService(db, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game)
    discord = FakeDiscord()
    c0 = await _campaign(service, discord, GUILD_0)
    c1 = await _campaign(service, discord, GUILD_1)
    await _queue_posts(service, c0, GUILD_0)
    await _queue_posts(service, c1, GUILD_1)
    log = tmp_path / "posts.log"
    block = f"g4-{ChannelKey.ANNOUNCEMENTS}-5"
    a = _worker(db_url, "A", "0", log, block)
    b = _worker(db_url, "B", "1", log, "-")
    workers = [a, b]
    try:
        assert a.stdout is not None
        said = a.stdout.readline().strip()
        assert said == "blocked", f"process A ended without reaching the post {block}"
        os.kill(a.pid, signal.SIGKILL)
        a.wait(timeout=TIMEOUT)
        assert b.wait(timeout=TIMEOUT) == 0  # B carried on with its own guild
        c = _worker(db_url, "C", "0", log, "-")
        workers.append(c)
        assert c.wait(timeout=TIMEOUT) == 0  # A's queues taken over once its leases ran out
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()

    lines = log.read_text(encoding="utf-8").splitlines()
    sent = [int(line.split(" ", 1)[0]) for line in lines]
    assert len(sent) == len(set(sent)), "a post was sent twice"
    contents = [line.split(" ", 2)[2] for line in lines]
    assert contents.count(block) == 1  # C looked first and found it: not posted again
    after = contents[contents.index(block) + 1 :]
    assert f"g4-{ChannelKey.ANNOUNCEMENTS}-{POSTS - 1}" in after  # C finished A's queue

    def _rows(conn: Connection) -> Any:
        return conn.execute(
            sa.select(outbox.c.id, outbox.c.campaign_id, outbox.c.channel_key, outbox.c.status)
            .where(outbox.c.kind == OutboxKind.POST, outbox.c.payload.isnot(None))
            .order_by(outbox.c.id)
        ).all()

    rows = [r for r in await db.read(_rows) if r.campaign_id in (c0, c1)]
    assert all(r.status == OutboxStatus.DELIVERED for r in rows)
    ours = {r.id: (r.campaign_id, r.channel_key) for r in rows}
    queued = [r.id for r in rows if r.id in set(sent)]
    assert sorted(queued) == sorted(i for i in sent if i in ours)
    assert len([i for i in sent if i in ours]) == 4 * POSTS
    for queue in {(c, k) for c, k in ours.values()}:
        order = [i for i in sent if ours.get(i) == queue]
        assert order == sorted(order), f"queue {queue} out of order"
