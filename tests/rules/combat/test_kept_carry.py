"""What the battle's roster carries from step to step since the fifth pass of issue 9
(decision 0013): every list at once, the casualty decision lines with a new wound shown, the
context kept while each thing it reads is still held by someone, and the round-start phase
passed over when none of its actions has anything to do (R-COMBAT-03, -04..07, -12,
R-ATTR-MERC-01, R-MAGIC-SUMM-01).

Each roster kept after an order is compared with one made afresh from the unit lists.
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat import round_start
from caedes_bot.rules.combat.arithmetic import step_context, step_dice
from caedes_bot.rules.combat.orders import AssignCasualties, PressOn
from caedes_bot.rules.combat.round_start import RoundStartAction
from caedes_bot.rules.combat.sides import battle_candidates, battle_roster
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import MercenariesDeserted
from caedes_bot.rules.state import Battle, CombatStep, GameState, Side
from tests.rules.combat.test_battle import battle_setup, fight, of_type
from tests.rules.combat.test_kept import random_battle

_ATTACKERS = ("INF", "ARCHER", "MIGHTY", "PREDCAV", "FORT", "H-DAW-01", "ELITE", "MERC")
_DEFENDERS = ("ORCI", "ORCARROW", "ORCFORT", "ORCCAV", "ORCVET", "H-ORC-01")


def _compare(state: GameState, rs: object, battle: Battle) -> int:
    """The kept roster's carried lists against a fresh roster's; returns the lists compared."""
    kept = battle_roster(state, rs, battle)  # type: ignore[arg-type]
    memo = battle.memo()
    held = memo.pop("sides")
    try:
        fresh = battle_roster(state, rs, battle)  # type: ignore[arg-type]
    finally:
        memo["sides"] = held
    compared = 0
    attackers = fresh.side(Side.ATTACKER)
    assert kept.withdrawing(True) == [f for f in attackers if f.can_withdraw]
    assert kept.withdrawing(False) == [f for f in attackers if not f.can_withdraw]
    for side in Side:
        assert kept.mercenaries(side) == [f for f in fresh.side(side) if f.mercenary]
        assert kept.summoners(side) == fresh.summoners(side)
        for faction in {f.faction for f in fresh.side(side)}:
            lines = kept.candidates(side, faction)
            if lines is not None:  # a decision line kept or carried: as made afresh
                expected = battle_candidates(state, rs, battle, fresh.of(side, faction))  # type: ignore[arg-type]
                assert lines == expected
                compared += 1
    # the context carried while nobody holding what it reads has gone
    for round_no in (1, 2, battle.round):
        assert kept.context(round_no) == step_context(fresh.fighters, round_no, state.options)
        for step in (CombatStep.MISSILE, CombatStep.MELEE):
            ctx = step_context(fresh.fighters, round_no, state.options)
            assert kept.specs(step, round_no) == step_dice(step, fresh.fighters, ctx)
    return compared


def _battle(n: int) -> int:
    states = random_battle(1000 + n, f"kept-carry-{n}", _ATTACKERS, most=9)
    return sum(_compare(state, rs, battle) for state, rs, battle in states)


def test_carried_lists_decision_lines_and_dice_are_those_made_afresh() -> None:
    """R-COMBAT-04..07, R-ATTR-FORTI-01, R-ATTR-PRED-01, R-ATTR-FEAR-01, R-ATTR-INSP-01,
    R-ATTR-HERO-02, R-ATTR-MERC-01: after every order of thirty random battles answered by
    default, the attackers that may and may not withdraw, the Mercenaries, Summoners,
    casualty decision lines (a wounded unit's line shows
    its wound and one hit left), contexts and dice of every round kept from step to step
    equal those of a roster made afresh."""
    assert sum(_battle(n) for n in range(30)) >= 30


def test_r_combat_03_a_round_start_whose_every_action_is_idle_runs_none() -> None:
    """R-COMBAT-03: with no Mercenary, Summoner or unit that can declare on either side, and
    every action idle, the phase runs no action at all, in any round; an action without
    ``idle`` runs for each side every round (R-COMBAT-03: attacker, then defender)."""
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")], owner=None)
    calls: list[tuple[int, Side]] = []

    def probe(
        state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle, side: Side
    ) -> list[Event]:
        calls.append((battle.round, side))
        return []

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            round_start,
            "ROUND_START_ACTIONS",
            [
                *round_start.ROUND_START_ACTIONS,
                RoundStartAction("p", probe, idle=lambda r, s: True),
            ],
        )
        out = fight(st, rs, [9, 9])  # melee: infantry attack 2, defense 3; 9s miss
        out = fight(out.state, rs, [9, 9], PressOn("DAW"))
        assert calls == []  # idle everywhere: never run
        patch.setattr(
            round_start,
            "ROUND_START_ACTIONS",
            [*round_start.ROUND_START_ACTIONS[:3], RoundStartAction("p", probe)],
        )
        fight(out.state, rs, [9, 9], PressOn("DAW"))
        assert calls == [(3, Side.ATTACKER), (3, Side.DEFENDER)]


def test_r_attr_merc_01_the_check_still_runs_in_later_rounds_while_a_mercenary_fights() -> None:
    """R-ATTR-MERC-01: the phase is passed over only while nobody is a Mercenary: two
    Mercenaries and an infantry attack two Orcs; one Mercenary goes in round 1 (two against
    one), the other in round 2 once the infantry is hit (as test_battle.py works it out)."""
    rs, st = battle_setup(["MERC", "MERC", "INF"], [("ORCI", "ORC"), ("ORCI", "ORC")])
    out = fight(st, rs, [9, 9, 9, 9])
    assert len(of_type(out.events, MercenariesDeserted)) == 1
    out2 = fight(out.state, rs, [9, 9, 1, 9], PressOn("DAW"))
    out3 = fight(out2.state, rs, [], AssignCasualties("DAW", (3,)))
    out4 = fight(out3.state, rs, [], PressOn("DAW"))
    assert of_type(out4.events, MercenariesDeserted) == [
        MercenariesDeserted("DAW", "x", ((1, "MERC"),), mercenaries=1, others=0)
    ]
