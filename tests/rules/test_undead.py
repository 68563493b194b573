"""Undead and their Necromancers, and the Heroes whose fall is recorded (R-RACE-UND-01,
R-MAGIC-NEC-01, R-ATTR-UNDEAD-01..03, R-MUSTER-05, R-ATTR-HERO-01, R-FEAL-03).

Map: archursia and p1, p2 plains, x plains (the battle), all Acherousian but x (Orc) and a
(Dawnian, where the attackers came from). Kinds: AI Acherousian infantry, AN a Necromancer
(Acherousian infantry), AU Undead infantry; DA a Dawnian archer (Missile), DI Dawnian infantry.
"""

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.battle import begin_combat_step
from caedes_bot.rules.combat.events import BattleEnded, BattleStepResolved
from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle
from caedes_bot.rules.dependants import (
    BoundUnitsLost,
    HeroFell,
    ignores_battle_morale,
    ignores_predator,
    is_immune_to_magic,
)
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalMuster
from caedes_bot.rules.muster import (
    MusterUnits,
    begin_muster_step,
    legal_muster_provinces,
    muster_room,
)
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep
from caedes_bot.rules.upkeep import UnitsDisbanded
from caedes_bot.rules.upkeep_marks import ToggleDisbandMark
from tests.rules.builders import kind, ruleset, state, with_hero

NO_DICE = ScriptedDice([])

KINDS = [
    kind("AI", "ACH"),
    kind("AN", "ACH", attributes=["meek", "necromancer"], cost=18),
    kind("AU", "ACH", attributes=["meek", "undead"], race="undead"),
    kind("DA", "DAW", attributes=["missile"], cost=4),
    kind("DI", "DAW"),
]
HERO = kind("H-DAW-01", "DAW", attributes=["inspiring"], hero=True)


def _rs() -> Ruleset:
    rs = ruleset(
        provinces={
            "archursia": ("plains",),
            "p1": ("plains",),
            "p2": ("plains",),
            "x": ("plains",),
            "a": ("plains",),
        },
        borders=[("a", "x"), ("x", "p1")],
        kinds=KINDS,
        heroes=[HERO],
    )
    return with_hero(rs, "DAW", "H-DAW-01")


OWNERS = {"archursia": "ACH", "p1": "ACH", "p2": "ACH", "x": "ACH", "a": "DAW"}


# --------------------------------------------------------------------------- muster


def _muster_state(rs: Ruleset, units: list[tuple[str, str]], bought: list[str]) -> GameState:
    st = state(rs, units=[(k, "ACH", p) for k, p in units], owners=OWNERS, active="ACH")
    st.step = Step.MUSTER
    st.factions["ACH"].purchases = list(bought)
    st.factions["ACH"].purchase_prices = [3] * len(bought)
    begin_muster_step(st, rs)
    return st


def test_r_race_und_01_undead_muster_beside_a_necromancer_in_any_number() -> None:
    """R-RACE-UND-01, R-MAGIC-NEC-01, R-MUSTER-05: the Necromancer stands in p1 (not
    Archursia): three Undead go there, with no limit; p2 has no Necromancer and is refused;
    muster_room says p1 takes any number (None)."""
    rs = _rs()
    st = _muster_state(rs, [("AN", "p1"), ("AI", "p2")], ["AU"] * 4)
    assert legal_muster_provinces(st, rs, "ACH", "AU") == ["p1"]
    assert muster_room(st, rs, "ACH", "AU") == [("p1", None)]
    out = apply(st, MusterUnits("ACH", (("AU", "p1"),) * 3), rs, NO_DICE)
    assert [u.kind for u in out.state.units_at("p1")] == ["AN", "AU", "AU", "AU"]
    with pytest.raises(IllegalMuster) as err:
        apply(out.state, MusterUnits("ACH", (("AU", "p2"),)), rs, NO_DICE)
    assert err.value.rule == "R-RACE-UND-01"


def test_r_race_und_01_no_necromancer_no_undead_and_the_bot_says_why() -> None:
    """R-RACE-UND-01, R-MUSTER-01: with no Necromancer anywhere, the Undead bought are lost
    when step 8 ends, and the loss names the rule."""
    from caedes_bot.rules.muster import MusterShortfall, PurchaseLost

    rs = _rs()
    st = state(rs, units=[("AI", "ACH", "archursia")], owners=OWNERS, active="ACH")
    st.step = Step.COMBAT
    st.factions["ACH"].purchases = ["AU"]
    st.factions["ACH"].purchase_prices = [3]
    out = apply(st, EndStep("ACH"), rs, NO_DICE)
    (warned,) = [e for e in out.events if isinstance(e, MusterShortfall)]
    assert warned.kind_ids == ("AU",) and "R-RACE-UND-01" in warned.reasons[0][1]
    out = apply(out.state, EndStep("ACH"), rs, NO_DICE)
    (lost,) = [e for e in out.events if isinstance(e, PurchaseLost)]
    assert lost.kind_ids == ("AU",)
    assert lost.reasons[0][0] == "AU" and "Necromancer" in lost.reasons[0][1]


# --------------------------------------------------------------------------- losing them


def _battle(extra_ach: list[tuple[str, str]]) -> tuple[Ruleset, GameState]:
    """DAW's archer (1) and infantry (2) attack x from a; x holds ACH's Necromancer (3) and
    two Undead (4, 5); ``extra_ach`` stand elsewhere (ids from 6)."""
    rs = _rs()
    units = [("DA", "DAW", "x"), ("DI", "DAW", "x")]
    units += [("AN", "ACH", "x"), ("AU", "ACH", "x"), ("AU", "ACH", "x")]
    units += [(k, "ACH", p) for k, p in extra_ach]
    st = state(rs, units=units, owners=OWNERS, active="DAW", step=Step.COMBAT)
    for uid in (1, 2):
        unit = st.unit(uid)
        unit.attacking, unit.move_ended = True, True
        unit.entered_from, unit.path, unit.movement_used = "a", ["x"], 1
    begin_combat_step(st, rs)
    return rs, st


def test_r_attr_undead_03_last_necromancer_killed_in_battle_takes_every_undead() -> None:
    """R-ATTR-UNDEAD-03, R-MAGIC-NEC-01: the Dawnian archer shoots a 1 (hit, target 2) in the
    missile step; no defender shoots. The Acherousians take the hit on their Necromancer, the
    only one they have: at once, with that step's casualties, both Undead in x and the Undead
    in p1 are destroyed. The defender has nobody left, so the battle ends before any melee die
    and the Dawnians take x."""
    rs, st = _battle([("AU", "p1")])
    out = apply(st, FightBattle("DAW", "x"), rs, ScriptedDice([1]))
    (decision,) = out.state.pending
    assert decision.faction == "ACH"
    out = apply(out.state, AssignCasualties("ACH", (3,)), rs, ScriptedDice([]))
    (lost,) = [e for e in out.events if isinstance(e, BoundUnitsLost)]
    assert (lost.faction, lost.rule) == ("ACH", "R-ATTR-UNDEAD-03")
    assert [u[0] for u in lost.units] == [4, 5, 6]
    assert not [e for e in out.events if isinstance(e, BattleStepResolved)]  # no melee step
    (end,) = [e for e in out.events if isinstance(e, BattleEnded)]
    assert end.owner == "DAW"
    assert out.state.units_of("ACH") == []


def test_r_attr_undead_03_another_necromancer_keeps_the_undead() -> None:
    """R-ATTR-UNDEAD-03: with a second Necromancer in p1, losing the one in x takes no Undead:
    the two in x fight on into the melee step (no hits: DAW 9, 9; ACH 9, 9)."""
    rs, st = _battle([("AN", "p1")])
    out = apply(st, FightBattle("DAW", "x"), rs, ScriptedDice([1]))
    out = apply(out.state, AssignCasualties("ACH", (3,)), rs, ScriptedDice([9, 9, 9, 9]))
    assert not [e for e in out.events if isinstance(e, BoundUnitsLost)]
    assert [u.id for u in out.state.units_of("ACH")] == [4, 5, 6]


def test_r_attr_undead_03_disbanding_the_last_necromancer_takes_the_undead() -> None:
    """R-ATTR-UNDEAD-03, R-UPK-02, R-UPK-04: the Necromancer (1) is marked in step 3 and
    disbanded when step 4 begins; the two Undead (2, 3) go with it."""
    rs = _rs()
    st = state(
        rs,
        units=[("AN", "ACH", "p1"), ("AU", "ACH", "p1"), ("AU", "ACH", "p2"), ("AI", "ACH", "p1")],
        owners=OWNERS,
        active="ACH",
        step=Step.COLLECT,
        rp={"ACH": 5},
    )
    st = apply(st, ToggleDisbandMark("ACH", 1), rs, NO_DICE).state
    out = apply(st, EndStep("ACH"), rs, NO_DICE)
    rules = [(e.rule, [u[0] for u in e.units]) for e in out.events if isinstance(e, UnitsDisbanded)]
    assert rules == [("R-UPK-02", [1]), ("R-ATTR-UNDEAD-03", [2, 3])]
    assert [u.id for u in out.state.units_of("ACH")] == [4]


def test_r_attr_undead_03_any_other_loss_is_caught_after_the_order() -> None:
    """R-ATTR-UNDEAD-03 ("for any reason"): a board with Undead and no Necromancer (as an
    umpire's edit could leave it) loses them after the next order, whatever it was."""
    rs = _rs()
    st = state(
        rs,
        units=[("AU", "ACH", "p1"), ("AI", "ACH", "p1")],
        owners=OWNERS,
        active="ACH",
        step=Step.MOVE,
    )
    out = apply(st, EndStep("ACH"), rs, NO_DICE)
    (lost,) = [e for e in out.events if isinstance(e, BoundUnitsLost)]
    assert [u[0] for u in lost.units] == [1] and lost.battle is None


def test_r_attr_undead_01_undead_ignore_fear_inspiring_predator_and_magic() -> None:
    """R-ATTR-UNDEAD-01: Undead are immune to Fear and Inspiring, Predator, the Illusionist
    and the Enchanter; a Necromancer (not Undead) is not."""
    rs = _rs()
    undead, necro = rs.kind("AU"), rs.kind("AN")
    assert is_immune_to_magic(undead) and ignores_battle_morale(undead)
    assert ignores_predator(undead)
    assert not (
        is_immune_to_magic(necro) or ignores_battle_morale(necro) or ignores_predator(necro)
    )


# --------------------------------------------------------------------------- heroes


def test_r_feal_03_the_death_of_a_designated_hero_is_recorded_once() -> None:
    """R-ATTR-HERO-01, R-FEAL-03: the Dawnian Hero attacks x alone against an Acherousian
    infantry unit; the defender rolls 1 (hit at defense 3) in the melee step, the Hero 9.
    The Hero dies: HeroFell is told once and hero_alive is false from then on."""
    rs = _rs()
    st = state(
        rs,
        units=[("H-DAW-01", "DAW", "x"), ("AI", "ACH", "x"), ("DI", "DAW", "a")],
        owners=OWNERS,
        active="DAW",
        step=Step.COMBAT,
    )
    hero = st.unit(1)
    hero.attacking, hero.move_ended, hero.entered_from, hero.path = True, True, "a", ["x"]
    begin_combat_step(st, rs)
    assert st.factions["DAW"].hero_alive
    out = apply(st, FightBattle("DAW", "x"), rs, ScriptedDice([9, 1]))
    assert [e for e in out.events if isinstance(e, HeroFell)] == [HeroFell("DAW", "H-DAW-01")]
    assert not out.state.factions["DAW"].hero_alive
    again = apply(out.state, EndStep("DAW"), rs, NO_DICE)
    assert not [e for e in again.events if isinstance(e, HeroFell)]
