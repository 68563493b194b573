"""The service's cache of campaign states is bounded: it forgets the least recently used
campaign first, and a forgotten campaign reads back exactly what it had (design.md section 4:
the last state of each campaign cached by its version). Correctness only, never timings."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TypeVar

import pytest
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignStatus
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.mappers import dump_state
from caedes_bot.service import Actor, RulesService, core
from caedes_bot.settings import DEFAULT_CACHE_SIZE, Settings
from tests.persistence.fixtures import db, db_template, db_url
from tests.persistence.support import (
    StandInBump,
    small_ruleset,
    stand_in_apply,
    stand_in_new_game,
)

__all__ = ["db", "db_template", "db_url"]

T = TypeVar("T")
PLAYER_DAW = 101
PLAYER_ORC = 102
UMPIRE = 900
T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def _service(db: Database, cache_size: int) -> RulesService:
    return RulesService(
        db,
        small_ruleset(),
        apply=stand_in_apply,
        new_game=stand_in_new_game,
        clock=lambda: T0,
        cache_size=cache_size,
    )


async def _campaign(service: RulesService, name: str) -> int:
    info = await service.create_campaign(1, name, "test", created_by=UMPIRE, umpire_user_id=UMPIRE)
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.assign(info.id, PLAYER_ORC, "ORC")
    await service.set_status(info.id, CampaignStatus.ACTIVE, by=UMPIRE)
    return info.id


async def test_the_cache_forgets_the_least_recently_used_campaign(db: Database) -> None:
    service = _service(db, cache_size=2)
    a = await _campaign(service, "A")
    b = await _campaign(service, "B")
    assert service.cached_campaigns() == [a, b]
    await service.get_view(a)  # A is now the most recently used
    assert service.cached_campaigns() == [b, a]
    c = await _campaign(service, "C")
    assert service.cached_campaigns() == [a, c]  # B, least recently used, is forgotten
    await service.submit(a, Actor(PLAYER_DAW), StandInBump("DAW"))
    await service.get_state(b)  # read back; C is now the least recently used
    assert service.cached_campaigns() == [a, b]
    assert len(service.cached_campaigns()) <= service.cache_size


async def test_a_forgotten_campaign_reads_back_identical_state(db: Database) -> None:
    """What a campaign holds in the cache and what it reads back after being forgotten are
    the same: the state, the row, the players and the deadlines."""
    service = _service(db, cache_size=1)
    a = await _campaign(service, "A")
    for amount in (1, 2, 3):
        await service.submit(a, Actor(PLAYER_DAW), StandInBump("DAW", amount=amount))
    await service.submit(a, Actor(PLAYER_ORC), StandInBump("ORC", amount=4))
    state, view = await service.get_state(a), await service.get_view(a)
    await _campaign(service, "B")  # A is forgotten
    assert service.cached_campaigns() != [a]
    again = await service.get_state(a)
    assert again is not state
    assert dump_state(again) == dump_state(state)
    assert await service.get_view(a) == view


async def test_orders_on_campaigns_forgotten_in_turn_give_the_state_replay_gives(
    db: Database,
) -> None:
    """Two campaigns played in turn with a cache of one: every order finds its campaign
    forgotten and reads it back, and the stored states are those the order logs replay to."""
    service = _service(db, cache_size=1)
    a, b = await _campaign(service, "A"), await _campaign(service, "B")
    for n in range(6):
        campaign = (a, b)[n % 2]
        await service.submit(campaign, Actor(PLAYER_DAW), StandInBump("DAW", amount=n + 1))
    for campaign, total in ((a, 10 + 1 + 3 + 5), (b, 10 + 2 + 4 + 6)):
        replayed = await service.replay(campaign)  # raises if the stored state differs
        assert replayed.factions["DAW"].rp == total
        assert (await service.get_state(campaign)).factions["DAW"].rp == total


async def test_a_read_under_way_while_the_campaign_changes_is_not_cached(
    db: Database,
) -> None:
    """A read of a forgotten campaign that started before an order and ends after it (and
    after the campaign was forgotten again) must not put the older state back in the cache."""
    service = _service(db, cache_size=1)
    a, b = await _campaign(service, "A"), await _campaign(service, "B")
    read, release = asyncio.Event(), asyncio.Event()
    plain_read = db.read
    gated: list[bool] = []

    async def slow_first_read(work: Callable[[Connection], T], *, inline: bool = False) -> T:
        result = await plain_read(work, inline=inline)
        if not gated:  # the first read only: it has read, and waits to come back
            gated.append(True)
            read.set()
            await release.wait()
        return result

    db.read = slow_first_read  # type: ignore[method-assign]
    try:
        looking = asyncio.ensure_future(service.get_state(a))
        await read.wait()  # it has read A as it was before the order
        await service.submit(a, Actor(PLAYER_DAW), StandInBump("DAW", amount=5))
        await service.get_state(b)  # A is forgotten again
        assert service.cached_campaigns() == [b]
        release.set()
        seen = await looking
    finally:
        db.read = plain_read  # type: ignore[method-assign]
    assert seen.factions["DAW"].rp == 15
    assert (await service.get_state(a)).factions["DAW"].rp == 15


async def test_a_forgotten_campaign_is_read_inline_on_sqlite_only(db: Database) -> None:
    """Decision 0009 ("reads inline"): the read of a campaign not cached runs on the event
    loop's thread on SQLite (it is about a millisecond, the hand-off to a reader thread costs
    as much), and on a reader thread on PostgreSQL, where it waits on the network."""
    service = _service(db, cache_size=1)
    a, b = await _campaign(service, "A"), await _campaign(service, "B")
    plain_read = db.read
    threads: list[str] = []

    async def watched(work: Callable[[Connection], T], *, inline: bool = False) -> T:
        def where(conn: Connection) -> T:
            threads.append(threading.current_thread().name)
            return work(conn)

        return await plain_read(where, inline=inline)

    db.read = watched  # type: ignore[method-assign]
    try:
        state = await service.get_state(a)  # A was forgotten when B was made
    finally:
        db.read = plain_read  # type: ignore[method-assign]
    assert service.cached_campaigns() == [a]
    assert state.factions["DAW"].rp == 10
    here = threading.current_thread().name
    assert threads and all((t == here) is (not db.shared) for t in threads)
    del b


def test_the_cache_size_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert DEFAULT_CACHE_SIZE == core.DEFAULT_CACHE_SIZE  # the setting's default is the service's
    assert Settings(_env_file=None).state_cache_size == DEFAULT_CACHE_SIZE  # type: ignore[call-arg]
    monkeypatch.setenv("CAEDES_STATE_CACHE_SIZE", "7")
    assert Settings(_env_file=None).state_cache_size == 7  # type: ignore[call-arg]
    monkeypatch.setenv("CAEDES_STATE_CACHE_SIZE", "0")
    with pytest.raises(ValueError):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_a_cache_of_no_campaign_is_refused(db: Database) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        _service(db, cache_size=0)


async def test_a_forgotten_campaign_reads_back_members_and_deadlines_changed_meanwhile(
    db: Database,
) -> None:
    """While a campaign is out of the cache, its members and deadlines change (here through
    another service on the same database: a substitute, a deadline moved and one acted on):
    read back, it shows the changes, not what it held before it was forgotten."""
    service = _service(db, cache_size=1)
    other = _service(db, cache_size=1)
    a = await _campaign(service, "A")
    await service.submit(a, Actor(PLAYER_DAW), StandInBump("DAW"))
    before = await service.get_view(a)
    assert before.players == {"DAW": PLAYER_DAW, "ORC": PLAYER_ORC}
    (turn,) = await other.deadlines(a)
    await _campaign(service, "B")  # A is forgotten
    assert a not in service.cached_campaigns()
    await other.substitute(a, "DAW", 555, by=UMPIRE)
    later = turn.due_at + timedelta(hours=5)
    await other.move_deadline(turn, later, by=UMPIRE)
    again = await service.get_view(a)
    assert again.players == {"DAW": 555, "ORC": PLAYER_ORC}
    assert again.deadlines == {turn.decision_key: later}
    (moved,) = await other.deadlines(a)
    await _campaign(service, "C")  # A is forgotten again
    await other.mark_deadline_fired(moved)
    assert (await service.get_view(a)).deadlines == {}
    assert await service.get_view(a) == await other.get_view(a)
