"""Diplomacy helpers: who neighbours whom (R-PBP-NEG-02).

Two factions are neighbours when some space of one's *footprint* is the same as, or adjacent
to, some space of the other's footprint. A faction's footprint is every province it owns plus
every space (province, sea zone, river edge) holding at least one of its units.

Adjacency between spaces, as this module reads R-PBP-NEG-02:

* province - province: a land border (river borders included, since a river edge is a border);
* province - river edge: the edge lies on one of the province's borders;
* with the option ``neighbour_via_sea`` (default true) also: two provinces touching the same
  sea zone; a province and a sea zone it touches; two sea zones that touch; a navigable river
  mouth and its sea zone.

With ``neighbour_via_sea`` false only land links count, so a fleet at sea neighbours only a
faction with units in that same sea zone.

The relation is symmetric, and a faction is never its own neighbour. Trade uses it when the
option ``trade_requires_neighbour`` is on (R-TRADE-01). The catalogue says neighbourhood is
recomputed at the start of each game round (R-PBP-NEG-03), or of each turn with the option
``neighbour_recompute`` ``turn``: :func:`judge_neighbours` keeps that judgement in
``GameState.neighbour_view`` and says which pairs stopped or started being neighbours (the
service locks and reopens their threads), and :func:`judged_neighbours` reads it (the live board
only before the first judgement). Negotiation and trade go by the judgement.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from caedes_bot.gamedata.model import GameMap, Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState


def footprint(state: GameState, faction: str) -> frozenset[str]:
    """Spaces where ``faction`` is present for R-PBP-NEG-02: owned provinces and spaces with its units.

    Returns:
        A set of space ids (provinces, sea zones, river edge ids).
    """
    owned = {p for p, owner in state.owners.items() if owner == faction}
    occupied = {u.location for u in state.units.values() if u.owner == faction}
    return frozenset(owned | occupied)


def adjacent_spaces(game_map: GameMap, space: str, *, via_sea: bool) -> frozenset[str]:
    """Spaces adjacent to ``space`` for the neighbour rule (R-PBP-NEG-02).

    Args:
        game_map: the map.
        space: a province, sea zone or river edge id; an unknown id has no adjacent spaces.
        via_sea: the option ``neighbour_via_sea``: count sea links (see the module docstring).

    Returns:
        The adjacent space ids, never including ``space`` itself.
    """
    found: set[str] = set()
    if game_map.is_province(space):
        found |= game_map.land_neighbours(space)
        found |= {edge.id for edge in game_map.river_edges_of(space)}
        if via_sea:
            for sea in game_map.seas_of(space):
                found.add(sea)
                found |= game_map.coast_of(sea)
    elif game_map.is_sea(space):
        if via_sea:
            found |= game_map.coast_of(space)
            found |= game_map.sea_adjacency.get(space, frozenset())
            found |= {e.id for e in game_map.rivers.values() if e.mouth == space}
    else:
        edge = game_map.rivers.get(space)
        if edge is not None:
            found |= {edge.a, edge.b}
            if via_sea and edge.mouth is not None:
                found.add(edge.mouth)
    found.discard(space)
    return frozenset(found)


def neighbours(state: GameState, ruleset: Ruleset, a: str, b: str) -> bool:
    """Whether factions ``a`` and ``b`` are neighbours (R-PBP-NEG-02).

    Uses ``state.options.neighbour_via_sea``. A faction is not its own neighbour; a faction
    with no province and no unit neighbours nobody.

    Returns:
        ``True`` if some space of one's footprint equals or is adjacent to one of the other's.
    """
    if a == b:
        return False
    mine = footprint(state, a)
    theirs = footprint(state, b)
    if not mine or not theirs:
        return False
    if mine & theirs:
        return True
    via_sea = state.options.neighbour_via_sea
    return any(adjacent_spaces(ruleset.map, space, via_sea=via_sea) & theirs for space in mine)


def neighbours_of(state: GameState, ruleset: Ruleset, faction: str) -> list[str]:
    """The factions in play, not eliminated, that neighbour ``faction`` now, in turn order
    (R-PBP-NEG-02)."""
    return [
        code
        for code in state.in_play
        if not _eliminated(state, code) and neighbours(state, ruleset, faction, code)
    ]


class NoTalks(enum.Enum):
    """Why two factions may not open a negotiation (R-PBP-NEG-01, R-PBP-NEG-02): the answer of
    :func:`why_no_talks`; :attr:`rule` is the rule behind it."""

    SAME_FACTION = "same_faction"
    """A faction negotiates with other factions, never with itself (R-PBP-NEG-01)."""
    NOT_NEIGHBOURS = "not_neighbours"
    """The two are not neighbours as last judged (R-PBP-NEG-02, R-PBP-NEG-03)."""
    NO_GROUPS = "no_groups"
    """The option ``multiparty_threads`` is off: threads are for pairs only (R-PBP-NEG-01)."""
    GROUP_NOT_MUTUAL = "group_not_mutual"
    """Some two members of the group are not neighbours (R-PBP-NEG-01)."""

    @property
    def rule(self) -> str:
        """The catalogue rule behind this reason."""
        return "R-PBP-NEG-02" if self is NoTalks.NOT_NEIGHBOURS else "R-PBP-NEG-01"


def why_no_talks(state: GameState, ruleset: Ruleset, a: str, b: str) -> NoTalks | None:
    """Why faction ``a`` may not negotiate with ``b`` now, or ``None`` if it may
    (R-PBP-NEG-01, R-PBP-NEG-02: only neighbours as last judged negotiate, R-PBP-NEG-03)."""
    if a == b:
        return NoTalks.SAME_FACTION
    if not judged_neighbours(state, ruleset, a, b):
        return NoTalks.NOT_NEIGHBOURS
    return None


def why_no_group_talks(
    state: GameState, ruleset: Ruleset, asker: str, others: list[str]
) -> NoTalks | None:
    """Why ``asker`` may not open one thread with all of ``others``, or ``None`` (R-PBP-NEG-01:
    a group thread needs the option ``multiparty_threads`` and every member neighbouring every
    other, as last judged). One other is a pair: :func:`why_no_talks`."""
    if asker in others:
        return NoTalks.SAME_FACTION
    if len(others) == 1:
        return why_no_talks(state, ruleset, asker, others[0])
    if not state.options.multiparty_threads:
        return NoTalks.NO_GROUPS
    members = [asker, *others]
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            if not judged_neighbours(state, ruleset, a, b):
                return NoTalks.GROUP_NOT_MUTUAL if a != asker else NoTalks.NOT_NEIGHBOURS
    return None


def apart_pairs(state: GameState, ruleset: Ruleset, members: list[str]) -> list[tuple[str, str]]:
    """The pairs of ``members`` that are not neighbours as last judged, in the order given
    (R-PBP-NEG-01: a group thread needs none)."""
    return [
        (a, b)
        for i, a in enumerate(members)
        for b in members[i + 1 :]
        if not judged_neighbours(state, ruleset, a, b)
    ]


def judged_neighbours(state: GameState, ruleset: Ruleset, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are neighbours as judged at the last recompute (R-PBP-NEG-03);
    before the first judgement, on the live board (:func:`neighbours`)."""
    if state.neighbour_judged == 0:
        return neighbours(state, ruleset, a, b)
    pair = (a, b) if a < b else (b, a)
    return pair in state.neighbour_view


def judged_neighbours_of(state: GameState, ruleset: Ruleset, faction: str) -> list[str]:
    """The live factions neighbouring ``faction`` as last judged, in turn order (R-PBP-NEG-03)."""
    return [
        code
        for code in state.in_play
        if code != faction
        and not _eliminated(state, code)
        and judged_neighbours(state, ruleset, faction, code)
    ]


def may_join_talks(state: GameState, ruleset: Ruleset, members: list[str]) -> list[str]:
    """The live factions that could join a group thread of ``members`` (the asker first), in
    turn order: each neighbours every member as last judged (R-PBP-NEG-01, R-PBP-NEG-03).
    Empty with the option ``multiparty_threads`` off (pairs only), and for no members."""
    if not state.options.multiparty_threads or not members:
        return []
    return [
        code
        for code in judged_neighbours_of(state, ruleset, members[0])
        if code not in members and all(judged_neighbours(state, ruleset, code, m) for m in members)
    ]


@dataclass(frozen=True, slots=True)
class NeighboursJudged(Event):
    """Neighbourhood was judged again at the start of ``round`` (R-PBP-NEG-03): ``gained``
    pairs became neighbours, ``lost`` pairs stopped being neighbours (their threads go
    read-only until they neighbour again). Public: the board is."""

    round: int
    gained: tuple[tuple[str, str], ...]
    lost: tuple[tuple[str, str], ...]


def judge_neighbours(state: GameState, ruleset: Ruleset) -> list[Event]:
    """At the start of a turn: judge neighbourhood again if it is due (R-PBP-NEG-03): at the
    first turn of each game round, or every turn with ``neighbour_recompute`` ``turn``. Keeps
    the pairs in ``state.neighbour_view``; an event if anything changed. Mutates ``state``."""
    if state.options.neighbour_recompute != "turn" and state.neighbour_judged == state.round:
        return []
    view = [(a, b) for a, b in neighbour_pairs(state, ruleset)]  # sorted pairs
    first = state.neighbour_judged == 0
    before = set(state.neighbour_view)
    state.neighbour_view = view
    state.neighbour_judged = state.round
    gained = tuple(p for p in view if p not in before)
    lost = tuple(sorted(before - set(view)))
    if first or (not gained and not lost):
        return []
    return [NeighboursJudged(state.round, gained, lost)]


def neighbour_pairs(state: GameState, ruleset: Ruleset) -> list[list[str]]:
    """Every pair of neighbouring factions in play, each as a sorted ``[a, b]``, sorted
    (R-PBP-NEG-02). Eliminated factions are left out; :func:`judge_neighbours` keeps them."""
    live = [f for f in state.in_play if not _eliminated(state, f)]
    pairs: list[list[str]] = []
    for i, a in enumerate(live):
        for b in live[i + 1 :]:
            if neighbours(state, ruleset, a, b):
                pairs.append(sorted((a, b)))
    return sorted(pairs)


def _eliminated(state: GameState, faction: str) -> bool:
    fs = state.factions.get(faction)
    return fs is None or fs.eliminated
