"""Meta tests: what every new order, event and control must come with (design.md section 3).

* every order class of the rules has a route in the engine (who may give it, and its handler);
* every event class of the rules has its own line in ``caedes_bot/ui/lines_*.py`` (or is
  listed in ``caedes_bot/ui/lines_registry.py`` as shown elsewhere, with where), and an event
  without one is an error, never a generic line made of its field names;
* every kind of button and select is handled by exactly one cog: a second handler for a kind
  is an error.

Classes are read from the registries, which :mod:`caedes_bot.rules.catalogue` fills with every
class of the rules. A registered class that others derive from (``TradeEvent``) is a family,
not an event of its own: only the classes at the leaves must have a line and a route.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from caedes_bot.app import EXTENSIONS, CaedesBot
from caedes_bot.rules import catalogue, engine
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import Step
from caedes_bot.settings import Settings
from caedes_bot.ui import lines, lines_registry, views
from caedes_bot.ui.components import SHAPES
from tests.ui.skirmish import at_step, ruleset

assert catalogue.MODULES  # imported for the registries it fills


def _leaves(registry: dict[str, type[Any]]) -> list[type[Any]]:
    """The rules' registered classes that no other registered class derives from."""
    ours = [c for c in registry.values() if c.__module__.startswith("caedes_bot.rules.")]
    return sorted(
        (c for c in ours if not any(o is not c and issubclass(o, c) for o in ours)),
        key=lambda c: c.__name__,
    )


def _names(classes: list[type[Any]]) -> Iterator[str]:
    return (c.__name__ for c in classes)


ORDERS = _leaves(dict(Order.registry))
EVENTS = _leaves(dict(Event.registry))


def test_the_registries_hold_the_rules_classes() -> None:
    assert len(ORDERS) >= 20 and len(EVENTS) >= 40
    assert "TradeEvent" not in set(_names(EVENTS))  # a family: its members have the lines


@pytest.mark.parametrize("order", ORDERS, ids=list(_names(ORDERS)))
def test_every_order_class_has_a_route(order: type[Order]) -> None:
    assert engine.giver_of(order) is not None, f"{order.__name__} has no route in the engine"


@pytest.mark.parametrize("event", EVENTS, ids=list(_names(EVENTS)))
def test_every_event_class_has_its_own_line(event: type[Event]) -> None:
    assert event in lines_registry.LINES, (
        f"{event.__name__} has no line in caedes_bot/ui/lines_*.py"
    )
    if lines_registry.LINES[event] is lines_registry._silent:
        assert lines_registry.SILENT[event], (
            f"{event.__name__} is silent without saying where it shows"
        )


def test_every_line_is_for_an_event_of_the_rules() -> None:
    """No line is left for a class that is gone, or written for a family instead of its
    members."""
    assert set(lines_registry.LINES) == set(EVENTS)
    assert set(lines_registry.SILENT) <= set(EVENTS)


@dataclass(frozen=True)
class StandInHappened(Event):
    """An event the ui has never heard of."""

    faction: str


def test_an_event_without_a_line_is_an_error_not_a_generic_line() -> None:
    state = at_step(Step.TRADE)
    with pytest.raises(lines_registry.NoWording, match="StandInHappened has no line"):
        lines.event_line(StandInHappened("DAW"), state, ruleset())


def _bot() -> CaedesBot:
    return CaedesBot(Settings(discord_token="meta", database_url="sqlite+aiosqlite:///:memory:"))


async def test_every_button_and_select_kind_is_handled_by_one_cog() -> None:
    """Loading every cog registers each kind of control once (a second registration of a kind
    would raise)."""
    bot = _bot()
    try:
        for name in EXTENSIONS:
            await bot.load_extension(name)
        assert sorted(views.handlers_of(bot)) == sorted(SHAPES)
        assert sorted(SHAPES) == [
            "buy",
            "chg",
            "db",
            "dec",
            "dm",
            "endvote",
            "move",
            "mp",
            "mu",
            "mv",
            "pact",
            "panel",
            "sh",
            "sum",
            "sv",
            "trade",
        ]
    finally:
        await bot.close()


async def test_a_second_handler_for_a_kind_is_an_error() -> None:
    bot = _bot()

    async def first(interaction: Any, ref: views.ComponentRef) -> None: ...

    async def second(interaction: Any, ref: views.ComponentRef) -> None: ...

    try:
        views.register(bot, "panel", first)
        with pytest.raises(views.DuplicateKind, match="'panel' already has a handler"):
            views.register(bot, "panel", second)
        assert views.handlers_of(bot)["panel"] is first
    finally:
        await bot.close()
