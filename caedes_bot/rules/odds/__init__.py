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

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.odds.methods import (
    EXACT_STATES,
    EXACT_WORK,
    MONTE_CARLO_RUNS,
    PRUNE_THRESHOLD,
    PRUNED_STATES,
    PRUNED_WORK,
    BattleResult,
    OddsTooComplex,
    choose_method,
    odds_for,
)
from caedes_bot.rules.odds.planned import battle_now
from caedes_bot.rules.odds.summary import Method, Odds, summarise
from caedes_bot.rules.state import GameState


def battle_odds(
    state: GameState, ruleset: Ruleset, space: str, attacker: str | None = None
) -> Odds:
    """Odds of the battle ``attacker`` (default: the active faction) fights in ``space``
    (:func:`.planned.battle_now`: as it would begin, or from the next round of the one under
    way).

    A battle holding an Enchanter or an Illusionist (:func:`.fought.needs_fighting`) is to be
    fought on the real battle path instead, with :func:`.fought.fought_odds` (as the odds
    worker does); here they would count as rolling their normal dice.

    Raises:
        ValueError: no attacker, nobody to fight there, or casualties are owed right now.
    """
    setup = battle_now(state, ruleset, space, attacker)
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
