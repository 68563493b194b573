"""Collect, upkeep and buy (R-COLL-04..07, R-UPK-01..05, R-BUY-01..04, R-ATTR-HERO-01,
R-ATTR-UNDEAD-02).

Map used below (RP and commodities chosen so sums are easy by hand):

    a plains RP 3, grain grain salt  -  b plains RP 2, iron  -  c hills RP 1, livestock
"""

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.economy import (
    BuyUnits,
    CancelPurchase,
    IncomeCollected,
    PurchaseCancelled,
    RPForfeited,
    UnitsBought,
    UnitsDisbanded,
    UpkeepPaid,
    begin_turn_holdings,
    collect,
    disband_order,
    end_of_turn,
    pay_upkeep,
    refresh_income_basis,
    upkeep_for,
)
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import NotBuiltYet, NotEnoughRP, RuleViolation, UnknownName
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.rules.turn import EndStep
from tests.rules.builders import kind, ruleset, state, with_options

NO_DICE = ScriptedDice([])

KINDS = [
    kind("DI", "DAW", name="Dawnian Infantry"),
    kind("DK", "DAW", "cavalry", cost=6, name="Knights"),
    kind("DT", "DAW", "tower", name="Dawnian Tower"),
    kind("DS", "DAW", "ship"),
    kind("DH", "DAW", "cavalry", hero=True, name="Sir Bor"),
    kind("DU", "DAW", attributes=["undead"], race="undead"),
    kind("DN", "DAW", attributes=["necromancer"], cost=18),
    kind("DO", "DAW", race="summoned", cost=1),
    kind("OT", "ORC"),
]


def _rs(**options: object) -> Ruleset:
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("hills",)},
        borders=[("a", "b"), ("b", "c")],
        coasts=[("a", "bay")],
        rp={"a": 3, "b": 2, "c": 1},
        commodities={"a": ("grain", "grain", "salt"), "b": ("iron",), "c": ("livestock",)},
        kinds=KINDS,
    )
    return with_options(rs, **options) if options else rs


def _daw(
    rs: Ruleset,
    units: list[tuple[str, str]],
    *,
    rp: int = 0,
    step: Step = Step.COLLECT,
    owners: dict[str, str] | None = None,
    orc: tuple[str, ...] = (),
) -> GameState:
    """Dawnian ``units`` as (kind, space), Orc Troopers at ``orc``; DAW owns a and b, ORC c."""
    return state(
        rs,
        units=[(k, "DAW", space) for k, space in units] + [("OT", "ORC", s) for s in orc],
        owners=owners if owners is not None else {"a": "DAW", "b": "DAW", "c": "ORC"},
        rp={"DAW": rp},
        step=step,
    )


# --------------------------------------------------------------------------- collect


def test_r_coll_04_first_turn_collects_every_owned_garrisoned_province() -> None:
    """R-COLL-04 (first turn), R-COLL-07: a is garrisoned and pays 3 RP plus grain, grain,
    salt (a repeated commodity counts twice); b has no Dawnian unit and pays nothing.
    5 + 3 = 8 RP."""
    rs = _rs()
    st = _daw(rs, [("DI", "a")], rp=5)
    (event,) = collect(st, rs, "DAW")
    assert isinstance(event, IncomeCollected)
    assert st.factions["DAW"].rp == 8
    assert st.factions["DAW"].commodities == {"grain": 2, "salt": 1}
    assert event.provinces == ("a",)
    assert event.withheld == (("b", "no unit of yours there"),)
    assert (event.rp_gained, event.rp_before, event.rp_after) == (3, 5, 8)
    assert event.commodities == (("grain", 2), ("salt", 1))
    assert event.private and event.audience() == ("DAW",)


def test_r_comm_01_six_commodities_stockpiled_without_limit() -> None:
    """R-COMM-01: the six commodities are Cloth, Grain, Iron, Livestock, Salt and Timber. A stock
    of 60 Grain and 9 Salt takes what a pays (grain, grain, salt) with no cap: 62 and 10."""
    from caedes_bot.gamedata.model import Commodity

    assert sorted(c.value for c in Commodity) == [
        "cloth",
        "grain",
        "iron",
        "livestock",
        "salt",
        "timber",
    ]
    rs = _rs()
    st = _daw(rs, [("DI", "a")])
    st.factions["DAW"].commodities = {"grain": 60, "salt": 9}
    collect(st, rs, "DAW")
    assert st.factions["DAW"].commodities == {"grain": 62, "salt": 10}


def test_r_coll_04_later_turns_pay_only_provinces_held_since_last_turn() -> None:
    """R-COLL-04: in a later turn a (in the income basis) pays; b, garrisoned only since the
    end of the last turn, does not: 0 + 3 RP."""
    rs = _rs()
    st = _daw(rs, [("DI", "a"), ("DI", "b")])
    st.factions["DAW"].turns_taken = 2
    st.factions["DAW"].income_basis = ["a"]
    (event,) = collect(st, rs, "DAW")
    assert st.factions["DAW"].rp == 3
    assert isinstance(event, IncomeCollected)
    assert event.withheld == (("b", "not held without a break since your last turn"),)


def test_r_coll_04_end_of_turn_records_owned_garrisoned_provinces() -> None:
    """R-COLL-04: the basis recorded at the end of a turn is every owned province holding a
    unit of the faction: a and b, not c (owned by the Orcs though a Dawnian stands there)."""
    rs = _rs()
    st = _daw(rs, [("DI", "a"), ("DI", "b"), ("DI", "c")])
    end_of_turn(st, rs, "DAW")
    assert st.factions["DAW"].income_basis == ["a", "b"]


def test_r_coll_04_a_break_in_the_garrison_loses_the_province_for_next_collection() -> None:
    """R-COLL-04: a unit leaving a (even if it comes back) breaks the hold; losing ownership of
    b breaks it too. After both, nothing is left of the basis."""
    rs = _rs()
    st = _daw(rs, [("DI", "a"), ("DI", "b")])
    st.factions["DAW"].income_basis = ["a", "b"]
    st.unit(1).location = "c"
    refresh_income_basis(st)
    assert st.factions["DAW"].income_basis == ["b"]
    st.unit(1).location = "a"
    refresh_income_basis(st)
    assert st.factions["DAW"].income_basis == ["b"]
    st.owners["b"] = "ORC"
    refresh_income_basis(st)
    assert st.factions["DAW"].income_basis == []


def test_r_coll_04_engine_refreshes_the_basis_after_every_order() -> None:
    """R-COLL-04 "without a break": a province with no garrison left is dropped from the basis
    by the engine after any order (here a purchase)."""
    rs = _rs()
    st = _daw(rs, [("DI", "a")], rp=9, step=Step.BUY)
    st.factions["DAW"].income_basis = ["a", "b"]
    new = apply(st, BuyUnits("DAW", "DI", 1), rs, NO_DICE).state
    assert new.factions["DAW"].income_basis == ["a"]


def test_r_coll_06_hostile_units_stop_a_province_paying() -> None:
    """R-COLL-06: an Orc unit in a (hostile to its owner) means a pays nothing; b pays 2 RP and
    an iron."""
    rs = _rs()
    st = _daw(rs, [("DI", "a"), ("DI", "b")], orc=("a",))
    (event,) = collect(st, rs, "DAW")
    assert st.factions["DAW"].rp == 2
    assert st.factions["DAW"].commodities == {"iron": 1}
    assert isinstance(event, IncomeCollected)
    assert ("a", "hostile units there") in event.withheld


def test_r_coll_06_pact_partner_units_do_not_stop_it() -> None:
    """R-COLL-06: an Orc unit in a does not stop a paying when the Orcs are pact partners:
    3 + 2 = 5 RP."""
    rs = _rs()
    st = _daw(rs, [("DI", "a"), ("DI", "b")], orc=("a",))
    st.alliances = [["DAW", "ORC"]]
    collect(st, rs, "DAW")
    assert st.factions["DAW"].rp == 5


def test_r_coll_04_option_income_requires_garrison_off() -> None:
    """R-COLL-04 with income_requires_garrison false: first turn pays a and b, garrison or
    not: 3 + 2 = 5 RP, and the basis keeps ungarrisoned provinces."""
    rs = _rs(income_requires_garrison=False)
    st = _daw(rs, [])
    collect(st, rs, "DAW")
    assert st.factions["DAW"].rp == 5
    end_of_turn(st, rs, "DAW")
    assert st.factions["DAW"].income_basis == ["a", "b"]


def test_r_coll_04_option_at_collection() -> None:
    """R-COLL-04 with income_hold_rule at_collection: b, garrisoned now but not in the basis,
    pays too: 3 + 2 = 5 RP."""
    rs = _rs(income_hold_rule="at_collection")
    st = _daw(rs, [("DI", "a"), ("DI", "b")])
    st.factions["DAW"].turns_taken = 3
    st.factions["DAW"].income_basis = ["a"]
    collect(st, rs, "DAW")
    assert st.factions["DAW"].rp == 5


def test_r_coll_04_option_full_round_pays_two_turns_after_capture() -> None:
    """R-COLL-04 with full_round: b, taken during a turn (not held at its start), is not in the
    basis carried out of that turn; a, held all turn, is."""
    rs = _rs(income_hold_rule="full_round")
    st = _daw(rs, [("DI", "a")], owners={"a": "DAW", "c": "ORC"})
    begin_turn_holdings(st, "DAW")
    st.owners["b"] = "DAW"
    st.units["9"] = Unit(id=9, kind="DI", owner="DAW", location="b")
    end_of_turn(st, rs, "DAW")
    assert st.factions["DAW"].income_basis == ["a"]


# --------------------------------------------------------------------------- upkeep


@pytest.mark.parametrize(("n", "bill"), [(0, 0), (1, 1), (6, 1), (7, 2), (12, 2), (13, 3)])
def test_r_upk_01_upkeep_is_ceil_n_over_6(n: int, bill: int) -> None:
    """R-UPK-01: ceil(N/6)."""
    assert upkeep_for(n) == bill


def test_r_upk_01_every_non_undead_unit_counts() -> None:
    """R-UPK-01, R-ATTR-UNDEAD-02, R-ATTR-HERO-01: 3 infantry + a Tower + a ship + a knight
    aboard + a Hero = 7 counted units (the 2 Undead do not count): ceil(7/6) = 2 RP; 10 - 2 = 8."""
    rs = _rs()
    units = [("DI", "a")] * 3 + [("DT", "a"), ("DS", "bay"), ("DK", "bay"), ("DH", "b")]
    st = _daw(rs, [*units, ("DU", "a"), ("DU", "b")], rp=10)
    st.unit(6).aboard = 5
    (event,) = pay_upkeep(st, rs, "DAW")
    assert event == UpkeepPaid("DAW", 1, 7, 2, 0, 2, 10, 8)
    assert st.factions["DAW"].rp == 8


def test_r_upk_01_option_upkeep_exempt_types() -> None:
    """R-UPK-01 option: with towers exempt, 6 infantry + 1 Tower count 6: ceil(6/6) = 1."""
    rs = _rs(upkeep_exempt_types=("tower",))
    st = _daw(rs, [("DI", "a")] * 6 + [("DT", "a")], rp=5)
    pay_upkeep(st, rs, "DAW")
    assert st.factions["DAW"].rp == 4


def test_r_upk_05_bought_units_are_not_counted() -> None:
    """R-UPK-05: 6 units on the board and 3 bought waiting for step 8: ceil(6/6) = 1."""
    rs = _rs()
    st = _daw(rs, [("DI", "a")] * 6, rp=5)
    st.factions["DAW"].purchases = ["DI", "DI", "DI"]
    st.factions["DAW"].purchase_prices = [3, 3, 3]
    pay_upkeep(st, rs, "DAW")
    assert st.factions["DAW"].rp == 4


def test_r_comm_07_salt_credit_reduces_the_bill_not_below_zero() -> None:
    """R-COMM-07 in step 4: 7 units, ceil(7/6) = 2; 5 Salt credit use 2 of it, the bill is 0,
    the rest is lost."""
    rs = _rs()
    st = _daw(rs, [("DI", "a")] * 7, rp=4)
    st.factions["DAW"].salt_credit = 5
    (event,) = pay_upkeep(st, rs, "DAW")
    assert event == UpkeepPaid("DAW", 1, 7, 2, 2, 0, 4, 4)
    assert st.factions["DAW"].salt_credit == 0


def test_r_upk_03_short_faction_disbands_fewest_cheapest_newest_first() -> None:
    """R-UPK-03: 8 units, ceil(8/6) = 2 RP owed, 1 RP held. Keeping the bill at 1 needs N <= 6,
    so 2 units go: the cheapest are the 5 infantry (3 RP), newest first: ids 8 and 7.
    Then 6 units pay 1 RP: 1 - 1 = 0."""
    rs = _rs()
    units = [("DI", "a")] * 3 + [("DK", "a")] * 2 + [("DH", "a")] + [("DI", "b")] * 2
    st = _daw(rs, units, rp=1)
    events = pay_upkeep(st, rs, "DAW")
    assert events[0] == UnitsDisbanded(
        "DAW",
        ((8, "DI", "b"), (7, "DI", "b")),
        "R-UPK-03",
        "upkeep could not be paid",
        ("Dawnian Infantry", "Dawnian Infantry"),
        by_default=True,
    )
    assert events[1] == UpkeepPaid("DAW", 1, 6, 1, 0, 1, 1, 0)
    assert sorted(int(k) for k in st.units) == [1, 2, 3, 4, 5, 6]


def test_r_upk_03_heroes_go_last_and_rp_never_go_negative() -> None:
    """R-UPK-03, R-BUY-02: with 0 RP every counted unit must go (ceil(1/6) = 1 > 0 for any
    N >= 1): the knight (6 RP) before the Hero (no cost, but last). RP stay 0."""
    rs = _rs()
    st = _daw(rs, [("DH", "a"), ("DK", "a")], rp=0)
    events = pay_upkeep(st, rs, "DAW")
    assert isinstance(events[0], UnitsDisbanded)
    assert [u[0] for u in events[0].units] == [2, 1]
    assert st.factions["DAW"].rp == 0
    assert isinstance(events[1], UpkeepPaid) and events[1].bill == 0


def test_r_upk_04_undead_are_never_disbanded() -> None:
    """R-UPK-04, R-ATTR-UNDEAD-02: 1 RP; 6 infantry + a Necromancer count 7 (ceil(7/6) = 2 > 1),
    the two Undead do not. One unit must go: the newest infantry (id 6), never an Undead.
    Then 6 counted units pay 1 RP."""
    rs = _rs()
    units = [("DI", "a")] * 6 + [("DN", "a"), ("DU", "a"), ("DU", "a")]
    st = _daw(rs, units, rp=1)
    events = pay_upkeep(st, rs, "DAW")
    assert isinstance(events[0], UnitsDisbanded)
    assert [u[0] for u in events[0].units] == [6]
    assert sorted(int(k) for k in st.units) == [1, 2, 3, 4, 5, 7, 8, 9]
    assert st.factions["DAW"].rp == 0


def test_r_upk_03_default_disbands_the_cargo_before_its_ship() -> None:
    """R-UPK-03: 0 RP, a ship (8) carrying a knight (6) plus an infantry (3): all three must go.
    Order: infantry, knight, ship; the knight goes before its ship, so the ship goes alone at the
    end.
    """
    rs = _rs()
    st = _daw(rs, [("DS", "bay"), ("DK", "bay"), ("DI", "a")], rp=0)
    st.unit(2).aboard = 1
    events = pay_upkeep(st, rs, "DAW")
    assert isinstance(events[0], UnitsDisbanded)
    assert [u[0] for u in events[0].units] == [3, 2, 1]


def test_disband_order_ties_go_newest_first() -> None:
    """R-UPK-03: the default disbands the cheapest first (infantry 3 before the knight 6), ties
    newest first.
    """
    rs = _rs()
    st = _daw(rs, [("DI", "a"), ("DI", "a"), ("DK", "a")])
    assert [u.id for u in disband_order(st.units_of("DAW"), rs)] == [2, 1, 3]


# --------------------------------------------------------------------------- buy


def _buy_state(rp: int = 10, **options: object) -> tuple[Ruleset, GameState]:
    rs = _rs(**options)
    return rs, _daw(rs, [("DI", "a")], rp=rp, step=Step.BUY)


def test_r_buy_01_buying_pays_full_cost_at_once() -> None:
    """R-BUY-01: 2 Dawnian Infantry at 3 RP = 6 RP; 10 - 6 = 4; both wait for step 8."""
    rs, st = _buy_state()
    out = apply(st, BuyUnits("DAW", "DI", 2), rs, NO_DICE)
    fs = out.state.factions["DAW"]
    assert (fs.rp, fs.purchases, fs.purchase_prices) == (4, ["DI", "DI"], [3, 3])
    assert out.events == (UnitsBought("DAW", "DI", "Dawnian Infantry", 2, 6, 10, 4, None),)
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


@pytest.mark.parametrize("kind_id", ["DS", "DU", "DO"])
def test_units_whose_rules_are_not_built_are_refused_clearly(kind_id: str) -> None:
    """Ships, Undead and Summoned units cannot be bought yet; the refusal says so."""
    rs, st = _buy_state(rp=20)
    with pytest.raises(NotBuiltYet) as err:
        apply(st, BuyUnits("DAW", kind_id, 1), rs, NO_DICE)
    assert "not run" in err.value.message


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


def test_r_upk_04_disbanding_the_last_necromancer_destroys_the_undead() -> None:
    """R-UPK-04, R-ATTR-UNDEAD-03: 0 RP; the Necromancer (the only counted unit) is disbanded,
    so the two Undead go with it."""
    rs = ruleset(
        provinces={"x": ("plains",)},
        kinds=[
            kind("NEC", "ACH", attributes=["necromancer", "meek"], cost=18),
            kind("UND", "ACH", attributes=["undead", "meek"], race="undead"),
        ],
    )
    st = state(rs, units=[("NEC", "ACH", "x"), ("UND", "ACH", "x"), ("UND", "ACH", "x")])
    events = pay_upkeep(st, rs, "ACH")
    assert events[0] == UnitsDisbanded(
        "ACH", ((1, "NEC", "x"),), "R-UPK-03", "upkeep could not be paid", ("NEC",), True
    )
    assert events[1] == UnitsDisbanded(
        "ACH",
        ((2, "UND", "x"), (3, "UND", "x")),
        "R-ATTR-UNDEAD-03",
        "no Necromancer left",
        ("UND", "UND"),
    )
    assert st.units == {}


def test_r_buy_05_no_limit_on_units_of_one_kind() -> None:
    """R-BUY-05: 10 infantry at 3 RP each: 30 RP, all bought."""
    rs, st = _buy_state(rp=30)
    out = apply(st, BuyUnits("DAW", "DI", 10), rs, NO_DICE)
    assert out.state.factions["DAW"].purchases == ["DI"] * 10
    assert out.state.factions["DAW"].rp == 0


def test_r_coll_05_collection_comes_in_step_3_after_trade_and_redeem() -> None:
    """R-COLL-05: from the start of a turn to step 5, income is collected after steps 1 and 2
    have ended and step 3 has begun, and before upkeep."""
    from caedes_bot.rules.turn import StepBegan, StepEnded

    rs = _rs()
    st = _daw(rs, [("DI", "a")], rp=0, step=Step.TRADE)
    events: list[object] = []
    while st.step is not Step.BUY:
        out = apply(st, EndStep("DAW"), rs, NO_DICE)
        st = out.state
        events += out.events
    at = events.index
    income = next(i for i, e in enumerate(events) if isinstance(e, IncomeCollected))
    assert at(StepEnded("DAW", 1, Step.REDEEM)) < at(StepBegan("DAW", 1, Step.COLLECT)) < income
    upkeep = next(i for i, e in enumerate(events) if isinstance(e, UpkeepPaid))
    assert income < upkeep


# --------------------------------------------------------------------------- collection over several turns


def _campaign(**options: object) -> tuple[Ruleset, GameState]:
    """Provinces a (RP 3), b (RP 20), c (RP 1), e (RP 10), d (RP 1); DAW owns a and b with two
    infantry in a (ids 1, 2), b has no Dawnian unit; ORC owns d with a Trooper (id 3)."""
    from caedes_bot.rules.setup import new_game
    from caedes_bot.rules.turn import StartCampaign
    from tests.rules.builders import with_scenario

    rs = ruleset(
        provinces={p: ("plains",) for p in "abcde"},
        borders=[("a", "b"), ("a", "c"), ("c", "d"), ("a", "e")],
        rp={"a": 3, "b": 20, "c": 1, "d": 1, "e": 10},
        kinds=KINDS,
    )
    rs = with_scenario(
        with_options(rs, **options) if options else rs,
        factions={"DAW": (0, {}), "ORC": (0, {})},
        owners={"a": "DAW", "b": "DAW", "d": "ORC"},
        units=[("DI", "a", 2), ("OT", "d", 1)],
    )
    return rs, apply(new_game(rs, "test", "s"), StartCampaign("umpire"), rs, NO_DICE).state


def _until(st: GameState, rs: Ruleset, faction: str, step: Step) -> tuple[GameState, list[object]]:
    events: list[object] = []
    while not (st.active == faction and st.step is step):
        assert st.active is not None
        out = apply(st, EndStep(st.active), rs, NO_DICE)
        st, events = out.state, [*events, *out.events]
    return st, events


def _income(events: list[object], faction: str = "DAW") -> IncomeCollected:
    (found,) = [e for e in events if isinstance(e, IncomeCollected) and e.faction == faction]
    return found


@pytest.mark.parametrize(
    ("options", "paid"),
    [
        ({}, [3, 4, 14]),
        ({"income_hold_rule": "full_round"}, [3, 3, 14]),
        ({"income_hold_rule": "at_collection"}, [3, 14, 14]),
        ({"income_requires_garrison": False}, [23, 24, 34]),
    ],
)
def test_r_coll_04_hold_rule_and_garrison_options_over_three_turns(
    options: dict[str, object], paid: list[int]
) -> None:
    """R-COLL-04, R-COLL-01, R-TURN-06, options income_hold_rule and income_requires_garrison.

    Dawnian turn 1 (first turn): a pays 3; b (no Dawnian unit) pays nothing and stays owned.
    In step 5 of turn 1 they take c (unit 2 moves in). During the Orcs' turn 1 the umpire gives
    them e with a unit in it. By hand, per Dawnian turn:

    * since_last_turn: T1 a = 3; T2 a + c = 4 (e not held at the end of T1); T3 + e = 14.
    * full_round: T1 3; T2 a only = 3 (c was not held at the start of T1); T3 a + c + e = 14
      (all three held since the start of T2).
    * at_collection: T1 3; T2 a + c + e = 14 (held now); T3 14.
    * no garrison needed: T1 a + b = 23; T2 + c = 24; T3 + e = 34.
    """
    rs, st = _campaign(**options)
    st, events = _until(st, rs, "DAW", Step.BUY)
    first = _income(events)
    assert first.rp_gained == paid[0]
    if not options:
        assert first.withheld == (("b", "no unit of yours there"),)
    st.owners["c"] = "DAW"
    st.unit(2).location = "c"
    st, _ = _until(st, rs, "ORC", Step.TRADE)
    st.owners["e"] = "DAW"
    st.units["60"] = Unit(id=60, kind="DI", owner="DAW", location="e")
    st, events = _until(st, rs, "DAW", Step.BUY)
    assert (st.round, _income(events).rp_gained) == (2, paid[1])
    st, _ = _until(st, rs, "ORC", Step.TRADE)
    st, events = _until(st, rs, "DAW", Step.BUY)
    assert (st.round, _income(events).rp_gained) == (3, paid[2])
    assert st.owners["b"] == "DAW"  # R-COLL-01: kept while empty


def test_r_coll_04_full_round_reason_names_the_start_of_the_last_turn() -> None:
    """R-COLL-04 full_round: in turn 2, c (taken during turn 1) is withheld with its reason."""
    rs, st = _campaign(income_hold_rule="full_round")
    st, _ = _until(st, rs, "DAW", Step.BUY)
    st.owners["c"] = "DAW"
    st.unit(2).location = "c"
    st, events = _until(st, rs, "DAW", Step.UPKEEP)
    assert ("c", "not held without a break since the start of your last turn") in _income(
        events
    ).withheld


def test_r_coll_06_contested_province_pays_nothing_and_stays_owned() -> None:
    """R-COLL-06, R-COLL-01: a stalemated Orc attack left a Trooper (id 61) in a beside the
    Dawnian garrison. In Dawnian turn 2, a (held since turn 1, garrisoned) pays nothing for
    hostile units there, so only c (taken in turn 1) pays: 1 RP; a stays Dawnian."""
    rs, st = _campaign()
    st, _ = _until(st, rs, "DAW", Step.BUY)
    st.owners["c"] = "DAW"
    st.unit(2).location = "c"
    st, _ = _until(st, rs, "ORC", Step.BUY)
    st.units["61"] = Unit(id=61, kind="OT", owner="ORC", location="a")
    st, events = _until(st, rs, "DAW", Step.BUY)
    income = _income(events)
    assert (income.rp_gained, income.provinces) == (1, ("c",))
    assert ("a", "hostile units there") in income.withheld
    assert income.paid == (("c", 1, ()),)
    assert st.owners["a"] == "DAW"


def test_r_coll_07_income_lists_what_each_province_paid() -> None:
    """R-COLL-07: a pays 3 RP with grain, grain, salt; b (garrisoned) 2 RP with iron."""
    rs = _rs()
    st = _daw(rs, [("DI", "a"), ("DI", "b")])
    (event,) = collect(st, rs, "DAW")
    assert isinstance(event, IncomeCollected)
    assert event.paid == (("a", 3, ("grain", "grain", "salt")), ("b", 2, ("iron",)))
