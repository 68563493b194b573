"""Neighbours (R-PBP-NEG-02), as used by trade's ``trade_requires_neighbour`` (R-TRADE-01).

The map, drawn by hand::

    a --- b ~~river~~ c          (a-b land border, b-c a river border)
                      |
                     s1 ---- s2  (sea zones; s1 touches c and d, s2 touches e)
                      |       |
                      d       e  (islands)
"""

from __future__ import annotations

from caedes_bot.gamedata.model import Options, Ruleset, river_edge_id
from caedes_bot.rules.diplomacy import (
    NoTalks,
    adjacent_spaces,
    neighbour_pairs,
    neighbours,
    why_no_talks,
)
from caedes_bot.rules.state import GameState, Unit
from tests.rules.builders import kind, ruleset, state


def _rs() -> Ruleset:
    return ruleset(
        provinces={p: ("plains",) for p in "abcde"},
        borders=[("a", "b")],
        rivers=[("b", "c")],
        coasts=[("c", "s1"), ("d", "s1"), ("e", "s2")],
        sea_borders=[("s1", "s2")],
        kinds=[kind("X", f) for f in ("DAW", "ORC", "WEL", "LIZ", "DWA", "HEL")],
    )


def _state(rs: Ruleset, owners: dict[str, str], *, via_sea: bool = True) -> GameState:
    st = state(rs, owners=owners, in_play=["DAW", "ORC", "WEL", "LIZ", "DWA", "HEL"])
    st.options = Options(neighbour_via_sea=via_sea)
    return st


def _place(st: GameState, owner: str, space: str) -> None:
    uid = st.new_id()
    st.units[str(uid)] = Unit(id=uid, kind="X", owner=owner, location=space)


def test_r_pbp_neg_02_land_border_makes_neighbours() -> None:
    """R-PBP-NEG-02: owners of provinces with a land border are neighbours, both ways."""
    rs = _rs()
    st = _state(rs, {"a": "DAW", "b": "ORC", "c": "WEL"})
    assert neighbours(st, rs, "DAW", "ORC")
    assert neighbours(st, rs, "ORC", "DAW")
    assert not neighbours(st, rs, "DAW", "WEL")  # a and c do not touch


def test_r_pbp_neg_01_02_why_two_factions_may_not_negotiate() -> None:
    """R-PBP-NEG-01, R-PBP-NEG-02: a faction negotiates with its neighbours only, never with
    itself; the rules give the reason with its rule."""
    rs = _rs()
    st = _state(rs, {"a": "DAW", "b": "ORC", "c": "WEL"})
    assert why_no_talks(st, rs, "DAW", "ORC") is None
    assert why_no_talks(st, rs, "DAW", "DAW") is NoTalks.SAME_FACTION
    assert why_no_talks(st, rs, "DAW", "WEL") is NoTalks.NOT_NEIGHBOURS
    assert NoTalks.SAME_FACTION.rule == "R-PBP-NEG-01"
    assert NoTalks.NOT_NEIGHBOURS.rule == "R-PBP-NEG-02"


def test_r_pbp_neg_02_river_border_counts() -> None:
    """R-PBP-NEG-02: a river border makes neighbours even without sea links."""
    rs = _rs()
    st = _state(rs, {"b": "ORC", "c": "WEL"}, via_sea=False)
    assert neighbours(st, rs, "ORC", "WEL")


def test_r_pbp_neg_02_provinces_on_one_sea_zone_are_neighbours_only_via_sea() -> None:
    """R-PBP-NEG-02: two provinces touching one sea zone make neighbours only under
    `neighbour_via_sea`.
    """
    rs = _rs()
    assert neighbours(_state(rs, {"c": "WEL", "d": "LIZ"}), rs, "WEL", "LIZ")
    assert not neighbours(_state(rs, {"c": "WEL", "d": "LIZ"}, via_sea=False), rs, "WEL", "LIZ")


def test_r_pbp_neg_02_provinces_on_touching_sea_zones_are_not_neighbours() -> None:
    """R-PBP-NEG-02: d is on s1, e on s2: the seas touch, but the provinces share no sea zone."""
    rs = _rs()
    assert not neighbours(_state(rs, {"d": "LIZ", "e": "HEL"}), rs, "LIZ", "HEL")


def test_r_pbp_neg_02_a_fleet_counts_where_it_is() -> None:
    """R-PBP-NEG-02: A HEL ship in s1 touches d (LIZ) via the sea; without sea links only the same
    space counts.
    """
    rs = _rs()
    st = _state(rs, {"d": "LIZ", "e": "HEL"})
    _place(st, "HEL", "s1")
    assert neighbours(st, rs, "HEL", "LIZ")
    st_land = _state(rs, {"d": "LIZ", "e": "HEL"}, via_sea=False)
    _place(st_land, "HEL", "s1")
    assert not neighbours(st_land, rs, "HEL", "LIZ")
    _place(st_land, "LIZ", "s1")
    assert neighbours(st_land, rs, "HEL", "LIZ")


def test_r_pbp_neg_02_units_in_anothers_province_make_neighbours() -> None:
    """R-PBP-NEG-02: units standing in another faction's province make the two neighbours."""
    rs = _rs()
    st = _state(rs, {"a": "DAW", "e": "HEL"}, via_sea=False)
    assert not neighbours(st, rs, "DAW", "HEL")
    _place(st, "HEL", "a")
    assert neighbours(st, rs, "DAW", "HEL")


def test_r_pbp_neg_02_a_ship_on_a_river_edge_touches_both_banks() -> None:
    """R-PBP-NEG-02: a unit on a river edge touches the provinces on both banks."""
    rs = _rs()
    edge = river_edge_id("b", "c")
    assert adjacent_spaces(rs.map, edge, via_sea=False) == {"b", "c"}
    st = _state(rs, {"b": "ORC"}, via_sea=False)
    _place(st, "DWA", edge)
    assert neighbours(st, rs, "DWA", "ORC")


def test_r_pbp_neg_02_nobody_neighbours_itself_or_a_faction_with_nothing() -> None:
    """R-PBP-NEG-02: no faction neighbours itself, nor one with no province and no unit."""
    rs = _rs()
    st = _state(rs, {"a": "DAW", "b": "ORC"})
    assert not neighbours(st, rs, "DAW", "DAW")
    assert not neighbours(st, rs, "DAW", "DWA")


def test_r_pbp_neg_02_all_pairs() -> None:
    """R-PBP-NEG-02: every pair of neighbours, sorted; an eliminated faction has none."""
    rs = _rs()
    st = _state(rs, {"a": "DAW", "b": "ORC", "c": "WEL", "d": "LIZ", "e": "HEL"})
    assert neighbour_pairs(st, rs) == [["DAW", "ORC"], ["LIZ", "WEL"], ["ORC", "WEL"]]
    st.factions["ORC"].eliminated = True
    assert neighbour_pairs(st, rs) == [["LIZ", "WEL"]]
