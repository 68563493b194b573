"""The umpire's early end and the players' vote (R-VIC-04, option ``early_end_needs_vote``).

Factions DAW, ORC, WEL and LIZ on the map of ``test_victory_players``; who holds which is set
per test. Counts are worked out by hand: with n players in the game an early end needs
n // 2 + 1 accepts (more than half).
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Options
from caedes_bot.rules import engine
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.early_end import (
    EarlyEndProposed,
    EarlyEndRefused,
    EarlyEndVoted,
    VoteEarlyEnd,
    needed,
    vote_faction,
    voters,
)
from caedes_bot.rules.errors import GameOver, RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState
from caedes_bot.rules.victory import CampaignEnded, EndEarly
from tests.rules.builders import state
from tests.rules.test_victory_players import RS

IN_PLAY = ["DAW", "ORC", "WEL", "LIZ"]


def _st(players: dict[str, str], **options: object) -> GameState:
    st = state(RS, units=[("DI", "DAW", "a"), ("OT", "ORC", "c")], in_play=IN_PLAY)
    st.players = dict(players)
    st.options = Options(**options)  # type: ignore[arg-type]
    return st


def _do(st: GameState, order: Order) -> tuple[GameState, tuple[Event, ...]]:
    out = engine.apply(st, order, RS, ScriptedDice([]))
    return out.state, out.events


def test_r_vic_04_voters_are_the_people_still_in_the_game() -> None:
    """R-VIC-04: alice holds DAW and ORC (one vote), bob WEL; LIZ is umpire-run (no vote). Two
    voters, so 2 accepts are needed (more than half of 2). alice is asked through DAW, her first
    faction in turn order; once DAW is out, through ORC."""
    st = _st({"DAW": "alice", "ORC": "alice", "WEL": "bob"})
    assert voters(st) == ["alice", "bob"] and needed(st) == 2
    assert vote_faction(st, "alice") == "DAW" and vote_faction(st, "carol") is None
    st.factions["DAW"].eliminated = True
    assert vote_faction(st, "alice") == "ORC"
    st.factions["WEL"].eliminated = True
    assert voters(st) == ["alice"] and needed(st) == 1


def test_r_vic_04_a_majority_of_three_players_ends_the_campaign() -> None:
    """R-VIC-04: three players (alice DAW, bob ORC, carol WEL): 2 accepts needed. The umpire
    proposes ORC; alice accepts (1 of 2), then changes her mind and refuses (0 accept,
    1 refuse: 2 could still accept); bob and carol accept: over, ORC wins, bob's the win."""
    st = _st({"DAW": "alice", "ORC": "bob", "WEL": "carol"})
    st, events = _do(st, EndEarly("UMPIRE", ("ORC",)))
    (proposed,) = events
    assert isinstance(proposed, EarlyEndProposed)
    assert (proposed.voters, proposed.ask, proposed.needed) == (
        ("alice", "bob", "carol"),
        ("DAW", "ORC", "WEL"),
        2,
    )
    assert not st.finished and st.early_end is not None
    number = proposed.proposal
    st, events = _do(st, VoteEarlyEnd("DAW", number, True))
    assert events == (EarlyEndVoted(number, "DAW", "alice", True, 1, 0, 2),)
    st, events = _do(st, VoteEarlyEnd("DAW", number, False))
    assert events == (EarlyEndVoted(number, "DAW", "alice", False, 0, 1, 2),)
    st, events = _do(st, VoteEarlyEnd("ORC", number, True))
    assert not st.finished
    st, events = _do(st, VoteEarlyEnd("WEL", number, True))
    voted, ended = events
    assert voted == EarlyEndVoted(number, "WEL", "carol", True, 2, 1, 2)
    assert isinstance(ended, CampaignEnded)
    assert (ended.reason, ended.winners, ended.players) == ("early", ("ORC",), ("bob",))
    assert st.finished and st.early_end is None and st.winner == ["ORC"]
    with pytest.raises(GameOver):
        _do(st, VoteEarlyEnd("DAW", number, True))


def test_r_vic_04_refusals_that_leave_no_majority_drop_the_proposal() -> None:
    """R-VIC-04: two voters (alice with DAW and ORC, bob with WEL) need 2 accepts; bob's
    refusal leaves at most 1: the proposal is dropped and the campaign goes on. A vote on it
    afterwards is refused."""
    st = _st({"DAW": "alice", "ORC": "alice", "WEL": "bob"})
    st, (proposed,) = _do(st, EndEarly("UMPIRE", ("DAW", "ORC")))
    assert isinstance(proposed, EarlyEndProposed) and proposed.ask == ("DAW", "WEL")
    st, events = _do(st, VoteEarlyEnd("WEL", proposed.proposal, False))
    assert events[1] == EarlyEndRefused(proposed.proposal, ("DAW", "ORC"), 0, 1)
    assert not st.finished and st.early_end is None
    with pytest.raises(RuleViolation) as err:
        _do(st, VoteEarlyEnd("DAW", proposed.proposal, True))
    assert err.value.rule == "R-VIC-04"


def test_r_vic_04_one_player_two_factions_one_vote() -> None:
    """R-VIC-04: alice (DAW, ORC) and bob (WEL) and carol (LIZ): 2 of 3 needed. alice votes
    through DAW and again through ORC: still one accept (the same answer again is refused as
    already recorded; another answer through ORC replaces her one vote). An umpire-run faction
    has no vote."""
    st = _st({"DAW": "alice", "ORC": "alice", "WEL": "bob", "LIZ": "carol"})
    st, (proposed,) = _do(st, EndEarly("UMPIRE", ("WEL",)))
    assert isinstance(proposed, EarlyEndProposed) and proposed.needed == 2
    st, _ = _do(st, VoteEarlyEnd("DAW", proposed.proposal, True))
    with pytest.raises(RuleViolation, match="already recorded"):
        _do(st, VoteEarlyEnd("ORC", proposed.proposal, True))
    assert st.early_end is not None and st.early_end.accepts == ("alice",)
    assert not st.finished
    st, events = _do(st, VoteEarlyEnd("ORC", proposed.proposal, False))
    assert events == (EarlyEndVoted(proposed.proposal, "ORC", "alice", False, 0, 1, 2),)
    assert not st.finished
    umpire_run = _st({"DAW": "alice", "ORC": "bob"})
    umpire_run, (again,) = _do(umpire_run, EndEarly("UMPIRE", ("DAW",)))
    assert isinstance(again, EarlyEndProposed)
    with pytest.raises(RuleViolation, match="no vote"):
        _do(umpire_run, VoteEarlyEnd("LIZ", again.proposal, True))


def test_r_vic_04_the_same_answer_twice_is_refused_and_counts_once() -> None:
    """R-VIC-04: alice (DAW) accepts; her second accept (a stale message clicked again) is
    refused, saying her vote is recorded and what is left to do, with no event to announce and
    nothing changed; the same for a second refusal after she changes her mind."""
    st = _st({"DAW": "alice", "ORC": "bob", "WEL": "carol"})
    st, (proposed,) = _do(st, EndEarly("UMPIRE", ("ORC",)))
    assert isinstance(proposed, EarlyEndProposed)
    st, _ = _do(st, VoteEarlyEnd("DAW", proposed.proposal, True))
    before = st.early_end
    with pytest.raises(RuleViolation) as err:
        _do(st, VoteEarlyEnd("DAW", proposed.proposal, True))
    assert err.value.rule == "R-VIC-04"
    assert err.value.message == "Your vote to accept the early end is already recorded."
    assert err.value.allowed and "other players" in err.value.allowed
    assert st.early_end == before and before is not None and before.accepts == ("alice",)
    st, events = _do(st, VoteEarlyEnd("DAW", proposed.proposal, False))
    assert events == (EarlyEndVoted(proposed.proposal, "DAW", "alice", False, 0, 1, 2),)
    with pytest.raises(RuleViolation, match="to refuse the early end is already recorded"):
        _do(st, VoteEarlyEnd("DAW", proposed.proposal, False))


def test_r_vic_04_a_new_proposal_replaces_the_open_one() -> None:
    """R-VIC-04: a second proposal replaces the first; answers to the first are forgotten."""
    st = _st({"DAW": "alice", "ORC": "bob", "WEL": "carol"})
    st, (first,) = _do(st, EndEarly("UMPIRE", ("ORC",)))
    st, _ = _do(st, VoteEarlyEnd("DAW", first.proposal, True))  # type: ignore[attr-defined]
    st, (second,) = _do(st, EndEarly("UMPIRE", ("DAW",)))
    assert isinstance(second, EarlyEndProposed) and second.replaced
    assert st.early_end is not None and st.early_end.accepts == ()
    with pytest.raises(RuleViolation):
        _do(st, VoteEarlyEnd("ORC", first.proposal, True))  # type: ignore[attr-defined]


def test_r_vic_04_option_early_end_needs_vote_false_ends_at_once() -> None:
    """R-VIC-04 with ``early_end_needs_vote`` false: the umpire decides alone."""
    st = _st({"DAW": "alice", "ORC": "bob", "WEL": "carol"}, early_end_needs_vote=False)
    st, events = _do(st, EndEarly("UMPIRE", ("ORC", "DAW")))
    (ended,) = events
    assert isinstance(ended, CampaignEnded)
    assert (ended.reason, ended.winners, ended.players) == (
        "early",
        ("DAW", "ORC"),
        ("alice", "bob"),
    )
    assert st.finished
