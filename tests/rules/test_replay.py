"""Replay and the umpire's rollback in the rules core (R-PBP-UMP-01, R-GEN-01), on the shipped
default scenario.

Values by hand (as in ``test_scenario_round``): the Dawnians begin with 12 RP and wait in step 1
Trade after the start; in their first turn Collect brings 16 RP and Upkeep costs 3, so they
reach step 5 Buy with 25 RP, and 3 Dawnian Infantry at 3 RP each leave them 16 RP.
"""

from __future__ import annotations

import dataclasses

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.replay import (
    CampaignContinued,
    ContinueFrom,
    Replay,
    RollBack,
    RolledBack,
    roll_back,
)
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import EndStep, StartCampaign


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


def _to_buy(replay: Replay, seq: int) -> int:
    """End the Dawnians' steps until step 5 Buy; returns the next order number."""
    while replay.state.step is not Step.BUY:
        replay.give(seq, EndStep("DAW"))
        seq += 1
    return seq


def test_r_pbp_ump_01_a_rollback_returns_to_a_point_of_the_round(rules: Ruleset) -> None:
    replay = Replay(new_game(rules, "default", "seed"), rules, engine.apply)
    replay.give(1, StartCampaign("UMPIRE"))
    assert (replay.state.active, replay.state.step) == ("DAW", Step.TRADE)
    assert replay.state.factions["DAW"].rp == 12
    seq = _to_buy(replay, 2)
    assert replay.state.factions["DAW"].rp == 25
    replay.give(seq, BuyUnits("DAW", "U-DAW-01", 3))
    assert replay.state.factions["DAW"].rp == 16
    after_buy = replay.state
    assert replay.points[0] == 1 and replay.points[-1] == seq - 1

    done = replay.give(seq + 1, RollBack("UMPIRE", to_seq=1))
    state = done.state
    assert (state.active, state.step, state.round) == ("DAW", Step.TRADE, 1)
    assert state.factions["DAW"].rp == 12
    assert state.next_id == after_buy.next_id  # ids are never handed out twice
    assert state.dice_rolls == after_buy.dice_rolls
    assert done.events == (RolledBack(1, 1, "DAW", Step.TRADE, seq - 1),)
    assert done.rolls == ()
    # the orders after the point no longer count; the rollback itself is a point now
    assert replay.points == (1,)
    later = _to_buy(replay, seq + 2)
    assert replay.points == (1, seq + 1, *range(seq + 2, later - 1))


def test_r_pbp_ump_01_a_rollback_only_to_an_earlier_point_of_the_round(rules: Ruleset) -> None:
    replay = Replay(new_game(rules, "default", "seed"), rules, engine.apply)
    replay.give(1, StartCampaign("UMPIRE"))
    replay.give(2, EndStep("DAW"))
    with pytest.raises(RuleViolation, match="not an earlier point") as refused:
        replay.give(3, RollBack("UMPIRE", to_seq=2))  # the state now
    assert refused.value.rule == "R-PBP-UMP-01"
    with pytest.raises(RuleViolation, match="not an earlier point"):
        replay.give(3, RollBack("UMPIRE", to_seq=0))  # before the round
    replay.give(3, RollBack("UMPIRE", to_seq=1))
    with pytest.raises(RuleViolation, match="not an earlier point"):
        replay.give(4, RollBack("UMPIRE", to_seq=2))  # voided by the rollback


def test_r_gen_01_the_dice_counter_never_goes_back(rules: Ruleset) -> None:
    earlier = new_game(rules, "default", "seed")
    current = dataclasses.replace(earlier, dice_rolls=7, next_id=earlier.next_id + 5)
    state = roll_back(current, earlier, RollBack("UMPIRE", to_seq=1), 3).state
    assert (state.dice_rolls, state.next_id) == (7, earlier.next_id + 5)
    assert earlier.dice_rolls == 0  # never changed


def test_the_engine_alone_refuses_a_rollback(rules: Ruleset) -> None:
    state = new_game(rules, "default", "seed")
    with pytest.raises(RuleViolation, match="replay of the order log"):
        engine.apply(state, RollBack("UMPIRE", to_seq=1), rules, ScriptedDice([]))


def test_r_setup_01_continue_from_takes_the_state_but_keeps_its_own_seed(rules: Ruleset) -> None:
    old = Replay(new_game(rules, "default", "old seed"), rules, engine.apply)
    old.give(1, StartCampaign("UMPIRE"))
    exported = dataclasses.replace(old.state, dice_seed="", dice_rolls=40, players={"DAW": "7"})
    new = Replay(new_game(rules, "default", "new seed"), rules, engine.apply)
    done = new.give(1, ContinueFrom("UMPIRE", state=exported, source="Old"))
    state = done.state
    assert (state.round, state.active, state.step) == (1, "DAW", Step.TRADE)
    assert (state.dice_seed, state.dice_rolls, state.players) == ("new seed", 0, {})
    assert state.factions == old.state.factions and state.units == old.state.units
    assert done.events == (CampaignContinued("Old", 1, "DAW", Step.TRADE),)
    assert new.points == ()  # the continued state begins the round
    with pytest.raises(RuleViolation, match="has not started"):
        engine.apply(
            state, ContinueFrom("UMPIRE", state=exported, source="Old"), rules, ScriptedDice([])
        )
