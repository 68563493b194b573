"""Step 4, Upkeep, through the turn machinery (R-UPK-01..05, R-COMM-07, R-ATTR-UNDEAD-02,
R-ATTR-HERO-01, R-PBP-DEAD-03, R-PBP-DEAD-04).

How step 4 goes (see ``caedes_bot/rules/upkeep.py``): it opens with ``UpkeepDue`` and, when RP
cover the bill, pays it and moves on by itself (R-TURN-02 as ruled). With the option
``upkeep_waits`` it waits for a faction that has units: ``DisbandUnits`` disbands voluntarily
(R-UPK-02) and the step stays open; ``EndStep``/``PayUpkeep`` pays. When RP fall short an
``upkeep_disband`` decision is pending (R-UPK-03) and the step waits whatever the option;
``DisbandUnits`` answers it (and pays, and the turn runs on), or ``UmpireAdvance`` applies the
default. Marking units before step 4 is tested in ``test_upkeep_marks.py``.

The bill: ceil(N/6) RP for N counted units, less Salt credit, never below 0. With R RP and S
Salt the bill is payable exactly when ceil(N'/6) <= R + S, that is N' <= 6(R + S); so the
fewest counted units that must go is max(0, N - 6(R + S)). Every expected value below is
worked out from that by hand.

World: provinces a and b (plains), sea zone "bay" off a. Nobody owns anything, so step 3
collects nothing and RP stay what each test sets.
"""

from __future__ import annotations

from typing import TypeVar

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import RuleViolation, WrongStep
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    DecisionKind,
    DisbandCandidate,
    GameState,
    PendingDecision,
    Step,
    UpkeepDisbandDetail,
)
from caedes_bot.rules.turn import DecisionDefaulted, EndStep, StepEnded, UmpireAdvance
from caedes_bot.rules.upkeep import (
    DisbandUnits,
    PayUpkeep,
    UnitsDisbanded,
    UpkeepDue,
    UpkeepPaid,
    default_disbanding,
    must_disband,
    upkeep_bill,
)
from tests.rules.builders import kind, ruleset, state, with_options

NO_DICE = ScriptedDice([])

KINDS = [
    kind("DI", "DAW", name="Dawnian Infantry"),
    kind("DY", "DAW", attributes=["missile"], cost=4, name="Yeomen"),
    kind("DK", "DAW", "cavalry", cost=6, name="Knights"),
    kind("DT", "DAW", "tower", name="Dawnian Tower"),
    kind("DS", "DAW", "ship", name="Dawnian Ship"),
    kind("DH", "DAW", "cavalry", hero=True, name="Sir Bor"),
    kind("DN", "DAW", attributes=["necromancer"], cost=18, name="Necromancer"),
    kind("DU", "DAW", attributes=["undead"], race="undead", name="Undead Infantry"),
    kind("DM", "DAW", attributes=["summoner"], cost=18, name="Shaman"),
    kind("DO", "DAW", race="summoned", cost=1, name="Outsider"),
]


def _rs(**options: object) -> Ruleset:
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",)},
        borders=[("a", "b")],
        coasts=[("a", "bay")],
        kinds=KINDS,
    )
    return with_options(rs, **options) if options else rs


def _world(
    units: list[tuple[str, str]], *, rp: int, salt: int = 0, **options: object
) -> tuple[Ruleset, GameState]:
    """Dawnian ``units`` as (kind, space), ids from 1 in order; the turn rests in step 2
    (nothing to redeem), with ``salt`` Salt already redeemed against upkeep."""
    rs = _rs(**options)
    st = state(rs, units=[(k, "DAW", s) for k, s in units], rp={"DAW": rp}, step=Step.REDEEM)
    st.factions["DAW"].salt_credit = salt
    return rs, st


def _give(st: GameState, order: Order, rs: Ruleset) -> Outcome:
    return apply(st, order, rs, NO_DICE)


def _to_upkeep(
    units: list[tuple[str, str]], *, rp: int, salt: int = 0, **options: object
) -> tuple[Ruleset, GameState, tuple[Event, ...]]:
    """End step 2: step 3 collects nothing, step 4 opens."""
    rs, st = _world(units, rp=rp, salt=salt, **options)
    out = _give(st, EndStep("DAW"), rs)
    return rs, out.state, out.events


E = TypeVar("E", bound=Event)


def _of(events: tuple[Event, ...] | list[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


def _detail(decision: PendingDecision) -> UpkeepDisbandDetail:
    assert isinstance(decision.detail, UpkeepDisbandDetail)
    return decision.detail


def _candidates(decision: PendingDecision) -> tuple[DisbandCandidate, ...]:
    return _detail(decision).candidates


def _ids(st: GameState) -> list[int]:
    return sorted(int(k) for k in st.units)


# --------------------------------------------------------------------------- the bill


@pytest.mark.parametrize(
    ("n", "rp", "salt", "upkeep", "bill", "must"),
    [
        (6, 0, 0, 1, 1, 6),  # 6 units, nothing to pay with: all 6 go (ceil(0/6) = 0)
        (6, 1, 0, 1, 1, 0),
        (7, 1, 0, 2, 2, 1),  # 7 -> 6 units: ceil(6/6) = 1 <= 1
        (12, 1, 0, 2, 2, 6),  # 12 -> 6: one unit fewer (11) still costs ceil(11/6) = 2
        (12, 2, 0, 2, 2, 0),
        (13, 2, 0, 3, 3, 1),  # 13 -> 12: ceil(12/6) = 2 <= 2
        (13, 1, 0, 3, 3, 7),  # 13 -> 6: ceil(6/6) = 1 <= 1
        (13, 0, 5, 3, 0, 0),  # Salt greater than the bill: bill 0, 2 Salt lost
        (13, 1, 1, 3, 2, 1),  # 13 -> 12: ceil(12/6) - 1 = 1 <= 1
    ],
)
def test_r_upk_01_r_upk_03_bill_and_fewest_units_to_disband(
    n: int, rp: int, salt: int, upkeep: int, bill: int, must: int
) -> None:
    """R-UPK-01, R-UPK-03, R-COMM-07: the bill ceil(N/6) - Salt (not below 0) and the fewest
    counted units that must go, max(0, N - 6(R + S)), for 6, 7, 12 and 13 units."""
    rs, st = _world([("DI", "a")] * n, rp=rp, salt=salt)
    found = upkeep_bill(st, rs, "DAW")
    assert (found.units_counted, found.upkeep, found.bill, found.must_disband) == (
        n,
        upkeep,
        bill,
        must,
    )
    assert found.salt_used == min(salt, upkeep)
    assert found.short is (bill > rp)
    assert must_disband(n, rp, salt) == must


def test_r_upk_01_undead_exempt_types_and_unmustered_units_are_not_counted() -> None:
    """R-UPK-01, R-UPK-04 (first half), R-ATTR-UNDEAD-02, R-UPK-05, option
    upkeep_exempt_types: 5 infantry + 1 Tower + 1 ship + 3 Undead on the board and 4 infantry
    bought: with towers exempt, N = 5 + 1 ship = 6, ceil(6/6) = 1 RP; without the option
    N = 7, ceil(7/6) = 2 RP."""
    units = [("DI", "a")] * 5 + [("DT", "a"), ("DS", "bay")] + [("DU", "b")] * 3
    rs, st = _world(units, rp=0, upkeep_exempt_types=("tower",))
    st.factions["DAW"].purchases = ["DI"] * 4
    assert (upkeep_bill(st, rs, "DAW").units_counted, upkeep_bill(st, rs, "DAW").upkeep) == (6, 1)
    rs2, st2 = _world(units, rp=0)
    st2.factions["DAW"].purchases = ["DI"] * 4
    assert (upkeep_bill(st2, rs2, "DAW").units_counted, upkeep_bill(st2, rs2, "DAW").upkeep) == (
        7,
        2,
    )


# --------------------------------------------------------------------------- step 4 opens


def test_r_turn_02_step_4_shows_the_bill_pays_it_and_moves_on_without_a_click() -> None:
    """R-TURN-02, R-UPK-01 (upkeep_waits false): 7 infantry, 5 RP. Ending step 2 runs step 3,
    then step 4: the bill, ceil(7/6) = 2 RP, is shown and paid, 5 - 2 = 3 RP, and the turn
    rests in step 5 with nothing pending."""
    _, st, events = _to_upkeep([("DI", "a")] * 7, rp=5)
    assert _of(events, UpkeepDue) == [UpkeepDue("DAW", 1, 7, 2, 0, 0, 2, 5)]
    assert _of(events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 7, 2, 0, 2, 5, 3)]
    assert StepEnded("DAW", 1, Step.UPKEEP) in events
    assert (st.step, st.factions["DAW"].rp, st.pending) == (Step.BUY, 3, [])


def test_r_upk_02_with_upkeep_waits_step_4_shows_the_bill_and_waits_then_ending_it_pays() -> None:
    """R-UPK-01, R-UPK-02, option upkeep_waits true: 7 infantry, 5 RP. Step 4 opens with the
    bill, ceil(7/6) = 2 RP, and waits; nothing is paid yet. EndStep pays: 5 - 2 = 3 RP, and
    step 5 begins."""
    rs, st, events = _to_upkeep([("DI", "a")] * 7, rp=5, upkeep_waits=True)
    assert st.step is Step.UPKEEP
    assert _of(events, UpkeepDue) == [UpkeepDue("DAW", 1, 7, 2, 0, 0, 2, 5)]
    assert not _of(events, UpkeepPaid)
    assert st.factions["DAW"].rp == 5 and st.pending == []
    out = _give(st, EndStep("DAW"), rs)
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 7, 2, 0, 2, 5, 3)]
    assert (out.state.step, out.state.factions["DAW"].rp) == (Step.BUY, 3)


def test_r_upk_01_pay_upkeep_order_works_in_step_4_only() -> None:
    """R-UPK-01 (upkeep_waits true): PayUpkeep is EndStep for step 4 (6 units: 1 RP, 2 - 1 = 1
    left); in step 5 a stale PayUpkeep is refused and ends nothing."""
    rs, st, _ = _to_upkeep([("DI", "a")] * 6, rp=2, upkeep_waits=True)
    out = _give(st, PayUpkeep("DAW"), rs)
    assert (out.state.step, out.state.factions["DAW"].rp) == (Step.BUY, 1)
    with pytest.raises(WrongStep):
        _give(out.state, PayUpkeep("DAW"), rs)


@pytest.mark.parametrize("waits", [False, True])
def test_r_upk_01_a_faction_without_units_passes_step_4_at_once(waits: bool) -> None:
    """R-UPK-01, R-TURN-02: no unit, nothing to disband: the bill is ceil(0/6) = 0 and step 4
    passes by itself (3 RP stay 3), even with the option upkeep_waits."""
    _, st, events = _to_upkeep([], rp=3, upkeep_waits=waits)
    assert st.step is Step.BUY
    assert _of(events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 0, 0, 0, 0, 3, 3)]


def test_r_comm_07_salt_greater_than_the_bill_pays_nothing_and_the_rest_is_lost() -> None:
    """R-COMM-07, R-UPK-01: 13 infantry, 0 RP, 5 Salt redeemed: ceil(13/6) = 3, 3 of the Salt
    used, bill 0: no shortfall, no unit goes, and step 4 does not wait (R-TURN-02); the 2
    other Salt are lost when paying."""
    rs, st, events = _to_upkeep([("DI", "a")] * 13, rp=0, salt=5, upkeep_waits=True)
    assert _of(events, UpkeepDue) == [UpkeepDue("DAW", 1, 13, 3, 5, 3, 0, 0)]
    assert st.pending == []
    out = _give(st, EndStep("DAW"), rs)
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 13, 3, 3, 0, 0, 0)]
    assert out.state.factions["DAW"].salt_credit == 0
    assert len(out.state.units) == 13


# --------------------------------------------------------------------------- voluntary


def test_r_upk_02_voluntary_disbanding_lowers_the_bill_and_keeps_the_step_open() -> None:
    """R-UPK-02, option upkeep_waits true: 7 infantry, 5 RP; disbanding unit 7 in step 4 leaves
    6: ceil(6/6) = 1 RP. The step stays open and shows the new bill; EndStep pays 1: 5 - 1 = 4
    RP."""
    rs, st, _ = _to_upkeep([("DI", "a")] * 7, rp=5, upkeep_waits=True)
    out = _give(st, DisbandUnits("DAW", (7,)), rs)
    assert out.events == (
        UnitsDisbanded(
            "DAW", ((7, "DI", "a"),), "R-UPK-02", "disbanded by choice", ("Dawnian Infantry",)
        ),
        UpkeepDue("DAW", 1, 6, 1, 0, 0, 1, 5),
    )
    assert out.state.step is Step.UPKEEP
    paid = _give(out.state, EndStep("DAW"), rs)
    assert paid.state.factions["DAW"].rp == 4


def test_r_upk_02_voluntary_disbanding_of_undead_and_the_last_necromancer() -> None:
    """R-UPK-02, R-UPK-04, R-ATTR-UNDEAD-03: any unit may be disbanded voluntarily, Undead too;
    disbanding the only Necromancer takes the two Undead left with it (in step 4, with
    upkeep_waits true)."""
    units = [("DI", "a"), ("DN", "a"), ("DU", "a"), ("DU", "a"), ("DU", "b")]
    rs, st, _ = _to_upkeep(units, rp=5, upkeep_waits=True)
    out = _give(st, DisbandUnits("DAW", (5,)), rs)
    assert _ids(out.state) == [1, 2, 3, 4]
    out = _give(out.state, DisbandUnits("DAW", (2,)), rs)
    lost = _of(out.events, UnitsDisbanded)
    assert [(e.rule, [u[0] for u in e.units]) for e in lost] == [
        ("R-UPK-02", [2]),
        ("R-ATTR-UNDEAD-03", [3, 4]),
    ]
    assert _ids(out.state) == [1]


@pytest.mark.parametrize("step", [Step.TRADE, Step.REDEEM, Step.BUY, Step.MOVE, Step.MUSTER])
def test_r_upk_02_disbanding_is_refused_outside_step_4(step: Step) -> None:
    """R-UPK-02: voluntary disbanding only in step 4; elsewhere refused, nothing changes."""
    rs, st = _world([("DI", "a")] * 2, rp=5)
    st.step = step
    before = st.clone()
    with pytest.raises(RuleViolation) as err:
        _give(st, DisbandUnits("DAW", (1,)), rs)
    assert err.value.rule == "R-UPK-02"
    assert "step 4" in err.value.message and err.value.allowed is not None
    assert st == before


def test_r_upk_02_only_own_units_on_the_board() -> None:
    """R-UPK-02: an Orc unit, or a unit id not on the board, is refused (step 4 waiting under
    upkeep_waits)."""
    rs, st, _ = _to_upkeep([("DI", "a")], rp=5, upkeep_waits=True)
    st.units["9"] = st.unit(1).__class__(id=9, kind="DI", owner="ORC", location="b")
    for bad in ((9,), (42,), ()):
        with pytest.raises(RuleViolation) as err:
            _give(st, DisbandUnits("DAW", bad), rs)
        assert err.value.rule == "R-UPK-02"


# --------------------------------------------------------------------------- shortfall


def test_r_upk_03_shortfall_asks_which_units_go() -> None:
    """R-UPK-03: 12 units (9 infantry, 2 Knights, a Hero) and 1 RP: ceil(12/6) = 2 > 1; at
    least 12 - 6 = 6 must go. Default: the 9 infantry (3 RP) come first, newest first: ids 9,
    8, 7, 6, 5, 4. The decision is the faction's own (not a reaction)."""
    units = [("DI", "a")] * 9 + [("DK", "a"), ("DK", "b"), ("DH", "b")]
    _, st, events = _to_upkeep(units, rp=1)
    (decision,) = st.pending
    assert (decision.kind, decision.faction, decision.reaction) == (
        DecisionKind.UPKEEP_DISBAND,
        "DAW",
        False,
    )
    detail = _detail(decision)
    assert (detail.bill, detail.rp, detail.must_disband_at_least) == (2, 1, 6)
    assert detail.default == (9, 8, 7, 6, 5, 4)
    candidates = _candidates(decision)
    assert len(candidates) == 12
    assert candidates[0] == DisbandCandidate(
        id=9,
        kind="DI",
        name="Dawnian Infantry",
        space="a",
        cost=3,
        hero=False,
        cargo=(),
    )
    assert candidates[-1].id == 12  # the Hero last
    assert _of(events, UpkeepDue) == [
        UpkeepDue("DAW", 1, 12, 2, 0, 0, 2, 1, 6, decision.id, (9, 8, 7, 6, 5, 4))
    ]
    assert st.step is Step.UPKEEP and st.factions["DAW"].rp == 1


def test_r_upk_03_ending_the_step_without_choosing_is_refused() -> None:
    """R-UPK-03: with a shortfall pending, EndStep and PayUpkeep are refused; nothing changes."""
    rs, st, _ = _to_upkeep([("DI", "a")] * 7, rp=1)
    before = st.clone()
    for order in (EndStep("DAW"), PayUpkeep("DAW")):
        with pytest.raises(RuleViolation) as err:
            _give(st, order, rs)
        assert err.value.rule == "R-UPK-03"
    assert st == before


def test_r_upk_03_too_few_units_are_refused_enough_are_disbanded_and_the_bill_paid() -> None:
    """R-UPK-03: 13 infantry, 1 RP: ceil(13/6) = 3 > 1, at least 13 - 6 = 7 must go. Six are
    refused (7 left: ceil(7/6) = 2 > 1) and nothing changes; seven are taken: 6 left pay 1,
    1 - 1 = 0 RP, and the turn runs on to step 5."""
    rs, st, _ = _to_upkeep([("DI", "a")] * 13, rp=1)
    before = st.clone()
    with pytest.raises(RuleViolation) as err:
        _give(st, DisbandUnits("DAW", (1, 2, 3, 4, 5, 6)), rs)
    assert err.value.rule == "R-UPK-03"
    assert "7 units still count" in err.value.message and "At least 7" in err.value.message
    assert st == before
    out = _give(st, DisbandUnits("DAW", (1, 2, 3, 4, 5, 6, 7)), rs)
    (gone,) = _of(out.events, UnitsDisbanded)
    assert (gone.rule, gone.by_default, len(gone.units)) == ("R-UPK-03", False, 7)
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 6, 1, 0, 1, 1, 0)]
    assert StepEnded("DAW", 1, Step.UPKEEP) in out.events
    assert (out.state.step, out.state.pending, _ids(out.state)) == (
        Step.BUY,
        [],
        list(range(8, 14)),
    )


def test_r_upk_03_an_answer_disbands_no_more_than_needed() -> None:
    """R-UPK-03 as ruled (the minimum number goes), option upkeep_waits false: 7 infantry,
    1 RP: ceil(7/6) = 2 > 1, so one must go (ceil(6/6) = 1). Naming two is refused (either
    alone makes the bill payable; voluntary disbanding in step 4 needs upkeep_waits, R-UPK-02)
    and nothing changes; naming one pays: 6 left, 1 - 1 = 0 RP."""
    rs, st, _ = _to_upkeep([("DI", "a")] * 7, rp=1)
    with pytest.raises(RuleViolation) as err:
        _give(st, DisbandUnits("DAW", (1, 2)), rs)
    assert err.value.rule == "R-UPK-03"
    assert "upkeep_waits" in str(err.value) and "the default: 7 " in (err.value.allowed or "")
    assert len(st.units) == 7 and st.pending
    out = _give(st, DisbandUnits("DAW", (1,)), rs)
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 6, 1, 0, 1, 1, 0)]


def test_r_upk_02_with_upkeep_waits_the_answer_may_disband_more_than_needed() -> None:
    """R-UPK-03 with R-UPK-02, option upkeep_waits true: 7 infantry, 1 RP: one must go;
    naming two is allowed (the second is voluntary disbanding in step 4). 5 left:
    ceil(5/6) = 1, 1 - 1 = 0 RP."""
    rs, st, _ = _to_upkeep([("DI", "a")] * 7, rp=1, upkeep_waits=True)
    out = _give(st, DisbandUnits("DAW", (1, 2)), rs)
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 5, 1, 0, 1, 1, 0)]


def test_r_upk_04_undead_mixed_in_are_never_needed_and_do_not_help() -> None:
    """R-UPK-04, R-ATTR-UNDEAD-02: 6 infantry, a Necromancer and 3 Undead, 1 RP: N = 7 (the
    Undead do not count), ceil(7/6) = 2 > 1, one counted unit must go. The default takes the
    newest infantry (id 6), never an Undead; naming only an Undead is refused (N stays 7)."""
    units = [("DI", "a")] * 6 + [("DN", "a")] + [("DU", "a")] * 3
    rs, st, _ = _to_upkeep(units, rp=1)
    (decision,) = st.pending
    assert _detail(decision).must_disband_at_least == 1
    assert _detail(decision).default == (6,)
    assert all(c.kind != "DU" for c in _candidates(decision))
    with pytest.raises(RuleViolation) as err:
        _give(st, DisbandUnits("DAW", (8,)), rs)
    assert err.value.rule == "R-UPK-03"


def test_r_upk_03_a_ship_takes_its_cargo_and_counts_for_all_of_them() -> None:
    """R-UPK-03, R-MOVE-19: a ship carrying 2 infantry plus 5 infantry in a: N = 8, 1 RP:
    ceil(8/6) = 2 > 1, 8 - 6 = 2 must go. Naming the ship alone removes 3 counted units: 5
    left, ceil(5/6) = 1 <= 1: accepted, and the cargo is listed with it."""
    units = [("DS", "bay"), ("DI", "bay"), ("DI", "bay")] + [("DI", "a")] * 5
    rs, st = _world(units, rp=1)
    st.unit(2).aboard = 1
    st.unit(3).aboard = 1
    st = _give(st, EndStep("DAW"), rs).state
    (decision,) = st.pending
    assert _detail(decision).must_disband_at_least == 2
    ship = next(c for c in _candidates(decision) if c.id == 1)
    assert ship.cargo == (2, 3)
    out = _give(st, DisbandUnits("DAW", (1,)), rs)
    (gone,) = _of(out.events, UnitsDisbanded)
    assert [u[0] for u in gone.units] == [1, 2, 3]
    assert gone.names == ("Dawnian Ship", "Dawnian Infantry", "Dawnian Infantry")
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 5, 1, 0, 1, 1, 0)]


def test_r_upk_04_disbanding_the_last_summoner_takes_the_summoned_units_off_the_bill() -> None:
    """R-UPK-04, R-MAGIC-SUMM-03: a Shaman (Summoner), 3 Outsiders (Summoned, they count) and
    5 infantry: N = 9, 1 RP: ceil(9/6) = 2 > 1, 9 - 6 = 3 must go. Naming the Shaman alone
    also removes the 3 Outsiders: 5 left, ceil(5/6) = 1 <= 1: accepted."""
    units = [("DM", "a")] + [("DO", "a")] * 3 + [("DI", "b")] * 5
    rs, st, _ = _to_upkeep(units, rp=1)
    out = _give(st, DisbandUnits("DAW", (1,)), rs)
    lost = _of(out.events, UnitsDisbanded)
    assert [(e.rule, [u[0] for u in e.units]) for e in lost] == [
        ("R-UPK-03", [1]),
        ("R-MAGIC-SUMM-03", [2, 3, 4]),
    ]
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 5, 1, 0, 1, 1, 0)]


# --------------------------------------------------------------------------- defaults


def test_r_pbp_dead_04_umpire_advance_disbands_by_default_and_pays() -> None:
    """R-UPK-03, R-PBP-DEAD-04: 13 units (10 infantry, 2 Yeomen, a Hero) and 2 RP:
    ceil(13/6) = 3 > 2, 13 - 6 × 2 = 1 must go: the newest infantry (id 10; infantry 3 RP
    before Yeomen 4 RP and the Hero last). 12 left pay 2: 2 - 2 = 0 RP; step 5 begins."""
    units = [("DI", "a")] * 10 + [("DY", "a")] * 2 + [("DH", "b")]
    rs, st, _ = _to_upkeep(units, rp=2)
    (decision,) = st.pending
    out = _give(st, UmpireAdvance("DAW"), rs)
    assert out.events[0] == DecisionDefaulted("DAW", decision.id, DecisionKind.UPKEEP_DISBAND)
    assert out.events[1] == UnitsDisbanded(
        "DAW",
        ((10, "DI", "a"),),
        "R-UPK-03",
        "upkeep could not be paid",
        ("Dawnian Infantry",),
        by_default=True,
    )
    assert _of(out.events, UpkeepPaid) == [UpkeepPaid("DAW", 1, 12, 2, 0, 2, 2, 0)]
    assert StepEnded("DAW", 1, Step.UPKEEP, by_umpire=True) in out.events
    assert (out.state.step, out.state.pending) == (Step.BUY, [])


def test_r_upk_03_default_order_cheapest_then_newest_heroes_last() -> None:
    """R-UPK-03, R-ATTR-HERO-01: 0 RP, so all 6 units must go (6 - 0 = 6). Order: infantry
    (3 RP) newest first 5, 1; Yeomen (4) 3; Knights (6) 4, 2; the Hero (no cost) last, 6."""
    units = [("DI", "a"), ("DK", "a"), ("DY", "a"), ("DK", "b"), ("DI", "b"), ("DH", "b")]
    rs, st = _world(units, rp=0)
    assert default_disbanding(st, rs, "DAW") == [5, 1, 3, 4, 2, 6]


def test_r_upk_03_umpire_advance_without_shortfall_just_pays() -> None:
    """R-PBP-DEAD-03, R-UPK-01, R-UPK-03: no decision pending: UmpireAdvance ends step 4, which
    pays: ceil(7/6) = 2, 3 - 2 = 1 RP; the RP cover the bill, so no unit goes (step 4 waiting
    under upkeep_waits).
    """
    rs, st, _ = _to_upkeep([("DI", "a")] * 7, rp=3, upkeep_waits=True)
    out = _give(st, UmpireAdvance("DAW"), rs)
    assert not _of(out.events, UnitsDisbanded)
    assert out.state.factions["DAW"].rp == 1 and out.state.step is Step.BUY


def test_r_buy_02_rp_never_negative_after_upkeep() -> None:
    """R-BUY-02, R-UPK-03: 0 RP and 6 infantry: all go by default, bill ceil(0/6) = 0, RP 0."""
    rs, st, _ = _to_upkeep([("DI", "a")] * 6, rp=0)
    out = _give(st, UmpireAdvance("DAW"), rs)
    assert out.state.units == {}
    assert out.state.factions["DAW"].rp == 0
