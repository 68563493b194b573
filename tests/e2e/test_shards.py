"""Discord shards (decision 0025): the shard settings, the bot each gives, and the fake gateway
announcing to a shard's session only the guilds of that shard, as Discord does (a guild is on
shard ``(guild_id >> 22) % shard_count``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from caedes_bot.app import CaedesBot, ShardedCaedesBot, make_bot, shard_options
from caedes_bot.domain.shards import Shards, shard_of
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.settings import Settings, settings_error_line
from tests.e2e.conftest import FAST_OUTBOX
from tests.e2e.harness import BotRunner, ErrorCatcher
from tests.fakediscord import FakeDiscord


def test_shard_settings_name_the_shards_a_process_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CAEDES_SHARD_COUNT", "4")
    monkeypatch.setenv("CAEDES_SHARD_IDS", "3, 1")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.shards == Shards(4, frozenset({1, 3}))
    assert shard_options(settings) == {"shard_ids": [1, 3], "shard_count": 4}
    monkeypatch.delenv("CAEDES_SHARD_COUNT")
    monkeypatch.delenv("CAEDES_SHARD_IDS")
    assert Settings(shard_count=4, shard_ids=[2]).shards.serves(2 << 22)
    assert shard_options(Settings(shard_count=4, shard_ids=[2])) == {
        "shard_id": 2,
        "shard_count": 4,
    }
    assert shard_options(Settings()) == {} and Settings().shards.all
    assert shard_options(Settings(shard_count=2)) == {"shard_ids": [0, 1], "shard_count": 2}


def test_a_shard_id_out_of_range_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAEDES_SHARD_COUNT", "2")
    monkeypatch.setenv("CAEDES_SHARD_IDS", "2")
    with pytest.raises(ValidationError) as err:
        Settings(_env_file=None)  # type: ignore[call-arg]
    line = settings_error_line(err.value)
    assert "CAEDES_SHARD_IDS" in line and "0 to CAEDES_SHARD_COUNT - 1" in line


def test_make_bot_gives_an_auto_sharded_bot_for_several_shards() -> None:
    one = make_bot(Settings(shard_count=2, shard_ids=[1]), extensions=())
    several = make_bot(Settings(shard_count=2), extensions=())
    assert type(one) is CaedesBot and (one.shard_id, one.shard_count) == (1, 2)
    assert isinstance(several, ShardedCaedesBot) and several.shard_ids == [0, 1]


async def test_each_process_sees_only_the_guilds_of_its_shard(
    fake: FakeDiscord, database_url: str, ruleset: Ruleset, errors: ErrorCatcher
) -> None:
    """Two bots of one deployment, shard 0 and shard 1 of 2, and a bot running both: each
    is told of, and caches, only the guilds of its shards."""
    first = fake.guild_id
    second = fake.add_guild("Second Guild")
    while shard_of(second, 2) == shard_of(first, 2):
        second = fake.add_guild("Another Guild")
    guilds = set(fake.world.guild_ids)
    on = {n: {g for g in guilds if shard_of(g, 2) == n} for n in (0, 1)}
    runners: list[BotRunner] = []
    try:
        seen: dict[int | None, set[int]] = {}
        for ids in ([shard_of(first, 2)], [shard_of(second, 2)], []):
            settings = Settings(
                discord_token=fake.token,
                database_url=database_url,
                shard_count=2,
                shard_ids=ids,
                sync_commands=False,
            )
            bot = make_bot(
                settings, ruleset=ruleset, outbox_options=FAST_OUTBOX, guild_ready_timeout=0.01
            )
            runner = BotRunner(fake, bot, errors)
            runners.append(runner)
            await runner.start()
            seen[ids[0] if ids else None] = {g.id for g in bot.guilds}
            assert bot.service.shards == settings.shards
            await runner.stop()
        assert seen == {0: on[0], 1: on[1], None: guilds}
        assert first in on[shard_of(first, 2)] and second in on[shard_of(second, 2)]
    finally:
        for runner in runners:
            if runner.task is not None:
                await runner.stop()
    assert not errors.records, errors.describe()
