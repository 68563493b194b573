"""``RulesService.submit(..., expect=...)``: an order carries what the member saw (the turn's
round, faction and step, or the decision answered), and the service checks it UNDER the
campaign's lock, after loading the state the order would be applied to. A double click, or
the same command twice at once, then has exactly one effect; the other is refused with
:class:`~caedes_bot.service.StaleOrder` and changes nothing (R-TURN-02).

The skirmish scenario: the Dawnians (no commodities) begin; ending step 1 skips the empty
Redeem step and runs Collect and Upkeep (which pays by itself), so the turn stops next at
step 5 Buy.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.db import Database
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import EndStep, UmpireAdvance
from caedes_bot.service import Actor, Expect, RulesService, StaleOrder, SubmitResult
from tests.persistence.fixtures import db, db_template, db_url
from tests.rules.decision_samples import decision, press

__all__ = ["db", "db_template", "db_url"]

UMPIRE = 900
ALICE = 101


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


@pytest.fixture
async def service(db: Database, rules: Ruleset) -> AsyncIterator[RulesService]:
    yield RulesService(db, rules)


async def started(service: RulesService) -> int:
    info = await service.create_campaign(
        1, "Skirmish", "skirmish", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, ALICE, "DAW")
    await service.start(info.id, Actor(UMPIRE))
    return info.id


async def test_r_turn_02_two_done_clicks_at_once_end_one_step(service: RulesService) -> None:
    """R-TURN-02: both clicks were for step 1 Trade; the first ends it (the turn runs on to
    step 5 Buy), the second finds step 5 under the lock and is refused."""
    campaign = await started(service)
    version = (await service.get_campaign(campaign)).version
    seen = Expect(round=1, faction="DAW", step=Step.TRADE, via="button")
    outcomes = await asyncio.gather(
        service.submit(campaign, Actor(ALICE), EndStep("DAW"), interaction_id="a", expect=seen),
        service.submit(campaign, Actor(ALICE), EndStep("DAW"), interaction_id="b", expect=seen),
        return_exceptions=True,
    )
    done = [o for o in outcomes if isinstance(o, SubmitResult)]
    refused = [o for o in outcomes if isinstance(o, StaleOrder)]
    assert len(done) == 1 and len(refused) == 1
    assert refused[0].message == (
        "That button was for step 1 Trade, which is over; the turn is now at step 5 Buy."
    )
    assert refused[0].rule == "R-TURN-02"
    state = await service.get_state(campaign)
    assert (state.active, state.step) == ("DAW", Step.BUY)
    assert (await service.get_campaign(campaign)).version == version + 1  # one order written


async def test_r_turn_02_a_command_for_a_turn_that_is_over_names_both_moments(
    service: RulesService,
) -> None:
    """R-TURN-02: a command read at the Dawnians' step 8 arrives once the Orcs play."""
    campaign = await started(service)
    alice = Actor(ALICE)
    while (await service.get_state(campaign)).step is not Step.BUY:
        await service.submit(campaign, alice, EndStep("DAW"))
    await service.submit(campaign, alice, BuyUnits("DAW", "U-DAW-01", 1))  # step 8 waits for it
    while (await service.get_state(campaign)).step is not Step.MUSTER:
        await service.submit(campaign, alice, EndStep("DAW"))
    seen = Expect.turn_of(await service.get_state(campaign), via="command")
    await service.submit(campaign, alice, EndStep("DAW"), expect=seen)
    with pytest.raises(StaleOrder) as refused:
        await service.submit(campaign, alice, EndStep("DAW"), expect=seen)
    assert refused.value.message == (
        "That command was for step 8 Muster (Dawnians, game round 1), which is over; "
        "now: step 1 Trade (Orcs, game round 1)."
    )


async def test_a_repeated_interaction_returns_its_first_result_not_a_refusal(
    service: RulesService,
) -> None:
    """The same interaction delivered twice has one effect: the second call returns the first
    result, even though its expectation no longer holds."""
    campaign = await started(service)
    seen = Expect(round=1, faction="DAW", step=Step.TRADE)
    first = await service.submit(
        campaign, Actor(ALICE), EndStep("DAW"), interaction_id="same", expect=seen
    )
    again = await service.submit(
        campaign, Actor(ALICE), EndStep("DAW"), interaction_id="same", expect=seen
    )
    assert again.duplicate and again.events == first.events
    assert first.before is not None and first.before.step is Step.TRADE


async def test_the_result_tells_the_step_the_order_really_ended(service: RulesService) -> None:
    """R-PBP-UMP-01: two advances given at once end step 1, then step 5; each result carries
    the state it was applied to, so each answer can say which step it moved on from."""
    campaign = await started(service)
    umpire = Actor(UMPIRE)
    results = await asyncio.gather(
        service.submit(campaign, umpire, UmpireAdvance("DAW"), interaction_id="u1"),
        service.submit(campaign, umpire, UmpireAdvance("DAW"), interaction_id="u2"),
    )
    steps = sorted(r.before.step for r in results if r.before is not None)
    assert steps == [Step.TRADE, Step.BUY]


def test_r_combat_08_an_answered_decision_is_refused(rules: Ruleset) -> None:
    """R-COMBAT-08: a Press on for decision 7 once decision 7 is answered; the rule cited is
    the decision's (the state need not be in a battle for this check)."""
    from tests.ui.skirmish import at_step

    state = at_step(Step.MOVE)
    state.pending.append(decision(7, "DAW", press([1])))
    pressed = Expect(decision_id=7, rule="R-COMBAT-08")
    assert pressed.refusal(state, rules) is None
    state.pending.clear()
    refused = pressed.refusal(state, rules)
    assert refused is not None and refused.rule == "R-COMBAT-08"
    assert refused.message == (
        "This choice has already been made; now: step 6 Move (Dawnians, game round 1)."
    )
