"""Reading campaign options (catalogue section 17) from ``options.toml`` and scenarios.

Part of the loader (:mod:`caedes_bot.gamedata.loader`). Every key must be a field of
:class:`~caedes_bot.gamedata.model.Options`; each value is checked against the type of its
default and, for enumerated options, against :data:`~caedes_bot.gamedata.model.OPTION_CHOICES`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from caedes_bot.gamedata.model import OPTION_CHOICES, BaseType, Options
from caedes_bot.gamedata.schema import DataReader

__all__ = ["build_options", "load_options"]


def load_options(r: DataReader) -> Options:
    """The campaign's default options: those of ``options.toml`` over the built-in ones."""
    file = "options.toml"
    data = r.read(file)
    return build_options(r, Options(), data or {}, file, "")


def build_options(
    r: DataReader, base: Options, data: Mapping[str, Any], file: str, item: str
) -> Options:
    """``base`` with the options of ``data`` (a TOML table) set; bad ones are reported.

    ``item`` prefixes the item of each problem (e.g. ``"[options] "`` in a scenario).
    """
    fields = {f.name: f for f in dataclasses.fields(Options)}
    changes: dict[str, Any] = {}
    for key, value in data.items():
        where = f"{item}option '{key}'" if item else f"option '{key}'"
        if key not in fields:
            r.unknown(file, where, "option", key, fields)
            continue
        default = getattr(Options(), key)
        checked = _option_value(r, key, value, default, file, where)
        if checked is not None:
            changes[key] = checked
    return dataclasses.replace(base, **changes)


def _option_value(
    r: DataReader, key: str, value: object, default: object, file: str, where: str
) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            r.problem(file, where, "must be true or false")
            return None
        return value
    if isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            r.problem(file, where, "must be a whole number")
            return None
        if key == "breath_mighty_dice" and value not in (3, 6):
            r.problem(file, where, "must be 3 or 6 (R-ATTR-BREATH-03)")
            return None
        if value < 1:
            r.problem(file, where, "must be at least 1")
            return None
        return value
    if isinstance(default, float):
        if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
            r.problem(file, where, "must be a positive number of hours")
            return None
        return float(value)
    if isinstance(default, str):
        choices = OPTION_CHOICES.get(key, ())
        if not isinstance(value, str):
            r.problem(file, where, "must be a string")
            return None
        if choices and value not in choices:
            r.unknown(file, where, "value", value, choices)
            return None
        return value
    if isinstance(default, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            r.problem(file, where, "must be a list of unit types")
            return None
        out = []
        for v in value:
            bt = r.enum_value(BaseType, v, file, where, "unit type")
            if bt is not None:
                out.append(bt.value)
        return tuple(out)
    r.problem(file, where, "cannot be set from a file")  # pragma: no cover
    return None
