"""Replaying a campaign from its order log, and the umpire's rollback (R-PBP-UMP-01, R-GEN-01).

This is where replay lives. :class:`Replay` rebuilds a campaign's states from its first state
and its orders, one after another, with the campaign's seeded dice
(:class:`~caedes_bot.rules.dice.SeededDice`): die ``n`` is a pure function of the seed and
``n``, so the same log gives the same states, events and dice. The service uses it to rebuild a
campaign (``RulesService.replay``) and to find the state a rollback returns to; an import and
``python -m caedes_bot.verify`` use it to check an export (decision 0023).

**Rollback.** :class:`RollBack` takes the campaign back to the state right after an earlier
order of the current game round (a *point*). It is an order like any other in the log (the
order and event logs are never compacted): what it restores is the state the replay had after
that order, so a replay of the log reproduces the rollback exactly. Only two things do not go
back: the dice counter (the dice rolled since stay rolled, and the dice after a rollback are new
dice) and the id counter (an id once given is never given again). Who plays which faction is
kept as it is now, and nothing done before the rollback can be taken back with ``/undo``.

**Continuing an unfinished campaign.** An export made before the end holds no seed, so it
cannot be replayed; ``/campaign import`` continues it instead in a new campaign, which has its
own fresh seed (committed and announced). The new campaign's first order is
:class:`ContinueFrom`, which carries the exported state: replaying the new campaign's log gives
that state and then every order given since, with the new seed.

A :class:`RollBack` cannot be applied by :func:`~caedes_bot.rules.engine.apply` alone, since
the state it returns to is not in the current state; the engine routes it (it is an umpire
order, :class:`~caedes_bot.rules.steps.Giver` ``UMPIRE``) to a handler that refuses it, and
the service gives it to :meth:`Replay.give` instead.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import Dice, Roll, SeededDice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.steps import Accepts, Giver, StepSpec

RULE = "R-PBP-UMP-01"


@dataclass(frozen=True, slots=True)
class RollBack(Order):
    """Take the campaign back to the state right after order ``to_seq`` (its number in the
    order log), an earlier point of the current game round (R-PBP-UMP-01). Umpire only."""

    to_seq: int

    label = "Rolling back"


@dataclass(frozen=True, slots=True)
class RolledBack(Event):
    """The umpire took the campaign back to the state after order ``to_seq``: game round
    ``round``, ``active``'s step ``step``; ``voided`` orders given since no longer count.
    Public (R-PBP-UMP-01: an override is announced)."""

    to_seq: int
    round: int
    active: str | None
    step: Step
    voided: int


@dataclass(frozen=True, slots=True)
class ContinueFrom(Order):
    """Make a campaign not yet started continue from ``state`` (an unfinished campaign's
    export, decision 0023): the game round, turn, step, board and treasuries become those of
    ``state``. The campaign keeps its own dice seed and counter (``state.dice_seed`` is
    ignored; an export leaves it blank), nobody is recorded as playing a faction yet
    (R-SETUP-02: the umpire assigns them again), and there is nothing to undo. Given by the
    bot itself when it imports a file."""

    state: GameState
    source: str

    label = "Continuing a campaign"


@dataclass(frozen=True, slots=True)
class CampaignContinued(Event):
    """The campaign continues ``source`` from its game round ``round``, ``active``'s step
    ``step``, with a new dice seed. Public."""

    source: str
    round: int
    active: str | None
    step: Step


def handle_continue(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`ContinueFrom` to ``state`` (the campaign's own, not yet started).

    Raises:
        RuleViolation: the campaign has started already, or ``order.state`` is of another
            scenario.
    """
    assert isinstance(order, ContinueFrom)
    if state.round != 0 or state.active is not None:
        raise RuleViolation(
            "Only a campaign that has not started can continue another one.",
            rule="R-SETUP-01",
            allowed="import the file as a new campaign",
        )
    if order.state.scenario != state.scenario:
        raise RuleViolation(
            f"The state is of scenario {order.state.scenario!r}, not {state.scenario!r}.",
            rule="R-SETUP-01",
        )
    seed, rolled = state.dice_seed, state.dice_rolls
    source = copy.deepcopy(order.state)
    for f in dataclasses.fields(GameState):
        setattr(state, f.name, getattr(source, f.name))
    state.dice_seed, state.dice_rolls = seed, rolled
    state.players = {}
    state.undo_log = []
    return [CampaignContinued(order.source, state.round, state.active, state.step)]


class Applied(Protocol):
    """What the rules' ``apply`` returns (:class:`~caedes_bot.rules.engine.Outcome`)."""

    @property
    def state(self) -> GameState: ...

    @property
    def events(self) -> tuple[Event, ...]: ...


#: The rules entry point, ``(state, order, ruleset, dice) -> Outcome``.
ApplyFn = Callable[[GameState, Order, Ruleset, Dice], Applied]


def seeded(state: GameState) -> SeededDice:
    """The campaign's own dice for the next order: its seed, resuming at its roll count."""
    return SeededDice(state.dice_seed, state.dice_rolls)


@dataclass(frozen=True, slots=True)
class Replayed:
    """One order replayed: the state after it, its events, and the dice it rolled (labelled,
    R-GEN-08; none for a rollback)."""

    state: GameState
    events: tuple[Event, ...]
    rolls: tuple[Roll, ...]


def roll_back(current: GameState, earlier: GameState, order: RollBack, voided: int) -> Replayed:
    """The state of :class:`RollBack`: ``earlier`` (never changed), with the dice seed and roll
    counter, the id counter and the players of ``current`` (those never go back), and nothing
    left to undo (R-PBP-UMP-01)."""
    new = earlier.clone()
    new.dice_seed = current.dice_seed
    new.dice_rolls = current.dice_rolls
    new.next_id = max(current.next_id, earlier.next_id)
    new.players = dict(current.players)
    new.undo_log = []
    event = RolledBack(order.to_seq, new.round, new.active, new.step, voided)
    return Replayed(new, (event,), ())


class Replay:
    """A campaign's states rebuilt order by order from ``first``.

    Args:
        first: the campaign's first state (``rules.setup.new_game`` with its seed, or the state
            an unfinished campaign was continued from).
        ruleset: the game data.
        apply: the rules entry point (``rules.engine.apply``).
        dice: the dice for the next order, from the state before it (default :func:`seeded`).

    Attributes:
        state: the state after the last order given.
    """

    def __init__(
        self,
        first: GameState,
        ruleset: Ruleset,
        apply: ApplyFn,
        dice: Callable[[GameState], Dice] = seeded,
    ) -> None:
        self.state = first
        self.ruleset = ruleset
        self._apply = apply
        self._dice = dice
        #: order number -> the state after it, for the orders of the current game round that
        #: still count (a rollback drops those after its point)
        self._line: dict[int, GameState] = {}

    @property
    def points(self) -> tuple[int, ...]:
        """The orders of the current game round a :class:`RollBack` may return to, oldest
        first: every one that still counts but the last (the state now)."""
        return tuple(self._line)[:-1]

    def step_starts(self) -> dict[tuple[str, Step], int]:
        """``(faction, step)`` -> the point where that faction's turn of this game round began
        that step (the earliest point at which it rests there), for ``/umpire set step`` back
        (R-PBP-UMP-01). A step that ran by itself, or one not reached, is not in it."""
        found: dict[tuple[str, Step], int] = {}
        for seq in reversed(self.points):
            at = self._line[seq]
            if at.active is not None and at.round == self.state.round:
                found[(at.active, at.step)] = seq  # going back in time: the earliest is kept
        return found

    def give(self, seq: int, order: Order) -> Replayed:
        """Replay order number ``seq``: apply it, or for a :class:`RollBack` return to its point.

        Raises:
            RuleViolation: the rules refuse the order, or a rollback's point is not an earlier
                order of the current game round that still counts.
        """
        before = self.state
        if isinstance(order, RollBack):
            if order.to_seq not in self.points:
                raise RuleViolation(
                    f"Order {order.to_seq} is not an earlier point of game round {before.round}.",
                    rule=RULE,
                    allowed="one of the points `/umpire rollback` offers",
                )
            voided = [s for s in self._line if s > order.to_seq]
            done = roll_back(before, self._line[order.to_seq], order, len(voided))
            for s in voided:
                del self._line[s]
        else:
            dice = self._dice(before)
            outcome = self._apply(before, order, self.ruleset, dice)
            done = Replayed(outcome.state, tuple(outcome.events), tuple(dice.history))
            if done.state.round != before.round:
                self._line.clear()
        self._line[seq] = done.state
        self.state = done.state
        return done


def _refuse_alone(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """The engine's handler of :class:`RollBack`: refused, since the state it returns to is in
    the campaign's history, not in ``state`` (the service applies it with :class:`Replay`)."""
    raise RuleViolation(
        "A rollback needs the campaign's history: it is applied by a replay of the order log.",
        rule=RULE,
        allowed="`/umpire rollback`",
    )


#: The rollback (at any step, umpire only; applied by :class:`Replay`, refused by the engine)
#: and continuing an unfinished campaign (the bot itself, when it imports a file).
SPEC = StepSpec(
    "replay",
    accepts=(
        Accepts(RollBack, _refuse_alone, giver=Giver.UMPIRE),
        Accepts(ContinueFrom, handle_continue, giver=Giver.UMPIRE),
    ),
)
