"""Load the game data in ``config/caedes/`` into a frozen :class:`~caedes_bot.gamedata.model.Ruleset`.

The data is TOML (read with :mod:`tomllib`), checked in two passes:

1. **Shape**: every item is validated on its own by a pydantic schema that forbids unknown
   keys, so one bad entry does not hide the others.
2. **Meaning**: names are resolved (unit kinds, factions, provinces, sea zones, races,
   attributes, terrains, commodities, options) with near-match suggestions, and the
   cross-checks below run over everything that parsed.

Every problem found is collected; if there are any, :class:`GameDataError` is raised once with
all of them, each naming its file and item. Nothing is half-loaded.

Cross-checks (rule IDs in brackets):

* ids unique and well formed;
* ``turn.toml``: the eight known steps, each once [R-TURN-02]; every faction of
  ``factions.toml`` once in the turn order, and nothing else [R-TURN-01];
* land borders, coasts and sea links between known spaces, no self-borders or duplicates;
  the file lists each pair once, so adjacency is symmetric by construction;
* island provinces border only their own island [R-MOVE-10];
* river edges lie on land borders, chain along the river, and a navigable river's mouth
  edge has both provinces on its sea zone [R-MOVE-11, R-MOVE-13];
* every province and sea zone can be reached from the centre province (Orme) through land
  borders, coasts and sea links;
* every faction can muster each race it needs somewhere in its home region
  [R-RACE-*, R-MUSTER-06];
* scenarios: known factions, owners, kinds and spaces; each unit where it could be
  (no land unit or Tower at sea, no ship on land [R-MOVE-09, R-ATTR-WATER-01], at most one
  Fortification per province [R-ATTR-FORT-02], only in its owner's provinces [R-SETUP-03],
  Undead beside a Necromancer [R-RACE-UND-01], Summoned beside a Summoner [R-RACE-SUM-01],
  no Mercenary stack that would die at once [R-ATTR-MERC-01], one faction per space);
  every limited race it musters has a starting infantry unit on qualifying ground
  [R-MUSTER-08]; options valid.

Typical use::

    ruleset = load_ruleset()               # the shipped data
    ruleset = load_ruleset(Path("my-data"))  # a copy being edited
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import re
import tomllib
from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from caedes_bot.gamedata.model import (
    ARCHURSIA,
    ESTLON,
    MAGICAL_ATTRIBUTES,
    OPTION_CHOICES,
    STEP_IDS,
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

__all__ = [
    "MUSTER_TERRAINS",
    "GameDataError",
    "default_config_dir",
    "load_ruleset",
    "suggest",
]

#: Terrains on which each limited race musters beside one of its infantry units
#: (R-RACE-BUG-01, R-RACE-DAW-01, R-RACE-DWA-01, R-RACE-LIZ-01, R-RACE-OGR-01, R-RACE-ORC-01,
#: R-RACE-WEL-01). A province qualifies if any of its terrains is listed (R-MUSTER-06).
MUSTER_TERRAINS: Mapping[Race, frozenset[Terrain]] = {
    Race.BUGBEAR: frozenset({Terrain.HILLS, Terrain.MOUNTAINS}),
    Race.DAWNIAN: frozenset({Terrain.PLAINS}),
    Race.DWARVEN: frozenset({Terrain.MOUNTAINS}),
    Race.LIZARDMAN: frozenset({Terrain.SWAMP}),
    Race.OGRE: frozenset({Terrain.HILLS}),
    Race.ORC: frozenset({Terrain.HILLS, Terrain.PLAINS}),
    Race.WOOD_ELVEN: frozenset({Terrain.FOREST}),
}

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_UNIT_ID = re.compile(r"^U-([A-Z]{3})-(\d{2})$")
_HERO_ID = re.compile(r"^H-([A-Z]{3})-(\d{2})$")
_FACTION_CODE = re.compile(r"^[A-Z]{3}$")


# ---------------------------------------------------------------------------------------------
# Public helpers


class GameDataError(Exception):
    """The game data has problems; :attr:`problems` lists every one found, each with its file.

    Attributes:
        problems: one line per problem, e.g.
            ``"map.toml: land border ['orme', 'ormee']: unknown province 'ormee' (did you
            mean 'orme'?)"``.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: list[str] = list(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in the game data:"
        super().__init__("\n".join([head, *(f"  - {p}" for p in self.problems)]))


def default_config_dir() -> Path:
    """The shipped game data: ``config/caedes/`` at the root of the repository.

    The package lives at ``<repo>/caedes_bot/``; the data ships beside it in the repository
    (design.md section 2). This is the only place that knows where the data lives.
    """
    return Path(__file__).resolve().parents[2] / "config" / "caedes"


def suggest(name: str, candidates: Iterable[str], *, limit: int = 3) -> tuple[str, ...]:
    """Near matches of ``name`` among ``candidates`` (case-insensitive), best first.

    Args:
        name: the name as typed.
        candidates: the valid names.
        limit: at most this many suggestions.

    Returns:
        Up to ``limit`` candidates in their own spelling; empty if none is close.
    """
    by_lower: dict[str, str] = {}
    for c in candidates:
        by_lower.setdefault(c.lower(), c)
    hits = difflib.get_close_matches(name.lower(), list(by_lower), n=limit, cutoff=0.6)
    return tuple(by_lower[h] for h in hits)


def load_ruleset(root: Path | None = None) -> Ruleset:
    """Read, check and build the whole ruleset.

    Args:
        root: the data directory (holding ``unit_types.toml``, ``units.toml``,
            ``factions.toml``, ``turn.toml``, ``options.toml``, ``map.toml`` and
            ``scenarios/*.toml``);
            :func:`default_config_dir` if ``None``.

    Returns:
        The frozen ruleset: factions in turn order (R-TURN-01), the step order (R-TURN-02),
        the order of battle (catalogue section 15), the map, and every scenario keyed by its
        file name.

    Raises:
        GameDataError: listing every problem found, if there is at least one.
    """
    folder = root or default_config_dir()
    if not folder.is_dir():
        raise GameDataError([f"the game data folder {folder} does not exist"])
    return _Loader(folder).load()


# ---------------------------------------------------------------------------------------------
# Schemas (shapes only; names are resolved afterwards so problems can suggest near matches)


class _Schema(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class _UnitTypeSchema(_Schema):
    attack: int | None = None
    defense: int
    move: int | None = None
    cost: int = Field(ge=1)
    inherent: list[str] = Field(default_factory=list)


class _UnitSchema(_Schema):
    id: str
    faction: str
    name: str = Field(min_length=1)
    display_name: str = Field(min_length=1)
    race: str | None = None
    cost: int = Field(ge=1)
    type: str
    attributes: list[str] = Field(default_factory=list)
    magical: list[str] = Field(default_factory=list)
    description: str = ""


class _FactionSchema(_Schema):
    code: str
    name: str = Field(min_length=1)
    adjective: str = Field(min_length=1)
    colour: int = Field(ge=0, le=0xFFFFFF)
    tag: str = Field(min_length=1, max_length=6)
    emoji: str = Field(min_length=1)
    races: list[str] = Field(min_length=1)
    home_region: str = Field(min_length=1)


class _ProvinceSchema(_Schema):
    id: str
    name: str = Field(min_length=1)
    region: str = Field(min_length=1)
    direction: str
    inches: float = Field(ge=0)
    rp: int = Field(ge=0)
    terrains: list[str] = Field(min_length=1)
    commodities: list[str] = Field(default_factory=list)
    island: str | None = None
    special: bool = False
    text: str = ""


class _SeaZoneSchema(_Schema):
    id: str
    name: str = Field(min_length=1)
    direction: str | None = None
    inches: float = Field(default=0.0, ge=0)
    text: str = ""


class _BordersSchema(_Schema):
    land: list[list[str]] = Field(default_factory=list)
    coasts: list[list[str]] = Field(default_factory=list)
    sea: list[list[str]] = Field(default_factory=list)


class _RiverSchema(_Schema):
    name: str = Field(min_length=1)
    navigable: bool = False
    mouth: str | None = None
    edges: list[list[str]] = Field(min_length=1)
    text: str = ""


class _HeroSchema(_Schema):
    id: str
    faction: str
    name: str = Field(min_length=1)
    display_name: str = Field(min_length=1)
    race: str | None = None
    type: str
    attributes: list[str] = Field(default_factory=list)
    magical: list[str] = Field(default_factory=list)
    description: str = ""


class _ScenarioFactionSchema(_Schema):
    code: str
    rp: int = Field(ge=0)
    commodities: dict[str, int] = Field(default_factory=dict)
    hero: str | None = None
    provinces: list[str] = Field(default_factory=list)


class _TurnSchema(_Schema):
    steps: list[str] = Field(min_length=1)
    factions: list[str] = Field(min_length=1)


class _AllianceSchema(_Schema):
    members: list[str] = Field(min_length=2)


class _ScenarioSchema(_Schema):
    name: str = Field(min_length=1)
    description: str = ""
    turn_limit: int | None = Field(default=None, ge=1)
    options: dict[str, Any] = Field(default_factory=dict)
    faction: list[dict[str, Any]] = Field(min_length=1)
    hero: list[dict[str, Any]] = Field(default_factory=list)
    units: dict[str, dict[str, dict[str, int]]] = Field(default_factory=dict)
    alliance: list[dict[str, Any]] = Field(default_factory=list)
    fealty: dict[str, str] = Field(default_factory=dict)


_M = TypeVar("_M", bound=BaseModel)
_E = TypeVar("_E", bound=enum.Enum)


def _describe_validation(exc: ValidationError) -> list[str]:
    out = []
    for err in exc.errors():
        loc = ".".join(str(part) for part in err["loc"]) or "(top)"
        out.append(f"{loc}: {err['msg']}")
    return out


# ---------------------------------------------------------------------------------------------
# The loader


class _Loader:
    """One loading run: collects problems while building the ruleset."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[str] = []
        # ids of items already reported as broken: not reported again as unknown elsewhere
        self.broken: set[str] = set()

    # -- problem reporting ------------------------------------------------------------------

    def problem(self, file: str, item: str, message: str) -> None:
        where = f"{file}: {item}: " if item else f"{file}: "
        self.problems.append(where + message)

    def unknown(
        self, file: str, item: str, what: str, name: str, candidates: Iterable[str]
    ) -> None:
        if name in self.broken:
            return
        hint = suggest(name, candidates)
        text = f"unknown {what} '{name}'"
        if hint:
            text += " (did you mean " + " or ".join(f"'{h}'" for h in hint) + "?)"
        self.problem(file, item, text)

    # -- reading ----------------------------------------------------------------------------

    def read(self, relative: str) -> dict[str, Any] | None:
        path = self.root / relative
        try:
            with path.open("rb") as fh:
                return tomllib.load(fh)
        except FileNotFoundError:
            self.problem(relative, "", "file is missing")
        except tomllib.TOMLDecodeError as exc:
            self.problem(relative, "", f"not valid TOML: {exc}")
        return None

    def validate(self, schema: type[_M], data: object, file: str, item: str) -> _M | None:
        try:
            return schema.model_validate(data)
        except ValidationError as exc:
            for line in _describe_validation(exc):
                self.problem(file, item, f"schema: {line}")
            if isinstance(data, dict):
                for key in ("id", "code"):
                    value = data.get(key)
                    if isinstance(value, str):
                        self.broken.add(value)
            return None

    def items(
        self, data: Mapping[str, Any] | None, key: str, file: str, *, only: bool = True
    ) -> list[Any]:
        """The array of tables ``[[key]]`` of a file, or an empty list with a problem.

        With ``only``, any other top-level key of the file is reported.
        """
        if data is None:
            return []
        value = data.get(key)
        if only:
            for name in sorted(set(data) - {key}):
                self.problem(file, "", f"schema: unexpected top-level key '{name}'")
        if not isinstance(value, list):
            self.problem(file, "", f"schema: expected an array of [[{key}]] tables")
            return []
        return value

    # -- name resolution --------------------------------------------------------------------

    def enum_value(
        self, enum_type: type[_E], value: str, file: str, item: str, what: str
    ) -> _E | None:
        try:
            return enum_type(value)
        except ValueError:
            self.unknown(file, item, what, value, [m.value for m in enum_type])
            return None

    def attributes(
        self, plain: Sequence[str], magical: Sequence[str], file: str, item: str
    ) -> frozenset[Attribute]:
        found: set[Attribute] = set()
        for names, want_magic in ((plain, False), (magical, True)):
            seen: set[str] = set()
            for name in names:
                if name in seen:
                    self.problem(file, item, f"attribute '{name}' listed twice")
                seen.add(name)
                attr = self.enum_value(Attribute, name, file, item, "attribute")
                if attr is None:
                    continue
                if want_magic and attr not in MAGICAL_ATTRIBUTES:
                    self.problem(
                        file, item, f"'{name}' is not a magical attribute; list it in attributes"
                    )
                elif not want_magic and attr in MAGICAL_ATTRIBUTES:
                    self.problem(file, item, f"'{name}' is a magical attribute; list it in magical")
                if attr is Attribute.HERO:
                    self.problem(
                        file, item, "'hero' is given by the scenario's [[hero]] table, not listed"
                    )
                found.add(attr)
        return frozenset(found)

    # -- the whole run ----------------------------------------------------------------------

    def load(self) -> Ruleset:
        unit_types = self.load_unit_types()
        factions, step_order = self.load_turn(self.load_factions())
        faction_codes = {f.code for f in factions}
        units = self.load_units(unit_types, {f.code: f for f in factions})
        options = self.load_options()
        game_map = self.load_map()
        if game_map is not None:
            self.check_faction_homes(factions, units, game_map)
        scenarios = self.load_scenarios(
            unit_types, units, factions, faction_codes, game_map, options
        )
        if self.problems:
            raise GameDataError(self.problems)
        assert game_map is not None
        return Ruleset(
            unit_types=unit_types,
            units=units,
            factions=tuple(factions),
            map=game_map,
            scenarios=scenarios,
            step_order=step_order,
        )

    # -- unit types -------------------------------------------------------------------------

    def load_unit_types(self) -> dict[BaseType, UnitTypeDef]:
        file = "unit_types.toml"
        data = self.read(file)
        if data is None:
            return {}
        out: dict[BaseType, UnitTypeDef] = {}
        for key, raw in data.items():
            bt = self.enum_value(BaseType, key, file, f"[{key}]", "unit type")
            parsed = self.validate(_UnitTypeSchema, raw, file, f"[{key}]")
            if bt is None or parsed is None:
                continue
            inherent = self.attributes(parsed.inherent, (), file, f"[{key}]")
            moves = bt not in (BaseType.TOWER,)
            if moves and (parsed.attack is None or parsed.move is None):
                self.problem(file, f"[{key}]", "attack and move are required for this type")
            if not moves and (parsed.attack is not None or parsed.move is not None):
                self.problem(file, f"[{key}]", "a tower has no attack or move (R-ATTR-FORT-01)")
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
                self.problem(file, "", f"unit type '{bt.value}' is missing")
        return out

    # -- factions ---------------------------------------------------------------------------

    def load_factions(self) -> list[FactionDef]:
        file = "factions.toml"
        out: list[FactionDef] = []
        seen: dict[str, set[object]] = {
            "code": set(),
            "colour": set(),
            "emoji": set(),
            "tag": set(),
        }
        for index, raw in enumerate(self.items(self.read(file), "faction", file)):
            label = f"faction #{index + 1}"
            if isinstance(raw, dict) and isinstance(raw.get("code"), str):
                label = f"faction '{raw['code']}'"
            parsed = self.validate(_FactionSchema, raw, file, label)
            if parsed is None:
                continue
            if not _FACTION_CODE.match(parsed.code):
                self.problem(file, label, "a faction code is three capital letters")
            for key in ("code", "colour", "emoji", "tag"):
                value = getattr(parsed, key)
                if value in seen[key]:
                    self.problem(file, label, f"duplicate {key} {value!r}")
                seen[key].add(value)
            races: set[Race] = set()
            for name in parsed.races:
                race = self.enum_value(Race, name, file, label, "race")
                if race is not None:
                    races.add(race)
            out.append(
                FactionDef(
                    code=parsed.code,
                    name=parsed.name,
                    adjective=parsed.adjective,
                    colour=parsed.colour,
                    tag=parsed.tag,
                    emoji=parsed.emoji,
                    races=frozenset(races),
                    home_region=parsed.home_region,
                )
            )
        return out

    # -- the turn: steps and faction order --------------------------------------------------

    def load_turn(self, factions: Sequence[FactionDef]) -> tuple[list[FactionDef], tuple[str, ...]]:
        """Read ``turn.toml``: the factions sorted into turn order, and the step order.

        Factions missing from the turn order are reported against ``factions.toml`` (and
        put last, so that nothing else reports them again); codes of the turn order that name no faction are reported against
        ``turn.toml`` (R-TURN-01). The steps must be the ids of :data:`STEP_IDS`, each once
        (R-TURN-02).
        """
        file = "turn.toml"
        data = self.read(file)
        parsed = self.validate(_TurnSchema, data, file, "") if data is not None else None
        if parsed is None:
            return list(factions), ()
        seen_steps: set[str] = set()
        for step in parsed.steps:
            if step in seen_steps:
                self.problem(file, f"step '{step}'", "listed twice (R-TURN-02)")
            elif step not in STEP_IDS:
                self.unknown(file, "steps", "step", step, sorted(STEP_IDS))
            seen_steps.add(step)
        for step in sorted(STEP_IDS - seen_steps):
            self.problem(file, f"step '{step}'", "missing; a turn has all eight steps (R-TURN-02)")

        by_code = {f.code: f for f in factions}
        order: list[str] = []
        for code in parsed.factions:
            if code in order:
                self.problem(
                    file, f"faction '{code}'", "listed twice in the turn order (R-TURN-01)"
                )
            elif code not in by_code:
                if by_code:
                    self.unknown(file, "factions", "faction", code, by_code)
            else:
                order.append(code)
        for faction in factions:
            if faction.code not in order:
                self.problem(
                    "factions.toml",
                    f"faction '{faction.code}'",
                    "missing from the turn order of R-TURN-01 (turn.toml factions)",
                )
        late = [f for f in factions if f.code not in order]  # reported above
        return [by_code[c] for c in order] + late, tuple(parsed.steps)

    # -- units ------------------------------------------------------------------------------

    def load_units(
        self, unit_types: Mapping[BaseType, UnitTypeDef], factions: Mapping[str, FactionDef]
    ) -> dict[str, UnitKind]:
        file = "units.toml"
        out: dict[str, UnitKind] = {}
        for index, raw in enumerate(self.items(self.read(file), "unit", file)):
            label = f"unit #{index + 1}"
            if isinstance(raw, dict) and isinstance(raw.get("id"), str):
                label = f"unit '{raw['id']}'"
            parsed = self.validate(_UnitSchema, raw, file, label)
            if parsed is None:
                continue
            kind = self.build_kind(parsed, unit_types, factions, file, label, hero=False)
            if kind is None:
                self.broken.add(parsed.id)
                continue
            if kind.id in out:
                self.problem(file, label, "duplicate unit id")
                continue
            out[kind.id] = kind
        return out

    def build_kind(
        self,
        parsed: _UnitSchema | _HeroSchema,
        unit_types: Mapping[BaseType, UnitTypeDef],
        factions: Mapping[str, FactionDef],
        file: str,
        label: str,
        *,
        hero: bool,
    ) -> UnitKind | None:
        pattern = _HERO_ID if hero else _UNIT_ID
        match = pattern.match(parsed.id)
        shape = "H-<FACTION>-<NN>" if hero else "U-<FACTION>-<NN>"
        ok = True
        if match is None:
            self.problem(file, label, f"id must look like {shape}")
            ok = False
        elif match.group(1) != parsed.faction:
            self.problem(
                file, label, f"id names faction {match.group(1)} but faction is {parsed.faction}"
            )
        faction = factions.get(parsed.faction)
        if faction is None:
            self.unknown(file, label, "faction", parsed.faction, factions)
            ok = False
        bt = self.enum_value(BaseType, parsed.type, file, label, "unit type")
        race: Race | None = None
        if parsed.race is not None:
            race = self.enum_value(Race, parsed.race, file, label, "race")
            if race is None:
                ok = False
        attrs = self.attributes(parsed.attributes, parsed.magical, file, label)
        if bt is None or bt not in unit_types:
            return None
        tdef = unit_types[bt]
        if bt in (BaseType.SHIP,) and race is not None:
            self.problem(file, label, "a ship has no race (R-RACE-NONE-01)")
        if bt in (BaseType.INFANTRY, BaseType.CAVALRY) and race is None:
            self.problem(file, label, "infantry and cavalry need a race (section 13)")
        if bt is BaseType.TOWER and race not in (None, Race.SUMMONED):
            self.problem(file, label, "a tower has no race unless it is summoned (R-ATTR-FORT-06)")
        if faction is not None and race is not None and race not in faction.races:
            self.problem(
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

    # -- options ----------------------------------------------------------------------------

    def load_options(self) -> Options:
        file = "options.toml"
        data = self.read(file)
        return self.build_options(Options(), data or {}, file, "")

    def build_options(
        self, base: Options, data: Mapping[str, Any], file: str, item: str
    ) -> Options:
        fields = {f.name: f for f in dataclasses.fields(Options)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            where = f"{item}option '{key}'" if item else f"option '{key}'"
            if key not in fields:
                self.unknown(file, where, "option", key, fields)
                continue
            default = getattr(Options(), key)
            checked = self.option_value(key, value, default, file, where)
            if checked is not None:
                changes[key] = checked
        return dataclasses.replace(base, **changes)

    def option_value(self, key: str, value: object, default: object, file: str, where: str) -> Any:
        if isinstance(default, bool):
            if not isinstance(value, bool):
                self.problem(file, where, "must be true or false")
                return None
            return value
        if isinstance(default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                self.problem(file, where, "must be a whole number")
                return None
            if key == "breath_mighty_dice" and value not in (3, 6):
                self.problem(file, where, "must be 3 or 6 (R-ATTR-BREATH-03)")
                return None
            if value < 1:
                self.problem(file, where, "must be at least 1")
                return None
            return value
        if isinstance(default, float):
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                self.problem(file, where, "must be a positive number of hours")
                return None
            return float(value)
        if isinstance(default, str):
            choices = OPTION_CHOICES.get(key, ())
            if not isinstance(value, str):
                self.problem(file, where, "must be a string")
                return None
            if choices and value not in choices:
                self.unknown(file, where, "value", value, choices)
                return None
            return value
        if isinstance(default, tuple):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                self.problem(file, where, "must be a list of unit types")
                return None
            out = []
            for v in value:
                bt = self.enum_value(BaseType, v, file, where, "unit type")
                if bt is not None:
                    out.append(bt.value)
            return tuple(out)
        self.problem(file, where, "cannot be set from a file")  # pragma: no cover
        return None

    # -- map --------------------------------------------------------------------------------

    def load_map(self) -> GameMap | None:
        file = "map.toml"
        data = self.read(file)
        if data is None:
            return None
        for key in sorted(set(data) - {"province", "sea_zone", "borders", "river"}):
            self.problem(file, "", f"schema: unexpected top-level key '{key}'")
        provinces: dict[str, Province] = {}
        for index, raw in enumerate(self.items(data, "province", file, only=False)):
            label = _label("province", raw, index)
            parsed = self.validate(_ProvinceSchema, raw, file, label)
            if parsed is None:
                continue
            province = self.build_province(parsed, file, label)
            if province.id in provinces:
                self.problem(file, label, "duplicate province id")
                continue
            provinces[province.id] = province

        seas: dict[str, SeaZone] = {}
        for index, raw in enumerate(self.items(data, "sea_zone", file, only=False)):
            label = _label("sea zone", raw, index)
            parsed_sea = self.validate(_SeaZoneSchema, raw, file, label)
            if parsed_sea is None:
                continue
            if not _SLUG.match(parsed_sea.id):
                self.problem(file, label, "an id is a lower-case slug like 'dilgac-sound'")
            direction = None
            if parsed_sea.direction is not None:
                direction = self.enum_value(
                    Direction, parsed_sea.direction, file, label, "direction"
                )
            if parsed_sea.id in seas or parsed_sea.id in provinces:
                self.problem(file, label, "duplicate space id (provinces and sea zones share ids)")
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
            self.problem(
                file,
                "",
                f"exactly one province must have direction 'centre' (Orme); found {len(centres)}",
            )

        borders = self.validate(_BordersSchema, data.get("borders", {}), file, "[borders]")
        land: dict[str, set[str]] = {p: set() for p in provinces}
        coasts: dict[str, set[str]] = {p: set() for p in provinces}
        sea_adj: dict[str, set[str]] = {s: set() for s in seas}
        if borders is not None:
            self.read_pairs(borders.land, "land border", provinces, provinces, land, land, file)
            self.read_pairs(borders.coasts, "coast", provinces, seas, coasts, None, file)
            self.read_pairs(borders.sea, "sea link", seas, seas, sea_adj, sea_adj, file)

        # R-MOVE-10: islands are reached only by sea.
        for pid, neighbours in land.items():
            for other in sorted(neighbours):
                if pid < other and provinces[pid].island != provinces[other].island:
                    self.problem(
                        file,
                        f"land border ['{pid}', '{other}']",
                        "crosses from one island (or the mainland) to another; islands have no"
                        " land border off their island (R-MOVE-10)",
                    )

        rivers = self.read_rivers(data.get("river", []), provinces, seas, land, coasts, file)

        game_map = GameMap(
            provinces=provinces,
            sea_zones=seas,
            land_adjacency={p: frozenset(n) for p, n in land.items()},
            coasts={p: frozenset(s) for p, s in coasts.items()},
            sea_adjacency={s: frozenset(n) for s, n in sea_adj.items()},
            rivers=rivers,
        )
        if len(centres) == 1:
            self.check_reachable(game_map, centres[0].id, file)
        return game_map

    def build_province(self, parsed: _ProvinceSchema, file: str, label: str) -> Province:
        """The province, with placeholders where a value was bad (already reported)."""
        if not _SLUG.match(parsed.id):
            self.problem(file, label, "an id is a lower-case slug like 'orme' or 'hissing-fen'")
        direction = self.enum_value(Direction, parsed.direction, file, label, "direction")
        terrains: list[Terrain] = []
        for name in parsed.terrains:
            terrain = self.enum_value(Terrain, name, file, label, "terrain")
            if terrain is None:
                continue
            if terrain in terrains:
                self.problem(file, label, f"terrain '{name}' listed twice")
                continue
            terrains.append(terrain)
        commodities = []
        for name in parsed.commodities:
            commodity = self.enum_value(Commodity, name, file, label, "commodity")
            if commodity is not None:
                commodities.append(commodity)
        if direction is None:
            direction = Direction.CENTRE if parsed.inches == 0 else Direction.N
        elif (direction is Direction.CENTRE) != (parsed.inches == 0):
            self.problem(
                file, label, "only the centre province (Orme) is 0 inches from Orme, and it is"
            )
        if parsed.island is not None and not _SLUG.match(parsed.island):
            self.problem(file, label, "an island name is a lower-case slug like 'estlon'")
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

    def read_pairs(
        self,
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
                self.problem(file, item, "a pair must name exactly two spaces")
                continue
            a, b = pair
            ok = True
            if a not in left:
                self.unknown(file, item, left_kind, a, left)
                ok = False
            if b not in right:
                self.unknown(file, item, right_kind, b, right)
                ok = False
            if not ok:
                continue
            if a == b:
                self.problem(file, item, f"a {what} must join two different spaces")
                continue
            key = (a, b) if out_right is None else tuple(sorted((a, b)))
            assert len(key) == 2
            if key in seen:
                self.problem(file, item, f"duplicate {what}")
                continue
            seen.add((key[0], key[1]))
            out_left[a].add(b)
            if out_right is not None:
                out_right[b].add(a)

    def read_rivers(
        self,
        raw_rivers: object,
        provinces: Mapping[str, Province],
        seas: Mapping[str, SeaZone],
        land: Mapping[str, set[str]],
        coasts: Mapping[str, set[str]],
        file: str,
    ) -> dict[str, RiverEdge]:
        out: dict[str, RiverEdge] = {}
        if not isinstance(raw_rivers, list):
            self.problem(file, "", "schema: expected an array of [[river]] tables")
            return out
        names: set[str] = set()
        for index, raw in enumerate(raw_rivers):
            label = f"river #{index + 1}"
            if isinstance(raw, dict) and isinstance(raw.get("name"), str):
                label = f"river '{raw['name']}'"
            parsed = self.validate(_RiverSchema, raw, file, label)
            if parsed is None:
                continue
            if parsed.name in names:
                self.problem(file, label, "duplicate river name")
            names.add(parsed.name)
            if parsed.mouth is not None:
                if not parsed.navigable:
                    self.problem(file, label, "only a navigable river names a mouth (R-MOVE-11)")
                if parsed.mouth not in seas:
                    self.unknown(file, label, "sea zone", parsed.mouth, seas)
            previous: tuple[str, str] | None = None
            for position, edge in enumerate(parsed.edges):
                item = f"{label} edge {list(edge)}"
                if len(edge) != 2:
                    self.problem(file, item, "an edge names exactly two provinces")
                    previous = None
                    continue
                a, b = edge
                if a not in provinces or b not in provinces:
                    for name in (a, b):
                        if name not in provinces:
                            self.unknown(file, item, "province", name, provinces)
                    previous = None
                    continue
                if b not in land.get(a, set()):
                    self.problem(file, item, "a river edge must lie on a land border (R-MOVE-11)")
                if previous is not None and not ({a, b} & set(previous)):
                    self.problem(
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
                            self.problem(
                                file,
                                item,
                                f"mouth edge, but '{name}' does not touch sea zone"
                                f" '{parsed.mouth}' (R-MOVE-13)",
                            )
                edge_id = river_edge_id(a, b)
                if edge_id in out:
                    self.problem(
                        file, item, f"edge already belongs to river '{out[edge_id].river}'"
                    )
                    continue
                out[edge_id] = RiverEdge(
                    a=min(a, b),
                    b=max(a, b),
                    river=parsed.name,
                    navigable=parsed.navigable,
                    mouth=parsed.mouth if is_mouth else None,
                )
        return out

    def check_reachable(self, game_map: GameMap, start: str, file: str) -> None:
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
                self.problem(
                    file,
                    f"province '{pid}'",
                    f"cannot be reached from {centre_name} by land or sea",
                )
        for sid in game_map.sea_zones:
            if sid not in seen:
                self.problem(
                    file,
                    f"sea zone '{sid}'",
                    f"cannot be reached from {centre_name} by land or sea",
                )

    # -- factions against the map -----------------------------------------------------------

    def check_faction_homes(
        self, factions: Sequence[FactionDef], units: Mapping[str, UnitKind], game_map: GameMap
    ) -> None:
        """Each faction can muster every race it needs somewhere in its home region (section 13)."""
        file = "factions.toml"
        regions = {p.region for p in game_map.provinces.values()}
        for faction in factions:
            label = f"faction '{faction.code}'"
            if faction.home_region not in regions:
                self.unknown(file, label, "home region", faction.home_region, regions)
                continue
            home = [p for p in game_map.provinces.values() if p.region == faction.home_region]
            kinds = [k for k in units.values() if k.faction == faction.code]
            for race in sorted(faction.races, key=lambda r: r.value):
                reason = self.home_muster_gap(race, home, kinds)
                if reason:
                    self.problem(file, label, f"could never muster {race.value} units: {reason}")

    @staticmethod
    def home_muster_gap(race: Race, home: Sequence[Province], kinds: Sequence[UnitKind]) -> str:
        if race in MUSTER_TERRAINS:
            terrains = MUSTER_TERRAINS[race]
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

    # -- scenarios --------------------------------------------------------------------------

    def load_scenarios(
        self,
        unit_types: Mapping[BaseType, UnitTypeDef],
        units: Mapping[str, UnitKind],
        factions: Sequence[FactionDef],  # in turn order
        faction_codes: set[str],
        game_map: GameMap | None,
        options: Options,
    ) -> dict[str, Scenario]:
        folder = self.root / "scenarios"
        files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
        if not files:
            self.problem("scenarios/", "", "no scenario files (*.toml)")
        out: dict[str, Scenario] = {}
        heroes_seen: dict[str, tuple[str, UnitKind]] = {}
        for path in files:
            relative = f"scenarios/{path.name}"
            scenario = self.load_scenario(
                relative, path.stem, unit_types, units, factions, faction_codes, game_map, options
            )
            if scenario is None:
                continue
            for hero_id, hero in scenario.heroes.items():
                if hero_id in units:
                    self.problem(relative, f"hero '{hero_id}'", "id is already a unit kind")
                earlier = heroes_seen.get(hero_id)
                if earlier is not None and earlier[1] != hero:
                    self.problem(
                        relative,
                        f"hero '{hero_id}'",
                        f"defined differently in {earlier[0]}; hero ids are shared by all"
                        " scenarios",
                    )
                heroes_seen.setdefault(hero_id, (relative, hero))
            out[scenario.id] = scenario
        return out

    def load_scenario(
        self,
        file: str,
        scenario_id: str,
        unit_types: Mapping[BaseType, UnitTypeDef],
        units: Mapping[str, UnitKind],
        factions: Sequence[FactionDef],
        faction_codes: set[str],
        game_map: GameMap | None,
        base_options: Options,
    ) -> Scenario | None:
        data = self.read(file)
        if data is None:
            return None
        top = self.validate(_ScenarioSchema, data, file, "")
        if top is None:
            return None
        faction_by_code = {f.code: f for f in factions}
        provinces = game_map.provinces if game_map is not None else {}
        spaces: set[str] = set(provinces) | (set(game_map.sea_zones) if game_map else set())

        # factions in play, in turn order
        sf_parsed: dict[str, _ScenarioFactionSchema] = {}
        for index, raw in enumerate(top.faction):
            label = _label("faction", raw, index, key="code")
            parsed = self.validate(_ScenarioFactionSchema, raw, file, label)
            if parsed is None:
                continue
            if parsed.code not in faction_codes:
                self.unknown(file, label, "faction", parsed.code, faction_codes)
                continue
            if parsed.code in sf_parsed:
                self.problem(file, label, "faction listed twice")
                continue
            sf_parsed[parsed.code] = parsed
        in_play = [f.code for f in factions if f.code in sf_parsed]

        # heroes
        heroes: dict[str, UnitKind] = {}
        for index, raw in enumerate(top.hero):
            label = _label("hero", raw, index)
            parsed_hero = self.validate(_HeroSchema, raw, file, label)
            if parsed_hero is None:
                continue
            hero = self.build_kind(parsed_hero, unit_types, faction_by_code, file, label, hero=True)
            if hero is None:
                self.broken.add(parsed_hero.id)
                continue
            if hero.id in heroes:
                self.problem(file, label, "duplicate hero id")
                continue
            if hero.faction not in sf_parsed:
                self.problem(file, label, f"faction {hero.faction} is not in play")
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
                        self.unknown(file, label, "province", pid, provinces)
                    continue
                if pid in owners:
                    self.problem(
                        file,
                        label,
                        f"province '{pid}' is already owned by {owners[pid]} (R-COLL-01)",
                    )
                    continue
                owners[pid] = code
            commodities: dict[Commodity, int] = {}
            for name, amount in parsed.commodities.items():
                commodity = self.enum_value(Commodity, name, file, label, "commodity")
                if commodity is None:
                    continue
                if amount < 0:
                    self.problem(file, label, f"commodity '{name}' cannot be negative")
                    continue
                commodities[commodity] = amount
            if parsed.hero is not None:
                hero = heroes.get(parsed.hero)
                if hero is None:
                    self.unknown(file, label, "hero", parsed.hero, heroes)
                elif hero.faction != code:
                    self.problem(file, label, f"hero '{parsed.hero}' belongs to {hero.faction}")
            scenario_factions.append(
                ScenarioFaction(code=code, rp=parsed.rp, commodities=commodities, hero=parsed.hero)
            )

        # units
        placed: list[ScenarioUnit] = []
        for code, by_space in top.units.items():
            if code not in sf_parsed:
                if code in faction_codes:
                    self.problem(file, f"[units.{code}]", f"faction {code} is not in play")
                else:
                    self.unknown(file, f"[units.{code}]", "faction", code, faction_codes)
                continue
            for space, counts in by_space.items():
                item = f"[units.{code}] {space}"
                if space not in spaces:
                    if game_map is not None:
                        self.unknown(file, item, "province or sea zone", space, spaces)
                    continue
                for kind_id, count in counts.items():
                    kind = kinds.get(kind_id)
                    if kind is None:
                        self.unknown(file, item, "unit kind", kind_id, kinds)
                        continue
                    if kind.faction != code:
                        self.problem(
                            file, item, f"'{kind_id}' belongs to {kind.faction}, not {code}"
                        )
                        continue
                    if count < 1:
                        self.problem(file, item, f"'{kind_id}': a count is at least 1")
                        continue
                    placed.append(ScenarioUnit(kind=kind_id, location=space, count=count))

        if game_map is not None:
            self.check_placements(file, placed, kinds, game_map, owners)
            self.check_start_musters(
                file, in_play, faction_by_code, placed, kinds, game_map, owners
            )

        # pacts
        alliances: list[frozenset[str]] = []
        for index, raw in enumerate(top.alliance):
            parsed_ally = self.validate(_AllianceSchema, raw, file, f"alliance #{index + 1}")
            if parsed_ally is None:
                continue
            for code in parsed_ally.members:
                if code not in sf_parsed:
                    self.problem(file, f"alliance #{index + 1}", f"faction {code} is not in play")
            alliances.append(frozenset(parsed_ally.members))
        for vassal, liege in top.fealty.items():
            for code in (vassal, liege):
                if code not in sf_parsed:
                    self.problem(
                        file, f"fealty {vassal} -> {liege}", f"faction {code} is not in play"
                    )
            if vassal == liege:
                self.problem(
                    file, f"fealty {vassal} -> {liege}", "a faction cannot be its own liege"
                )

        options = self.build_options(base_options, top.options, file, "[options] ")
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
        )

    def check_placements(
        self,
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
                self.problem(file, f"hero '{hero_id}'", "a hero is one unit, placed once")
        for space, stack in by_space.items():
            item = f"units at '{space}'"
            owners_here = {k.faction for k, _ in stack}
            if len(owners_here) > 1:
                self.problem(
                    file,
                    item,
                    "units of several factions share a space at the start: "
                    + ", ".join(sorted(owners_here)),
                )
            at_sea = game_map.is_sea(space)
            for kind, _count in stack:
                if at_sea and kind.base_type is not BaseType.SHIP:
                    rule = "R-ATTR-FORT-02" if kind.has(Attribute.FORTIFICATION) else "R-MOVE-09"
                    self.problem(
                        file,
                        item,
                        f"'{kind.id}' ({kind.display_name}) cannot stand in a sea zone; only"
                        f" ships start at sea, and they start empty ({rule})",
                    )
                if not at_sea and kind.base_type is BaseType.SHIP:
                    self.problem(
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
                    self.problem(
                        file,
                        item,
                        f"{faction} units stand in a province {whose}; starting units stand in"
                        f" their own faction's provinces ({rule})",
                    )
            forts = sum(n for k, n in stack if k.has(Attribute.FORTIFICATION))
            if forts > 1:
                self.problem(
                    file, item, f"{forts} Fortifications; at most one per province (R-ATTR-FORT-02)"
                )
            for faction in sorted(owners_here):
                mine = [(k, n) for k, n in stack if k.faction == faction]
                has_necro = any(k.has(Attribute.NECROMANCER) for k, _ in mine)
                has_summoner = any(k.has(Attribute.SUMMONER) for k, _ in mine)
                if any(k.race is Race.UNDEAD for k, _ in mine) and not has_necro:
                    self.problem(
                        file, item, "Undead start without a Necromancer beside them (R-RACE-UND-01)"
                    )
                if any(k.race is Race.SUMMONED for k, _ in mine) and not has_summoner:
                    self.problem(
                        file,
                        item,
                        "Summoned units start without a Summoner beside them (R-RACE-SUM-01)",
                    )
                mercs = sum(n for k, n in mine if k.has(Attribute.MERCENARY))
                others = sum(n for k, n in mine if not k.has(Attribute.MERCENARY))
                if mercs > others:
                    self.problem(
                        file,
                        item,
                        f"{mercs} Mercenary units outnumber {others} others and would be"
                        " destroyed at the first turn (R-ATTR-MERC-01)",
                    )

    def check_start_musters(
        self,
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
                    terrains = MUSTER_TERRAINS[race]
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
                        self.problem(
                            file,
                            label,
                            f"could never muster {race.value} units: no starting {race.value}"
                            f" infantry unit in a {wanted} province it owns (R-MUSTER-08)",
                        )
                elif race is Race.ACHEROUSIAN and ARCHURSIA not in own:
                    self.problem(
                        file,
                        label,
                        f"could never muster {race.value} units: it does not own"
                        f" '{ARCHURSIA}' (R-RACE-ACH-01)",
                    )
                elif race is Race.HIGH_ELVEN and not any(
                    game_map.provinces[p].island == ESTLON for p in own
                ):
                    self.problem(
                        file,
                        label,
                        f"could never muster {race.value} units: it owns no province of"
                        f" '{ESTLON}' (R-RACE-HEL-01)",
                    )


def _label(what: str, raw: object, index: int, *, key: str = "id") -> str:
    if isinstance(raw, dict) and isinstance(raw.get(key), str):
        return f"{what} '{raw[key]}'"
    return f"{what} #{index + 1}"
