"""RulesService administration: campaign names, who plays what, the umpire's access, starting,
races between admin commands, failed deliveries and the audit log in plain words.

The checks that must hold at the moment of a change run under the campaign's lock (or in the
insert's transaction), so commands given at once cannot both pass them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import (
    AuditRecord,
    CampaignStatus,
    DeliveryProblem,
    OutboxKind,
    OutboxRecord,
)
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.rules.errors import UnknownName
from caedes_bot.service import (
    NAME_MAX,
    Actor,
    AlreadyStarted,
    CampaignNameTaken,
    FactionHeld,
    InvalidCampaignName,
    NoUmpire,
    RulesService,
    access_changes,
    tidy_campaign_name,
)
from caedes_bot.ui.audit import audit_line
from caedes_bot.ui.wording import describe_problem
from tests.persistence.fixtures import db, db_template, db_url

__all__ = ["db", "db_template", "db_url"]

ADMIN, UMPIRE, ALICE, BOB = 800, 900, 101, 102
GUILD = 7


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


@pytest.fixture
async def service(db: Database, rules: Ruleset) -> AsyncIterator[RulesService]:
    yield RulesService(db, rules)


async def skirmish(service: RulesService, name: str = "Seven Swords", **options: object) -> int:
    """A campaign of the three-faction skirmish (DAW, ORC, ACH), umpire UMPIRE by default."""
    options.setdefault("umpire_user_id", UMPIRE)
    info = await service.create_campaign(GUILD, name, "skirmish", ADMIN, **options)  # type: ignore[arg-type]
    return info.id


async def outbox_rows(db: Database, campaign_id: int) -> list[OutboxRecord]:
    def _q(conn: Connection) -> list[OutboxRecord]:
        return repo.outbox_rows(conn, campaign_id)

    return await db.read(_q)


def summary(records: list[OutboxRecord]) -> list[tuple[str, str, object]]:
    return [(r.kind.value, r.channel_key, r.payload.get("user_id")) for r in records]


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("raw", "tidied"),
    [
        ("Seven Swords", "Seven Swords"),
        ("  Seven \t  Swords \n", "Seven Swords"),
        ("Kaïros’ Crusade ⚔️", "Kaïros’ Crusade ⚔️"),
        ("!!", "!!"),
        ("x" * NAME_MAX, "x" * NAME_MAX),
    ],
)
def test_campaign_names_are_tidied(raw: str, tidied: str) -> None:
    assert tidy_campaign_name(raw) == tidied


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("", "blank"),
        ("   ", "blank"),
        ("\u3000\u00a0", "blank"),  # ideographic and no-break spaces only
        ("\u200b", "U+200B"),  # zero-width space
        ("Seven\u200bSwords", "U+200B"),
        ("Seven\u200eSwords", "U+200E"),  # left-to-right mark
        ("Bell\x07", "U+0007"),
        ("x" * (NAME_MAX + 1), f"{NAME_MAX + 1} characters"),
    ],
)
def test_blank_invisible_or_long_names_are_refused(raw: str, why: str) -> None:
    with pytest.raises(InvalidCampaignName) as err:
        tidy_campaign_name(raw)
    assert why in err.value.message
    text = err.value.player_text()
    assert "Allowed: a name of 1 to 90 visible characters" in text and "(R-" not in text


async def test_a_blank_name_creates_nothing(service: RulesService) -> None:
    with pytest.raises(InvalidCampaignName):
        await service.create_campaign(GUILD, " \u200b ", "skirmish", ADMIN)
    assert await service.campaigns() == []


async def test_names_are_unique_per_guild_among_campaigns_not_finished(
    service: RulesService,
) -> None:
    first = await skirmish(service, "Seven Swords")
    with pytest.raises(CampaignNameTaken) as err:
        await skirmish(service, "seven   SWORDS")
    assert "already has a campaign called Seven Swords" in err.value.player_text()
    other_guild = await service.create_campaign(GUILD + 1, "Seven Swords", "skirmish", ADMIN)
    assert other_guild.name == "Seven Swords"
    await service.set_status(first, CampaignStatus.FINISHED, by=ADMIN)
    again = await skirmish(service, "Seven Swords")
    assert again != first


async def test_two_creations_at_once_make_one_campaign(service: RulesService) -> None:
    made = await asyncio.gather(
        skirmish(service, "Twin"), skirmish(service, "twin"), return_exceptions=True
    )
    assert sum(isinstance(m, int) for m in made) == 1
    assert sum(isinstance(m, CampaignNameTaken) for m in made) == 1
    assert len(await service.campaigns()) == 1


# --------------------------------------------------------------------------- who plays what


async def test_a_faction_held_is_refused_even_when_two_assignments_race(
    service: RulesService,
) -> None:
    """R-SETUP-02: a faction has one player."""
    cid = await skirmish(service)
    results = await asyncio.gather(
        service.assign(cid, ALICE, "DAW", by=UMPIRE),
        service.assign(cid, BOB, "DAW", by=UMPIRE),
        return_exceptions=True,
    )
    assert results[0] is True and isinstance(results[1], FactionHeld)
    assert results[1].rule == "R-SETUP-02" and f"<@{ALICE}>" in results[1].message
    assert await service.players(cid) == {"DAW": ALICE}
    assert await service.assign(cid, ALICE, "DAW") is False  # hers already: nothing to do
    with pytest.raises(UnknownName):
        await service.assign(cid, ALICE, "HEL", by=UMPIRE)


async def test_replacing_a_player_moves_the_orders_thread(
    service: RulesService, db: Database
) -> None:
    """R-SETUP-02: with ``replace`` the faction changes hands; the old player leaves its thread."""
    cid = await skirmish(service)
    await service.assign(cid, ALICE, "DAW", by=UMPIRE)
    seen = len(await outbox_rows(db, cid))
    assert await service.assign(cid, BOB, "DAW", by=ADMIN, replace=True) is True
    new = (await outbox_rows(db, cid))[seen:]
    assert summary(new) == [
        ("remove_thread_member", "orders:DAW", ALICE),
        ("add_thread_member", "orders:DAW", BOB),
    ]


async def test_unassign_leaves_the_umpire_in_the_thread(
    service: RulesService, db: Database
) -> None:
    """R-PBP-UMP-02: a faction nobody holds is the umpire's; if the umpire played it, they stay
    in its thread."""
    cid = await skirmish(service)
    await service.assign(cid, UMPIRE, "ACH", by=ADMIN)
    seen = len(await outbox_rows(db, cid))
    assert await service.unassign(cid, "ACH", by=ADMIN) is True
    assert (await outbox_rows(db, cid))[seen:] == []  # the umpire belongs there anyway
    assert await service.unassign(cid, "ACH", by=ADMIN) is False
    assert await service.players(cid) == {}


# --------------------------------------------------------------------------- the umpire


def test_access_changes_when_a_player_becomes_umpire() -> None:
    """R-PBP-UMP-04: the umpire reads every orders and negotiation thread. Worked by hand:
    before, ALICE plays DAW, BOB plays ORC, UMPIRE umpires; after, ALICE umpires too.
    #umpire: closed to UMPIRE, opened to ALICE. orders:DAW {ALICE, UMPIRE} -> {ALICE}: UMPIRE
    leaves. orders:ORC {BOB, UMPIRE} -> {BOB, ALICE}: UMPIRE leaves, ALICE joins.
    talks:DAW+ORC {ALICE, BOB, UMPIRE} -> {ALICE, BOB}: UMPIRE leaves. category: nothing."""
    keys = ["category", "orders:DAW", "orders:ORC", "talks:DAW+ORC", "umpire"]
    players = {"DAW": ALICE, "ORC": BOB}
    got = access_changes(keys, (players, UMPIRE), (players, ALICE))
    assert [(m.kind.value, m.channel_key, m.payload["user_id"]) for m in got] == [
        ("revoke_channel_access", "umpire", UMPIRE),
        ("grant_channel_access", "umpire", ALICE),
        ("remove_thread_member", "orders:DAW", UMPIRE),
        ("remove_thread_member", "orders:ORC", UMPIRE),
        ("add_thread_member", "orders:ORC", ALICE),
        ("remove_thread_member", "talks:DAW+ORC", UMPIRE),
    ]
    assert access_changes(keys, (players, ALICE), (players, ALICE)) == []


async def test_a_new_umpire_replaces_the_old_one_everywhere(
    service: RulesService, db: Database
) -> None:
    """R-PBP-UMP-01, R-PBP-UMP-04: ALICE (who plays DAW) is named umpire in place of UMPIRE.
    By hand: #umpire closed to UMPIRE and opened to ALICE; UMPIRE leaves the orders threads of
    DAW, ORC and ACH; ALICE joins ORC's and ACH's (she is in DAW's already)."""
    cid = await skirmish(service)
    await service.assign(cid, ALICE, "DAW", by=UMPIRE)
    seen = len(await outbox_rows(db, cid))
    change = await service.set_umpire(cid, ALICE, by=ADMIN)
    assert (change.previous, change.changed, change.plays) == (UMPIRE, True, ("DAW",))
    assert summary((await outbox_rows(db, cid))[seen:]) == [
        ("revoke_channel_access", "umpire", UMPIRE),
        ("grant_channel_access", "umpire", ALICE),
        ("remove_thread_member", "orders:ACH", UMPIRE),
        ("add_thread_member", "orders:ACH", ALICE),
        ("remove_thread_member", "orders:DAW", UMPIRE),
        ("remove_thread_member", "orders:ORC", UMPIRE),
        ("add_thread_member", "orders:ORC", ALICE),
    ]
    assert (await service.get_view(cid)).info.umpire_user_id == ALICE
    # naming her again writes nothing
    seen = len(await outbox_rows(db, cid))
    again = await service.set_umpire(cid, ALICE, by=ADMIN)
    assert again.changed is False and len(await outbox_rows(db, cid)) == seen


async def test_start_needs_an_umpire_and_happens_once(service: RulesService) -> None:
    """R-PBP-UMP-01: no start without an umpire. R-TURN-01: two starts at once begin game
    round 1 once; the other is told the campaign is under way."""
    lonely = await skirmish(service, "Lonely", umpire_user_id=None)
    with pytest.raises(NoUmpire) as err:
        await service.start(lonely, Actor(ADMIN, is_admin=True))
    assert err.value.rule == "R-PBP-UMP-01"
    cid = await skirmish(service)
    results = await asyncio.gather(
        service.start(cid, Actor(UMPIRE)), service.start(cid, Actor(UMPIRE)), return_exceptions=True
    )
    started = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, AlreadyStarted)]
    assert len(started) == 1 and started[0].state.round == 1 and len(refused) == 1
    assert refused[0].player_text() == (
        "Seven Swords has already started (it is under way).\n"
        "Allowed: `/campaign info` to see where it stands"
    )


# --------------------------------------------------------------------------- failures


async def test_a_failed_delivery_is_told_in_umpire_once_and_logged(
    service: RulesService, db: Database
) -> None:
    cid = await skirmish(service)
    problem = DeliveryProblem(
        "battles",
        OutboxKind.CREATE_CHANNEL,
        "Discord refused (403 50013): Missing Permissions",
        {"name": "battles"},
    )
    await service.report_delivery_failure(cid, 3, problem)
    await service.report_delivery_failure(cid, 3, problem)  # the same row again: one notice
    notices = [r for r in await outbox_rows(db, cid) if r.dedupe_key == "failure:3"]
    assert len(notices) == 1 and notices[0].channel_key == "umpire"
    assert "Could not make #battles: Discord refused (403 50013)" in notices[0].payload["content"]
    # a failure in #umpire itself, or of a notice, is only logged
    await service.report_delivery_failure(
        cid, 4, DeliveryProblem("umpire", OutboxKind.POST, "gone", {"notice": True})
    )
    assert not any(r.dedupe_key == "failure:4" for r in await outbox_rows(db, cid))
    assert [a.action for a in await service.audit_log(cid)].count("delivery_failed") == 3


def test_delivery_problems_in_words() -> None:
    def line(key: str, kind: OutboxKind, payload: dict[str, object]) -> str:
        return describe_problem(DeliveryProblem(key, kind, "403", payload))

    assert line("category", OutboxKind.CREATE_CATEGORY, {"name": "Swords"}) == (
        "Could not make the category Swords: 403"
    )
    assert line("orders:DAW", OutboxKind.ADD_THREAD_MEMBER, {"user_id": 5}) == (
        "Could not add <@5> to the orders thread of DAW: 403"
    )
    assert line("talks:DAW+ORC", OutboxKind.POST, {}) == (
        "Could not post in the negotiation thread of DAW and ORC: 403"
    )
    assert line("umpire", OutboxKind.REVOKE_CHANNEL_ACCESS, {"user_id": 5}) == (
        "Could not close #umpire to <@5>: 403"
    )


# --------------------------------------------------------------------------- the audit log


async def test_admin_acts_are_logged_with_who_and_in_what_capacity(
    service: RulesService, rules: Ruleset
) -> None:
    """R-PBP-UMP-01: the umpire's acts are logged; so are the admins'."""
    cid = await skirmish(service, umpire_user_id=None)
    await service.set_umpire(cid, UMPIRE, by=ADMIN)
    await service.assign(cid, ALICE, "DAW", by=UMPIRE)
    await service.assign(cid, BOB, "ORC", by=ADMIN)
    await service.unassign(cid, "ORC", by=UMPIRE)
    await service.start(cid, Actor(UMPIRE))
    lines = [audit_line(a, rules) for a in await service.audit_log(cid)]
    assert lines == [
        f"<@{ADMIN}> (admin) created the campaign Seven Swords",
        f"<@{ADMIN}> (admin) named <@{UMPIRE}> umpire",
        f"<@{UMPIRE}> (umpire) assigned the Dawnians to <@{ALICE}>",
        f"<@{ADMIN}> (admin) assigned the Orcs to <@{BOB}>",
        f"<@{UMPIRE}> (umpire) took the Orcs from <@{BOB}>; the umpire runs them",
        f"<@{UMPIRE}> (umpire) started the campaign",
    ]


def _record(action: str, detail: dict[str, object], user: int | None = UMPIRE) -> AuditRecord:
    return AuditRecord(1, user, action, dict(detail), datetime(2030, 1, 1, tzinfo=UTC))


@pytest.mark.parametrize(
    ("order", "text"),
    [
        ({"type": "SetRP", "faction": "UMPIRE", "target": "DAW", "rp": 12}, "set Dawnian RP to 12"),
        (
            {
                "type": "SetCommodity",
                "faction": "UMPIRE",
                "target": "ORC",
                "commodity": "iron",
                "count": 3,
            },
            "set Orc Iron to 3",
        ),
        (
            {"type": "SetOwner", "faction": "UMPIRE", "province": "orme", "owner": "ORC"},
            "gave Orme to the Orcs",
        ),
        (
            {"type": "SetOwner", "faction": "UMPIRE", "province": "orme", "owner": None},
            "left Orme without an owner",
        ),
        ({"type": "UmpireAdvance", "faction": "DAW"}, "moved the turn of the Dawnians on"),
        ({"type": "BuyUnits", "faction": "DAW"}, "gave the Dawnians' order: buy units"),
    ],
)
def test_umpire_orders_read_in_plain_words(
    rules: Ruleset, order: dict[str, object], text: str
) -> None:
    """R-PBP-UMP-01: overrides are logged; the log names who gave them and what they did."""
    record = _record(f"order:{order['type']}", {"order": order, "acting_as": "umpire"})
    assert audit_line(record, rules) == f"<@{UMPIRE}> (umpire) {text}"


def test_entries_without_a_member_are_the_bots(rules: Ruleset) -> None:
    record = _record(
        "order:UmpireAdvance", {"order": {"type": "UmpireAdvance", "faction": "ORC"}}, None
    )
    assert audit_line(record, rules) == "The bot moved the turn of the Orcs on"
