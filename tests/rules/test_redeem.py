"""Redeem, step 2: sets, Iron, Salt, earmarks and purchase discounts (R-COMM-01..11).

Every expected number below is worked out from the catalogue's figures: sets of 3/4/5/6
different commodities give 2/3/5/8 RP; Iron gives 1 RP; Salt takes 1 RP off this turn's upkeep;
Cloth -2 on a Ship (cost 8), Grain -1 on Infantry (3), Livestock -1 on Cavalry (5), Timber -3 on
a Tower (18); never below 1 RP; one discount per unit; none on Heroes.

Redeem, earmark and purchase orders with their outcomes are scenario files in
tests/scenarios/redeem/; what stays here checks the pure helpers and whole turns.
"""

from __future__ import annotations

import copy

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.redeem import (
    Earmark,
    EarmarksReturned,
    RedeemIron,
    RedeemSalt,
    RedeemSets,
    consume_earmark,
    discounted_cost,
    may_redeem_now,
    price_batch,
    refund_earmark,
    return_earmarks,
    set_value,
)
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep, StartCampaign, UmpireAdvance
from caedes_bot.rules.upkeep import UpkeepPaid, upkeep_after_salt
from tests.rules.builders import kind, ruleset, state, with_options, with_scenario


def _rs() -> Ruleset:
    return ruleset(
        provinces={"a": ("plains",)},
        kinds=[
            kind("INF", "DAW", "infantry"),
            kind("CAV", "DAW", "cavalry"),
            kind("SHIP", "DAW", "ship"),
            kind("TOWER", "DAW", "tower"),
        ],
    )


def _state(
    rs: Ruleset,
    commodities: dict[str, int],
    *,
    rp: int = 0,
    step: Step = Step.REDEEM,
    faction: str = "DAW",
) -> GameState:
    st = state(rs, step=step, rp={faction: rp})
    st.factions[faction].commodities = dict(commodities)
    return st


def _apply(st: GameState, order: Order, rs: Ruleset) -> Outcome:
    return apply(st, order, rs, ScriptedDice([]))


def _refused(st: GameState, order: Order, rs: Ruleset, rule: str) -> RuleViolation:
    before = copy.deepcopy(st)
    with pytest.raises(RuleViolation) as info:
        _apply(st, order, rs)
    assert info.value.rule == rule
    assert st == before
    return info.value


# --------------------------------------------------------------------------- sets


def test_r_comm_10_set_values_by_number_of_different_commodities() -> None:
    """R-COMM-10: two different give nothing; 3 = 2 RP, 4 = 3, 5 = 5, 6 = 8."""
    assert [set_value(n) for n in range(7)] == [0, 0, 0, 2, 3, 5, 8]
    with pytest.raises(ValueError):
        set_value(7)


def test_commodity_names_ignore_case_and_misspellings_get_suggestions() -> None:
    """Commodity names are matched in any case, and a misspelt one is refused with near matches
    (name matching, not a rule of play).
    """
    rs = _rs()
    st = _state(rs, {"grain": 1, "iron": 1, "salt": 1})
    out = _apply(st, RedeemSets("DAW", ((" Grain", "IRON", "salt"),)), rs)
    assert out.state.factions["DAW"].rp == 2
    with pytest.raises(UnknownName) as info:
        _apply(st, RedeemSets("DAW", (("grian", "iron", "salt"),)), rs)
    assert info.value.suggestions == ("Grain",)


# --------------------------------------------------------------------------- Iron and Salt


def test_r_comm_07_bill_after_salt_floors_at_zero_and_excess_is_lost() -> None:
    """R-COMM-07: Bill 3 with 1 Salt -> 2; bill 2 with 5 Salt -> 0 (3 lost); bill 0 stays 0."""
    assert upkeep_after_salt(3, 1) == 2
    assert upkeep_after_salt(2, 5) == 0
    assert upkeep_after_salt(0, 2) == 0
    assert upkeep_after_salt(4, 0) == 4


def test_r_comm_07_salt_greater_than_the_bill_may_still_be_redeemed() -> None:
    """R-COMM-07: Nothing forbids redeeming more Salt than the bill; the extra is lost at upkeep."""
    rs = _rs()
    st = _state(rs, {"salt": 4})
    out = _apply(st, RedeemSalt("DAW", 4), rs)
    assert out.state.factions["DAW"].salt_credit == 4
    assert upkeep_after_salt(1, out.state.factions["DAW"].salt_credit) == 0


# --------------------------------------------------------------------------- earmarks


def test_r_comm_02_unused_earmarks_return_to_stock_at_end_of_turn() -> None:
    """R-COMM-02, R-COMM-07: unused earmarks return to stock at the end of the turn; unused Salt
    credit is lost.
    """
    rs = _rs()
    st = _state(rs, {"grain": 2})
    fs = st.factions["DAW"]
    fs.earmarks = {"grain": 1, "timber": 1}
    fs.salt_credit = 2
    events = return_earmarks(st, "DAW")
    assert fs.commodities == {"grain": 3, "timber": 1}
    assert fs.earmarks == {}
    assert fs.salt_credit == 0
    assert events == [EarmarksReturned("DAW", {"grain": 1, "timber": 1})]
    assert return_earmarks(st, "DAW") == []


# --------------------------------------------------------------------------- when


def test_r_comm_02_fresh_commodities_option_allows_step_5_until_first_purchase() -> None:
    """R-COMM-02: with `redeem_fresh_commodities` the faction may also redeem in step 5, but only
    before buying.
    """
    rs = with_options(_rs(), redeem_fresh_commodities=True)
    st = _state(rs, {"iron": 2, "grain": 1}, step=Step.BUY, rp=1)
    assert may_redeem_now(st, "DAW")
    out = _apply(st, RedeemIron("DAW", 1), rs)
    assert out.state.factions["DAW"].rp == 2
    out = _apply(out.state, Earmark("DAW", "grain"), rs)
    assert out.state.factions["DAW"].earmarks == {"grain": 1}
    bought = out.state.clone()
    bought.factions["DAW"].purchases.append("INF")
    assert not may_redeem_now(bought, "DAW")
    err = _refused(bought, RedeemIron("DAW", 1), rs, "R-COMM-02")
    assert "bought" in err.message


# --------------------------------------------------------------------------- discounts


def test_r_comm_03_cloth_takes_2_off_a_ship() -> None:
    """R-COMM-03: Cloth takes 2 RP off a Ship: 8 -> 6."""
    assert discounted_cost(kind("SHIP", "DAW", "ship"), {"cloth": 1}) == (6, "cloth")


def test_r_comm_04_grain_takes_1_off_infantry() -> None:
    """R-COMM-04: Grain takes 1 RP off an Infantry-type unit: 3 -> 2."""
    assert discounted_cost(kind("INF", "DAW", "infantry"), {"grain": 1}) == (2, "grain")


def test_r_comm_06_livestock_takes_1_off_cavalry() -> None:
    """R-COMM-06: Livestock takes 1 RP off a Cavalry-type unit: 5 -> 4."""
    assert discounted_cost(kind("CAV", "DAW", "cavalry"), {"livestock": 2}) == (4, "livestock")


def test_r_comm_08_timber_takes_3_off_a_tower_summoned_towers_included() -> None:
    """R-COMM-08: Timber takes 3 RP off any Tower-type unit: a Tower 18 -> 15, an Earth Elemental 6
    -> 3.
    """
    assert discounted_cost(kind("TOWER", "DAW", "tower"), {"timber": 1}) == (15, "timber")
    earth = kind("EARTH", "WEL", "tower", ["meek", "fortitude"], cost=6, race="summoned")
    assert discounted_cost(earth, {"timber": 1}) == (3, "timber")


def test_only_the_matching_commodity_discounts_a_unit_type() -> None:
    """R-COMM-03, R-COMM-06, R-COMM-08: Cloth, Livestock and Timber do nothing for infantry; no
    earmark, or a zero count, means full price.
    """
    inf = kind("INF", "DAW", "infantry")
    assert discounted_cost(inf, {"cloth": 1, "timber": 1, "livestock": 1}) == (3, None)
    assert discounted_cost(inf, {}) == (3, None)
    assert discounted_cost(inf, {"grain": 0}) == (3, None)


def test_r_comm_09_grain_cannot_make_a_1_rp_unit_free() -> None:
    """R-COMM-09: The Summoned Outsider costs 1: Grain would make it 0, so it is not used."""
    outsider = kind("OUT", "ORC", "infantry", ["weak", "meek", "fortitude"], cost=1)
    assert discounted_cost(outsider, {"grain": 1}) == (1, None)


def test_r_comm_09_a_discount_is_clamped_at_1_rp() -> None:
    """R-COMM-09, R-COMM-08: A 2-RP tower with Timber (-3) would reach -1: it costs 1 RP and uses
    the Timber.
    """
    cheap_tower = kind("T2", "DAW", "tower", cost=2)
    assert discounted_cost(cheap_tower, {"timber": 1}) == (1, "timber")


def test_r_comm_09_heroes_cannot_be_discounted() -> None:
    """R-COMM-09, R-ATTR-HERO-01, R-BUY-03: a Hero has no cost and cannot be discounted; asking is
    refused under R-BUY-03.
    """
    hero = kind("H-DAW-01", "DAW", "cavalry", hero=True)
    with pytest.raises(RuleViolation) as info:
        discounted_cost(hero, {"livestock": 1})
    assert info.value.rule == "R-BUY-03"


def test_r_comm_09_one_discount_per_unit_three_infantry_with_two_grain() -> None:
    """R-COMM-09, R-COMM-04: Three Infantry with 2 Grain earmarked: 2 + 2 + 3 = 7 RP, both Grain
    used.
    """
    rs = _rs()
    st = _state(rs, {})
    fs = st.factions["DAW"]
    fs.earmarks = {"grain": 2}
    inf = rs.units["INF"]
    total = 0
    for _ in range(3):
        cost, used = discounted_cost(inf, fs.earmarks)
        if used is not None:
            consume_earmark(fs, used)
        total += cost
    assert total == 7
    assert fs.earmarks == {}
    with pytest.raises(ValueError):
        consume_earmark(fs, "grain")


def test_price_batch_and_refund_are_pure_helpers() -> None:
    """R-COMM-09, R-COMM-04: one Grain prices two Infantry at 2 and 3 RP without using the earmark;
    only the discounted price refunds a Grain.
    """
    inf = kind("INF", "DAW")
    earmarks = {"grain": 1}
    assert price_batch(inf, earmarks, 2) == ([2, 3], ["grain"])
    assert earmarks == {"grain": 1}
    fs = state(_rs()).factions["DAW"]
    assert refund_earmark(fs, inf, 3) is None
    assert refund_earmark(fs, inf, 2) == "grain"
    assert fs.earmarks == {"grain": 1}


# --------------------------------------------------------------------------- in the turn


def _campaign(daw_stock: dict[str, int]) -> tuple[Ruleset, GameState]:
    """DAW owns a (3 RP, yields Timber) with 2 Infantry, 10 RP; ORC owns c with 1 Infantry."""
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("plains",)},
        borders=[("a", "b"), ("b", "c")],
        rp={"a": 3, "b": 1, "c": 1},
        commodities={"a": ("timber",)},
        kinds=[kind("INF", "DAW"), kind("OI", "ORC")],
    )
    rs = with_scenario(
        rs,
        factions={"DAW": (10, daw_stock), "ORC": (0, {})},
        owners={"a": "DAW", "c": "ORC"},
        units=[("INF", "a", 2), ("OI", "c", 1)],
    )
    st = _apply(new_game(rs, "test", "seed"), StartCampaign("umpire"), rs).state
    return rs, st


def test_r_comm_02_step_2_waits_with_commodities_and_earmarks_come_back_at_turn_end() -> None:
    """R-COMM-02, R-COMM-04, R-COMM-05, R-COMM-07, R-UPK-01, R-UPK-02: By hand: step 2 - Iron +1 RP
    (11), Salt credit 1, 2 Grain earmarked. Step 3 collects a: 14 RP and 1 Timber. Step 4:
    ceil(2/6) = 1 less 1 Salt = 0. Step 5: one Infantry for 3 - 1 = 2 RP (12). At the end of the
    turn the unused Grain returns to stock.
    """
    rs, st = _campaign({"grain": 2, "salt": 1, "iron": 1})
    assert (st.active, st.step) == ("DAW", Step.TRADE)
    st = _apply(st, EndStep("DAW"), rs).state
    assert st.step == Step.REDEEM
    for order in (RedeemIron("DAW", 1), RedeemSalt("DAW", 1), Earmark("DAW", "grain", 2)):
        st = _apply(st, order, rs).state
    out = _apply(st, EndStep("DAW"), rs)  # steps 3 and 4 run by themselves (R-TURN-02)
    st = out.state
    (upkeep,) = [e for e in out.events if isinstance(e, UpkeepPaid)]
    assert (upkeep.upkeep, upkeep.salt_used, upkeep.bill) == (1, 1, 0)
    assert st.step == Step.BUY
    fs = st.factions["DAW"]
    assert (fs.rp, fs.commodities, fs.earmarks, fs.salt_credit) == (
        14,
        {"timber": 1},
        {"grain": 2},
        0,
    )
    st = _apply(st, BuyUnits("DAW", "INF", 1), rs).state
    assert st.factions["DAW"].rp == 12
    events: list[Event] = []
    while st.active == "DAW":
        out = _apply(st, EndStep("DAW"), rs)
        st, events = out.state, [*events, *out.events]
    assert EarmarksReturned("DAW", {"grain": 1}) in events
    fs = st.factions["DAW"]
    assert (fs.commodities, fs.earmarks) == ({"timber": 1, "grain": 1}, {})
    # the Orcs hold no commodity: their step 2 passes at once, and steps 3 and 4 run by themselves
    assert (st.active, st.step) == ("ORC", Step.TRADE)
    st = _apply(st, EndStep("ORC"), rs).state
    assert st.step == Step.BUY


def test_r_pbp_dead_03_umpire_passes_step_2() -> None:
    """R-PBP-DEAD-03: the umpire passes steps 1 and 2 for the faction (steps 3 and 4 run by
    themselves, R-TURN-02); nothing is redeemed, so its Iron stays and the Timber collected in
    step 3 is added.
    """
    rs, st = _campaign({"iron": 1})
    st = _apply(st, UmpireAdvance("DAW"), rs).state
    assert st.step == Step.REDEEM
    st = _apply(st, UmpireAdvance("DAW"), rs).state
    assert st.step == Step.BUY
    assert st.factions["DAW"].commodities == {"iron": 1, "timber": 1}
