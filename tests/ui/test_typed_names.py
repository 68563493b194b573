"""Names as people type them (issue: "Names as people type them"; R-GEN-04): provinces, units
and factions are found whatever the apostrophe, spacing, case or accents, in the final check
and in autocomplete alike; a unique start of a name counts, an ambiguous one is refused naming
the candidates. The names below are typed by hand, as a phone or a hurried player sends them.
"""

from __future__ import annotations

import pytest

from caedes_bot.cogs._kind_names import find_kind, kind_to_buy, resolve_kind
from caedes_bot.cogs._place_names import find_province, province_choices, resolve_province
from caedes_bot.cogs._transformers import parse_bundle, resolve_faction
from caedes_bot.cogs._unit_names import parse_units, pick_units
from caedes_bot.gamedata.model import Terrain
from caedes_bot.rules.errors import AmbiguousName, RuleViolation, UnknownName
from caedes_bot.rules.movement import parse_terrain
from caedes_bot.rules.state import Step
from tests.ui.skirmish import at_step, ruleset

PLAY = ["DAW", "ORC", "ACH"]


@pytest.mark.parametrize(
    "typed",
    [
        "Serpent's Tooth",
        "Serpent’s Tooth",
        "Serpent's  Tooth",
        "serpent’s   tooth",
        " SERPENT'S TOOTH ",
        "Sérpent’s Tooth",
        "serpents-tooth",
        "Serpent",
        "serp",
    ],
)
def test_r_gen_04_serpents_tooth_however_it_is_typed(typed: str) -> None:
    """R-GEN-04: curly apostrophes, doubled spaces, case, accents, the id, or a start of the
    name that fits no other place all name Serpent's Tooth."""
    assert resolve_province(ruleset(), typed) == "serpents-tooth"
    assert find_province(ruleset(), typed) == "serpents-tooth"


def test_r_gen_04_an_ambiguous_start_lists_the_places_it_could_be() -> None:
    """R-GEN-04: "Gr" starts Greater Dilgac, Greywater Ford and Grimscar Crags: refused, naming
    them, and nothing is guessed; "Duriak" is a full name, though it starts Duriak Bight."""
    r = ruleset()
    with pytest.raises(AmbiguousName) as refused:
        resolve_province(r, "gr")
    assert refused.value.rule == "R-MOVE-01"
    assert set(refused.value.candidates) == {"Greater Dilgac", "Greywater Ford", "Grimscar Crags"}
    assert refused.value.message.startswith("'gr' could be more than one place: ")
    assert refused.value.allowed == "type more of the name, or choose from the list"
    assert find_province(r, "gr") is None
    assert resolve_province(r, "duriak") == "duriak"


def test_r_move_09_a_sea_zone_typed_loosely_is_still_a_sea_zone() -> None:
    """R-MOVE-09: "bay of  sorrows" and the start "Bay of" name the sea zone, which is refused
    as one, not reported unknown."""
    for typed in ("bay of  sorrows", "Bay of"):
        with pytest.raises(RuleViolation) as refused:
            resolve_province(ruleset(), typed, at_sea=("R-MOVE-09", "land units move"))
        assert refused.value.message == "Bay of Sorrows is a sea zone; land units move."
    assert find_province(ruleset(), "Bay of") is None


def test_r_gen_04_an_unknown_province_still_gets_a_near_match() -> None:
    with pytest.raises(UnknownName) as refused:
        resolve_province(ruleset(), "Serpant’s  Toth")
    assert refused.value.message == "No province 'Serpant’s Toth'. Did you mean Serpent's Tooth?"


def test_r_gen_04_units_however_they_are_typed() -> None:
    """R-GEN-04: unit names with odd spacing, case and accents; a unique start of a display or
    short name; an ambiguous start is refused with the kinds it could be."""
    r = ruleset()
    assert resolve_kind(r, "dawnian   KNIGHTS").id == "U-DAW-04"
    assert resolve_kind(r, "Dáwnian Knïghts").id == "U-DAW-04"
    assert resolve_kind(r, "Dawnian Kn").id == "U-DAW-04"
    assert kind_to_buy(r, "DAW", "knights\u00a0").id == "U-DAW-04"
    assert find_kind(r, "Dawnian  Yeomen") is not None
    with pytest.raises(AmbiguousName) as refused:
        resolve_kind(r, "Dawnian", r.order_of_battle("DAW"))
    assert "Dawnian Infantry" in refused.value.candidates
    assert "Dawnian Knights" in refused.value.candidates
    assert refused.value.message.startswith("'Dawnian' could be more than one unit: ")
    assert find_kind(r, "Dawnian") is None


def test_r_move_01_units_to_move_typed_loosely() -> None:
    """R-MOVE-01: "1  dawnian infantry" and "1 Infantry" pick one of the two Infantry at
    Harrowgate; "Yeo" (the start of Yeomen, the only such unit there) picks the Yeomen."""
    state = at_step(Step.MOVE)
    r = ruleset()
    assert pick_units(state, r, "DAW", "harrowgate", parse_units("1  dawnian   infantry")) == (4,)
    assert pick_units(state, r, "DAW", "harrowgate", parse_units("Yeo")) == (6,)


def test_r_setup_02_factions_however_they_are_typed() -> None:
    """R-SETUP-02, R-GEN-04: code, name or adjective in any case and spacing, or a unique start;
    a start shared by two factions in play is refused, naming them."""
    r = ruleset()
    assert resolve_faction(r, "  orcs ", PLAY) == "ORC"
    assert resolve_faction(r, "ÓRC", PLAY) == "ORC"
    assert resolve_faction(r, "Dawn", PLAY) == "DAW"
    assert resolve_faction(r, "acherousian", PLAY) == "ACH"
    with pytest.raises(RuleViolation) as refused:
        resolve_faction(r, "wood  elves", PLAY)
    assert refused.value.message == "The Wood Elves are not in play in this campaign."
    with pytest.raises(AmbiguousName) as ambiguous:
        resolve_faction(r, "d", ["DAW", "DWA", "ORC"])
    assert ambiguous.value.candidates == ("Dawnians", "Dwarves")
    assert ambiguous.value.message == "'d' could be more than one faction: Dawnians or Dwarves."
    assert ambiguous.value.allowed == "Dawnians (DAW), Dwarves (DWA), Orcs (ORC)"


def test_r_comm_01_commodities_and_terrains_typed_loosely() -> None:
    """R-COMM-01, R-MOVE-03: commodities and terrains are matched with the same folding."""
    assert parse_bundle("2  GRAIN, 1 Íron") == {"grain": 2, "iron": 1}
    assert parse_terrain(" Mountain ") is Terrain.MOUNTAINS
    assert parse_terrain("FÖREST") is Terrain.FOREST


def test_r_gen_04_autocomplete_matches_as_the_final_check_does() -> None:
    """R-GEN-04: the province autocomplete finds Serpent's Tooth from a curly apostrophe and a
    doubled space, as the final check does."""
    state = at_step(Step.MOVE)
    for typed in ("serpent’s", "Serpent's  T", "SÉRPENT"):
        found = province_choices(state, ruleset(), "DAW", typed)
        assert [value for _, value in found] == ["serpents-tooth"]
