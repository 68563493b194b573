"""Each umpire or admin command commits once (R-PBP-UMP-01, R-SETUP-02, decision 0022): what it
changes, the orders it gives for the bot, the messages it queues and its audit entry are one
transaction, so a process that dies in the middle leaves all of it or none of it.

Counted at the database: every commit goes through ``Database.write`` (reads commit nothing).
The campaign is the scheduler tests' one: the default scenario, the Dawnians' turn 1 under way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.service import Actor, ExportTooLarge, RulesService
from caedes_bot.ui.announcer import RichAnnouncer
from tests.persistence.fixtures import db, db_template, db_url
from tests.test_service_scheduler import (
    PLAYER_ACH,
    PLAYER_DAW,
    UMPIRE,
    FakeClock,
    QueuedDice,
    _started,
    clock,
    dice,
    rules,
)

__all__ = ["clock", "db", "db_template", "db_url", "dice", "rules"]

CAROL = 303


@pytest.fixture
async def service(
    db: Database, rules: Ruleset, clock: FakeClock, dice: QueuedDice
) -> AsyncIterator[RulesService]:
    yield RulesService(
        db, rules, clock=clock, dice_factory=dice.factory(), announcer=RichAnnouncer()
    )


class Commits:
    """Counts the transactions the service commits (``Database.write`` calls)."""

    def __init__(self, db: Database) -> None:
        self.count = 0
        real = db.write

        async def counted(work: Callable[[Connection], Any], *, inline: bool = True) -> Any:
            self.count += 1
            return await real(work, inline=inline)

        db.write = counted  # type: ignore[method-assign]


async def _orders(service: RulesService, cid: int) -> list[str]:
    rows = await service.db.read(lambda conn: repo.list_orders(conn, cid))
    return [r.type for r in rows]


async def _audit(service: RulesService, cid: int) -> list[str]:
    return [a.action for a in await service.audit_log(cid)]


async def test_substitute_mid_turn_is_one_transaction(service: RulesService) -> None:
    """R-PBP-UMP-01, R-SETUP-02: handing the Dawnians to Carol in their turn commits once:
    the member, the bot's ``SetPlayers`` order (R-VIC-01), the notices, the turn panel posted
    again in the orders thread, and the audit entry."""
    cid = await _started(service)
    commits = Commits(service.db)
    before = await _orders(service, cid)

    previous = await service.substitute(cid, "DAW", CAROL, by=UMPIRE)

    assert previous == PLAYER_DAW
    assert commits.count == 1
    assert await _orders(service, cid) == [*before, "SetPlayers"]
    assert (await service.get_state(cid)).players["DAW"] == str(CAROL)
    assert (await service.players(cid))["DAW"] == CAROL
    assert (await _audit(service, cid))[-1] == "faction_substituted"
    rows = await service.db.read(lambda conn: repo.outbox_rows(conn, cid))
    again = [
        r for r in rows if r.channel_key == ChannelKey.orders("DAW") and "replaces" in r.payload
    ]
    assert len(again) == 1  # the panel, posted again for Carol, in the same transaction


async def test_substitute_outside_the_factions_turn_posts_no_panel(
    service: RulesService,
) -> None:
    """R-PBP-UMP-01: the Acherousians' turn has not begun, so no panel is posted for them."""
    cid = await _started(service)
    commits = Commits(service.db)
    await service.substitute(cid, "ACH", CAROL, by=UMPIRE)
    assert commits.count == 1
    rows = await service.db.read(lambda conn: repo.outbox_rows(conn, cid))
    assert not [
        r for r in rows if r.channel_key == ChannelKey.orders("ACH") and "replaces" in r.payload
    ]


async def test_assign_and_unassign_under_way_are_one_transaction_each(
    service: RulesService,
) -> None:
    """R-SETUP-02, R-PBP-UMP-02: under way, each assignment and unassignment commits once,
    with the bot's ``SetPlayers`` that tells the rules (R-VIC-01)."""
    cid = await _started(service)
    commits = Commits(service.db)
    before = await _orders(service, cid)
    assert await service.unassign(cid, "ACH", by=UMPIRE)
    assert commits.count == 1
    assert "ACH" not in (await service.get_state(cid)).players
    assert await service.assign(cid, CAROL, "ACH", by=UMPIRE)
    assert commits.count == 2
    assert (await service.get_state(cid)).players["ACH"] == str(CAROL)
    assert await _orders(service, cid) == [*before, "SetPlayers", "SetPlayers"]


async def test_start_tells_the_players_and_starts_in_one_transaction(
    service: RulesService,
) -> None:
    """R-TURN-01, R-SETUP-02: ``/campaign start`` commits once: ``SetPlayers`` then
    ``StartCampaign``, in that order."""
    info = await service.create_campaign(1, "One", "default", UMPIRE, umpire_user_id=UMPIRE)
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.assign(info.id, PLAYER_ACH, "ACH")
    commits = Commits(service.db)
    await service.start(info.id, Actor(UMPIRE))
    assert commits.count == 1
    assert await _orders(service, info.id) == ["SetPlayers", "StartCampaign"]
    state = await service.get_state(info.id)
    assert state.players == {"ACH": str(PLAYER_ACH), "DAW": str(PLAYER_DAW)}
    assert await service.replay(info.id) == state


async def test_export_commits_its_audit_entry_once_and_nothing_when_too_large(
    service: RulesService,
) -> None:
    """Decision 0023: an export writes one transaction (its audit entry); one larger than the
    limit Discord gives is refused, saying both sizes and what to do, and logs nothing."""
    cid = await _started(service)
    commits = Commits(service.db)
    _name, data = await service.export_campaign(cid, by=UMPIRE, limit=10 * 1024 * 1024)
    assert commits.count == 1
    assert (await _audit(service, cid))[-1] == "campaign_exported"
    logged = len(await _audit(service, cid))

    with pytest.raises(ExportTooLarge) as refused:
        await service.export_campaign(cid, by=UMPIRE, limit=len(data) - 1)
    assert commits.count == 1
    assert len(await _audit(service, cid)) == logged
    words = str(refused.value)
    assert f"({len(data):,} bytes)" in words and f"({len(data) - 1:,} bytes)" in words
    assert "Server Boost" in (refused.value.allowed or "")


async def test_umpire_deadline_moves_and_windows_are_one_transaction(
    service: RulesService,
) -> None:
    """R-PBP-UMP-03, R-PBP-DEAD-01: ``/umpire deadline hours:2 turn_default:36
    reaction_default:8`` commits once: the turn deadline 2 h later (T0+26 h), and both windows
    changed from the next turn start (two ``SetOption`` orders). A window the option refuses
    changes nothing at all, not even the deadline."""
    cid = await _started(service)
    (before,) = await service.deadlines(cid)
    commits = Commits(service.db)
    orders = await _orders(service, cid)
    moved, results = await service.umpire_deadlines(
        cid,
        Actor(UMPIRE),
        hours=2,
        windows={"turn_deadline_hours": 36, "reaction_deadline_hours": 8},
    )
    assert commits.count == 1
    assert [(k, a - b) for k, b, a in moved] == [(before.decision_key, timedelta(hours=2))]
    assert len(results) == 2
    assert await _orders(service, cid) == [*orders, "SetOption", "SetOption"]
    nxt = (await service.get_state(cid)).options_next
    assert nxt is not None
    assert (nxt.turn_deadline_hours, nxt.reaction_deadline_hours) == (36, 8)
    (after,) = await service.deadlines(cid)
    assert after.due_at == before.due_at + timedelta(hours=2)

    with pytest.raises(RuleViolation):
        await service.umpire_deadlines(
            cid, Actor(UMPIRE), hours=2, windows={"turn_deadline_hours": -3}
        )
    assert commits.count == 1
    (still,) = await service.deadlines(cid)
    assert still.due_at == after.due_at


async def test_a_negotiation_thread_and_its_first_post_are_one_transaction(
    service: RulesService,
) -> None:
    """R-PBP-NEG-01: ``/negotiate`` commits once: the thread, its members and its first post;
    opened again, the thread is reused and nothing is posted again."""
    cid = await _started(service)
    key = ChannelKey.talks("ACH", "DAW")
    commits = Commits(service.db)
    record, made = await service.open_thread(
        cid, key, "talks-ach-daw", [PLAYER_DAW, PLAYER_ACH], first_post="Hello"
    )
    assert (record, made, commits.count) == (None, True, 1)
    again, made = await service.open_thread(
        cid, key, "talks-ach-daw", [PLAYER_DAW], first_post="Hello"
    )
    assert again is not None and not made and commits.count == 2
    rows = await service.db.read(lambda conn: repo.outbox_rows(conn, cid))
    posts = [r for r in rows if r.channel_key == key and r.payload.get("content") == "Hello"]
    assert len(posts) == 1


async def test_importing_an_unfinished_campaign_is_one_transaction(
    service: RulesService,
) -> None:
    """Decision 0023: ``/campaign import`` of an unfinished campaign's file commits once: the
    new campaign with its set-up, its ``ContinueFrom`` (the exported state, a fresh seed) and
    its audit entry."""
    cid = await _started(service)
    _name, data = await service.export_campaign(cid, by=UMPIRE)
    commits = Commits(service.db)
    info, _export = await service.import_campaign(1, "Again", data, UMPIRE)
    assert commits.count == 1
    assert await _orders(service, info.id) == ["ContinueFrom"]
    assert (await _audit(service, info.id))[-2:] == ["campaign_created", "campaign_imported"]
    state = await service.get_state(info.id)
    old = await service.get_state(cid)
    assert (state.round, state.active, state.step) == (old.round, old.active, old.step)
    assert state.dice_seed != old.dice_seed
    service.forget()
    assert await service.replay(info.id) == state
    assert (await service.get_campaign(info.id)).status.value == "active"
