"""Round-1 reach and exposure (caedes_bot.gamedata.balance), on hand-made maps and on the
default scenario, whose balance docs/scenarios.md explains."""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.balance import (
    allowance,
    exposure,
    first_turn_income,
    round_one_reach,
    water_within,
)
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import ARCHURSIA, ESTLON, Ruleset, river_edge_id
from tests.rules.builders import kind, ruleset, with_scenario

# A line of provinces a-b-c-d-e; e touches sea s1; s1 touches s2 and s3 in a row (s1-s2-s3);
# f (island x) touches s1; g (island y) touches s2; h (island z) touches s3.
KINDS = [
    kind("INF", "DAW", "infantry"),
    kind("FLY", "DAW", "cavalry", ["flying"]),
    kind("CAV", "ORC", "cavalry"),
    kind("QCAV", "HEL", "cavalry", ["quick"]),
    kind("SLOWCAV", "ACH", "cavalry", ["slow"], race="undead"),
    kind("SLOWINF", "ACH", "infantry", ["slow"]),
    kind("AMPH", "LIZ", "infantry", ["amphibian"]),
    kind("LIZINF", "LIZ", "infantry"),
    kind("SHIP", "LIZ", "ship", race=None),
    kind("TOWER", "DAW", "tower", race=None),
]


def line_map() -> Ruleset:
    return ruleset(
        provinces={
            "a": ("plains",),
            "b": ("plains",),
            "c": ("hills",),
            "d": ("plains",),
            "e": ("swamp",),
            "f": ("swamp",),
            "g": ("plains",),
            "h": ("plains",),
        },
        borders=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")],
        coasts=[("e", "s1"), ("f", "s1"), ("g", "s2"), ("h", "s3")],
        sea_borders=[("s1", "s2"), ("s2", "s3")],
        islands={"f": "x", "g": "y", "h": "z"},
        kinds=KINDS,
        rp={"a": 3, "b": 2, "d": 4},
    )


def test_allowance_r_attr_quick_01_r_attr_slow_01() -> None:
    """Type move, +1 Quick, -1 Slow never below 1 (R-MOVE-01, R-ATTR-QUICK-01, R-ATTR-SLOW-01)."""
    rs = line_map()
    assert allowance(rs.units["INF"]) == 1
    assert allowance(rs.units["CAV"]) == 2
    assert allowance(rs.units["QCAV"]) == 3
    assert allowance(rs.units["SLOWCAV"]) == 1
    assert allowance(rs.units["SLOWINF"]) == 1
    with pytest.raises(ValueError, match="never moves"):
        allowance(rs.units["TOWER"])


def test_reach_by_land_r_move_01() -> None:
    """R-MOVE-01, R-ATTR-QUICK-01: cavalry at a reaches a, b, c (two steps); quick cavalry at a
    reaches d too.
    """
    rs = with_scenario(
        line_map(),
        factions={"ORC": (0, {}), "HEL": (0, {})},
        units=[("CAV", "a", 1), ("QCAV", "a", 1)],
    )
    reach = round_one_reach(rs, rs.scenarios["test"])
    assert reach["ORC"] == {"a", "b", "c"}
    assert reach["HEL"] == {"a", "b", "c", "d"}


def test_reach_by_amphibian_crossing_r_attr_amph_01() -> None:
    """R-ATTR-AMPH-01, R-MOVE-09: an Amphibian at e crosses s1 to island f; without Amphibian it
    cannot.
    """
    rs = with_scenario(line_map(), factions={"LIZ": (0, {})}, units=[("AMPH", "e", 1)])
    assert round_one_reach(rs, rs.scenarios["test"])["LIZ"] == {"d", "e", "f"}
    rs = with_scenario(line_map(), factions={"LIZ": (0, {})}, units=[("LIZINF", "e", 1)])
    assert round_one_reach(rs, rs.scenarios["test"])["LIZ"] == {"d", "e"}


def test_reach_by_flying_r_attr_fly_01() -> None:
    """R-ATTR-FLY-01: A flyer at c: 4 spaces over land and sea: c-d-e-s1-f reaches island f (4
    steps), but g needs c-d-e-s1-s2-g (5 steps) and stays out of reach.
    """
    rs = with_scenario(line_map(), factions={"DAW": (0, {})}, units=[("FLY", "c", 1)])
    assert round_one_reach(rs, rs.scenarios["test"])["DAW"] == {"a", "b", "c", "d", "e", "f"}


def test_reach_by_ship_r_move_15_r_move_18() -> None:
    """A ship in s1 moves 2 (s1 -> s2 -> s3); an infantry unit at e beside s1 embarks and can
    land on any province beside s1, s2 or s3: e, f, g, h (R-MOVE-15, R-MOVE-18)."""
    rs = with_scenario(
        line_map(), factions={"LIZ": (0, {})}, units=[("LIZINF", "e", 1), ("SHIP", "s1", 1)]
    )
    assert round_one_reach(rs, rs.scenarios["test"])["LIZ"] == {"d", "e", "f", "g", "h"}
    # with nobody beside the water the ship can reach, the ship lands nobody
    rs = with_scenario(
        line_map(), factions={"LIZ": (0, {})}, units=[("LIZINF", "c", 1), ("SHIP", "s1", 1)]
    )
    assert round_one_reach(rs, rs.scenarios["test"])["LIZ"] == {"b", "c", "d"}


def test_water_within_follows_navigable_rivers_r_move_13() -> None:
    """p|q and q|r are navigable edges of one river, q|r its mouth on s1: a ship in s1 reaches
    q|r in one move and p|q in two (R-MOVE-13)."""
    rs = ruleset(
        provinces={"p": ("plains",), "q": ("plains",), "r": ("plains",)},
        borders=[("p", "r")],
        navigable=[("p", "q"), ("q", "r")],
        mouths={("q", "r"): "s1"},
        coasts=[("q", "s1"), ("r", "s1")],
    )
    assert water_within(rs.map, "s1", 1) == {"s1", river_edge_id("q", "r")}
    assert water_within(rs.map, "s1", 2) == {
        "s1",
        river_edge_id("q", "r"),
        river_edge_id("p", "q"),
    }


def test_exposure_worked_example_r_coll_04_r_upk_01() -> None:
    """DAW holds a (2 infantry) and b (1 infantry); ORC holds d (1 cavalry).
    ORC cavalry reaches b, c, d, e: b is threatened, the 2 units at a are safe, 1 attacker.
    DAW infantry at b reaches a, b, c: d is safe. Income a 3 + b 2 = 5 and d = 4 (R-COLL-04);
    upkeep ceil(3/6) = 1 and ceil(1/6) = 1 (R-UPK-01)."""
    rs = with_scenario(
        line_map(),
        factions={"DAW": (0, {}), "ORC": (0, {})},
        owners={"a": "DAW", "b": "DAW", "d": "ORC"},
        units=[("INF", "a", 2), ("INF", "b", 1), ("CAV", "d", 1)],
    )
    daw, orc = exposure(rs, rs.scenarios["test"])
    assert (daw.faction, daw.provinces, daw.units) == ("DAW", ("a", "b"), 3)
    assert daw.threatened == ("b",)
    assert (daw.safe_units, daw.attackers, daw.income, daw.upkeep) == (2, 1, 5, 1)
    assert orc.threatened == ()
    assert (orc.safe_units, orc.attackers, orc.income, orc.upkeep) == (1, 0, 4, 1)


def test_exposure_counts_ship_riders_by_capacity_r_move_14() -> None:
    """Three LIZ infantry at e beside their ship in s1; DAW holds island g beside s2. At most
    two of them ride the one ship (R-MOVE-14): 2 attackers."""
    rs = with_scenario(
        line_map(),
        factions={"DAW": (0, {}), "LIZ": (0, {})},
        owners={"g": "DAW", "e": "LIZ"},
        units=[("INF", "g", 1), ("LIZINF", "e", 3), ("SHIP", "s1", 1)],
    )
    daw, _ = exposure(rs, rs.scenarios["test"])
    assert daw.threatened == ("g",)
    assert daw.attackers == 2
    assert daw.safe_units == 0


def test_first_turn_income_needs_a_garrison_r_coll_04() -> None:
    """R-COLL-04 with income_requires_garrison: an owned province with no unit yields nothing."""
    rs = with_scenario(
        line_map(),
        factions={"DAW": (0, {})},
        owners={"a": "DAW", "b": "DAW"},
        units=[("INF", "a", 1)],
    )
    assert first_turn_income(rs, rs.scenarios["test"], "DAW") == 3


# --- the default scenario ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped() -> Ruleset:
    return load_ruleset()


def test_default_nobody_can_be_eliminated_in_round_1_r_vic_05(shipped: Ruleset) -> None:
    """R-VIC-05 eliminates a faction with no units at the start of a turn. Every faction keeps at
    least three units in provinces no rival could enter in game round 1 (generous reach), so
    none can be eliminated then; Archursia and Silverhaven, the Acherousian and High Elven
    capitals, are out of reach."""
    scenario = shipped.scenarios["default"]
    table = {e.faction: e for e in exposure(shipped, scenario)}
    assert set(table) == set(scenario.faction_codes)
    for entry in table.values():
        assert entry.safe_units >= 3, entry
    assert ARCHURSIA not in table["ACH"].threatened
    assert "silverhaven" not in table["HEL"].threatened
    assert any(
        p not in table["HEL"].threatened
        for p in table["HEL"].provinces
        if shipped.map.provinces[p].island == ESTLON
    )


def test_default_income_per_faction_r_coll_04(shipped: Ruleset) -> None:
    """RP per turn counted by hand from map.toml and default.toml; every owned province starts
    garrisoned, so the first collection pays all of them (R-COLL-04).
    DAW 5+3+3+3+2, ORC 4+2+2+4+2+2, WEL 5+3+2+3+4, LIZ 4+2+3+4+2+2, DWA 7+3+2+2, HEL 6+3+3+2,
    ACH 7+3+3+2+2+3."""
    scenario = shipped.scenarios["default"]
    income = {e.faction: e.income for e in exposure(shipped, scenario)}
    assert income == {
        "DAW": 16,
        "ORC": 16,
        "WEL": 17,
        "LIZ": 17,
        "DWA": 14,
        "HEL": 14,
        "ACH": 20,
    }
