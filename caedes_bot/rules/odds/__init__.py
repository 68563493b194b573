"""Battle odds (design.md section 3: one function set for real battles and odds).

:func:`odds_for` gives, for a battle fought to the end with the standing declarations of a
missed deadline (the default casualties of R-COMBAT-06, no withdrawal: R-COMBAT-08 pressed on),
the chance of each result, the expected survivors of each side by unit kind and the expected
rounds. It uses the very functions real battles use (:mod:`caedes_bot.rules.combat.arithmetic`,
through :mod:`.model`), so odds and battles cannot disagree.

Three methods, chosen before computing by the size of the battle's state space (the number of
side states each side can reach, multiplied, bounded by
:meth:`.model.BattleModel.size_bound`) and by a bound on the enumeration's arithmetic (that
size times the cells of one step's table, :meth:`.model.BattleModel.work_bound`), never by
timing out:

* ``exact`` (at most :data:`EXACT_STATES` states and :data:`EXACT_WORK` cells): every battle
  state's chance worked out (:mod:`.exact`); the figures are exact up to floating-point
  rounding.
* ``pruned`` (at most :data:`PRUNED_STATES` states and :data:`PRUNED_WORK` cells): the same
  enumeration dropping states whose chance is below :data:`PRUNE_THRESHOLD`; ``error_bound``
  is the chance dropped, a hard bound on the error of every chance reported (each is low by at
  most that much).
* ``monte_carlo`` (beyond): :data:`MONTE_CARLO_RUNS` battles rolled at once on arrays over the
  same steps (:mod:`.montecarlo`); ``standard_error`` is the largest standard error of the
  chances and ``runs`` the number of battles.

What each method supports: every attribute whose effect a side state holds: values (Elite,
Weak, Veteran, Meek, the lores, Predator), Fear and Inspiring (round 1), Mighty, Missile (and
Missile lost in forest), Fortitude (and option ``fortitude_end``), Towers, Heroes (last
casualties, option ``hero_leadership_bonus``), Mercenaries (the round-start check, option
``giant_allies_mercenary``), Undead and Summoned units lost with their last master, ships'
cargo lost with the ship (R-MOVE-19) and carried cavalry at attack -3 (R-MOVE-20), several
defending factions (hits handed out in turn), the special actions declared by the defaults of
a missed deadline or a battle's standing orders (R-COMBAT-12): Breathweapon (options
``breath_mode`` and ``breath_mighty_dice``; own-side 10s), Invoker and Abjurer (a cancel flag
per Abjurer, back each round), and options ``stalemate_rounds``, ``predator_symmetric`` and
``allied_includes_pacts``. A Summoner summons nothing on a missed deadline (R-PBP-DEAD-04), so
it fights as an ordinary unit. The Enchanter (a unit changes sides) and the Illusionist
(rerolls after the dice fall) are not held by a side state (:data:`.model.UNMODELLED`): a
battle on the board holding them is fought on the real battle path, many times on copies of
the state (:mod:`.fought`, Monte Carlo, ``fought`` names them); given only fighters
(:func:`odds_for`), they are counted as if rolling their normal dice and ``unsupported``
names them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules.combat.arithmetic import BattleResult as BattleResult
from caedes_bot.rules.combat.arithmetic import Fighter
from caedes_bot.rules.odds.exact import enumerate_battle
from caedes_bot.rules.odds.model import BattleModel
from caedes_bot.rules.odds.montecarlo import simulate
from caedes_bot.rules.odds.planned import battle_now
from caedes_bot.rules.odds.summary import Method, Odds, summarise
from caedes_bot.rules.state import BattleAction, GameState

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


def battle_odds(
    state: GameState, ruleset: Ruleset, space: str, attacker: str | None = None
) -> Odds:
    """Odds of the battle ``attacker`` (default: the active faction) fights in ``space``
    (:func:`.planned.battle_now`: as it would begin, or from the next round of the one under
    way).

    A battle holding an Enchanter or an Illusionist is fought on the real battle path instead
    (:func:`.fought.fought_odds`, Monte Carlo of :data:`.fought.FOUGHT_RUNS` battles).

    Raises:
        ValueError: no attacker, nobody to fight there, or casualties are owed right now.
    """
    setup = battle_now(state, ruleset, space, attacker)
    from caedes_bot.rules.odds.fought import fought_odds, needs_fighting  # uses combat.battle

    if needs_fighting(setup.fighters):
        return fought_odds(state, ruleset, space, setup.attacker)
    return odds_for(setup.fighters, state.options, **setup.odds_arguments())


__all__ = [
    "EXACT_STATES",
    "EXACT_WORK",
    "MONTE_CARLO_RUNS",
    "PRUNED_STATES",
    "PRUNED_WORK",
    "PRUNE_THRESHOLD",
    "BattleResult",
    "Method",
    "Odds",
    "OddsTooComplex",
    "battle_odds",
    "choose_method",
    "odds_for",
    "summarise",
]
