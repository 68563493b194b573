"""The service with the real rules and the shipped skirmish scenario: marks to disband at upkeep
and step 4 running by itself (R-UPK-02 and R-TURN-02 as ruled, R-UPK-01, R-PBP-DEAD-03;
decision 0007), through ``RulesService.submit``, stored, read back and replayed.

The Dawnians hold 7 units (Infantry #7 alone in Corndale) and have 21 RP once step 3 has
collected: 7 units cost ceil(7/6) = 2 RP, 6 units ceil(6/6) = 1 RP.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.db import Database
from caedes_bot.rules.errors import NotYourTurn
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import EndStep, ForfeitTurn
from caedes_bot.rules.upkeep import DisbandUnits, PayUpkeep, UnitsDisbanded, UpkeepPaid
from caedes_bot.rules.upkeep_marks import DisbandMarksChanged, ToggleDisbandMark
from caedes_bot.service import Actor, RulesService
from tests.persistence.fixtures import db, db_template, db_url

__all__ = ["db", "db_template", "db_url"]

UMPIRE = 900
ALICE = 101
BOB = 102


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


def waiting(rules: Ruleset) -> Ruleset:
    """The same game data with the skirmish scenario's option ``upkeep_waits`` true."""
    scenario = rules.scenarios["skirmish"]
    options = dataclasses.replace(scenario.options, upkeep_waits=True)
    scenarios = {**rules.scenarios, "skirmish": dataclasses.replace(scenario, options=options)}
    return dataclasses.replace(rules, scenarios=scenarios)


async def started(service: RulesService) -> int:
    info = await service.create_campaign(
        1, "Skirmish", "skirmish", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, ALICE, "DAW")
    await service.assign(info.id, BOB, "ORC")
    await service.start(info.id, Actor(UMPIRE))
    return info.id


@pytest.fixture
async def service(db: Database, rules: Ruleset) -> AsyncIterator[RulesService]:
    yield RulesService(db, rules)


async def test_r_upk_02_a_mark_is_stored_carried_out_at_step_4_and_replayed(
    db: Database, rules: Ruleset, service: RulesService
) -> None:
    """R-UPK-02, R-TURN-02, R-TURN-03: Alice marks Infantry #7 in step 1; a fresh service reads
    the mark back from the database; Bob's mark is refused. Ending step 1 runs steps 3 and 4:
    #7 goes, 6 units pay 1 RP, 21 - 1 = 20 RP, and the turn rests in step 5; the order log
    replays to the same state."""
    campaign = await started(service)
    result = await service.submit(campaign, Actor(ALICE), ToggleDisbandMark("DAW", 7))
    assert [type(e) for e in result.events] == [DisbandMarksChanged]
    fresh = RulesService(db, rules)
    assert (await fresh.get_state(campaign)).factions["DAW"].disband_marks == [7]
    with pytest.raises(NotYourTurn):
        await service.submit(campaign, Actor(BOB), ToggleDisbandMark("ORC", 8))

    ended = await service.submit(campaign, Actor(ALICE), EndStep("DAW"))
    (gone,) = [e for e in ended.events if isinstance(e, UnitsDisbanded)]
    assert (gone.rule, [u[0] for u in gone.units]) == ("R-UPK-02", [7])
    (paid,) = [e for e in ended.events if isinstance(e, UpkeepPaid)]
    assert (paid.units_counted, paid.bill, paid.rp_after) == (6, 1, 20)
    state = await RulesService(db, rules).get_state(campaign)
    assert (state.step, state.factions["DAW"].disband_marks, "7" in state.units) == (
        Step.BUY,
        [],
        False,
    )
    assert await RulesService(db, rules).replay(campaign) == state


async def test_r_pbp_dead_03_marks_made_before_a_missed_deadline_stand(
    service: RulesService,
) -> None:
    """R-PBP-DEAD-03, R-UPK-02: Infantry #7 marked, then the turn deadline passes (the
    umpire's ForfeitTurn): the passive turn disbands #7 in step 4 and pays 1 RP for 6 units."""
    campaign = await started(service)
    await service.submit(campaign, Actor(ALICE), ToggleDisbandMark("DAW", 7))
    forfeited = await service.submit(campaign, Actor(UMPIRE), ForfeitTurn("DAW"))
    (gone,) = [e for e in forfeited.events if isinstance(e, UnitsDisbanded)]
    assert [u[0] for u in gone.units] == [7]
    (paid,) = [e for e in forfeited.events if isinstance(e, UpkeepPaid)]
    assert (paid.units_counted, paid.bill) == (6, 1)
    assert (await service.get_state(campaign)).active == "ORC"


async def test_r_upk_02_with_upkeep_waits_step_4_waits_for_disbanding_and_paying(
    db: Database, rules: Ruleset
) -> None:
    """R-UPK-02, R-TURN-02, option upkeep_waits true: ending step 1 stops in step 4 with the
    bill, 2 RP for 7 units, unpaid; disbanding #7 there leaves 6 (1 RP); Pay upkeep pays it,
    21 - 1 = 20 RP, and step 5 begins."""
    service = RulesService(db, waiting(rules))
    campaign = await started(service)
    ended = await service.submit(campaign, Actor(ALICE), EndStep("DAW"))
    assert not [e for e in ended.events if isinstance(e, UpkeepPaid)]
    assert (await service.get_state(campaign)).step is Step.UPKEEP
    await service.submit(campaign, Actor(ALICE), DisbandUnits("DAW", (7,)))
    paid = await service.submit(campaign, Actor(ALICE), PayUpkeep("DAW"))
    (bill,) = [e for e in paid.events if isinstance(e, UpkeepPaid)]
    assert (bill.units_counted, bill.bill, bill.rp_after) == (6, 1, 20)
    assert (await service.get_state(campaign)).step is Step.BUY
