"""Cargo: boarding and landing in step 6 (R-MOVE-14..17, R-MOVE-22, R-COMBAT-09).

The map, written out here::

    sea zones   s1 - s2
    provinces   a (coast s1), b (coast s1 and s2), c (coast s2), m mountains (coast s2),
                f forest (coast s2), r, and the navigable river edge a|r (not a mouth)
    land        a-b, b-c, a-r

A ship carries one cavalry unit or two infantry units (R-MOVE-14).
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.cargo import (
    Disembark,
    Embark,
    UnitsEmbarked,
    UnitsLanded,
    landing_places,
    ships_to_board,
)
from caedes_bot.rules.combat.sides import can_withdraw
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalMove
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.ships import SailShips
from caedes_bot.rules.state import GameState
from tests.rules.builders import kind, ruleset, state, with_options

NO_DICE = ScriptedDice([])
EDGE = "river:a|r"

KINDS = [
    kind("INF", "DAW"),
    kind("CAV", "DAW", "cavalry"),
    kind("MTNCAV", "DAW", "cavalry", ["mountainlore"]),
    kind("TWR", "DAW", "tower"),
    kind("SHIP", "DAW", "ship"),
    kind("ORCI", "ORC"),
    kind("OSHIP", "ORC", "ship"),
    kind("WSHIP", "WEL", "ship"),
]


def _rs(**options: object) -> Ruleset:
    rs = ruleset(
        provinces={
            "a": ("plains",),
            "b": ("plains",),
            "c": ("plains",),
            "m": ("mountains",),
            "f": ("forest",),
            "r": ("plains",),
        },
        borders=[("a", "b"), ("b", "c")],
        seas=["s1", "s2"],
        coasts=[("a", "s1"), ("b", "s1"), ("b", "s2"), ("c", "s2"), ("m", "s2"), ("f", "s2")],
        sea_borders=[("s1", "s2")],
        navigable=[("a", "r")],
        kinds=KINDS,
    )
    return with_options(rs, **options) if options else rs


def _go(st: GameState, rs: Ruleset, order: object) -> GameState:
    return apply(st, order, rs, NO_DICE).state  # type: ignore[arg-type]


def _refused(st: GameState, rs: Ruleset, order: object) -> IllegalMove:
    with pytest.raises(IllegalMove) as err:
        apply(st, order, rs, NO_DICE)  # type: ignore[arg-type]
    return err.value


# --------------------------------------------------------------------------- R-MOVE-14


def test_r_move_14_two_infantry_fill_a_ship() -> None:
    """R-MOVE-14: two infantry from a board the ship on s1; a third is refused (no room)."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), *[("INF", "DAW", "a")] * 3])
    out = apply(st, Embark("DAW", (2, 3), 1), rs, NO_DICE)
    assert out.events == (UnitsEmbarked("DAW", (2, 3), 1, "a", "s1"),)
    after = out.state
    assert [(after.unit(u).location, after.unit(u).aboard) for u in (2, 3)] == [("s1", 1)] * 2
    assert after.unit(2).movement_used == 0 and after.unit(2).embarked
    err = _refused(after, rs, Embark("DAW", (4,), 1))
    assert err.rule == "R-MOVE-14" and "room for 0" in err.message
    assert ships_to_board(after, rs, after.unit(4)) == []


def test_r_move_14_one_cavalry_fills_a_ship_and_over_capacity_is_refused_whole() -> None:
    """R-MOVE-14: one cavalry takes the whole ship; cavalry and infantry together need room for
    3 of 2: refused whole, nobody goes aboard."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("CAV", "DAW", "a"), ("INF", "DAW", "a")])
    err = _refused(st, rs, Embark("DAW", (2, 3), 1))
    assert err.rule == "R-MOVE-14" and "Nothing went aboard" in err.message
    after = _go(st, rs, Embark("DAW", (2,), 1))
    assert after.unit(2).aboard == 1
    assert _refused(after, rs, Embark("DAW", (3,), 1)).rule == "R-MOVE-14"


def test_r_move_14_never_a_tower_or_a_ship() -> None:
    """R-MOVE-14, R-ATTR-FORT-01: a Tower never boards; a ship never carries a ship."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("TWR", "DAW", "a"), ("SHIP", "DAW", "s1")])
    assert _refused(st, rs, Embark("DAW", (2,), 1)).rule == "R-MOVE-14"
    assert _refused(st, rs, Embark("DAW", (3,), 1)).rule == "R-MOVE-14"


# --------------------------------------------------------------------------- R-MOVE-15


def test_r_move_15_board_only_where_the_province_touches_the_ship() -> None:
    """R-MOVE-15: infantry in c (coast s2) cannot board the ship on s1; in a it can."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("INF", "DAW", "c"), ("INF", "DAW", "a")])
    assert _refused(st, rs, Embark("DAW", (2,), 1)).rule == "R-MOVE-15"
    assert [s.id for s in ships_to_board(st, rs, st.unit(3))] == [1]


def test_r_move_15_board_and_land_on_a_river_edge() -> None:
    """R-MOVE-15: a ship on the navigable edge a|r takes infantry from r and lands it in a."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", EDGE), ("INF", "DAW", "r")])
    st = _go(st, rs, Embark("DAW", (2,), 1))
    assert landing_places(st, rs, st.unit(2)) == {"a": False, "r": False}
    st = _go(st, rs, Disembark("DAW", (2,), "a"))
    assert (st.unit(2).location, st.unit(2).entered_from) == ("a", EDGE)


def test_r_move_15_boarding_is_the_units_move_once_a_turn() -> None:
    """R-MOVE-15: infantry that moved b -> a by land may not board; one that boarded, landed
    and ended its move may not board again; a unit mustered this turn may not (R-MOVE-22)."""
    rs = _rs()
    st = state(
        rs,
        units=[
            ("SHIP", "DAW", "s1"),
            ("INF", "DAW", "b"),
            ("INF", "DAW", "a"),
            ("INF", "DAW", "a"),
        ],
    )
    st = _go(st, rs, MoveUnits("DAW", (2,), "a"))
    assert _refused(st, rs, Embark("DAW", (2,), 1)).rule == "R-MOVE-15"
    st = _go(st, rs, Embark("DAW", (3,), 1))
    st = _go(st, rs, Disembark("DAW", (3,), "b"))
    assert _refused(st, rs, Embark("DAW", (3,), 1)).rule == "R-MOVE-15"
    assert _refused(st, rs, Disembark("DAW", (3,), "a")).rule == "R-MOVE-15"
    st.unit(4).move_ended = True  # mustered last step 8
    assert _refused(st, rs, Embark("DAW", (4,), 1)).rule == "R-MOVE-22"


def test_r_move_15_embark_sail_and_land_in_one_turn() -> None:
    """R-MOVE-15, R-MOVE-18: board at s1 from a, sail to s2, land in c; a unit that started
    the turn aboard may land too."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("INF", "DAW", "a"), ("INF", "DAW", "s1")])
    st.unit(3).aboard = 1
    st = _go(st, rs, Embark("DAW", (2,), 1))
    st = _go(st, rs, SailShips("DAW", (1,), "s2"))
    assert {st.unit(u).location for u in (1, 2, 3)} == {"s2"}
    out = apply(st, Disembark("DAW", (2, 3), "c"), rs, NO_DICE)
    assert out.events == (UnitsLanded("DAW", (2, 3), 1, "s2", "c", False, None),)
    assert [out.state.unit(u).location for u in (2, 3)] == ["c", "c"]
    assert out.state.unit(1).movement_used == 1  # the ship keeps its last point


def test_r_move_15_land_only_next_to_the_ship() -> None:
    """R-MOVE-15: from s1 the coast is a and b; c is refused with where it may land."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("INF", "DAW", "s1")])
    st.unit(2).aboard = 1
    err = _refused(st, rs, Disembark("DAW", (2,), "c"))
    assert err.rule == "R-MOVE-15" and err.allowed == "land in A, B"


def test_r_move_15_option_carry_pact_units() -> None:
    """R-MOVE-15 option carry_pact_units: an allied Wood Elven ship on s1 carries no Dawnian
    by default; with the option true it does."""
    for flag in (False, True):
        rs = _rs(carry_pact_units=flag)
        st = state(rs, units=[("WSHIP", "WEL", "s1"), ("INF", "DAW", "a")])
        st.alliances = [["DAW", "WEL"]]
        if flag:
            assert _go(st, rs, Embark("DAW", (2,), 1)).unit(2).aboard == 1
        else:
            err = _refused(st, rs, Embark("DAW", (2,), 1))
            assert err.rule == "R-MOVE-15" and "carry_pact_units" in err.message


def test_r_move_15_an_enemy_ship_carries_nobody() -> None:
    """R-MOVE-15: the Orcs' ship is no Dawnian's ride, option or not."""
    rs = _rs(carry_pact_units=True)
    st = state(rs, units=[("OSHIP", "ORC", "s1"), ("INF", "DAW", "a")])
    assert _refused(st, rs, Embark("DAW", (2,), 1)).rule == "R-MOVE-15"


# --------------------------------------------------------------------------- R-MOVE-16


def test_r_move_16_landing_ignores_entire_move_costs_but_not_prohibitions() -> None:
    """R-MOVE-16: cavalry lands in forest (normally its entire movement) after its ship has
    sailed; it may not land in mountains without Mountainlore; with it, it may."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("CAV", "DAW", "s1"), ("SHIP", "DAW", "s2")])
    st.unit(2).aboard = 1
    st = _go(st, rs, SailShips("DAW", (1,), "s2"))
    assert landing_places(st, rs, st.unit(2)) == {"b": False, "c": False, "f": False}
    err = _refused(st, rs, Disembark("DAW", (2,), "m"))
    assert err.rule == "R-MOVE-16" and "Mountainlore" in err.message
    assert _go(st, rs, Disembark("DAW", (2,), "f")).unit(2).location == "f"
    st2 = state(rs, units=[("SHIP", "DAW", "s2"), ("MTNCAV", "DAW", "s2")])
    st2.unit(2).aboard = 1
    assert _go(st2, rs, Disembark("DAW", (2,), "m")).unit(2).location == "m"


# --------------------------------------------------------------------------- R-MOVE-17


def test_r_move_17_landing_among_enemies_is_an_amphibious_assault() -> None:
    """R-MOVE-17, R-COMBAT-09: landing in b, held by an Orc unit, is an attack; the landed unit
    entered from the sea, so it may not withdraw, while infantry that walked in from a may."""
    rs = _rs()
    st = state(
        rs,
        units=[
            ("SHIP", "DAW", "s1"),
            ("INF", "DAW", "s1"),
            ("INF", "DAW", "a"),
            ("ORCI", "ORC", "b"),
        ],
    )
    st.unit(2).aboard = 1
    out = apply(st, Disembark("DAW", (2,), "b"), rs, NO_DICE)
    assert out.events == (UnitsLanded("DAW", (2,), 1, "s1", "b", True, None),)
    st = _go(out.state, rs, MoveUnits("DAW", (3,), "b"))
    assert st.unit(2).attacking and st.unit(3).attacking
    assert can_withdraw(st, rs, st.unit(2), "b") is False
    assert can_withdraw(st, rs, st.unit(3), "b") is True


def test_r_move_17_a_province_held_only_by_a_river_ship_is_assaulted() -> None:
    """R-MOVE-17, R-MOVE-13 (river_ship_occupies): an Orc ship on the edge a|r holds a and r:
    landing in a from s1 is an attack; with the option off it is not."""
    for flag in (True, False):
        rs = _rs(river_ship_occupies=flag)
        st = state(rs, units=[("SHIP", "DAW", "s1"), ("INF", "DAW", "s1"), ("OSHIP", "ORC", EDGE)])
        st.unit(2).aboard = 1
        assert _go(st, rs, Disembark("DAW", (2,), "a")).unit(2).attacking is flag


def test_r_move_15_land_units_cannot_walk_off_a_ship() -> None:
    """R-MOVE-15: a unit aboard moves only by landing; MoveUnits names the boarding move."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("INF", "DAW", "s1")])
    st.unit(2).aboard = 1
    assert _refused(st, rs, MoveUnits("DAW", (2,), "a")).rule == "R-MOVE-15"


def test_undo_takes_back_a_landing_a_sail_and_a_boarding_in_reverse_order() -> None:
    """/undo (issue 11): board at s1, sail to s2, land in c; three undos put everything back
    as it was, in reverse order."""
    from caedes_bot.rules.undo import UndoLastOrder

    rs = _rs()
    start = state(rs, units=[("SHIP", "DAW", "s1"), ("INF", "DAW", "a")])
    st = _go(start, rs, Embark("DAW", (2,), 1))
    st = _go(st, rs, SailShips("DAW", (1,), "s2"))
    st = _go(st, rs, Disembark("DAW", (2,), "c"))
    for _ in range(3):
        st = _go(st, rs, UndoLastOrder("DAW"))
    assert st.units == start.units
