"""Navigable water on the map: where ships may be and how they move (R-MOVE-11, R-MOVE-13,
R-MOVE-18, R-ATTR-WATER-01, R-ATTR-WATER-03).

Ships live on WATER SPACES: sea zones, and river edges of navigable rivers. Two water spaces
are linked when

* both are sea zones that touch (the map's sea links);
* both are edges of one navigable river that follow each other in the river's listing, from
  source to mouth, and share a province (the chain of R-MOVE-11; the loader checks that listed
  edges follow on from each other);
* one is a river's mouth edge and the other the sea zone of that mouth (R-MOVE-13).

A land province TOUCHES a water space when the province lies on the sea zone's coast or is one
of the two provinces of the river edge; those are the places a ship is mustered next to a
Fortification (R-ATTR-WATER-03), where a land unit boards a ship (R-MOVE-15) and where cargo
lands (R-MOVE-15, R-MOVE-16).

Everything here is worked out from :class:`~caedes_bot.gamedata.model.GameMap` on each call; the
map is small (a dozen sea zones, a dozen navigable edges), so no cache is kept.
"""

from __future__ import annotations

from caedes_bot.gamedata.model import GameMap, RiverEdge

__all__ = [
    "is_navigable",
    "province_waters",
    "river_chain",
    "water_neighbours",
    "water_shores",
]


def is_navigable(game_map: GameMap, space: str) -> bool:
    """Whether ``space`` is a water space a ship may be on: a sea zone or a navigable river
    edge (R-ATTR-WATER-01)."""
    if game_map.is_sea(space):
        return True
    edge = game_map.rivers.get(space)
    return edge is not None and edge.navigable


def river_chain(game_map: GameMap, river: str) -> list[RiverEdge]:
    """The edges of ``river`` in the map's order, source first (R-MOVE-11)."""
    return [e for e in game_map.rivers.values() if e.river == river]


def _chain_links(game_map: GameMap, edge: RiverEdge) -> set[str]:
    chain = river_chain(game_map, edge.river)
    index = next(n for n, e in enumerate(chain) if e.id == edge.id)
    links: set[str] = set()
    for other in (index - 1, index + 1):
        if 0 <= other < len(chain):
            near = chain[other]
            if {near.a, near.b} & {edge.a, edge.b}:
                links.add(near.id)
    return links


def water_neighbours(game_map: GameMap, space: str) -> frozenset[str]:
    """The water spaces a ship may step to from ``space`` in one movement point (R-MOVE-13,
    R-MOVE-18); empty for a province or a non-navigable edge."""
    if game_map.is_sea(space):
        out = set(game_map.sea_adjacency.get(space, frozenset()))
        out |= {e.id for e in game_map.rivers.values() if e.navigable and e.mouth == space}
        return frozenset(out)
    edge = game_map.rivers.get(space)
    if edge is None or not edge.navigable:
        return frozenset()
    out = _chain_links(game_map, edge)
    if edge.mouth is not None:
        out.add(edge.mouth)
    return frozenset(out)


def province_waters(game_map: GameMap, province: str) -> tuple[str, ...]:
    """The water spaces ``province`` touches, sea zones first, each group in id order: the
    sea zones on its coast and its navigable river edges (R-ATTR-WATER-03, R-MOVE-15)."""
    seas = sorted(game_map.seas_of(province))
    edges = sorted(e.id for e in game_map.river_edges_of(province) if e.navigable)
    return (*seas, *edges)


def water_shores(game_map: GameMap, space: str) -> tuple[str, ...]:
    """The land provinces touching water space ``space``, in id order: a sea zone's coast, or
    the two provinces of a river edge (R-MOVE-15: where cargo may land)."""
    if game_map.is_sea(space):
        return tuple(sorted(game_map.coast_of(space)))
    edge = game_map.rivers.get(space)
    if edge is None:
        return ()
    return tuple(sorted((edge.a, edge.b)))
