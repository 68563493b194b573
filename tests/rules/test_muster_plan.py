"""Where bought units can go, how many each place takes, the warnings before they are lost,
and the bot's placing of what is left (R-MUSTER-01, R-MUSTER-04, R-BUY-04, R-PBP-DEAD-03,
R-RACE-ORC-01, R-RACE-OGR-01, R-ATTR-FORT-04, R-MAGIC-SUMM-02).

Map: m1, m2 mountains; h hills; p1 plains; t hills with a Tower of whoever is tested.
"""

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.buy import BuyUnits, UnitsBought
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalMuster
from caedes_bot.rules.muster import (
    MusterShortfall,
    MusterUnits,
    PurchaseLost,
    UnitsMustered,
    begin_muster_step,
    muster_room,
    plan_muster,
)
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.summons import SummonsVanished
from caedes_bot.rules.turn import EndStep, ForfeitTurn, UmpireAdvance
from tests.rules.builders import kind, ruleset, state

NO_DICE = ScriptedDice([])

KINDS = [
    kind("XI", "DWA", name="Dwarven Axemen"),
    kind("XD", "DWA", attributes=["veteran", "mountainlore"], cost=4, name="Dwarven Defender"),
    kind("OT", "ORC", name="Orc Troopers"),
    kind("OG", "ORC", race="ogre", cost=4, name="Ogre Heavy Infantry"),
    kind("OTW", "ORC", "tower", name="Orc Tower"),
    kind("WD", "WEL", attributes=["summoner"], cost=18, name="Druid"),
    kind("WF", "WEL", "cavalry", ["slow", "missile"], race="summoned", cost=3, name="Fire"),
    kind("LI", "LIZ", name="Lizardman Infantry"),
]


def _rs() -> Ruleset:
    return ruleset(
        provinces={
            "m1": ("mountains",),
            "m2": ("mountains",),
            "h": ("hills",),
            "p1": ("plains",),
            "t": ("hills",),
        },
        kinds=KINDS,
    )


def _at_buy(rs: Ruleset, faction: str, units: list[tuple[str, str]], rp: int = 30) -> GameState:
    owners = dict.fromkeys(("m1", "m2", "h", "p1", "t"), faction)
    return state(
        rs,
        units=[(k, faction, p) for k, p in units],
        owners=owners,
        active=faction,
        step=Step.BUY,
        rp={faction: rp},
    )


def test_r_buy_04_a_purchase_only_partly_placeable_warns_with_how_many() -> None:
    """R-BUY-04, R-MUSTER-04, R-RACE-DWA-01 (the issue's case): Dwarven infantry stands in
    the two mountain provinces m1 and m2, neither fortified; each takes one Dwarven unit per
    step 8. Buying 4 Defenders (16 RP of 30) warns at once that only 2 of the 4 can be
    placed, in M1 and M2, and that the other 2 will be lost. At step 8 the bot places 2 and
    reports 2 lost with the reason (R-MUSTER-04)."""
    rs = _rs()
    st = _at_buy(rs, "DWA", [("XI", "m1"), ("XI", "m2")])
    out = apply(st, BuyUnits("DWA", "XD", 4), rs, NO_DICE)
    (bought,) = out.events
    assert isinstance(bought, UnitsBought) and bought.warning is not None
    assert bought.warning.startswith(
        "Only 2 of your 4 Dwarven Defender waiting can be placed in step 8 on the board as it "
        "stands (M1, M2); the other 2 will be lost"
    )
    assert "R-MUSTER-04" in bought.warning
    assert out.state.factions["DWA"].rp == 14
    # step 6 and 7 pass; step 8 begins and warns in the orders thread
    out = apply(out.state, EndStep("DWA"), rs, NO_DICE)  # ends step 5
    out = apply(out.state, EndStep("DWA"), rs, NO_DICE)  # ends step 6; 7 has no battle
    assert out.state.step is Step.MUSTER
    (short,) = [e for e in out.events if isinstance(e, MusterShortfall)]
    assert short.kind_ids == ("XD", "XD") and short.private
    out = apply(out.state, UmpireAdvance("DWA"), rs, NO_DICE)  # a forced step 8
    (placed,) = [e for e in out.events if isinstance(e, UnitsMustered)]
    assert placed.by_bot and [(k, p) for _, k, p in placed.units] == [("XD", "m1"), ("XD", "m2")]
    (lost,) = [e for e in out.events if isinstance(e, PurchaseLost)]
    assert lost.kind_ids == ("XD", "XD")
    assert lost.reasons[0][0] == "XD" and "R-MUSTER-04" in lost.reasons[0][1]


def test_r_buy_04_a_purchase_that_fits_gives_no_warning() -> None:
    """R-BUY-04: 2 Defenders for two unfortified mountain provinces: no warning."""
    rs = _rs()
    st = _at_buy(rs, "DWA", [("XI", "m1"), ("XI", "m2")])
    (bought,) = apply(st, BuyUnits("DWA", "XD", 2), rs, NO_DICE).events
    assert isinstance(bought, UnitsBought) and bought.warning is None


def _orc_muster(units: list[tuple[str, str]], bought: list[str]) -> tuple[Ruleset, GameState]:
    rs = _rs()
    st = _at_buy(rs, "ORC", units)
    st.step = Step.MUSTER
    st.factions["ORC"].purchases = list(bought)
    st.factions["ORC"].purchase_prices = [3] * len(bought)
    begin_muster_step(st, rs)
    return rs, st


def test_r_race_orc_01_two_orc_units_in_one_hill_province_without_a_tower() -> None:
    """R-RACE-ORC-01, R-MUSTER-04: Orc infantry stands in h (hills) only; h takes one Orc unit
    in a step 8: the first goes in, the second is refused, and muster_room no longer offers
    h (it offered h with room for 1 before)."""
    rs, st = _orc_muster([("OT", "h")], ["OT", "OT"])
    assert muster_room(st, rs, "ORC", "OT") == [("h", 1)]
    st = apply(st, MusterUnits("ORC", (("OT", "h"),)), rs, NO_DICE).state
    assert muster_room(st, rs, "ORC", "OT") == []
    with pytest.raises(IllegalMuster) as err:
        apply(st, MusterUnits("ORC", (("OT", "h"),)), rs, NO_DICE)
    assert err.value.rule == "R-MUSTER-04"


def test_r_attr_fort_04_a_tower_lets_a_hill_province_take_more() -> None:
    """R-ATTR-FORT-04: with the Orc Tower standing in t (hills) and Orc infantry there, t takes
    both Orc units (room: no limit)."""
    rs, st = _orc_muster([("OT", "t"), ("OTW", "t")], ["OT", "OT"])
    assert muster_room(st, rs, "ORC", "OT") == [("t", None)]
    out = apply(st, MusterUnits("ORC", (("OT", "t"), ("OT", "t"))), rs, NO_DICE)
    assert [u.kind for u in out.state.units_at("t")] == ["OT", "OTW", "OT", "OT"]


def test_r_pbp_dead_03_the_bot_keeps_a_place_for_a_later_unit() -> None:
    """R-PBP-DEAD-03, R-MUSTER-04, R-RACE-OGR-01: Orc infantry in h and p1, Ogre infantry in h;
    an Orc and then an Ogre wait. By province name alone the Orc would take h (H before P1)
    and shut the Ogre out (Ogres muster only in hills). The bot places the Orc in P1 and the
    Ogre in H: both are placed, nothing lost."""
    rs, st = _orc_muster([("OT", "h"), ("OG", "h"), ("OT", "p1")], ["OT", "OG"])
    plan = plan_muster(st, rs, "ORC")
    assert [(k, p) for k, p, _key in plan.placed] == [("OT", "p1"), ("OG", "h")]
    assert plan.lost == ()
    out = apply(st, UmpireAdvance("ORC"), rs, NO_DICE)
    (placed,) = [e for e in out.events if isinstance(e, UnitsMustered)]
    assert [(k, p) for _, k, p in placed.units] == [("OT", "p1"), ("OG", "h")]
    assert not [e for e in out.events if isinstance(e, PurchaseLost)]


def test_r_muster_01_a_muster_that_leaves_a_unit_without_a_place_warns() -> None:
    """R-MUSTER-01, R-BUY-04: same board; the player puts the Orc in h by hand, so the Ogre
    has nowhere left: the muster is allowed and warns at once that the Ogre will be lost."""
    rs, st = _orc_muster([("OT", "h"), ("OG", "h"), ("OT", "p1")], ["OT", "OG"])
    out = apply(st, MusterUnits("ORC", (("OT", "h"),)), rs, NO_DICE)
    (short,) = [e for e in out.events if isinstance(e, MusterShortfall)]
    assert short.kind_ids == ("OG",)


def test_r_pbp_dead_03_a_missed_deadline_musters_and_reports_losses() -> None:
    """R-PBP-DEAD-03, R-MUSTER-01: the Orcs miss their deadline in step 5 with an Orc and an
    Ogre bought and Orc infantry only in p1: the bot places the Orc in p1 and reports the Ogre
    lost (no Ogre infantry in a hill province, R-RACE-OGR-01)."""
    rs = _rs()
    st = _at_buy(rs, "ORC", [("OT", "p1")])
    st = apply(st, BuyUnits("ORC", "OT", 1), rs, NO_DICE).state
    st = apply(st, BuyUnits("ORC", "OG", 1), rs, NO_DICE).state
    out = apply(st, ForfeitTurn("ORC"), rs, NO_DICE)
    (placed,) = [e for e in out.events if isinstance(e, UnitsMustered)]
    assert [(k, p) for _, k, p in placed.units] == [("OT", "p1")]
    (lost,) = [e for e in out.events if isinstance(e, PurchaseLost)]
    assert lost.kind_ids == ("OG",) and "R-RACE-OGR-01" in lost.reasons[0][1]


def test_r_magic_summ_02_summoned_units_vanish_at_another_factions_muster_step() -> None:
    """R-MAGIC-SUMM-02: a Wood Elf Fire Elemental (summoned) stands in h beside the Druid when
    the Lizardmen's step 7 ends; their step 8 begins and the elemental vanishes; the Druid
    stays."""
    rs = _rs()
    st = state(
        rs,
        units=[("WD", "WEL", "h"), ("WF", "WEL", "h"), ("LI", "LIZ", "p1")],
        owners={"h": "WEL", "p1": "LIZ"},
        active="LIZ",
        step=Step.COMBAT,
    )
    out = apply(st, EndStep("LIZ"), rs, NO_DICE)
    (gone,) = [e for e in out.events if isinstance(e, SummonsVanished)]
    assert gone.faction == "LIZ" and gone.units == ((2, "WF", "h", "WEL"),)
    assert [u.kind for u in out.state.units_of("WEL")] == ["WD"]
