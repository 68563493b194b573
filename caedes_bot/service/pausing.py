"""Pause and resume a campaign (R-PBP-UMP-05, as ruled): the umpire stops the clock.

While a campaign is paused no order is taken (:class:`~caedes_bot.service.CampaignNotActive`)
and no deadline or reminder falls due (the scheduler reads only active campaigns' deadlines).
Resuming gives each open deadline the time it had left at the pause, but at least one hour
(:func:`~caedes_bot.domain.records.time_left`); a reminder not yet sent keeps its lead before
its deadline, and one already sent is not sent again.

Each of :meth:`Pausing.pause` and :meth:`Pausing.resume` is one transaction under the
campaign's lock: the status (and the time of the pause), the deadlines moved, the audit entry
and the outbox rows the announcer owes (the post in ``#announcements``, the turn panel edited).
Only the campaign's umpire may pause or resume it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignInfo, CampaignStatus, CampaignView, time_left
from caedes_bot.persistence import repository as repo
from caedes_bot.service.access import acting_role
from caedes_bot.service.core import Cached, ServiceCore
from caedes_bot.service.errors import NotAuthorised, PauseRefused
from caedes_bot.service.values import Actor
from caedes_bot.ui import wording


class Pausing(ServiceCore):
    """The umpire's pause and resume of a campaign (see the module docstring)."""

    async def pause(self, campaign_id: int, actor: Actor) -> CampaignView:
        """Pause the campaign: no orders, no deadlines, no reminders until it resumes.

        Returns:
            The campaign as paused (``info.paused_at`` is now), with its open deadlines as they
            stood (their time left is counted from ``paused_at``).

        Raises:
            NotAuthorised: the actor is not the campaign's umpire (R-PBP-UMP-05).
            PauseRefused: the campaign is already paused, or is not under way.
            UnknownCampaign: no such campaign.
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            info = cached.info
            self._check_umpire(info, actor)
            if info.status is CampaignStatus.PAUSED:
                since = info.paused_at
                words = wording.already_paused(
                    info.name, int(since.timestamp()) if since is not None else None
                )
                raise PauseRefused(words.message, allowed=words.allowed)
            if info.status is not CampaignStatus.ACTIVE:
                words = wording.cannot_pause(info.name, info.status)
                raise PauseRefused(words.message, allowed=words.allowed)
            now = self._clock()
            paused = replace(info, status=CampaignStatus.PAUSED, paused_at=now, updated_at=now)

            def _tx(conn: Connection) -> CampaignView:
                due = {d.decision_key: d.due_at for d in repo.open_deadlines(conn, campaign_id)}
                view = CampaignView(paused, dict(cached.players), due)
                repo.update_campaign(
                    conn, campaign_id, now=now, status=CampaignStatus.PAUSED, paused_at=now
                )
                left = {key: time_left(when, now).total_seconds() for key, when in due.items()}
                self._audit(conn, info, actor, CampaignStatus.PAUSED, now, left)
                messages = self.announcer.status_changed(view, cached.state, self.ruleset)
                repo.insert_outbox(conn, campaign_id, messages, now=now)
                return view

            view = await self.db.write(_tx)
            self._settle(cached, paused, view.deadlines)
            return view

    async def resume(self, campaign_id: int, actor: Actor) -> CampaignView:
        """Resume a paused campaign: each open deadline is due after the time it had left at
        the pause (at least one hour) from now, and its reminder moves with it.

        Returns:
            The campaign running again, with its open deadlines at their new times.

        Raises:
            NotAuthorised: the actor is not the campaign's umpire (R-PBP-UMP-05).
            PauseRefused: the campaign is not paused.
            UnknownCampaign: no such campaign.
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            info = cached.info
            self._check_umpire(info, actor)
            if info.status is not CampaignStatus.PAUSED:
                words = wording.not_paused(info.name, info.status)
                raise PauseRefused(words.message, allowed=words.allowed)
            now = self._clock()
            paused_at = info.paused_at or now  # paused before its time was stored
            running = replace(info, status=CampaignStatus.ACTIVE, paused_at=None, updated_at=now)

            def _tx(conn: Connection) -> CampaignView:
                due: dict[str, datetime] = {}
                for deadline in repo.open_deadlines(conn, campaign_id):
                    due_at = now + time_left(deadline.due_at, paused_at)
                    reminder_at = deadline.reminder_at
                    if reminder_at is not None:
                        lead = deadline.due_at - reminder_at
                        reminder_at = max(now, due_at - lead)
                    repo.shift_deadline(conn, deadline.id, due_at=due_at, reminder_at=reminder_at)
                    due[deadline.decision_key] = due_at
                repo.update_campaign(
                    conn, campaign_id, now=now, status=CampaignStatus.ACTIVE, paused_at=None
                )
                new_times = {key: when.isoformat() for key, when in due.items()}
                self._audit(conn, info, actor, CampaignStatus.ACTIVE, now, new_times)
                view = CampaignView(running, dict(cached.players), due)
                messages = self.announcer.status_changed(view, cached.state, self.ruleset)
                repo.insert_outbox(conn, campaign_id, messages, now=now)
                return view

            view = await self.db.write(_tx)
            self._settle(cached, running, view.deadlines)
            return view

    @staticmethod
    def _check_umpire(info: CampaignInfo, actor: Actor) -> None:
        if actor.system or (actor.user_id is not None and actor.user_id == info.umpire_user_id):
            return
        words = wording.umpire_only(info.name, info.umpire_user_id)
        raise NotAuthorised(words.message, rule="R-PBP-UMP-05", allowed=words.allowed)

    def _audit(
        self,
        conn: Connection,
        info: CampaignInfo,
        actor: Actor,
        to: CampaignStatus,
        now: datetime,
        deadlines: Mapping[str, Any],
    ) -> None:
        """The audit entry ``status_changed``, with the open deadlines: their seconds left (a
        pause) or their new times (a resume)."""
        repo.insert_audit(
            conn,
            campaign_id=info.id,
            user_id=actor.user_id,
            action="status_changed",
            detail={
                "from": info.status.value,
                "to": to.value,
                "as": acting_role(info, actor.user_id),
                "deadlines": dict(deadlines),
            },
            now=now,
        )

    def _settle(self, cached: Cached, info: CampaignInfo, due: Mapping[str, datetime]) -> None:
        """The cache follows the commit; the scheduler and the outbox are woken."""
        cached.info = info
        for key, when in due.items():
            if key in cached.deadline_keys:
                cached.deadline_due[key] = when
        self._store(cached)
        self._notify(info.id)
