"""Scenario events in the game data (R-SETUP-01; decision 0026): the ``[[event]]`` tables of a
scenario file are read into :class:`ScenarioEvent`, and every mistake is reported with the file,
the event and the key.

Each test copies the shipped data, adds events to the skirmish scenario (Dawnians, Orcs and
Acherousians, three game rounds) and loads it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from caedes_bot.gamedata.loader import GameDataError, default_config_dir, load_ruleset
from caedes_bot.gamedata.model import Commodity, EventUnits
from caedes_bot.gamedata.scenario_events import MAX_RP, MAX_STOCK

FILE = "scenarios/skirmish.toml"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "caedes"
    shutil.copytree(default_config_dir(), root)
    return root


def _append(root: Path, text: str, file: str = FILE) -> None:
    path = root / file
    path.write_text(path.read_text(encoding="utf-8") + "\n" + text, encoding="utf-8")


def _problems(root: Path) -> list[str]:
    with pytest.raises(GameDataError) as info:
        load_ruleset(root)
    return info.value.problems


def test_r_setup_01_every_kind_of_effect_is_read(data: Path) -> None:
    """R-SETUP-01: an event at the start of the Acherousian turn of round 2 with every effect;
    one at the start of round 3 with only a line; both in the file's order."""
    _append(
        data,
        """
[[event]]
id = "relief-column"
round = 2
faction = "ACH"
announce = "An imperial column marches up from the south."
rp = { ACH = 5, DAW = -2 }
commodities = { ACH = { grain = 2, iron = -1 } }
place = { ACH = { kestrel-downs = { U-ACH-01 = 2 } } }
remove = { DAW = { corndale = { U-DAW-01 = 1 } } }
owners = { corndale = "ACH", wolfsgate = "none" }
alliance_made = [["ORC", "DAW"]]
alliance_ended = [["ACH", "DAW"]]
fealty_sworn = { ORC = "ACH" }
fealty_ended = ["DAW"]

[[event]]
id = "last-winter"
round = 3
announce = "Winter comes early."
""",
    )
    scenario = load_ruleset(data).scenarios["skirmish"]
    first, second = scenario.events
    assert (first.id, first.round, first.faction) == ("relief-column", 2, "ACH")
    assert first.announce == "An imperial column marches up from the south."
    assert first.rp == {"ACH": 5, "DAW": -2}
    assert first.commodities == {"ACH": {Commodity.GRAIN: 2, Commodity.IRON: -1}}
    assert first.place == (EventUnits("ACH", "U-ACH-01", "kestrel-downs", 2),)
    assert first.remove == (EventUnits("DAW", "U-DAW-01", "corndale", 1),)
    assert first.owners == {"corndale": "ACH", "wolfsgate": None}
    assert first.alliances_made == (("DAW", "ORC"),)  # sorted
    assert first.alliances_ended == (("ACH", "DAW"),)
    assert first.fealty_sworn == {"ORC": "ACH"} and first.fealty_ended == ("DAW",)
    assert (second.id, second.round, second.faction, second.announce) == (
        "last-winter",
        3,
        None,
        "Winter comes early.",
    )


def test_r_setup_01_the_shipped_scenarios_load_with_their_events() -> None:
    """R-SETUP-01: the shipped data loads; its events (if any) all happen within its limit."""
    for scenario in load_ruleset().scenarios.values():
        for event in scenario.events:
            assert scenario.turn_limit is None or event.round <= scenario.turn_limit


def test_r_setup_01_mistakes_name_the_file_the_event_and_the_key(data: Path) -> None:
    """R-SETUP-01: each mistake in an event is reported, naming the file and the event."""
    _append(
        data,
        """
[[event]]
id = "Bad Id"
round = 4
faction = "WEL"
rp = { HEL = 3, DAW = 0 }
commodities = { DAW = { gold = 2 } }
place = { DAW = { harrowgate = { U-ORC-02 = 1, U-DAW-01 = 30 }, nowhere = { U-DAW-01 = 1 } } }
remove = { ACH = { bay-of-sorrows = { U-ACH-01 = 1 } } }
owners = { orme = "LIZ", narnia = "DAW" }
alliance_made = [["DAW"]]
fealty_sworn = { DAW = "DAW" }

[[event]]
id = "empty"
round = 1

[[event]]
id = "typo"
round = 1
annouce = "Hello"
""",
    )
    found = _problems(data)
    where = f"{FILE}: event 'Bad Id': "
    mine = [line.removeprefix(where) for line in found if line.startswith(where)]
    assert "id: a lower-case slug like 'relief-column'" in mine
    assert "round 4 is after the turn limit (3)" in mine
    assert any("faction: faction 'WEL' is not in play" in m for m in mine)
    assert any("rp: faction 'HEL' is not in play" in m for m in mine)
    assert "rp: DAW = 0 changes nothing" in mine
    assert any(m.startswith("unknown commodity 'gold'") for m in mine)
    assert "place.DAW.harrowgate: 'U-ORC-02' belongs to ORC" in mine
    assert "place.DAW.harrowgate: 'U-DAW-01': a count is 1 to 20" in mine
    assert any(m.startswith("unknown province or sea zone (place.DAW.nowhere)") for m in mine)
    assert any("ships go in sea zones" in m and "remove.ACH" in m for m in mine)
    assert any("owners.orme: faction 'LIZ' is not in play" in m for m in mine)
    assert any(m.startswith("unknown province 'narnia'") for m in mine)
    assert any(m.startswith("alliance_made: ['DAW'] needs two or more") for m in mine)
    assert "fealty_sworn: DAW cannot be its own liege" in mine
    assert f"{FILE}: event 'empty': an event needs an announce line or at least one effect" in found
    assert any(line.startswith(f"{FILE}: event 'typo': schema: annouce") for line in found), found


def test_r_setup_01_an_event_id_is_used_once_and_heroes_are_not_placed(data: Path) -> None:
    """R-SETUP-01, R-ATTR-HERO-01: two events with one id; a Hero in an event's units."""
    _append(
        data,
        """
[[event]]
id = "twice"
round = 1
announce = "One."

[[event]]
id = "twice"
round = 2
place = { DAW = { harrowgate = { H-DAW-01 = 1 } } }
""",
        "scenarios/default.toml",
    )
    found = _problems(data)
    assert "scenarios/default.toml: event 'twice': event id used twice" in found
    assert any("'H-DAW-01' is a Hero" in line for line in found), found


def test_r_setup_01_rp_and_commodity_changes_are_bounded(data: Path) -> None:
    """R-SETUP-01, R-PBP-UMP-01: an event gives or takes at most 100,000 RP and 1,000 of one
    commodity from a faction, the most the umpire's overrides set a treasury to; one past the
    bound either way is refused with the key and the bound, the bound itself loads."""
    _append(
        data,
        """
[[event]]
id = "windfall"
round = 1
rp = { DAW = 100001, ORC = -100001 }
commodities = { DAW = { grain = 1001 }, ORC = { iron = -1001 } }

[[event]]
id = "at-the-bound"
round = 1
rp = { DAW = 100000, ORC = -100000 }
commodities = { DAW = { grain = 1000 }, ORC = { iron = -1000 } }
""",
    )
    found = _problems(data)
    where = f"{FILE}: event 'windfall': "
    assert f"{where}rp: DAW = 100001: a change is -100,000 to 100,000" in found
    assert f"{where}rp: ORC = -100001: a change is -100,000 to 100,000" in found
    assert f"{where}commodities: DAW grain = 1001: a change is -1,000 to 1,000" in found
    assert f"{where}commodities: ORC iron = -1001: a change is -1,000 to 1,000" in found
    assert not [line for line in found if "'at-the-bound'" in line], found
    assert (MAX_RP, MAX_STOCK) == (100_000, 1_000)
