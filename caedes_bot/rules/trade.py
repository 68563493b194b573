"""Trade, step 1 of a turn (R-TRADE-01..04).

The flow:

1. In step 1 the active faction proposes: :class:`ProposeTrade` names a counterparty (any other
   faction in play; with the option ``trade_requires_neighbour`` only a neighbour as last
   judged, R-PBP-NEG-02, R-PBP-NEG-03)
   and what goes each way, RP and commodities only (R-TRADE-04). A one-way gift is allowed;
   an offer that moves nothing is refused. The proposer must hold what it offers when it
   proposes. The counterparty's holdings are secret (R-GEN-07) and are checked only on
   acceptance. The offer is stored in :attr:`GameState.trades` with an id; proposing counts
   as the proposer's confirmation.
2. The counterparty answers with :class:`AcceptTrade` or :class:`DeclineTrade` (reaction
   orders: not the active faction). The proposer may :class:`WithdrawTrade` it.
3. Accepting executes the trade at once and atomically (R-TRADE-02), checking both sides'
   holdings *at that moment*. If either side no longer holds what it gives, the acceptance
   is refused with the reason and nothing changes: the offer stays open, so the proposer can
   withdraw it or a later acceptance can succeed, until step 1 ends.
4. When step 1 ends every open offer lapses (:func:`lapse_trades`, called by the turn machinery).

Limits that keep a step 1 readable (R-TRADE-02): a proposer may have at most
:data:`MAX_OPEN_PER_PAIR` open offers to one counterparty and :data:`MAX_OPEN_PER_PROPOSER` open
offers in all; no amount in an offer may exceed :data:`MAX_AMOUNT`, more than any faction could
hold (the counterparty's stock is secret, so its side cannot be checked against it).

An offer id that is not open (executed, declined, withdrawn, lapsed, or never made) is refused
with a clear message, so accepting twice has exactly one effect. Only the counterparty may
accept or decline; only the proposer may withdraw.

Promises beyond RP and commodities bind nobody and are not recorded (R-TRADE-03).

Who sees what (R-TRADE-02, R-GEN-07): every ``Trade*`` event is addressed to the two parties
(the umpire sees everything). When a trade is executed, a public :class:`TradeAnnounced` is
added per the option ``public_trade_log``: ``none`` - no public event; ``parties_only``
(default) - the public learns only that the two factions traded; ``full`` - the public also
sees the contents.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field

from caedes_bot.gamedata.model import Commodity, Ruleset
from caedes_bot.gamedata.names import find, fold
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.diplomacy import judged_neighbours
from caedes_bot.rules.errors import RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.redeem import parse_commodity
from caedes_bot.rules.state import FactionState, GameState, Step, TradeOffer
from caedes_bot.rules.steps import Accepts, Giver, StepSpec, always

_ORDER = tuple(Commodity)

#: Open offers one proposer may have to one counterparty at once (R-TRADE-02).
MAX_OPEN_PER_PAIR = 3
#: Open offers one proposer may have at once, to all counterparties (R-TRADE-02).
MAX_OPEN_PER_PROPOSER = 10
#: The largest amount of RP or of one commodity an offer may name: more than any faction
#: could hold (R-TRADE-01).
MAX_AMOUNT = 1_000_000

# --------------------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class ProposeTrade(Order):
    """The active faction offers a trade in step 1 (R-TRADE-01, R-TRADE-04).

    Attributes:
        counterparty: faction code of the other party.
        give_rp: RP the proposer gives (>= 0).
        give_commodities: commodity name -> count the proposer gives (counts >= 0; zeros ignored).
        receive_rp: RP the counterparty gives (>= 0).
        receive_commodities: commodity name -> count the counterparty gives.
    """

    label = "Offering a trade"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    counterparty: str
    give_rp: int = 0
    give_commodities: dict[str, int] = field(default_factory=dict)
    receive_rp: int = 0
    receive_commodities: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AcceptTrade(Order):
    """The counterparty accepts open offer ``trade_id``, which executes at once (R-TRADE-02)."""

    label = "Accepting a trade"

    trade_id: int


@dataclass(frozen=True, slots=True)
class DeclineTrade(Order):
    """The counterparty declines open offer ``trade_id`` (R-TRADE-02)."""

    label = "Declining a trade"

    trade_id: int


@dataclass(frozen=True, slots=True)
class WithdrawTrade(Order):
    """The proposer withdraws its open offer ``trade_id`` (R-TRADE-02)."""

    label = "Withdrawing a trade offer"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    trade_id: int


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class TradeEvent(Event):
    """Base of trade events: seen by the two parties (and the umpire) only (R-TRADE-02).

    Attributes:
        trade_id: the offer's id.
        proposer: the faction that proposed.
        counterparty: the faction asked.
    """

    trade_id: int
    proposer: str
    counterparty: str

    def audience(self) -> tuple[str, ...] | None:
        """The two parties (R-TRADE-02, R-GEN-07)."""
        return (self.proposer, self.counterparty)


@dataclass(frozen=True, slots=True)
class TradeContentsEvent(TradeEvent):
    """Base of trade events that carry the offer's contents, as in :class:`ProposeTrade`."""

    give_rp: int = 0
    give_commodities: dict[str, int] = field(default_factory=dict)
    receive_rp: int = 0
    receive_commodities: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TradeProposed(TradeContentsEvent):
    """An offer was made (R-TRADE-01). Contents as in :class:`ProposeTrade`, names normalised."""


@dataclass(frozen=True, slots=True)
class TradeExecuted(TradeContentsEvent):
    """An offer was accepted and carried out (R-TRADE-02)."""


@dataclass(frozen=True, slots=True)
class TradeDeclined(TradeEvent):
    """The counterparty declined an offer (R-TRADE-02)."""


@dataclass(frozen=True, slots=True)
class TradeWithdrawn(TradeEvent):
    """The proposer withdrew an offer (R-TRADE-02)."""


@dataclass(frozen=True, slots=True)
class TradeLapsed(TradeContentsEvent):
    """An offer nobody answered lapsed when step 1 ended (R-TRADE-02)."""


@dataclass(frozen=True, slots=True)
class TradeAnnounced(Event):
    """Public notice that two factions traded (R-TRADE-02, option ``public_trade_log``).

    The contents fields are ``None`` unless the option is ``full``.
    """

    proposer: str
    counterparty: str
    give_rp: int | None = None
    give_commodities: dict[str, int] | None = None
    receive_rp: int | None = None
    receive_commodities: dict[str, int] | None = None


# --------------------------------------------------------------------------- pure rules


def normalise_bundle(bundle: Mapping[str, int], *, side: str) -> dict[str, int]:
    """Commodity names -> counts, with names canonical, zeros dropped, in commodity order.

    Args:
        bundle: names (any case) to counts.
        side: who gives it, for messages ("you", "DAW").

    Raises:
        UnknownName: a name that is no commodity; only RP and commodities trade (R-TRADE-04).
        RuleViolation: a negative count (R-TRADE-01).
    """
    out: dict[str, int] = {}
    for name, count in bundle.items():
        commodity = parse_commodity(name, rule="R-TRADE-04")
        if count < 0:
            raise RuleViolation(
                f"Counts in a trade cannot be negative ({count} {commodity.value.title()} from {side}).",
                rule="R-TRADE-01",
                allowed="put what each side gives on its own side of the trade",
            )
        if count:
            out[commodity.value] = out.get(commodity.value, 0) + count
    return dict(sorted(out.items(), key=lambda kv: _ORDER.index(Commodity(kv[0]))))


def shortfall(fs: FactionState, rp: int, commodities: Mapping[str, int]) -> list[str]:
    """What ``fs`` lacks to give ``rp`` and ``commodities`` now, as phrases; empty if nothing.

    Only stock counts, never earmarks (R-TRADE-02).
    """
    missing: list[str] = []
    if fs.rp < rp:
        missing.append(f"{rp} RP (holds {fs.rp})")
    for name, count in commodities.items():
        held = fs.commodities.get(name, 0)
        if held < count:
            missing.append(f"{count} {name.title()} (holds {held})")
    return missing


def open_offer(state: GameState, trade_id: int) -> TradeOffer | None:
    """The open offer with ``trade_id``, or ``None``."""
    for offer in state.trades:
        if offer.id == trade_id:
            return offer
    return None


def offers_for(state: GameState, faction: str) -> list[TradeOffer]:
    """Open offers in which ``faction`` is a party, oldest first."""
    return [o for o in state.trades if faction in (o.proposer, o.counterparty)]


def lapse_trades(state: GameState) -> list[Event]:
    """End of step 1: every open offer lapses (R-TRADE-02). The turn machinery calls this.

    Returns:
        One :class:`TradeLapsed` per offer, oldest first; the offers are removed.
    """
    events: list[Event] = [
        TradeLapsed(
            o.id,
            o.proposer,
            o.counterparty,
            o.give_rp,
            dict(o.give_commodities),
            o.receive_rp,
            dict(o.receive_commodities),
        )
        for o in state.trades
    ]
    state.trades.clear()
    return events


# --------------------------------------------------------------------------- handlers


def handle_propose(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`ProposeTrade` (R-TRADE-01, R-TRADE-04).

    Raises:
        UnknownName: the counterparty is no faction, or a name is no commodity (R-TRADE-04).
        RuleViolation: counterparty is the proposer, not in play or eliminated, or (option
            ``trade_requires_neighbour``) not a neighbour (R-TRADE-01); negative amounts, an
            amount above :data:`MAX_AMOUNT`, or an offer that moves nothing (R-TRADE-01); too
            many open offers (:data:`MAX_OPEN_PER_PAIR`, :data:`MAX_OPEN_PER_PROPOSER`) or the
            proposer lacks what it offers (R-TRADE-02).
    """
    assert isinstance(order, ProposeTrade)
    counterparty = _faction_code(state, ruleset, order.counterparty)
    if counterparty == order.faction:
        raise RuleViolation(
            "A faction cannot trade with itself.",
            rule="R-TRADE-01",
            allowed="propose a trade to another faction in play",
        )
    other = state.factions.get(counterparty)
    if counterparty not in state.in_play or other is None or other.eliminated:
        raise RuleViolation(
            f"{counterparty} is not in play, so it cannot trade.",
            rule="R-TRADE-01",
            allowed="trade with " + _list(_partners(state, order.faction)),
        )
    if state.options.trade_requires_neighbour and not judged_neighbours(
        state, ruleset, order.faction, counterparty
    ):
        near = [
            f
            for f in _partners(state, order.faction)
            if judged_neighbours(state, ruleset, order.faction, f)
        ]
        raise RuleViolation(
            f"{counterparty} is not a neighbour of {order.faction}, and this campaign allows "
            "trade only between neighbours.",
            rule="R-TRADE-01",
            allowed="trade with a neighbour: " + _list(near),
        )
    give_rp = _rp(order.give_rp, order.faction)
    receive_rp = _rp(order.receive_rp, counterparty)
    give = normalise_bundle(order.give_commodities, side=order.faction)
    receive = normalise_bundle(order.receive_commodities, side=counterparty)
    if not (give_rp or receive_rp or give or receive):
        raise RuleViolation(
            "This trade moves nothing.",
            rule="R-TRADE-01",
            allowed="give or ask for RP or commodities (a one-way gift is fine)",
        )
    _check_amounts(give_rp, give, receive_rp, receive)
    _check_open_offers(state, order.faction, counterparty)
    lacking = shortfall(state.factions[order.faction], give_rp, give)
    if lacking:
        raise RuleViolation(
            "You cannot offer more than you hold: you lack " + "; ".join(lacking) + ".",
            rule="R-TRADE-02",
            allowed="offer only what is in your stock",
        )
    offer = TradeOffer(
        id=state.new_id(),
        proposer=order.faction,
        counterparty=counterparty,
        give_rp=give_rp,
        give_commodities=give,
        receive_rp=receive_rp,
        receive_commodities=receive,
    )
    state.trades.append(offer)
    return [
        TradeProposed(
            offer.id, offer.proposer, counterparty, give_rp, dict(give), receive_rp, dict(receive)
        )
    ]


def handle_accept(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`AcceptTrade`: execute the offer atomically (R-TRADE-02).

    Raises:
        RuleViolation: no open offer with that id; the faction is not its counterparty; either
            party no longer holds what it gives (the offer then stays open) (R-TRADE-02).
    """
    assert isinstance(order, AcceptTrade)
    offer = _offer_for_counterparty(state, order.faction, order.trade_id, "accept")
    proposer = state.factions[offer.proposer]
    counterparty = state.factions[offer.counterparty]
    theirs = shortfall(proposer, offer.give_rp, offer.give_commodities)
    mine = shortfall(counterparty, offer.receive_rp, offer.receive_commodities)
    if mine:
        raise RuleViolation(
            f"You cannot accept trade #{offer.id}: you lack " + "; ".join(mine) + ".",
            rule="R-TRADE-02",
            allowed="decline it, or gather what it asks and accept before step 1 ends",
        )
    if theirs:
        raise RuleViolation(
            f"Trade #{offer.id} cannot be carried out: {offer.proposer} no longer holds what it offers.",
            rule="R-TRADE-02",
            allowed="decline it or wait for a new offer; it stays open until step 1 ends",
        )
    _move(proposer, counterparty, offer.give_rp, offer.give_commodities)
    _move(counterparty, proposer, offer.receive_rp, offer.receive_commodities)
    state.trades.remove(offer)
    events: list[Event] = [
        TradeExecuted(
            offer.id,
            offer.proposer,
            offer.counterparty,
            offer.give_rp,
            dict(offer.give_commodities),
            offer.receive_rp,
            dict(offer.receive_commodities),
        )
    ]
    log = state.options.public_trade_log
    if log == "full":
        events.append(
            TradeAnnounced(
                offer.proposer,
                offer.counterparty,
                offer.give_rp,
                dict(offer.give_commodities),
                offer.receive_rp,
                dict(offer.receive_commodities),
            )
        )
    elif log != "none":
        events.append(TradeAnnounced(offer.proposer, offer.counterparty))
    return events


def handle_decline(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`DeclineTrade` (R-TRADE-02).

    Raises:
        RuleViolation: no open offer with that id, or the faction is not its counterparty.
    """
    assert isinstance(order, DeclineTrade)
    offer = _offer_for_counterparty(state, order.faction, order.trade_id, "decline")
    state.trades.remove(offer)
    return [TradeDeclined(offer.id, offer.proposer, offer.counterparty)]


def handle_withdraw(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`WithdrawTrade` (R-TRADE-02).

    Raises:
        RuleViolation: no open offer with that id, or the faction did not propose it.
    """
    assert isinstance(order, WithdrawTrade)
    offer = _open(state, order.trade_id)
    if offer.proposer != order.faction:
        raise RuleViolation(
            f"Only {offer.proposer}, which proposed trade #{offer.id}, may withdraw it.",
            rule="R-TRADE-02",
            allowed=_your_offers(state, order.faction),
        )
    state.trades.remove(offer)
    return [TradeWithdrawn(offer.id, offer.proposer, offer.counterparty)]


# --------------------------------------------------------------------------- helpers


def _open(state: GameState, trade_id: int) -> TradeOffer:
    offer = open_offer(state, trade_id)
    if offer is None:
        raise RuleViolation(
            f"There is no open trade offer #{trade_id}: it was carried out, declined, withdrawn "
            "or has lapsed, or never existed.",
            rule="R-TRADE-02",
            allowed="answer an open offer",
        )
    return offer


def _offer_for_counterparty(state: GameState, faction: str, trade_id: int, verb: str) -> TradeOffer:
    offer = _open(state, trade_id)
    if offer.counterparty != faction:
        if offer.proposer == faction:
            message = (
                f"Trade #{offer.id} is your own offer; only {offer.counterparty} may {verb} it."
            )
        else:
            message = f"Trade #{offer.id} is not addressed to {faction}, so it cannot {verb} it."
        raise RuleViolation(message, rule="R-TRADE-02", allowed=_your_offers(state, faction))
    return offer


def _your_offers(state: GameState, faction: str) -> str:
    mine = [f"#{o.id}" for o in offers_for(state, faction)]
    return "your open offers: " + ", ".join(mine) if mine else "nothing: you have no open offers"


def _move(src: FactionState, dst: FactionState, rp: int, commodities: Mapping[str, int]) -> None:
    src.rp -= rp
    dst.rp += rp
    for name, count in commodities.items():
        left = src.commodities.get(name, 0) - count
        if left:
            src.commodities[name] = left
        else:
            src.commodities.pop(name, None)
        dst.commodities[name] = dst.commodities.get(name, 0) + count


def _check_amounts(
    give_rp: int, give: Mapping[str, int], receive_rp: int, receive: Mapping[str, int]
) -> None:
    """Refuse an amount larger than :data:`MAX_AMOUNT` on either side (R-TRADE-01)."""
    amounts = [(give_rp, "RP"), (receive_rp, "RP")]
    amounts += [(n, name.title()) for bundle in (give, receive) for name, n in bundle.items()]
    for amount, what in amounts:
        if amount > MAX_AMOUNT:
            raise RuleViolation(
                f"{amount:,} {what} is more than any faction could hold; an offer names at most "
                f"{MAX_AMOUNT:,} of anything.",
                rule="R-TRADE-01",
                allowed=f"amounts from 0 to {MAX_AMOUNT:,}",
            )


def _check_open_offers(state: GameState, proposer: str, counterparty: str) -> None:
    """Refuse a new offer beyond :data:`MAX_OPEN_PER_PAIR` to one counterparty or
    :data:`MAX_OPEN_PER_PROPOSER` in all (R-TRADE-02)."""
    mine = [o for o in state.trades if o.proposer == proposer]
    to_them = [o for o in mine if o.counterparty == counterparty]
    if len(to_them) >= MAX_OPEN_PER_PAIR:
        raise RuleViolation(
            f"You already have {len(to_them)} open offers to {counterparty}; at most "
            f"{MAX_OPEN_PER_PAIR} may wait for its answer at once.",
            rule="R-TRADE-02",
            allowed="wait for an answer, or withdraw one of "
            + ", ".join(f"#{o.id}" for o in to_them),
        )
    if len(mine) >= MAX_OPEN_PER_PROPOSER:
        raise RuleViolation(
            f"You already have {len(mine)} open offers; at most {MAX_OPEN_PER_PROPOSER} may wait "
            "for answers at once.",
            rule="R-TRADE-02",
            allowed="wait for answers, or withdraw one of " + ", ".join(f"#{o.id}" for o in mine),
        )


def _rp(value: int, side: str) -> int:
    if value < 0:
        raise RuleViolation(
            f"RP in a trade cannot be negative ({value} from {side}).",
            rule="R-TRADE-01",
            allowed="put what each side gives on its own side of the trade",
        )
    return value


def _faction_code(state: GameState, ruleset: Ruleset, name: str) -> str:
    codes = [f.code for f in ruleset.factions]
    named = [(f.code, (f.code, f.name, f.adjective)) for f in ruleset.factions]
    found = find(name, named).item  # a unique start of a name counts too (R-GEN-04)
    if found is not None:
        return found
    key = fold(name).upper()
    close = difflib.get_close_matches(key, codes, n=2, cutoff=0.5)
    raise UnknownName("faction", name, tuple(close), rule="R-TRADE-01")


def _partners(state: GameState, faction: str) -> list[str]:
    return [
        f
        for f in state.in_play
        if f != faction and f in state.factions and not state.factions[f].eliminated
    ]


def _list(codes: list[str]) -> str:
    return ", ".join(codes) if codes else "nobody"


# --------------------------------------------------------------------------- step 1


def _lapse(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return lapse_trades(state)  # R-TRADE-02: open offers lapse when step 1 ends


#: Step 1, Trade (R-TRADE-01..04): the active faction proposes and withdraws; the counterparty
#: answers (a reaction, in the same step).
SPEC = StepSpec(
    "trade",
    Step.TRADE,
    accepts=(
        Accepts(ProposeTrade, handle_propose),
        Accepts(WithdrawTrade, handle_withdraw),
        Accepts(AcceptTrade, handle_accept, Giver.REACTION),
        Accepts(DeclineTrade, handle_decline, Giver.REACTION),
    ),
    on_leave=_lapse,
    waits=always,
)
