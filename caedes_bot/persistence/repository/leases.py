"""Leases on the outbox's queues and claims on deadlines, so that several bot processes on one
database each deliver a message or act on a deadline once (decision 0025).

A process takes the lease of a whole queue ``(campaign_id, channel_key)``: while it holds it,
no other process delivers that queue, so its rows go out once and in order. A lease lasts until
``until``; the holder renews it while it works, and a lease left to run out (its process died)
is taken by the next process that finds the queue due. No database lock is held while a row is
sent: the lease is a row, taken and renewed in short transactions. Only queues and deadlines of
campaigns whose guild is on the process's shards are taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import DeadlineRecord, OutboxStatus
from caedes_bot.domain.shards import Shards
from caedes_bot.persistence.tables import campaigns, deadlines, outbox, outbox_leases


def on_shards(campaign_id: sa.ColumnElement[int], shards: Shards) -> sa.ColumnElement[bool]:
    """A condition: the campaign's guild is on ``shards`` (``(guild_id >> 22) % count``)."""
    if shards.all:
        return sa.true()
    shard = campaigns.c.guild_id.op(">>")(sa.literal_column("22")) % shards.count
    served = sa.select(campaigns.c.id).where(shard.in_(sorted(shards.ids or ())))
    return campaign_id.in_(served)


def _leased_to_other(owner: str, now: datetime) -> sa.ColumnElement[bool]:
    """A condition on ``outbox`` rows: another process holds their queue's lease now."""
    return (
        sa.exists()
        .where(outbox_leases.c.campaign_id == outbox.c.campaign_id)
        .where(outbox_leases.c.channel_key == outbox.c.channel_key)
        .where(outbox_leases.c.claimed_by != owner)
        .where(outbox_leases.c.until > now)
    )


def _heads() -> sa.Select[tuple[int]]:
    return (
        sa.select(sa.func.min(outbox.c.id))
        .where(outbox.c.status == OutboxStatus.PENDING)
        .group_by(outbox.c.campaign_id, outbox.c.channel_key)
    )


def _upsert(conn: Connection) -> Any:
    module: Any = postgresql if conn.dialect.name == "postgresql" else sqlite
    return module.insert(outbox_leases)


def lease_due_queues(
    conn: Connection,
    *,
    owner: str,
    now: datetime,
    until: datetime,
    shards: Shards,
    limit: int = 100,
) -> list[tuple[int, ChannelKey, bool]]:
    """Take (or renew) the leases of the due queues of ``shards``' campaigns that no other
    process holds, oldest head first, at most ``limit``.

    Returns:
        ``(campaign_id, channel_key, taken_over)`` per queue now leased to ``owner`` until
        ``until``; ``taken_over`` when the lease was another process's before (it may have
        sent a row without recording it). On PostgreSQL the queue heads are locked
        ``FOR UPDATE SKIP LOCKED`` for the transaction, so processes looking at once pass
        each other by; the lease itself is taken by a conditional upsert, so two never hold it.
    """
    stmt = (
        sa.select(outbox.c.campaign_id, outbox.c.channel_key)
        .where(outbox.c.id.in_(_heads()), outbox.c.next_attempt_at <= now)
        .where(on_shards(outbox.c.campaign_id, shards))
        .where(~_leased_to_other(owner, now))
        .order_by(outbox.c.id)
        .limit(limit)
    )
    if conn.dialect.name == "postgresql":
        stmt = stmt.with_for_update(skip_locked=True, of=outbox)
    queues = [(int(r.campaign_id), str(r.channel_key)) for r in conn.execute(stmt)]
    if not queues:
        return []
    previous = {
        (int(r.campaign_id), str(r.channel_key)): str(r.claimed_by)
        for r in conn.execute(
            sa.select(
                outbox_leases.c.campaign_id,
                outbox_leases.c.channel_key,
                outbox_leases.c.claimed_by,
            ).where(outbox_leases.c.campaign_id.in_(sorted({c for c, _ in queues})))
        )
    }
    taken: list[tuple[int, ChannelKey, bool]] = []
    for campaign_id, key in queues:
        insert = _upsert(conn).values(
            campaign_id=campaign_id, channel_key=key, claimed_by=owner, until=until
        )
        stmt_lease = insert.on_conflict_do_update(
            index_elements=[outbox_leases.c.campaign_id, outbox_leases.c.channel_key],
            set_={"claimed_by": owner, "until": until},
            where=sa.or_(outbox_leases.c.until <= now, outbox_leases.c.claimed_by == owner),
        ).returning(outbox_leases.c.campaign_id)
        if conn.execute(stmt_lease).first() is None:
            continue  # another process took it meanwhile
        before = previous.get((campaign_id, key))
        taken.append((campaign_id, ChannelKey(key), before is not None and before != owner))
    return taken


def renew_outbox_lease(
    conn: Connection, campaign_id: int, channel_key: str, *, owner: str, until: datetime
) -> bool:
    """Move ``owner``'s lease of a queue on to ``until``; ``False`` if it is not ``owner``'s
    any more (another process took it over once it ran out)."""
    result = conn.execute(
        sa.update(outbox_leases)
        .where(
            outbox_leases.c.campaign_id == campaign_id,
            outbox_leases.c.channel_key == channel_key,
            outbox_leases.c.claimed_by == owner,
        )
        .values(until=until)
    )
    return bool(result.rowcount)


def expire_outbox_leases(
    conn: Connection, queues: Sequence[tuple[int, str]], *, owner: str, now: datetime
) -> int:
    """End ``owner``'s leases of ``queues`` at ``now`` (a clean stop), so another process may
    take them at once. The lease rows stay, naming ``owner``: the process taking a queue
    over still counts it as taken over and looks before its first post (a post of the
    stopping process may have been cut short). Returns how many leases ended."""
    ended = 0
    for campaign_id, channel_key in queues:
        result = conn.execute(
            sa.update(outbox_leases)
            .where(
                outbox_leases.c.campaign_id == campaign_id,
                outbox_leases.c.channel_key == channel_key,
                outbox_leases.c.claimed_by == owner,
                outbox_leases.c.until > now,
            )
            .values(until=now)
        )
        ended += int(result.rowcount or 0)
    return ended


def next_leasable_attempt(
    conn: Connection, *, owner: str, now: datetime, shards: Shards
) -> datetime | None:
    """When this process may next find a queue of ``shards`` to deliver: the earliest head due
    among queues nobody else holds, or the end of another's lease on a queue with pending
    rows; ``None`` if there is nothing of its shards pending."""
    served = on_shards(outbox.c.campaign_id, shards)
    due = conn.scalar(
        sa.select(sa.func.min(outbox.c.next_attempt_at)).where(
            outbox.c.id.in_(_heads()), served, ~_leased_to_other(owner, now)
        )
    )
    held = conn.scalar(
        sa.select(sa.func.min(outbox_leases.c.until))
        .select_from(
            outbox_leases.join(
                outbox,
                sa.and_(
                    outbox.c.campaign_id == outbox_leases.c.campaign_id,
                    outbox.c.channel_key == outbox_leases.c.channel_key,
                ),
            )
        )
        .where(
            outbox.c.id.in_(_heads()),
            served,
            outbox_leases.c.claimed_by != owner,
            outbox_leases.c.until > now,
        )
    )
    times = [t if t.tzinfo is not None else t.replace(tzinfo=UTC) for t in (due, held) if t]
    return min(times) if times else None


def claim_deadlines(
    conn: Connection,
    found: Sequence[DeadlineRecord],
    *,
    owner: str,
    now: datetime,
    until: datetime,
) -> list[DeadlineRecord]:
    """Claim ``found`` deadlines for ``owner`` until ``until``: those with no claim, an
    expired one, or ``owner``'s own. Returns those claimed, in the order given; another
    process's live claim keeps its deadline out. On PostgreSQL a second process's update
    waits for the first's row lock and then finds the claim taken."""
    if not found:
        return []
    result = conn.execute(
        sa.update(deadlines)
        .where(deadlines.c.id.in_([d.id for d in found]))
        .where(
            sa.or_(
                deadlines.c.claimed_until.is_(None),
                deadlines.c.claimed_until <= now,
                deadlines.c.claimed_by == owner,
            )
        )
        .values(claimed_by=owner, claimed_until=until)
        .returning(deadlines.c.id)
    )
    claimed = {int(r.id) for r in result}
    return [d for d in found if d.id in claimed]


def release_deadline_claims(conn: Connection, ids: Sequence[int], *, owner: str) -> int:
    """Drop ``owner``'s claims on the deadlines ``ids`` (a clean stop), so another process
    may act on them at once; a claim another process holds now is left alone. Returns how
    many were dropped."""
    if not ids:
        return 0
    result = conn.execute(
        sa.update(deadlines)
        .where(deadlines.c.id.in_(sorted(ids)), deadlines.c.claimed_by == owner)
        .values(claimed_by=None, claimed_until=None)
    )
    return int(result.rowcount or 0)
