"""Every module of the rules, imported in one place.

An order or event class is known by name (for storage and replay:
:attr:`~caedes_bot.rules.orders.Order.registry`, :attr:`~caedes_bot.rules.events.Event.registry`)
once the module that defines it has been imported. Importing this module imports them all, so
the registries are complete in any process that imports it, whether or not it has applied an
order: :mod:`caedes_bot.rules.engine` and :mod:`caedes_bot.persistence.mappers` import it.

It also lists the specs the engine is built from (:mod:`caedes_bot.rules.steps`): the spec of
every step (:data:`STEP_SPECS`) and the specs of orders that belong to no single step
(:data:`ANYTIME_SPECS`); the turn's own orders are the spec of
:class:`caedes_bot.rules.turn.Turn`.

A new rules module is added to :data:`MODULES`, and a new spec to its list below;
``tests/rules/test_catalogue.py`` fails for a module of ``caedes_bot/rules/`` that is missing.
"""

from __future__ import annotations

from caedes_bot.rules import (
    buy,
    cargo,
    collect,
    dependants,
    dice,
    diplomacy,
    early_end,
    errors,
    events,
    frozen,
    mercenary,
    mercenary_answer,
    muster,
    orders,
    override_log,
    ownership,
    pacts,
    redeem,
    replay,
    scenario_events,
    setup,
    sharing,
    ships,
    state,
    statistics,
    steps,
    summons,
    trade,
    turn,
    umpire,
    umpire_game,
    umpire_step,
    umpire_units,
    undo,
    upkeep,
    upkeep_marks,
    victory,
)
from caedes_bot.rules.combat import (
    actions,
    arithmetic,
    battle,
    kept,
    luck,
    magic,
    naval,
    roster,
    round_start,
    sides,
    specials,
    summon_answer,
)
from caedes_bot.rules.combat import events as combat_events
from caedes_bot.rules.combat import magic_events as combat_magic_events
from caedes_bot.rules.combat import orders as combat_orders
from caedes_bot.rules.movement import amphibian as movement_amphibian
from caedes_bot.rules.movement import apply as movement_apply
from caedes_bot.rules.movement import blitz as movement_blitz
from caedes_bot.rules.movement import costs as movement_costs
from caedes_bot.rules.movement import flight as movement_flight
from caedes_bot.rules.movement import magic_moves as movement_magic
from caedes_bot.rules.movement import orders as movement_orders
from caedes_bot.rules.movement import plans as movement_plans
from caedes_bot.rules.movement import reach as movement_reach
from caedes_bot.rules.movement import refusals as movement_refusals
from caedes_bot.rules.movement import steps_table as movement_steps_table
from caedes_bot.rules.movement import stuck as movement_stuck
from caedes_bot.rules.odds import exact as odds_exact
from caedes_bot.rules.odds import fought as odds_fought
from caedes_bot.rules.odds import methods as odds_methods
from caedes_bot.rules.odds import model as odds_model
from caedes_bot.rules.odds import montecarlo as odds_montecarlo
from caedes_bot.rules.odds import opening as odds_opening
from caedes_bot.rules.odds import planned as odds_planned
from caedes_bot.rules.odds import summary as odds_summary
from caedes_bot.rules.odds import tables as odds_tables
from caedes_bot.rules.steps import StepSpec

#: The modules of the rules (all but the engine, which imports this one), in no special order.
MODULES = (
    buy,
    cargo,
    collect,
    dependants,
    dice,
    diplomacy,
    early_end,
    errors,
    events,
    frozen,
    mercenary,
    mercenary_answer,
    muster,
    odds_exact,
    odds_methods,
    odds_fought,
    odds_model,
    odds_montecarlo,
    odds_opening,
    odds_planned,
    odds_summary,
    odds_tables,
    orders,
    override_log,
    ownership,
    pacts,
    redeem,
    replay,
    scenario_events,
    setup,
    sharing,
    ships,
    state,
    statistics,
    steps,
    summons,
    trade,
    turn,
    umpire,
    umpire_game,
    umpire_step,
    umpire_units,
    undo,
    upkeep,
    upkeep_marks,
    victory,
    arithmetic,
    battle,
    naval,
    kept,
    luck,
    roster,
    round_start,
    sides,
    summon_answer,
    actions,
    magic,
    specials,
    combat_magic_events,
    combat_events,
    combat_orders,
    movement_amphibian,
    movement_apply,
    movement_blitz,
    movement_costs,
    movement_flight,
    movement_magic,
    movement_orders,
    movement_plans,
    movement_reach,
    movement_refusals,
    movement_steps_table,
    movement_stuck,
)

#: The spec of every step of the turn, one each (the order of a turn is game data,
#: ``Ruleset.step_order``).
STEP_SPECS: tuple[StepSpec, ...] = (
    trade.SPEC,
    redeem.SPEC,
    collect.SPEC,
    upkeep.SPEC,
    buy.SPEC,
    movement_apply.SPEC,
    combat_orders.SPEC,
    muster.SPEC,
)

#: Specs of orders that belong to no single step: the umpire's overrides (R-PBP-UMP-01),
#: the marks to disband at upkeep (R-UPK-02), the ship and cargo orders of step 6
#: (R-MOVE-14..18), taking back orders (/undo), summons (R-MAGIC-SUMM-01), the answer to a
#: summons offer in a battle, the choice of deserting Mercenaries (R-ATTR-MERC-01), and the
#: umpire's rollback and continuing an imported campaign.
ANYTIME_SPECS: tuple[StepSpec, ...] = (
    umpire.SPEC,
    umpire_game.SPEC,
    umpire_units.SPEC,
    upkeep_marks.SPEC,
    ships.SPEC,
    cargo.SPEC,
    undo.SPEC,
    summons.SPEC,
    summon_answer.SPEC,
    mercenary_answer.SPEC,
    early_end.SPEC,
    pacts.SPEC,
    victory.SPEC,
    replay.SPEC,
)
