"""A campaign's Discord places by key (category, channels, threads) and their Discord ids,
stored once the outbox has made them.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import ChannelRecord
from caedes_bot.persistence.tables import channels


def add_channel(
    conn: Connection, campaign_id: int, key: ChannelKey, parent_key: ChannelKey | None
) -> None:
    """Register a channel key (its Discord id comes later, from the outbox)."""
    conn.execute(
        sa.insert(channels).values(campaign_id=campaign_id, key=key, parent_key=parent_key)
    )


def set_channel_discord_id(
    conn: Connection, campaign_id: int, key: ChannelKey, discord_id: int
) -> None:
    """Store the Discord id of a created channel, category or thread."""
    conn.execute(
        sa.update(channels)
        .where(channels.c.campaign_id == campaign_id, channels.c.key == key)
        .values(discord_id=discord_id)
    )


def _record(row: Any) -> ChannelRecord:
    parent = row.parent_key
    return ChannelRecord(
        row.campaign_id,
        ChannelKey(row.key),
        row.discord_id,
        None if parent is None else ChannelKey(parent),
    )


def channels_of(conn: Connection, campaign_id: int) -> dict[ChannelKey, ChannelRecord]:
    """The campaign's channels by key."""
    rows = conn.execute(sa.select(channels).where(channels.c.campaign_id == campaign_id))
    return {record.key: record for record in map(_record, rows)}


def channel_by_discord_id(conn: Connection, discord_id: int) -> ChannelRecord | None:
    """The campaign channel (or category, or thread) with this Discord id, if any."""
    row = (conn.execute(sa.select(channels).where(channels.c.discord_id == discord_id))).first()
    return None if row is None else _record(row)
