"""Reading ``map.toml`` into the :class:`~caedes_bot.gamedata.model.GameMap`.

Part of the loader (:mod:`caedes_bot.gamedata.loader`). Besides each item's own checks it
checks the map as a whole (rule IDs in brackets):

* land borders, coasts and sea links between known spaces, no self-borders or duplicates;
  the file lists each pair once, so adjacency is symmetric by construction;
* island provinces border only their own island [R-MOVE-10];
* river edges lie on land borders, chain along the river, and a navigable river's mouth
  edge has both provinces on its sea zone [R-MOVE-11, R-MOVE-13];
* exactly one centre province (Orme), from which every province and sea zone can be reached
  through land borders, coasts and sea links.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from caedes_bot.gamedata.model import (
    Commodity,
    Direction,
    GameMap,
    Province,
    RiverEdge,
    SeaZone,
    Terrain,
    river_edge_id,
)
from caedes_bot.gamedata.schema import (
    SLUG,
    BordersSchema,
    DataReader,
    ProvinceSchema,
    RiverSchema,
    SeaZoneSchema,
    item_label,
)

__all__ = ["load_map"]


def load_map(r: DataReader) -> GameMap | None:
    """The map of ``map.toml``, or ``None`` if the file could not be read."""
    file = "map.toml"
    data = r.read(file)
    if data is None:
        return None
    for key in sorted(set(data) - {"province", "sea_zone", "borders", "river"}):
        r.problem(file, "", f"schema: unexpected top-level key '{key}'")
    provinces: dict[str, Province] = {}
    for index, raw in enumerate(r.items(data, "province", file, only=False)):
        label = item_label("province", raw, index)
        parsed = r.validate(ProvinceSchema, raw, file, label)
        if parsed is None:
            continue
        province = _build_province(r, parsed, file, label)
        if province.id in provinces:
            r.problem(file, label, "duplicate province id")
            continue
        provinces[province.id] = province

    seas: dict[str, SeaZone] = {}
    for index, raw in enumerate(r.items(data, "sea_zone", file, only=False)):
        label = item_label("sea zone", raw, index)
        parsed_sea = r.validate(SeaZoneSchema, raw, file, label)
        if parsed_sea is None:
            continue
        if not SLUG.match(parsed_sea.id):
            r.problem(file, label, "an id is a lower-case slug like 'dilgac-sound'")
        direction = None
        if parsed_sea.direction is not None:
            direction = r.enum_value(Direction, parsed_sea.direction, file, label, "direction")
        if parsed_sea.id in seas or parsed_sea.id in provinces:
            r.problem(file, label, "duplicate space id (provinces and sea zones share ids)")
            continue
        seas[parsed_sea.id] = SeaZone(
            id=parsed_sea.id,
            name=parsed_sea.name,
            colour_text=parsed_sea.text,
            direction=direction,
            inches=parsed_sea.inches,
        )

    centres = [p for p in provinces.values() if p.direction is Direction.CENTRE]
    if len(centres) != 1:
        r.problem(
            file,
            "",
            f"exactly one province must have direction 'centre' (Orme); found {len(centres)}",
        )

    borders = r.validate(BordersSchema, data.get("borders", {}), file, "[borders]")
    land: dict[str, set[str]] = {p: set() for p in provinces}
    coasts: dict[str, set[str]] = {p: set() for p in provinces}
    sea_adj: dict[str, set[str]] = {s: set() for s in seas}
    if borders is not None:
        _read_pairs(r, borders.land, "land border", provinces, provinces, land, land, file)
        _read_pairs(r, borders.coasts, "coast", provinces, seas, coasts, None, file)
        _read_pairs(r, borders.sea, "sea link", seas, seas, sea_adj, sea_adj, file)

    # R-MOVE-10: islands are reached only by sea.
    for pid, neighbours in land.items():
        for other in sorted(neighbours):
            if pid < other and provinces[pid].island != provinces[other].island:
                r.problem(
                    file,
                    f"land border ['{pid}', '{other}']",
                    "crosses from one island (or the mainland) to another; islands have no"
                    " land border off their island (R-MOVE-10)",
                )

    rivers = _read_rivers(r, data.get("river", []), provinces, seas, land, coasts, file)

    game_map = GameMap(
        provinces=provinces,
        sea_zones=seas,
        land_adjacency={p: frozenset(n) for p, n in land.items()},
        coasts={p: frozenset(s) for p, s in coasts.items()},
        sea_adjacency={s: frozenset(n) for s, n in sea_adj.items()},
        rivers=rivers,
    )
    if len(centres) == 1:
        _check_reachable(r, game_map, centres[0].id, file)
    return game_map


def _build_province(r: DataReader, parsed: ProvinceSchema, file: str, label: str) -> Province:
    """The province, with placeholders where a value was bad (already reported)."""
    if not SLUG.match(parsed.id):
        r.problem(file, label, "an id is a lower-case slug like 'orme' or 'hissing-fen'")
    direction = r.enum_value(Direction, parsed.direction, file, label, "direction")
    terrains: list[Terrain] = []
    for name in parsed.terrains:
        terrain = r.enum_value(Terrain, name, file, label, "terrain")
        if terrain is None:
            continue
        if terrain in terrains:
            r.problem(file, label, f"terrain '{name}' listed twice")
            continue
        terrains.append(terrain)
    commodities = []
    for name in parsed.commodities:
        commodity = r.enum_value(Commodity, name, file, label, "commodity")
        if commodity is not None:
            commodities.append(commodity)
    if direction is None:
        direction = Direction.CENTRE if parsed.inches == 0 else Direction.N
    elif (direction is Direction.CENTRE) != (parsed.inches == 0):
        r.problem(file, label, "only the centre province (Orme) is 0 inches from Orme, and it is")
    if parsed.island is not None and not SLUG.match(parsed.island):
        r.problem(file, label, "an island name is a lower-case slug like 'estlon'")
    return Province(
        id=parsed.id,
        name=parsed.name,
        direction=direction,
        inches=parsed.inches,
        rp=parsed.rp,
        terrains=tuple(terrains),
        commodities=tuple(commodities),
        colour_text=parsed.text,
        region=parsed.region,
        island=parsed.island,
        special=parsed.special,
    )


def _read_pairs(
    r: DataReader,
    pairs: Sequence[Sequence[str]],
    what: str,
    left: Mapping[str, object],
    right: Mapping[str, object],
    out_left: dict[str, set[str]],
    out_right: dict[str, set[str]] | None,
    file: str,
) -> None:
    """Read symmetric pairs: each pair listed once; both directions are recorded."""
    left_kind = "province" if what != "sea link" else "sea zone"
    right_kind = "sea zone" if what != "land border" else "province"
    seen: set[tuple[str, str]] = set()
    for pair in pairs:
        item = f"{what} {list(pair)}"
        if len(pair) != 2:
            r.problem(file, item, "a pair must name exactly two spaces")
            continue
        a, b = pair
        ok = True
        if a not in left:
            r.unknown(file, item, left_kind, a, left)
            ok = False
        if b not in right:
            r.unknown(file, item, right_kind, b, right)
            ok = False
        if not ok:
            continue
        if a == b:
            r.problem(file, item, f"a {what} must join two different spaces")
            continue
        key = (a, b) if out_right is None else tuple(sorted((a, b)))
        assert len(key) == 2
        if key in seen:
            r.problem(file, item, f"duplicate {what}")
            continue
        seen.add((key[0], key[1]))
        out_left[a].add(b)
        if out_right is not None:
            out_right[b].add(a)


def _read_rivers(
    r: DataReader,
    raw_rivers: object,
    provinces: Mapping[str, Province],
    seas: Mapping[str, SeaZone],
    land: Mapping[str, set[str]],
    coasts: Mapping[str, set[str]],
    file: str,
) -> dict[str, RiverEdge]:
    out: dict[str, RiverEdge] = {}
    if not isinstance(raw_rivers, list):
        r.problem(file, "", "schema: expected an array of [[river]] tables")
        return out
    names: set[str] = set()
    for index, raw in enumerate(raw_rivers):
        label = f"river #{index + 1}"
        if isinstance(raw, dict) and isinstance(raw.get("name"), str):
            label = f"river '{raw['name']}'"
        parsed = r.validate(RiverSchema, raw, file, label)
        if parsed is None:
            continue
        if parsed.name in names:
            r.problem(file, label, "duplicate river name")
        names.add(parsed.name)
        if parsed.mouth is not None:
            if not parsed.navigable:
                r.problem(file, label, "only a navigable river names a mouth (R-MOVE-11)")
            if parsed.mouth not in seas:
                r.unknown(file, label, "sea zone", parsed.mouth, seas)
        previous: tuple[str, str] | None = None
        for position, edge in enumerate(parsed.edges):
            item = f"{label} edge {list(edge)}"
            if len(edge) != 2:
                r.problem(file, item, "an edge names exactly two provinces")
                previous = None
                continue
            a, b = edge
            if a not in provinces or b not in provinces:
                for name in (a, b):
                    if name not in provinces:
                        r.unknown(file, item, "province", name, provinces)
                previous = None
                continue
            if b not in land.get(a, set()):
                r.problem(file, item, "a river edge must lie on a land border (R-MOVE-11)")
            if previous is not None and not ({a, b} & set(previous)):
                r.problem(
                    file,
                    item,
                    f"does not continue from the previous edge {list(previous)};"
                    " edges are listed from source to mouth, each sharing a province"
                    " with the one before (R-MOVE-11)",
                )
            previous = (a, b)
            is_mouth = parsed.mouth is not None and position == len(parsed.edges) - 1
            if is_mouth and parsed.mouth in seas:
                for name in (a, b):
                    if parsed.mouth not in coasts.get(name, set()):
                        r.problem(
                            file,
                            item,
                            f"mouth edge, but '{name}' does not touch sea zone"
                            f" '{parsed.mouth}' (R-MOVE-13)",
                        )
            edge_id = river_edge_id(a, b)
            if edge_id in out:
                r.problem(file, item, f"edge already belongs to river '{out[edge_id].river}'")
                continue
            out[edge_id] = RiverEdge(
                a=min(a, b),
                b=max(a, b),
                river=parsed.name,
                navigable=parsed.navigable,
                mouth=parsed.mouth if is_mouth else None,
            )
    return out


def _check_reachable(r: DataReader, game_map: GameMap, start: str, file: str) -> None:
    """Every space can be reached from ``start`` by land borders, coasts and sea links."""
    seen = {start}
    queue = deque([start])
    while queue:
        space = queue.popleft()
        if game_map.is_province(space):
            nxt = game_map.land_neighbours(space) | game_map.seas_of(space)
        else:
            nxt = game_map.sea_adjacency.get(space, frozenset()) | game_map.coast_of(space)
        for other in nxt:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    centre_name = game_map.provinces[start].name
    for pid in game_map.provinces:
        if pid not in seen:
            r.problem(
                file,
                f"province '{pid}'",
                f"cannot be reached from {centre_name} by land or sea",
            )
    for sid in game_map.sea_zones:
        if sid not in seen:
            r.problem(
                file,
                f"sea zone '{sid}'",
                f"cannot be reached from {centre_name} by land or sea",
            )
