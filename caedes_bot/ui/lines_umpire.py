"""The lines of the umpire's acts and of a scenario's events (:mod:`caedes_bot.ui.lines`):
overrides, rollbacks, options, steps and turn limits set by the umpire (worded by
:mod:`caedes_bot.ui.umpire_text`), and what a scenario's events did (worded by
:mod:`caedes_bot.ui.scenario_text`).

Each function is registered with :func:`~caedes_bot.ui.lines_registry.line_of` as the line of
its event class. Pure functions of the event, the state after it and the static ruleset.
"""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import replay, scenario_events, umpire, umpire_game, umpire_step, umpire_units
from caedes_bot.rules.state import GameState
from caedes_bot.ui import scenario_text, umpire_text
from caedes_bot.ui.describe import faction_name, space_name
from caedes_bot.ui.lines_registry import line_of
from caedes_bot.ui.wording import moment


# --------------------------------------------------------------------------- the umpire
@line_of(umpire.UmpireOverride)
def _umpire_override(event: umpire.UmpireOverride, state: GameState, ruleset: Ruleset) -> str:
    if event.what == "owner":
        owner = faction_name(ruleset, event.detail) if event.detail else "nobody"
        return f"The umpire gave {space_name(ruleset, event.target)} to {owner} (R-PBP-UMP-01)."
    item = "RP" if event.what == "rp" else f"{event.detail.title()} stock"
    target = faction_name(ruleset, event.target)
    return f"The umpire changed the {item} of {target} (R-PBP-UMP-01)."


@line_of(umpire.TreasuryOverridden)
def _treasury_overridden(
    event: umpire.TreasuryOverridden, state: GameState, ruleset: Ruleset
) -> str:
    item = "RP" if event.item == "rp" else event.item.title()
    return f"The umpire set your {item} from {event.before} to {event.after} (R-PBP-UMP-01)."


@line_of(replay.RolledBack)
def _rolled_back(event: replay.RolledBack, state: GameState, ruleset: Ruleset) -> str:
    where = moment(ruleset, event.step, event.active, event.round)
    return (
        f"The umpire rolled the campaign back to the state after order #{event.to_seq}: "
        f"{where}. The {event.voided} order(s) given since no longer count; the dice rolled "
        "since stay rolled, so the next dice are new ones; the deadlines owed start again "
        "from now (R-PBP-UMP-01)."
    )


@line_of(replay.CampaignContinued)
def _continued(event: replay.CampaignContinued, state: GameState, ruleset: Ruleset) -> str:
    where = moment(ruleset, event.step, event.active, event.round)
    return (
        f"This campaign continues **{event.source}** from {where}, with dice from a new seed "
        "(R-GEN-01)."
    )


@line_of(umpire_units.UnitsOverridden)
def _units_overridden(
    event: umpire_units.UnitsOverridden, state: GameState, ruleset: Ruleset
) -> str:
    return umpire_text.units_line(event, ruleset)


@line_of(umpire_game.OptionChangeAnnounced)
def _option_change(
    event: umpire_game.OptionChangeAnnounced, state: GameState, ruleset: Ruleset
) -> str:
    return umpire_text.option_change_line(event)


@line_of(umpire_game.OptionsChanged)
def _options_changed(event: umpire_game.OptionsChanged, state: GameState, ruleset: Ruleset) -> str:
    return umpire_text.options_changed_line(event)


@line_of(umpire_step.StepSet)
def _step_set(event: umpire_step.StepSet, state: GameState, ruleset: Ruleset) -> str:
    return umpire_text.step_set_line(event, ruleset)


@line_of(umpire_game.TurnLimitSet)
def _turn_limit_set(event: umpire_game.TurnLimitSet, state: GameState, ruleset: Ruleset) -> str:
    return umpire_text.turn_limit_line(event)


# --------------------------------------------------------------------------- scenario events
@line_of(scenario_events.ScenarioEventFired)
def _scenario_event(
    event: scenario_events.ScenarioEventFired, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.fired_line(event, ruleset)


@line_of(scenario_events.ScenarioTreasuryChanged)
def _scenario_treasury(
    event: scenario_events.ScenarioTreasuryChanged, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.treasury_line(event)


@line_of(scenario_events.ScenarioUnitsPlaced)
def _scenario_placed(
    event: scenario_events.ScenarioUnitsPlaced, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.placed_line(event, ruleset)


@line_of(scenario_events.ScenarioUnitsRemoved)
def _scenario_removed(
    event: scenario_events.ScenarioUnitsRemoved, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.removed_line(event, ruleset)


@line_of(scenario_events.ScenarioOwnerChanged)
def _scenario_owner(
    event: scenario_events.ScenarioOwnerChanged, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.owner_line(event, ruleset)


@line_of(scenario_events.ScenarioEffectSkipped)
def _scenario_skipped(
    event: scenario_events.ScenarioEffectSkipped, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.skipped_line(event, ruleset)
