"""The upkeep bill and the default disbanding, worked out on their own (R-UPK-01, R-UPK-03..05,
R-COMM-07, R-ATTR-UNDEAD-02), on the world of ``tests/rules/economy_world.py``. Step 4 through
the turn machinery is ``test_upkeep.py``.
"""

import pytest

from caedes_bot.rules.upkeep import (
    UnitsDisbanded,
    UpkeepPaid,
    disband_order,
    pay_upkeep,
    upkeep_for,
)
from tests.rules.builders import kind, ruleset, state
from tests.rules.economy_world import dawnians as _daw
from tests.rules.economy_world import world as _rs


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
