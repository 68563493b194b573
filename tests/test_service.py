"""RulesService: one transaction per order, refusals change nothing, who may give what,
idempotent interactions, isolation between campaigns, exact replay (design.md section 4)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import ActingAs, CampaignStatus, OutboxKind
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.tables import campaign_events, campaign_orders, outbox
from caedes_bot.rules.errors import NotEnoughRP, RuleViolation, UnknownName
from caedes_bot.service import (
    Actor,
    CampaignNotActive,
    NotAuthorised,
    RulesService,
    UnknownCampaign,
)
from tests.persistence.fixtures import db, db_template, db_url
from tests.persistence.support import (
    StandInBump,
    StandInBumped,
    StandInSecret,
    small_ruleset,
    stand_in_apply,
    stand_in_new_game,
)

__all__ = ["db", "db_template", "db_url"]

PLAYER_DAW = 101
PLAYER_ORC = 102
UMPIRE = 900
STRANGER = 555
T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def service(db: Database) -> AsyncIterator[RulesService]:
    yield RulesService(
        db,
        small_ruleset(),
        apply=stand_in_apply,
        new_game=stand_in_new_game,
        clock=FakeClock(),
    )


async def _campaign(service: RulesService, name: str = "Test", guild: int = 1) -> int:
    info = await service.create_campaign(
        guild, name, "test", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.assign(info.id, PLAYER_ORC, "ORC")
    await service.set_status(info.id, CampaignStatus.ACTIVE, by=UMPIRE)
    return info.id


async def _counts(db: Database, campaign_id: int) -> tuple[int, int, int, int]:
    def _q(conn: Connection) -> Any:
        info = repo.campaign_info(conn, campaign_id)
        assert info is not None
        return (
            info.version,
            repo.count_rows(conn, campaign_orders, campaign_id),
            repo.count_rows(conn, campaign_events, campaign_id),
            repo.count_rows(conn, outbox, campaign_id),
        )

    return await db.read(_q)


async def test_accepted_order_writes_state_order_events_and_outbox_together(
    service: RulesService, db: Database
) -> None:
    cid = await _campaign(service)
    _, _, _, outbox_before = await _counts(db, cid)
    result = await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW", amount=5))
    assert result.events == (StandInBumped("DAW", 15), StandInSecret("DAW", 15))
    assert (result.state_version, result.order_seq, result.duplicate) == (1, 1, False)
    assert result.acting_as is ActingAs.PLAYER
    assert result.state.factions["DAW"].rp == 15
    # 1 order, 2 events; the plain announcer posts the public event to #announcements and
    # the private one to the DAW orders thread (R-GEN-07)
    assert await _counts(db, cid) == (1, 1, 2, outbox_before + 2)
    service.forget()
    assert (await service.get_state(cid)).factions["DAW"].rp == 15
    events = await service.events(cid)
    assert [(e.seq, e.order_seq, e.type, e.audience) for e in events] == [
        (1, 1, "StandInBumped", None),
        (2, 1, "StandInSecret", ["DAW"]),
    ]

    def _q(conn: Connection) -> Any:
        rows = repo.outbox_rows(conn, cid)
        return rows

    rows = await db.read(_q)
    posts = [(r.channel_key, r.kind) for r in rows[-2:]]
    assert posts == [("announcements", OutboxKind.POST), ("orders:DAW", OutboxKind.POST)]


async def test_refused_order_changes_nothing_and_writes_nothing(
    service: RulesService, db: Database
) -> None:
    """A refusal leaves state, logs and outbox as they were (the stand-in refuses as the
    rules do, with a rule ID and what is allowed instead)."""
    cid = await _campaign(service)
    before_counts = await _counts(db, cid)
    before_state = await service.get_state(cid)
    with pytest.raises(NotEnoughRP) as err:
        await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW", amount=-11))
    assert err.value.rule == "R-BUY-02"
    assert err.value.allowed
    assert await _counts(db, cid) == before_counts
    assert await service.get_state(cid) is before_state
    service.forget()
    assert (await service.get_state(cid)).factions["DAW"].rp == 10


async def test_player_may_order_only_for_own_faction(service: RulesService) -> None:
    """R-SETUP-02: a player gives the orders of the factions given to them."""
    cid = await _campaign(service)
    await service.submit(cid, Actor(PLAYER_ORC), StandInBump("ORC"))
    with pytest.raises(NotAuthorised) as err:
        await service.submit(cid, Actor(PLAYER_ORC), StandInBump("DAW"))
    assert err.value.rule == "R-SETUP-02"
    assert err.value.allowed == "orders for ORC"


async def test_stranger_and_admin_may_not_order_for_a_faction(service: RulesService) -> None:
    cid = await _campaign(service)
    for actor in (Actor(STRANGER), Actor(STRANGER, is_admin=True)):
        with pytest.raises(NotAuthorised):
            await service.submit(cid, actor, StandInBump("DAW"))
    assert (await service.get_state(cid)).factions["DAW"].rp == 10


async def test_umpire_may_order_for_any_faction_and_it_is_logged(
    service: RulesService, db: Database
) -> None:
    """R-PBP-UMP-01 / R-PBP-UMP-02: the umpire acts for any faction; each such act is logged."""
    cid = await _campaign(service)
    result = await service.submit(cid, Actor(UMPIRE), StandInBump("ORC", amount=2))
    assert result.acting_as is ActingAs.UMPIRE

    def _q(conn: Connection) -> Any:
        orders = repo.list_orders(conn, cid)
        return orders

    orders = await db.read(_q)
    assert orders[-1].acting_as is ActingAs.UMPIRE
    assert orders[-1].actor_user_id == UMPIRE
    audit = await service.audit_log(cid)
    assert audit[-1].action == "order:StandInBump"
    assert audit[-1].detail["order"] == {
        "type": "StandInBump",
        "faction": "ORC",
        "amount": 2,
        "rolls": 0,
    }


async def test_a_user_may_hold_several_factions(service: RulesService) -> None:
    cid = await _campaign(service)
    await service.assign(cid, PLAYER_DAW, "ORC", replace=True)  # taken from PLAYER_ORC
    assert await service.factions_of(cid, PLAYER_DAW) == ["DAW", "ORC"]
    assert await service.factions_of(cid, PLAYER_ORC) == []
    await service.submit(cid, Actor(PLAYER_DAW), StandInBump("ORC"))
    with pytest.raises(NotAuthorised):
        await service.submit(cid, Actor(PLAYER_ORC), StandInBump("ORC"))


async def test_assign_refuses_a_faction_not_in_play(service: RulesService) -> None:
    cid = await _campaign(service)
    with pytest.raises(UnknownName):
        await service.assign(cid, PLAYER_DAW, "HEL")


async def test_orders_refused_while_not_active(service: RulesService) -> None:
    """R-PBP-UMP-05: a paused campaign takes no orders."""
    cid = await _campaign(service)
    await service.set_status(cid, CampaignStatus.PAUSED, by=UMPIRE)
    with pytest.raises(CampaignNotActive) as err:
        await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW"))
    assert err.value.rule == "R-PBP-UMP-05"
    await service.set_status(cid, CampaignStatus.ACTIVE, by=UMPIRE)
    await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW"))


async def test_same_interaction_twice_has_one_effect_and_returns_the_first_result(
    service: RulesService, db: Database
) -> None:
    cid = await _campaign(service)
    first = await service.submit(
        cid, Actor(PLAYER_DAW), StandInBump("DAW", 3), interaction_id="i-1"
    )
    again = await service.submit(
        cid, Actor(PLAYER_DAW), StandInBump("DAW", 3), interaction_id="i-1"
    )
    assert again.duplicate and not first.duplicate
    assert again.events == first.events
    assert again.state_version == first.state_version == 1
    assert (await service.get_state(cid)).factions["DAW"].rp == 13
    # a duplicate that would now be refused still returns the first result
    await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW", -13))
    late = await service.submit(
        cid, Actor(PLAYER_DAW), StandInBump("DAW", -13), interaction_id="i-1"
    )
    assert late.duplicate and late.events == first.events
    # and after a restart (cold cache, new service object)
    fresh = RulesService(db, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game)
    cold = await fresh.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW", 3), interaction_id="i-1")
    assert cold.duplicate and cold.events == first.events
    assert await _counts(db, cid) == (2, 2, 4, (await _counts(db, cid))[3])


async def test_orders_never_touch_another_campaign(service: RulesService, db: Database) -> None:
    one = await _campaign(service, "One")
    two = await _campaign(service, "Two", guild=2)
    await service.submit(one, Actor(PLAYER_DAW), StandInBump("DAW", 4))
    await service.submit(one, Actor(PLAYER_DAW), StandInBump("DAW", 4), interaction_id="x")
    assert await _counts(db, two) == (0, 0, 0, (await _counts(db, two))[3])
    assert (await service.get_state(two)).factions["DAW"].rp == 10
    # the same interaction id cannot be replayed into another campaign
    with pytest.raises(RuleViolation):
        await service.submit(two, Actor(PLAYER_DAW), StandInBump("DAW", 4), interaction_id="x")
    service.forget()
    assert (await service.get_state(one)).factions["DAW"].rp == 18
    assert (await service.get_state(two)).factions["DAW"].rp == 10
    assert [c.name for c in await service.campaigns(guild_id=2)] == ["Two"]


async def test_unknown_campaign(service: RulesService) -> None:
    with pytest.raises(UnknownCampaign):
        await service.submit(999, Actor(PLAYER_DAW), StandInBump("DAW"))


async def test_stale_version_is_reloaded_and_reapplied_never_merged(
    service: RulesService, db: Database
) -> None:
    """Another writer moved the campaign on: the service reloads and applies on top."""
    cid = await _campaign(service)
    await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW", 1))
    other = RulesService(db, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game)
    await other.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW", 100))
    result = await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW", 1000))
    assert result.state_version == 3
    assert result.state.factions["DAW"].rp == 10 + 1 + 100 + 1000


async def test_dice_resume_from_the_stored_counter_and_replay_exactly(
    service: RulesService,
) -> None:
    """R-GEN-01: a campaign's dice come from its seed and roll counter, so it replays exactly."""
    cid = await _campaign(service)
    rolled: list[int] = []
    for n in (1, 3, 2):
        result = await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW", 1, rolls=n))
        rolled += list(result.events[0].dice)  # type: ignore[attr-defined]
        service.forget()  # every order reloads the state from the database
    state = await service.get_state(cid)
    assert state.dice_rolls == 6
    assert all(1 <= d <= 10 for d in rolled) and len(rolled) == 6
    replayed = await service.replay(cid)
    assert replayed == state


async def test_campaign_setup_queues_channels_threads_and_welcome(
    service: RulesService, db: Database
) -> None:
    """ux.md: category, #announcements, #battles, #table-talk, #umpire, and one private
    orders thread per faction in play (R-PBP-NEG-06), the umpire in each."""
    info = await service.create_campaign(
        7, "Seven Swords", "test", created_by=1, umpire_user_id=UMPIRE
    )
    assert info.status is CampaignStatus.SETTING_UP and info.version == 0

    def _q(conn: Connection) -> Any:
        rows = repo.outbox_rows(conn, info.id)
        return rows

    rows = await db.read(_q)
    summary = [(r.kind.value, r.channel_key) for r in rows]
    assert summary == [
        ("create_category", "category"),
        ("create_channel", "announcements"),
        ("create_channel", "battles"),
        ("create_channel", "table-talk"),
        ("create_channel", "umpire"),
        ("create_thread", "orders:DAW"),
        ("add_thread_member", "orders:DAW"),
        ("create_thread", "orders:ORC"),
        ("add_thread_member", "orders:ORC"),
        ("post", "announcements"),
    ]
    assert rows[4].payload["private"] is True and rows[4].payload["allow_users"] == [UMPIRE]
    assert rows[5].depends_on == rows[1].id
    assert set(await service.channels(info.id)) == {
        "category",
        "announcements",
        "battles",
        "table-talk",
        "umpire",
        "orders:DAW",
        "orders:ORC",
    }
    audit = await service.audit_log(info.id)
    assert audit[0].action == "campaign_created"


async def test_deadlines_follow_the_turn(service: RulesService, db: Database) -> None:
    """R-PBP-DEAD-01: the active faction's turn deadline is 24 h by default; a reminder goes
    before it (R-PBP-DEAD-02), here 2 h before (a quarter of 24 h is 6 h, capped at 2 h)."""
    cid = await _campaign(service)
    await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW"))
    deadlines = await service.deadlines(cid)
    assert [(d.decision_key, d.faction) for d in deadlines] == [("turn:1:DAW", "DAW")]
    assert deadlines[0].due_at == T0 + timedelta(hours=24)
    assert deadlines[0].reminder_at == T0 + timedelta(hours=22)
    # the same turn goes on: no new deadline
    await service.submit(cid, Actor(PLAYER_DAW), StandInBump("DAW"))
    assert len(await service.deadlines(cid)) == 1


async def test_queries_for_the_discord_edge(service: RulesService, db: Database) -> None:
    cid = await _campaign(service)

    def _q(conn: Connection) -> Any:
        repo.set_channel_discord_id(conn, cid, "orders:DAW", 4242)

    await db.write(_q)
    found = await service.campaign_for_channel(4242)
    assert found is not None and found.id == cid
    assert await service.campaign_for_channel(1) is None
    assert await service.players(cid) == {"DAW": PLAYER_DAW, "ORC": PLAYER_ORC}

    def _q(conn: Connection) -> Any:
        count = conn.scalar(sa.select(sa.func.count()).select_from(outbox))
        return count

    count = await db.read(_q)
    assert count and count > 0
