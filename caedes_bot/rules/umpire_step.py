"""The umpire sets the step of the turn under way (``/umpire set step``, R-PBP-UMP-01).

Forward, :class:`SetStep` moves the active faction's turn on to a later step of the same turn
as repeated ``UmpireAdvance`` would, one at a time (R-PBP-DEAD-03, R-PBP-DEAD-04): each
decision owed is answered with its default, each step's default work is done (in step 7 the
due battles are fought, with the campaign's dice), and each step ends as a pass, until the turn
rests at the chosen step or later (a step that runs by itself, as step 3 does, is passed
through; past the last step the turn goes to the next faction). So the rules stay what they
are: nothing is skipped that ``/umpire advance`` would not have done, and the order replays
exactly. The change is public (:class:`StepSet`) and written to the audit log with the step
before and after (decision 0022).

Back, to the start of an earlier step of the same turn, is a rollback
(:class:`~caedes_bot.rules.replay.RollBack`, decision 0023): the service finds the point where
that step began and gives the rollback; this module only moves forward.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step

RULE = "R-PBP-UMP-01"

#: The most steps and decisions one :class:`SetStep` moves on through: a turn has 8 steps and
#: a handful of decisions; more means something is going round in circles.
MAX_ADVANCES = 200


@dataclass(frozen=True, slots=True)
class SetStep(Order):
    """Move the game on to ``step`` of the turn under way, or of the turn of ``turn_of`` (a
    faction whose turn comes later in this game round) (R-PBP-UMP-01); umpire only, given as
    ``faction="UMPIRE"``. The turns between are played by the defaults as well."""

    step: Step
    turn_of: str | None = None

    label = "Setting the step"


@dataclass(frozen=True, slots=True)
class StepSet(Event):
    """The umpire moved the game on to ``faction``'s turn of game round ``round``, step
    ``after`` (the step the turn rests at, the chosen one or later), from step ``before`` (of
    ``was``'s turn, if another's), answering ``defaulted`` decisions by default on the way;
    ``turn_over``: the turn ended on the way (the chosen step ran by itself). Public
    (R-PBP-UMP-01)."""

    faction: str
    round: int
    before: Step
    after: Step
    chosen: Step
    defaulted: int
    turn_over: bool
    #: whose turn it was at ``before``, when it was another faction's (``""``: ``faction``'s)
    was: str = ""


def set_step(
    state: GameState, order: SetStep, advance: Callable[[GameState], list[Event]]
) -> list[Event]:
    """Apply :class:`SetStep` with ``advance`` (one ``UmpireAdvance`` of the active faction and
    what holds after every order; mutates ``state``). Returns its events, then
    :class:`StepSet`.

    Raises:
        RuleViolation: no turn under way; the step is the current one or an earlier one (back
            is a rollback); whatever an advance refuses (a decision without a default), in
            which case nothing changes.
    """
    faction = state.active
    if faction is None:
        raise RuleViolation(
            "No faction is playing, so there is no step to set.",
            rule=RULE,
            allowed="`/campaign start` if the campaign has not begun",
        )
    before, round_no = state.step, state.round
    target = order.turn_of or faction
    later = _later_turn(state, target)
    if target == faction and order.step == before:
        raise RuleViolation(
            f"The turn is at step {before.label} already.",
            rule=RULE,
            allowed="a later step (moved on by the defaults) or an earlier one (a rollback)",
        )
    if (target == faction and order.step < before) or (target != faction and not later):
        where = f"step {order.step.label}" + ("" if target == faction else f" of {target}")
        raise RuleViolation(
            f"{where[:1].upper()}{where[1:]} is behind the game ({faction}, step "
            f"{before.label}); going back is a rollback.",
            rule=RULE,
            allowed="`/umpire set step`, which rolls back to where that step began, or "
            "`/umpire rollback`",
        )
    events: list[Event] = []
    defaulted = 0
    for _ in range(MAX_ADVANCES):
        if state.finished or state.round != round_no:
            break
        if state.active == target and state.step >= order.step:
            break
        if target == faction and state.active != faction:
            break  # the turn ended on the way (the chosen step ran by itself)
        if state.pending:
            defaulted += 1
        events += advance(state)
    else:
        raise RuleViolation(
            f"The game did not reach step {order.step.label} after {MAX_ADVANCES} moves on.",
            rule=RULE,
            allowed="`/umpire advance` one step at a time, to see what holds the turn",
        )
    over = state.finished or state.active != target or state.round != round_no
    after = Step.MUSTER if over else state.step
    was = "" if target == faction else faction
    events.append(StepSet(target, round_no, before, after, order.step, defaulted, over, was))
    return events


def _later_turn(state: GameState, target: str) -> bool:
    """Whether ``target``'s turn comes after the active faction's in this game round.

    Raises:
        RuleViolation: ``target`` is not a faction in the game.
    """
    order = state.in_play
    fs = state.factions.get(target)
    if target not in order or fs is None or fs.eliminated:
        raise RuleViolation(
            f"{target} is not a faction in the game.",
            rule=RULE,
            allowed="one of " + ", ".join(f for f in order if not state.factions[f].eliminated),
        )
    active = state.active or ""
    return order.index(target) > order.index(active) if active in order else False
