"""The shipped scenarios (R-SETUP-01): default "The Crumbling Empire" and the skirmish."""

from __future__ import annotations

from collections import defaultdict

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import (
    ARCHURSIA,
    ESTLON,
    Attribute,
    BaseType,
    Race,
    Ruleset,
    Scenario,
    Terrain,
)


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return load_ruleset()


@pytest.fixture(scope="module")
def default(rs: Ruleset) -> Scenario:
    return rs.scenarios["default"]


def test_default_has_all_seven_factions_in_turn_order_r_turn_01(default: Scenario) -> None:
    """R-SETUP-01: the scenario names the factions in play (kept in the turn order of
    R-TURN-01), the turn limit and the deadlines."""
    assert default.faction_codes == ("DAW", "ORC", "WEL", "LIZ", "DWA", "HEL", "ACH")
    assert default.turn_limit == 12
    assert default.options.turn_deadline_hours == 24.0
    assert default.options.reaction_deadline_hours == 6.0


def test_default_hero_per_faction_r_attr_hero_01(rs: Ruleset, default: Scenario) -> None:
    """R-ATTR-HERO-01: One Hero per faction: H-<FAC>-01, infantry or cavalry, 1-3 attributes, no
    cost, placed once; Fear, Inspiring and Teleportation each appear.
    """
    for sf in default.factions:
        assert sf.hero == f"H-{sf.code}-01"
        hero = default.heroes[sf.hero]
        assert hero.faction == sf.code
        assert hero.hero and hero.cost is None
        assert hero.has(Attribute.HERO)
        assert hero.base_type in (BaseType.INFANTRY, BaseType.CAVALRY)
        own = hero.attributes - {Attribute.HERO, Attribute.BLITZ}
        assert 1 <= len(own) <= 3
        assert rs.kind(hero.id) is hero
        assert sum(u.count for u in default.units if u.kind == hero.id) == 1
    everything = set().union(*(h.attributes for h in default.heroes.values()))
    assert {Attribute.FEAR, Attribute.INSPIRING, Attribute.TELEPORTATION} <= everything


def test_default_heroes_take_type_base_values(default: Scenario) -> None:
    """A cavalry hero has A5 D3 M2 and an infantry hero A2 D3 M1 (section 15 type table)."""
    aldric = default.heroes["H-DAW-01"]
    assert (aldric.attack, aldric.defense, aldric.move) == (5, 3, 2)
    velkhar = default.heroes["H-ACH-01"]
    assert (velkhar.attack, velkhar.defense, velkhar.move) == (2, 3, 1)


def test_default_owners_and_unowned_buffers_r_setup_03(rs: Ruleset, default: Scenario) -> None:
    """Some provinces start unowned, including Orme, and hold no units (R-SETUP-03);
    every faction owns at least four provinces."""
    unowned = set(rs.map.provinces) - set(default.owners)
    assert "orme" in unowned
    assert len(unowned) >= 8
    for unit in default.units:
        assert unit.location not in unowned
    counts: dict[str, int] = defaultdict(int)
    for owner in default.owners.values():
        counts[owner] += 1
    assert all(counts[code] >= 4 for code in default.faction_codes)


def test_default_no_two_rival_provinces_touch(rs: Ruleset, default: Scenario) -> None:
    """Buffers: no land border joins provinces of two different factions at the start."""
    for pid, owner in default.owners.items():
        for other in rs.map.land_neighbours(pid):
            assert default.owners.get(other, owner) == owner, (pid, other)


def test_default_capitals(rs: Ruleset, default: Scenario) -> None:
    """Archursia starts Acherousian (R-RACE-ACH-01) and the High Elves hold Estlon
    (R-RACE-HEL-01)."""
    assert default.owners[ARCHURSIA] == "ACH"
    estlon = [p.id for p in rs.map.provinces.values() if p.island == ESTLON]
    assert all(default.owners[p] == "HEL" for p in estlon)


def _infantry_on(
    rs: Ruleset, scenario: Scenario, code: str, race: Race, terrains: set[Terrain]
) -> bool:
    for unit in scenario.units:
        kind = rs.kind(unit.kind)
        if kind.faction != code or kind.race is not race or kind.base_type is not BaseType.INFANTRY:
            continue
        if scenario.owners.get(unit.location) != code:
            continue
        province = rs.map.provinces.get(unit.location)
        if province is not None and set(province.terrains) & terrains:
            return True
    return False


@pytest.mark.parametrize("scenario_id", ["default", "skirmish"])
def test_muster_rules_satisfiable_r_muster_08(rs: Ruleset, scenario_id: str) -> None:
    """R-MUSTER-08: every limited race of every faction in play starts with an infantry unit on
    ground where that race musters (Dawnian plains, Orc hills/plains, Ogre hills, Bugbear
    hills/mountains, Dwarven mountains, Lizardman swamp, Wood Elven forest)."""
    scenario = rs.scenarios[scenario_id]
    needs = {
        Race.DAWNIAN: {Terrain.PLAINS},
        Race.ORC: {Terrain.HILLS, Terrain.PLAINS},
        Race.OGRE: {Terrain.HILLS},
        Race.BUGBEAR: {Terrain.HILLS, Terrain.MOUNTAINS},
        Race.DWARVEN: {Terrain.MOUNTAINS},
        Race.LIZARDMAN: {Terrain.SWAMP},
        Race.WOOD_ELVEN: {Terrain.FOREST},
    }
    for code in scenario.faction_codes:
        for race in rs.faction(code).races & set(needs):
            assert _infantry_on(rs, scenario, code, race, needs[race]), (code, race)


@pytest.mark.parametrize("scenario_id", ["default", "skirmish"])
def test_start_positions_are_legal(rs: Ruleset, scenario_id: str) -> None:
    """Towers and land units on land, ships at sea (R-MOVE-09, R-ATTR-WATER-01); one
    Fortification per province (R-ATTR-FORT-02); Undead beside a Necromancer (R-RACE-UND-01);
    no summoned units; one Tower per faction at least."""
    scenario = rs.scenarios[scenario_id]
    forts: dict[str, int] = defaultdict(int)
    towers: dict[str, int] = defaultdict(int)
    for unit in scenario.units:
        kind = rs.kind(unit.kind)
        at_sea = rs.map.is_sea(unit.location)
        assert at_sea == (kind.base_type is BaseType.SHIP), unit
        assert kind.race is not Race.SUMMONED
        if kind.has(Attribute.FORTIFICATION):
            forts[unit.location] += unit.count
            towers[kind.faction] += unit.count
        if kind.race is Race.UNDEAD:
            assert any(
                rs.kind(o.kind).has(Attribute.NECROMANCER)
                for o in scenario.units
                if o.location == unit.location
            )
    assert all(n == 1 for n in forts.values())
    assert set(towers) == set(scenario.faction_codes)


def test_default_ships_for_high_elves_and_lizardmen(rs: Ruleset, default: Scenario) -> None:
    ships = defaultdict(int)
    for unit in default.units:
        kind = rs.kind(unit.kind)
        if kind.base_type is BaseType.SHIP:
            ships[kind.faction] += unit.count
    assert ships["HEL"] >= 1
    assert ships["LIZ"] >= 1


def test_skirmish_is_small(rs: Ruleset) -> None:
    skirmish = rs.scenarios["skirmish"]
    assert 3 <= len(skirmish.faction_codes) <= 4
    assert skirmish.turn_limit is not None and skirmish.turn_limit <= 4
    assert sum(u.count for u in skirmish.units) <= 30
