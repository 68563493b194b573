"""Combat over land, step 7 (R-COMBAT-01..13, R-COMBAT-15 and the attribute combat rules).

Every battle here is fought with scripted dice. The script order is fixed by the rules module:
in each step, the attacker's dice first, then the defender's, each in unit id order (a Mighty
unit's two dice together). Targets are worked out by hand from the unit-type table
(Infantry A2 D3, Cavalry A5 D3, Tower D7) and R-GEN-03.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from caedes_bot.gamedata.model import BaseType, Options, Ruleset, Terrain
from caedes_bot.rules.combat.arithmetic import BattleResult
from caedes_bot.rules.combat.battle import answer_by_default, begin_combat_step, finish_combat_step
from caedes_bot.rules.combat.events import (
    AttackerWithdrew,
    BattleEnded,
    BattlesDue,
    BattleStepResolved,
    CasualtiesRemoved,
)
from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle, PressOn, Withdraw
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import IllegalCombat, WrongStep
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import MercenariesDeserted
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import ProvinceCaptured
from caedes_bot.rules.state import (
    BattleDie,
    CasualtiesDetail,
    CombatStep,
    GameState,
    PendingDecision,
    PressOrWithdrawDetail,
    Side,
    Step,
)
from tests.rules.builders import kind, ruleset, state

KINDS = [
    kind("INF", "DAW"),
    kind("ARCHER", "DAW", attributes=["missile"]),
    kind("RANGER", "DAW", attributes=["missile", "woodlore"]),
    kind("ELITE", "DAW", attributes=["elite"]),
    kind("MIGHTY", "DAW", attributes=["mighty"]),
    kind("PREDCAV", "DAW", "cavalry", ["predator"]),
    kind("MISSCAV", "DAW", "cavalry", ["missile", "woodlore"]),
    kind("MERC", "DAW", attributes=["mercenary"], cost=2),
    kind("FORT", "DAW", attributes=["fortitude"]),
    kind("UNDEAD", "DAW", attributes=["undead"]),
    kind("TWR", "DAW", "tower"),
    kind("ORCI", "ORC"),
    kind("ORCI2", "ORC"),
    kind("ORCMEEK", "ORC", attributes=["meek"]),
    kind("ORCVET", "ORC", attributes=["veteran"]),
    kind("ORCCAV", "ORC", "cavalry"),
    kind("ORCARROW", "ORC", attributes=["missile", "meek"]),
    kind("ORCFORT", "ORC", attributes=["fortitude"]),
    kind("ORCWOOD", "ORC", attributes=["woodlore"]),
    kind("ORCTWR", "ORC", "tower"),
    kind("WELI", "WEL"),
]
HEROES = [
    kind("H-ORC-01", "ORC", attributes=["fear"], hero=True),
    kind("H-DAW-01", "DAW", attributes=["inspiring"], hero=True),
]


def casualties_of(decision: PendingDecision) -> CasualtiesDetail:
    """The detail of a ``casualties`` decision (R-COMBAT-06)."""
    assert isinstance(decision.detail, CasualtiesDetail)
    return decision.detail


def press_of(decision: PendingDecision) -> PressOrWithdrawDetail:
    """The detail of a ``press_or_withdraw`` decision (R-COMBAT-08)."""
    assert isinstance(decision.detail, PressOrWithdrawDetail)
    return decision.detail


def battle_setup(
    attackers: Sequence[str],
    defenders: Sequence[tuple[str, str]],
    *,
    terrain: tuple[str, ...] = ("plains",),
    owner: str | None = "ORC",
    options: Options | None = None,
    came_from: str = "a",
) -> tuple[Ruleset, GameState]:
    """DAW's ``attackers`` have moved from ``came_from`` into x, where ``defenders`` stand.

    Units get ids in order: attackers first (1, 2, ...), then defenders. Step 7 has begun.
    """
    rs = ruleset(
        provinces={"a": ("plains",), "x": terrain, "z": ("plains",)},
        borders=[("a", "x"), ("x", "z")],
        coasts=[("x", "sea")],
        kinds=KINDS,
        heroes=HEROES,
        options=options,
    )
    units = [(k, "DAW", "x") for k in attackers] + [(k, o, "x") for k, o in defenders]
    st = state(
        rs,
        units=units,
        owners={"a": "DAW", **({"x": owner} if owner else {})},
        step=Step.COMBAT,
    )
    for uid in range(1, len(attackers) + 1):
        unit = st.unit(uid)
        if rs.kind(unit.kind).base_type is BaseType.TOWER:
            continue  # R-COMBAT-15: a Tower never attacks
        unit.attacking, unit.move_ended = True, True
        unit.entered_from, unit.path, unit.movement_used = came_from, ["x"], 1
    begin_combat_step(st, rs)
    return rs, st


def fight(st: GameState, rs: Ruleset, dice: Sequence[int], order: Order | None = None) -> Outcome:
    """Apply ``order`` (default: FightBattle at x) with exactly ``dice`` scripted."""
    script = ScriptedDice(dice)
    out = apply(st, order or FightBattle("DAW", "x"), rs, script)
    script.assert_exhausted()
    return out


def of_type(events: Sequence[Event], cls: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, cls)]


def ended(out: Outcome) -> BattleEnded:
    found = of_type(out.events, BattleEnded)
    assert len(found) == 1
    result = found[0]
    assert isinstance(result, BattleEnded)
    return result


def dice_of(out: Outcome) -> list[tuple[CombatStep, tuple[BattleDie, ...]]]:
    return [(e.step, e.dice) for e in out.events if isinstance(e, BattleStepResolved)]


# --------------------------------------------------------------------------- R-COMBAT-01 / 02


def test_r_combat_01_battles_due_from_attacking_units_in_name_order() -> None:
    """R-COMBAT-01, R-COMBAT-02: a battle is due in each space the attacker's units entered while it
    held enemy units (m and b), listed by space name.
    """
    rs = ruleset(
        provinces={"a": ("plains",), "m": ("plains",), "b": ("plains",)},
        borders=[("a", "m"), ("a", "b")],
        kinds=KINDS,
    )
    st = state(
        rs,
        units=[
            ("INF", "DAW", "m"),
            ("INF", "DAW", "b"),
            ("ORCI", "ORC", "m"),
            ("ORCI", "ORC", "b"),
        ],
    )
    st.unit(1).attacking = st.unit(2).attacking = True
    events = begin_combat_step(st, rs)
    assert st.battles_due == ["b", "m"]  # names "B" < "M" (R-COMBAT-02 default order)
    assert events == [BattlesDue("DAW", ("b", "m"))]


def test_r_combat_01_partners_of_the_attacker_take_no_part() -> None:
    """R-COMBAT-01: a pact partner of the attacker in the battle space takes no part: it rolls no
    die and is untouched.
    """
    rs, st = battle_setup(["INF"], [("ORCI", "ORC"), ("WELI", "WEL")])
    st.alliances = [["DAW", "WEL"]]
    out = fight(st, rs, [2, 9])
    result = ended(out)
    assert result.result is BattleResult.ATTACKER_WON
    assert out.state.unit(3).location == "x"  # the partner's unit is untouched


def test_r_combat_02_attacker_picks_a_due_battle_one_at_a_time() -> None:
    """R-COMBAT-02, R-COMBAT-01: the attacker fights the due battle it names; a space with no battle
    due is refused, and so is a second battle while one is under way.
    """
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    with pytest.raises(IllegalCombat) as err:
        fight(st, rs, [], FightBattle("DAW", "z"))
    assert err.value.rule == "R-COMBAT-01"
    out = fight(st, rs, [9, 9])  # both miss; the battle waits for press on / withdraw
    assert out.state.battle is not None
    with pytest.raises(IllegalCombat) as err:
        fight(out.state, rs, [], FightBattle("DAW", "x"))
    assert err.value.rule == "R-COMBAT-02"
    st.step = Step.MOVE
    with pytest.raises(WrongStep):
        fight(st, rs, [])


# --------------------------------------------------------------------------- steps and dice


def test_r_combat_05_melee_hit_on_value_and_capture() -> None:
    """R-COMBAT-05: Infantry attacks at 2, defends at 3 (R-GEN-02): a 2 hits, a 4 misses; x passes
    (R-COMBAT-11).
    """
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    out = fight(st, rs, [2, 4])
    assert dice_of(out) == [
        (
            CombatStep.MELEE,
            (
                BattleDie(1, "INF", Side.ATTACKER, 2, 2, True),
                BattleDie(2, "ORCI", Side.DEFENDER, 3, 4, False),
            ),
        )
    ]
    result = ended(out)
    assert (result.result, result.attacker_survivors, result.owner) == (
        BattleResult.ATTACKER_WON,
        (1,),
        "DAW",
    )
    assert ProvinceCaptured("x", "DAW", "ORC", battle=result.battle) in out.events
    assert out.state.owner("x") == "DAW"
    assert out.state.battle is None and out.state.battles_due == []
    assert not out.state.unit(1).attacking


def test_r_combat_04_missile_casualties_are_simultaneous() -> None:
    """R-COMBAT-04: Both missile units hit in the missile step and both die: nobody is left
    (R-COMBAT-07), and the owner is unchanged (R-COMBAT-11). The Meek Arrow-boy defends at 2.
    """
    rs, st = battle_setup(["ARCHER"], [("ORCARROW", "ORC")])
    out = fight(st, rs, [1, 2])
    ((step, dice),) = dice_of(out)
    assert step is CombatStep.MISSILE
    assert [d.target for d in dice] == [2, 2]
    result = ended(out)
    assert result.result is BattleResult.BOTH_DESTROYED
    assert out.state.owner("x") == "ORC"


def test_r_combat_07_decisive_missile_step_ends_the_battle_before_melee() -> None:
    """R-COMBAT-07: the archer's missile hit leaves the defender with no unit, so the battle ends
    before melee and the infantry never rolls.
    """
    rs, st = battle_setup(["ARCHER", "INF"], [("ORCI", "ORC")])
    out = fight(st, rs, [1])  # only the archer rolls; the infantry never does
    assert ended(out).result is BattleResult.ATTACKER_WON


def test_r_combat_05_a_unit_rolls_in_one_step_per_round() -> None:
    """R-COMBAT-05, R-COMBAT-03: the archer rolls only in the missile step, the defender only in
    melee; rounds repeat, each with its missile and melee step.
    """
    rs, st = battle_setup(["ARCHER"], [("ORCI", "ORC")])
    out = fight(st, rs, [9, 9])
    steps = dice_of(out)
    assert [(s, [d.unit for d in dice]) for s, dice in steps] == [
        (CombatStep.MISSILE, [1]),
        (CombatStep.MELEE, [2]),
    ]
    out2 = fight(out.state, rs, [1], PressOn("DAW"))
    assert [e.round for e in out2.events if isinstance(e, BattleStepResolved)] == [2]
    assert ended(out2).result is BattleResult.ATTACKER_WON


def test_r_attr_miss_03_missile_cavalry_shoots_with_its_attack_value() -> None:
    """R-ATTR-MISS-03: cavalry with Missile shoots in the missile step with its attack value, 5; the
    defender answers in melee.
    """
    rs, st = battle_setup(["MISSCAV"], [("ORCI", "ORC")])
    out = fight(st, rs, [6, 9])
    assert [(s, [(d.unit, d.target) for d in dice]) for s, dice in dice_of(out)] == [
        (CombatStep.MISSILE, [(1, 5)]),
        (CombatStep.MELEE, [(2, 3)]),
    ]


def test_r_attr_miss_02_forest_sends_missile_units_without_woodlore_to_melee() -> None:
    """R-ATTR-MISS-02, R-ATTR-WOOD-01: in forest the archer without Woodlore rolls in melee; the
    Woodlore ranger still shoots.
    """
    rs, st = battle_setup(["ARCHER", "RANGER"], [("ORCI", "ORC")], terrain=("forest",))
    out = fight(st, rs, [9, 9, 9])
    assert [(s, [d.unit for d in dice]) for s, dice in dice_of(out)] == [
        (CombatStep.MISSILE, [2]),  # R-ATTR-WOOD-01: the Woodlore ranger shoots
        (CombatStep.MELEE, [1, 3]),
    ]


def test_r_gen_03_elite_attack_and_veteran_defense_in_battle() -> None:
    """R-GEN-03, R-ATTR-ELITE-01, R-ATTR-VET-01: in battle Elite attacks at 2 + 1 = 3 (a 3 hits) and
    Veteran defends at 3 + 1 = 4 (a 5 misses).
    """
    rs, st = battle_setup(["ELITE"], [("ORCVET", "ORC")])
    out = fight(st, rs, [3, 5])
    ((_, dice),) = dice_of(out)
    assert [(d.target, d.hit) for d in dice] == [(3, True), (4, False)]


def test_r_move_03_defender_fights_on_its_chosen_or_best_terrain() -> None:
    """R-MOVE-03: In a plains/forest province a Woodlore defender that chose nothing gets forest
    (+1, R-ATTR-WOOD-01); one that chose plains when it moved in keeps plains.
    """
    rs, st = battle_setup(
        ["INF"], [("ORCWOOD", "ORC"), ("ORCWOOD", "ORC")], terrain=("plains", "forest")
    )
    st.unit(3).terrain = Terrain.PLAINS
    out = fight(st, rs, [9, 9, 9])
    ((_, dice),) = dice_of(out)
    assert [(d.unit, d.target) for d in dice] == [(1, 2), (2, 4), (3, 3)]


def test_r_attr_mighty_01_two_dice() -> None:
    """R-ATTR-MIGHTY-01: a Mighty attacker rolls two dice in melee."""
    rs, st = battle_setup(["MIGHTY"], [("ORCI", "ORC")])
    out = fight(st, rs, [9, 9, 9])
    ((_, dice),) = dice_of(out)
    assert [d.unit for d in dice] == [1, 1, 2]


def test_r_attr_pred_01_defending_cavalry_at_minus_one_while_a_predator_attacks() -> None:
    """R-ATTR-PRED-01: while the Predator cavalry attacks, the Orc cavalry defends at 3 - 1 = 2;
    once the Predator is gone, at 3 again.
    """
    rs, st = battle_setup(["PREDCAV", "INF"], [("ORCCAV", "ORC")])
    # Round 1: the Predator cavalry (5) and infantry (2) miss; the Orc cavalry defends at 3-1=2
    # and hits with a 1. DAW chooses which of its two different units dies.
    out = fight(st, rs, [9, 9, 1])
    ((_, dice),) = dice_of(out)
    assert [d.target for d in dice] == [5, 2, 2]
    (decision,) = out.state.pending
    assert (decision.kind, decision.faction, decision.reaction) == ("casualties", "DAW", False)
    out2 = fight(out.state, rs, [], AssignCasualties("DAW", (1,)))
    assert "1" not in out2.state.units
    # Round 2: no Predator attacks any more; the cavalry defends at 3.
    out3 = fight(out2.state, rs, [9, 9], PressOn("DAW"))
    ((_, dice3),) = dice_of(out3)
    assert [d.target for d in dice3] == [2, 3]


def test_r_attr_fear_01_round_one_only_and_not_on_undead() -> None:
    """R-ATTR-FEAR-01, R-ATTR-UNDEAD-01: a Fear hero lowers the infantry's target from 2 to 1 in
    round 1 only; the Undead attacker is unaffected.
    """
    rs, st = battle_setup(["INF", "UNDEAD"], [("H-ORC-01", "ORC")])
    out = fight(st, rs, [9, 9, 9])
    ((_, dice),) = dice_of(out)
    assert [d.target for d in dice] == [1, 2, 3]  # INF 2-1; Undead immune; the hero 3
    out2 = fight(out.state, rs, [9, 9, 9], PressOn("DAW"))
    ((_, dice2),) = dice_of(out2)
    assert [d.target for d in dice2] == [2, 2, 3]


def test_r_attr_insp_01_raises_own_dice_and_cancels_fear() -> None:
    """R-ATTR-INSP-01: an Inspiring hero raises its side's targets by 1 in round 1 (infantry and
    hero 2 -> 3); facing a Fear hero the two cancel.
    """
    rs, st = battle_setup(["INF", "H-DAW-01"], [("ORCI", "ORC")])
    out = fight(st, rs, [9, 9, 9])
    ((_, dice),) = dice_of(out)
    assert [d.target for d in dice] == [3, 3, 3]
    rs2, st2 = battle_setup(["INF", "H-DAW-01"], [("H-ORC-01", "ORC")])
    out2 = fight(st2, rs2, [9, 9, 9])
    ((_, dice2),) = dice_of(out2)
    assert [d.target for d in dice2] == [2, 2, 3]


# --------------------------------------------------------------------------- Mercenaries


def test_r_attr_merc_02_a_lone_mercenary_is_destroyed_at_round_start() -> None:
    """R-ATTR-MERC-02, R-ATTR-MERC-01: a lone Mercenary attacker is destroyed at the start of round
    1 and the defender holds.
    """
    rs, st = battle_setup(["MERC"], [("ORCI", "ORC")])
    out = fight(st, rs, [])
    assert of_type(out.events, MercenariesDeserted) == [
        MercenariesDeserted("DAW", "x", ((1, "MERC"),), mercenaries=1, others=0)
    ]
    assert ended(out).result is BattleResult.DEFENDER_HELD


def test_r_attr_merc_01_excess_mercenaries_go_each_round() -> None:
    """R-ATTR-MERC-01: Two Mercenaries with one other unit: one goes at round 1; when the other unit
    dies, the second goes at the start of round 2.
    """
    rs, st = battle_setup(["MERC", "MERC", "INF"], [("ORCI", "ORC"), ("ORCI", "ORC")])
    out = fight(st, rs, [9, 9, 9, 9])
    (first,) = of_type(out.events, MercenariesDeserted)
    assert isinstance(first, MercenariesDeserted) and first.units == ((2, "MERC"),)
    # Round 1 melee: MERC #1 and INF #3 roll 9s; the Orcs roll 9 and 9: nobody hit.
    out2 = fight(out.state, rs, [9, 9, 1, 9], PressOn("DAW"))
    # Round 2: one Orc hit lands on DAW; MERC (2 RP) vs INF (3 RP): a real choice.
    assert out2.state.pending[0].kind == "casualties"
    out3 = fight(out2.state, rs, [], AssignCasualties("DAW", (3,)))
    out4 = fight(out3.state, rs, [], PressOn("DAW"))
    assert of_type(out4.events, MercenariesDeserted) == [
        MercenariesDeserted("DAW", "x", ((1, "MERC"),), mercenaries=1, others=0)
    ]
    assert ended(out4).result is BattleResult.DEFENDER_HELD


def test_r_attr_forti_03_a_wounded_unit_still_counts_against_mercenaries() -> None:
    """R-ATTR-FORTI-03, R-ATTR-MERC-01: a Mercenary (2 RP) and a Fortitude infantry attack one
    Orc. Round 1 melee: 9 and 9 miss (attack 2), the Orc's 1 hits (defense 3); the Dawnians
    wound the Fortitude unit. At the start of round 2 the wounded unit still counts as one
    non-Mercenary: 1 Mercenary is not more than 1, so none goes, and both roll again."""
    rs, st = battle_setup(["MERC", "FORT"], [("ORCI", "ORC")])
    out = fight(st, rs, [9, 9, 1])
    out2 = fight(out.state, rs, [], AssignCasualties("DAW", (2,)))
    assert out2.state.unit(2).wounded
    out3 = fight(out2.state, rs, [9, 9, 9], PressOn("DAW"))
    assert of_type(out3.events, MercenariesDeserted) == []
    ((_, dice),) = dice_of(out3)
    assert [d.unit for d in dice] == [1, 2, 3]
    assert "1" in out3.state.units


# --------------------------------------------------------------------------- casualties


def test_r_combat_06_both_sides_choose_at_once_then_removal() -> None:
    """R-COMBAT-06: both sides choose their casualties after the step's dice, and nothing is removed
    until both have chosen; the Orcs' choice is a reaction, by default the cheapest unit.
    """
    rs, st = battle_setup(["INF", "ELITE"], [("ORCI", "ORC"), ("ORCCAV", "ORC")])
    # DAW: INF 2 (die 1 hit), ELITE 3 (die 9); ORC: ORCI 3 (die 1 hit), ORCCAV 3 (die 9).
    out = fight(st, rs, [1, 9, 1, 9])
    decisions = {d.faction: d for d in out.state.pending}
    assert decisions["ORC"].reaction is True and decisions["DAW"].reaction is False
    assert casualties_of(decisions["ORC"]).hits == 1
    assert casualties_of(decisions["ORC"]).default == (3,)  # cheapest first: ORCI (3 RP)
    out2 = fight(out.state, rs, [], AssignCasualties("ORC", (4,)))
    assert "4" in out2.state.units  # nothing is removed until both have chosen
    out3 = fight(out2.state, rs, [], AssignCasualties("DAW", (2,)))
    (removed,) = of_type(out3.events, CasualtiesRemoved)
    assert isinstance(removed, CasualtiesRemoved)
    assert (removed.attacker_destroyed, removed.defender_destroyed) == ((2,), (4,))


def test_r_combat_06_assignment_is_checked_strictly_and_refusal_changes_nothing() -> None:
    """R-COMBAT-06: a casualty choice names exactly as many of the side's own units as hits;
    anything else is refused and changes nothing.
    """
    rs, st = battle_setup(["INF", "INF"], [("ORCI", "ORC"), ("ORCCAV", "ORC")])
    out = fight(st, rs, [1, 9, 9, 9])
    before = out.state.clone()
    for bad in [(), (3, 4), (1,), (3, 3)]:
        with pytest.raises(IllegalCombat) as err:
            fight(out.state, rs, [], AssignCasualties("ORC", bad))
        assert err.value.rule == "R-COMBAT-06"
    with pytest.raises(IllegalCombat):
        fight(out.state, rs, [], AssignCasualties("DAW", (1,)))  # DAW owes nothing
    assert out.state == before


def test_r_combat_06_no_real_choice_is_applied_at_once() -> None:
    """R-COMBAT-06: Identical units, or as many hits as units: nobody is asked."""
    rs, st = battle_setup(["INF", "INF"], [("ORCI", "ORC"), ("ORCI", "ORC")])
    out = fight(st, rs, [1, 9, 9, 9])
    assert out.state.pending[0].kind == "press_or_withdraw"
    rs2, st2 = battle_setup(["INF", "INF"], [("ORCI", "ORC"), ("ORCCAV", "ORC")])
    out2 = fight(st2, rs2, [1, 1, 9, 9])
    assert ended(out2).result is BattleResult.ATTACKER_WON


def test_r_combat_06_default_is_cheapest_then_lower_value_then_most_recent() -> None:
    """R-COMBAT-06: the default casualty is the cheapest unit, then the one of lower value, then the
    most recently mustered.
    """
    rs, st = battle_setup(["INF"], [("ORCCAV", "ORC"), ("ORCI", "ORC")])
    out = fight(st, rs, [1, 9, 9])
    (decision,) = out.state.pending
    after = out.state.clone()
    answer_by_default(after, rs, ScriptedDice([]), decision)
    assert "3" not in after.units and "2" in after.units  # infantry (3 RP) before cavalry (5 RP)

    rs2, st2 = battle_setup(["INF"], [("ORCI", "ORC"), ("ORCMEEK", "ORC")])
    out2 = fight(st2, rs2, [1, 9, 9])
    assert casualties_of(out2.state.pending[0]).default == (3,)  # Meek defends at 2: lower value

    rs3, st3 = battle_setup(["INF"], [("ORCI", "ORC"), ("ORCI2", "ORC")])
    out3 = fight(st3, rs3, [1, 9, 9])
    assert casualties_of(out3.state.pending[0]).default == (
        3,
    )  # same cost and value: latest muster


def test_r_combat_06_casualty_chooser_opponent() -> None:
    """R-COMBAT-06: with `casualty_chooser` opponent the Dawnians choose the Orc casualty."""
    rs, st = battle_setup(
        ["INF"], [("ORCI", "ORC"), ("ORCCAV", "ORC")], options=Options(casualty_chooser="opponent")
    )
    out = fight(st, rs, [1, 9, 9])
    (decision,) = out.state.pending
    assert (decision.faction, decision.reaction, casualties_of(decision).faction) == (
        "DAW",
        False,
        "ORC",
    )
    out2 = fight(out.state, rs, [], AssignCasualties("DAW", (3,)))
    assert "3" not in out2.state.units


def test_r_combat_06_joint_defence_hands_hits_out_from_the_owner() -> None:
    """R-COMBAT-06: WEL owns x; WEL and ORC are partners. Three hits go WEL, ORC, WEL."""
    rs, st = battle_setup(
        ["INF", "INF", "INF"],
        [("ORCI", "ORC"), ("ORCI", "ORC"), ("WELI", "WEL"), ("WELI", "WEL")],
        owner="WEL",
    )
    st.alliances = [["ORC", "WEL"]]
    out = fight(st, rs, [1, 1, 1, 9, 9, 9, 9])
    (removed,) = of_type(out.events, CasualtiesRemoved)
    assert isinstance(removed, CasualtiesRemoved)
    # Each faction's units are identical, so nobody is asked; the latest mustered go first.
    assert removed.defender_destroyed == (5, 6, 7)


def test_r_attr_forti_01_wound_or_destroy_is_a_choice() -> None:
    """R-ATTR-FORTI-01, R-COMBAT-06: two hits on two Fortitude units may wound both or destroy one;
    three ids for two hits are refused.
    """
    rs, st = battle_setup(["INF", "INF"], [("ORCFORT", "ORC"), ("ORCFORT", "ORC")])
    out = fight(st, rs, [1, 1, 9, 9])
    (decision,) = out.state.pending
    assert casualties_of(decision).hits == 2
    with pytest.raises(IllegalCombat) as err:
        fight(out.state, rs, [], AssignCasualties("ORC", (3, 3, 3)))
    assert err.value.rule == "R-COMBAT-06"  # three ids for two hits
    both = fight(out.state, rs, [], AssignCasualties("ORC", (3, 4)))
    assert both.state.unit(3).wounded and both.state.unit(4).wounded
    one = fight(out.state, rs, [], AssignCasualties("ORC", (4, 4)))
    assert "4" not in one.state.units and not one.state.unit(3).wounded


def test_r_attr_forti_01_more_than_two_hits_on_a_unit_is_refused() -> None:
    """R-ATTR-FORTI-01: a Fortitude unit takes two hits at most; three on one unit are refused."""
    rs, st = battle_setup(
        ["INF", "INF", "INF"], [("ORCFORT", "ORC"), ("ORCI", "ORC"), ("ORCI", "ORC")]
    )
    out = fight(st, rs, [1, 1, 1, 9, 9, 9])
    with pytest.raises(IllegalCombat) as err:
        fight(out.state, rs, [], AssignCasualties("ORC", (4, 4, 4)))
    assert err.value.rule == "R-ATTR-FORTI-01"


def test_r_attr_forti_02_wounded_units_are_destroyed_at_the_end() -> None:
    """R-ATTR-FORTI-02, R-COMBAT-11: the wounded Fortitude attacker kills the defender in round 2
    but is destroyed at the end of the battle, so x keeps its owner; with `fortitude_end` heal it
    survives, healed, and wins.
    """
    rs, st = battle_setup(["FORT"], [("ORCI", "ORC")])
    out = fight(st, rs, [9, 1])  # the lone Fortitude attacker is wounded: no choice
    assert out.state.unit(1).wounded
    out2 = fight(out.state, rs, [1, 9], PressOn("DAW"))
    result = ended(out2)
    # R-COMBAT-11: no attacking survivor after cleanup, so the owner is unchanged.
    assert (result.result, result.destroyed_at_end, result.owner) == (
        BattleResult.BOTH_DESTROYED,
        (1,),
        "ORC",
    )
    rs_heal, st_heal = battle_setup(
        ["FORT"], [("ORCI", "ORC")], options=Options(fortitude_end="heal")
    )
    healed = fight(fight(st_heal, rs_heal, [9, 1]).state, rs_heal, [1, 9], PressOn("DAW"))
    assert ended(healed).result is BattleResult.ATTACKER_WON
    assert not healed.state.unit(1).wounded


# --------------------------------------------------------------------------- withdrawal


def test_r_combat_08_withdraw_returns_units_where_they_came_from() -> None:
    """R-COMBAT-08, R-COMBAT-10, R-COMBAT-11: after a hitless round the attacker withdraws; each
    unit returns to a, where it came from, its move ended; the battle ends and x keeps its owner.
    """
    rs, st = battle_setup(["INF", "INF"], [("ORCI", "ORC")])
    out = fight(st, rs, [9, 9, 9])
    (decision,) = out.state.pending
    assert decision.kind == "press_or_withdraw" and press_of(decision).can_withdraw == (1, 2)
    out2 = fight(out.state, rs, [], Withdraw("DAW"))
    assert (
        AttackerWithdrew(press_of(decision).battle, "x", "DAW", (1, 2), ("a", "a")) in out2.events
    )
    unit = out2.state.unit(1)
    assert (unit.location, unit.move_ended, unit.attacking) == ("a", True, False)
    result = ended(out2)
    assert (result.result, result.owner) == (BattleResult.WITHDRAWN, "ORC")
    assert out2.state.pending == [] and out2.state.battles_due == []
    with pytest.raises(IllegalCombat):
        fight(st, rs, [], Withdraw("DAW"))  # no battle waits for the choice


def test_r_attr_forti_02_a_wounded_unit_that_withdrew_is_still_destroyed_at_the_end() -> None:
    """R-ATTR-FORTI-02: a wounded unit that withdrew is still destroyed at the end of the battle."""
    rs, st = battle_setup(["FORT"], [("ORCI", "ORC")])
    out = fight(st, rs, [9, 1])  # the Fortitude attacker is wounded
    out2 = fight(out.state, rs, [], Withdraw("DAW"))
    result = ended(out2)
    assert (result.result, result.destroyed_at_end) == (BattleResult.WITHDRAWN, (1,))
    assert "1" not in out2.state.units


def test_r_combat_09_landed_units_stay_while_others_withdraw() -> None:
    """R-COMBAT-09: a unit that came ashore from the sea may not withdraw; the other withdraws and
    the battle goes on with the landed unit.
    """
    rs, st = battle_setup(["INF", "INF"], [("ORCI", "ORC")])
    st.unit(2).entered_from = "sea"  # came ashore: may not withdraw
    out = fight(st, rs, [9, 9, 9])
    assert press_of(out.state.pending[0]).must_stay == (2,)
    out2 = fight(out.state, rs, [9, 1], Withdraw("DAW"))
    assert out2.state.unit(1).location == "a"
    # The battle goes on with the landed unit, which is killed in round 2.
    assert ended(out2).result is BattleResult.DEFENDER_HELD


def test_r_combat_09_no_offer_when_nobody_may_withdraw_or_mixing_is_forbidden() -> None:
    """R-COMBAT-09: nobody is asked to withdraw when no attacking unit may, nor with
    `withdraw_mixed` forbidden and one landed unit; the next round follows at once.
    """
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")], came_from="sea")
    out = fight(st, rs, [9, 9, 1, 9])  # round 2 follows at once
    assert ended(out).result is BattleResult.ATTACKER_WON
    rs2, st2 = battle_setup(
        ["INF", "INF"], [("ORCI", "ORC")], options=Options(withdraw_mixed="forbidden")
    )
    st2.unit(2).entered_from = "sea"
    out2 = fight(st2, rs2, [9, 9, 9, 1, 9, 9])
    assert ended(out2).result is BattleResult.ATTACKER_WON


def test_r_pbp_dead_04_default_is_no_withdrawal() -> None:
    """R-PBP-DEAD-04: the default answer to press on or withdraw is no withdrawal: round 2 is fought
    and won.
    """
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    out = fight(st, rs, [9, 9])
    after = out.state.clone()
    script = ScriptedDice([1, 9])
    events = answer_by_default(after, rs, script, after.pending[0])
    script.assert_exhausted()
    assert of_type(events, BattleEnded)[0].result is BattleResult.ATTACKER_WON  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- end of battle


def test_r_combat_13_stalemate_withdraws_who_can_and_destroys_the_rest() -> None:
    """R-COMBAT-13, R-COMBAT-09: with `stalemate_rounds` 2, two hitless rounds end the battle: the
    infantry from a withdraws, the landed one is destroyed, x keeps its owner.
    """
    rs, st = battle_setup(["INF", "INF"], [("ORCTWR", "ORC")], options=Options(stalemate_rounds=2))
    st.unit(2).entered_from = "sea"
    out = fight(st, rs, [10, 10, 10])  # round 1: a 10 misses 2 and 7
    assert out.state.battle is not None and out.state.battle.hitless_rounds == 1
    out2 = fight(out.state, rs, [10, 10, 10], PressOn("DAW"))
    result = ended(out2)
    assert (result.result, result.destroyed_at_end, result.owner) == (
        BattleResult.STALEMATE,
        (2,),
        "ORC",
    )
    assert out2.state.unit(1).location == "a"
    assert "2" not in out2.state.units


def test_r_combat_15_towers_defend_at_seven_and_never_attack() -> None:
    """R-COMBAT-15: the Orc Tower defends at 7 and hits with a 7; the attacker's own Tower takes no
    part.
    """
    rs, st = battle_setup(["INF", "TWR"], [("ORCTWR", "ORC")])
    out = fight(st, rs, [9, 7])
    ((_, dice),) = dice_of(out)
    assert [(d.unit, d.target, d.hit) for d in dice] == [(1, 2, False), (3, 7, True)]
    result = ended(out)
    assert result.result is BattleResult.DEFENDER_HELD
    assert "2" in out.state.units  # the attacker's own Tower took no part


# --------------------------------------------------------------------------- end of step 7


def test_r_coll_02_end_of_step_7_takes_empty_provinces() -> None:
    """R-COLL-02, R-ALLY-03: at the end of step 7 the active faction takes each province where it
    has land units and no non-partner units: b (Orc) and d (unowned), not its partner's c.
    """
    rs = ruleset(
        provinces={p: ("plains",) for p in "abcd"},
        borders=[("a", "b"), ("b", "c"), ("c", "d")],
        kinds=KINDS,
    )
    st = state(
        rs,
        units=[("INF", "DAW", "b"), ("INF", "DAW", "c"), ("INF", "DAW", "d")],
        owners={"b": "ORC", "c": "WEL", "a": "DAW"},
        step=Step.COMBAT,
    )
    st.alliances = [["DAW", "WEL"]]
    events = finish_combat_step(st, rs)
    assert events == [
        ProvinceCaptured("b", "DAW", "ORC", battle=None),
        ProvinceCaptured("d", "DAW", None, battle=None),
    ]
    assert st.owners["c"] == "WEL"  # a partner's province is never taken (R-ALLY-03)


def test_r_combat_01_step_7_cannot_end_with_battles_due() -> None:
    """R-COMBAT-01: step 7 cannot end while a battle is due; the refusal names x and changes
    nothing.
    """
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    before = st.clone()
    with pytest.raises(IllegalCombat) as err:
        finish_combat_step(st, rs)
    assert "X" in err.value.message and err.value.rule == "R-COMBAT-01"
    assert st == before


# --------------------------------------------------------------------------- with the turn


def test_r_turn_02_steps_6_and_7_through_the_turn_machinery() -> None:
    """R-TURN-02: Ending step 6 lists the battles (R-COMBAT-01); step 7 cannot end before they are
    fought; the umpire's default answers press on (R-PBP-DEAD-04); ending step 7 takes the empty
    province passed through on the way (R-COLL-02).
    """
    from caedes_bot.rules.movement import MoveUnits
    from caedes_bot.rules.turn import EndStep, UmpireAdvance

    rs = ruleset(
        provinces={p: ("plains",) for p in "abcz"},
        borders=[("a", "b"), ("b", "c"), ("c", "z")],
        kinds=KINDS,
    )
    st = state(
        rs,
        units=[
            ("INF", "DAW", "a"),
            ("PREDCAV", "DAW", "a"),
            ("ORCI", "ORC", "c"),
            ("ORCI", "ORC", "z"),
        ],
        owners={"a": "DAW", "c": "ORC", "z": "ORC"},
        in_play=["DAW", "ORC"],
    )
    out = fight(st, rs, [], MoveUnits("DAW", (1,), "b"))
    out = fight(out.state, rs, [], MoveUnits("DAW", (2,), "c"))
    out = fight(out.state, rs, [], EndStep("DAW"))
    assert BattlesDue("DAW", ("c",)) in out.events
    assert out.state.step is Step.COMBAT
    with pytest.raises(IllegalCombat):
        fight(out.state, rs, [], EndStep("DAW"))
    out = fight(out.state, rs, [9, 9], FightBattle("DAW", "c"))
    out = fight(out.state, rs, [1, 9], UmpireAdvance("DAW"))  # presses on: cavalry hits
    assert ended(out).result is BattleResult.ATTACKER_WON
    out = fight(out.state, rs, [], EndStep("DAW"))
    assert ProvinceCaptured("b", "DAW", None, battle=None) in out.events
    assert out.state.owners["c"] == "DAW" and out.state.owners["b"] == "DAW"


def test_r_combat_02_default_battle_order_for_a_missed_deadline() -> None:
    """R-COMBAT-02: on a missed deadline the bot fights the due battles by space name; with none
    left it refuses.
    """
    from caedes_bot.rules.combat.battle import fight_default_battle

    rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    after = st.clone()
    script = ScriptedDice([2, 9])
    events = fight_default_battle(after, rs, script)
    assert of_type(events, BattleEnded)[0].result is BattleResult.ATTACKER_WON  # type: ignore[attr-defined]
    with pytest.raises(IllegalCombat):
        fight_default_battle(after, rs, script)
