"""``/undo`` for every step's own orders (:mod:`caedes_bot.rules.undo`, issue 16): a trade offer
(step 1), a redemption (step 2), a mark to disband (steps 1-4), step 4's answers (paying,
disbanding, the answer to a shortfall: taken back with the step they ended), a purchase
(step 5), a muster (step 8) and a summons in the own turn (any step) are taken back exactly,
under the same limits as moves: only while no die has been rolled since and no other faction
has given an order since (R-TRADE-02, R-COMM-02, R-UPK-01..03, R-BUY-01, R-MUSTER-01,
R-MAGIC-SUMM-01).

The skirmish's Dawnians play round 1; unit #2 is a Dawnian Infantry in
Brightholm, the Dawnians' home.
"""

from __future__ import annotations

import pytest

from caedes_bot.persistence.mappers import dump_state
from caedes_bot.rules import engine
from caedes_bot.rules.buy import BuyUnits, CancelPurchase
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.muster import MusterUnits
from caedes_bot.rules.redeem import RedeemIron
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.summons import SummonUnits
from caedes_bot.rules.trade import AcceptTrade, ProposeTrade, WithdrawTrade
from caedes_bot.rules.turn import EndStep
from caedes_bot.rules.umpire import SetRP
from caedes_bot.rules.undo import OrderTakenBack, UndoLastOrder, can_undo
from caedes_bot.rules.upkeep import DisbandUnits, PayUpkeep
from caedes_bot.rules.upkeep_marks import ToggleDisbandMark
from tests.rules.test_summons import _own_turn as own_turn
from tests.rules.test_summons import _rs as summons_world
from tests.rules.test_upkeep import NO_DICE, _to_upkeep
from tests.ui.skirmish import apply, at_step


def _same(a: GameState, b: GameState) -> bool:
    return dump_state(a) == dump_state(b)


def test_a_trade_offer_is_taken_back_and_its_number_freed() -> None:
    """R-TRADE-02: the Dawnians offer the Orcs 1 RP for nothing and take it back: no offer is
    open and the next offer gets the same number again. Withdrawing an offer can be taken back
    too, which opens it again."""
    start = at_step(Step.TRADE)
    offered, _ = apply(start, ProposeTrade("DAW", "ORC", give_rp=1))
    assert offered.trades and can_undo(offered, "DAW")
    back, events = apply(offered, UndoLastOrder("DAW"))
    assert _same(back, start)
    assert isinstance(events[0], OrderTakenBack) and events[0].label == "Offering a trade"
    withdrawn, _ = apply(offered, WithdrawTrade("DAW", offered.trades[0].id))
    assert not withdrawn.trades
    reopened, _ = apply(withdrawn, UndoLastOrder("DAW"))
    assert reopened.trades == offered.trades


def test_an_answer_of_the_other_party_ends_what_can_be_taken_back() -> None:
    """R-TRADE-02 and the limit of /undo: once the Orcs accept, the offer is theirs too and the
    Dawnians can take nothing back."""
    offered, _ = apply(at_step(Step.TRADE), ProposeTrade("DAW", "ORC", give_rp=1))
    accepted, _ = apply(offered, AcceptTrade("ORC", offered.trades[0].id))
    assert not can_undo(accepted, "DAW")
    with pytest.raises(RuleViolation):
        apply(accepted, UndoLastOrder("DAW"))


def test_a_redemption_is_taken_back() -> None:
    """R-COMM-02: the Dawnians redeem 1 of their 2 Iron in step 2, then take it back: the Iron
    and the RP are as before."""
    start = at_step(Step.TRADE)
    start.factions["DAW"].commodities = {"iron": 2}
    at_redeem, _ = apply(start, EndStep("DAW"))
    assert at_redeem.step is Step.REDEEM
    redeemed, _ = apply(at_redeem, RedeemIron("DAW", 1))
    assert redeemed.factions["DAW"].commodities != at_redeem.factions["DAW"].commodities
    back, _ = apply(redeemed, UndoLastOrder("DAW"))
    assert _same(back, at_redeem)


def test_a_mark_to_disband_is_taken_back() -> None:
    """R-UPK-02: a mark on unit #2 in step 1 is taken back."""
    start = at_step(Step.TRADE)
    marked, _ = apply(start, ToggleDisbandMark("DAW", 2))
    assert marked.factions["DAW"].disband_marks
    back, _ = apply(marked, UndoLastOrder("DAW"))
    assert _same(back, start)


def test_purchases_are_taken_back_one_by_one_in_reverse_order() -> None:
    """R-BUY-01: given 10 RP in step 5, the Dawnians buy two Infantry (3 RP each, 4 RP left),
    then cancel one (7 RP); the first undo takes back the cancel (4 RP, two bought), the second
    the purchase (10 RP, none bought)."""
    start = at_step(Step.BUY)
    start.factions["DAW"].rp = 10
    bought, _ = apply(start, BuyUnits("DAW", "U-DAW-01", 2))
    assert bought.factions["DAW"].rp == 4
    cancelled, _ = apply(bought, CancelPurchase("DAW", "U-DAW-01", 1))
    assert cancelled.factions["DAW"].rp == 7
    once, _ = apply(cancelled, UndoLastOrder("DAW"))
    assert once.factions["DAW"].rp == 4 and once.factions["DAW"].purchases == ["U-DAW-01"] * 2
    twice, _ = apply(once, UndoLastOrder("DAW"))
    assert _same(twice, start)


def test_a_muster_is_taken_back_with_its_counters() -> None:
    """R-MUSTER-01: an Infantry bought in step 5 and mustered in Brightholm in step 8 is taken
    back: the unit is gone, the purchase is waiting again, and the muster counter and id counter
    are as before, so mustering it again gives the very same unit."""
    start = at_step(Step.BUY)
    bought, _ = apply(start, BuyUnits("DAW", "U-DAW-01", 1))
    state = bought
    while state.step is not Step.MUSTER:
        state, _ = apply(state, EndStep("DAW"))
    mustered, _ = apply(state, MusterUnits("DAW", (("U-DAW-01", "brightholm"),)))
    assert mustered.mustered_seq == state.mustered_seq + 1
    back, _ = apply(mustered, UndoLastOrder("DAW"))
    assert _same(back, state)
    again, _ = apply(back, MusterUnits("DAW", (("U-DAW-01", "brightholm"),)))
    assert _same(again, mustered)


def test_an_umpire_override_ends_what_can_be_taken_back() -> None:
    """The limits hold for every step: an order of anyone else since (here the umpire setting
    the Orcs' RP) ends what the Dawnians may take back."""
    bought, _ = apply(at_step(Step.BUY), BuyUnits("DAW", "U-DAW-01", 1))
    overridden, _ = apply(bought, SetRP("UMPIRE", "ORC", 3))
    assert not can_undo(overridden, "DAW")


def test_an_undone_purchase_is_no_longer_counted_as_bought() -> None:
    """R-BUY-01 with the statistics of decision 0021: buying one Infantry counts one unit bought
    in the Dawnians' statistics; taking the purchase back counts it no more (0 bought), and the
    purchase can be taken back at all although it changed the statistics."""
    start = at_step(Step.BUY)
    start.factions["DAW"].rp = 10
    bought, _ = apply(start, BuyUnits("DAW", "U-DAW-01", 1))
    assert bought.stats["DAW"].bought == start.stats["DAW"].bought + 1
    assert can_undo(bought, "DAW")
    undone, _ = apply(bought, UndoLastOrder("DAW"))
    assert undone.stats["DAW"].bought == start.stats["DAW"].bought
    assert _same(undone, start)


# --------------------------------------------------------------------------- step 4, summons


def test_r_upk_01_paying_upkeep_is_taken_back_with_step_4() -> None:
    """R-UPK-01 with ``upkeep_waits``: in step 4 the Dawnians (21 RP, 7 units: ceil(7/6) = 2
    RP) pay: 19 RP and step 5. They buy an Infantry (3 RP, 16 left); the first undo takes back
    the purchase (19 RP), the second the payment: step 4 again with 21 RP, as before paying,
    and paying again gives the same."""
    start = at_step(Step.UPKEEP, upkeep_waits=True)
    assert (start.factions["DAW"].rp, len(start.units_of("DAW"))) == (21, 7)
    paid, _ = apply(start, PayUpkeep("DAW"))
    assert (paid.step, paid.factions["DAW"].rp) == (Step.BUY, 19)
    bought, _ = apply(paid, BuyUnits("DAW", "U-DAW-01", 1))
    assert bought.factions["DAW"].rp == 16
    once, events = apply(bought, UndoLastOrder("DAW"))
    assert _same(once, paid)
    assert isinstance(events[0], OrderTakenBack) and events[0].left == 1
    twice, events = apply(once, UndoLastOrder("DAW"))
    assert _same(twice, start)
    assert isinstance(events[0], OrderTakenBack) and events[0].label == "Paying upkeep"
    again, _ = apply(twice, PayUpkeep("DAW"))
    assert _same(again, paid)


def test_r_upk_02_a_voluntary_disbanding_in_step_4_is_taken_back() -> None:
    """R-UPK-02 with ``upkeep_waits``: the Dawnians disband unit #2 in step 4 (the step stays
    open); the undo puts it back."""
    start = at_step(Step.UPKEEP, upkeep_waits=True)
    gone, _ = apply(start, DisbandUnits("DAW", (2,)))
    assert "2" not in gone.units and gone.step is Step.UPKEEP
    back, _ = apply(gone, UndoLastOrder("DAW"))
    assert _same(back, start)  # the unit back in its place on the board, by id


def test_r_upk_03_the_answer_to_a_shortfall_is_taken_back_and_asked_again() -> None:
    """R-UPK-03: 13 Infantry and 1 RP: ceil(13/6) = 3 > 1, at least 7 must go. The Dawnians
    disband units 1 to 7: 6 left pay 1 RP (0 left) and the turn runs on to step 5. The undo
    returns to step 4 with the 13 units, 1 RP and the same decision owed; answering it again
    gives the same."""
    rs, start, _ = _to_upkeep([("DI", "a")] * 13, rp=1)
    (decision,) = start.pending
    answer = DisbandUnits("DAW", (1, 2, 3, 4, 5, 6, 7))
    answered = engine.apply(start, answer, rs, NO_DICE).state
    assert (answered.step, answered.pending, answered.factions["DAW"].rp) == (Step.BUY, [], 0)
    assert can_undo(answered, "DAW")
    back = engine.apply(answered, UndoLastOrder("DAW"), rs, NO_DICE).state
    assert _same(back, start) and back.pending == [decision]
    again = engine.apply(back, answer, rs, NO_DICE).state
    assert _same(again, answered)


def test_r_magic_summ_01_a_summons_in_the_own_turn_is_taken_back() -> None:
    """R-MAGIC-SUMM-01, R-BUY-05: the Wood Elves (20 RP) summon 2 Fire Elementals (3 RP each)
    where their Druid stands: 14 RP. The undo removes both and gives back 6 RP, and the id
    counter is as before, so summoning again makes the very same units. An order of anyone
    else since (the umpire setting an RP) ends what may be taken back."""
    rs = summons_world()
    start = own_turn(rs, Step.TRADE, [("WD", "f")])
    summoned = engine.apply(start, SummonUnits("WEL", "WF", 2), rs, NO_DICE).state
    assert summoned.factions["WEL"].rp == 14 and len(summoned.units) == 3
    back = engine.apply(summoned, UndoLastOrder("WEL"), rs, NO_DICE).state
    assert _same(back, start)
    again = engine.apply(back, SummonUnits("WEL", "WF", 2), rs, NO_DICE).state
    assert _same(again, summoned)
    overridden = engine.apply(again, SetRP("UMPIRE", "LIZ", 3), rs, NO_DICE).state
    assert not can_undo(overridden, "WEL")
    with pytest.raises(RuleViolation):
        engine.apply(overridden, UndoLastOrder("WEL"), rs, NO_DICE)
