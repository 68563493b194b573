"""How a step of the turn is described to the engine (design.md section 3: steps are data).

Every step module declares one :class:`StepSpec` (``SPEC``): the orders it accepts and who may
give each (:class:`Accepts`, :class:`Giver`), what runs when the step begins and when it ends,
when it waits for the faction, what the bot does in it for a faction that does not act, and the
default answers of the decisions it asks. Orders that belong to no single step have a spec
without a step: the turn's own orders (:mod:`caedes_bot.rules.turn`), the umpire's overrides
(:mod:`caedes_bot.rules.umpire`), and, in later rules, orders any faction may give at any time.

:mod:`caedes_bot.rules.engine` builds its dispatch table from the specs and checks turn and step
once; :class:`caedes_bot.rules.turn.Turn` runs the steps in the order the game data gives
(``Ruleset.step_order``) with the hooks of the specs. So a new order is added in its step
module (its class, its handler, one :class:`Accepts` line) and nowhere else in the rules.

Shapes:

* a handler is ``(state, order, ruleset, dice) -> list[Event] | StepDone`` and mutates the copy
  of the state it is given; it returns :class:`StepDone` when its order ends the step;
* a step hook is ``(state, ruleset, dice) -> list[Event]``;
* ``waits`` and ``under_way`` are ``(state) -> bool``;
* a default answer is ``(state, ruleset, dice, decision) -> list[Event] | StepDone``
  (R-PBP-DEAD-04).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import DecisionKind, GameState, PendingDecision, Step


class Giver(enum.Enum):
    """Who may give an order (R-TURN-03, R-PBP-UMP-01)."""

    #: Only the faction whose turn it is (R-TURN-03); the engine refuses anyone else with
    #: ``NotYourTurn`` and refuses the faction's own orders in a passive turn (R-PBP-DEAD-03).
    ACTIVE = "active"
    #: The party a decision or offer is put to, in anyone's turn (a casualty choice, the answer
    #: to a trade offer); the order's handler checks that the giver is the one asked.
    REACTION = "reaction"
    #: Only the umpire, a server admin or the bot itself (R-PBP-UMP-01); the service checks
    #: who asks, the engine takes it in any faction's turn.
    UMPIRE = "umpire"
    #: Any faction in play, at any time of anyone's turn; the handler checks what it may do.
    ANY = "any"


@dataclass(frozen=True, slots=True)
class StepDone:
    """What a handler or a default answer returns when its order ends the current step: the
    events so far; the turn then ends the step as ``EndStep`` would (its leaving work, then the
    next steps until one waits, R-TURN-02). ``by_umpire`` marks the step's end as the umpire's
    or the bot's (``StepEnded.by_umpire``)."""

    events: list[Event] = field(default_factory=list)
    by_umpire: bool = False


Handled = list[Event] | StepDone
Handler = Callable[[GameState, Order, Ruleset, Dice], Handled]
StepHook = Callable[[GameState, Ruleset, Dice], list[Event]]
StatePredicate = Callable[[GameState], bool]
DefaultPlay = Callable[[GameState, Ruleset, Dice], list[Event] | None]
DefaultAnswer = Callable[[GameState, Ruleset, Dice, PendingDecision], Handled]


@dataclass(frozen=True, slots=True)
class Accepts:
    """One order a spec accepts.

    Attributes:
        order: the order class.
        handler: the function applying it (see the module docstring for its shape).
        giver: who may give it.
        steps: the steps in which it may be given. ``None`` (the default) means the spec's own
            step, or any step for a spec without one; ``()`` means any step, the handler
            refusing the others with its own rule.
    """

    order: type[Order]
    handler: Handler
    giver: Giver = Giver.ACTIVE
    steps: tuple[Step, ...] | None = None


@dataclass(frozen=True, slots=True)
class StepSpec:
    """What one step of the turn means, or, with ``step`` ``None``, a group of orders that
    belong to no single step.

    Attributes:
        name: the spec's id: the step's id in the game data (``"trade"``: the lower-case name
            of its :class:`~caedes_bot.rules.state.Step`) or a name of its own (``"turn"``).
        step: the step, or ``None``.
        accepts: the orders it accepts.
        on_enter: automatic work when the step begins (R-TURN-02: Collect runs by itself).
        on_leave: work when the step ends, whether the faction ended it or it passed at once;
            it may refuse, and then the order that would end the step changes nothing.
        waits: whether the step, just begun, waits for the active faction; ``None``: it never
            waits and passes at once after its automatic work.
        waits_when_passive: it waits even in a passive turn (R-PBP-DEAD-03: only battles do).
        play_by_default: what the umpire's advance or a passive turn does in this step before
            it ends it (fight the next due battle, R-COMBAT-02); ``None`` when there is nothing
            to do and the step may end.
        under_way: work of the step is under way that only its own orders move on (a battle
            being fought): a passive turn stops there.
        defaults: the default answer of each kind of decision the step asks (R-PBP-DEAD-04).
        after_every_order: what must hold after every order, whatever the step (the income
            record of R-COLL-04).
    """

    name: str
    step: Step | None = None
    accepts: tuple[Accepts, ...] = ()
    on_enter: StepHook | None = None
    on_leave: StepHook | None = None
    waits: StatePredicate | None = None
    waits_when_passive: bool = False
    play_by_default: DefaultPlay | None = None
    under_way: StatePredicate | None = None
    defaults: Mapping[DecisionKind, DefaultAnswer] = field(default_factory=dict)
    after_every_order: Callable[[GameState], None] | None = None

    def __post_init__(self) -> None:
        if self.step is not None and self.name != self.step.name.lower():
            raise ValueError(
                f"the spec of step {self.step.name} must be named {self.step.name.lower()!r}"
            )


def always(state: GameState) -> bool:
    """A ``waits`` that always waits (the faction ends the step itself)."""
    return True


def active_faction(state: GameState) -> str:
    """The faction whose turn it is.

    Raises:
        RuleViolation: no faction is playing (the campaign has not started, R-TURN-01).
    """
    if state.active is None:
        raise RuleViolation("No faction is playing.", rule="R-TURN-01")
    return state.active
