"""Negotiation threads follow the judged neighbourhood (R-PBP-NEG-01, R-PBP-NEG-03).

Skirmish factions DAW, ORC and ACH; the judgement is set by hand on the states (as
``judge_neighbours`` keeps it), so each case is read straight off the pairs.
"""

from __future__ import annotations

from dataclasses import replace

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import DeliveryProblem, OutboxKind
from caedes_bot.rules.diplomacy import NeighboursJudged
from caedes_bot.rules.state import GameState
from caedes_bot.ui.talks import thread_locks, thread_open
from caedes_bot.ui.wording import describe_problem
from tests.ui.skirmish import campaign, ruleset, started

PAIR = ChannelKey.talks("DAW", "ORC")
GROUP = ChannelKey.talks("DAW", "ORC", "ACH")


def _judged(pairs: list[tuple[str, str]]) -> GameState:
    state, _ = started()
    state.neighbour_view = sorted(pairs)
    state.neighbour_judged = 1
    return state


def _rows(before: GameState, after: GameState, threads: set[str]) -> list[tuple[str, str, object]]:
    view = replace(campaign(), threads=frozenset(threads))
    event = NeighboursJudged(2, (), ())
    rows = thread_locks(view, [event], after, ruleset(), before)
    return [
        (row.channel_key, row.kind.value, row.payload.get("locked", row.payload.get("content")))
        for row in rows
    ]


def test_r_pbp_neg_03_a_pair_apart_is_locked_with_a_notice() -> None:
    """R-PBP-NEG-03: DAW and ORC neighboured; now they do not: a notice in their thread, then
    the lock. The orders thread of DAW is no negotiation thread and is left alone."""
    before = _judged([("DAW", "ORC")])
    after = _judged([])
    rows = _rows(before, after, {PAIR, "orders:DAW", "announcements"})
    assert [(key, kind) for key, kind, _ in rows] == [(PAIR, "post"), (PAIR, "lock_thread")]
    notice = str(rows[0][2])
    assert "no longer neighbours" in notice and "read-only" in notice
    assert "Dawnians" in notice and "Orcs" in notice
    assert rows[1][2] is True


def test_r_pbp_neg_03_neighbours_again_reopen_the_thread() -> None:
    """R-PBP-NEG-03: apart before, neighbours now: unlock first (it also unarchives), then the
    notice, which the members can now answer."""
    rows = _rows(_judged([]), _judged([("DAW", "ORC")]), {PAIR})
    assert rows[0][1:] == ("lock_thread", False)
    assert rows[1][1] == "post" and "open again" in str(rows[1][2])


def test_r_pbp_neg_03_nothing_changes_for_a_thread_whose_pair_stays() -> None:
    """R-PBP-NEG-03: ORC and ACH became neighbours, DAW and ORC stay: DAW-ORC's thread keeps
    as it is; no rows without a judgement in the order either."""
    before = _judged([("DAW", "ORC")])
    after = _judged([("ACH", "ORC"), ("DAW", "ORC")])
    assert _rows(before, after, {PAIR}) == []
    view = replace(campaign(), threads=frozenset({PAIR}))
    assert thread_locks(view, [], _judged([]), ruleset(), before) == []


def test_r_pbp_neg_01_03_a_group_thread_needs_every_pair() -> None:
    """R-PBP-NEG-01, R-PBP-NEG-03: the group DAW+ORC+ACH is open only while all three pairs
    neighbour: losing ACH-DAW alone locks it (and names that pair); the pair thread DAW-ORC
    stays open."""
    all_three = [("ACH", "DAW"), ("ACH", "ORC"), ("DAW", "ORC")]
    assert thread_open(_judged(all_three), ruleset(), GROUP.factions)
    two = [("ACH", "ORC"), ("DAW", "ORC")]
    assert not thread_open(_judged(two), ruleset(), GROUP.factions)
    rows = _rows(_judged(all_three), _judged(two), {PAIR, GROUP})
    assert [(key, kind) for key, kind, _ in rows] == [(GROUP, "post"), (GROUP, "lock_thread")]
    assert "Dawnians" in str(rows[0][2]) and "Acherousians" in str(rows[0][2])
    rows = _rows(_judged(two), _judged(all_three), {GROUP})
    assert rows[0][1:] == ("lock_thread", False)


def test_r_pbp_neg_03_a_failed_lock_is_worded_for_the_umpire() -> None:
    """A lock (or reopening) that failed for good is worded in #umpire's notice."""
    lock = DeliveryProblem(PAIR, OutboxKind.LOCK_THREAD, "Missing Permissions", {"locked": True})
    assert describe_problem(lock).startswith(
        "Could not lock the negotiation thread of DAW and ORC: Missing"
    )
    reopen = replace(lock, payload={"locked": False})
    assert "open the negotiation thread of DAW and ORC again" in describe_problem(reopen)


def test_r_pbp_neg_01_group_refusals_say_what_is_allowed() -> None:
    """R-PBP-NEG-01: with ``multiparty_threads`` off a group is refused as pairs-only; a group
    with a pair apart names that pair and offers the asker's neighbours."""
    from caedes_bot.rules.diplomacy import NoTalks
    from caedes_bot.ui.reasons import no_group_talks

    off = no_group_talks(ruleset(), NoTalks.NO_GROUPS, "DAW", ["ORC", "ACH"], [], ["ORC"])
    assert off.rule == "R-PBP-NEG-01" and "multiparty_threads is off" in str(off)
    assert off.allowed == "negotiate with one faction at a time"
    apart = no_group_talks(
        ruleset(), NoTalks.GROUP_NOT_MUTUAL, "DAW", ["ORC", "ACH"], [("ORC", "ACH")], ["ORC"]
    )
    assert "not neighbours: 👹 Orcs (ORC) and 💀 Acherousians (ACH)" in str(apart)
    assert apart.allowed == "a group of mutual neighbours, or a pair: 👹 Orcs (ORC)"
