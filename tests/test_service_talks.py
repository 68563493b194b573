"""Negotiation threads at the service once the campaign is over (R-PBP-NEG-01, R-PBP-UMP-05): a
finished campaign stays readable, so ``open_thread`` finds a thread made before, but it makes
no new one.

The campaign is the scheduler tests' one: the default scenario, the Dawnians' turn 1 under way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from caedes_bot.domain.places import ChannelKey
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.service import Actor, CampaignNotActive, RulesService
from caedes_bot.ui.announcer import RichAnnouncer
from tests.persistence.fixtures import db, db_template, db_url
from tests.test_service_scheduler import (
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

TALKS = ChannelKey.talks("DAW", "ACH")


@pytest.fixture
async def service(
    db: Database, rules: Ruleset, clock: FakeClock, dice: QueuedDice
) -> AsyncIterator[RulesService]:
    yield RulesService(
        db, rules, clock=clock, dice_factory=dice.factory(), announcer=RichAnnouncer()
    )


async def test_r_pbp_ump_05_a_finished_campaign_makes_no_new_thread(
    service: RulesService,
) -> None:
    """R-PBP-UMP-05: once the campaign is over a thread made before is still found, but a new
    one is refused with the reason, and nothing is queued or logged for it."""
    cid = await _started(service)
    other = ChannelKey.talks("DAW", "ORC")
    await service.open_thread(cid, TALKS, "talks-daw-ach", [PLAYER_DAW], first_post="Talks begin.")
    await service.finish(cid, Actor(UMPIRE))
    record, made = await service.open_thread(cid, TALKS, "talks-daw-ach", [PLAYER_DAW])
    assert record is not None and not made
    audit = len(await service.audit_log(cid))
    with pytest.raises(CampaignNotActive) as refused:
        await service.open_thread(cid, other, "talks-daw-orc", [PLAYER_DAW], first_post="Hello.")
    assert "is over" in str(refused.value)
    rows = await service.db.read(lambda conn: repo.outbox_rows(conn, cid))
    assert not [r for r in rows if r.channel_key == other]
    assert other not in await service.channels(cid)
    assert len(await service.audit_log(cid)) == audit
