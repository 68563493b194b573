"""Victory by player (R-VIC-01..04, R-ALLY-06): factions of one player are judged together, an
umpire-run faction is a player of its own, alliances count for nothing, fealty does.

The map of ``test_victory``: a (3 RP), b (2 RP), c (1 RP); kinds DI (DAW infantry, cost 3),
DT (DAW Tower), OT (ORC infantry, 3), OW (ORC cavalry, 5), WI (WEL infantry, 3).
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.errors import GameOver, RuleViolation
from caedes_bot.rules.pacts import ProposeAlliance
from caedes_bot.rules.victory import (
    CampaignEnded,
    EndEarly,
    PlayerScore,
    SetPlayers,
    check_diplomatic_victory,
    check_military_victory,
    end_campaign,
    player_of,
    player_scores,
    players_in_game,
)
from tests.rules.builders import kind, ruleset, state


def _rs() -> Ruleset:
    return ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("hills",)},
        rp={"a": 3, "b": 2, "c": 1},
        kinds=[
            kind("DI", "DAW"),
            kind("DT", "DAW", "tower"),
            kind("OT", "ORC"),
            kind("OW", "ORC", "cavalry"),
            kind("WI", "WEL"),
        ],
    )


RS = _rs()


def test_r_vic_01_one_player_holding_every_unit_wins_with_both_factions() -> None:
    """R-VIC-01: alice holds DAW and ORC; every unit on the board is DAW's or ORC's: alice wins,
    with both factions."""
    st = state(RS, units=[("DI", "DAW", "a"), ("OT", "ORC", "c")], in_play=["DAW", "ORC", "WEL"])
    st.factions["WEL"].eliminated = True
    st.players = {"DAW": "alice", "ORC": "alice"}
    (event,) = check_military_victory(st, RS)
    assert isinstance(event, CampaignEnded)
    assert event.reason == "military" and event.winners == ("DAW", "ORC")
    assert event.players == ("alice",) and st.winner == ["DAW", "ORC"]


def test_r_vic_01_umpire_run_factions_are_each_a_player() -> None:
    """R-VIC-01: DAW and ORC are both umpire-run: each is a player of its own, so their units
    together are two players' and nobody has won."""
    st = state(RS, units=[("DI", "DAW", "a"), ("OT", "ORC", "c")], in_play=["DAW", "ORC"])
    assert player_of(st, "DAW") != player_of(st, "ORC")
    assert check_military_victory(st, RS) == []


def test_r_ally_06_allies_do_not_win_together() -> None:
    """R-ALLY-06: DAW and ORC, held by different players, are allied and hold every unit: no
    military victory (alliances have no effect on victory)."""
    st = state(RS, units=[("DI", "DAW", "a"), ("OT", "ORC", "c")], in_play=["DAW", "ORC"])
    st.players = {"DAW": "alice", "ORC": "bob"}
    st.alliances = [["DAW", "ORC"]]
    assert check_military_victory(st, RS) == []
    assert check_diplomatic_victory(st, RS) == []


def test_r_vic_02_every_other_faction_a_vassal_of_the_player_wins() -> None:
    """R-VIC-02: alice holds DAW; bob's ORC and the umpire's WEL are DAW's vassals: alice wins
    a diplomatic victory with DAW."""
    st = state(
        RS,
        units=[("DI", "DAW", "a"), ("OT", "ORC", "c"), ("WI", "WEL", "b")],
        in_play=["DAW", "ORC", "WEL"],
    )
    st.players = {"DAW": "alice", "ORC": "bob"}
    st.fealty = {"ORC": "DAW", "WEL": "DAW"}
    (event,) = check_diplomatic_victory(st, RS)
    assert isinstance(event, CampaignEnded)
    assert (event.reason, event.winners, event.players) == ("diplomatic", ("DAW",), ("alice",))


def test_r_vic_02_not_while_one_faction_is_free_and_not_with_a_fallen_hero() -> None:
    """R-VIC-02: WEL owes nobody fealty: no win. Then WEL swears too, but DAW's Hero has fallen:
    a liege without its Hero cannot win this way."""
    st = state(
        RS,
        units=[("DI", "DAW", "a"), ("OT", "ORC", "c"), ("WI", "WEL", "b")],
        in_play=["DAW", "ORC", "WEL"],
    )
    st.fealty = {"ORC": "DAW"}
    assert check_diplomatic_victory(st, RS) == []
    st.fealty = {"ORC": "DAW", "WEL": "DAW"}
    st.factions["DAW"].hero_alive = False
    assert check_diplomatic_victory(st, RS) == []


def test_r_vic_02_factions_of_one_player_are_judged_together() -> None:
    """R-VIC-02: alice holds DAW and ORC; WEL is ORC's vassal: alice wins, with DAW and ORC."""
    st = state(
        RS,
        units=[("DI", "DAW", "a"), ("OT", "ORC", "c"), ("WI", "WEL", "b")],
        in_play=["DAW", "ORC", "WEL"],
    )
    st.players = {"DAW": "alice", "ORC": "alice", "WEL": "carol"}
    st.fealty = {"WEL": "ORC"}
    (event,) = check_diplomatic_victory(st, RS)
    assert isinstance(event, CampaignEnded) and event.winners == ("DAW", "ORC")


def test_r_vic_03_scores_are_summed_per_player() -> None:
    """R-VIC-03: alice holds DAW (owns a, 3 RP) and ORC (owns c, 1 RP): 2 points, 4 RP, units
    costing 3 + 3; bob's WEL owns b (2 RP): 1 point. Alice wins with both factions, though each
    of them alone has 1 point, as WEL has."""
    st = state(
        RS,
        units=[("DI", "DAW", "a"), ("OT", "ORC", "c"), ("WI", "WEL", "b")],
        owners={"a": "DAW", "c": "ORC", "b": "WEL"},
        in_play=["DAW", "ORC", "WEL"],
    )
    st.players = {"DAW": "alice", "ORC": "alice", "WEL": "bob"}
    assert player_scores(st, RS) == [
        PlayerScore("alice", ("DAW", "ORC"), 2, 2, 0, 4, 6),
        PlayerScore("bob", ("WEL",), 1, 1, 0, 2, 3),
    ]
    (event,) = end_campaign(st, RS, reason="turn_limit")
    assert isinstance(event, CampaignEnded)
    assert event.winners == ("DAW", "ORC") and event.players == ("alice",)


def test_r_vic_03_a_players_vassals_count_once_and_ties_by_income() -> None:
    """R-VIC-03: alice's DAW owns a (3 RP); bob's ORC owns b (2 RP) and WEL, ORC's vassal, owns c
    (1 RP): bob 2 points, 3 RP and alice 1 point; bob wins. Option score_mode=rp_income: alice
    3 points, bob 3 points; the tie goes to RP income (equal), then the cost of units on the
    board: alice's infantry 3, bob's cavalry 5 plus WEL's infantry 3 = 8: bob wins."""
    st = state(
        RS,
        units=[("DI", "DAW", "a"), ("OW", "ORC", "b"), ("WI", "WEL", "c")],
        owners={"a": "DAW", "b": "ORC", "c": "WEL"},
        in_play=["DAW", "ORC", "WEL"],
    )
    st.players = {"DAW": "alice", "ORC": "bob", "WEL": "carol"}
    st.fealty = {"WEL": "ORC"}
    ranked = player_scores(st, RS)
    assert [(s.player, s.points, s.rp_income, s.unit_cost) for s in ranked[:2]] == [
        ("bob", 2, 3, 8),
        ("alice", 1, 3, 3),
    ]
    st.options = Options(score_mode="rp_income")
    ranked = player_scores(st, RS)
    assert [(s.player, s.points) for s in ranked[:2]] == [("bob", 3), ("alice", 3)]
    (event,) = end_campaign(st, RS, reason="turn_limit")
    assert isinstance(event, CampaignEnded) and event.players == ("bob",)


def test_r_vic_04_the_umpire_ends_the_campaign_naming_the_winner() -> None:
    """R-VIC-04: the umpire's early end names ORC the winner: the campaign is over and no more
    orders are taken; naming a faction not in the game is refused."""
    st = state(RS, units=[("DI", "DAW", "a"), ("OT", "ORC", "c")], in_play=["DAW", "ORC"])
    with pytest.raises(RuleViolation) as err:
        engine.apply(st, EndEarly("UMPIRE", ("HEL",)), RS, ScriptedDice([]))
    assert err.value.rule == "R-VIC-04"
    out = engine.apply(st, EndEarly("UMPIRE", ("ORC",)), RS, ScriptedDice([]))
    (event,) = out.events
    assert isinstance(event, CampaignEnded) and (event.reason, event.winners) == ("early", ("ORC",))
    with pytest.raises(GameOver):
        engine.apply(out.state, ProposeAlliance("DAW", ("ORC",)), RS, ScriptedDice([]))


def test_r_setup_02_players_are_recorded_and_counted() -> None:
    """R-SETUP-02, R-VIC-04: alice holds DAW and ORC, WEL is umpire-run: two players in the
    game; an eliminated faction's player no longer counts."""
    st = state(RS, units=[("DI", "DAW", "a")], in_play=["DAW", "ORC", "WEL"])
    st = engine.apply(
        st, SetPlayers("UMPIRE", (("DAW", "alice"), ("ORC", "alice"))), RS, ScriptedDice([])
    ).state
    assert players_in_game(st) == ["alice", "umpire:WEL"]
    st.factions["WEL"].eliminated = True
    assert players_in_game(st) == ["alice"]
