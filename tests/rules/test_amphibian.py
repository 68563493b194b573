"""Amphibian units at sea (R-ATTR-AMPH-02, R-ATTR-AMPH-03): who may attack at sea, where the
winners may go ashore, the default, a stale answer, and who may retreat by sea. Whole
sequences are in tests/scenarios/movement/amphibian_at_sea.toml.

The map::

    sea zone s: coasts a, b, peak (mountains), rock      sea zone t: coasts b, c, isle
    land borders: a-b, b-c

Amphibian infantry moves 1 and attacks at 2; Amphibian cavalry moves 2 and attacks at 5; a ship
defends at 2 (unit-type table); a die hits at or under its value (R-GEN-02).
"""

from __future__ import annotations

import pytest

from caedes_bot.rules.combat.orders import FightBattle, Withdraw
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalCombat, IllegalMove
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.movement.amphibian import (
    ComeAshore,
    ashore_choices,
    sea_attacks,
    sea_retreats,
)
from caedes_bot.rules.state import ComeAshoreDetail, DecisionKind, GameState
from caedes_bot.rules.turn import EndStep
from tests.rules.builders import kind, ruleset, state

RS = ruleset(
    provinces={
        "a": ("plains",),
        "b": ("plains",),
        "c": ("plains",),
        "peak": ("mountains",),
        "rock": ("plains",),
        "isle": ("plains",),
    },
    borders=[("a", "b"), ("b", "c")],
    seas=["s", "t"],
    coasts=[
        ("a", "s"),
        ("b", "s"),
        ("peak", "s"),
        ("rock", "s"),
        ("b", "t"),
        ("c", "t"),
        ("isle", "t"),
    ],
    kinds=[
        kind("AINF", "DAW", attributes=["amphibian"]),
        kind("ACAV", "DAW", "cavalry", ["amphibian"]),
        kind("CAV", "DAW", "cavalry"),
        kind("OSHIP", "ORC", "ship"),
        kind("ORCI", "ORC"),
    ],
)


def _board(*units: tuple[str, str, str]) -> GameState:
    return state(RS, units=list(units), owners={"a": "DAW", "b": "DAW", "c": "ORC"})


def _go(st: GameState, order: object, dice: list[int] | None = None) -> GameState:
    return apply(st, order, RS, ScriptedDice(dice or [])).state  # type: ignore[arg-type]


def test_r_attr_amph_02_only_seas_on_its_coast_holding_enemies_and_only_instead_of_a_move() -> None:
    """R-ATTR-AMPH-02: cavalry #1 in b may attack s (the Orc ship #3) but not t (empty), using
    its whole 2 movement; once it has moved (b to a) it may not. Infantry #2 in a may attack s
    too."""
    st = _board(("ACAV", "DAW", "b"), ("AINF", "DAW", "a"), ("OSHIP", "ORC", "s"))
    plans = sea_attacks(st, RS, st.unit(1))
    assert list(plans) == ["s"]
    assert plans["s"].cost == 2 and plans["s"].attack and plans["s"].entire
    assert list(sea_attacks(st, RS, st.unit(2))) == ["s"]
    moved = _go(st, MoveUnits("DAW", (1,), "a"))
    assert sea_attacks(moved, RS, moved.unit(1)) == {}
    with pytest.raises(IllegalMove) as refused:
        _go(moved, MoveUnits("DAW", (1,), "s"))
    assert refused.value.rule == "R-ATTR-AMPH-02"
    assert refused.value.allowed == "Amphibian units that have not moved this turn"


def test_r_attr_amph_02_no_terrain_or_via_for_an_attack_at_sea() -> None:
    """R-ATTR-AMPH-02: an attack at sea goes straight from the coast."""
    st = _board(("AINF", "DAW", "a"), ("OSHIP", "ORC", "s"))
    with pytest.raises(IllegalMove) as refused:
        _go(st, MoveUnits("DAW", (1,), "s", via=("b",)))
    assert refused.value.rule == "R-ATTR-AMPH-02"


def test_r_attr_amph_02_cavalry_never_goes_ashore_in_mountains() -> None:
    """R-ATTR-AMPH-02, R-MOVE-06: the coast of s is a, b, peak, rock; Orcs hold rock; cavalry
    without Mountainlore may not enter peak; infantry may."""
    st = _board(("ACAV", "DAW", "b"), ("AINF", "DAW", "a"), ("ORCI", "ORC", "rock"))
    assert ashore_choices(st, RS, "DAW", "s", [st.unit(1)]) == ["a", "b"]
    assert ashore_choices(st, RS, "DAW", "s", [st.unit(2)]) == ["a", "b", "peak"]
    assert ashore_choices(st, RS, "DAW", "s", [st.unit(1), st.unit(2)]) == ["a", "b"]


def _won_at_sea() -> GameState:
    """Infantry #1 from a sinks the ship #2 in s: melee dice 1 (hit at 2) and 10 (miss)."""
    st = _board(("AINF", "DAW", "a"), ("OSHIP", "ORC", "s"))
    st = _go(st, MoveUnits("DAW", (1,), "s"))
    st = _go(st, EndStep("DAW"))
    return _go(st, FightBattle("DAW", "s"), [1, 10])


def test_r_attr_amph_02_the_winners_are_asked_where_to_go_ashore() -> None:
    """R-ATTR-AMPH-02: after the win #1 is still in s, no longer attacking the ship (gone),
    and a ``come_ashore`` decision lists a, b, peak (rock is empty here too)."""
    st = _won_at_sea()
    assert st.unit(1).location == "s" and "2" not in st.units
    (decision,) = [d for d in st.pending if d.kind is DecisionKind.COME_ASHORE]
    assert isinstance(decision.detail, ComeAshoreDetail)
    assert decision.detail.units == (1,)
    assert decision.detail.choices == ("a", "b", "peak", "rock")


def test_r_attr_amph_02_an_answer_for_another_decision_changes_nothing() -> None:
    """R-ATTR-AMPH-02: a click that names an earlier decision (a double click) is refused;
    ``destination=None`` sends each unit back where it came from."""
    st = _won_at_sea()
    (decision,) = st.pending
    with pytest.raises(IllegalCombat) as refused:
        _go(st, ComeAshore("DAW", "b", decision=decision.id - 1))
    assert refused.value.rule == "R-ATTR-AMPH-02"
    home = _go(st, ComeAshore("DAW", None, decision=decision.id))
    assert home.unit(1).location == "a" and home.unit(1).entered_from == "s"
    assert home.pending == []
    with pytest.raises(IllegalCombat):
        _go(home, ComeAshore("DAW", "b", decision=decision.id))


def test_r_attr_amph_02_ashore_in_mountains_costs_nothing_more_for_infantry() -> None:
    """R-ATTR-AMPH-02, R-MOVE-16: infantry goes ashore in peak (mountains): allowed, and no
    unit is left at sea."""
    st = _won_at_sea()
    (decision,) = st.pending
    st = _go(st, ComeAshore("DAW", "peak", decision=decision.id))
    assert st.unit(1).location == "peak"
    assert all(not RS.map.is_sea(u.location) for u in st.units.values())


def test_r_attr_amph_03_only_units_that_came_by_land_retreat_by_sea() -> None:
    """R-ATTR-AMPH-03: cavalry #1 attacked c from b by land: it may retreat across t to isle
    or to b (both on t's coast, nobody there). Cavalry #2 reached c by a crossing of t from
    isle: it entered from the sea, so it may not (the ruling of R-ATTR-AMPH-03)."""
    st = _board(("ACAV", "DAW", "b"), ("ACAV", "DAW", "isle"), ("ORCI", "ORC", "c"))
    st.unit(1).location, st.unit(1).entered_from, st.unit(1).path = "c", "b", ["c"]
    st.unit(2).location, st.unit(2).entered_from, st.unit(2).path = "c", "t", ["t", "c"]
    assert sea_retreats(st, RS, "c", "DAW", [1]) == {"b": "t", "isle": "t"}
    assert sea_retreats(st, RS, "c", "DAW", [2]) == {}
    assert sea_retreats(st, RS, "c", "DAW", [1, 2]) == {"b": "t", "isle": "t"}


def test_r_attr_amph_03_a_sea_zone_holding_enemies_is_no_retreat() -> None:
    """R-ATTR-AMPH-03: an Orc ship in t closes the only sea route from c."""
    st = _board(("ACAV", "DAW", "b"), ("ORCI", "ORC", "c"), ("OSHIP", "ORC", "t"))
    st.unit(1).location, st.unit(1).entered_from = "c", "b"
    assert sea_retreats(st, RS, "c", "DAW", [1]) == {}


def test_r_attr_amph_03_a_withdrawal_by_sea_without_amphibians_is_refused() -> None:
    """R-ATTR-AMPH-03: plain cavalry #1 attacks c from b; round 1 dice 9 (a miss at 5) and 10
    (a miss at 3). It may withdraw, to b, but not by sea: it is not Amphibian."""
    st = _board(("CAV", "DAW", "b"), ("ORCI", "ORC", "c"))
    st = _go(st, MoveUnits("DAW", (1,), "c"))
    st = _go(st, EndStep("DAW"))
    st = _go(st, FightBattle("DAW", "c"), [9, 10])
    with pytest.raises(IllegalCombat) as refused:
        _go(st, Withdraw("DAW", by_sea="isle"))
    assert refused.value.rule == "R-ATTR-AMPH-03"
    assert refused.value.allowed == "withdraw without a sea route, or press on"
    back = _go(st, Withdraw("DAW"))
    assert back.unit(1).location == "b"
