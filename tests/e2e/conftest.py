"""Fixtures for end-to-end tests: the fake Discord, a migrated database, the real bot.

* ``fake``: a started :class:`~tests.fakediscord.FakeDiscord` with discord.py pointed at it;
* ``database_url``: a SQLite file in ``tmp_path``, copied from one migrated to head once per
  session (Alembic runs in the session fixture, before any event loop);
* ``make_bot``: starts a :class:`~caedes_bot.app.CaedesBot` against the fake and returns its
  :class:`~tests.e2e.harness.BotRunner`; call it again after ``stop()`` for a restart on the same
  database. Every bot is stopped at the end and the test fails on any ERROR log record, fake
  bug or unknown route;
* ``bot``: one started bot.

A gameplay cog listed in ``caedes_bot.app.EXTENSIONS`` is loaded and synced by these bots
with no change here.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from caedes_bot.app import REQUIRED_PERMISSIONS, CaedesBot
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.db import migrate_to_head
from caedes_bot.settings import Settings
from tests.e2e.harness import BotRunner, ErrorCatcher, pointed_at
from tests.fakediscord import FakeDiscord

#: Outbox retry delays for tests: fast, but still exponential and capped.
FAST_OUTBOX = {"base_delay": 0.01, "max_delay": 0.05, "idle_poll": 5.0, "edit_interval": 0.0}

MakeBot = Callable[..., Awaitable[BotRunner]]


@pytest.fixture(scope="session")
def ruleset() -> Ruleset:
    """The shipped game data, loaded once."""
    return load_ruleset()


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file migrated to head once per session (copied for each test)."""
    path = tmp_path_factory.mktemp("db") / "template.db"
    migrate_to_head(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture
def database_url(tmp_path: Path, migrated_template: Path) -> str:
    target = tmp_path / "caedes.db"
    shutil.copyfile(migrated_template, target)
    for suffix in ("-wal", "-shm"):
        extra = migrated_template.with_name(migrated_template.name + suffix)
        if extra.exists():
            shutil.copyfile(extra, target.with_name(target.name + suffix))
    return f"sqlite+aiosqlite:///{target}"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(bot_permissions=REQUIRED_PERMISSIONS.value)
    await server.start()
    try:
        with pointed_at(server):
            yield server
    finally:
        await server.stop()


@pytest.fixture
def errors() -> Iterator[ErrorCatcher]:
    catcher = ErrorCatcher()
    catcher.install()
    try:
        yield catcher
    finally:
        catcher.uninstall()


@pytest.fixture
async def make_bot(
    fake: FakeDiscord, database_url: str, ruleset: Ruleset, errors: ErrorCatcher
) -> AsyncIterator[MakeBot]:
    runners: list[BotRunner] = []

    async def start(*, dev_guild: bool = True, **options: Any) -> BotRunner:
        settings = Settings(
            discord_token=fake.token,
            database_url=database_url,
            dev_guild_ids=[fake.guild_id] if dev_guild else [],
        )
        options.setdefault("outbox_options", FAST_OUTBOX)
        options.setdefault("guild_ready_timeout", 0.01)
        options.setdefault("ruleset", ruleset)  # ruleset=None: the bot loads the game data
        bot = CaedesBot(settings, **options)
        runner = BotRunner(fake, bot, errors)
        runners.append(runner)
        return await runner.start()

    try:
        yield start
    finally:
        for runner in runners:
            if runner.task is not None or not runner.bot.is_closed():
                await runner.stop()
    problems = fake.problems()
    if errors.records:
        problems.append("ERROR records:\n" + errors.describe())
    if problems:
        pytest.fail("\n".join(problems))


@pytest.fixture
async def bot(make_bot: MakeBot) -> BotRunner:
    return await make_bot()
