"""The loader reports every problem in broken game data at once, each with its file and item.

Each test copies the shipped data to a temporary directory, breaks it on purpose with a text
edit, and checks the problems that :class:`GameDataError` lists.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from caedes_bot.gamedata.loader import (
    GameDataError,
    default_config_dir,
    load_ruleset,
    suggest,
)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "caedes"
    shutil.copytree(default_config_dir(), root)
    return root


def edit(root: Path, relative: str, old: str, new: str, *, count: int = 1) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"{old!r} not found in {relative}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def problems(root: Path) -> list[str]:
    with pytest.raises(GameDataError) as info:
        load_ruleset(root)
    assert str(info.value).startswith(f"{len(info.value.problems)} problem")
    return info.value.problems


def has(found: list[str], *parts: str) -> bool:
    return any(all(p in line for p in parts) for line in found)


def test_copy_of_shipped_data_loads(data: Path) -> None:
    assert len(load_ruleset(data).units) == 65


def test_many_problems_reported_at_once(data: Path) -> None:
    """Five unrelated breakages, five reports in one error: an unknown province in a border,
    an unknown unit kind, an unreachable province, a unit where it cannot be, and a faction that
    could never muster (R-MUSTER-08)."""
    edit(data, "map.toml", '["orme", "greywater-ford"]', '["orme", "greywater-frod"]')
    edit(
        data,
        "map.toml",
        "[[sea_zone]]",
        '[[province]]\nid = "lost-vale"\nname = "Lost Vale"\nregion = "Middle Marches"\n'
        'direction = "N"\ninches = 50\nrp = 1\nterrains = ["hills"]\n\n[[sea_zone]]',
    )
    edit(
        data, "scenarios/default.toml", "corndale = { U-DAW-01 = 1 }", "corndale = { U-DAW-10 = 1 }"
    )
    edit(
        data,
        "scenarios/default.toml",
        "glimmerwood = { U-HEL-01 = 1 }",
        "glimmerwood = { U-HEL-01 = 1 }\neastern-deep = { U-HEL-08 = 1 }",
    )
    # the Dwarves' only infantry on mountains become cavalry: nowhere to muster Dwarven units
    edit(data, "scenarios/default.toml", "[units.DWA]", "[units.DWA-old]")
    edit(
        data,
        "scenarios/default.toml",
        "[units.HEL]",
        "[units.DWA]\nanvilhome = { U-DWA-07 = 1, U-DWA-04 = 1 }\n\n[units.HEL]",
    )
    found = problems(data)
    assert has(
        found, "map.toml", "land border", "unknown province 'greywater-frod'", "greywater-ford"
    )
    assert has(found, "scenarios/default.toml", "unknown unit kind 'U-DAW-10'")
    assert has(found, "map.toml", "province 'lost-vale'", "cannot be reached from Orme")
    assert has(found, "eastern-deep", "U-HEL-08", "cannot stand in a sea zone", "R-ATTR-FORT-02")
    assert has(found, "faction 'DWA'", "could never muster dwarven", "R-MUSTER-08")
    assert has(found, "unknown faction 'DWA-old'")
    assert len(found) >= 6


# --- the map -----------------------------------------------------------------------------------


def test_island_border_to_the_mainland_r_move_10(data: Path) -> None:
    """R-MOVE-10: an island province may not share a land border with the mainland."""
    edit(
        data,
        "map.toml",
        '  ["greater-dilgac", "lesser-dilgac"],',
        '  ["greater-dilgac", "saltmarsh"],',
    )
    found = problems(data)
    assert has(found, "['greater-dilgac', 'saltmarsh']", "R-MOVE-10")


def test_self_and_duplicate_borders(data: Path) -> None:
    edit(
        data,
        "map.toml",
        '  ["orme", "tallowmere"],',
        '  ["orme", "orme"],\n  ["tallowmere", "orme"],\n  ["orme", "tallowmere"],',
    )
    found = problems(data)
    assert has(found, "land border ['orme', 'orme']", "two different spaces")
    assert has(found, "land border ['orme', 'tallowmere']", "duplicate land border")


def test_coast_and_sea_link_names_checked(data: Path) -> None:
    edit(
        data,
        "map.toml",
        '  ["mossvale", "strait-of-estlon"],',
        '  ["mossvale", "strait-of-estlom"],',
    )
    edit(data, "map.toml", '  ["pearl-sea", "eastern-deep"],', '  ["pearl-sea", "mossvale"],')
    found = problems(data)
    assert has(found, "coast", "unknown sea zone 'strait-of-estlom'", "'strait-of-estlon'")
    assert has(found, "sea link", "unknown sea zone 'mossvale'")


def test_river_edge_must_lie_on_a_land_border_r_move_11(data: Path) -> None:
    """R-MOVE-11: a river runs along a border between adjacent provinces."""
    edit(
        data,
        "map.toml",
        '  ["anvilhome", "frostfang"],\n]',
        '  ["anvilhome", "frostfang"],\n  ["frostfang", "orme"],\n]',
    )
    found = problems(data)
    assert has(found, "river 'The Anvilrun' edge ['frostfang', 'orme']", "land border", "R-MOVE-11")


def test_river_edges_must_chain_r_move_11(data: Path) -> None:
    """R-MOVE-11: each edge continues from the one before (shares a province)."""
    edit(
        data,
        "map.toml",
        '  ["elderglade", "mossvale"],\n  ["elderglade", "silverbirch"],\n',
        '  ["elderglade", "mossvale"],\n  ["thornwood", "duriak"],\n',
    )
    found = problems(data)
    assert has(found, "river 'The Silverrun' edge ['thornwood', 'duriak']", "does not continue")


def test_river_mouth_provinces_touch_the_sea_r_move_13(data: Path) -> None:
    """R-MOVE-13: ships pass between the mouth edge and its sea zone, so both provinces of the
    mouth edge touch that sea zone."""
    edit(data, "map.toml", 'mouth = "silver-gulf"', 'mouth = "dilgac-sound"')
    found = problems(data)
    assert has(found, "river 'The Silverrun'", "'duriak' does not touch sea zone 'dilgac-sound'")
    assert has(found, "'silverbirch' does not touch sea zone 'dilgac-sound'")


def test_one_river_edge_in_two_rivers(data: Path) -> None:
    edit(
        data,
        "map.toml",
        '  ["anvilhome", "frostfang"],\n]',
        '  ["anvilhome", "frostfang"],\n  ["anvilhome", "deepforge"],\n]',
    )
    found = problems(data)
    assert has(found, "The Anvilrun", "already belongs to river 'The Anvilrun'")


def test_province_field_problems(data: Path) -> None:
    edit(
        data,
        "map.toml",
        'terrains = ["plains"]\ncommodities = ["grain", "grain"]',
        'terrains = ["plain"]\ncommodities = ["grian"]',
    )
    edit(
        data,
        "map.toml",
        'id = "kestrel-downs"\nname = "Kestrel Downs"',
        'id = "kestrel-downs"\nname = "Kestrel Downs"\ncolor = "red"',
    )
    edit(data, "map.toml", 'direction = "W"\ninches = 8', 'direction = "WSW"\ninches = 8')
    found = problems(data)
    assert has(found, "province 'orme'", "unknown terrain 'plain'", "'plains'")
    assert has(found, "province 'orme'", "unknown commodity 'grian'", "'grain'")
    assert has(found, "province 'kestrel-downs'", "schema", "color")
    assert has(found, "province 'greywater-ford'", "unknown direction 'WSW'")
    # a broken province is reported once, not again at every border that names it
    assert not has(found, "unknown province 'kestrel-downs'")
    assert not has(found, "unknown province 'orme'")


def test_duplicate_province_id(data: Path) -> None:
    edit(data, "map.toml", 'id = "tallowmere"', 'id = "kestrel-downs"')
    found = problems(data)
    assert has(found, "province 'kestrel-downs'", "duplicate province id")
    assert has(found, "unknown province 'tallowmere'")


def test_exactly_one_centre(data: Path) -> None:
    edit(data, "map.toml", 'direction = "centre"\ninches = 0', 'direction = "N"\ninches = 1')
    found = problems(data)
    assert has(found, "exactly one province must have direction 'centre'")


# --- units, factions, options -----------------------------------------------------------------


def test_unit_problems(data: Path) -> None:
    edit(
        data,
        "units.toml",
        'attributes = ["flying", "predator", "mighty"]',
        'attributes = ["flight", "predator", "mighty"]',
    )
    edit(
        data,
        "units.toml",
        'magical = ["summoner", "enchanter"]',
        'magical = ["summoner", "woodlore"]',
    )
    edit(data, "units.toml", 'id = "U-DAW-03"', 'id = "U-DAW-02"')
    edit(data, "units.toml", 'race = "lizardman"', 'race = "lizard"')
    edit(data, "units.toml", 'id = "U-ORC-02"\nfaction = "ORC"', 'id = "U-ORC-02"\nfaction = "DAW"')
    found = problems(data)
    assert has(found, "units.toml", "unit 'U-DAW-07'", "unknown attribute 'flight'")
    assert has(found, "unit 'U-WEL-05'", "'woodlore' is not a magical attribute")
    assert has(found, "unit 'U-DAW-02'", "duplicate unit id")
    assert has(found, "unit 'U-LIZ-01'", "unknown race 'lizard'")
    assert has(found, "unit 'U-ORC-02'", "names faction ORC but faction is DAW")
    assert has(found, "unit 'U-ORC-02'", "does not muster race 'orc'")


def test_factions_file_order_is_free_r_turn_01(data: Path) -> None:
    """R-TURN-01 fixes the order in turn.toml; factions.toml may list the factions in any order."""
    text = (data / "factions.toml").read_text(encoding="utf-8")
    blocks = text.split("[[faction]]")
    head, daw, orc, rest = blocks[0], blocks[1], blocks[2], blocks[3:]
    (data / "factions.toml").write_text(
        "[[faction]]".join([head, orc, daw, *rest]), encoding="utf-8"
    )
    rs = load_ruleset(data)
    assert rs.turn_order == ("DAW", "ORC", "WEL", "LIZ", "DWA", "HEL", "ACH")
    assert rs.scenarios["default"].faction_codes == rs.turn_order


def test_turn_order_follows_turn_toml_r_turn_01(data: Path) -> None:
    edit(data, "turn.toml", '"DAW", "ORC"', '"ORC", "DAW"')
    rs = load_ruleset(data)
    assert rs.turn_order == ("ORC", "DAW", "WEL", "LIZ", "DWA", "HEL", "ACH")
    assert rs.scenarios["default"].faction_codes[:2] == ("ORC", "DAW")


def test_factions_out_of_turn_order_r_turn_01(data: Path) -> None:
    """R-TURN-01: every faction once in turn.toml's order, and nothing else."""
    edit(data, "turn.toml", '"DAW", "ORC", "WEL"', '"ORC", "ORC", "WLE"')
    found = problems(data)
    assert has(found, "factions.toml", "faction 'DAW'", "turn order of R-TURN-01")
    assert has(found, "factions.toml", "faction 'WEL'", "turn order of R-TURN-01")
    assert has(found, "turn.toml", "faction 'ORC'", "listed twice", "R-TURN-01")
    assert has(found, "turn.toml", "unknown faction 'WLE'", "'WEL'")
    assert len(found) == 4


def test_steps_are_the_eight_known_r_turn_02(data: Path) -> None:
    """R-TURN-02: turn.toml names each of the eight steps once; nothing else."""
    edit(data, "turn.toml", '"trade", "redeem", "collect"', '"trade", "trade", "colect"')
    found = problems(data)
    assert has(found, "turn.toml", "step 'trade'", "listed twice", "R-TURN-02")
    assert has(found, "turn.toml", "unknown step 'colect'", "'collect'")
    assert has(found, "turn.toml", "step 'redeem'", "missing", "R-TURN-02")
    assert has(found, "turn.toml", "step 'collect'", "missing", "R-TURN-02")
    assert len(found) == 4


def test_turn_file_shape(data: Path) -> None:
    (data / "turn.toml").write_text('steps = "trade"\norder = []\n', encoding="utf-8")
    found = problems(data)
    assert has(found, "turn.toml", "schema: steps")
    assert has(found, "turn.toml", "schema: factions")
    assert has(found, "turn.toml", "schema: order")


def test_faction_without_home_terrain_could_never_muster(data: Path) -> None:
    """A Dawnian home region with no plains could never muster Dawnian units (R-RACE-DAW-01)."""
    text = (data / "map.toml").read_text(encoding="utf-8")
    start = text.index('region = "Dawnreach"')
    end = text.index('region = "Melvek Wilds"')
    section = (
        text[start:end]
        .replace('"plains", ', "")
        .replace('["plains"]', '["hills"]')
        .replace(', "plains"', "")
    )
    (data / "map.toml").write_text(text[:start] + section + text[end:], encoding="utf-8")
    found = problems(data)
    assert has(found, "factions.toml", "faction 'DAW'", "could never muster dawnian", "plains")


def test_option_problems(data: Path) -> None:
    edit(data, "options.toml", 'casualty_chooser = "owner"', 'casualty_chooser = "defender"')
    edit(data, "options.toml", "stalemate_rounds = 20", 'stalemate_rounds = "twenty"')
    edit(data, "options.toml", "upkeep_exempt_types = []", 'upkeep_exempt_types = ["towr"]')
    edit(
        data,
        "scenarios/default.toml",
        "[options]\n",
        '[options]\nbreath_mode = "sideways"\npublic_treasury = true\n',
    )
    found = problems(data)
    assert has(found, "options.toml", "option 'casualty_chooser'", "unknown value 'defender'")
    assert has(found, "option 'stalemate_rounds'", "whole number")
    assert has(found, "option 'upkeep_exempt_types'", "unknown unit type 'towr'", "'tower'")
    assert has(found, "scenarios/default.toml", "option 'breath_mode'", "unknown value 'sideways'")
    assert has(found, "option 'public_treasury'", "unknown option", "'public_treasuries'")


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(GameDataError, match="does not exist"):
        load_ruleset(tmp_path / "nowhere")


def test_missing_file_and_bad_toml(data: Path) -> None:
    (data / "unit_types.toml").unlink()
    (data / "factions.toml").write_text("[[faction]\ncode = 'DAW'\n", encoding="utf-8")
    found = problems(data)
    assert has(found, "unit_types.toml", "file is missing")
    assert has(found, "factions.toml", "not valid TOML")


# --- scenarios ---------------------------------------------------------------------------------


def test_units_where_they_cannot_be(data: Path) -> None:
    """Two Fortifications in one province (R-ATTR-FORT-02), a ship in a province
    (R-ATTR-WATER-01), units in an unowned province (R-SETUP-03) and in another faction's
    province (R-COLL-01), Undead without a Necromancer (R-RACE-UND-01), Mercenaries that would
    die at once (R-ATTR-MERC-01)."""
    s = "scenarios/default.toml"
    edit(
        data,
        s,
        "corndale = { U-DAW-01 = 1 }",
        "corndale = { U-DAW-01 = 1, U-DAW-08 = 2, U-DAW-09 = 1 }\norme = { U-DAW-01 = 1 }",
    )
    edit(data, s, "tombwold = { U-ACH-01 = 1 }", "tombwold = { U-ACH-01 = 1, U-ACH-09 = 1 }")
    edit(
        data,
        s,
        "ironjaw-peaks = { U-ORC-02 = 1 }",
        "ironjaw-peaks = { U-ORC-02 = 1, U-ORC-01 = 2 }",
    )
    edit(
        data,
        s,
        "ashen-downs = { U-ACH-01 = 1 }",
        "ashen-downs = { U-ACH-01 = 1 }\nbrightholm = { U-ACH-04 = 1 }",
    )
    found = problems(data)
    assert has(found, "units at 'corndale'", "2 Fortifications", "R-ATTR-FORT-02")
    assert has(found, "units at 'corndale'", "U-DAW-09", "ship", "R-ATTR-WATER-01")
    assert has(found, "units at 'orme'", "unowned", "R-SETUP-03")
    assert has(found, "units at 'brightholm'", "ACH units", "owned by DAW", "R-COLL-01")
    assert has(found, "units at 'brightholm'", "several factions")
    assert has(found, "units at 'tombwold'", "Undead", "Necromancer", "R-RACE-UND-01")
    assert has(found, "units at 'ironjaw-peaks'", "Mercenary", "R-ATTR-MERC-01")


def test_scenario_names_checked(data: Path) -> None:
    s = "scenarios/default.toml"
    edit(data, s, '"tombwold", "ashen-downs"', '"tombwold", "ashen-down"')
    edit(data, s, '"brightholm", "lanternfield"', '"brightholm", "lanternfield", "archursia"')
    edit(data, s, 'hero = "H-ORC-01"', 'hero = "H-ORC-09"')
    edit(data, s, "[units.WEL]", "[units.XYZ]\norme = { U-WEL-01 = 1 }\n\n[units.WEL]")
    edit(data, s, "thornwood = { U-WEL-01 = 1 }", "thornwood = { U-LIZ-01 = 1 }")
    edit(data, s, "lesser-dilgac = { U-LIZ-01 = 1 }", "lesser-dilgak = { U-LIZ-01 = 1 }")
    found = problems(data)
    assert has(found, "faction 'ACH'", "unknown province 'ashen-down'", "'ashen-downs'")
    assert has(found, "faction 'ACH'", "'archursia' is already owned by DAW", "R-COLL-01")
    assert has(found, "faction 'ORC'", "unknown hero 'H-ORC-09'")
    assert has(found, "[units.XYZ]", "unknown faction 'XYZ'")
    assert has(found, "[units.WEL] thornwood", "'U-LIZ-01' belongs to LIZ")
    assert has(
        found, "[units.LIZ] lesser-dilgak", "unknown province or sea zone", "'lesser-dilgac'"
    )


def test_sea_zones_and_river_edges_are_never_owned_r_coll_03(data: Path) -> None:
    """R-COLL-03: a scenario that gives the Dawnians a sea zone and a river edge is refused;
    only provinces have owners."""
    s = "scenarios/default.toml"
    edit(
        data,
        s,
        '"corndale", "vigil-of-bor"]',
        '"corndale", "vigil-of-bor", "bay-of-sorrows", "river:kestrel-downs|tallowmere"]',
    )
    found = problems(data)
    assert has(found, "faction 'DAW'", "unknown province 'bay-of-sorrows'")
    assert has(found, "faction 'DAW'", "unknown province 'river:kestrel-downs|tallowmere'")
    assert len(found) == 2


def test_acherousians_without_archursia_r_race_ach_01(data: Path) -> None:
    """R-RACE-ACH-01: Acherousian units muster only in Archursia; a scenario must give it to
    them, and then the units standing there must move elsewhere too."""
    s = "scenarios/default.toml"
    edit(data, s, '"archursia", "sarnath-fields"', '"sarnath-fields"')
    edit(data, s, "archursia = { U-ACH-12", "tombwold-old = { U-ACH-12")
    found = problems(data)
    assert has(found, "faction 'ACH'", "could never muster acherousian", "R-RACE-ACH-01")


def test_hero_problems(data: Path) -> None:
    s = "scenarios/default.toml"
    edit(data, s, 'attributes = ["fear", "elite"]', 'attributes = ["fear", "elite", "hero"]')
    edit(data, s, 'id = "H-WEL-01"\nfaction = "WEL"', 'id = "H-WEL-01"\nfaction = "HEL"')
    edit(
        data,
        "scenarios/skirmish.toml",
        "[units.DAW]",
        (
            '[[hero]]\nid = "H-DAW-01"\nfaction = "DAW"\nname = "Someone Else"\n'
            'display_name = "Someone Else"\nrace = "dawnian"\ntype = "infantry"\n\n[units.DAW]'
        ),
    )
    found = problems(data)
    assert has(found, "hero 'H-ORC-01'", "'hero' is given by the scenario")
    assert has(found, "hero 'H-WEL-01'", "names faction WEL but faction is HEL")
    assert has(found, "scenarios/skirmish.toml", "hero 'H-DAW-01'", "defined differently")


# --- helpers -----------------------------------------------------------------------------------


def test_suggest_near_matches() -> None:
    names = ["orme", "greywater-ford", "kestrel-downs", "Archursia"]
    assert suggest("ormee", names) == ("orme",)
    assert suggest("archursia", names) == ("Archursia",)
    assert suggest("zzz", names) == ()
    assert len(suggest("a", ["a", "aa", "ab", "ac", "ad"], limit=2)) == 2


def test_game_data_error_lists_problems() -> None:
    err = GameDataError(["a.toml: x: bad", "b.toml: y: worse"])
    assert err.problems == ["a.toml: x: bad", "b.toml: y: worse"]
    assert str(err).splitlines() == [
        "2 problems in the game data:",
        "  - a.toml: x: bad",
        "  - b.toml: y: worse",
    ]
