"""Deadlines and reminders on a fake clock, with the real rules and the default scenario
(R-PBP-DEAD-01..03, R-PBP-UMP-05): re-armed from the database after a restart, and a passed
deadline acted on once even if the scheduler dies half-way."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.engine import Connection

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.tables import ActingAs, CampaignStatus
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import UmpireAdvance
from caedes_bot.scheduler import Scheduler, TickReport
from caedes_bot.service import Actor, RulesService
from tests.persistence.fake_sender import SimulatedCrash
from tests.persistence.fixtures import db, db_template, db_url

__all__ = ["db", "db_template", "db_url"]

UMPIRE = 900
PLAYER_DAW = 101
T0 = datetime(2030, 3, 1, 18, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(db: Database, rules: Ruleset, clock: FakeClock) -> AsyncIterator[RulesService]:
    yield RulesService(db, rules, clock=clock)


async def _started(service: RulesService) -> int:
    info = await service.create_campaign(
        1, "Clock", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.start(info.id, Actor(UMPIRE))
    return info.id


async def test_turn_deadline_reminder_then_passive_rest_of_turn(
    service: RulesService, clock: FakeClock
) -> None:
    """R-PBP-DEAD-01: the Dawnians' first turn is due 24 h after it began; R-PBP-DEAD-02: the
    reminder goes 2 h before (a quarter of 24 h, capped at 2 h), to their orders thread with a
    ping for their player only; R-PBP-DEAD-03: when it passes, the rest of the turn is played
    passively and the Orcs' turn begins with its own 24 h deadline."""
    cid = await _started(service)
    (deadline,) = await service.deadlines(cid)
    assert (deadline.decision_key, deadline.due_at) == ("turn:1:DAW", T0 + timedelta(hours=24))
    scheduler = Scheduler(service, clock=clock)

    clock.advance(hours=21, minutes=59)
    assert await scheduler.tick() == TickReport(0, 0, 0)
    clock.advance(minutes=1)
    assert await scheduler.tick() == TickReport(reminded=1)
    assert await scheduler.tick() == TickReport()  # once only
    rows = await service.db.read(lambda conn: repo.outbox_rows(conn, cid))
    reminder = rows[-1]
    assert reminder.channel_key == "orders:DAW"
    assert reminder.payload["mention_user_ids"] == [PLAYER_DAW]
    assert f"<t:{int((T0 + timedelta(hours=24)).timestamp())}:R>" in reminder.payload["content"]

    clock.advance(hours=2)
    report = await scheduler.tick()
    assert report.fired == 1 and report.orders > 0
    state = await service.get_state(cid)
    assert (state.round, state.active, state.step) == (1, "ORC", Step.TRADE)
    assert state.factions["DAW"].purchases == []  # bought nothing (passive)
    (orc,) = await service.deadlines(cid)
    assert (orc.decision_key, orc.due_at) == ("turn:1:ORC", clock.now + timedelta(hours=24))
    orders = await service.db.read(lambda conn: repo.list_orders(conn, cid))
    assert {o.acting_as for o in orders[1:]} == {ActingAs.SYSTEM}
    assert {o.type for o in orders[1:]} == {"UmpireAdvance"}


async def test_deadlines_are_rearmed_from_the_database_after_a_restart(
    service: RulesService, db: Database, rules: Ruleset, clock: FakeClock
) -> None:
    cid = await _started(service)
    clock.advance(hours=30)  # the bot was down when the deadline passed
    fresh = RulesService(db, rules, clock=clock)
    assert await fresh.next_deadline_time() == T0 + timedelta(hours=22)
    report = await Scheduler(fresh, clock=clock).tick()
    assert report.fired == 1
    assert (await fresh.get_state(cid)).active == "ORC"


async def test_a_paused_campaign_keeps_its_deadline_until_resumed(
    service: RulesService, clock: FakeClock
) -> None:
    """R-PBP-UMP-05: while the umpire has paused the campaign, nothing falls due."""
    cid = await _started(service)
    await service.set_status(cid, CampaignStatus.PAUSED, by=UMPIRE)
    clock.advance(hours=30)
    scheduler = Scheduler(service, clock=clock)
    assert await scheduler.tick() == TickReport()
    assert await service.next_deadline_time() is None
    await service.set_status(cid, CampaignStatus.ACTIVE, by=UMPIRE)
    assert (await scheduler.tick()).fired == 1


async def test_a_deadline_fired_twice_after_a_crash_acts_once(
    service: RulesService, db: Database, rules: Ruleset, clock: FakeClock
) -> None:
    """The scheduler dies after its second advance; a restarted one repeats the same
    interaction ids (no second effect) and finishes the Dawnians' turn exactly once."""
    cid = await _started(service)
    calls = 0

    def dying(faction: str) -> Order:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise SimulatedCrash("scheduler killed")
        return UmpireAdvance(faction)

    clock.advance(hours=25)
    with pytest.raises(SimulatedCrash):
        await Scheduler(service, clock=clock, advance=dying).tick()
    assert (await service.get_campaign(cid)).version == 3  # StartCampaign + 2 advances

    fresh = RulesService(db, rules, clock=clock)
    await Scheduler(fresh, clock=clock).tick()
    state = await fresh.get_state(cid)
    assert (state.active, state.step) == ("ORC", Step.TRADE)

    def processed(conn: Connection) -> list[str]:
        return [o.interaction_id or "" for o in repo.list_orders(conn, cid)]

    ids = await db.read(processed)
    assert len(ids) == len(set(ids))  # no order applied twice
    assert ids[1:3] == ["deadline:1:0", "deadline:1:1"]
    assert await fresh.replay(cid) == state


async def test_run_sleeps_until_the_next_reminder_or_deadline(
    service: RulesService, clock: FakeClock
) -> None:
    """Reminder at 22 h, deadline at 24 h (R-PBP-DEAD-01, -02); then the Orcs' reminder 22 h
    after their turn began."""
    cid = await _started(service)
    sleeps: list[float] = []
    scheduler: Scheduler

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock.advance(seconds=seconds)
        if len(sleeps) >= 3:
            scheduler.stop()

    scheduler = Scheduler(service, clock=clock, sleep=fake_sleep, idle_poll=48 * 3600)
    await scheduler.run()
    assert sleeps == [22 * 3600, 2 * 3600, 22 * 3600]
    assert (await service.get_state(cid)).active == "ORC"
