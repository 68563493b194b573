"""Summoned units and the muster judgement (R-MUSTER-01, R-BUY-04, R-MAGIC-SUMM-02,
R-ATTR-FORT-02, R-ATTR-FORT-03, R-ATTR-FORT-06).

Every Summoned unit vanishes as a step 8 begins, before the board its musters are judged on is
fixed (R-MAGIC-SUMM-02, R-MUSTER-01): judged before step 8 (the R-BUY-04 warning of step 5),
a summoned unit qualifies no muster and blocks none. Map: h hills, p plains, both the
faction's. Kinds: OS an Orc Shaman (Summoner, cavalry type), OD a summoned Orc infantry
unit, OT Orc Troopers, OTW an Orc Tower; WD a Druid, WE a summoned Earth Elemental (Tower
type), WS Wood Elf Scouts, WT a Wood Elf Tower.
"""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.buy import BuyUnits, UnitsBought
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalMuster
from caedes_bot.rules.muster import MusterUnits, PurchaseLost, legal_muster_provinces
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.summons import SummonUnits
from caedes_bot.rules.turn import EndStep
from tests.rules.builders import kind, ruleset, state, with_options

NO_DICE = ScriptedDice([])

KINDS = [
    kind("OS", "ORC", "cavalry", ["summoner"], cost=10, name="Orc Shaman"),
    kind("OD", "ORC", race="summoned", cost=1, name="Shadow Orcs"),
    kind("OT", "ORC", name="Orc Troopers"),
    kind("OTW", "ORC", "tower", name="Orc Tower"),
    kind("WD", "WEL", attributes=["summoner"], cost=18, name="Druid"),
    kind("WE", "WEL", "tower", ["meek", "fortitude"], race="summoned", cost=6, name="Earth"),
    kind("WS", "WEL", name="Scouts"),
    kind("WT", "WEL", "tower", name="Wood Elf Tower"),
]


def _rs(**options: object) -> Ruleset:
    rs = ruleset(provinces={"h": ("hills",), "p": ("plains",)}, kinds=KINDS)
    return with_options(rs, **options) if options else rs


def _turn(rs: Ruleset, faction: str, step: Step, units: list[tuple[str, str]]) -> GameState:
    return state(
        rs,
        units=[(k, faction, p) for k, p in units],
        owners={"h": faction, "p": faction},
        active=faction,
        step=step,
        rp={faction: 30},
    )


def test_r_buy_04_a_summoned_unit_does_not_make_a_tower_placeable_in_step_5() -> None:
    """R-BUY-04, R-ATTR-FORT-03, R-MAGIC-SUMM-02: in step 5 the Orcs' only infantry-type unit
    is a summoned one, beside the Shaman in h. It will have vanished when step 8 judges, so an
    Orc Tower bought now has nowhere to go: the purchase warns at once, and h is not offered.
    When steps 6 to 8 pass the Tower is lost, as warned."""
    rs = _rs()
    st = _turn(rs, "ORC", Step.BUY, [("OS", "h")])
    st = apply(st, SummonUnits("ORC", "OD", 1), rs, NO_DICE).state
    out = apply(st, BuyUnits("ORC", "OTW", 1), rs, NO_DICE)
    (bought,) = [e for e in out.events if isinstance(e, UnitsBought)]
    assert bought.warning is not None and "R-ATTR-FORT-03" in bought.warning
    assert legal_muster_provinces(out.state, rs, "ORC", "OTW") == []
    st = out.state
    for _ in range(3):  # steps 5, 6 and 7 end; step 8 begins, then ends at once
        st = apply(st, EndStep("ORC"), rs, NO_DICE).state
        if st.step is Step.MUSTER:
            break
    assert st.step is Step.MUSTER
    out = apply(st, EndStep("ORC"), rs, NO_DICE)
    (lost,) = [e for e in out.events if isinstance(e, PurchaseLost)]
    assert lost.kind_ids == ("OTW",)


def test_r_buy_04_a_summoned_unit_does_not_block_a_muster_it_will_not_see() -> None:
    """R-MUSTER-02, R-MAGIC-SUMM-02: in the Orcs' step 5 a Wood Elf Earth Elemental (summoned)
    stands in p, the Orcs' plains province beside their Troopers. It vanishes as step 8 begins,
    so a Tower bought now can go into p: no warning, and p is offered."""
    rs = _rs()
    st = state(
        rs,
        units=[("OT", "ORC", "p"), ("WE", "WEL", "p")],
        owners={"h": "ORC", "p": "ORC"},
        active="ORC",
        step=Step.BUY,
        rp={"ORC": 30},
    )
    out = apply(st, BuyUnits("ORC", "OTW", 1), rs, NO_DICE)
    (bought,) = [e for e in out.events if isinstance(e, UnitsBought)]
    assert bought.warning is None
    assert legal_muster_provinces(out.state, rs, "ORC", "OTW") == ["p"]


def _tower_beside_earth(rs: Ruleset) -> GameState:
    """The Wood Elves' step 8, a Wood Elf Tower waiting: Druid and Scouts in h, and an Earth
    Elemental summoned into h during this step 8 (so it stands until the next one)."""
    st = _turn(rs, "WEL", Step.COMBAT, [("WD", "h"), ("WS", "h")])
    st.factions["WEL"].purchases = ["WT"]
    st.factions["WEL"].purchase_prices = [3]
    st = apply(st, EndStep("WEL"), rs, NO_DICE).state
    assert st.step is Step.MUSTER
    return apply(st, SummonUnits("WEL", "WE", 1), rs, NO_DICE).state


def test_r_attr_fort_06_a_summoned_tower_is_a_fortification_a_tower_cannot_join() -> None:
    """R-ATTR-FORT-06, R-ATTR-FORT-02 (default): the Earth Elemental summoned in h is a
    Fortification: the Wood Elf Tower cannot be mustered there."""
    rs = _rs()
    st = _tower_beside_earth(rs)
    try:
        apply(st, MusterUnits("WEL", (("WT", "h"),)), rs, NO_DICE)
    except IllegalMuster as err:
        assert err.rule == "R-ATTR-FORT-02"
    else:
        raise AssertionError("a second Fortification was mustered")


def test_r_attr_fort_06_option_off_a_tower_may_join_a_summoned_tower() -> None:
    """R-ATTR-FORT-06, option summoned_tower_is_fortification false: the Earth Elemental is no
    Fortification, so the Wood Elf Tower is mustered into h beside it."""
    rs = _rs(summoned_tower_is_fortification=False)
    st = _tower_beside_earth(rs)
    out = apply(st, MusterUnits("WEL", (("WT", "h"),)), rs, NO_DICE)
    assert sorted(u.kind for u in out.state.units_at("h")) == ["WD", "WE", "WS", "WT"]


def test_r_attr_water_03_a_summoned_tower_is_no_muster_point_for_ships() -> None:
    """R-ATTR-WATER-03, R-MAGIC-SUMM-02: in the Wood Elves' step 5 their only Fortification is
    an Earth Elemental summoned into h, on the bay. It vanishes as step 8 begins, so a ship
    bought now has no water to go on: the purchase warns at once and no water is offered."""
    rs = ruleset(
        provinces={"h": ("hills",), "p": ("plains",)},
        coasts=[("h", "bay")],
        kinds=[*KINDS, kind("WP", "WEL", "ship", name="Ship")],
    )
    st = _turn(rs, "WEL", Step.BUY, [("WD", "h")])
    st = apply(st, SummonUnits("WEL", "WE", 1), rs, NO_DICE).state
    out = apply(st, BuyUnits("WEL", "WP", 1), rs, NO_DICE)
    (bought,) = [e for e in out.events if isinstance(e, UnitsBought)]
    assert bought.warning is not None
    assert legal_muster_provinces(out.state, rs, "WEL", "WP") == []
