"""What is not imported from the Axemen and Allies rules (R-SETUP-05), checked where absence can
be checked: the game data has no hex map, fiefdoms, cities, castles, treasuries, roads, gold or
taxes, siege engines, army speed or parting shots; Caedes terrains and RP only; no dice decide
the order of play (no 2d6 order roll); orders take effect one at a time, as given (no
simultaneous execution). Castle hit halving and the named knight's bonus have nothing to hang on:
there are no castles and no knight's field (see the key scan below)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest

from caedes_bot.gamedata.loader import default_config_dir, load_ruleset
from caedes_bot.gamedata.model import Attribute, Commodity, Terrain
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import FactionState, GameState, Step, Unit
from caedes_bot.rules.turn import EndStep, StartCampaign
from tests.rules.builders import kind, ruleset, state, with_scenario

#: Words of the Axemen and Allies rules that name what Caedes does not use (R-SETUP-05).
FOREIGN = (
    "hex",
    "fief",
    "city",
    "cities",
    "castle",
    "treasury",
    "road",
    "gold",
    "tax",
    "siege",
    "army_speed",
    "parting_shot",
    "knight_bonus",
    "order_roll",
    "initiative",
)


def _keys(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield str(key)
            yield from _keys(value)
    elif isinstance(node, list):
        for item in node:
            yield from _keys(item)


def test_r_setup_05_no_key_of_the_game_data_names_a_foreign_concept() -> None:
    """R-SETUP-05: no key of any game data file (map, units, factions, turn, options,
    scenarios) is about hexes, fiefdoms, cities, castles, treasuries, roads, gold, taxes, siege
    engines, army speed, parting shots, a knight's bonus or an order roll."""
    root = default_config_dir()
    files = sorted(root.rglob("*.toml"))
    assert len(files) >= 8
    for path in files:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for key in _keys(data):
            low = key.lower()
            assert not any(word in low for word in FOREIGN), (path.name, key)


def test_r_setup_05_caedes_terrains_commodities_and_attributes_only() -> None:
    """R-SETUP-05: the terrains are the five of Caedes, the economy is RP and the six
    commodities (no gold), and no attribute is a castle, a siege engine or a knight's bonus;
    neither the state of a faction nor of a unit has a field for them."""
    assert {t.value for t in Terrain} == {"plains", "hills", "forest", "mountains", "swamp"}
    assert "gold" not in {c.value for c in Commodity}
    names = {a.value for a in Attribute}
    for word in ("castle", "siege", "knight", "city"):
        assert not any(word in n for n in names)
    for cls in (GameState, FactionState, Unit):
        for f in fields(cls):
            assert not any(word in f.name for word in FOREIGN), (cls.__name__, f.name)


def test_r_setup_05_the_map_is_provinces_and_sea_zones_not_hexes() -> None:
    """R-SETUP-05: every space of the shipped map is a named province or sea zone with its
    neighbours listed by name, not a hex with coordinates."""
    rs = load_ruleset()
    assert rs.map.provinces and rs.map.sea_zones
    for pid, province in rs.map.provinces.items():
        assert not pid.isdigit() and province.name


def test_r_setup_05_no_dice_decide_the_order_of_play() -> None:
    """R-SETUP-05 (no 2d6 order roll), R-TURN-01: a whole game round is played in the fixed
    turn order with no die at all (the scripted dice are empty and refuse any roll)."""
    rs = with_scenario(
        ruleset(
            provinces={"a": ("plains",), "b": ("plains",)},
            borders=[("a", "b")],
            kinds=[kind("DI", "DAW"), kind("OI", "ORC")],
        ),
        factions={"ORC": (0, {}), "DAW": (0, {})},
        owners={"a": "DAW", "b": "ORC"},
        units=[("DI", "a", 1), ("OI", "b", 1)],
    )
    no_dice = ScriptedDice([])
    st = apply(new_game(rs, "test", "seed"), StartCampaign("umpire"), rs, no_dice).state
    turns = [st.active]
    while st.round == 1:
        st = apply(st, EndStep(st.active or ""), rs, no_dice).state
        if st.active != turns[-1]:
            turns.append(st.active)
    assert turns == ["DAW", "ORC", "DAW"] and st.round == 2


def test_r_setup_05_orders_take_effect_one_at_a_time_as_given() -> None:
    """R-SETUP-05 (no simultaneous execution): a move takes effect when it is given; the next
    order sees the board it left (the infantry that moved a -> b cannot move again, R-MOVE-01)."""
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("plains",)},
        borders=[("a", "b"), ("b", "c")],
        kinds=[kind("DI", "DAW")],
    )
    st = state(rs, units=[("DI", "DAW", "a")], owners={"a": "DAW"}, step=Step.MOVE)
    moved = apply(st, MoveUnits("DAW", (1,), "b"), rs, ScriptedDice([])).state
    assert moved.unit(1).location == "b" and st.unit(1).location == "a"
    with pytest.raises(RuleViolation) as refused:  # its move is spent
        apply(moved, MoveUnits("DAW", (1,), "c"), rs, ScriptedDice([]))
    assert (refused.value.rule or "").startswith("R-MOVE"), refused.value
