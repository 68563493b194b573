"""Reading ``unit_types.toml`` and ``units.toml``: the base unit types and the order of battle.

Part of the loader (:mod:`caedes_bot.gamedata.loader`). A unit kind takes its base values
from its type (catalogue section 15); :func:`build_kind` also builds a scenario's Heroes.
"""

from __future__ import annotations

from collections.abc import Mapping

from caedes_bot.gamedata.model import Attribute, BaseType, FactionDef, Race, UnitKind, UnitTypeDef
from caedes_bot.gamedata.schema import (
    HERO_ID,
    UNIT_ID,
    DataReader,
    HeroSchema,
    UnitSchema,
    UnitTypeSchema,
)

__all__ = ["build_kind", "load_unit_types", "load_units"]


def load_unit_types(r: DataReader) -> dict[BaseType, UnitTypeDef]:
    """The four base unit types of ``unit_types.toml`` (section 15), each required."""
    file = "unit_types.toml"
    data = r.read(file)
    if data is None:
        return {}
    out: dict[BaseType, UnitTypeDef] = {}
    for key, raw in data.items():
        bt = r.enum_value(BaseType, key, file, f"[{key}]", "unit type")
        parsed = r.validate(UnitTypeSchema, raw, file, f"[{key}]")
        if bt is None or parsed is None:
            continue
        inherent = r.attributes(parsed.inherent, (), file, f"[{key}]")
        moves = bt not in (BaseType.TOWER,)
        if moves and (parsed.attack is None or parsed.move is None):
            r.problem(file, f"[{key}]", "attack and move are required for this type")
        if not moves and (parsed.attack is not None or parsed.move is not None):
            r.problem(file, f"[{key}]", "a tower has no attack or move (R-ATTR-FORT-01)")
        out[bt] = UnitTypeDef(
            base_type=bt,
            attack=parsed.attack,
            defense=parsed.defense,
            move=parsed.move,
            cost=parsed.cost,
            inherent=inherent,
        )
    for bt in BaseType:
        if bt not in out and bt.value not in data:
            r.problem(file, "", f"unit type '{bt.value}' is missing")
    return out


def load_units(
    r: DataReader, unit_types: Mapping[BaseType, UnitTypeDef], factions: Mapping[str, FactionDef]
) -> dict[str, UnitKind]:
    """The order of battle of ``units.toml`` keyed by unit kind id (section 15)."""
    file = "units.toml"
    out: dict[str, UnitKind] = {}
    for index, raw in enumerate(r.items(r.read(file), "unit", file)):
        label = f"unit #{index + 1}"
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            label = f"unit '{raw['id']}'"
        parsed = r.validate(UnitSchema, raw, file, label)
        if parsed is None:
            continue
        kind = build_kind(r, parsed, unit_types, factions, file, label, hero=False)
        if kind is None:
            r.broken.add(parsed.id)
            continue
        if kind.id in out:
            r.problem(file, label, "duplicate unit id")
            continue
        out[kind.id] = kind
    return out


def build_kind(
    r: DataReader,
    parsed: UnitSchema | HeroSchema,
    unit_types: Mapping[BaseType, UnitTypeDef],
    factions: Mapping[str, FactionDef],
    file: str,
    label: str,
    *,
    hero: bool,
) -> UnitKind | None:
    """The unit kind (or, with ``hero``, the scenario Hero) of one parsed entry.

    Returns ``None`` if the entry cannot be built; every reason is reported.
    """
    pattern = HERO_ID if hero else UNIT_ID
    match = pattern.match(parsed.id)
    shape = "H-<FACTION>-<NN>" if hero else "U-<FACTION>-<NN>"
    ok = True
    if match is None:
        r.problem(file, label, f"id must look like {shape}")
        ok = False
    elif match.group(1) != parsed.faction:
        r.problem(file, label, f"id names faction {match.group(1)} but faction is {parsed.faction}")
    faction = factions.get(parsed.faction)
    if faction is None:
        r.unknown(file, label, "faction", parsed.faction, factions)
        ok = False
    bt = r.enum_value(BaseType, parsed.type, file, label, "unit type")
    race: Race | None = None
    if parsed.race is not None:
        race = r.enum_value(Race, parsed.race, file, label, "race")
        if race is None:
            ok = False
    attrs = r.attributes(parsed.attributes, parsed.magical, file, label)
    if bt is None or bt not in unit_types:
        return None
    tdef = unit_types[bt]
    if bt in (BaseType.SHIP,) and race is not None:
        r.problem(file, label, "a ship has no race (R-RACE-NONE-01)")
    if bt in (BaseType.INFANTRY, BaseType.CAVALRY) and race is None:
        r.problem(file, label, "infantry and cavalry need a race (section 13)")
    if bt is BaseType.TOWER and race not in (None, Race.SUMMONED):
        r.problem(file, label, "a tower has no race unless it is summoned (R-ATTR-FORT-06)")
    if faction is not None and race is not None and race not in faction.races:
        r.problem(
            file,
            label,
            f"faction {faction.code} does not muster race '{race.value}'"
            f" (its races: {', '.join(sorted(r.value for r in faction.races))})",
        )
    if not ok:
        return None
    attributes = attrs | tdef.inherent
    if hero:
        attributes |= {Attribute.HERO}
    return UnitKind(
        id=parsed.id,
        faction=parsed.faction,
        name=parsed.name,
        display_name=parsed.display_name,
        race=race,
        cost=None if hero else getattr(parsed, "cost", None),
        base_type=bt,
        attack=tdef.attack,
        defense=tdef.defense,
        move=tdef.move,
        attributes=frozenset(attributes),
        hero=hero,
        description=parsed.description,
    )
