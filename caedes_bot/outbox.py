"""The outbox: every message owed to Discord, delivered at least once (design.md section 4).

The service writes outbox rows in the same transaction as the change they report, so nothing
is ever announced that did not happen, and nothing that happened goes unannounced. The
:class:`OutboxDispatcher` reads them back through the delivery API
(:class:`~caedes_bot.service.delivery.Delivery`; it never touches the database itself) and
hands them, one at a time, to a :class:`Sender`
(the Discord edge implements it):

* rows of one queue, ``(campaign, channel_key)``, go strictly in id order; a row that keeps
  failing holds back later rows of its own queue only;
* a row may depend on another (a thread on its parent channel): it waits until that one is
  delivered, and fails if that one failed;
* a :class:`RetryableError` retries with capped exponential backoff; a
  :class:`PermanentError` marks the row failed and its queue moves on;
* when a row that created a category, channel or thread is delivered, its Discord id is stored
  (``channels.discord_id``), so later rows are given the ids they need.

Delivery is at least once, so the sender must make a repeat harmless: send posts with
``row.nonce`` and ``enforce_nonce=True`` (Discord drops a duplicate), and before creating a
category, channel or thread look for an existing one of ``payload["name"]`` under the same
parent and return it. Direct replies to interactions never go through the outbox.

Discord remembers a nonce only for a few minutes, and a retry may come later (the backoff goes
up to :attr:`OutboxDispatcher.max_delay`, a restart later still). So:

* each row is marked delivered as soon as Discord accepts it, never at the end of a pass: a
  crash loses the record of at most the row in flight;
* a post that may have reached Discord before (a retry, or a row pending when this dispatcher
  started, which a previous process may have sent) is handed over with ``look_first`` and
  ``after_message_id``, the newest message its queue is known to have posted. Rows of a queue
  go in order, so a copy of it can only be a message of the bot's newer than that one; the
  sender looks there first and returns the copy's id (``detail["found"]``) instead of posting.
  When it finds none, the rows after it in the queue were not posted either, and go straight.

Edits of one message are coalesced and may be paced (decision 0015), so that a battle fought
round after round does not edit its message once per round into Discord's per-route rate
limits (a 429 with ``retry_after``):

* an ``edit`` row with a later ``edit`` of the same ``payload["message_key"]`` in its queue is
  superseded: the newest content is what is owed, so the older row is marked delivered with
  ``result["superseded_by"]`` and nothing is sent for it. Never across a post that ``replaces``
  that key (the older edit is meant for the message posted before);
* an edit marked ``payload["paced"]`` goes at most once per :attr:`OutboxDispatcher.edit_interval`
  seconds after the last post or edit of its message: it waits (its queue with it), and the
  edits queued meanwhile are coalesced into it. The rows are stored, so a restart loses nothing
  (the time of the last write is kept in memory: after a restart the first edit goes at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import (
    CREATING_KINDS,
    OutboxKind,
    OutboxMessage,
    OutboxRecord,
    OutboxStatus,
    utcnow,
)
from caedes_bot.service.delivery import Delivered, Delivery, QueueContext

__all__ = [
    "DeliveryResult",
    "OutboxDispatcher",
    "OutboxKind",
    "OutboxMessage",
    "OutboxRow",
    "PermanentError",
    "RetryableError",
    "Sender",
    "superseding_edit",
]

log = logging.getLogger(__name__)


class RetryableError(Exception):
    """Delivery failed for now (network, 5xx, rate limit); try again later.

    Attributes:
        retry_after: seconds Discord asked to wait, if it said.
    """

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PermanentError(Exception):
    """Delivery can never succeed (forbidden, unknown channel, invalid body): give up on the
    row; its queue moves on and the error stays on the row for the umpire."""


#: Kinds that act on an existing channel or thread (which must already have its Discord id).
_NEEDS_CHANNEL: frozenset[OutboxKind] = frozenset(
    {
        OutboxKind.POST,
        OutboxKind.EDIT,
        OutboxKind.ADD_THREAD_MEMBER,
        OutboxKind.REMOVE_THREAD_MEMBER,
        OutboxKind.GRANT_CHANNEL_ACCESS,
        OutboxKind.REVOKE_CHANNEL_ACCESS,
        OutboxKind.LOCK_THREAD,
    }
)


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """One row handed to the :class:`Sender`, with the Discord ids it needs resolved.

    Attributes:
        id: the row id (stable across retries).
        campaign_id: the campaign. guild_id: its Discord guild.
        channel_key: the campaign's key of the place (``"announcements"``, ``"orders:DAW"``).
        kind: what to do. payload: its detail (``content``, ``name``, ``user_id``...).
        nonce: send with a posted message, with ``enforce_nonce`` (max 25 characters).
        attempts: failed attempts so far.
        channel_id: Discord id of ``channel_key``'s place, if it exists (``None`` for a row
            creating it).
        parent_id: for a creating row, the Discord id of the parent (category or channel).
        message_id: for an ``edit``, the Discord id of the message to edit.
        look_first: a post that may have reached Discord already: look for it before posting
            (see the module docstring).
        after_message_id: with ``look_first``, the newest message id its queue is known to
            have posted (``None``: none yet); a copy can only be newer.
    """

    id: int
    campaign_id: int
    guild_id: int
    channel_key: ChannelKey
    kind: OutboxKind
    payload: Mapping[str, Any]
    nonce: str
    attempts: int
    channel_id: int | None = None
    parent_id: int | None = None
    message_id: int | None = None
    look_first: bool = False
    after_message_id: int | None = None


@dataclass(frozen=True, slots=True)
class DeliveryResult:
    """What Discord returned: the created channel/thread/message id and any detail to keep."""

    discord_id: int | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)


class Sender(Protocol):
    """Delivers one outbox row to Discord. Implemented by the Discord edge.

    Must raise :class:`RetryableError` or :class:`PermanentError` on failure (anything else is
    treated as retryable and logged). Must make a repeat harmless: see the module docstring.
    """

    async def deliver(self, row: OutboxRow) -> DeliveryResult: ...


_DELIVERED, _FAILED, _WAITING = "delivered", "failed", "waiting"


class _Wait(Exception):
    """The row cannot go yet (its dependency is not delivered); try again at ``until``."""

    def __init__(self, until: datetime) -> None:
        super().__init__(until.isoformat())
        self.until = until


async def sleep_or_wake(
    sleep: Callable[[float], Awaitable[None]], delay: float, wake: asyncio.Event
) -> None:
    """Wait ``delay`` seconds with ``sleep``, or less if ``wake`` is set; then clear ``wake``.

    The background loops (outbox, scheduler) nap with it between passes.
    """
    if delay > 0 and not wake.is_set():
        sleeper = asyncio.ensure_future(sleep(delay))
        waker = asyncio.ensure_future(wake.wait())
        _done, pending = await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    wake.clear()


def _merged(
    contexts: dict[int, QueueContext], campaign_id: int, fresh: QueueContext
) -> QueueContext:
    """The one context of a campaign for all its queues served in one
    :meth:`OutboxDispatcher.run_once`, brought up to date with ``fresh`` (read later).

    Queues of one campaign started by different look-ups must share it: a queue creating a
    place writes the place's Discord id into the context before the row is marked delivered,
    so a queue whose row depends on that one, which finds the row delivered, must find the id
    in its context too. An id known already is never forgotten for a later read's ``None``;
    the queues taken over are added up (a queue still being served keeps its mark)."""
    known = contexts.get(campaign_id)
    if known is None:
        contexts[campaign_id] = fresh
        return fresh
    known.guild_id = fresh.guild_id
    for key, (discord_id, parent) in fresh.channels.items():
        had = known.channels.get(key, (None, None))[0]
        known.channels[key] = (discord_id if discord_id is not None else had, parent)
    known.taken_over |= fresh.taken_over
    return known


class OutboxDispatcher:
    """Delivers outbox rows in order per queue, with retries (see the module docstring).

    Args:
        delivery: the door to the stored rows (``RulesService.delivery``, or
            ``Delivery(db)``); the dispatcher never touches the database otherwise.
        sender: the Discord side.
        clock: the current UTC time (injectable for tests).
        sleep: ``asyncio.sleep`` or a fake; used only by :meth:`run` while idle.
        base_delay: seconds before the first retry; doubled after each failure.
        max_delay: the cap on the backoff.
        idle_poll: seconds :meth:`run` waits when nothing is due and nobody calls :meth:`wake`.
        concurrency: how many queues are served at the same time.
        edit_interval: the fewest seconds between two writes (the post, then each edit) of a
            message whose edits are marked ``payload["paced"]``; 0 turns pacing off.
    """

    def __init__(
        self,
        delivery: Delivery,
        sender: Sender,
        *,
        clock: Callable[[], datetime] = utcnow,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        base_delay: float = 1.0,
        max_delay: float = 300.0,
        idle_poll: float = 60.0,
        concurrency: int = 4,
        batch: int = 100,
        edit_interval: float = 0.0,
    ) -> None:
        self.delivery = delivery
        self.sender = sender
        self._clock = clock
        self._sleep = sleep
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.idle_poll = idle_poll
        self._semaphore = asyncio.Semaphore(concurrency)
        self._batch = batch
        self.edit_interval = edit_interval
        #: (campaign, message key) -> when a paced message was last posted or edited
        self._written: dict[tuple[int, str], datetime] = {}
        self._wake = asyncio.Event()
        self._stopping = False
        #: rows created before this instant may have been sent by a previous process
        self._started = clock()

    # ----------------------------------------------------------------------- control

    def wake(self, _campaign_id: int | None = None) -> None:
        """New rows were queued: deliver them now (fits ``RulesService.add_listener``)."""
        self._wake.set()

    def stop(self) -> None:
        """Ask :meth:`run` to return after the current pass."""
        self._stopping = True
        self._wake.set()

    def backoff(self, attempts: int) -> float:
        """Seconds to wait after the ``attempts``-th failure (1-based): base * 2^(n-1), capped."""
        return float(min(self.max_delay, self.base_delay * 2 ** max(0, attempts - 1)))

    async def run(self) -> None:
        """Deliver until :meth:`stop`: a pass, then wait for :meth:`wake` or the next due row."""
        while not self._stopping:
            failed = False
            try:
                await self.run_once()
            except Exception:
                failed = True
                log.exception("outbox pass failed")
            if self._stopping:
                break
            delay = await self._idle_delay()
            if failed:
                delay = max(delay, self.base_delay)  # never spin on a persistent error
            await sleep_or_wake(self._sleep, delay, self._wake)

    async def _idle_delay(self) -> float:
        nxt = await self.delivery.next_attempt(self._clock())
        if nxt is None:
            return self.idle_poll
        return max(0.0, min(self.idle_poll, (nxt - self._clock()).total_seconds()))

    # ----------------------------------------------------------------------- delivery

    async def run_once(self, *, max_passes: int = 10_000) -> int:
        """Deliver everything that is due now, queue by queue, until nothing more can go.

        Each queue whose first pending row is due is served by a task of its own: its rows go
        one after the other while they are delivered, and it stops at the first row that must
        wait. Queues never wait for each other: whenever one finishes having delivered
        something, or :meth:`wake` is called, the due queues are looked up again and those not
        being served start at once. So a queue held back (Discord's rate limit on its channel,
        which discord.py waits out inside the call, or a backoff) delays only itself, and rows
        queued meanwhile in other queues go as soon as they are due. A queue that stopped with
        nothing done is looked at again only after another queue delivered something (a row
        it depends on may have gone); the call returns when no queue is being served and none
        can start. After :meth:`stop`, no new queue starts; those being served finish.

        Args:
            max_passes: the most look-ups of the due queues (a guard against a loop).

        Returns:
            The number of rows delivered.
        """
        delivered = 0
        serving: dict[asyncio.Future[tuple[int, bool]], tuple[int, ChannelKey]] = {}
        stalled: set[tuple[int, ChannelKey]] = set()
        moves = 0  # queues that finished having done something, so far
        started: dict[tuple[int, ChannelKey], int] = {}  # queue -> ``moves`` when it began
        #: campaign -> its context, shared by all its queues served in this call
        contexts: dict[int, QueueContext] = {}
        look = True
        waker: asyncio.Future[Any] | None = None

        broken: list[BaseException] = []

        def stop_all_if_broken(done: asyncio.Future[tuple[int, bool]]) -> None:
            # a queue died (say a crash of the sender): the others stop at once, even while
            # this call is busy looking up queues, as the process would if it died
            error = None if done.cancelled() else done.exception()
            if error is not None:
                broken.append(error)
                for other in serving:
                    other.cancel()

        try:
            for _ in range(max_passes):
                if look and not self._stopping and not broken:
                    now = self._clock()
                    busy = set(serving.values())
                    for rows, ctx in await self.delivery.due_queues(now, batch=self._batch):
                        if not rows:
                            continue
                        key = (rows[0].campaign_id, rows[0].channel_key)
                        if key in busy or key in stalled:
                            continue
                        shared = _merged(contexts, key[0], ctx)
                        task = asyncio.ensure_future(self._serve_queue(rows, shared, now))
                        task.add_done_callback(stop_all_if_broken)
                        serving[task] = key
                        started[key] = moves
                look = False
                if not serving:
                    break
                if waker is None:
                    waker = asyncio.ensure_future(self._wake.wait())
                waiting: set[asyncio.Future[Any]] = {*serving, waker}
                done, _pending = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if waker in done:
                    waker = None
                    self._wake.clear()  # new rows: looked up just below
                    look = True
                if broken:
                    raise broken[0]
                finished = [(serving.pop(t), t.result()) for t in list(serving) if t in done]
                before = moves
                moves += sum(1 for _key, (_count, progress) in finished if progress)
                if moves > before:
                    stalled.clear()
                for key, (count, _progress) in finished:
                    delivered += count
                    if moves > started.pop(key):
                        look = True  # it, or another since it began, did something: look again
                    else:
                        stalled.add(key)
        except BaseException:
            # one queue died (or we were cancelled): stop the others before leaving
            for other in serving:
                other.cancel()
            await asyncio.gather(*serving, return_exceptions=True)
            raise
        finally:
            if waker is not None:
                waker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await waker
        return delivered

    async def _serve_queue(
        self, rows: list[OutboxRecord], ctx: QueueContext, read_at: datetime
    ) -> tuple[int, bool]:
        """Serve one queue's rows in order; each row is marked delivered as soon as Discord
        has accepted it (Discord forgets a nonce after a few minutes, so a record kept back
        would let a crash post it twice). ``read_at``: when ``rows`` were read. A paced edit
        goes only if its interval had passed then: edits queued since were not read with it,
        so one whose interval ran out while the pass went on waits for the next pass, which
        reads them and folds them in."""
        count = 0
        progress = False
        looked = False  # a look-up found nothing: the later rows were never posted
        for index, record in enumerate(rows):
            newer = superseding_edit(rows, index)
            if newer is not None:
                await self.delivery.supersede(record, by=newer.id, now=self._clock())
                progress = True
                continue
            paced = self._paced_until(record, read_at)
            if paced is not None:
                await self.delivery.defer(record.id, until=paced)
                break
            if not await self.delivery.hold(record.campaign_id, record.channel_key, self._clock()):
                break  # another process took the queue over (decision 0025)
            suspect = self._may_be_posted(record, looked) or (
                record.kind is OutboxKind.POST
                and not looked
                and record.channel_key in ctx.taken_over
            )
            outcome = await self._serve(record, ctx, look_first=suspect)
            if isinstance(outcome, DeliveryResult):
                await self._mark_delivered(record, outcome)
                self._note_write(record)
                looked = looked or (suspect and not outcome.detail.get("found"))
                count += 1
                progress = True
                continue
            if outcome == _WAITING:
                break
            progress = True
        return count, progress

    def _paced_until(self, record: OutboxRecord, now: datetime) -> datetime | None:
        """When a paced edit may go, if not at ``now``: :attr:`edit_interval` after the last
        write of its message (``None``: it may go)."""
        key = record.payload.get("message_key")
        if (
            self.edit_interval <= 0
            or record.kind is not OutboxKind.EDIT
            or not record.payload.get("paced")
            or not isinstance(key, str)
        ):
            return None
        last = self._written.get((record.campaign_id, key))
        if last is None:
            return None
        until = last + timedelta(seconds=self.edit_interval)
        return until if now < until else None

    def _note_write(self, record: OutboxRecord) -> None:
        """Remember when a paced message was written: its post (``paced`` and a dedupe key)
        or one of its paced edits. Entries older than the interval are dropped now and then,
        so the memory stays small."""
        if self.edit_interval <= 0 or not record.payload.get("paced"):
            return
        key = record.dedupe_key if record.kind is OutboxKind.POST else None
        if record.kind is OutboxKind.EDIT:
            key = record.payload.get("message_key")
        if not isinstance(key, str):
            return
        now = self._clock()
        if len(self._written) > 1000:
            horizon = now - timedelta(seconds=self.edit_interval)
            self._written = {k: t for k, t in self._written.items() if t > horizon}
        self._written[(record.campaign_id, key)] = now

    def _may_be_posted(self, record: OutboxRecord, looked: bool) -> bool:
        """Whether ``record`` is a post Discord may already have: it was tried and its answer
        lost, or it was pending when this dispatcher started (unless a look-up earlier in its
        queue showed that nothing after was posted)."""
        if record.kind is not OutboxKind.POST:
            return False
        return record.attempts > 0 or (not looked and record.created_at < self._started)

    async def _mark_delivered(self, record: OutboxRecord, result: DeliveryResult) -> None:
        mark = Delivered(record, result.discord_id, dict(result.detail) if result.detail else None)
        await self.delivery.mark_delivered([mark], now=self._clock())

    async def _serve(
        self, record: OutboxRecord, ctx: QueueContext, *, look_first: bool = False
    ) -> DeliveryResult | str:
        """Try one row: its Discord result if delivered (not yet marked), else what became of
        it (failed, or still waiting). ``look_first``: it may have been posted already."""
        async with self._semaphore:
            try:
                row = await self._resolve(record, ctx, look_first=look_first)
            except _Wait as wait:
                until = wait.until
                await self.delivery.defer(record.id, until=until)
                return _WAITING
            except PermanentError as err:
                await self._fail(record, str(err))
                return _FAILED
            try:
                result = await self.sender.deliver(row)
            except PermanentError as err:
                await self._fail(record, f"{type(err).__name__}: {err}")
                return _FAILED
            except RetryableError as err:
                await self._retry(record, f"{type(err).__name__}: {err}", err.retry_after)
                return _WAITING
            except Exception as err:
                log.exception("outbox row %s: unexpected error from the sender", record.id)
                await self._retry(record, f"{type(err).__name__}: {err}", None)
                return _WAITING
            if record.kind in CREATING_KINDS and result.discord_id is not None:
                parent = ctx.channels.get(record.channel_key, (None, None))[1]
                ctx.channels[record.channel_key] = (result.discord_id, parent)
            return result

    async def _retry(self, record: OutboxRecord, error: str, retry_after: float | None) -> None:
        delay = self.backoff(record.attempts + 1)
        if retry_after is not None:
            delay = max(delay, retry_after)
        until = self._clock() + timedelta(seconds=delay)
        await self.delivery.retry(record, error=error, until=until)

    async def _fail(self, record: OutboxRecord, error: str) -> None:
        log.warning("outbox row %s (%s) failed for good: %s", record.id, record.kind, error)
        await self.delivery.fail(record, error=error)

    async def _resolve(
        self, record: OutboxRecord, ctx: QueueContext, *, look_first: bool = False
    ) -> OutboxRow:
        """The row with the Discord ids it needs (from ``ctx``; the database only for a
        dependency or an edit).

        Raises:
            _Wait: a row it depends on is still pending.
            PermanentError: something it needs failed or was never queued.
        """
        if ctx.guild_id is None:
            raise PermanentError(f"campaign {record.campaign_id} is gone")
        if record.depends_on is not None:
            dep = await self.delivery.row(record.depends_on)
            if dep is not None and dep.status is OutboxStatus.PENDING:
                raise _Wait(max(dep.next_attempt_at, self._clock()))
            if dep is not None and dep.status is OutboxStatus.FAILED:
                raise PermanentError(f"row {dep.id} it depends on failed: {dep.last_error}")
        channel_id, own_parent = ctx.channels.get(record.channel_key, (None, None))
        parent_id: int | None = None
        message_id: int | None = None
        if record.kind in CREATING_KINDS and record.kind is not OutboxKind.CREATE_CATEGORY:
            parent_key = record.payload.get("parent_key") or own_parent
            parent = (
                ctx.channels.get(ChannelKey(parent_key)) if isinstance(parent_key, str) else None
            )
            if parent is None or parent[0] is None:
                raise PermanentError(f"parent {parent_key!r} of {record.channel_key} missing")
            parent_id = parent[0]
        if record.kind in _NEEDS_CHANNEL and channel_id is None:
            raise PermanentError(f"{record.channel_key} was never created")
        if record.kind is OutboxKind.EDIT:
            key = record.payload.get("message_key")
            if not isinstance(key, str):
                raise PermanentError("an edit needs payload['message_key']")
            message_id = await self.delivery.delivered_message_id(record.campaign_id, key)
            if message_id is None:
                raise PermanentError(f"message {key!r} to edit was never posted")
        after: int | None = None
        if look_first:
            after = await self.delivery.last_posted(record.campaign_id, record.channel_key)
        return OutboxRow(
            id=record.id,
            campaign_id=record.campaign_id,
            guild_id=ctx.guild_id,
            channel_key=record.channel_key,
            kind=record.kind,
            payload=record.payload,
            nonce=record.nonce,
            attempts=record.attempts,
            channel_id=channel_id,
            parent_id=parent_id,
            message_id=message_id,
            look_first=look_first,
            after_message_id=after,
        )


def superseding_edit(rows: Sequence[OutboxRecord], index: int) -> OutboxRecord | None:
    """The newest later edit of the same message in ``rows`` (one queue's pending rows, in
    order) that supersedes the edit ``rows[index]``, or ``None``. A later edit without
    ``embeds`` (a won battle's controls once its blitz is answered) never supersedes one with
    them: the embed it carries is still owed. A post that ``replaces``
    the message's key (or is posted under it) ends the search: the edits before it are meant
    for the message posted before."""
    record = rows[index]
    key = record.payload.get("message_key")
    if record.kind is not OutboxKind.EDIT or not isinstance(key, str):
        return None
    newest: OutboxRecord | None = None
    for later in rows[index + 1 :]:
        if later.kind is OutboxKind.POST and key in (
            later.payload.get("replaces"),
            later.dedupe_key,
        ):
            break
        if later.kind is OutboxKind.EDIT and later.payload.get("message_key") == key:
            if "embeds" in record.payload and "embeds" not in later.payload:
                continue  # it changes the text and controls only: the embed is still owed
            newest = later
    return newest
