"""Property tests for trade and redeem (R-TRADE-02, R-COMM-02, -05, -07, -10, R-BUY-02).

Random sequences of trade offers, answers and redemptions, legal or not, are run through
:func:`~caedes_bot.rules.engine.apply`. After every order:

* nothing is ever negative: RP (R-BUY-02), stock, earmarks, Salt credit;
* a refused order leaves the state exactly as it was;
* RP and commodities are conserved across factions, except what the rules create or destroy,
  which this test models on its own from the order (not from the code's events): a set of N
  different commodities destroys one of each and creates 2/3/5/8 RP for N = 3/4/5/6 (R-COMM-10);
  Iron becomes RP one for one (R-COMM-05); Salt leaves the stock for this turn's credit
  (R-COMM-07); earmarks stay the faction's until they go back to stock (R-COMM-02);
* an executed trade moves exactly the offered amounts between the two parties (R-TRADE-02),
  and proposing, declining or withdrawing moves nothing.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.orders import Order
from caedes_bot.rules.redeem import Earmark, RedeemIron, RedeemSalt, RedeemSets, return_earmarks
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.trade import (
    AcceptTrade,
    DeclineTrade,
    ProposeTrade,
    WithdrawTrade,
    lapse_trades,
)
from tests.rules.builders import ruleset, state

GOODS = ("cloth", "grain", "iron", "livestock", "salt", "timber")
PLAYERS = ("DAW", "ORC", "WEL")
SET_RP = {3: 2, 4: 3, 5: 5, 6: 8}  # R-COMM-10, from the catalogue's table

RS: Ruleset = ruleset(provinces={"a": ("plains",)})

amounts = st.integers(min_value=0, max_value=4)
bundles = st.dictionaries(st.sampled_from(GOODS), st.integers(min_value=0, max_value=2), max_size=2)
# "+1"/"+2" name the factions after the active one; now and then itself or one not in play
who = st.sampled_from(("+1", "+2", "+1", "+2", "+0", "LIZ"))
# "them" answers as the offer's counterparty, so that most answers come from the right faction.
answerer = st.sampled_from(("them", "them", "them", *PLAYERS))
# a "deal" proposes and then answers its own offer at once, so that acceptances meet real offers
deal = st.tuples(
    st.just("deal"),
    who,
    amounts,
    bundles,
    amounts,
    bundles,
    st.sampled_from(("accept", "accept", "accept", "decline", "withdraw", "stranger", "open")),
)
stray = st.tuples(
    st.sampled_from(("accept", "accept", "decline", "withdraw")), answerer, st.integers(-1, 3)
)
trade_ops = st.integers(0, 2).flatmap(lambda i: stray if i == 0 else deal)
redeem_ops = st.one_of(
    st.tuples(
        st.just("sets"),
        st.lists(st.lists(st.sampled_from(GOODS), min_size=2, max_size=8), min_size=1, max_size=2),
    ),
    st.tuples(st.sampled_from(("iron", "salt")), st.integers(-1, 3)),
    st.tuples(st.just("earmark"), st.sampled_from(GOODS), st.integers(-1, 3)),
)


def _mostly(main: st.SearchStrategy[Any], stray: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``main`` seven times in eight, else ``stray`` (an order given in the wrong step)."""
    return st.integers(0, 7).flatmap(lambda i: stray if i == 0 else main)


# one turn: orders in step 1, then in step 2
turns = st.tuples(
    st.lists(_mostly(trade_ops, redeem_ops), max_size=8),
    st.lists(_mostly(redeem_ops, trade_ops), max_size=6),
)
holdings = st.tuples(
    st.integers(min_value=0, max_value=10),
    st.fixed_dictionaries({g: st.integers(min_value=0, max_value=4) for g in GOODS}),
)


def _start(start: list[tuple[int, dict[str, int]]]) -> GameState:
    game = state(RS, step=Step.TRADE, in_play=list(PLAYERS), active="DAW")
    for code, (rp, goods) in zip(PLAYERS, start, strict=True):
        game.factions[code].rp = rp
        game.factions[code].commodities = {c: n for c, n in goods.items() if n}
    return game


def _order(game: GameState, op: tuple[Any, ...]) -> Order:
    active = game.active or "DAW"
    kind = op[0]
    if kind == "deal":
        _, other, give_rp, give, receive_rp, receive, _answer = op
        if other.startswith("+"):
            other = PLAYERS[(PLAYERS.index(active) + int(other)) % len(PLAYERS)]
        return ProposeTrade(active, other, give_rp, give, receive_rp, receive)
    if kind in ("accept", "decline", "withdraw"):
        _, faction, pick = op
        offers = game.trades
        offer = offers[pick % len(offers)] if offers and pick >= 0 else None
        trade_id = offer.id if offer is not None else 10_000
        if faction == "them":
            faction = offer.counterparty if offer is not None else "ORC"
        cls = {"accept": AcceptTrade, "decline": DeclineTrade, "withdraw": WithdrawTrade}[kind]
        return cls(faction, trade_id)
    if kind == "sets":
        return RedeemSets(active, tuple(tuple(s) for s in op[1]))
    if kind == "iron":
        return RedeemIron(active, op[1])
    if kind == "salt":
        return RedeemSalt(active, op[1])
    if kind == "earmark":
        return Earmark(active, op[1], op[2])
    raise AssertionError(f"unknown op {op!r}")


def _rp(game: GameState) -> dict[str, int]:
    return {f: fs.rp for f, fs in game.factions.items()}


def _goods(game: GameState, faction: str) -> Counter[str]:
    fs = game.factions[faction]
    return Counter(fs.commodities) + Counter(fs.earmarks)


def _all_goods(game: GameState) -> Counter[str]:
    total: Counter[str] = Counter()
    for f in game.factions:
        total += _goods(game, f)
    return total


@dataclass
class Books:
    """What the test expects the totals across factions to be, kept from the orders alone."""

    rp: int
    goods: Counter[str]


def _play(game: GameState, op: tuple[Any, ...], books: Books) -> GameState:
    """Apply one scripted op; a "deal" is a proposal followed by its answer."""
    game = _step(game, _order(game, op), books)
    _check(game, books)
    if op[0] != "deal" or op[-1] == "open" or not game.trades:
        return game
    offer = game.trades[-1]
    answer = op[-1]
    if answer == "withdraw":
        reply: Order = WithdrawTrade(offer.proposer, offer.id)
    elif answer == "decline":
        reply = DeclineTrade(offer.counterparty, offer.id)
    elif answer == "stranger":
        third = next(f for f in PLAYERS if f not in (offer.proposer, offer.counterparty))
        reply = AcceptTrade(third, offer.id)
    else:
        reply = AcceptTrade(offer.counterparty, offer.id)
    game = _step(game, reply, books)
    _check(game, books)
    return game


def _step(game: GameState, order: Order, books: Books) -> GameState:
    before = copy.deepcopy(game)
    try:
        outcome = apply(game, order, RS, ScriptedDice([]))
    except RuleViolation:
        assert game == before  # a refusal changes nothing
        return game
    new = outcome.state
    if isinstance(order, AcceptTrade):
        offer = next(o for o in game.trades if o.id == order.trade_id)
        p, c = offer.proposer, offer.counterparty
        net = offer.give_rp - offer.receive_rp
        assert new.factions[p].rp == game.factions[p].rp - net
        assert new.factions[c].rp == game.factions[c].rp + net
        give, receive = Counter(offer.give_commodities), Counter(offer.receive_commodities)
        assert _goods(new, p) + give == _goods(game, p) + receive
        assert _goods(new, c) + receive == _goods(game, c) + give
        assert offer.id not in [o.id for o in new.trades]
    elif isinstance(order, ProposeTrade | DeclineTrade | WithdrawTrade):
        assert _rp(new) == _rp(game)
        assert all(_goods(new, f) == _goods(game, f) for f in PLAYERS)
    elif isinstance(order, RedeemSets):
        for names in order.sets:
            different = set(names)
            books.rp += SET_RP[len(different)]
            books.goods -= Counter(different)
    elif isinstance(order, RedeemIron):
        books.rp += order.count
        books.goods -= Counter({"iron": order.count})
    elif isinstance(order, RedeemSalt):
        books.goods -= Counter({"salt": order.count})
        credit = game.factions[order.faction].salt_credit
        assert new.factions[order.faction].salt_credit == credit + order.count
    return new


def _check(game: GameState, books: Books) -> None:
    for fs in game.factions.values():
        assert fs.rp >= 0
        assert fs.salt_credit >= 0
        assert all(n >= 0 for n in fs.commodities.values())
        assert all(n >= 0 for n in fs.earmarks.values())
    assert sum(_rp(game).values()) == books.rp
    assert _all_goods(game) == books.goods


@given(st.lists(holdings, min_size=3, max_size=3), st.lists(turns, min_size=1, max_size=4))
def test_trade_and_redeem_conserve_and_never_go_negative(
    start: list[tuple[int, dict[str, int]]],
    script: list[tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]],
) -> None:
    game = _start(start)
    books = Books(sum(_rp(game).values()), _all_goods(game))
    for in_trade, in_redeem in script:
        for op in in_trade:
            game = _play(game, op, books)
        lapse_trades(game)  # end of step 1 (R-TRADE-02)
        assert game.trades == []
        game.step = Step.REDEEM
        _check(game, books)
        for op in in_redeem:
            game = _play(game, op, books)
        assert game.active is not None
        return_earmarks(game, game.active)  # end of the turn: earmarks back, Salt credit lost
        assert game.factions[game.active].earmarks == {}
        assert game.factions[game.active].salt_credit == 0
        _check(game, books)
        game.active = PLAYERS[(PLAYERS.index(game.active) + 1) % len(PLAYERS)]
        game.step = Step.TRADE
