"""Deadlines (R-PBP-DEAD-01..04, R-PBP-UMP-03): what the scheduler reads and does through the
service. Deadline rows are armed by the order that makes them owed (:mod:`.orders`, with the
:class:`~caedes_bot.service.policy.DeadlinePolicy`); here they are read back when due, reminded,
marked fired, or moved by the umpire (R-PBP-UMP-03: :meth:`Deadlines.change_deadlines`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import (
    CampaignStatus,
    CampaignView,
    DeadlineRecord,
    OutboxKind,
    OutboxMessage,
)
from caedes_bot.persistence import repository as repo
from caedes_bot.rules.umpire_game import SetOption
from caedes_bot.service.access import acting_role
from caedes_bot.service.errors import CampaignNotActive, DeadlineRefused, NotAuthorised
from caedes_bot.service.orders import Orders, Prepared
from caedes_bot.service.values import Actor, SubmitResult
from caedes_bot.ui import wording

#: The least time a deadline the umpire shortens keeps from now.
MIN_LEFT = timedelta(minutes=15)


class Deadlines(Orders):
    """Due reminders and deadlines, reminding, firing and moving them."""

    async def due_reminders(self, now: datetime) -> list[DeadlineRecord]:
        """Deadlines of active campaigns of this process's shards whose reminder is due and
        not sent (R-PBP-DEAD-02), claimed for this process (decision 0025)."""
        found = await self.db.read(
            lambda conn: repo.due_reminders(conn, now=now, shards=self.shards)
        )
        return await self._claim(found, now)

    async def due_deadlines(self, now: datetime) -> list[DeadlineRecord]:
        """Deadlines of active campaigns of this process's shards that have passed and not
        fired (R-PBP-DEAD-03), claimed for this process: a deadline another process holds
        a live claim on is left to it, so it is acted on in one process (decision 0025)."""
        found = await self.db.read(
            lambda conn: repo.due_deadlines(conn, now=now, shards=self.shards)
        )
        return await self._claim(found, now)

    async def _claim(self, found: list[DeadlineRecord], now: datetime) -> list[DeadlineRecord]:
        """Claim ``found`` for this process; on a database one process owns (SQLite, without
        leases) there is nobody to claim against, and all are returned as they are."""
        if not found or not self.delivery.leases:
            return found
        until = now + timedelta(seconds=self.deadline_claim_seconds)
        claimed = await self.db.write(
            lambda conn: repo.claim_deadlines(conn, found, owner=self.process, now=now, until=until)
        )
        self._claimed_deadlines.update(d.id for d in claimed)
        return claimed

    async def release_claims(self) -> None:
        """Let go of this process's outbox leases and deadline claims (decision 0025): on a
        clean stop, once the outbox dispatcher and the scheduler have stopped, so that another
        process delivers its queues and acts on its deadlines at once, not when the leases
        and claims run out (30 and 60 s). A queue whose lease ended this way is still taken
        over with a look before its first post."""
        ids = sorted(self._claimed_deadlines)
        self._claimed_deadlines.clear()
        if ids:
            await self.db.write(
                lambda conn: repo.release_deadline_claims(conn, ids, owner=self.process)
            )
        await self.delivery.release(self._clock())

    async def next_deadline_time(self) -> datetime | None:
        """When the next reminder or deadline of an active campaign of this process's shards
        falls due."""
        return await self.db.read(lambda conn: repo.next_deadline_time(conn, self.shards))

    async def remind(self, deadline: DeadlineRecord, *, post: bool = True) -> None:
        """Queue the reminder of ``deadline`` to its faction's orders thread, pinging the
        faction's player only (ux.md "Pings"), and mark it sent, in one transaction.

        With ``post=False`` it is only marked sent: the faction owes nothing any more, and
        reminders go only to those who still owe something. A campaign paused since the
        reminder was read gets nothing: the reminder waits for the resume (R-PBP-UMP-05)."""
        if not post:
            await self.db.write(lambda conn: repo.mark_reminded(conn, deadline.id))
            return
        async with self._campaign_lock(deadline.campaign_id):
            cached = await self._load(deadline.campaign_id)
            if cached.info.status is not CampaignStatus.ACTIVE:
                return  # paused since it was read: the reminder waits (R-PBP-UMP-05)
            due_at = cached.deadline_due.get(deadline.decision_key, deadline.due_at)
            await self._queue_reminder(deadline, due_at, cached.players)
        self._notify(deadline.campaign_id)

    async def _queue_reminder(
        self, deadline: DeadlineRecord, due_at: datetime, players: dict[str, int]
    ) -> None:
        unix = int(due_at.timestamp())
        faction = deadline.faction
        player = players.get(faction) if faction else None
        # one reminder per deadline and due time: a deadline the umpire moved after its
        # reminder (R-PBP-UMP-03) is reminded again before its new time, still once only
        key = f"reminder:{deadline.id}:{int(deadline.due_at.timestamp())}"
        message = OutboxMessage(
            ChannelKey.orders(faction) if faction else ChannelKey.UMPIRE,
            OutboxKind.POST,
            {
                "content": wording.reminder_text(
                    faction, deadline.decision_key.startswith("turn:"), unix
                ),
                "mention_user_ids": [player] if player is not None else [],
                "deadline": deadline.decision_key,
            },
            dedupe_key=key,
        )
        now = self._clock()

        def _tx(conn: Connection) -> None:
            if not repo.outbox_key_exists(conn, deadline.campaign_id, key):
                repo.insert_outbox(conn, deadline.campaign_id, [message], now=now)
            repo.mark_reminded(conn, deadline.id)

        await self.db.write(_tx)

    async def mark_deadline_fired(self, deadline: DeadlineRecord) -> None:
        """The deadline has been acted on (or needs nothing more). A cached campaign no
        longer lists it among its open deadlines (its key stays armed: it is not armed again
        while the state still owes it)."""
        async with self._campaign_lock(deadline.campaign_id):
            await self.db.write(lambda conn: repo.mark_fired(conn, deadline))
            cached = self._cached(deadline.campaign_id)
            if cached is None:
                self.forget(deadline.campaign_id)  # a read under way must read again
            elif deadline.decision_key in cached.deadline_due:
                del cached.deadline_due[deadline.decision_key]
                self._store(cached)

    async def move_deadline(
        self, deadline: DeadlineRecord, due_at: datetime, *, by: int | None = None
    ) -> None:
        """The umpire moves a deadline (R-PBP-UMP-03); its reminder is re-armed. Logged."""
        window = due_at - self._clock()
        lead = min(
            window * self.deadline_policy.reminder_fraction,
            self.deadline_policy.max_reminder_lead,
        )
        now = self._clock()

        def _tx(conn: Connection) -> None:
            repo.set_deadline_due(conn, deadline.id, due_at=due_at, reminder_at=due_at - lead)
            repo.insert_audit(
                conn,
                campaign_id=deadline.campaign_id,
                user_id=by,
                action="deadline_moved",
                detail={"deadline": deadline.decision_key, "due_at": due_at.isoformat()},
                now=now,
            )

        async with self._campaign_lock(deadline.campaign_id):
            await self.db.write(_tx)
            cached = self._cached(deadline.campaign_id)
            if cached is None:
                self.forget(deadline.campaign_id)  # a read under way must read again
            else:
                if deadline.decision_key in cached.deadline_keys:
                    cached.deadline_due[deadline.decision_key] = due_at
                self._store(cached)
        self._notify(deadline.campaign_id)

    async def change_deadlines(
        self, campaign_id: int, actor: Actor, *, hours: float, which: str = "all"
    ) -> list[tuple[str, datetime, datetime]]:
        """The umpire extends (``hours`` > 0) or shortens (``hours`` < 0) the campaign's open
        deadlines (R-PBP-UMP-03, R-PBP-DEAD-01): :meth:`umpire_deadlines` with no new
        windows. Returns the moves, as that does."""
        moves, _ = await self.umpire_deadlines(campaign_id, actor, hours=hours, which=which)
        return moves

    async def umpire_deadlines(
        self,
        campaign_id: int,
        actor: Actor,
        *,
        hours: float | None = None,
        which: str = "all",
        windows: Mapping[str, float] | None = None,
        interaction_id: str | None = None,
    ) -> tuple[list[tuple[str, datetime, datetime]], list[SubmitResult]]:
        """``/umpire deadline`` in one transaction (R-PBP-UMP-03, R-PBP-DEAD-01): the open
        deadlines moved by ``hours`` (> 0 later, < 0 sooner; ``which`` is ``"all"``, ``"turn"``
        for the active faction's turn or ``"reactions"`` for the answers owed by others), each
        reminder armed again before its new time, with the audit entry ``deadline_moved`` per
        deadline (before and after, decision 0022), the notice in ``#announcements`` and the
        turn panel edited; and the ``windows`` of later deadlines (option name, such as
        ``turn_deadline_hours``, -> hours) changed from the next turn start, each a
        ``SetOption`` order (R-SETUP-04). All of it or nothing is committed.

        Returns:
            ``(decision key, before, after)`` of every deadline moved, soonest first; the
            result of each ``SetOption``, in the order of ``windows``.

        Raises:
            NotAuthorised: the actor is neither the umpire, an admin nor the bot.
            CampaignNotActive: the campaign is not running (paused, being set up, finished).
            DeadlineRefused: no open deadline of that kind, or one would fall less than
                :data:`MIN_LEFT` from now; nothing changes.
            RuleViolation: a window the option refuses (R-SETUP-04); nothing changes.
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            info = cached.info
            if not (actor.system or actor.is_admin or actor.user_id == info.umpire_user_id):
                raise NotAuthorised(
                    "Only the umpire or an admin may change deadlines.",
                    rule="R-PBP-UMP-03",
                    allowed="ask the umpire",
                )
            if info.status is not CampaignStatus.ACTIVE:
                words = wording.not_running(info.name, info.status)
                raise CampaignNotActive(words.message, allowed=words.allowed)
            now = self._clock()
            moves: list[tuple[DeadlineRecord, datetime]] = []
            changed: list[tuple[str, datetime, datetime]] = []
            messages: list[OutboxMessage] = []
            shift = timedelta(hours=hours or 0)
            if hours is not None:
                open_now = await self.db.read(lambda conn: repo.open_deadlines(conn, campaign_id))
                chosen = [d for d in open_now if _of_kind(d.decision_key, which)]
                if not chosen:
                    raise DeadlineRefused(
                        f"{info.name} has no open deadline of that kind now.",
                        allowed="`which: all` for every open deadline; `/status` shows them",
                    )
                moves = [(d, cached.deadline_due.get(d.decision_key, d.due_at)) for d in chosen]
                soonest = min(due + shift for _, due in moves)
                if soonest < now + MIN_LEFT:
                    raise DeadlineRefused(
                        "That would leave a deadline less than 15 minutes from now.",
                        rule="R-PBP-UMP-03",
                        allowed="a smaller shortening, or `/umpire advance` to move the turn on "
                        "now",
                    )
                view = cached.view()
                changed = [(d.decision_key, due, due + shift) for d, due in moves]
                due_now = {**view.deadlines, **{key: after for key, _, after in changed}}
                new_view = CampaignView(view.info, view.players, due_now, view.turn_events)
                text = wording.deadlines_moved_text(
                    info.name,
                    [
                        (wording.deadline_what(key, cached.state, self.ruleset), before, after)
                        for key, before, after in changed
                    ],
                )
                messages = self.announcer.notice_and_panel(
                    new_view, cached.state, self.ruleset, text
                )
            # the windows: SetOption orders on the campaign as moved, in the same transaction
            moved_due = {key: after for key, _, after in changed if key in cached.deadline_keys}
            current = replace(cached, deadline_due={**cached.deadline_due, **moved_due})
            prepared: list[Prepared] = []
            for name, value in (windows or {}).items():
                order = SetOption("UMPIRE", name, str(value))
                acting_as = self._authorise(current, actor, order, CampaignStatus.ACTIVE)
                dice = self._dice_factory(current.state)
                outcome = self._apply(current.state, order, self.ruleset, dice)
                step = await self._prepare(
                    current,
                    actor,
                    acting_as,
                    order,
                    outcome,
                    None if interaction_id is None else f"{interaction_id}:{name}",
                    None,
                )
                prepared.append(step)
                current = step.after
            role = acting_role(info, actor.user_id)

            def _tx(conn: Connection) -> None:
                for deadline, due in moves:
                    after = due + shift
                    lead = min(
                        (after - now) * self.deadline_policy.reminder_fraction,
                        self.deadline_policy.max_reminder_lead,
                    )
                    repo.set_deadline_due(conn, deadline.id, due_at=after, reminder_at=after - lead)
                    repo.insert_audit(
                        conn,
                        campaign_id=campaign_id,
                        user_id=actor.user_id,
                        action="deadline_moved",
                        detail={
                            "deadline": deadline.decision_key,
                            "due_at": after.isoformat(),
                            "before": due.isoformat(),
                            "as": role,
                        },
                        now=now,
                    )
                repo.insert_outbox(conn, campaign_id, messages, now=now)
                for step in prepared:
                    step.write(conn)

            await self.db.write(_tx)
            self._store(current)
        self._notify(campaign_id)
        return sorted(changed, key=lambda move: move[2]), [p.result for p in prepared]


def _of_kind(key: str, which: str) -> bool:
    """Whether the deadline ``key`` is of kind ``which`` (``all``, ``turn``, ``reactions``)."""
    if which == "turn":
        return key.startswith("turn:")
    if which == "reactions":
        return key.startswith("decision:")
    return True
