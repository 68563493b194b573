"""Movement over land, step 6 (R-MOVE-01..12, R-MOVE-22 and the attribute movement rules).

Every map is written out in the test; allowances come from the unit-type table (infantry 1,
cavalry 2) and R-ATTR-QUICK-01 / R-ATTR-SLOW-01. The cases that are orders and their outcomes
are scenario files in tests/scenarios/movement/; what stays here mostly asks the rules what is legal
(``legal_destinations``, ``movable_units``).
"""

from __future__ import annotations

import pytest

from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import IllegalMove, UnknownName
from caedes_bot.rules.movement import (
    MoveUnits,
    Stuck,
    legal_destinations,
    movable_units,
    why_stuck,
)
from caedes_bot.rules.state import GameState
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


def test_r_attr_fort_01_towers_never_move() -> None:
    """R-ATTR-FORT-01, R-MOVE-01: a Tower never moves and is never offered as movable."""
    rs = line_map()
    st = state(rs, units=[("TWR", "DAW", "a")])
    with pytest.raises(IllegalMove) as err:
        move(st, rs, (1,), "b")
    assert err.value.rule == "R-ATTR-FORT-01"
    assert movable_units(st, rs, "DAW") == []


def test_r_move_01_why_stuck_gives_the_reason_a_unit_cannot_move() -> None:
    """R-MOVE-01, R-MOVE-02, R-MOVE-04, R-MOVE-18, R-MOVE-22, R-ATTR-FORT-01: the rules say why
    each unit cannot move, as a reason with its rule, and ``None`` for one that can."""
    rs = line_map(extra={"island": ("plains",)})
    st = state(
        rs,
        units=[
            ("TWR", "DAW", "a"),
            ("INF", "DAW", "a"),
            ("SHIP", "DAW", "a"),
            ("INF", "DAW", "island"),
            ("CAV", "DAW", "c"),
            ("ORCI", "ORC", "d"),
        ],
    )
    assert why_stuck(st, rs, st.unit(1)) is Stuck.FORTIFICATION
    assert why_stuck(st, rs, st.unit(2)) is None
    assert why_stuck(st, rs, st.unit(3)) is Stuck.SHIP
    assert why_stuck(st, rs, st.unit(4)) is Stuck.NOWHERE  # no land border from the island
    st = move(st, rs, (5,), "d").state  # an attack: the move ends there
    assert why_stuck(st, rs, st.unit(5)) is Stuck.ATTACKING
    st = move(st, rs, (2,), "b").state  # infantry: its one point is spent
    assert why_stuck(st, rs, st.unit(2)) is Stuck.NO_MOVEMENT_LEFT
    st.unit(2).move_ended = True
    assert why_stuck(st, rs, st.unit(2)) is Stuck.MOVE_ENDED
    st.unit(4).move_ended = True  # placed this turn, never moved
    assert why_stuck(st, rs, st.unit(4)) is Stuck.MUSTERED
    rules = {why: why.rule for why in Stuck}
    assert rules[Stuck.FORTIFICATION] == "R-ATTR-FORT-01"
    assert rules[Stuck.MUSTERED] == "R-MOVE-22"
    assert rules[Stuck.MOVE_ENDED] == "R-MOVE-04"
    assert rules[Stuck.SHIP] == "R-MOVE-18" and not Stuck.SHIP.not_built  # ships sail now
    assert rules[Stuck.NOWHERE] == rules[Stuck.NO_MOVEMENT_LEFT] == "R-MOVE-01"


def test_r_attr_quick_01_and_slow_01_allowance() -> None:
    """R-ATTR-QUICK-01, R-ATTR-SLOW-01: Quick infantry (1 + 1) reaches c; Slow cavalry (2 - 1)
    reaches only b.
    """
    rs = line_map()
    st = state(rs, units=[("SCOUT", "DAW", "a"), ("SLOWCAV", "DAW", "a")])
    assert move(st, rs, (1,), "c").state.unit(1).location == "c"
    assert set(legal_destinations(st, rs, [2])) == {"b"}


def test_unknown_destination_suggests_a_near_name() -> None:
    rs = line_map(extra={"orme": ("plains",)}, more=[("a", "orme")])
    st = state(rs, units=[("INF", "DAW", "a")])
    with pytest.raises(UnknownName) as err:
        move(st, rs, (1,), "ormee")
    assert "Orme" in err.value.suggestions


# --------------------------------------------------------------------------- R-MOVE-02


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


# --------------------------------------------------------------------------- helpers & options


def test_legal_destinations_and_movable_units() -> None:
    rs = line_map()
    st = state(rs, units=[("INF", "DAW", "b"), ("CAV", "DAW", "b"), ("TWR", "DAW", "b")])
    assert legal_destinations(st, rs, [1]) == {"a": False, "c": False}
    assert legal_destinations(st, rs, [2]) == {"a": False, "c": False, "d": False}
    assert legal_destinations(st, rs, [1, 2]) == {"a": False, "c": False}
    assert legal_destinations(st, rs, [99]) == {}
    assert [u.id for u in movable_units(st, rs, "DAW")] == [1, 2]
