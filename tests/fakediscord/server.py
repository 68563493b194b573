"""A Discord-compatible fake server for end-to-end tests: REST routes plus a gateway websocket.

:class:`FakeDiscord` serves, on 127.0.0.1 and a free port, the part of Discord's API v10 that
Caedes Bot uses, over a :class:`~tests.fakediscord.world.World`. A test drives it like a person
at a Discord client (``slash``, ``click``, ``select``, ``autocomplete``) and reads what the bot
did from the world and the interaction records. Waits are driven by a change signal, never by
sleeping; a generous timeout only guards against a hang.

Facts that matter with discord.py 2.7 (see design.md section 6):

* JSON responses carry ``Content-Type: application/json`` exactly, or discord.py reads text;
* the interaction callback is called with ``?with_response=1`` and must answer with a JSON body
  describing the callback (a 204 breaks every reply);
* an unexpected error in a handler is answered with a 4xx and recorded in :attr:`FakeDiscord.bugs`,
  never a 5xx, which discord.py would sleep on and retry;
* a 429 needs a ``Via`` header and a JSON ``retry_after`` or discord.py treats it as a ban.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yarl
from aiohttp import WSMsgType, web

from tests.fakediscord.commands import (
    CommandNotSynced,
    build_command_data,
    find_command,
    validate_commands,
)
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.uploads import UPLOAD_LIMIT, Upload, attachment_objects, read_multipart
from tests.fakediscord.world import (
    CHOICE_NAME_MAX,
    CHOICES_MAX,
    EPHEMERAL,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILDS,
    JSON,
    MISSING_ACCESS,
    UNKNOWN_MESSAGE,
    ApiError,
    FakeUser,
    World,
    check_message_body,
    invalid_form,
    iter_components,
    unknown,
)

API_PREFIX = "/api/v10"
LOADING = 128  # message flag of a deferred ("thinking") reply
HEARTBEAT_INTERVAL_MS = 41_250

# Interaction types and callback types (Discord API).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
CB_MESSAGE = 4
CB_DEFERRED_MESSAGE = 5
CB_DEFERRED_UPDATE = 6
CB_UPDATE = 7
CB_AUTOCOMPLETE = 8
CB_MODAL = 9


# How long a test waits for the bot by default. Only a failing test ever waits this long; it is
# generous so that a suite run on a loaded machine (several suites sharing two cores) does not
# fail on a wait that a quiet machine passes in milliseconds.
WAIT_SECONDS = 30.0


class BotDied(AssertionError):
    """A task the fake was told to watch (the bot's gateway task) ended while a test waited."""


class FakeTimeout(AssertionError):
    """A wait on the fake did not come true in time (a failure guard, not a synchronisation)."""


# --- waiting ----------------------------------------------------------------------------------


class Signal:
    """Wakes every waiter when the world changes; waits fail fast if a watched task dies."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self.watched: list[asyncio.Future[Any]] = []
        #: called on every wake-up of a wait; raising fails the wait at once
        self.checks: list[Callable[[], None]] = []

    def fire(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    def check_watched(self) -> None:
        for check in self.checks:
            check()
        for task in self.watched:
            if task.done():
                exc = None if task.cancelled() else task.exception()
                raise BotDied(f"a watched task ended while the test waited: {exc!r}") from exc

    async def wait_until(
        self, predicate: Callable[[], Any], *, timeout: float, what: str = "a condition"
    ) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            self.check_watched()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeTimeout(f"timed out after {timeout}s waiting for {what}")
            waiter = asyncio.ensure_future(self._event.wait())
            live = [t for t in self.watched if not t.done()]
            try:
                await asyncio.wait(
                    [waiter, *live], timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                )
            finally:
                waiter.cancel()


# --- records ----------------------------------------------------------------------------------


@dataclass
class RequestRecord:
    """One REST request the fake received and what it answered."""

    method: str
    path: str
    status: int
    body: Any = None
    query: dict[str, str] = field(default_factory=dict)
    at: float = 0.0  # loop time when it arrived
    uploads: list[Upload] = field(default_factory=list)  # the files[n] parts of a multipart body


@dataclass
class InteractionRecord:
    """One interaction the test sent and everything the bot answered to it.

    Attributes:
        callbacks: the callback bodies in order (``type`` 4 reply, 5 defer, 6 deferred update,
            7 update, 8 autocomplete choices, 9 modal).
        original: the reply message (for a component interaction: the message clicked), kept
            up to date as the bot edits it.
        followups: follow-up messages, in order.
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    payload: JSON
    target: JSON | None = None
    callbacks: list[JSON] = field(default_factory=list)
    original: JSON | None = None
    followups: list[JSON] = field(default_factory=list)
    edits: int = 0

    @property
    def acknowledged(self) -> bool:
        return bool(self.callbacks)

    @property
    def callback_type(self) -> int | None:
        return int(self.callbacks[0]["type"]) if self.callbacks else None

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices answered (type 8)."""
        for cb in self.callbacks:
            if int(cb["type"]) == CB_AUTOCOMPLETE:
                return list((cb.get("data") or {}).get("choices") or [])
        return []

    @property
    def messages(self) -> list[JSON]:
        """The bot's own messages in answer: the reply (if a new one) and the follow-ups."""
        new = self.callback_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE) and self.original is not None
        return ([self.original] if new and self.original is not None else []) + self.followups

    @property
    def reply(self) -> JSON:
        """The first thing shown in answer: the reply, the updated message, or a follow-up."""
        kind = self.callback_type
        if kind in (CB_MESSAGE, CB_DEFERRED_MESSAGE) and self.original is not None:
            loading = int(self.original.get("flags") or 0) & LOADING
            if not (loading and self.followups):
                return self.original
        if kind in (CB_UPDATE, CB_DEFERRED_UPDATE) and self.edits and self.target is not None:
            return self.target
        if self.followups:
            return self.followups[0]
        raise AssertionError(f"interaction {self.id} has no reply; callbacks: {self.callbacks}")

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.reply.get("flags") or 0) & EPHEMERAL)

    @property
    def text(self) -> str:
        """Every readable string of the reply: content, embed titles, descriptions, fields."""
        return message_text(self.reply)

    def is_final(self) -> bool:
        """The bot has shown its answer (a deferral alone is not an answer)."""
        if not self.callbacks:
            return False
        kind = self.callback_type
        if kind in (CB_MESSAGE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL):
            return True
        if kind == CB_DEFERRED_MESSAGE:
            loading = int((self.original or {}).get("flags") or 0) & LOADING
            return not loading or bool(self.followups)
        return bool(self.edits or self.followups)


def message_text(message: JSON) -> str:
    """Content plus embed title, description, fields and footer, one per line."""
    parts = [message.get("content") or ""]
    for e in message.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((e.get("footer") or {}).get("text") or "")
    return "\n".join(p for p in parts if p)


# --- chaos ------------------------------------------------------------------------------------


DROP = 0
LOSE_ANSWER = -1
HOLD_ANSWER = -2


def _outbox_routes(method: str, path: str) -> bool:
    return path.startswith(("/channels/", "/guilds/"))


@dataclass
class Fault:
    """Answer matching requests with ``status`` ``count`` times or until ``until`` (loop time).

    ``status`` :data:`DROP` (0) closes the connection before doing anything; :data:`LOSE_ANSWER`
    (-1) does the work, then closes the connection instead of answering (Discord did it, the bot
    never heard); :data:`HOLD_ANSWER` (-2) does the work, sets ``reached`` and keeps the
    answer back until ``release`` is set (Discord did it, the answer is on its way: a process
    killed now never hears).
    """

    status: int
    remaining: int | None
    until: float | None
    match: Callable[[str, str], bool]
    retry_after: float = 0.01
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)

    def active(self, now: float) -> bool:
        if self.remaining is not None and self.remaining <= 0:
            return False
        return not (self.until is not None and now >= self.until)


class Chaos:
    """Fault injection: 429s, 5xx and dropped connections on chosen routes.

    By default faults hit the routes the outbox uses (``/channels/...`` and ``/guilds/...``),
    not login, command sync or interaction replies.
    """

    def __init__(self) -> None:
        self.faults: list[Fault] = []
        self.injected: list[tuple[str, str, int]] = []

    def fail(
        self,
        status: int,
        *,
        count: int | None = None,
        seconds: float | None = None,
        method: str | None = None,
        path: str | None = None,
        retry_after: float = 0.01,
    ) -> Fault:
        """Answer the next ``count`` matching requests (or all for ``seconds``) with ``status``.

        ``path`` is a regular expression searched in the path after ``/api/v10``; ``status``
        :data:`DROP` closes the connection without an answer (a network error),
        :data:`LOSE_ANSWER` does the work and then closes it, :data:`HOLD_ANSWER` does the
        work and keeps the answer back until the fault's ``release`` is set.
        """
        if count is None and seconds is None:
            raise ValueError("give count or seconds")
        pattern = re.compile(path) if path else None

        def match(m: str, p: str) -> bool:
            if method and m != method:
                return False
            return bool(pattern.search(p)) if pattern else _outbox_routes(m, p)

        until = None if seconds is None else asyncio.get_running_loop().time() + seconds
        fault = Fault(status, count, until, match, retry_after)
        self.faults.append(fault)
        return fault

    def clear(self) -> None:
        self.faults.clear()

    def take(self, method: str, path: str) -> Fault | None:
        now = asyncio.get_running_loop().time()
        for fault in self.faults:
            if fault.active(now) and fault.match(method, path):
                if fault.remaining is not None:
                    fault.remaining -= 1
                self.injected.append((method, path, fault.status))
                return fault
        return None


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def _abort(request: web.Request) -> web.Response:
    transport = request.transport
    if transport is not None:
        transport.abort()
    return web.Response(status=400)


def _rate_limited(retry_after: float, headers: dict[str, str]) -> web.Response:
    """A per-route 429 as Discord sends it (``Via`` tells discord.py it is not a ban)."""
    return _json(
        {"message": "You are being rate limited.", "retry_after": retry_after, "global": False},
        status=429,
        headers={"Via": "1.1 google", "Retry-After": str(max(1, round(retry_after))), **headers},
    )


def _fault_response(fault: Fault) -> web.Response:
    if fault.status == 429:
        return _json(
            {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": False,
            },
            status=429,
            headers={
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(fault.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(fault.retry_after),
                "X-RateLimit-Bucket": "fake-bucket",
                "X-RateLimit-Scope": "user",
            },
        )
    return _json({"message": f"{fault.status}: fake outage", "code": 0}, status=fault.status)


# --- gateway ----------------------------------------------------------------------------------


class GatewaySession:
    """One connected client; dispatches go out in order through a writer task."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.intents = 0
        self.seq = 0
        self.session_id = secrets.token_hex(16)
        self.identified = False
        #: (shard id, shard count) the session identified with; (0, 1): every guild
        self.shard = (0, 1)
        self.queue: asyncio.Queue[JSON | None] = asyncio.Queue()
        self.writer = asyncio.ensure_future(self._write())

    async def _write(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None or self.ws.closed:
                return
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.send_str(json.dumps(item))

    def send(self, payload: JSON) -> None:
        self.queue.put_nowait(payload)

    def serves(self, guild_id: int | None) -> bool:
        """Whether this session receives a guild's events: its shard is Discord's
        ``(guild_id >> 22) % shard_count``; events of no guild go to every session."""
        shard_id, count = self.shard
        return guild_id is None or (guild_id >> 22) % count == shard_id

    def dispatch(self, event: str, data: JSON) -> None:
        self.seq += 1
        self.send({"op": 0, "t": event, "s": self.seq, "d": data})

    async def close(self) -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self.writer
        if not self.ws.closed:
            await self.ws.close(code=1001)


Handler = Callable[[web.Request, dict[str, str]], Awaitable[web.StreamResponse]]


def _event_guild(event: str, data: JSON) -> int | None:
    """The guild a gateway event belongs to (``None``: every shard gets it)."""
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        raw = data.get("id")
    else:
        raw = data.get("guild_id")
    return int(raw) if raw else None


class FakeDiscord:
    """A fake Discord on 127.0.0.1: start it, point discord.py at :attr:`api_base` and
    :attr:`gateway_url`, run the bot, then act as members.

    Members made at construction: :attr:`admin` (Manage Server through the Admin role) and
    :attr:`players` (four ordinary members). Add more with :meth:`add_member`.
    """

    def __init__(
        self, *, token: str = "fake-bot-token", bot_permissions: int, players: int = 4
    ) -> None:
        self.world = World(token=token, bot_permissions=bot_permissions)
        self.signal = Signal()
        self.world.on_event = self._broadcast
        self.world.on_change = self.signal.fire
        self.admin = self.world.add_member("admin", roles=[self.world.admin_role.id])
        self.players = [self.world.add_member(f"player{i + 1}") for i in range(players)]
        self.chaos = Chaos()
        #: the bytes of files one request may carry (Discord's upload limit for the server);
        #: past it a request is refused with 413, code 40005
        self.upload_limit = UPLOAD_LIMIT
        #: the ``attachment_size_limit`` interactions tell the bot (``None``: the upload
        #: limit); a test sets it apart from :attr:`upload_limit` to play a Discord that
        #: takes less than it says
        self.told_upload_limit: int | None = None
        #: per-route rate limits (none unless a test sets some)
        self.rate_limits = RateLimits()
        self._hooks: list[tuple[str, re.Pattern[str], Callable[[], None]]] = []
        self.requests: list[RequestRecord] = []
        self.unhandled: list[RequestRecord] = []
        self.bugs: list[str] = []
        self.synced: dict[int | None, list[JSON]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.sessions: list[GatewaySession] = []
        self.identify_count = 0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes = self._route_table()

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        # aiohttp refuses bodies over 1 MiB by itself (413, in plain text); let uploads up to
        # past Discord's limit through, so that the fake answers as Discord does (uploads.py)
        app = web.Application(middlewares=[], client_max_size=2 * UPLOAD_LIMIT)
        app.router.add_get("/gateway-ws", self._gateway)
        app.router.add_get("/cdn/attachments/{aid}/{filename}", self._cdn)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self.world.cdn_base = f"{self.url}/cdn"

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        """The bytes of an attachment (uploaded, or attached by a member to an option); 404
        for an id the fake does not hold, as Discord's CDN answers."""
        data = self.world.files.get(int(request.match_info["aid"]))
        if data is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=data, content_type="application/octet-stream")

    async def stop(self) -> None:
        for session in list(self.sessions):
            await session.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What to put in ``discord.http.Route.BASE``."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> yarl.URL:
        """What to put in ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``."""
        return yarl.URL(f"ws://127.0.0.1:{self.port}/gateway-ws")

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def guild_id(self) -> int:
        return self.world.guild_id

    def add_guild(self, name: str) -> int:
        """Another server the bot is in (:meth:`World.add_guild`); before the bot connects."""
        return self.world.add_guild(name)

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot

    def watch(self, task: asyncio.Future[Any]) -> None:
        """Fail every wait at once if ``task`` (the bot's gateway task) ends."""
        self.signal.watched.append(task)

    def unwatch(self, task: asyncio.Future[Any]) -> None:
        if task in self.signal.watched:
            self.signal.watched.remove(task)

    # --- building the world ----------------------------------------------------------------

    def add_member(self, name: str, *, manage_guild: bool = False) -> FakeUser:
        roles = [self.world.admin_role.id] if manage_guild else []
        return self.world.add_member(name, roles=roles)

    # --- gateway ---------------------------------------------------------------------------

    def _broadcast(self, event: str, data: JSON, intent: int) -> None:
        guild = _event_guild(event, data)
        for session in self.sessions:
            if session.identified and session.intents & intent and session.serves(guild):
                session.dispatch(event, data)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        session = GatewaySession(ws)
        session.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                packet = json.loads(msg.data)
                op = packet.get("op")
                if op == 1:
                    session.send({"op": 11})
                elif op == 2:
                    await self._identify(session, packet["d"])
                elif op == 6:
                    session.send({"op": 9, "d": False})  # no resuming: start a new session
        finally:
            if session in self.sessions:
                self.sessions.remove(session)
            await session.close()
        return ws

    async def _identify(self, session: GatewaySession, data: JSON) -> None:
        if data.get("token") != self.world.token:
            await session.close()
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        session.intents = int(data.get("intents", 0))
        shard = data.get("shard")
        if shard:
            session.shard = (int(shard[0]), max(1, int(shard[1])))
        session.identified = True
        self.identify_count += 1
        self.sessions.append(session)
        bot = self.world.bot
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": {**bot.user_payload(), "verified": True, "mfa_enabled": False},
                "guilds": [
                    {"id": str(g), "unavailable": True}
                    for g in self.world.guild_ids
                    if session.serves(g)
                ],
                "session_id": session.session_id,
                "session_type": "normal",
                "resume_gateway_url": str(self.gateway_url),
                "application": {"id": str(self.world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
                "guild_join_requests": [],
                **({"shard": list(session.shard)} if shard else {}),
            },
        )
        if session.intents & INTENT_GUILDS:
            members = bool(session.intents & INTENT_GUILD_MEMBERS)
            for guild in self.world.guild_ids:
                if not session.serves(guild):
                    continue
                payload = self.world.guild_payload(members_intent=members, guild_id=guild)
                session.dispatch("GUILD_CREATE", payload)
        self.signal.fire()

    def _session(self, guild_id: int | None = None) -> GatewaySession:
        """The newest session that receives ``guild_id``'s events (its shard's)."""
        for session in reversed(self.sessions):
            if session.serves(guild_id):
                return session
        raise AssertionError(f"no bot is connected to the fake gateway for guild {guild_id}")

    async def wait_connected(self, *, timeout: float = WAIT_SECONDS) -> None:
        await self.signal.wait_until(
            lambda: self.sessions, timeout=timeout, what="a gateway session"
        )

    # --- REST dispatch ---------------------------------------------------------------------

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Handler, bool]]:
        table: list[tuple[str, str, Handler, bool]] = [
            # (method, path pattern, handler, needs bot authorisation)
            ("GET", r"/users/@me", self._get_me, True),
            ("GET", r"/oauth2/applications/@me", self._get_application, True),
            ("GET", r"/applications/@me", self._get_application, True),
            ("GET", r"/gateway", self._get_gateway, False),
            ("GET", r"/gateway/bot", self._get_gateway, True),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands, True),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands, True),
            (
                "PUT",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._put_commands,
                True,
            ),
            (
                "GET",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._get_commands,
                True,
            ),
            (
                "POST",
                r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback",
                self._callback,
                False,
            ),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup, False),
            (
                "GET",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._get_webhook_message,
                False,
            ),
            (
                "PATCH",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._edit_webhook_message,
                False,
            ),
            (
                "DELETE",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._delete_webhook_message,
                False,
            ),
            ("GET", r"/guilds/(?P<guild>\d+)", self._get_guild, True),
            ("GET", r"/guilds/(?P<guild>\d+)/channels", self._get_guild_channels, True),
            ("POST", r"/guilds/(?P<guild>\d+)/channels", self._create_channel, True),
            ("GET", r"/guilds/(?P<guild>\d+)/roles", self._get_roles, True),
            ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", self._get_member, True),
            ("GET", r"/guilds/(?P<guild>\d+)/threads/active", self._active_threads, True),
            ("GET", r"/channels/(?P<cid>\d+)", self._get_channel, True),
            ("PATCH", r"/channels/(?P<cid>\d+)", self._modify_channel, True),
            ("DELETE", r"/channels/(?P<cid>\d+)", self._delete_channel, True),
            (
                "PUT",
                r"/channels/(?P<cid>\d+)/permissions/(?P<target>\d+)",
                self._put_overwrite,
                True,
            ),
            (
                "DELETE",
                r"/channels/(?P<cid>\d+)/permissions/(?P<target>\d+)",
                self._delete_overwrite,
                True,
            ),
            ("GET", r"/channels/(?P<cid>\d+)/messages", self._get_messages, True),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._post_message, True),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_message, True),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._edit_message, True),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._delete_message, True),
            ("POST", r"/channels/(?P<cid>\d+)/threads", self._create_thread, True),
            (
                "GET",
                r"/channels/(?P<cid>\d+)/threads/archived/private",
                self._archived_private,
                True,
            ),
            ("GET", r"/channels/(?P<cid>\d+)/thread-members", self._get_thread_members, True),
            (
                "PUT",
                r"/channels/(?P<cid>\d+)/thread-members/(?P<user>\d+)",
                self._add_thread_member,
                True,
            ),
            (
                "DELETE",
                r"/channels/(?P<cid>\d+)/thread-members/(?P<user>\d+|@me)",
                self._remove_thread_member,
                True,
            ),
            ("POST", r"/channels/(?P<cid>\d+)/typing", self._typing, True),
        ]
        return [(m, re.compile(f"^{p}$"), h, a) for m, p, h, a in table]

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        body: Any = None
        uploads: list[Upload] = []
        refused: ApiError | None = None
        if request.content_type == "multipart/form-data":
            try:
                body, uploads = await read_multipart(request, limit=self.upload_limit)
            except ApiError as exc:
                refused = exc
        elif request.can_read_body:
            raw = await request.read()
            if raw and request.content_type == "application/json":
                body = json.loads(raw)
        now = asyncio.get_running_loop().time()
        record = RequestRecord(method, path, 0, body, dict(request.query), now, uploads)
        self.requests.append(record)
        if refused is not None:
            response: web.StreamResponse = _json(refused.body(), status=refused.status)
        else:
            response = await self._answer(request, method, path, body, uploads)
        record.status = response.status
        self.signal.fire()
        return response

    def before_next(self, method: str, path: str, action: Callable[[], None]) -> None:
        """Run ``action`` once, just before the fake handles the next ``method`` request whose
        path (after ``/api/v10``) matches the regular expression ``path``: something a
        moderator or Discord itself does at that moment (archive the thread, delete the
        message)."""
        self._hooks.append((method, re.compile(path), action))

    def _run_hooks(self, method: str, path: str) -> None:
        for hook in list(self._hooks):
            if hook[0] == method and hook[1].search(path):
                self._hooks.remove(hook)
                hook[2]()

    async def _answer(
        self, request: web.Request, method: str, path: str, body: Any, uploads: list[Upload]
    ) -> web.StreamResponse:
        self._run_hooks(method, path)
        fault = self.chaos.take(method, path)
        if fault is not None and fault.status not in (DROP, LOSE_ANSWER, HOLD_ANSWER):
            return _fault_response(fault)
        if fault is not None and fault.status == DROP:
            return _abort(request)
        verdict = self.rate_limits.check(method, path, asyncio.get_running_loop().time())
        if verdict is not None and verdict.retry_after is not None:
            return _rate_limited(verdict.retry_after, verdict.headers)
        response = await self._route(request, method, path, body, uploads)
        if verdict is not None:
            response.headers.update(verdict.headers)
        if fault is not None and fault.status == LOSE_ANSWER:
            return _abort(request)
        if fault is not None and fault.status == HOLD_ANSWER:
            fault.reached.set()
            await fault.release.wait()
        return response

    async def _route(
        self, request: web.Request, method: str, path: str, body: Any, uploads: list[Upload]
    ) -> web.StreamResponse:
        for m, pattern, handler, needs_auth in self._routes:
            found = pattern.match(path)
            if m != method or found is None:
                continue
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.world.token}":
                return _json({"message": "401: Unauthorized", "code": 0}, status=401)
            try:
                params = {**found.groupdict(), "_body": body, "_uploads": uploads}
                return await handler(request, params)
            except ApiError as exc:
                return _json(exc.body(), status=exc.status)
            except CommandNotSynced as exc:
                return _json({"message": str(exc), "code": 50035}, status=400)
            except Exception as exc:  # a bug in the fake: answer 4xx, never 5xx
                self.bugs.append(f"{method} {path}: {exc!r}")
                return _json({"message": f"fake discord bug: {exc!r}", "code": 0}, status=400)
        self.unhandled.append(RequestRecord(method, path, 404, body))
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    # --- REST: identity and commands -------------------------------------------------------

    async def _get_me(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        return _json({**self.world.bot.user_payload(), "verified": True, "mfa_enabled": False})

    async def _get_application(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        return _json(
            {
                "id": str(self.world.application_id),
                "name": self.world.bot.name,
                "icon": None,
                "description": "Game master for The Legacy of the Seven Swords (fake)",
                "bot_public": False,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": self.world.owner.user_payload(),
                "team": None,
                "flags": 0,
                "summary": "",
                "bot": self.world.bot.user_payload(),
            }
        )

    async def _get_gateway(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        return _json(
            {
                "url": str(self.gateway_url),
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _put_commands(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        if int(p["app"]) != self.world.application_id:
            raise unknown("Application", 10002)
        guild = int(p["guild"]) if p.get("guild") else None
        if guild is not None and guild not in self.world.guild_ids:
            # a server the bot is not in: Discord answers 403, code 50001 "Missing access"
            # (https://discord.com/developers/docs/topics/opcodes-and-status-codes), not 404
            raise ApiError(403, MISSING_ACCESS, "Missing Access")
        commands = list(p["_body"] or [])
        validate_commands(commands)
        stored = []
        for cmd in commands:
            item = {
                **cmd,
                "id": str(self.world.ids.next()),
                "application_id": str(self.world.application_id),
                "version": str(self.world.ids.next()),
                "type": int(cmd.get("type", 1)),
                "default_member_permissions": cmd.get("default_member_permissions"),
                "dm_permission": cmd.get("dm_permission", True),
                "nsfw": bool(cmd.get("nsfw", False)),
            }
            if guild is not None:
                item["guild_id"] = str(guild)
            stored.append(item)
        self.synced[guild] = stored
        return _json(stored)

    async def _get_commands(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        guild = int(p["guild"]) if p.get("guild") else None
        return _json(self.synced.get(guild, []))

    # --- REST: interactions and webhooks ---------------------------------------------------

    def _record(self, token: str) -> InteractionRecord:
        record = self._by_token.get(token)
        if record is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        return record

    async def _callback(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        record = self.interactions.get(int(p["iid"]))
        if record is None or record.token != p["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if record.callbacks:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = p["_body"] or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL),
            MESSAGE_COMPONENT: (
                CB_MESSAGE,
                CB_DEFERRED_MESSAGE,
                CB_DEFERRED_UPDATE,
                CB_UPDATE,
                CB_MODAL,
            ),
            AUTOCOMPLETE: (CB_AUTOCOMPLETE,),
            MODAL_SUBMIT: (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE),
        }[record.type]
        if kind not in allowed:
            raise invalid_form(
                f"callback type {kind} is not valid for interaction type {record.type}"
            )
        message: JSON | None = None
        if kind == CB_MESSAGE:
            check_message_body(data)
            files = self._attachments(record.channel_id, data, p["_uploads"])
            message = self.world.new_message(
                record.channel_id, self.world.bot, data, attachments=files
            )
            self._attach_interaction(record, message)
            record.original = message
            self.world.store_interaction_message(record.channel_id, message)
        elif kind == CB_DEFERRED_MESSAGE:
            flags = int(data.get("flags") or 0) | LOADING
            message = self.world.new_message(
                record.channel_id, self.world.bot, {"content": ""}, flags=flags
            )
            self._attach_interaction(record, message)
            record.original = message
            self.world.store_interaction_message(record.channel_id, message)
        elif kind == CB_UPDATE:
            assert record.target is not None
            check_message_body({**record.target, **data})
            for key in ("content", "embeds", "components"):
                if key in data:
                    record.target[key] = data[key]
            record.edits += 1
            message = record.target
            self.world.on_change()
        elif kind == CB_AUTOCOMPLETE:
            choices = data.get("choices") or []
            if len(choices) > CHOICES_MAX:
                raise invalid_form(f"{len(choices)} choices > {CHOICES_MAX}")
            for c in choices:
                if not 1 <= len(str(c.get("name", ""))) <= CHOICE_NAME_MAX:
                    raise invalid_form("a choice name is not 1-100 characters")
                if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                    raise invalid_form("a choice value is longer than 100 characters")
        record.callbacks.append(body)
        self.signal.fire()
        answer: JSON = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_loading": kind == CB_DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(
                    message and int(message.get("flags") or 0) & EPHEMERAL
                ),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"]["message"] = message
        return _json(answer)

    def _attach_interaction(self, record: InteractionRecord, message: JSON) -> None:
        message["application_id"] = str(self.world.application_id)
        message["webhook_id"] = str(self.world.application_id)
        message["interaction_metadata"] = {
            "id": str(record.id),
            "type": record.type,
            "user": record.user.user_payload(),
            "authorizing_integration_owners": {"0": str(self.world.guild_id)},
        }

    async def _followup(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        record = self._record(p["token"])
        if not record.callbacks:
            raise ApiError(404, 10015, "Unknown Webhook (the interaction was not acknowledged)")
        body = p["_body"] or {}
        check_message_body(body)
        original = record.original
        if (
            record.callback_type == CB_DEFERRED_MESSAGE
            and original is not None
            and int(original.get("flags") or 0) & LOADING
        ):
            # Discord: the first follow-up after a "thinking" deferral replaces the loading
            # message, which keeps the deferral's flags (ephemeral or not).
            original["flags"] = int(original["flags"]) & ~LOADING
            self.world.edit_message(
                self.world.bot.id,
                original,
                {k: v for k, v in body.items() if k != "flags"},
                attachments=self._attachments(record.channel_id, body, p["_uploads"]),
            )
            record.edits += 1
            return _json(original)
        files = self._attachments(record.channel_id, body, p["_uploads"])
        message = self.world.new_message(record.channel_id, self.world.bot, body, attachments=files)
        message["webhook_id"] = str(self.world.application_id)
        record.followups.append(message)
        self.world.store_interaction_message(record.channel_id, message)
        return _json(message)

    def _webhook_message(self, record: InteractionRecord, mid: str) -> JSON:
        if mid == "@original":
            if record.original is None:
                raise unknown("Message", 10008)
            return record.original
        for m in [record.original, *record.followups]:
            if m is not None and m["id"] == mid:
                return m
        raise unknown("Message", 10008)

    async def _get_webhook_message(
        self, request: web.Request, p: dict[str, Any]
    ) -> web.StreamResponse:
        return _json(self._webhook_message(self._record(p["token"]), p["mid"]))

    async def _edit_webhook_message(
        self, request: web.Request, p: dict[str, Any]
    ) -> web.StreamResponse:
        record = self._record(p["token"])
        message = self._webhook_message(record, p["mid"])
        body = dict(p["_body"] or {})
        if int(message.get("flags") or 0) & LOADING:
            message["flags"] = int(message["flags"]) & ~LOADING
        body.pop("flags", None)
        files = self._attachments(record.channel_id, body, p["_uploads"])
        self.world.edit_message(self.world.bot.id, message, body, attachments=files)
        record.edits += 1
        return _json(message)

    async def _delete_webhook_message(
        self, request: web.Request, p: dict[str, Any]
    ) -> web.StreamResponse:
        record = self._record(p["token"])
        self.world.delete_message(self._webhook_message(record, p["mid"]))
        return web.Response(status=204)

    # --- REST: guild, channels, threads, messages ------------------------------------------

    def _check_guild(self, p: dict[str, Any]) -> int:
        guild = int(p["guild"])
        if guild not in self.world.guild_ids:
            raise unknown("Guild", 10004)
        return guild

    async def _get_guild(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        guild = self._check_guild(p)
        data = self.world.guild_payload(members_intent=False, guild_id=guild)
        for key in ("channels", "threads", "members", "voice_states", "presences"):
            data.pop(key, None)
        return _json(data)

    async def _get_guild_channels(
        self, request: web.Request, p: dict[str, Any]
    ) -> web.StreamResponse:
        guild = self._check_guild(p)
        return _json(
            [
                self.world.channel_payload(int(c["id"]))
                for c in self.world.channels_in(guild)
                if c["type"] not in (11, 12)
            ]
        )

    async def _create_channel(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        guild = self._check_guild(p)
        created = self.world.create_channel(self.world.bot.id, p["_body"] or {}, guild)
        return _json(created, status=201)

    async def _get_roles(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        guild = self._check_guild(p)
        return _json([r.payload() for r in self.world.guild_roles(guild)])

    async def _get_member(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        self._check_guild(p)
        return _json(self.world.user(int(p["user"])).member_payload())

    async def _active_threads(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        guild = self._check_guild(p)
        return _json(self.world.active_threads(self.world.bot.id, guild))

    def _visible(self, cid: int) -> JSON:
        channel = self.world.channel(cid)
        if not self.world.can_see(self.world.bot.id, cid):
            raise ApiError(403, 50001, "Missing Access")
        return channel

    async def _get_channel(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        self._visible(int(p["cid"]))
        return _json(self.world.channel_payload(int(p["cid"])))

    async def _modify_channel(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        return _json(self.world.modify_channel(self.world.bot.id, int(p["cid"]), p["_body"] or {}))

    async def _delete_channel(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        return _json(self.world.delete_channel(self.world.bot.id, int(p["cid"])))

    async def _put_overwrite(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        self.world.put_overwrite(
            self.world.bot.id, int(p["cid"]), int(p["target"]), p["_body"] or {}
        )
        return web.Response(status=204)

    async def _delete_overwrite(
        self, request: web.Request, p: dict[str, Any]
    ) -> web.StreamResponse:
        self.world.delete_overwrite(self.world.bot.id, int(p["cid"]), int(p["target"]))
        return web.Response(status=204)

    async def _get_messages(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        cid = int(p["cid"])
        self._visible(cid)
        if not self.world.can(self.world.bot.id, cid, "read_message_history"):
            return _json([])
        limit = int(request.query.get("limit", 50))
        oldest_first = list(self.world.messages[cid])
        before = request.query.get("before")
        after = request.query.get("after")
        if before:
            oldest_first = [m for m in oldest_first if int(m["id"]) < int(before)]
        if after:
            # the ``limit`` messages just after ``after``, newest first, as Discord pages them
            page = [m for m in oldest_first if int(m["id"]) > int(after)][:limit]
        else:
            page = oldest_first[-limit:] if limit else []
        return _json([as_read(m) for m in reversed(page)])

    async def _post_message(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        body = p["_body"] or {}
        files = self._attachments(int(p["cid"]), body, p["_uploads"])
        message, _created = self.world.post_message(
            self.world.bot.id, int(p["cid"]), body, attachments=files
        )
        return _json(message)

    def _attachments(self, channel_id: int, body: JSON, uploads: list[Upload]) -> list[JSON]:
        """The attachment objects of a request's uploads; their bytes are kept in
        :attr:`World.files` by attachment id, so a test can read what was uploaded."""
        objects = attachment_objects(channel_id, body, uploads, self.world.ids.next)
        for obj, upload in zip(objects, uploads, strict=True):
            self.world.files[int(obj["id"])] = upload.data
        return objects

    def _channel_message(self, p: dict[str, Any]) -> JSON:
        """The message a route names. A message that is not there (never was, or deleted, as
        by :meth:`delete_as_moderator`) is 404, code 10008 "Unknown message"
        (https://discord.com/developers/docs/topics/opcodes-and-status-codes), for reading
        and editing alike."""
        cid = int(p["cid"])
        self._visible(cid)
        message = self.world.message_index.get(int(p["mid"]))
        if message is None or message["channel_id"] != str(cid):
            raise unknown("Message", UNKNOWN_MESSAGE)
        return message

    async def _get_message(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        return _json(as_read(self._channel_message(p)))

    async def _edit_message(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        message = self._channel_message(p)
        body = p["_body"] or {}
        files = self._attachments(int(p["cid"]), body, p["_uploads"])
        return _json(self.world.edit_message(self.world.bot.id, message, body, attachments=files))

    async def _delete_message(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        message = self._channel_message(p)
        if message["author"]["id"] != str(self.world.bot.id) and not self.world.can(
            self.world.bot.id, int(p["cid"]), "manage_messages"
        ):
            raise ApiError(403, 50013, "Missing Permissions")
        self.world.delete_message(message)
        return web.Response(status=204)

    async def _create_thread(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        return _json(
            self.world.create_thread(self.world.bot.id, int(p["cid"]), p["_body"] or {}), status=201
        )

    async def _archived_private(
        self, request: web.Request, p: dict[str, Any]
    ) -> web.StreamResponse:
        return _json(self.world.archived_private_threads(self.world.bot.id, int(p["cid"])))

    async def _get_thread_members(
        self, request: web.Request, p: dict[str, Any]
    ) -> web.StreamResponse:
        return _json(self.world.thread_member_payloads(int(p["cid"])))

    async def _add_thread_member(
        self, request: web.Request, p: dict[str, Any]
    ) -> web.StreamResponse:
        self.world.add_thread_member(self.world.bot.id, int(p["cid"]), int(p["user"]))
        return web.Response(status=204)

    async def _remove_thread_member(
        self, request: web.Request, p: dict[str, Any]
    ) -> web.StreamResponse:
        user = self.world.bot.id if p["user"] == "@me" else int(p["user"])
        self.world.remove_thread_member(self.world.bot.id, int(p["cid"]), user)
        return web.Response(status=204)

    async def _typing(self, request: web.Request, p: dict[str, Any]) -> web.StreamResponse:
        return web.Response(status=204)

    # --- acting as members -----------------------------------------------------------------

    def delete_as_moderator(self, message: JSON) -> None:
        """A moderator deletes ``message`` (any author's, in any channel or thread, archived
        or not: deleting is what an archived thread still allows, docs: topics/threads).
        The bot hears MESSAGE_DELETE; an edit of it is then 404, code 10008."""
        if int(message["id"]) not in self.world.message_index:
            raise AssertionError(f"message {message['id']} is not in a channel")
        self.world.delete_message(message)

    def commands_for(self, *, guild: bool = True) -> list[JSON]:
        """The commands a member of the guild sees: guild commands first, then global ones."""
        merged = list(self.synced.get(self.world.guild_id, [])) if guild else []
        names = {c["name"] for c in merged}
        merged += [c for c in self.synced.get(None, []) if c["name"] not in names]
        return merged

    def _base_interaction(
        self, kind: int, user: FakeUser, channel_id: int
    ) -> tuple[InteractionRecord, JSON]:
        world = self.world
        channel = world.channel(channel_id)
        if not world.can_see(user.id, channel_id):
            raise AssertionError(f"{user.name} cannot see channel {channel['name']!r}")
        iid = world.ids.next()
        token = world.new_token()
        permissions = world.permissions_for(user.id, channel_id)
        payload: JSON = {
            "id": str(iid),
            "application_id": str(world.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": channel["guild_id"],
            "guild": {"id": channel["guild_id"], "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "channel_id": str(channel_id),
            "channel": world.channel_payload(channel_id),
            "member": user.member_payload(permissions=permissions),
            "locale": "en-GB",
            "app_permissions": str(world.permissions_for(world.bot.id, channel_id)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": channel["guild_id"]},
            "context": 0,
            "attachment_size_limit": self.upload_limit
            if self.told_upload_limit is None
            else self.told_upload_limit,
        }
        record = InteractionRecord(iid, token, kind, user, channel_id, payload)
        return record, payload

    def _send_interaction(self, record: InteractionRecord) -> None:
        self.interactions[record.id] = record
        self._by_token[record.token] = record
        guild = record.payload.get("guild_id")
        self._session(int(guild) if guild else None).dispatch("INTERACTION_CREATE", record.payload)

    async def slash(
        self,
        user: FakeUser,
        command: str,
        *,
        channel: JSON | int | None = None,
        wait: bool = True,
        timeout: float = WAIT_SECONDS,
        **options: Any,
    ) -> InteractionRecord:
        """Use ``/command`` (``"campaign new"``) as ``user`` in ``channel`` (default #general).

        Options are checked against the commands the bot synced. With ``wait`` (the default)
        returns once the bot has answered (a deferral alone is not an answer).
        """
        cid = _channel_id(channel, self.world.general)
        top, subpath, definitions = find_command(self.commands_for(), command)
        record, payload = self._base_interaction(APPLICATION_COMMAND, user, cid)
        payload["data"] = build_command_data(self.world, top, subpath, definitions, options)
        self._send_interaction(record)
        if wait:
            await self.answered(record, timeout=timeout)
        return record

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        focused: str,
        current: str = "",
        *,
        channel: JSON | int | None = None,
        timeout: float = WAIT_SECONDS,
        **options: Any,
    ) -> list[JSON]:
        """Type ``current`` into option ``focused`` of ``/command``; returns the choices offered."""
        cid = _channel_id(channel, self.world.general)
        top, subpath, definitions = find_command(self.commands_for(), command)
        definition = next((o for o in definitions if o["name"] == focused), None)
        if definition is None or not definition.get("autocomplete"):
            raise CommandNotSynced(f"/{command} option {focused!r} has no autocomplete")
        record, payload = self._base_interaction(AUTOCOMPLETE, user, cid)
        values = {**options, focused: current}
        payload["data"] = build_command_data(
            self.world, top, subpath, definitions, values, focused=focused
        )
        self._send_interaction(record)
        await self.answered(record, timeout=timeout)
        return record.choices

    def _component(self, message: JSON, custom_id: str) -> JSON:
        for component in iter_components(message):
            if component.get("custom_id") == custom_id:
                if component.get("disabled"):
                    raise AssertionError(f"component {custom_id!r} is disabled")
                return component
        known = [c.get("custom_id") for c in iter_components(message)]
        raise AssertionError(f"no component {custom_id!r} on the message; it has {known}")

    async def _component_interaction(
        self,
        user: FakeUser,
        message: JSON,
        custom_id: str,
        data: JSON,
        *,
        wait: bool,
        timeout: float,
    ) -> InteractionRecord:
        cid = int(message["channel_id"])
        record, payload = self._base_interaction(MESSAGE_COMPONENT, user, cid)
        # Discord sends the message as it is when the member clicks: its latest edit, which
        # may no longer hold the control clicked on an older render (``message``), and a copy,
        # so that an edit before the event goes out does not change what the bot is told
        try:
            live = self.world.message(int(message["id"]))
        except ApiError:  # a message the test made up: sent as given
            live = message
        payload["message"] = copy.deepcopy(live)
        payload["data"] = {"custom_id": custom_id, **data}
        record.target = live
        record.original = live
        self._send_interaction(record)
        if wait:
            await self.answered(record, timeout=timeout)
        return record

    async def click(
        self,
        user: FakeUser,
        message: JSON,
        custom_id: str,
        *,
        wait: bool = True,
        timeout: float = WAIT_SECONDS,
    ) -> InteractionRecord:
        """Press the button ``custom_id`` on ``message`` as ``user``."""
        component = self._component(message, custom_id)
        if component.get("type") != 2:
            raise AssertionError(f"{custom_id!r} is not a button")
        return await self._component_interaction(
            user, message, custom_id, {"component_type": 2}, wait=wait, timeout=timeout
        )

    async def select(
        self,
        user: FakeUser,
        message: JSON,
        custom_id: str,
        values: Sequence[str],
        *,
        wait: bool = True,
        timeout: float = WAIT_SECONDS,
    ) -> InteractionRecord:
        """Choose ``values`` in the string select ``custom_id`` on ``message`` as ``user``."""
        component = self._component(message, custom_id)
        if component.get("type") != 3:
            raise AssertionError(f"{custom_id!r} is not a string select")
        offered = [o["value"] for o in component.get("options") or []]
        bad = [v for v in values if v not in offered]
        if bad:
            raise AssertionError(f"{bad} are not options of {custom_id!r}: {offered}")
        lo, hi = int(component.get("min_values", 1)), int(component.get("max_values", 1))
        if not lo <= len(values) <= hi:
            raise AssertionError(f"{custom_id!r} takes {lo}..{hi} values, not {len(values)}")
        return await self._component_interaction(
            user,
            message,
            custom_id,
            {"component_type": 3, "values": list(values)},
            wait=wait,
            timeout=timeout,
        )

    # --- waiting and reading ---------------------------------------------------------------

    async def answered(
        self, record: InteractionRecord, *, timeout: float = WAIT_SECONDS
    ) -> InteractionRecord:
        """Wait until the bot has shown its answer to ``record``."""
        await self.signal.wait_until(
            record.is_final, timeout=timeout, what=f"an answer to interaction {record.id}"
        )
        return record

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float = WAIT_SECONDS,
        what: str = "a condition",
    ) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every change); returns its value."""
        return await self.signal.wait_until(predicate, timeout=timeout, what=what)

    def channel_named(self, name: str, *, parent: JSON | int | None = None) -> JSON:
        """The one channel or thread called ``name`` (under ``parent``); fails if 0 or 2+."""
        parent_id = None if parent is None else _channel_id(parent, None)
        found = self.world.channels_named(name, parent_id=parent_id)
        if len(found) != 1:
            raise AssertionError(f"expected one channel {name!r}, found {len(found)}")
        return found[0]

    def messages_in(self, channel: JSON | int) -> list[JSON]:
        return list(self.world.messages[_channel_id(channel, None)])

    def requests_to(self, method: str, pattern: str) -> list[RequestRecord]:
        regex = re.compile(pattern)
        return [r for r in self.requests if r.method == method and regex.search(r.path)]

    def problems(self) -> list[str]:
        """What went wrong on the fake's side: its own bugs and routes it does not serve."""
        return self.bugs + [f"unhandled {r.method} {r.path}" for r in self.unhandled]


def as_read(message: JSON) -> JSON:
    """A message as Discord gives it when it is read later: without its ``nonce``, which
    only the answer to the post and the MESSAGE_CREATE event carry
    (https://discord.com/developers/docs/resources/message#create-message)."""
    return {k: v for k, v in message.items() if k != "nonce"}


def _channel_id(channel: JSON | int | None, default: JSON | None) -> int:
    if channel is None:
        if default is None:
            raise ValueError("a channel is needed")
        return int(default["id"])
    if isinstance(channel, dict):
        return int(channel["id"])
    return int(channel)


def all_text(messages: Iterable[JSON]) -> str:
    return "\n".join(message_text(m) for m in messages)
