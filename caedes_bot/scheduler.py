"""Deadlines and reminders, from the database (R-PBP-DEAD-01..04; design.md section 1).

The service writes a deadline row whenever a turn begins or a reaction is asked of another
faction (:class:`~caedes_bot.service.DeadlinePolicy`), in the same transaction as the order.
The :class:`Scheduler` only reads them back through the service, so nothing is armed in
memory: after a restart the first :meth:`Scheduler.tick` finds whatever fell due meanwhile.

Each tick, at the injected clock's time:

* every due reminder is queued (one outbox post to the faction's orders thread, pinging its
  player) and marked sent (R-PBP-DEAD-02);
* every passed deadline is acted on as the system: ``UmpireAdvance`` for the active faction,
  repeated until the missed turn is over (the rest of it is played passively, R-PBP-DEAD-03)
  or the missed decision is answered by its default (R-PBP-DEAD-04); then it is marked fired.
  Each ``UmpireAdvance`` carries the interaction id ``deadline:<id>:<n>``, so a tick repeated
  after a crash has no second effect.

Deadlines of paused campaigns wait until the campaign is active again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from caedes_bot.outbox import sleep_or_wake
from caedes_bot.persistence.repository import DeadlineRecord
from caedes_bot.persistence.tables import utcnow
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState
from caedes_bot.service import Actor, CampaignNotActive, RulesService

log = logging.getLogger(__name__)

#: Seconds to wait after a failed tick before the next one.
ERROR_PAUSE = 5.0

#: Builds the order that moves a stalled campaign on for ``faction`` (``UmpireAdvance``).
AdvanceFactory = Callable[[str], Order]


def _umpire_advance(faction: str) -> Order:
    from caedes_bot.rules.turn import UmpireAdvance

    return UmpireAdvance(faction=faction)


@dataclass(frozen=True, slots=True)
class TickReport:
    """What one :meth:`Scheduler.tick` did: reminders sent, deadlines fired, orders given."""

    reminded: int = 0
    fired: int = 0
    orders: int = 0


class Scheduler:
    """Sends reminders and acts on passed deadlines (see the module docstring).

    Args:
        service: the rules service (the only door to state and to the database).
        clock: the current UTC time (a fake in tests).
        sleep: ``asyncio.sleep`` or a fake; used only by :meth:`run` while idle.
        idle_poll: the longest :meth:`run` waits between ticks, in seconds.
        advance: the order given for a faction whose deadline passed (``UmpireAdvance``).
        max_advances: at most this many orders per passed deadline (a guard, never reached
            by a turn of eight steps).
    """

    def __init__(
        self,
        service: RulesService,
        *,
        clock: Callable[[], datetime] = utcnow,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        idle_poll: float = 300.0,
        advance: AdvanceFactory = _umpire_advance,
        max_advances: int = 50,
    ) -> None:
        self.service = service
        self._clock = clock
        self._sleep = sleep
        self.idle_poll = idle_poll
        self._advance = advance
        self._max_advances = max_advances
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
            if deadline.due_at > now:
                await self.service.remind(deadline)
                reminded += 1
        for deadline in await self.service.due_deadlines(now):
            done, given = await self._fire(deadline)
            orders += given
            fired += done
        return TickReport(reminded, fired, orders)

    async def _fire(self, deadline: DeadlineRecord) -> tuple[bool, int]:
        """Move the campaign on past ``deadline``; returns (fired, orders given)."""
        given = 0
        for n in range(self._max_advances):
            state = await self.service.get_state(deadline.campaign_id)
            if not self._still_owed(deadline, state):
                break
            assert state.active is not None
            try:
                await self.service.submit(
                    deadline.campaign_id,
                    Actor.system_actor(),
                    self._advance(state.active),
                    interaction_id=f"deadline:{deadline.id}:{n}",
                )
            except CampaignNotActive:
                return False, given  # paused meanwhile: wait for the campaign
            except RuleViolation as err:
                log.warning("deadline %s: advance refused: %s", deadline.decision_key, err)
                break
            given += 1
        await self.service.mark_deadline_fired(deadline)
        return True, given

    @staticmethod
    def _still_owed(deadline: DeadlineRecord, state: GameState) -> bool:
        """Whether what the deadline waits for is still owed in ``state``."""
        if state.finished or state.active is None:
            return False
        key = deadline.decision_key
        if key.startswith("turn:"):
            _, round_text, faction = key.split(":", 2)
            return state.round == int(round_text) and state.active == faction
        if key.startswith("decision:"):
            decision_id = int(key.split(":", 1)[1])
            return any(d.id == decision_id for d in state.pending)
        return False
