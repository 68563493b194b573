"""Deadlines and reminders on a fake clock, with the real rules and the default scenario
(R-PBP-DEAD-01..04, R-PBP-UMP-05): a missed turn is played passively, a missed reaction takes
its default and nothing else is answered early, reminders ping only who still owes something,
deadlines are re-armed from the database after a restart, and a passed deadline is acted on
once even if the scheduler dies half-way.

The battle used below (the default scenario, round 1): the Dawnians' two Knights (ids 5 and
10, attack 5) move from Brightholm and Harrowgate into Sarnath Fields, held by the
Acherousian Phalanx Spearmen (95, 3 RP), Archers (96, 4 RP, Missile) and Cavalry (97, 5 RP),
all defending at 3 (plains: no terrain modifier).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from caedes_bot.domain.records import (
    ActingAs,
    DeadlineRecord,
    OutboxRecord,
    StoredOrder,
)
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.rules.combat.orders import FightBattle
from caedes_bot.rules.dice import DiceScriptError, Roll
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep, ForfeitTurn
from caedes_bot.scheduler import Scheduler, TickReport
from caedes_bot.service import Actor, RulesService, SubmitResult
from tests.persistence.fake_sender import SimulatedCrash
from tests.persistence.fixtures import db, db_template, db_url

__all__ = ["db", "db_template", "db_url"]

UMPIRE = 900
PLAYER_DAW = 101
PLAYER_ACH = 107
T0 = datetime(2030, 3, 1, 18, 0, tzinfo=UTC)
FIELDS = "sarnath-fields"


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)

    def set(self, **kwargs: float) -> None:
        self.now = T0 + timedelta(**kwargs)


@dataclass
class QueuedDice:
    """The campaign's dice in a test: every die rolled is one the test queued (in order)."""

    queue: list[int] = field(default_factory=list)
    history: list[Roll] = field(default_factory=list)
    rolled: int = 0

    @property
    def count(self) -> int:
        return self.rolled

    def roll(self, sides: int, count: int, *, reason: str) -> tuple[int, ...]:
        if count > len(self.queue):
            raise DiceScriptError(f"{count}d{sides} asked for ({reason}); {len(self.queue)} queued")
        values = tuple(self.queue[:count])
        del self.queue[:count]
        self.rolled += count
        self.history.append(Roll(reason, sides, values))
        return values

    def factory(self) -> Callable[[GameState], QueuedDice]:
        return lambda _state: self


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def dice() -> QueuedDice:
    return QueuedDice()


@pytest.fixture
async def service(
    db: Database, rules: Ruleset, clock: FakeClock, dice: QueuedDice
) -> AsyncIterator[RulesService]:
    yield RulesService(db, rules, clock=clock, dice_factory=dice.factory())


async def _started(service: RulesService) -> int:
    info = await service.create_campaign(
        1, "Clock", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.assign(info.id, PLAYER_ACH, "ACH")
    await service.start(info.id, Actor(UMPIRE))
    return info.id


async def _attack_sarnath_fields(service: RulesService, cid: int, dice: QueuedDice) -> int:
    """The Dawnians end steps 1-5, move both Knights into Sarnath Fields and fight there.
    Round 1: the Archers' missile die 9 misses (3); in melee the Knights roll 1 (hit, 5) and
    9, the Spearmen and Cavalry 9 and 9: one hit on the Acherousians, whose choice among
    three kinds is a reaction (R-COMBAT-06, R-PBP-DEAD-01). Returns that decision's id."""
    daw = Actor(PLAYER_DAW)
    while (await service.get_state(cid)).step is not Step.MOVE:
        await service.submit(cid, daw, EndStep("DAW"))
    await service.submit(cid, daw, MoveUnits("DAW", (5,), FIELDS))
    await service.submit(cid, daw, MoveUnits("DAW", (10,), FIELDS))
    await service.submit(cid, daw, EndStep("DAW"))
    dice.queue += [9, 1, 9, 9, 9]
    result = await service.submit(cid, daw, FightBattle("DAW", FIELDS))
    assert dice.queue == []
    (decision,) = result.state.pending
    assert (decision.faction, decision.kind, decision.reaction) == ("ACH", "casualties", True)
    return decision.id


async def _orders(service: RulesService, cid: int) -> list[StoredOrder]:
    return await service.db.read(lambda conn: repo.list_orders(conn, cid))


async def _reminders(service: RulesService, cid: int) -> list[OutboxRecord]:
    rows = await service.db.read(lambda conn: repo.outbox_rows(conn, cid))
    return [r for r in rows if "deadline" in r.payload]


def _by_key(deadlines: list[DeadlineRecord]) -> dict[str, DeadlineRecord]:
    return {d.decision_key: d for d in deadlines}


async def test_turn_deadline_reminder_then_passive_rest_of_turn(
    service: RulesService, clock: FakeClock
) -> None:
    """R-PBP-DEAD-01: the Dawnians' first turn is due 24 h after it began; R-PBP-DEAD-02: the
    reminder goes 2 h before (a quarter of 24 h, capped at 2 h), to their orders thread with a
    ping for their player only; R-PBP-DEAD-03: when it passes, one ForfeitTurn from the system
    plays the rest of the turn passively (nothing bought) and the Orcs' turn begins with its
    own 24 h deadline."""
    cid = await _started(service)
    (deadline,) = await service.deadlines(cid)
    assert (deadline.decision_key, deadline.due_at) == ("turn:1:DAW", T0 + timedelta(hours=24))
    scheduler = Scheduler(service, clock=clock)

    clock.advance(hours=21, minutes=59)
    assert await scheduler.tick() == TickReport(0, 0, 0)
    clock.advance(minutes=1)
    assert await scheduler.tick() == TickReport(reminded=1)
    assert await scheduler.tick() == TickReport()  # once only
    (reminder,) = await _reminders(service, cid)
    assert reminder.channel_key == "orders:DAW"
    assert reminder.payload["mention_user_ids"] == [PLAYER_DAW]
    assert f"<t:{int((T0 + timedelta(hours=24)).timestamp())}:R>" in reminder.payload["content"]

    clock.advance(hours=2)
    assert await scheduler.tick() == TickReport(fired=1, orders=1)
    state = await service.get_state(cid)
    assert (state.round, state.active, state.step, state.passive) == (1, "ORC", Step.TRADE, False)
    assert state.factions["DAW"].purchases == []  # bought nothing (passive)
    (orc,) = await service.deadlines(cid)
    assert (orc.decision_key, orc.due_at) == ("turn:1:ORC", clock.now + timedelta(hours=24))
    given = (await _orders(service, cid))[2:]  # after SetPlayers and StartCampaign
    assert [(o.type, o.acting_as, o.interaction_id) for o in given] == [
        (
            "ForfeitTurn",
            ActingAs.SYSTEM,
            f"deadline:{deadline.id}:{int(deadline.due_at.timestamp())}",
        )
    ]
    events = [e.payload["type"] for e in await service.events(cid)]
    assert "TurnForfeited" in events
    assert await scheduler.tick() == TickReport()  # nothing more to do


@pytest.mark.parametrize("restart", [False, True], ids=["same-process", "restarted"])
async def test_a_missed_turn_waits_for_each_reaction_with_its_own_deadline(
    service: RulesService,
    db: Database,
    rules: Ruleset,
    clock: FakeClock,
    dice: QueuedDice,
    restart: bool,
) -> None:
    """R-PBP-DEAD-01, R-PBP-DEAD-02, R-PBP-DEAD-03, R-PBP-DEAD-04, R-COMBAT-06. At 20 h the
    Dawnians attack and the Acherousians owe a casualty choice: its reaction deadline is 6 h
    later (26 h), its reminder 1.5 h before (a quarter of 6 h), at 24.5 h. The Dawnians' turn
    is due at 24 h, reminded at 22 h.

    22 h: only the Dawnians' player is pinged. 24 h: the turn deadline passes: ForfeitTurn, and
    the Acherousians' choice is NOT answered (their deadline has not passed). 24.5 h: only the
    Acherousians' player is pinged. 26 h: their deadline passes: UmpireAdvance naming that
    decision takes the default, the cheapest unit (Spearmen 95, 3 RP). The passive turn plays
    on: the Dawnians press on by default; round 2: the Archers' missile die 9 misses; Knights
    1 (hit) and 9, Cavalry 9: one hit, Archers (4 RP) or Cavalry (5 RP), a new reaction due at
    32 h (reminder 30.5 h). 32 h: its default takes the Archers (96); press on; round 3 (no
    missile unit left): Knights 1 and 9, Cavalry 9: the Cavalry (97) falls, Sarnath Fields is
    taken, steps 7 and 8 end and the Orcs begin.

    With ``restart`` the bot restarts between 24 h and 26 h: the deadlines come back from the
    database, and the Dawnians' turn deadline, already acted on, is not armed again."""
    cid = await _started(service)
    clock.set(hours=20)
    first = await _attack_sarnath_fields(service, cid, dice)
    deadlines = _by_key(await service.deadlines(cid))
    turn, reaction = deadlines["turn:1:DAW"], deadlines[f"decision:{first}"]
    assert (turn.due_at, turn.reminder_at) == (T0 + timedelta(hours=24), T0 + timedelta(hours=22))
    assert (reaction.faction, reaction.due_at, reaction.reminder_at) == (
        "ACH",
        T0 + timedelta(hours=26),
        T0 + timedelta(hours=24, minutes=30),
    )
    scheduler = Scheduler(service, clock=clock)
    assert await scheduler.tick() == TickReport()

    clock.set(hours=22)
    assert await scheduler.tick() == TickReport(reminded=1)
    (to_daw,) = await _reminders(service, cid)
    assert (to_daw.channel_key, to_daw.payload["mention_user_ids"]) == ("orders:DAW", [PLAYER_DAW])

    clock.set(hours=24)
    assert await scheduler.tick() == TickReport(fired=1, orders=1)
    state = await service.get_state(cid)
    assert (state.active, state.step, state.passive) == ("DAW", Step.COMBAT, True)
    assert [d.id for d in state.pending] == [first]  # not answered before its deadline
    assert {u.id for u in state.units_at(FIELDS) if u.owner == "ACH"} == {95, 96, 97}
    assert (await _orders(service, cid))[-1].type == "ForfeitTurn"

    if restart:
        service = RulesService(db, rules, clock=clock, dice_factory=dice.factory())
        scheduler = Scheduler(service, clock=clock)
    assert await service.next_deadline_time() == T0 + timedelta(hours=24, minutes=30)
    clock.set(hours=24, minutes=30)
    assert await scheduler.tick() == TickReport(reminded=1)
    to_daw_again, to_ach = await _reminders(service, cid)
    assert to_daw_again == to_daw
    assert (to_ach.channel_key, to_ach.payload["mention_user_ids"]) == ("orders:ACH", [PLAYER_ACH])

    clock.set(hours=26)
    dice.queue += [9, 1, 9, 9]
    assert await scheduler.tick() == TickReport(fired=1, orders=1)
    assert dice.queue == []
    state = await service.get_state(cid)
    assert (state.active, state.step, state.passive) == ("DAW", Step.COMBAT, True)
    assert {u.id for u in state.units_at(FIELDS) if u.owner == "ACH"} == {96, 97}
    (second,) = state.pending
    assert (second.faction, second.kind, second.reaction) == ("ACH", "casualties", True)
    last = (await _orders(service, cid))[-1]
    assert (last.type, last.acting_as, last.interaction_id) == (
        "UmpireAdvance",
        ActingAs.SYSTEM,
        f"deadline:{reaction.id}:{int(reaction.due_at.timestamp())}",
    )
    assert last.payload["decision_id"] == first
    assert sorted(d.decision_key for d in await service.deadlines(cid)) == [f"decision:{second.id}"]
    assert await service.next_deadline_time() == T0 + timedelta(hours=30, minutes=30)

    clock.set(hours=30, minutes=30)
    assert await scheduler.tick() == TickReport(reminded=1)
    assert (await _reminders(service, cid))[-1].channel_key == "orders:ACH"
    clock.set(hours=32)
    dice.queue += [1, 9, 9]
    assert await scheduler.tick() == TickReport(fired=1, orders=1)
    assert dice.queue == []
    state = await service.get_state(cid)
    assert (state.round, state.active, state.step, state.passive) == (1, "ORC", Step.TRADE, False)
    assert state.owners[FIELDS] == "DAW"
    assert [u.id for u in state.units_at(FIELDS)] == [5, 10]
    events = [e.payload for e in await service.events(cid)]
    defaulted = [(e["faction"], e["kind"]) for e in events if e["type"] == "DecisionDefaulted"]
    assert defaulted == [("ACH", "casualties"), ("DAW", "press_or_withdraw")] * 2
    system = [o for o in await _orders(service, cid) if o.acting_as is ActingAs.SYSTEM]
    assert [(o.type, o.payload.get("decision_id")) for o in system] == [
        ("SetPlayers", None),  # who plays what, given by the bot at the start
        ("ForfeitTurn", None),
        ("UmpireAdvance", first),
        ("UmpireAdvance", second.id),
    ]
    assert [d.decision_key for d in await service.deadlines(cid)] == ["turn:1:ORC"]
    assert await scheduler.tick() == TickReport()


async def test_a_turn_already_played_passively_gets_no_reminder(
    service: RulesService, clock: FakeClock, dice: QueuedDice
) -> None:
    """ux.md "Pings", R-PBP-DEAD-02: the umpire forfeits the Dawnians' turn at 20 h, while the
    Acherousians owe a casualty choice. The Dawnians owe nothing more, so their 22 h reminder
    is dropped; at 24 h their turn deadline needs no order. The Acherousians' reminder and
    deadline stay as they were (24.5 h, 26 h)."""
    cid = await _started(service)
    clock.set(hours=20)
    decision_id = await _attack_sarnath_fields(service, cid, dice)
    await service.submit(cid, Actor(UMPIRE), ForfeitTurn("DAW"))
    scheduler = Scheduler(service, clock=clock)

    clock.set(hours=22)
    assert await scheduler.tick() == TickReport()
    assert await _reminders(service, cid) == []
    assert await service.next_deadline_time() == T0 + timedelta(hours=24)  # the deadline itself
    clock.set(hours=24)
    assert await scheduler.tick() == TickReport(fired=1, orders=0)
    assert [d.id for d in (await service.get_state(cid)).pending] == [decision_id]
    assert [d.decision_key for d in await service.deadlines(cid)] == [f"decision:{decision_id}"]
    assert await service.next_deadline_time() == T0 + timedelta(hours=24, minutes=30)


async def test_deadlines_are_rearmed_from_the_database_after_a_restart(
    service: RulesService, db: Database, rules: Ruleset, clock: FakeClock
) -> None:
    """R-PBP-DEAD-03: the bot was down when the Dawnians' deadline passed; a new process finds
    it in the database (reminder time first) and plays their turn passively."""
    cid = await _started(service)
    clock.advance(hours=30)
    fresh = RulesService(db, rules, clock=clock)
    assert await fresh.next_deadline_time() == T0 + timedelta(hours=22)
    report = await Scheduler(fresh, clock=clock).tick()
    assert report == TickReport(fired=1, orders=1)  # too late for the reminder
    assert await _reminders(fresh, cid) == []
    assert (await fresh.get_state(cid)).active == "ORC"


async def test_a_paused_campaign_keeps_its_deadline_until_resumed(
    service: RulesService, clock: FakeClock
) -> None:
    """R-PBP-UMP-05 (as ruled): while the umpire has paused the campaign, nothing falls due;
    resumed 30 h later, the Dawnians' turn gets back the 24 h it had left (and its reminder
    the 2 h lead before it) instead of being forfeited at once."""
    cid = await _started(service)
    await service.pause(cid, Actor(UMPIRE))
    clock.advance(hours=30)
    scheduler = Scheduler(service, clock=clock)
    assert await scheduler.tick() == TickReport()
    assert await service.next_deadline_time() is None
    await service.resume(cid, Actor(UMPIRE))
    assert await scheduler.tick() == TickReport()
    (deadline,) = await service.deadlines(cid)
    assert deadline.due_at == clock.now + timedelta(hours=24)
    assert deadline.reminder_at == clock.now + timedelta(hours=22)
    clock.advance(hours=24)
    assert (await scheduler.tick()).fired == 1


async def test_a_deadline_acted_on_before_a_crash_acts_once(
    service: RulesService, db: Database, rules: Ruleset, clock: FakeClock, dice: QueuedDice
) -> None:
    """R-PBP-DEAD-03: the scheduler dies right after its ForfeitTurn commits, before the
    deadline is marked fired. Another process that loaded the campaign before the crash runs
    its scheduler: it sees the turn as still owed and repeats the order's interaction id,
    which has no second effect (the first result comes back). One ForfeitTurn in the log;
    the Acherousians' choice is still theirs to make."""
    cid = await _started(service)
    clock.set(hours=20)
    decision_id = await _attack_sarnath_fields(service, cid, dice)
    other = RulesService(db, rules, clock=clock, dice_factory=dice.factory())
    assert not (await other.get_state(cid)).passive  # its view from before the crash

    real_submit = service.submit

    async def dying_submit(*args: Any, **kwargs: Any) -> SubmitResult:
        await real_submit(*args, **kwargs)
        raise SimulatedCrash("scheduler killed after the commit")

    service.submit = dying_submit  # type: ignore[method-assign]
    clock.set(hours=24)
    with pytest.raises(SimulatedCrash):
        await Scheduler(service, clock=clock).tick()
    (turn,) = [d for d in await db.read(lambda c: repo.due_deadlines(c, now=clock.now))]
    assert turn.decision_key == "turn:1:DAW"  # acted on, not yet marked

    assert await Scheduler(other, clock=clock).tick() == TickReport(fired=1, orders=0)
    state = await other.get_state(cid)
    assert state.passive and [d.id for d in state.pending] == [decision_id]
    forfeits = [o for o in await _orders(other, cid) if o.type == "ForfeitTurn"]
    assert [o.interaction_id for o in forfeits] == [
        f"deadline:{turn.id}:{int(turn.due_at.timestamp())}"
    ]
    ids = [o.interaction_id for o in await _orders(other, cid) if o.interaction_id]
    assert len(ids) == len(set(ids))
    assert await Scheduler(RulesService(db, rules, clock=clock), clock=clock).tick() == (
        TickReport()
    )


async def test_run_sleeps_until_the_next_reminder_or_deadline(
    service: RulesService, clock: FakeClock
) -> None:
    """Reminder at 22 h, deadline at 24 h (R-PBP-DEAD-01, R-PBP-DEAD-02); then the Orcs'
    reminder 22 h after their turn began."""
    cid = await _started(service)
    sleeps: list[float] = []
    scheduler: Scheduler

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock.advance(seconds=seconds)
        if len(sleeps) >= 3:
            scheduler.stop()

    scheduler = Scheduler(service, clock=clock, sleep=fake_sleep, idle_poll=48 * 3600)
    await scheduler.run()
    assert sleeps == [22 * 3600, 2 * 3600, 22 * 3600]
    assert (await service.get_state(cid)).active == "ORC"


async def test_two_processes_schedulers_at_once_remind_and_act_once(
    db_url: str, rules: Ruleset, clock: FakeClock, dice: QueuedDice
) -> None:
    """R-PBP-DEAD-02/03 with two bot processes on one database (decision 0024): both
    schedulers see the same reminder and the same passed deadline at the same moment; the
    campaign lock in the database lets one act and the other find it done. One reminder, one
    ForfeitTurn, one deadline for the next turn."""
    first, second = Database(db_url), Database(db_url)
    try:
        one = RulesService(first, rules, clock=clock, dice_factory=dice.factory())
        two = RulesService(second, rules, clock=clock, dice_factory=dice.factory())
        cid = await _started(one)
        await two.get_state(cid)  # both have the campaign cached
        clock.set(hours=22)
        await asyncio.gather(Scheduler(one, clock=clock).tick(), Scheduler(two, clock=clock).tick())
        assert len(await _reminders(one, cid)) == 1
        clock.set(hours=24)
        await asyncio.gather(Scheduler(one, clock=clock).tick(), Scheduler(two, clock=clock).tick())
        forfeits = [o for o in await _orders(one, cid) if o.type == "ForfeitTurn"]
        assert len(forfeits) == 1
        for service in (one, two):
            if not service.db.shared:
                # a SQLite file serves one process (decision 0024): its cache is never checked
                # against the database, and the service that found the order done never read
                # the new state; read it afresh
                service.forget(cid)
            state = await service.get_state(cid)
            assert (state.active, state.step) == ("ORC", Step.TRADE)
            (orc,) = await service.deadlines(cid)
            assert orc.decision_key == "turn:1:ORC"
    finally:
        await first.dispose()
        await second.dispose()
