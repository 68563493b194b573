"""The service's one facade: :class:`RulesService`, composed of its parts."""

from __future__ import annotations

from caedes_bot.domain.records import CampaignStatus
from caedes_bot.service.access import Access
from caedes_bot.service.deadlines import Deadlines
from caedes_bot.service.exports import Exports
from caedes_bot.service.queries import Queries
from caedes_bot.service.reports import DeliveryReports


class RulesService(Exports, Access, Deadlines, Queries, DeliveryReports):
    """The only door to campaign state. One instance per process.

    Its parts share one :class:`~caedes_bot.service.core.ServiceCore` (the database, the game
    data, the per-campaign locks and the cache of states):

    * orders (:mod:`.orders`): ``submit``, ``replay``;
    * campaigns (:mod:`.campaigns`): ``create_campaign``, ``start``, ``set_status``;
    * pausing (:mod:`.pausing`): ``pause``, ``resume`` (R-PBP-UMP-05);
    * exports (:mod:`.exports`): ``export_campaign``, ``import_campaign`` (decision 0023);
      rollbacks (:mod:`.rollback`) go through ``submit``, their points through
      ``rollback_points``;
    * access (:mod:`.access`): ``assign``, ``substitute``, ``unassign``, ``set_umpire``,
      ``open_thread``;
    * deadlines (:mod:`.deadlines`): ``due_reminders``, ``due_deadlines``, ``remind``,
      ``mark_deadline_fired``, ``move_deadline``, ``change_deadlines``,
      ``next_deadline_time``;
    * queries (:mod:`.queries`): ``get_state``, ``get_view``, ``get_campaign``, ``campaigns``,
      ``campaign_for_channel``, ``channels``, ``players``, ``factions_of``, ``events``,
      ``deadlines``, ``audit_log``;
    * delivery reports (:mod:`.reports`): ``delivery_problems``, ``report_delivery_failure``,
      ``queue_messages``; and ``delivery`` (:class:`~caedes_bot.service.delivery.Delivery`),
      the outbox dispatcher's door to the same database.

    See :class:`~caedes_bot.service.core.ServiceCore` for the arguments.
    """

    async def assign(
        self,
        campaign_id: int,
        user_id: int,
        faction: str,
        *,
        by: int | None = None,
        replace: bool = False,
    ) -> bool:
        """:meth:`Access.assign`, then the rules are told who plays what (R-VIC-01) once the
        campaign is under way."""
        changed = await super().assign(campaign_id, user_id, faction, by=by, replace=replace)
        if changed:
            await self._players_changed(campaign_id)
        return changed

    async def substitute(
        self, campaign_id: int, faction: str, user_id: int, *, by: int | None = None
    ) -> int | None:
        """:meth:`Access.substitute`, then the rules are told (R-VIC-01), as for :meth:`assign`."""
        previous = await super().substitute(campaign_id, faction, user_id, by=by)
        await self._players_changed(campaign_id)
        return previous

    async def unassign(self, campaign_id: int, faction: str, *, by: int | None = None) -> bool:
        """:meth:`Access.unassign`, then the rules are told (R-VIC-01), as for :meth:`assign`."""
        changed = await super().unassign(campaign_id, faction, by=by)
        if changed:
            await self._players_changed(campaign_id)
        return changed

    async def _players_changed(self, campaign_id: int) -> None:
        status = (await self._load(campaign_id)).info.status
        if status is CampaignStatus.ACTIVE:
            await self.record_players(campaign_id)
