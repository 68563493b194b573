"""Refusals in a player's words (caedes_bot/rules/engine.py, orders.py, economy.py): an order
given in the wrong step is named by what it does, never by its Python class, and says what is
allowed; a purchase nobody can afford says so plainly."""

from __future__ import annotations

import pytest

from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.combat.orders import PressOn
from caedes_bot.rules.errors import NotEnoughRP, WrongStep
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.redeem import RedeemIron
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import EndStep, UmpireAdvance
from tests.ui.skirmish import apply, at_step


def test_orders_have_labels_in_words() -> None:
    assert BuyUnits.label == "Buying units"
    assert MoveUnits.label == "Moving units"
    assert PressOn.label == "Pressing on"
    assert EndStep.label == "End step"  # derived from the class name
    assert UmpireAdvance.label == "Umpire advance"


def test_r_turn_02_an_order_before_its_step_names_the_step_and_how_to_get_there() -> None:
    """R-TURN-02: buying is step 5; in step 1 the steps before it must end first."""
    with pytest.raises(WrongStep) as refused:
        apply(at_step(Step.TRADE), BuyUnits("DAW", "U-DAW-01", 1))
    assert refused.value.rule == "R-TURN-02"
    assert refused.value.message == "Buying units is step 5 Buy; the turn is at step 1 Trade."
    assert refused.value.allowed == "end the steps before it (Done or /done) to reach step 5 Buy"
    assert "BuyUnits" not in refused.value.player_text()


def test_r_turn_02_an_order_after_its_step_says_steps_never_come_back() -> None:
    """R-TURN-02: steps are never revisited; in step 6 buying is over for this turn."""
    with pytest.raises(WrongStep) as refused:
        apply(at_step(Step.MOVE), BuyUnits("DAW", "U-DAW-01", 1))
    assert refused.value.message == "Buying units is step 5 Buy; the turn is at step 6 Move."
    assert (
        refused.value.allowed == "nothing this turn: step 5 Buy is over, and steps never come back"
    )


def test_r_turn_02_an_order_of_two_steps_names_both() -> None:
    """R-TURN-02, R-COMM-02: redeeming is step 2 (or 5, before buying, with an option)."""
    with pytest.raises(WrongStep) as refused:
        apply(at_step(Step.MOVE), RedeemIron("DAW", 1))
    assert refused.value.message == (
        "Redeeming Iron is step 2 Redeem or step 5 Buy; the turn is at step 6 Move."
    )
    assert refused.value.allowed == (
        "nothing this turn: step 2 Redeem and step 5 Buy are over, and steps never come back"
    )


def test_r_buy_02_nothing_affordable_is_said_plainly() -> None:
    """R-BUY-02: with 1 RP not one 3-RP Infantry can be bought; with 7 RP, two of them."""
    state = at_step(Step.BUY)
    state.factions["DAW"].rp = 1
    with pytest.raises(NotEnoughRP) as refused:
        apply(state, BuyUnits("DAW", "U-DAW-01", 2))
    assert refused.value.message == (
        "You cannot afford any Dawnian Infantry: one costs 3 RP and you have 1 RP."
    )
    assert refused.value.allowed == "a unit that costs at most 1 RP"
    state.factions["DAW"].rp = 7
    with pytest.raises(NotEnoughRP) as refused:
        apply(state, BuyUnits("DAW", "U-DAW-01", 3))
    assert refused.value.message == "3 × Dawnian Infantry cost 9 RP; you have 7 RP."
    assert refused.value.allowed == "at most 2 × Dawnian Infantry"
