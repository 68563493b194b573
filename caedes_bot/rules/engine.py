"""The one entry point of the rules: ``apply(state, order, ruleset, dice) -> Outcome``.

``apply`` never changes the state it is given. It clones it, checks once that the order may be
given now (whose turn, which step: R-TURN-02, R-TURN-03), dispatches to the handler of the
order's class, and returns the new state with the events that happened. A refused order raises
a :class:`~caedes_bot.rules.errors.RuleViolation` and changes nothing.

The dispatch table (:data:`ROUTES`) is built once from the specs of :mod:`caedes_bot.rules.steps`
that :mod:`caedes_bot.rules.catalogue` lists, and from the turn's own spec: each spec says the
orders it accepts, in which steps, and who may give them. A handler has the shape
``(state, order, ruleset, dice) -> list[Event] | StepDone`` and mutates the clone it receives;
:data:`TURN` runs the steps that follow a :class:`~caedes_bot.rules.steps.StepDone`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import catalogue, statistics, undo
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import GameOver, NotYourTurn, RuleViolation, WrongStep
from caedes_bot.rules.events import Event
from caedes_bot.rules.frozen import quick_init
from caedes_bot.rules.mercenary import turn_start_owing
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.steps import Giver, Handler, StepSpec
from caedes_bot.rules.turn import Turn, steps_in_order


@dataclass(frozen=True, slots=True)
class Route:
    """How an order class is checked and handled.

    Attributes:
        handler: the function applying it.
        steps: the steps in which it may be given; empty = any step.
        giver: who may give it (:class:`~caedes_bot.rules.steps.Giver`); only an ``ACTIVE``
            order is checked here against the turn (R-TURN-03). Reactions (casualty choices,
            trade answers) are checked by their handler, umpire orders by the service.
        spec: the name of the spec that accepts it (``"buy"``, ``"turn"``, ``"umpire"``).
    """

    handler: Handler
    steps: tuple[Step, ...] = ()
    giver: Giver = Giver.ACTIVE
    spec: str = ""

    @property
    def active_only(self) -> bool:
        """Only the active faction may give it (R-TURN-03)."""
        return self.giver is _ACTIVE


_ACTIVE = Giver.ACTIVE  # read once: an enum member read costs several globals


@quick_init  # one per order: each field set through its slot (frozen.py), the same value
@dataclass(frozen=True, slots=True)
class Outcome:
    """What :func:`apply` returns: the new state and the events, in the order they happened."""

    state: GameState
    events: tuple[Event, ...]


def build_routes(specs: Iterable[StepSpec]) -> Mapping[type[Order], Route]:
    """The dispatch table of ``specs``: every order class they accept, read-only.

    Raises:
        ValueError: two specs (or one twice) accept the same order class.
    """
    table: dict[type[Order], Route] = {}
    for spec in specs:
        for rule in spec.accepts:
            if rule.order in table:
                raise ValueError(
                    f"{rule.order.__name__} is accepted by {table[rule.order].spec!r} and "
                    f"{spec.name!r}"
                )
            if rule.steps is not None:
                steps = rule.steps
            else:
                steps = () if spec.step is None else (spec.step,)
            table[rule.order] = Route(rule.handler, steps, rule.giver, spec.name)
    return MappingProxyType(table)


#: The step sequencer, built from the specs of the steps.
TURN = Turn(catalogue.STEP_SPECS, catalogue.ANYTIME_SPECS)
#: Every spec: the steps', the turn's own, and those of orders of no single step.
SPECS: tuple[StepSpec, ...] = (*catalogue.STEP_SPECS, TURN.spec, *catalogue.ANYTIME_SPECS)
#: The dispatch table: order class -> route, read-only.
ROUTES: Mapping[type[Order], Route] = build_routes(SPECS)
#: the same table as a plain ``dict`` for :func:`apply` (a read-only view's ``get`` is a
#: method call of its own on every order); never changed
_ROUTE_OF: dict[type[Order], Route] = dict(ROUTES)


def giver_of(order_type: type[Order]) -> Giver | None:
    """Who may give orders of ``order_type`` (R-TURN-03, R-PBP-UMP-01), as the rules declare
    it; ``None`` for a class the rules do not know (:func:`apply` refuses such an order)."""
    route = ROUTES.get(order_type)
    return None if route is None else route.giver


def _wrong_step(
    order: Order, steps: tuple[Step, ...], now: Step, order_of_steps: tuple[Step, ...]
) -> WrongStep:
    """The refusal of ``order`` in step ``now``, in a player's words (R-TURN-02): "Buying units
    is step 5 Buy; the turn is at step 1 Trade." with what is allowed: going on to the step
    ahead, or nothing more this turn once it is over (steps never come back)."""
    named = " or ".join(f"step {s.label}" for s in steps)
    position = {s: n for n, s in enumerate(order_of_steps)}
    ahead = [s for s in steps if position[s] > position[now]]
    if ahead:
        allowed = f"end the steps before it (Done or /done) to reach step {ahead[0].label}"
    else:
        gone = " and ".join(f"step {s.label}" for s in steps)
        over = "is over" if len(steps) == 1 else "are over"
        allowed = f"nothing this turn: {gone} {over}, and steps never come back"
    return WrongStep(f"{order.label} is {named}; the turn is at step {now.label}.", allowed=allowed)


def _turn_not_begun(state: GameState, order: Order) -> RuleViolation:
    """The refusal of an active faction's order while its turn's start waits for Mercenary
    choices (R-TURN-04, R-ATTR-MERC-01)."""
    owing = turn_start_owing(state)
    allowed = (
        "answer the Mercenary choice in your orders thread"
        if order.faction in owing
        else "wait until it is made; your turn then begins by itself"
    )
    return RuleViolation(
        f"{order.faction}'s turn has not begun: it waits for {', '.join(owing) or 'nobody'} to "
        "choose which Mercenaries desert.",
        rule="R-ATTR-MERC-01",
        allowed=allowed,
    )


def apply(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Outcome:
    """Apply ``order`` to a copy of ``state``.

    Args:
        state: the current state; never changed.
        order: what is asked.
        ruleset: the static game data.
        dice: where random numbers come from (R-GEN-01); the state's roll counter advances by
            the number of dice rolled.

    Returns:
        The new state and the events.

    Raises:
        GameOver: the campaign has ended (R-VIC).
        NotYourTurn: an active-only order from another faction (R-TURN-03).
        WrongStep: the order belongs to another step (R-TURN-02).
        RuleViolation: the active faction's own order in a passive turn (R-PBP-DEAD-03), or
            while its turn's start waits for Mercenary choices (R-ATTR-MERC-01); any other rule
            that refuses the order.
    """
    if state.finished:
        raise GameOver("The campaign is over; no more orders are taken.")
    route = _ROUTE_OF.get(type(order))
    if route is None:
        raise RuleViolation(f"The order {type(order).__name__} is not known to the rules.")
    active_only = route.giver is _ACTIVE  # Route.active_only, without the property's call
    if active_only and order.faction != state.active:
        active = state.active or "nobody"
        raise NotYourTurn(
            f"It is not {order.faction}'s turn; {active} is playing.",
            allowed="wait for your turn, or answer the decisions asked of you",
        )
    if state.passive and active_only and order.faction == state.active:
        raise RuleViolation(
            f"{order.faction} missed its turn deadline: the bot plays the rest of this turn "
            "passively.",
            rule="R-PBP-DEAD-03",
            allowed="wait for your next turn; answer any decision asked of you",
        )
    if active_only and state.turn_start_waits:
        raise _turn_not_begun(state, order)
    if route.steps and state.step not in route.steps:
        raise _wrong_step(order, route.steps, state.step, steps_in_order(ruleset.step_order))
    new = state.clone()
    before = dice.count
    events = TURN.settle(new, ruleset, dice, route.handler(new, order, ruleset, dice))
    events += TURN.after_every_order(new, ruleset, dice)
    statistics.record(state, new, events, ruleset)
    undo.after_order(state, new, order, dice.count - before)
    new.dice_rolls += dice.count - before
    return Outcome(new, tuple(events))
