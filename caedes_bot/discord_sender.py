"""The outbox's :class:`~caedes_bot.outbox.Sender` for Discord (design.md sections 4 and 5).

:class:`DiscordSender` turns one outbox row into Discord calls through discord.py. Delivery is
at least once, so every row is safe to repeat:

* a category, channel or thread is looked up by name under its parent first and reused when it
  exists (unless another campaign owns it), so a retry after a lost answer creates nothing twice;
* a post whose payload carries a ``map`` scene uploads the map picture with it (drawn off the
  event loop by :class:`~caedes_bot.ui.mapdraw.MapDrawer`, the same bytes on every attempt);
* a post carries the row's ``nonce`` with ``enforce_nonce=True``: Discord answers a repeat with
  the message it already made, but only for a few minutes; so a post the dispatcher hands over
  with ``look_first`` (it may have been posted before) is first looked for among the bot's
  own newer messages in the channel, and the copy's id returned if it is there;
* adding or removing a thread member, granting or revoking channel access, or locking or
  unlocking a thread, twice changes nothing.

Threads that Discord archived (it does so after a week without activity, or sooner on a busy
server) refuse message edits and member changes with 400, code 50083. The bot holds Manage
Threads, so before it changes members it unarchives a thread it sees archived, and any 50083
means "unarchive and try again", never a missing permission. Unarchiving sends only
``archived: false``, so a locked thread stays locked. A post flagged ``unarchive`` (the turn
panel, at each turn start of the orders thread's faction) unarchives its thread first.

An edit whose message a moderator deleted (404, code 10008) posts the message afresh and
returns its new id with ``detail["reposted"]`` (unless flagged ``if_gone: skip``, an edit that
only retires the message), so later edits go to the new message (the turn
panel keeps its buttons, the battle message its controls).

Permissions (ux.md "Channels of a campaign"): ``read_only`` channels deny @everyone sending
and opening threads (``#announcements``, ``#battles``); ``private`` channels deny @everyone
viewing and allow the listed members (``#umpire``). The bot gives itself an explicit allow on
both, since a channel overwrite on @everyone would otherwise shut it out too. Orders threads
are private threads that only moderators may invite to. Players keep Send Messages in Threads
under ``#announcements``: their private orders and negotiation threads live there.

A row Discord refuses for good is reported to ``on_failure`` (the bot tells the umpire in
``#umpire``, :meth:`~caedes_bot.service.RulesService.report_delivery_failure`).

Errors are sorted for the dispatcher: a rate limit (429), a Discord outage (5xx) or a network
error is :class:`~caedes_bot.outbox.RetryableError`; any other refusal (4xx: forbidden, unknown
channel, invalid body) is :class:`~caedes_bot.outbox.PermanentError`. A server at one of
Discord's limits (500 channels, 50 in a category, 1,000 active threads) is a permanent error
that says which limit, in words the umpire can act on.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, Literal, TypeVar

import aiohttp
import discord

from caedes_bot.outbox import DeliveryResult, OutboxKind, OutboxRow, PermanentError, RetryableError
from caedes_bot.ui.mapdraw import PICTURE_TOO_LARGE, MapDrawer, map_filename
from caedes_bot.ui.mapscene import MapScene
from caedes_bot.ui.text import EMBEDS_PER_MESSAGE, MESSAGE_LIMIT, fit_embed, truncate

log = logging.getLogger(__name__)

_T = TypeVar("_T")

#: Finds the campaign that owns a Discord channel id (``None``: no campaign).
OwnerLookup = Callable[[int], Awaitable[int | None]]

#: What the bot allows itself in channels it closes to @everyone.
BOT_CHANNEL_ACCESS = discord.PermissionOverwrite(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_private_threads=True,
    manage_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)

#: What a member named in a private channel (the umpire in ``#umpire``) is allowed.
MEMBER_CHANNEL_ACCESS = discord.PermissionOverwrite(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
)

#: Called with a row Discord refused for good and the reason.
FailureHook = Callable[[OutboxRow, str], Awaitable[None]]

#: Minutes of silence before Discord archives a thread (the longest Discord offers: 7 days).
THREAD_ARCHIVE_MINUTES: Final[Literal[10080]] = 10080

#: Discord's JSON error code for an operation on an archived thread (edit, member change).
THREAD_ARCHIVED: Final = 50083
#: Discord's JSON error code for a message that does not exist (any more).
UNKNOWN_MESSAGE: Final = 10008
#: Discord's "Request entity too large": the files of a request are over the upload limit
REQUEST_TOO_LARGE: Final = 40005
#: How many of a channel's messages newer than its queue's last known post are read to find
#: a post Discord may have made already (one request).
LOOK_BACK: Final = 100

#: Discord's JSON error codes for a server at its limits: 500 channels; 1,000 active threads.
MAX_CHANNELS_REACHED: Final = 30013
MAX_ACTIVE_THREADS_REACHED: Final = 160006
#: Discord's form error (50035) on ``parent_id`` for a category already holding 50 channels.
CATEGORY_FULL_TEXT: Final = "Maximum number of channels in category"


def too_large(err: discord.HTTPException) -> bool:
    """Whether Discord refused a request for the size of its files (413, code 40005)."""
    return err.status == 413 or err.code == REQUEST_TOO_LARGE


def limit_reached(err: discord.HTTPException) -> str | None:
    """Which of Discord's server limits ``err`` reports, in words for the umpire, or ``None``."""
    if err.code == MAX_CHANNELS_REACHED:
        return (
            "the server is at Discord's limit of 500 channels (code 30013): delete channels it "
            "no longer needs"
        )
    if err.code == MAX_ACTIVE_THREADS_REACHED:
        return (
            "the server is at Discord's limit of 1,000 active threads (code 160006): archive or "
            "delete threads it no longer needs"
        )
    if CATEGORY_FULL_TEXT in err.text:
        return "the category is at Discord's limit of 50 channels: move some out of it"
    return None


async def _no_owner(_discord_id: int) -> int | None:
    return None


def channel_overwrites(
    guild: discord.Guild, payload: Mapping[str, Any]
) -> dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite]:
    """The permission overwrites of a campaign channel from its outbox payload.

    ``read_only``: @everyone may not send or open threads (public threads only when the bot
    holds Create Public Threads itself: Discord lets a bot deny only what it holds);
    ``private``: @everyone may not view; ``allow_users``: members allowed to view and write.
    The bot allows itself in both.
    """
    overwrites: dict[
        discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite
    ] = {}
    everyone = discord.PermissionOverwrite()
    closed = False
    if payload.get("read_only"):
        everyone.update(send_messages=False, create_private_threads=False)
        if guild.me.guild_permissions.create_public_threads:
            everyone.update(create_public_threads=False)
        closed = True
    if payload.get("private"):
        everyone.update(view_channel=False)
        closed = True
    if closed:
        overwrites[guild.default_role] = everyone
        overwrites[guild.me] = BOT_CHANNEL_ACCESS
    for user_id in payload.get("allow_users") or ():
        overwrites[discord.Object(int(user_id))] = MEMBER_CHANNEL_ACCESS
    return overwrites


def message_fields(payload: Mapping[str, Any]) -> dict[str, Any]:
    """``content``, ``embeds``, ``allowed_mentions`` and the ``view`` of its ``components``
    (Discord JSON, see :mod:`caedes_bot.ui.views`) of an outbox payload, cut to Discord's limits.

    Only the members listed in ``mention_user_ids`` are pinged (they are named at the start of
    the content); any other mention in the text shows but pings nobody (ux.md "Pings"). The
    announcer keeps messages short; this is the last guard, so a long message is shortened
    rather than refused.
    """
    fields: dict[str, Any] = {}
    mention_ids = [int(u) for u in payload.get("mention_user_ids") or ()]
    content = payload.get("content")
    text = content if isinstance(content, str) else ""
    if mention_ids:
        text = " ".join(f"<@{u}>" for u in mention_ids) + (f" {text}" if text else "")
    if text:
        fields["content"] = truncate(text, MESSAGE_LIMIT)
    embeds: Sequence[Mapping[str, Any]] = payload.get("embeds") or ()
    if embeds:
        fields["embeds"] = [
            fit_embed(discord.Embed.from_dict(dict(e))) for e in embeds[:EMBEDS_PER_MESSAGE]
        ]
    if "components" in payload:  # rows of buttons and selects; an empty list removes them
        from caedes_bot.ui.views import components_view

        fields["view"] = components_view(payload["components"])
    fields["allowed_mentions"] = discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(u) for u in mention_ids],
    )
    return fields


def message_shape(
    content: str | None, embeds: Sequence[discord.Embed], files: Sequence[str] = ()
) -> tuple[object, ...]:
    """What a message shows, to tell a copy of a post: its text, each embed's title,
    description, fields and footer, and the names of its attached files."""

    def text(value: str | None) -> str:  # Discord trims what it stores
        return (value or "").strip()

    return (
        text(content),
        tuple(
            (
                text(e.title),
                text(e.description),
                tuple((text(f.name), text(f.value)) for f in e.fields),
                text(e.footer.text),
            )
            for e in embeds
        ),
        tuple(files),
    )


class DiscordSender:
    """Delivers outbox rows through a discord.py client (implements ``outbox.Sender``).

    Args:
        client: the bot; it must be logged in. Each delivery first waits until the gateway is
            ready, so the guild and the bot's own member are in the cache.
        owner_of: finds the campaign owning a Discord channel id, so that a look-up by name
            never takes another campaign's category, channel or thread.
        on_failure: told of every row Discord refuses for good (before the dispatcher marks
            it failed); its own errors are logged, never raised.
        maps: draws the map picture of a post whose payload carries a ``map`` scene (it is
            uploaded with the post); without it such a post goes out as text alone.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        owner_of: OwnerLookup = _no_owner,
        on_failure: FailureHook | None = None,
        maps: MapDrawer | None = None,
    ) -> None:
        self.client = client
        self.owner_of = owner_of
        self.on_failure = on_failure
        self.maps = maps

    async def deliver(self, row: OutboxRow) -> DeliveryResult:
        """Do what ``row`` asks of Discord.

        Returns:
            The Discord id made or used (channel, thread, message); ``detail["existing"]`` is
            ``True`` when an existing channel or thread was found and reused.

        Raises:
            RetryableError: rate limited, Discord failing (5xx) or the network.
            PermanentError: Discord refused the row (4xx) or it can never be delivered.
        """
        try:
            return await self._classified(row)
        except PermanentError as err:
            await self._report(row, str(err))
            raise

    async def _report(self, row: OutboxRow, error: str) -> None:
        if self.on_failure is None:
            return
        try:
            await self.on_failure(row, error)
        except Exception:  # reporting must never change what happens to the row
            log.exception("could not report the failure of outbox row %s", row.id)

    async def _classified(self, row: OutboxRow) -> DeliveryResult:
        try:
            return await self._deliver(row)
        except (RetryableError, PermanentError):
            raise
        except discord.RateLimited as err:
            raise RetryableError("rate limited", retry_after=err.retry_after) from err
        except discord.HTTPException as err:
            if err.status == 429 or err.status >= 500:
                raise RetryableError(f"Discord answered {err.status}: {err.text}") from err
            if err.code == THREAD_ARCHIVED:  # archived again between unarchiving and retrying
                raise RetryableError(f"the thread is archived: {err.text}") from err
            full = limit_reached(err)
            if full is not None:
                raise PermanentError(full) from err
            raise PermanentError(f"Discord refused ({err.status} {err.code}): {err.text}") from err
        except (TimeoutError, aiohttp.ClientError, OSError) as err:
            raise RetryableError(f"network: {type(err).__name__}: {err}") from err

    async def _deliver(self, row: OutboxRow) -> DeliveryResult:
        handlers = {
            OutboxKind.CREATE_CATEGORY: self._create_category,
            OutboxKind.CREATE_CHANNEL: self._create_channel,
            OutboxKind.CREATE_THREAD: self._create_thread,
            OutboxKind.POST: self._post,
            OutboxKind.EDIT: self._edit,
            OutboxKind.ADD_THREAD_MEMBER: self._add_thread_member,
            OutboxKind.REMOVE_THREAD_MEMBER: self._remove_thread_member,
            OutboxKind.GRANT_CHANNEL_ACCESS: self._grant_channel_access,
            OutboxKind.REVOKE_CHANNEL_ACCESS: self._revoke_channel_access,
            OutboxKind.LOCK_THREAD: self._lock_thread,
        }
        handler = handlers.get(row.kind)
        if handler is None:
            raise PermanentError(f"outbox kind {row.kind} is not known to the Discord sender")
        return await handler(row)

    # ----------------------------------------------------------------------- look-ups

    async def _guild(self, row: OutboxRow) -> discord.Guild:
        await self.client.wait_until_ready()
        guild = self.client.get_guild(row.guild_id)
        if guild is None:
            raise PermanentError(f"the bot is not in guild {row.guild_id}")
        return guild

    async def _ours(self, discord_id: int, campaign_id: int) -> bool:
        owner = await self.owner_of(discord_id)
        return owner is None or owner == campaign_id

    async def _guild_channel(
        self, guild: discord.Guild, channel_id: int
    ) -> discord.abc.GuildChannel:
        channel = guild.get_channel(channel_id)
        if channel is None:
            fetched = await guild.fetch_channel(channel_id)
            if isinstance(fetched, discord.Thread):
                raise PermanentError(f"{channel_id} is a thread, not a channel")
            channel = fetched
        return channel

    async def _thread(self, guild: discord.Guild, thread_id: int) -> discord.Thread:
        """The thread, active: from the cache (which holds active threads only), else fetched
        and unarchived if Discord archived it."""
        thread = guild.get_thread(thread_id)
        if thread is None:
            fetched = await guild.fetch_channel(thread_id)
            if not isinstance(fetched, discord.Thread):
                raise PermanentError(f"{thread_id} is not a thread")
            thread = fetched
            if thread.archived:
                await self._unarchive(thread.id)
        return thread

    async def _unarchive(self, thread_id: int) -> None:
        """Unarchive a thread (``archived: false`` only: a locked thread stays locked)."""
        log.info("unarchiving thread %s", thread_id)
        await self.client.http.edit_channel(
            thread_id, archived=False, reason="Caedes: the thread is in use again"
        )

    async def _unarchiving(self, channel_id: int, call: Callable[[], Awaitable[_T]]) -> _T:
        """``call()``; if Discord answers that the thread is archived (50083), unarchive it
        and call once more."""
        try:
            return await call()
        except discord.HTTPException as err:
            if err.code != THREAD_ARCHIVED:
                raise
        await self._unarchive(channel_id)
        return await call()

    def _name(self, row: OutboxRow) -> str:
        name = row.payload.get("name")
        if not isinstance(name, str) or not name.strip():
            raise PermanentError(f"row {row.id} ({row.kind}) has no name")
        return truncate(name.strip(), 100)

    def _parent_id(self, row: OutboxRow) -> int:
        if row.parent_id is None:
            raise PermanentError(f"row {row.id} ({row.kind}) has no parent id")
        return row.parent_id

    # ----------------------------------------------------------------------- creating

    async def _create_category(self, row: OutboxRow) -> DeliveryResult:
        guild = await self._guild(row)
        name = self._name(row)
        for channel in await guild.fetch_channels():
            if (
                isinstance(channel, discord.CategoryChannel)
                and channel.name == name
                and await self._ours(channel.id, row.campaign_id)
            ):
                return DeliveryResult(channel.id, {"existing": True})
        category = await guild.create_category(name, reason=f"Caedes campaign {row.campaign_id}")
        return DeliveryResult(category.id)

    async def _create_channel(self, row: OutboxRow) -> DeliveryResult:
        guild = await self._guild(row)
        name = self._name(row).lower().replace(" ", "-")
        parent_id = self._parent_id(row)
        for channel in await guild.fetch_channels():
            if (
                isinstance(channel, discord.TextChannel)
                and channel.name == name
                and channel.category_id == parent_id
                and await self._ours(channel.id, row.campaign_id)
            ):
                return DeliveryResult(channel.id, {"existing": True})
        category = await self._guild_channel(guild, parent_id)
        if not isinstance(category, discord.CategoryChannel):
            raise PermanentError(f"parent {parent_id} of {name} is not a category")
        topic = row.payload.get("topic")
        created = await guild.create_text_channel(
            name,
            category=category,
            overwrites=channel_overwrites(guild, row.payload),
            topic=topic if isinstance(topic, str) else discord.utils.MISSING,
            reason=f"Caedes campaign {row.campaign_id}",
        )
        return DeliveryResult(created.id)

    async def _create_thread(self, row: OutboxRow) -> DeliveryResult:
        guild = await self._guild(row)
        name = self._name(row)
        parent = await self._guild_channel(guild, self._parent_id(row))
        if not isinstance(parent, discord.TextChannel):
            raise PermanentError(f"parent {parent.id} of thread {name} is not a text channel")
        existing = await self._find_thread(guild, parent, name, row.campaign_id)
        if existing is not None:
            return DeliveryResult(existing.id, {"existing": True})
        private = bool(row.payload.get("private", True))
        thread = await parent.create_thread(
            name=name,
            type=discord.ChannelType.private_thread
            if private
            else discord.ChannelType.public_thread,
            invitable=False,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            reason=f"Caedes campaign {row.campaign_id}",
        )
        return DeliveryResult(thread.id)

    async def _find_thread(
        self, guild: discord.Guild, parent: discord.TextChannel, name: str, campaign_id: int
    ) -> discord.Thread | None:
        for thread in await guild.active_threads():
            if (
                thread.parent_id == parent.id
                and thread.name == name
                and await self._ours(thread.id, campaign_id)
            ):
                return thread
        async for thread in parent.archived_threads(private=True, limit=None):
            if thread.name == name and await self._ours(thread.id, campaign_id):
                return thread
        return None

    # ----------------------------------------------------------------------- messages

    def _messageable(self, row: OutboxRow) -> discord.PartialMessageable:
        if row.channel_id is None:
            raise PermanentError(f"row {row.id}: {row.channel_key} has no Discord id")
        return self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    async def _post(self, row: OutboxRow) -> DeliveryResult:
        await self.client.wait_until_ready()
        fields = message_fields(row.payload)
        if "content" not in fields and "embeds" not in fields:
            raise PermanentError(f"row {row.id}: nothing to post")
        channel = self._messageable(row)
        uploads = await self._uploads(row)
        if row.look_first:
            names = [name for name, _ in uploads]
            copy = await self._posted_before(channel, row, fields, names)
            if copy is not None:
                log.info("outbox row %s was posted before, as message %s", row.id, copy)
                return DeliveryResult(copy, {"found": True})
        if row.payload.get("unarchive"):
            await self._thread(await self._guild(row), channel.id)

        def send() -> Awaitable[discord.Message]:
            if not uploads:
                return channel.send(nonce=row.nonce, **fields)
            files = [discord.File(io.BytesIO(data), filename=name) for name, data in uploads]
            return channel.send(nonce=row.nonce, files=files, **fields)

        try:
            message = await self._unarchiving(channel.id, send)
        except discord.HTTPException as err:
            if not uploads or not too_large(err):
                raise
            return await self._post_without_files(channel, row, fields)
        return DeliveryResult(message.id)

    async def _post_without_files(
        self, channel: discord.PartialMessageable, row: OutboxRow, fields: Mapping[str, Any]
    ) -> DeliveryResult:
        """Post ``row``'s text alone, with a line saying why its picture is missing: Discord
        refused the upload as larger than the guild's limit (413, code 40005), which no retry
        changes, and the post itself must not be lost. A copy posted before (an answer lost on
        an earlier try) is looked for first, so the text appears once."""
        log.info(
            "outbox row %s: its picture is over the upload limit; posting the text alone", row.id
        )
        content = fields.get("content") or ""
        alone = {**fields, "content": f"{content}\n{PICTURE_TOO_LARGE}".strip()}
        if row.look_first:
            copy = await self._posted_before(channel, row, alone)
            if copy is not None:
                return DeliveryResult(copy, {"found": True, "picture": "too large"})
        message = await self._unarchiving(
            channel.id, lambda: channel.send(nonce=row.nonce, **alone)
        )
        return DeliveryResult(message.id, {"picture": "too large"})

    async def _uploads(self, row: OutboxRow) -> list[tuple[str, bytes]]:
        """The files to upload with a post: the map picture of a ``map`` scene, drawn off the
        event loop (the same scene gives the same bytes, from the drawer's cache on a retry)."""
        raw = row.payload.get("map")
        if raw is None:
            return []
        if self.maps is None or not self.maps.available:
            log.info("outbox row %s: no map drawer here; posting its text alone", row.id)
            return []
        try:
            scene = MapScene.from_json(raw)
        except (KeyError, TypeError, ValueError) as err:
            raise PermanentError(f"row {row.id}: its map scene cannot be read: {err}") from err
        return [(map_filename(scene), await self.maps.png(scene))]

    async def _posted_before(
        self,
        channel: discord.PartialMessageable,
        row: OutboxRow,
        fields: Mapping[str, Any],
        files: Sequence[str] = (),
    ) -> int | None:
        """The id of a copy of ``row`` Discord already holds, or ``None``.

        Discord does not give a message's nonce back when it is read, so the copy is known by
        what the bot controls: it is the bot's own message (not an interaction's answer) newer
        than ``row.after_message_id`` (the queue's rows go in order, so nothing older can be
        it) that shows the same content and embeds, and has the same files attached. Reads at
        most :data:`LOOK_BACK` messages.
        """
        me = self.client.user.id if self.client.user else None
        after = discord.Object(row.after_message_id) if row.after_message_id else None
        want = message_shape(fields.get("content"), fields.get("embeds") or (), files)
        async for message in channel.history(limit=LOOK_BACK, after=after, oldest_first=True):
            if message.author.id != me or message.webhook_id is not None:
                continue
            names = [a.filename for a in message.attachments]
            if message_shape(message.content, message.embeds, names) == want:
                return message.id
        return None

    async def _edit(self, row: OutboxRow) -> DeliveryResult:
        await self.client.wait_until_ready()
        if row.message_id is None:
            raise PermanentError(f"row {row.id}: no message to edit")
        fields = message_fields(row.payload)
        if "content" not in fields and "embeds" not in fields:
            raise PermanentError(f"row {row.id}: nothing to change")
        channel = self._messageable(row)
        message = channel.get_partial_message(row.message_id)
        try:
            await self._unarchiving(channel.id, lambda: message.edit(**fields))
        except discord.NotFound as err:
            if err.code != UNKNOWN_MESSAGE:
                raise
            if row.payload.get("if_gone") == "skip":  # retiring it: gone is as good
                log.info("message %s of row %s is gone; nothing to retire", row.message_id, row.id)
                return DeliveryResult(row.message_id)
            # a moderator deleted it: post it afresh (its controls with it); the new id
            # replaces the old one for later edits (result "reposted")
            log.info("message %s of row %s is gone; posting it again", row.message_id, row.id)
            posted = await self._unarchiving(
                channel.id, lambda: channel.send(nonce=row.nonce, **fields)
            )
            return DeliveryResult(posted.id, {"reposted": True, "replaced": row.message_id})
        return DeliveryResult(row.message_id)

    # ----------------------------------------------------------------------- members

    def _user_id(self, row: OutboxRow) -> int:
        user_id = row.payload.get("user_id")
        if not isinstance(user_id, int):
            raise PermanentError(f"row {row.id} ({row.kind}) has no user_id")
        return user_id

    def _channel_id(self, row: OutboxRow) -> int:
        if row.channel_id is None:
            raise PermanentError(f"row {row.id}: {row.channel_key} has no Discord id")
        return row.channel_id

    async def _add_thread_member(self, row: OutboxRow) -> DeliveryResult:
        guild = await self._guild(row)
        thread = await self._thread(guild, self._channel_id(row))
        user = discord.Object(self._user_id(row))
        await self._unarchiving(thread.id, lambda: thread.add_user(user))
        return DeliveryResult(thread.id)

    async def _remove_thread_member(self, row: OutboxRow) -> DeliveryResult:
        guild = await self._guild(row)
        thread = await self._thread(guild, self._channel_id(row))
        user = discord.Object(self._user_id(row))
        with contextlib.suppress(discord.NotFound):  # not a member (any more): nothing to do
            await self._unarchiving(thread.id, lambda: thread.remove_user(user))
        return DeliveryResult(thread.id)

    async def _lock_thread(self, row: OutboxRow) -> DeliveryResult:
        """Lock a thread (``locked: true``; if Discord archived it, it is unarchived first and
        stays locked) or unlock it (``locked: false`` with ``archived: false``), R-PBP-NEG-03.
        Locking or unlocking twice changes nothing."""
        await self._guild(row)
        thread_id = self._channel_id(row)
        http = self.client.http
        reason = f"Caedes campaign {row.campaign_id}: borders judged again"
        if row.payload.get("locked"):
            await self._unarchiving(
                thread_id, lambda: http.edit_channel(thread_id, locked=True, reason=reason)
            )
        else:
            await http.edit_channel(thread_id, locked=False, archived=False, reason=reason)
        return DeliveryResult(thread_id)

    async def _grant_channel_access(self, row: OutboxRow) -> DeliveryResult:
        guild = await self._guild(row)
        channel = await self._guild_channel(guild, self._channel_id(row))
        user_id = self._user_id(row)
        member = guild.get_member(user_id) or await guild.fetch_member(user_id)
        await channel.set_permissions(member, overwrite=MEMBER_CHANNEL_ACCESS)
        return DeliveryResult(channel.id)

    async def _revoke_channel_access(self, row: OutboxRow) -> DeliveryResult:
        """Remove the member's own overwrite from the channel (a replaced umpire loses
        ``#umpire``). Works for a member who has left the server; an overwrite already gone
        is fine."""
        guild = await self._guild(row)
        channel = await self._guild_channel(guild, self._channel_id(row))
        with contextlib.suppress(discord.NotFound):
            await self.client.http.delete_channel_permissions(
                channel.id, self._user_id(row), reason=f"Caedes campaign {row.campaign_id}"
            )
        return DeliveryResult(channel.id)
