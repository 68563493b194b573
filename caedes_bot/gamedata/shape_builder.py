"""Make a polygon for every space of a map from one point per space (authoring time only).

Used by ``scripts/make_map_shapes.py`` to write ``config/caedes/map_shapes.toml`` once, and by
the tests to build a small test map; the bot itself only reads the written shapes
(:mod:`caedes_bot.gamedata.geometry`).

The construction draws the adjacency of ``map.toml`` (land borders, coasts and sea links) as
straight segments between the given points, which must not cross. Every face of that drawing is
then shared out among its corners: the corner ``v`` of a face with centre ``C`` gets the
quadrilateral ``v``, the middle of its edge to the next corner, ``C``, the middle of its edge to
the previous corner. Two spaces joined by a segment so share the border ``C1``-middle-``C2``
(positive length); two corners of one face that are not joined meet only at its centre, a point
where four or more spaces meet. The outside of the drawing is triangulated (constrained
Delaunay) towards a frame of "void" points that belong to no space, so spaces on the edge of the
map get an edge too. The drawing follows the borders; the borders never follow the drawing.

Coordinates are inches east (x) and north (y) of Orme, like the Map Area Index.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations

import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import polygonize, polylabel, unary_union

__all__ = ["LayoutError", "build_shapes", "crossings"]

_ROUND = 3
Pair = frozenset[str]


class LayoutError(ValueError):
    """The points cannot be turned into shapes; the message says why (crossing segments...)."""


def _key(x: float, y: float) -> tuple[float, float]:
    return (round(x, 6), round(y, 6))


def crossings(
    positions: Mapping[str, tuple[float, float]], pairs: Iterable[Pair]
) -> list[tuple[Pair, Pair]]:
    """Pairs of adjacency segments that cross or touch away from a shared end point."""
    segs = [(p, LineString([positions[a] for a in sorted(p)])) for p in pairs]
    out: list[tuple[Pair, Pair]] = []
    for (p, s), (q, t) in combinations(segs, 2):
        if p & q:
            continue
        if s.intersects(t):
            out.append((p, q))
    for p, s in segs:
        for v, xy in positions.items():
            if v not in p and s.distance(Point(xy)) < 1e-6:
                out.append((p, frozenset({v})))
    return out


def _mid(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _r(p: tuple[float, float]) -> tuple[float, float]:
    return (round(p[0], _ROUND), round(p[1], _ROUND))


def build_shapes(
    positions: Mapping[str, tuple[float, float]],
    pairs: Iterable[Pair],
    *,
    margin: float = 6.0,
    step: float = 6.0,
    edge_band: float = 2.5,
) -> dict[str, Polygon]:
    """One polygon per space of ``positions``, touching exactly along the given ``pairs``.

    Args:
        positions: space id -> (x, y) in inches; the segments of ``pairs`` must not cross.
        pairs: the adjacency, each a frozenset of two space ids.
        margin: how far (inches) the frame of void points lies outside the points.
        step: spacing (inches) of the void points along the frame.
        edge_band: how far (inches) the outermost spaces reach beyond their points.

    Returns:
        space id -> polygon, coordinates rounded to 1/1000 inch.

    Raises:
        LayoutError: segments cross, or a face cannot be shared out.
    """
    pairs = [frozenset(p) for p in pairs]
    adjacent = set(pairs)
    bad = crossings(positions, pairs)
    if bad:
        raise LayoutError(
            "segments cross: " + "; ".join(f"{sorted(p)} x {sorted(q)}" for p, q in bad[:12])
        )
    by_xy = {_key(*xy): v for v, xy in positions.items()}
    xy_of: dict[str, tuple[float, float]] = {
        v: (float(x), float(y)) for v, (x, y) in positions.items()
    }
    lines = [LineString([xy_of[a] for a in sorted(p)]) for p in pairs]
    faces = [f for f in polygonize(lines)]
    pieces: dict[str, list[BaseGeometry]] = {v: [] for v in positions}

    def add_face(corners: list[str], centre: tuple[float, float]) -> None:
        n = len(corners)
        for i, v in enumerate(corners):
            nxt, prv = corners[(i + 1) % n], corners[i - 1]
            m1 = (
                centre
                if frozenset({v, nxt}) not in adjacent and not _void(v, nxt)
                else _mid(xy_of[v], xy_of[nxt])
            )
            m2 = (
                centre
                if frozenset({v, prv}) not in adjacent and not _void(v, prv)
                else _mid(xy_of[v], xy_of[prv])
            )
            ring = [_r(xy_of[v]), _r(m1), _r(centre), _r(m2)]
            poly: BaseGeometry = Polygon(ring)
            if not poly.is_valid:
                poly = shapely.make_valid(poly)
            if poly.area > 0 and v in pieces:
                pieces[v].append(poly)

    def corners_of(poly: Polygon) -> list[str]:
        out = []
        for x, y in list(poly.exterior.coords)[:-1]:
            v = by_xy.get(_key(x, y))
            if v is None:
                raise LayoutError(f"face corner ({x}, {y}) is no space")
            out.append(v)
        return out

    for face in faces:
        if face.interiors:
            raise LayoutError("a face has a hole: the adjacency drawing is not connected")
        corners = corners_of(face)
        centre = face.centroid
        if not _sees_all(face, centre, corners, xy_of):
            centre = polylabel(face, 0.01)
            if not _sees_all(face, centre, corners, xy_of):
                raise LayoutError(f"face {corners} is not star-shaped from any centre tried")
        add_face(corners, (centre.x, centre.y))

    # The outside: constrained Delaunay triangles between the drawing and a frame of void points.
    inner = unary_union(faces)
    if not isinstance(inner, Polygon) or inner.interiors:
        raise LayoutError("the drawing's faces do not make one polygon without holes")
    minx, miny, maxx, maxy = inner.bounds
    frame = box(minx - margin, miny - margin, maxx + margin, maxy + margin)
    frame = shapely.segmentize(frame, step)
    ring = Polygon(frame.exterior.coords, [inner.exterior.coords])
    void_ids: dict[tuple[float, float], str] = {}
    for i, (x, y) in enumerate(list(frame.exterior.coords)[:-1]):
        void_ids[_key(x, y)] = f"~{i}"
        xy_of[f"~{i}"] = (x, y)
    tris: list[list[str]] = []
    for tri in shapely.get_parts(shapely.constrained_delaunay_triangles(ring)):
        corners = []
        for x, y in list(tri.exterior.coords)[:-1]:
            v = by_xy.get(_key(x, y)) or void_ids.get(_key(x, y))
            if v is None:
                raise LayoutError(f"triangle corner ({x}, {y}) is neither a space nor void")
            corners.append(v)
        tris.append(corners)

    def fake_edges(corners: list[str]) -> list[Pair]:
        return [
            frozenset({a, b})
            for a, b in combinations(corners, 2)
            if not _void(a, b) and frozenset({a, b}) not in adjacent
        ]

    # A triangle edge between two spaces that do not border is cut at its middle by a void
    # point, so that the two spaces never meet there.
    for corners in tris:
        fakes = fake_edges(corners)
        mids: dict[Pair, str] = {}
        for pair in fakes:
            a, b = sorted(pair)
            m = _mid(xy_of[a], xy_of[b])
            name = f"~m:{a}:{b}"
            xy_of[name] = m
            mids[pair] = name
        for sub in _split(corners, mids):
            c = Polygon([xy_of[v] for v in sub]).centroid
            add_face(sub, (c.x, c.y))

    # The map's outer edge: a smooth band around the drawing, not the frame's zigzag.
    edge = inner.buffer(edge_band, quad_segs=4)
    out: dict[str, Polygon] = {}
    for v, parts in pieces.items():
        shape = unary_union(parts).intersection(edge)
        if not isinstance(shape, Polygon):
            raise LayoutError(f"space '{v}' is not one polygon ({shape.geom_type})")
        fixed = shapely.set_precision(shape, 10**-_ROUND)
        assert isinstance(fixed, Polygon)
        out[v] = fixed
    return out


def _split(corners: list[str], mids: Mapping[Pair, str]) -> list[list[str]]:
    """Triangles covering triangle ``corners`` whose edges avoid the cut edges of ``mids``."""
    a, b, c = corners
    m = {frozenset(p): v for p, v in mids.items()}
    cut = [frozenset(p) in m for p in ((a, b), (b, c), (c, a))]
    if not any(cut):
        return [corners]
    if all(cut):
        ab, bc, ca = m[frozenset((a, b))], m[frozenset((b, c))], m[frozenset((c, a))]
        return [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
    # Rotate so that the cut edges come first: (a, b) is cut; (b, c) maybe.
    for _ in range(3):
        if cut[0] and (cut[1] or not cut[2]):
            break
        a, b, c = b, c, a
        cut = cut[1:] + cut[:1]
    ab = m[frozenset((a, b))]
    if cut[1]:
        bc = m[frozenset((b, c))]
        return [[b, bc, ab], [ab, bc, c], [ab, c, a]]
    return [[a, ab, c], [ab, b, c]]


def _void(a: str, b: str) -> bool:
    return a.startswith("~") or b.startswith("~")


def _sees_all(
    face: Polygon, centre: Point, corners: list[str], xy_of: Mapping[str, tuple[float, float]]
) -> bool:
    """Every segment from ``centre`` to a corner or edge middle lies within ``face``."""
    if not face.contains(centre):
        return False
    grown = face.buffer(1e-7)
    n = len(corners)
    for i, v in enumerate(corners):
        a, b = xy_of[v], xy_of[corners[(i + 1) % n]]
        for target in (a, _mid(a, b)):
            if not grown.contains(LineString([(centre.x, centre.y), target])):
                return False
    return True
