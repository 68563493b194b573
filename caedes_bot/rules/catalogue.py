"""Every module of the rules, imported in one place.

An order or event class is known by name (for storage and replay:
:attr:`~caedes_bot.rules.orders.Order.registry`, :attr:`~caedes_bot.rules.events.Event.registry`)
once the module that defines it has been imported. Importing this module imports them all, so
the registries are complete in any process that imports it, whether or not it has applied an
order: :mod:`caedes_bot.rules.engine` and :mod:`caedes_bot.persistence.mappers` import it.

A new rules module is added to the list below; ``tests/rules/test_catalogue.py`` fails for a
module of ``caedes_bot/rules/`` that is missing here.
"""

from __future__ import annotations

from caedes_bot.rules import (
    buy,
    collect,
    dice,
    diplomacy,
    errors,
    events,
    mercenary,
    movement,
    muster,
    odds,
    orders,
    ownership,
    redeem,
    setup,
    state,
    steps,
    trade,
    turn,
    umpire,
    upkeep,
    victory,
)
from caedes_bot.rules.combat import arithmetic, battle, sides
from caedes_bot.rules.combat import events as combat_events
from caedes_bot.rules.combat import orders as combat_orders

#: The modules of the rules (all but the engine, which imports this one), in no special order.
MODULES = (
    buy,
    collect,
    dice,
    diplomacy,
    errors,
    events,
    mercenary,
    movement,
    muster,
    odds,
    orders,
    ownership,
    redeem,
    setup,
    state,
    steps,
    trade,
    turn,
    umpire,
    upkeep,
    victory,
    arithmetic,
    battle,
    sides,
    combat_events,
    combat_orders,
)
