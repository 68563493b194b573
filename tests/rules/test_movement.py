"""Movement over land, step 6 (R-MOVE-01..12, R-MOVE-22 and the attribute movement rules).

Every map is written out in the test; allowances come from the unit-type table (infantry 1,
cavalry 2) and R-ATTR-QUICK-01 / R-ATTR-SLOW-01.
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Terrain
from caedes_bot.rules.combat import ProvinceCaptured
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import (
    IllegalMove,
    NotBuiltYet,
    NotYourTurn,
    RuleViolation,
    UnknownName,
    WrongStep,
)
from caedes_bot.rules.movement import (
    MoveUnits,
    UnitsMoved,
    legal_destinations,
    movable_units,
)
from caedes_bot.rules.state import GameState, Step
from tests.rules.builders import kind, ruleset, state, with_options

KINDS = [
    kind("INF", "DAW"),
    kind("CAV", "DAW", "cavalry"),
    kind("TWR", "DAW", "tower"),
    kind("SHIP", "DAW", "ship"),
    kind("SCOUT", "DAW", attributes=["quick", "woodlore", "meek"]),
    kind("SLOWCAV", "DAW", "cavalry", ["slow"]),
    kind("WOODCAV", "DAW", "cavalry", ["woodlore"]),
    kind("MTNCAV", "DAW", "cavalry", ["mountainlore"]),
    kind("MTNINF", "DAW", attributes=["quick", "mountainlore"]),
    kind("AMPHCAV", "DAW", "cavalry", ["amphibian"]),
    kind("AMPHINF", "DAW", attributes=["amphibian"]),
    kind("ARCHER", "DAW", attributes=["missile"]),
    kind("RANGER", "DAW", attributes=["missile", "woodlore"]),
    kind("ORCI", "ORC"),
    kind("ORCSHIP", "ORC", "ship"),
    kind("WELI", "WEL"),
]


def move(st: GameState, rs: object, ids: tuple[int, ...], to: str, **kw: object) -> Outcome:
    return apply(st, MoveUnits("DAW", ids, to, **kw), rs, ScriptedDice([]))  # type: ignore[arg-type]


def line_map(**kw: object):  # type: ignore[no-untyped-def]
    """a - b - c - d, all plains, plus what the test adds."""
    provinces = {"a": ("plains",), "b": ("plains",), "c": ("plains",), "d": ("plains",)}
    provinces.update(kw.pop("extra", {}))  # type: ignore[call-overload]
    borders = [("a", "b"), ("b", "c"), ("c", "d"), *kw.pop("more", [])]  # type: ignore[misc]
    return ruleset(provinces=provinces, borders=borders, kinds=KINDS, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- R-MOVE-01


def test_r_move_01_infantry_moves_one_province() -> None:
    """R-MOVE-01: infantry (move 1) enters one adjacent province; two is refused and the refusal
    names what is in reach.
    """
    rs = line_map()
    st = state(rs, units=[("INF", "DAW", "a")])
    out = move(st, rs, (1,), "b")
    unit = out.state.unit(1)
    assert (unit.location, unit.movement_used, unit.entered_from, unit.path) == ("b", 1, "a", ["b"])
    assert out.events == (
        UnitsMoved("DAW", (1,), "a", "b", ("b",), attack=False, terrain=None, move_ended=False),
    )
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "c")
    assert err.value.rule == "R-MOVE-01"
    assert err.value.allowed is not None and "B" in err.value.allowed


def test_r_move_01_cavalry_moves_two_and_may_move_again_with_what_is_left() -> None:
    """R-MOVE-01: cavalry (move 2) goes two provinces, no further; moved one at a time it goes on
    with what is left.
    """
    rs = line_map()
    st = state(rs, units=[("CAV", "DAW", "a")])
    out = move(st, rs, (1,), "c")
    assert out.state.unit(1).path == ["b", "c"]
    assert out.state.unit(1).entered_from == "b"
    assert out.state.unit(1).movement_used == 2
    with pytest.raises(IllegalMove) as err:
        move(out.state, rs, (1,), "d")
    assert err.value.rule == "R-MOVE-01"
    # Two orders of one step each: the unit moves on with its remaining point.
    first = move(st, rs, (1,), "b")
    second = move(first.state, rs, (1,), "c")
    assert second.state.unit(1).path == ["b", "c"]
    assert second.state.unit(1).entered_from == "b"


def test_r_move_01_units_in_one_order_find_their_own_routes() -> None:
    """R-MOVE-01: units need not move as a stack: infantry from b and cavalry from a each reach c by
    their own route.
    """
    rs = line_map()
    st = state(rs, units=[("INF", "DAW", "b"), ("CAV", "DAW", "a")])
    out = move(st, rs, (1, 2), "c")
    assert out.state.unit(1).entered_from == "b"
    assert out.state.unit(2).path == ["b", "c"]
    assert len(out.events) == 2


def test_r_move_01_order_is_all_or_nothing_and_names_the_unit() -> None:
    """R-MOVE-01: if one unit of an order cannot reach the destination the order is refused, naming
    that unit, and nothing moves.
    """
    rs = line_map()
    st = state(rs, units=[("CAV", "DAW", "a"), ("INF", "DAW", "a")])
    before = st.clone()
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1, 2), "c")
    assert "#2" in err.value.message
    assert err.value.rule == "R-MOVE-01"
    assert st == before


def test_r_attr_fort_01_towers_never_move() -> None:
    """R-ATTR-FORT-01, R-MOVE-01: a Tower never moves and is never offered as movable."""
    rs = line_map()
    st = state(rs, units=[("TWR", "DAW", "a")])
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "b")
    assert err.value.rule == "R-ATTR-FORT-01"
    assert movable_units(st, rs, "DAW") == []


def test_r_attr_quick_01_and_slow_01_allowance() -> None:
    """R-ATTR-QUICK-01, R-ATTR-SLOW-01: Quick infantry (1 + 1) reaches c; Slow cavalry (2 - 1)
    reaches only b.
    """
    rs = line_map()
    st = state(rs, units=[("SCOUT", "DAW", "a"), ("SLOWCAV", "DAW", "a")])
    assert move(st, rs, (1,), "c").state.unit(1).location == "c"
    assert set(legal_destinations(st, rs, [2])) == {"b"}


def test_r_move_22_units_mustered_this_turn_cannot_move() -> None:
    """R-MOVE-22: a unit whose move has ended (as when just mustered) cannot move."""
    rs = line_map()
    st = state(rs, units=[("INF", "DAW", "a")])
    st.unit(1).move_ended = True
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "b")
    assert err.value.rule == "R-MOVE-22"


def test_r_turn_03_only_own_units_and_only_the_active_faction_in_step_6() -> None:
    """R-TURN-03, R-MOVE-01: only the active faction moves, only its own units, and only in
    step 6.
    """
    rs = line_map()
    st = state(rs, units=[("ORCI", "ORC", "a"), ("INF", "DAW", "a")])
    with pytest.raises(RuleViolation) as err:
        move(st, rs, (1,), "b")
    assert err.value.rule == "R-TURN-03"
    with pytest.raises(NotYourTurn):
        apply(st, MoveUnits("ORC", (1,), "b"), rs, ScriptedDice([]))
    st.step = Step.BUY
    with pytest.raises(WrongStep):
        move(st, rs, (2,), "b")


def test_unknown_destination_suggests_a_near_name() -> None:
    rs = line_map(extra={"orme": ("plains",)}, more=[("a", "orme")])
    st = state(rs, units=[("INF", "DAW", "a")])
    with pytest.raises(UnknownName) as err:
        move(st, rs, (1,), "ormee")
    assert "Orme" in err.value.suggestions


# --------------------------------------------------------------------------- R-MOVE-02


def test_r_move_02_pass_through_own_and_partner_units() -> None:
    """R-MOVE-02, R-ALLY-03: cavalry passes through a pact partner's units without a battle."""
    rs = line_map()
    st = state(rs, units=[("CAV", "DAW", "a"), ("WELI", "WEL", "b")])
    st.alliances = [["DAW", "WEL"]]
    out = move(st, rs, (1,), "c")
    assert out.state.unit(1).location == "c"
    assert not out.state.unit(1).attacking


def test_r_move_02_enemy_units_stop_the_move_and_make_an_attack() -> None:
    """R-MOVE-02: entering a space with a non-partner's units ends the move and makes an attacker;
    it cannot go on or back.
    """
    rs = line_map()
    st = state(rs, units=[("CAV", "DAW", "a"), ("ORCI", "ORC", "b")])
    assert legal_destinations(st, rs, [1]) == {"b": True}
    out = move(st, rs, (1,), "b")
    unit = out.state.unit(1)
    assert unit.attacking and unit.move_ended
    assert out.events[0].attack  # type: ignore[attr-defined]
    with pytest.raises(IllegalMove) as err:
        move(out.state, rs, (1,), "a")
    assert err.value.rule == "R-MOVE-02"
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "c")
    assert err.value.rule == "R-MOVE-02"


def test_r_move_02_empty_enemy_province_is_passed_and_not_taken() -> None:
    """R-MOVE-02, R-COLL-02: an empty enemy province may be passed through, and passing does not
    take it.
    """
    rs = line_map()
    st = state(rs, units=[("CAV", "DAW", "a")], owners={"b": "ORC"})
    out = move(st, rs, (1,), "c")
    assert out.state.owner("b") == "ORC"
    assert out.state.owner("c") is None


def test_route_prefers_shortest_then_provinces_without_other_factions() -> None:
    """R-MOVE-01: a -> {b, c} -> d; b holds partner units, c is empty: go through c."""
    rs = ruleset(
        provinces={p: ("plains",) for p in "abcd"},
        borders=[("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")],
        kinds=KINDS,
    )
    st = state(rs, units=[("CAV", "DAW", "a"), ("WELI", "WEL", "b")])
    st.alliances = [["DAW", "WEL"]]
    assert move(st, rs, (1,), "d").state.unit(1).path == ["c", "d"]
    # Without the partner, both are equal and the first by id wins.
    st2 = state(rs, units=[("CAV", "DAW", "a")])
    assert move(st2, rs, (1,), "d").state.unit(1).path == ["b", "d"]


def test_r_move_13_enemy_ship_on_a_river_edge_occupies_the_province() -> None:
    """R-MOVE-13: an Orc ship on a river edge of b makes entering b an attack; with
    `river_ship_occupies` off it does not.
    """
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("plains",)},
        borders=[("a", "b")],
        navigable=[("b", "c")],
        kinds=KINDS,
    )
    st = state(rs, units=[("INF", "DAW", "a"), ("ORCSHIP", "ORC", "river:b|c")])
    assert legal_destinations(st, rs, [1]) == {"b": True}
    calm = with_options(rs, river_ship_occupies=False)
    st2 = state(calm, units=[("INF", "DAW", "a"), ("ORCSHIP", "ORC", "river:b|c")])
    assert legal_destinations(st2, calm, [1]) == {"b": False}


# --------------------------------------------------------------------------- terrain


def test_r_move_05_cavalry_into_forest_costs_entire_movement() -> None:
    """R-MOVE-05, R-MOVE-04: cavalry without Woodlore enters forest only with its entire movement,
    as its first step.
    """
    rs = line_map(extra={"f": ("forest",)}, more=[("a", "f"), ("b", "f")])
    st = state(rs, units=[("CAV", "DAW", "a")])
    out = move(st, rs, (1,), "f")
    unit = out.state.unit(1)
    assert (unit.movement_used, unit.move_ended) == (2, True)
    # Not after a first step (default entire_move_mode = full_allowance, R-MOVE-04).
    st2 = state(rs, units=[("CAV", "DAW", "a")])
    first = move(st2, rs, (1,), "b")
    with pytest.raises(IllegalMove) as err:
        move(first.state, rs, (1,), "f")
    assert err.value.rule == "R-MOVE-05"


def test_r_move_04_stop_on_entry_lets_entire_movement_come_later() -> None:
    """R-MOVE-04: with `entire_move_mode` stop_on_entry cavalry may enter forest after a first step,
    and stops there.
    """
    rs = with_options(
        line_map(extra={"f": ("forest",)}, more=[("b", "f")]), entire_move_mode="stop_on_entry"
    )
    st = state(rs, units=[("CAV", "DAW", "a")])
    out = move(st, rs, (1,), "f")
    assert out.state.unit(1).path == ["b", "f"]
    assert out.state.unit(1).move_ended


def test_r_move_04_full_allowance_refuses_a_late_forest_entry() -> None:
    """R-MOVE-04, R-MOVE-05: by default (full_allowance) forest cannot be entered as a second
    step.
    """
    rs = line_map(extra={"f": ("forest",)}, more=[("b", "f")])
    st = state(rs, units=[("CAV", "DAW", "a")])
    assert "f" not in legal_destinations(st, rs, [1])


def test_r_attr_wood_01_woodlore_cavalry_rides_through_forest() -> None:
    """R-ATTR-WOOD-01, R-MOVE-05: Woodlore cavalry ignores the forest cost and rides on; other
    cavalry stops there.
    """
    rs = ruleset(
        provinces={"a": ("plains",), "f": ("forest",), "c": ("plains",)},
        borders=[("a", "f"), ("f", "c")],
        kinds=KINDS,
    )
    st = state(rs, units=[("WOODCAV", "DAW", "a"), ("CAV", "DAW", "a")])
    assert move(st, rs, (1,), "c").state.unit(1).path == ["f", "c"]
    assert "c" not in legal_destinations(st, rs, [2])


def test_r_move_06_cavalry_never_enters_mountains_without_mountainlore() -> None:
    """R-MOVE-06: cavalry without Mountainlore may not enter mountains."""
    rs = line_map(extra={"m": ("mountains",)}, more=[("a", "m")])
    st = state(rs, units=[("CAV", "DAW", "a")])
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "m")
    assert err.value.rule == "R-MOVE-06"


def test_r_attr_mtn_01_mountainlore_cavalry_enters_at_entire_cost() -> None:
    """R-ATTR-MTN-01, R-MOVE-06: Mountainlore cavalry enters mountains with its entire movement, as
    its first step only.
    """
    rs = line_map(extra={"m": ("mountains",)}, more=[("a", "m"), ("b", "m")])
    st = state(rs, units=[("MTNCAV", "DAW", "a")])
    out = move(st, rs, (1,), "m")
    assert (out.state.unit(1).movement_used, out.state.unit(1).move_ended) == (2, True)
    first = move(st, rs, (1,), "b")
    with pytest.raises(IllegalMove) as err:
        move(first.state, rs, (1,), "m")
    assert err.value.rule == "R-ATTR-MTN-01"


def test_r_move_06_infantry_pays_entire_movement_for_mountains_mountainlore_or_not() -> None:
    """R-MOVE-06, R-ATTR-MTN-01: infantry pays its entire movement for mountains, Mountainlore or
    not: Quick Mountainlore infantry (allowance 2) can enter only as its first step.
    """
    rs = line_map(extra={"m": ("mountains",)}, more=[("a", "m"), ("b", "m")])
    st = state(rs, units=[("MTNINF", "DAW", "a")])
    out = move(st, rs, (1,), "m")
    assert (out.state.unit(1).movement_used, out.state.unit(1).move_ended) == (2, True)
    assert "m" in legal_destinations(st, rs, [1])
    first = move(st, rs, (1,), "b")
    assert "m" not in legal_destinations(first.state, rs, [1])


def test_r_move_07_swamp_costs_cavalry_entire_movement_unless_amphibian() -> None:
    """R-MOVE-07, R-ATTR-AMPH-04: cavalry enters swamp with its entire movement; Amphibian cavalry
    rides on through.
    """
    rs = ruleset(
        provinces={"a": ("plains",), "s": ("swamp",), "c": ("plains",)},
        borders=[("a", "s"), ("s", "c")],
        kinds=KINDS,
    )
    st = state(rs, units=[("CAV", "DAW", "a"), ("AMPHCAV", "DAW", "a")])
    assert set(legal_destinations(st, rs, [1])) == {"s"}
    assert move(st, rs, (1,), "s").state.unit(1).move_ended
    # R-ATTR-AMPH-04: Amphibian ignores the swamp cost.
    assert move(st, rs, (2,), "c").state.unit(2).path == ["s", "c"]


def test_r_move_08_plains_and_hills_cost_nothing_extra() -> None:
    """R-MOVE-08: hills cost nothing extra: cavalry rides a -> h -> c and its move has not ended."""
    rs = ruleset(
        provinces={"a": ("plains",), "h": ("hills",), "c": ("plains",)},
        borders=[("a", "h"), ("h", "c")],
        kinds=KINDS,
    )
    st = state(rs, units=[("CAV", "DAW", "a")])
    out = move(st, rs, (1,), "c")
    assert out.state.unit(1).path == ["h", "c"]
    assert not out.state.unit(1).move_ended


def test_r_move_12_river_crossing_costs_entire_movement() -> None:
    """R-MOVE-12, R-MOVE-04, R-ATTR-AMPH-04: crossing a river costs the entire movement, as a first
    step only; Amphibian units ignore it; a river into forest costs one entire-movement
    expenditure.
    """
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("plains",), "f": ("forest",)},
        borders=[("a", "b")],
        rivers=[("b", "c"), ("a", "f")],
        kinds=KINDS,
    )
    st = state(rs, units=[("CAV", "DAW", "b"), ("AMPHCAV", "DAW", "a"), ("CAV", "DAW", "a")])
    out = move(st, rs, (1,), "c")
    assert (out.state.unit(1).movement_used, out.state.unit(1).move_ended) == (2, True)
    # R-ATTR-AMPH-04: Amphibian crosses at no extra cost and rides on.
    assert move(st, rs, (2,), "c").state.unit(2).path == ["b", "c"]
    # Not as a second step.
    assert "c" not in legal_destinations(st, rs, [3])
    # A river into forest costs one single entire-movement expenditure: still possible.
    assert move(st, rs, (3,), "f").state.unit(3).movement_used == 2


def test_r_attr_fly_02_a_flyer_may_make_a_normal_move_ignoring_rivers() -> None:
    """R-ATTR-FLY-02, R-MOVE-12: a Flying cavalry unit (move 2) makes a normal move from a
    across the river a|b at no extra cost and on to c: path b, c, 2 used, its move not ended.
    Plain cavalry pays its entire movement for the river and stops in b."""
    flyer = kind("FLYCAV", "DAW", "cavalry", ["flying"])
    rs = ruleset(
        provinces={p: ("plains",) for p in "abc"},
        borders=[("b", "c")],
        rivers=[("a", "b")],
        kinds=[*KINDS, flyer],
    )
    st = state(rs, units=[("FLYCAV", "DAW", "a"), ("CAV", "DAW", "a")])
    unit = move(st, rs, (1,), "c").state.unit(1)
    assert (unit.path, unit.movement_used, unit.move_ended) == (["b", "c"], 2, False)
    assert legal_destinations(st, rs, [2]) == {"b": False}


def test_r_move_09_never_into_a_sea_zone_over_land() -> None:
    """R-MOVE-09: infantry may not move into a sea zone."""
    rs = line_map(coasts=[("a", "sea")])
    st = state(rs, units=[("INF", "DAW", "a"), ("AMPHINF", "DAW", "a")])
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "sea")
    assert err.value.rule == "R-MOVE-09"
    with pytest.raises(NotBuiltYet) as err2:
        move(st, rs, (2,), "sea")
    assert err2.value.rule == "R-ATTR-AMPH-01"


def test_r_move_10_islands_have_no_land_route() -> None:
    """R-MOVE-10: an island has no land border, so no land move reaches it."""
    rs = line_map(extra={"isle": ("plains",)}, coasts=[("a", "sea"), ("isle", "sea")])
    st = state(rs, units=[("INF", "DAW", "a")])
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "isle")
    assert err.value.rule == "R-MOVE-10"


def test_ships_and_cargo_are_not_built_yet() -> None:
    rs = line_map(coasts=[("a", "sea")])
    st = state(rs, units=[("SHIP", "DAW", "sea"), ("INF", "DAW", "sea")])
    st.unit(2).aboard = 1
    with pytest.raises(NotBuiltYet) as err:
        move(st, rs, (1,), "a")
    assert err.value.rule == "R-MOVE-18"
    with pytest.raises(NotBuiltYet) as err:
        move(st, rs, (2,), "a")
    assert err.value.rule == "R-MOVE-15"


# --------------------------------------------------------------------------- R-MOVE-03


def _mixed_map():  # type: ignore[no-untyped-def]
    return ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "x": ("plains", "forest")},
        borders=[("a", "b"), ("b", "x"), ("a", "x")],
        kinds=KINDS,
    )


def test_r_move_03_rules_pick_the_best_terrain_for_each_unit() -> None:
    """R-MOVE-03: in plains-and-forest x each unit gets its own terrain: forest for Woodlore units,
    plains for a Missile unit without Woodlore.
    """
    rs = _mixed_map()
    st = state(rs, units=[("SCOUT", "DAW", "a"), ("ARCHER", "DAW", "a"), ("RANGER", "DAW", "a")])
    out = move(st, rs, (1, 2, 3), "x")
    # Woodlore: forest for +1 defense; a missile unit without Woodlore avoids forest.
    assert out.state.unit(1).terrain is Terrain.FOREST
    assert out.state.unit(2).terrain is Terrain.PLAINS
    assert out.state.unit(3).terrain is Terrain.FOREST


def test_r_move_03_terrain_must_make_the_move_legal() -> None:
    """R-MOVE-03: Cavalry reaching x as its second step may not use forest (R-MOVE-05), so it uses
    plains.
    """
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "x": ("forest", "plains")},
        borders=[("a", "b"), ("b", "x")],
        kinds=KINDS,
    )
    st = state(rs, units=[("CAV", "DAW", "a")])
    out = move(st, rs, (1,), "x")
    assert out.state.unit(1).terrain is Terrain.PLAINS
    assert not out.state.unit(1).move_ended
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "x", terrain="forest")
    assert err.value.rule == "R-MOVE-05"


def test_r_move_03_owner_may_name_the_terrain() -> None:
    """R-MOVE-03: the owner may name one of the province's terrains; another terrain is refused."""
    rs = _mixed_map()
    st = state(rs, units=[("INF", "DAW", "a")])
    assert move(st, rs, (1,), "x", terrain="forest").state.unit(1).terrain is Terrain.FOREST
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "x", terrain="swamp")
    assert err.value.rule == "R-MOVE-03"
    with pytest.raises(UnknownName):
        move(st, rs, (1,), "x", terrain="lava")


def test_r_move_03_terrain_single_choice_off_stores_only_a_named_terrain() -> None:
    """R-MOVE-03: with `terrain_single_choice` off no terrain is fixed at the move unless the owner
    names one.
    """
    rs = with_options(_mixed_map(), terrain_single_choice=False)
    st = state(rs, units=[("SCOUT", "DAW", "a")])
    assert move(st, rs, (1,), "x").state.unit(1).terrain is None
    assert move(st, rs, (1,), "x", terrain="plains").state.unit(1).terrain is Terrain.PLAINS


# --------------------------------------------------------------------------- helpers & options


def test_legal_destinations_and_movable_units() -> None:
    rs = line_map()
    st = state(rs, units=[("INF", "DAW", "b"), ("CAV", "DAW", "b"), ("TWR", "DAW", "b")])
    assert legal_destinations(st, rs, [1]) == {"a": False, "c": False}
    assert legal_destinations(st, rs, [2]) == {"a": False, "c": False, "d": False}
    assert legal_destinations(st, rs, [1, 2]) == {"a": False, "c": False}
    assert legal_destinations(st, rs, [99]) == {}
    assert [u.id for u in movable_units(st, rs, "DAW")] == [1, 2]


def test_r_coll_02_capture_on_entry_option() -> None:
    """R-COLL-02: with `capture_on_entry` a move ending in an empty enemy province takes it; by
    default it does not.
    """
    rs = with_options(line_map(), capture_on_entry=True)
    st = state(rs, units=[("INF", "DAW", "a")], owners={"b": "ORC"})
    out = move(st, rs, (1,), "b")
    assert out.state.owner("b") == "DAW"
    assert ProvinceCaptured("b", "DAW", "ORC", battle=None) in out.events
    default = line_map()
    st2 = state(default, units=[("INF", "DAW", "a")], owners={"b": "ORC"})
    assert move(st2, default, (1,), "b").state.owner("b") == "ORC"
