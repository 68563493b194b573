"""Unit values: movement allowance, attack and defense values, dice and hits (R-GEN-02, R-GEN-03).

Everything here is a pure function of a unit kind (catalogue section 15) and the situation it
is in (the terrain it uses, whether an enemy Predator is about, the battle round). Movement
(:mod:`caedes_bot.rules.movement`), combat (:mod:`caedes_bot.rules.combat`) and the odds
calculator (:mod:`caedes_bot.rules.odds`) all read values from here, so they cannot disagree.

Values are never clamped (R-GEN-02): a target of 0 or less never hits, 10 or more always hits.
"""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Attribute, BaseType, Terrain, UnitKind

# The movement allowance (R-MOVE-01, R-ATTR-QUICK-01, R-ATTR-SLOW-01) is defined once, in the
# game data model, and offered here with the other unit values.
from caedes_bot.gamedata.model import movement_allowance as movement_allowance

#: The lore attribute that gives +1 defense on each terrain (R-ATTR-WOOD-01, R-ATTR-SWAMP-01,
#: R-ATTR-MTN-01). Plains and hills carry no modifier (R-MOVE-08).
LORE_OF_TERRAIN: dict[Terrain, Attribute] = {
    Terrain.FOREST: Attribute.WOODLORE,
    Terrain.SWAMP: Attribute.SWAMPLORE,
    Terrain.MOUNTAINS: Attribute.MOUNTAINLORE,
}

#: Faces of the combat die (R-GEN-01).
DIE_SIDES = 10


def lore_bonus(kind: UnitKind, terrain: Terrain | None) -> int:
    """+1 defense when ``kind`` has the lore of ``terrain``, else 0 (R-ATTR-WOOD-01,
    R-ATTR-SWAMP-01, R-ATTR-MTN-01)."""
    if terrain is None:
        return 0
    lore = LORE_OF_TERRAIN.get(terrain)
    return 1 if lore is not None and kind.has(lore) else 0


def attack_value(kind: UnitKind) -> int | None:
    """Attack value of ``kind`` (R-GEN-03): base attack, Elite +1 (R-ATTR-ELITE-01), Weak -1
    (R-ATTR-WEAK-01). ``None`` for kinds that never attack (Towers, R-ATTR-FORT-01)."""
    if kind.attack is None:
        return None
    value = kind.attack
    if kind.has(Attribute.ELITE):
        value += 1
    if kind.has(Attribute.WEAK):
        value -= 1
    return value


def suffers_predator(kind: UnitKind) -> bool:
    """Whether an enemy Predator lowers ``kind``'s value (R-ATTR-PRED-01, R-ATTR-UNDEAD-01):
    cavalry without Predator that is not Undead."""
    return (
        kind.base_type is BaseType.CAVALRY
        and not kind.has(Attribute.PREDATOR)
        and not kind.has(Attribute.UNDEAD)
    )


def defense_value(kind: UnitKind, terrain: Terrain | None, *, enemy_predator: bool = False) -> int:
    """Defense value of ``kind`` fighting on ``terrain`` (R-GEN-03).

    Base defense, Veteran +1 (R-ATTR-VET-01), Meek -1 (R-ATTR-MEEK-01), +1 for the lore of the
    terrain it uses (R-ATTR-WOOD-01, R-ATTR-SWAMP-01, R-ATTR-MTN-01), and -1 when
    ``enemy_predator`` (the attacking side holds a Predator) and the kind suffers it
    (R-ATTR-PRED-01).
    """
    value = kind.defense
    if kind.has(Attribute.VETERAN):
        value += 1
    if kind.has(Attribute.MEEK):
        value -= 1
    value += lore_bonus(kind, terrain)
    if enemy_predator and suffers_predator(kind):
        value -= 1
    return value


def missile_usable(kind: UnitKind, terrain: Terrain | None) -> bool:
    """Whether ``kind`` rolls in the missile step on ``terrain`` (R-ATTR-MISS-01, R-ATTR-MISS-02):
    it has Missile, and it is not fighting in forest unless it has Woodlore."""
    if not kind.has(Attribute.MISSILE):
        return False
    return terrain is not Terrain.FOREST or kind.has(Attribute.WOODLORE)


def dice_per_roll(kind: UnitKind) -> int:
    """Dice ``kind`` rolls for its normal attack or defense roll: 2 if Mighty, else 1
    (R-ATTR-MIGHTY-01)."""
    return 2 if kind.has(Attribute.MIGHTY) else 1


def morale_shift(kind: UnitKind, *, round_no: int, own_inspiring: bool, enemy_fear: bool) -> int:
    """The shift of ``kind``'s die target from Fear and Inspiring (R-ATTR-FEAR-01,
    R-ATTR-INSP-01, R-ATTR-UNDEAD-01).

    Only in battle round 1; Undead are immune. ``own_inspiring``: a unit of this unit's faction
    on its side has Inspiring (+1). ``enemy_fear``: the other side holds a unit with Fear (-1).
    Several of one do not add up; one of each cancels. Returns -1, 0 or +1.
    """
    if round_no != 1 or kind.has(Attribute.UNDEAD):
        return 0
    return (1 if own_inspiring else 0) - (1 if enemy_fear else 0)


def is_hit(die: int, target: int) -> bool:
    """Whether ``die`` (1..10) hits ``target`` (R-GEN-02): ``die <= target``; a target of 0 or
    less never hits and one of 10 or more always hits, which the comparison gives by itself."""
    return die <= target


def hit_probability(target: int) -> float:
    """Chance that one d10 hits ``target`` (R-GEN-01, R-GEN-02): ``target/10`` within 0..1."""
    return min(max(target, 0), DIE_SIDES) / DIE_SIDES


def combat_terrain_key(kind: UnitKind, terrain: Terrain) -> tuple[int, int]:
    """How good ``terrain`` is for ``kind``'s combat, larger is better (R-MOVE-03).

    First whether it can use its Missile there (R-ATTR-MISS-02; kinds without Missile score the
    same everywhere), then its lore bonus to defense (R-GEN-03).
    """
    missile = 1 if (kind.has(Attribute.MISSILE) and missile_usable(kind, terrain)) else 0
    return (missile, lore_bonus(kind, terrain))


def best_combat_terrain(kind: UnitKind, terrains: Sequence[Terrain]) -> Terrain | None:
    """The terrain among ``terrains`` best for ``kind``'s combat (R-MOVE-03), ties to the
    first listed; ``None`` if ``terrains`` is empty (a space without terrain)."""
    best: Terrain | None = None
    best_key: tuple[int, int] | None = None
    for terrain in terrains:
        key = combat_terrain_key(kind, terrain)
        if best_key is None or key > best_key:
            best, best_key = terrain, key
    return best
