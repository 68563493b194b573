"""``SetStep``: the umpire moves the turn under way on to a later step (R-PBP-UMP-01,
R-PBP-DEAD-03, R-PBP-DEAD-04; :mod:`caedes_bot.rules.umpire_step`). It must do exactly what
``UmpireAdvance`` after ``UmpireAdvance`` does, so each test compares the two.

The skirmish's Dawnians play round 1 (:mod:`tests.ui.skirmish`): no battle is due, so no die
is rolled; step 3 collects and step 4 pays upkeep by themselves (R-TURN-02 as ruled).
"""

from __future__ import annotations

import pytest

from caedes_bot.persistence.mappers import dump_state
from caedes_bot.rules import engine
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import StepEnded, UmpireAdvance
from caedes_bot.rules.umpire_step import SetStep, StepSet
from tests.rules.test_upkeep import NO_DICE, _to_upkeep
from tests.ui.skirmish import apply, at_step


def _advanced_to(state: GameState, step: Step) -> GameState:
    """The state ``UmpireAdvance`` given again and again reaches: the turn at ``step`` or later."""
    faction = state.active
    while state.active == faction and state.step < step:
        state, _ = apply(state, UmpireAdvance(state.active or ""))
    return state


def _same(a: GameState, b: GameState) -> bool:
    return dump_state(a) == dump_state(b)


def test_r_pbp_ump_01_set_step_forward_is_advance_after_advance() -> None:
    """From step 1 to step 6 Move: step 1 ends as a pass, steps 2 to 4 run by themselves
    (nothing to redeem, collecting, upkeep paid), step 5 ends as a pass; the same state as
    ``UmpireAdvance`` given until step 6, announced as from 1 Trade to 6 Move."""
    start = at_step(Step.TRADE)
    moved, events = apply(start, SetStep("UMPIRE", Step.MOVE))
    assert moved.step is Step.MOVE and moved.active == "DAW"
    assert _same(moved, _advanced_to(start, Step.MOVE))
    ended = [e.step for e in events if isinstance(e, StepEnded)]
    assert ended == [Step.TRADE, Step.REDEEM, Step.COLLECT, Step.UPKEEP, Step.BUY]
    assert events[-1] == StepSet("DAW", 1, Step.TRADE, Step.MOVE, Step.MOVE, 0, False)


def test_r_pbp_ump_01_a_step_that_runs_by_itself_is_passed_through() -> None:
    """Step 3 Collect never waits: set to it from step 1, the turn rests at the next step that
    waits, step 5 Buy (here steps 2 and 4 do not wait either), and the event says so."""
    start = at_step(Step.TRADE)
    moved, events = apply(start, SetStep("UMPIRE", Step.COLLECT))
    assert moved.step is Step.BUY
    assert _same(moved, _advanced_to(start, Step.COLLECT))
    assert events[-1] == StepSet("DAW", 1, Step.TRADE, Step.BUY, Step.COLLECT, 0, False)


def test_r_pbp_ump_01_the_current_step_or_an_earlier_one_is_refused() -> None:
    """The current step, and an earlier one (going back is a rollback), are refused with what
    is allowed; nothing changes."""
    start = at_step(Step.BUY)
    for step, words in ((Step.BUY, "already"), (Step.TRADE, "rollback")):
        with pytest.raises(RuleViolation) as refused:
            apply(start, SetStep("UMPIRE", step))
        assert refused.value.rule == "R-PBP-UMP-01" and words in str(refused.value)
        assert refused.value.allowed
    assert start.step is Step.BUY


def test_r_pbp_dead_04_a_decision_on_the_way_is_answered_by_its_default() -> None:
    """R-UPK-03, R-PBP-DEAD-04: 13 Infantry and 1 RP in step 4 owe an ``upkeep_disband``
    answer; set to step 6, its default disbands the 7 newest (ids 13 to 7: 6 left pay 1 RP),
    as ``UmpireAdvance`` would, and the event counts one decision answered by default."""
    rs, start, _ = _to_upkeep([("DI", "a")] * 13, rp=1)
    assert start.pending
    moved = engine.apply(start, SetStep("UMPIRE", Step.MOVE), rs, NO_DICE)
    state = start
    while state.step < Step.MOVE:
        state = engine.apply(state, UmpireAdvance("DAW"), rs, NO_DICE).state
    assert _same(moved.state, state)
    assert sorted(int(k) for k in moved.state.units) == [1, 2, 3, 4, 5, 6]
    assert moved.state.factions["DAW"].rp == 0
    last = moved.events[-1]
    assert isinstance(last, StepSet) and (last.before, last.after, last.defaulted) == (
        Step.UPKEEP,
        Step.MOVE,
        1,
    )


def test_r_pbp_ump_01_set_step_into_a_later_factions_turn() -> None:
    """From the Dawnians' step 1 to step 6 of the Orcs' turn (next in the round): the rest of
    the Dawnians' turn and the Orcs' steps 1 to 5 are played by the defaults, the same state
    as ``UmpireAdvance`` given until then; the event names both turns."""
    start = at_step(Step.TRADE)
    moved, events = apply(start, SetStep("UMPIRE", Step.MOVE, turn_of="ORC"))
    state = start
    while not (state.active == "ORC" and state.step >= Step.MOVE):
        state, _ = apply(state, UmpireAdvance(state.active or ""))
    assert (moved.active, moved.step) == ("ORC", Step.MOVE)
    assert _same(moved, state)
    assert events[-1] == StepSet("ORC", 1, Step.TRADE, Step.MOVE, Step.MOVE, 0, False, "DAW")


def test_r_pbp_ump_01_an_earlier_or_unknown_factions_turn_is_refused() -> None:
    """In the Orcs' turn, the Dawnians' turn (earlier in the round) is behind the game: a
    rollback; a faction not in the game is refused with those that are."""
    orcs, _ = apply(at_step(Step.TRADE), SetStep("UMPIRE", Step.TRADE, turn_of="ORC"))
    assert orcs.active == "ORC"
    with pytest.raises(RuleViolation, match="rollback"):
        apply(orcs, SetStep("UMPIRE", Step.MUSTER, turn_of="DAW"))
    with pytest.raises(RuleViolation) as unknown:
        apply(orcs, SetStep("UMPIRE", Step.MUSTER, turn_of="XYZ"))
    assert "DAW" in (unknown.value.allowed or "")
