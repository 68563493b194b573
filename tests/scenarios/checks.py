"""Small checks shared by the scenario reader: each raises :class:`ScenarioFileError` with the
place in the file and what would be allowed."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.state import Step

ROOT = Path(__file__).parent
T = TypeVar("T")
RULE_ID = re.compile(r"^R(-[A-Z0-9]+)+$")


class ScenarioFileError(Exception):
    """A scenario file that breaks the format; the message names the file and the place."""


def keys(
    table: Mapping[str, Any], allowed: set[str], where: str, *, required: Iterable[str] = ()
) -> None:
    for key in table:
        if key not in allowed:
            raise ScenarioFileError(
                f"{where}: unknown key {key!r}{near(key, allowed)}; allowed: "
                f"{', '.join(sorted(allowed))}"
            )
    for key in required:
        if key not in table:
            raise ScenarioFileError(f"{where}: missing key {key!r}")


def near(name: object, choices: Iterable[str]) -> str:
    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name, list(choices), n=3)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def table(value: Any, where: str) -> Mapping[str, Any]:
    if value is None:
        raise ScenarioFileError(f"{where}: missing")
    if not isinstance(value, dict):
        raise ScenarioFileError(f"{where}: expected a table, got {value!r}")
    return value


def text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ScenarioFileError(f"{where}: give some text")
    return " ".join(value.split())


def strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioFileError(f"{where}: expected a list of names, got {value!r}")
    return value


def rule_ids(value: Any, where: str) -> tuple[str, ...]:
    ids = strings(value, where)
    if not ids:
        raise ScenarioFileError(f"{where}: name at least one rule ID")
    for rule in ids:
        if not RULE_ID.match(rule):
            raise ScenarioFileError(f"{where}: {rule!r} is not a rule ID like R-MOVE-06")
    return tuple(ids)


def faction(code: Any, codes: Iterable[str], where: str) -> str:
    codes = list(codes)
    if code not in codes:
        raise ScenarioFileError(
            f"{where}: {code!r} is not a faction here; factions: {', '.join(codes)}"
        )
    return str(code)


def space(rs: Ruleset, space: str, where: str) -> None:
    m = rs.map
    if space not in m.provinces and space not in m.sea_zones and space not in m.rivers:
        spaces = [*m.provinces, *m.sea_zones, *m.rivers]
        raise ScenarioFileError(f"{where}: no space {space!r}{near(space, spaces)}")


def step(value: Any, where: str) -> Step:
    try:
        if isinstance(value, str):
            return Step[value.upper()]
        if isinstance(value, int) and not isinstance(value, bool):
            return Step(value)
    except (KeyError, ValueError):
        pass
    names = ", ".join(s.name.lower() for s in Step)
    raise ScenarioFileError(f"{where}: {value!r} is not a step; give 1..8 or one of {names}")


_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def validated(cls: type[T], data: Mapping[str, Any], where: str) -> T:
    """``data`` as a ``cls`` (a dataclass of the rules: an order, a unit, a faction's state),
    checked by pydantic: lists become tuples, strings enums."""
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    try:
        value: T = adapter.validate_python(dict(data))
        return value
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in err.errors()
        )
        raise ScenarioFileError(f"{where}: {problems}") from None


def relative(path: Path) -> str:
    try:
        return path.relative_to(ROOT.parent.parent).as_posix()
    except ValueError:
        return path.as_posix()
