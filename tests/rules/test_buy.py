"""Buy, step 5 (R-BUY-01..05, R-ATTR-HERO-01), on the world of ``tests/rules/economy_world.py``."""

from dataclasses import replace

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.buy import (
    BuyUnits,
    CancelPurchase,
    PurchaseCancelled,
    RPForfeited,
    Unbuyable,
    UnitsBought,
    buy_options,
    buyable_kinds,
    why_unbuyable,
)
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import NotEnoughRP, RuleViolation, UnknownName
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep
from tests.rules.economy_world import NO_DICE
from tests.rules.economy_world import dawnians as _daw
from tests.rules.economy_world import world as _rs


def _buy_state(rp: int = 10, **options: object) -> tuple[Ruleset, GameState]:
    rs = _rs(**options)
    return rs, _daw(rs, [("DI", "a")], rp=rp, step=Step.BUY)


def test_r_buy_01_buying_pays_full_cost_at_once() -> None:
    """R-BUY-01: 2 Dawnian Infantry at 3 RP = 6 RP; 10 - 6 = 4; both wait for step 8.
    R-BUY-04: the only Dawnian infantry stands in a (plains, no Tower), which takes one
    Dawnian unit per step 8 (R-MUSTER-04), so the purchase warns that only 1 of the 2 can be
    placed."""
    rs, st = _buy_state()
    out = apply(st, BuyUnits("DAW", "DI", 2), rs, NO_DICE)
    fs = out.state.factions["DAW"]
    assert (fs.rp, fs.purchases, fs.purchase_prices) == (4, ["DI", "DI"], [3, 3])
    (event,) = out.events
    assert isinstance(event, UnitsBought) and event.warning is not None
    assert event.warning.startswith("Only 1 of your 2 Dawnian Infantry waiting can be placed")
    assert "R-MUSTER-04" in event.warning
    assert replace(event, warning=None) == UnitsBought(
        "DAW", "DI", "Dawnian Infantry", 2, 6, 10, 4, None
    )
    assert out.events[0].audience() == ("DAW",)


def test_r_buy_02_rp_never_negative() -> None:
    """R-BUY-02: 4 infantry cost 12 RP, 10 held: refused; 3 are allowed (9 RP)."""
    rs, st = _buy_state()
    with pytest.raises(NotEnoughRP) as err:
        apply(st, BuyUnits("DAW", "DI", 4), rs, NO_DICE)
    assert err.value.rule == "R-BUY-02"
    assert err.value.allowed == "at most 3 × Dawnian Infantry"


def test_r_buy_01_only_own_order_of_battle() -> None:
    """R-BUY-01: the Dawnians cannot buy an Orc Trooper."""
    rs, st = _buy_state()
    with pytest.raises(RuleViolation) as err:
        apply(st, BuyUnits("DAW", "OT", 1), rs, NO_DICE)
    assert err.value.rule == "R-BUY-01"
    assert err.value.allowed is not None and "DI" in err.value.allowed


def test_r_buy_03_heroes_cannot_be_bought() -> None:
    """R-BUY-03, R-ATTR-HERO-01: a Hero has no cost and is never bought."""
    rs, st = _buy_state()
    with pytest.raises(RuleViolation) as err:
        apply(st, BuyUnits("DAW", "DH", 1), rs, NO_DICE)
    assert err.value.rule == "R-BUY-03"


def test_r_magic_summ_01_summoned_units_are_summoned_not_bought_for_step_8() -> None:
    """R-MAGIC-SUMM-01, R-RACE-SUM-01: a Summoned unit is not bought to wait for step 8; the
    refusal says to summon it instead, and nothing is paid."""
    rs, st = _buy_state(rp=20)
    with pytest.raises(RuleViolation) as err:
        apply(st, BuyUnits("DAW", "DO", 1), rs, NO_DICE)
    assert err.value.rule == "R-MAGIC-SUMM-01"
    assert err.value.allowed is not None and "/summon" in err.value.allowed


def test_r_race_und_01_undead_are_bought_like_other_units() -> None:
    """R-RACE-UND-01, R-BUY-01: Undead are bought in step 5 like any unit: 20 - 3 = 17 RP.
    No Necromancer stands anywhere, so the purchase warns that it cannot be placed
    (R-BUY-04)."""
    rs, st = _buy_state(rp=20)
    out = apply(st, BuyUnits("DAW", "DU", 1), rs, NO_DICE)
    (event,) = out.events
    assert isinstance(event, UnitsBought) and event.total == 3
    assert out.state.factions["DAW"].purchases == ["DU"]
    assert event.warning is not None and "Necromancer" in event.warning


def test_unknown_kind_suggests_near_names() -> None:
    rs, st = _buy_state()
    with pytest.raises(UnknownName) as err:
        apply(st, BuyUnits("DAW", "Dawnian Infantri", 1), rs, NO_DICE)
    assert err.value.suggestions[0] == "Dawnian Infantry"


def test_buy_count_must_be_positive() -> None:
    rs, st = _buy_state()
    with pytest.raises(RuleViolation):
        apply(st, BuyUnits("DAW", "DI", 0), rs, NO_DICE)


def test_r_buy_04_unmusterable_purchase_is_allowed_with_a_warning() -> None:
    """R-BUY-04: a Tower needs a Dawnian infantry unit in the province; the only Dawnian unit
    is a knight (cavalry), so no province can take it: bought, with a warning."""
    rs = _rs()
    st = _daw(rs, [("DK", "a")], rp=20, step=Step.BUY)
    out = apply(st, BuyUnits("DAW", "DT", 1), rs, NO_DICE)
    (event,) = out.events
    assert isinstance(event, UnitsBought)
    assert event.warning is not None and "R-BUY-04" in event.warning
    assert out.state.factions["DAW"].rp == 2


def test_cancel_purchase_refunds_what_was_paid() -> None:
    """Cancelling 1 of 2 infantry gives back 3 RP: 4 + 3 = 7."""
    rs, st = _buy_state()
    st = apply(st, BuyUnits("DAW", "DI", 2), rs, NO_DICE).state
    out = apply(st, CancelPurchase("DAW", "DI", 1), rs, NO_DICE)
    assert out.events == (PurchaseCancelled("DAW", "DI", 1, 3, 4, 7),)
    assert out.state.factions["DAW"].purchases == ["DI"]
    assert out.state.factions["DAW"].purchase_prices == [3]
    with pytest.raises(RuleViolation):
        apply(out.state, CancelPurchase("DAW", "DI", 2), rs, NO_DICE)


def test_r_buy_02_rp_carry_over_by_default() -> None:
    """R-BUY-02: unspent RP stay after step 5."""
    rs, st = _buy_state()
    out = apply(st, EndStep("DAW"), rs, NO_DICE)
    assert out.state.factions["DAW"].rp == 10


def test_r_buy_02_option_rp_carryover_off_loses_unspent_rp() -> None:
    """R-BUY-02 option rp_carryover false: the 10 unspent RP are lost when step 5 ends."""
    rs, st = _buy_state(rp_carryover=False)
    out = apply(st, EndStep("DAW"), rs, NO_DICE)
    assert out.state.factions["DAW"].rp == 0
    assert RPForfeited("DAW", 10) in out.events


def test_r_buy_05_no_limit_on_units_of_one_kind() -> None:
    """R-BUY-05: 10 infantry at 3 RP each: 30 RP, all bought."""
    rs, st = _buy_state(rp=30)
    out = apply(st, BuyUnits("DAW", "DI", 10), rs, NO_DICE)
    assert out.state.factions["DAW"].purchases == ["DI"] * 10
    assert out.state.factions["DAW"].rp == 0


def test_r_buy_01_the_rules_list_what_may_be_bought_and_at_what_price() -> None:
    """R-BUY-01, R-BUY-03, R-ATTR-HERO-01: the kinds the Dawnians may buy in step 5 are their
    own, less the Hero and the Summoned (summoned instead), each with its price now and whether
    5 RP pay for it; every other kind has a reason with its rule. Ships and Undead are bought
    like any unit (R-ATTR-WATER-03, R-RACE-UND-01)."""
    rs, st = _buy_state(rp=5)
    assert [k.id for k in buyable_kinds(rs, "DAW")] == ["DI", "DK", "DT", "DS", "DU", "DN"]
    options = {o.kind.id: (o.price, o.affordable) for o in buy_options(st, rs, "DAW")}
    assert options["DI"] == (3, True)
    assert options["DK"] == (6, False)
    reasons = {k: why_unbuyable("DAW", rs.kind(k)) for k in ("DH", "OT", "DS", "DU", "DO", "DI")}
    assert reasons == {
        "DH": Unbuyable.HERO,
        "OT": Unbuyable.NOT_OWN,
        "DS": None,
        "DU": None,
        "DO": Unbuyable.SUMMONED,
        "DI": None,
    }
    assert [why.rule for why in Unbuyable] == [
        "R-BUY-03",
        "R-BUY-01",
        "R-RACE-SUM-01",
    ]
