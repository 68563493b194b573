"""Deadlines follow ``/umpire rollback`` (R-PBP-UMP-01, R-PBP-UMP-03, R-PBP-DEAD-01; decision
0023): a rollback closes every open deadline and owes afresh, from the rollback's time, each one
the state it returns to owes, with the windows in force at that point. A deadline the umpire
moved after the point is thereby undone; a turn that had ended is owed again.

The shipped default scenario with the campaign's own seeded dice (a rollback replays them) and
a fake clock: the Dawnians' turn 1 begins at T0, due 24 h later.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
import sqlalchemy as sa

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.tables import deadlines
from caedes_bot.rules.replay import RollBack
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import EndStep
from caedes_bot.scheduler import Scheduler, TickReport
from caedes_bot.service import Actor, RulesService
from tests.persistence.fixtures import db, db_template, db_url
from tests.test_service_scheduler import (
    PLAYER_ACH,
    PLAYER_DAW,
    T0,
    UMPIRE,
    FakeClock,
    _orders,
    clock,
    rules,
)

__all__ = ["clock", "db", "db_template", "db_url", "rules"]


@pytest.fixture
async def service(db: Database, rules: Ruleset, clock: FakeClock) -> AsyncIterator[RulesService]:
    yield RulesService(db, rules, clock=clock)  # the campaign's own seeded dice


async def _started(service: RulesService) -> int:
    info = await service.create_campaign(1, "Back", "default", UMPIRE, umpire_user_id=UMPIRE)
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.assign(info.id, PLAYER_ACH, "ACH")
    await service.start(info.id, Actor(UMPIRE))
    return info.id


async def _open(service: RulesService, cid: int) -> dict[str, tuple[object, bool]]:
    return {
        d.decision_key: (d.due_at, d.reminded) for d in await service.deadlines(cid) if not d.fired
    }


async def test_a_rollback_undoes_a_deadline_moved_after_its_point(
    service: RulesService, clock: FakeClock
) -> None:
    """At T0+1 h the Dawnians end step 1 (the point); at T0+2 h the umpire extends their turn
    by 12 h (due T0+36 h); at T0+3 h the umpire rolls back to the point: the turn is owed
    afresh, due T0+3 h + 24 h = T0+27 h (the 24 h window), its reminder unsent."""
    cid = await _started(service)
    clock.set(hours=1)
    await service.submit(cid, Actor(PLAYER_DAW), EndStep("DAW"))
    clock.set(hours=2)
    await service.change_deadlines(cid, Actor(UMPIRE), hours=12)
    assert await _open(service, cid) == {"turn:1:DAW": (T0 + timedelta(hours=36), False)}
    await service.submit(cid, Actor(PLAYER_DAW), EndStep("DAW"))  # step 3, to be voided
    (point,) = [p for p in await service.rollback_points(cid) if p.order_type == "EndStep"]

    clock.set(hours=3)
    result = await service.submit(cid, Actor(UMPIRE), RollBack("UMPIRE", to_seq=point.seq))

    assert result.state.step is Step.REDEEM
    assert await _open(service, cid) == {"turn:1:DAW": (T0 + timedelta(hours=27), False)}
    (deadline,) = [d for d in await service.deadlines(cid) if not d.fired]
    assert deadline.reminder_at == T0 + timedelta(hours=25)  # 2 h before, R-PBP-DEAD-02
    service.forget()  # the cache and the database agree
    assert await _open(service, cid) == {"turn:1:DAW": (T0 + timedelta(hours=27), False)}


async def test_a_rollback_into_an_earlier_turn_owes_that_turn_again(
    service: RulesService, clock: FakeClock
) -> None:
    """The Dawnians end every step of their turn 1 (the next faction's turn begins, due 24 h
    later); at T0+5 h the umpire rolls back to the Dawnians' last step: their turn deadline,
    closed when the turn ended, is owed again from T0+5 h (due T0+29 h) and the next
    faction's is closed; when the Dawnians end the turn again, it is owed afresh."""
    cid = await _started(service)
    daw = Actor(PLAYER_DAW)
    clock.set(hours=1)
    while (await service.get_state(cid)).active == "DAW":
        last = (await service.get_state(cid)).step
        await service.submit(cid, daw, EndStep("DAW"))
    nxt = (await service.get_state(cid)).active
    assert nxt is not None and nxt != "DAW"
    assert await _open(service, cid) == {f"turn:1:{nxt}": (T0 + timedelta(hours=25), False)}
    point = (await service.rollback_points(cid))[-1]  # the Dawnians' last step, before its end

    clock.set(hours=5)
    result = await service.submit(cid, Actor(UMPIRE), RollBack("UMPIRE", to_seq=point.seq))

    assert (result.state.active, result.state.step) == ("DAW", last)
    assert await _open(service, cid) == {"turn:1:DAW": (T0 + timedelta(hours=29), False)}
    clock.set(hours=6)
    await service.submit(cid, daw, EndStep("DAW"))  # the turn passes again
    assert await _open(service, cid) == {f"turn:1:{nxt}": (T0 + timedelta(hours=30), False)}
    service.forget()
    assert await service.replay(cid) == await service.get_state(cid)


async def test_a_reopened_deadline_with_its_old_claim_fires_once_more(
    service: RulesService, clock: FakeClock
) -> None:
    """R-PBP-DEAD-03, R-PBP-UMP-01 (decisions 0023, 0025), with deadline claims on as on
    PostgreSQL: at T0+1 h the Dawnians end step 1 (the point); their turn deadline passes at
    T0+24 h and the scheduler forfeits the turn, its claim left on the row. At T0+25 h the
    umpire rolls back to the point: the same row is reopened (its old claim still on it), due
    T0+49 h. When that time passes the deadline fires once: the turn is forfeited again, by one
    order under an interaction id of its own; a second tick does nothing."""
    service.delivery.leases = True
    cid = await _started(service)
    clock.set(hours=1)
    await service.submit(cid, Actor(PLAYER_DAW), EndStep("DAW"))
    scheduler = Scheduler(service, clock=clock)
    clock.set(hours=24, seconds=1)
    assert await scheduler.tick() == TickReport(fired=1, orders=1)
    assert (await service.get_state(cid)).active != "DAW"
    (point,) = [p for p in await service.rollback_points(cid) if p.order_type == "EndStep"]
    first = await service.db.read(
        lambda conn: conn.execute(
            sa.select(deadlines.c.id, deadlines.c.fired, deadlines.c.claimed_by).where(
                deadlines.c.decision_key == "turn:1:DAW"
            )
        ).one()
    )
    assert first.fired and first.claimed_by is not None  # closed, claimed by the firing

    clock.set(hours=25)
    await service.submit(cid, Actor(UMPIRE), RollBack("UMPIRE", to_seq=point.seq))
    assert await _open(service, cid) == {"turn:1:DAW": (T0 + timedelta(hours=49), False)}
    (reopened,) = [d for d in await service.deadlines(cid) if not d.fired]
    assert reopened.id == first.id
    claim = await service.db.read(
        lambda conn: conn.execute(
            sa.select(deadlines.c.claimed_by).where(deadlines.c.id == reopened.id)
        ).scalar_one()
    )
    assert claim is not None  # the claim of the first firing is still on the row

    clock.set(hours=49, seconds=1)
    assert await scheduler.tick() == TickReport(fired=1, orders=1)
    state = await service.get_state(cid)
    assert state.active != "DAW"
    forfeits = [o for o in await _orders(service, cid) if o.type == "ForfeitTurn"]
    assert len(forfeits) == 2 and len({o.interaction_id for o in forfeits}) == 2
    assert await scheduler.tick() == TickReport()
