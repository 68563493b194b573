"""Partial declarations: one kind at a time, then a confirm (R-COMBAT-12, R-PBP-DEAD-04).

A faction with several kinds to declare picks each in its own select; each pick is recorded
on the open decision without answering it, and the answer (or the missed deadline) uses the
picks for the kinds it does not name. Units: DAW attacks with an Engineer (Breathweapon, id 1)
and a Cleric (Abjurer, id 2) against one Orc infantry (id 3).
"""

from __future__ import annotations

from caedes_bot.rules.combat.actions import DeclareActions, DeclaredKind, change_detail
from caedes_bot.rules.combat.battle import answer_by_default
from caedes_bot.rules.combat.magic_events import StandingOrdersSet
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.state import (
    DecisionKind,
    DeclarationsDetail,
    DiePurpose,
    GameState,
    PendingDecision,
)
from tests.rules.combat.test_magic import begin, of, only, setup, steps

MANY_MISSES = [9] * 20


def _declaration(st: GameState) -> PendingDecision:
    return only(st.pending, DecisionKind.DECLARE_ACTIONS)


def _detail(decision: PendingDecision) -> DeclarationsDetail:
    assert isinstance(decision.detail, DeclarationsDetail)
    return decision.detail


def test_r_combat_12_a_partial_answer_keeps_the_decision_open_and_twice_is_once() -> None:
    """R-COMBAT-12: picking "0 Engineers breathe" records the pick on the same decision,
    which stays open, fights nothing and rolls no die; picking it again changes nothing."""
    rs, st = setup(["ENG", "CLERIC"], ["ORCI"])
    opened = begin(st, rs).state
    decision = _declaration(opened)
    pick = DeclareActions("DAW", (DeclaredKind("ENG", 0),), partial=True)
    out = apply(opened, pick, rs, ScriptedDice([]))
    assert not out.events
    kept = _declaration(out.state)
    assert kept.id == decision.id
    chosen = {c.kind: (c.chosen, c.chosen_ask) for c in _detail(kept).choices}
    assert chosen == {"ENG": (0, False), "CLERIC": (None, False)}
    assert out.state.battle is not None and out.state.battle.standing == []
    again = apply(out.state, pick, rs, ScriptedDice([]))
    assert not again.events and again.state.pending == out.state.pending


def test_r_combat_12_confirm_uses_each_pick_and_defaults_the_rest() -> None:
    """R-COMBAT-12: after picking the Cleric "1, ask me each round" and the Engineer 0, an
    answer naming nothing declares both picks; the Engineer then rolls one normal die."""
    rs, st = setup(["ENG", "CLERIC"], ["ORCI"])
    state = begin(st, rs).state
    for choice in (DeclaredKind("CLERIC", 1, True), DeclaredKind("ENG", 0)):
        state = apply(
            state, DeclareActions("DAW", (choice,), partial=True), rs, ScriptedDice([])
        ).state
    out = apply(state, DeclareActions("DAW"), rs, ScriptedDice(MANY_MISSES))
    (event,) = of(out.events, StandingOrdersSet)
    assert isinstance(event, StandingOrdersSet)
    assert sorted((o.kind, o.count, o.ask) for o in event.orders) == [
        ("CLERIC", 1, True),
        ("ENG", 0, False),
    ]
    assert [d.purpose for d in steps(out)[0].dice if d.unit == 1] == [DiePurpose.NORMAL]


def test_r_pbp_dead_04_a_missed_deadline_keeps_the_picks_and_defaults_the_rest() -> None:
    """R-PBP-DEAD-04, R-COMBAT-12: the defaults apply per choice: the Engineer picked 0 stays
    0 (its default is 1: three breath dice beat one die at 2), the Cleric takes its default."""
    rs, st = setup(["ENG", "CLERIC"], ["ORCI"])
    state = begin(st, rs).state
    defaults = {c.kind: c.default for c in _detail(_declaration(state)).choices}
    assert defaults["ENG"] == 1
    pick = DeclareActions("DAW", (DeclaredKind("ENG", 0),), partial=True)
    work = apply(state, pick, rs, ScriptedDice([])).state.clone()
    events = answer_by_default(work, rs, ScriptedDice(MANY_MISSES), _declaration(work))
    (event,) = of(events, StandingOrdersSet)
    assert isinstance(event, StandingOrdersSet) and event.by_default
    assert {o.kind: o.count for o in event.orders} == {"CLERIC": defaults["CLERIC"], "ENG": 0}


def test_r_combat_12_a_change_menu_shows_the_standing_orders_and_a_same_change_is_nothing() -> None:
    """R-COMBAT-12: between rounds, the change menu lists both kinds with their standing counts
    (the Engineer 1, the Cleric 0); changing the Engineer to 0 holds from round 2 (one
    StandingOrdersSet); giving the same change again changes nothing and adds no note."""
    rs, st = setup(["ENG", "CLERIC"], ["ORCI"])
    state = begin(st, rs).state
    answer = DeclareActions("DAW", (DeclaredKind("ENG", 1), DeclaredKind("CLERIC", 0)))
    state = apply(state, answer, rs, ScriptedDice(MANY_MISSES)).state
    assert state.battle is not None
    detail = change_detail(state, rs, state.battle, "DAW")
    assert detail is not None
    assert {c.kind: (c.units, c.standing) for c in detail.choices} == {
        "ENG": (1, 1),
        "CLERIC": (1, 0),
    }
    assert change_detail(state, rs, state.battle, "ORC") is None
    change = DeclareActions("DAW", (DeclaredKind("ENG", 0),), partial=True)
    once = apply(state, change, rs, ScriptedDice([]))
    (event,) = of(once.events, StandingOrdersSet)
    assert isinstance(event, StandingOrdersSet) and event.round == 2
    twice = apply(once.state, change, rs, ScriptedDice([]))
    assert not twice.events
    assert twice.state.battle is not None and once.state.battle is not None
    assert twice.state.battle.notes == once.state.battle.notes
