"""Deadline rows (R-PBP-DEAD-01..04): armed in an order's transaction, read back by the
scheduler through the service, closed once acted on or no longer owed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignStatus, DeadlineRecord
from caedes_bot.domain.shards import ALL_SHARDS, Shards
from caedes_bot.persistence.repository.leases import on_shards
from caedes_bot.persistence.tables import campaigns, deadlines


def _deadline(r: Any) -> DeadlineRecord:
    return DeadlineRecord(
        id=r.id,
        campaign_id=r.campaign_id,
        decision_key=r.decision_key,
        faction=r.faction,
        due_at=r.due_at,
        reminder_at=r.reminder_at,
        reminded=bool(r.reminded),
        fired=bool(r.fired),
    )


# built once (an uncached campaign's read runs them): building a statement and its cache key
# cost more than running it
_OPEN = (
    sa.select(deadlines)
    .where(deadlines.c.campaign_id == sa.bindparam("b_campaign"), deadlines.c.fired.is_(False))
    .order_by(deadlines.c.due_at, deadlines.c.id)
)
_EXISTING_KEYS = sa.select(deadlines.c.decision_key).where(
    deadlines.c.campaign_id == sa.bindparam("b_campaign"),
    deadlines.c.decision_key.in_(sa.bindparam("b_keys", expanding=True)),
)


def open_deadlines(conn: Connection, campaign_id: int) -> list[DeadlineRecord]:
    """The campaign's deadlines that have not fired, by due time."""
    return [_deadline(r) for r in conn.execute(_OPEN, {"b_campaign": campaign_id})]


def existing_deadline_keys(
    conn: Connection, campaign_id: int, decision_keys: Sequence[str]
) -> set[str]:
    """Which of ``decision_keys`` the campaign has a deadline row for, open or closed (a key is
    armed once: a turn deadline already acted on stays closed while that turn goes on)."""
    if not decision_keys:
        return set()
    rows = conn.execute(_EXISTING_KEYS, {"b_campaign": campaign_id, "b_keys": list(decision_keys)})
    return {str(key) for (key,) in rows}


def insert_deadline(
    conn: Connection,
    *,
    campaign_id: int,
    decision_key: str,
    faction: str | None,
    due_at: datetime,
    reminder_at: datetime | None,
) -> None:
    """Add a deadline (the key must be new for the campaign)."""
    conn.execute(
        sa.insert(deadlines).values(
            campaign_id=campaign_id,
            decision_key=decision_key,
            faction=faction,
            due_at=due_at,
            reminder_at=reminder_at,
            reminded=False,
            fired=False,
        )
    )


def close_open_deadlines(conn: Connection, campaign_id: int, decision_keys: Sequence[str]) -> None:
    """Close deadlines that are no longer owed (the decision was made, the turn moved on).

    Rows are kept, marked ``fired`` (closed), so an id is never reused for another deadline.
    """
    if not decision_keys:
        return
    conn.execute(
        sa.update(deadlines)
        .where(
            deadlines.c.campaign_id == campaign_id,
            deadlines.c.decision_key.in_(list(decision_keys)),
            deadlines.c.fired.is_(False),
        )
        .values(fired=True)
    )


def set_deadline_due(
    conn: Connection, deadline_id: int, *, due_at: datetime, reminder_at: datetime | None
) -> None:
    """Move a deadline (the umpire's change, R-PBP-UMP-03)."""
    conn.execute(
        sa.update(deadlines)
        .where(deadlines.c.id == deadline_id)
        .values(due_at=due_at, reminder_at=reminder_at, reminded=False)
    )


def shift_deadline(
    conn: Connection, deadline_id: int, *, due_at: datetime, reminder_at: datetime | None
) -> None:
    """Give a deadline new times and leave its reminder's state alone (a resumed campaign,
    R-PBP-UMP-05: a reminder already sent is not sent again; one not sent moves)."""
    conn.execute(
        sa.update(deadlines)
        .where(deadlines.c.id == deadline_id)
        .values(due_at=due_at, reminder_at=reminder_at)
    )


def _active_campaigns(shards: Shards = ALL_SHARDS) -> sa.Select[tuple[int]]:
    return sa.select(campaigns.c.id).where(
        campaigns.c.status == CampaignStatus.ACTIVE, on_shards(campaigns.c.id, shards)
    )


def due_reminders(
    conn: Connection, *, now: datetime, shards: Shards = ALL_SHARDS
) -> list[DeadlineRecord]:
    """Open deadlines of active campaigns (of guilds on ``shards``) whose reminder time has
    come, not yet reminded."""
    rows = conn.execute(
        sa.select(deadlines)
        .where(
            deadlines.c.fired.is_(False),
            deadlines.c.reminded.is_(False),
            deadlines.c.reminder_at.is_not(None),
            deadlines.c.reminder_at <= now,
            deadlines.c.campaign_id.in_(_active_campaigns(shards)),
        )
        .order_by(deadlines.c.reminder_at, deadlines.c.id)
    )
    return [_deadline(r) for r in rows]


def due_deadlines(
    conn: Connection, *, now: datetime, shards: Shards = ALL_SHARDS
) -> list[DeadlineRecord]:
    """Open deadlines of active campaigns (of guilds on ``shards``) that have passed (a
    paused campaign's wait)."""
    rows = conn.execute(
        sa.select(deadlines)
        .where(
            deadlines.c.fired.is_(False),
            deadlines.c.due_at <= now,
            deadlines.c.campaign_id.in_(_active_campaigns(shards)),
        )
        .order_by(deadlines.c.due_at, deadlines.c.id)
    )
    return [_deadline(r) for r in rows]


def next_deadline_time(conn: Connection, shards: Shards = ALL_SHARDS) -> datetime | None:
    """The earliest time at which a reminder or a deadline of an active campaign (of a guild
    on ``shards``) falls due."""
    active = deadlines.c.campaign_id.in_(_active_campaigns(shards))
    due: datetime | None = conn.scalar(
        sa.select(sa.func.min(deadlines.c.due_at)).where(deadlines.c.fired.is_(False), active)
    )
    remind: datetime | None = conn.scalar(
        sa.select(sa.func.min(deadlines.c.reminder_at)).where(
            deadlines.c.fired.is_(False), deadlines.c.reminded.is_(False), active
        )
    )
    times = [t for t in (due, remind) if t is not None]
    if not times:
        return None
    return min(t if t.tzinfo is not None else t.replace(tzinfo=UTC) for t in times)


def mark_reminded(conn: Connection, deadline_id: int) -> None:
    """The reminder for this deadline was queued."""
    conn.execute(sa.update(deadlines).where(deadlines.c.id == deadline_id).values(reminded=True))


def mark_fired(conn: Connection, deadline: DeadlineRecord) -> None:
    """The deadline passed and was acted on (closed)."""
    conn.execute(
        sa.update(deadlines)
        .where(
            deadlines.c.id == deadline.id,
            deadlines.c.campaign_id == deadline.campaign_id,
            deadlines.c.decision_key == deadline.decision_key,
        )
        .values(fired=True)
    )


def reopen_deadline(
    conn: Connection,
    *,
    campaign_id: int,
    decision_key: str,
    faction: str | None,
    due_at: datetime,
    reminder_at: datetime | None,
) -> None:
    """Open the deadline ``decision_key`` with these times, its reminder unsent: the row of
    that key if the campaign has one (closed or open: after a rollback a turn or decision that
    was closed is owed again, decision 0023), else a new row as :func:`insert_deadline`."""
    found = conn.execute(
        sa.update(deadlines)
        .where(deadlines.c.campaign_id == campaign_id, deadlines.c.decision_key == decision_key)
        .values(
            faction=faction, due_at=due_at, reminder_at=reminder_at, reminded=False, fired=False
        )
    )
    if not found.rowcount:
        insert_deadline(
            conn,
            campaign_id=campaign_id,
            decision_key=decision_key,
            faction=faction,
            due_at=due_at,
            reminder_at=reminder_at,
        )
