"""The Diviner and Teleportation, done in step 6 instead of moving (R-MAGIC-DIV-01,
R-MAGIC-TELE-01, R-GEN-08), with both Diviner options at each value. Whole teleport orders
are in tests/scenarios/movement/teleport.toml."""

from __future__ import annotations

import pytest

from caedes_bot.rules.collect import IncomeCollected, collect
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalMove, UnknownName
from caedes_bot.rules.movement import Divine, Divined, Teleport, UnitsTeleported
from caedes_bot.rules.state import DivinerBonus, GameState
from tests.rules.builders import kind, ruleset, state, with_options

KINDS = [
    kind("SEER", "DAW", attributes=["diviner"]),
    kind("MAGE", "DAW", attributes=["teleportation"]),
    kind("INF", "DAW"),
]


def _board(**options: object):  # type: ignore[no-untyped-def]
    """a (grain, salt; Dawnian) - b (iron; unowned)."""
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",)},
        borders=[("a", "b")],
        kinds=KINDS,
        commodities={"a": ("grain", "salt"), "b": ("iron",)},
    )
    return with_options(rs, **options) if options else rs


def _start(rs, where: str = "a") -> GameState:  # type: ignore[no-untyped-def]
    return state(rs, units=[("SEER", "DAW", where), ("INF", "DAW", "a")], owners={"a": "DAW"})


def test_r_magic_div_01_difference_waits_for_the_next_collect() -> None:
    """R-MAGIC-DIV-01, R-GEN-08 (default options): dice 7 and 3 give |7-3| = 4 grain, paid at
    the next step 3 with a's own grain (1): 5 grain. The dice are in the public event; the
    Diviner's move is over."""
    rs = _board()
    out = apply(_start(rs), Divine("DAW", 1, "grain"), rs, ScriptedDice([7, 3]))
    (event,) = out.events
    assert isinstance(event, Divined)
    assert (event.dice, event.amount, event.immediate) == ((7, 3), 4, False)
    assert event.audience() is None
    st = out.state
    assert st.factions["DAW"].commodities.get("grain", 0) == 0
    assert st.factions["DAW"].diviner_bonuses == [DivinerBonus("a", "grain", 4)]
    assert st.unit(1).move_ended
    (income,) = collect(st, rs, "DAW")
    assert isinstance(income, IncomeCollected)
    assert st.factions["DAW"].commodities["grain"] == 5
    assert income.divined == (("a", "grain", 4),)
    assert st.factions["DAW"].diviner_bonuses == []


def test_r_magic_div_01_bonus_lost_if_the_province_does_not_pay() -> None:
    """R-MAGIC-DIV-01, R-COLL-04: a bonus whose province pays nothing at step 3 (no longer
    owned) is not paid, and is gone."""
    rs = _board()
    st = apply(_start(rs), Divine("DAW", 1, "salt"), rs, ScriptedDice([2, 9])).state
    del st.owners["a"]
    collect(st, rs, "DAW")
    assert st.factions["DAW"].commodities.get("salt", 0) == 0
    assert st.factions["DAW"].diviner_bonuses == []


def test_r_magic_div_01_immediate_timing() -> None:
    """R-MAGIC-DIV-01, option diviner_timing = immediate: dice 10 and 1 give 9 salt at once."""
    rs = _board(diviner_timing="immediate")
    st = apply(_start(rs), Divine("DAW", 1, "salt"), rs, ScriptedDice([10, 1])).state
    assert st.factions["DAW"].commodities["salt"] == 9
    assert st.factions["DAW"].diviner_bonuses == []


def test_r_magic_div_01_commodity_option() -> None:
    """R-MAGIC-DIV-01, option diviner_commodity: by default only what the province produces
    (a has no iron: refused before any die); with ``any`` iron is allowed; an unknown name is
    refused either way."""
    rs = _board()
    with pytest.raises(IllegalMove) as err:
        apply(_start(rs), Divine("DAW", 1, "iron"), rs, ScriptedDice([]))
    assert err.value.rule == "R-MAGIC-DIV-01" and "grain, salt" in (err.value.allowed or "")
    with pytest.raises(UnknownName):
        apply(_start(rs), Divine("DAW", 1, "gold"), rs, ScriptedDice([]))
    rs_any = _board(diviner_commodity="any")
    st = apply(_start(rs_any), Divine("DAW", 1, "iron"), rs_any, ScriptedDice([4, 4])).state
    assert st.factions["DAW"].diviner_bonuses == []  # 4 - 4 = 0: nothing to pay


def test_r_magic_div_01_only_a_diviner_in_an_owned_province_that_has_not_moved() -> None:
    """R-MAGIC-DIV-01: not in an unowned province (b), not a non-Diviner, not after moving."""
    rs = _board()
    with pytest.raises(IllegalMove, match="does not own"):
        apply(_start(rs, "b"), Divine("DAW", 1, "iron"), rs, ScriptedDice([]))
    with pytest.raises(IllegalMove, match="not a Diviner"):
        apply(_start(rs), Divine("DAW", 2, "grain"), rs, ScriptedDice([]))
    st = _start(rs)
    st.unit(1).movement_used = 1
    with pytest.raises(IllegalMove):
        apply(st, Divine("DAW", 1, "grain"), rs, ScriptedDice([]))


def test_r_magic_tele_01_a_roll_as_long_as_the_list_takes_everyone() -> None:
    """R-MAGIC-TELE-01, R-GEN-08: one companion and a roll of 1: both go; the die is in the
    public event."""
    rs = _board()
    st = state(rs, units=[("MAGE", "DAW", "a"), ("INF", "DAW", "a")])
    out = apply(st, Teleport("DAW", 1, "b", (2,)), rs, ScriptedDice([1]))
    (event,) = out.events
    assert isinstance(event, UnitsTeleported)
    assert (event.roll, event.went, event.stayed) == (1, (2,), ())
    assert event.audience() is None
    assert out.state.unit(2).location == "b" and out.state.unit(2).move_ended
