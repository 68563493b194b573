"""Pause and resume on a fake clock, with the real rules and the default scenario
(R-PBP-UMP-05 as ruled: a pause stops every deadline and reminder of the campaign; on resuming
each deadline gets the time it had left when paused, and at least one hour; orders are refused
while paused). The campaign, its players and the battle come from the scheduler tests: the
Dawnians' turn 1 begins at T0 and is due 24 h later, its reminder 2 h before.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from caedes_bot.domain.records import CampaignStatus
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.rules.turn import EndStep
from caedes_bot.scheduler import Scheduler, TickReport
from caedes_bot.service import (
    Actor,
    CampaignNotActive,
    NotAuthorised,
    PauseRefused,
    RulesService,
)
from caedes_bot.ui.announcer import RichAnnouncer
from caedes_bot.ui.audit import audit_line
from tests.persistence.fixtures import db, db_template, db_url
from tests.test_service_scheduler import (
    PLAYER_ACH,
    PLAYER_DAW,
    T0,
    UMPIRE,
    FakeClock,
    QueuedDice,
    _attack_sarnath_fields,
    _by_key,
    _reminders,
    _started,
    clock,
    dice,
    rules,
)

__all__ = ["clock", "db", "db_template", "db_url", "dice", "rules"]

ADMIN = 950


@pytest.fixture
async def service(
    db: Database, rules: Ruleset, clock: FakeClock, dice: QueuedDice
) -> AsyncIterator[RulesService]:
    yield RulesService(
        db, rules, clock=clock, dice_factory=dice.factory(), announcer=RichAnnouncer()
    )


async def _footprint(service: RulesService, cid: int) -> tuple[Any, ...]:
    """Everything a refused pause or resume must leave as it was."""

    def _q(conn: Any) -> tuple[Any, ...]:
        info = repo.campaign_info(conn, cid)
        assert info is not None
        return (
            info.status,
            info.version,
            info.paused_at,
            len(repo.outbox_rows(conn, cid)),
            len(repo.list_audit(conn, cid)),
            [
                (d.decision_key, d.due_at, d.reminder_at, d.reminded)
                for d in repo.open_deadlines(conn, cid)
            ],
        )

    return await service.db.read(_q)


async def test_resuming_gives_the_turn_the_time_it_had_left(
    service: RulesService, clock: FakeClock
) -> None:
    """Paused 4 h before the Dawnians' deadline and resumed three days later: the turn is due
    4 h after the resume, its reminder (not sent yet) 2 h after it, and only then does the
    turn pass to the Orcs (R-PBP-DEAD-03)."""
    cid = await _started(service)
    scheduler = Scheduler(service, clock=clock)
    clock.set(hours=20)
    paused = await service.pause(cid, Actor(UMPIRE))
    assert paused.info.status is CampaignStatus.PAUSED and paused.info.paused_at == clock.now
    assert dict(paused.deadlines) == {"turn:1:DAW": T0 + timedelta(hours=24)}

    clock.advance(days=3)
    assert await scheduler.tick() == TickReport()
    assert await _reminders(service, cid) == []
    resumed = await service.resume(cid, Actor(UMPIRE))
    assert resumed.info.status is CampaignStatus.ACTIVE and resumed.info.paused_at is None
    back = clock.now
    assert dict(resumed.deadlines) == {"turn:1:DAW": back + timedelta(hours=4)}
    (deadline,) = await service.deadlines(cid)
    assert (deadline.due_at, deadline.reminder_at, deadline.reminded) == (
        back + timedelta(hours=4),
        back + timedelta(hours=2),
        False,
    )
    assert (await service.get_view(cid)).deadlines["turn:1:DAW"] == back + timedelta(hours=4)
    assert await service.next_deadline_time() == back + timedelta(hours=2)

    clock.advance(hours=1, minutes=59)
    assert await scheduler.tick() == TickReport()
    clock.advance(minutes=1)
    assert await scheduler.tick() == TickReport(reminded=1)
    (reminder,) = await _reminders(service, cid)
    assert f"<t:{int((back + timedelta(hours=4)).timestamp())}:R>" in reminder.payload["content"]
    clock.advance(hours=1, minutes=59)
    assert await scheduler.tick() == TickReport()
    assert (await service.get_state(cid)).active == "DAW"
    clock.advance(minutes=1)
    assert await scheduler.tick() == TickReport(fired=1, orders=1)
    assert (await service.get_state(cid)).active == "ORC"


async def test_a_deadline_with_less_than_an_hour_left_gets_one_hour(
    service: RulesService, clock: FakeClock
) -> None:
    """Paused 30 min before the deadline (its reminder already sent): resumed, the turn gets
    one hour, and the reminder is not sent a second time."""
    cid = await _started(service)
    scheduler = Scheduler(service, clock=clock)
    clock.set(hours=23)
    assert await scheduler.tick() == TickReport(reminded=1)
    clock.set(hours=23, minutes=30)
    await service.pause(cid, Actor(UMPIRE))
    clock.advance(hours=12)
    await service.resume(cid, Actor(UMPIRE))
    (deadline,) = await service.deadlines(cid)
    assert deadline.due_at == clock.now + timedelta(hours=1) and deadline.reminded
    clock.advance(minutes=59)
    assert await scheduler.tick() == TickReport()
    assert len(await _reminders(service, cid)) == 1
    clock.advance(minutes=1)
    assert await scheduler.tick() == TickReport(fired=1, orders=1)


async def test_a_deadline_that_had_passed_unseen_gets_one_hour(
    service: RulesService, clock: FakeClock
) -> None:
    """The scheduler had not yet acted on the passed deadline when the umpire paused: the
    pause stops it too, and resuming gives it one hour (never an instant forfeit)."""
    cid = await _started(service)
    clock.set(hours=25)
    await service.pause(cid, Actor(UMPIRE))
    assert await Scheduler(service, clock=clock).tick() == TickReport()
    clock.advance(hours=5)
    await service.resume(cid, Actor(UMPIRE))
    (deadline,) = await service.deadlines(cid)
    assert deadline.due_at == clock.now + timedelta(hours=1)
    assert deadline.reminder_at == clock.now  # the 2 h lead is past: the reminder goes now
    assert await Scheduler(service, clock=clock).tick() == TickReport(reminded=1)


async def test_a_reaction_keeps_its_own_time_left(
    service: RulesService, clock: FakeClock, dice: QueuedDice
) -> None:
    """At T0+20 h the Acherousians owe a casualty choice (due 6 h later) and the Dawnians'
    turn has 4 h left. Paused at T0+21 h and resumed a day later, each deadline gets its own
    time back: 5 h for the reaction, 3 h for the turn (R-PBP-DEAD-01)."""
    cid = await _started(service)
    clock.set(hours=20)
    decision_id = await _attack_sarnath_fields(service, cid, dice)
    clock.set(hours=21)
    await service.pause(cid, Actor(UMPIRE))
    clock.advance(days=1)
    await service.resume(cid, Actor(UMPIRE))
    times = {k: d.due_at - clock.now for k, d in _by_key(await service.deadlines(cid)).items()}
    assert times == {
        "turn:1:DAW": timedelta(hours=3),
        f"decision:{decision_id}": timedelta(hours=5),
    }


async def test_orders_are_refused_while_paused_and_nothing_changes(
    service: RulesService, clock: FakeClock
) -> None:
    """The Dawnians' player and the umpire alike are refused, with what is wrong and what is
    allowed; after the resume the same order is taken."""
    cid = await _started(service)
    await service.pause(cid, Actor(UMPIRE))
    before = await _footprint(service, cid)
    for actor in (Actor(PLAYER_DAW), Actor(UMPIRE)):
        with pytest.raises(CampaignNotActive) as refused:
            await service.submit(cid, actor, EndStep("DAW"))
        assert refused.value.rule == "R-PBP-UMP-05"
        text = refused.value.player_text()
        assert "is paused by the umpire" in text and "no orders are taken" in text
        assert "/umpire resume" in text and "/status" in text
    assert await _footprint(service, cid) == before
    await service.resume(cid, Actor(UMPIRE))
    await service.submit(cid, Actor(PLAYER_DAW), EndStep("DAW"))


async def test_pausing_twice_or_resuming_a_running_campaign_changes_nothing(
    service: RulesService, clock: FakeClock
) -> None:
    cid = await _started(service)
    running = await _footprint(service, cid)
    with pytest.raises(PauseRefused) as refused:
        await service.resume(cid, Actor(UMPIRE))
    assert "is not paused (it is under way); nothing changed" in refused.value.player_text()
    assert "/umpire pause" in refused.value.player_text()
    assert await _footprint(service, cid) == running

    await service.pause(cid, Actor(UMPIRE))
    paused = await _footprint(service, cid)
    clock.advance(hours=1)
    with pytest.raises(PauseRefused) as again:
        await service.pause(cid, Actor(UMPIRE))
    assert again.value.rule == "R-PBP-UMP-05"
    assert "is already paused (since <t:" in again.value.player_text()
    assert await _footprint(service, cid) == paused


async def test_a_campaign_not_under_way_cannot_be_paused(service: RulesService) -> None:
    info = await service.create_campaign(
        1, "Not yet", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    before = await _footprint(service, info.id)
    with pytest.raises(PauseRefused) as refused:
        await service.pause(info.id, Actor(UMPIRE))
    assert "being set up, so it cannot be paused" in refused.value.player_text()
    assert await _footprint(service, info.id) == before


@pytest.mark.parametrize("who", [PLAYER_DAW, PLAYER_ACH, ADMIN])
async def test_only_the_umpire_pauses_and_resumes(service: RulesService, who: int) -> None:
    """A player or a server admin is refused, and nothing changes."""
    cid = await _started(service)
    before = await _footprint(service, cid)
    with pytest.raises(NotAuthorised) as refused:
        await service.pause(cid, Actor(who, is_admin=who == ADMIN))
    assert refused.value.rule == "R-PBP-UMP-05"
    assert f"ask the umpire, <@{UMPIRE}>" in refused.value.player_text()
    assert await _footprint(service, cid) == before
    await service.pause(cid, Actor(UMPIRE))
    paused = await _footprint(service, cid)
    with pytest.raises(NotAuthorised):
        await service.resume(cid, Actor(who, is_admin=who == ADMIN))
    assert await _footprint(service, cid) == paused


async def test_pause_and_resume_are_announced_shown_on_the_panel_and_audited(
    service: RulesService, rules: Ruleset, clock: FakeClock
) -> None:
    """Each writes one post in #announcements, one edit of the turn panel and one audit entry,
    in the same transaction."""
    cid = await _started(service)
    before = await service.db.read(lambda conn: len(repo.outbox_rows(conn, cid)))
    clock.set(hours=2, minutes=30)
    await service.pause(cid, Actor(UMPIRE))
    rows = (await service.db.read(lambda conn: repo.outbox_rows(conn, cid)))[before:]
    assert [(r.channel_key, r.kind.value) for r in rows] == [
        ("announcements", "post"),
        ("orders:DAW", "edit"),
    ]
    post, edit = rows
    assert "The umpire has paused **Clock**" in post.payload["content"]
    assert "the turn of the Dawnians: 21 h 30 min" in post.payload["content"]
    assert edit.payload["message_key"] == "panel:1:DAW" and edit.payload["components"] == []
    (embed,) = edit.payload["embeds"]
    assert "The campaign is paused" in embed["description"]
    assert {"name": "Deadline", "value": "paused; 21 h 30 min left on resume", "inline": False} in (
        embed["fields"]
    )
    assert "paused" in edit.payload["content"]

    clock.advance(hours=10)
    await service.resume(cid, Actor(UMPIRE))
    rows = (await service.db.read(lambda conn: repo.outbox_rows(conn, cid)))[before + 2 :]
    post, edit = rows
    due = int((clock.now + timedelta(hours=21, minutes=30)).timestamp())
    assert "The umpire has resumed **Clock**" in post.payload["content"]
    assert f"the turn of the Dawnians <t:{due}:R>" in post.payload["content"]
    assert edit.payload["components"] != [] and f"<t:{due}:R>" in edit.payload["content"]

    *_, paused, resumed = await service.audit_log(cid)
    assert (paused.action, paused.user_id, paused.detail["to"]) == (
        "status_changed",
        UMPIRE,
        "paused",
    )
    assert paused.detail["deadlines"] == {"turn:1:DAW": 21.5 * 3600}
    assert resumed.detail["deadlines"] == {
        "turn:1:DAW": (clock.now + timedelta(hours=21, minutes=30)).isoformat()
    }
    assert audit_line(paused, rules) == f"<@{UMPIRE}> (umpire) paused the campaign"
    assert audit_line(resumed, rules) == f"<@{UMPIRE}> (umpire) resumed the campaign"


async def test_a_pause_outlives_a_restart(
    service: RulesService, db: Database, rules: Ruleset, clock: FakeClock
) -> None:
    """The time of the pause is stored: a new process resumes with the time left at the
    pause, not at its own start."""
    cid = await _started(service)
    clock.set(hours=18)
    await service.pause(cid, Actor(UMPIRE))
    clock.advance(days=2)
    fresh = RulesService(db, rules, clock=clock)
    assert (await fresh.get_campaign(cid)).paused_at == T0 + timedelta(hours=18)
    assert await fresh.next_deadline_time() is None
    await fresh.resume(cid, Actor(UMPIRE))
    (deadline,) = await fresh.deadlines(cid)
    assert deadline.due_at == clock.now + timedelta(hours=6)


async def test_a_reminder_read_before_the_pause_is_not_sent(
    service: RulesService, clock: FakeClock
) -> None:
    """The scheduler read a due reminder, then the umpire paused: the reminder waits for the
    resume and goes then (R-PBP-DEAD-02)."""
    cid = await _started(service)
    clock.set(hours=22, minutes=30)
    (due,) = await service.due_reminders(clock.now)
    await service.pause(cid, Actor(UMPIRE))
    await service.remind(due)
    assert await _reminders(service, cid) == []
    await service.resume(cid, Actor(UMPIRE))
    assert await Scheduler(service, clock=clock).tick() == TickReport(reminded=1)


async def test_set_status_pauses_and_resumes_through_the_same_door(
    service: RulesService, clock: FakeClock
) -> None:
    """``set_status`` (kept for tests and tools) pauses and resumes as the commands do."""
    cid = await _started(service)
    clock.set(hours=10)
    await service.set_status(cid, CampaignStatus.PAUSED, by=UMPIRE)
    clock.advance(hours=100)
    await service.set_status(cid, CampaignStatus.ACTIVE, by=UMPIRE)
    (deadline,) = await service.deadlines(cid)
    assert deadline.due_at == clock.now + timedelta(hours=14)
