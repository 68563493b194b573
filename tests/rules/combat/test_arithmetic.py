"""The battle arithmetic: unit values (R-GEN-02, R-GEN-03) and the attribute modifiers behind
them, and how hits are handed out on a side (R-COMBAT-06).

Expected numbers come from the unit-type table (Infantry A2 D3 M1, Cavalry A5 D3 M2, Tower D7)
and the modifiers listed in R-GEN-03, worked out by hand.
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Terrain
from caedes_bot.rules.combat.arithmetic import (
    CasualtyGroup,
    Fighter,
    attack_value,
    best_combat_terrain,
    casualty_groups,
    defense_value,
    dice_per_roll,
    handout_order,
    has_real_choice,
    hit_probability,
    is_hit,
    lore_bonus,
    missile_usable,
    morale_shift,
    share_hits,
    spread_hits,
)
from caedes_bot.rules.state import Side
from tests.rules.builders import TURN_ORDER, kind

INF = kind("INF", "DAW")
CAV = kind("CAV", "DAW", "cavalry")
TOWER = kind("TWR", "DAW", "tower")


def test_r_attr_elite_01_and_weak_01_attack() -> None:
    """R-ATTR-ELITE-01, R-ATTR-WEAK-01, R-GEN-03, R-ATTR-FORT-01: Elite adds 1 to attack, Weak takes
    1 off; a Tower has no attack value.
    """
    assert attack_value(INF) == 2
    assert attack_value(kind("E", "ACH", attributes=["elite"])) == 3  # Elite Swordsmen
    assert attack_value(kind("W", "DAW", attributes=["weak"])) == 1  # Wizard
    assert attack_value(kind("UC", "ACH", "cavalry", ["weak", "undead"])) == 4  # Undead Cavalry
    assert attack_value(TOWER) is None  # R-ATTR-FORT-01: never attacks


def test_r_attr_vet_01_and_meek_01_defense() -> None:
    """R-ATTR-VET-01, R-ATTR-MEEK-01: Veteran adds 1 to defense, Meek takes 1 off (the Earth
    Elemental defends at 6).
    """
    assert defense_value(INF, Terrain.PLAINS) == 3
    assert defense_value(kind("V", "DAW", attributes=["veteran"]), Terrain.PLAINS) == 4
    assert defense_value(kind("M", "ORC", attributes=["meek"]), Terrain.PLAINS) == 2
    # R-ATTR-MEEK-01: the Earth Elemental (a Meek Tower-type unit) defends at 7 - 1.
    assert defense_value(kind("EE", "WEL", "tower", ["meek", "fortitude"]), None) == 6


def test_r_attr_wood_swamp_mtn_01_lore_on_its_terrain_only() -> None:
    """R-ATTR-WOOD-01, R-ATTR-SWAMP-01, R-ATTR-MTN-01, R-MOVE-08, R-GEN-03: each lore adds 1 to
    defense on its own terrain only, added to Veteran; hills give nothing.
    """
    ranger = kind("R", "WEL", attributes=["woodlore", "missile"])
    assert defense_value(ranger, Terrain.FOREST) == 4
    assert defense_value(ranger, Terrain.PLAINS) == 3
    lizard = kind("L", "LIZ", attributes=["swamplore", "amphibian"])
    assert defense_value(lizard, Terrain.SWAMP) == 4
    assert lore_bonus(lizard, Terrain.FOREST) == 0
    defender = kind("D", "DWA", attributes=["veteran", "mountainlore"])  # Dwarven Defender
    assert defense_value(defender, Terrain.MOUNTAINS) == 5  # 3 + 1 Veteran + 1 Mountainlore
    assert defense_value(defender, Terrain.HILLS) == 4  # R-MOVE-08: hills give nothing


def test_r_attr_pred_01_only_defending_nonpredator_living_cavalry() -> None:
    """R-ATTR-PRED-01, R-ATTR-UNDEAD-01: an enemy Predator takes 1 off the defense of cavalry that
    is neither Predator nor Undead; infantry is untouched.
    """
    assert defense_value(CAV, Terrain.PLAINS, enemy_predator=True) == 2
    assert defense_value(INF, Terrain.PLAINS, enemy_predator=True) == 3
    wolf = kind("WR", "ORC", "cavalry", ["meek", "predator"])
    assert defense_value(wolf, Terrain.PLAINS, enemy_predator=True) == 2  # Meek only
    # R-ATTR-UNDEAD-01: Undead are unaffected by Predator.
    undead = kind("UC", "ACH", "cavalry", ["weak", "undead"])
    assert defense_value(undead, Terrain.PLAINS, enemy_predator=True) == 3


def test_r_attr_miss_02_forest_blocks_missile_without_woodlore() -> None:
    """R-ATTR-MISS-02, R-ATTR-WOOD-01, R-ATTR-MISS-01: Missile is unusable in forest without
    Woodlore; only Missile units shoot.
    """
    yeomen = kind("Y", "DAW", attributes=["missile"])
    ranger = kind("R", "WEL", attributes=["woodlore", "missile"])
    assert missile_usable(yeomen, Terrain.PLAINS)
    assert not missile_usable(yeomen, Terrain.FOREST)
    assert missile_usable(ranger, Terrain.FOREST)
    assert not missile_usable(INF, Terrain.PLAINS)  # R-ATTR-MISS-01: only Missile units


def test_r_attr_mighty_01_two_dice() -> None:
    """R-ATTR-MIGHTY-01: a Mighty unit rolls two dice, others one."""
    assert dice_per_roll(kind("G", "ORC", attributes=["mighty"])) == 2
    assert dice_per_roll(INF) == 1


def test_r_attr_fear_01_and_insp_01_round_one_only_and_cancel() -> None:
    """R-ATTR-FEAR-01, R-ATTR-INSP-01: Fear lowers and Inspiring raises the target by 1 in round 1
    only; together they cancel.
    """
    assert morale_shift(INF, round_no=1, own_inspiring=False, enemy_fear=True) == -1
    assert morale_shift(INF, round_no=1, own_inspiring=True, enemy_fear=False) == 1
    assert morale_shift(INF, round_no=1, own_inspiring=True, enemy_fear=True) == 0
    assert morale_shift(INF, round_no=2, own_inspiring=False, enemy_fear=True) == 0


def test_r_attr_undead_01_immune_to_fear_and_inspiring() -> None:
    """R-ATTR-UNDEAD-01: Undead dice are shifted by neither Fear nor Inspiring."""
    undead = kind("UI", "ACH", attributes=["meek", "undead"])
    assert morale_shift(undead, round_no=1, own_inspiring=False, enemy_fear=True) == 0
    assert morale_shift(undead, round_no=1, own_inspiring=True, enemy_fear=False) == 0


def test_r_gen_02_die_at_or_under_target_hits_and_bounds() -> None:
    """R-GEN-02: a die hits at or under its target; a target of 0 or less never hits, 10 or more
    always hits.
    """
    assert is_hit(3, 3)
    assert not is_hit(4, 3)
    assert not any(is_hit(d, 0) for d in range(1, 11))  # target 0 never hits
    assert all(is_hit(d, 10) for d in range(1, 11))  # target 10 always hits
    assert hit_probability(3) == pytest.approx(0.3)
    assert hit_probability(-1) == 0.0
    assert hit_probability(12) == 1.0


def test_r_move_03_best_combat_terrain() -> None:
    """R-MOVE-03: among a province's terrains the bot proposes, for each unit, the one best for
    its combat.
    """
    ranger = kind("R", "WEL", attributes=["woodlore", "missile"])
    yeomen = kind("Y", "DAW", attributes=["missile"])
    scout = kind("S", "WEL", attributes=["woodlore", "quick", "meek"])
    assert best_combat_terrain(scout, (Terrain.PLAINS, Terrain.FOREST)) is Terrain.FOREST
    assert best_combat_terrain(yeomen, (Terrain.FOREST, Terrain.PLAINS)) is Terrain.PLAINS
    assert best_combat_terrain(ranger, (Terrain.PLAINS, Terrain.FOREST)) is Terrain.FOREST
    assert best_combat_terrain(INF, (Terrain.SWAMP, Terrain.PLAINS)) is Terrain.SWAMP
    assert best_combat_terrain(INF, ()) is None


def test_r_combat_06_hand_out_order_owner_first_then_turn_order() -> None:
    """R-COMBAT-06, R-ATTR-FORTI-01: in joint defence hits go out one at a time from the province
    owner, else in turn order; hits beyond the units are lost; a choice among Fortitude units is
    real only when it changes the outcome.
    """
    assert handout_order({"WEL", "ORC"}, "WEL", TURN_ORDER) == ["WEL", "ORC"]
    assert handout_order({"WEL", "ORC"}, "DAW", TURN_ORDER) == ["ORC", "WEL"]
    assert handout_order({"WEL", "ORC"}, None, TURN_ORDER) == ["ORC", "WEL"]
    orc, wel = kind("ORCI", "ORC"), kind("WELI", "WEL")
    side = [Fighter(1, orc, "ORC", Side.DEFENDER), Fighter(2, wel, "WEL", Side.DEFENDER)]
    # Three hits on one unit each: one each, the third is lost (R-COMBAT-06).
    assert share_hits(side, 3, ["WEL", "ORC"]) == [("WEL", 1), ("ORC", 1)]
    fort = kind("F", "ORC", attributes=["fortitude"])
    two = [Fighter(1, fort, "ORC", Side.DEFENDER), Fighter(2, fort, "ORC", Side.DEFENDER)]
    assert has_real_choice(two, 2)  # destroy one, or wound both (R-ATTR-FORTI-01)
    assert not has_real_choice(two, 1)  # wound either: the same
    assert not has_real_choice(two, 3)  # one destroyed and one wounded, whichever
    assert not has_real_choice(two, 4)


def test_r_combat_06_hits_chosen_for_like_units_go_to_the_most_recent_first() -> None:
    """R-COMBAT-06, R-ATTR-FORTI-01: units are grouped by kind and wound state; a group's
    hits go to its units from the highest id down, a Fortitude unit taking both its hits
    before the next; hits beyond the group are lost. The battle's default casualties spread
    hits the same way."""
    units = [(1, "T", False), (7, "O", False), (3, "T", False), (9, "O", False), (4, "T", True)]
    assert casualty_groups(units) == [
        CasualtyGroup("O", False, (9, 7)),
        CasualtyGroup("T", False, (3, 1)),
        CasualtyGroup("T", True, (4,)),
    ]
    assert spread_hits([(9, 2), (7, 2)], 3) == [9, 9, 7]
    assert spread_hits([(3, 1), (1, 1)], 5) == [3, 1]
    assert spread_hits([(3, 1)], 0) == []
