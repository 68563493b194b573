"""The odds a battle message can open with (option ``battle_message_odds``, R-COMBAT-16, issue
13): worked out when the battle begins, within a bounded cost, since the battle is fought on
the order's path.

Exact when the state space is at most :data:`OPENING_EXACT_STATES` (a few tens of
milliseconds), else a Monte Carlo of :data:`OPENING_RUNS` battles seeded by the battle's id
(the same battle always gets the same figures). The full answer, exact or pruned for far
larger battles, is what ``/odds`` gives.
"""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.odds.methods import odds_for
from caedes_bot.rules.odds.model import BattleModel
from caedes_bot.rules.odds.planned import battle_now
from caedes_bot.rules.odds.summary import Method
from caedes_bot.rules.state import Battle, GameState

#: Largest state space worked out exactly for a battle message.
OPENING_EXACT_STATES = 3_000
#: Battles rolled for a battle message beyond it.
OPENING_RUNS = 2_000


def note_opening_odds(state: GameState, ruleset: Ruleset, battle: Battle) -> None:
    """Work out the odds of ``battle`` as it begins and keep them on it
    (:attr:`~caedes_bot.rules.state.Battle.opening_odds`: attacker takes the province,
    defender holds, both destroyed, expected rounds, standard error, battles rolled;
    :attr:`~caedes_bot.rules.state.Battle.opening_method`). Mutates ``battle``."""
    setup = battle_now(state, ruleset, battle.space, battle.attacker)
    arguments = setup.odds_arguments()
    model = BattleModel(
        setup.fighters,
        state.options,
        setup.attacker,
        setup.defender_order,
        setup.masters_elsewhere,
        declared=arguments["declared"],
        aboard=arguments["aboard"],
    )
    method: Method = "exact" if model.size_bound() <= OPENING_EXACT_STATES else "monte_carlo"
    odds = odds_for(
        setup.fighters,
        state.options,
        **arguments,
        method=method,
        runs=OPENING_RUNS,
        seed=battle.id,
    )
    battle.opening_odds = [
        odds.attacker_wins,
        odds.defender_holds,
        odds.both_destroyed,
        odds.expected_rounds,
        odds.standard_error or 0.0,
        float(odds.runs or 0),
    ]
    battle.opening_method = odds.method
    battle.opening_unsupported = list(odds.unsupported)
