"""Steps are data (design.md section 3): every step module declares a ``StepSpec``, the engine
builds its dispatch table from the specs, and the turn takes its steps in the order of the game
data (R-TURN-02, R-TURN-03, R-PBP-UMP-01)."""

from __future__ import annotations

import dataclasses

import pytest

from caedes_bot.gamedata.model import STEP_IDS
from caedes_bot.rules import catalogue, engine
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply, build_routes
from caedes_bot.rules.orders import Order
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import Step
from caedes_bot.rules.steps import Accepts, StepDone, StepSpec
from caedes_bot.rules.trade import ProposeTrade, handle_propose
from caedes_bot.rules.turn import EndStep, StartCampaign, StepBegan, Turn, steps_in_order
from tests.rules.builders import kind, ruleset, with_scenario

NO_DICE = ScriptedDice([])


def test_every_step_of_the_game_data_has_one_spec() -> None:
    """R-TURN-02: the step ids of ``turn.toml`` are exactly the names of the step specs."""
    names = [spec.name for spec in catalogue.STEP_SPECS]
    assert sorted(names) == sorted(STEP_IDS)
    assert {spec.step for spec in catalogue.STEP_SPECS} == set(Step)


def test_every_order_class_of_the_rules_has_a_route() -> None:
    """Each order class defined in the rules is accepted by exactly one spec."""
    known = {
        cls for cls in Order.registry.values() if cls.__module__.startswith("caedes_bot.rules.")
    }
    assert known == set(engine.ROUTES)


def test_two_specs_may_not_accept_one_order() -> None:
    twice = StepSpec("trade", Step.TRADE, accepts=(Accepts(ProposeTrade, handle_propose),))
    with pytest.raises(ValueError, match="ProposeTrade"):
        build_routes([twice, dataclasses.replace(twice, name="redeem", step=Step.REDEEM)])


def test_the_turn_needs_one_spec_per_step() -> None:
    with pytest.raises(ValueError, match="two specs"):
        Turn([*catalogue.STEP_SPECS, catalogue.STEP_SPECS[0]])
    with pytest.raises(ValueError, match="no spec for step"):
        Turn(catalogue.STEP_SPECS[1:])
    with pytest.raises(ValueError, match="not a step"):
        Turn([*catalogue.STEP_SPECS, catalogue.ANYTIME_SPECS[0]])


def test_a_spec_of_a_step_is_named_by_its_id() -> None:
    with pytest.raises(ValueError, match="'buy'"):
        StepSpec("shopping", Step.BUY)


def test_a_step_done_carries_its_events_and_who_ended_the_step() -> None:
    done = StepDone()
    assert (done.events, done.by_umpire) == ([], False)


def test_steps_in_order_reads_the_ids_of_the_game_data() -> None:
    assert steps_in_order(("trade", "collect")) == (Step.TRADE, Step.COLLECT)
    with pytest.raises(ValueError, match="'haggle'"):
        steps_in_order(("trade", "haggle"))


def test_r_turn_02_the_turn_takes_its_steps_in_the_order_of_the_game_data() -> None:
    """R-TURN-02: the order of the steps is game data. With Collect moved before Trade, a
    turn begins with Collect, which runs by itself, and then rests in Trade; ending Trade goes
    on to Redeem (which passes: no commodity), Upkeep (which pays and passes) and Buy."""
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",)},
        borders=[("a", "b")],
        rp={"a": 3, "b": 2},
        kinds=[kind("DI", "DAW"), kind("OT", "ORC")],
    )
    rs = with_scenario(
        rs,
        factions={"DAW": (10, {}), "ORC": (5, {})},
        owners={"a": "DAW", "b": "ORC"},
        units=[("DI", "a", 1), ("OT", "b", 1)],
    )
    order = ("collect", "trade", "redeem", "upkeep", "buy", "move", "combat", "muster")
    rs = dataclasses.replace(rs, step_order=order)
    out = apply(new_game(rs, "test", "s"), StartCampaign("umpire"), rs, NO_DICE)
    began = [e.step for e in out.events if isinstance(e, StepBegan)]
    assert began == [Step.COLLECT, Step.TRADE]
    assert out.state.step is Step.TRADE
    assert out.state.factions["DAW"].rp == 13  # 10 + 3 collected from a
    out = apply(out.state, EndStep("DAW"), rs, NO_DICE)
    assert [e.step for e in out.events if isinstance(e, StepBegan)] == [
        Step.REDEEM,
        Step.UPKEEP,
        Step.BUY,
    ]
