"""The service's listeners (the outbox's and scheduler's wakes) can be held back while the
Discord edge answers an interaction, so the answer goes before any outbox work."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from caedes_bot.domain.records import CampaignStatus
from caedes_bot.persistence.db import Database
from caedes_bot.service import Actor, RulesService
from tests.persistence.fixtures import db, db_template, db_url
from tests.persistence.support import (
    StandInBump,
    small_ruleset,
    stand_in_apply,
    stand_in_new_game,
)

__all__ = ["db", "db_template", "db_url"]

PLAYER_DAW = 101
UMPIRE = 900


async def _service_and_campaigns(db: Database) -> tuple[RulesService, int, int, list[int]]:
    service = RulesService(
        db,
        small_ruleset(),
        apply=stand_in_apply,
        new_game=stand_in_new_game,
        clock=lambda: datetime(2030, 1, 1, tzinfo=UTC),
    )
    ids = []
    for name in ("A", "B"):
        info = await service.create_campaign(
            1, name, "test", created_by=UMPIRE, umpire_user_id=UMPIRE
        )
        await service.assign(info.id, PLAYER_DAW, "DAW")
        await service.set_status(info.id, CampaignStatus.ACTIVE, by=UMPIRE)
        ids.append(info.id)
    woken: list[int] = []
    service.add_listener(woken.append)
    return service, ids[0], ids[1], woken


async def test_held_wakes_wait_for_the_release_and_come_once_per_campaign(db: Database) -> None:
    service, a, b, woken = await _service_and_campaigns(db)
    hold = service.hold_wakes()
    for campaign in (a, b, a):
        await service.submit(campaign, Actor(PLAYER_DAW), StandInBump("DAW"))
    assert woken == [] and hold.held == (a, b)
    hold.release()
    assert woken == [a, b]
    hold.release()  # a second release wakes nothing again
    assert woken == [a, b]
    await service.submit(b, Actor(PLAYER_DAW), StandInBump("DAW"))  # released: at once
    assert woken == [a, b, b]


async def test_a_hold_belongs_to_the_task_that_made_it(db: Database) -> None:
    service, a, b, woken = await _service_and_campaigns(db)
    committed, gate = asyncio.Event(), asyncio.Event()

    async def answering() -> None:
        hold = service.hold_wakes()
        await service.submit(a, Actor(PLAYER_DAW), StandInBump("DAW"))
        committed.set()
        await gate.wait()  # the answer is being sent
        hold.release()

    task = asyncio.ensure_future(answering())
    await committed.wait()
    await service.submit(b, Actor(PLAYER_DAW), StandInBump("DAW"))  # another task: not held
    assert woken == [b]
    gate.set()
    await task
    assert woken == [b, a]
