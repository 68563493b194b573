"""Campaign set-up from a scenario (R-SETUP-01, R-SETUP-03, R-SETUP-04, R-TURN-01, R-UPK-03)."""

import pytest

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import Step
from tests.rules.builders import kind, ruleset, with_options, with_scenario


def _world() -> Ruleset:
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("hills",), "c": ("plains",)},
        borders=[("a", "b"), ("b", "c")],
        coasts=[("a", "bay")],
        kinds=[
            kind("DI", "DAW"),
            kind("DK", "DAW", "cavalry", cost=6),
            kind("DS", "DAW", "ship"),
            kind("OT", "ORC"),
        ],
    )
    return with_scenario(
        rs,
        # listed out of turn order on purpose
        factions={"ORC": (7, {"iron": 2}), "DAW": (10, {"grain": 1, "salt": 0})},
        owners={"a": "DAW", "b": "ORC"},
        units=[("DI", "a", 2), ("OT", "b", 1), ("DS", "bay", 1), ("DK", "bay", 1)],
        turn_limit=6,
        alliances=[("DAW", "ORC")],
    )


def test_r_turn_01_in_play_follows_fixed_turn_order_not_scenario_order() -> None:
    """R-TURN-01: Dawnians before Orcs whatever order the scenario lists them in; factions not
    in the scenario are not in play."""
    st = new_game(_world(), "test", "seed-1")
    assert st.in_play == ["DAW", "ORC"]
    assert set(st.factions) == {"DAW", "ORC"}


def test_r_setup_01_units_owners_treasuries_and_limits_from_the_scenario() -> None:
    """R-SETUP-01: owners, units, RP, commodities, pacts and turn limit come from the scenario;
    R-SETUP-03: province c, not listed, is unowned."""
    st = new_game(_world(), "test", "seed-1")
    assert st.owners == {"a": "DAW", "b": "ORC"}
    assert "c" not in st.owners
    assert st.factions["DAW"].rp == 10
    assert st.factions["DAW"].commodities == {"grain": 1}  # a zero count is not stored
    assert st.factions["ORC"].rp == 7
    assert st.factions["ORC"].commodities == {"iron": 2}
    assert st.turn_limit == 6
    assert st.alliances == [["DAW", "ORC"]]
    assert (st.round, st.active, st.step) == (0, None, Step.TRADE)
    assert st.dice_seed == "seed-1" and st.dice_rolls == 0
    assert all(fs.turns_taken == 0 for fs in st.factions.values())


def test_r_upk_03_scenario_units_get_muster_order_in_scenario_order() -> None:
    """R-UPK-03: units placed at set-up count in the scenario's order for the disbanding
    tie-break: 2 DI, then OT, then the ship, then the knight, muster_seq 1..5."""
    st = new_game(_world(), "test", "seed-1")
    placed = [(u.id, u.kind, u.owner, u.location, u.muster_seq) for u in st.units.values()]
    assert placed == [
        (1, "DI", "DAW", "a", 1),
        (2, "DI", "DAW", "a", 2),
        (3, "OT", "ORC", "b", 3),
        (4, "DS", "DAW", "bay", 4),
        (5, "DK", "DAW", "bay", 5),
    ]
    assert st.mustered_seq == 5
    assert st.next_id == 6


def test_r_move_14_land_unit_listed_at_sea_starts_aboard_its_ship() -> None:
    """R-MOVE-14: the knight listed in the bay starts aboard the Dawnian ship there."""
    st = new_game(_world(), "test", "s")
    assert st.unit(5).aboard == 4
    assert st.unit(4).aboard is None


def test_land_unit_at_sea_without_a_ship_is_a_scenario_error() -> None:
    rs = with_scenario(_world(), factions={"DAW": (0, {})}, units=[("DK", "bay", 1)])
    with pytest.raises(ValueError, match="no ship"):
        new_game(rs, "test", "s")


def test_r_setup_04_options_are_the_scenarios() -> None:
    """R-SETUP-04: the campaign starts with the scenario's options."""
    rs = with_options(_world(), rp_carryover=False)
    st = new_game(rs, "test", "s")
    assert st.options == Options(rp_carryover=False)


def test_unknown_scenario_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        new_game(_world(), "nope", "s")
