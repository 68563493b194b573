"""Delivery: the one door of the outbox dispatcher to the database (:class:`Delivery`).

The dispatcher (``caedes_bot.outbox``) never touches SQL: it asks :class:`Delivery` for the
queues that are due and tells it what became of each row. Each call is one short transaction,
on the reader pool for reads and on the single writer for the bookkeeping.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import OutboxRecord, utcnow
from caedes_bot.domain.shards import ALL_SHARDS, Shards, process_name
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database, is_sqlite


@dataclass
class QueueContext:
    """What the dispatcher knows of a queue's campaign during a pass: its Discord guild
    (``None`` if the campaign is gone) and its places, key -> (Discord id or ``None``, parent
    key). The dispatcher adds the ids of places it creates."""

    guild_id: int | None
    channels: dict[ChannelKey, tuple[int | None, ChannelKey | None]]
    #: queues of the campaign whose lease this process took over from another (decision
    #: 0025): that process may have sent a row without recording it, so posts look first
    taken_over: set[ChannelKey] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Delivered:
    """A row Discord accepted: the id of what it made or posted, and any detail to keep."""

    record: OutboxRecord
    discord_id: int | None
    detail: dict[str, Any] | None


#: Seconds an outbox lease lasts (decision 0025); renewed while the queue is served.
LEASE_SECONDS = 30.0


class Delivery:
    """The outbox rows as the dispatcher sees them.

    A queue is served only under this process's lease of it (decision 0025): :meth:`due_queues`
    takes the leases, :meth:`hold` renews one before each row is sent, and a queue whose
    lease was lost is left alone.

    Args:
        db: the database (reads on the reader pool; bookkeeping on the single writer).
        shards: the Discord shards of this process: only queues of campaigns of their guilds
            are delivered.
        owner: this process's name in the leases.
        lease_seconds: how long a lease lasts unless renewed; a dead process's queues are
            taken over that long after its last renewal.
        leases: whether to take leases at all; by default only on a database several
            processes may share (not SQLite, which one process owns: decision 0024), where
            the queues are read as before, with no write per pass.
    """

    def __init__(
        self,
        db: Database,
        *,
        shards: Shards = ALL_SHARDS,
        owner: str | None = None,
        lease_seconds: float = LEASE_SECONDS,
        leases: bool | None = None,
    ) -> None:
        self.db = db
        self.leases = not is_sqlite(db.url) if leases is None else leases
        self.shards = shards
        self.owner = owner or process_name()
        self.lease_seconds = lease_seconds
        #: (campaign, channel key) -> until when this process holds the queue's lease
        self._leases: dict[tuple[int, ChannelKey], datetime] = {}

    async def due_queues(
        self, now: datetime, *, batch: int
    ) -> list[tuple[list[OutboxRecord], QueueContext]]:
        """The queues ``(campaign, channel key)`` whose first pending row is due at ``now``,
        each with its pending rows in id order (at most ``batch``) and its campaign's context;
        at most ``batch`` queues, oldest head first.

        Only queues of this process's shards that no other process holds are returned, each
        now leased to this process (one short write transaction; no lock is kept)."""
        until = now + timedelta(seconds=self.lease_seconds)

        def _tx(conn: Connection) -> list[tuple[list[OutboxRecord], QueueContext]]:
            contexts: dict[int, QueueContext] = {}
            queues: list[tuple[list[OutboxRecord], QueueContext]] = []
            if self.leases:
                leased = repo.lease_due_queues(
                    conn, owner=self.owner, now=now, until=until, shards=self.shards, limit=batch
                )
            else:
                leased = [
                    (head.campaign_id, head.channel_key, False)
                    for head in repo.due_outbox_heads(conn, now=now, limit=batch)
                    if self.shards.all or self._serves(conn, head.campaign_id)
                ]
            for campaign_id, channel_key, taken_over in leased:
                self._leases[(campaign_id, channel_key)] = until
                ctx = contexts.get(campaign_id)
                if ctx is None:
                    info = repo.campaign_info(conn, campaign_id)
                    ctx = contexts[campaign_id] = QueueContext(
                        guild_id=info.guild_id if info else None,
                        channels={
                            key: (c.discord_id, c.parent_key)
                            for key, c in repo.channels_of(conn, campaign_id).items()
                        },
                    )
                if taken_over:
                    ctx.taken_over.add(channel_key)
                rows = repo.outbox_queue(conn, campaign_id, channel_key, limit=batch)
                queues.append((rows, ctx))
            return queues

        return await (self.db.write(_tx) if self.leases else self.db.read(_tx))

    def _serves(self, conn: Connection, campaign_id: int) -> bool:
        info = repo.campaign_info(conn, campaign_id)
        return info is not None and self.shards.serves(info.guild_id)

    async def hold(self, campaign_id: int, channel_key: ChannelKey, now: datetime) -> bool:
        """Whether this process still holds the queue's lease, renewed first when less than
        half of it is left; ``False``: another process took the queue over, leave it."""
        if not self.leases:
            return True
        key = (campaign_id, channel_key)
        until = self._leases.get(key)
        if until is not None and (until - now).total_seconds() > self.lease_seconds / 2:
            return True
        new_until = now + timedelta(seconds=self.lease_seconds)
        kept = await self.db.write(
            lambda conn: repo.renew_outbox_lease(
                conn, campaign_id, channel_key, owner=self.owner, until=new_until
            )
        )
        if kept:
            self._leases[key] = new_until
        else:
            self._leases.pop(key, None)
        return kept

    async def release(self, now: datetime | None = None) -> int:
        """End this process's leases of the queues it served, at ``now`` (by default the time
        now): on a clean stop, so that another process takes them at once instead of after
        :attr:`lease_seconds`. Call it once the dispatcher has stopped. Returns how many
        leases ended (0 without leases)."""
        queues = sorted(self._leases)
        self._leases.clear()
        if not self.leases or not queues:
            return 0
        at = now or utcnow()
        return await self.db.write(
            lambda conn: repo.expire_outbox_leases(conn, queues, owner=self.owner, now=at)
        )

    async def next_attempt(self, now: datetime | None = None) -> datetime | None:
        """When this process may next find a queue to deliver (a head due among queues of its
        shards that nobody else holds at ``now``, by default the time now, or the end of
        another's lease), or ``None``."""
        at = now or utcnow()
        if not self.leases and self.shards.all:
            return await self.db.read(repo.next_outbox_attempt)
        return await self.db.read(
            lambda conn: repo.next_leasable_attempt(
                conn, owner=self.owner, now=at, shards=self.shards
            )
        )

    async def row(self, row_id: int) -> OutboxRecord | None:
        """One row by id (a row another depends on)."""
        return await self.db.read(lambda conn: repo.outbox_row(conn, row_id))

    async def delivered_message_id(self, campaign_id: int, message_key: str) -> int | None:
        """The Discord id of the delivered post whose dedupe key is ``message_key``."""
        return await self.db.read(
            lambda conn: repo.delivered_message_id(conn, campaign_id, message_key)
        )

    async def last_posted(self, campaign_id: int, channel_key: ChannelKey) -> int | None:
        """The newest Discord message id the queue is known to have posted (its delivered
        posts and edits), or ``None``: a post not recorded yet can only be newer."""
        return await self.db.read(
            lambda conn: repo.last_posted_message_id(conn, campaign_id, channel_key)
        )

    async def mark_delivered(self, done: Sequence[Delivered], *, now: datetime) -> None:
        """Mark rows delivered, in one transaction; a row that made a place stores its id."""
        marks = list(done)

        def _tx(conn: Connection) -> None:
            for mark in marks:
                repo.mark_outbox_delivered(
                    conn, mark.record, now=now, discord_id=mark.discord_id, result=mark.detail
                )

        await self.db.write(_tx)

    async def supersede(self, record: OutboxRecord, *, by: int, now: datetime) -> None:
        """An edit a later edit of the same message makes unneeded: marked delivered with
        ``result["superseded_by"]`` (the later row owes the newest content), nothing sent."""
        await self.db.write(lambda conn: repo.mark_outbox_superseded(conn, record, by=by, now=now))

    async def defer(self, row_id: int, *, until: datetime) -> None:
        """Put a row off until ``until`` without counting an attempt."""
        await self.db.write(lambda conn: repo.defer_outbox(conn, row_id, until=until))

    async def retry(self, record: OutboxRecord, *, error: str, until: datetime) -> None:
        """Count a failed attempt and try again at ``until``."""
        await self.db.write(
            lambda conn: repo.mark_outbox_retry(conn, record, error=error, next_attempt_at=until)
        )

    async def fail(self, record: OutboxRecord, *, error: str) -> None:
        """Give up on a row for good; later rows of its queue go on."""
        await self.db.write(lambda conn: repo.mark_outbox_failed(conn, record, error=error))
