"""A campaign's Discord places by key (category, channels, threads) and their Discord ids,
stored once the outbox has made them.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import ChannelRecord
from caedes_bot.persistence.tables import channels


def add_channel(conn: Connection, campaign_id: int, key: str, parent_key: str | None) -> None:
    """Register a channel key (its Discord id comes later, from the outbox)."""
    conn.execute(
        sa.insert(channels).values(campaign_id=campaign_id, key=key, parent_key=parent_key)
    )


def set_channel_discord_id(conn: Connection, campaign_id: int, key: str, discord_id: int) -> None:
    """Store the Discord id of a created channel, category or thread."""
    conn.execute(
        sa.update(channels)
        .where(channels.c.campaign_id == campaign_id, channels.c.key == key)
        .values(discord_id=discord_id)
    )


def channels_of(conn: Connection, campaign_id: int) -> dict[str, ChannelRecord]:
    """The campaign's channels by key."""
    rows = conn.execute(sa.select(channels).where(channels.c.campaign_id == campaign_id))
    return {r.key: ChannelRecord(r.campaign_id, r.key, r.discord_id, r.parent_key) for r in rows}


def channel_by_discord_id(conn: Connection, discord_id: int) -> ChannelRecord | None:
    """The campaign channel (or category, or thread) with this Discord id, if any."""
    row = (conn.execute(sa.select(channels).where(channels.c.discord_id == discord_id))).first()
    return (
        None
        if row is None
        else ChannelRecord(row.campaign_id, row.key, row.discord_id, row.parent_key)
    )
