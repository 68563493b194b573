"""What the options of ``/umpire set unit`` and ``/umpire set option`` accept and what their
autocompletes offer (R-PBP-UMP-01, R-SETUP-04). Pure functions of the state; the rules check
everything again when the order comes."""

from __future__ import annotations

import re

from caedes_bot.cogs._transformers import MAX_CHOICES, Choice
from caedes_bot.gamedata.model import OPTION_CHOICES, Ruleset
from caedes_bot.gamedata.names import contains
from caedes_bot.gamedata.option_text import OPTION_NAMES, allowed_values, option_text
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import unit_label

_ID = re.compile(r"#?\s*(\d{1,9})")

#: What the ``units`` option takes, for refusals.
UNITS_ALLOWED = "unit numbers separated by commas, such as `#4, #7` (autocomplete offers them)"


def parse_unit_ids(text: str | None) -> tuple[int, ...]:
    """The unit numbers of ``text`` (``"#4, 7"``), in the order typed, each once.

    Raises:
        RuleViolation: nothing given, or a part that is not a unit number (R-PBP-UMP-01).
    """
    parts = [p.strip() for p in (text or "").split(",") if p.strip()]
    if not parts:
        raise RuleViolation("No unit was named.", rule="R-PBP-UMP-01", allowed=UNITS_ALLOWED)
    ids: list[int] = []
    for part in parts:
        match = _ID.fullmatch(part)
        if match is None:
            raise RuleViolation(
                f"'{part[:30]}' is not a unit number.", rule="R-PBP-UMP-01", allowed=UNITS_ALLOWED
            )
        ids.append(int(match[1]))
    return tuple(dict.fromkeys(ids))


def unit_id_choices(state: GameState, ruleset: Ruleset, current: str) -> list[Choice]:
    """Units on the board matching the last part of ``current`` (by number, kind, place or
    owner); each choice keeps the parts typed before it, so several units can be named."""
    head, _, last = current.rpartition(",")
    prefix = f"{head}, " if head else ""
    out: list[Choice] = []
    for unit in state.units.values():
        label = f"{unit_label(ruleset, unit.id, unit.kind, unit.location)} ({unit.owner})"
        if last.strip() and not contains(last.strip().lstrip("#"), label, str(unit.id)):
            continue
        value = f"{prefix}#{unit.id}"
        if len(value) > 100:
            break
        out.append((f"{prefix}{label}"[-100:], value))
        if len(out) == MAX_CHOICES:
            break
    return out


def option_name_choices(state: GameState, current: str) -> list[Choice]:
    """Options matching ``current``, each with its value in force (and the one coming)."""
    out: list[Choice] = []
    upcoming = state.options_next
    for name in OPTION_NAMES:
        if not contains(current, name, name.replace("_", " ")):
            continue
        now = option_text(getattr(state.options, name))
        label = f"{name} = {now}"
        if upcoming is not None and getattr(upcoming, name) != getattr(state.options, name):
            label += f" (next turn: {option_text(getattr(upcoming, name))})"
        out.append((label[:100], name))
        if len(out) == MAX_CHOICES:
            break
    return out


def option_value_choices(name: str, current: str) -> list[Choice]:
    """The values option ``name`` takes, when they can be listed; else a hint of what it takes."""
    if name not in OPTION_NAMES:
        return []
    if name in OPTION_CHOICES:
        values = list(OPTION_CHOICES[name])
    elif allowed_values(name) == "true or false":
        values = ["true", "false"]
    elif name == "breath_mighty_dice":
        values = ["3", "6"]
    else:
        typed = current.strip()
        hint = f"{typed} ({allowed_values(name)})" if typed else allowed_values(name)
        return [(hint[:100], typed or "")] if typed else []
    return [(v, v) for v in values if contains(current, v)][:MAX_CHOICES]
