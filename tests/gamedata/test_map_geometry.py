"""The drawn map (``map_shapes.toml``) fits ``map.toml``'s borders (issue 17).

The shipped shapes are checked here independently of the loader's own checks: every pair of
spaces is measured with shapely. A small map built by
:func:`caedes_bot.gamedata.shape_builder.build_shapes` shows that the checks pass what fits and
name the spaces of what does not. Rule IDs: R-MOVE-10 (islands), R-MOVE-11 and R-MOVE-13
(rivers, mouths), catalogue section 16 (the Map Area Index).
"""

from __future__ import annotations

import importlib.util
import math
import shutil
import tomllib
from itertools import combinations
from pathlib import Path

import pytest
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from caedes_bot.gamedata.geometry import check_shapes
from caedes_bot.gamedata.loader import GameDataError, default_config_dir, load_ruleset
from caedes_bot.gamedata.model import GameMap, Ruleset
from caedes_bot.gamedata.shape_builder import LayoutError, build_shapes
from tests.rules.builders import ruleset as small_ruleset

REPO = Path(__file__).resolve().parents[2]
COMPASS = {"N": 90, "NE": 45, "E": 0, "SE": -45, "S": -90, "SW": -135, "W": 180, "NW": 135}


@pytest.fixture(scope="module")
def shipped() -> Ruleset:
    return load_ruleset()


@pytest.fixture(scope="module")
def polygons(shipped: Ruleset) -> dict[str, Polygon]:
    geometry = shipped.map.geometry
    assert geometry is not None, "the shipped data has map_shapes.toml"
    return {s: Polygon(c) for s, c in geometry.shapes.items()}


def bordering(game_map: GameMap) -> set[frozenset[str]]:
    out = {frozenset((p, n)) for p, ns in game_map.land_adjacency.items() for n in ns}
    out |= {frozenset((p, s)) for p, ss in game_map.coasts.items() for s in ss}
    out |= {frozenset((s, n)) for s, ns in game_map.sea_adjacency.items() for n in ns}
    return out


def test_every_space_has_one_valid_shape(shipped: Ruleset, polygons: dict[str, Polygon]) -> None:
    assert set(polygons) == set(shipped.map.provinces) | set(shipped.map.sea_zones)
    assert all(p.is_valid and p.area > 4 for p in polygons.values())


def test_shared_border_of_positive_length_exactly_where_map_toml_says(
    shipped: Ruleset, polygons: dict[str, Polygon]
) -> None:
    """Two spaces share a border longer than a point exactly when map.toml lists them."""
    expected = bordering(shipped.map)
    wrong = []
    for a, b in combinations(sorted(polygons), 2):
        length = polygons[a].boundary.intersection(polygons[b].boundary).length
        if (length > 0.01) != (frozenset((a, b)) in expected):
            wrong.append((a, b, round(length, 3)))
    assert wrong == []
    listed = tomllib.loads((default_config_dir() / "map.toml").read_text(encoding="utf-8"))
    assert len(expected) == sum(len(listed["borders"][k]) for k in ("land", "coasts", "sea"))


def test_no_overlaps_and_no_holes(polygons: dict[str, Polygon]) -> None:
    union = unary_union(list(polygons.values()))
    assert union.geom_type == "Polygon"
    assert list(union.interiors) == []
    assert union.area == pytest.approx(sum(p.area for p in polygons.values()), rel=1e-9)


def test_islands_have_no_land_edge_to_the_mainland(
    shipped: Ruleset, polygons: dict[str, Polygon]
) -> None:
    """R-MOVE-10: an island keeps clear of all land off its island, not even a point."""
    provinces = shipped.map.provinces
    islands = {p for p, prov in provinces.items() if prov.island}
    assert islands == {
        "greater-dilgac", "lesser-dilgac", "serpents-tooth",
        "silverhaven", "starwatch", "ebbtide", "glimmerwood",
    }  # fmt: skip
    for island in sorted(islands):
        for other, prov in provinces.items():
            if prov.island != provinces[island].island:
                assert polygons[island].distance(polygons[other]) > 0.1, (island, other)


def test_rivers_run_along_their_borders_and_reach_the_sea(
    shipped: Ruleset, polygons: dict[str, Polygon]
) -> None:
    """R-MOVE-11: each river edge is drawn on its border, joined to the edge before;
    R-MOVE-13: a navigable river's last edge meets its mouth sea zone."""
    geometry = shipped.map.geometry
    assert geometry is not None
    assert set(geometry.rivers) == set(shipped.map.rivers)
    by_river: dict[str, list[LineString]] = {}
    for edge_id, edge in shipped.map.rivers.items():
        line = LineString(geometry.rivers[edge_id])
        assert line.length > 1.0
        for end in (edge.a, edge.b):
            assert line.distance(polygons[end].exterior) < 1e-6
            assert polygons[end].exterior.buffer(1e-6).contains(line), edge_id
        by_river.setdefault(edge.river, []).append(line)
        if edge.mouth is not None:
            assert line.distance(polygons[edge.mouth]) < 1e-6, edge_id
    assert sorted(by_river) == ["The Anvilrun", "The Orm", "The Silverrun", "The Sorrowwater"]
    for lines in by_river.values():
        assert unary_union(lines).buffer(1e-6).geom_type == "Polygon", "one connected river"
    orm_mouth = [e for e in shipped.map.rivers.values() if e.mouth is not None]
    assert {(e.river, e.mouth) for e in orm_mouth} == {
        ("The Orm", "dilgac-sound"),
        ("The Silverrun", "silver-gulf"),
    }


def test_map_area_index_stays_roughly_true(shipped: Ruleset) -> None:
    """Catalogue section 16: each space's inner point lies near its compass point from Orme
    (within 30 degrees of the point's bearing) and its distance (within a third)."""
    geometry = shipped.map.geometry
    assert geometry is not None
    ox, oy = geometry.inner["orme"]
    assert Polygon(geometry.shapes["orme"]).contains(Point(0, 0))
    spaces = [*shipped.map.provinces.values(), *shipped.map.sea_zones.values()]
    for space in spaces:
        if space.id == "orme":
            continue
        assert space.direction is not None
        x, y = geometry.inner[space.id]
        bearing = math.degrees(math.atan2(y - oy, x - ox))
        off = (bearing - COMPASS[space.direction.value] + 540) % 360 - 180
        distance = math.hypot(x - ox, y - oy)
        assert abs(off) <= 30, (space.id, off)
        assert 2 / 3 <= distance / space.inches <= 4 / 3, (space.id, distance)


def test_inner_points_lie_well_inside(shipped: Ruleset, polygons: dict[str, Polygon]) -> None:
    geometry = shipped.map.geometry
    assert geometry is not None
    for space, (x, y) in geometry.inner.items():
        assert polygons[space].exterior.distance(Point(x, y)) > 0.8, space


def test_the_script_makes_the_shipped_file() -> None:
    """map_shapes.toml is exactly what scripts/make_map_shapes.py writes: made once, by script."""
    spec = importlib.util.spec_from_file_location(
        "make_map_shapes", REPO / "scripts" / "make_map_shapes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    map_toml = tomllib.loads((default_config_dir() / "map.toml").read_text(encoding="utf-8"))
    shipped = (default_config_dir() / "map_shapes.toml").read_text(encoding="utf-8")
    assert module.shapes_toml(map_toml) == shipped


# ---------------------------------------------------------------------------------------------
# A small test map: five provinces (one an island), two sea zones, one navigable river.
#
#            c
#        a ----- b            d borders a and b; b-d carries a river to sea zone t
#            d         t
#        s       i            island i lies between s and t

POINTS = {
    "a": (0.0, 0.0),
    "b": (10.0, 0.0),
    "c": (5.0, 8.0),
    "d": (5.0, -6.0),
    "s": (2.0, -14.0),
    "t": (16.0, -10.0),
    "i": (8.0, -20.0),
}
LAND = [("a", "b"), ("a", "c"), ("b", "c"), ("a", "d")]
COASTS = [("d", "s"), ("d", "t"), ("b", "t"), ("i", "s"), ("i", "t")]
SEA = [("s", "t")]


def small_map(*, mouth: str = "t", extra_land: tuple[tuple[str, str], ...] = ()) -> GameMap:
    return small_ruleset(
        provinces={p: ["plains"] for p in "abcdi"},
        borders=[*LAND, *extra_land],
        seas=["s", "t"],
        coasts=COASTS,
        sea_borders=SEA,
        navigable=[("b", "d")],
        mouths={("b", "d"): mouth},
        islands={"i": "isle"},
    ).map


def pairs(*extra: tuple[str, str], without: tuple[str, str] | None = None) -> list[frozenset[str]]:
    out = [frozenset(p) for p in [*LAND, ("b", "d"), *COASTS, *SEA, *extra]]
    return [p for p in out if without is None or p != frozenset(without)]


def test_small_map_shapes_fit() -> None:
    shapes = build_shapes(POINTS, pairs())
    assert check_shapes(small_map(), shapes) == []
    # a and s are both on the edge, not bordering: they meet at most at a point.
    assert shapes["a"].intersection(shapes["s"]).length == 0


def test_small_map_extra_border_named() -> None:
    shapes = build_shapes(POINTS, pairs(("a", "s")))
    found = check_shapes(small_map(), shapes)
    assert any(
        item == "shapes 'a' and 's'" and "does not say they border" in message
        for item, message in found
    ), found


def test_small_map_missing_border_named() -> None:
    shapes = build_shapes(POINTS, pairs(without=("a", "b")))
    found = check_shapes(small_map(), shapes)
    assert ("shapes 'a' and 'b'", "map.toml says they border, but their shapes share no border"
            " of positive length") in found  # fmt: skip


def test_small_map_island_touching_land_named() -> None:
    """R-MOVE-10: an island shape that touches a mainland province is refused."""
    shapes = build_shapes(dict(POINTS, i=(5.0, -12.0)), pairs(("d", "i")))
    found = check_shapes(small_map(), shapes)
    assert any(item == "shapes 'd' and 'i'" and "R-MOVE-10" in m for item, m in found), found


def test_small_map_overlap_and_hole_named() -> None:
    shapes = build_shapes(POINTS, pairs())
    moved = dict(shapes)
    corner = Polygon([POINTS["a"], POINTS["b"], POINTS["d"]]).centroid  # where a, b, d meet
    moved["b"] = shapes["b"].difference(corner.buffer(0.5))
    found = check_shapes(small_map(), moved)
    assert any(item.startswith("gap at") and "'a', 'b', 'd'" in m for item, m in found), found
    moved = dict(shapes, d=affinity.translate(shapes["d"], 1.5, 0))
    found = check_shapes(small_map(), moved)
    assert any(item == "shapes 'b' and 'd'" and "overlap" in m for item, m in found), found


def test_small_map_mouth_must_reach_its_sea() -> None:
    """R-MOVE-13: the river's last edge b-d meets sea zone t, not sea zone s."""
    shapes = build_shapes(POINTS, pairs())
    assert check_shapes(small_map(mouth="t"), shapes) == []
    found = check_shapes(small_map(mouth="s"), shapes)
    assert any(item == "river 'River' edge ['b', 'd']" and "'s'" in m for item, m in found), found


def test_crossing_points_refused_by_the_builder() -> None:
    bad = dict(POINTS, c=(5.0, -9.0))  # c below d: segment a-c crosses segment b-d
    with pytest.raises(LayoutError, match="segments cross"):
        build_shapes(bad, pairs())


def test_loader_refuses_shapes_that_disagree_naming_the_spaces(tmp_path: Path) -> None:
    """Swapping the shapes of Tallowmere and Wolfsgate puts each among strangers: the loader
    refuses the data and names the pairs; map.toml is not what is wrong."""
    root = tmp_path / "caedes"
    shutil.copytree(default_config_dir(), root)
    path = root / "map_shapes.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace('"tallowmere" =', '"@@" =').replace('"wolfsgate" =', '"tallowmere" =')
    path.write_text(text.replace('"@@" =', '"wolfsgate" ='), encoding="utf-8")
    with pytest.raises(GameDataError) as info:
        load_ruleset(root)
    found = info.value.problems
    assert "map_shapes.toml: shapes 'melvek-tor' and 'tallowmere': share a border" in "\n".join(
        found
    )
    assert any(
        p.startswith("map_shapes.toml: shapes 'orme' and 'tallowmere': map.toml says they border")
        for p in found
    ), found


def test_loader_refuses_a_missing_or_unknown_shape(tmp_path: Path) -> None:
    root = tmp_path / "caedes"
    shutil.copytree(default_config_dir(), root)
    path = root / "map_shapes.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace('"orme" =', '"ormee" ='), encoding="utf-8"
    )
    with pytest.raises(GameDataError) as info:
        load_ruleset(root)
    found = "\n".join(info.value.problems)
    assert "map_shapes.toml: shape 'ormee': unknown province or sea zone 'ormee'" in found
    assert "map_shapes.toml: shape 'orme': missing" in found


def test_data_without_shapes_loads_without_a_picture(tmp_path: Path) -> None:
    root = tmp_path / "caedes"
    shutil.copytree(default_config_dir(), root)
    (root / "map_shapes.toml").unlink()
    assert load_ruleset(root).map.geometry is None
