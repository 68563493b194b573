"""Umpire overrides (R-PBP-UMP-01): the umpire may change any faction's RP and commodities and
any province's owner; every change is logged and announced.

The orders are umpire-only (given by ``Giver.UMPIRE``: the service accepts them only from the
umpire, a server admin or the bot itself, and writes each to the campaign's audit log). They
may be given at any step and during anyone's turn. ``faction`` names who asks and is not
checked. Each override yields a public :class:`UmpireOverride` that says what was changed
without the secret figures (R-GEN-07), and, for a treasury, a private
:class:`TreasuryOverridden` with the figures for the faction concerned.

The rules still hold after an override: RP and stocks are never negative (R-BUY-02, R-COMM-01);
an owner is a faction in play, or none (R-COLL-01).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.redeem import parse_commodity
from caedes_bot.rules.state import GameState
from caedes_bot.rules.steps import Accepts, Giver, StepSpec

RULE = "R-PBP-UMP-01"

# --------------------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class SetRP(Order):
    """Set ``target``'s RP to ``rp`` (R-PBP-UMP-01); ``rp`` >= 0 (R-BUY-02)."""

    target: str
    rp: int


@dataclass(frozen=True, slots=True)
class SetCommodity(Order):
    """Set ``target``'s stock of ``commodity`` to ``count`` (R-PBP-UMP-01); ``count`` >= 0."""

    target: str
    commodity: str
    count: int


@dataclass(frozen=True, slots=True)
class SetOwner(Order):
    """Give ``province`` to ``owner``, or leave it unowned with ``None`` (R-PBP-UMP-01,
    R-COLL-01)."""

    province: str
    owner: str | None


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class UmpireOverride(Event):
    """The umpire changed the state (R-PBP-UMP-01): public, without secret figures (R-GEN-07).

    Attributes:
        what: ``"rp"``, ``"commodity"`` or ``"owner"``.
        target: the faction or province changed.
        detail: what is public about it: the commodity's name, or the new owner (``""``
            for none).
    """

    what: str
    target: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class TreasuryOverridden(Event):
    """The umpire set ``faction``'s ``item`` (``"rp"`` or a commodity) from ``before`` to
    ``after`` (R-PBP-UMP-01); private to the faction (R-GEN-07)."""

    private: ClassVar[bool] = True
    faction: str
    item: str
    before: int
    after: int


# --------------------------------------------------------------------------- handlers


def _faction_in_play(state: GameState, code: str) -> str:
    if code in state.in_play:
        return code
    close = difflib.get_close_matches(code.upper(), state.in_play, n=2)
    raise UnknownName("faction in play", code, tuple(close), rule=RULE)


def _not_negative(value: int, what: str, rule: str) -> None:
    if value < 0:
        raise RuleViolation(
            f"{what} can never be negative; {value} asked.", rule=rule, allowed="0 or more"
        )


def handle_set_rp(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Set a faction's RP (R-PBP-UMP-01).

    Raises:
        UnknownName: no such faction in play. RuleViolation: a negative amount (R-BUY-02).
    """
    assert isinstance(order, SetRP)
    target = _faction_in_play(state, order.target)
    _not_negative(order.rp, "RP", "R-BUY-02")
    fs = state.factions[target]
    before, fs.rp = fs.rp, order.rp
    return [
        UmpireOverride("rp", target),
        TreasuryOverridden(target, "rp", before, order.rp),
    ]


def handle_set_commodity(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Set a faction's stock of one commodity (R-PBP-UMP-01).

    Raises:
        UnknownName: no such faction in play or commodity. RuleViolation: a negative count.
    """
    assert isinstance(order, SetCommodity)
    target = _faction_in_play(state, order.target)
    commodity = parse_commodity(order.commodity, rule=RULE).value
    _not_negative(order.count, "A stock", "R-COMM-01")
    stock = state.factions[target].commodities
    before = stock.get(commodity, 0)
    if order.count:
        stock[commodity] = order.count
    else:
        stock.pop(commodity, None)
    return [
        UmpireOverride("commodity", target, commodity),
        TreasuryOverridden(target, commodity, before, order.count),
    ]


def handle_set_owner(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Give a province to a faction in play, or to nobody (R-PBP-UMP-01, R-COLL-01).

    Raises:
        UnknownName: no such province, or the owner is no faction in play.
    """
    assert isinstance(order, SetOwner)
    if order.province not in ruleset.map.provinces:
        names = {p.name: pid for pid, p in ruleset.map.provinces.items()}
        close = difflib.get_close_matches(order.province, [*names, *names.values()], n=2)
        raise UnknownName("province", order.province, tuple(close), rule=RULE)
    if order.owner is None:
        state.owners.pop(order.province, None)
    else:
        state.owners[order.province] = _faction_in_play(state, order.owner)
    return [UmpireOverride("owner", order.province, order.owner or "")]


# --------------------------------------------------------------------------- spec

#: The umpire's overrides: any step, anyone's turn (R-PBP-UMP-01); the service takes them
#: from the umpire, an admin or the bot only.
SPEC = StepSpec(
    "umpire",
    accepts=(
        Accepts(SetRP, handle_set_rp, Giver.UMPIRE),
        Accepts(SetCommodity, handle_set_commodity, Giver.UMPIRE),
        Accepts(SetOwner, handle_set_owner, Giver.UMPIRE),
    ),
)
