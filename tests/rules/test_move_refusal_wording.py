"""Every refusal of a step-6 order names its own rule and says what is allowed instead
(R-MOVE-01, R-MOVE-15, R-MOVE-18, R-ATTR-BLITZ-02, R-MAGIC-DIV-01): the movement package,
ships, cargo and ``/undo``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import caedes_bot.rules as rules_package
from caedes_bot.cogs.ships import _unit_ids
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalMove, RuleViolation, UnknownName
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.state import Step
from caedes_bot.rules.undo import UndoLastOrder
from tests.rules.builders import kind, ruleset, state

_RULES = Path(rules_package.__file__).parent
_MODULES = [
    *sorted((_RULES / "movement").glob("*.py")),
    _RULES / "ships.py",
    _RULES / "cargo.py",
    _RULES / "undo.py",
]
_REFUSALS = {"RuleViolation", "IllegalMove", "IllegalCombat", "NotBuiltYet", "error"}

RS = ruleset(
    provinces={"a": ("plains",), "b": ("plains",)},
    borders=[("a", "b")],
    kinds=[kind("INF", "DAW")],
)


def _refusals_without(keyword: str) -> list[str]:
    missing = []
    for path in _MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in _REFUSALS
                and keyword not in {k.arg for k in node.keywords}
            ):
                missing.append(f"{path.name}:{node.lineno}")
    return missing


def test_every_step_6_refusal_names_its_rule() -> None:
    """No refusal of movement, ships, cargo or undo falls back to R-GEN-00."""
    assert _refusals_without("rule") == []


def test_every_step_6_refusal_says_what_is_allowed() -> None:
    """Each refusal carries an "Allowed:" line."""
    assert _refusals_without("allowed") == []


def test_r_move_01_undo_with_nothing_to_take_back_cites_the_move_rule() -> None:
    """R-MOVE-01: /undo in step 6 with nothing to take back names the rule that gives step 6's
    orders (not R-GEN-00) and says what is allowed."""
    board = state(RS, units=[("INF", "DAW", "a")], step=Step.MOVE)
    with pytest.raises(RuleViolation) as refused:
        apply(board, UndoLastOrder("DAW"), RS, ScriptedDice([]))
    assert refused.value.rule == "R-MOVE-01"
    assert refused.value.allowed == "give a new order instead"


def test_r_move_01_a_move_to_where_the_unit_stands_says_what_is_allowed() -> None:
    """R-MOVE-01: Infantry #1 already stands in a."""
    board = state(RS, units=[("INF", "DAW", "a")], step=Step.MOVE)
    with pytest.raises(IllegalMove) as refused:
        apply(board, MoveUnits("DAW", (1,), "a"), RS, ScriptedDice([]))
    assert refused.value.rule == "R-MOVE-01"
    assert refused.value.allowed == "another province as the destination"


def test_r_move_18_sail_with_a_ship_that_is_no_unit_cites_the_sailing_rule() -> None:
    """R-MOVE-18: ``/sail ship:-1`` names no unit; the refusal cites sailing, not upkeep
    (R-UPK-02), and lists what may be typed."""
    board = state(RS, units=[("INF", "DAW", "a")], step=Step.MOVE)
    with pytest.raises(UnknownName) as refused:
        _unit_ids(board, RS, "DAW", "-1", "R-MOVE-18")
    assert refused.value.rule == "R-MOVE-18"
    assert refused.value.allowed is not None and "#4" in refused.value.allowed
    with pytest.raises(UnknownName) as boarding:
        _unit_ids(board, RS, "DAW", "-1")
    assert boarding.value.rule == "R-MOVE-15"


def test_r_move_02_a_refused_move_with_via_lists_where_the_unit_can_go() -> None:
    """R-MOVE-02, R-MOVE-01: cavalry (2 movement) in a; Orc infantry in b, on the only way to
    c (a-b-c, and a-d). ``/move to:c via:a`` is refused because b stops every way to c, and
    the Allowed line lists where the cavalry can go at all (b, an attack, and d), never "cannot
    move anywhere" because the via (its own province) fits no route."""
    rs = ruleset(
        provinces={p: ("plains",) for p in "abcd"},
        borders=[("a", "b"), ("b", "c"), ("a", "d")],
        kinds=[kind("CAV", "DAW", "cavalry", name="Dawnian Cavalry"), kind("ORCI", "ORC")],
    )
    board = state(rs, units=[("CAV", "DAW", "a"), ("ORCI", "ORC", "b")], step=Step.MOVE)
    for via in ((), ("a",)):
        with pytest.raises(IllegalMove) as refused:
            apply(board, MoveUnits("DAW", (1,), "c", None, via), rs, ScriptedDice([]))
        assert refused.value.rule == "R-MOVE-02", via
        assert refused.value.allowed == "Dawnian Cavalry #1 can reach: B, D", via
