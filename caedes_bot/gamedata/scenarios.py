"""Reading ``scenarios/*.toml``: who is in play, who owns what, who stands where (R-SETUP-01).

Part of the loader (:mod:`caedes_bot.gamedata.loader`). Names are checked against the order
of battle, the factions and the map; the starting position is then checked by
:func:`~caedes_bot.gamedata.checks.check_placements` and
:func:`~caedes_bot.gamedata.checks.check_start_musters`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from caedes_bot.gamedata.checks import check_placements, check_start_musters
from caedes_bot.gamedata.model import (
    BaseType,
    Commodity,
    FactionDef,
    GameMap,
    Options,
    Scenario,
    ScenarioFaction,
    ScenarioUnit,
    ScenarioVictory,
    UnitKind,
    UnitTypeDef,
)
from caedes_bot.gamedata.options import build_options
from caedes_bot.gamedata.scenario_events import load_events
from caedes_bot.gamedata.schema import (
    AllianceSchema,
    DataReader,
    HeroSchema,
    ScenarioFactionSchema,
    ScenarioSchema,
    item_label,
)
from caedes_bot.gamedata.units import build_kind

__all__ = ["load_scenarios"]


def load_scenarios(
    r: DataReader,
    unit_types: Mapping[BaseType, UnitTypeDef],
    units: Mapping[str, UnitKind],
    factions: Sequence[FactionDef],  # in turn order
    faction_codes: set[str],
    game_map: GameMap | None,
    options: Options,
) -> dict[str, Scenario]:
    """Every scenario of ``scenarios/*.toml`` keyed by file name (without ``.toml``).

    ``factions`` is in turn order; each scenario lists its factions in play in that order
    (R-TURN-01). Hero ids are shared by all scenarios.
    """
    folder = r.root / "scenarios"
    files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    if not files:
        r.problem("scenarios/", "", "no scenario files (*.toml)")
    out: dict[str, Scenario] = {}
    heroes_seen: dict[str, tuple[str, UnitKind]] = {}
    for path in files:
        relative = f"scenarios/{path.name}"
        scenario = _load_scenario(
            r, relative, path.stem, unit_types, units, factions, faction_codes, game_map, options
        )
        if scenario is None:
            continue
        for hero_id, hero in scenario.heroes.items():
            if hero_id in units:
                r.problem(relative, f"hero '{hero_id}'", "id is already a unit kind")
            earlier = heroes_seen.get(hero_id)
            if earlier is not None and earlier[1] != hero:
                r.problem(
                    relative,
                    f"hero '{hero_id}'",
                    f"defined differently in {earlier[0]}; hero ids are shared by all scenarios",
                )
            heroes_seen.setdefault(hero_id, (relative, hero))
        out[scenario.id] = scenario
    return out


def _load_scenario(
    r: DataReader,
    file: str,
    scenario_id: str,
    unit_types: Mapping[BaseType, UnitTypeDef],
    units: Mapping[str, UnitKind],
    factions: Sequence[FactionDef],
    faction_codes: set[str],
    game_map: GameMap | None,
    base_options: Options,
) -> Scenario | None:
    data = r.read(file)
    if data is None:
        return None
    top = r.validate(ScenarioSchema, data, file, "")
    if top is None:
        return None
    faction_by_code = {f.code: f for f in factions}
    provinces = game_map.provinces if game_map is not None else {}
    spaces: set[str] = set(provinces) | (set(game_map.sea_zones) if game_map else set())

    # factions in play, in turn order
    sf_parsed: dict[str, ScenarioFactionSchema] = {}
    for index, raw in enumerate(top.faction):
        label = item_label("faction", raw, index, key="code")
        parsed = r.validate(ScenarioFactionSchema, raw, file, label)
        if parsed is None:
            continue
        if parsed.code not in faction_codes:
            r.unknown(file, label, "faction", parsed.code, faction_codes)
            continue
        if parsed.code in sf_parsed:
            r.problem(file, label, "faction listed twice")
            continue
        sf_parsed[parsed.code] = parsed
    in_play = [f.code for f in factions if f.code in sf_parsed]

    # heroes
    heroes: dict[str, UnitKind] = {}
    for index, raw in enumerate(top.hero):
        label = item_label("hero", raw, index)
        parsed_hero = r.validate(HeroSchema, raw, file, label)
        if parsed_hero is None:
            continue
        hero = build_kind(r, parsed_hero, unit_types, faction_by_code, file, label, hero=True)
        if hero is None:
            r.broken.add(parsed_hero.id)
            continue
        if hero.id in heroes:
            r.problem(file, label, "duplicate hero id")
            continue
        if hero.faction not in sf_parsed:
            r.problem(file, label, f"faction {hero.faction} is not in play")
        heroes[hero.id] = hero
    kinds: dict[str, UnitKind] = {**units, **heroes}

    # owners
    owners: dict[str, str] = {}
    scenario_factions: list[ScenarioFaction] = []
    for code in in_play:
        parsed = sf_parsed[code]
        label = f"faction '{code}'"
        for pid in parsed.provinces:
            if pid not in provinces:
                if game_map is not None:
                    r.unknown(file, label, "province", pid, provinces)
                continue
            if pid in owners:
                r.problem(
                    file,
                    label,
                    f"province '{pid}' is already owned by {owners[pid]} (R-COLL-01)",
                )
                continue
            owners[pid] = code
        commodities: dict[Commodity, int] = {}
        for name, amount in parsed.commodities.items():
            commodity = r.enum_value(Commodity, name, file, label, "commodity")
            if commodity is None:
                continue
            if amount < 0:
                r.problem(file, label, f"commodity '{name}' cannot be negative")
                continue
            commodities[commodity] = amount
        if parsed.hero is not None:
            hero = heroes.get(parsed.hero)
            if hero is None:
                r.unknown(file, label, "hero", parsed.hero, heroes)
            elif hero.faction != code:
                r.problem(file, label, f"hero '{parsed.hero}' belongs to {hero.faction}")
        scenario_factions.append(
            ScenarioFaction(code=code, rp=parsed.rp, commodities=commodities, hero=parsed.hero)
        )

    # units
    placed: list[ScenarioUnit] = []
    for code, by_space in top.units.items():
        if code not in sf_parsed:
            if code in faction_codes:
                r.problem(file, f"[units.{code}]", f"faction {code} is not in play")
            else:
                r.unknown(file, f"[units.{code}]", "faction", code, faction_codes)
            continue
        for space, counts in by_space.items():
            item = f"[units.{code}] {space}"
            if space not in spaces:
                if game_map is not None:
                    r.unknown(file, item, "province or sea zone", space, spaces)
                continue
            for kind_id, count in counts.items():
                kind = kinds.get(kind_id)
                if kind is None:
                    r.unknown(file, item, "unit kind", kind_id, kinds)
                    continue
                if kind.faction != code:
                    r.problem(file, item, f"'{kind_id}' belongs to {kind.faction}, not {code}")
                    continue
                if count < 1:
                    r.problem(file, item, f"'{kind_id}': a count is at least 1")
                    continue
                placed.append(ScenarioUnit(kind=kind_id, location=space, count=count))

    if game_map is not None:
        check_placements(r, file, placed, kinds, game_map, owners)
        check_start_musters(r, file, in_play, faction_by_code, placed, kinds, game_map, owners)

    # pacts
    alliances: list[frozenset[str]] = []
    for index, raw in enumerate(top.alliance):
        parsed_ally = r.validate(AllianceSchema, raw, file, f"alliance #{index + 1}")
        if parsed_ally is None:
            continue
        for code in parsed_ally.members:
            if code not in sf_parsed:
                r.problem(file, f"alliance #{index + 1}", f"faction {code} is not in play")
        alliances.append(frozenset(parsed_ally.members))
    for vassal, liege in top.fealty.items():
        for code in (vassal, liege):
            if code not in sf_parsed:
                r.problem(file, f"fealty {vassal} -> {liege}", f"faction {code} is not in play")
        if vassal == liege:
            r.problem(file, f"fealty {vassal} -> {liege}", "a faction cannot be its own liege")

    # the scenario's own victory conditions (R-VIC-06)
    holds: list[frozenset[str]] = []
    for index, hold in enumerate(top.victory.hold):
        for province in hold.provinces:
            if province not in provinces:
                r.unknown(file, f"victory.hold #{index + 1}", "province", province, provinces)
        holds.append(frozenset(hold.provinces))
    victory = ScenarioVictory(frozenset(top.victory.replaces), tuple(holds))

    options = build_options(r, base_options, top.options, file, "[options] ")
    events = load_events(r, file, top.event, in_play, kinds, game_map, top.turn_limit)
    return Scenario(
        id=scenario_id,
        name=top.name,
        description=top.description,
        factions=tuple(scenario_factions),
        owners=owners,
        units=tuple(placed),
        heroes=heroes,
        turn_limit=top.turn_limit,
        options=options,
        alliances=tuple(alliances),
        fealty=dict(top.fealty),
        victory=victory,
        events=events,
    )
