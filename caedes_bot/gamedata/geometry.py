"""Reading ``map_shapes.toml`` (the drawn map) and checking it against ``map.toml``'s borders.

Part of the loader (:mod:`caedes_bot.gamedata.loader`). The shapes are made once by
``scripts/make_map_shapes.py``; this module trusts none of it and checks (rule IDs in brackets):

* one polygon for every province and sea zone, and nothing else; each a valid simple polygon;
* two spaces share a border of positive length exactly when ``map.toml`` lists them as land
  border, coast or sea link (points where four or more spaces meet do not count); shapes do not
  overlap; the spaces leave no hole inside the map;
* islands touch no land off their island at all, not even at a point [R-MOVE-10];
* the border of each river edge continues the one before it, and a navigable river's mouth
  edge reaches its sea zone [R-MOVE-11, R-MOVE-13].

Problems name the spaces concerned. The borders are the truth: a disagreement is a fault in
the shapes, and the fix is to move points in the script, never to change ``map.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import shapely
from shapely.geometry import LineString, MultiLineString, Polygon
from shapely.ops import linemerge, polylabel, unary_union

from caedes_bot.gamedata.model import GameMap, MapGeometry, Point, RiverEdge
from caedes_bot.gamedata.schema import DataReader

__all__ = ["FILE", "MIN_BORDER", "check_shapes", "load_geometry", "shared_border"]

FILE = "map_shapes.toml"
MIN_BORDER = 0.01  # inches: a shared border shorter than this counts as a point
_MIN_OVERLAP = 1e-4  # square inches


def load_geometry(r: DataReader, game_map: GameMap) -> MapGeometry | None:
    """The checked shapes of ``map_shapes.toml``; ``None`` if the file is absent or has problems.

    An absent file is no problem (the map then has no picture); a present one is checked in
    full by :func:`check_shapes` and every problem recorded on ``r``.
    """
    if not (r.root / FILE).is_file():
        return None
    data = r.read(FILE)
    if data is None:
        return None
    for key in sorted(set(data) - {"shapes"}):
        r.problem(FILE, "", f"schema: unexpected top-level key '{key}'")
    raw = data.get("shapes")
    if not isinstance(raw, dict):
        r.problem(FILE, "", "schema: expected a [shapes] table of space id = [[x, y], ...]")
        return None
    polygons: dict[str, Polygon] = {}
    spaces = [*game_map.provinces, *game_map.sea_zones]
    for space, corners in raw.items():
        item = f"shape '{space}'"
        if space not in game_map.provinces and space not in game_map.sea_zones:
            r.unknown(FILE, item, "province or sea zone", space, spaces)
            continue
        points = _points(corners)
        if points is None:
            r.problem(FILE, item, "schema: expected at least three [x, y] corners (numbers)")
            continue
        poly = Polygon(points)
        if not poly.is_valid:
            r.problem(FILE, item, f"not a simple polygon: {shapely.is_valid_reason(poly)}")
            continue
        polygons[space] = poly
    for space in spaces:
        if space not in raw:
            r.problem(FILE, f"shape '{space}'", "missing: every province and sea zone has one")
    before = len(r.problems)
    for item, message in check_shapes(game_map, polygons):
        r.problem(FILE, item, message)
    if len(r.problems) != before or len(polygons) != len(spaces):
        return None
    return _geometry(game_map, polygons)


def _points(corners: object) -> list[Point] | None:
    if not isinstance(corners, list) or len(corners) < 3:
        return None
    out: list[Point] = []
    for c in corners:
        if (
            not isinstance(c, list)
            or len(c) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in c)
        ):
            return None
        out.append((float(c[0]), float(c[1])))
    return out


def shared_border(a: Polygon, b: Polygon) -> float:
    """Length (inches) of the boundary two shapes share; 0.0 when they meet only at points."""
    common = a.boundary.intersection(b.boundary)
    return float(common.length)


def _bordering(game_map: GameMap) -> set[frozenset[str]]:
    out: set[frozenset[str]] = set()
    for p, ns in game_map.land_adjacency.items():
        out.update(frozenset((p, n)) for n in ns)
    for p, ss in game_map.coasts.items():
        out.update(frozenset((p, s)) for s in ss)
    for s, ns in game_map.sea_adjacency.items():
        out.update(frozenset((s, n)) for n in ns)
    return out


def check_shapes(game_map: GameMap, polygons: Mapping[str, Polygon]) -> list[tuple[str, str]]:
    """Every way ``polygons`` disagree with the borders of ``game_map``, as (item, message).

    Spaces without a polygon are skipped (the caller reports them). An empty list means the
    shapes fit: see the module docstring for what is checked.
    """
    problems: list[tuple[str, str]] = []
    bordering = _bordering(game_map)
    ids = sorted(polygons)
    tree = shapely.STRtree([polygons[i] for i in ids])
    near: set[tuple[str, str]] = set()
    for i, j in zip(*tree.query([polygons[i] for i in ids], predicate="intersects"), strict=True):
        if i < j:
            near.add((ids[i], ids[j]))
    touching: set[frozenset[str]] = set()
    for a, b in sorted(near):
        pa, pb = polygons[a], polygons[b]
        pair = f"shapes '{a}' and '{b}'"
        overlap = pa.intersection(pb).area
        if overlap > _MIN_OVERLAP:
            problems.append((pair, f"overlap by {overlap:.3g} square inches"))
        length = shared_border(pa, pb)
        if length > MIN_BORDER:
            touching.add(frozenset((a, b)))
        if length > MIN_BORDER and frozenset((a, b)) not in bordering:
            problems.append(
                (
                    pair,
                    f"share a border {length:.2f} inches long, but map.toml does not say they"
                    " border; move the shapes apart (the borders never follow the picture)",
                )
            )
    for pair_set in sorted(bordering, key=sorted):
        a, b = sorted(pair_set)
        if a in polygons and b in polygons and pair_set not in touching:
            problems.append(
                (
                    f"shapes '{a}' and '{b}'",
                    "map.toml says they border, but their shapes share no border of"
                    " positive length",
                )
            )
    problems.extend(_check_holes(polygons))
    problems.extend(_check_islands(game_map, polygons, near))
    problems.extend(_check_rivers(game_map, polygons))
    return problems


def _check_holes(polygons: Mapping[str, Polygon]) -> list[tuple[str, str]]:
    """A hole in the union of all shapes is a gap inside the map that belongs to no space."""
    if not polygons:
        return []
    union = unary_union(list(polygons.values()))
    out = []
    for part in shapely.get_parts(union):
        for hole in part.interiors:
            ring = Polygon(hole)
            around = sorted(s for s, p in polygons.items() if p.distance(ring) < MIN_BORDER)
            at = ring.representative_point()
            out.append(
                (
                    f"gap at ({at.x:.1f}, {at.y:.1f})",
                    "a hole inside the map that belongs to no space, between "
                    + ", ".join(f"'{s}'" for s in around),
                )
            )
    return out


def _check_islands(
    game_map: GameMap, polygons: Mapping[str, Polygon], near: set[tuple[str, str]]
) -> list[tuple[str, str]]:
    """R-MOVE-10: an island province touches no province off its island, even at a point."""
    out = []
    provinces = game_map.provinces
    for a, b in sorted(near):
        if a in provinces and b in provinces and provinces[a].island != provinces[b].island:
            out.append(
                (
                    f"shapes '{a}' and '{b}'",
                    "an island touches land off its island; islands are reached only by sea"
                    " (R-MOVE-10)",
                )
            )
    return out


def _border_line(a: Polygon, b: Polygon) -> LineString | MultiLineString | None:
    common = a.boundary.intersection(b.boundary)
    lines = [g for g in shapely.get_parts(common) if g.geom_type == "LineString" and g.length > 0]
    if not lines:
        return None
    if len(lines) == 1:
        line = lines[0]
        assert isinstance(line, LineString)
        return line
    merged = linemerge(lines)
    if isinstance(merged, LineString | MultiLineString):
        return merged
    return None


def _river_order(game_map: GameMap) -> dict[str, list[RiverEdge]]:
    """River edges grouped by river, in the order of ``map.toml`` (source to mouth)."""
    out: dict[str, list[RiverEdge]] = {}
    for edge in game_map.rivers.values():
        out.setdefault(edge.river, []).append(edge)
    return out


def _check_rivers(game_map: GameMap, polygons: Mapping[str, Polygon]) -> list[tuple[str, str]]:
    """R-MOVE-11/13: each edge's border joins the one before; a mouth reaches its sea."""
    out: list[tuple[str, str]] = []
    for river, edges in _river_order(game_map).items():
        previous: Any = None
        for edge in edges:
            if edge.a not in polygons or edge.b not in polygons:
                previous = None
                continue
            line = _border_line(polygons[edge.a], polygons[edge.b])
            item = f"river '{river}' edge ['{edge.a}', '{edge.b}']"
            if line is None:
                previous = None
                continue  # reported as a missing border already
            if previous is not None and line.distance(previous) > MIN_BORDER:
                out.append((item, "its border does not join the border of the edge before"))
            if (
                edge.mouth is not None
                and edge.mouth in polygons
                and line.distance(polygons[edge.mouth]) > MIN_BORDER
            ):
                out.append(
                    (
                        item,
                        f"the mouth edge's border does not reach sea zone '{edge.mouth}'"
                        " (R-MOVE-13)",
                    )
                )
            previous = line
    return out


def _geometry(game_map: GameMap, polygons: Mapping[str, Polygon]) -> MapGeometry:
    shapes = {s: tuple(list(p.exterior.coords)[:-1]) for s, p in polygons.items()}
    inner = {}
    for s, p in polygons.items():
        c = polylabel(p, 0.05)
        inner[s] = (float(c.x), float(c.y))
    rivers: dict[str, tuple[Point, ...]] = {}
    for edge_id, edge in game_map.rivers.items():
        line = _border_line(polygons[edge.a], polygons[edge.b])
        if isinstance(line, LineString):
            rivers[edge_id] = tuple((float(x), float(y)) for x, y in line.coords)
        elif isinstance(line, MultiLineString):
            longest = max(line.geoms, key=lambda g: g.length)
            rivers[edge_id] = tuple((float(x), float(y)) for x, y in longest.coords)
    minx, miny, maxx, maxy = unary_union(list(polygons.values())).bounds
    return MapGeometry(
        shapes={s: tuple((float(x), float(y)) for x, y in c) for s, c in shapes.items()},
        inner=inner,
        rivers=rivers,
        bounds=(float(minx), float(miny), float(maxx), float(maxy)),
    )
