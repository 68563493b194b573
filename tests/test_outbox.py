"""The outbox dispatcher: order per channel, retries with backoff on a fake clock, permanent
failures, edits, and a campaign's channel set-up resumed after a crash without duplicates."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import OutboxKind, OutboxMessage, OutboxStatus
from caedes_bot.outbox import (
    DeliveryResult,
    OutboxDispatcher,
    OutboxRow,
    PermanentError,
    RetryableError,
)
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.service import Delivery, RulesService
from tests.persistence.fake_sender import FakeDiscord, SimulatedCrash
from tests.persistence.fixtures import db, db_template, db_url
from tests.persistence.support import small_ruleset, stand_in_apply, stand_in_new_game

__all__ = ["db", "db_template", "db_url"]

T0 = datetime(2030, 1, 1, tzinfo=UTC)


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(db: Database, clock: FakeClock) -> AsyncIterator[RulesService]:
    yield RulesService(
        db, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game, clock=clock
    )


async def _set_up(service: RulesService, discord: FakeDiscord, clock: FakeClock) -> int:
    info = await service.create_campaign(1, "Camp", "test", created_by=9, umpire_user_id=9)
    delivered = await OutboxDispatcher(service.delivery, discord, clock=clock).run_once()
    assert delivered == 10
    return info.id


async def _posts(service: RulesService, cid: int, texts: list[tuple[str, str]]) -> list[int]:
    def _q(conn: Connection) -> Any:
        return repo.insert_outbox(
            conn,
            cid,
            [OutboxMessage(key, OutboxKind.POST, {"content": t}) for key, t in texts],
            now=T0,
        )

    return await service.db.write(_q)


async def _status(db: Database, cid: int, ids: list[int]) -> list[tuple[OutboxStatus, int]]:
    def _q(conn: Connection) -> Any:
        rows = repo.outbox_rows(conn, cid, ids=ids)
        return rows

    rows = await db.read(_q)
    return [(r.status, r.attempts) for r in rows]


async def test_rows_of_one_channel_go_in_id_order(service: RulesService, clock: FakeClock) -> None:
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    texts = [("announcements" if i % 2 else "battles", f"m{i}") for i in range(10)]
    await _posts(service, cid, texts)
    assert await OutboxDispatcher(service.delivery, discord, clock=clock).run_once() == 10
    chans = await service.channels(cid)
    ann = chans["announcements"].discord_id
    bat = chans["battles"].discord_id
    assert ann is not None and bat is not None
    assert discord.messages[ann][1:] == ["m1", "m3", "m5", "m7", "m9"]  # [0] is the welcome
    assert discord.messages[bat] == ["m0", "m2", "m4", "m6", "m8"]


async def test_retryable_failure_backs_off_and_blocks_only_its_channel(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    a1, a2, b1 = await _posts(
        service, cid, [("announcements", "a1"), ("announcements", "a2"), ("battles", "b1")]
    )
    discord.failures[a1] = [RetryableError("502"), RetryableError("502")]
    dispatcher = OutboxDispatcher(Delivery(db), discord, clock=clock, base_delay=1.0, max_delay=8.0)

    assert await dispatcher.run_once() == 1  # only b1
    assert await _status(db, cid, [a1, a2, b1]) == [
        (OutboxStatus.PENDING, 1),
        (OutboxStatus.PENDING, 0),
        (OutboxStatus.DELIVERED, 1),
    ]

    def _q(conn: Connection) -> Any:
        row = repo.outbox_row(conn, a1)
        return row

    row = await db.read(_q)
    assert row is not None and row.next_attempt_at == T0 + timedelta(seconds=1)
    assert row.last_error == "RetryableError: 502"

    clock.advance(0.5)
    assert await dispatcher.run_once() == 0  # not due yet: nothing tried
    assert discord.calls.count(a1) == 1
    clock.advance(0.5)
    assert await dispatcher.run_once() == 0  # second failure: next wait 2 s

    def _q(conn: Connection) -> Any:
        row = repo.outbox_row(conn, a1)
        return row

    row = await db.read(_q)
    assert row is not None and row.next_attempt_at == T0 + timedelta(seconds=3)
    clock.advance(2)
    assert await dispatcher.run_once() == 2  # a1 then a2
    assert await _status(db, cid, [a1, a2]) == [
        (OutboxStatus.DELIVERED, 3),
        (OutboxStatus.DELIVERED, 1),
    ]
    assert [dispatcher.backoff(n) for n in (1, 2, 3, 4, 5, 9)] == [1, 2, 4, 8, 8, 8]


async def test_rate_limit_retry_after_is_respected(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    (a1,) = await _posts(service, cid, [("announcements", "a1")])
    discord.failures[a1] = [RetryableError("429", retry_after=30)]
    await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once()

    def _q(conn: Connection) -> Any:
        row = repo.outbox_row(conn, a1)
        return row

    row = await db.read(_q)
    assert row is not None and row.next_attempt_at == T0 + timedelta(seconds=30)


async def test_permanent_failure_gives_up_and_the_channel_moves_on(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    a1, a2 = await _posts(service, cid, [("announcements", "a1"), ("announcements", "a2")])
    discord.failures[a1] = [PermanentError("Missing Permissions")]
    assert await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once() == 1
    assert await _status(db, cid, [a1, a2]) == [
        (OutboxStatus.FAILED, 1),
        (OutboxStatus.DELIVERED, 1),
    ]


async def test_edit_finds_the_message_it_changes(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)

    def _q(conn: Connection) -> Any:
        repo.insert_outbox(
            conn,
            cid,
            [
                OutboxMessage(
                    "orders:DAW", OutboxKind.POST, {"content": "panel v1"}, dedupe_key="panel:DAW"
                ),
                OutboxMessage(
                    "orders:DAW",
                    OutboxKind.EDIT,
                    {"content": "panel v2", "message_key": "panel:DAW"},
                ),
            ],
            now=T0,
        )

    await db.write(_q)
    assert await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once() == 2
    thread = (await service.channels(cid))["orders:DAW"].discord_id
    assert thread is not None and discord.messages[thread] == ["panel v2"]


async def test_channel_setup_resumes_after_a_crash_and_creates_nothing_twice(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """A crash right after Discord made a third place (before its id was stored): a fresh
    dispatcher finishes the set-up; every channel and thread exists once."""
    info = await service.create_campaign(1, "Camp", "test", created_by=9, umpire_user_id=9)
    discord = FakeDiscord(crash_after_creations=3)
    with pytest.raises(SimulatedCrash):
        await OutboxDispatcher(Delivery(db), discord, clock=clock, concurrency=1).run_once()
    assert len(discord.creations) == 3 and discord.creations[0] == "Camp"
    discord.crash_after_creations = None

    fresh = OutboxDispatcher(Delivery(db), discord, clock=clock)
    await fresh.run_once()
    assert sorted(discord.creations) == sorted(
        ["Camp", "announcements", "battles", "table-talk", "umpire", "orders-daw", "orders-orc"]
    )
    chans = await service.channels(info.id)
    assert all(c.discord_id is not None for c in chans.values())
    assert chans["battles"].discord_id == discord.places[(chans["category"].discord_id, "battles")]
    camp = await service.get_campaign(info.id)
    assert camp.category_id == chans["category"].discord_id

    def _q(conn: Connection) -> Any:
        rows = repo.outbox_rows(conn, info.id)
        return rows

    rows = await db.read(_q)
    assert all(r.status is OutboxStatus.DELIVERED for r in rows)
    orders_daw = chans["orders:DAW"].discord_id
    assert orders_daw is not None and discord.members[orders_daw] == {9}


async def test_a_dependent_row_waits_and_fails_with_its_dependency(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    info = await service.create_campaign(1, "Camp", "test", created_by=9)

    def _q(conn: Connection) -> Any:
        rows = repo.outbox_rows(conn, info.id)
        return rows

    rows = await db.read(_q)
    category = rows[0].id
    discord = FakeDiscord(failures={category: [PermanentError("Missing Access")]})
    await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once()

    def _q(conn: Connection) -> Any:
        rows = repo.outbox_rows(conn, info.id)
        return rows

    rows = await db.read(_q)
    assert {r.status for r in rows} == {OutboxStatus.FAILED}
    assert discord.creations == []


async def test_the_refusal_that_failed_a_set_up_is_listed_before_what_failed_with_it(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """A refused category fails every row of the set-up; the refusal is listed first (so a
    short list still shows it), then the rows that failed because of it, newest first."""
    info = await service.create_campaign(1, "Camp", "test", created_by=9)

    def _q(conn: Connection) -> Any:
        return repo.outbox_rows(conn, info.id)

    rows = await db.read(_q)
    discord = FakeDiscord(failures={rows[0].id: [PermanentError("Missing Access")]})
    await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once()
    problems = await service.delivery_problems(info.id, limit=len(rows))
    assert [(p.channel_key, p.kind) for p in problems] == [
        (r.channel_key, r.kind) for r in [rows[0], *reversed(rows[1:])]
    ]
    assert problems[0].error.endswith("Missing Access")
    (first,) = await service.delivery_problems(info.id, limit=1)
    assert first.kind is OutboxKind.CREATE_CATEGORY


async def test_run_sleeps_until_the_head_in_backoff_is_due(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """The loop waits for the retrying head (5 s), not for the rows queued behind it."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    a1, _a2 = await _posts(service, cid, [("announcements", "a1"), ("announcements", "a2")])
    discord.failures[a1] = [RetryableError("503")]
    sleeps: list[float] = []
    dispatcher: OutboxDispatcher

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock.advance(seconds)
        if len(sleeps) >= 2:
            dispatcher.stop()

    dispatcher = OutboxDispatcher(
        Delivery(db), discord, clock=clock, sleep=fake_sleep, base_delay=5, idle_poll=60
    )
    await dispatcher.run()
    assert sleeps == [5.0, 60.0]
    ann = (await service.channels(cid))["announcements"].discord_id
    assert ann is not None and discord.messages[ann][1:] == ["a1", "a2"]


async def test_a_long_blocked_queue_does_not_hide_other_channels(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """More rows wait behind a retrying head than one pass reads (batch 3): the other
    channel's rows still go."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    ids = await _posts(service, cid, [("announcements", f"a{i}") for i in range(6)])
    await _posts(service, cid, [("battles", "b0"), ("battles", "b1")])
    discord.failures[ids[0]] = [RetryableError("503")]
    assert await OutboxDispatcher(Delivery(db), discord, clock=clock, batch=3).run_once() == 2
    bat = (await service.channels(cid))["battles"].discord_id
    assert bat is not None and discord.messages[bat] == ["b0", "b1"]


class HeldSender:
    """The fake Discord, but the delivery of row ``held`` stays inside the call until
    ``release`` is set, as discord.py stays inside a request while it waits out a channel's
    rate limit; ``sent`` is set for every other row it delivers."""

    def __init__(self, discord: FakeDiscord, held: int) -> None:
        self.discord = discord
        self.held = held
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.sent: dict[int, asyncio.Event] = {}

    def event(self, row_id: int) -> asyncio.Event:
        return self.sent.setdefault(row_id, asyncio.Event())

    async def deliver(self, row: OutboxRow) -> DeliveryResult:
        if row.id == self.held:
            self.entered.set()
            await self.release.wait()
        result = await self.discord.deliver(row)
        self.event(row.id).set()
        return result


async def test_a_queue_held_inside_the_sender_does_not_hold_back_other_channels(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """A post to #announcements stays inside the sender (its channel's rate limit); a post
    queued to #battles meanwhile goes at once on the wake, not when the first is done."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    (a1,) = await _posts(service, cid, [("announcements", "a1")])
    sender = HeldSender(discord, held=a1)
    dispatcher = OutboxDispatcher(Delivery(db), sender, clock=clock, idle_poll=600)
    running = asyncio.ensure_future(dispatcher.run())
    try:
        await asyncio.wait_for(sender.entered.wait(), timeout=30)
        (b1,) = await _posts(service, cid, [("battles", "b1")])
        dispatcher.wake()
        await asyncio.wait_for(sender.event(b1).wait(), timeout=30)
        assert not sender.event(a1).is_set()
        sender.release.set()
        await asyncio.wait_for(sender.event(a1).wait(), timeout=30)
    finally:
        sender.release.set()
        dispatcher.stop()
        await asyncio.wait_for(running, timeout=30)
    chans = await service.channels(cid)
    ann, bat = chans["announcements"].discord_id, chans["battles"].discord_id
    assert ann is not None and discord.messages[ann][1:] == ["a1"]
    assert bat is not None and discord.messages[bat] == ["b1"]
    assert await _status(db, cid, [a1, b1]) == [
        (OutboxStatus.DELIVERED, 1),
        (OutboxStatus.DELIVERED, 1),
    ]


async def test_a_post_owed_again_under_its_key_replaces_the_message(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """R-PBP-UMP-01 (decision 0023): after a rollback to an earlier turn, the next turn begins
    again and its panel is owed again under the same key. Queued by an order (``replacing``), it
    is posted afresh and later edits go to the new message, not the old one."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    panel = "panel:2:ORC"

    def _first(conn: Connection) -> Any:
        post = OutboxMessage("orders:DAW", OutboxKind.POST, {"content": "v1"}, dedupe_key=panel)
        repo.insert_outbox(conn, cid, [post], now=T0)

    def _again(conn: Connection) -> Any:
        post = OutboxMessage("orders:DAW", OutboxKind.POST, {"content": "v2"}, dedupe_key=panel)
        edit = OutboxMessage("orders:DAW", OutboxKind.EDIT, {"content": "v3", "message_key": panel})
        repo.insert_outbox(conn, cid, [post, edit], now=T0, replacing=True)

    await db.write(_first)
    assert await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once() == 1
    await db.write(_again)
    assert await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once() == 2
    thread = (await service.channels(cid))["orders:DAW"].discord_id
    assert thread is not None and discord.messages[thread] == ["v1", "v3"]
