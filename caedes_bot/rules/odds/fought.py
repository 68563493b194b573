"""Monte Carlo odds over the real battle path, for what no side state holds: the Enchanter
(a unit changes sides, R-MAGIC-ENCH-01..03) and the Illusionist (dice rerolled after they
fall, R-MAGIC-ILL-01).

The battle is fought :data:`FOUGHT_RUNS` times on copies of the game state by the battle's own
functions (:func:`~caedes_bot.rules.combat.battle.begin_battle`, or the battle under way from
where it stands, and :func:`~caedes_bot.rules.combat.battle.answer_by_default` for every
decision), with seeded dice: the declarations, casualties, rerolls and enchantments are the
defaults of a missed deadline (R-PBP-DEAD-04), so these odds and the battles cannot disagree.
Slower than the arrays of :mod:`.montecarlo` (about a millisecond a battle), so fewer battles,
and the standard error says so. The copies are thrown away: nothing of the state changes.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.arithmetic import BattleResult, Fighter
from caedes_bot.rules.combat.battle import answer_by_default, begin_battle
from caedes_bot.rules.combat.events import (
    AttackerWithdrew,
    BattleBegan,
    BattleEnded,
    BattleRoundEnded,
)
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.odds.model import UNMODELLED
from caedes_bot.rules.odds.summary import Odds
from caedes_bot.rules.state import GameState

#: Battles fought on the real path (standard error at most 1.6 percentage points).
FOUGHT_RUNS = 1_000
#: Decisions answered in one battle before giving up (a guard: battles end by R-COMBAT-13).
MOST_DECISIONS = 100_000


def needs_fighting(fighters: list[Fighter] | tuple[Fighter, ...]) -> bool:
    """Whether a battle of ``fighters`` holds an attribute no side state holds
    (:data:`.model.UNMODELLED`: Enchanter, Illusionist)."""
    return any(f.kind.has(a) for f in fighters for a in UNMODELLED)


def _fight(state: GameState, ruleset: Ruleset, space: str, attacker: str, seed: str) -> list[Event]:
    dice = SeededDice(seed)
    battle = state.battle
    if battle is not None and battle.space == space:
        events: list[Event] = []
    else:
        events = begin_battle(state, ruleset, dice, space, attacker)
    for _ in range(MOST_DECISIONS):
        if state.battle is None:
            return events
        if not state.pending:
            raise ValueError("the battle waits on nothing it can answer")
        events += answer_by_default(state, ruleset, dice, state.pending[0])
    raise ValueError("the battle did not end")


def fought_odds(
    state: GameState,
    ruleset: Ruleset,
    space: str,
    attacker: str,
    *,
    runs: int = FOUGHT_RUNS,
    seed: int = 0,
) -> Odds:
    """Odds of the battle ``attacker`` fights in ``space`` (the one under way there from where
    it stands, else one begun now), by fighting it ``runs`` times on copies of ``state``.

    Returns:
        :class:`~caedes_bot.rules.odds.Odds` with ``method="monte_carlo"``, ``runs``,
        ``standard_error`` (the largest of the four chances') and ``fought=True``.

    Raises:
        ValueError: ``runs`` below 1, or the battle cannot be fought to its end by defaults
            (nobody to fight there, or a decision with no default).
    """
    if runs < 1:
        raise ValueError("at least one battle must be fought")
    base = state.clone()
    # The odds of a battle message are not wanted in a copy fought for the odds.
    base.options = replace(base.options, battle_message_odds=False)
    under_way = base.battle if base.battle is not None and base.battle.space == space else None
    start_round = 1 if under_way is None else under_way.round
    results: Counter[BattleResult] = Counter()
    survivors: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    rounds = 0
    kinds: tuple[set[str], set[str]] = (set(), set())
    for n in range(runs):
        copy = base.clone()
        try:
            events = _fight(copy, ruleset, space, attacker, f"odds-{seed}-{n}")
        except RuleViolation as err:
            raise ValueError(str(err)) from None
        ends = [e for e in events if isinstance(e, BattleEnded)]
        if not ends:
            raise ValueError(f"no battle to fight at {space}")
        end = ends[-1]
        results[end.result] += 1
        for side, ids in enumerate((end.attacker_survivors, end.defender_survivors)):
            if side == 0:  # a stalemate's attackers that withdrew stay on the board too
                ids = tuple(ids) + tuple(
                    u for e in events if isinstance(e, AttackerWithdrew) for u in e.unit_ids
                )
            for uid in set(ids):
                kind = copy.peek_unit(uid).kind
                survivors[side][kind] += 1
                kinds[side].add(kind)
        last = [e.round for e in events if isinstance(e, BattleRoundEnded)]
        fought = (max(last) if last else start_round) - start_round + 1
        rounds += max(fought, 1)
        if n == 0:
            for e in events:
                if isinstance(e, BattleBegan) and e.space == space:
                    kinds[0].update(base.peek_unit(u).kind for u in e.attacker_units)
                    kinds[1].update(base.peek_unit(u).kind for u in e.defender_units)
    if under_way is not None:
        kinds[0].update(base.peek_unit(u).kind for u in under_way.attacker_units)
        kinds[1].update(base.peek_unit(u).kind for u in under_way.defender_units)
    chances = {r: results[r] / runs for r in BattleResult}
    error = max(math.sqrt(p * (1.0 - p) / runs) for p in chances.values())
    by_kind = tuple(
        tuple((k, survivors[side][k] / runs) for k in sorted(kinds[side])) for side in (0, 1)
    )
    present = {
        a.value for side in kinds for k in side for a in UNMODELLED if ruleset.kind(k).has(a)
    }
    return Odds(
        attacker_wins=chances[BattleResult.ATTACKER_WON],
        defender_holds=chances[BattleResult.DEFENDER_HELD],
        both_destroyed=chances[BattleResult.BOTH_DESTROYED],
        stalemate=chances[BattleResult.STALEMATE],
        expected_attacker_survivors=sum(n for _, n in by_kind[0]),
        expected_defender_survivors=sum(n for _, n in by_kind[1]),
        states=0,
        attacker_by_kind=by_kind[0],
        defender_by_kind=by_kind[1],
        expected_rounds=rounds / runs,
        method="monte_carlo",
        standard_error=error,
        runs=runs,
        fought=tuple(sorted(present)),
    )


__all__ = ["FOUGHT_RUNS", "fought_odds", "needs_fighting"]
