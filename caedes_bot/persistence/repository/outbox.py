"""Outbox rows: queued in an order's transaction, read back in queue order by the delivery API
(:mod:`caedes_bot.service.delivery`) and marked delivered, retried or failed.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import (
    CREATING_KINDS,
    OutboxKind,
    OutboxMessage,
    OutboxRecord,
    OutboxStatus,
)
from caedes_bot.persistence.repository.channels import set_channel_discord_id
from caedes_bot.persistence.tables import campaigns, outbox


def _outbox_record(r: Any) -> OutboxRecord:
    return OutboxRecord(
        id=r.id,
        campaign_id=r.campaign_id,
        channel_key=ChannelKey(r.channel_key),
        kind=OutboxKind(r.kind),
        payload=r.payload,
        dedupe_key=r.dedupe_key,
        nonce=r.nonce,
        status=OutboxStatus(r.status),
        attempts=r.attempts,
        next_attempt_at=r.next_attempt_at,
        last_error=r.last_error,
        delivered_at=r.delivered_at,
        discord_message_id=r.discord_message_id,
        result=r.result,
        depends_on=r.depends_on,
        created_at=r.created_at,
    )


def new_nonce() -> str:
    """A message nonce (Discord allows up to 25 characters)."""
    return secrets.token_hex(10)


_INSERT_OUTBOX_RETURNING = sa.insert(outbox).returning(outbox.c.id, sort_by_parameter_order=True)


def insert_outbox(
    conn: Connection,
    campaign_id: int,
    messages: Sequence[OutboxMessage],
    *,
    now: datetime,
    replacing: bool = False,
) -> list[int]:
    """Queue messages in order; returns their row ids.

    ``depends_on_key`` is resolved against rows of this batch first, then stored rows of the
    campaign. Rows without dependencies are inserted with one statement. With ``replacing``,
    a post whose ``dedupe_key`` the campaign has used already is queued as a post that
    ``replaces`` that message instead (:func:`_replacing`).
    """
    if not messages:
        return []
    if replacing:
        messages = _replacing(conn, campaign_id, messages)

    def row(m: OutboxMessage, depends_on: int | None) -> dict[str, Any]:
        return {
            "campaign_id": campaign_id,
            "channel_key": m.channel_key,
            "kind": m.kind,
            "payload": dict(m.payload),
            "dedupe_key": m.dedupe_key,
            "nonce": new_nonce(),
            "status": OutboxStatus.PENDING,
            "attempts": 0,
            "next_attempt_at": now,
            "depends_on": depends_on,
            "created_at": now,
        }

    if all(m.depends_on_key is None for m in messages):
        result = conn.execute(_INSERT_OUTBOX_RETURNING, [row(m, None) for m in messages])
        return [r.id for r in result]
    ids: list[int] = []
    by_key: dict[str, int] = {}
    for m in messages:
        dep: int | None = None
        if m.depends_on_key is not None:
            dep = by_key.get(m.depends_on_key)
            if dep is None:
                dep = conn.scalar(
                    sa.select(outbox.c.id).where(
                        outbox.c.campaign_id == campaign_id,
                        outbox.c.dedupe_key == m.depends_on_key,
                    )
                )
            if dep is None:
                raise LookupError(f"no outbox row with dedupe key {m.depends_on_key!r}")
        result = conn.execute(sa.insert(outbox).values(**row(m, dep)))
        pk = result.inserted_primary_key
        assert pk is not None
        ids.append(int(pk[0]))
        if m.dedupe_key is not None:
            by_key[m.dedupe_key] = ids[-1]
    return ids


def _replacing(
    conn: Connection, campaign_id: int, messages: Sequence[OutboxMessage]
) -> Sequence[OutboxMessage]:
    """``messages`` with each post whose ``dedupe_key`` the campaign has used already made a
    post that ``replaces`` the message of that key (no key of its own), so later edits go to
    it. After ``/umpire rollback`` to an earlier turn of the game round, the turns that follow
    begin again and owe their posts again under the same keys: the turn panel
    (``panel:<round>:<faction>``), the map after a turn (R-PBP-UMP-01, decision 0023)."""
    keys = [m.dedupe_key for m in messages if m.kind is OutboxKind.POST and m.dedupe_key]
    if not keys:
        return messages
    taken = set(
        conn.scalars(
            sa.select(outbox.c.dedupe_key).where(
                outbox.c.campaign_id == campaign_id, outbox.c.dedupe_key.in_(keys)
            )
        )
    )
    if not taken:
        return messages
    return [
        OutboxMessage(
            m.channel_key,
            m.kind,
            {**m.payload, "replaces": m.dedupe_key},
            depends_on_key=m.depends_on_key,
        )
        if m.kind is OutboxKind.POST and m.dedupe_key in taken
        else m
        for m in messages
    ]


def outbox_key_exists(conn: Connection, campaign_id: int, dedupe_key: str) -> bool:
    """Whether a row with this dedupe key was ever queued for the campaign."""
    found = conn.scalar(
        sa.select(outbox.c.id).where(
            outbox.c.campaign_id == campaign_id, outbox.c.dedupe_key == dedupe_key
        )
    )
    return found is not None


def _queue_heads() -> sa.Select[tuple[int]]:
    """Ids of the first pending row of every queue ``(campaign_id, channel_key)``."""
    return (
        sa.select(sa.func.min(outbox.c.id))
        .where(outbox.c.status == OutboxStatus.PENDING)
        .group_by(outbox.c.campaign_id, outbox.c.channel_key)
    )


def due_outbox_heads(conn: Connection, *, now: datetime, limit: int = 100) -> list[OutboxRecord]:
    """The first pending row of every queue whose head is due, oldest first."""
    rows = conn.execute(
        sa.select(outbox)
        .where(outbox.c.id.in_(_queue_heads()), outbox.c.next_attempt_at <= now)
        .order_by(outbox.c.id)
        .limit(limit)
    )
    return [_outbox_record(r) for r in rows]


def outbox_queue(
    conn: Connection, campaign_id: int, channel_key: ChannelKey, *, limit: int = 100
) -> list[OutboxRecord]:
    """The pending rows of one queue, in id order (its head first)."""
    rows = conn.execute(
        sa.select(outbox)
        .where(
            outbox.c.campaign_id == campaign_id,
            outbox.c.channel_key == channel_key,
            outbox.c.status == OutboxStatus.PENDING,
        )
        .order_by(outbox.c.id)
        .limit(limit)
    )
    return [_outbox_record(r) for r in rows]


def next_outbox_attempt(conn: Connection) -> datetime | None:
    """When the next queue head may be tried, or ``None`` if nothing is pending.

    Only heads count: rows waiting behind a head in backoff are not due before it.
    """
    value: datetime | None = conn.scalar(
        sa.select(sa.func.min(outbox.c.next_attempt_at)).where(outbox.c.id.in_(_queue_heads()))
    )
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def outbox_rows(
    conn: Connection, campaign_id: int, *, ids: Sequence[int] | None = None
) -> list[OutboxRecord]:
    """Rows of a campaign (all, or those with ``ids``) in id order."""
    stmt = sa.select(outbox).where(outbox.c.campaign_id == campaign_id).order_by(outbox.c.id)
    if ids is not None:
        stmt = stmt.where(outbox.c.id.in_(list(ids)))
    return [_outbox_record(r) for r in conn.execute(stmt)]


def failed_outbox_rows(
    conn: Connection, campaign_id: int, *, limit: int = 10
) -> list[OutboxRecord]:
    """The campaign's rows that failed for good (at most ``limit``): first those that failed
    for a reason of their own (Discord refused them), newest first, then those that failed only
    because an older one did, newest first.

    A row fails only because of another when the row it depends on failed, or when an older
    row creating its place (same ``channel_key``) failed. One refusal can fail a whole set-up
    (a category, then its channels, threads and posts); listing the consequences first would
    push the one cause out of a short list.
    """
    dependency = outbox.alias("dependency")
    creation = outbox.alias("creation")
    dependency_failed = (
        sa.exists()
        .where(dependency.c.id == outbox.c.depends_on)
        .where(dependency.c.status == OutboxStatus.FAILED)
    )
    creation_failed = (
        sa.exists()
        .where(creation.c.campaign_id == outbox.c.campaign_id)
        .where(creation.c.channel_key == outbox.c.channel_key)
        .where(creation.c.kind.in_(sorted(CREATING_KINDS)))
        .where(creation.c.status == OutboxStatus.FAILED)
        .where(creation.c.id < outbox.c.id)
    )
    consequence = sa.case((sa.or_(dependency_failed, creation_failed), 1), else_=0)
    rows = conn.execute(
        sa.select(outbox)
        .where(outbox.c.campaign_id == campaign_id, outbox.c.status == OutboxStatus.FAILED)
        .order_by(consequence, outbox.c.id.desc())
        .limit(limit)
    )
    return [_outbox_record(r) for r in rows]


def outbox_row(conn: Connection, row_id: int) -> OutboxRecord | None:
    """One row by id."""
    r = (conn.execute(sa.select(outbox).where(outbox.c.id == row_id))).first()
    return None if r is None else _outbox_record(r)


def delivered_message_id(conn: Connection, campaign_id: int, message_key: str) -> int | None:
    """The Discord message id of the delivered post with ``dedupe_key == message_key``."""
    value: int | None = conn.scalar(
        sa.select(outbox.c.discord_message_id).where(
            outbox.c.campaign_id == campaign_id,
            outbox.c.dedupe_key == message_key,
            outbox.c.status == OutboxStatus.DELIVERED,
        )
    )
    return value


def last_posted_message_id(conn: Connection, campaign_id: int, channel_key: str) -> int | None:
    """The newest Discord message id a delivered post or edit of the queue ``(campaign,
    channel_key)`` recorded, or ``None``: what the queue is known to have posted up to."""
    value: int | None = conn.scalar(
        sa.select(sa.func.max(outbox.c.discord_message_id)).where(
            outbox.c.campaign_id == campaign_id,
            outbox.c.channel_key == channel_key,
            outbox.c.status == OutboxStatus.DELIVERED,
            outbox.c.kind.in_([OutboxKind.POST, OutboxKind.EDIT]),
        )
    )
    return value


def mark_outbox_delivered(
    conn: Connection,
    row: OutboxRecord,
    *,
    now: datetime,
    discord_id: int | None,
    result: dict[str, Any] | None,
) -> None:
    """Mark a row delivered and keep what Discord returned.

    For a row that created a channel, category or thread, its Discord id is stored in
    ``channels`` (and a category's in ``campaigns.category_id``) so later rows resolve it. A
    message posted in place of another (a post with ``payload["replaces"]``, or an edit whose
    message was deleted and that posted it again: ``result["reposted"]``) becomes the message
    of that key, so later edits go to it.
    """
    conn.execute(
        sa.update(outbox)
        .where(outbox.c.id == row.id)
        .values(
            status=OutboxStatus.DELIVERED,
            attempts=row.attempts + 1,
            delivered_at=now,
            discord_message_id=discord_id,
            result=result,
            last_error=None,
        )
    )
    replaced = _replaced_key(row, result)
    if replaced is not None and discord_id is not None:
        conn.execute(
            sa.update(outbox)
            .where(outbox.c.campaign_id == row.campaign_id, outbox.c.dedupe_key == replaced)
            .values(discord_message_id=discord_id)
        )
    if row.kind in CREATING_KINDS and discord_id is not None:
        set_channel_discord_id(conn, row.campaign_id, row.channel_key, discord_id)
        if row.kind is OutboxKind.CREATE_CATEGORY:
            conn.execute(
                sa.update(campaigns)
                .where(campaigns.c.id == row.campaign_id)
                .values(category_id=discord_id)
            )


def _replaced_key(row: OutboxRecord, result: dict[str, Any] | None) -> str | None:
    """The dedupe key of the message ``row`` now stands in for, if any."""
    if row.kind is OutboxKind.POST:
        key = row.payload.get("replaces")
    elif row.kind is OutboxKind.EDIT and result and result.get("reposted"):
        key = row.payload.get("message_key")
    else:
        key = None
    return key if isinstance(key, str) else None


def mark_outbox_superseded(conn: Connection, row: OutboxRecord, *, by: int, now: datetime) -> None:
    """Mark an edit done by a later edit of the same message (row ``by``): delivered with
    ``result["superseded_by"]`` and no Discord id; nothing was sent for it."""
    conn.execute(
        sa.update(outbox)
        .where(outbox.c.id == row.id)
        .values(
            status=OutboxStatus.DELIVERED,
            delivered_at=now,
            result={"superseded_by": by},
            last_error=None,
        )
    )


def mark_outbox_retry(
    conn: Connection, row: OutboxRecord, *, error: str, next_attempt_at: datetime
) -> None:
    """Count a failed attempt and schedule the next one."""
    conn.execute(
        sa.update(outbox)
        .where(outbox.c.id == row.id)
        .values(attempts=row.attempts + 1, last_error=error[:2000], next_attempt_at=next_attempt_at)
    )


def defer_outbox(conn: Connection, row_id: int, *, until: datetime) -> None:
    """Put a row off until ``until`` without counting an attempt (it waits for another row)."""
    conn.execute(sa.update(outbox).where(outbox.c.id == row_id).values(next_attempt_at=until))


def mark_outbox_failed(conn: Connection, row: OutboxRecord, *, error: str) -> None:
    """Give up on a row (a permanent failure); later rows of its queue go on."""
    conn.execute(
        sa.update(outbox)
        .where(outbox.c.id == row.id)
        .values(status=OutboxStatus.FAILED, attempts=row.attempts + 1, last_error=error[:2000])
    )
