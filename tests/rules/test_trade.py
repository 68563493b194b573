"""Trade, step 1: offers, answers, atomic execution, lapse and visibility (R-TRADE-01..04)."""

from __future__ import annotations

import copy

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import NotYourTurn, RuleViolation, UnknownName, WrongStep
from caedes_bot.rules.orders import Order
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import GameState, Step, TradeOffer
from caedes_bot.rules.trade import (
    AcceptTrade,
    DeclineTrade,
    ProposeTrade,
    TradeAnnounced,
    TradeDeclined,
    TradeExecuted,
    TradeLapsed,
    TradeProposed,
    TradeWithdrawn,
    WithdrawTrade,
    lapse_trades,
)
from caedes_bot.rules.turn import EndStep, StartCampaign, UmpireAdvance
from tests.rules.builders import kind, ruleset, state, with_options, with_scenario


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


def _refused(st: GameState, order: Order, rs: Ruleset, rule: str) -> RuleViolation:
    before = copy.deepcopy(st)
    with pytest.raises(RuleViolation) as info:
        _apply(st, order, rs)
    assert info.value.rule == rule
    assert st == before
    return info.value


def _holdings(st: GameState, faction: str) -> tuple[int, dict[str, int]]:
    fs = st.factions[faction]
    return fs.rp, fs.commodities


def _proposed(st: GameState, rs: Ruleset, order: ProposeTrade) -> tuple[GameState, int]:
    out = _apply(st, order, rs)
    (event,) = out.events
    assert isinstance(event, TradeProposed)
    return out.state, event.trade_id


# --------------------------------------------------------------------------- proposing


def test_r_trade_01_active_faction_proposes_and_nothing_moves_yet() -> None:
    """R-TRADE-01: the active faction proposes a trade in step 1; nothing changes hands until it is
    accepted.
    """
    rs = _rs()
    st = _state(rs)
    next_id = st.next_id
    out = _apply(
        st,
        ProposeTrade(
            "DAW", "ORC", give_rp=3, give_commodities={"Grain": 1}, receive_commodities={"iron": 2}
        ),
        rs,
    )
    assert out.events == (TradeProposed(next_id, "DAW", "ORC", 3, {"grain": 1}, 0, {"iron": 2}),)
    assert out.state.trades == [TradeOffer(next_id, "DAW", "ORC", 3, {"grain": 1}, 0, {"iron": 2})]
    assert _holdings(out.state, "DAW") == (10, {"grain": 3, "cloth": 2})
    assert _holdings(out.state, "ORC") == (6, {"iron": 2})


def test_r_trade_02_trade_events_are_seen_by_the_two_parties() -> None:
    """R-TRADE-02: a trade's events go to its two parties."""
    rs = _rs()
    out = _apply(_state(rs), ProposeTrade("DAW", "ORC", give_rp=1), rs)
    assert out.events[0].audience() == ("DAW", "ORC")


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


def test_r_trade_01_no_trade_with_oneself_or_outside_play() -> None:
    """R-TRADE-01: the counterparty is another faction in play: not oneself, not a faction out of
    the scenario or eliminated.
    """
    rs = _rs()
    st = _state(rs)
    _refused(st, ProposeTrade("DAW", "DAW", give_rp=1), rs, "R-TRADE-01")
    err = _refused(st, ProposeTrade("DAW", "LIZ", give_rp=1), rs, "R-TRADE-01")
    assert err.allowed == "trade with ORC, WEL"
    st.factions["WEL"].eliminated = True
    _refused(st, ProposeTrade("DAW", "WEL", give_rp=1), rs, "R-TRADE-01")


def test_r_trade_01_any_faction_in_play_without_the_neighbour_option() -> None:
    """R-TRADE-01: WEL (province c) is not DAW's neighbour (a), yet by default they may trade."""
    rs = _rs()
    out = _apply(_state(rs), ProposeTrade("DAW", "WEL", receive_commodities={"salt": 1}), rs)
    assert out.state.trades[0].counterparty == "WEL"


def test_r_trade_01_neighbour_option_limits_counterparties() -> None:
    """R-TRADE-01: With trade_requires_neighbour, DAW (a) may trade with ORC (b, bordering a) but
    not WEL (c).
    """
    rs = with_options(_rs(), trade_requires_neighbour=True)
    st = _state(rs)
    assert _apply(st, ProposeTrade("DAW", "ORC", give_rp=1), rs).state.trades
    err = _refused(st, ProposeTrade("DAW", "WEL", give_rp=1), rs, "R-TRADE-01")
    assert err.allowed == "trade with a neighbour: ORC"


def test_r_trade_01_an_offer_must_move_something_and_nothing_negative() -> None:
    """R-TRADE-01: an offer gives or receives something, and no amount is negative or zero."""
    rs = _rs()
    st = _state(rs)
    _refused(st, ProposeTrade("DAW", "ORC"), rs, "R-TRADE-01")
    _refused(st, ProposeTrade("DAW", "ORC", give_commodities={"grain": 0}), rs, "R-TRADE-01")
    _refused(st, ProposeTrade("DAW", "ORC", give_rp=-2), rs, "R-TRADE-01")
    _refused(st, ProposeTrade("DAW", "ORC", receive_commodities={"iron": -1}), rs, "R-TRADE-01")


def test_r_trade_04_only_rp_and_commodities_can_be_traded() -> None:
    """R-TRADE-04: only RP and commodities can be traded; naming anything else is refused."""
    rs = _rs()
    with pytest.raises(UnknownName) as info:
        _apply(_state(rs), ProposeTrade("DAW", "ORC", give_commodities={"knights": 1}), rs)
    assert info.value.rule == "R-TRADE-04"


def test_r_trade_02_proposer_cannot_offer_more_than_it_holds() -> None:
    """R-TRADE-02: nobody can give more than it holds: DAW holds 10 RP and 2 Cloth."""
    rs = _rs()
    st = _state(rs)
    err = _refused(st, ProposeTrade("DAW", "ORC", give_rp=11), rs, "R-TRADE-02")
    assert "11 RP (holds 10)" in err.message
    _refused(st, ProposeTrade("DAW", "ORC", give_commodities={"cloth": 3}), rs, "R-TRADE-02")


def test_r_trade_02_counterparty_holdings_are_not_checked_at_proposal() -> None:
    """R-TRADE-02: ORC's stock is secret (R-GEN-07): asking for 50 RP is only checked when ORC
    accepts.
    """
    rs = _rs()
    out = _apply(_state(rs), ProposeTrade("DAW", "ORC", receive_rp=50), rs)
    assert out.state.trades[0].receive_rp == 50


def test_r_turn_03_only_the_active_faction_proposes_in_step_1() -> None:
    """R-TURN-03, R-TRADE-01: only the active faction proposes trades, and only in step 1."""
    rs = _rs()
    with pytest.raises(NotYourTurn):
        _apply(_state(rs), ProposeTrade("ORC", "DAW", give_rp=1), rs)
    with pytest.raises(WrongStep):
        _apply(_state(rs, step=Step.REDEEM), ProposeTrade("DAW", "ORC", give_rp=1), rs)


# --------------------------------------------------------------------------- answering


def test_r_trade_02_accepting_executes_the_trade_atomically() -> None:
    """R-TRADE-02: DAW gives 3 RP + 1 Grain for 2 Iron: DAW 10->7 RP, Grain 3->2, Iron 0->2; ORC
    6->9 RP.
    """
    rs = _rs()
    st, tid = _proposed(
        _state(rs),
        rs,
        ProposeTrade(
            "DAW", "ORC", give_rp=3, give_commodities={"grain": 1}, receive_commodities={"iron": 2}
        ),
    )
    out = _apply(st, AcceptTrade("ORC", tid), rs)
    assert _holdings(out.state, "DAW") == (7, {"grain": 2, "cloth": 2, "iron": 2})
    assert _holdings(out.state, "ORC") == (9, {"grain": 1})
    assert out.state.trades == []
    assert out.events == (
        TradeExecuted(tid, "DAW", "ORC", 3, {"grain": 1}, 0, {"iron": 2}),
        TradeAnnounced("DAW", "ORC"),
    )
    assert out.events[0].audience() == ("DAW", "ORC")
    assert out.events[1].audience() is None


def test_r_trade_01_a_one_way_gift() -> None:
    """R-TRADE-01: DAW gives WEL 4 RP and 2 Cloth for nothing: DAW 10->6, WEL 0->4 and 2 Cloth."""
    rs = _rs()
    st, tid = _proposed(
        _state(rs), rs, ProposeTrade("DAW", "WEL", give_rp=4, give_commodities={"cloth": 2})
    )
    out = _apply(st, AcceptTrade("WEL", tid), rs)
    assert _holdings(out.state, "DAW") == (6, {"grain": 3})
    assert _holdings(out.state, "WEL") == (4, {"salt": 1, "cloth": 2})


def test_r_trade_02_parties_only_log_hides_contents_from_the_public() -> None:
    """R-TRADE-02: with `public_trade_log` parties_only (the default) the public learns who traded,
    not what.
    """
    rs = _rs()
    st, tid = _proposed(_state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=2))
    public = [e for e in _apply(st, AcceptTrade("ORC", tid), rs).events if e.audience() is None]
    assert public == [TradeAnnounced("DAW", "ORC", None, None, None, None)]


def test_r_trade_02_full_log_shows_contents_publicly() -> None:
    """R-TRADE-02: with `public_trade_log` full the public sees the contents."""
    rs = with_options(_rs(), public_trade_log="full")
    st, tid = _proposed(
        _state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=2, receive_commodities={"iron": 1})
    )
    public = [e for e in _apply(st, AcceptTrade("ORC", tid), rs).events if e.audience() is None]
    assert public == [TradeAnnounced("DAW", "ORC", 2, {}, 0, {"iron": 1})]


def test_r_trade_02_no_public_log_announces_nothing() -> None:
    """R-TRADE-02: with `public_trade_log` none only the two parties hear of the trade."""
    rs = with_options(_rs(), public_trade_log="none")
    st, tid = _proposed(_state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=2))
    events = _apply(st, AcceptTrade("ORC", tid), rs).events
    assert [type(e) for e in events] == [TradeExecuted]
    assert all(e.audience() == ("DAW", "ORC") for e in events)


def test_r_trade_02_accepting_twice_has_one_effect() -> None:
    """R-TRADE-02: a trade is executed once; a second acceptance is refused (ORC 6 + 2 = 8 RP)."""
    rs = _rs()
    st, tid = _proposed(_state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=2))
    done = _apply(st, AcceptTrade("ORC", tid), rs).state
    err = _refused(done, AcceptTrade("ORC", tid), rs, "R-TRADE-02")
    assert f"no open trade offer #{tid}" in err.message
    assert _holdings(done, "ORC")[0] == 8


def test_r_trade_02_only_the_counterparty_may_accept_or_decline() -> None:
    """R-TRADE-02: only the counterparty confirms or declines an offer; the proposer cannot accept
    its own.
    """
    rs = _rs()
    st, tid = _proposed(_state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=2))
    _refused(st, AcceptTrade("WEL", tid), rs, "R-TRADE-02")
    _refused(st, DeclineTrade("WEL", tid), rs, "R-TRADE-02")
    err = _refused(st, AcceptTrade("DAW", tid), rs, "R-TRADE-02")
    assert "your own offer" in err.message


def test_r_trade_02_counterparty_short_at_acceptance_is_refused_and_offer_stays() -> None:
    """R-TRADE-02: ORC holds 6 RP; an offer asking 7 RP cannot be accepted; nothing changes."""
    rs = _rs()
    st, tid = _proposed(_state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=1, receive_rp=7))
    err = _refused(st, AcceptTrade("ORC", tid), rs, "R-TRADE-02")
    assert "7 RP (holds 6)" in err.message
    assert [o.id for o in st.trades] == [tid]


def test_r_trade_02_proposer_short_at_acceptance_is_refused_and_offer_stays() -> None:
    """R-TRADE-02: DAW offers its 3 Grain to ORC and to WEL; once WEL takes them, ORC's acceptance
    fails.
    """
    rs = _rs()
    st, to_orc = _proposed(
        _state(rs), rs, ProposeTrade("DAW", "ORC", give_commodities={"grain": 3})
    )
    st, to_wel = _proposed(st, rs, ProposeTrade("DAW", "WEL", give_commodities={"grain": 3}))
    st = _apply(st, AcceptTrade("WEL", to_wel), rs).state
    assert _holdings(st, "WEL") == (0, {"salt": 1, "grain": 3})
    err = _refused(st, AcceptTrade("ORC", to_orc), rs, "R-TRADE-02")
    assert "no longer holds" in err.message
    assert [o.id for o in st.trades] == [to_orc]


def test_r_trade_02_declining_removes_the_offer_and_moves_nothing() -> None:
    """R-TRADE-02: a declined offer is gone and nothing changes hands."""
    rs = _rs()
    st, tid = _proposed(_state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=2))
    out = _apply(st, DeclineTrade("ORC", tid), rs)
    assert out.events == (TradeDeclined(tid, "DAW", "ORC"),)
    assert out.state.trades == []
    assert _holdings(out.state, "DAW")[0] == 10
    _refused(out.state, AcceptTrade("ORC", tid), rs, "R-TRADE-02")


def test_r_trade_02_proposer_may_withdraw_counterparty_may_not() -> None:
    """R-TRADE-02: the proposer may withdraw an open offer, once; the counterparty may not."""
    rs = _rs()
    st, tid = _proposed(_state(rs), rs, ProposeTrade("DAW", "ORC", give_rp=2))
    with pytest.raises(NotYourTurn):
        _apply(st, WithdrawTrade("ORC", tid), rs)
    out = _apply(st, WithdrawTrade("DAW", tid), rs)
    assert out.events == (TradeWithdrawn(tid, "DAW", "ORC"),)
    assert out.state.trades == []
    _refused(out.state, WithdrawTrade("DAW", tid), rs, "R-TRADE-02")


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


# --------------------------------------------------------------------------- in the turn


def _campaign() -> tuple[Ruleset, GameState]:
    """DAW (10 RP, 2 Grain) owns a; ORC (4 RP) owns c; each has one Infantry at home."""
    rs = with_scenario(
        _rs(),
        factions={"DAW": (10, {"grain": 2}), "ORC": (4, {})},
        owners={"a": "DAW", "c": "ORC"},
        units=[("INF", "a", 1), ("ORC-INF", "c", 1)],
    )
    st = _apply(new_game(rs, "test", "seed"), StartCampaign("umpire"), rs).state
    return rs, st


def test_r_trade_02_the_turn_waits_in_step_1_and_a_trade_is_answered_there() -> None:
    """R-TRADE-02: DAW gives 1 Grain for 3 RP: DAW 10 -> 13 RP and 1 Grain; ORC 4 -> 1 RP and 1
    Grain.
    """
    rs, st = _campaign()
    assert (st.active, st.step) == ("DAW", Step.TRADE)
    st, tid = _proposed(
        st, rs, ProposeTrade("DAW", "ORC", give_commodities={"grain": 1}, receive_rp=3)
    )
    st = _apply(st, AcceptTrade("ORC", tid), rs).state
    assert _holdings(st, "DAW") == (13, {"grain": 1})
    assert _holdings(st, "ORC") == (1, {"grain": 1})
    assert st.step == Step.TRADE


def test_r_trade_02_ending_step_1_lapses_open_offers() -> None:
    """R-TRADE-02, R-TURN-02: ending step 1 lapses open offers; step 1 is never revisited, so a late
    acceptance is refused.
    """
    rs, st = _campaign()
    st, tid = _proposed(st, rs, ProposeTrade("DAW", "ORC", give_rp=5))
    out = _apply(st, EndStep("DAW"), rs)
    assert TradeLapsed(tid, "DAW", "ORC", 5, {}, 0, {}) in out.events
    assert out.state.trades == []
    assert out.state.step == Step.REDEEM  # DAW holds Grain, so step 2 waits
    _refused(out.state, AcceptTrade("ORC", tid), rs, "R-TURN-02")


def test_r_pbp_dead_03_umpire_passes_step_1_and_offers_lapse() -> None:
    """R-PBP-DEAD-03, R-TRADE-02: the umpire passes step 1 for the active faction; its open offers
    lapse unexecuted.
    """
    rs, st = _campaign()
    st, tid = _proposed(st, rs, ProposeTrade("DAW", "ORC", give_rp=5))
    out = _apply(st, UmpireAdvance("DAW"), rs)
    assert [e for e in out.events if isinstance(e, TradeLapsed)] == [
        TradeLapsed(tid, "DAW", "ORC", 5, {}, 0, {})
    ]
    assert _holdings(out.state, "DAW")[0] == 10
