"""The map picture (issue 17): the scene taken from a state, and the PNG drawn from it.

The default scenario's picture is decoded and looked at: at each space's inner point a small
disc, kept clear of text, counters and patterns, shows the owner's colour (or the neutral land,
or the sea); counters appear exactly where units stand; the file is far within Discord's upload
limit. Unit counts are worked out by hand from ``scenarios/default.toml``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import threading

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import GameState
from caedes_bot.ui.mapdraw import DRAWING_THREAD, MapDrawer, map_filename
from caedes_bot.ui.mapimage import (
    CLEAR_PX,
    KEY_WIDTH,
    MIN_FONT_PX,
    NAME_PX,
    NEUTRAL,
    SEA,
    WIDTH,
    faction_rgb,
    layout,
    place_labels,
    render_map,
)
from caedes_bot.ui.mapscene import Counter, MapScene, map_caption, map_scene, turn_map_caption

DISCORD_UPLOAD_LIMIT = 10 * 1024 * 1024  # bytes, a server without boosts


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_ruleset()


@pytest.fixture(scope="module")
def state(ruleset: Ruleset) -> GameState:
    return new_game(ruleset, "default", "map-test")


@pytest.fixture(scope="module")
def scene(state: GameState, ruleset: Ruleset) -> MapScene:
    return map_scene(state, ruleset)


@pytest.fixture(scope="module")
def picture(scene: MapScene, ruleset: Ruleset) -> np.ndarray:
    png = render_map(scene, ruleset)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < DISCORD_UPLOAD_LIMIT / 20  # about 100 KB
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def disc(picture: np.ndarray, x: float, y: float, radius: float) -> np.ndarray:
    """The pixels within ``radius`` of (x, y)."""
    h, w, _ = picture.shape
    yy, xx = np.mgrid[0:h, 0:w]
    mask = (xx - x) ** 2 + (yy - y) ** 2 <= radius**2
    return picture[mask]


def test_default_scene_counts_units_by_hand(scene: MapScene) -> None:
    """From scenarios/default.toml: Anvilhome holds a Tower, four other units and the Dwarven
    Hero; the Lizardmen's ship in Dilgac Sound; Brightholm six Dawnian units with a Tower and
    the Hero."""
    assert scene.counters["anvilhome"] == (Counter("DWA", 6, towers=1, heroes=1),)
    assert scene.counters["dilgac-sound"] == (Counter("LIZ", 1, ships=1),)
    assert scene.counters["brightholm"] == (Counter("DAW", 6, towers=1, heroes=1),)
    assert scene.counters["anvilhome"][0].marks() == "T1 H"
    assert Counter("HEL", 3, ships=2, laden_ships=1).marks() == "S2+"
    assert scene.owners["anvilhome"] == "DWA" and "orme" not in scene.owners
    assert scene.battles == () and scene.contested == ()
    assert scene.round == 0 and len(scene.factions) == 7


def test_scene_round_trips_through_json(scene: MapScene) -> None:
    again = MapScene.from_json(scene.to_json())
    assert again == scene
    assert again.digest() == scene.digest()
    other = MapScene.from_json({**scene.to_json(), "highlight": "DAW"})
    assert other.digest() != scene.digest()


def test_contested_and_battles(state: GameState, ruleset: Ruleset) -> None:
    """An Orc unit standing in a Dawnian province makes it contested; a battle due there is
    marked (R-COMBAT-01)."""
    changed = state.clone()
    orc = next(u for u in changed.units.values() if u.owner == "ORC")
    orc.location = "harrowgate"
    changed.battles_due.append("harrowgate")
    scene = map_scene(changed, ruleset)
    assert scene.contested == ("harrowgate",)
    assert scene.battles == ("harrowgate",)
    assert [c.faction for c in scene.counters["harrowgate"]] == ["DAW", "ORC"]


def test_every_inner_disc_shows_its_owner_colour(
    picture: np.ndarray, scene: MapScene, ruleset: Ruleset
) -> None:
    """Owner colour (Okabe-Ito, factions.toml) in every owned province, neutral in the others,
    the sea colour at sea: each disc's colour is nearer its own than any other fill."""
    geometry = ruleset.map.geometry
    assert geometry is not None
    lay = layout(ruleset, scene)
    fills = {code: faction_rgb(ruleset, code) for code in ruleset.turn_order}
    palette = {**fills, "neutral": NEUTRAL, "sea": SEA}
    for space, point in geometry.inner.items():
        want = "sea" if space in ruleset.map.sea_zones else scene.owners.get(space, "neutral")
        pixels = disc(picture, *lay.px(*point), CLEAR_PX - 1)
        assert len(pixels) > 40
        for pixel in pixels:
            nearest = min(palette, key=lambda k: sum((pixel - np.array(palette[k])) ** 2))
            assert nearest == want, (space, tuple(pixel))
            assert np.abs(pixel - np.array(palette[want])).max() <= 4, (space, tuple(pixel))


def test_counters_appear_where_units_stand(
    picture: np.ndarray, scene: MapScene, ruleset: Ruleset
) -> None:
    """Drawn again without units, the picture changes just below the inner point of every
    space with units (its counters), and nowhere below the others."""
    empty = MapScene.from_json({**scene.to_json(), "counters": {}})
    bare = np.asarray(Image.open(io.BytesIO(render_map(empty, ruleset))).convert("RGB"))
    geometry = ruleset.map.geometry
    assert geometry is not None
    lay = layout(ruleset, scene)
    for space, point in geometry.inner.items():
        x, y = lay.px(*point)
        top = round(y + CLEAR_PX + 3 + (18 if space in scene.owners else 0))
        box = (slice(top, top + 18), slice(round(x) - 12, round(x) + 12))
        changed = (picture[box] != bare[box]).any()
        assert changed == (space in scene.counters), space
        if space in scene.counters:
            rgb = np.array(faction_rgb(ruleset, scene.counters[space][0].faction))
            assert (np.abs(picture[box] - rgb).max(axis=2) <= 4).any(), space


def test_picture_width_fonts_and_views(scene: MapScene, ruleset: Ruleset) -> None:
    """A fixed width, a font that ships with Pillow at no less than 13 px; the zoomed and the
    highlighted views draw too."""
    assert WIDTH == 1600 and MIN_FONT_PX >= 13 and NAME_PX >= MIN_FONT_PX
    assert isinstance(ImageFont.load_default(size=MIN_FONT_PX), ImageFont.FreeTypeFont)
    for view in (
        MapScene.from_json({**scene.to_json(), "focus": "hissing-fen"}),
        MapScene.from_json({**scene.to_json(), "highlight": "LIZ", "battles": ["orme"]}),
    ):
        image = Image.open(io.BytesIO(render_map(view, ruleset)))
        assert image.width == WIDTH and 700 <= image.height <= 2000


def test_captions_and_file_names(scene: MapScene, ruleset: Ruleset) -> None:
    assert map_caption(ruleset, scene) == "The map before the first turn."
    zoom = MapScene.from_json({**scene.to_json(), "focus": "orme", "round": 2, "active": "DAW"})
    assert map_caption(ruleset, zoom) == (
        "The map in game round 2, turn of 🌅 Dawnians (DAW), step 1 Trade, around Orme and its"
        " neighbours."
    )
    assert map_filename(zoom) == "caedes-round-2-DAW-orme.png"
    assert turn_map_caption(ruleset, "ORC", 3) == (
        "The map after the turn of 👹 Orcs (ORC) in game round 3."
    )


async def test_drawer_draws_each_scene_once_off_the_loop(scene: MapScene, ruleset: Ruleset) -> None:
    """The same scene twice, even at once, is drawn once, in a worker thread."""
    threads: list[str] = []

    def render(s: MapScene, r: Ruleset) -> bytes:
        threads.append(threading.current_thread().name)
        return render_map(s, r)

    drawer = MapDrawer(ruleset, render=render)
    one, two = await asyncio.gather(drawer.png(scene), drawer.png(scene))
    three = await drawer.png(MapScene.from_json(scene.to_json()))
    assert one == two == three and drawer.drawn == 1
    assert threads and threading.main_thread().name not in threads
    await drawer.png(MapScene.from_json({**scene.to_json(), "highlight": "DAW"}))
    assert drawer.drawn == 2


async def test_many_drawings_at_once_leave_the_default_executor_free(
    scene: MapScene, ruleset: Ruleset
) -> None:
    """Forty different zooms asked at once queue in the drawer's own thread: the event loop's
    default executor (which DNS look-ups use) still runs work while they wait."""
    release = threading.Event()
    threads: set[str] = set()

    def render(s: MapScene, r: Ruleset) -> bytes:
        threads.add(threading.current_thread().name)
        release.wait(timeout=30)
        return s.digest().encode()

    drawer = MapDrawer(ruleset, render=render)
    spaces = sorted(ruleset.map.provinces)[:40]
    scenes = [MapScene.from_json({**scene.to_json(), "focus": s}) for s in spaces]
    waiting = [asyncio.ensure_future(drawer.png(s)) for s in scenes]
    for _ in range(3):  # let every request hand its drawing to a thread first
        await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    try:
        assert await asyncio.wait_for(loop.run_in_executor(None, lambda: 42), timeout=10) == 42
    finally:
        release.set()
    assert await asyncio.gather(*waiting) == [s.digest().encode() for s in scenes]
    assert drawer.drawn == 40
    assert len(threads) == 1 and next(iter(threads)).startswith(DRAWING_THREAD)


def test_battles_and_contested_provinces_are_marked(
    picture: np.ndarray, scene: MapScene, ruleset: Ruleset
) -> None:
    """A battle due at Harrowgate (R-COMBAT-01) draws a round black-and-white mark right of
    its point; a contested Harrowgate gets a dashed black-and-white outline; the rest of the
    picture does not change."""
    geometry = ruleset.map.geometry
    assert geometry is not None
    marked = MapScene.from_json(
        {**scene.to_json(), "battles": ["harrowgate"], "contested": ["harrowgate"]}
    )
    image = np.asarray(Image.open(io.BytesIO(render_map(marked, ruleset))).convert("RGB"))
    lay = layout(ruleset, scene)
    x, y = lay.px(*geometry.inner["harrowgate"])
    mark = image[round(y) - 9 : round(y) + 10, round(x) + 14 : round(x) + 33]
    assert (mark.max(axis=2) < 40).sum() > 30 and (mark.min(axis=2) > 230).sum() > 30
    changed = np.argwhere((image != picture).any(axis=2))
    outline = np.array(lay.ring(geometry.shapes["harrowgate"]))
    left, top = outline.min(axis=0) - 3
    right, bottom = outline.max(axis=0) + 3
    assert len(changed) > 200
    assert changed[:, 1].min() >= left and changed[:, 1].max() <= right
    assert changed[:, 0].min() >= top and changed[:, 0].max() <= bottom


def test_a_ship_carrying_units_is_marked(state: GameState, ruleset: Ruleset) -> None:
    """R-MOVE-14: a Lizardman infantry aboard the ship in Dilgac Sound: two units there, one
    ship, and it carries units (``S1+``)."""
    changed = state.clone()
    ship = next(u for u in changed.units.values() if u.location == "dilgac-sound")
    rider = next(u for u in changed.units.values() if u.location == "saltmarsh")
    rider.location, rider.aboard = "dilgac-sound", ship.id
    scene = map_scene(changed, ruleset)
    assert scene.counters["dilgac-sound"] == (Counter("LIZ", 2, ships=1, laden_ships=1),)
    assert scene.counters["dilgac-sound"][0].marks() == "S1+"


def test_drawings_from_two_threads_take_turns(scene: MapScene, ruleset: Ruleset) -> None:
    """Two threads drawing at once get the same bytes as one drawing alone."""
    alone = render_map(scene, ruleset)
    out: list[bytes] = []
    workers = [
        threading.Thread(target=lambda: out.append(render_map(scene, ruleset))) for _ in range(2)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert out == [alone, alone]


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("crowded", ["orme", "hartsford"])
def test_a_crowded_space_keeps_its_counters_off_its_neighbours_names(
    scene: MapScene, ruleset: Ruleset, crowded: str
) -> None:
    """Every faction of the default scenario has units (with Towers and Heroes) in one space:
    the seven counters stand two to a row (moved sideways if need be), overlap neither each
    other nor any other space's name or owner tag, and each still shows its faction and count."""
    geometry = ruleset.map.geometry
    assert geometry is not None
    counters = {
        **scene.counters,
        crowded: tuple(Counter(c, 99, towers=9, heroes=3) for c in ruleset.turn_order),
    }
    busy = dataclasses.replace(scene, counters=counters, _digest=[])
    lay = layout(ruleset, busy)
    draw = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    items = dict(place_labels(draw, busy, ruleset, lay, list(geometry.shapes)))
    boxes = [b for b, (what, _, _) in items[crowded] if what == "counter"]
    texts = [t for _, (what, t, _) in items[crowded] if what == "counter"]
    assert texts == [f"{c} 99 T9 H3" for c in ruleset.turn_order]
    assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    others = [
        (s, t, b)
        for s, its in items.items()
        if s != crowded
        for b, (what, t, _) in its
        if what in ("name", "tag")
    ]
    hit = [(s, t) for s, t, b in others if any(_overlap(b, c) for c in boxes)]
    assert not hit, hit


@pytest.mark.parametrize("focus", ["dilgac-sound", "glimmerwood", "crown-of-ambitrax"])
def test_a_zoom_cuts_no_name_at_its_edges(scene: MapScene, ruleset: Ruleset, focus: str) -> None:
    """Zoomed on a sea zone, an island or a province at the map's west edge: every text and
    counter drawn lies wholly in the map area (right of the key column, inside the picture),
    and the space zoomed on and each of its neighbours still shows its name."""
    geometry = ruleset.map.geometry
    assert geometry is not None
    zoom = dataclasses.replace(scene, focus=focus, _digest=[])
    lay = layout(ruleset, zoom)
    draw = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    labels = dict(place_labels(draw, zoom, ruleset, lay, list(geometry.shapes)))
    for space, items in labels.items():
        for box, (what, text, _) in items:
            assert box[0] >= KEY_WIDTH and box[2] <= WIDTH, (space, what, text, box)
            assert box[1] >= 0 and box[3] <= lay.height, (space, what, text, box)
    game_map = ruleset.map
    near = {focus} | game_map.land_neighbours(focus) | game_map.seas_of(focus)
    if focus in game_map.sea_zones:
        near |= game_map.sea_adjacency.get(focus, frozenset()) | game_map.coast_of(focus)
    for space in near:
        lines = [t for _, (what, t, _) in labels[space] if what == "name"]
        named = " ".join(reversed(lines))  # placed from the bottom line up
        assert named == game_map.space_name(space), space
