"""Collect, step 3 (R-COLL-04..07, R-COMM-01, R-TURN-06), on the world of
``tests/rules/economy_world.py`` and, over several turns, a world of its own.
"""

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.buy import (
    BuyUnits,
)
from caedes_bot.rules.collect import (
    IncomeCollected,
    begin_turn_holdings,
    collect,
    end_of_turn,
    refresh_income_basis,
)
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.movement import Divine
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.rules.turn import EndStep
from caedes_bot.rules.upkeep import (
    UpkeepPaid,
)
from tests.rules.builders import kind, ruleset, state, with_options
from tests.rules.economy_world import KINDS, NO_DICE
from tests.rules.economy_world import dawnians as _daw
from tests.rules.economy_world import world as _rs


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
    st, _ = _until(st, rs, "ORC", Step.TRADE)
    st, events = _until(st, rs, "DAW", Step.BUY)  # step 4 no longer rests (R-TURN-02)
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


# --------------------------------------------------------------------------- R-COLL-07 and the Diviner


def _diviner_board(**options: object) -> Ruleset:
    """a (grain, salt; Dawnian) - b (iron; unowned); a Diviner (1) and an infantry (2) in a."""
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",)},
        borders=[("a", "b")],
        kinds=[kind("SEER", "DAW", attributes=["diviner"]), kind("INF", "DAW")],
        commodities={"a": ("grain", "salt"), "b": ("iron",)},
    )
    return with_options(rs, **options) if options else rs


def _divined(rs: Ruleset, commodity: str, dice: list[int]) -> GameState:
    st = state(rs, units=[("SEER", "DAW", "a"), ("INF", "DAW", "a")], owners={"a": "DAW"})
    return apply(st, Divine("DAW", 1, commodity), rs, ScriptedDice(dice)).state


def test_r_coll_07_a_pending_diviner_bonus_is_paid_in_step_3() -> None:
    """R-COLL-07, R-MAGIC-DIV-01 (default options: produced, next_collect): dice 7 and 3 give
    |7 - 3| = 4 grain, paid at the next collection with a's own grain and salt: 5 grain, 1 salt,
    and a's 1 RP."""
    rs = _diviner_board()
    st = _divined(rs, "grain", [7, 3])
    rp = st.factions["DAW"].rp
    (event,) = collect(st, rs, "DAW")
    assert isinstance(event, IncomeCollected)
    assert st.factions["DAW"].commodities == {"grain": 5, "salt": 1}
    assert st.factions["DAW"].rp == rp + 1
    assert event.divined == (("a", "grain", 4),)
    assert event.commodities == (("grain", 5), ("salt", 1))
    assert st.factions["DAW"].diviner_bonuses == []


def test_r_coll_07_diviner_commodity_any_pays_a_commodity_the_province_lacks() -> None:
    """R-COLL-07, option diviner_commodity = any: iron, which a does not produce, divined with
    dice 8 and 2 (6 iron), is paid in step 3 beside a's grain and salt."""
    rs = _diviner_board(diviner_commodity="any")
    st = _divined(rs, "iron", [8, 2])
    (event,) = collect(st, rs, "DAW")
    assert isinstance(event, IncomeCollected)
    assert st.factions["DAW"].commodities == {"grain": 1, "iron": 6, "salt": 1}
    assert event.divined == (("a", "iron", 6),)


def test_r_coll_07_diviner_timing_immediate_leaves_nothing_for_step_3() -> None:
    """R-COLL-07, option diviner_timing = immediate: dice 10 and 1 give 9 salt at once; step 3
    then pays only a's own grain and salt (salt 9 + 1 = 10), no bonus."""
    rs = _diviner_board(diviner_timing="immediate")
    st = _divined(rs, "salt", [10, 1])
    assert st.factions["DAW"].commodities == {"salt": 9}
    (event,) = collect(st, rs, "DAW")
    assert isinstance(event, IncomeCollected)
    assert st.factions["DAW"].commodities == {"grain": 1, "salt": 10}
    assert event.divined == ()
