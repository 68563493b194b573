"""``/negotiate more``: the factions the rules let join a group thread (R-PBP-NEG-01); the
wording of R-PBP-NEG-04 for the players and the umpire.

Skirmish factions DAW, ORC and ACH; the judgement is set by hand on the states (as
``judge_neighbours`` keeps it).
"""

from __future__ import annotations

from dataclasses import replace

from caedes_bot.cogs.negotiation import more_choices
from caedes_bot.rules.diplomacy import may_join_talks
from caedes_bot.rules.state import GameState
from caedes_bot.ui.embeds import help_embed
from caedes_bot.ui.talks import opening_notice
from tests.ui.skirmish import ruleset, started


def _judged(pairs: list[tuple[str, str]], *, groups: bool = True) -> GameState:
    state, _ = started()
    state.neighbour_view = sorted(pairs)
    state.neighbour_judged = 1
    state.options = replace(state.options, multiparty_threads=groups)
    return state


def test_r_pbp_neg_01_only_mutual_neighbours_may_join() -> None:
    """R-PBP-NEG-01: DAW-ORC, DAW-ACH and ORC-ACH all neighbour: to DAW and ORC, ACH may be
    added; with ORC-ACH apart, nobody may."""
    rs = ruleset()
    every = _judged([("ACH", "DAW"), ("DAW", "ORC"), ("ACH", "ORC")])
    assert may_join_talks(every, rs, ["DAW", "ORC"]) == ["ACH"]
    assert may_join_talks(every, rs, ["DAW", "ORC", "ACH"]) == []
    apart = _judged([("ACH", "DAW"), ("DAW", "ORC")])
    assert may_join_talks(apart, rs, ["DAW", "ORC"]) == []
    assert may_join_talks(apart, rs, ["DAW"]) == ["ORC", "ACH"]


def test_r_pbp_neg_01_no_one_may_join_with_multiparty_threads_off() -> None:
    """R-PBP-NEG-01, option multiparty_threads = false: threads are pairs only, so ``more``
    offers nothing even to mutual neighbours."""
    rs = ruleset()
    state = _judged([("ACH", "DAW"), ("DAW", "ORC"), ("ACH", "ORC")], groups=False)
    assert may_join_talks(state, rs, ["DAW", "ORC"]) == []
    assert more_choices(rs, state, "DAW", "ORC", "") == []


def test_r_pbp_neg_01_more_choices_follow_what_is_typed() -> None:
    """R-PBP-NEG-01: typed after ``faction`` ORC, ``more`` offers the Acherousians (not the
    asker, not the Orcs); "ach" still offers them; "orc" offers nothing; once "ACH, " is typed
    nobody is left; with an unknown first faction nothing is offered."""
    rs = ruleset()
    state = _judged([("ACH", "DAW"), ("DAW", "ORC"), ("ACH", "ORC")])
    assert more_choices(rs, state, "DAW", "ORC", "") == [("Acherousians", "ACH")]
    assert more_choices(rs, state, "DAW", "Orcs", "ach") == [("Acherousians", "ACH")]
    assert more_choices(rs, state, "DAW", "ORC", "orc") == []
    assert more_choices(rs, state, "DAW", "ORC", "ACH, ") == []
    assert more_choices(rs, state, "DAW", "Nobody", "") == []
    assert more_choices(rs, state, "DAW", None, "") == []


def test_r_pbp_neg_04_the_rule_reaches_players_and_umpire_in_help_and_threads() -> None:
    """R-PBP-NEG-04: a new thread's first post and every member's /help say negotiation belongs
    in the threads, that private talks elsewhere are against the rules and that public words in
    #table-talk are not negotiation; the umpire's /help adds that they enforce it."""
    rs = ruleset()
    state, _ = started()
    notice = opening_notice(rs, "DAW", ["ORC"])
    assert "R-PBP-NEG-04" in notice and "against the rules" in notice
    assert "#table-talk" in notice and "not negotiation" in notice

    def fields(umpire: bool) -> dict[str, str]:
        embed = help_embed(state, rs, "DAW", umpire=umpire)
        return {f.name or "": f.value or "" for f in embed.fields}

    player = fields(False)
    assert "R-PBP-NEG-04" in player["Negotiation"] and "Umpire" not in player
    umpire = fields(True)
    assert "You enforce R-PBP-NEG-04" in umpire["Umpire"]
