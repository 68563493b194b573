"""Taking back orders (``UndoLastOrder``, :mod:`caedes_bot.rules.undo`) and a property test of
moves: a random sequence of legal moves, flights, crossings and undos never puts a unit in
two places or gives it more movement than its allowance; a refused move and an undo leave
the state exactly as it was (R-MOVE-01, R-ATTR-FLY-01, R-ATTR-AMPH-01)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caedes_bot.gamedata.model import movement_allowance
from caedes_bot.persistence.mappers import dump_state
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.movement import FLYING_ALLOWANCE, FlyUnits, MoveUnits, Teleport
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep
from caedes_bot.rules.undo import OrderTakenBack, UndoLastOrder, can_undo
from tests.rules.builders import kind, ruleset, state

KINDS = [
    kind("INF", "DAW"),
    kind("CAV", "DAW", "cavalry"),
    kind("FLY", "DAW", "cavalry", ["flying"]),
    kind("AMPH", "DAW", attributes=["amphibian", "quick"]),
    kind("MAGE", "DAW", attributes=["teleportation"]),
    kind("ORCI", "ORC"),
]
PROVINCES = {
    "a": ("plains",),
    "b": ("forest",),
    "c": ("plains", "hills"),
    "d": ("mountains",),
    "e": ("swamp",),
    "f": ("plains",),
    "isle": ("plains",),
}
RS = ruleset(
    provinces=PROVINCES,
    borders=[("a", "b"), ("b", "c"), ("c", "d"), ("c", "e"), ("e", "f"), ("a", "c")],
    rivers=[("b", "c")],
    seas=["sea"],
    coasts=[("a", "sea"), ("f", "sea"), ("isle", "sea")],
    kinds=KINDS,
)
NO_DICE = ScriptedDice([])


def _board() -> GameState:
    return state(
        RS,
        units=[
            ("INF", "DAW", "a"),
            ("CAV", "DAW", "a"),
            ("FLY", "DAW", "a"),
            ("AMPH", "DAW", "a"),
            ("MAGE", "DAW", "a"),
            ("ORCI", "ORC", "e"),
        ],
    )


def test_undo_takes_back_the_last_order_and_restores_everything() -> None:
    """A move then an undo: the state is exactly as before the move (every field of every
    record), and the event is the correction naming where the unit is again."""
    before = _board()
    moved = apply(before, MoveUnits("DAW", (2,), "c"), RS, NO_DICE).state
    assert can_undo(moved, "DAW") and not can_undo(moved, "ORC")
    out = apply(moved, UndoLastOrder("DAW"), RS, NO_DICE)
    assert out.events == (
        OrderTakenBack("DAW", "Moving units", unit_ids=(2,), places=("a",), left=0),
    )
    assert dump_state(out.state) == dump_state(before)


def test_undo_with_nothing_to_take_back_is_refused() -> None:
    """No order yet this step: refused, nothing changes."""
    with pytest.raises(RuleViolation, match="no order to take back"):
        apply(_board(), UndoLastOrder("DAW"), RS, NO_DICE)


def test_a_roll_ends_what_can_be_taken_back() -> None:
    """R-MAGIC-TELE-01, R-GEN-08: after a move and a teleport (a die rolled), neither the
    teleport nor the move before it can be taken back."""
    st = apply(_board(), MoveUnits("DAW", (1,), "c"), RS, NO_DICE).state
    st = apply(st, Teleport("DAW", 5, "isle"), RS, ScriptedDice([3])).state
    assert not can_undo(st, "DAW")
    with pytest.raises(RuleViolation):
        apply(st, UndoLastOrder("DAW"), RS, NO_DICE)


def test_ending_the_step_ends_what_can_be_taken_back() -> None:
    """Only orders of the current step: after step 6 ends, its moves stay."""
    st = apply(_board(), MoveUnits("DAW", (1,), "c"), RS, NO_DICE).state
    st = apply(st, EndStep("DAW"), RS, NO_DICE).state
    assert st.step is not Step.MOVE and st.undo_log == []


def test_a_refused_undo_changes_nothing() -> None:
    """A refusal leaves the state exactly as it was."""
    st = _board()
    text = dump_state(st)
    with pytest.raises(RuleViolation):
        apply(st, UndoLastOrder("DAW"), RS, NO_DICE)
    assert dump_state(st) == text


def test_an_undo_drawn_before_the_last_change_is_refused() -> None:
    """A double click on the panel's Undo button: both clicks carry the 2 orders the panel
    showed. The first takes back the second move; the second finds 1 order left, not 2, and
    is refused with nothing changed, so the first move stays (issue 11, undo)."""
    st = apply(_board(), MoveUnits("DAW", (1,), "c"), RS, NO_DICE).state
    st = apply(st, MoveUnits("DAW", (2,), "b"), RS, NO_DICE).state
    once = apply(st, UndoLastOrder("DAW", records=2), RS, NO_DICE).state
    assert once.unit(2).location == "a" and once.unit(1).location == "c"
    text = dump_state(once)
    with pytest.raises(RuleViolation, match="Nothing was taken back") as refused:
        apply(once, UndoLastOrder("DAW", records=2), RS, NO_DICE)
    assert "press Undo on the updated turn panel" in (refused.value.allowed or "")
    assert dump_state(once) == text
    twice = apply(once, UndoLastOrder("DAW", records=1), RS, NO_DICE).state
    assert twice.unit(1).location == "a"


def test_an_undo_drawn_before_a_new_order_takes_that_order_back() -> None:
    """A panel not yet updated after a move: its button still carries 1 order, the log holds
    2; the click takes back the last move, as /undo would."""
    st = apply(_board(), MoveUnits("DAW", (1,), "c"), RS, NO_DICE).state
    st = apply(st, MoveUnits("DAW", (2,), "b"), RS, NO_DICE).state
    out = apply(st, UndoLastOrder("DAW", records=1), RS, NO_DICE).state
    assert out.unit(2).location == "a" and out.unit(1).location == "c"


# --------------------------------------------------------------------------- property

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["move", "move", "fly", "undo"]),
        st.integers(1, 5),
        st.sampled_from([*sorted(PROVINCES), "sea"]),
    ),
    max_size=12,
)


def _allowance(state_: GameState, uid: int) -> int:
    unit = state_.unit(uid)
    kind_ = RS.kind(unit.kind)
    return FLYING_ALLOWANCE if unit.flew else movement_allowance(kind_)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS)
def test_random_moves_and_undos_keep_the_board_sound(actions: list[tuple[str, int, str]]) -> None:
    """R-MOVE-01, R-ATTR-FLY-01, R-ATTR-AMPH-01: whatever sequence of moves, flights and undos
    is tried, every unit stands in one space, never uses more than its allowance (4 after a
    flight), a refused order leaves the state exactly as it was, and an undo returns the
    state to exactly what it was before the order it takes back."""
    current = _board()
    history: list[str] = []  # the state's document before each order still undoable
    for action, uid, dest in actions:
        before = dump_state(current)
        order = (
            UndoLastOrder("DAW")
            if action == "undo"
            else (FlyUnits if action == "fly" else MoveUnits)("DAW", (uid,), dest)
        )
        try:
            current = apply(current, order, RS, NO_DICE).state
        except RuleViolation:
            assert dump_state(current) == before
            continue
        if action == "undo":
            assert dump_state(current) == history.pop()
        else:
            history.append(before)
        locations = [u.location for u in current.units.values()]
        assert len(locations) == len(current.units) == 6
        for unit in current.units.values():
            assert unit.movement_used <= _allowance(current, unit.id)
            assert unit.location in PROVINCES
    while history:
        current = apply(current, UndoLastOrder("DAW"), RS, NO_DICE).state
        assert dump_state(current) == history.pop()
    assert dump_state(current) == dump_state(_board())
