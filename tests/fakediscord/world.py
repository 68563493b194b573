"""The fake Discord's world: one guild with roles, members, channels, threads and messages.

Everything here is plain synchronous Python over JSON-shaped dicts in Discord's own wire format
(API v10), so the REST handlers in :mod:`tests.fakediscord.server` can return them as they are.
The world checks what Discord checks and tells the test what happened:

* permissions are computed the way Discord computes them (roles, then channel overwrites for
  @everyone, roles and the member), and the bot is refused (403, code 50013) what it may not do;
* message and embed limits (2,000 characters, 6,000 per embed, 25 fields, 25 select options ...)
  are enforced with a 400 (code 50035), so an over-long reply fails the test instead of Discord;
* ``nonce`` + ``enforce_nonce`` on a new message returns the message already made with that nonce;
* threads archive after their idle time on the fake's clock (:meth:`World.advance`) or when a
  test says (:meth:`World.set_archived`); an archived thread refuses message edits and member
  changes (400, code 50083), and a post unarchives it unless it is locked; in a locked thread
  only members with Manage Threads may post, and only they may unarchive or unlock it (a
  PATCH of ``archived: false`` leaves it locked);
* a server holds at most 500 channels (30013), a category 50 (a form error on ``parent_id``)
  and the server 1,000 active threads (160006); tests may lower the caps
  (:attr:`World.max_active_threads` ...).

The codes and limits, with the documentation they come from, are in
:mod:`tests.fakediscord.limits`.

Every change calls :attr:`World.on_event` (for the gateway) and :attr:`World.on_change` (for the
test's waits).
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import discord

from tests.fakediscord.limits import (
    CHANNEL_NAME_MAX,
    CHOICE_NAME_MAX,
    CHOICES_MAX,
    JSON,
    MAX_ACTIVE_THREADS,
    MAX_ACTIVE_THREADS_REACHED,
    MAX_CATEGORY_CHANNELS,
    MAX_GUILD_CHANNELS,
    MISSING_ACCESS,
    NONCE_MEMORY,
    UNKNOWN_MESSAGE,
    ApiError,
    category_full,
    check_components,
    check_message_body,
    embed_length,
    guild_full,
    invalid_form,
    missing_permissions,
    thread_archived,
    unknown,
)

__all__ = [  # the names other modules take from here
    "CHOICES_MAX",
    "CHOICE_NAME_MAX",
    "EPHEMERAL",
    "GUILD_CATEGORY",
    "GUILD_TEXT",
    "JSON",
    "MISSING_ACCESS",
    "PRIVATE_THREAD",
    "UNKNOWN_MESSAGE",
    "ApiError",
    "FakeUser",
    "World",
    "check_components",
    "check_message_body",
    "embed_length",
    "invalid_form",
    "iter_components",
    "unknown",
]

DISCORD_EPOCH_MS = 1_420_070_400_000
#: Snowflakes are made from a fixed instant plus a counter, so a test run is repeatable.
_START_MS = 1_704_067_200_000  # 2024-01-01T00:00:00Z

# Channel types (Discord API).
GUILD_TEXT = 0
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

# Overwrite target types.
OVERWRITE_ROLE = 0
OVERWRITE_MEMBER = 1

# Gateway intents (bits) that gate the events the fake echoes.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9

EPHEMERAL = 64

P = discord.Permissions
ALL_PERMISSIONS = P.all().value

#: What an ordinary member gets from @everyone in a new guild (Discord's usual defaults).
EVERYONE_DEFAULT = P(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    mention_everyone=False,
).value


def flag(name: str) -> int:
    """The bit of a permission named as in discord.py (``"manage_channels"``)."""
    value: int = getattr(P, name).flag
    return value


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


class Snowflakes:
    """Increasing snowflake ids from a fixed instant plus a counter."""

    def __init__(self) -> None:
        self._count = itertools.count(1)

    def next(self) -> int:
        n = next(self._count)
        return ((_START_MS - DISCORD_EPOCH_MS + n) << 22) | (n & 0xFFF)


@dataclass
class FakeUser:
    """A Discord user who is a member of the fake guild."""

    id: int
    name: str
    bot: bool = False
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=now_iso)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    def member_payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user_payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


def iter_components(message: JSON) -> Iterator[JSON]:
    """Every interactive component of a message (buttons, selects), row by row."""
    for row in message.get("components") or []:
        yield from row.get("components") or []


class World:
    """The state of the fake Discord: one application, its bot user, its guild (and any more
    guilds added with :meth:`add_guild`).

    Attributes:
        application_id: the application (also the bot user's id, as on Discord).
        bot: the bot's user and member.
        guild_id: the guild; ``guild_id`` is also the id of its @everyone role.
        guild_ids: every guild the bot is in, ``guild_id`` first.
        users: every member by id (the bot included).
        roles: every role by id.
        channels: categories, text channels and threads by id (Discord channel objects).
        overwrites: per channel, target id -> ``{"id","type","allow","deny"}``.
        thread_members: per thread, the ids of its members.
        messages: per channel, its messages in order (ephemeral messages are kept elsewhere).
        ephemeral: ephemeral interaction messages by id.
        nonces: ``(channel_id, author_id, nonce) -> (message id, when)`` for ``enforce_nonce``,
            forgotten after :data:`~tests.fakediscord.limits.NONCE_MEMORY` on the fake's clock.
        clock_offset: how far the fake's clock is ahead of real time (:meth:`advance`).
        thread_activity: per thread, when it was last active (a message, unarchiving).
    """

    def __init__(self, *, token: str, bot_permissions: int) -> None:
        self.ids = Snowflakes()
        self.token = token
        self.application_id = self.ids.next()
        self.bot = FakeUser(self.application_id, "Caedes Bot", bot=True)
        self.guild_id = self.ids.next()
        self.guild_name = "Caedes Test Guild"
        self.guild_ids: list[int] = [self.guild_id]
        self.guild_names: dict[int, str] = {self.guild_id: self.guild_name}
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self.roles: dict[int, FakeRole] = {
            self.guild_id: FakeRole(self.guild_id, "@everyone", EVERYONE_DEFAULT)
        }
        self.channels: dict[int, JSON] = {}
        # the same channels by guild (a benchmark holds thousands over many servers)
        self._by_guild: dict[int, dict[int, JSON]] = {}
        self.overwrites: dict[int, dict[int, JSON]] = {}
        self.thread_members: dict[int, set[int]] = {}
        self.messages: dict[int, list[JSON]] = {}
        #: The bytes of every uploaded file, by attachment id (tests/fakediscord/uploads.py).
        self.files: dict[int, bytes] = {}
        #: Where attachment urls point: the fake's own address (set when the server starts).
        self.cdn_base = "http://127.0.0.1:0/cdn"
        self.message_index: dict[int, JSON] = {}
        self.ephemeral: dict[int, JSON] = {}
        self.nonces: dict[tuple[int, int, str], tuple[int, dt.datetime]] = {}
        self.clock_offset = dt.timedelta(0)
        #: Discord's server limits (see tests.fakediscord.limits)
        self.max_guild_channels = MAX_GUILD_CHANNELS
        self.max_category_channels = MAX_CATEGORY_CHANNELS
        self.max_active_threads = MAX_ACTIVE_THREADS
        self.thread_activity: dict[int, dt.datetime] = {}
        self.on_event: Callable[[str, JSON, int], None] = lambda name, data, intent: None
        self.on_change: Callable[[], None] = lambda: None

        bot_role = self.add_role("Caedes Bot", bot_permissions, managed=True, position=2)
        self.bot.roles.append(bot_role.id)
        self.admin_role = self.add_role("Admin", P(manage_guild=True).value, position=1)
        self.owner = self.add_member("owner")
        self.general = self.create_channel_raw(name="general", type=GUILD_TEXT)

    # --- the clock -------------------------------------------------------------------------

    def now(self) -> dt.datetime:
        """The fake's time: real time plus :attr:`clock_offset`."""
        return dt.datetime.now(dt.UTC) + self.clock_offset

    def advance(self, delta: dt.timedelta) -> None:
        """Move the fake's clock on by ``delta``: idle threads archive (:meth:`archive_idle`)
        and nonces older than Discord's few minutes are forgotten."""
        self.clock_offset += delta
        self.archive_idle()
        self.on_change()

    def archive_idle(self) -> None:
        """Archive every active thread idle for its ``auto_archive_duration`` (minutes).

        Discord archives a thread left inactive that long; a message, unarchiving and a change
        of the duration count as activity
        (https://discord.com/developers/docs/topics/threads#active-archived-threads).
        """
        now = self.now()
        for tid, thread in list(self.channels.items()):
            if thread["type"] not in THREAD_TYPES or thread["thread_metadata"]["archived"]:
                continue
            idle = dt.timedelta(minutes=int(thread["thread_metadata"]["auto_archive_duration"]))
            if now - self.thread_activity.get(tid, now) >= idle:
                self.set_archived(tid, archived=True)

    # --- building the world (tests call these) ---------------------------------------------

    def add_role(
        self, name: str, permissions: int, *, managed: bool = False, position: int = 1
    ) -> FakeRole:
        role = FakeRole(self.ids.next(), name, permissions, position=position, managed=managed)
        self.roles[role.id] = role
        return role

    def add_guild(self, name: str) -> int:
        """Another server the bot is in, with the same members holding the same roles; it has
        its own @everyone role (whose id is the server's, as on Discord) and no channels.
        Add guilds before the bot connects: the gateway announces them at IDENTIFY."""
        gid = self.ids.next()
        self.guild_ids.append(gid)
        self.guild_names[gid] = name
        self.roles[gid] = FakeRole(gid, "@everyone", EVERYONE_DEFAULT)
        return gid

    def guild_of(self, channel_id: int) -> int:
        """The guild a channel or thread belongs to."""
        return int(self.channel(channel_id)["guild_id"])

    def guild_roles(self, guild_id: int) -> list[FakeRole]:
        """The roles of ``guild_id``: its @everyone role and the roles every guild shares."""
        return [r for r in self.roles.values() if r.id == guild_id or r.id not in self.guild_ids]

    def _in_guild(self, channel: JSON, guild_id: int | None) -> bool:
        return bool(channel["guild_id"] == str(guild_id or self.guild_id))

    def channels_in(self, guild_id: int | None = None) -> list[JSON]:
        """The channels and threads of ``guild_id`` (by default the first guild), oldest first."""
        return list(self._by_guild.get(guild_id or self.guild_id, {}).values())

    def _add(self, channel: JSON) -> None:
        cid = int(channel["id"])
        self.channels[cid] = channel
        self._by_guild.setdefault(int(channel["guild_id"]), {})[cid] = channel

    def add_member(self, name: str, *, roles: list[int] | None = None) -> FakeUser:
        user = FakeUser(self.ids.next(), name, roles=list(roles or []))
        self.users[user.id] = user
        return user

    def create_channel_raw(
        self,
        *,
        name: str,
        type: int,
        parent_id: int | None = None,
        overwrites: list[JSON] | None = None,
        topic: str | None = None,
        guild_id: int | None = None,
    ) -> JSON:
        cid = self.ids.next()
        guild = guild_id or self.guild_id
        position = sum(1 for c in self.channels_in(guild) if c["type"] not in THREAD_TYPES)
        channel: JSON = {
            "id": str(cid),
            "type": type,
            "guild_id": str(guild),
            "name": name,
            "position": position,
            "parent_id": str(parent_id) if parent_id else None,
            "permission_overwrites": [],
            "nsfw": False,
            "flags": 0,
        }
        if type == GUILD_TEXT:
            channel.update(
                topic=topic,
                rate_limit_per_user=0,
                last_message_id=None,
                default_auto_archive_duration=1440,
            )
        self._add(channel)
        self.overwrites[cid] = {}
        for ow in overwrites or []:
            self._set_overwrite(cid, ow)
        self.messages[cid] = []
        return channel

    # --- looking things up -----------------------------------------------------------------

    def channel(self, channel_id: int) -> JSON:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise unknown("Channel", 10003) from None

    def user(self, user_id: int) -> FakeUser:
        try:
            return self.users[user_id]
        except KeyError:
            raise unknown("User", 10013) from None

    def message(self, message_id: int) -> JSON:
        found = self.message_index.get(message_id) or self.ephemeral.get(message_id)
        if found is None:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return found

    def channels_named(self, name: str, *, parent_id: int | None = None) -> list[JSON]:
        """Channels and threads called ``name`` (under ``parent_id`` if given), oldest first."""
        return [
            c
            for c in self.channels.values()
            if c["name"] == name and (parent_id is None or c.get("parent_id") == str(parent_id))
        ]

    def children(self, parent_id: int) -> list[JSON]:
        parent = self.channels.get(parent_id)
        within = (
            self.channels.values() if parent is None else self.channels_in(int(parent["guild_id"]))
        )
        return [c for c in within if c.get("parent_id") == str(parent_id)]

    def channel_count(self, guild_id: int | None = None) -> int:
        """Channels counting towards the server's 500: all but threads (of ``guild_id``, by
        default the first guild)."""
        return sum(1 for c in self.channels_in(guild_id) if c["type"] not in THREAD_TYPES)

    def channel_payload(self, channel_id: int) -> JSON:
        channel = dict(self.channel(channel_id))
        if channel["type"] not in THREAD_TYPES:
            channel["permission_overwrites"] = [
                dict(o) for o in self.overwrites[channel_id].values()
            ]
        return channel

    # --- permissions (Discord's algorithm) -------------------------------------------------

    def base_permissions(self, user_id: int, guild_id: int | None = None) -> int:
        user = self.user(user_id)
        if user_id == self.owner.id:
            return ALL_PERMISSIONS
        value = self.roles[guild_id or self.guild_id].permissions
        for rid in user.roles:
            value |= self.roles[rid].permissions
        if value & flag("administrator"):
            return ALL_PERMISSIONS
        return value

    def permissions_for(self, user_id: int, channel_id: int) -> int:
        """A member's permissions in a channel or thread, overwrites applied."""
        guild = self.guild_of(channel_id)
        base = self.base_permissions(user_id, guild)
        if base == ALL_PERMISSIONS:
            return base
        channel = self.channel(channel_id)
        if channel["type"] in THREAD_TYPES:
            parent = int(channel["parent_id"])
            value = self.permissions_for(user_id, parent)
            if channel["type"] == PRIVATE_THREAD and not self._in_private_thread(
                user_id, channel_id, value
            ):
                return 0
            return value
        value = base
        ows = self.overwrites.get(channel_id, {})
        everyone = ows.get(guild)
        if everyone:
            value = (value & ~int(everyone["deny"])) | int(everyone["allow"])
        user = self.user(user_id)
        allow = deny = 0
        for rid in user.roles:
            ow = ows.get(rid)
            if ow and ow["type"] == OVERWRITE_ROLE:
                allow |= int(ow["allow"])
                deny |= int(ow["deny"])
        value = (value & ~deny) | allow
        member_ow = ows.get(user_id)
        if member_ow and member_ow["type"] == OVERWRITE_MEMBER:
            value = (value & ~int(member_ow["deny"])) | int(member_ow["allow"])
        if not value & flag("view_channel"):
            return 0
        return value

    def _in_private_thread(self, user_id: int, thread_id: int, parent_perms: int) -> bool:
        return user_id in self.thread_members.get(thread_id, set()) or bool(
            parent_perms & flag("manage_threads")
        )

    def can(self, user_id: int, channel_id: int, permission: str) -> bool:
        """Whether a member holds ``permission`` (a discord.py flag name) in a channel."""
        return bool(self.permissions_for(user_id, channel_id) & flag(permission))

    def can_see(self, user_id: int, channel_id: int) -> bool:
        return self.can(user_id, channel_id, "view_channel")

    def can_send(self, user_id: int, channel_id: int) -> bool:
        """Whether a member may post in a channel or thread. In a locked thread only members
        with Manage Threads may (https://discord.com/developers/docs/resources/channel#thread-metadata-object:
        a locked thread is for moderators; only they unarchive it)."""
        channel = self.channel(channel_id)
        need = "send_messages_in_threads" if channel["type"] in THREAD_TYPES else "send_messages"
        if not (self.can_see(user_id, channel_id) and self.can(user_id, channel_id, need)):
            return False
        if self.is_locked(channel_id):
            return self.can(user_id, channel_id, "manage_threads")
        return True

    def is_locked(self, channel_id: int) -> bool:
        """Whether ``channel_id`` is a locked thread."""
        channel = self.channel(channel_id)
        return channel["type"] in THREAD_TYPES and bool(channel["thread_metadata"]["locked"])

    def _require(self, user_id: int, channel_id: int | None, *perms: str) -> None:
        value = (
            self.base_permissions(user_id)
            if channel_id is None
            else self.permissions_for(user_id, channel_id)
        )
        for perm in perms:
            if not value & flag(perm):
                raise missing_permissions(perm)

    # --- channels --------------------------------------------------------------------------

    def _set_overwrite(self, channel_id: int, body: JSON) -> JSON:
        target = int(body["id"])
        kind = int(body.get("type", OVERWRITE_ROLE))
        if kind == OVERWRITE_ROLE and target not in self.roles:
            raise unknown("Role", 10011)
        if kind == OVERWRITE_MEMBER and target not in self.users:
            raise unknown("Member", 10007)
        ow = {
            "id": str(target),
            "type": kind,
            "allow": str(int(body.get("allow") or 0)),
            "deny": str(int(body.get("deny") or 0)),
        }
        self.overwrites[channel_id][target] = ow
        return ow

    def _check_overwrites_grantable(self, actor: int, overwrites: list[JSON]) -> None:
        """Discord lets a bot allow or deny in an overwrite only what it holds itself."""
        held = self.base_permissions(actor)
        for ow in overwrites:
            bits = int(ow.get("allow") or 0) | int(ow.get("deny") or 0)
            if bits & ~held:
                raise missing_permissions("an overwrite names permissions the bot lacks")

    def create_channel(self, actor: int, body: JSON, guild_id: int | None = None) -> JSON:
        """``POST /guilds/{guild}/channels``: a category or text channel (in ``guild_id``, by
        default the first guild)."""
        self._require(actor, None, "manage_channels")
        name = str(body.get("name") or "")
        ctype = int(body.get("type", GUILD_TEXT))
        if not 1 <= len(name) <= CHANNEL_NAME_MAX:
            raise invalid_form("name: 1..100 characters")
        if ctype not in (GUILD_TEXT, GUILD_CATEGORY):
            raise invalid_form(f"type {ctype} is not served by the fake")
        overwrites = list(body.get("permission_overwrites") or [])
        if overwrites:
            self._require(actor, None, "manage_roles")
            self._check_overwrites_grantable(actor, overwrites)
        parent = body.get("parent_id")
        if parent is not None:
            parent_channel = self.channel(int(parent))
            if parent_channel["type"] != GUILD_CATEGORY:
                raise invalid_form("parent_id is not a category")
            if not self._in_guild(parent_channel, guild_id):
                raise invalid_form("parent_id is a category of another server")
        # Discord's limits: 500 channels in a server, categories included (30013), and 50 in
        # one category (a form error on parent_id); see tests.fakediscord.limits
        if self.channel_count(guild_id) >= self.max_guild_channels:
            raise guild_full()
        if parent is not None and len(self.children(int(parent))) >= self.max_category_channels:
            raise category_full()
        if ctype == GUILD_TEXT:
            name = name.lower().replace(" ", "-")
        channel = self.create_channel_raw(
            name=name,
            type=ctype,
            parent_id=int(parent) if parent is not None else None,
            overwrites=overwrites,
            topic=body.get("topic"),
            guild_id=guild_id,
        )
        cid = int(channel["id"])
        if parent is not None and not overwrites:
            # a channel made in a category without overwrites is synced to the category's
            self.overwrites[cid] = {k: dict(v) for k, v in self.overwrites[int(parent)].items()}
        payload = self.channel_payload(cid)
        self.on_event("CHANNEL_CREATE", payload, INTENT_GUILDS)
        self.on_change()
        return payload

    def modify_channel(self, actor: int, channel_id: int, body: JSON) -> JSON:
        channel = self.channel(channel_id)
        if channel["type"] in THREAD_TYPES:
            self._require(actor, channel_id, "manage_threads")
            meta = channel["thread_metadata"]
            if meta["archived"] and body.get("archived") is False:
                self._check_thread_room()
            for key in ("locked", "invitable", "auto_archive_duration"):
                if key in body:
                    meta[key] = body[key]
            if "name" in body:
                channel["name"] = body["name"]
            if "archived" in body and bool(body["archived"]) != meta["archived"]:
                # unarchiving leaves ``locked`` as it is: only ``locked: false`` unlocks
                self.set_archived(channel_id, archived=bool(body["archived"]))
            if "auto_archive_duration" in body or body.get("archived") is False:
                self.thread_activity[channel_id] = self.now()
            event = "THREAD_UPDATE"
        else:
            self._require(actor, channel_id, "manage_channels")
            for key in ("name", "topic", "position", "parent_id"):
                if key in body:
                    channel[key] = body[key]
            if "permission_overwrites" in body:
                self._require(actor, None, "manage_roles")
                self._check_overwrites_grantable(actor, body["permission_overwrites"])
                self.overwrites[channel_id] = {}
                for ow in body["permission_overwrites"]:
                    self._set_overwrite(channel_id, ow)
            event = "CHANNEL_UPDATE"
        payload = self.channel_payload(channel_id)
        self.on_event(event, payload, INTENT_GUILDS)
        self.on_change()
        return payload

    def delete_channel(self, actor: int, channel_id: int) -> JSON:
        channel = self.channel(channel_id)
        need = "manage_threads" if channel["type"] in THREAD_TYPES else "manage_channels"
        self._require(actor, channel_id, need)
        payload = self.channel_payload(channel_id)
        del self.channels[channel_id]
        self._by_guild[int(channel["guild_id"])].pop(channel_id, None)
        self.overwrites.pop(channel_id, None)
        self.thread_members.pop(channel_id, None)
        for m in self.messages.pop(channel_id, []):
            self.message_index.pop(int(m["id"]), None)
        event = "THREAD_DELETE" if channel["type"] in THREAD_TYPES else "CHANNEL_DELETE"
        self.on_event(event, payload, INTENT_GUILDS)
        self.on_change()
        return payload

    def put_overwrite(self, actor: int, channel_id: int, target: int, body: JSON) -> None:
        """``PUT /channels/{channel}/permissions/{target}``."""
        channel = self.channel(channel_id)
        if channel["type"] in THREAD_TYPES:
            raise invalid_form("threads have no permission overwrites")
        self._require(actor, channel_id, "manage_roles")
        self._check_overwrites_grantable(actor, [body])
        self._set_overwrite(channel_id, {**body, "id": target})
        self.on_event("CHANNEL_UPDATE", self.channel_payload(channel_id), INTENT_GUILDS)
        self.on_change()

    def delete_overwrite(self, actor: int, channel_id: int, target: int) -> None:
        self.channel(channel_id)
        self._require(actor, channel_id, "manage_roles")
        self.overwrites[channel_id].pop(target, None)
        self.on_event("CHANNEL_UPDATE", self.channel_payload(channel_id), INTENT_GUILDS)
        self.on_change()

    # --- threads ---------------------------------------------------------------------------

    def create_thread(self, actor: int, parent_id: int, body: JSON) -> JSON:
        """``POST /channels/{channel}/threads`` without a message (private or public)."""
        parent = self.channel(parent_id)
        if parent["type"] != GUILD_TEXT:
            raise invalid_form("threads can only be made in text channels here")
        ttype = int(body.get("type", PRIVATE_THREAD))
        need = "create_private_threads" if ttype == PRIVATE_THREAD else "create_public_threads"
        self._require(actor, parent_id, "view_channel", need)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= CHANNEL_NAME_MAX:
            raise invalid_form("name: 1..100 characters")
        self._check_thread_room(int(parent["guild_id"]))
        tid = self.ids.next()
        now = self.now().isoformat()
        thread: JSON = {
            "id": str(tid),
            "type": ttype,
            "guild_id": parent["guild_id"],
            "parent_id": str(parent_id),
            "owner_id": str(actor),
            "name": name,
            "last_message_id": None,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "rate_limit_per_user": int(body.get("rate_limit_per_user") or 0),
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": int(body.get("auto_archive_duration") or 10080),
                "archive_timestamp": now,
                "locked": False,
                "invitable": bool(body.get("invitable", True)),
                "create_timestamp": now,
            },
        }
        self._add(thread)
        self.thread_activity[tid] = self.now()
        self.thread_members[tid] = {actor}
        self.messages[tid] = []
        event = {
            **thread,
            "newly_created": True,
            "member": {
                "id": str(tid),
                "user_id": str(actor),
                "join_timestamp": now,
                "flags": 0,
            },
        }
        self.on_event("THREAD_CREATE", event, INTENT_GUILDS)
        self.on_change()
        return dict(thread)

    def add_thread_member(self, actor: int, thread_id: int, user_id: int) -> None:
        """``PUT /channels/{thread}/thread-members/{user}``."""
        thread = self.channel(thread_id)
        if thread["type"] not in THREAD_TYPES:
            raise invalid_form("not a thread")
        self.user(user_id)
        self._refuse_if_archived(thread)
        self._require(actor, thread_id, "send_messages_in_threads")
        members = self.thread_members[thread_id]
        if user_id in members:
            return
        members.add(user_id)
        thread["member_count"] = len(members)
        update = {
            "id": str(thread_id),
            "guild_id": thread["guild_id"],
            "member_count": len(members),
            "added_members": [
                {
                    "id": str(thread_id),
                    "user_id": str(user_id),
                    "join_timestamp": now_iso(),
                    "flags": 0,
                    "member": self.user(user_id).member_payload(),
                }
            ],
        }
        # Without the members intent Discord sends this only when the bot itself is added.
        intent = INTENT_GUILDS if user_id == self.bot.id else INTENT_GUILD_MEMBERS
        self.on_event("THREAD_MEMBERS_UPDATE", update, intent)
        self.on_change()

    def remove_thread_member(self, actor: int, thread_id: int, user_id: int) -> None:
        """``DELETE /channels/{thread}/thread-members/{user}``."""
        self._refuse_if_archived(self.channel(thread_id))
        if actor != user_id:
            self._require(actor, thread_id, "manage_threads")
        self.thread_members[thread_id].discard(user_id)
        self.on_change()

    def _refuse_if_archived(self, channel: JSON) -> None:
        """Discord allows no message edit and no member change in an archived thread (only
        deleting messages; https://discord.com/developers/docs/topics/threads#active-archived-threads)
        and answers 400, code 50083 (topics/opcodes-and-status-codes, "JSON Error Codes")."""
        if channel["type"] in THREAD_TYPES and channel["thread_metadata"]["archived"]:
            raise thread_archived()

    def set_archived(self, thread_id: int, *, archived: bool, locked: bool | None = None) -> None:
        """Archive or unarchive a thread as Discord does (``archive_timestamp`` moves, a
        THREAD_UPDATE goes out); ``locked`` changes only when given. Tests call it to archive a
        thread at once, as Discord does early on a busy server (docs: topics/threads)."""
        thread = self.channel(thread_id)
        if thread["type"] not in THREAD_TYPES:
            raise invalid_form("not a thread")
        meta = thread["thread_metadata"]
        meta["archived"] = archived
        meta["archive_timestamp"] = self.now().isoformat()
        if locked is not None:
            meta["locked"] = locked
        if not archived:
            self.thread_activity[thread_id] = self.now()
        self.on_event("THREAD_UPDATE", dict(thread), INTENT_GUILDS)
        self.on_change()

    def active_thread_count(self, guild_id: int | None = None) -> int:
        return sum(
            1
            for c in self.channels_in(guild_id)
            if c["type"] in THREAD_TYPES and not c["thread_metadata"]["archived"]
        )

    def _check_thread_room(self, guild_id: int | None = None) -> None:
        """At its cap of active threads a server gets no new or unarchived thread: 400, code
        160006 (https://discord.com/developers/docs/resources/channel, "Threads")."""
        if self.active_thread_count(guild_id) >= self.max_active_threads:
            raise ApiError(
                400, MAX_ACTIVE_THREADS_REACHED, "Maximum number of active threads reached"
            )

    def thread_member_payloads(self, thread_id: int) -> list[JSON]:
        self.channel(thread_id)
        return [
            {"id": str(thread_id), "user_id": str(u), "join_timestamp": now_iso(), "flags": 0}
            for u in sorted(self.thread_members[thread_id])
        ]

    def active_threads(self, actor: int, guild_id: int | None = None) -> JSON:
        """``GET /guilds/{guild}/threads/active``: unarchived threads the bot may see."""
        threads = [
            dict(c)
            for c in self.channels_in(guild_id)
            if c["type"] in THREAD_TYPES
            and not c["thread_metadata"]["archived"]
            and self.can_see(actor, int(c["id"]))
        ]
        members = [
            {"id": t["id"], "user_id": str(actor), "join_timestamp": now_iso(), "flags": 0}
            for t in threads
            if actor in self.thread_members[int(t["id"])]
        ]
        return {"threads": threads, "members": members}

    def archived_private_threads(self, actor: int, parent_id: int) -> JSON:
        self._require(actor, parent_id, "read_message_history", "manage_threads")
        threads = [
            dict(c)
            for c in self.channels_in(self.guild_of(parent_id))
            if c["type"] == PRIVATE_THREAD
            and c.get("parent_id") == str(parent_id)
            and c["thread_metadata"]["archived"]
        ]
        return {"threads": threads, "members": [], "has_more": False}

    # --- messages --------------------------------------------------------------------------

    def new_message(
        self,
        channel_id: int,
        author: FakeUser,
        body: JSON,
        *,
        flags: int = 0,
        attachments: list[JSON] | None = None,
    ) -> JSON:
        mid = self.ids.next()
        message: JSON = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": author.user_payload(),
            "content": body.get("content") or "",
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": list(attachments or []),
            "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "pinned": False,
            "type": 0,
            "flags": int(body.get("flags") or 0) | flags,
        }
        self._resolve_mentions(message, body.get("allowed_mentions"))
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        if channel_id in self.channels:
            message["guild_id"] = self.channels[channel_id]["guild_id"]
        return message

    def _resolve_mentions(self, message: JSON, allowed: JSON | None) -> None:
        """Who the message pings, as Discord works it out from the content and
        ``allowed_mentions`` (absent: everything in the content pings)."""
        content = message.get("content") or ""
        named = [int(m) for m in re.findall(r"<@!?(\d+)>", content)]
        if allowed is None:
            pinged = named
            everyone = "@everyone" in content or "@here" in content
        else:
            parse = allowed.get("parse") or []
            listed = {int(u) for u in allowed.get("users") or []}
            pinged = [u for u in named if "users" in parse or u in listed]
            everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
        message["mentions"] = [
            self.users[u].user_payload() for u in dict.fromkeys(pinged) if u in self.users
        ]
        message["mention_everyone"] = everyone

    def post_message(
        self, author_id: int, channel_id: int, body: JSON, *, attachments: list[JSON] | None = None
    ) -> tuple[JSON, bool]:
        """``POST /channels/{channel}/messages``; returns the message and whether it is new.

        With ``enforce_nonce`` a second post with the same nonce by the same author within
        :data:`~tests.fakediscord.limits.NONCE_MEMORY` returns the first message and creates
        nothing; Discord checks a nonce only "in the past few minutes"
        (https://discord.com/developers/docs/resources/message#create-message), so later the
        same nonce makes a new message, as here.
        """
        channel = self.channel(channel_id)
        if not self.can_send(author_id, channel_id):
            raise missing_permissions("send messages here")
        check_message_body(body)
        if not (body.get("content") or body.get("embeds") or body.get("components") or attachments):
            raise ApiError(400, 50006, "Cannot send an empty message")
        nonce = body.get("nonce")
        key = (channel_id, author_id, str(nonce)) if nonce is not None else None
        seen = self.nonces.get(key) if key is not None else None
        if (
            seen is not None
            and body.get("enforce_nonce")
            and self.now() - seen[1] < NONCE_MEMORY
            and seen[0] in self.message_index
        ):
            return self.message_index[seen[0]], False
        if channel["type"] in THREAD_TYPES and channel["thread_metadata"]["archived"]:
            # a message unarchives a thread by itself, but not a locked one
            # (https://discord.com/developers/docs/topics/threads#active-archived-threads):
            # posting in that is an operation on an archived thread (50083)
            if channel["thread_metadata"]["locked"]:
                raise thread_archived()
            self._check_thread_room()
            self.set_archived(channel_id, archived=False)
        message = self.new_message(channel_id, self.user(author_id), body, attachments=attachments)
        self._store(channel_id, message)
        if key is not None:
            self.nonces[key] = (int(message["id"]), self.now())
        return message, True

    def _store(self, channel_id: int, message: JSON) -> None:
        self.messages[channel_id].append(message)
        self.message_index[int(message["id"])] = message
        channel = self.channels[channel_id]
        channel["last_message_id"] = message["id"]
        if channel["type"] in THREAD_TYPES:
            channel["message_count"] = channel.get("message_count", 0) + 1
            self.thread_activity[channel_id] = self.now()
        self.on_event(
            "MESSAGE_CREATE", {**message, "member": self._member_of(message)}, INTENT_GUILD_MESSAGES
        )
        self.on_change()

    def _member_of(self, message: JSON) -> JSON:
        author = self.users.get(int(message["author"]["id"]))
        return author.member_payload(with_user=False) if author else {}

    def store_interaction_message(self, channel_id: int, message: JSON) -> None:
        """Keep a reply to an interaction: in its channel, or apart if ephemeral."""
        if int(message.get("flags") or 0) & EPHEMERAL or channel_id not in self.channels:
            self.ephemeral[int(message["id"])] = message
            self.on_change()
        else:
            self._store(channel_id, message)

    def edit_message(
        self, actor: int, message: JSON, body: JSON, *, attachments: list[JSON] | None = None
    ) -> JSON:
        """Edit a message. With ``attachments`` in ``body`` (Discord's rule for edits), the
        existing attachments it lists by id stay, the others go, and the new uploads
        (``attachments`` here: attachment objects) are added."""
        if int(message["author"]["id"]) != actor:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if int(message["id"]) in self.message_index:  # in a channel, not an interaction's own
            self._refuse_if_archived(self.channel(int(message["channel_id"])))
        merged = {**{k: message.get(k) for k in ("content", "embeds", "components")}, **body}
        check_message_body(merged)
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = (
                    body[key] if body[key] is not None else ([] if key != "content" else "")
                )
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or [] if isinstance(a, dict)}
            message["attachments"] = [
                a for a in message.get("attachments") or [] if a["id"] in keep
            ] + list(attachments or [])
        elif attachments:
            message["attachments"] = [*(message.get("attachments") or []), *attachments]
        if "content" in body:
            self._resolve_mentions(message, body.get("allowed_mentions"))
        if "flags" in body and body["flags"] is not None:
            keep = int(message.get("flags") or 0) & EPHEMERAL
            message["flags"] = int(body["flags"]) | keep
        message["edited_timestamp"] = now_iso()
        if int(message["id"]) in self.message_index:
            self.on_event(
                "MESSAGE_UPDATE",
                {**message, "member": self._member_of(message)},
                INTENT_GUILD_MESSAGES,
            )
        self.on_change()
        return message

    def delete_message(self, message: JSON) -> None:
        mid = int(message["id"])
        if mid in self.message_index:
            del self.message_index[mid]
            cid = int(message["channel_id"])
            self.messages[cid] = [m for m in self.messages[cid] if m["id"] != message["id"]]
            self.on_event(
                "MESSAGE_DELETE",
                {
                    "id": message["id"],
                    "channel_id": message["channel_id"],
                    "guild_id": message.get("guild_id") or str(self.guild_id),
                },
                INTENT_GUILD_MESSAGES,
            )
        else:
            self.ephemeral.pop(mid, None)
        self.on_change()

    # --- the guild as the gateway sends it --------------------------------------------------

    def guild_payload(self, *, members_intent: bool, guild_id: int | None = None) -> JSON:
        """The guild ``guild_id`` (by default the first) as GUILD_CREATE carries it."""
        guild = guild_id or self.guild_id
        members = list(self.users.values()) if members_intent else [self.bot]
        return {
            "id": str(guild),
            "name": self.guild_names[guild],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "features": [],
            "roles": [r.payload() for r in self.guild_roles(guild)],
            "emojis": [],
            "stickers": [],
            "soundboard_sounds": [],
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.users),
            "voice_states": [],
            "members": [m.member_payload() for m in members],
            "channels": [
                self.channel_payload(int(c["id"]))
                for c in self.channels_in(guild)
                if c["type"] not in THREAD_TYPES
            ],
            "threads": [
                dict(c)
                for c in self.channels_in(guild)
                if c["type"] in THREAD_TYPES
                and not c["thread_metadata"]["archived"]
                and self.can_see(self.bot.id, int(c["id"]))
            ],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "embedded_activities": [],
            "application_command_counts": {},
            "incidents_data": None,
            "latest_onboarding_question_id": None,
            "home_header": None,
            "hub_type": None,
            "lazy": True,
        }

    def new_token(self) -> str:
        return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(24)
