"""Variant spellings of the sources name the same thing (R-GEN-04): in what people type they
are accepted; the game data, written in the canonical spellings as ruled, refuses them naming
the spelling to write. The pairs: "Flight" is Flying, "Missle" Missile, "Amphibious" Amphibian, "Necromancy"
Necromancer, a "transmuter" a unit with Teleportation, "Phallanx" Phalanx, "Wood Elf" Wood
Elven, "High Elf" High Elven, Lizardman, Lizardmen and Lizard Man one, "Mountain" Mountains,
"plain" plains."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from caedes_bot.cogs._kind_names import resolve_kind
from caedes_bot.cogs._transformers import resolve_faction
from caedes_bot.gamedata.loader import GameDataError, default_config_dir, load_ruleset
from caedes_bot.gamedata.model import Attribute, Race, Ruleset, Terrain
from caedes_bot.gamedata.names import canonical, contains, find
from caedes_bot.gamedata.schema import DataReader
from caedes_bot.rules.movement.refusals import parse_terrain as terrain_named


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return load_ruleset()


@pytest.mark.parametrize(
    ("variant", "same"),
    [
        ("Flight", "Flying"),
        ("Missle", "Missile"),
        ("Amphibious", "Amphibian"),
        ("Necromancy", "Necromancer"),
        ("Transmuter", "Teleportation"),
        ("Phallanx Spearmen", "Phalanx Spearmen"),
        ("Wood Elf", "Wood Elven"),
        ("High Elf", "High Elven"),
        ("Lizard Man", "Lizardman"),
        ("Lizardmen", "Lizardman"),
        ("Mountain", "Mountains"),
        ("plain", "plains"),
        ("Withdrawl", "withdrawal"),
        ("ocean province", "sea zone"),
        ("sea province", "sea zone"),
        ("land zone", "province"),
    ],
)
def test_r_gen_04_each_variant_has_the_canonical_form_of_its_pair(variant: str, same: str) -> None:
    """R-GEN-04: every pair of the rule compares equal."""
    assert canonical(variant) == canonical(same)


def test_r_gen_04_a_variant_is_only_a_whole_word() -> None:
    """R-GEN-04: "Plainsfolk" or "Flighty" are not variants; the rest of a name stays."""
    assert canonical("Flighty Plainsfolk") == "flighty plainsfolk"
    assert canonical("The Wood Elf Scouts") == "the wood elven scouts"


@pytest.mark.parametrize(
    ("typed", "code"),
    [("Wood Elf", "WEL"), ("High Elf", "HEL"), ("Lizard Man", "LIZ"), ("lizardmen", "LIZ")],
)
def test_r_gen_04_factions_typed_with_variant_spellings(rs: Ruleset, typed: str, code: str) -> None:
    """R-GEN-04: a faction typed with a variant spelling of its race is that faction."""
    assert resolve_faction(rs, typed, [f.code for f in rs.factions]) == code


def test_r_gen_04_unit_kinds_typed_with_variant_spellings(rs: Ruleset) -> None:
    """R-GEN-04: "Wood Elf Scouts" is the kind named Wood Elven Scouts; "Acherousian Phallanx
    Spearmen" the Acherousian Phalanx Spearmen; the autocomplete finds them too."""
    scouts = resolve_kind(rs, "Wood Elf Scouts")
    assert scouts.display_name == "Wood Elven Scouts"
    phalanx = resolve_kind(rs, "Acherousian Phallanx Spearmen")
    assert phalanx.display_name == "Acherousian Phalanx Spearmen"
    assert contains("phallanx", phalanx.display_name)
    assert contains("wood elf", scouts.display_name)
    assert find("Lizard Man", [("LIZ", ("Lizardmen",)), ("ORC", ("Orcs",))]).item == "LIZ"


def test_r_gen_04_terrains_typed_either_way() -> None:
    """R-GEN-04: "mountain" and "Mountains", "plain" and "plains" name one terrain."""
    assert terrain_named("mountain") is Terrain.MOUNTAINS
    assert terrain_named("Mountains") is Terrain.MOUNTAINS
    assert terrain_named("plain") is Terrain.PLAINS


@pytest.mark.parametrize(
    ("written", "member"),
    [
        ("Flight", Attribute.FLYING),
        ("flight", Attribute.FLYING),
        ("Missle", Attribute.MISSILE),
        ("Amphibious", Attribute.AMPHIBIAN),
        ("Necromancy", Attribute.NECROMANCER),
        ("transmuter", Attribute.TELEPORTATION),
    ],
)
def test_r_gen_04_game_data_names_the_canonical_spelling_of_a_variant_attribute(
    written: str, member: Attribute
) -> None:
    """R-GEN-04 as ruled (data files use the canonical spelling): the game data's reader
    recognises a variant spelling and asks for the canonical one, naming it."""
    reader = DataReader(Path("."))
    assert reader.enum_value(Attribute, written, "units.toml", "unit 'X'", "attribute") is None
    assert reader.problems == [
        f"units.toml: unit 'X': unknown attribute '{written}': write '{member.value}' "
        f"(R-GEN-04: '{written}' is a variant spelling of it)"
    ]


@pytest.mark.parametrize(
    ("written", "member"),
    [
        ("Wood Elf", Race.WOOD_ELVEN),
        ("high elf", Race.HIGH_ELVEN),
        ("Lizard Man", Race.LIZARDMAN),
        ("Lizardmen", Race.LIZARDMAN),
    ],
)
def test_r_gen_04_game_data_names_the_canonical_spelling_of_a_variant_race(
    written: str, member: Race
) -> None:
    reader = DataReader(Path("."))
    assert reader.enum_value(Race, written, "units.toml", "unit 'X'", "race") is None
    assert f"write '{member.value}'" in reader.problems[0]


def test_r_gen_04_canonical_names_in_the_game_data_load(tmp_path: Path) -> None:
    """R-GEN-04: the shipped data is written in the canonical spellings only: a units file
    with "Flight" for "flying" and a map with "mountain" for "mountains" are refused, each
    problem naming the spelling to write."""
    root = tmp_path / "caedes"
    shutil.copytree(default_config_dir(), root)
    units = root / "units.toml"
    text = units.read_text(encoding="utf-8")
    assert '"flying"' in text
    units.write_text(text.replace('"flying"', '"Flight"', 1), encoding="utf-8")
    world = root / "map.toml"
    text = world.read_text(encoding="utf-8")
    assert '"mountains"' in text
    world.write_text(text.replace('"mountains"', '"mountain"', 1), encoding="utf-8")
    with pytest.raises(GameDataError) as info:
        load_ruleset(root)
    found = info.value.problems
    assert any("unknown attribute 'Flight': write 'flying'" in line for line in found), found
    assert any("unknown terrain 'mountain': write 'mountains'" in line for line in found), found
