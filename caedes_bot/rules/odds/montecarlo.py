"""Monte Carlo odds: many battles rolled at once on arrays (R-COMBAT-03..13, R-GEN-02).

Every battle is a pair of side-state numbers of the same :class:`~.model.BattleModel` the exact
method uses, so the per-die chances (:func:`~caedes_bot.rules.combat.arithmetic.step_dice`,
R-GEN-02) and the casualties (:func:`~caedes_bot.rules.combat.arithmetic.default_casualties`,
:func:`~caedes_bot.rules.combat.arithmetic.share_hits`, the Mercenary check) are those of real
battles. Each step, the battles standing in one battle state draw their next side states
together, one uniform number per side and battle against the cumulative chances of that
side's next states; a round's hitless count, rounds and stalemates (R-COMBAT-13) are kept per
battle. The dice come from a seeded NumPy generator: the same seed gives the same answer.

Used only where the state space is too large to enumerate (:func:`caedes_bot.rules.odds.odds_for`).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from caedes_bot.rules.odds.model import BattleModel
from caedes_bot.rules.odds.summary import Odds, summarise
from caedes_bot.rules.odds.tables import Floats, Ints
from caedes_bot.rules.state import CombatStep


def _groups(i: Ints, j: Ints, width: int) -> list[tuple[int, int, Ints]]:
    """The battles (positions) standing in each battle state ``(i, j)``."""
    if len(i) == 0:
        return []
    key = i * width + j
    order = np.argsort(key, kind="stable")
    sorted_keys = key[order]
    cuts = np.flatnonzero(np.diff(sorted_keys)) + 1
    out = []
    for part in np.split(order, cuts):
        k = int(key[part[0]])
        out.append((k // width, k % width, part))
    return out


def _picks(chances: Floats, u: Floats) -> Ints:
    cumulative = np.cumsum(chances)
    picks: Ints = np.minimum(
        np.searchsorted(cumulative, u * cumulative[-1], side="right"), len(chances) - 1
    )
    return picks


def _draw(chances: Floats, states: Ints, u: Floats) -> Ints:
    out: Ints = states[_picks(chances, u)]
    return out


def _step(
    model: BattleModel,
    rng: np.random.Generator,
    i: Ints,
    j: Ints,
    live: Ints,
    step: CombatStep,
    first_round: bool,
) -> None:
    """One step for the battles at positions ``live``: their side states are replaced."""
    width = max(len(model.dfn.states), 1)
    for gi, gj, part in _groups(i[live], j[live], width):
        where = live[part]
        t = model.step(gi, gj, step, first_round)
        draws = rng.random((2, len(where)))
        if t.joint is None:
            i[where] = _draw(t.a.chances, t.a.states, draws[0])
            j[where] = _draw(t.d.chances, t.d.states, draws[1])
            continue
        # Breath dice: the two sides' hits are drawn together (R-ATTR-BREATH-01).
        picks = _picks(t.joint.ravel(), draws[0])
        cols = t.joint.shape[1]
        i[where] = t.a.states[picks // cols]
        j[where] = t.d.states[picks % cols]


def _undecided(model: BattleModel, i: Ints, j: Ints, live: Ints) -> Ints:
    hp_a = np.array(model.att.hp, np.intp)
    hp_d = np.array(model.dfn.hp, np.intp)
    return live[(hp_a[i[live]] > 0) & (hp_d[j[live]] > 0)]


def _mercenaries(model: BattleModel, i: Ints, j: Ints, live: Ints, first_round: bool) -> None:
    if not model.any_mercenary:
        return
    width = max(len(model.dfn.states), 1)
    for gi, gj, part in _groups(i[live], j[live], width):
        ni, nj = model.after_mercenaries(gi, gj, first_round)
        i[live[part]] = ni
        j[live[part]] = nj


def simulate(
    model: BattleModel,
    *,
    stalemate_rounds: int,
    start_round: int = 1,
    hitless_rounds: int = 0,
    runs: int,
    seed: int = 0,
) -> Odds:
    """Roll ``runs`` battles of ``model`` to their end and summarise them (the fields of
    :class:`~caedes_bot.rules.odds.Odds`; ``standard_error`` the largest standard error of the
    four chances, ``runs`` the battles rolled).

    Raises:
        ValueError: ``runs`` below 1.
    """
    if runs < 1:
        raise ValueError("at least one battle must be rolled")
    rng = np.random.default_rng(seed)
    i: Ints = np.full(runs, model.att.start, np.intp)
    j: Ints = np.full(runs, model.dfn.start, np.intp)
    hitless: Ints = np.full(runs, hitless_rounds, np.intp)
    rounds: Ints = np.zeros(runs, np.intp)
    stalled = np.zeros(runs, bool)
    live: Ints = _undecided(model, i, j, np.arange(runs, dtype=np.intp))
    round_no = start_round
    while len(live):
        first = round_no == 1
        rounds[live] += 1
        was_i, was_j = i[live].copy(), j[live].copy()
        _mercenaries(model, i, j, live, first)
        fighting = _undecided(model, i, j, live)
        _step(model, rng, i, j, fighting, CombatStep.MISSILE, first)
        fighting = _undecided(model, i, j, fighting)
        _step(model, rng, i, j, fighting, CombatStep.MELEE, first)
        standing = _undecided(model, i, j, live)
        changed = (i[live] != was_i) | (j[live] != was_j)
        hitless[live] = np.where(changed, 0, hitless[live] + 1)
        stuck = standing[hitless[standing] >= stalemate_rounds]
        stalled[stuck] = True
        live = standing[hitless[standing] < stalemate_rounds]
        round_no += 1
    rows, cols = len(model.att.states), len(model.dfn.states)
    ends: Floats = np.zeros((rows, cols))
    stalls: Floats = np.zeros((rows, cols))
    # Count the battles ending in each state, then divide once: adding 1/runs battle by battle
    # could sum past 1 when every battle ends alike, and then no standard error could be taken.
    np.add.at(ends, (i[~stalled], j[~stalled]), 1.0)
    np.add.at(stalls, (i[stalled], j[stalled]), 1.0)
    ends /= runs
    stalls /= runs
    odds = summarise(
        model,
        ends,
        stalls,
        states=rows * cols,
        rounds=float(rounds.mean()),
        method="monte_carlo",
        runs=runs,
    )
    chances = (odds.attacker_wins, odds.defender_holds, odds.both_destroyed, odds.stalemate)
    error = max(math.sqrt(max(p * (1.0 - p), 0.0) / runs) for p in chances)
    return replace(odds, standard_error=error)
