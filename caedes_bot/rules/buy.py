"""Buy, step 5 of a turn (R-BUY-01..05, R-ATTR-HERO-01, R-COMM-03..09).

``BuyUnits`` / ``CancelPurchase`` buy units of the faction's own order of battle in step 5 and
pay at once, less earmarked commodity discounts (:mod:`caedes_bot.rules.redeem`). Units bought
wait off the board until step 8 (:mod:`caedes_bot.rules.muster`); a purchase no province could
take on today's board is allowed with a warning (R-BUY-04). At the end of step 5 unspent RP are
lost unless the option ``rp_carryover`` is on (R-BUY-02).

What may be bought now: :func:`buy_options` (each kind with its price after discounts), and
:func:`why_unbuyable` for the reason a kind may not be bought, an :class:`Unbuyable` member.
"""

from __future__ import annotations

import difflib
import enum
import itertools
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.gamedata.model import BaseType, Race, Ruleset, UnitKind
from caedes_bot.rules import redeem
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import (
    NotEnoughRP,
    RuleViolation,
    UnknownName,
)
from caedes_bot.rules.events import Event
from caedes_bot.rules.muster import lost_reasons, plan_muster
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ships import ship_purchase_warning
from caedes_bot.rules.state import (
    GameState,
    Step,
)
from caedes_bot.rules.steps import Accepts, StepSpec, active_faction, always


@dataclass(frozen=True, slots=True)
class BuyUnits(Order):
    """Buy ``count`` units of kind ``kind_id`` in step 5 (R-BUY-01)."""

    label = "Buying units"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    kind_id: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class CancelPurchase(Order):
    """Undo ``count`` purchases of ``kind_id`` made this step 5, refunding what was paid."""

    label = "Cancelling a purchase"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

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


class Unbuyable(enum.Enum):
    """Why a faction may not buy a kind of unit (R-BUY-01, R-BUY-03): the answer of
    :func:`why_unbuyable`; :attr:`rule` is the rule behind it."""

    HERO = "hero"
    """Heroes are placed by the scenario, never bought (R-BUY-03, R-ATTR-HERO-01)."""
    NOT_OWN = "not_own"
    """Another faction's unit: a faction buys from its own order of battle (R-BUY-01)."""
    SUMMONED = "summoned"
    """A Summoned unit: it is bought by summoning it, which places it at once where the
    faction's Summoner stands, at any time (R-MAGIC-SUMM-01, R-RACE-SUM-01, R-BUY-05;
    :mod:`caedes_bot.rules.summons`), never bought to wait for step 8."""

    @property
    def rule(self) -> str:
        """The catalogue rule behind this reason."""
        return _UNBUYABLE_RULES[self]


_UNBUYABLE_RULES = {
    Unbuyable.HERO: "R-BUY-03",
    Unbuyable.NOT_OWN: "R-BUY-01",
    Unbuyable.SUMMONED: "R-RACE-SUM-01",
}


def why_unbuyable(faction: str, kind: UnitKind) -> Unbuyable | None:
    """Why ``faction`` may not buy ``kind`` in its step 5, or ``None`` if it may (R-BUY-01,
    R-BUY-03; Summoned units are summoned instead, R-MAGIC-SUMM-01). Ships and Undead are
    bought like any unit (R-ATTR-WATER-03, R-RACE-UND-01)."""
    if kind.hero or kind.cost is None:
        return Unbuyable.HERO
    if kind.faction != faction:
        return Unbuyable.NOT_OWN
    if kind.race is Race.SUMMONED:
        return Unbuyable.SUMMONED
    return None


def buyable_kinds(ruleset: Ruleset, faction: str) -> list[UnitKind]:
    """The kinds ``faction`` may buy in step 5, in order-of-battle order (R-BUY-01, R-BUY-03)."""
    return [k for k in ruleset.order_of_battle(faction) if why_unbuyable(faction, k) is None]


@dataclass(frozen=True, slots=True)
class BuyOption:
    """One kind a faction may buy now (R-BUY-01, R-COMM-09).

    Attributes:
        kind: the unit kind.
        price: what the next unit of it costs the faction now, in RP, after earmarked
            discounts (:func:`unit_price`).
        affordable: the faction has at least ``price`` RP.
    """

    kind: UnitKind
    price: int
    affordable: bool


def buy_options(state: GameState, ruleset: Ruleset, faction: str) -> list[BuyOption]:
    """Every kind ``faction`` may buy, with its price now, in order-of-battle order
    (R-BUY-01, R-BUY-03, R-COMM-09). Whether it is ``faction``'s step 5 is not checked."""
    rp = state.factions[faction].rp
    out = []
    for kind in buyable_kinds(ruleset, faction):
        price = unit_price(state, faction, kind)
        out.append(BuyOption(kind, price, price <= rp))
    return out


def check_buyable(ruleset: Ruleset, faction: str, kind_id: str) -> UnitKind:
    """The unit kind ``kind_id`` if ``faction`` may buy it (R-BUY-01, R-BUY-03; see
    :func:`why_unbuyable`).

    Raises:
        UnknownName: no such unit kind (with near matches from the faction's list).
        RuleViolation: another faction's unit (R-BUY-01) or a Hero (R-BUY-03, R-ATTR-HERO-01).
        RuleViolation: a Summoned unit, which is summoned rather than bought for step 8
            (R-MAGIC-SUMM-01).
    """
    own = [k for k in ruleset.order_of_battle(faction) if not k.hero]
    allowed = ", ".join(f"{k.id} {k.display_name} ({k.cost} RP)" for k in own)
    try:
        kind = ruleset.kind(kind_id)
    except KeyError:
        names = {k.id: k.id for k in own} | {k.display_name: k.id for k in own}
        close = difflib.get_close_matches(kind_id, list(names), n=3, cutoff=0.5)
        raise UnknownName("unit kind", kind_id, tuple(close), rule="R-BUY-01") from None
    why = why_unbuyable(faction, kind)
    if why is None:
        return kind
    name = kind.display_name
    if why is Unbuyable.HERO:
        raise RuleViolation(
            f"{name} is a Hero: heroes are placed by the scenario, never bought.",
            rule=why.rule,
            allowed=allowed,
        )
    if why is Unbuyable.NOT_OWN:
        raise RuleViolation(
            f"{name} is not in {faction}'s order of battle.", rule=why.rule, allowed=allowed
        )
    raise RuleViolation(
        f"{name} is a Summoned unit: it is not bought to wait for step 8 but summoned, which "
        "pays for it and places it at once where your Summoner stands.",
        rule="R-MAGIC-SUMM-01",
        allowed=f"summon it (/summon {kind.display_name}), at any step of your turn",
    )


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
        if not affordable:
            raise NotEnoughRP(
                f"You cannot afford any {kind.display_name}: one costs {prices[0]} RP and you "
                f"have {fs.rp} RP.",
                allowed=f"a unit that costs at most {fs.rp} RP",
            )
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
    if kind.base_type is BaseType.SHIP:  # R-BUY-04, R-ATTR-WATER-03: on the water
        warning = ship_purchase_warning(state, ruleset, order.faction, kind)
    else:
        warning = muster_warning(state, ruleset, order.faction, kind)
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


def muster_warning(state: GameState, ruleset: Ruleset, faction: str, kind: UnitKind) -> str | None:
    """The warning given with a purchase of ``kind`` when not every unit of it waiting could be
    placed in step 8 on the board as it stands (R-BUY-04): none (``"No province can take..."``)
    or only some (``"Only 2 of your 4 ... can be placed"``), with the reason; ``None`` when all
    can. Units bought earlier keep their places (:func:`caedes_bot.rules.muster.plan_muster`)."""
    plan = plan_muster(state, ruleset, faction)
    lost = plan.lost.count(kind.id)
    if not lost:
        return None
    name = kind.display_name
    why = dict(lost_reasons(state, ruleset, faction, plan))[kind.id]
    placed = plan.placed_of(kind.id)
    if not placed:
        return (
            f"No province can take a {name} in step 8 on the board as it stands; unless that "
            f"changes it will be lost without refund (R-BUY-04): {why}."
        )
    places = ", ".join(
        dict.fromkeys(ruleset.map.space_name(p) for k, p, _key in plan.placed if k == kind.id)
    )
    waiting = placed + lost
    return (
        f"Only {placed} of your {waiting} {name} waiting can be placed in step 8 on the board "
        f"as it stands ({places}); the other {lost} will be lost without refund unless that "
        f"changes (R-BUY-04): {why}."
    )


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


# --------------------------------------------------------------------------- step 5


def _end_buy(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return end_buy_step(state, active_faction(state))


#: Step 5, Buy (R-BUY-01..05).
SPEC = StepSpec(
    "buy",
    Step.BUY,
    accepts=(
        Accepts(BuyUnits, handle_buy_units),
        Accepts(CancelPurchase, handle_cancel_purchase),
    ),
    on_leave=_end_buy,
    waits=always,
)
