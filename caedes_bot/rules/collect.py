"""Collect, step 3 of a turn (R-COLL-04..07), and the income record it reads.

Collect runs by itself when step 3 begins: :func:`collect` pays the active faction the RP and
commodities of the provinces it has held without a break (R-COLL-04..07);
:func:`refresh_income_basis` keeps that record true after every order, and
:func:`end_of_turn` / :func:`begin_turn_holdings` renew it. The options ``income_hold_rule``
and ``income_requires_garrison`` choose what "held" means (see
:func:`caedes_bot.rules.ownership.garrisoned`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import redeem
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.events import Event
from caedes_bot.rules.ownership import garrisoned, held_provinces
from caedes_bot.rules.state import (
    GameState,
    Step,
)
from caedes_bot.rules.steps import StepSpec, active_faction


@dataclass(frozen=True, slots=True)
class IncomeCollected(Event):
    """``faction`` collected in step 3 (R-COLL-04..07).

    ``provinces`` paid; ``withheld`` lists owned provinces that paid nothing, as
    ``(province id, reason)``; ``commodities`` are ``(commodity, count)`` pairs gained;
    ``paid`` gives each paying province as ``(province id, RP, commodities)``; ``divined``
    the Diviner bonuses paid with them, as ``(province id, commodity, count)``, already in
    ``commodities`` (R-MAGIC-DIV-01).
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
    paid: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    divined: tuple[tuple[str, str, int], ...] = ()


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

    Under ``income_hold_rule`` ``since_last_turn`` (default) a province pays if the faction
    has owned it (and, with ``income_requires_garrison``, had a unit in it) without a break
    since the end of its previous turn; under ``full_round`` since the start of its previous
    turn (a capture pays two turns later); both are kept in ``income_basis`` by
    :func:`refresh_income_basis`. Under ``at_collection`` it pays if owned (and garrisoned)
    now. In the faction's first turn every owned (and garrisoned) province pays (R-TURN-06).
    With ``income_requires_garrison`` (default) a province without a unit of the faction pays
    nothing but stays owned (R-COLL-01). A province holding units of a faction that is not its
    owner's pact partner pays nothing (R-COLL-06).

    Returns:
        ``(paying province ids, [(withheld province id, reason)])``, both sorted by id.
    """
    fs = state.factions[faction]
    held_now = set(held_provinces(state, faction))
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
            withheld.append((province, _NOT_HELD[state.options.income_hold_rule]))
        elif _hostile_present(state, province, faction):
            withheld.append((province, "hostile units there"))
        else:
            paying.append(province)
    return paying, withheld


#: Why a province owned and garrisoned now pays nothing, by ``income_hold_rule`` (R-COLL-04).
_NOT_HELD = {
    "since_last_turn": "not held without a break since your last turn",
    "full_round": "not held without a break since the start of your last turn",
    "at_collection": "not held now",
}


def collect(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """Step 3: add the RP and commodities of every paying province to ``faction``'s stock
    (R-COLL-04..07; several commodities per province, repeats counting, R-COLL-07).

    Mutates ``state``; returns ``[IncomeCollected]``.
    """
    paying, withheld = collectible_provinces(state, faction)
    fs = state.factions[faction]
    before = fs.rp
    gained: Counter[str] = Counter()
    paid: list[tuple[str, int, tuple[str, ...]]] = []
    for province_id in paying:
        province = ruleset.map.provinces[province_id]
        goods = tuple(str(c) for c in province.commodities)
        fs.rp += province.rp
        gained.update(goods)
        paid.append((province_id, province.rp, goods))
    divined: list[tuple[str, str, int]] = []
    for bonus in fs.diviner_bonuses:  # R-MAGIC-DIV-01: one-time, only where it pays now
        if bonus.province in paying:
            gained[bonus.commodity] += bonus.amount
            divined.append((bonus.province, bonus.commodity, bonus.amount))
    if fs.diviner_bonuses:
        fs.diviner_bonuses = []
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
            tuple(paid),
            tuple(divined),
        )
    ]


def refresh_income_basis(state: GameState) -> None:
    """Drop from every faction's income record the provinces it no longer owns or (with
    ``income_requires_garrison``) no longer has a unit in, so that "without a break" holds
    across every order (R-COLL-04). The engine calls this after every order."""
    # read without copying (factions are copied on write, GameState.clone); a faction is
    # taken for writing only when a province leaves one of its lists
    for seen in dict.values(state.factions):
        if seen.income_basis or seen.held_since_turn_start:
            break
    else:
        return  # nothing recorded for any faction: nothing to drop
    for code, seen in list(dict.items(state.factions)):
        if not seen.income_basis and not seen.held_since_turn_start:
            continue  # nothing to drop
        basis = [p for p in seen.income_basis if _still_held(state, code, p)]
        since = [p for p in seen.held_since_turn_start if _still_held(state, code, p)]
        if basis != seen.income_basis or since != seen.held_since_turn_start:
            fs = state.factions[code]
            fs.income_basis, fs.held_since_turn_start = basis, since


def _still_held(state: GameState, faction: str, province: str) -> bool:
    return state.owners.get(province) == faction and garrisoned(state, faction, province)


def begin_turn_holdings(state: GameState, faction: str) -> None:
    """At the start of ``faction``'s turn, note what it holds (for ``full_round``, R-COLL-04)."""
    state.factions[faction].held_since_turn_start = held_provinces(state, faction)


def end_of_turn(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """End-of-turn bookkeeping for ``faction``: record the provinces it holds now as its
    income basis for next turn (R-COLL-04; under ``full_round`` only those held since the start
    of this turn). Purchases never outlive step 8 (R-MUSTER-01).
    """
    fs = state.factions[faction]
    if state.options.income_hold_rule == "full_round":
        fs.income_basis = sorted(fs.held_since_turn_start)
    else:
        fs.income_basis = held_provinces(state, faction)
    fs.purchases.clear()
    fs.purchase_prices.clear()
    return redeem.return_earmarks(state, faction)  # R-COMM-02, R-COMM-07


# --------------------------------------------------------------------------- step 3


def _collect(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return collect(state, ruleset, active_faction(state))


#: Step 3, Collect (R-COLL-04..07): it runs by itself and never waits; the income record is
#: kept true after every order (R-COLL-04).
SPEC = StepSpec(
    "collect",
    Step.COLLECT,
    on_enter=_collect,
    after_every_order=refresh_income_basis,
)
