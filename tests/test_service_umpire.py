"""The umpire's powers through the service, on a fake clock (R-PBP-UMP-01, R-PBP-UMP-03,
R-PBP-DEAD-01, R-PBP-DEAD-02, R-SETUP-04): deadlines moved with notice, new deadline windows from
the next turn, and every override in the audit log with its before and after (decision 0022).

The campaign comes from the scheduler tests: the default scenario, the Dawnians' turn 1 begins
at T0 and is due 24 h later, its reminder 2 h before.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from caedes_bot.domain.places import ChannelKey
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.rules.turn import EndStep
from caedes_bot.rules.umpire import SetRP
from caedes_bot.rules.umpire_game import SetOption
from caedes_bot.scheduler import Scheduler, TickReport
from caedes_bot.service import (
    Actor,
    CampaignNotActive,
    DeadlineRefused,
    NotAuthorised,
    RulesService,
)
from caedes_bot.ui.announcer import RichAnnouncer
from caedes_bot.ui.audit import audit_line
from tests.persistence.fixtures import db, db_template, db_url
from tests.test_service_scheduler import (
    PLAYER_DAW,
    T0,
    UMPIRE,
    FakeClock,
    QueuedDice,
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


async def _announcements(service: RulesService, cid: int) -> list[str]:
    rows = await service.db.read(lambda conn: repo.outbox_rows(conn, cid))
    return [
        str(r.payload.get("content", "")) for r in rows if r.channel_key == ChannelKey.ANNOUNCEMENTS
    ]


async def test_r_pbp_ump_03_the_umpire_extends_the_turn_and_the_reminder_follows(
    service: RulesService, clock: FakeClock, rules: Ruleset
) -> None:
    """R-PBP-UMP-03, R-PBP-DEAD-02: at T0+10 h the umpire extends the Dawnians' turn by 12 h:
    due at T0+36 h, its reminder armed again 2 h before; announced in #announcements with the
    old and new times, logged with both. The turn then passes at T0+36 h, not T0+24 h."""
    cid = await _started(service)
    scheduler = Scheduler(service, clock=clock)
    clock.set(hours=10)
    moved = await service.change_deadlines(cid, Actor(UMPIRE), hours=12)
    assert moved == [("turn:1:DAW", T0 + timedelta(hours=24), T0 + timedelta(hours=36))]
    (deadline,) = await service.deadlines(cid)
    assert deadline.due_at == T0 + timedelta(hours=36)
    assert deadline.reminder_at == T0 + timedelta(hours=34) and not deadline.reminded
    assert (await service.get_view(cid)).deadlines["turn:1:DAW"] == T0 + timedelta(hours=36)
    notice = (await _announcements(service, cid))[-1]
    new_unix = int((T0 + timedelta(hours=36)).timestamp())
    old_unix = int((T0 + timedelta(hours=24)).timestamp())
    assert "extended" in notice and f"<t:{new_unix}:f>" in notice and f"<t:{old_unix}:f>" in notice
    entry = (await service.audit_log(cid))[-1]
    assert (
        entry.action == "deadline_moved"
        and entry.detail["before"] == (T0 + timedelta(hours=24)).isoformat()
    )
    assert audit_line(entry, rules).startswith(f"<@{UMPIRE}> (umpire) moved the deadline")

    clock.set(hours=24)
    assert await scheduler.tick() == TickReport()
    assert (await service.get_state(cid)).active == "DAW"
    clock.set(hours=36)
    report = await scheduler.tick()
    assert report.fired == 1
    assert (await service.get_state(cid)).active != "DAW"


async def test_r_pbp_ump_03_shortening_keeps_a_quarter_hour_and_who_may(
    service: RulesService, clock: FakeClock
) -> None:
    """R-PBP-UMP-03: shortening the turn by 20 h at T0+10 h would leave it in the past: refused,
    nothing changes; by 13 h it is due at T0+11 h. A player may not move deadlines; an admin
    may; a paused campaign's deadlines wait for the resume."""
    cid = await _started(service)
    clock.set(hours=10)
    with pytest.raises(DeadlineRefused):
        await service.change_deadlines(cid, Actor(UMPIRE), hours=-20)
    (deadline,) = await service.deadlines(cid)
    assert deadline.due_at == T0 + timedelta(hours=24)
    with pytest.raises(NotAuthorised):
        await service.change_deadlines(cid, Actor(PLAYER_DAW), hours=1)
    with pytest.raises(DeadlineRefused):
        await service.change_deadlines(cid, Actor(UMPIRE), hours=1, which="reactions")
    moved = await service.change_deadlines(cid, Actor(UMPIRE), hours=-13)
    assert moved[0][2] == T0 + timedelta(hours=11)
    await service.change_deadlines(cid, Actor(ADMIN, is_admin=True), hours=1)
    await service.pause(cid, Actor(UMPIRE))
    with pytest.raises(CampaignNotActive):
        await service.change_deadlines(cid, Actor(UMPIRE), hours=1)


async def test_r_pbp_dead_01_a_new_turn_window_applies_from_the_next_turn(
    service: RulesService, clock: FakeClock
) -> None:
    """R-PBP-DEAD-01, R-SETUP-04: the default turn window is 24 h; the umpire makes it 48 h
    during the Dawnians' turn, whose deadline stays; the Orcs' turn, begun at T0+1 h, is due
    48 h later."""
    cid = await _started(service)
    await service.submit(cid, Actor(UMPIRE), SetOption("UMPIRE", "turn_deadline_hours", "48"))
    (deadline,) = await service.deadlines(cid)
    assert deadline.due_at == T0 + timedelta(hours=24)
    clock.set(hours=1)
    state = await service.get_state(cid)
    while state.active == "DAW":
        state = (await service.submit(cid, Actor(PLAYER_DAW), EndStep("DAW"))).state
    (turn,) = [d for d in await service.deadlines(cid) if d.decision_key.startswith("turn:")]
    assert turn.decision_key == f"turn:1:{state.active}"
    assert turn.due_at == T0 + timedelta(hours=49)


async def test_r_pbp_ump_01_an_override_is_logged_with_before_and_after(
    service: RulesService, rules: Ruleset
) -> None:
    """R-PBP-UMP-01 (decision 0022): the umpire sets the Orcs' RP (default scenario start: 0)
    to 25; the audit entry holds the order, who gave it and the change from 0 to 25."""
    cid = await _started(service)
    before = (await service.get_state(cid)).factions["ORC"].rp
    await service.submit(cid, Actor(UMPIRE), SetRP("UMPIRE", "ORC", 25))
    entry = (await service.audit_log(cid))[-1]
    assert entry.user_id == UMPIRE and entry.action == "order:SetRP"
    assert entry.detail["change"] == {"what": "rp", "target": "ORC", "before": before, "after": 25}
    assert audit_line(entry, rules) == (f"<@{UMPIRE}> (umpire) set Orc RP to 25 (before: {before})")


async def test_r_pbp_dead_02_a_turn_extended_after_its_reminder_is_reminded_again(
    service: RulesService, clock: FakeClock
) -> None:
    """R-PBP-DEAD-02, R-PBP-UMP-03: the Dawnians are reminded at T0+22 h of their turn due at
    T0+24 h; at T0+23 h the umpire extends it by 12 h, to T0+36 h, so they are reminded again
    at T0+34 h (2 h before), naming the new time, and only once."""
    cid = await _started(service)
    scheduler = Scheduler(service, clock=clock)
    clock.set(hours=22)
    assert await scheduler.tick() == TickReport(reminded=1)
    clock.set(hours=23)
    await service.change_deadlines(cid, Actor(UMPIRE), hours=12)
    clock.set(hours=34)
    assert await scheduler.tick() == TickReport(reminded=1)
    assert await scheduler.tick() == TickReport()
    rows = await service.db.read(lambda conn: repo.outbox_rows(conn, cid))
    reminders = [r for r in rows if "deadline" in r.payload]
    assert [r.channel_key for r in reminders] == ["orders:DAW", "orders:DAW"]
    new_unix = int((T0 + timedelta(hours=36)).timestamp())
    assert f"<t:{new_unix}:R>" in reminders[1].payload["content"]
