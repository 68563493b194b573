"""Delivery: the one door of the outbox dispatcher to the database (:class:`Delivery`).

The dispatcher (``caedes_bot.outbox``) never touches SQL: it asks :class:`Delivery` for the
queues that are due and tells it what became of each row. Each call is one short transaction,
on the reader pool for reads and on the single writer for the bookkeeping.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import OutboxRecord
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database


@dataclass
class QueueContext:
    """What the dispatcher knows of a queue's campaign during a pass: its Discord guild
    (``None`` if the campaign is gone) and its places, key -> (Discord id or ``None``, parent
    key). The dispatcher adds the ids of places it creates."""

    guild_id: int | None
    channels: dict[ChannelKey, tuple[int | None, ChannelKey | None]]


@dataclass(frozen=True, slots=True)
class Delivered:
    """A row Discord accepted: the id of what it made or posted, and any detail to keep."""

    record: OutboxRecord
    discord_id: int | None
    detail: dict[str, Any] | None


class Delivery:
    """The outbox rows as the dispatcher sees them.

    Args:
        db: the database (reads on the reader pool; bookkeeping on the single writer).
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    async def due_queues(
        self, now: datetime, *, batch: int
    ) -> list[tuple[list[OutboxRecord], QueueContext]]:
        """The queues ``(campaign, channel key)`` whose first pending row is due at ``now``,
        each with its pending rows in id order (at most ``batch``) and its campaign's context;
        at most ``batch`` queues, oldest head first."""

        def _tx(conn: Connection) -> list[tuple[list[OutboxRecord], QueueContext]]:
            contexts: dict[int, QueueContext] = {}
            queues: list[tuple[list[OutboxRecord], QueueContext]] = []
            for head in repo.due_outbox_heads(conn, now=now, limit=batch):
                ctx = contexts.get(head.campaign_id)
                if ctx is None:
                    info = repo.campaign_info(conn, head.campaign_id)
                    ctx = contexts[head.campaign_id] = QueueContext(
                        guild_id=info.guild_id if info else None,
                        channels={
                            key: (c.discord_id, c.parent_key)
                            for key, c in repo.channels_of(conn, head.campaign_id).items()
                        },
                    )
                rows = repo.outbox_queue(conn, head.campaign_id, head.channel_key, limit=batch)
                queues.append((rows, ctx))
            return queues

        return await self.db.read(_tx)

    async def next_attempt(self) -> datetime | None:
        """When the next queue head may be tried, or ``None`` if nothing is pending."""
        return await self.db.read(repo.next_outbox_attempt)

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
