"""Campaign options (catalogue section 17): reading them, and which of them are not built yet.

Part of the loader (:mod:`caedes_bot.gamedata.loader`). Every key of ``options.toml`` and of
a scenario's ``[options]`` must be a field of :class:`~caedes_bot.gamedata.model.Options`;
each value is checked against the type of its default and, for enumerated options, against
:data:`~caedes_bot.gamedata.model.OPTION_CHOICES`.

Some options configure rules this version of the bot does not run yet. They are listed once,
in :data:`UNBUILT_OPTIONS`; until its rule is built such an option keeps its default, and
:func:`check_option_built` refuses any other value. The loader calls it for ``options.toml``
and every scenario; a command that lets the umpire change an option (R-SETUP-04) must call it
too. When a rule is built, its option leaves the list in the same change that makes the rules
core read it (``tests/gamedata/test_options_built.py`` checks both ways).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from caedes_bot.gamedata.model import OPTION_CHOICES, BaseType, Options
from caedes_bot.gamedata.schema import DataReader

__all__ = [
    "UNBUILT_OPTIONS",
    "OptionNotBuilt",
    "build_options",
    "check_option_built",
    "load_options",
]

#: The options whose rule is not built yet, each with the ID of that rule.
UNBUILT_OPTIONS: Mapping[str, str] = {}


class OptionNotBuilt(ValueError):
    """An option of a rule that is not built yet was set away from its default.

    Attributes:
        option: the option's name, e.g. ``"breath_mode"``.
        rule: the ID of the rule it configures, e.g. ``"R-ATTR-BREATH-01"``.
        default: the value it keeps until the rule is built.
    """

    def __init__(self, option: str, rule: str, default: object) -> None:
        self.option = option
        self.rule = rule
        self.default = default
        shown = list(default) if isinstance(default, tuple) else default
        super().__init__(
            f"the option {option} is not built yet: this version of the bot does not run"
            f" its rule {rule}, so it stays at its default {_toml(shown)}"
        )


def check_option_built(name: str, value: object) -> None:
    """Refuse ``value`` for option ``name`` if the option's rule is not built yet.

    Args:
        name: a field of :class:`~caedes_bot.gamedata.model.Options`.
        value: the value wanted, already of the option's type (a list is taken as a tuple).

    Raises:
        OptionNotBuilt: ``name`` is in :data:`UNBUILT_OPTIONS` and ``value`` is not its
            default.
        KeyError: ``name`` is not an option.
    """
    defaults = Options()
    if not hasattr(defaults, name):
        raise KeyError(name)
    rule = UNBUILT_OPTIONS.get(name)
    if rule is None:
        return
    default = getattr(defaults, name)
    wanted = tuple(value) if isinstance(value, list) else value
    if wanted != default:
        raise OptionNotBuilt(name, rule, default)


def _toml(value: object) -> str:
    """``value`` as it would be written in a TOML file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


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
        if checked is None:
            continue
        try:
            check_option_built(key, checked)
        except OptionNotBuilt as refused:
            r.problem(file, where, str(refused))
            continue
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
