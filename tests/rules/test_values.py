"""Unit values (R-GEN-02, R-GEN-03) and the attribute modifiers behind them.

Expected numbers come from the unit-type table (Infantry A2 D3 M1, Cavalry A5 D3 M2, Tower D7)
and the modifiers listed in R-GEN-03, worked out by hand.
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Terrain
from caedes_bot.rules.values import (
    attack_value,
    best_combat_terrain,
    defense_value,
    dice_per_roll,
    hit_probability,
    is_hit,
    lore_bonus,
    missile_usable,
    morale_shift,
    movement_allowance,
)
from tests.rules.builders import kind

INF = kind("INF", "DAW")
CAV = kind("CAV", "DAW", "cavalry")
TOWER = kind("TWR", "DAW", "tower")


def test_r_move_01_allowance_is_type_move() -> None:
    """R-MOVE-01: a unit's move allowance is its type's move (Infantry 1, Cavalry 2); a Tower never
    moves.
    """
    assert movement_allowance(INF) == 1
    assert movement_allowance(CAV) == 2
    assert movement_allowance(TOWER) == 0


def test_r_attr_quick_01_adds_one_move() -> None:
    """R-ATTR-QUICK-01: Quick adds 1 to the move allowance."""
    assert movement_allowance(kind("SC", "WEL", attributes=["quick"])) == 2  # Scouts
    assert movement_allowance(kind("CH", "HEL", "cavalry", ["quick"])) == 3  # Chargers


def test_r_attr_slow_01_takes_one_move_never_below_one() -> None:
    """R-ATTR-SLOW-01: Slow takes 1 off the move allowance, never below 1."""
    assert movement_allowance(kind("FE", "WEL", "cavalry", ["slow"])) == 1  # Fire Elemental
    assert movement_allowance(kind("SI", "DAW", attributes=["slow"])) == 1  # 1 - 1 floors at 1


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
