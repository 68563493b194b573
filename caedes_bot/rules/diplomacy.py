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
recomputed at the start of each game round (R-PBP-NEG-03); this module computes it from the
state it is given, so a caller that needs the round-start view passes the round-start state
or keeps :func:`neighbour_pairs` of it.
"""

from __future__ import annotations

import enum

from caedes_bot.gamedata.model import GameMap, Ruleset
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
    """The two are not neighbours now (R-PBP-NEG-02)."""

    @property
    def rule(self) -> str:
        """The catalogue rule behind this reason."""
        return "R-PBP-NEG-01" if self is NoTalks.SAME_FACTION else "R-PBP-NEG-02"


def why_no_talks(state: GameState, ruleset: Ruleset, a: str, b: str) -> NoTalks | None:
    """Why faction ``a`` may not negotiate with ``b`` now, or ``None`` if it may
    (R-PBP-NEG-01, R-PBP-NEG-02: only neighbours negotiate; see :func:`neighbours`)."""
    if a == b:
        return NoTalks.SAME_FACTION
    if not neighbours(state, ruleset, a, b):
        return NoTalks.NOT_NEIGHBOURS
    return None


def neighbour_pairs(state: GameState, ruleset: Ruleset) -> list[list[str]]:
    """Every pair of neighbouring factions in play, each as a sorted ``[a, b]``, sorted (R-PBP-NEG-02).

    Eliminated factions are left out. The JSON-friendly shape lets a caller keep the round-start
    view in the state (R-PBP-NEG-03).
    """
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
