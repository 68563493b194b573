"""Elimination, victory and the end of the campaign (R-VIC-01..06, R-FEAL-05, R-ALLY-06).

Victory is judged by player: ``GameState.players`` maps each faction to the player who holds it
(the service keeps it with :class:`SetPlayers`), and a faction nobody holds is umpire-run and a
player of its own (R-VIC-01). Alliances count for nothing here (R-ALLY-06); fealty does
(R-VIC-02, R-VIC-03).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from caedes_bot.gamedata.model import Attribute, Ruleset
from caedes_bot.rules import pacts
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.muster import unitless_muster_site
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState
from caedes_bot.rules.steps import Accepts, Giver, Handled, StepSpec


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
class PlayerScore:
    """One player's score at the turn limit (R-VIC-03): the sums over every province owned by
    the player's ``factions`` or their vassals (each province once), and the list cost of the
    units of those factions and vassals on the board. ``points`` as for :class:`Score`."""

    player: str
    factions: tuple[str, ...]
    points: int
    provinces: int
    fortifications: int
    rp_income: int
    unit_cost: int


@dataclass(frozen=True, slots=True)
class CampaignEnded(Event):
    """The campaign is over. ``reason``: ``"military"`` (R-VIC-01), ``"diplomatic"``
    (R-VIC-02), ``"turn_limit"`` (R-VIC-03), ``"early"`` (R-VIC-04), ``"scenario"`` (R-VIC-06)
    or ``"no_factions"``; ``winners`` the winning players' factions (several players on an exact
    tie); ``scores`` per faction best first and ``player_scores`` per player best first (empty
    unless the turn limit ended it); ``players`` the winning player keys. The last two follow from
    the rest and the state, so they are left out of equality."""

    round: int
    reason: str
    winners: tuple[str, ...]
    scores: tuple[Score, ...] = ()
    player_scores: tuple[PlayerScore, ...] = field(default=(), compare=False)
    players: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class SetPlayers(Order):
    """The umpire (or the service on an assignment) records who holds which faction
    (R-SETUP-02, R-VIC-01): ``players`` maps faction -> player key; a faction left out is
    umpire-run, a player of its own."""

    label = "Recording who plays which faction"

    players: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class EndEarly(Order):
    """The umpire ends the campaign early, naming the winning ``winners`` factions (R-VIC-04):
    at once, or after the players' vote with the option ``early_end_needs_vote``
    (:mod:`caedes_bot.rules.early_end` applies it)."""

    label = "Ending the campaign early"

    winners: tuple[str, ...]


def player_of(state: GameState, faction: str) -> str:
    """The player key of ``faction``: its holder, or ``"umpire:<code>"`` for an umpire-run
    faction, each a player of its own (R-VIC-01)."""
    return state.players.get(faction) or f"umpire:{faction}"


def factions_of_player(state: GameState, player: str) -> tuple[str, ...]:
    """The factions in play of ``player``, not eliminated, in turn order (R-VIC-01)."""
    return tuple(
        f
        for f in state.in_play
        if not state.factions[f].eliminated and player_of(state, f) == player
    )


def players_in_game(state: GameState) -> list[str]:
    """Every player with a faction not eliminated, umpire-run factions each a player of its
    own, in the turn order of their first faction (R-VIC-01)."""
    found: list[str] = []
    for f in state.in_play:
        if not state.factions[f].eliminated and player_of(state, f) not in found:
            found.append(player_of(state, f))
    return found


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


def _replaced(state: GameState, ruleset: Ruleset, condition: str) -> bool:
    """Whether the campaign's scenario replaces the standard ``condition`` (R-VIC-06)."""
    scenario = ruleset.scenarios.get(state.scenario)
    return scenario is not None and condition in scenario.victory.replaces


def check_military_victory(state: GameState, ruleset: Ruleset) -> list[Event]:
    """End the campaign if every unit on the board belongs to factions of one player
    (R-VIC-01; allies of different players do not win together, R-ALLY-06).

    Does nothing before round 1, after the end, with an empty board, or when the scenario
    replaces it (R-VIC-06). Mutates ``state``.
    """
    if state.finished or state.round < 1 or not state.units:
        return []
    if _replaced(state, ruleset, "military"):
        return []
    players = {player_of(state, u.owner) for u in state.peek_units()}
    if len(players) != 1:
        return []
    (winner,) = players
    return finish(state, "military", factions_of_player(state, winner), (), players=(winner,))


def check_diplomatic_victory(state: GameState, ruleset: Ruleset) -> list[Event]:
    """End the campaign if, for some player P, every remaining faction not P's is a vassal of a
    faction of P whose Hero lives (R-VIC-02; a liege whose Hero fell cannot win this way).
    Needs at least one such vassal; nothing when the scenario replaces it (R-VIC-06). Mutates
    ``state``."""
    if state.finished or state.round < 1 or _replaced(state, ruleset, "diplomatic"):
        return []
    for player in players_in_game(state):
        mine = set(factions_of_player(state, player))
        others = [f for f in state.in_play if not state.factions[f].eliminated and f not in mine]
        if not others:
            continue
        if all(
            state.fealty.get(f) in mine and state.factions[state.fealty[f]].hero_alive
            for f in others
        ):
            return finish(
                state, "diplomatic", factions_of_player(state, player), (), players=(player,)
            )
    return []


def check_scenario_victory(state: GameState, ruleset: Ruleset) -> list[Event]:
    """End the campaign if a player's factions and their vassals own every province of one of
    the scenario's ``hold`` sets (R-VIC-06), the first such player in turn order winning.
    Does nothing before round 1 or after the end. Mutates ``state``."""
    scenario = ruleset.scenarios.get(state.scenario)
    if state.finished or state.round < 1 or scenario is None or not scenario.victory.hold:
        return []
    for player in players_in_game(state):
        mine = factions_of_player(state, player)
        side = set(mine) | {v for v, liege in state.fealty.items() if liege in mine}
        for provinces in scenario.victory.hold:
            if all(state.owners.get(p) in side for p in provinces):
                return finish(state, "scenario", mine, (), players=(player,))
    return []


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


def player_scores(state: GameState, ruleset: Ruleset) -> list[PlayerScore]:
    """Every player still in the game, scored as at the turn limit, best first (R-VIC-03,
    summed per player over their factions and vassals, each province once; ``score_mode`` as
    in :func:`scores`). Ties keep the turn order of the players' first factions."""
    result: list[PlayerScore] = []
    for player in players_in_game(state):
        mine = factions_of_player(state, player)
        side = set(mine) | {v for v, liege in state.fealty.items() if liege in mine}
        provinces = [p for p, owner in state.owners.items() if owner in side]
        forts = sum(
            1
            for p in provinces
            if any(
                u.owner in side and ruleset.kind(u.kind).has(Attribute.FORTIFICATION)
                for u in state.peek_units_at(p)
            )
        )
        income = sum(ruleset.map.provinces[p].rp for p in provinces)
        cost = sum(ruleset.kind(u.kind).cost or 0 for u in state.peek_units() if u.owner in side)
        points = income if state.options.score_mode == "rp_income" else len(provinces) + forts
        result.append(PlayerScore(player, mine, points, len(provinces), forts, income, cost))
    result.sort(key=lambda s: (-s.points, -s.rp_income, -s.unit_cost))
    return result


def end_campaign(state: GameState, ruleset: Ruleset, *, reason: str) -> list[Event]:
    """End the campaign after its last turn: at the turn limit the best score by player wins
    (R-VIC-03; ties by RP income, then unit cost; a complete tie shares the win). Mutates
    ``state``."""
    ranked = scores(state, ruleset)
    by_player = player_scores(state, ruleset)
    winners: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    if by_player:
        best = by_player[0]
        top = [
            s
            for s in by_player
            if (s.points, s.rp_income, s.unit_cost) == (best.points, best.rp_income, best.unit_cost)
        ]
        players = tuple(s.player for s in top)
        winners = tuple(f for s in top for f in s.factions)
    return finish(state, reason, winners, tuple(ranked), tuple(by_player), players)


def handle_set_players(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Handled:
    """Record who holds which faction (R-SETUP-02, R-VIC-01), then judge victory again.

    Raises:
        RuleViolation: a faction not in play.
    """
    assert isinstance(order, SetPlayers)
    for code, _ in order.players:
        if code not in state.in_play:
            raise RuleViolation(f"{code} is not in play.", rule="R-SETUP-02")
    state.players = {code: player for code, player in order.players if player}
    return []


def finish(
    state: GameState,
    reason: str,
    winners: tuple[str, ...],
    ranked: tuple[Score, ...],
    by_player: tuple[PlayerScore, ...] = (),
    players: tuple[str, ...] = (),
) -> list[Event]:
    """Mark the campaign over with ``winners`` and return its :class:`CampaignEnded` (``reason``
    as there), then the pact proposals still waiting, closed
    (:func:`~caedes_bot.rules.pacts.close_at_end`). Mutates ``state``."""
    state.finished = True
    state.active = None
    state.winner = list(winners)
    ended = CampaignEnded(state.round, reason, winners, ranked, by_player, players)
    return [ended, *pacts.close_at_end(state)]


#: The umpire's record of who plays what (R-SETUP-02); the early end is in
#: :mod:`caedes_bot.rules.early_end`.
SPEC = StepSpec("victory", accepts=(Accepts(SetPlayers, handle_set_players, Giver.UMPIRE),))
