"""A scenario's own victory conditions (R-VIC-06), and how the game data reads them.

The map of ``test_victory_players``: provinces a, b, c; kinds DI (DAW), OT (ORC), WI (WEL).
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from caedes_bot.gamedata.loader import GameDataError, default_config_dir, load_ruleset
from caedes_bot.gamedata.model import Ruleset, ScenarioVictory
from caedes_bot.rules.turn import turn_start_checks
from caedes_bot.rules.victory import (
    CampaignEnded,
    check_diplomatic_victory,
    check_military_victory,
    check_scenario_victory,
)
from tests.rules.builders import state
from tests.rules.test_victory_players import RS


def _rs(victory: ScenarioVictory) -> Ruleset:
    scenario = replace(RS.scenarios["test"], victory=victory)
    return replace(RS, scenarios={"test": scenario})


def test_r_vic_06_holding_the_scenario_provinces_wins() -> None:
    """R-VIC-06: the scenario is won by holding a and b. DAW (alice) owns a, ORC (bob) owns
    b: nobody. DAW's vassal ORC (fealty) makes a and b alice's side: alice wins with DAW only
    (her own factions), reason "scenario"."""
    rs = _rs(ScenarioVictory(hold=(frozenset({"a", "b"}),)))
    st = state(
        rs,
        units=[("DI", "DAW", "a"), ("OT", "ORC", "b")],
        owners={"a": "DAW", "b": "ORC"},
        in_play=["DAW", "ORC"],
    )
    st.players = {"DAW": "alice", "ORC": "bob"}
    assert check_scenario_victory(st, rs) == []
    st.fealty = {"ORC": "DAW"}
    (ended,) = check_scenario_victory(st, rs)
    assert isinstance(ended, CampaignEnded)
    assert (ended.reason, ended.winners, ended.players) == ("scenario", ("DAW",), ("alice",))
    assert st.finished


def test_r_vic_06_a_player_with_two_factions_holds_together() -> None:
    """R-VIC-06 by player: alice holds DAW (a) and ORC (b): the two provinces are hers."""
    rs = _rs(ScenarioVictory(hold=(frozenset({"c"}), frozenset({"a", "b"}))))
    st = state(
        rs,
        units=[("DI", "DAW", "a"), ("OT", "ORC", "b"), ("WI", "WEL", "c")],
        owners={"a": "DAW", "b": "ORC"},
        in_play=["DAW", "ORC", "WEL"],
    )
    st.players = {"DAW": "alice", "ORC": "alice"}
    (ended,) = check_scenario_victory(st, rs)
    assert isinstance(ended, CampaignEnded) and ended.winners == ("DAW", "ORC")


def test_r_vic_06_a_scenario_replaces_military_and_diplomatic_victory() -> None:
    """R-VIC-06: with ``replaces = ["military", "diplomatic"]`` one player holding every unit
    does not win (R-VIC-01), nor a liege of every other faction (R-VIC-02); without the
    replacement both would."""
    st = state(RS, units=[("DI", "DAW", "a")], owners={"a": "DAW"}, in_play=["DAW", "ORC"])
    st.fealty = {"ORC": "DAW"}
    replaced = _rs(ScenarioVictory(replaces=frozenset({"military", "diplomatic"})))
    assert check_military_victory(st, replaced) == []
    assert check_diplomatic_victory(st, replaced) == []
    assert check_scenario_victory(st, replaced) == []
    (won,) = check_military_victory(st, RS)
    assert isinstance(won, CampaignEnded) and won.reason == "military"


def test_r_vic_06_judged_at_the_turn_start() -> None:
    """R-VIC-06, R-TURN-04: the turn-start checks judge the scenario's condition: DAW holds c,
    the scenario's province, when a turn begins: over."""
    rs = _rs(ScenarioVictory(replaces=frozenset({"military"}), hold=(frozenset({"c"}),)))
    st = state(
        rs,
        units=[("DI", "DAW", "c"), ("OT", "ORC", "b")],
        owners={"c": "DAW", "b": "ORC"},
        in_play=["DAW", "ORC"],
    )
    events = turn_start_checks(st, rs)
    assert [e.reason for e in events if isinstance(e, CampaignEnded)] == ["scenario"]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "caedes"
    shutil.copytree(default_config_dir(), root)
    return root


def test_r_vic_06_the_game_data_reads_a_scenario_victory(data: Path) -> None:
    """R-VIC-06: ``[victory]`` in a scenario file: ``replaces`` and ``[[victory.hold]]``."""
    path = data / "scenarios" / "skirmish.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text
        + '\n[victory]\nreplaces = ["military"]\n'
        + '[[victory.hold]]\nprovinces = ["orme", "harrowgate"]\n',
        encoding="utf-8",
    )
    victory = load_ruleset(data).scenarios["skirmish"].victory
    assert victory == ScenarioVictory(frozenset({"military"}), (frozenset({"orme", "harrowgate"}),))
    path.write_text(text + '\n[victory]\nreplaces = ["turn_limit"]\n', encoding="utf-8")
    with pytest.raises(GameDataError) as info:
        load_ruleset(data)
    assert "victory.replaces.0: Input should be 'military' or 'diplomatic'" in str(
        info.value.problems
    )
    path.write_text(text + '\n[[victory.hold]]\nprovinces = ["ormee"]\n', encoding="utf-8")
    with pytest.raises(GameDataError) as info:
        load_ruleset(data)
    assert "ormee" in str(info.value.problems) and "orme" in str(info.value.problems)
