"""The dice seed in public (decision 0023, R-GEN-01): its SHA-256 is posted in
``#announcements`` by the transaction that starts the campaign, the seed itself by the one that
finishes it, and nothing the bot writes shows the seed before that."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignStatus, OutboxRecord
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.rules.dice import seed_commitment
from caedes_bot.service import Actor, RulesService
from tests.persistence.fixtures import db, db_template, db_url
from tests.test_service_game import PLAYER_DAW, UMPIRE, play_first_round

__all__ = ["db", "db_template", "db_url"]


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


@pytest.fixture
async def service(db: Database, rules: Ruleset) -> AsyncIterator[RulesService]:
    yield RulesService(db, rules)


async def _rows(db: Database, campaign_id: int) -> list[OutboxRecord]:
    def _q(conn: Connection) -> list[OutboxRecord]:
        return repo.outbox_rows(conn, campaign_id)

    return await db.read(_q)


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    """Worked by hand: SHA-256 of the three bytes "abc" is the FIPS 180-2 example digest."""
    assert seed_commitment("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


async def test_commitment_at_the_start_and_the_seed_only_at_the_end(
    service: RulesService, db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    info = await service.create_campaign(1, "Seeds", "default", UMPIRE, umpire_user_id=UMPIRE)
    await service.assign(info.id, PLAYER_DAW, "DAW")
    seed = (await service.get_state(info.id)).dice_seed
    digest = hashlib.sha256(seed.encode()).hexdigest()
    assert not [r for r in await _rows(db, info.id) if digest in str(r.payload)]

    await service.start(info.id, Actor(UMPIRE))
    rows = await _rows(db, info.id)
    commits = [r for r in rows if r.dedupe_key == "dice:commitment"]
    assert len(commits) == 1 and commits[0].channel_key == "announcements"
    assert digest in commits[0].payload["content"]

    await play_first_round(service, info.id)  # a battle: the seeded dice roll
    assert (await service.get_state(info.id)).dice_rolls > 0
    rows = await _rows(db, info.id)
    assert not [r for r in rows if seed in str(r.payload)]  # no post, edit or thread
    assert seed not in caplog.text

    await service.set_status(info.id, CampaignStatus.FINISHED, by=UMPIRE)
    reveal = [r for r in await _rows(db, info.id) if r.dedupe_key == "dice:reveal"]
    assert len(reveal) == 1 and reveal[0].channel_key == "announcements"
    assert seed in reveal[0].payload["content"] and digest in reveal[0].payload["content"]
    # finishing twice reveals once
    await service.set_status(info.id, CampaignStatus.FINISHED, by=UMPIRE)
    assert len([r for r in await _rows(db, info.id) if r.dedupe_key == "dice:reveal"]) == 1
