"""Limits on trade offers (caedes_bot/rules/trade.py): open offers per counterparty and per
proposer (R-TRADE-02), and amounts no faction could hold (R-TRADE-01). A refused offer changes
nothing."""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.trade import (
    MAX_AMOUNT,
    MAX_OPEN_PER_PAIR,
    MAX_OPEN_PER_PROPOSER,
    ProposeTrade,
    WithdrawTrade,
)
from tests.rules.builders import kind, ruleset, state

FACTIONS = ["DAW", "ORC", "WEL", "LIZ", "DWA"]


def _rs() -> Ruleset:
    return ruleset(
        provinces={"a": ("plains",), "b": ("plains",)},
        borders=[("a", "b")],
        kinds=[kind("INF", "DAW")],
    )


def _state(rs: Ruleset) -> GameState:
    """The Dawnians (active, step 1) hold 100 RP and 5 Grain; four other factions in play."""
    st = state(rs, step=Step.TRADE, in_play=FACTIONS, rp={"DAW": 100}, units=[("INF", "DAW", "a")])
    st.factions["DAW"].commodities = {"grain": 5}
    return st


def _offer(st: GameState, rs: Ruleset, to: str, **amounts: object) -> GameState:
    order = ProposeTrade("DAW", to, **amounts)  # type: ignore[arg-type]
    return apply(st, order, rs, ScriptedDice([])).state


def test_r_trade_02_at_most_three_open_offers_to_one_counterparty() -> None:
    """R-TRADE-02: three offers wait for the Orcs; a fourth is refused, naming the three; once
    one is withdrawn a new one may be made."""
    rs = _rs()
    st = _state(rs)
    assert MAX_OPEN_PER_PAIR == 3
    for _ in range(3):
        st = _offer(st, rs, "ORC", give_rp=1)
    ids = [o.id for o in st.trades]
    with pytest.raises(RuleViolation) as refused:
        _offer(st, rs, "ORC", give_rp=1)
    assert refused.value.rule == "R-TRADE-02"
    assert refused.value.message == (
        "You already have 3 open offers to ORC; at most 3 may wait for its answer at once."
    )
    assert refused.value.allowed == "wait for an answer, or withdraw one of " + ", ".join(
        f"#{i}" for i in ids
    )
    assert len(st.trades) == 3  # the refusal changed nothing
    st = _offer(st, rs, "WEL", give_rp=1)  # another counterparty is fine
    st = apply(st, WithdrawTrade("DAW", ids[0]), rs, ScriptedDice([])).state
    st = _offer(st, rs, "ORC", give_rp=1)
    assert sum(1 for o in st.trades if o.counterparty == "ORC") == 3


def test_r_trade_02_at_most_ten_open_offers_in_all() -> None:
    """R-TRADE-02: 3 + 3 + 3 offers to three factions and 1 to a fourth make 10; the 11th is
    refused."""
    rs = _rs()
    st = _state(rs)
    assert MAX_OPEN_PER_PROPOSER == 10
    for to, count in (("ORC", 3), ("WEL", 3), ("LIZ", 3), ("DWA", 1)):
        for _ in range(count):
            st = _offer(st, rs, to, give_rp=1)
    with pytest.raises(RuleViolation) as refused:
        _offer(st, rs, "DWA", give_rp=1)
    assert refused.value.rule == "R-TRADE-02"
    assert refused.value.message == (
        "You already have 10 open offers; at most 10 may wait for answers at once."
    )
    assert len(st.trades) == 10


@pytest.mark.parametrize(
    "amounts",
    [
        {"receive_rp": 1_000_001},
        {"give_rp": 1, "receive_commodities": {"iron": 99_999_999_999}},
        {"give_commodities": {"grain": 2_000_000}},
    ],
)
def test_r_trade_01_amounts_no_faction_could_hold_are_refused(amounts: dict[str, object]) -> None:
    """R-TRADE-01: RP and commodities trade, but no faction holds more than a million of
    anything; a larger amount on either side is refused before anything else is judged."""
    rs = _rs()
    st = _state(rs)
    assert MAX_AMOUNT == 1_000_000
    with pytest.raises(RuleViolation) as refused:
        _offer(st, rs, "ORC", **amounts)
    assert refused.value.rule == "R-TRADE-01"
    assert "is more than any faction could hold" in refused.value.message
    assert refused.value.allowed == "amounts from 0 to 1,000,000"
    assert not st.trades


def test_r_trade_01_a_million_may_be_asked() -> None:
    """R-TRADE-01: exactly 1,000,000 is allowed (the counterparty's stock is secret and is
    judged only on acceptance, R-TRADE-02)."""
    rs = _rs()
    st = _offer(_state(rs), rs, "ORC", give_rp=1, receive_rp=1_000_000)
    assert st.trades[0].receive_rp == 1_000_000
