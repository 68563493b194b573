"""CaedesBot: the discord.py application (design.md sections 1, 2 and 5).

``setup_hook`` runs once, after login and before the gateway connects. It builds the database
engines, loads the game data (:class:`~caedes_bot.gamedata.model.Ruleset`), builds the
:class:`~caedes_bot.service.RulesService`, loads the cogs listed in :data:`EXTENSIONS`, starts
the outbox dispatcher and the scheduler, and syncs the slash commands (to the development
guilds when ``dev_guild_ids`` is set, globally otherwise).

The bot asks for the default gateway intents only: it needs no member list, presences or
message content, because everything it does starts from an interaction or the database.
``close`` stops the background tasks before the connection and the database.

The schema must be at head before the bot starts
(:func:`caedes_bot.persistence.db.migrate_to_head`, called by ``bot.py`` before the loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._checks import ChannelDirectory
from caedes_bot.cogs._errors import handle_app_command_error
from caedes_bot.collector import CollectorPause
from caedes_bot.discord_sender import DiscordSender
from caedes_bot.domain.records import DeliveryProblem
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.outbox import OutboxDispatcher, OutboxRow
from caedes_bot.persistence.db import Database
from caedes_bot.scheduler import Scheduler
from caedes_bot.service import RulesService
from caedes_bot.service.odds import OddsWorker
from caedes_bot.settings import Settings, not_in_server_line
from caedes_bot.ui.announcer import RichAnnouncer
from caedes_bot.ui.mapdraw import MapDrawer
from caedes_bot.ui.replies import hold_wakes
from caedes_bot.ui.views import answer_unmatched

log = logging.getLogger(__name__)

#: Cogs loaded at start, as extension module names. A new cog adds its module here.
EXTENSIONS: tuple[str, ...] = (
    "caedes_bot.cogs.campaign",
    "caedes_bot.cogs.info",
    "caedes_bot.cogs.buy",
    "caedes_bot.cogs.move",
    "caedes_bot.cogs.ships",
    "caedes_bot.cogs.muster",
    "caedes_bot.cogs.summon",
    "caedes_bot.cogs.attack",
    "caedes_bot.cogs.odds",
    "caedes_bot.cogs.turn",
    "caedes_bot.cogs.umpire",
    "caedes_bot.cogs.negotiation",
    "caedes_bot.cogs.trade",
    "caedes_bot.cogs.pacts",
    "caedes_bot.cogs.ending",
    "caedes_bot.cogs.redeem",
    "caedes_bot.cogs.maps",
)

#: What the bot needs in a server (README "Inviting the bot"): view channels, send messages
#: (also in threads), create private threads and manage threads (orders and negotiation
#: threads), create public threads (only so that it may deny it to players in the read-only
#: channels: Discord lets a bot deny only what it holds), manage channels (the campaign's
#: category and channels), manage roles (channel permission overwrites), embed links, attach
#: files (the map), read message history.
REQUIRED_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_private_threads=True,
    create_public_threads=True,
    manage_threads=True,
    manage_channels=True,
    manage_roles=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)

#: OAuth2 scopes of the invite link.
INVITE_SCOPES: tuple[str, ...] = ("bot", "applications.commands")

#: Mentions the bot may make: members only, never @everyone or roles (ux.md "Pings").
ALLOWED_MENTIONS = discord.AllowedMentions(
    everyone=False, roles=False, users=True, replied_user=False
)


#: Discord's JSON error codes for a server the bot may not reach: "Missing access" (a server
#: it is not in) and "Unknown guild" (no such server).
MISSING_ACCESS, UNKNOWN_GUILD = 50001, 10004


class StartupProblem(Exception):
    """Start-up cannot go on because of a setting; the message is the one line to print
    (``bot.py`` prints it and exits with code 2)."""


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with :data:`REQUIRED_PERMISSIONS`."""
    return discord.utils.oauth_url(
        application_id, permissions=REQUIRED_PERMISSIONS, scopes=INVITE_SCOPES
    )


def freeze_heap() -> None:
    """Collect, then move every object alive out of the garbage collector's sight
    (``gc.freeze``): what is alive after start-up lives as long as the process, and scanning it
    again at each full collection paused the event loop for tens of milliseconds (design.md
    section 4). Objects made later are collected as usual."""
    gc.collect()
    gc.freeze()


class CaedesTree(app_commands.CommandTree[Any]):
    """The command tree with the bot's one error handler (see :mod:`caedes_bot.cogs._errors`);
    every command holds the outbox's wakes until it is answered (:func:`hold_wakes`)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        hold_wakes(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await handle_app_command_error(interaction, error)


class CaedesBot(commands.Bot):
    """The Caedes game master bot.

    Args:
        settings: the configuration (token, database URL, development guilds...).
        ruleset: game data already loaded (tests share one); ``None`` loads it from
            ``settings.config_dir`` in ``setup_hook``.
        extensions: the cogs to load; :data:`EXTENSIONS` by default.
        outbox_options: keyword arguments for :class:`~caedes_bot.outbox.OutboxDispatcher`
            (tests shorten the retry delays).
        scheduler_options: keyword arguments for :class:`~caedes_bot.scheduler.Scheduler`
            (tests give it a fake clock).
        service_options: keyword arguments for :class:`~caedes_bot.service.RulesService`
            (tests give it scripted dice with ``dice_factory``). The announcer is the rich one
            of :mod:`caedes_bot.ui.announcer` unless an ``announcer`` is given.
        shutdown_grace: seconds ``close`` lets the outbox finish its current pass.
        stop_on_sigterm: close cleanly on SIGTERM, as on Ctrl-C (``bot.py``: systemd and
            ``scripts/run-shards`` stop the bot with it), so that the outbox finishes the rows
            in flight and the leases and deadline claims are let go (decision 0025).
        freeze_gc: move everything alive after start-up out of the garbage collector's sight
            (:func:`freeze_heap`), at the end of ``setup_hook`` and again at the first READY
            (with the servers in discord.py's cache), which removes its long pauses of the
            event loop (design.md section 4); ``bot.py`` turns it on.
        pause_gc: hold the garbage collector's automatic runs off while an interaction is
            being answered (:class:`~caedes_bot.collector.CollectorPause`), so that they run
            after the answer has gone (on unless turned off).
        options: passed to :class:`discord.ext.commands.Bot` (e.g. ``guild_ready_timeout``).

    Attributes (set by ``setup_hook``):
        db: the database engines. ruleset: the game data. service: the rules service.
        directory: which campaign each channel belongs to. outbox: the outbox dispatcher.
        map_drawer: draws map pictures off the event loop, cached by scene (/map, the outbox).
        odds: battle odds in one worker process, cached by battle (/odds, the panel's Odds).
        scheduler: reminders and passed deadlines.
        collector: the garbage collector's pause (``None`` with ``pause_gc`` off).
    """

    db: Database
    ruleset: Ruleset
    service: RulesService
    map_drawer: MapDrawer
    odds: OddsWorker
    directory: ChannelDirectory
    outbox: OutboxDispatcher
    scheduler: Scheduler

    def __init__(
        self,
        settings: Settings,
        *,
        ruleset: Ruleset | None = None,
        extensions: Sequence[str] = EXTENSIONS,
        outbox_options: Mapping[str, Any] | None = None,
        scheduler_options: Mapping[str, Any] | None = None,
        service_options: Mapping[str, Any] | None = None,
        shutdown_grace: float = 5.0,
        freeze_gc: bool = False,
        pause_gc: bool = True,
        stop_on_sigterm: bool = False,
        **options: Any,
    ) -> None:
        options.setdefault("intents", discord.Intents.default())
        options.setdefault("allowed_mentions", ALLOWED_MENTIONS)
        options.update(shard_options(settings))
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=CaedesTree,
            **options,
        )
        self.settings = settings
        self._given_ruleset = ruleset
        self._extensions = tuple(extensions)
        self._outbox_options = dict(outbox_options or {})
        self._scheduler_options = dict(scheduler_options or {})
        self._service_options = dict(service_options or {})
        self._shutdown_grace = shutdown_grace
        self._freeze_gc = freeze_gc
        self.collector = CollectorPause() if pause_gc else None
        self._stop_on_sigterm = stop_on_sigterm
        self._closing: asyncio.Task[None] | None = None
        self._frozen_at_ready = False
        self._background: list[asyncio.Task[None]] = []
        self._db: Database | None = None
        self.synced: list[app_commands.AppCommand] = []

    async def setup_hook(self) -> None:
        """Database, game data, service, cogs, outbox, scheduler, command sync (in that order)."""
        if self._stop_on_sigterm:
            try:
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._on_sigterm)
            except (RuntimeError, ValueError, NotImplementedError):  # not the main thread
                log.info("SIGTERM will not close the bot cleanly here (not the main thread)")
        self._db = self.db = Database(self.settings.database_url)
        if self._given_ruleset is not None:
            self.ruleset = self._given_ruleset
        else:
            self.ruleset = await asyncio.to_thread(load_ruleset, self.settings.config_dir)
        service_options = {
            "announcer": RichAnnouncer(),
            "cache_size": self.settings.state_cache_size,
            "shards": self.settings.shards,
            **self._service_options,
        }
        self.service = RulesService(self.db, self.ruleset, **service_options)
        self.directory = ChannelDirectory(self.service)
        self.map_drawer = MapDrawer(self.ruleset)
        self.odds = OddsWorker()
        self.service.attach_odds(self.odds)  # battle messages' opening odds (decision 0020)
        for name in self._extensions:
            await self.load_extension(name)
        sender = DiscordSender(
            self,
            owner_of=self._campaign_owning,
            on_failure=self._delivery_failed,
            maps=self.map_drawer,
        )
        outbox_options: dict[str, Any] = {"edit_interval": self.settings.battle_edit_interval}
        outbox_options.update(self._outbox_options)
        self.outbox = OutboxDispatcher(self.service.delivery, sender, **outbox_options)
        self.service.add_listener(self.outbox.wake)
        self._start_background(self.outbox.run(), "caedes-outbox")
        self.scheduler = Scheduler(self.service, **self._scheduler_options)
        self.service.add_listener(self.scheduler.wake)
        self._start_background(self.scheduler.run(), "caedes-scheduler")
        await self.service.resume_opening_odds()
        if self.settings.sync_commands:
            self.synced = await self.sync_commands()
        if self._freeze_gc:
            freeze_heap()

    async def on_ready(self) -> None:
        """The first READY: the servers, channels and members are now in discord.py's cache,
        part of the start-up heap; with ``freeze_gc`` they are frozen too."""
        if self._freeze_gc and not self._frozen_at_ready:
            self._frozen_at_ready = True
            freeze_heap()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction: a click on a control its message no longer shows (edited just
        before the click) is answered too; discord.py would drop it unanswered
        (:func:`~caedes_bot.ui.views.answer_unmatched`)."""
        await answer_unmatched(interaction)

    @property
    def heap_frozen_at_ready(self) -> bool:
        """Whether the heap was frozen at the first READY (``freeze_gc``)."""
        return self._frozen_at_ready

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Sync the slash commands: to each development guild (at once), or globally.

        Raises:
            StartupProblem: a development guild the bot is not in (Discord answers 403, code
                50001) or that does not exist (404, code 10004).
        """
        if not self.settings.dev_guild_ids:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
            return synced
        synced = []
        for guild_id in self.settings.dev_guild_ids:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except (discord.Forbidden, discord.NotFound) as err:
                if err.code not in (MISSING_ACCESS, UNKNOWN_GUILD):
                    raise
                raise StartupProblem(not_in_server_line(guild_id)) from err
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        return synced

    async def _campaign_owning(self, discord_id: int) -> int | None:
        info = await self.service.campaign_for_channel(discord_id)
        return None if info is None else info.id

    async def _delivery_failed(self, row: OutboxRow, error: str) -> None:
        """Discord refused an outbox row for good: the umpire hears of it in ``#umpire``."""
        problem = DeliveryProblem(row.channel_key, row.kind, error, row.payload)
        await self.service.report_delivery_failure(row.campaign_id, row.id, problem)

    def _start_background(self, coro: Any, name: str) -> None:
        task: asyncio.Task[None] = asyncio.create_task(coro, name=name)
        task.add_done_callback(self._background_done)
        self._background.append(task)

    def _background_done(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("background task %s died", task.get_name(), exc_info=exc)

    def _on_sigterm(self) -> None:
        if self._closing is None:
            log.info("SIGTERM: closing")
            self._closing = asyncio.ensure_future(self.close())

    async def _stop_background(self) -> None:
        if not self._background:
            return
        if hasattr(self, "outbox"):
            self.outbox.stop()
        if hasattr(self, "scheduler"):
            self.scheduler.stop()
        tasks, self._background = self._background, []
        _done, pending = await asyncio.wait(tasks, timeout=self._shutdown_grace)
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if hasattr(self, "service"):
            try:  # another process takes this one's queues and deadlines at once
                await self.service.release_claims()
            except Exception:
                log.warning(
                    "could not let go of the outbox leases and deadline claims", exc_info=True
                )

    async def close(self) -> None:
        """Give the garbage collector back for good, stop the outbox and scheduler, then the
        connection, then the database."""
        if self.collector is not None:
            self.collector.close()
        await self._stop_background()
        if hasattr(self, "service"):
            await self.service.stop_opening_odds()
        if hasattr(self, "odds"):
            self.odds.close()
        await super().close()
        db, self._db = self._db, None  # close() may be called twice at once: dispose once
        if db is not None:
            await db.dispose()


def shard_options(settings: Settings) -> dict[str, Any]:
    """The discord.py options of the shards a process runs (decision 0025): none for one
    shard; ``shard_id`` and ``shard_count`` for one shard of several (a plain bot);
    ``shard_ids`` and ``shard_count`` for several (:class:`ShardedCaedesBot`)."""
    if settings.shard_count == 1:
        return {}
    ids = settings.shard_ids or list(range(settings.shard_count))
    if len(ids) == 1:
        return {"shard_id": ids[0], "shard_count": settings.shard_count}
    return {"shard_ids": ids, "shard_count": settings.shard_count}


class ShardedCaedesBot(CaedesBot, commands.AutoShardedBot):
    """The Caedes bot running several shards in one process (discord.py's
    :class:`~discord.ext.commands.AutoShardedBot`); otherwise the same as :class:`CaedesBot`."""


def make_bot(settings: Settings, **options: Any) -> CaedesBot:
    """The bot for ``settings``: :class:`ShardedCaedesBot` when this process runs more than one
    shard, :class:`CaedesBot` otherwise. ``options`` go to the bot's constructor."""
    sharded = "shard_ids" in shard_options(settings)
    cls = ShardedCaedesBot if sharded else CaedesBot
    return cls(settings, **options)
