"""The round-start phase of a battle (R-COMBAT-03): a list of actions, each run for the
attacker and then for the defender, before the missile step; an action may make the battle wait
for a decision, and the phase carries on from the next slot when it is answered."""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat import round_start
from caedes_bot.rules.combat.battle import advance
from caedes_bot.rules.combat.orders import PressOn
from caedes_bot.rules.combat.round_start import RoundStartAction, round_start_slots
from caedes_bot.rules.dice import Dice, ScriptedDice
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import MercenariesDeserted
from caedes_bot.rules.state import (
    Battle,
    BattlePhase,
    GameState,
    PendingDecision,
    PressOrWithdrawDetail,
    Side,
)
from tests.rules.combat.test_battle import battle_setup, fight, of_type


def test_r_combat_03_actions_run_per_side_attacker_first_in_list_order() -> None:
    """R-COMBAT-03: the slots are every action for the attacker, then the defender, in list
    order; the Mercenary check is the first action."""
    slots = round_start_slots()
    assert slots[0][0].name == "mercenary"
    assert [side for _, side in slots[:2]] == [Side.ATTACKER, Side.DEFENDER]
    names = [a.name for a, _ in slots]
    assert names[0::2] == names[1::2]
    assert all(side is Side.ATTACKER for _, side in slots[0::2])


def test_r_combat_03_an_added_action_runs_each_round_and_may_make_the_battle_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-COMBAT-03: an action added after the Mercenary check runs for the attacker, then the
    defender, every round. When it leaves a decision of the battle pending, the battle waits
    (no die rolled); once the decision is gone, advance carries on from the next slot, so the
    asking slot does not run again. Melee dice: infantry attack 2 and defense 3; 9s miss."""
    calls: list[tuple[int, Side]] = []

    def probe(
        state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle, side: Side
    ) -> list[Event]:
        calls.append((battle.round, side))
        if battle.round == 2 and side is Side.ATTACKER:
            state.pending.append(
                PendingDecision(
                    id=state.new_id(),
                    faction=battle.attacker,
                    kind=PressOrWithdrawDetail.kind,
                    reaction=False,
                    detail=PressOrWithdrawDetail(battle.id, battle.space, battle.round, (), ()),
                )
            )
        return []

    before = len(round_start.ROUND_START_ACTIONS)
    monkeypatch.setattr(
        round_start,
        "ROUND_START_ACTIONS",
        [*round_start.ROUND_START_ACTIONS, RoundStartAction("probe", probe)],
    )
    # a borders x, so the attacker may withdraw: round 1 ends with a withdrawal offer
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")], owner=None)
    out = fight(st, rs, [9, 9])
    assert calls == [(1, Side.ATTACKER), (1, Side.DEFENDER)]
    battle = out.state.battle
    assert battle is not None and battle.phase is BattlePhase.PRESS_OR_WITHDRAW
    out2 = fight(out.state, rs, [], PressOn("DAW"))
    # round 2: the probe asked for the attacker; nothing rolled yet, the defender slot waits
    assert calls[2:] == [(2, Side.ATTACKER)]
    battle2 = out2.state.battle
    assert battle2 is not None and battle2.phase is BattlePhase.ROUND_START
    assert battle2.start_done == 2 * before + 1  # every earlier slot, then the probe's first
    state3 = out2.state.clone()
    assert state3.battle is not None
    state3.pending = []
    script = ScriptedDice([9, 9])
    advance(state3, rs, script, state3.battle)
    script.assert_exhausted()
    assert calls[3:] == [(2, Side.DEFENDER)]


def test_r_attr_merc_01_mercenary_check_is_a_round_start_action_per_side() -> None:
    """R-ATTR-MERC-01, R-COMBAT-03: the lone Mercenary on the attacking side goes in the
    attacker's slot; the battle ends before the defender's slots (R-COMBAT-07)."""
    rs, st = battle_setup(["MERC"], [("ORCI", "ORC")])
    out = fight(st, rs, [])
    assert len(of_type(out.events, MercenariesDeserted)) == 1
    assert out.state.battle is None
