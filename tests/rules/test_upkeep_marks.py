"""Marks to disband at upkeep, and step 4 running by itself (R-UPK-02 and R-TURN-02 as ruled,
R-UPK-01, R-UPK-03, R-UPK-04, R-COMM-07, R-PBP-DEAD-03; ``docs/decisions/0007``).

In steps 1 to 4 of its turn the active faction marks units (``ToggleDisbandMark``,
``SetDisbandMarks``) and may take marks back; when step 4 begins the marked units are disbanded,
then the bill is computed on what is left and paid, and the turn moves on to step 5 unless RP
fall short (R-UPK-03) or the option ``upkeep_waits`` is true.

The bill: ceil(N/6) RP less Salt, payable exactly when N <= 6(RP + Salt). Every expected value
below is worked out from that by hand.

World (as in ``test_upkeep.py``): provinces a and b, sea zone "bay"; nobody owns anything, so
step 3 collects nothing and RP stay what each test sets. Dawnian units get ids from 1.
"""

from __future__ import annotations

from typing import TypeVar

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import NotYourTurn, RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import DecisionKind, GameState, Step, UpkeepDisbandDetail
from caedes_bot.rules.turn import EndStep, ForfeitTurn, StepEnded, TurnForfeited
from caedes_bot.rules.upkeep import (
    MARKED_REASON,
    DisbandUnits,
    UnitsDisbanded,
    UpkeepDue,
    UpkeepPaid,
)
from caedes_bot.rules.upkeep_marks import (
    DisbandMarksChanged,
    SetDisbandMarks,
    ToggleDisbandMark,
)
from tests.rules.builders import state
from tests.rules.test_upkeep import _rs

NO_DICE = ScriptedDice([])
E = TypeVar("E", bound=Event)


def _world(
    units: list[tuple[str, str]],
    *,
    rp: int,
    salt: int = 0,
    step: Step = Step.TRADE,
    **options: object,
) -> tuple[Ruleset, GameState]:
    """Dawnian ``units`` as (kind, space), ids from 1; the Dawnian turn rests at ``step``."""
    rs = _rs(**options)
    st = state(rs, units=[(k, "DAW", s) for k, s in units], rp={"DAW": rp}, step=step)
    st.factions["DAW"].salt_credit = salt
    return rs, st


def _give(st: GameState, order: Order, rs: Ruleset) -> Outcome:
    return apply(st, order, rs, NO_DICE)


def _of(events: tuple[Event, ...] | list[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


def _to_buy(st: GameState, rs: Ruleset) -> tuple[GameState, list[Event]]:
    """End steps 1 and 2 (step 3 and, unless it waits, step 4 follow by themselves)."""
    events: list[Event] = []
    while st.step in (Step.TRADE, Step.REDEEM):
        out = _give(st, EndStep("DAW"), rs)
        st, events = out.state, [*events, *out.events]
    return st, events


def _ids(st: GameState) -> list[int]:
    return sorted(int(k) for k in st.units)


# --------------------------------------------------------------------------- marking


@pytest.mark.parametrize("step", [Step.TRADE, Step.REDEEM])
def test_r_upk_02_marks_are_made_and_taken_back_in_steps_1_to_4(step: Step) -> None:
    """R-UPK-02 as ruled: in step 1 or 2 the Dawnians mark Knights 2, then infantry 1, then take
    the mark of 2 back; each order says what changed and every mark now held. Nothing leaves
    the board yet and the step does not change."""
    rs, st = _world([("DI", "a"), ("DK", "b"), ("DI", "a")], rp=5, step=step)
    out = _give(st, ToggleDisbandMark("DAW", 2), rs)
    assert out.events == (DisbandMarksChanged("DAW", ((2, "DK", "b"),), (), (2,)),)
    out = _give(out.state, ToggleDisbandMark("DAW", 1), rs)
    assert out.events == (DisbandMarksChanged("DAW", ((1, "DI", "a"),), (), (1, 2)),)
    out = _give(out.state, ToggleDisbandMark("DAW", 2), rs)
    assert out.events == (DisbandMarksChanged("DAW", (), ((2, "DK", "b"),), (1,)),)
    assert out.state.factions["DAW"].disband_marks == [1]
    assert (_ids(out.state), out.state.step) == ([1, 2, 3], step)


def test_r_upk_02_set_marks_replaces_them_and_an_empty_set_takes_all_back() -> None:
    """R-UPK-02: marks {1, 2}; setting (3, 2) marks 3 and takes 1 back, leaving {2, 3}; setting
    () takes both back."""
    rs, st = _world([("DI", "a")] * 3, rp=5)
    st = _give(st, SetDisbandMarks("DAW", (1, 2)), rs).state
    out = _give(st, SetDisbandMarks("DAW", (3, 2)), rs)
    assert out.events == (DisbandMarksChanged("DAW", ((3, "DI", "a"),), ((1, "DI", "a"),), (2, 3)),)
    out = _give(out.state, SetDisbandMarks("DAW", ()), rs)
    assert out.events == (DisbandMarksChanged("DAW", (), ((2, "DI", "a"), (3, "DI", "a")), ()),)
    assert out.state.factions["DAW"].disband_marks == []


@pytest.mark.parametrize("step", [Step.BUY, Step.MOVE, Step.COMBAT, Step.MUSTER])
def test_r_upk_02_marking_is_refused_in_steps_5_to_8_saying_when_it_is_possible(
    step: Step,
) -> None:
    """R-UPK-02: after step 4 upkeep is over for the turn: marking is refused with the rule,
    saying that units are marked in steps 1 to 4 of the next turn; nothing changes."""
    rs, st = _world([("DI", "a")] * 2, rp=5, step=step)
    before = st.clone()
    for order in (ToggleDisbandMark("DAW", 1), SetDisbandMarks("DAW", (1,))):
        with pytest.raises(RuleViolation) as err:
            _give(st, order, rs)
        assert err.value.rule == "R-UPK-02"
        assert "steps 1 to 4" in err.value.message
        assert err.value.allowed is not None and "next turn" in err.value.allowed
    assert st == before


def test_r_upk_02_only_own_units_and_only_the_active_faction() -> None:
    """R-UPK-02, R-TURN-03: an Orc unit or a unit not on the board cannot be marked; the Orcs
    cannot mark anything during the Dawnian turn."""
    rs = _rs()
    st = state(rs, units=[("DI", "DAW", "a"), ("DI", "ORC", "b")], step=Step.TRADE)
    for bad in (2, 42):
        with pytest.raises(RuleViolation) as err:
            _give(st, ToggleDisbandMark("DAW", bad), rs)
        assert err.value.rule == "R-UPK-02"
    with pytest.raises(NotYourTurn):
        _give(st, ToggleDisbandMark("ORC", 2), rs)


def test_r_upk_02_disbanding_at_once_before_step_4_points_to_marking() -> None:
    """R-UPK-02: in step 1 units are not disbanded at once; the refusal says to mark them."""
    rs, st = _world([("DI", "a")], rp=5)
    with pytest.raises(RuleViolation) as err:
        _give(st, DisbandUnits("DAW", (1,)), rs)
    assert err.value.rule == "R-UPK-02"
    assert err.value.allowed is not None and "mark" in err.value.allowed


# --------------------------------------------------------------------------- step 4 by itself


def test_r_upk_02_marked_units_go_first_then_the_bill_is_computed_on_what_remains() -> None:
    """R-UPK-02, R-UPK-01, R-TURN-02: 8 infantry and 1 RP would be short (ceil(8/6) = 2 > 1).
    Infantry 7 and 8 are marked in step 1; ending step 2 runs step 3 and step 4: the two marked
    units go, 6 are left, ceil(6/6) = 1 <= 1 RP, paid: 0 RP, and the turn rests in step 5
    with no click in step 4 and no mark left."""
    rs, st = _world([("DI", "a")] * 8, rp=1)
    st = _give(st, SetDisbandMarks("DAW", (7, 8)), rs).state
    st, events = _to_buy(st, rs)
    gone = _of(events, UnitsDisbanded)
    assert gone == [
        UnitsDisbanded(
            "DAW",
            ((7, "DI", "a"), (8, "DI", "a")),
            "R-UPK-02",
            MARKED_REASON,
            ("Dawnian Infantry", "Dawnian Infantry"),
        )
    ]
    (due,) = _of(events, UpkeepDue)
    assert events.index(gone[0]) < events.index(due)
    assert due == UpkeepDue("DAW", 1, 6, 1, 0, 0, 1, 1)
    assert _of(events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 6, 1, 0, 1, 1, 0)]
    assert StepEnded("DAW", 1, Step.UPKEEP) in events
    assert (st.step, st.pending, _ids(st)) == (Step.BUY, [], [1, 2, 3, 4, 5, 6])
    assert st.factions["DAW"].disband_marks == []


def test_r_comm_07_salt_lowers_the_bill_on_the_units_left_after_the_marks() -> None:
    """R-COMM-07, R-UPK-02: 13 infantry, 1 RP, 1 Salt redeemed. One marked unit goes: 12 left,
    ceil(12/6) = 2, less 1 Salt = 1 <= 1 RP: paid, 0 RP and no Salt left; the turn moves on."""
    rs, st = _world([("DI", "a")] * 13, rp=1, salt=1)
    st = _give(st, ToggleDisbandMark("DAW", 13), rs).state
    st, events = _to_buy(st, rs)
    assert _of(events, UpkeepDue) == [UpkeepDue("DAW", 1, 12, 2, 1, 1, 1, 1)]
    assert _of(events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 12, 2, 1, 1, 1, 0)]
    assert (st.step, st.factions["DAW"].salt_credit, len(st.units)) == (Step.BUY, 0, 12)


def test_r_upk_03_a_shortfall_still_waits_after_the_marks() -> None:
    """R-UPK-03, R-TURN-02: 14 infantry, 1 RP; one marked unit goes, 13 left: ceil(13/6) = 3 >
    1, so at least 13 - 6 = 7 must go: step 4 waits with the decision, nothing paid yet."""
    rs, st = _world([("DI", "a")] * 14, rp=1)
    st = _give(st, ToggleDisbandMark("DAW", 1), rs).state
    st, events = _to_buy(st, rs)
    assert st.step is Step.UPKEEP
    (decision,) = st.pending
    assert decision.kind is DecisionKind.UPKEEP_DISBAND
    assert isinstance(decision.detail, UpkeepDisbandDetail)
    assert decision.detail.must_disband_at_least == 7
    assert _of(events, UnitsDisbanded)[0].units == ((1, "DI", "a"),)
    assert not _of(events, UpkeepPaid) and st.factions["DAW"].rp == 1


def test_r_upk_02_a_marked_ship_takes_its_cargo_and_a_necromancer_its_undead() -> None:
    """R-UPK-02, R-MOVE-19, R-UPK-04: marked, a ship (1) carrying infantry 2 takes it along, and
    the only Necromancer (3) takes the Undead (4) with it; infantry 5 stays: 1 unit, 1 RP."""
    units = [("DS", "bay"), ("DI", "bay"), ("DN", "a"), ("DU", "a"), ("DI", "a")]
    rs, st = _world(units, rp=5)
    st.unit(2).aboard = 1
    st = _give(st, SetDisbandMarks("DAW", (1, 3)), rs).state
    st, events = _to_buy(st, rs)
    assert [(e.rule, [u[0] for u in e.units]) for e in _of(events, UnitsDisbanded)] == [
        ("R-UPK-02", [1, 2, 3]),
        ("R-ATTR-UNDEAD-03", [4]),
    ]
    assert _of(events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 1, 1, 0, 1, 5, 4)]


def test_r_upk_02_a_mark_goes_with_a_unit_that_leaves_the_board_or_the_faction() -> None:
    """R-UPK-02: infantry 1, 2 and 3 marked; unit 2 is taken off the board and unit 3 passes to
    the Orcs (as a later rule may do); after the next order only the mark of 1 is left, and
    step 4 disbands unit 1 alone."""
    rs, st = _world([("DI", "a")] * 4, rp=5)
    st = _give(st, SetDisbandMarks("DAW", (1, 2, 3)), rs).state
    del st.units["2"]
    st.unit(3).owner = "ORC"
    out = _give(st, EndStep("DAW"), rs)  # step 1 ends; 2 (no commodity), 3 and 4 pass
    assert Step.UPKEEP in [e.step for e in out.events if isinstance(e, StepEnded)]
    (gone,) = _of(out.events, UnitsDisbanded)
    assert gone.units == ((1, "DI", "a"),)
    assert 3 in [int(k) for k in out.state.units]


def test_r_upk_02_a_mark_of_a_unit_gone_is_dropped_after_any_order() -> None:
    """R-UPK-02: marks {1, 2}; unit 2 leaves the board; the next order (a mark of 3) leaves
    the marks {1, 3}."""
    rs, st = _world([("DI", "a")] * 3, rp=5)
    st = _give(st, SetDisbandMarks("DAW", (1, 2)), rs).state
    del st.units["2"]
    out = _give(st, ToggleDisbandMark("DAW", 3), rs)
    assert out.state.factions["DAW"].disband_marks == [1, 3]


# --------------------------------------------------------------------------- upkeep_waits


def test_r_upk_02_with_upkeep_waits_step_4_waits_and_marking_then_disbands_at_once() -> None:
    """R-UPK-02, R-TURN-02, option upkeep_waits true: 8 infantry, 5 RP, unit 8 marked: step 4
    disbands it (7 left, ceil(7/6) = 2 RP) and waits. There, marking unit 7 disbands it at
    once (6 left: 1 RP), as DisbandUnits of unit 6 does (5 left: ceil(5/6) = 1 RP); ending the
    step pays 1: 5 - 1 = 4 RP."""
    rs, st = _world([("DI", "a")] * 8, rp=5, upkeep_waits=True)
    st = _give(st, ToggleDisbandMark("DAW", 8), rs).state
    st, events = _to_buy(st, rs)
    assert st.step is Step.UPKEEP and st.pending == []
    assert _of(events, UpkeepDue) == [UpkeepDue("DAW", 1, 7, 2, 0, 0, 2, 5)]
    out = _give(st, ToggleDisbandMark("DAW", 7), rs)
    assert _of(out.events, UnitsDisbanded)[0].rule == "R-UPK-02"
    assert _of(out.events, UpkeepDue) == [UpkeepDue("DAW", 1, 6, 1, 0, 0, 1, 5)]
    out = _give(out.state, DisbandUnits("DAW", (6,)), rs)
    assert _of(out.events, UpkeepDue) == [UpkeepDue("DAW", 1, 5, 1, 0, 0, 1, 5)]
    assert out.state.step is Step.UPKEEP
    paid = _give(out.state, EndStep("DAW"), rs)
    assert _of(paid.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 5, 1, 0, 1, 5, 4)]
    assert paid.state.step is Step.BUY


def test_r_upk_03_in_step_4_a_mark_answers_the_shortfall_like_disbanding() -> None:
    """R-UPK-03: 7 infantry, 1 RP: ceil(7/6) = 2 > 1, one must go; in step 4 a mark of unit 7
    answers the decision: 6 left pay 1, 0 RP, and the turn moves on to step 5."""
    rs, st = _world([("DI", "a")] * 7, rp=1)
    st, _ = _to_buy(st, rs)
    assert st.step is Step.UPKEEP and st.pending
    out = _give(st, ToggleDisbandMark("DAW", 7), rs)
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 6, 1, 0, 1, 1, 0)]
    assert (out.state.step, out.state.pending) == (Step.BUY, [])


# --------------------------------------------------------------------------- passive turns


def test_r_pbp_dead_03_a_passive_turn_carries_out_the_marks_then_disbands_by_default() -> None:
    """R-PBP-DEAD-03, R-UPK-02, R-UPK-03: 10 infantry, 1 RP; unit 1 marked in step 1, then the
    deadline passes. The bot plays on: step 4 disbands unit 1 (the mark stands), 9 are left,
    ceil(9/6) = 2 > 1: at least 9 - 6 = 3 go by default, the newest first (10, 9, 8); 6 pay
    1: 0 RP. The Dawnians can no longer change a mark once the turn is passive."""
    rs, st = _world([("DI", "a")] * 10, rp=1)
    st = _give(st, ToggleDisbandMark("DAW", 1), rs).state
    passive = st.clone()
    passive.passive = True
    with pytest.raises(RuleViolation) as err:
        _give(passive, ToggleDisbandMark("DAW", 1), rs)
    assert err.value.rule == "R-PBP-DEAD-03"
    out = _give(st, ForfeitTurn("DAW"), rs)
    assert TurnForfeited("DAW", 1, Step.TRADE) in out.events
    gone = _of(out.events, UnitsDisbanded)
    assert [(e.rule, e.by_default, [u[0] for u in e.units]) for e in gone] == [
        ("R-UPK-02", False, [1]),
        ("R-UPK-03", True, [10, 9, 8]),
    ]
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 6, 1, 0, 1, 1, 0)]
    assert _ids(out.state) == [2, 3, 4, 5, 6, 7]
    assert out.state.factions["DAW"].disband_marks == []
