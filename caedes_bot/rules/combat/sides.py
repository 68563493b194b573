"""Who fights a battle, and how: the units on each side, the terrain each fights on, whether it
is a Mercenary and whether it may withdraw (R-COMBAT-01, R-COMBAT-08, R-COMBAT-09, R-COMBAT-15,
R-MOVE-03, R-MOVE-13). Real battles and the odds calculator build their :class:`Fighter` lists
here, from the game state."""

from __future__ import annotations

from caedes_bot.gamedata.model import BaseType, Ruleset, Terrain
from caedes_bot.rules.combat.arithmetic import Fighter, best_combat_terrain
from caedes_bot.rules.mercenary import is_mercenary
from caedes_bot.rules.ownership import hostile_units
from caedes_bot.rules.state import (
    Battle,
    GameState,
    Side,
    Unit,
)


def combat_terrain(state: GameState, ruleset: Ruleset, unit: Unit) -> Terrain | None:
    """The terrain ``unit`` fights on where it stands (R-MOVE-03): the province's only terrain,
    else the one it chose (stored when it moved in), else the best for its combat. Off land
    (river edges) there is none."""
    province = ruleset.map.provinces.get(unit.location)
    if province is None or not province.terrains:
        return None
    if len(province.terrains) == 1:
        return province.terrains[0]
    if unit.terrain is not None and unit.terrain in province.terrains:
        return unit.terrain
    return best_combat_terrain(ruleset.kind(unit.kind), province.terrains)


def can_withdraw(ruleset: Ruleset, unit: Unit, space: str) -> bool:
    """Whether ``unit`` may withdraw from the battle in ``space`` (R-COMBAT-08, R-COMBAT-09):
    it entered this turn from a province with a land border to ``space``. Units that came by a
    boarding move, an Amphibian crossing or teleportation entered from elsewhere and must stay;
    Towers never withdraw (R-ATTR-FORT-01)."""
    if ruleset.kind(unit.kind).base_type is BaseType.TOWER:
        return False
    origin = unit.entered_from
    return (
        origin is not None
        and unit.aboard is None
        and ruleset.map.is_province(origin)
        and origin in ruleset.map.land_neighbours(space)
    )


def fighter_of(state: GameState, ruleset: Ruleset, unit: Unit, side: Side, space: str) -> Fighter:
    """The :class:`Fighter` for ``unit`` on ``side`` of the battle in ``space``."""
    kind = ruleset.kind(unit.kind)
    return Fighter(
        id=unit.id,
        kind=kind,
        faction=unit.owner,
        side=side,
        terrain=combat_terrain(state, ruleset, unit),
        wounded=unit.wounded,
        muster_seq=unit.muster_seq,
        mercenary=is_mercenary(kind, state.options),
        can_withdraw=side is Side.ATTACKER and can_withdraw(ruleset, unit, space),
    )


def battle_sides(
    state: GameState, ruleset: Ruleset, space: str, attacker: str
) -> tuple[list[Unit], list[Unit]]:
    """The units of each side of a battle ``attacker`` fights in ``space`` (R-COMBAT-01,
    R-COMBAT-15): its own units there except Towers and ships; every unit of a non-partner
    faction there (with river-edge ships under ``river_ship_occupies``, R-MOVE-13)."""
    attackers = [
        u
        for u in state.units_at(space)
        if u.owner == attacker
        and ruleset.kind(u.kind).base_type in (BaseType.INFANTRY, BaseType.CAVALRY)
    ]
    return attackers, hostile_units(state, ruleset, space, attacker)


def battle_fighters(state: GameState, ruleset: Ruleset, battle: Battle) -> list[Fighter]:
    out = [
        fighter_of(state, ruleset, state.unit(uid), Side.ATTACKER, battle.space)
        for uid in battle.attacker_units
    ]
    out += [
        fighter_of(state, ruleset, state.unit(uid), Side.DEFENDER, battle.space)
        for uid in battle.defender_units
    ]
    return out
