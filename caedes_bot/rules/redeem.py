"""Redeem, step 2 of a turn: commodities spent for their benefits (R-COMM-01..11).

What a faction may do in step 2 with the commodities in its stock
(:attr:`~caedes_bot.rules.state.FactionState.commodities`):

* :class:`RedeemSets` - one or more sets of 3 to 6 *different* commodities, each set worth
  2 / 3 / 5 / 8 RP (R-COMM-10). A commodity named twice inside one set counts once and only one
  item is consumed; a set with fewer than three different commodities refuses the whole order,
  which consumes nothing. Sets in one order are disjoint item by item: two sets naming Grain use
  two Grain.
* :class:`RedeemIron` - 1 RP per Iron, at once (R-COMM-05).
* :class:`RedeemSalt` - 1 RP off this turn's upkeep bill per Salt (R-COMM-07), kept in
  :attr:`~caedes_bot.rules.state.FactionState.salt_credit`; the upkeep step subtracts it with
  :func:`caedes_bot.rules.upkeep.upkeep_after_salt` (the bill never goes below 0; unused
  credit is lost).
* :class:`Earmark` - Cloth, Grain, Livestock or Timber moved from stock to
  :attr:`~caedes_bot.rules.state.FactionState.earmarks` (R-COMM-02). The buy step spends them
  through :func:`discounted_cost` and :func:`consume_earmark` (R-COMM-03, -04, -06, -08, -09);
  whatever is left goes back to stock at the end of the turn (:func:`return_earmarks`).

When these orders may be given (R-COMM-02): in step 2; and, if the option
``redeem_fresh_commodities`` is on, also in step 5 until the faction's first purchase of the
turn (``FactionState.purchases`` still empty), with whatever it then holds, commodities
collected in step 3 included. Salt is refused in step 5, because the upkeep it would reduce was
paid in step 4. Commodities collected in step 3 otherwise wait for the next turn.

Discounts (R-COMM-09, R-COMM-11): at most one commodity per unit; a discount never brings a unit
below 1 RP - it is clamped at 1, and a discount that would save nothing (Grain on a 1-RP unit) is
not used, so the commodity stays earmarked. Heroes have no cost and take no discount. Earmarks
exist only during the faction's own turn (they go back to stock at its end), so summons bought
in another faction's turn pay full cost.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from caedes_bot.gamedata.model import BaseType, Commodity, Ruleset, UnitKind
from caedes_bot.gamedata.names import find, fold
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation, UnknownName, WrongStep
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import FactionState, GameState, Step
from caedes_bot.rules.steps import Accepts, StepSpec, active_faction

#: RP given by a set of N different commodities (R-COMM-10).
SET_VALUES: Mapping[int, int] = {3: 2, 4: 3, 5: 5, 6: 8}

#: The discount each unit type can take: (commodity, RP off) (R-COMM-03, -04, -06, -08).
DISCOUNTS: Mapping[BaseType, tuple[Commodity, int]] = {
    BaseType.SHIP: (Commodity.CLOTH, 2),
    BaseType.INFANTRY: (Commodity.GRAIN, 1),
    BaseType.CAVALRY: (Commodity.LIVESTOCK, 1),
    BaseType.TOWER: (Commodity.TIMBER, 3),
}

#: Commodities that may be earmarked for a purchase discount (R-COMM-02).
EARMARKABLE: frozenset[Commodity] = frozenset(c for c, _ in DISCOUNTS.values())

_ORDER = tuple(Commodity)
_SET_TEXT = "3 to 6 different commodities per set (3 give 2 RP, 4 give 3, 5 give 5, 6 give 8)"


# --------------------------------------------------------------------------- pure rules


def parse_commodity(name: str, *, rule: str = "R-COMM-01") -> Commodity:
    """The commodity named ``name`` as people type it (case, accents, spacing ignored:
    :func:`caedes_bot.gamedata.names.fold`), or the start of one commodity's name (R-COMM-01,
    R-GEN-04).

    Raises:
        UnknownName: not one of the six commodities; carries near matches and cites ``rule``.
    """
    found = find(name, ((c, (c.value,)) for c in Commodity))
    if found.item is not None:
        return found.item
    key = fold(name)
    close = difflib.get_close_matches(key, [c.value for c in Commodity], n=2, cutoff=0.6)
    err = UnknownName("commodity", name, tuple(c.title() for c in close), rule=rule)
    err.allowed = ", ".join(c.value.title() for c in Commodity)
    raise err


def set_value(different: int) -> int:
    """RP given by a set of ``different`` different commodities (R-COMM-10).

    Returns:
        0 for fewer than three (two different give nothing), else 2, 3, 5 or 8 RP.

    Raises:
        ValueError: more than six, or a negative number.
    """
    if different < 0 or different > len(_ORDER):
        raise ValueError(f"a set cannot hold {different} different commodities")
    return SET_VALUES.get(different, 0)


def discounted_cost(kind: UnitKind, earmarks: Mapping[str, int]) -> tuple[int, str | None]:
    """The price of one unit of ``kind`` with the best earmark available (R-COMM-03..09).

    Args:
        kind: the unit kind being bought.
        earmarks: commodity value -> count still earmarked this turn.

    Returns:
        ``(cost in RP, commodity value used or None)``. The discount of the kind's unit type is
        taken if that commodity is earmarked, clamped so the cost stays at least 1 RP; if it
        would save nothing (the unit already costs 1 RP) no commodity is used (R-COMM-09).

    Raises:
        RuleViolation: ``kind`` has no cost (a Hero): it is never bought or discounted
            (R-BUY-03, R-COMM-09).
    """
    if kind.cost is None or kind.hero:
        raise RuleViolation(
            f"{kind.display_name} is a Hero: it has no cost, is never bought and takes no discount.",
            rule="R-BUY-03",
            allowed="buy units of your order of battle",
        )
    commodity, off = DISCOUNTS[kind.base_type]
    if earmarks.get(commodity.value, 0) <= 0:
        return kind.cost, None
    cost = max(1, kind.cost - off)
    if cost >= kind.cost:
        return kind.cost, None
    return cost, commodity.value


def price_batch(
    kind: UnitKind, earmarks: Mapping[str, int], count: int
) -> tuple[list[int], list[str]]:
    """Prices of ``count`` units of ``kind`` bought one after another (R-COMM-09).

    Each unit takes the best earmark still available, so earmarks run out in order: 3 Infantry
    with 2 Grain earmarked cost ``[2, 2, 3]``. ``earmarks`` is not changed.

    Returns:
        ``(price of each unit in RP, commodity values used)``; apply the second with
        :func:`consume_earmark`.

    Raises:
        RuleViolation: ``kind`` is a Hero (R-BUY-03).
    """
    left = dict(earmarks)
    prices: list[int] = []
    used: list[str] = []
    for _ in range(count):
        price, commodity = discounted_cost(kind, left)
        prices.append(price)
        if commodity is not None:
            left[commodity] -= 1
            used.append(commodity)
    return prices, used


def refund_earmark(faction: FactionState, kind: UnitKind, price_paid: int) -> str | None:
    """Undo the discount of one cancelled purchase: if ``price_paid`` is below the list cost, the
    unit used its type's commodity, which goes back to ``faction``'s earmarks (R-COMM-02).

    Returns:
        The commodity value returned, or ``None``.
    """
    if kind.cost is None or price_paid >= kind.cost:
        return None
    commodity = DISCOUNTS[kind.base_type][0].value
    faction.earmarks[commodity] = faction.earmarks.get(commodity, 0) + 1
    return commodity


def consume_earmark(faction: FactionState, commodity: str) -> None:
    """Use one earmarked ``commodity`` of ``faction`` for a purchase (R-COMM-02, R-COMM-09).

    Raises:
        ValueError: nothing of that commodity is earmarked (a caller bug, not a player error).
    """
    held = faction.earmarks.get(commodity, 0)
    if held <= 0:
        raise ValueError(f"{faction.code} has no {commodity} earmarked")
    if held == 1:
        del faction.earmarks[commodity]
    else:
        faction.earmarks[commodity] = held - 1


def may_redeem_now(state: GameState, faction: str) -> bool:
    """Whether ``faction`` may give redeem orders now (R-COMM-02).

    True in the faction's own step 2, and in its step 5 before its first purchase when the
    option ``redeem_fresh_commodities`` is on.
    """
    if state.active != faction:
        return False
    if state.step == Step.REDEEM:
        return True
    fs = state.factions.get(faction)
    return (
        state.step == Step.BUY
        and state.options.redeem_fresh_commodities
        and fs is not None
        and not fs.purchases
    )


def return_earmarks(state: GameState, faction: str) -> list[Event]:
    """End-of-turn clean-up: unused earmarks go back to stock, unused Salt credit is lost.

    The turn machinery calls this when ``faction``'s turn ends (R-COMM-02, R-COMM-07).

    Returns:
        ``[EarmarksReturned]`` if anything went back, else ``[]``.
    """
    fs = state.factions[faction]
    returned = {c: n for c, n in fs.earmarks.items() if n > 0}
    for commodity, count in returned.items():
        fs.commodities[commodity] = fs.commodities.get(commodity, 0) + count
    fs.earmarks.clear()
    fs.salt_credit = 0
    if not returned:
        return []
    return [EarmarksReturned(faction, _sorted_bundle(returned))]


# --------------------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class RedeemSets(Order):
    """Redeem one or more sets of different commodities for RP (R-COMM-10).

    Attributes:
        sets: each set as commodity names, e.g. ``(("grain", "iron", "salt"),)``.
    """

    label = "Redeeming sets of commodities"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    sets: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class RedeemIron(Order):
    """Redeem ``count`` Iron for 1 RP each (R-COMM-05)."""

    label = "Redeeming Iron"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    count: int


@dataclass(frozen=True, slots=True)
class RedeemSalt(Order):
    """Redeem ``count`` Salt, each taking 1 RP off this turn's upkeep (R-COMM-07)."""

    label = "Redeeming Salt"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    count: int


@dataclass(frozen=True, slots=True)
class Earmark(Order):
    """Set aside ``count`` of ``commodity`` for purchase discounts this turn (R-COMM-02).

    ``commodity`` is Cloth (Ship -2), Grain (Infantry -1), Livestock (Cavalry -1) or Timber
    (Tower -3) (R-COMM-03, -04, -06, -08).
    """

    label = "Earmarking commodities"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    commodity: str
    count: int = 1


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class SetsRedeemed(Event):
    """Sets were redeemed (R-COMM-10); private to ``faction`` (R-GEN-07).

    Attributes:
        sets: the commodities consumed, set by set (each set's different commodities).
        rp_gained: RP added.
        rp: the faction's RP afterwards.
        ignored: commodity names repeated inside a set, which were not consumed.
    """

    private: ClassVar[bool] = True
    faction: str
    sets: tuple[tuple[str, ...], ...]
    rp_gained: int
    rp: int
    ignored: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class IronRedeemed(Event):
    """Iron was redeemed for RP (R-COMM-05); private."""

    private: ClassVar[bool] = True
    faction: str
    count: int
    rp_gained: int
    rp: int


@dataclass(frozen=True, slots=True)
class SaltRedeemed(Event):
    """Salt was redeemed against this turn's upkeep (R-COMM-07); private.

    ``salt_credit`` is the total RP to come off this turn's bill.
    """

    private: ClassVar[bool] = True
    faction: str
    count: int
    salt_credit: int


@dataclass(frozen=True, slots=True)
class CommoditiesEarmarked(Event):
    """Commodities were earmarked for purchase discounts this turn (R-COMM-02); private.

    ``earmarks`` is everything now earmarked, commodity value -> count.
    """

    private: ClassVar[bool] = True
    faction: str
    commodity: str
    count: int
    earmarks: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EarmarksReturned(Event):
    """Unused earmarks went back to stock at the end of the turn (R-COMM-02); private."""

    private: ClassVar[bool] = True
    faction: str
    commodities: dict[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------- handlers


def handle_redeem_sets(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`RedeemSets` (R-COMM-10, R-COMM-02).

    Raises:
        RuleViolation: no set given; a set with fewer than three different commodities
            (R-COMM-10); not enough of a commodity in stock for all the sets (R-COMM-02).
        UnknownName: a name that is no commodity.
        WrongStep: not a time for redeeming (R-COMM-02).
    """
    assert isinstance(order, RedeemSets)
    fs = _redeem_faction(state, order.faction)
    if not order.sets:
        raise RuleViolation("Name at least one set to redeem.", rule="R-COMM-10", allowed=_SET_TEXT)
    used: Counter[str] = Counter()
    sets: list[tuple[str, ...]] = []
    ignored: list[str] = []
    for names in order.sets:
        parsed = [parse_commodity(n, rule="R-COMM-10") for n in names]
        different = sorted(set(parsed), key=_ORDER.index)
        if len(different) < 3:
            shown = ", ".join(c.value.title() for c in different) or "nothing"
            raise RuleViolation(
                f"A set needs at least three different commodities; this one has "
                f"{len(different)} ({shown}). Nothing was redeemed.",
                rule="R-COMM-10",
                allowed=_SET_TEXT,
            )
        seen: set[Commodity] = set()
        for c in parsed:
            if c in seen:
                ignored.append(c.value)
            seen.add(c)
        sets.append(tuple(c.value for c in different))
        used.update(c.value for c in different)
    _check_stock(fs, used, what="these sets")
    for commodity, count in used.items():
        _take(fs, commodity, count)
    gained = sum(set_value(len(s)) for s in sets)
    fs.rp += gained
    return [SetsRedeemed(fs.code, tuple(sets), gained, fs.rp, tuple(ignored))]


def handle_redeem_iron(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`RedeemIron`: +1 RP per Iron (R-COMM-05).

    Raises:
        RuleViolation: ``count`` below 1, or more Iron than held (R-COMM-02).
        WrongStep: not a time for redeeming (R-COMM-02).
    """
    assert isinstance(order, RedeemIron)
    fs = _redeem_faction(state, order.faction)
    _check_count(order.count, "R-COMM-05")
    _check_stock(fs, {Commodity.IRON.value: order.count}, what="this")
    _take(fs, Commodity.IRON.value, order.count)
    fs.rp += order.count
    return [IronRedeemed(fs.code, order.count, order.count, fs.rp)]


def handle_redeem_salt(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`RedeemSalt`: +1 Salt credit against this turn's upkeep per Salt (R-COMM-07).

    Salt beyond the bill is allowed and simply lost at upkeep.

    Raises:
        RuleViolation: ``count`` below 1, more Salt than held (R-COMM-02), or upkeep already
            paid this turn (step 5, R-COMM-07).
        WrongStep: not a time for redeeming (R-COMM-02).
    """
    assert isinstance(order, RedeemSalt)
    fs = _redeem_faction(state, order.faction)
    if state.step != Step.REDEEM:
        raise RuleViolation(
            "Upkeep has already been paid this turn, so Salt would be wasted.",
            rule="R-COMM-07",
            allowed="redeem Salt in step 2 of a later turn",
        )
    _check_count(order.count, "R-COMM-07")
    _check_stock(fs, {Commodity.SALT.value: order.count}, what="this")
    _take(fs, Commodity.SALT.value, order.count)
    fs.salt_credit += order.count
    return [SaltRedeemed(fs.code, order.count, fs.salt_credit)]


def handle_earmark(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`Earmark`: stock -> earmarks for this turn's purchases (R-COMM-02).

    Raises:
        RuleViolation: a commodity that gives no purchase discount (Iron, Salt), ``count``
            below 1, or more than held (R-COMM-02).
        UnknownName: a name that is no commodity.
        WrongStep: not a time for redeeming (R-COMM-02).
    """
    assert isinstance(order, Earmark)
    fs = _redeem_faction(state, order.faction)
    commodity = parse_commodity(order.commodity, rule="R-COMM-02")
    if commodity not in EARMARKABLE:
        raise RuleViolation(
            f"{commodity.value.title()} gives no purchase discount, so it cannot be earmarked.",
            rule="R-COMM-02",
            allowed="earmark Cloth, Grain, Livestock or Timber; redeem Iron for RP, Salt against upkeep",
        )
    _check_count(order.count, "R-COMM-02")
    _check_stock(fs, {commodity.value: order.count}, what="this")
    _take(fs, commodity.value, order.count)
    fs.earmarks[commodity.value] = fs.earmarks.get(commodity.value, 0) + order.count
    return [
        CommoditiesEarmarked(fs.code, commodity.value, order.count, _sorted_bundle(fs.earmarks))
    ]


# --------------------------------------------------------------------------- helpers


def _redeem_faction(state: GameState, faction: str) -> FactionState:
    if not may_redeem_now(state, faction):
        if state.step == Step.BUY and state.options.redeem_fresh_commodities:
            raise WrongStep(
                "Redeeming in step 5 is over once you have bought a unit this turn.",
                rule="R-COMM-02",
                allowed="buy units; redeem again in step 2 of your next turn",
            )
        raise WrongStep(
            f"Commodities are redeemed in step 2 of your own turn, not in step {state.step.label}.",
            rule="R-COMM-02",
            allowed="redeem in step 2 of your next turn",
        )
    return state.factions[faction]


def _check_count(count: int, rule: str) -> None:
    if count < 1:
        raise RuleViolation(
            f"The count must be at least 1, not {count}.", rule=rule, allowed="a count of 1 or more"
        )


def _check_stock(fs: FactionState, needed: Mapping[str, int], *, what: str) -> None:
    short = [
        (c, n, fs.commodities.get(c, 0))
        for c, n in sorted(needed.items(), key=lambda kv: _ORDER.index(Commodity(kv[0])))
        if fs.commodities.get(c, 0) < n
    ]
    if short:
        parts = "; ".join(f"{c.title()}: {n} needed, {h} held" for c, n, h in short)
        raise RuleViolation(
            f"You do not hold enough for {what}. {parts}.",
            rule="R-COMM-02",
            allowed="redeem only what is in your stock",
        )


def _take(fs: FactionState, commodity: str, count: int) -> None:
    left = fs.commodities.get(commodity, 0) - count
    if left < 0:
        raise ValueError(f"{fs.code} would hold {left} {commodity}")
    if left == 0:
        fs.commodities.pop(commodity, None)
    else:
        fs.commodities[commodity] = left


def _sorted_bundle(bundle: Mapping[str, int] | Iterable[tuple[str, int]]) -> dict[str, int]:
    items = bundle.items() if isinstance(bundle, Mapping) else bundle
    return dict(sorted(items, key=lambda kv: _ORDER.index(Commodity(kv[0]))))


# --------------------------------------------------------------------------- step 2


def _holds_a_commodity(state: GameState) -> bool:
    """Nothing to redeem without a commodity (R-COMM-02), so step 2 passes at once."""
    return any(n > 0 for n in state.factions[active_faction(state)].commodities.values())


#: Redeem orders are taken in step 2, and in step 5 before the first purchase with the option
#: ``redeem_fresh_commodities`` (R-COMM-02; the handlers check the option).
_REDEEM_STEPS = (Step.REDEEM, Step.BUY)

#: Step 2, Redeem (R-COMM-01..11).
SPEC = StepSpec(
    "redeem",
    Step.REDEEM,
    accepts=(
        Accepts(RedeemSets, handle_redeem_sets, steps=_REDEEM_STEPS),
        Accepts(RedeemIron, handle_redeem_iron, steps=_REDEEM_STEPS),
        Accepts(RedeemSalt, handle_redeem_salt, steps=_REDEEM_STEPS),
        Accepts(Earmark, handle_earmark, steps=_REDEEM_STEPS),
    ),
    waits=_holds_a_commodity,
)
