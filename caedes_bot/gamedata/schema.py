"""The shapes of the game data files, and the reader that checks them and collects problems.

Part of the loader (:mod:`caedes_bot.gamedata.loader`). Each schema is a pydantic model of one
item of one file, forbidding unknown keys, so one bad entry does not hide the others. Names
(unit kinds, factions, spaces, races, ...) are kept as plain strings here and resolved
afterwards, so that a problem can suggest near matches.

:class:`DataReader` is one loading run: it reads TOML files under a root folder, validates
items against their schemas, resolves enum names, and collects every problem as one line
``"<file>: <item>: <message>"``.
"""

from __future__ import annotations

import difflib
import enum
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from caedes_bot.gamedata.model import MAGICAL_ATTRIBUTES, Attribute
from caedes_bot.gamedata.names import canonical, fold

__all__ = [
    "FACTION_CODE",
    "HERO_ID",
    "SLUG",
    "UNIT_ID",
    "AllianceSchema",
    "BordersSchema",
    "DataReader",
    "FactionSchema",
    "HeroSchema",
    "ProvinceSchema",
    "RiverSchema",
    "ScenarioFactionSchema",
    "ScenarioSchema",
    "SeaZoneSchema",
    "TurnSchema",
    "UnitSchema",
    "UnitTypeSchema",
    "item_label",
    "suggest",
]

#: A space id or island name: a lower-case slug like ``"hissing-fen"``.
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: A unit kind id, ``U-<FACTION>-<NN>`` (catalogue section 15).
UNIT_ID = re.compile(r"^U-([A-Z]{3})-(\d{2})$")
#: A scenario Hero id, ``H-<FACTION>-<NN>``.
HERO_ID = re.compile(r"^H-([A-Z]{3})-(\d{2})$")
#: A faction code: three capital letters.
FACTION_CODE = re.compile(r"^[A-Z]{3}$")

_M = TypeVar("_M", bound=BaseModel)
_E = TypeVar("_E", bound=enum.Enum)


# ---------------------------------------------------------------------------------------------
# Schemas (shapes only)


class _Schema(BaseModel):
    """Every shape forbids unknown keys, is frozen and takes no type coercion."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class UnitTypeSchema(_Schema):
    attack: int | None = None
    defense: int
    move: int | None = None
    cost: int = Field(ge=1)
    inherent: list[str] = Field(default_factory=list)


class UnitSchema(_Schema):
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


class FactionSchema(_Schema):
    code: str
    name: str = Field(min_length=1)
    adjective: str = Field(min_length=1)
    colour: int = Field(ge=0, le=0xFFFFFF)
    tag: str = Field(min_length=1, max_length=6)
    emoji: str = Field(min_length=1)
    races: list[str] = Field(min_length=1)
    home_region: str = Field(min_length=1)


class ProvinceSchema(_Schema):
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


class SeaZoneSchema(_Schema):
    id: str
    name: str = Field(min_length=1)
    direction: str | None = None
    inches: float = Field(default=0.0, ge=0)
    text: str = ""


class BordersSchema(_Schema):
    land: list[list[str]] = Field(default_factory=list)
    coasts: list[list[str]] = Field(default_factory=list)
    sea: list[list[str]] = Field(default_factory=list)


class RiverSchema(_Schema):
    name: str = Field(min_length=1)
    navigable: bool = False
    mouth: str | None = None
    edges: list[list[str]] = Field(min_length=1)
    text: str = ""


class HeroSchema(_Schema):
    id: str
    faction: str
    name: str = Field(min_length=1)
    display_name: str = Field(min_length=1)
    race: str | None = None
    type: str
    attributes: list[str] = Field(default_factory=list)
    magical: list[str] = Field(default_factory=list)
    description: str = ""


class ScenarioFactionSchema(_Schema):
    code: str
    rp: int = Field(ge=0)
    commodities: dict[str, int] = Field(default_factory=dict)
    hero: str | None = None
    provinces: list[str] = Field(default_factory=list)


class TurnSchema(_Schema):
    steps: list[str] = Field(min_length=1)
    factions: list[str] = Field(min_length=1)


class AllianceSchema(_Schema):
    members: list[str] = Field(min_length=2)


class HoldSchema(_Schema):
    provinces: list[str] = Field(min_length=1)


class VictorySchema(_Schema):
    replaces: list[Literal["military", "diplomatic"]] = Field(default_factory=list)
    hold: list[HoldSchema] = Field(default_factory=list)


class ScenarioSchema(_Schema):
    name: str = Field(min_length=1)
    description: str = ""
    turn_limit: int | None = Field(default=None, ge=1)
    options: dict[str, Any] = Field(default_factory=dict)
    faction: list[dict[str, Any]] = Field(min_length=1)
    hero: list[dict[str, Any]] = Field(default_factory=list)
    units: dict[str, dict[str, dict[str, int]]] = Field(default_factory=dict)
    alliance: list[dict[str, Any]] = Field(default_factory=list)
    fealty: dict[str, str] = Field(default_factory=dict)
    victory: VictorySchema = Field(default_factory=VictorySchema)
    event: list[dict[str, Any]] = Field(default_factory=list)  # R-SETUP-01 (scenario_events)


def _describe_validation(exc: ValidationError) -> list[str]:
    out = []
    for err in exc.errors():
        loc = ".".join(str(part) for part in err["loc"]) or "(top)"
        out.append(f"{loc}: {err['msg']}")
    return out


# ---------------------------------------------------------------------------------------------
# Reading and name resolution


def suggest(name: str, candidates: Iterable[str], *, limit: int = 3) -> tuple[str, ...]:
    """Near matches of ``name`` among ``candidates``, compared folded
    (:func:`caedes_bot.gamedata.names.fold`), best first.

    Args:
        name: the name as typed.
        candidates: the valid names.
        limit: at most this many suggestions.

    Returns:
        Up to ``limit`` candidates in their own spelling; empty if none is close.
    """
    by_folded: dict[str, str] = {}
    for c in candidates:
        by_folded.setdefault(fold(c), c)
    hits = difflib.get_close_matches(fold(name), list(by_folded), n=limit, cutoff=0.6)
    return tuple(by_folded[h] for h in hits)


class DataReader:
    """One loading run over the data folder ``root``: reads, validates, collects problems.

    Attributes:
        root: the data folder.
        problems: every problem found so far, one line each, in the order found.
        broken: ids and codes of items already reported as broken, so that a later mention
            of one is not reported again as unknown.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[str] = []
        self.broken: set[str] = set()

    # -- problem reporting ------------------------------------------------------------------

    def problem(self, file: str, item: str, message: str) -> None:
        """Record ``message`` about ``item`` of ``file`` (``item`` may be empty)."""
        where = f"{file}: {item}: " if item else f"{file}: "
        self.problems.append(where + message)

    def unknown(
        self, file: str, item: str, what: str, name: str, candidates: Iterable[str]
    ) -> None:
        """Record that ``name`` is no known ``what``, with near matches among ``candidates``.

        Nothing is recorded for a name already reported as broken.
        """
        if name in self.broken:
            return
        hint = suggest(name, candidates)
        text = f"unknown {what} '{name}'"
        if hint:
            text += " (did you mean " + " or ".join(f"'{h}'" for h in hint) + "?)"
        self.problem(file, item, text)

    # -- reading ----------------------------------------------------------------------------

    def read(self, relative: str) -> dict[str, Any] | None:
        """The TOML file at ``relative`` under the root, or ``None`` with a problem."""
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
        """``data`` checked against ``schema``, or ``None`` with one problem per error.

        The id or code of an item that fails is remembered in :attr:`broken`.
        """
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
        """The member of ``enum_type`` with ``value``, or ``None`` with a problem.

        The game data is written in the canonical spellings (R-GEN-04, as ruled); a variant
        spelling of the sources (``"flight"``, ``"Wood Elf"``, ``"plain"``) is refused with the
        spelling to write instead."""
        try:
            return enum_type(value)
        except ValueError:
            same = canonical(value)
            for member in enum_type:
                if isinstance(member.value, str) and canonical(member.value) == same:
                    self.problem(
                        file,
                        item,
                        f"unknown {what} '{value}': write '{member.value}' (R-GEN-04: "
                        f"'{value}' is a variant spelling of it)",
                    )
                    return None
            self.unknown(file, item, what, value, [m.value for m in enum_type])
            return None

    def attributes(
        self, plain: Sequence[str], magical: Sequence[str], file: str, item: str
    ) -> frozenset[Attribute]:
        """The attributes named in a unit's ``attributes`` and ``magical`` lists (R-GEN-04)."""
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


def item_label(what: str, raw: object, index: int, *, key: str = "id") -> str:
    """How a problem names item ``index`` of an array: by its ``key`` if it has one."""
    if isinstance(raw, dict) and isinstance(raw.get(key), str):
        return f"{what} '{raw[key]}'"
    return f"{what} #{index + 1}"
