"""The lines of the treasury and of trade (:mod:`caedes_bot.ui.lines`): income, upkeep,
purchases and their losses, commodities redeemed and earmarked, and trade offers from proposal
to execution.

Each function is registered with :func:`~caedes_bot.ui.lines_registry.line_of` as the line of
its event class. Pure functions of the event, the state after it and the static ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import buy, collect, muster, redeem, trade, upkeep
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import (
    commodities_text,
    faction_name,
    kind_counts,
    kind_name,
    offer_text,
    space_name,
)
from caedes_bot.ui.lines_registry import line_of


# --------------------------------------------------------------------------- the treasury
@line_of(collect.IncomeCollected)
def _income_collected(event: collect.IncomeCollected, state: GameState, ruleset: Ruleset) -> str:
    goods = ", ".join(f"{n} {c.title()}" for c, n in event.commodities)
    text = f"Collected {event.rp_gained} RP" + (f" and {goods}" if goods else "")
    if event.provinces:
        text += " from " + ", ".join(space_name(ruleset, p) for p in event.provinces)
    text += f". {event.rp_after} RP now."
    if event.divined:
        bonus = ", ".join(
            f"{n} {c.title()} in {space_name(ruleset, p)}" for p, c, n in event.divined
        )
        text += f" Diviner bonus included: {bonus} (R-MAGIC-DIV-01)."
    if event.withheld:
        paid = "; ".join(f"{space_name(ruleset, p)} ({why})" for p, why in event.withheld)
        text += f" Paid nothing: {paid} (R-COLL-04)."
    return text


@line_of(upkeep.UpkeepDue)
def _upkeep_due(event: upkeep.UpkeepDue, state: GameState, ruleset: Ruleset) -> str:
    salt = f", less {event.salt_used} Salt" if event.salt_used else ""
    text = (
        f"Upkeep due: {event.units_counted} units cost {event.upkeep} RP{salt}: a bill of "
        f"{event.bill} RP; you hold {event.rp} RP (R-UPK-01)."
    )
    if event.must_disband:
        text += f" You must disband at least {event.must_disband} of them before paying (R-UPK-03)."
    return text


@line_of(upkeep.UpkeepPaid)
def _upkeep_paid(event: upkeep.UpkeepPaid, state: GameState, ruleset: Ruleset) -> str:
    salt = f", less {event.salt_used} Salt" if event.salt_used else ""
    return (
        f"Upkeep: {event.units_counted} units cost {event.upkeep} RP{salt}; paid "
        f"{event.bill} RP. {event.rp_after} RP left (R-UPK-01)."
    )


@line_of(buy.UnitsBought)
def _units_bought(event: buy.UnitsBought, state: GameState, ruleset: Ruleset) -> str:
    text = f"Bought {event.count} {event.name} for {event.total} RP. {event.rp_after} RP left."
    if event.warning:
        text += f" Warning: {event.warning}"
    return text


@line_of(buy.PurchaseCancelled)
def _purchase_cancelled(event: buy.PurchaseCancelled, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"Cancelled {event.count} {kind_name(ruleset, event.kind_id)}: {event.refund} RP "
        f"back. {event.rp_after} RP now."
    )


@line_of(buy.RPForfeited)
def _rp_forfeited(event: buy.RPForfeited, state: GameState, ruleset: Ruleset) -> str:
    return f"{event.rp} unspent RP were lost at the end of step 5 (R-BUY-02)."


@line_of(muster.PurchaseLost)
def _purchase_lost(event: muster.PurchaseLost, state: GameState, ruleset: Ruleset) -> str:
    lost = kind_counts(ruleset, event.kind_ids)
    text = f"Lost without refund, with nowhere to muster: {lost} (R-MUSTER-01)."
    return text + _reasons_text(ruleset, event.reasons)


@line_of(muster.MusterShortfall)
def _muster_shortfall(event: muster.MusterShortfall, state: GameState, ruleset: Ruleset) -> str:
    lost = kind_counts(ruleset, event.kind_ids)
    return (
        f"Warning: no province can take {lost} on the board as it stands; unless placed, "
        "they are lost without refund when step 8 ends (R-MUSTER-01)."
        + _reasons_text(ruleset, event.reasons)
    )


def _reasons_text(ruleset: Ruleset, reasons: Sequence[tuple[str, str]]) -> str:
    return "".join(f" {kind_name(ruleset, k)}: {why}." for k, why in reasons)


@line_of(redeem.SetsRedeemed)
def _sets_redeemed(event: redeem.SetsRedeemed, state: GameState, ruleset: Ruleset) -> str:
    sets = "; ".join(", ".join(c.title() for c in group) for group in event.sets)
    many = "set" if len(event.sets) == 1 else "sets"
    return (
        f"Redeemed {len(event.sets)} {many} ({sets}) for {event.rp_gained} RP. "
        f"{event.rp} RP now (R-COMM-10)."
    )


@line_of(redeem.IronRedeemed)
def _iron_redeemed(event: redeem.IronRedeemed, state: GameState, ruleset: Ruleset) -> str:
    return f"Redeemed {event.count} Iron for {event.rp_gained} RP. {event.rp} RP now (R-COMM-05)."


@line_of(redeem.SaltRedeemed)
def _salt_redeemed(event: redeem.SaltRedeemed, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"Redeemed {event.count} Salt: {event.salt_credit} RP off this turn's upkeep (R-COMM-07)."
    )


@line_of(redeem.CommoditiesEarmarked)
def _commodities_earmarked(
    event: redeem.CommoditiesEarmarked, state: GameState, ruleset: Ruleset
) -> str:
    return (
        f"Earmarked {event.count} {event.commodity.title()} for discounts this turn; "
        f"earmarked now: {commodities_text(event.earmarks)} (R-COMM-02)."
    )


@line_of(redeem.EarmarksReturned)
def _earmarks_returned(event: redeem.EarmarksReturned, state: GameState, ruleset: Ruleset) -> str:
    returned = commodities_text(event.commodities)
    return f"Unused earmarks went back to stock: {returned} (R-COMM-02)."


# --------------------------------------------------------------------------- trade
def _terms(
    ruleset: Ruleset, event: trade.TradeProposed | trade.TradeExecuted | trade.TradeAnnounced
) -> str:
    """:func:`~caedes_bot.ui.describe.offer_text` of a trade event's contents (absent contents
    count as nothing)."""
    return offer_text(
        ruleset,
        event.proposer,
        event.counterparty,
        event.give_rp or 0,
        event.give_commodities or {},
        event.receive_rp or 0,
        event.receive_commodities or {},
    )


@line_of(trade.TradeProposed)
def _trade_proposed(event: trade.TradeProposed, state: GameState, ruleset: Ruleset) -> str:
    return f"Trade offer #{event.trade_id}: {_terms(ruleset, event)}."


@line_of(trade.TradeExecuted)
def _trade_executed(event: trade.TradeExecuted, state: GameState, ruleset: Ruleset) -> str:
    return f"Trade #{event.trade_id} done: {_terms(ruleset, event)} (R-TRADE-02)."


@line_of(trade.TradeDeclined)
def _trade_declined(event: trade.TradeDeclined, state: GameState, ruleset: Ruleset) -> str:
    who = faction_name(ruleset, event.counterparty)
    return f"Trade offer #{event.trade_id} was declined by {who}."


@line_of(trade.TradeWithdrawn)
def _trade_withdrawn(event: trade.TradeWithdrawn, state: GameState, ruleset: Ruleset) -> str:
    who = faction_name(ruleset, event.proposer)
    return f"Trade offer #{event.trade_id} was withdrawn by {who}."


@line_of(trade.TradeLapsed)
def _trade_lapsed(event: trade.TradeLapsed, state: GameState, ruleset: Ruleset) -> str:
    return f"Trade offer #{event.trade_id} lapsed unanswered when step 1 ended (R-TRADE-02)."


@line_of(trade.TradeAnnounced)
def _trade_announced(event: trade.TradeAnnounced, state: GameState, ruleset: Ruleset) -> str:
    a, b = faction_name(ruleset, event.proposer), faction_name(ruleset, event.counterparty)
    if event.give_rp is None and event.give_commodities is None:
        return f"{a} and {b} traded."
    return f"{a} and {b} traded: {_terms(ruleset, event)}."
