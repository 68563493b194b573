"""Words for the umpire's overrides of the board and the game's settings (R-PBP-UMP-01,
R-PBP-UMP-03, R-SETUP-04): the lines of :mod:`caedes_bot.ui.lines_umpire` for their events.
Pure."""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.replay import RolledBack
from caedes_bot.rules.state import GameState
from caedes_bot.rules.umpire_game import OptionChangeAnnounced, OptionsChanged, TurnLimitSet
from caedes_bot.rules.umpire_step import StepSet
from caedes_bot.rules.umpire_units import UnitsOverridden
from caedes_bot.ui.describe import faction_name, kind_counts, space_name
from caedes_bot.ui.wording import moment, turn_text


def units_line(event: UnitsOverridden, ruleset: Ruleset) -> str:
    """``"The umpire added 2 Dawnian Infantry (#31, #32) in Orme (R-PBP-UMP-01)."``"""
    what = kind_counts(ruleset, event.kinds)
    numbers = ", ".join(f"#{i}" for i in event.unit_ids)
    froms = ", ".join(dict.fromkeys(space_name(ruleset, f) for f in event.froms if f))
    if event.action == "add":
        done = f"added {what} ({numbers}) in {space_name(ruleset, event.place)}"
    elif event.action == "remove":
        done = f"removed {what} ({numbers}) from {froms}"
    else:
        done = f"moved {what} ({numbers}) from {froms} to {space_name(ruleset, event.place)}"
    return f"The umpire {done} (R-PBP-UMP-01)."


def option_change_line(event: OptionChangeAnnounced) -> str:
    """The notice of an option change, which takes effect at the next turn start."""
    if event.before == event.after:
        return (
            f"The umpire left the option {event.name} at {event.after}: no change at the next "
            "turn start (R-SETUP-04)."
        )
    return (
        f"The umpire changed the option {event.name} from {event.before} to {event.after}; "
        "it takes effect at the start of the next turn (R-SETUP-04)."
    )


def options_changed_line(event: OptionsChanged) -> str:
    """The option changes taking effect at this turn's start."""
    changes = "; ".join(f"{name}: {after} (was {before})" for name, before, after in event.changes)
    return f"From this turn on, as the umpire announced: {changes} (R-SETUP-04)."


def _rounds(limit: int | None) -> str:
    return "no turn limit" if limit is None else f"{limit} game rounds"


def turn_limit_line(event: TurnLimitSet) -> str:
    """The notice of a new turn limit."""
    return (
        f"The umpire set the turn limit to {_rounds(event.after)} (it was "
        f"{_rounds(event.before)}) (R-PBP-UMP-03, R-VIC-03)."
    )


def step_set_line(event: StepSet, ruleset: Ruleset) -> str:
    """The notice of ``/umpire set step`` forward: from which step to which, and what the
    defaults did on the way."""
    who = faction_name(ruleset, event.faction)
    answered = (
        f", answering {event.defaulted} decision(s) by default on the way"
        if event.defaulted
        else ""
    )
    if event.turn_over:
        where = f"through step {event.chosen.label}, which ran by itself, to the end of the turn"
    elif event.after != event.chosen:
        where = f"to step {event.after.label} (step {event.chosen.label} ran by itself)"
    else:
        where = f"to step {event.after.label}"
    if event.was:
        return (
            f"The umpire moved the game on from step {event.before.label} of "
            f"{faction_name(ruleset, event.was)} to the turn of {who}, {where}: the steps and "
            f"turns between were played by their defaults, as `/umpire advance` does{answered} "
            "(R-PBP-UMP-01)."
        )
    return (
        f"The umpire moved the turn of {who} on from step {event.before.label} {where}: the "
        f"steps between were played by their defaults, as `/umpire advance` does{answered} "
        "(R-PBP-UMP-01)."
    )


def step_reply(
    before: GameState | None, state: GameState, events: Sequence[Event], ruleset: Ruleset
) -> str:
    """The umpire's private answer to ``/umpire set step``: where the turn was and is now."""
    was = (
        f" (it was at {moment(ruleset, before.step, before.active, before.round)})"
        if before is not None
        else ""
    )
    head = f"Done{was}; announced in #announcements and written to the audit log."
    for event in events:
        if isinstance(event, StepSet):
            return f"{head}\n{step_set_line(event, ruleset)}\n{turn_text(state, ruleset).capitalize()}."
        if isinstance(event, RolledBack):
            where = moment(ruleset, event.step, event.active, event.round)
            return (
                f"{head}\nThe turn is back at the start of {where}: a rollback to the state "
                f"after order #{event.to_seq}, so the {event.voided} order(s) since no longer "
                "count, the dice rolled since stay rolled and the deadlines start again "
                "(R-PBP-UMP-01)."
            )
    return head
