"""Flying moves and Amphibian crossings (R-ATTR-FLY-01, R-ATTR-FLY-02, R-ATTR-AMPH-01,
R-MOVE-12, R-MOVE-21), asked of the rules directly. Orders and their outcomes are in
tests/scenarios/movement/flying.toml and amphibian_crossing.toml."""

from __future__ import annotations

from caedes_bot.rules.combat.sides import can_withdraw
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.movement import (
    FlyUnits,
    MoveKind,
    legal_destinations,
    movable_units,
    plan_flights,
    plan_moves,
)
from tests.rules.builders import kind, ruleset, state

KINDS = [
    kind("FLY", "DAW", attributes=["flying"]),
    kind("FLYCAV", "DAW", "cavalry", ["flying"]),
    kind("INF", "DAW"),
    kind("AMPHINF", "DAW", attributes=["amphibian"]),
    kind("ORCI", "ORC"),
]


def _board():  # type: ignore[no-untyped-def]
    """a - b - c - d - e - f in a line; m (mountains) next to a and b; a, isle and sea."""
    provinces = {p: ("plains",) for p in "abcdef"} | {"m": ("mountains",), "isle": ("plains",)}
    borders = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "f"), ("a", "m"), ("b", "m")]
    return ruleset(
        provinces=provinces,
        borders=borders,
        kinds=KINDS,
        seas=["sea"],
        coasts=[("a", "sea"), ("isle", "sea")],
        rivers=[("a", "b")],
    )


def test_r_attr_fly_01_four_spaces_over_anything_ending_on_land() -> None:
    """R-ATTR-FLY-01: from a, a flyer reaches every province within 4 spaces, counting the sea
    zone (isle is 2 away), over the Orcs in b and c; f (5 away) and the sea zone itself are
    not destinations; ending on the Orcs in c is an attack."""
    rs = _board()
    st = state(rs, units=[("FLY", "DAW", "a"), ("ORCI", "ORC", "b"), ("ORCI", "ORC", "c")])
    plans = plan_flights(st, rs, st.unit(1))
    assert sorted(plans) == ["b", "c", "d", "e", "isle", "m"]
    assert plans["e"].path == ("b", "c", "d", "e") and plans["e"].cost == 4
    assert plans["isle"].path == ("sea", "isle")
    assert plans["c"].attack and not plans["d"].attack
    assert all(p.how is MoveKind.FLIGHT for p in plans.values())


def test_r_attr_fly_01_only_instead_of_a_normal_move() -> None:
    """R-ATTR-FLY-01, R-MOVE-21: a flyer that has moved this turn, and a unit without Flying,
    have no flights."""
    rs = _board()
    st = state(rs, units=[("FLYCAV", "DAW", "a"), ("INF", "DAW", "a")])
    st.unit(1).movement_used = 1
    st.unit(1).path = ["b"]
    assert plan_flights(st, rs, st.unit(1)) == {}
    assert plan_flights(st, rs, st.unit(2)) == {}


def test_r_move_12_a_flyer_s_normal_move_ignores_the_river() -> None:
    """R-MOVE-12, R-ATTR-FLY-02: a Flying infantry unit's normal move crosses the river a-b for
    1 point, so it may go on; plain infantry pays its entire movement."""
    rs = _board()
    st = state(rs, units=[("FLY", "DAW", "a"), ("INF", "DAW", "a")])
    assert plan_moves(st, rs, st.unit(1))["b"].entire is False
    assert plan_moves(st, rs, st.unit(2))["b"].entire is True


def test_r_attr_fly_02_withdrawal_after_a_flight() -> None:
    """R-ATTR-FLY-02: flying cavalry that flew over the mountains m into b may not withdraw to
    m (a normal cavalry move never enters mountains without Mountainlore); flying infantry
    that entered b from a may withdraw there; one that entered the island from the sea may not
    withdraw at all."""
    rs = _board()
    st = state(rs, units=[("FLYCAV", "DAW", "a"), ("FLY", "DAW", "a"), ("FLY", "DAW", "a")])
    st = apply(st, FlyUnits("DAW", (1,), "b", via=("m",)), rs, ScriptedDice([])).state
    st = apply(st, FlyUnits("DAW", (2,), "b"), rs, ScriptedDice([])).state
    st = apply(st, FlyUnits("DAW", (3,), "isle"), rs, ScriptedDice([])).state
    assert st.unit(1).entered_from == "m" and st.unit(1).flew
    assert can_withdraw(st, rs, st.unit(1), "b") is False
    assert can_withdraw(st, rs, st.unit(2), "b") is True
    assert can_withdraw(st, rs, st.unit(3), "isle") is False


def test_r_attr_fly_02_no_withdrawal_into_the_enemies_flown_over() -> None:
    """R-ATTR-FLY-02, R-MOVE-02: a flyer at a flies over the Orcs in b to attack the Orcs in
    c, so it entered the battle from b; a normal move from c into b would end as an attack, so
    it may not withdraw there and stays. One that flew over the empty d into c may withdraw
    to d; once the Orcs are gone from b, so may the first (it is asked of the board as it
    stands)."""
    rs = _board()
    st = state(
        rs,
        units=[
            ("FLY", "DAW", "a"),
            ("ORCI", "ORC", "b"),
            ("ORCI", "ORC", "c"),
            ("FLY", "DAW", "e"),
        ],
    )
    st = apply(st, FlyUnits("DAW", (1,), "c", via=("b",)), rs, ScriptedDice([])).state
    st = apply(st, FlyUnits("DAW", (4,), "c", via=("d",)), rs, ScriptedDice([])).state
    assert st.unit(1).entered_from == "b" and st.unit(4).entered_from == "d"
    assert can_withdraw(st, rs, st.unit(1), "c") is False
    assert can_withdraw(st, rs, st.unit(4), "c") is True
    del st.units["2"]
    assert can_withdraw(st, rs, st.unit(1), "c") is True


def test_r_attr_amph_01_crossing_only_where_no_land_route() -> None:
    """R-ATTR-AMPH-01: Amphibian infantry at a reaches b by land (1 point) and the island only
    by crossing the sea zone, which takes its whole move and ends it; via = sea asks for the
    crossing, and legal destinations offer both."""
    rs = _board()
    st = state(rs, units=[("AMPHINF", "DAW", "a")])
    plans = plan_moves(st, rs, st.unit(1))
    assert plans["b"].how is MoveKind.LAND
    assert plans["isle"].how is MoveKind.CROSSING
    assert plans["isle"].path == ("sea", "isle") and plans["isle"].move_ended
    assert plans["isle"].entered_from == "sea"
    assert set(plan_moves(st, rs, st.unit(1), via=("sea",))) == {"isle"}
    assert legal_destinations(st, rs, [1]) == {"b": False, "isle": False, "m": False}


def test_r_move_21_a_flyer_on_an_island_can_still_move() -> None:
    """R-MOVE-21, R-ATTR-FLY-01: a flyer alone on an island has no land move but can fly, so
    it counts as a unit that can move."""
    rs = _board()
    st = state(rs, units=[("FLY", "DAW", "isle"), ("INF", "DAW", "isle")])
    assert [u.id for u in movable_units(st, rs, "DAW")] == [1]


def test_r_attr_blitz_03_flying_allowance_left_for_a_blitz() -> None:
    """R-ATTR-BLITZ-03, option blitz_after_flying: flying cavalry that flew 2 of its 4 spaces
    has 2 left for a blitz by default, none with the option off; plain cavalry that moved 1 of
    its 2 has 1 either way, and none without Blitz (cavalry_blitz off, R-ATTR-BLITZ-01)."""
    from dataclasses import replace

    from caedes_bot.rules.movement.blitz import blitz_movement_left

    rs = _board()
    st = state(rs, units=[("FLYCAV", "DAW", "c"), ("FLYCAV", "DAW", "c")])
    flyer, rider = st.unit(1), st.unit(2)
    flyer.flew, flyer.movement_used, flyer.path = True, 2, ["b", "c"]
    rider.movement_used, rider.path = 1, ["c"]
    assert blitz_movement_left(st, rs, flyer) == 2
    assert blitz_movement_left(st, rs, rider) == 1
    st.options = replace(st.options, blitz_after_flying=False)
    assert blitz_movement_left(st, rs, flyer) == 0
    assert blitz_movement_left(st, rs, rider) == 1
    st.options = replace(st.options, cavalry_blitz=False)
    assert blitz_movement_left(st, rs, rider) == 0


def test_r_move_02_a_refusal_names_where_the_route_is_blocked() -> None:
    """R-MOVE-02: cavalry at a cannot reach c past the Orcs in b; the refusal names b, the
    province where every route within its 2 movement must stop, and not m (Orcs too, but a - m
    - b - c is 3 long)."""
    import pytest

    from caedes_bot.rules.errors import IllegalMove
    from caedes_bot.rules.movement import MoveUnits

    rs = _board()
    st = state(rs, units=[("FLYCAV", "DAW", "a"), ("ORCI", "ORC", "b"), ("ORCI", "ORC", "m")])
    with pytest.raises(IllegalMove) as err:
        apply(st, MoveUnits("DAW", (1,), "c"), rs, ScriptedDice([]))
    assert err.value.rule == "R-MOVE-02"
    assert f"units ({rs.map.space_name('b')}), where" in err.value.message
