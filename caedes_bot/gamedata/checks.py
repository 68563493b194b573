"""Cross-checks between the game data files, run by the loader after each file is read.

Each check takes the :class:`~caedes_bot.gamedata.schema.DataReader` of the run and adds a
problem for every breach; none raises. Rule IDs in brackets:

* the factions of ``factions.toml`` against the turn order of ``turn.toml`` [R-TURN-01];
* each faction can muster every race it needs somewhere in its home region of ``map.toml``
  [R-MUSTER-06, R-RACE-*];
* a scenario's starting units against the map and the order of battle: no land unit or Tower
  at sea, no ship on land [R-MOVE-09, R-ATTR-WATER-01], at most one Fortification per
  province [R-ATTR-FORT-02], only in the owner's provinces [R-SETUP-03], Undead beside a
  Necromancer [R-RACE-UND-01], Summoned beside a Summoner [R-RACE-SUM-01], no Mercenary stack
  that would die at once [R-ATTR-MERC-01], one faction per space, each Hero placed once;
* every race a faction in play musters can be mustered from the start [R-MUSTER-08].
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from caedes_bot.gamedata.model import (
    ARCHURSIA,
    ESTLON,
    MUSTER_TERRAINS,
    Attribute,
    BaseType,
    FactionDef,
    GameMap,
    Province,
    Race,
    ScenarioUnit,
    UnitKind,
)
from caedes_bot.gamedata.schema import DataReader

__all__ = [
    "check_faction_homes",
    "check_placements",
    "check_start_musters",
    "order_factions",
]


def order_factions(
    r: DataReader, factions: Sequence[FactionDef], turn_codes: Sequence[str]
) -> list[FactionDef]:
    """``factions`` sorted into the turn order ``turn_codes`` of ``turn.toml`` (R-TURN-01).

    Every faction must appear in the turn order once, and the turn order must name nothing
    else. A faction missing from it is reported against ``factions.toml`` and put last, so
    that nothing later reports it again as unknown.
    """
    file = "turn.toml"
    by_code = {f.code: f for f in factions}
    order: list[str] = []
    for code in turn_codes:
        if code in order:
            r.problem(file, f"faction '{code}'", "listed twice in the turn order (R-TURN-01)")
        elif code not in by_code:
            r.unknown(file, "factions", "faction", code, by_code)
        else:
            order.append(code)
    late = [f for f in factions if f.code not in order]
    for faction in late:
        r.problem(
            "factions.toml",
            f"faction '{faction.code}'",
            "missing from the turn order of R-TURN-01 (turn.toml factions)",
        )
    return [by_code[c] for c in order] + late


def check_faction_homes(
    r: DataReader, factions: Sequence[FactionDef], units: Mapping[str, UnitKind], game_map: GameMap
) -> None:
    """Each faction can muster every race it needs somewhere in its home region (section 13)."""
    file = "factions.toml"
    regions = {p.region for p in game_map.provinces.values()}
    for faction in factions:
        label = f"faction '{faction.code}'"
        if faction.home_region not in regions:
            r.unknown(file, label, "home region", faction.home_region, regions)
            continue
        home = [p for p in game_map.provinces.values() if p.region == faction.home_region]
        kinds = [k for k in units.values() if k.faction == faction.code]
        for race in sorted(faction.races, key=lambda r: r.value):
            reason = _home_muster_gap(race, home, kinds)
            if reason:
                r.problem(file, label, f"could never muster {race.value} units: {reason}")


def _home_muster_gap(race: Race, home: Sequence[Province], kinds: Sequence[UnitKind]) -> str:
    if race in MUSTER_TERRAINS:
        terrains, _rule = MUSTER_TERRAINS[race]
        if not any(set(p.terrains) & terrains for p in home):
            wanted = " or ".join(sorted(t.value for t in terrains))
            return f"no {wanted} province in the home region (R-MUSTER-06)"
        return ""
    if race is Race.ACHEROUSIAN:
        if not any(p.id == ARCHURSIA for p in home):
            return f"province '{ARCHURSIA}' is not in the home region (R-RACE-ACH-01)"
        return ""
    if race is Race.HIGH_ELVEN:
        if not any(p.island == ESTLON for p in home):
            return f"no province of the island '{ESTLON}' in the home region (R-RACE-HEL-01)"
        return ""
    if race is Race.UNDEAD:
        if not any(k.has(Attribute.NECROMANCER) for k in kinds):
            return "no Necromancer in its order of battle (R-RACE-UND-01)"
        return ""
    if race is Race.SUMMONED:
        if not any(k.has(Attribute.SUMMONER) for k in kinds):
            return "no Summoner in its order of battle (R-RACE-SUM-01)"
        return ""
    return ""  # pragma: no cover - every race is handled above


def check_placements(
    r: DataReader,
    file: str,
    placed: Sequence[ScenarioUnit],
    kinds: Mapping[str, UnitKind],
    game_map: GameMap,
    owners: Mapping[str, str],
) -> None:
    """Every starting unit stands where it could be (R-SETUP-01, R-SETUP-03)."""
    by_space: dict[str, list[tuple[UnitKind, int]]] = {}
    for su in placed:
        by_space.setdefault(su.location, []).append((kinds[su.kind], su.count))
    hero_places: Counter[str] = Counter()
    for su in placed:
        if kinds[su.kind].hero:
            hero_places[su.kind] += su.count
    for hero_id, count in hero_places.items():
        if count > 1:
            r.problem(file, f"hero '{hero_id}'", "a hero is one unit, placed once")
    for space, stack in by_space.items():
        item = f"units at '{space}'"
        owners_here = {k.faction for k, _ in stack}
        if len(owners_here) > 1:
            r.problem(
                file,
                item,
                "units of several factions share a space at the start: "
                + ", ".join(sorted(owners_here)),
            )
        at_sea = game_map.is_sea(space)
        for kind, _count in stack:
            if at_sea and kind.base_type is not BaseType.SHIP:
                rule = "R-ATTR-FORT-02" if kind.has(Attribute.FORTIFICATION) else "R-MOVE-09"
                r.problem(
                    file,
                    item,
                    f"'{kind.id}' ({kind.display_name}) cannot stand in a sea zone; only"
                    f" ships start at sea, and they start empty ({rule})",
                )
            if not at_sea and kind.base_type is BaseType.SHIP:
                r.problem(
                    file,
                    item,
                    f"'{kind.id}' ({kind.display_name}) is a ship and cannot be in a"
                    " province (R-ATTR-WATER-01)",
                )
        if at_sea:
            continue
        owner = owners.get(space)
        for faction in sorted(owners_here):
            if owner != faction:
                rule = "R-SETUP-03" if owner is None else "R-COLL-01"
                whose = "unowned" if owner is None else f"owned by {owner}"
                r.problem(
                    file,
                    item,
                    f"{faction} units stand in a province {whose}; starting units stand in"
                    f" their own faction's provinces ({rule})",
                )
        forts = sum(n for k, n in stack if k.has(Attribute.FORTIFICATION))
        if forts > 1:
            r.problem(
                file, item, f"{forts} Fortifications; at most one per province (R-ATTR-FORT-02)"
            )
        for faction in sorted(owners_here):
            mine = [(k, n) for k, n in stack if k.faction == faction]
            has_necro = any(k.has(Attribute.NECROMANCER) for k, _ in mine)
            has_summoner = any(k.has(Attribute.SUMMONER) for k, _ in mine)
            if any(k.race is Race.UNDEAD for k, _ in mine) and not has_necro:
                r.problem(
                    file, item, "Undead start without a Necromancer beside them (R-RACE-UND-01)"
                )
            if any(k.race is Race.SUMMONED for k, _ in mine) and not has_summoner:
                r.problem(
                    file,
                    item,
                    "Summoned units start without a Summoner beside them (R-RACE-SUM-01)",
                )
            mercs = sum(n for k, n in mine if k.has(Attribute.MERCENARY))
            others = sum(n for k, n in mine if not k.has(Attribute.MERCENARY))
            if mercs > others:
                r.problem(
                    file,
                    item,
                    f"{mercs} Mercenary units outnumber {others} others and would be"
                    " destroyed at the first turn (R-ATTR-MERC-01)",
                )


def check_start_musters(
    r: DataReader,
    file: str,
    in_play: Sequence[str],
    factions: Mapping[str, FactionDef],
    placed: Sequence[ScenarioUnit],
    kinds: Mapping[str, UnitKind],
    game_map: GameMap,
    owners: Mapping[str, str],
) -> None:
    """Each faction in play can muster every race it needs from the start (R-MUSTER-08)."""
    for code in in_play:
        faction = factions[code]
        label = f"faction '{code}'"
        own = [p for p, o in owners.items() if o == code]
        for race in sorted(faction.races, key=lambda r: r.value):
            if race in MUSTER_TERRAINS:
                terrains, _rule = MUSTER_TERRAINS[race]
                ok = any(
                    kinds[su.kind].faction == code
                    and kinds[su.kind].race is race
                    and kinds[su.kind].base_type is BaseType.INFANTRY
                    and owners.get(su.location) == code
                    and game_map.is_province(su.location)
                    and set(game_map.provinces[su.location].terrains) & terrains
                    for su in placed
                )
                if not ok:
                    wanted = " or ".join(sorted(t.value for t in terrains))
                    r.problem(
                        file,
                        label,
                        f"could never muster {race.value} units: no starting {race.value}"
                        f" infantry unit in a {wanted} province it owns (R-MUSTER-08)",
                    )
            elif race is Race.ACHEROUSIAN and ARCHURSIA not in own:
                r.problem(
                    file,
                    label,
                    f"could never muster {race.value} units: it does not own"
                    f" '{ARCHURSIA}' (R-RACE-ACH-01)",
                )
            elif race is Race.HIGH_ELVEN and not any(
                game_map.provinces[p].island == ESTLON for p in own
            ):
                r.problem(
                    file,
                    label,
                    f"could never muster {race.value} units: it owns no province of"
                    f" '{ESTLON}' (R-RACE-HEL-01)",
                )
