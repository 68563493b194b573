"""The odds a battle message can show from its start (option ``battle_message_odds``,
R-COMBAT-16, issue 13; decision 0020).

Nothing is worked out on the order's path: when the battle begins, :func:`opening_request`
notes the battle as it stands then (a :class:`~caedes_bot.rules.combat.events.BattleOddsAsked`
event: plain values, stored with the order's events), and after the order the service's odds
worker reads it back with :func:`opening_setup` and works the odds out by the method the
battle's size chooses (:func:`caedes_bot.rules.odds.odds_for`), the same answer ``/odds``
gives for it.
"""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset, Terrain
from caedes_bot.rules.combat.arithmetic import Fighter
from caedes_bot.rules.combat.events import BattleOddsAsked, FighterRow
from caedes_bot.rules.odds.planned import BattleSetup, battle_now
from caedes_bot.rules.odds.summary import Odds
from caedes_bot.rules.state import Battle, BattleAction, GameState, Side


def _row(f: Fighter) -> FighterRow:
    terrain = "" if f.terrain is None else f.terrain.value
    return (
        f.id,
        f.kind.id,
        f.faction,
        f.side.value,
        terrain,
        f.wounded,
        f.muster_seq,
        f.mercenary,
        f.can_withdraw,
        f.attack_penalty,
    )


def opening_request(state: GameState, ruleset: Ruleset, battle: Battle) -> BattleOddsAsked:
    """The battle ``battle`` as it begins (its fighters as real battles make them, hand-out
    order, masters outside it, cargo), for its odds worked out later (R-COMBAT-16). Cheap:
    no odds are worked out. Reads ``state`` only.

    Raises:
        ValueError: ``battle`` is not the battle under way in ``state``.
    """
    setup = battle_now(state, ruleset, battle.space, battle.attacker)
    return BattleOddsAsked(
        battle.id,
        battle.space,
        battle.attacker,
        setup.defender_order,
        tuple(_row(f) for f in setup.fighters),
        tuple(sorted(setup.masters_elsewhere)),
        setup.aboard,
        tuple((uid, action.value) for uid, action in setup.declared or ()),
    )


def opening_setup(ruleset: Ruleset, asked: BattleOddsAsked) -> BattleSetup:
    """The battle of ``asked`` as :func:`caedes_bot.rules.odds.odds_for` takes it: the same
    fighters, order, masters, cargo and declarations as :func:`opening_request` read.

    Raises:
        KeyError: a unit kind the ruleset does not have.
    """
    fighters = tuple(
        Fighter(
            uid,
            ruleset.kind(kind),
            faction,
            Side(side),
            Terrain(terrain) if terrain else None,
            wounded,
            muster_seq,
            mercenary,
            can_withdraw,
            attack_penalty=penalty,
        )
        for (
            uid,
            kind,
            faction,
            side,
            terrain,
            wounded,
            muster_seq,
            mercenary,
            can_withdraw,
            penalty,
        ) in asked.fighters
    )
    return BattleSetup(
        asked.space,
        fighters,
        asked.attacker,
        asked.defenders,
        masters_elsewhere=frozenset(asked.masters_elsewhere),
        declared=tuple((uid, BattleAction(action)) for uid, action in asked.declared),
        aboard=asked.aboard,
    )


def opening_figures(odds: Odds) -> tuple[float, ...]:
    """What a battle message shows of ``odds``: the chances that the attacker takes the
    province, that the defender holds it and that both are destroyed, the expected rounds,
    the standard error (0 unless Monte Carlo) and the battles rolled (0 unless Monte Carlo)."""
    return (
        odds.attacker_wins,
        odds.defender_holds,
        odds.both_destroyed,
        odds.expected_rounds,
        odds.standard_error or 0.0,
        float(odds.runs or 0),
    )
