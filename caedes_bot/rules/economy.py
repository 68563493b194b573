"""Collect (step 3), Upkeep (step 4) and Buy (step 5) (R-COLL, R-UPK, R-BUY).

* :func:`collect` pays the active faction the RP and commodities of the provinces it has held
  without a break (R-COLL-04..07); :func:`refresh_income_basis` keeps that record true after
  every order, and :func:`end_of_turn` / :func:`begin_turn_holdings` renew it.
* :func:`pay_upkeep` charges ceil(N/6) RP for the faction's non-Undead units, less Salt, and
  disbands the fewest units needed when RP fall short (R-UPK-01..05, R-ATTR-UNDEAD-02).
* ``BuyUnits`` / ``CancelPurchase`` buy units of the faction's own order of battle in step 5
  (R-BUY-01..04, R-ATTR-HERO-01), less earmarked commodity discounts (R-COMM-03..09,
  :mod:`caedes_bot.rules.redeem`).
"""

from __future__ import annotations

import difflib
import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.gamedata.model import Attribute, BaseType, Race, Ruleset, UnitKind
from caedes_bot.rules import redeem
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import NotBuiltYet, NotEnoughRP, RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.muster import legal_muster_provinces
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Unit

# --------------------------------------------------------------------------- collect


@dataclass(frozen=True, slots=True)
class IncomeCollected(Event):
    """``faction`` collected in step 3 (R-COLL-04..07).

    ``provinces`` paid; ``withheld`` lists owned provinces that paid nothing, as
    ``(province id, reason)``; ``commodities`` are ``(commodity, count)`` pairs gained.
    """

    private: ClassVar[bool] = True
    faction: str
    round: int
    rp_gained: int
    rp_before: int
    rp_after: int
    commodities: tuple[tuple[str, int], ...]
    provinces: tuple[str, ...]
    withheld: tuple[tuple[str, str], ...]


def _garrisoned(state: GameState, faction: str, province: str) -> bool:
    """A unit of ``faction`` stands in ``province`` (or the garrison rule is off) (R-COLL-04)."""
    if not state.options.income_requires_garrison:
        return True
    return any(u.owner == faction and u.location == province for u in state.units.values())


def _held_now(state: GameState, faction: str) -> list[str]:
    """Provinces ``faction`` owns now, with a garrison where the option asks for one."""
    return sorted(
        p
        for p, owner in state.owners.items()
        if owner == faction and _garrisoned(state, faction, p)
    )


def _hostile_present(state: GameState, province: str, owner: str) -> bool:
    """Units of a faction that is not the owner's pact partner stand in ``province`` (R-COLL-06)."""
    return any(
        u.location == province and not state.are_partners(u.owner, owner)
        for u in state.units.values()
    )


def collectible_provinces(
    state: GameState, faction: str
) -> tuple[list[str], list[tuple[str, str]]]:
    """Which owned provinces pay ``faction`` if it collects now (R-COLL-04, R-COLL-06).

    Under ``income_hold_rule`` ``since_last_turn`` (default) and ``full_round`` a province pays
    if it is in ``income_basis`` (kept by :func:`refresh_income_basis`); in the faction's first
    turn every owned province pays (R-TURN-06). Under ``at_collection`` every owned province
    pays. With ``income_requires_garrison`` (default) a unit of the faction must stand in it.
    A province holding units hostile to its owner pays nothing (R-COLL-06).

    Returns:
        ``(paying province ids, [(withheld province id, reason)])``, both sorted by id.
    """
    fs = state.factions[faction]
    held_now = set(_held_now(state, faction))
    first_turn = fs.turns_taken <= 1
    if state.options.income_hold_rule == "at_collection" or first_turn:
        basis = held_now
    else:
        basis = held_now & set(fs.income_basis)
    paying: list[str] = []
    withheld: list[tuple[str, str]] = []
    for province in sorted(p for p, owner in state.owners.items() if owner == faction):
        if province not in held_now:
            withheld.append((province, "no unit of yours there"))
        elif province not in basis:
            withheld.append((province, "not held without a break since your last turn"))
        elif _hostile_present(state, province, faction):
            withheld.append((province, "hostile units there"))
        else:
            paying.append(province)
    return paying, withheld


def collect(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """Step 3: add the RP and commodities of every paying province to ``faction``'s stock
    (R-COLL-04..07; several commodities per province, repeats counting, R-COLL-07).

    Mutates ``state``; returns ``[IncomeCollected]``.
    """
    paying, withheld = collectible_provinces(state, faction)
    fs = state.factions[faction]
    before = fs.rp
    gained: Counter[str] = Counter()
    for province_id in paying:
        province = ruleset.map.provinces[province_id]
        fs.rp += province.rp
        gained.update(str(c) for c in province.commodities)
    for commodity, count in gained.items():
        fs.commodities[commodity] = fs.commodities.get(commodity, 0) + count
    return [
        IncomeCollected(
            faction,
            state.round,
            fs.rp - before,
            before,
            fs.rp,
            tuple(sorted(gained.items())),
            tuple(paying),
            tuple(withheld),
        )
    ]


def refresh_income_basis(state: GameState) -> None:
    """Drop from every faction's income record the provinces it no longer owns or (with
    ``income_requires_garrison``) no longer has a unit in, so that "without a break" holds
    across every order (R-COLL-04). The engine calls this after every order."""
    for code, fs in state.factions.items():
        if fs.income_basis:
            fs.income_basis = [p for p in fs.income_basis if _still_held(state, code, p)]
        if fs.held_since_turn_start:
            fs.held_since_turn_start = [
                p for p in fs.held_since_turn_start if _still_held(state, code, p)
            ]


def _still_held(state: GameState, faction: str, province: str) -> bool:
    return state.owners.get(province) == faction and _garrisoned(state, faction, province)


def begin_turn_holdings(state: GameState, faction: str) -> None:
    """At the start of ``faction``'s turn, note what it holds (for ``full_round``, R-COLL-04)."""
    state.factions[faction].held_since_turn_start = _held_now(state, faction)


def end_of_turn(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """End-of-turn bookkeeping for ``faction``: record the provinces it holds now as its
    income basis for next turn (R-COLL-04; under ``full_round`` only those held since the start
    of this turn). Purchases never outlive step 8 (R-MUSTER-01).
    """
    fs = state.factions[faction]
    if state.options.income_hold_rule == "full_round":
        fs.income_basis = sorted(fs.held_since_turn_start)
    else:
        fs.income_basis = _held_now(state, faction)
    fs.purchases.clear()
    fs.purchase_prices.clear()
    return redeem.return_earmarks(state, faction)  # R-COMM-02, R-COMM-07


# --------------------------------------------------------------------------- upkeep


@dataclass(frozen=True, slots=True)
class UpkeepPaid(Event):
    """``faction`` paid ``bill`` RP in step 4 (R-UPK-01): ceil(``units_counted``/6) = ``upkeep``,
    less ``salt_used`` (R-COMM-07). ``units_counted`` is after any disbanding."""

    private: ClassVar[bool] = True
    faction: str
    round: int
    units_counted: int
    upkeep: int
    salt_used: int
    bill: int
    rp_before: int
    rp_after: int


@dataclass(frozen=True, slots=True)
class UnitsDisbanded(Event):
    """Units of ``faction`` were removed from the board under ``rule``; ``units`` are
    ``(unit id, kind id, space)``. Public: the board is public (R-GEN-07)."""

    faction: str
    units: tuple[tuple[int, str, str], ...]
    rule: str
    reason: str


def upkeep_units(state: GameState, ruleset: Ruleset, faction: str) -> list[Unit]:
    """The units of ``faction`` that count for upkeep (R-UPK-01): every unit on the board,
    aboard ships included, except Undead (R-ATTR-UNDEAD-02) and unit types listed in the option
    ``upkeep_exempt_types``. Units bought but not mustered are not on the board (R-UPK-05)."""
    exempt = set(state.options.upkeep_exempt_types)
    counted = []
    for unit in state.units_of(faction):
        kind = ruleset.kind(unit.kind)
        if kind.has(Attribute.UNDEAD) or str(kind.base_type) in exempt:
            continue
        counted.append(unit)
    return counted


def upkeep_for(count: int) -> int:
    """ceil(``count`` / 6) RP (R-UPK-01)."""
    return math.ceil(count / 6)


def disband_order(units: list[Unit], ruleset: Ruleset) -> list[Unit]:
    """``units`` in the default disbanding order of R-UPK-03: cheapest list cost first; ties
    go most recently mustered first (highest ``muster_seq``); Heroes last."""

    def key(unit: Unit) -> tuple[bool, int, int]:
        kind = ruleset.kind(unit.kind)
        return (kind.hero, kind.cost or 0, -unit.muster_seq)

    return sorted(units, key=key)


def lose_dependants(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """The moment ``faction`` has no Necromancer on the board its Undead are destroyed
    (R-ATTR-UNDEAD-03); with no Summoner, its Summoned units (R-MAGIC-SUMM-03) (R-UPK-04).
    Mutates ``state``; returns one :class:`UnitsDisbanded` per kind of loss."""
    events: list[Event] = []
    checks = (
        (Attribute.NECROMANCER, Race.UNDEAD, "R-ATTR-UNDEAD-03", "no Necromancer left"),
        (Attribute.SUMMONER, Race.SUMMONED, "R-MAGIC-SUMM-03", "no Summoner left"),
    )
    for master, race, rule, reason in checks:
        units = state.units_of(faction)
        if any(ruleset.kind(u.kind).has(master) for u in units):
            continue
        lost = [u for u in units if ruleset.kind(u.kind).race is race]
        if not lost:
            continue
        for unit in lost:
            del state.units[str(unit.id)]
        events.append(
            UnitsDisbanded(faction, tuple((u.id, u.kind, u.location) for u in lost), rule, reason)
        )
    return events


def pay_upkeep(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """Step 4: pay ceil(N/6) RP less Salt credit (R-UPK-01, R-COMM-07).

    If RP cannot cover the bill, the fewest units that make it payable are disbanded in the
    default order of :func:`disband_order`, then the bill is paid in full (R-UPK-03); RP never
    go below 0. A disbanded ship takes its cargo with it (R-MOVE-19). Salt credit is used up.

    Mutates ``state``; returns ``[UnitsDisbanded]`` (if any) then ``[UpkeepPaid]``.
    """
    fs = state.factions[faction]
    counted = upkeep_units(state, ruleset, faction)
    salt = max(0, fs.salt_credit)

    def bill_for(n: int) -> int:
        return max(0, upkeep_for(n) - salt)

    events: list[Event] = []
    gone: list[Unit] = []
    if bill_for(len(counted)) > fs.rp:
        candidates = disband_order(counted, ruleset)
        remaining = {u.id for u in counted}
        for unit in candidates:
            if bill_for(len(remaining)) <= fs.rp:
                break
            if unit.id not in remaining:
                continue  # already gone as cargo of a disbanded ship
            gone_ids = {u.id for u in gone}
            cargo = [
                u for u in state.units.values() if u.aboard == unit.id and u.id not in gone_ids
            ]
            for lost in [unit, *cargo]:
                remaining.discard(lost.id)
                gone.append(lost)
        for unit in gone:
            state.units.pop(str(unit.id), None)
        events.append(
            UnitsDisbanded(
                faction,
                tuple((u.id, u.kind, u.location) for u in gone),
                rule="R-UPK-03",
                reason="upkeep could not be paid",
            )
        )
        counted = [u for u in counted if u.id in remaining]
        events += lose_dependants(state, ruleset, faction)
    upkeep = upkeep_for(len(counted))
    bill = bill_for(len(counted))
    before = fs.rp
    fs.rp -= bill
    fs.salt_credit = 0
    events.append(
        UpkeepPaid(
            faction,
            state.round,
            len(counted),
            upkeep,
            min(salt, upkeep),
            bill,
            before,
            fs.rp,
        )
    )
    return events


# --------------------------------------------------------------------------- buy


@dataclass(frozen=True, slots=True)
class BuyUnits(Order):
    """Buy ``count`` units of kind ``kind_id`` in step 5 (R-BUY-01)."""

    kind_id: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class CancelPurchase(Order):
    """Undo ``count`` purchases of ``kind_id`` made this step 5, refunding what was paid."""

    kind_id: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class UnitsBought(Event):
    """``faction`` bought ``count`` × ``kind_id`` for ``total`` RP (R-BUY-01).

    ``warning`` is set when no province could take the unit in step 8 on today's board
    (R-BUY-04): it would be lost without refund.
    """

    private: ClassVar[bool] = True
    faction: str
    kind_id: str
    name: str
    count: int
    total: int
    rp_before: int
    rp_after: int
    warning: str | None = None
    discounts: tuple[tuple[str, int], ...] = ()  # (commodity, units discounted) (R-COMM-09)


@dataclass(frozen=True, slots=True)
class PurchaseCancelled(Event):
    """``faction`` cancelled ``count`` × ``kind_id`` and got ``refund`` RP back."""

    private: ClassVar[bool] = True
    faction: str
    kind_id: str
    count: int
    refund: int
    rp_before: int
    rp_after: int


@dataclass(frozen=True, slots=True)
class RPForfeited(Event):
    """``faction`` lost its ``rp`` unspent RP at the end of step 5 (option ``rp_carryover``
    off, R-BUY-02)."""

    private: ClassVar[bool] = True
    faction: str
    rp: int


def unit_price(state: GameState, faction: str, kind: UnitKind) -> int:
    """What the next unit of ``kind`` costs ``faction`` now, in RP: its list cost less the best
    earmarked discount (R-BUY-01, R-COMM-03..09; see :func:`redeem.discounted_cost`).
    """
    if kind.cost is None:
        raise ValueError(f"{kind.id} has no cost")
    return redeem.discounted_cost(kind, state.factions[faction].earmarks)[0]


def check_buyable(ruleset: Ruleset, faction: str, kind_id: str) -> UnitKind:
    """The unit kind ``kind_id`` if ``faction`` may buy it (R-BUY-01, R-BUY-03).

    Raises:
        UnknownName: no such unit kind (with near matches from the faction's list).
        RuleViolation: another faction's unit (R-BUY-01) or a Hero (R-BUY-03, R-ATTR-HERO-01).
        NotBuiltYet: ships (naval rules), Summoned and Undead units (magic rules) are not
            run by this version of the bot.
    """
    own = [k for k in ruleset.order_of_battle(faction) if not k.hero]
    allowed = ", ".join(f"{k.id} {k.display_name} ({k.cost} RP)" for k in own)
    try:
        kind = ruleset.kind(kind_id)
    except KeyError:
        names = {k.id: k.id for k in own} | {k.display_name: k.id for k in own}
        close = difflib.get_close_matches(kind_id, list(names), n=3, cutoff=0.5)
        raise UnknownName("unit kind", kind_id, tuple(close), rule="R-BUY-01") from None
    if kind.hero or kind.cost is None:
        raise RuleViolation(
            f"{kind.display_name} is a Hero: heroes are placed by the scenario, never bought.",
            rule="R-BUY-03",
            allowed=allowed,
        )
    if kind.faction != faction:
        raise RuleViolation(
            f"{kind.display_name} is not in {faction}'s order of battle.",
            rule="R-BUY-01",
            allowed=allowed,
        )
    if kind.base_type is BaseType.SHIP:
        raise NotBuiltYet(
            f"Ships cannot be bought yet: this version of the bot does not run the naval rules ({kind.display_name}).",
            rule="R-ATTR-WATER-03",
            allowed="land units and Towers",
        )
    if kind.race in (Race.SUMMONED, Race.UNDEAD):
        rule = "R-RACE-SUM-01" if kind.race is Race.SUMMONED else "R-RACE-UND-01"
        raise NotBuiltYet(
            f"{kind.race.value.title()} units cannot be bought yet: this version of the bot does not run the magic rules ({kind.display_name}).",
            rule=rule,
            allowed="units of your order of battle that are not Summoned or Undead",
        )
    return kind


def handle_buy_units(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Buy units in step 5, paying their price at once (R-BUY-01..04, R-ATTR-HERO-01).

    Raises:
        RuleViolation: count below 1; see also :func:`check_buyable`.
        NotEnoughRP: the faction cannot pay (RP never go negative, R-BUY-02).
    """
    assert isinstance(order, BuyUnits)

    if order.count < 1:
        raise RuleViolation(
            "Buy at least one unit.", rule="R-BUY-01", allowed="a count of 1 or more"
        )
    kind = check_buyable(ruleset, order.faction, order.kind_id)
    fs = state.factions[order.faction]
    prices, used = redeem.price_batch(kind, fs.earmarks, order.count)  # R-COMM-09
    total = sum(prices)
    if total > fs.rp:
        affordable = sum(1 for paid in itertools.accumulate(prices) if paid <= fs.rp)
        raise NotEnoughRP(
            f"{order.count} × {kind.display_name} cost {total} RP; you have {fs.rp} RP.",
            allowed=f"at most {affordable} × {kind.display_name}",
        )
    before = fs.rp
    fs.rp -= total
    for commodity in used:
        redeem.consume_earmark(fs, commodity)
    fs.purchases.extend([kind.id] * order.count)
    fs.purchase_prices.extend(prices)
    warning = None
    if not legal_muster_provinces(state, ruleset, order.faction, kind.id):
        warning = (
            f"No province can take a {kind.display_name} in step 8 on the board as it stands; "
            "unless that changes it will be lost without refund (R-BUY-04)."
        )
    return [
        UnitsBought(
            order.faction,
            kind.id,
            kind.display_name,
            order.count,
            total,
            before,
            fs.rp,
            warning,
            tuple(sorted(Counter(used).items())),
        )
    ]


def handle_cancel_purchase(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Undo purchases of this step 5, most recent first, refunding what each cost.

    Raises:
        RuleViolation: fewer than ``count`` such purchases to cancel.
    """
    assert isinstance(order, CancelPurchase)
    fs = state.factions[order.faction]
    held = [i for i, k in enumerate(fs.purchases) if k == order.kind_id]
    if order.count < 1 or order.count > len(held):
        bought = ", ".join(f"{n} × {k}" for k, n in sorted(Counter(fs.purchases).items()))
        raise RuleViolation(
            f"You have {len(held)} × {order.kind_id} bought this turn; cannot cancel {order.count}.",
            rule="R-BUY-01",
            allowed=bought or "nothing to cancel",
        )
    before = fs.rp
    refund = 0
    for index in reversed(held[-order.count :]):
        paid = fs.purchase_prices.pop(index)
        refund += paid
        fs.purchases.pop(index)
        redeem.refund_earmark(fs, ruleset.kind(order.kind_id), paid)  # R-COMM-02
    fs.rp += refund
    return [PurchaseCancelled(order.faction, order.kind_id, order.count, refund, before, fs.rp)]


def end_buy_step(state: GameState, faction: str) -> list[Event]:
    """End of step 5: without ``rp_carryover`` the unspent RP are lost (R-BUY-02)."""
    fs = state.factions[faction]
    if state.options.rp_carryover or fs.rp == 0:
        return []
    lost = fs.rp
    fs.rp = 0
    return [RPForfeited(faction, lost)]
