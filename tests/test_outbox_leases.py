"""Several processes on one database (decision 0025): a queue of the outbox is delivered under
one process's lease, a dead process's queues are taken over once its lease runs out, only the
guilds of a process's shards are served, and a passed deadline is claimed by one process.
Each test runs on SQLite and, when a server is given, on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import CampaignStatus, OutboxKind, OutboxMessage
from caedes_bot.domain.shards import Shards, shard_of
from caedes_bot.outbox import DeliveryResult, OutboxDispatcher, OutboxRow
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.tables import campaigns, outbox_leases
from caedes_bot.service import Delivery, RulesService
from tests.persistence.fake_sender import FakeDiscord, SimulatedCrash
from tests.persistence.fixtures import db, db_template, db_url
from tests.persistence.support import small_ruleset, stand_in_apply, stand_in_new_game

__all__ = ["db", "db_template", "db_url"]

T0 = datetime(2030, 1, 1, tzinfo=UTC)
#: guild ids on shard 0 and on shard 1 of 2: (guild_id >> 22) % 2
GUILD_0 = 4 << 22
GUILD_1 = 5 << 22


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class LookingDiscord(FakeDiscord):
    """Remembers which rows were handed over with ``look_first``; may die after n posts."""

    def __init__(self) -> None:
        super().__init__()
        self.looked: list[int] = []
        self.die_after_posts: int | None = None
        self.posts = 0

    async def deliver(self, row: OutboxRow) -> DeliveryResult:
        if row.look_first:
            self.looked.append(row.id)
        result = await super().deliver(row)
        if row.kind is OutboxKind.POST:
            self.posts += 1
            if self.die_after_posts is not None and self.posts >= self.die_after_posts:
                raise SimulatedCrash("killed after the post reached Discord")
        return result


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(db: Database, clock: FakeClock) -> AsyncIterator[RulesService]:
    yield RulesService(
        db, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game, clock=clock
    )


async def _campaign(service: RulesService, discord: FakeDiscord, guild: int) -> int:
    """A campaign whose channels are made (by a process serving every guild, whose leases
    are then let go)."""
    info = await service.create_campaign(guild, f"Camp{guild}", "test", created_by=9)
    delivery = Delivery(service.db, leases=True, owner="setup")
    assert await OutboxDispatcher(delivery, discord, clock=lambda: T0).run_once() > 0
    await service.db.write(lambda conn: conn.execute(sa.delete(outbox_leases)))
    return info.id


async def _posts(db: Database, cid: int, texts: list[str]) -> list[int]:
    def _q(conn: Connection) -> Any:
        messages = [
            OutboxMessage(ChannelKey.ANNOUNCEMENTS, OutboxKind.POST, {"content": t}) for t in texts
        ]
        return repo.insert_outbox(conn, cid, messages, now=T0)

    return list(await db.write(_q))


async def _announcements(service: RulesService, discord: FakeDiscord, cid: int) -> list[str]:
    channel = (await service.channels(cid))[ChannelKey.ANNOUNCEMENTS].discord_id
    assert channel is not None
    return discord.messages[channel][1:]  # [0] is the welcome


def test_shard_of_follows_discords_formula() -> None:
    assert shard_of(GUILD_0, 2) == 0 and shard_of(GUILD_1, 2) == 1
    assert shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4
    assert Shards(2, frozenset({1})).serves(GUILD_1)
    assert not Shards(2, frozenset({1})).serves(GUILD_0)
    assert Shards().serves(GUILD_0) and Shards(2, frozenset({0, 1})).all
    with pytest.raises(ValueError, match="between 0 and 1"):
        Shards(2, frozenset({2}))
    with pytest.raises(ValueError, match="at least 1"):
        Shards(0)


async def test_a_queue_leased_by_one_process_is_not_delivered_by_another(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    discord = LookingDiscord()
    cid = await _campaign(service, discord, GUILD_0)
    a = OutboxDispatcher(Delivery(db, leases=True, owner="A"), discord, clock=clock)
    b = OutboxDispatcher(Delivery(db, leases=True, owner="B"), discord, clock=clock)
    await _posts(db, cid, ["m1", "m2"])
    assert await a.run_once() == 2
    await _posts(db, cid, ["m3"])
    assert await b.run_once() == 0  # A's lease of #announcements is still live
    assert await b.delivery.next_attempt(clock()) == T0 + timedelta(seconds=30)
    assert await a.run_once() == 1
    assert await _announcements(service, discord, cid) == ["m1", "m2", "m3"]


async def test_a_dead_process_queue_is_taken_over_when_its_lease_runs_out(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """A is killed right after Discord took m2 (before it was recorded); B waits for the
    lease to run out, then delivers the rest, looking first for m2, which is not posted
    twice; every message goes once and in order."""
    discord = LookingDiscord()
    cid = await _campaign(service, discord, GUILD_0)
    ids = await _posts(db, cid, ["m1", "m2", "m3", "m4"])
    discord.die_after_posts = discord.posts + 2
    a = OutboxDispatcher(Delivery(db, leases=True, owner="A"), discord, clock=clock, concurrency=1)
    with pytest.raises(SimulatedCrash):
        await a.run_once()
    discord.die_after_posts = None
    b = OutboxDispatcher(Delivery(db, leases=True, owner="B"), discord, clock=clock)
    b._started = T0 - timedelta(days=1)  # B started before the rows were queued
    clock.advance(29)
    assert await b.run_once() == 0
    clock.advance(2)
    assert await b.run_once() == 3
    assert discord.looked == [ids[1]]  # the row A may have sent; after it nothing was
    assert await _announcements(service, discord, cid) == ["m1", "m2", "m3", "m4"]


async def test_a_process_whose_lease_was_taken_stops_serving_that_queue(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    discord = LookingDiscord()
    cid = await _campaign(service, discord, GUILD_0)
    await _posts(db, cid, ["m1"])
    slow = Delivery(db, leases=True, owner="A")
    assert len(await slow.due_queues(clock(), batch=10)) == 1
    clock.advance(31)  # A stalled past its lease; B takes the queue
    b = OutboxDispatcher(Delivery(db, leases=True, owner="B"), discord, clock=clock)
    assert await b.run_once() == 1
    assert not await slow.hold(cid, ChannelKey.ANNOUNCEMENTS, clock())
    assert await _announcements(service, discord, cid) == ["m1"]


async def test_each_process_delivers_only_the_guilds_of_its_shards(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    discord = LookingDiscord()
    c0 = await _campaign(service, discord, GUILD_0)
    c1 = await _campaign(service, discord, GUILD_1)
    await _posts(db, c0, ["zero"])
    await _posts(db, c1, ["one"])
    on_1 = OutboxDispatcher(
        Delivery(db, leases=True, owner="B", shards=Shards(2, frozenset({1}))), discord, clock=clock
    )
    assert await on_1.run_once() == 1
    assert await _announcements(service, discord, c1) == ["one"]
    assert await _announcements(service, discord, c0) == []
    assert await on_1.delivery.next_attempt(clock()) is None  # nothing of its shard is left
    on_0 = OutboxDispatcher(
        Delivery(db, leases=True, owner="A", shards=Shards(2, frozenset({0}))), discord, clock=clock
    )
    assert await on_0.run_once() == 1
    assert await _announcements(service, discord, c0) == ["zero"]


async def _active_deadline(db: Database, cid: int) -> None:
    def _q(conn: Connection) -> None:
        conn.execute(
            sa.update(campaigns).where(campaigns.c.id == cid).values(status=CampaignStatus.ACTIVE)
        )
        repo.insert_deadline(
            conn,
            campaign_id=cid,
            decision_key="turn:1:DAW",
            faction="DAW",
            due_at=T0,
            reminder_at=None,
        )

    await db.write(_q)


async def test_a_passed_deadline_is_claimed_by_one_process(db: Database, clock: FakeClock) -> None:
    """Two services (processes A and B): the one that asks first claims the deadline; the
    other is given nothing until the claim runs out (its process died); a process of other
    shards never sees it."""
    a = RulesService(
        db,
        small_ruleset(),
        apply=stand_in_apply,
        new_game=stand_in_new_game,
        clock=clock,
        process="A",
    )
    b = RulesService(
        db,
        small_ruleset(),
        apply=stand_in_apply,
        new_game=stand_in_new_game,
        clock=clock,
        process="B",
    )
    other = RulesService(
        db,
        small_ruleset(),
        apply=stand_in_apply,
        new_game=stand_in_new_game,
        clock=clock,
        process="C",
        shards=Shards(2, frozenset({1})),
    )
    for service in (a, b, other):
        service.delivery.leases = True  # as on PostgreSQL (SQLite: one process, no claims)
    info = await a.create_campaign(GUILD_0, "Camp", "test", created_by=9)
    await _active_deadline(db, info.id)
    now = clock() + timedelta(seconds=1)
    assert await other.due_deadlines(now) == []
    assert await other.next_deadline_time() is None
    got = await a.due_deadlines(now)
    assert [d.decision_key for d in got] == ["turn:1:DAW"]
    assert await b.due_deadlines(now) == []
    assert [d.id for d in await a.due_deadlines(now)] == [got[0].id]  # its own claim
    later = now + timedelta(seconds=61)
    assert [d.id for d in await b.due_deadlines(later)] == [got[0].id]
    assert await a.due_deadlines(later) == []


async def test_a_clean_stop_lets_the_leases_and_claims_go_at_once(
    db: Database, clock: FakeClock
) -> None:
    """Process A delivers a queue and claims a deadline, then stops cleanly
    (``release_claims``): B takes the queue and the deadline at once, not 30 s and 60 s
    later, and still looks before the queue's first post (A may have been cut short)."""
    a, b = (
        RulesService(
            db,
            small_ruleset(),
            apply=stand_in_apply,
            new_game=stand_in_new_game,
            clock=clock,
            process=name,
        )
        for name in ("A", "B")
    )
    for service in (a, b):
        service.delivery.leases = True  # as on PostgreSQL (SQLite: one process, no claims)
    discord = LookingDiscord()
    cid = await _campaign(a, discord, GUILD_0)
    await _active_deadline(db, cid)
    on_a = OutboxDispatcher(a.delivery, discord, clock=clock)
    on_b = OutboxDispatcher(b.delivery, discord, clock=clock)
    await _posts(db, cid, ["m1"])
    assert await on_a.run_once() == 1
    now = clock() + timedelta(seconds=1)
    deadline = [d.id for d in await a.due_deadlines(now)]
    assert len(deadline) == 1
    (m2,) = await _posts(db, cid, ["m2"])
    assert await on_b.run_once() == 0 and await b.due_deadlines(now) == []  # A holds both

    await a.release_claims()
    assert await on_b.run_once() == 1
    assert discord.looked == [m2]  # taken over from A: looked first
    assert [d.id for d in await b.due_deadlines(now)] == deadline
    assert await a.due_deadlines(now) == []  # now B's
    assert await _announcements(a, discord, cid) == ["m1", "m2"]
    await a.release_claims()  # nothing held any more: nothing happens
    assert await on_a.run_once() == 0
