"""The service's one facade: :class:`RulesService`, composed of its parts."""

from __future__ import annotations

from caedes_bot.service.access import Access
from caedes_bot.service.deadlines import Deadlines
from caedes_bot.service.exports import Exports
from caedes_bot.service.queries import Queries
from caedes_bot.service.reports import DeliveryReports
from caedes_bot.service.stepping import Stepping


class RulesService(Exports, Access, Stepping, Deadlines, Queries, DeliveryReports):
    """The only door to campaign state. One instance per process.

    Its parts share one :class:`~caedes_bot.service.core.ServiceCore` (the database, the game
    data, the per-campaign locks and the cache of states):

    * orders (:mod:`.orders`): ``submit``, ``replay``;
    * campaigns (:mod:`.campaigns`): ``create_campaign``, ``start``, ``set_status``;
    * pausing (:mod:`.pausing`): ``pause``, ``resume`` (R-PBP-UMP-05);
    * exports (:mod:`.exports`): ``export_campaign``, ``import_campaign`` (decision 0023);
      rollbacks (:mod:`.rollback`) go through ``submit``, their points through
      ``rollback_points``;
    * stepping (:mod:`.stepping`): ``set_step`` (``/umpire set step``, R-PBP-UMP-01);
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
