"""Words for the game: names, labels, and one line per event (ux.md "Every order gets an answer").

Everything here is a pure function of the static :class:`~caedes_bot.gamedata.model.Ruleset`,
a :class:`~caedes_bot.rules.state.GameState` and events: no discord, no I/O. The announcer
(:mod:`caedes_bot.ui.announcer`), the embeds (:mod:`caedes_bot.ui.embeds`) and the cogs' replies
all take their sentences from here, so a unit or a province reads the same everywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields

from caedes_bot.gamedata.model import Attribute, Ruleset, UnitKind
from caedes_bot.rules import (
    buy,
    collect,
    mercenary,
    movement,
    muster,
    ownership,
    redeem,
    trade,
    turn,
    umpire,
    upkeep,
    victory,
)
from caedes_bot.rules.combat import events as combat_events
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState

#: What each attribute does, in one sentence, with the rule that says so (``/unit``).
ATTRIBUTE_TEXT: Mapping[Attribute, tuple[str, str]] = {
    Attribute.AMPHIBIAN: (
        "R-ATTR-AMPH-01",
        "may cross one sea zone into a province beside it instead of its normal move, and "
        "ignores the entire-movement cost of rivers and swamps",
    ),
    Attribute.BLITZ: (
        "R-ATTR-BLITZ-02",
        "after a battle its side won as attacker it may go on moving with the movement it has left",
    ),
    Attribute.BREATHWEAPON: (
        "R-ATTR-BREATH-01",
        "may roll three breath dice instead of its own: each 1-4 hits the enemy, each 10 hits "
        "its own side",
    ),
    Attribute.ELITE: ("R-ATTR-ELITE-01", "attacks at +1"),
    Attribute.FEAR: ("R-ATTR-FEAR-01", "in the first round of a battle enemy dice hit on 1 less"),
    Attribute.FLYING: (
        "R-ATTR-FLY-01",
        "may fly up to 4 spaces instead of its normal move, over units, terrain and sea",
    ),
    Attribute.FORTIFICATION: (
        "R-ATTR-FORT-01",
        "never moves or attacks; defends where it stands, one per province",
    ),
    Attribute.FORTITUDE: (
        "R-ATTR-FORTI-01",
        "takes two hits to destroy; the first wounds it, and wounded units are lost when the "
        "battle ends",
    ),
    Attribute.HERO: ("R-ATTR-HERO-01", "comes from the scenario; it is never bought"),
    Attribute.INSPIRING: (
        "R-ATTR-INSP-01",
        "in the first round of a battle its own side's dice hit on 1 more",
    ),
    Attribute.MEEK: ("R-ATTR-MEEK-01", "defends at -1"),
    Attribute.MERCENARY: (
        "R-ATTR-MERC-01",
        "deserts when its faction's mercenaries outnumber its other units in a space or a "
        "battle side",
    ),
    Attribute.MIGHTY: ("R-ATTR-MIGHTY-01", "rolls two dice instead of one"),
    Attribute.MISSILE: (
        "R-ATTR-MISS-01",
        "shoots in the missile step, before melee, and not in the melee step",
    ),
    Attribute.MOUNTAINLORE: (
        "R-ATTR-MTN-01",
        "defends at +1 in mountains; as cavalry it may enter mountains",
    ),
    Attribute.PREDATOR: (
        "R-ATTR-PRED-01",
        "while it attacks, defending cavalry without Predator defends at -1",
    ),
    Attribute.QUICK: ("R-ATTR-QUICK-01", "moves one space further"),
    Attribute.SLOW: ("R-ATTR-SLOW-01", "moves one space less, never below one"),
    Attribute.SWAMPLORE: ("R-ATTR-SWAMP-01", "defends at +1 in swamp"),
    Attribute.UNDEAD: (
        "R-ATTR-UNDEAD-01",
        "pays no upkeep, ignores Fear, Inspiring and Predator, and is lost with its faction's "
        "last Necromancer",
    ),
    Attribute.VETERAN: ("R-ATTR-VET-01", "defends at +1"),
    Attribute.WATERCRAFT: (
        "R-ATTR-WATER-01",
        "moves on sea zones and navigable rivers only and carries land units",
    ),
    Attribute.WEAK: ("R-ATTR-WEAK-01", "attacks at -1"),
    Attribute.WOODLORE: (
        "R-ATTR-WOOD-01",
        "defends at +1 in forest; as cavalry it enters forest at no extra cost, and it may "
        "shoot there",
    ),
    Attribute.ABJURER: (
        "R-MAGIC-ABJ-01",
        "instead of rolling, may cancel the first hit its side assigns to it in a round",
    ),
    Attribute.DIVINER: (
        "R-MAGIC-DIV-01",
        "instead of moving, may divine extra commodities from a province of its faction",
    ),
    Attribute.ENCHANTER: (
        "R-MAGIC-ENCH-01",
        "instead of rolling, may try to turn an enemy unit to its side (4 or less)",
    ),
    Attribute.ILLUSIONIST: (
        "R-MAGIC-ILL-01",
        "once a round may force up to three enemy hits on its side to be rolled again",
    ),
    Attribute.INVOKER: (
        "R-MAGIC-INV-01",
        "instead of rolling, may roll five dice that each hit on 2 or less",
    ),
    Attribute.NECROMANCER: (
        "R-MAGIC-NEC-01",
        "lets its faction muster Undead where it stands; its loss destroys them",
    ),
    Attribute.SUMMONER: (
        "R-MAGIC-SUMM-01",
        "lets its faction buy and place Summoned units where it stands, at any time",
    ),
    Attribute.TELEPORTATION: (
        "R-MAGIC-TELE-01",
        "instead of moving, may take itself and up to 1d10 companions to an empty province",
    ),
}

# --------------------------------------------------------------------------- names


def faction_name(ruleset: Ruleset, code: str) -> str:
    """``"🌅 Dawnians (DAW)"``: emoji, name and code, so colour is never the only cue; an
    unknown code is returned as it is."""
    try:
        faction = ruleset.faction(code)
    except KeyError:
        return code
    return f"{faction.emoji} {faction.name} ({faction.code})".strip()


def faction_adjective(ruleset: Ruleset, code: str | None) -> str:
    """``"Dawnian"``; ``"unowned"`` for ``None``."""
    if code is None:
        return "unowned"
    try:
        return ruleset.faction(code).adjective
    except KeyError:
        return code


def kind_name(ruleset: Ruleset, kind_id: str) -> str:
    """The display name of a unit kind (``"Dawnian Knights"``), or the id if unknown."""
    try:
        return ruleset.kind(kind_id).display_name
    except KeyError:
        return kind_id


def kind_counts(ruleset: Ruleset, kind_ids: Iterable[str]) -> str:
    """``"2 Dawnian Infantry, 1 Dawnian Knights"`` in first-seen order; ``"nothing"`` if empty."""
    counts = Counter(kind_ids)
    if not counts:
        return "nothing"
    return ", ".join(f"{n} {kind_name(ruleset, k)}" for k, n in counts.items())


def space_name(ruleset: Ruleset, space: str) -> str:
    return ruleset.map.space_name(space)


def commodities_text(stock: Mapping[str, int]) -> str:
    """``"2 Grain, 1 Iron"`` (sorted), ``"none"`` if empty."""
    items = [(c, n) for c, n in sorted(stock.items()) if n]
    if not items:
        return "none"
    return ", ".join(f"{n} {c.title()}" for c, n in items)


def kind_stats(kind: UnitKind) -> str:
    """``"A5 D4 M2"``: attack and defense values after attribute modifiers (R-GEN-03) and the
    movement allowance; ``-`` for what a kind never does (a Tower's attack and move)."""
    from caedes_bot.gamedata.model import movement_allowance
    from caedes_bot.rules.combat.arithmetic import attack_value, defense_value

    attack = attack_value(kind)
    move = movement_allowance(kind)
    a = "-" if attack is None else str(attack)
    m = "-" if kind.move is None else str(move)
    return f"A{a} D{defense_value(kind, None)} M{m}"


def province_label(state: GameState, ruleset: Ruleset, province_id: str) -> str:
    """``"Orme (plains, river) - Dawnian - 3 units"``: enough to choose a province from the label
    alone (ux.md "Autocomplete that knows the game"). ``river`` when a river runs along one of
    its borders (R-MOVE-11)."""
    game_map = ruleset.map
    province = game_map.provinces.get(province_id)
    if province is None:
        return game_map.space_name(province_id)
    terrain = [t.value for t in province.terrains]
    if game_map.river_edges_of(province_id):
        terrain.append("river")
    owner = faction_adjective(ruleset, state.owner(province_id))
    units = len(state.units_at(province_id))
    unit_text = "empty" if units == 0 else f"{units} unit{'s' if units != 1 else ''}"
    return f"{province.name} ({', '.join(terrain)}) - {owner} - {unit_text}"


# --------------------------------------------------------------------------- events


def _units_text(ruleset: Ruleset, units: Sequence[tuple[int, str, str]] | Sequence[str]) -> str:
    kinds = [u[1] if isinstance(u, tuple) else u for u in units]
    return kind_counts(ruleset, kinds)


def _words(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i:
            out.append(" ")
        out.append(ch.lower())
    return "".join(out)


def generic_text(event: Event) -> str:
    """A readable line for an event without its own wording: its name and fields."""
    parts = []
    for f in fields(event):
        value = getattr(event, f.name)
        if value in (None, (), [], {}, ""):
            continue
        parts.append(f"{f.name.replace('_', ' ')} {value}")
    head = _words(type(event).__name__)
    head = head[:1].upper() + head[1:]
    return head + (": " + "; ".join(parts) if parts else "")


def event_line(event: Event, state: GameState, ruleset: Ruleset) -> str | None:
    """One line telling what ``event`` did, for its audience; ``None`` for events that need no
    line of their own (step bookkeeping, battle detail shown on the battle message)."""

    def f(code: str) -> str:
        return faction_name(ruleset, code)

    def sp(space: str) -> str:
        return space_name(ruleset, space)

    if isinstance(event, turn.GameRoundBegan):
        return f"**Game round {event.round} begins.**"
    if isinstance(event, turn.TurnBegan):
        return f"{f(event.faction)} begins its turn (game round {event.round})."
    if isinstance(event, turn.TurnEnded):
        return f"{f(event.faction)} ends its turn."
    if isinstance(event, turn.StepBegan):
        return None
    if isinstance(event, turn.StepEnded):
        if event.by_umpire:
            return f"The umpire ended step {event.step.label} of {f(event.faction)}."
        return None
    if isinstance(event, movement.UnitsMoved):
        kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
        what = kind_counts(ruleset, kinds) if kinds else f"{len(event.unit_ids)} units"
        line = f"{f(event.faction)} moved {what} from {sp(event.origin)} to {sp(event.destination)}"
        if len(event.path) > 1:
            line += " by " + ", ".join(sp(p) for p in event.path[:-1])
        return line + (": **an attack**." if event.attack else ".")
    if isinstance(event, ownership.ProvinceCaptured):
        was = f" from {f(event.previous_owner)}" if event.previous_owner else ""
        return f"**{f(event.faction)} takes {sp(event.province)}**{was}."
    if isinstance(event, muster.UnitsMustered):
        how = " (placed by the bot)" if event.by_bot else ""
        where = ", ".join(Counter(sp(u[2]) for u in event.units))
        return f"{f(event.faction)} mustered {_units_text(ruleset, event.units)} in {where}{how}."
    if isinstance(event, upkeep.UnitsDisbanded):
        return (
            f"{f(event.faction)} lost {_units_text(ruleset, event.units)}: {event.reason} "
            f"({event.rule})."
        )
    if isinstance(event, mercenary.MercenariesDeserted):
        units = [k for _, k in event.units]
        return (
            f"{kind_counts(ruleset, units)} of {f(event.faction)} deserted at "
            f"{sp(event.space)} (R-ATTR-MERC-01)."
        )
    if isinstance(event, victory.FactionEliminated):
        return f"**{f(event.faction)} is eliminated** (R-VIC-05)."
    if isinstance(event, victory.CampaignEnded):
        winners = ", ".join(f(w) for w in event.winners) or "nobody"
        reason = event.reason.replace("_", " ")
        return f"**The campaign is over** ({reason}). Winner: {winners}."
    if isinstance(event, combat_events.BattlesDue):
        places = ", ".join(sp(s) for s in event.spaces)
        return f"{f(event.faction)} must fight at {places}."
    if isinstance(event, turn.TurnForfeited):
        return (
            f"{f(event.faction)} missed its turn deadline at step {event.step.label}: the bot "
            "plays the rest of its turn passively (R-PBP-DEAD-03)."
        )
    if isinstance(event, turn.DecisionDefaulted):
        what = event.kind.replace("_", " ")
        return f"The {what} decision of {f(event.faction)} was answered by default (R-PBP-DEAD-04)."
    if isinstance(event, collect.IncomeCollected):
        goods = ", ".join(f"{n} {c.title()}" for c, n in event.commodities)
        text = f"Collected {event.rp_gained} RP" + (f" and {goods}" if goods else "")
        if event.provinces:
            text += " from " + ", ".join(sp(p) for p in event.provinces)
        text += f". {event.rp_after} RP now."
        if event.withheld:
            paid = "; ".join(f"{sp(p)} ({why})" for p, why in event.withheld)
            text += f" Paid nothing: {paid} (R-COLL-04)."
        return text
    if isinstance(event, upkeep.UpkeepDue):
        salt = f", less {event.salt_used} Salt" if event.salt_used else ""
        text = (
            f"Upkeep due: {event.units_counted} units cost {event.upkeep} RP{salt}: a bill of "
            f"{event.bill} RP; you hold {event.rp} RP (R-UPK-01)."
        )
        if event.must_disband:
            text += (
                f" You must disband at least {event.must_disband} of them before paying (R-UPK-03)."
            )
        return text
    if isinstance(event, upkeep.UpkeepPaid):
        salt = f", less {event.salt_used} Salt" if event.salt_used else ""
        return (
            f"Upkeep: {event.units_counted} units cost {event.upkeep} RP{salt}; paid "
            f"{event.bill} RP. {event.rp_after} RP left (R-UPK-01)."
        )
    if isinstance(event, buy.UnitsBought):
        text = f"Bought {event.count} {event.name} for {event.total} RP. {event.rp_after} RP left."
        if event.warning:
            text += f" Warning: {event.warning}"
        return text
    if isinstance(event, buy.PurchaseCancelled):
        return (
            f"Cancelled {event.count} {kind_name(ruleset, event.kind_id)}: {event.refund} RP "
            f"back. {event.rp_after} RP now."
        )
    if isinstance(event, buy.RPForfeited):
        return f"{event.rp} unspent RP were lost at the end of step 5 (R-BUY-02)."
    if isinstance(event, muster.PurchaseLost):
        lost = kind_counts(ruleset, event.kind_ids)
        return f"Lost without refund, with nowhere to muster: {lost} (R-MUSTER-01)."
    if isinstance(event, umpire.UmpireOverride):
        if event.what == "owner":
            owner = f(event.detail) if event.detail else "nobody"
            return f"The umpire gave {sp(event.target)} to {owner} (R-PBP-UMP-01)."
        item = "RP" if event.what == "rp" else f"{event.detail.title()} stock"
        return f"The umpire changed the {item} of {f(event.target)} (R-PBP-UMP-01)."
    if isinstance(event, umpire.TreasuryOverridden):
        item = "RP" if event.item == "rp" else event.item.title()
        return f"The umpire set your {item} from {event.before} to {event.after} (R-PBP-UMP-01)."
    trade_line = _trade_line(event, ruleset)
    if trade_line is not None:
        return trade_line
    if isinstance(event, redeem.SetsRedeemed):
        sets = "; ".join(", ".join(c.title() for c in group) for group in event.sets)
        many = "set" if len(event.sets) == 1 else "sets"
        return f"Redeemed {len(event.sets)} {many} ({sets}) for {event.rp_gained} RP. {event.rp} RP now (R-COMM-10)."
    if isinstance(event, redeem.IronRedeemed):
        return (
            f"Redeemed {event.count} Iron for {event.rp_gained} RP. {event.rp} RP now (R-COMM-05)."
        )
    if isinstance(event, redeem.SaltRedeemed):
        return f"Redeemed {event.count} Salt: {event.salt_credit} RP off this turn's upkeep (R-COMM-07)."
    if isinstance(event, redeem.CommoditiesEarmarked):
        return (
            f"Earmarked {event.count} {event.commodity.title()} for discounts this turn; "
            f"earmarked now: {commodities_text(event.earmarks)} (R-COMM-02)."
        )
    if isinstance(event, redeem.EarmarksReturned):
        return f"Unused earmarks went back to stock: {commodities_text(event.commodities)} (R-COMM-02)."
    if isinstance(event, BATTLE_DETAIL):
        return None  # shown on the battle message (R-COMBAT-16)
    return generic_text(event)


#: The longest a turn summary may be: one line of an ``#announcements`` post (ux.md).
SUMMARY_LIMIT = 700


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def turn_summary(
    faction: str,
    events: Sequence[Event],
    state: GameState,
    ruleset: Ruleset,
    *,
    whole_turn: bool = True,
) -> str:
    """The ``#announcements`` line for the end of ``faction``'s turn (ux.md "Channels").

    It tells what anyone may see (R-GEN-07: the board is public): provinces taken, units
    mustered, units lost (disbanded, deserted, or destroyed while attacking). Only when the
    campaign option ``public_treasuries`` is on (R-GEN-07) does it add the turn's income (RP and
    commodities), upkeep paid, purchases (less cancellations) and the RP left in ``state``;
    otherwise it holds none of those figures.

    Args:
        faction: the faction code whose turn ended.
        events: the events of this one turn as far as known, in order; only this faction's
            count, and battle casualties on the attacking side (in its turn it attacks,
            R-COMBAT-01).
        state: the state after the turn, for the RP left.
        ruleset: names of factions, provinces and unit kinds.
        whole_turn: ``events`` go back to the start of the turn; when ``False`` the income,
            upkeep and purchase figures are unknown and left out (only the RP left is told).

    Returns:
        One line of at most :data:`SUMMARY_LIMIT` characters.
    """
    from caedes_bot.ui.text import truncate

    taken: list[str] = []
    mustered: list[str] = []
    lost = 0
    income_rp = 0
    income_goods: Counter[str] = Counter()
    upkeep_rp = 0
    paid_upkeep = False
    bought: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    for event in events:
        if isinstance(event, combat_events.CasualtiesRemoved):
            lost += len(event.attacker_destroyed)  # its turn: it attacks (R-COMBAT-01)
            continue
        if getattr(event, "faction", None) != faction:
            continue
        if isinstance(event, ownership.ProvinceCaptured):
            taken.append(space_name(ruleset, event.province))
        elif isinstance(event, muster.UnitsMustered):
            mustered += [kind for _, kind, _ in event.units]
        elif isinstance(event, upkeep.UnitsDisbanded | mercenary.MercenariesDeserted):
            lost += len(event.units)
        elif isinstance(event, collect.IncomeCollected):
            income_rp += event.rp_gained
            income_goods.update(dict(event.commodities))
        elif isinstance(event, upkeep.UpkeepPaid):
            upkeep_rp += event.bill
            paid_upkeep = True
        elif isinstance(event, buy.UnitsBought):
            bought[event.kind_id] += event.count
            spent[event.kind_id] += event.total
        elif isinstance(event, buy.PurchaseCancelled):
            bought[event.kind_id] -= event.count
            spent[event.kind_id] -= event.refund
    seen = []
    if taken:
        seen.append("took " + ", ".join(taken))
    if mustered:
        seen.append("mustered " + kind_counts(ruleset, mustered))
    if lost:
        seen.append("lost " + _plural(lost, "unit"))
    text = f"{faction_name(ruleset, faction)} ends its turn"
    text += (": " + "; ".join(seen) + ".") if seen else "."
    if state.options.public_treasuries:
        treasury = []
        if whole_turn:
            goods = commodities_text(income_goods)
            treasury.append(f"income {income_rp} RP" + (f" and {goods}" if goods != "none" else ""))
            if paid_upkeep:
                treasury.append(f"upkeep paid {upkeep_rp} RP")
            purchases = [
                f"{n} {kind_name(ruleset, k)} for {spent[k]} RP" for k, n in bought.items() if n > 0
            ]
            treasury.append("bought " + (", ".join(purchases) if purchases else "nothing"))
        holdings = state.factions.get(faction)
        if holdings is not None:
            treasury.append(f"{holdings.rp} RP left")
        text += " Treasury (public, R-GEN-07): " + "; ".join(treasury) + "."
    return truncate(text, SUMMARY_LIMIT)


#: Battle events (each names its battle): shown on the battle message rather than as lines of
#: their own, and grouped by battle by the announcer.
BATTLE_DETAIL = (
    combat_events.BattleBegan,
    combat_events.BattleStepResolved,
    combat_events.CasualtiesOwed,
    combat_events.CasualtiesRemoved,
    combat_events.BattleRoundEnded,
    combat_events.WithdrawalOffered,
    combat_events.AttackerWithdrew,
    combat_events.BattleEnded,
)


def bundle_text(rp: int | None, commodities: Mapping[str, int] | None) -> str:
    """``"3 RP and 1 Grain"``; ``"nothing"`` if empty."""
    parts = []
    if rp:
        parts.append(f"{rp} RP")
    if commodities:
        parts += [f"{n} {c.title()}" for c, n in sorted(commodities.items()) if n]
    return " and ".join(parts) if parts else "nothing"


def offer_text(
    ruleset: Ruleset,
    proposer: str,
    counterparty: str,
    give_rp: int,
    give: Mapping[str, int],
    receive_rp: int,
    receive: Mapping[str, int],
) -> str:
    """``"🌅 Dawnians (DAW) give 3 RP; 👹 Orcs (ORC) give 1 Iron"`` (R-TRADE-01)."""
    return (
        f"{faction_name(ruleset, proposer)} give {bundle_text(give_rp, give)}; "
        f"{faction_name(ruleset, counterparty)} give {bundle_text(receive_rp, receive)}"
    )


def _terms(
    ruleset: Ruleset, event: trade.TradeProposed | trade.TradeExecuted | trade.TradeAnnounced
) -> str:
    """:func:`offer_text` of a trade event's contents (absent contents count as nothing)."""
    return offer_text(
        ruleset,
        event.proposer,
        event.counterparty,
        event.give_rp or 0,
        event.give_commodities or {},
        event.receive_rp or 0,
        event.receive_commodities or {},
    )


def _trade_line(event: Event, ruleset: Ruleset) -> str | None:
    """The line of a trade event (R-TRADE-01, R-TRADE-02), or ``None`` for other events."""
    if isinstance(event, trade.TradeProposed):
        return f"Trade offer #{event.trade_id}: {_terms(ruleset, event)}."
    if isinstance(event, trade.TradeExecuted):
        return f"Trade #{event.trade_id} done: {_terms(ruleset, event)} (R-TRADE-02)."
    if isinstance(event, trade.TradeDeclined):
        who = faction_name(ruleset, event.counterparty)
        return f"Trade offer #{event.trade_id} was declined by {who}."
    if isinstance(event, trade.TradeWithdrawn):
        who = faction_name(ruleset, event.proposer)
        return f"Trade offer #{event.trade_id} was withdrawn by {who}."
    if isinstance(event, trade.TradeLapsed):
        return f"Trade offer #{event.trade_id} lapsed unanswered when step 1 ended (R-TRADE-02)."
    if isinstance(event, trade.TradeAnnounced):
        a, b = faction_name(ruleset, event.proposer), faction_name(ruleset, event.counterparty)
        if event.give_rp is None and event.give_commodities is None:
            return f"{a} and {b} traded."
        return f"{a} and {b} traded: {_terms(ruleset, event)}."
    return None
