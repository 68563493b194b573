"""Elimination, victory and the end of the campaign (R-VIC-01, R-VIC-03, R-VIC-05, R-FEAL-05).

The rules core treats each faction as its own player; the service maps players to factions
later (R-VIC-01 "factions of a single player").
"""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.gamedata.model import Attribute, Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.muster import unitless_muster_site
from caedes_bot.rules.state import GameState


@dataclass(frozen=True, slots=True)
class FactionEliminated(Event):
    """``faction`` was eliminated at the start of a turn (R-VIC-05): it lost ``provinces`` (now
    unowned), its RP, commodities and pacts; ``released`` are vassals set free (R-FEAL-05)."""

    faction: str
    round: int
    provinces: tuple[str, ...]
    released: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Score:
    """One faction's score at the turn limit (R-VIC-03).

    ``points`` is what ranks (provinces + Fortifications, or RP income under the option
    ``score_mode`` ``rp_income``); ``rp_income`` then ``unit_cost`` break ties.
    """

    faction: str
    points: int
    provinces: int
    fortifications: int
    rp_income: int
    unit_cost: int


@dataclass(frozen=True, slots=True)
class CampaignEnded(Event):
    """The campaign is over. ``reason``: ``"military"`` (R-VIC-01), ``"turn_limit"``
    (R-VIC-03) or ``"no_factions"``; ``winners`` (several on an exact tie); ``scores`` best first
    (empty unless the turn limit ended it)."""

    round: int
    reason: str
    winners: tuple[str, ...]
    scores: tuple[Score, ...] = ()


def elimination_check(state: GameState, ruleset: Ruleset) -> list[Event]:
    """Eliminate every faction in play with no unit on the board, unless it owns a province
    where it could muster with no unit there (R-VIC-05). An eliminated faction loses its
    provinces (unowned), RP, commodities, purchases and pacts; its vassals are released and it
    leaves any fealty it swore (R-FEAL-05). Mutates ``state``; returns the events."""
    with_units = {u.owner for u in state.units.values()}
    events: list[Event] = []
    for code in state.in_play:
        fs = state.factions[code]
        if fs.eliminated or code in with_units:
            continue
        owned = sorted(p for p, owner in state.owners.items() if owner == code)
        if any(unitless_muster_site(ruleset, code, p) for p in owned):
            continue
        fs.eliminated = True
        fs.rp = 0
        fs.commodities.clear()
        fs.purchases.clear()
        fs.purchase_prices.clear()
        fs.earmarks.clear()
        fs.income_basis.clear()
        fs.held_since_turn_start.clear()
        for province in owned:
            del state.owners[province]
        released = tuple(sorted(v for v, liege in state.fealty.items() if liege == code))
        state.fealty = {v: lg for v, lg in state.fealty.items() if code not in (v, lg)}
        groups = [[f for f in group if f != code] for group in state.alliances]
        state.alliances = [g for g in groups if len(g) >= 2]
        events.append(FactionEliminated(code, state.round, tuple(owned), released))
    return events


def check_military_victory(state: GameState, ruleset: Ruleset) -> list[Event]:
    """End the campaign if every unit on the board belongs to one faction (R-VIC-01).

    Does nothing before round 1, after the end, or with an empty board. Mutates ``state``.
    """
    if state.finished or state.round < 1 or not state.units:
        return []
    owners = {u.owner for u in state.units.values()}
    if len(owners) != 1:
        return []
    (winner,) = owners
    return _finish(state, "military", (winner,), ())


def scores(state: GameState, ruleset: Ruleset) -> list[Score]:
    """Every faction still in the game, scored as at the turn limit, best first (R-VIC-03).

    A faction scores 1 per province owned by it or its vassals, plus 1 more for each of those
    provinces holding a Fortification of it or its vassals. ``rp_income`` is the RP value of
    those provinces; ``unit_cost`` the list cost of its own units on the board (Heroes 0).
    With ``score_mode`` ``rp_income`` the points are the RP income.
    """
    result: list[Score] = []
    for code in state.in_play:
        if state.factions[code].eliminated:
            continue
        side = {code} | {v for v, liege in state.fealty.items() if liege == code}
        provinces = [p for p, owner in state.owners.items() if owner in side]
        forts = sum(
            1
            for p in provinces
            if any(
                u.owner in side and ruleset.kind(u.kind).has(Attribute.FORTIFICATION)
                for u in state.units_at(p)
            )
        )
        income = sum(ruleset.map.provinces[p].rp for p in provinces)
        cost = sum(ruleset.kind(u.kind).cost or 0 for u in state.units_of(code))
        points = income if state.options.score_mode == "rp_income" else len(provinces) + forts
        result.append(Score(code, points, len(provinces), forts, income, cost))
    result.sort(
        key=lambda s: (-s.points, -s.rp_income, -s.unit_cost, state.in_play.index(s.faction))
    )
    return result


def end_campaign(state: GameState, ruleset: Ruleset, *, reason: str) -> list[Event]:
    """End the campaign after its last turn: at the turn limit the best score wins (R-VIC-03;
    ties by RP income, then unit cost; a complete tie shares the win). Mutates ``state``."""
    ranked = scores(state, ruleset)
    winners: tuple[str, ...] = ()
    if ranked:
        best = ranked[0]
        winners = tuple(
            s.faction
            for s in ranked
            if (s.points, s.rp_income, s.unit_cost) == (best.points, best.rp_income, best.unit_cost)
        )
    return _finish(state, reason, winners, tuple(ranked))


def _finish(
    state: GameState, reason: str, winners: tuple[str, ...], ranked: tuple[Score, ...]
) -> list[Event]:
    state.finished = True
    state.active = None
    state.winner = list(winners)
    return [CampaignEnded(state.round, reason, winners, ranked)]
