"""The three methods of :mod:`caedes_bot.rules.odds` and the choice between them (see its
docstring): :func:`odds_for` for fighters, :func:`choose_method` by size and work."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from caedes_bot.gamedata.model import Options
from caedes_bot.rules.combat.arithmetic import BattleResult as BattleResult
from caedes_bot.rules.combat.arithmetic import Fighter
from caedes_bot.rules.odds.exact import enumerate_battle
from caedes_bot.rules.odds.model import BattleModel
from caedes_bot.rules.odds.montecarlo import simulate
from caedes_bot.rules.odds.summary import Method, Odds, summarise
from caedes_bot.rules.state import BattleAction

#: Largest state space worked out exactly (about 30 microseconds a state on the development
#: machine: 20,000 states take well under a second).
EXACT_STATES = 20_000
#: Largest enumeration worked out exactly, in table cells (:meth:`BattleModel.work_bound`):
#: 100 against 100 (about 1.3e8) takes about 1.3 s of processor time.
EXACT_WORK = 200_000_000
#: Largest state space enumerated with pruning.
PRUNED_STATES = 50_000
#: Largest enumeration with pruning, in table cells (it visits well under every state).
PRUNED_WORK = 400_000_000
#: States whose chance is below this are dropped by the pruned enumeration.
PRUNE_THRESHOLD = 1e-9
#: Battles rolled by the Monte Carlo method.
MONTE_CARLO_RUNS = 20_000


class OddsTooComplex(ValueError):
    """The method asked for cannot take a battle this large (see :data:`EXACT_STATES`)."""


def choose_method(model: BattleModel) -> Method:
    """The method for ``model``'s battle, by the size of its state space and the bound on the
    enumeration's arithmetic, both known before computing."""
    size = model.size_bound()
    work = model.work_bound()
    if size <= EXACT_STATES and work <= EXACT_WORK:
        return "exact"
    if size <= PRUNED_STATES and work <= PRUNED_WORK:
        return "pruned"
    return "monte_carlo"


def odds_for(
    fighters: Sequence[Fighter],
    options: Options,
    *,
    attacker: str,
    defender_order: Sequence[str],
    start_round: int = 1,
    hitless_rounds: int = 0,
    method: Method | None = None,
    threshold: float = PRUNE_THRESHOLD,
    runs: int = MONTE_CARLO_RUNS,
    seed: int = 0,
    masters_elsewhere: frozenset[tuple[str, str]] = frozenset(),
    declared: Mapping[int, BattleAction] | None = None,
    aboard: Mapping[int, int] | None = None,
) -> Odds:
    """Odds of a battle between ``fighters`` (both sides), fought to the end with default
    casualties and no withdrawal (R-COMBAT-03..13, R-GEN-02, R-PBP-DEAD-04).

    Args:
        fighters: every unit of both sides, as :func:`~caedes_bot.rules.combat.sides.fighter_of`
            makes them. attacker: the attacking faction. defender_order: defending factions in
            hand-out order (R-COMBAT-06).
        start_round: the round about to begin (1 for a new battle).
        hitless_rounds: hitless rounds in a row already fought (R-COMBAT-13).
        method: force a method (default: chosen by :func:`choose_method`).
        threshold: pruned method: chance below which a state is dropped.
        runs / seed: Monte Carlo: battles rolled, and the seed of their dice.
        masters_elsewhere: ``(faction, master attribute)`` pairs with a Necromancer or
            Summoner outside the battle; other factions' bound units fall with their last
            master here (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03).
        declared: unit id -> the special action it uses every round (R-COMBAT-12); default
            the standing declarations of a missed deadline (:func:`.model.default_declared`).
        aboard: carried unit id -> its ship's id; the carried units go down with their ship
            (R-MOVE-19).

    Raises:
        OddsTooComplex: ``method="exact"`` forced on a state space over :data:`EXACT_STATES`.
    """
    model = BattleModel(
        fighters,
        options,
        attacker,
        defender_order,
        masters_elsewhere,
        declared=declared,
        aboard=aboard,
        start_round=start_round,
    )
    chosen = method or choose_method(model)
    if method == "exact" and model.size_bound() > EXACT_STATES:
        raise OddsTooComplex(f"more than {EXACT_STATES} battle states")
    if chosen == "monte_carlo":
        return simulate(
            model,
            stalemate_rounds=options.stalemate_rounds,
            start_round=start_round,
            hitless_rounds=hitless_rounds,
            runs=runs,
            seed=seed,
        )
    out = enumerate_battle(
        model,
        stalemate_rounds=options.stalemate_rounds,
        start_round=start_round,
        hitless_rounds=hitless_rounds,
        threshold=threshold if chosen == "pruned" else 0.0,
    )
    m = out.masses
    rows, cols = len(model.att.states), len(model.dfn.states)
    decided = np.outer(np.array(model.att.hp[:rows]) == 0, np.ones(cols, bool)) | np.outer(
        np.ones(rows, bool), np.array(model.dfn.hp[:cols]) == 0
    )
    ends = np.where(decided, m.start[:rows, :cols] + m.melee[:rows, :cols], 0.0)
    # The states worked out from, and the ends reached (a battle decided in round 1 has no
    # state worked out after it, but its ends are states too).
    reached = out.states + int(np.count_nonzero(ends))
    return summarise(
        model,
        ends,
        m.stall,
        states=max(reached, 1),
        rounds=out.rounds,
        method=chosen,
        error_bound=out.dropped,
    )
