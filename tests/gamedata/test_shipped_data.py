"""The shipped game data in ``config/caedes/`` loads and says what the catalogue says.

Expected values come from the catalogue (section 15's order of battle, section 17's option
table, R-TURN-01's order) or from counting by hand in the data files, never from the loader.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from caedes_bot.gamedata.loader import default_config_dir, load_ruleset
from caedes_bot.gamedata.model import (
    ARCHURSIA,
    ESTLON,
    STEP_IDS,
    Attribute,
    BaseType,
    Commodity,
    Direction,
    Options,
    Race,
    Ruleset,
    Terrain,
)
from caedes_bot.rules.state import Step


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return load_ruleset()


def test_default_config_dir_is_in_the_repository() -> None:
    root = default_config_dir()
    assert root.name == "caedes"
    assert root.parent.name == "config"
    assert (root / "units.toml").is_file()


# --- unit types and order of battle (catalogue section 15) ------------------------------------


def test_unit_types_base_values_section_15(rs: Ruleset) -> None:
    """Infantry A2 D3 M1 cost 3; Cavalry A5 D3 M2 cost 5 Blitz; Ship A2 D2 M2 cost 8 Watercraft;
    Tower A- D7 M- cost 18 Fortification (section 15, R-ATTR-BLITZ-01)."""
    inf = rs.unit_types[BaseType.INFANTRY]
    cav = rs.unit_types[BaseType.CAVALRY]
    ship = rs.unit_types[BaseType.SHIP]
    tower = rs.unit_types[BaseType.TOWER]
    assert (inf.attack, inf.defense, inf.move, inf.cost, inf.inherent) == (2, 3, 1, 3, frozenset())
    assert (cav.attack, cav.defense, cav.move, cav.cost) == (5, 3, 2, 5)
    assert cav.inherent == {Attribute.BLITZ}
    assert (ship.attack, ship.defense, ship.move, ship.cost) == (2, 2, 2, 8)
    assert ship.inherent == {Attribute.WATERCRAFT}
    assert (tower.attack, tower.defense, tower.move, tower.cost) == (None, 7, None, 18)
    assert tower.inherent == {Attribute.FORTIFICATION}


def test_order_of_battle_has_65_units_with_catalogue_ids(rs: Ruleset) -> None:
    """Section 15 lists 9 DAW, 11 ORC, 9 WEL, 6 LIZ, 8 DWA, 9 HEL and 13 ACH units: 65."""
    sizes = {"DAW": 9, "ORC": 11, "WEL": 9, "LIZ": 6, "DWA": 8, "HEL": 9, "ACH": 13}
    expected = [f"U-{code}-{n:02d}" for code, size in sizes.items() for n in range(1, size + 1)]
    assert sorted(rs.units) == sorted(expected)
    assert len(rs.units) == 65
    for code in sizes:
        ids = [k.id for k in rs.order_of_battle(code)]
        assert ids == [f"U-{code}-{n:02d}" for n in range(1, sizes[code] + 1)]


@pytest.mark.parametrize(
    ("kind_id", "display", "race", "cost", "base_type", "attributes"),
    [
        ("U-DAW-02", "Dawnian Yeomen", Race.DAWNIAN, 4, BaseType.INFANTRY, {"missile"}),
        ("U-DAW-04", "Dawnian Knights", Race.DAWNIAN, 6, BaseType.CAVALRY, {"veteran", "blitz"}),
        (
            "U-DAW-06",
            "Dawnian Wizard",
            Race.DAWNIAN,
            18,
            BaseType.INFANTRY,
            {"weak", "invoker", "diviner"},
        ),
        (
            "U-DAW-07",
            "Dawnian Windriders",
            Race.DAWNIAN,
            12,
            BaseType.CAVALRY,
            {"flying", "predator", "mighty", "blitz"},
        ),
        ("U-ORC-01", "Orc Rabble", Race.ORC, 2, BaseType.INFANTRY, {"meek", "mercenary"}),
        (
            "U-ORC-03",
            "Bugbear Irregulars",
            Race.BUGBEAR,
            3,
            BaseType.INFANTRY,
            {"elite", "mercenary"},
        ),
        (
            "U-ORC-05",
            "Ogre Heavy Infantry",
            Race.OGRE,
            4,
            BaseType.INFANTRY,
            {"veteran", "fortitude"},
        ),
        (
            "U-ORC-07",
            "Orc Giant allies",
            Race.ORC,
            15,
            BaseType.INFANTRY,
            {"veteran", "elite", "fortitude", "mighty", "mountainlore", "missile"},
        ),
        (
            "U-ORC-09",
            "Summoned Outsider",
            Race.SUMMONED,
            1,
            BaseType.INFANTRY,
            {"weak", "meek", "fortitude"},
        ),
        (
            "U-WEL-07",
            "Summoned Earth Elemental",
            Race.SUMMONED,
            6,
            BaseType.TOWER,
            {"meek", "fortitude", "fortification"},
        ),
        (
            "U-LIZ-01",
            "Lizardman Infantry",
            Race.LIZARDMAN,
            3,
            BaseType.INFANTRY,
            {"amphibian", "swamplore"},
        ),
        (
            "U-LIZ-04",
            "Lizardman Dragon Allies",
            Race.LIZARDMAN,
            24,
            BaseType.CAVALRY,
            {
                "flying",
                "breathweapon",
                "fortitude",
                "veteran",
                "elite",
                "predator",
                "mercenary",
                "blitz",
            },
        ),
        (
            "U-DWA-05",
            "Dwarven Ultra-Heavy Cavalry",
            Race.DWARVEN,
            12,
            BaseType.CAVALRY,
            {"veteran", "fortitude", "mighty", "predator", "mountainlore", "slow", "blitz"},
        ),
        (
            "U-DWA-06",
            "Dwarven Military Engineer",
            Race.DWARVEN,
            18,
            BaseType.INFANTRY,
            {"mountainlore", "breathweapon"},
        ),
        (
            "U-HEL-03",
            "High Elven Chargers",
            Race.HIGH_ELVEN,
            7,
            BaseType.CAVALRY,
            {"quick", "elite", "blitz"},
        ),
        (
            "U-HEL-07",
            "Summoned Demi-Shadow Tower",
            Race.SUMMONED,
            6,
            BaseType.TOWER,
            {"fortification"},
        ),
        ("U-HEL-08", "High Elven Tower", None, 18, BaseType.TOWER, {"fortification"}),
        ("U-ACH-01", "Acherousian Phalanx Spearmen", Race.ACHEROUSIAN, 3, BaseType.INFANTRY, set()),
        (
            "U-ACH-05",
            "Acherousian Necromancer",
            Race.ACHEROUSIAN,
            18,
            BaseType.INFANTRY,
            {"meek", "necromancer"},
        ),
        (
            "U-ACH-11",
            "Undead Bone Juggernaut",
            Race.UNDEAD,
            20,
            BaseType.CAVALRY,
            {"undead", "mighty", "slow", "breathweapon", "fortitude", "blitz"},
        ),
        ("U-ACH-13", "Acherousian Ship", None, 8, BaseType.SHIP, {"watercraft"}),
    ],
)
def test_order_of_battle_spot_checks_section_15(
    rs: Ruleset,
    kind_id: str,
    display: str,
    race: Race | None,
    cost: int,
    base_type: BaseType,
    attributes: set[str],
) -> None:
    """Rows of the section 15 tables, canonical spellings (R-GEN-04: Flight = Flying,
    Amphibious = Amphibian, Necromancy = Necromancer, Phallanx = Phalanx), with the type's
    inherent attribute added (R-ATTR-BLITZ-01, R-ATTR-WATER-01, R-ATTR-FORT-01, R-ATTR-FORT-06)."""
    kind = rs.units[kind_id]
    assert kind.display_name == display
    assert kind.race is race
    assert kind.cost == cost
    assert kind.base_type is base_type
    assert {a.value for a in kind.attributes} == attributes
    assert not kind.hero


def test_base_values_come_from_the_type(rs: Ruleset) -> None:
    """Section 15: base values are the type's, never modified in the table (R-GEN-03)."""
    knights = rs.units["U-DAW-04"]
    assert (knights.attack, knights.defense, knights.move) == (5, 3, 2)
    earth = rs.units["U-WEL-07"]
    assert (earth.attack, earth.defense, earth.move) == (None, 7, None)
    ship = rs.units["U-LIZ-06"]
    assert (ship.attack, ship.defense, ship.move) == (2, 2, 2)


def test_no_order_of_battle_unit_has_fear_inspiring_hero_or_teleportation(rs: Ruleset) -> None:
    """Section 15 notes: those attributes exist only for scenario units and heroes."""
    scenario_only = {Attribute.FEAR, Attribute.INSPIRING, Attribute.HERO, Attribute.TELEPORTATION}
    for kind in rs.units.values():
        assert not kind.attributes & scenario_only, kind.id


# --- factions (R-TURN-01) ---------------------------------------------------------------------


def test_factions_in_turn_order_r_turn_01(rs: Ruleset) -> None:
    """R-TURN-01: Dawnians, Orcs, Wood Elves, Lizardmen, Dwarves, High Elves, Acherousians."""
    assert rs.turn_order == ("DAW", "ORC", "WEL", "LIZ", "DWA", "HEL", "ACH")
    assert [f.name for f in rs.factions] == [
        "Dawnians",
        "Orcs",
        "Wood Elves",
        "Lizardmen",
        "Dwarves",
        "High Elves",
        "Acherousians",
    ]


def test_steps_in_order_r_turn_02(rs: Ruleset) -> None:
    """R-TURN-02: 1 Trade, 2 Redeem, 3 Collect, 4 Upkeep, 5 Buy, 6 Move, 7 Combat, 8 Muster;
    the ids are the rules core's step names, and the n-th id is step n."""
    expected = ("trade", "redeem", "collect", "upkeep", "buy", "move", "combat", "muster")
    assert rs.step_order == expected
    assert set(expected) == STEP_IDS
    assert tuple(s.name.lower() for s in sorted(Step)) == rs.step_order
    assert [Step[s.upper()].value for s in rs.step_order] == list(range(1, 9))


def test_faction_presentation_is_distinct_and_colour_blind_safe(rs: Ruleset) -> None:
    """ux.md: Okabe-Ito colours, never colour alone: a distinct tag and emoji per faction."""
    okabe_ito = {0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7, 0x000000}
    colours = [f.colour for f in rs.factions]
    assert set(colours) <= okabe_ito
    assert len(set(colours)) == 7
    assert len({f.emoji for f in rs.factions}) == 7
    assert len({f.tag for f in rs.factions}) == 7


def test_faction_races() -> None:
    """Section 13/15: which races each faction musters; the Orcs muster three plus Summoned."""
    rs = load_ruleset()
    races = {f.code: {r.value for r in f.races} for f in rs.factions}
    assert races == {
        "DAW": {"dawnian"},
        "ORC": {"orc", "ogre", "bugbear", "summoned"},
        "WEL": {"wood_elven", "summoned"},
        "LIZ": {"lizardman"},
        "DWA": {"dwarven"},
        "HEL": {"high_elven", "summoned"},
        "ACH": {"acherousian", "undead", "summoned"},
    }


# --- options (section 17) ---------------------------------------------------------------------


def test_options_file_matches_section_17_defaults(rs: Ruleset) -> None:
    """options.toml names every option of section 17 with its default, and nothing else."""
    import tomllib

    with (default_config_dir() / "options.toml").open("rb") as fh:
        data = tomllib.load(fh)
    fields = {f.name for f in dataclasses.fields(Options)}
    assert set(data) == fields
    defaults = Options()
    for key, value in data.items():
        expected = getattr(defaults, key)
        got = tuple(value) if isinstance(value, list) else value
        assert got == expected, key


def test_options_file_comments_cite_rule_ids() -> None:
    """Every option line of options.toml names the rule it configures."""
    lines = (default_config_dir() / "options.toml").read_text(encoding="utf-8").splitlines()
    option_lines = [ln for ln in lines if ln and not ln.startswith("#")]
    assert len(option_lines) == len(dataclasses.fields(Options))
    for line in option_lines:
        assert "# R-" in line, line


# --- the map (catalogue section 16, R-MOVE-10, R-MOVE-11, R-COMM-12) --------------------------


def test_map_size(rs: Ruleset) -> None:
    assert len(rs.map.provinces) >= 40
    assert len(rs.map.sea_zones) >= 10


def test_orme_is_the_centre(rs: Ruleset) -> None:
    """Section 16: Orme is the origin of the Map Area Index; plains and river."""
    orme = rs.map.provinces["orme"]
    assert orme.direction is Direction.CENTRE
    assert orme.inches == 0
    assert orme.has_terrain(Terrain.PLAINS)
    assert rs.map.river_edges_of("orme")
    centres = [p for p in rs.map.provinces.values() if p.direction is Direction.CENTRE]
    assert centres == [orme]


def test_named_places_exist(rs: Ruleset) -> None:
    """Section 16's table of places: Archursia in Acherousia, Anvilhome on mountains, Duriak on
    the south-east coast, the Melvek and Gormak wilds, the southern swamps, the Dilgac islands."""
    provinces = rs.map.provinces
    archursia = provinces[ARCHURSIA]
    assert archursia.region == "Acherousia"
    assert sum(p.region == "Acherousia" for p in provinces.values()) >= 4
    anvil = provinces["anvilhome"]
    assert anvil.has_terrain(Terrain.MOUNTAINS)
    assert (
        sum(
            p.region == anvil.region and p.has_terrain(Terrain.MOUNTAINS)
            for p in provinces.values()
        )
        >= 4
    )
    duriak = provinces["duriak"]
    assert duriak.direction is Direction.SE
    assert duriak.has_terrain(Terrain.FOREST)
    assert rs.map.is_shore("duriak")
    for region in ("Melvek Wilds", "Gormak Wilds"):
        members = [p for p in provinces.values() if p.region == region]
        assert len(members) >= 4
        terrains = {t for p in members for t in p.terrains}
        assert {Terrain.HILLS, Terrain.PLAINS, Terrain.MOUNTAINS} <= terrains
    swamps = [p for p in provinces.values() if p.region == "Southern Swamps"]
    assert len(swamps) >= 4
    assert all(p.has_terrain(Terrain.SWAMP) and p.island is None for p in swamps)
    assert all(p.direction in (Direction.S, Direction.SW, Direction.SE) for p in swamps)


def _land_component(rs: Ruleset, start: str) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in rs.map.land_neighbours(todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_islands_have_no_land_border_to_the_mainland_r_move_10(rs: Ruleset) -> None:
    """R-MOVE-10: Estlon and the Dilgac islands are reached only by sea. Worked out by walking
    land borders from Orme: no island province is reached."""
    mainland = _land_component(rs, "orme")
    islands = {p.id for p in rs.map.provinces.values() if p.island is not None}
    assert islands
    assert not mainland & islands
    assert all(rs.map.is_shore(p) for p in islands)


def test_estlon_is_one_island_of_four_or_more_provinces_in_the_east(rs: Ruleset) -> None:
    """Estlon: at least 4 provinces, one island, all in one direction at a similar distance (map
    authoring, section 16; no rule of play is checked here).
    """
    estlon = [p for p in rs.map.provinces.values() if p.island == ESTLON]
    assert len(estlon) >= 4
    assert {p.direction for p in estlon} == {Direction.E}
    inches = [p.inches for p in estlon]
    assert max(inches) - min(inches) <= 10
    assert all(p.region == "Estlon" for p in estlon)


def test_dilgac_one_sea_zone_from_the_southern_swamps_r_attr_amph_01(rs: Ruleset) -> None:
    """Every Dilgac province touches a sea zone that a mainland southern swamp touches, so an
    Amphibian crossing (province -> sea zone -> province) reaches it (R-ATTR-AMPH-01)."""
    dilgac = [p for p in rs.map.provinces.values() if p.island == "dilgac"]
    assert len(dilgac) >= 3
    swamps = {p.id for p in rs.map.provinces.values() if p.region == "Southern Swamps"}
    for island in dilgac:
        assert island.has_terrain(Terrain.SWAMP)
        assert rs.map.is_shore(island.id)
        crossings = [s for s in rs.map.seas_of(island.id) if rs.map.coast_of(s) & swamps]
        assert crossings, island.id


def test_each_commodity_in_four_provinces_of_its_terrain_r_comm_12(rs: Ruleset) -> None:
    """R-COMM-12: cloth swamp, grain plains, iron mountains, livestock hills, salt shore,
    timber forest; each produced in at least four provinces of the fitting terrain."""
    fits = {
        Commodity.CLOTH: lambda pid: rs.map.provinces[pid].has_terrain(Terrain.SWAMP),
        Commodity.GRAIN: lambda pid: rs.map.provinces[pid].has_terrain(Terrain.PLAINS),
        Commodity.IRON: lambda pid: rs.map.provinces[pid].has_terrain(Terrain.MOUNTAINS),
        Commodity.LIVESTOCK: lambda pid: rs.map.provinces[pid].has_terrain(Terrain.HILLS),
        Commodity.SALT: rs.map.is_shore,
        Commodity.TIMBER: lambda pid: rs.map.provinces[pid].has_terrain(Terrain.FOREST),
    }
    for commodity, fit in fits.items():
        producers = [p.id for p in rs.map.provinces.values() if commodity in p.commodities]
        assert sum(1 for pid in producers if fit(pid)) >= 4, commodity


def test_every_commodity_on_fitting_terrain_r_comm_12(rs: Ruleset) -> None:
    """R-COMM-12 as map guidance: no province yields a commodity foreign to all its terrains."""
    fit = {
        Commodity.CLOTH: Terrain.SWAMP,
        Commodity.GRAIN: Terrain.PLAINS,
        Commodity.IRON: Terrain.MOUNTAINS,
        Commodity.LIVESTOCK: Terrain.HILLS,
        Commodity.TIMBER: Terrain.FOREST,
    }
    for province in rs.map.provinces.values():
        for commodity in province.commodities:
            if commodity is Commodity.SALT:
                assert rs.map.is_shore(province.id), province.id
            else:
                assert province.has_terrain(fit[commodity]), (province.id, commodity)


def test_special_provinces_yield_several_commodities(rs: Ruleset) -> None:
    special = [p for p in rs.map.provinces.values() if p.special]
    assert len(special) >= 3
    for province in special:
        assert len(set(province.commodities)) >= 2, province.id


def test_rivers_r_move_11(rs: Ruleset) -> None:
    """R-MOVE-11: at least 8 river edges, on land borders, grouped in named rivers; at least two
    rivers navigable from the sea, whose mouth edge has both provinces on the mouth sea zone."""
    edges = list(rs.map.rivers.values())
    assert len(edges) >= 8
    for edge in edges:
        assert edge.b in rs.map.land_neighbours(edge.a)
    by_river = Counter(e.river for e in edges)
    assert len(by_river) >= 3
    mouths = [e for e in edges if e.mouth is not None]
    assert len({e.river for e in mouths}) >= 2
    for edge in mouths:
        assert edge.navigable
        assert edge.mouth in rs.map.seas_of(edge.a)
        assert edge.mouth in rs.map.seas_of(edge.b)


def test_adjacency_is_symmetric(rs: Ruleset) -> None:
    for pid, neighbours in rs.map.land_adjacency.items():
        for other in neighbours:
            assert pid in rs.map.land_adjacency[other]
    for sid, neighbours in rs.map.sea_adjacency.items():
        for other in neighbours:
            assert sid in rs.map.sea_adjacency[other]


def test_home_regions_r_muster_06(rs: Ruleset) -> None:
    """R-MUSTER-06, R-RACE-DAW-01, R-RACE-ORC-01, R-RACE-OGR-01, R-RACE-BUG-01, R-RACE-DWA-01,
    R-RACE-LIZ-01, R-RACE-WEL-01, R-RACE-ACH-01: each faction's home region has at least four
    provinces and, for every limited race it musters, a province of the right terrain; Archursia
    lies in the Acherousian home region.
    """
    needs = {
        Race.DAWNIAN: {Terrain.PLAINS},
        Race.ORC: {Terrain.HILLS, Terrain.PLAINS},
        Race.OGRE: {Terrain.HILLS},
        Race.BUGBEAR: {Terrain.HILLS, Terrain.MOUNTAINS},
        Race.DWARVEN: {Terrain.MOUNTAINS},
        Race.LIZARDMAN: {Terrain.SWAMP},
        Race.WOOD_ELVEN: {Terrain.FOREST},
    }
    for faction in rs.factions:
        home = [p for p in rs.map.provinces.values() if p.region == faction.home_region]
        assert len(home) >= 4, faction.code
        for race in faction.races & set(needs):
            assert any(set(p.terrains) & needs[race] for p in home), (faction.code, race)
    acherousia = rs.faction("ACH").home_region
    assert rs.map.provinces[ARCHURSIA].region == acherousia
