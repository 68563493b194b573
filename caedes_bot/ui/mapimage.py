"""The map as a PNG picture, drawn with Pillow from a :class:`~caedes_bot.ui.mapscene.MapScene`.

:func:`render_map` is plain CPU work (about a tenth of a second) and must run off the event
loop: :class:`~caedes_bot.ui.mapdraw.MapDrawer` runs it in a thread and caches the result.

What is drawn (issue 17; ux.md "Accessibility"):

* the picture is :data:`WIDTH` pixels wide, always: a key column of :data:`KEY_WIDTH` pixels on
  the left (the round, the faction whose turn it is and its step at the top, then the legend)
  and the map beside it; the height follows the map's proportions;
* every text is at least :data:`MIN_FONT_PX` pixels high (province names :data:`NAME_PX`), in
  Pillow's built-in scalable font (``ImageFont.load_default(size=...)``, Pillow 10.1 or
  later), which installs with Pillow, so a fresh machine needs no font;
* a province is filled with its owner's colour (the Okabe-Ito palette of ``factions.toml``)
  and its owner's tag is written under its point, so colour is never the only cue; unowned land
  is a neutral parchment; each terrain adds a light pattern of small symbols; sea zones are a
  pale grey-blue with waves, far from any faction's blue; rivers are lines along their
  borders, thicker when navigable;
* one counter per faction per space: the faction's tag and its number of units, then marks
  (``T`` Towers, ``S`` ships, ``+`` some carry units, ``H`` a Hero); a battle pending or being
  fought is a crossed mark; a contested province has a dashed outline;
* around each space's inner point (its pole of inaccessibility) a disc of :data:`CLEAR_PX`
  pixels is left in the plain owner colour: no text, counter or pattern covers it.
"""

from __future__ import annotations

import io
import itertools
import threading
from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np
import shapely
from PIL import Image, ImageDraw, ImageFont
from shapely.geometry import Polygon, box

from caedes_bot.gamedata.model import GameMap, MapGeometry, Ruleset, Terrain
from caedes_bot.ui.mapscene import Counter, MapScene

__all__ = [
    "CLEAR_PX",
    "KEY_WIDTH",
    "MIN_FONT_PX",
    "NAME_PX",
    "NEUTRAL",
    "SEA",
    "WIDTH",
    "NoMapShapes",
    "faction_rgb",
    "layout",
    "place_labels",
    "render_map",
]

WIDTH = 1600  # pixels, every picture
KEY_WIDTH = 250  # pixels, the key column on the left
MIN_FONT_PX = 13  # the smallest text drawn
NAME_PX = 14  # province and sea zone names
CLEAR_PX = 6  # radius of the plain disc at each inner point
_PAD = 18

NEUTRAL = (236, 228, 210)  # unowned land: parchment
SEA = (226, 236, 241)  # sea zones: pale grey-blue
_WAVE = (176, 198, 210)
_VOID = (250, 250, 248)
_BORDER = (70, 70, 70)
_RIVER = (40, 96, 140)
_INK = (20, 20, 20)
_WHITE = (255, 255, 255)


class NoMapShapes(Exception):
    """The game data has no ``map_shapes.toml``, so there is no map to draw."""


def faction_rgb(ruleset: Ruleset, code: str) -> tuple[int, int, int]:
    """A faction's colour (``factions.toml``, Okabe-Ito) as (r, g, b); grey if unknown."""
    try:
        colour = ruleset.faction(code).colour
    except KeyError:
        return (128, 128, 128)
    return ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    if not isinstance(font, ImageFont.FreeTypeFont):  # Pillow built without FreeType
        raise RuntimeError("Pillow needs FreeType to draw the map's text")
    return font


def _ink_on(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = rgb
    return _INK if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else _WHITE


def _mix(rgb: tuple[int, int, int], other: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (
        round(rgb[0] + (other[0] - rgb[0]) * t),
        round(rgb[1] + (other[1] - rgb[1]) * t),
        round(rgb[2] + (other[2] - rgb[2]) * t),
    )


class Layout:
    """Where the map goes in the picture: world inches -> pixels (y grows downwards)."""

    def __init__(self, bounds: tuple[float, float, float, float]) -> None:
        minx, miny, maxx, maxy = bounds
        self.minx, self.maxy = minx, maxy
        inner_w = WIDTH - KEY_WIDTH - 2 * _PAD
        self.scale = inner_w / (maxx - minx)
        self.height = max(720, round((maxy - miny) * self.scale) + 2 * _PAD)
        self.top = (self.height - (maxy - miny) * self.scale) / 2

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (
            KEY_WIDTH + _PAD + (x - self.minx) * self.scale,
            self.top + (self.maxy - y) * self.scale,
        )

    def ring(self, points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
        return [self.px(x, y) for x, y in points]


def _bounds(game_map: GameMap, geometry: MapGeometry, focus: str | None) -> tuple[float, ...]:
    if focus is None or focus not in geometry.shapes:
        return geometry.bounds
    near = {focus} | game_map.land_neighbours(focus) | game_map.seas_of(focus)
    if focus in game_map.sea_zones:
        near |= game_map.sea_adjacency.get(focus, frozenset()) | game_map.coast_of(focus)
    pts = np.array([p for s in near for p in geometry.shapes[s]])
    minx, miny = pts.min(axis=0) - 1.5
    maxx, maxy = pts.max(axis=0) + 1.5
    # keep the map's proportions sensible: at least half as tall as wide, at most as tall
    w, h = maxx - minx, maxy - miny
    if h < w * 0.6:
        miny, maxy = (miny + maxy - w * 0.6) / 2, (miny + maxy + w * 0.6) / 2
    if h > w * 1.1:
        minx, maxx = (minx + maxx - h / 1.1) / 2, (minx + maxx + h / 1.1) / 2
    return (float(minx), float(miny), float(maxx), float(maxy))


def layout(ruleset: Ruleset, scene: MapScene) -> Layout:
    """The pixel layout :func:`render_map` uses for ``scene`` (tests find inner points with it).

    Raises:
        NoMapShapes: the game data has no shapes.
    """
    geometry = ruleset.map.geometry
    if geometry is None:
        raise NoMapShapes()
    minx, miny, maxx, maxy = _bounds(ruleset.map, geometry, scene.focus)
    return Layout((minx, miny, maxx, maxy))


#: One drawing at a time in the whole process: the FreeType fonts (shared, cached) must not be
#: used by two threads at once.
_DRAWING = threading.Lock()


def render_map(scene: MapScene, ruleset: Ruleset) -> bytes:
    """The PNG picture of ``scene`` (see the module docstring), :data:`WIDTH` pixels wide.

    Pure CPU work: call it off the event loop. Safe from any thread (drawings take turns).

    Raises:
        NoMapShapes: the game data has no ``map_shapes.toml``.
    """
    with _DRAWING:
        return _render(scene, ruleset)


def _render(scene: MapScene, ruleset: Ruleset) -> bytes:
    geometry = ruleset.map.geometry
    if geometry is None:
        raise NoMapShapes()
    game_map = ruleset.map
    lay = layout(ruleset, scene)
    image = Image.new("RGB", (WIDTH, lay.height), _VOID)
    draw = ImageDraw.Draw(image)
    fills = _fills(scene, ruleset)
    rings = {s: lay.ring([*c, c[0]]) for s, c in geometry.shapes.items()}
    polygons = {s: Polygon(r) for s, r in rings.items()}
    view = box(KEY_WIDTH, 0, WIDTH, lay.height)
    shown = [s for s, p in polygons.items() if p.intersects(view)]
    # 1. fills
    for space in shown:
        draw.polygon(rings[space], fill=fills[space])
    # 2. what each space says, placed first so that patterns keep clear of it
    keep_clear: list[tuple[float, float, float, float]] = []
    labels = place_labels(draw, scene, ruleset, lay, shown)
    for space, items in labels:
        ix, iy = lay.px(*geometry.inner[space])
        keep_clear.append(
            (ix - CLEAR_PX - 4, iy - CLEAR_PX - 4, ix + CLEAR_PX + 4, iy + CLEAR_PX + 4)
        )
        keep_clear.extend(b for b, _ in items)
    # 3. patterns: terrain on land, waves at sea, clear of every label (and 8 px more)
    clear = np.array(keep_clear) + np.array([-8, -8, 8, 8])
    points = _pattern_points(geometry, polygons, lay, shown)
    for space in shown:
        _pattern(draw, game_map, space, points[space], fills[space], clear)
    # 4. borders, coasts, contested outlines, rivers
    for space in shown:
        draw.line(rings[space], fill=_BORDER, width=1)
    for edge_id, line in geometry.rivers.items():
        navigable = game_map.rivers[edge_id].navigable
        draw.line(lay.ring(line), fill=_RIVER, width=5 if navigable else 3, joint="curve")
    for space in scene.contested:
        if space in polygons:
            _dashed(draw, rings[space])
    if scene.highlight is not None:
        for space, owner in scene.owners.items():
            if owner == scene.highlight and space in polygons:
                draw.line(rings[space], fill=_INK, width=3)
    # 5. names, tags, counters, battle marks
    for space, items in labels:
        _label(draw, ruleset, space, items, fills[space])
    # 6. the key column
    _key(draw, scene, ruleset, lay.height)
    # 255 colours are plenty (flat fills, thin lines, anti-aliased text) and make the PNG a
    # third of the size and twice as quick to write; flat colours move by a step or two at most.
    out = io.BytesIO()
    palette = image.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def _fills(scene: MapScene, ruleset: Ruleset) -> dict[str, tuple[int, int, int]]:
    game_map = ruleset.map
    out: dict[str, tuple[int, int, int]] = {s: SEA for s in game_map.sea_zones}
    for p in game_map.provinces:
        owner = scene.owners.get(p)
        if owner is None:
            out[p] = NEUTRAL
            continue
        rgb = faction_rgb(ruleset, owner)
        if scene.highlight is not None and owner != scene.highlight:
            rgb = _mix(rgb, NEUTRAL, 0.7)
        out[p] = rgb
    return out


def _name_lines(ruleset: Ruleset, space: str) -> list[str]:
    name = ruleset.map.space_name(space)
    if len(name) <= 14 or " " not in name:
        return [name]
    words = name.split()
    half = (len(words) + 1) // 2
    return [" ".join(words[:half]), " ".join(words[half:])]


def _counter_text(counter: Counter) -> str:
    marks = counter.marks()
    return f"{counter.faction} {counter.units}" + (f" {marks}" if marks else "")


def _label_items(
    draw: ImageDraw.ImageDraw, scene: MapScene, ruleset: Ruleset, space: str, ix: float, iy: float
) -> list[_Item]:
    """Where a space's texts and marks go: the name above its inner point, the owner's tag,
    any battle mark and the counters below, each with the box it covers."""
    items: list[_Item] = []
    name_font, small = _font(NAME_PX), _font(MIN_FONT_PX)
    lines = _name_lines(ruleset, space)
    y = iy - CLEAR_PX - 3
    for line in reversed(lines):
        left, top, right, bottom = draw.textbbox((ix, y), line, font=name_font, anchor="mb")
        items.append(((left - 2, top - 2, right + 2, bottom + 2), ("name", line, (ix, y))))
        y = top - 2
    y = iy + CLEAR_PX + 3
    owner = scene.owners.get(space)
    if owner is not None:
        left, top, right, bottom = draw.textbbox((ix, y), owner, font=small, anchor="mt")
        items.append(((left - 2, top - 2, right + 2, bottom + 2), ("tag", owner, (ix, y))))
        y = bottom + 4
    if space in scene.battles:
        items.append(((ix + 14, iy - 9, ix + 32, iy + 9), ("battle", "", (ix + 23, iy))))
    counters = scene.counters.get(space, ())
    per_row = 1 if len(counters) <= _STACKED else 2
    for start in range(0, len(counters), per_row):
        row = [(c, _counter_text(c)) for c in counters[start : start + per_row]]
        widths = [draw.textlength(text, font=small) + 10 for _, text in row]
        x = ix - (sum(widths) + _COUNTER_GAP * (len(row) - 1)) / 2
        bottom = y
        for (counter, text), width in zip(row, widths, strict=True):
            cx = x + width / 2
            left, top, right, bottom = draw.textbbox((cx, y + 2), text, font=small, anchor="mt")
            box = (cx - width / 2, top - 3, cx + width / 2, bottom + 3)
            items.append((box, ("counter", text, counter)))
            x += width + _COUNTER_GAP
        y = bottom + 6
    return items


#: Up to this many counters in a space stand in one column; more go two to a row, so that a
#: crowded space keeps its counters near its own name instead of running over its neighbours.
_STACKED = 3
_COUNTER_GAP = 4  # pixels between two counters in a row


_Item = tuple[tuple[float, float, float, float], tuple[str, str, object]]

#: How far sideways a space's counters may move to keep off other spaces' names (pixels).
_NUDGES = (0, -16, 16, -32, 32, -48, 48, -64, 64, -80, 80)


def place_labels(
    draw: ImageDraw.ImageDraw, scene: MapScene, ruleset: Ruleset, lay: Layout, shown: Sequence[str]
) -> list[tuple[str, list[_Item]]]:
    """Each shown space's texts and marks (see :func:`_label_items`), with a crowded space's
    counters moved sideways, as little as they can, so that they cover no other space's name,
    owner tag or inner disc (the first of :data:`_NUDGES` that does; else they stay centred).

    In a zoomed view, a space whose inner point lies outside the map area shows no texts, and
    the texts of a space near an edge move inwards, so that no name is cut by the key column
    or the picture's edge."""
    geometry = ruleset.map.geometry
    assert geometry is not None
    labels: list[tuple[str, list[_Item]]] = []
    for space in shown:
        ix, iy = lay.px(*geometry.inner[space])
        if not (KEY_WIDTH <= ix <= WIDTH and 0 <= iy <= lay.height):
            labels.append((space, []))  # a space cut by a zoom's edge: its point is not shown
            continue
        labels.append((space, _inside(_label_items(draw, scene, ruleset, space, ix, iy), lay)))
    fixed = [(s, b) for s, items in labels for b, (what, _, _) in items if what != "counter"]
    for space in shown:  # and every inner point's plain disc
        ix, iy = lay.px(*geometry.inner[space])
        fixed.append((space, (ix - CLEAR_PX, iy - CLEAR_PX, ix + CLEAR_PX, iy + CLEAR_PX)))
    out = []
    for space, items in labels:
        boxes = [b for b, (what, _, _) in items if what == "counter"]
        others = [b for s, b in fixed if s != space]
        for dx in _NUDGES if boxes else ():
            moved = [(b[0] + dx, b[1], b[2] + dx, b[3]) for b in boxes]
            if not any(_overlaps(m, o) for m in moved for o in others):
                items = [
                    ((b[0] + dx, b[1], b[2] + dx, b[3]), it) if it[0] == "counter" else (b, it)
                    for b, it in items
                ]
                break
        out.append((space, items))
    return out


def _inside(items: list[_Item], lay: Layout) -> list[_Item]:
    """``items`` moved, as a block, as little as keeps them all inside the map area."""
    if not items:
        return items
    left = min(b[0] for b, _ in items)
    right = max(b[2] for b, _ in items)
    top = min(b[1] for b, _ in items)
    bottom = max(b[3] for b, _ in items)
    dx = max(0.0, KEY_WIDTH + 2 - left) or min(0.0, WIDTH - 2 - right)
    dy = max(0.0, 2 - top) or min(0.0, lay.height - 2 - bottom)
    if not dx and not dy:
        return items
    out: list[_Item] = []
    for b, (what, text, extra) in items:
        if isinstance(extra, tuple):  # a name, tag or battle mark's anchor point
            extra = (extra[0] + dx, extra[1] + dy)
        out.append(((b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy), (what, text, extra)))
    return out


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _label(
    draw: ImageDraw.ImageDraw,
    ruleset: Ruleset,
    space: str,
    items: Sequence[_Item],
    fill: tuple[int, int, int],
) -> None:
    """Draw what :func:`_label_items` placed: name, owner tag, battle mark, counters."""
    name_font, small = _font(NAME_PX), _font(MIN_FONT_PX)
    at_sea = space in ruleset.map.sea_zones
    for bounds, (what, text, extra) in items:
        if what == "name":  # on the plain fill: patterns keep clear of labels
            assert isinstance(extra, tuple)
            colour = (40, 70, 90) if at_sea else _ink_on(fill)
            draw.text(extra, text, font=name_font, anchor="mb", fill=colour)
        elif what == "tag":
            assert isinstance(extra, tuple)
            draw.text(extra, text, font=small, anchor="mt", fill=_ink_on(fill))
        elif what == "battle":
            assert isinstance(extra, tuple)
            _battle_mark(draw, extra[0], extra[1])
        else:
            assert isinstance(extra, Counter)
            rgb = faction_rgb(ruleset, extra.faction)
            draw.rounded_rectangle(bounds, radius=4, fill=rgb, outline=_INK, width=1)
            cx = (bounds[0] + bounds[2]) / 2
            draw.text((cx, bounds[1] + 3), text, font=small, anchor="mt", fill=_ink_on(rgb))


def _battle_mark(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=_WHITE, outline=_INK, width=2)
    draw.line((x - 5, y - 5, x + 5, y + 5), fill=_INK, width=3)
    draw.line((x - 5, y + 5, x + 5, y - 5), fill=_INK, width=3)


def _dashed(draw: ImageDraw.ImageDraw, ring: Sequence[tuple[float, float]]) -> None:
    """A black-and-white dashed outline (contested), 8-pixel dashes."""
    for (x0, y0), (x1, y1) in itertools.pairwise(ring):
        length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
        steps = int(length // 8) + 1
        for i in range(steps):
            t0, t1 = i * 8 / length, min(1.0, (i * 8 + 8) / length)
            seg = (
                x0 + (x1 - x0) * t0,
                y0 + (y1 - y0) * t0,
                x0 + (x1 - x0) * t1,
                y0 + (y1 - y0) * t1,
            )
            draw.line(seg, fill=_INK if i % 2 == 0 else _WHITE, width=3)


_GRID = 24  # pixels between pattern symbols


_POINTS_CACHE: dict[tuple[int, tuple[float, ...]], tuple[MapGeometry, dict[str, np.ndarray]]] = {}


def _pattern_points(
    geometry: MapGeometry, polygons: dict[str, Polygon], lay: Layout, shown: Sequence[str]
) -> dict[str, np.ndarray]:
    """The staggered grid points (pixels) of each space's pattern, 8 px inside its outline.

    They depend only on the shapes and the layout, so they are kept for the last few layouts
    (the whole map is the same every time).
    """
    key = (id(geometry), (lay.minx, lay.maxy, lay.scale, lay.top))
    cached = _POINTS_CACHE.get(key)
    if cached is not None and cached[0] is geometry:
        return cached[1]
    out: dict[str, np.ndarray] = {}
    for space in shown:
        poly = polygons[space]
        minx, miny, maxx, maxy = poly.bounds
        xs = np.arange(minx - minx % _GRID + _GRID / 2, maxx, _GRID)
        ys = np.arange(miny - miny % _GRID + _GRID / 2, maxy, _GRID)
        if not len(xs) or not len(ys):
            out[space] = np.zeros((0, 2))
            continue
        gx, gy = np.meshgrid(xs, ys)
        gx = gx + (np.arange(len(ys))[:, None] % 2) * (_GRID / 2)  # stagger the rows
        px, py = gx.ravel(), gy.ravel()
        inside = shapely.contains_xy(poly.buffer(-8), px, py)
        out[space] = np.column_stack([px[inside], py[inside]])
    if len(_POINTS_CACHE) >= 8:
        _POINTS_CACHE.pop(next(iter(_POINTS_CACHE)))
    _POINTS_CACHE[key] = (geometry, out)
    return out


def _pattern(
    draw: ImageDraw.ImageDraw,
    game_map: GameMap,
    space: str,
    points: np.ndarray,
    fill: tuple[int, int, int],
    clear: np.ndarray,
) -> None:
    """The space's pattern symbols at ``points``, leaving out those in a ``clear`` box."""
    if not len(points):
        return
    x, y = points[:, 0:1], points[:, 1:2]
    covered = (
        (x >= clear[:, 0]) & (x <= clear[:, 2]) & (y >= clear[:, 1]) & (y <= clear[:, 3])
    ).any(axis=1)
    if space in game_map.sea_zones:
        terrains: Sequence[Terrain | None] = [None]
        ink = _WAVE
    else:
        terrains = game_map.provinces[space].terrains or (Terrain.PLAINS,)
        ink = _mix(fill, _INK, 0.28)
    for n, (px, py) in enumerate(points[~covered]):
        _symbol(draw, terrains[n % len(terrains)], float(px), float(py), ink)


def _symbol(
    draw: ImageDraw.ImageDraw,
    terrain: Terrain | None,
    x: float,
    y: float,
    ink: tuple[int, int, int],
) -> None:
    if terrain is None:  # a wave
        draw.arc((x - 8, y - 3, x, y + 3), 200, 340, fill=ink, width=1)
        draw.arc((x, y - 3, x + 8, y + 3), 20, 160, fill=ink, width=1)
    elif terrain is Terrain.PLAINS:
        draw.point([(x - 2, y), (x + 2, y)], fill=ink)
    elif terrain is Terrain.HILLS:
        draw.arc((x - 6, y - 3, x + 6, y + 5), 180, 360, fill=ink, width=1)
    elif terrain is Terrain.MOUNTAINS:
        draw.line([(x - 6, y + 4), (x, y - 5), (x + 6, y + 4)], fill=ink, width=1)
    elif terrain is Terrain.FOREST:
        draw.ellipse((x - 3, y - 5, x + 3, y + 1), outline=ink, width=1)
        draw.line([(x, y + 1), (x, y + 5)], fill=ink, width=1)
    else:  # swamp
        draw.line([(x - 5, y - 2), (x + 1, y - 2)], fill=ink, width=1)
        draw.line([(x - 1, y + 2), (x + 5, y + 2)], fill=ink, width=1)


def _key(draw: ImageDraw.ImageDraw, scene: MapScene, ruleset: Ruleset, height: int) -> None:
    """The key column: round, turn and step at the top; then what the marks mean."""
    draw.rectangle((0, 0, KEY_WIDTH - 1, height), fill=_WHITE)
    draw.line((KEY_WIDTH - 1, 0, KEY_WIDTH - 1, height), fill=_BORDER, width=1)
    big, font, small = _font(20), _font(15), _font(MIN_FONT_PX)
    x, y = 14, 14
    draw.text((x, y), "Southeast Caedes", font=big, fill=_INK)
    y += 30
    head = "The campaign is over" if scene.finished else f"Round {scene.round}"
    draw.text((x, y), head, font=font, fill=_INK)
    y += 22
    if scene.active is not None and not scene.finished:
        rgb = faction_rgb(ruleset, scene.active)
        draw.rectangle((x, y + 1, x + 14, y + 15), fill=rgb, outline=_INK)
        draw.text(
            (x + 20, y), f"Turn: {_faction_label(ruleset, scene.active)}", font=font, fill=_INK
        )
        y += 22
        draw.text((x, y), f"Step: {scene.step}", font=font, fill=_INK)
        y += 22
    if scene.focus is not None:
        draw.text((x, y), f"Around {ruleset.map.space_name(scene.focus)}", font=small, fill=_INK)
        y += 19
    if scene.highlight is not None:
        draw.text(
            (x, y), f"Showing {_faction_label(ruleset, scene.highlight)}", font=small, fill=_INK
        )
        y += 19
    y += 12
    draw.text((x, y), "Owners", font=font, fill=_INK)
    y += 22
    for code in scene.factions:
        rgb = faction_rgb(ruleset, code)
        draw.rectangle((x, y, x + 26, y + 15), fill=rgb, outline=_INK)
        draw.text((x + 34, y), _faction_label(ruleset, code), font=small, fill=_INK)
        y += 20
    for rgb, text in ((NEUTRAL, "Unowned land"), (SEA, "Sea zone")):
        draw.rectangle((x, y, x + 26, y + 15), fill=rgb, outline=_INK)
        if rgb == SEA:
            _symbol(draw, None, x + 13, y + 8, _WAVE)
        draw.text((x + 34, y), text, font=small, fill=_INK)
        y += 20
    y += 12
    draw.text((x, y), "Terrain", font=font, fill=_INK)
    y += 22
    for terrain in Terrain:
        draw.rectangle((x, y, x + 26, y + 15), fill=NEUTRAL, outline=_INK)
        _symbol(draw, terrain, x + 13, y + 8, _mix(NEUTRAL, _INK, 0.5))
        draw.text((x + 34, y), terrain.value.title(), font=small, fill=_INK)
        y += 20
    y += 12
    draw.text((x, y), "Units", font=font, fill=_INK)
    y += 22
    for text in (
        "TAG 3: a faction's 3 units",
        "T2: two of them Towers",
        "S1: a ship; S1+: carrying units",
        "H: a Hero among them",
    ):
        draw.text((x, y), text, font=small, fill=_INK)
        y += 19
    _battle_mark(draw, x + 9, y + 10)
    draw.text((x + 26, y + 3), "Battle pending", font=small, fill=_INK)
    y += 26
    _dashed(draw, [(x, y + 8), (x + 26, y + 8)])
    draw.text((x + 34, y + 1), "Contested province", font=small, fill=_INK)
    y += 22
    draw.line((x, y + 6, x + 26, y + 6), fill=_RIVER, width=5)
    draw.text((x + 34, y), "Navigable river", font=small, fill=_INK)
    y += 20
    draw.line((x, y + 6, x + 26, y + 6), fill=_RIVER, width=3)
    draw.text((x + 34, y), "River", font=small, fill=_INK)


def _faction_label(ruleset: Ruleset, code: str) -> str:
    try:
        return f"{ruleset.faction(code).name} ({code})"
    except KeyError:
        return code
