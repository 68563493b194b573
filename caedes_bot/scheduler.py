"""Deadlines and reminders, from the database (R-PBP-DEAD-01..04; design.md section 1).

The service writes a deadline row whenever a turn begins or a reaction is asked of another
faction (:class:`~caedes_bot.service.DeadlinePolicy`), in the same transaction as the order.
The :class:`Scheduler` only reads them back through the service, so nothing is armed in
memory: after a restart the first :meth:`Scheduler.tick` finds whatever fell due meanwhile.

Each tick, at the injected clock's time:

* every due reminder whose deadline is still owed is queued (one outbox post to the owing
  faction's orders thread, pinging its player) and marked sent (R-PBP-DEAD-02); a reminder for
  something no longer owed (a turn already played passively) is marked sent without a post
  (ux.md "Pings": reminders go only to those who still owe something);
* every passed deadline is acted on as the system, with ONE order:

  - ``turn:<round>:<faction>``: ``ForfeitTurn`` for that faction, if that turn is still being
    played and not already passive. The rules then play the rest of the turn passively
    (R-PBP-DEAD-03), as far as it goes without another faction's answer; a reaction owed by
    another faction keeps its own deadline, and the rules play on once it is answered.
  - ``decision:<id>``: ``UmpireAdvance`` naming that decision, if it is still pending: exactly
    that decision is answered with its default (R-PBP-DEAD-04), never another one.

  Then the deadline is marked fired. The order carries the interaction id
  ``deadline:<id>:<due time>`` (:func:`interaction_id`), so a tick repeated after a crash (or
  by a second scheduler) has no second effect, and a deadline a rollback reopened acts again.

Deadlines of paused campaigns wait until the campaign is active again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import DeadlineRecord, OutboxKind, OutboxMessage, utcnow
from caedes_bot.outbox import sleep_or_wake
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState
from caedes_bot.rules.turn import ForfeitTurn, UmpireAdvance
from caedes_bot.service import Actor, CampaignNotActive, RulesService

log = logging.getLogger(__name__)

#: Seconds to wait after a failed tick before the next one.
ERROR_PAUSE = 5.0


@dataclass(frozen=True, slots=True)
class TickReport:
    """What one :meth:`Scheduler.tick` did: reminders sent, deadlines fired, orders given."""

    reminded: int = 0
    fired: int = 0
    orders: int = 0


def interaction_id(deadline: DeadlineRecord) -> str:
    """The interaction id of the one order a passed deadline gives:
    ``deadline:<id>:<due time, Unix seconds>``. The due time is part of it because a rollback
    reopens a deadline that fired in the same row (decision 0023): owed afresh, with a new due
    time, it must give its order again, where the same id would find the first order and give
    nothing. Two processes or a restart acting on one due time still give one order."""
    return f"deadline:{deadline.id}:{int(deadline.due_at.timestamp())}"


def order_for(deadline: DeadlineRecord, state: GameState) -> Order | None:
    """The order that acts on ``deadline`` now that it has passed, or ``None`` if nothing is
    owed any more (R-PBP-DEAD-03, R-PBP-DEAD-04).

    * ``turn:<round>:<faction>``: ``ForfeitTurn(faction)`` while that faction's turn of that
      game round is being played and is not passive yet;
    * ``decision:<id>``: ``UmpireAdvance(active faction, decision_id=<id>)`` while that
      decision is pending.
    """
    if state.finished or state.active is None:
        return None
    key = deadline.decision_key
    if key.startswith("turn:"):
        _, round_text, faction = key.split(":", 2)
        owed = state.round == int(round_text) and state.active == faction and not state.passive
        return ForfeitTurn(faction) if owed else None
    if key.startswith("decision:"):
        decision_id = int(key.split(":", 1)[1])
        if any(d.id == decision_id for d in state.pending):
            return UmpireAdvance(state.active, decision_id=decision_id)
        return None
    log.warning("deadline %s: unknown key %r", deadline.id, key)
    return None


class Scheduler:
    """Sends reminders and acts on passed deadlines (see the module docstring).

    Args:
        service: the rules service (the only door to state and to the database).
        clock: the current UTC time (a fake in tests).
        sleep: ``asyncio.sleep`` or a fake; used only by :meth:`run` while idle.
        idle_poll: the longest :meth:`run` waits between ticks, in seconds.
    """

    def __init__(
        self,
        service: RulesService,
        *,
        clock: Callable[[], datetime] = utcnow,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        idle_poll: float = 300.0,
    ) -> None:
        self.service = service
        self._clock = clock
        self._sleep = sleep
        self.idle_poll = idle_poll
        self._wake = asyncio.Event()
        self._stopping = False

    def wake(self, _campaign_id: int | None = None) -> None:
        """Deadlines may have changed: look again now (fits ``RulesService.add_listener``)."""
        self._wake.set()

    def stop(self) -> None:
        """Ask :meth:`run` to return."""
        self._stopping = True
        self._wake.set()

    async def run(self) -> None:
        """Tick until :meth:`stop`, sleeping until the next reminder or deadline (at most
        ``idle_poll``) or until :meth:`wake`."""
        while not self._stopping:
            failed = False
            try:
                await self.tick()
            except Exception:
                failed = True
                log.exception("scheduler tick failed")
            if self._stopping:
                break
            nxt = await self.service.next_deadline_time()
            delay = self.idle_poll
            if nxt is not None:
                delay = max(0.0, min(delay, (nxt - self._clock()).total_seconds()))
            if failed:
                delay = max(delay, ERROR_PAUSE)  # never spin on a persistent error
            await sleep_or_wake(self._sleep, delay, self._wake)

    async def tick(self) -> TickReport:
        """Send due reminders and act on passed deadlines, as of the clock's time now."""
        now = self._clock()
        reminded = fired = orders = 0
        for deadline in await self.service.due_reminders(now):
            if deadline.due_at <= now:
                continue  # too late for a reminder: the deadline itself acts below
            state = await self.service.get_state(deadline.campaign_id)
            if order_for(deadline, state) is None:
                await self.service.remind(deadline, post=False)  # nothing owed: no ping
            else:
                await self.service.remind(deadline)
                reminded += 1
        for deadline in await self.service.due_deadlines(now):
            done, given = await self._fire(deadline)
            orders += given
            fired += done
        return TickReport(reminded, fired, orders)

    async def _fire(self, deadline: DeadlineRecord) -> tuple[bool, int]:
        """Act on the passed ``deadline`` with at most one order; returns (fired, orders)."""
        state = await self.service.get_state(deadline.campaign_id)
        order = order_for(deadline, state)
        given = 0
        if order is not None:
            try:
                result = await self.service.submit(
                    deadline.campaign_id,
                    Actor.system_actor(),
                    order,
                    interaction_id=interaction_id(deadline),
                )
            except CampaignNotActive:
                return False, 0  # paused meanwhile: wait for the campaign
            except RuleViolation as err:
                # answered meanwhile, or a decision with no known default: tell the umpire
                log.warning("deadline %s: %s refused: %s", deadline.decision_key, order, err)
                await self._tell_umpire(deadline, order, err)
            else:
                given = 0 if result.duplicate else 1
        await self.service.mark_deadline_fired(deadline)
        return True, given

    async def _tell_umpire(
        self, deadline: DeadlineRecord, order: Order, err: RuleViolation
    ) -> None:
        """Post to ``#umpire`` that a passed deadline could not be acted on (ux.md: the
        umpire's channel shows the errors the bot met)."""
        text = (
            f"The deadline {deadline.decision_key} passed, but {type(order).__name__} for "
            f"{order.faction} was refused: {err.player_text()}"
        )
        await self.service.queue_messages(
            deadline.campaign_id,
            [OutboxMessage(ChannelKey.UMPIRE, OutboxKind.POST, {"content": text[:1900]})],
        )
