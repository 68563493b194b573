"""STUB written by the turn engineer so the turn machinery runs; the combat engineer replaces
this whole file with the real combat rules (R-COMBAT). The three functions below are the
agreed contract with :mod:`caedes_bot.rules.turn` (see ``docs/rules-status.md``)."""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import NotBuiltYet
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState, PendingDecision


def begin_combat_step(state: GameState, ruleset: Ruleset) -> list[Event]:
    """Called when the active faction ends step 6: sets ``state.battles_due`` (R-COMBAT-01)."""
    state.battles_due = []
    return []


def finish_combat_step(state: GameState, ruleset: Ruleset) -> list[Event]:
    """Called when step 7 ends: refuses unfinished battles, applies R-COLL-02(b) captures."""
    return []


def answer_by_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    """Answers a pending battle decision with its default (R-PBP-DEAD-04)."""
    raise NotBuiltYet("Battle decisions are not built yet.", rule="R-PBP-DEAD-04")
