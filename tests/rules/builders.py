"""Small hand-built rulesets and states for rules tests.

Rules tests use tiny maps written out here so that every expected value can be worked out by
hand. ``kind(...)`` makes a unit kind with base values from its type (catalogue section 15);
``ruleset(...)`` wraps kinds and a map; ``state(...)`` places units.

Example::

    rs = ruleset(
        provinces={"a": ("plains",), "b": ("forest",), "c": ("mountains",)},
        borders=[("a", "b"), ("b", "c")],
        kinds=[kind("INF", "DAW", "infantry"), kind("CAV", "DAW", "cavalry")],
    )
    st = state(rs, units=[("INF", "DAW", "a"), ("CAV", "DAW", "a")], owners={"a": "DAW"})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import (
    Attribute,
    BaseType,
    Commodity,
    Direction,
    FactionDef,
    GameMap,
    Options,
    Province,
    Race,
    RiverEdge,
    Ruleset,
    Scenario,
    ScenarioFaction,
    ScenarioUnit,
    SeaZone,
    Terrain,
    UnitKind,
    UnitTypeDef,
    river_edge_id,
)
from caedes_bot.rules.state import FactionState, GameState, Step, Unit

_SHIPPED = load_ruleset()
#: The shipped turn order (R-TURN-01) and step order (R-TURN-02), from ``turn.toml``.
TURN_ORDER: tuple[str, ...] = _SHIPPED.turn_order
STEP_ORDER: tuple[str, ...] = _SHIPPED.step_order

UNIT_TYPES: dict[BaseType, UnitTypeDef] = {
    BaseType.INFANTRY: UnitTypeDef(BaseType.INFANTRY, 2, 3, 1, 3, frozenset()),
    BaseType.CAVALRY: UnitTypeDef(BaseType.CAVALRY, 5, 3, 2, 5, frozenset({Attribute.BLITZ})),
    BaseType.SHIP: UnitTypeDef(BaseType.SHIP, 2, 2, 2, 8, frozenset({Attribute.WATERCRAFT})),
    BaseType.TOWER: UnitTypeDef(
        BaseType.TOWER, None, 7, None, 18, frozenset({Attribute.FORTIFICATION})
    ),
}


def kind(
    kind_id: str,
    faction: str,
    base_type: str = "infantry",
    attributes: Iterable[str] = (),
    *,
    cost: int | None = None,
    race: str | None = "default",
    hero: bool = False,
    name: str | None = None,
) -> UnitKind:
    """A unit kind with its type's base values; ``cost`` defaults to the type's cost.

    ``race="default"`` picks the faction's main race (DAW -> dawnian, ...); ``None`` = no race.
    """
    bt = BaseType(base_type)
    tdef = UNIT_TYPES[bt]
    default_races = {
        "DAW": Race.DAWNIAN,
        "ORC": Race.ORC,
        "WEL": Race.WOOD_ELVEN,
        "LIZ": Race.LIZARDMAN,
        "DWA": Race.DWARVEN,
        "HEL": Race.HIGH_ELVEN,
        "ACH": Race.ACHEROUSIAN,
    }
    if race == "default":
        race_value: Race | None = (
            None if bt in (BaseType.SHIP, BaseType.TOWER) else default_races.get(faction)
        )
    else:
        race_value = Race(race) if race is not None else None
    attrs = frozenset(Attribute(a) for a in attributes) | tdef.inherent
    if hero:
        attrs |= {Attribute.HERO}
    return UnitKind(
        id=kind_id,
        faction=faction,
        name=name or kind_id,
        display_name=name or kind_id,
        race=race_value,
        cost=None if hero else (tdef.cost if cost is None else cost),
        base_type=bt,
        attack=tdef.attack,
        defense=tdef.defense,
        move=tdef.move,
        attributes=attrs,
        hero=hero,
    )


def ruleset(
    *,
    provinces: Mapping[str, Sequence[str]],
    borders: Iterable[tuple[str, str]] = (),
    kinds: Iterable[UnitKind] = (),
    seas: Iterable[str] = (),
    coasts: Iterable[tuple[str, str]] = (),
    sea_borders: Iterable[tuple[str, str]] = (),
    rivers: Iterable[tuple[str, str]] = (),
    navigable: Iterable[tuple[str, str]] = (),
    mouths: Mapping[tuple[str, str], str] | None = None,
    rp: Mapping[str, int] | None = None,
    commodities: Mapping[str, Sequence[str]] | None = None,
    islands: Mapping[str, str] | None = None,
    options: Options | None = None,
    factions: Sequence[str] = TURN_ORDER,
    heroes: Iterable[UnitKind] = (),
) -> Ruleset:
    """A ruleset over a hand-written map.

    ``provinces`` maps id -> terrains; ``borders`` are land borders (symmetric by construction);
    ``coasts`` are (province, sea) pairs; ``rivers`` are borders with a river (not navigable
    unless also in ``navigable``); ``mouths`` maps a navigable border to its sea zone.
    ``rp`` and ``commodities`` default to 1 RP and nothing. The ruleset has one scenario,
    ``"test"``, with ``options`` (defaults if ``None``) and ``heroes``.
    """
    rp = rp or {}
    commodities = commodities or {}
    islands = islands or {}
    mouths = mouths or {}
    provs = {
        pid: Province(
            id=pid,
            name=pid.title(),
            direction=Direction.CENTRE,
            inches=0.0,
            rp=rp.get(pid, 1),
            terrains=tuple(Terrain(t) for t in terrains),
            commodities=tuple(Commodity(c) for c in commodities.get(pid, ())),
            colour_text="",
            region="test",
            island=islands.get(pid),
        )
        for pid, terrains in provinces.items()
    }
    land: dict[str, set[str]] = {p: set() for p in provs}
    for a, b in borders:
        land[a].add(b)
        land[b].add(a)
    river_pairs = list(rivers)
    navigable = list(navigable)
    nav = {tuple(sorted(p)) for p in navigable}
    for a, b in [*river_pairs, *[tuple(p) for p in nav]]:
        land[a].add(b)
        land[b].add(a)
    edges: dict[str, RiverEdge] = {}
    # in the order given, so that a navigable chain follows its listing (R-MOVE-11)
    for a, b in dict.fromkeys(tuple(sorted(p)) for p in [*river_pairs, *navigable]):
        mouth = mouths.get((a, b)) or mouths.get((b, a))
        edges[river_edge_id(a, b)] = RiverEdge(a, b, "River", (a, b) in nav, mouth)
    sea_ids = set(seas)
    coast: dict[str, set[str]] = {}
    for p, s in coasts:
        coast.setdefault(p, set()).add(s)
        sea_ids.add(s)
    sea_adj: dict[str, set[str]] = {s: set() for s in sea_ids}
    for a, b in sea_borders:
        sea_adj.setdefault(a, set()).add(b)
        sea_adj.setdefault(b, set()).add(a)
    game_map = GameMap(
        provinces=provs,
        sea_zones={s: SeaZone(s, s.title()) for s in sorted(sea_ids)},
        land_adjacency={p: frozenset(n) for p, n in land.items()},
        coasts={p: frozenset(s) for p, s in coast.items()},
        sea_adjacency={s: frozenset(n) for s, n in sea_adj.items()},
        rivers=edges,
    )
    faction_defs = tuple(
        FactionDef(code, code, code, 0, code, "", frozenset(), "test") for code in factions
    )
    hero_map = {h.id: h for h in heroes}
    scenario = Scenario(
        id="test",
        name="Test",
        description="",
        factions=tuple(ScenarioFaction(code, 0, {}, None) for code in factions),
        owners={},
        units=(),
        heroes=hero_map,
        turn_limit=None,
        options=options or Options(),
    )
    return Ruleset(
        unit_types=UNIT_TYPES,
        units={k.id: k for k in kinds},
        factions=faction_defs,
        map=game_map,
        scenarios={"test": scenario},
        step_order=STEP_ORDER,
    )


def state(
    rs: Ruleset,
    *,
    units: Iterable[tuple[str, str, str]] = (),
    owners: Mapping[str, str] | None = None,
    active: str = "DAW",
    step: Step = Step.MOVE,
    rp: Mapping[str, int] | None = None,
    in_play: Sequence[str] | None = None,
    round: int = 1,
) -> GameState:
    """A state with ``units`` given as (kind id, owner, space) triples, ids from 1 in order."""
    rp = rp or {}
    play = list(in_play or [f.code for f in rs.factions])
    st = GameState(
        scenario="test",
        dice_seed="test",
        options=rs.scenarios["test"].options,
        round=round,
        active=active,
        step=step,
        in_play=play,
        factions={
            code: FactionState(code=code, rp=rp.get(code, 0), turns_taken=1) for code in play
        },
        owners=dict(owners or {}),
    )
    for kind_id, owner, space in units:
        uid = st.new_id()
        st.mustered_seq += 1
        st.units[str(uid)] = Unit(
            id=uid, kind=kind_id, owner=owner, location=space, muster_seq=st.mustered_seq
        )
    return st


def with_options(rs: Ruleset, **changes: object) -> Ruleset:
    """The same ruleset with some options of its ``"test"`` scenario changed."""
    scenario = rs.scenarios["test"]
    new = replace(scenario, options=replace(scenario.options, **changes))  # type: ignore[arg-type]
    return replace(rs, scenarios={"test": new})


def with_hero(rs: Ruleset, faction: str, kind_id: str) -> Ruleset:
    """The same ruleset with ``kind_id`` the designated Hero of ``faction`` in its ``"test"``
    scenario (R-ATTR-HERO-02)."""
    scenario = rs.scenarios["test"]
    factions = tuple(
        replace(f, hero=kind_id) if f.code == faction else f for f in scenario.factions
    )
    return replace(rs, scenarios={"test": replace(scenario, factions=factions)})


def with_scenario(
    rs: Ruleset,
    *,
    factions: Mapping[str, tuple[int, Mapping[str, int]]],
    owners: Mapping[str, str] | None = None,
    units: Iterable[tuple[str, str, int]] = (),
    turn_limit: int | None = None,
    alliances: Iterable[Iterable[str]] = (),
    fealty: Mapping[str, str] | None = None,
) -> Ruleset:
    """The same ruleset with its ``"test"`` scenario given starting positions.

    ``factions`` maps code -> (RP, {commodity: count}) for the factions in play; ``units`` are
    (kind id, space, count) in scenario order; the unit's owner is its kind's faction.
    """
    scenario = replace(
        rs.scenarios["test"],
        factions=tuple(
            ScenarioFaction(code, rp_, {Commodity(c): n for c, n in stock.items()}, None)
            for code, (rp_, stock) in factions.items()
        ),
        owners=dict(owners or {}),
        units=tuple(ScenarioUnit(k, space, n) for k, space, n in units),
        turn_limit=turn_limit,
        alliances=tuple(frozenset(g) for g in alliances),
        fealty=dict(fealty or {}),
    )
    return replace(rs, scenarios={"test": scenario})
