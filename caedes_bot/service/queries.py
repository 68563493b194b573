"""Read-only questions about campaigns, for the Discord edge: states and views (from the
cache), campaign rows, channels, members, the event log, deadlines and the audit log.

Nothing here writes; the database reads use the reader pool.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import (
    AuditRecord,
    CampaignInfo,
    CampaignStatus,
    CampaignView,
    ChannelRecord,
    DeadlineRecord,
    StoredEvent,
    StoredOrder,
)
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.mappers import load_event
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState
from caedes_bot.service.core import ServiceCore
from caedes_bot.service.errors import UnknownCampaign
from caedes_bot.service.rollback import ROUND_BEGINS, RollbackPoint, points_of


class Queries(ServiceCore):
    """What the edge may ask without changing anything."""

    async def get_state(self, campaign_id: int) -> GameState:
        """The campaign's current state. Shared with the cache: read it, never change it.

        Raises:
            UnknownCampaign: no such campaign.
        """
        return (await self._load(campaign_id)).state

    async def get_view(self, campaign_id: int) -> CampaignView:
        """The campaign's row and who plays which faction, from the in-memory cache (read from
        the database on a miss); every change made through this service keeps it current.

        Raises:
            UnknownCampaign: no such campaign.
        """
        return (await self._load(campaign_id)).view()

    async def get_campaign(self, campaign_id: int) -> CampaignInfo:
        """The campaign's row. Raises :class:`UnknownCampaign`."""

        def _tx(conn: Connection) -> CampaignInfo | None:
            info = repo.campaign_info(conn, campaign_id)
            return info

        info = await self.db.read(_tx)
        if info is None:
            raise UnknownCampaign(campaign_id)
        return info

    async def campaigns(
        self, *, guild_id: int | None = None, statuses: Iterable[CampaignStatus] | None = None
    ) -> list[CampaignInfo]:
        """Campaigns in id order, optionally of one guild and in some statuses."""

        def _tx(conn: Connection) -> list[CampaignInfo]:
            return repo.list_campaigns(
                conn, guild_id=guild_id, statuses=None if statuses is None else list(statuses)
            )

        return await self.db.read(_tx)

    async def campaign_for_channel(self, discord_channel_id: int) -> CampaignInfo | None:
        """The campaign whose category, channel or thread has this Discord id, if any."""

        def _tx(conn: Connection) -> CampaignInfo | None:
            channel = repo.channel_by_discord_id(conn, discord_channel_id)
            if channel is None:
                return None
            return repo.campaign_info(conn, channel.campaign_id)

        return await self.db.read(_tx)

    async def channels(self, campaign_id: int) -> dict[ChannelKey, ChannelRecord]:
        """The campaign's channels by key (``discord_id`` ``None`` until created)."""

        def _tx(conn: Connection) -> dict[ChannelKey, ChannelRecord]:
            return repo.channels_of(conn, campaign_id)

        return await self.db.read(_tx)

    async def factions_of(self, campaign_id: int, user_id: int) -> list[str]:
        """The factions ``user_id`` plays in the campaign, sorted."""

        def _tx(conn: Connection) -> list[str]:
            return repo.factions_of(conn, campaign_id, user_id)

        return await self.db.read(_tx)

    async def players(self, campaign_id: int) -> dict[str, int]:
        """Faction -> player user id (factions without a player are the umpire's)."""

        def _tx(conn: Connection) -> dict[str, int]:
            return repo.players_of(conn, campaign_id)

        return await self.db.read(_tx)

    async def events(
        self, campaign_id: int, *, after_seq: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """The campaign's event log after ``after_seq``."""

        def _tx(conn: Connection) -> list[StoredEvent]:
            return repo.list_events(conn, campaign_id, after_seq=after_seq, limit=limit)

        return await self.db.read(_tx)

    async def rollback_points(self, campaign_id: int) -> list[RollbackPoint]:
        """The points of the current game round ``/umpire rollback`` may return to, oldest
        first (:func:`~caedes_bot.service.rollback.points_of`); empty before the first round."""

        def _tx(conn: Connection) -> list[StoredOrder]:
            start = repo.latest_order_with_event(conn, campaign_id, ROUND_BEGINS)
            return repo.list_orders(conn, campaign_id, from_seq=start) if start else []

        return points_of(await self.db.read(_tx))

    async def turn_events(self, campaign_id: int, round_no: int, faction: str) -> list[Event]:
        """The events of ``faction``'s turn of game round ``round_no``, in order, from its
        ``TurnBegan`` to the next turn's (for ``/history``); empty for a turn not begun. Each
        keeps its audience (``Event.audience()``): the caller shows a private one only to its
        factions and the umpire (R-GEN-07)."""

        def _tx(conn: Connection) -> list[StoredEvent]:
            return repo.turn_events(conn, campaign_id, round_no, faction)

        return [load_event(e.payload) for e in await self.db.read(_tx)]

    async def deadlines(self, campaign_id: int) -> list[DeadlineRecord]:
        """The campaign's open deadlines, soonest first."""

        def _tx(conn: Connection) -> list[DeadlineRecord]:
            return repo.open_deadlines(conn, campaign_id)

        return await self.db.read(_tx)

    async def audit_log(self, campaign_id: int) -> list[AuditRecord]:
        """The campaign's audit log, oldest first."""

        def _tx(conn: Connection) -> list[AuditRecord]:
            return repo.list_audit(conn, campaign_id)

        return await self.db.read(_tx)
