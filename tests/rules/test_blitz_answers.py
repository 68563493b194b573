"""Answers to a blitz name the decision they answer (R-ATTR-BLITZ-02): a second click on the
controls of a blitz already answered, arriving after a second battle has asked again, changes
nothing.

The map: a - b - c - d in a line, all plains; Orc infantry (defence 3) holds b, c and d. Quick
cavalry (2 + 1 = 3 movement, attack 5); a die hits at or under its value (R-GEN-02)."""

from __future__ import annotations

import pytest

from caedes_bot.persistence.mappers import dump_state
from caedes_bot.rules.combat.arithmetic import BattleResult
from caedes_bot.rules.combat.events import BattleEnded
from caedes_bot.rules.combat.orders import FightBattle
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalCombat
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.movement.blitz import (
    BlitzOffered,
    BlitzOn,
    BlitzStop,
    offer_after_battles,
    pending_blitz,
)
from caedes_bot.rules.state import Battle, GameState
from caedes_bot.rules.turn import EndStep
from tests.rules.builders import kind, ruleset, state

RS = ruleset(
    provinces={p: ("plains",) for p in "abcd"},
    borders=[("a", "b"), ("b", "c"), ("c", "d")],
    kinds=[kind("QCAV", "DAW", "cavalry", ["quick"]), kind("ORCI", "ORC")],
)


def _go(st: GameState, order: object, dice: list[int] | None = None) -> GameState:
    script = ScriptedDice(dice or [])
    out = apply(st, order, RS, script)  # type: ignore[arg-type]
    script.assert_exhausted()
    return out.state


def test_r_attr_blitz_02_a_double_click_after_the_second_battle_changes_nothing() -> None:
    """R-ATTR-BLITZ-02: the cavalry takes b (dice 1, 9: it hits, the Orc misses) with 2 of its
    3 movement left: blitz decision one. It blitzes on to c (naming decision one), wins again
    (1, 9) with 1 left: decision two. The same click again (decision one, to d) is refused and
    the state is exactly as it was; stopping by decision one is refused too; decision two
    still answers."""
    st = state(
        RS,
        units=[
            ("QCAV", "DAW", "a"),
            ("ORCI", "ORC", "b"),
            ("ORCI", "ORC", "c"),
            ("ORCI", "ORC", "d"),
        ],
        owners={"a": "DAW", "b": "ORC", "c": "ORC", "d": "ORC"},
    )
    st = _go(st, MoveUnits("DAW", (1,), "b"))
    st = _go(st, EndStep("DAW"))
    st = _go(st, FightBattle("DAW", "b"), [1, 9])
    first = pending_blitz(st, "DAW")
    assert first is not None
    st = _go(st, BlitzOn("DAW", (1,), "c", decision=first.id), [1, 9])
    second = pending_blitz(st, "DAW")
    assert second is not None and second.id != first.id
    assert st.unit(1).location == "c" and st.unit(1).movement_used == 2
    before = dump_state(st)
    with pytest.raises(IllegalCombat) as refused:
        _go(st, BlitzOn("DAW", (1,), "d", decision=first.id))
    assert refused.value.rule == "R-ATTR-BLITZ-02"
    assert refused.value.allowed == "the blitz controls drawn after the latest battle"
    with pytest.raises(IllegalCombat):
        _go(st, BlitzStop("DAW", decision=first.id))
    assert dump_state(st) == before
    stopped = _go(st, BlitzStop("DAW", decision=second.id))
    assert pending_blitz(stopped, "DAW") is None and stopped.unit(1).location == "c"


def test_r_attr_blitz_02_no_offer_is_looked_for_while_a_battle_is_under_way() -> None:
    """R-ATTR-BLITZ-02: the offer follows a battle the attacker won only once no battle is
    under way; the same won battle's events with a battle (the next) under way offer nothing,
    and change nothing."""
    st = state(
        RS,
        units=[("QCAV", "DAW", "a"), ("ORCI", "ORC", "b")],
        owners={"a": "DAW", "b": "ORC"},
    )
    st = _go(st, MoveUnits("DAW", (1,), "b"))
    st = _go(st, EndStep("DAW"))
    before = st
    out = apply(before, FightBattle("DAW", "b"), RS, ScriptedDice([1, 9]))
    ended = [e for e in out.events if isinstance(e, BattleEnded)]
    assert ended and ended[0].result is BattleResult.ATTACKER_WON
    assert any(isinstance(e, BlitzOffered) for e in out.events)
    under_way = out.state.clone()
    under_way.pending = []
    under_way.battle = Battle(99, "c", "DAW", ["ORC"], [1], [])
    assert offer_after_battles(under_way, RS, list(out.events)) == []
    assert under_way.pending == []
    under_way.battle = None
    assert [type(e) for e in offer_after_battles(under_way, RS, list(out.events))] == [BlitzOffered]
