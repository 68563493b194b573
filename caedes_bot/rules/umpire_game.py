"""The umpire's overrides of the game's settings: a campaign option (R-SETUP-04) and the turn
limit (R-PBP-UMP-01, R-PBP-UMP-03, R-VIC-03).

* :class:`SetOption` changes one option with notice: the change is announced at once
  (:class:`OptionChangeAnnounced`) and kept in :attr:`GameState.options_next`; it takes effect
  at the start of the next turn, whoever's it is (:func:`apply_pending`, called first by
  :func:`caedes_bot.rules.turn.turn_start_checks`), announced again (:class:`OptionsChanged`).
  Several changes before that turn all take effect together; setting an option back to its
  value in force cancels its change. A value that is not one of the option's values, and an
  option whose rule is not built yet set away from its default
  (:data:`caedes_bot.gamedata.options.UNBUILT_OPTIONS`), are refused with what is allowed.
  The deadline windows (``turn_deadline_hours``, ``reaction_deadline_hours``, R-PBP-DEAD-01)
  are options too: ``/umpire deadline`` changes their defaults this way.
* :class:`SetTurnLimit` sets the number of game rounds to play (or none) at once
  (:class:`TurnLimitSet`); it may not be below the round being played.

Both are umpire-only (``Giver.UMPIRE``), in any step and during anyone's turn, and public.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.gamedata.option_text import (
    OPTION_NAMES,
    BadOptionValue,
    allowed_values,
    option_text,
    parse_option,
)
from caedes_bot.gamedata.options import OptionNotBuilt, check_option_built
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState
from caedes_bot.rules.steps import Accepts, Giver, StepSpec

RULE = "R-SETUP-04"

# --------------------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class SetOption(Order):
    """Change option ``name`` to the value written ``value`` from the next turn start
    (R-SETUP-04); ``value`` is text as typed (``"true"``, ``"36"``, ``"over"``)."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class SetTurnLimit(Order):
    """Play ``limit`` game rounds in all, or without a limit for ``None`` (R-PBP-UMP-03,
    R-VIC-03)."""

    limit: int | None


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class OptionChangeAnnounced(Event):
    """The umpire changed option ``name`` from ``before`` to ``after`` (values as text); it
    takes effect at the start of the next turn (R-SETUP-04). ``after == before``: a change
    asked earlier is cancelled."""

    name: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class OptionsChanged(Event):
    """The options changed by the umpire took effect at this turn's start (R-SETUP-04):
    ``changes`` holds ``(name, before, after)`` of each, values as text."""

    changes: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True, slots=True)
class TurnLimitSet(Event):
    """The umpire set the turn limit from ``before`` to ``after`` game rounds (``None``: no
    limit) (R-PBP-UMP-03, R-VIC-03)."""

    before: int | None
    after: int | None


# --------------------------------------------------------------------------- handlers


def option_value(name: str, text: str) -> object:
    """The value of option ``name`` written ``text``, if the umpire may set it (R-SETUP-04).

    Raises:
        UnknownName: no such option (near names suggested).
        RuleViolation: not one of the option's values, or its rule is not built yet; the
            refusal says what is allowed.
    """
    if name not in OPTION_NAMES:
        close = tuple(n for n in OPTION_NAMES if name.lower() in n)[:3]
        unknown = UnknownName("option", name, close, rule=RULE)
        unknown.allowed = (
            f"one of the {len(OPTION_NAMES)} options the autocomplete offers as you type "
            "the name, such as turn_deadline_hours or upkeep_waits"
        )
        raise unknown
    try:
        value = parse_option(name, text)
    except BadOptionValue as bad:
        raise RuleViolation(
            f"'{text.strip()[:40]}' is not a value of the option {name}.",
            rule=RULE,
            allowed=bad.allowed,
        ) from None
    try:
        check_option_built(name, value)
    except OptionNotBuilt as refused:
        raise RuleViolation(
            f"The option {name} is not built yet: its rule {refused.rule} does not "
            "run in this version of the bot.",
            rule=RULE,
            allowed=f"its default, {option_text(refused.default)}",
        ) from None
    return value


def handle_set_option(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Keep the option change for the next turn start and announce it (R-SETUP-04).

    Raises:
        UnknownName, RuleViolation: as :func:`option_value`; nothing changes.
    """
    assert isinstance(order, SetOption)
    value = option_value(order.name, order.value)
    upcoming = state.options_next or state.options
    before = getattr(upcoming, order.name)
    changes: dict[str, Any] = {order.name: value}
    upcoming = dataclasses.replace(upcoming, **changes)
    state.options_next = None if upcoming == state.options else upcoming
    return [OptionChangeAnnounced(order.name, option_text(before), option_text(value))]


def option_changes(before: Options, after: Options) -> tuple[tuple[str, str, str], ...]:
    """``(name, before, after)`` for every option that differs, values as text."""
    return tuple(
        (name, option_text(getattr(before, name)), option_text(getattr(after, name)))
        for name in OPTION_NAMES
        if getattr(before, name) != getattr(after, name)
    )


def apply_pending(state: GameState) -> list[Event]:
    """At a turn's start: the option changes kept by :class:`SetOption` take effect
    (R-SETUP-04). Mutates ``state``; returns the events (none if nothing was kept)."""
    upcoming = state.options_next
    if upcoming is None:
        return []
    changes = option_changes(state.options, upcoming)
    state.options = upcoming
    state.options_next = None
    return [OptionsChanged(changes)] if changes else []


def handle_set_turn_limit(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Set the turn limit (R-PBP-UMP-03, R-VIC-03); the game round being played counts.

    Raises:
        RuleViolation: a limit below 1 or below the round being played; nothing changes.
    """
    assert isinstance(order, SetTurnLimit)
    limit = order.limit
    lowest = max(1, state.round)
    if limit is not None and limit < lowest:
        raise RuleViolation(
            f"A turn limit of {limit} is below game round {state.round}, which is being played.",
            rule="R-VIC-03",
            allowed=f"{lowest} or more game rounds, or no limit",
        )
    before = state.turn_limit
    state.turn_limit = limit
    return [TurnLimitSet(before, limit)]


def allowed_for(name: str) -> str:
    """What option ``name`` takes, in words (for the edge's help); ``""`` if no such option."""
    return allowed_values(name) if name in OPTION_NAMES else ""


# --------------------------------------------------------------------------- spec

#: The umpire's settings overrides: any step, anyone's turn (R-PBP-UMP-01).
SPEC = StepSpec(
    "umpire_game",
    accepts=(
        Accepts(SetOption, handle_set_option, Giver.UMPIRE),
        Accepts(SetTurnLimit, handle_set_turn_limit, Giver.UMPIRE),
    ),
)
