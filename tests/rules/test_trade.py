"""Trade, step 1: offers, answers, atomic execution, lapse and visibility (R-TRADE-01..04).

Offers and answers played as orders are scenario files in tests/scenarios/trade/; what stays
here is name matching and the lapse helper.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import RuleViolation, UnknownName, WrongStep
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.trade import (
    AcceptTrade,
    ProposeTrade,
    TradeLapsed,
    TradeProposed,
    lapse_trades,
)
from tests.rules.builders import kind, ruleset, state


def _rs() -> Ruleset:
    # a - b share a border; c lies beyond b; nothing touches the sea.
    return ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("plains",)},
        borders=[("a", "b"), ("b", "c")],
        kinds=[kind("INF", "DAW"), kind("ORC-INF", "ORC"), kind("WEL-INF", "WEL")],
    )


def _state(rs: Ruleset, *, step: Step = Step.TRADE) -> GameState:
    """DAW (active) 10 RP, 3 Grain, 2 Cloth; ORC 6 RP, 2 Iron; WEL 0 RP, 1 Salt."""
    st = state(
        rs,
        step=step,
        in_play=["DAW", "ORC", "WEL"],
        rp={"DAW": 10, "ORC": 6},
        owners={"a": "DAW", "b": "ORC", "c": "WEL"},
        units=[("INF", "DAW", "a"), ("ORC-INF", "ORC", "b"), ("WEL-INF", "WEL", "c")],
    )
    st.factions["DAW"].commodities = {"grain": 3, "cloth": 2}
    st.factions["ORC"].commodities = {"iron": 2}
    st.factions["WEL"].commodities = {"salt": 1}
    return st


def _apply(st: GameState, order: Order, rs: Ruleset) -> Outcome:
    return apply(st, order, rs, ScriptedDice([]))


def _holdings(st: GameState, faction: str) -> tuple[int, dict[str, int]]:
    fs = st.factions[faction]
    return fs.rp, fs.commodities


def _proposed(st: GameState, rs: Ruleset, order: ProposeTrade) -> tuple[GameState, int]:
    out = _apply(st, order, rs)
    (event,) = out.events
    assert isinstance(event, TradeProposed)
    return out.state, event.trade_id


# --------------------------------------------------------------------------- proposing


def test_counterparty_may_be_named_in_any_case() -> None:
    """A counterparty named in any case is found (name matching, not a rule of play)."""
    rs = _rs()
    out = _apply(_state(rs), ProposeTrade("DAW", "orc", give_rp=1), rs)
    assert out.state.trades[0].counterparty == "ORC"


def test_unknown_counterparty_gets_suggestions() -> None:
    """An unknown counterparty is refused with near matches (name matching, not a rule of play)."""
    rs = _rs()
    with pytest.raises(UnknownName) as info:
        _apply(_state(rs), ProposeTrade("DAW", "ORK", give_rp=1), rs)
    assert "ORC" in info.value.suggestions


# --------------------------------------------------------------------------- lapse


def test_r_trade_02_open_offers_lapse_when_step_1_ends() -> None:
    """R-TRADE-02: unconfirmed offers lapse when step 1 ends, and nothing changes hands."""
    rs = _rs()
    st, first = _proposed(_state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=2))
    st, second = _proposed(st, rs, ProposeTrade("DAW", "WEL", receive_commodities={"salt": 1}))
    events = lapse_trades(st)
    assert events == [
        TradeLapsed(first, "DAW", "ORC", 2, {}, 0, {}),
        TradeLapsed(second, "DAW", "WEL", 0, {}, 0, {"salt": 1}),
    ]
    assert st.trades == []
    assert _holdings(st, "DAW")[0] == 10
    assert lapse_trades(st) == []


def test_r_trade_02_answers_are_refused_after_step_1() -> None:
    """R-TRADE-02: once step 1 is over an offer can no longer be accepted."""
    rs = _rs()
    st, tid = _proposed(_state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=2))
    lapse_trades(st)
    st.step = Step.REDEEM
    with pytest.raises(WrongStep):
        _apply(st, AcceptTrade("ORC", tid), rs)


def test_r_trade_01_r_pbp_neg_03_trade_between_neighbours_reads_the_judgement() -> None:
    """R-TRADE-01 with ``trade_requires_neighbour`` true, R-PBP-NEG-03: neighbours are those
    judged at the round's start, not the board of the moment. Judged: DAW (a) - ORC (b) only.
    A DAW unit now stands in b, touching WEL's c, but WEL is no neighbour until the next
    judgement; ORC stays one even if the board no longer shows it."""
    rs = _rs()
    st = _state(rs)
    st.options = replace(st.options, trade_requires_neighbour=True)
    st.neighbour_view = [("DAW", "ORC")]
    st.neighbour_judged = 1
    st.units["1"].location = "b"  # DAW's infantry now in b, next to WEL's c
    with pytest.raises(RuleViolation, match="not a neighbour") as refused:
        _apply(st, ProposeTrade("DAW", "WEL", give_rp=1), rs)
    assert "ORC" in (refused.value.allowed or "")
    st.owners = {"b": "ORC", "c": "WEL"}  # DAW's a lost: the judgement still stands
    _proposed(st, rs, ProposeTrade("DAW", "ORC", give_rp=1))
    st.neighbour_view = [("DAW", "ORC"), ("DAW", "WEL"), ("ORC", "WEL")]  # judged again
    _proposed(st, rs, ProposeTrade("DAW", "WEL", give_rp=1))
