"""Running a real discord.py bot against :class:`~tests.fakediscord.FakeDiscord`.

:func:`pointed_at` sends discord.py's REST and gateway traffic to the fake (and restores the
real addresses after). :class:`BotRunner` logs the bot in (which runs ``setup_hook``), starts the
gateway as a task the fake watches, waits for READY, and stops the bot cleanly. It collects every
ERROR log record of the ``discord`` and ``caedes_bot`` loggers: errors inside commands are logged
by discord.py, not raised, so a test checks :meth:`BotRunner.assert_clean` (the fixtures do).

The gameplay cogs reuse this unchanged: a new cog listed in ``caedes_bot.app.EXTENSIONS`` is
loaded and synced by every bot the fixtures start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator

import discord
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

from tests.fakediscord import FakeDiscord

#: the bot's loggers, discord.py's, and asyncio's (a task of the bot's that failed with no one
#: awaiting it is reported there, "Task exception was never retrieved")
WATCHED_LOGGERS = ("discord", "caedes_bot", "asyncio")


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py at ``fake`` for the duration (REST base and default gateway)."""
    old_base = discord.http.Route.BASE
    old_gateway: yarl.URL = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = fake.gateway_url
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


class ErrorCatcher(logging.Handler):
    """Keeps every record at ERROR or above from the watched loggers."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.listeners: list[Callable[[], None]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # another thread: the next wake-up of a wait sees the record
        for listener in self.listeners:
            listener()

    def install(self) -> None:
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).addHandler(self)

    def uninstall(self) -> None:
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).removeHandler(self)

    def describe(self) -> str:
        lines = []
        for r in self.records:
            text = f"{r.name}: {r.getMessage()}"
            if r.exc_info:
                text += "\n" + logging.Formatter().formatException(r.exc_info)
            lines.append(text)
        return "\n".join(lines)


class BotRunner:
    """One bot's life against the fake: :meth:`start`, use, :meth:`stop`.

    Attributes:
        bot: the bot (a ``commands.Bot``, normally :class:`caedes_bot.app.CaedesBot`).
        task: the gateway task (``bot.connect``), watched by the fake.
        errors: ERROR records logged while it ran.
    """

    def __init__(self, fake: FakeDiscord, bot: commands.Bot, errors: ErrorCatcher) -> None:
        self.fake = fake
        self.bot = bot
        self.errors = errors
        self.task: asyncio.Task[None] | None = None
        #: while ``False`` (the default) an ERROR record fails the test's current wait at once
        self.allow_errors = False
        errors.listeners.append(fake.signal.fire)
        fake.signal.checks.append(self._fail_on_error)

    def _fail_on_error(self) -> None:
        if self.errors.records and not self.allow_errors:
            raise AssertionError("the bot logged an error:\n" + self.errors.describe())

    @contextlib.contextmanager
    def expect_errors(self) -> Iterator[list[logging.LogRecord]]:
        """Within the block ERROR records are expected: they are handed over, then cleared."""
        self.allow_errors = True
        try:
            yield self.errors.records
        finally:
            self.allow_errors = False
            self.errors.records.clear()

    async def start(self, *, timeout: float = 10.0) -> BotRunner:
        """Log in (runs ``setup_hook``: database, cogs, command sync), connect, wait for READY."""
        await self.bot.login(self.fake.token)
        self.task = asyncio.create_task(self.bot.connect(reconnect=False), name="bot-gateway")
        self.fake.watch(self.task)
        ready = asyncio.ensure_future(self.bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, self.task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if self.task.done():
                self.fake.signal.check_watched()
            raise AssertionError(f"the bot was not ready within {timeout}s")
        return self

    async def stop(self) -> None:
        """Close the bot (its ``close`` stops what ``setup_hook`` started) and end the gateway task."""
        task = self.task
        if task is not None:
            self.fake.unwatch(task)
        if self._fail_on_error in self.fake.signal.checks:
            self.fake.signal.checks.remove(self._fail_on_error)
        if self.fake.signal.fire in self.errors.listeners:
            self.errors.listeners.remove(self.fake.signal.fire)
        await self.bot.close()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, timeout=10.0)
        self.task = None

    def assert_clean(self) -> None:
        """Fail if the bot logged an error or the fake met a bug or an unknown route."""
        problems = self.fake.problems()
        if self.errors.records:
            problems.append("ERROR records:\n" + self.errors.describe())
        if problems:
            raise AssertionError("\n".join(problems))
