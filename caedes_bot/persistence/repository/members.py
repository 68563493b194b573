"""Who plays which faction of a campaign (R-SETUP-02); factions without a player are the
umpire's (R-PBP-UMP-02).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.persistence.tables import members


def set_member(conn: Connection, campaign_id: int, faction: str, user_id: int) -> None:
    """Give ``faction`` to ``user_id`` (replacing any previous player of that faction)."""
    conn.execute(
        sa.delete(members).where(members.c.campaign_id == campaign_id, members.c.faction == faction)
    )
    conn.execute(
        sa.insert(members).values(campaign_id=campaign_id, faction=faction, user_id=user_id)
    )


def remove_member(conn: Connection, campaign_id: int, faction: str) -> None:
    """Leave ``faction`` without a player (the umpire runs it, R-PBP-UMP-02)."""
    conn.execute(
        sa.delete(members).where(members.c.campaign_id == campaign_id, members.c.faction == faction)
    )


def factions_of(conn: Connection, campaign_id: int, user_id: int) -> list[str]:
    """The factions ``user_id`` holds in the campaign, sorted."""
    rows = conn.execute(
        sa.select(members.c.faction)
        .where(members.c.campaign_id == campaign_id, members.c.user_id == user_id)
        .order_by(members.c.faction)
    )
    return [r.faction for r in rows]


# built once: building a statement and its cache key cost more than running it
_PLAYERS = sa.select(members.c.faction, members.c.user_id).where(
    members.c.campaign_id == sa.bindparam("b_campaign")
)


def players_of(conn: Connection, campaign_id: int) -> dict[str, int]:
    """Faction -> player user id, for factions that have a player."""
    return {faction: user for faction, user in conn.execute(_PLAYERS, {"b_campaign": campaign_id})}
