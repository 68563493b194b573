"""Battle magic and declarations (R-COMBAT-12, R-ATTR-BREATH-01..04, R-MAGIC-ABJ-01,
R-MAGIC-INV-01, R-MAGIC-ENCH-01..03, R-MAGIC-ILL-01, R-ATTR-HERO-02, R-COMBAT-06, R-PBP-DEAD-04).

Dice are scripted. In each step the attacker's dice come first, then the defender's, each in
unit id order (a breather's three dice, an invoker's five together); an Illusionist's rerolls
are one more roll after the step's dice. Values by hand from the unit-type table (Infantry
A2 D3 cost 3, Cavalry A5 D3 cost 5) and the catalogue: breath dice hit the enemy on 1-4 and
their own side on a 10, invoker dice hit on 1-2, the enchant die succeeds on 1-4.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules.combat.actions import DeclareActions, DeclaredKind
from caedes_bot.rules.combat.arithmetic import (
    BattleResult,
    Fighter,
    default_casualties,
    step_context,
)
from caedes_bot.rules.combat.battle import answer_by_default, begin_combat_step
from caedes_bot.rules.combat.events import BattleEnded, BattleStepResolved, CasualtiesRemoved
from caedes_bot.rules.combat.magic_events import (
    DiceRerolled,
    EnchantmentsBroken,
    StandingOrdersSet,
    UnitsEnchanted,
)
from caedes_bot.rules.combat.orders import (
    AssignCasualties,
    ChooseEnchanted,
    FightBattle,
    PressOn,
    RerollDice,
)
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import IllegalCombat
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    BattleAction,
    BattleDie,
    CasualtiesDetail,
    DecisionKind,
    DeclarationsDetail,
    DiePurpose,
    EnchantVictimDetail,
    GameState,
    PendingDecision,
    RerollDetail,
    Side,
    Step,
)
from tests.rules.builders import kind, ruleset, state

KINDS = [
    kind("INF", "DAW"),
    kind("ENG", "DAW", attributes=["breathweapon"], cost=18),
    kind("ELITEBREATH", "DAW", attributes=["breathweapon", "elite"], cost=18),
    kind("MIGHTYBREATH", "DAW", "cavalry", ["breathweapon", "mighty", "elite"], cost=20),
    kind("CLERIC", "DAW", attributes=["abjurer", "veteran"], cost=18),
    kind("SHAMAN", "DAW", attributes=["invoker", "elite", "veteran"], cost=18),
    kind("DRUID", "DAW", attributes=["enchanter"], cost=18),
    kind("UNDEAD", "DAW", attributes=["undead"]),
    kind("FORT", "DAW", attributes=["fortitude"], cost=10),
    kind("ORCI", "ORC"),
    kind("ORCCAV", "ORC", "cavalry"),
    kind("ORCUNDEAD", "ORC", attributes=["undead"]),
    kind("ORCARROW", "ORC", attributes=["missile"]),
    kind("ORCBREATH", "ORC", attributes=["breathweapon"], cost=18),
    kind("ILLUS", "ORC", attributes=["illusionist", "meek"], cost=18),
]
HEROES = [
    kind("H-ORC-01", "ORC", attributes=["fear"], hero=True),
    kind("H-DAW-01", "DAW", attributes=["inspiring"], hero=True),
    kind("H-DAW-02", "DAW", hero=True),
]


def setup(
    attackers: Sequence[str],
    defenders: Sequence[str],
    *,
    options: Options | None = None,
) -> tuple[Ruleset, GameState]:
    """DAW's ``attackers`` (ids 1, 2, ...) came from ``a`` into ``x``, held by ORC's
    ``defenders`` (the next ids); step 7 has begun."""
    rs = ruleset(
        provinces={"a": ("plains",), "x": ("plains",)},
        borders=[("a", "x")],
        kinds=KINDS,
        heroes=HEROES,
        options=options,
    )
    units = [(k, "DAW", "x") for k in attackers] + [(k, "ORC", "x") for k in defenders]
    st = state(rs, units=units, owners={"a": "DAW", "x": "ORC"}, step=Step.COMBAT)
    for uid in range(1, len(attackers) + 1):
        unit = st.unit(uid)
        unit.attacking, unit.move_ended = True, True
        unit.entered_from, unit.path, unit.movement_used = "a", ["x"], 1
    begin_combat_step(st, rs)
    return rs, st


def give(st: GameState, rs: Ruleset, order: Order, dice: Sequence[int] = ()) -> Outcome:
    """Apply ``order`` with exactly ``dice`` scripted."""
    script = ScriptedDice(dice)
    out = apply(st, order, rs, script)
    script.assert_exhausted()
    return out


def begin(st: GameState, rs: Ruleset, dice: Sequence[int] = ()) -> Outcome:
    return give(st, rs, FightBattle("DAW", "x"), dice)


def declare(
    faction: str, *choices: tuple[str, int] | tuple[str, int, bool], illusion: int | None = None
) -> DeclareActions:
    return DeclareActions(
        faction,
        tuple(DeclaredKind(*c) for c in choices),
        illusion,
    )


def of(events: Sequence[Event], cls: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, cls)]


def steps(out: Outcome) -> list[BattleStepResolved]:
    return [e for e in out.events if isinstance(e, BattleStepResolved)]


def only(decisions: Sequence[PendingDecision], kind: DecisionKind) -> PendingDecision:
    found = [d for d in decisions if d.kind is kind]
    assert len(found) == 1, decisions
    return found[0]


def ended(out: Outcome) -> BattleEnded:
    (end,) = of(out.events, BattleEnded)
    assert isinstance(end, BattleEnded)
    return end


# --------------------------------------------------------------------------- breath


def test_r_attr_breath_01_engineer_dice_2_7_10_hit_the_enemy_once_and_its_own_side_once() -> None:
    """R-ATTR-BREATH-01, R-ATTR-BREATH-04, R-COMBAT-12: an Engineer declared to breathe and an
    infantry attack two Orcs. Melee: breath 2 (hit, 2 <= 4), 7 (nothing), 10 (own side);
    infantry 9 misses; the Orcs roll 9, 9. One hit on the Orcs (two like units: no choice),
    one on DAW, whose owner chooses between Engineer and infantry with the step's others."""
    rs, st = setup(["ENG", "INF"], ["ORCI", "ORCI"])
    out = begin(st, rs)
    decision = only(out.state.pending, DecisionKind.DECLARE_ACTIONS)
    assert isinstance(decision.detail, DeclarationsDetail)
    (choice,) = decision.detail.choices
    assert (choice.kind, choice.action, choice.units, choice.default) == (
        "ENG",
        BattleAction.BREATH,
        1,
        1,
    )
    out2 = give(out.state, rs, declare("DAW", ("ENG", 1)), [2, 7, 10, 9, 9, 9])
    (step,) = steps(out2)
    breath = [d for d in step.dice if d.unit == 1]
    assert [(d.value, d.target, d.purpose, d.hit, d.own_side) for d in breath] == [
        (2, 4, DiePurpose.BREATH, True, False),
        (7, 4, DiePurpose.BREATH, False, False),
        (10, 4, DiePurpose.BREATH, False, True),
    ]
    assert (step.hits_on_defender, step.hits_on_attacker) == (1, 1)
    owed = only(out2.state.pending, DecisionKind.CASUALTIES)
    assert isinstance(owed.detail, CasualtiesDetail) and owed.detail.faction == "DAW"
    out3 = give(out2.state, rs, AssignCasualties("DAW", (2,)))
    (removed,) = of(out3.events, CasualtiesRemoved)
    assert isinstance(removed, CasualtiesRemoved)
    assert removed.attacker_destroyed == (2,) and len(removed.defender_destroyed) == 1


def test_r_attr_breath_01_breath_mode_over_hits_on_4_to_9() -> None:
    """R-ATTR-BREATH-01, option ``breath_mode = over``: faces 4-9 hit, a 10 still hits its own
    side. Dice 2, 7, 10: the 7 hits, the 2 misses."""
    rs, st = setup(["ENG", "INF"], ["ORCI", "ORCI"], options=Options(breath_mode="over"))
    out = begin(st, rs)
    out2 = give(out.state, rs, declare("DAW", ("ENG", 1)), [2, 7, 10, 9, 9, 9])
    (step,) = steps(out2)
    assert [(d.value, d.hit, d.own_side) for d in step.dice if d.unit == 1] == [
        (2, False, False),
        (7, True, False),
        (10, False, True),
    ]
    assert step.dice[0].target == 4


def test_r_attr_breath_02_modifiers_ignored_fear_shifts_round_one_only() -> None:
    """R-ATTR-BREATH-02, R-ATTR-FEAR-01: an Elite breather keeps the 4; with an Orc Hero with
    Fear it is 3 in round 1 and 4 again in round 2. Round 1: breath 9, 9, 9; Orcs 9, 9."""
    rs, st = setup(["ELITEBREATH"], ["ORCI", "H-ORC-01"])
    out = begin(st, rs)
    out2 = give(out.state, rs, declare("DAW", ("ELITEBREATH", 1)), [9, 9, 9, 9, 9])
    (step,) = steps(out2)
    assert [d.target for d in step.dice if d.unit == 1] == [3, 3, 3]
    out3 = give(out2.state, rs, PressOn("DAW"), [9, 9, 9, 9, 9])
    (step2,) = steps(out3)
    assert [d.target for d in step2.dice if d.unit == 1] == [4, 4, 4]


def test_r_attr_breath_02_inspiring_raises_the_breath_target_in_round_one() -> None:
    """R-ATTR-BREATH-02, R-ATTR-INSP-01: the DAW Hero's Inspiring makes the breath target 5 in
    round 1."""
    rs, st = setup(["ENG", "H-DAW-01"], ["ORCI"])
    out = begin(st, rs)
    out2 = give(out.state, rs, declare("DAW", ("ENG", 1)), [9, 9, 9, 9, 9])
    (step,) = steps(out2)
    assert [d.target for d in step.dice if d.unit == 1] == [5, 5, 5]


def test_r_attr_breath_03_mighty_does_not_double_unless_the_option_says_six() -> None:
    """R-ATTR-BREATH-03, R-ATTR-MIGHTY-01: a Mighty breather rolls three breath dice; with
    ``breath_mighty_dice = 6`` six."""
    rs, st = setup(["MIGHTYBREATH"], ["ORCI"])
    out = give(begin(st, rs).state, rs, declare("DAW", ("MIGHTYBREATH", 1)), [9, 9, 9, 9])
    assert len([d for d in steps(out)[0].dice if d.unit == 1]) == 3
    rs6, st6 = setup(["MIGHTYBREATH"], ["ORCI"], options=Options(breath_mighty_dice=6))
    out6 = give(begin(st6, rs6).state, rs6, declare("DAW", ("MIGHTYBREATH", 1)), [9] * 7)
    assert len([d for d in steps(out6)[0].dice if d.unit == 1]) == 6


def test_r_attr_breath_04_a_defending_breather_breathes_in_its_normal_step() -> None:
    """R-ATTR-BREATH-04: the defender declares too; its breath dice are rolled in the melee
    step with the others: DAW infantry 9; Orc breather 1, 10, 5 -> one hit on DAW, one on the
    Orcs' own side (a lone breather there: destroyed)."""
    rs, st = setup(["INF"], ["ORCBREATH"])
    out = begin(st, rs)
    assert only(out.state.pending, DecisionKind.DECLARE_ACTIONS).faction == "ORC"
    out2 = give(out.state, rs, declare("ORC", ("ORCBREATH", 1)), [9, 1, 10, 5])
    (step,) = steps(out2)
    assert (step.hits_on_attacker, step.hits_on_defender) == (1, 1)
    assert ended(out2).result is BattleResult.BOTH_DESTROYED


# --------------------------------------------------------------------------- declarations


def test_r_combat_12_standing_orders_hold_round_after_round_without_asking() -> None:
    """R-COMBAT-12: "1 of 2 Engineers breathes" is asked once. Round 1: Engineer #1 rolls
    three breath dice, #2 one normal die; round 2 the same without a new decision."""
    rs, st = setup(["ENG", "ENG"], ["ORCI", "ORCI"])
    out = give(begin(st, rs).state, rs, declare("DAW", ("ENG", 1)), [9, 9, 9, 9, 9, 9])
    (set_event,) = of(out.events, StandingOrdersSet)
    assert isinstance(set_event, StandingOrdersSet)
    assert [(o.kind, o.action, o.count) for o in set_event.orders] == [
        ("ENG", BattleAction.BREATH, 1)
    ]
    (step,) = steps(out)
    assert [(d.unit, d.purpose) for d in step.dice if d.side is Side.ATTACKER] == [
        (1, DiePurpose.BREATH),
        (1, DiePurpose.BREATH),
        (1, DiePurpose.BREATH),
        (2, DiePurpose.NORMAL),
    ]
    out2 = give(out.state, rs, PressOn("DAW"), [9, 9, 9, 9, 9, 9])
    assert not [d for d in out2.state.pending if d.kind is DecisionKind.DECLARE_ACTIONS]
    assert len(steps(out2)[0].dice) == 6


def test_r_combat_12_asked_again_each_round_when_the_player_asked_to_be() -> None:
    """R-COMBAT-12: with ``ask`` the decision comes back at the next round start."""
    rs, st = setup(["ENG"], ["ORCI"])
    out = give(begin(st, rs).state, rs, declare("DAW", ("ENG", 1, True)), [9, 9, 9, 9])
    out2 = give(out.state, rs, PressOn("DAW"))
    decision = only(out2.state.pending, DecisionKind.DECLARE_ACTIONS)
    assert isinstance(decision.detail, DeclarationsDetail)
    assert decision.detail.choices[0].standing == 1 and decision.detail.choices[0].ask
    # now declining: the Engineer rolls its normal die (attack 2)
    out3 = give(out2.state, rs, declare("DAW", ("ENG", 0)), [9, 9])
    assert [(d.purpose, d.target) for d in steps(out3)[0].dice if d.unit == 1] == [
        (DiePurpose.NORMAL, 2)
    ]


def test_r_combat_12_a_change_between_rounds_holds_from_the_next_round() -> None:
    """R-COMBAT-12: a faction may change its standing orders while the battle waits for
    something else; the change holds from the next round."""
    rs, st = setup(["ENG"], ["ORCI"])
    out = give(begin(st, rs).state, rs, declare("DAW", ("ENG", 1)), [9, 9, 9, 9])
    changed = give(out.state, rs, declare("DAW", ("ENG", 0)))
    (event,) = of(changed.events, StandingOrdersSet)
    assert isinstance(event, StandingOrdersSet) and event.round == 2
    out2 = give(changed.state, rs, PressOn("DAW"), [9, 9])
    assert [d.purpose for d in steps(out2)[0].dice if d.unit == 1] == [DiePurpose.NORMAL]


def test_r_combat_12_a_wrong_declaration_is_refused_and_changes_nothing() -> None:
    """R-COMBAT-12: more units than fight, or a kind without an action, is refused."""
    rs, st = setup(["ENG"], ["ORCI"])
    out = begin(st, rs)
    for bad in (declare("DAW", ("ENG", 2)), declare("DAW", ("INF", 1))):
        with pytest.raises(IllegalCombat):
            give(out.state, rs, bad)
    with pytest.raises(IllegalCombat):
        give(out.state, rs, declare("ORC"))


def test_r_combat_12_defaults_use_breath_only_when_strictly_better() -> None:
    """R-COMBAT-12, R-PBP-DEAD-04: an Engineer (attack 2: 2 faces) breathes (3 dice x 4 faces
    = 12); an Elite Mighty breather cavalry (attack 6, two dice: 12 faces) does not (12 is not
    more than 12), but with ``breath_mighty_dice = 6`` (24 faces) it does. The default becomes
    the standing order: round 2 asks nothing."""
    rs, st = setup(["ENG", "MIGHTYBREATH"], ["ORCI"])
    out = begin(st, rs)
    decision = only(out.state.pending, DecisionKind.DECLARE_ACTIONS)
    assert isinstance(decision.detail, DeclarationsDetail)
    assert {c.kind: c.default for c in decision.detail.choices} == {"ENG": 1, "MIGHTYBREATH": 0}
    script = ScriptedDice([9, 9, 9, 9, 9, 9])
    work = out.state.clone()
    events = answer_by_default(work, rs, script, decision)
    script.assert_exhausted()
    (set_event,) = of(events, StandingOrdersSet)
    assert isinstance(set_event, StandingOrdersSet) and set_event.by_default
    rs6, st6 = setup(["MIGHTYBREATH"], ["ORCI"], options=Options(breath_mighty_dice=6))
    decision6 = only(begin(st6, rs6).state.pending, DecisionKind.DECLARE_ACTIONS)
    assert isinstance(decision6.detail, DeclarationsDetail)
    assert decision6.detail.choices[0].default == 1


# --------------------------------------------------------------------------- Abjurer


def test_r_magic_abj_01_first_hit_cancelled_second_destroys() -> None:
    """R-MAGIC-ABJ-01: a Cleric declared to abjure does not roll. Melee: infantry 9; the
    Orcs 1, 1, 9: two hits on DAW. Assigning both to the Cleric: the first is cancelled, the
    second destroys it; the infantry lives."""
    rs, st = setup(["CLERIC", "INF"], ["ORCI", "ORCI", "ORCI"])
    out = give(begin(st, rs).state, rs, declare("DAW", ("CLERIC", 1)), [9, 1, 1, 9])
    (step,) = steps(out)
    assert [d.unit for d in step.dice if d.side is Side.ATTACKER] == [2]
    owed = only(out.state.pending, DecisionKind.CASUALTIES)
    assert isinstance(owed.detail, CasualtiesDetail)
    assert owed.detail.default == (1, 2)  # absorb with the Cleric, then the cheapest
    out2 = give(out.state, rs, AssignCasualties("DAW", (1, 1)))
    (removed,) = of(out2.events, CasualtiesRemoved)
    assert isinstance(removed, CasualtiesRemoved)
    assert removed.attacker_destroyed == (1,) and removed.absorbed == (1,)
    assert "2" in out2.state.units


def test_r_magic_abj_01_cancel_is_spent_in_the_missile_step_then_an_ordinary_unit() -> None:
    """R-MAGIC-ABJ-01, R-COMBAT-06: an Orc archer's missile hit (1) goes by default to the
    Cleric's cancel (never saved for melee); in melee (infantry 9; archer does not roll
    again; Orc infantry 1) the spent Cleric (cost 18) ranks behind the infantry (3), which
    is the default casualty."""
    rs, st = setup(["CLERIC", "INF"], ["ORCARROW", "ORCI"])
    out = give(begin(st, rs).state, rs, declare("DAW", ("CLERIC", 1)), [1])
    owed = only(out.state.pending, DecisionKind.CASUALTIES)
    assert isinstance(owed.detail, CasualtiesDetail) and owed.detail.default == (1,)
    work = out.state.clone()
    script = ScriptedDice([9, 1])
    answer_by_default(work, rs, script, owed)
    script.assert_exhausted()
    melee = only(work.pending, DecisionKind.CASUALTIES)
    assert isinstance(melee.detail, CasualtiesDetail) and melee.detail.default == (2,)


# --------------------------------------------------------------------------- Invoker


def test_r_magic_inv_01_five_dice_hitting_on_two_fear_shifts_round_one() -> None:
    """R-MAGIC-INV-01: a Shaman (Elite, Veteran: modifiers ignored) invokes: five dice at 2;
    with the Orc Hero's Fear they are at 1 in round 1. Dice 1, 2, 3, 1, 10: targets 1 -> two
    hits (the two 1s)."""
    rs, st = setup(["SHAMAN"], ["ORCI", "ORCI", "ORCI", "H-ORC-01"])
    out = begin(st, rs)
    decision = only(out.state.pending, DecisionKind.DECLARE_ACTIONS)
    assert isinstance(decision.detail, DeclarationsDetail)
    assert decision.detail.choices[0].default == 1  # 5 x 1 face > attack 3 - 1 = 2 faces
    out2 = give(out.state, rs, declare("DAW", ("SHAMAN", 1)), [1, 2, 3, 1, 10, 9, 9, 9, 9])
    (step,) = steps(out2)
    mine = [d for d in step.dice if d.unit == 1]
    assert [(d.purpose, d.target, d.hit) for d in mine] == [
        (DiePurpose.INVOKE, 1, True),
        (DiePurpose.INVOKE, 1, False),
        (DiePurpose.INVOKE, 1, False),
        (DiePurpose.INVOKE, 1, True),
        (DiePurpose.INVOKE, 1, False),
    ]
    assert step.hits_on_defender == 2


# --------------------------------------------------------------------------- Enchanter


def test_r_magic_ench_01_03_enchanted_unit_fights_for_the_enchanter_and_reverts() -> None:
    """R-MAGIC-ENCH-01, R-MAGIC-ENCH-03: round 1: Druid's enchant die 3 (success, no Fear
    shift), infantry 9; Orcs 9, 9. After the withdrawal check the Orcs pick (infantry 3 RP
    or cavalry 5 RP; default the cheapest): they give the cavalry, which attacks for DAW in
    round 2 with its attack 5. Round 2: Druid 9 (fails), infantry 9, cavalry 9; Orc 1 hits
    DAW, which gives the Druid: the cavalry goes back to the Orcs."""
    rs, st = setup(["DRUID", "INF"], ["ORCI", "ORCCAV"])
    out = give(begin(st, rs).state, rs, declare("DAW", ("DRUID", 1)), [3, 9, 9, 9])
    (step,) = steps(out)
    assert [(d.purpose, d.target, d.hit) for d in step.dice if d.unit == 1] == [
        (DiePurpose.ENCHANT, 4, True)
    ]
    assert (step.hits_on_attacker, step.hits_on_defender) == (0, 0)
    out2 = give(out.state, rs, PressOn("DAW"))
    pick = only(out2.state.pending, DecisionKind.ENCHANT_VICTIM)
    assert isinstance(pick.detail, EnchantVictimDetail)
    assert pick.faction == "ORC" and pick.detail.default == (3,)
    out3 = give(out2.state, rs, ChooseEnchanted("ORC", (4,)), [9, 9, 9, 1])
    (taken,) = of(out3.events, UnitsEnchanted)
    assert isinstance(taken, UnitsEnchanted) and taken.units == ((4, 1),)
    (step2,) = steps(out3)
    cav = [d for d in step2.dice if d.unit == 4]
    assert [(d.side, d.target) for d in cav] == [(Side.ATTACKER, 5)]
    out4 = give(out3.state, rs, AssignCasualties("DAW", (1,)))
    (broken,) = of(out4.events, EnchantmentsBroken)
    assert isinstance(broken, EnchantmentsBroken) and broken.units == (4,)
    battle = out4.state.battle
    assert battle is not None and 4 in battle.defender_units and not battle.enchanted


def test_r_magic_ench_01_taking_the_last_unit_ends_the_battle_and_it_is_destroyed() -> None:
    """R-MAGIC-ENCH-01, R-MAGIC-ENCH-03, R-COMBAT-10: the lone Orc is enchanted: the defender
    side is empty, the attacker wins, and the still enchanted unit is destroyed at the end."""
    rs, st = setup(["DRUID"], ["ORCI"])
    out = give(begin(st, rs).state, rs, declare("DAW", ("DRUID", 1)), [4, 9])
    out2 = give(out.state, rs, PressOn("DAW"))
    end = ended(out2)
    assert end.result is BattleResult.ATTACKER_WON and end.destroyed_at_end == (2,)
    assert "2" not in out2.state.units and out2.state.owner("x") == "DAW"


def test_r_magic_ench_02_undead_and_immune_types_are_never_taken() -> None:
    """R-MAGIC-ENCH-02, option ``enchant_immune_types``: with cavalry immune only the Orc
    infantry can be taken, so there is no choice to ask; Undead never can."""
    rs, st = setup(
        ["DRUID", "INF"],
        ["ORCI", "ORCCAV", "ORCUNDEAD"],
        options=Options(enchant_immune_types=("cavalry",)),
    )
    out = give(begin(st, rs).state, rs, declare("DAW", ("DRUID", 1)), [1, 9, 9, 9, 9])
    out2 = give(out.state, rs, PressOn("DAW"), [9, 9, 9, 9, 9])
    (taken,) = of(out2.events, UnitsEnchanted)
    assert isinstance(taken, UnitsEnchanted) and taken.units == ((3, 1),)
    rs0, st0 = setup(["DRUID", "INF"], ["ORCCAV", "ORCUNDEAD"])
    out0 = give(begin(st0, rs0).state, rs0, declare("DAW", ("DRUID", 1)), [1, 9, 9, 9])
    out01 = give(out0.state, rs0, PressOn("DAW"), [9, 9, 9, 9])
    (taken0,) = of(out01.events, UnitsEnchanted)
    assert isinstance(taken0, UnitsEnchanted) and taken0.units == ((3, 1),)


# --------------------------------------------------------------------------- Illusionist


def test_r_magic_ill_01_two_hits_rerolled_one_hits_again() -> None:
    """R-MAGIC-ILL-01: three DAW infantry attack an Orc Illusionist and infantry. The Orcs
    ask to be asked (rule 0). Melee: DAW 1, 2, 9 (two hits at 2); Orcs 9, 9. The Orcs force
    both hits to be rerolled: 2 (hits again) and 8; the Illusionist's own die no longer
    counts. One hit on the Orcs."""
    rs, st = setup(["INF", "INF", "INF"], ["ILLUS", "ORCI"])
    out = begin(st, rs)
    asked = only(out.state.pending, DecisionKind.DECLARE_ACTIONS)
    assert isinstance(asked.detail, DeclarationsDetail) and asked.detail.illusionists == 1
    out2 = give(out.state, rs, declare("ORC", illusion=0), [1, 2, 9, 9, 9])
    offer = only(out2.state.pending, DecisionKind.ILLUSION_REROLL)
    assert isinstance(offer.detail, RerollDetail)
    assert [c.index for c in offer.detail.dice] == [0, 1] and offer.detail.most == 3
    out3 = give(out2.state, rs, RerollDice("ORC", (0, 1)), [2, 8])
    (rerolled,) = of(out3.events, DiceRerolled)
    assert isinstance(rerolled, DiceRerolled)
    assert [d.value for d in rerolled.old] == [1, 2] and [d.value for d in rerolled.new] == [2, 8]
    (step,) = steps(out3)
    assert step.hits_on_defender == 1
    own = [d for d in step.dice if d.unit == 4]
    assert own and all(d.void for d in own)
    assert [d.replaces for d in step.dice if d.replaces is not None] == [0, 1]


def test_r_magic_ill_01_standing_rule_and_dice_that_never_qualify() -> None:
    """R-MAGIC-ILL-01: rule "2 or more hits": one hit is left alone; Undead dice never count.
    Melee: DAW infantry 1 (hit) and Undead 1 (hit, not eligible); Orcs 9, 9: one eligible hit,
    below 2, so no reroll and no question."""
    rs, st = setup(["INF", "UNDEAD"], ["ILLUS", "ORCI"])
    out = give(begin(st, rs).state, rs, declare("ORC", illusion=2), [1, 1, 9, 9])
    assert not of(out.events, DiceRerolled)
    assert steps(out)[0].hits_on_defender == 2


def test_r_magic_ill_01_standing_rule_rerolls_without_asking_and_default_acts() -> None:
    """R-MAGIC-ILL-01, R-PBP-DEAD-04: rule 2, two eligible hits (1, 1): both rerolled at once
    (9, 9). On a missed declaration deadline the rule is "at least one hit"."""
    rs, st = setup(["INF", "INF"], ["ILLUS", "ORCI"])
    out = give(begin(st, rs).state, rs, declare("ORC", illusion=2), [1, 1, 9, 9, 9, 9])
    assert len(of(out.events, DiceRerolled)) == 1
    assert steps(out)[0].hits_on_defender == 0
    rs2, st2 = setup(["INF"], ["ILLUS", "ORCI"])
    asked = only(begin(st2, rs2).state.pending, DecisionKind.DECLARE_ACTIONS)
    assert isinstance(asked.detail, DeclarationsDetail) and asked.detail.illusion_default == 1


def test_r_magic_ill_01_refuses_more_than_three_or_a_die_that_missed() -> None:
    """R-MAGIC-ILL-01: a die that missed cannot be picked."""
    rs, st = setup(["INF", "INF", "INF"], ["ILLUS", "ORCI"])
    out = give(begin(st, rs).state, rs, declare("ORC", illusion=0), [1, 2, 9, 9, 9])
    with pytest.raises(IllegalCombat):
        give(out.state, rs, RerollDice("ORC", (2,)))


# --------------------------------------------------------------------------- Hero, casualties


def test_r_attr_hero_02_leadership_bonus_raises_normal_dice_only() -> None:
    """R-ATTR-HERO-02, option ``hero_leadership_bonus``: off, DAW infantry hits on 2; on, on 3
    in every round, while the Engineer's breath dice stay at 4."""
    rs, st = setup(["INF", "ENG", "H-DAW-02"], ["ORCI", "ORCI", "ORCI"])
    out = give(begin(st, rs).state, rs, declare("DAW", ("ENG", 1)), [9] * 8)
    assert [d.target for d in steps(out)[0].dice if d.unit == 1] == [2]
    rs1, st1 = setup(
        ["INF", "ENG", "H-DAW-02"],
        ["ORCI", "ORCI", "ORCI"],
        options=Options(hero_leadership_bonus=True),
    )
    out1 = give(begin(st1, rs1).state, rs1, declare("DAW", ("ENG", 1)), [9] * 8)
    targets = {d.unit: d.target for d in steps(out1)[0].dice}
    assert targets[1] == 3 and targets[2] == 4
    assert all(d.target == 3 for d in steps(out1)[0].dice if d.side is Side.DEFENDER)
    out2 = give(out1.state, rs1, PressOn("DAW"), [9] * 8)
    assert {d.unit: d.target for d in steps(out2)[0].dice}[1] == 3


def test_r_combat_06_default_wounded_fortitude_first_explicitly_hero_last() -> None:
    """R-COMBAT-06 (clarified): the default takes a wounded Fortitude unit (10 RP) before the
    cheaper infantry (3 RP), then the cheapest; a Hero (no cost) is taken last."""
    rs = ruleset(provinces={"x": ("plains",)}, kinds=KINDS, heroes=HEROES)
    fort = Fighter(1, rs.kind("FORT"), "DAW", Side.DEFENDER, wounded=True)
    inf = Fighter(2, rs.kind("INF"), "DAW", Side.DEFENDER)
    hero = Fighter(3, rs.kind("H-DAW-02"), "DAW", Side.DEFENDER)
    ctx = step_context([fort, inf, hero], 1, Options())
    assert default_casualties([hero, inf, fort], 1, ctx) == [1]
    assert default_casualties([hero, inf, fort], 2, ctx) == [1, 2]
    assert default_casualties([hero, inf, fort], 3, ctx) == [1, 2, 3]
    shielded = Fighter(4, rs.kind("CLERIC"), "DAW", Side.DEFENDER, shield=1)
    assert default_casualties([inf, fort, shielded], 2, ctx) == [4, 1]


def test_r_combat_12_dice_in_battle_die_records_survive_a_step_record() -> None:
    """R-COMBAT-16: a plain die keeps its old shape (purpose normal, no marks)."""
    die = BattleDie(1, "INF", Side.ATTACKER, 2, 1, True)
    assert die.purpose is DiePurpose.NORMAL and die.counts and not die.own_side
