"""Ships: buying, mustering on the water and sailing (R-BUY-04, R-COMM-03, R-ATTR-WATER-01..03,
R-RACE-NONE-01, R-ATTR-FORT-05, R-MOVE-13, R-MOVE-18, R-MOVE-22).

The map, written out here (ship move 2, from the unit-type table)::

    sea zones   s1 - s2 - s3          (sea links)
    provinces   p (coast s1), q (coast s3), r, t, inland
    land        p-r, r-t, p-inland, q-inland
    river       the edge r|t, then the edge p|r, navigable, mouth on s1

So the water links are s1-s2, s2-s3, s1-river:p|r (the mouth), river:p|r-river:r|t (the chain).
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.gamedata.water import province_waters, water_neighbours, water_shores
from caedes_bot.rules.buy import BuyUnits, UnitsBought
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalMove, IllegalMuster
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.muster import MusterUnits, begin_muster_step, legal_muster_provinces
from caedes_bot.rules.ships import (
    SailShips,
    ShipsSailed,
    sail_destinations,
    ship_muster_places,
)
from caedes_bot.rules.state import GameState, Step
from tests.rules.builders import kind, ruleset, state, with_options

NO_DICE = ScriptedDice([])
EDGE_PR = "river:p|r"
EDGE_RT = "river:r|t"

KINDS = [
    kind("INF", "DAW"),
    kind("CAV", "DAW", "cavalry"),
    kind("TWR", "DAW", "tower"),
    kind("SHIP", "DAW", "ship", name="Dawnian Ship"),
    kind("ORCI", "ORC"),
    kind("OSHIP", "ORC", "ship"),
    kind("WSHIP", "WEL", "ship"),
]


def _rs(**options: object) -> Ruleset:
    rs = ruleset(
        provinces={
            "p": ("plains",),
            "q": ("plains",),
            "r": ("plains",),
            "t": ("plains",),
            "inland": ("plains",),
        },
        borders=[("p", "inland"), ("q", "inland")],
        seas=["s1", "s2", "s3"],
        coasts=[("p", "s1"), ("q", "s3")],
        sea_borders=[("s1", "s2"), ("s2", "s3")],
        navigable=[("r", "t"), ("p", "r")],
        mouths={("p", "r"): "s1"},
        kinds=KINDS,
    )
    return with_options(rs, **options) if options else rs


def _sail(st: GameState, rs: Ruleset, ids: tuple[int, ...], to: str, *via: str) -> GameState:
    return apply(st, SailShips("DAW", ids, to, tuple(via)), rs, NO_DICE).state


def _sail_refused(st: GameState, rs: Ruleset, ids: tuple[int, ...], to: str, *via: str) -> str:
    with pytest.raises(IllegalMove) as err:
        apply(st, SailShips("DAW", ids, to, tuple(via)), rs, NO_DICE)
    return err.value.rule


# --------------------------------------------------------------------------- the water


def test_r_move_13_water_links_sea_mouth_and_river_chain() -> None:
    """R-MOVE-11, R-MOVE-13: a sea zone links to its sea neighbours and to the mouth edge of a
    navigable river; a river edge links to the next edges of its chain and, at the mouth, to
    the sea zone; provinces touch their coasts and their navigable edges."""
    game_map = _rs().map
    assert water_neighbours(game_map, "s1") == {"s2", EDGE_PR}
    assert water_neighbours(game_map, EDGE_PR) == {"s1", EDGE_RT}
    assert water_neighbours(game_map, EDGE_RT) == {EDGE_PR}
    assert water_neighbours(game_map, "p") == frozenset()
    assert province_waters(game_map, "p") == ("s1", EDGE_PR)
    assert province_waters(game_map, "r") == (EDGE_PR, EDGE_RT)
    assert province_waters(game_map, "inland") == ()
    assert water_shores(game_map, "s1") == ("p",)
    assert water_shores(game_map, EDGE_RT) == ("r", "t")


def test_r_move_13_a_river_that_is_not_navigable_carries_no_ship() -> None:
    """R-MOVE-13, R-ATTR-WATER-03 as ruled: only navigable edges are water for ships."""
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",)},
        rivers=[("a", "b")],
        kinds=KINDS,
    )
    assert province_waters(rs.map, "a") == ()
    assert water_neighbours(rs.map, "river:a|b") == frozenset()


# --------------------------------------------------------------------------- buying


def _buy_state(rs: Ruleset, units: list[tuple[str, str, str]], rp: int = 20) -> GameState:
    return state(rs, units=units, step=Step.BUY, rp={"DAW": rp})


def test_r_buy_01_ships_are_bought_in_step_5() -> None:
    """R-BUY-01: a ship costs 8 RP (unit-type table); 20 - 8 = 12; it waits for step 8, and
    the Tower at p touches water, so no warning."""
    rs = _rs()
    st = _buy_state(rs, [("TWR", "DAW", "p")])
    out = apply(st, BuyUnits("DAW", "SHIP", 1), rs, NO_DICE)
    assert out.state.factions["DAW"].purchases == ["SHIP"]
    assert out.events == (UnitsBought("DAW", "SHIP", "Dawnian Ship", 1, 8, 20, 12, None),)


def test_r_comm_03_cloth_takes_2_rp_off_a_ship() -> None:
    """R-COMM-03: with one Cloth earmarked, the first ship costs 8 - 2 = 6 RP and the second
    the full 8: 14 RP for two."""
    rs = _rs()
    st = _buy_state(rs, [("TWR", "DAW", "p")])
    st.factions["DAW"].earmarks = {"cloth": 1}
    out = apply(st, BuyUnits("DAW", "SHIP", 2), rs, NO_DICE)
    assert out.state.factions["DAW"].purchase_prices == [6, 8]
    assert out.state.factions["DAW"].rp == 6


def test_r_buy_04_a_ship_with_no_water_next_to_a_fortification_warns() -> None:
    """R-BUY-04, R-ATTR-WATER-03: the only Tower is at inland, which touches no sea zone and no
    navigable river: bought, with a warning naming the province and why."""
    rs = _rs()
    st = _buy_state(rs, [("TWR", "DAW", "inland")])
    (event,) = apply(st, BuyUnits("DAW", "SHIP", 1), rs, NO_DICE).events
    assert isinstance(event, UnitsBought)
    assert event.warning is not None
    assert "Inland" in event.warning and "touches no sea zone and no navigable river" in (
        event.warning
    )
    assert "R-BUY-04" in event.warning


def test_r_buy_04_a_ship_without_any_fortification_warns() -> None:
    """R-BUY-04, R-ATTR-WATER-03: no Fortification at all: the warning says ships muster only
    next to one."""
    rs = _rs()
    st = _buy_state(rs, [("INF", "DAW", "p")])
    (event,) = apply(st, BuyUnits("DAW", "SHIP", 1), rs, NO_DICE).events
    assert isinstance(event, UnitsBought)
    assert event.warning is not None and "no Fortification" in event.warning


def test_r_buy_04_the_default_scenario_capitals_without_water_are_named() -> None:
    """R-BUY-04 on the shipped map: the Dawnian Tower stands in Brightholm, which touches no
    navigable water, so a Dawnian ship bought there warns naming Brightholm."""
    from caedes_bot.gamedata.loader import load_ruleset
    from caedes_bot.rules.setup import new_game

    shipped = load_ruleset()
    st = new_game(shipped, "default", "seed")
    st.active, st.step, st.round = "DAW", Step.BUY, 1
    st.factions["DAW"].rp = 20
    ship = next(k for k in shipped.order_of_battle("DAW") if k.base_type.value == "ship")
    (event,) = apply(st, BuyUnits("DAW", ship.id, 1), shipped, NO_DICE).events
    assert isinstance(event, UnitsBought)
    assert province_waters(shipped.map, "brightholm") == ()
    assert event.warning is not None and "Brightholm" in event.warning


# --------------------------------------------------------------------------- mustering


def _muster_state(rs: Ruleset, units: list[tuple[str, str, str]], bought: list[str]) -> GameState:
    st = state(rs, units=units, step=Step.MUSTER, owners=dict.fromkeys("pqrt", "DAW"))
    st.factions["DAW"].purchases = list(bought)
    st.factions["DAW"].purchase_prices = [8] * len(bought)
    begin_muster_step(st, rs)
    return st


def test_r_attr_water_03_ships_muster_on_water_next_to_the_fortification() -> None:
    """R-ATTR-WATER-03, R-RACE-NONE-01: a Tower at p: the sea zone s1 and the navigable edge
    p|r take a ship (sorted by name: "River (P/R)" before "S1"); s3 and r|t do not touch p."""
    rs = _rs()
    st = _muster_state(rs, [("TWR", "DAW", "p")], ["SHIP"])
    assert ship_muster_places(st, rs, "DAW") == [EDGE_PR, "s1"]
    assert legal_muster_provinces(st, rs, "DAW", "SHIP") == [EDGE_PR, "s1"]
    out = apply(st, MusterUnits("DAW", (("SHIP", "s1"),)), rs, NO_DICE)
    (ship,) = [u for u in out.state.units.values() if u.kind == "SHIP"]
    assert (ship.location, ship.move_ended, ship.aboard) == ("s1", True, None)
    assert out.state.factions["DAW"].purchases == []


@pytest.mark.parametrize(
    ("space", "why"),
    [("p", "never in a province"), ("s3", "touches no province"), (EDGE_RT, "touches no")],
)
def test_r_attr_water_03_other_places_are_refused(space: str, why: str) -> None:
    """R-ATTR-WATER-03, R-MUSTER-07: not in the province itself, not on water away from the
    Fortification."""
    rs = _rs()
    st = _muster_state(rs, [("TWR", "DAW", "p")], ["SHIP"])
    with pytest.raises(IllegalMuster) as err:
        apply(st, MusterUnits("DAW", (("SHIP", space),)), rs, NO_DICE)
    assert err.value.rule == "R-ATTR-WATER-03"
    assert why in err.value.message
    assert err.value.allowed == "River (P/R), S1"


def test_r_attr_water_03_never_on_water_holding_non_pact_units() -> None:
    """R-ATTR-WATER-03 as ruled: an Orc ship on s1 keeps Dawnian ships off it; a Wood Elven
    ship there does not once the two are allied (pact partners)."""
    rs = _rs()
    st = _muster_state(rs, [("TWR", "DAW", "p"), ("OSHIP", "ORC", "s1")], ["SHIP"])
    assert ship_muster_places(st, rs, "DAW") == [EDGE_PR]
    with pytest.raises(IllegalMuster) as err:
        apply(st, MusterUnits("DAW", (("SHIP", "s1"),)), rs, NO_DICE)
    assert "another faction" in err.value.message
    st2 = _muster_state(rs, [("TWR", "DAW", "p"), ("WSHIP", "WEL", "s1")], ["SHIP"])
    st2.alliances = [["DAW", "WEL"]]
    assert ship_muster_places(st2, rs, "DAW") == [EDGE_PR, "s1"]


def test_r_attr_fort_05_a_tower_mustered_in_the_same_step_places_no_ship() -> None:
    """R-ATTR-FORT-05: the Tower placed at p in this step 8 does not let the ship muster."""
    rs = _rs()
    st = _muster_state(rs, [("INF", "DAW", "p")], ["TWR", "SHIP"])
    st = apply(st, MusterUnits("DAW", (("TWR", "p"),)), rs, NO_DICE).state
    assert ship_muster_places(st, rs, "DAW") == []
    with pytest.raises(IllegalMuster):
        apply(st, MusterUnits("DAW", (("SHIP", "s1"),)), rs, NO_DICE)


def test_r_muster_01_the_bot_places_a_waiting_ship_or_it_is_lost() -> None:
    """R-MUSTER-01, R-PBP-DEAD-03: at the end of step 8 the bot puts a waiting ship on the
    first legal water by name (River (P/R)); with no Fortification it is lost."""
    from caedes_bot.rules.turn import EndStep

    rs = _rs()
    st = _muster_state(rs, [("TWR", "DAW", "p")], ["SHIP"])
    out = apply(st, EndStep("DAW"), rs, NO_DICE)
    ships = [u for u in out.state.units.values() if u.kind == "SHIP"]
    assert [s.location for s in ships] == [EDGE_PR]
    st2 = _muster_state(rs, [("INF", "DAW", "p")], ["SHIP"])
    out2 = apply(st2, EndStep("DAW"), rs, NO_DICE)
    assert not [u for u in out2.state.units.values() if u.kind == "SHIP"]


# --------------------------------------------------------------------------- sailing


def test_r_move_18_a_ship_sails_two_spaces() -> None:
    """R-MOVE-18: from s1 the ship reaches s2 and s3 (2 spaces) and both river edges."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1")])
    assert set(sail_destinations(st, rs, st.unit(1))) == {"s2", "s3", EDGE_PR, EDGE_RT}
    out = apply(st, SailShips("DAW", (1,), "s3"), rs, NO_DICE)
    ship = out.state.unit(1)
    assert (ship.location, ship.movement_used, ship.entered_from) == ("s3", 2, "s2")
    assert out.events == (ShipsSailed("DAW", (1,), (), "s1", "s3", ("s2", "s3"), False, 0),)


def test_r_move_18_movement_left_is_kept_between_orders() -> None:
    """R-MOVE-18: s1 -> s2 uses 1 of 2; a second order s2 -> s3 uses the other; a third is
    refused: no movement left."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1")])
    st = _sail(st, rs, (1,), "s2")
    assert st.unit(1).movement_used == 1
    st = _sail(st, rs, (1,), "s3")
    assert (st.unit(1).location, st.unit(1).movement_used) == ("s3", 2)
    assert _sail_refused(st, rs, (1,), "s2") == "R-MOVE-18"


def test_r_move_18_via_names_the_route() -> None:
    """R-MOVE-18: s1 to river r|t passes the mouth edge p|r; via s2 to s1 is a path of 2 that
    comes back (allowed), via s3 to s1 would be 4 (refused)."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1")])
    after = _sail(st, rs, (1,), EDGE_RT)
    assert after.unit(1).path == [EDGE_PR, EDGE_RT]
    st2 = state(rs, units=[("SHIP", "DAW", "s2")])
    assert _sail(st2, rs, (1,), "s2", "s1").unit(1).path == ["s1", "s2"]
    assert _sail_refused(st2, rs, (1,), "s2", "s3", "s1") == "R-MOVE-18"


def _sail_refusal(st: GameState, rs: Ruleset, to: str, *via: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as err:
        apply(st, SailShips("DAW", (1,), to, tuple(via)), rs, NO_DICE)
    return err.value


def test_r_move_18_a_via_that_blocks_says_why_not_enemy_ships() -> None:
    """R-MOVE-18, issue 11 ("a refused move names the rule and where it blocks"): with no
    other ship on the water, a refused via names its own fault, never "another faction's ships
    stand on the route". From s2 (2 moves): via s3 to s1 is 1 + 2 = 3 spaces; via s1, s1 to
    s2 names s1 twice (the second is no step onward); via s2 (where the ship is) to s1 too.
    The builder names sea zone s1 "S1"."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s2")])
    too_far = _sail_refusal(st, rs, "s1", "s3")
    assert too_far.rule == "R-MOVE-18"
    assert too_far.message == (
        "Through S3, S1 is 3 spaces away by water; Dawnian Ship #1 has 2 movement left."
    )
    assert too_far.allowed is not None and too_far.allowed.startswith("Dawnian Ship #1 can reach")
    twice = _sail_refusal(st, rs, "s2", "s1", "s1")
    assert twice.message == (
        "The route names S1 where Dawnian Ship #1 already is at that point; each space of via "
        "and the destination must be a step onward."
    )
    here = _sail_refusal(st, rs, "s1", "s2")
    assert "The route names S2 where Dawnian Ship #1 already is" in here.message
    for refusal in (too_far, twice, here):
        assert "another faction" not in refusal.message


def test_r_move_18_entering_enemy_ships_ends_the_move_as_an_attack() -> None:
    """R-MOVE-18: an Orc ship on s2: the Dawnian ship may go to s2 (an attack, move ended) but
    not past it to s3."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("OSHIP", "ORC", "s2")])
    assert _sail_refused(st, rs, (1,), "s3") == "R-MOVE-18"
    out = apply(st, SailShips("DAW", (1,), "s2"), rs, NO_DICE)
    ship = out.state.unit(1)
    assert (ship.attacking, ship.move_ended, ship.movement_used) == (True, True, 1)
    assert out.events[0] == ShipsSailed("DAW", (1,), (), "s1", "s2", ("s2",), True, 1)
    assert _sail_refused(out.state, rs, (1,), "s1") == "R-MOVE-18"


def test_r_move_18_pact_partners_ships_do_not_stop_a_ship() -> None:
    """R-MOVE-18: a Wood Elven ship on s2, allied with the Dawnians, is passed by."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("WSHIP", "WEL", "s2")])
    st.alliances = [["DAW", "WEL"]]
    assert _sail(st, rs, (1,), "s3").unit(1).attacking is False


def test_r_move_13_ships_never_attack_into_a_river_edge() -> None:
    """R-MOVE-13: an Orc ship on the edge p|r: a Dawnian ship on s1 may not enter it."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("OSHIP", "ORC", EDGE_PR)])
    assert _sail_refused(st, rs, (1,), EDGE_PR) == "R-MOVE-13"
    assert EDGE_PR not in sail_destinations(st, rs, st.unit(1))


def test_r_move_13_ships_never_attack_from_a_river_edge() -> None:
    """R-MOVE-13: a Dawnian ship on the edge p|r may not attack the Orc ship on s1 from there,
    but may sail up the river."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", EDGE_PR), ("OSHIP", "ORC", "s1")])
    assert set(sail_destinations(st, rs, st.unit(1))) == {EDGE_RT}
    assert _sail_refused(st, rs, (1,), "s1") == "R-MOVE-13"


def test_r_attr_water_01_ships_never_enter_a_province() -> None:
    """R-ATTR-WATER-01: a ship told to sail to province p is refused."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1")])
    assert _sail_refused(st, rs, (1,), "p") == "R-ATTR-WATER-01"


def test_r_move_22_a_ship_mustered_this_turn_does_not_sail() -> None:
    """R-MOVE-22: a ship placed in step 8 has its move ended until its faction's next turn."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1")])
    st.unit(1).move_ended = True
    assert _sail_refused(st, rs, (1,), "s2") == "R-MOVE-22"
    assert sail_destinations(st, rs, st.unit(1)) == {}


def test_r_move_14_cargo_sails_with_its_ship() -> None:
    """R-MOVE-14: two infantry aboard the ship move with it to s3 and keep their movement."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("INF", "DAW", "s1"), ("INF", "DAW", "s1")])
    st.unit(2).aboard = st.unit(3).aboard = 1
    out = apply(st, SailShips("DAW", (1,), "s3"), rs, NO_DICE)
    assert [out.state.unit(u).location for u in (1, 2, 3)] == ["s3"] * 3
    assert out.state.unit(2).movement_used == 0
    assert out.events[0] == ShipsSailed("DAW", (1,), (2, 3), "s1", "s3", ("s2", "s3"), False, 0)


def test_r_move_18_only_ships_sail_and_land_units_never_take_to_water() -> None:
    """R-MOVE-18, R-MOVE-09: infantry is not sailed; a ship is not moved over land."""
    rs = _rs()
    st = state(rs, units=[("SHIP", "DAW", "s1"), ("INF", "DAW", "p")])
    assert _sail_refused(st, rs, (2,), "s1") == "R-MOVE-18"
    with pytest.raises(IllegalMove):
        apply(st, MoveUnits("DAW", (2,), "s1"), rs, NO_DICE)


def test_r_move_13_option_river_ship_occupies_a_lone_river_ship_holds_its_provinces() -> None:
    """R-MOVE-13 option river_ship_occupies: an Orc ship on the edge r|t makes a Dawnian move
    from p into r an attack (default true); with the option false it is a plain move."""
    for flag, attack in ((True, True), (False, False)):
        small = with_options(
            ruleset(
                provinces={"p": ("plains",), "r": ("plains",), "t": ("plains",)},
                borders=[("p", "r")],
                navigable=[("r", "t")],
                kinds=KINDS,
            ),
            river_ship_occupies=flag,
        )
        st = state(small, units=[("INF", "DAW", "p"), ("OSHIP", "ORC", "river:r|t")])
        out = apply(st, MoveUnits("DAW", (1,), "r"), small, NO_DICE)
        assert out.state.unit(1).attacking is attack


def test_r_gen_04_water_is_named_by_id_name_or_its_start() -> None:
    """R-GEN-04, R-ATTR-WATER-01: a water space is named by its id, its name in any case or the
    start of one name; a province is refused (ships never enter one); an unknown name gets
    near matches."""
    from caedes_bot.rules.errors import UnknownName
    from caedes_bot.rules.ships import resolve_water

    rs = _rs()
    assert resolve_water(rs, "s1") == "s1"
    assert resolve_water(rs, "S3") == "s3"
    assert resolve_water(rs, "river (p/r)") == EDGE_PR
    with pytest.raises(IllegalMove) as err:
        resolve_water(rs, "Inland")
    assert err.value.rule == "R-ATTR-WATER-01"
    with pytest.raises(UnknownName) as unknown:
        resolve_water(rs, "S9")
    assert unknown.value.suggestions[:1] in (("S1",), ("S2",), ("S3",))
