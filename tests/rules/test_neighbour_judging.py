"""Neighbourhood judged at the start of each round or turn (R-PBP-NEG-01, R-PBP-NEG-03).

The map: provinces a - b - c - d in a row (land borders a-b, b-c, c-d). Each test judges with
:func:`judge_neighbours`, as the turn-start checks do.
"""

from __future__ import annotations

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules.diplomacy import (
    NeighboursJudged,
    NoTalks,
    judge_neighbours,
    judged_neighbours,
    why_no_group_talks,
    why_no_talks,
)
from caedes_bot.rules.state import GameState
from tests.rules.builders import kind, ruleset, state

FACTIONS = ("DAW", "ORC", "WEL", "LIZ")


def _rs() -> Ruleset:
    return ruleset(
        provinces={p: ("plains",) for p in "abcd"},
        borders=[("a", "b"), ("b", "c"), ("c", "d")],
        kinds=[kind("X" + f, f) for f in FACTIONS],
    )


RS = _rs()


def _st(owners: dict[str, str], **options: object) -> GameState:
    st = state(RS, owners=owners, in_play=list(FACTIONS))
    st.options = Options(**options)  # type: ignore[arg-type]
    return st


def test_r_pbp_neg_03_judged_once_a_round_and_kept() -> None:
    """R-PBP-NEG-03: judged at round 1's first turn: DAW (a) and ORC (b) neighbour. DAW then
    takes c and loses a mid-round: the judgement stands (DAW-ORC still, DAW-WEL not) until
    round 2 begins: then DAW (c) neighbours ORC (b) and WEL (d)."""
    st = _st({"a": "DAW", "b": "ORC", "d": "WEL"})
    assert judge_neighbours(st, RS) == []  # the first judgement announces nothing
    assert st.neighbour_view == [("DAW", "ORC")]
    st.owners = {"c": "DAW", "b": "ORC", "d": "WEL"}
    assert judge_neighbours(st, RS) == []  # same round: not judged again
    assert not judged_neighbours(st, RS, "DAW", "WEL")
    assert why_no_talks(st, RS, "DAW", "WEL") is NoTalks.NOT_NEIGHBOURS
    st.round = 2
    assert judge_neighbours(st, RS) == [NeighboursJudged(2, (("DAW", "WEL"),), ())]
    assert why_no_talks(st, RS, "DAW", "WEL") is None


def test_r_pbp_neg_03_a_lost_border_is_reported() -> None:
    """R-PBP-NEG-03: ORC leaves b for d between rounds: DAW (a) and ORC no longer neighbour
    (their thread goes read-only); ORC and WEL (c) now do."""
    st = _st({"a": "DAW", "b": "ORC", "c": "WEL"})
    judge_neighbours(st, RS)
    assert st.neighbour_view == [("DAW", "ORC"), ("ORC", "WEL")]
    st.owners = {"a": "DAW", "d": "ORC", "c": "WEL"}
    st.round = 2
    assert judge_neighbours(st, RS) == [NeighboursJudged(2, (), (("DAW", "ORC"),))]


def test_r_pbp_neg_03_option_neighbour_recompute_turn() -> None:
    """R-PBP-NEG-03 option neighbour_recompute=turn: judged again at every turn's start, so
    DAW's move into c counts from the next turn of the same round."""
    st = _st({"a": "DAW", "b": "ORC", "d": "WEL"}, neighbour_recompute="turn")
    judge_neighbours(st, RS)
    st.owners = {"c": "DAW", "b": "ORC", "d": "WEL"}
    assert judge_neighbours(st, RS) == [NeighboursJudged(1, (("DAW", "WEL"),), ())]
    assert judged_neighbours(st, RS, "DAW", "WEL")


def test_r_pbp_neg_01_a_group_needs_mutual_neighbours() -> None:
    """R-PBP-NEG-01: ORC (b) neighbours DAW (a) and WEL (c), but DAW and WEL do not touch: no
    group thread of the three (said as "not mutual" to ORC, "not neighbours" to DAW, who does
    not touch WEL itself). ORC (b), WEL (c) and LIZ (d) are not mutual either (b and d do not
    touch). ORC with DAW alone is a pair, which may talk."""
    st = _st({"a": "DAW", "b": "ORC", "c": "WEL", "d": "LIZ"})
    judge_neighbours(st, RS)
    assert why_no_group_talks(st, RS, "ORC", ["DAW", "WEL"]) is NoTalks.GROUP_NOT_MUTUAL
    assert why_no_group_talks(st, RS, "DAW", ["ORC", "WEL"]) is NoTalks.NOT_NEIGHBOURS
    assert why_no_group_talks(st, RS, "WEL", ["ORC", "LIZ"]) is NoTalks.GROUP_NOT_MUTUAL
    assert why_no_group_talks(st, RS, "ORC", ["DAW"]) is None
    assert why_no_group_talks(st, RS, "ORC", ["ORC", "DAW"]) is NoTalks.SAME_FACTION


def test_r_pbp_neg_01_option_multiparty_threads() -> None:
    """R-PBP-NEG-01: DAW owns a and c, ORC b, WEL d: DAW-ORC (a-b) and DAW-WEL (c-d) neighbour
    but ORC-WEL do not (b and d do not touch): no group. With a WEL unit in c, WEL's footprint
    (c, d) touches b: all three are mutual neighbours and may share a thread; with the option
    multiparty_threads=false they get pair threads only."""
    st = _st({"a": "DAW", "b": "ORC", "c": "DAW", "d": "WEL"})
    judge_neighbours(st, RS)
    assert why_no_group_talks(st, RS, "DAW", ["ORC", "WEL"]) is NoTalks.GROUP_NOT_MUTUAL
    st = state(
        RS,
        units=[("XWEL", "WEL", "c")],
        owners={"a": "DAW", "b": "ORC", "c": "DAW", "d": "WEL"},
        in_play=list(FACTIONS),
    )
    judge_neighbours(st, RS)
    assert st.neighbour_view == [("DAW", "ORC"), ("DAW", "WEL"), ("ORC", "WEL")]
    assert why_no_group_talks(st, RS, "DAW", ["ORC", "WEL"]) is None
    st.options = Options(multiparty_threads=False)
    assert why_no_group_talks(st, RS, "DAW", ["ORC", "WEL"]) is NoTalks.NO_GROUPS
    assert why_no_group_talks(st, RS, "DAW", ["ORC"]) is None
    assert NoTalks.NO_GROUPS.rule == "R-PBP-NEG-01"
