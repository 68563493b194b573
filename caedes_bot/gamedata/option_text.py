"""A campaign option's value typed by the umpire (R-SETUP-04): text to the option's type.

The loader reads option values from TOML (:mod:`caedes_bot.gamedata.options`); the umpire types
them in Discord as text. :func:`parse_option` turns that text into the value the option holds,
with the same limits as the loader, and :func:`allowed_values` says in words what an option
takes, for refusals.
"""

from __future__ import annotations

import dataclasses

from caedes_bot.gamedata.model import OPTION_CHOICES, BaseType, Options

__all__ = ["OPTION_NAMES", "BadOptionValue", "allowed_values", "option_text", "parse_option"]

#: Every option's name, in the order of :class:`~caedes_bot.gamedata.model.Options`.
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Options))

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


class BadOptionValue(ValueError):
    """The text is no value of the option; ``allowed`` says what is (:func:`allowed_values`)."""

    def __init__(self, name: str, text: str, allowed: str) -> None:
        self.name = name
        self.text = text
        self.allowed = allowed
        super().__init__(f"{text!r} is not a value of the option {name}")


def allowed_values(name: str) -> str:
    """What option ``name`` takes, in words: ``"true or false"``, ``"one of: under, over"``...

    Raises:
        KeyError: no such option.
    """
    default = getattr(Options(), name)
    if isinstance(default, bool):
        return "true or false"
    if name == "breath_mighty_dice":
        return "3 or 6"
    if isinstance(default, int):
        return "a whole number, at least 1"
    if isinstance(default, float):
        return "a positive number of hours up to 1440, such as 24 or 1.5"
    if isinstance(default, str):
        return "one of: " + ", ".join(OPTION_CHOICES.get(name, ()))
    return "unit types separated by commas (" + ", ".join(b.value for b in BaseType) + "), or none"


def parse_option(name: str, text: str) -> object:
    """The value of option ``name`` written as ``text`` (case and spaces ignored).

    Returns:
        A ``bool``, ``int``, ``float``, ``str`` or ``tuple[str, ...]``, as the option's default.

    Raises:
        KeyError: no such option.
        BadOptionValue: ``text`` is not one of its values (R-SETUP-04).
    """
    default = getattr(Options(), name)
    word = text.strip().lower()
    refused = BadOptionValue(name, text, allowed_values(name))
    if isinstance(default, bool):
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise refused
    if isinstance(default, int):
        try:
            number = int(word)
        except ValueError:
            raise refused from None
        if number < 1 or (name == "breath_mighty_dice" and number not in (3, 6)):
            raise refused
        return number
    if isinstance(default, float):
        try:
            hours = float(word)
        except ValueError:
            raise refused from None
        if not hours > 0 or hours > 24 * 60:
            raise refused
        return hours
    if isinstance(default, str):
        if word not in OPTION_CHOICES.get(name, ()):
            raise refused
        return word
    if word in ("", "none"):
        return ()
    parts = [p.strip() for p in word.split(",")]
    types = {b.value for b in BaseType}
    if any(p not in types for p in parts):
        raise refused
    return tuple(dict.fromkeys(parts))


def option_text(value: object) -> str:
    """An option's value as the umpire would type it: ``true``, ``24``, ``ship, tower``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
