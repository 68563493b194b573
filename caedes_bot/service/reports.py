"""What the service tells of deliveries: the failures of a campaign (for ``/campaign info``),
a failure reported to the umpire in ``#umpire`` and the audit log, and messages queued outside
an order (reminders, notices).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import ActingAs, DeliveryProblem, OutboxKind, OutboxMessage
from caedes_bot.persistence import repository as repo
from caedes_bot.service.core import ServiceCore
from caedes_bot.ui import wording


class DeliveryReports(ServiceCore):
    """What the service tells of deliveries: failures reported to the umpire, messages queued
    outside an order."""

    async def delivery_problems(self, campaign_id: int, *, limit: int = 5) -> list[DeliveryProblem]:
        """What the bot could not deliver to Discord for this campaign, for good (failed outbox
        rows: a channel it could not make, a member it could not add): those Discord refused
        first, then those that failed only because of an earlier failure; newest first in each
        (see :func:`~caedes_bot.persistence.repository.failed_outbox_rows`)."""

        def _tx(conn: Connection) -> list[DeliveryProblem]:
            rows = repo.failed_outbox_rows(conn, campaign_id, limit=limit)
            return [
                DeliveryProblem(r.channel_key, r.kind, r.last_error or "no reason given", r.payload)
                for r in rows
            ]

        return await self.db.read(_tx)

    async def report_delivery_failure(
        self,
        campaign_id: int,
        row_id: int,
        problem: DeliveryProblem,
    ) -> None:
        """A row of the campaign failed for good: log it in the audit log and tell the umpire in
        ``#umpire`` (once per row), so a set-up or a post that Discord refused is never lost
        silently. A failure in ``#umpire`` itself, or of such a notice, is only logged."""
        now = self._clock()
        notice = OutboxMessage(
            ChannelKey.UMPIRE,
            OutboxKind.POST,
            {"content": wording.delivery_notice(problem), "notice": True},
            dedupe_key=f"failure:{row_id}",
        )
        tell = problem.channel_key != ChannelKey.UMPIRE and not problem.payload.get("notice")

        def _tx(conn: Connection) -> None:
            if repo.campaign_info(conn, campaign_id) is None:
                return
            if tell and not repo.outbox_key_exists(conn, campaign_id, notice.dedupe_key or ""):
                repo.insert_outbox(conn, campaign_id, [notice], now=now)
            repo.insert_audit(
                conn,
                campaign_id=campaign_id,
                user_id=None,
                action="delivery_failed",
                detail={
                    "row": row_id,
                    "channel_key": problem.channel_key,
                    "kind": problem.kind.value,
                    "error": problem.error[:500],
                    "as": ActingAs.SYSTEM.value,
                },
                now=now,
            )

        await self.db.write(_tx)
        self._notify(campaign_id)

    async def queue_messages(self, campaign_id: int, messages: Sequence[OutboxMessage]) -> None:
        """Queue messages that report no state change (reminders, notices) in one transaction."""

        def _tx(conn: Connection) -> None:
            repo.insert_outbox(conn, campaign_id, messages, now=self._clock())

        await self.db.write(_tx)
        self._notify(campaign_id)
