"""Elimination and victory (R-VIC-01, R-VIC-03, R-VIC-05, R-FEAL-05).

Elimination and victory at the start of a turn, played through StartCampaign, are scenario
files in tests/scenarios/victory/; what stays here calls the checks and the scoring directly.
"""

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.victory import (
    CampaignEnded,
    FactionEliminated,
    Score,
    check_military_victory,
    elimination_check,
    end_campaign,
    scores,
)
from tests.rules.builders import kind, ruleset, state, with_options


def _rs(**options: object) -> Ruleset:
    rs = ruleset(
        provinces={
            "a": ("plains",),
            "b": ("plains",),
            "c": ("hills",),
            "archursia": ("plains",),
            "e1": ("forest",),
        },
        rp={"a": 3, "b": 2, "c": 1, "archursia": 4, "e1": 2},
        islands={"e1": "estlon"},
        kinds=[
            kind("DI", "DAW"),
            kind("DT", "DAW", "tower"),
            kind("OT", "ORC"),
            kind("OW", "ORC", "cavalry"),
            kind("WI", "WEL"),
            kind("AI", "ACH"),
            kind("HI", "HEL"),
        ],
    )
    return with_options(rs, **options) if options else rs


def test_r_vic_05_faction_without_units_is_eliminated_and_loses_everything() -> None:
    """R-VIC-05: the Orcs have no unit: they are eliminated, c becomes unowned, their RP and
    commodities are gone, their alliance with the Wood Elves ends. R-FEAL-05: the Dawnians,
    their vassal, are released."""
    rs = _rs()
    st = state(
        rs,
        units=[("DI", "DAW", "a"), ("WI", "WEL", "b")],
        owners={"a": "DAW", "c": "ORC"},
        rp={"ORC": 9},
        in_play=["DAW", "ORC", "WEL"],
    )
    st.factions["ORC"].commodities = {"iron": 2}
    st.alliances = [["ORC", "WEL"]]
    st.fealty = {"DAW": "ORC"}
    events = elimination_check(st, rs)
    assert events == [FactionEliminated("ORC", 1, ("c",), ("DAW",))]
    orc = st.factions["ORC"]
    assert orc.eliminated and orc.rp == 0 and orc.commodities == {}
    assert st.owners == {"a": "DAW"}
    assert st.alliances == [] and st.fealty == {}


def test_r_vic_05_archursia_and_estlon_keep_a_faction_alive_without_units() -> None:
    """R-VIC-05: the Acherousians owning Archursia and the High Elves owning an Estlon province
    could muster with no unit there, so they stay; the Orcs owning c do not."""
    rs = _rs()
    st = state(
        rs,
        units=[("DI", "DAW", "a")],
        owners={"archursia": "ACH", "e1": "HEL", "c": "ORC"},
        in_play=["DAW", "ORC", "HEL", "ACH"],
    )
    events = elimination_check(st, rs)
    assert [e.faction for e in events if isinstance(e, FactionEliminated)] == ["ORC"]
    assert not st.factions["ACH"].eliminated and not st.factions["HEL"].eliminated


def test_r_vic_01_not_while_two_factions_have_units() -> None:
    """R-VIC-01: no military victory while units of two factions (two players) are on the board."""
    rs = _rs()
    st = state(rs, units=[("DI", "DAW", "a"), ("OT", "ORC", "c")])
    assert check_military_victory(st, rs) == []
    assert not st.finished


def test_r_vic_03_score_is_provinces_plus_fortifications() -> None:
    """R-VIC-03: DAW owns a, b (a holds its Tower): 2 + 1 = 3 points; ORC owns c and archursia:
    2 points. DAW wins."""
    rs = _rs()
    st = state(
        rs,
        units=[("DI", "DAW", "a"), ("DT", "DAW", "a"), ("OT", "ORC", "c")],
        owners={"a": "DAW", "b": "DAW", "c": "ORC", "archursia": "ORC"},
        in_play=["DAW", "ORC"],
    )
    ranked = scores(st, rs)
    assert ranked == [Score("DAW", 3, 2, 1, 5, 21), Score("ORC", 2, 2, 0, 5, 3)]
    (event,) = end_campaign(st, rs, reason="turn_limit")
    assert isinstance(event, CampaignEnded) and event.winners == ("DAW",)


def test_r_vic_03_ties_go_to_rp_income_then_unit_cost() -> None:
    """R-VIC-03: DAW owns a (3 RP), ORC owns c (1 RP): 1 point each; DAW's income 3 > 1 wins.
    Then with b (2 RP) for DAW and e1 (2 RP) for ORC: 1 point and 2 RP each; ORC's cavalry (5)
    outweighs DAW's infantry (3): ORC wins."""
    rs = _rs()
    st = state(
        rs,
        units=[("DI", "DAW", "a"), ("OW", "ORC", "c")],
        owners={"a": "DAW", "c": "ORC"},
        in_play=["DAW", "ORC"],
    )
    assert end_campaign(st.clone(), rs, reason="turn_limit")[0] == CampaignEnded(
        1, "turn_limit", ("DAW",), tuple(scores(st, rs))
    )
    st.owners = {"b": "DAW", "e1": "ORC"}
    (event,) = end_campaign(st, rs, reason="turn_limit")
    assert isinstance(event, CampaignEnded) and event.winners == ("ORC",)


def test_r_vic_03_vassal_provinces_count_for_the_liege() -> None:
    """R-VIC-03: the Orcs, vassal of the Dawnians, own c and archursia: the Dawnians score
    a + c + archursia = 3."""
    rs = _rs()
    st = state(
        rs,
        units=[("DI", "DAW", "a"), ("OT", "ORC", "c")],
        owners={"a": "DAW", "c": "ORC", "archursia": "ORC"},
        in_play=["DAW", "ORC"],
    )
    st.fealty = {"ORC": "DAW"}
    assert scores(st, rs)[0] == Score("DAW", 3, 3, 0, 8, 3)


def test_r_vic_03_option_score_mode_rp_income() -> None:
    """R-VIC-03 option score_mode=rp_income: the points are RP income: DAW's a and b give
    3 + 2 = 5 points, ORC's archursia 4."""
    rs = _rs(score_mode="rp_income")
    st = state(
        rs,
        units=[("DI", "DAW", "a"), ("OT", "ORC", "c")],
        owners={"a": "DAW", "b": "DAW", "archursia": "ORC"},
        in_play=["DAW", "ORC"],
    )
    assert [(s.faction, s.points) for s in scores(st, rs)] == [("DAW", 5), ("ORC", 4)]


def test_exact_tie_shares_the_win() -> None:
    rs = _rs()
    st = state(
        rs,
        units=[("DI", "DAW", "b"), ("OT", "ORC", "e1")],
        owners={"b": "DAW", "e1": "ORC"},
        in_play=["DAW", "ORC"],
    )
    (event,) = end_campaign(st, rs, reason="turn_limit")
    assert isinstance(event, CampaignEnded) and event.winners == ("DAW", "ORC")
