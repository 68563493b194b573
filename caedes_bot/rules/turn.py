"""The turn: game rounds, turn order, the steps in order, and the turn-start checks (R-TURN).

How a campaign runs (R-TURN-01..06):

* ``StartCampaign`` (the umpire's order) begins game round 1 of a state made by
  :func:`caedes_bot.rules.setup.new_game`.
* Factions in play take turns in the fixed order of ``GameState.in_play``; eliminated factions
  are skipped. After the last one the game round advances; after the final game round of a
  turn limit the campaign ends with the score of R-VIC-03.
* At the very start of each turn, before its first step, the Mercenary check runs for every
  faction in every space (R-ATTR-MERC-01) and then the elimination check (R-VIC-05); then the
  active faction's units get fresh movement bookkeeping. When a faction must choose which
  Mercenaries desert, the turn's start waits (``GameState.turn_start_waits``): the active
  faction's own orders are refused, and the rest of the checks and the first step run once
  every answer is in or defaulted (:meth:`Turn.resume_turn_start`).
* The steps follow strictly in the order of the game data (``Ruleset.step_order``, from
  ``config/caedes/turn.toml``). What each step does is its
  :class:`~caedes_bot.rules.steps.StepSpec`, declared in the step's own module: on entering a
  step its automatic work runs (``on_enter``); if the step does not wait (``waits``), or has
  nothing to wait for, it ends at once (its leaving work, ``on_leave``, runs) and the next one
  begins. So an order always leaves the state resting in a step that waits for the active
  faction. :class:`Turn` is that sequencer; the engine builds it from the specs, so this module
  imports no step module.
* ``EndStep`` (active faction) ends the current step early; a handler whose order ends the
  step returns :class:`~caedes_bot.rules.steps.StepDone`. ``UmpireAdvance`` (umpire, for the
  active faction) either answers the oldest pending decision, of any kind, with its default
  (the ``defaults`` of the specs), or does the step's default work (``play_by_default``: the
  next due battle in step 7), or ends the current step as if the faction had passed
  (R-PBP-DEAD-03, R-PBP-DEAD-04).
* ``ForfeitTurn`` (umpire or scheduler, on a missed turn deadline) makes the rest of the turn
  passive (R-PBP-DEAD-03): the faction's own orders are refused, every step passes (only a
  step with ``waits_when_passive`` waits: battles), Collect and Upkeep run with default
  disbanding, due battles are fought in order of space name with the faction's own decisions
  answered by default, and units already bought are mustered by the bot. Decisions owed by
  other factions are waited for (their reaction deadlines, R-PBP-DEAD-04); once answered, the
  engine plays on (:meth:`Turn.continue_passive_turn`).

The steps themselves: Trade (:mod:`caedes_bot.rules.trade`), Redeem
(:mod:`caedes_bot.rules.redeem`), Collect (:mod:`caedes_bot.rules.collect`), Upkeep
(:mod:`caedes_bot.rules.upkeep`), Buy (:mod:`caedes_bot.rules.buy`), Move
(:mod:`caedes_bot.rules.movement`), Combat (:mod:`caedes_bot.rules.combat.orders`) and Muster
(:mod:`caedes_bot.rules.muster`); ``docs/rules-status.md`` lists what each waits for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import (
    collect,
    dependants,
    diplomacy,
    pacts,
    scenario_events,
    umpire_game,
    umpire_step,
    victory,
)
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import mercenary_check, turn_start_waiting
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import DecisionKind, GameState, PendingDecision, Step
from caedes_bot.rules.steps import (
    Accepts,
    DefaultAnswer,
    Giver,
    Handled,
    StepDone,
    StepSpec,
    active_faction,
)

# --------------------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class StartCampaign(Order):
    """Begin game round 1 of a new campaign (R-TURN-01, R-TURN-06).

    ``faction`` names who asks (the umpire's tool passes any label); it is not checked.
    Refused unless the state is fresh from :func:`~caedes_bot.rules.setup.new_game`.
    """


@dataclass(frozen=True, slots=True)
class EndStep(Order):
    """The active faction ends its current step (R-TURN-02): the next steps follow in order."""


@dataclass(frozen=True, slots=True)
class UmpireAdvance(Order):
    """Move a stalled turn on (R-PBP-DEAD-03, R-PBP-DEAD-04); given by the umpire or scheduler.

    ``faction`` must be the active faction (so a late, repeated click does nothing harmful).
    If a decision is pending, the oldest one (of any faction and kind) is answered with its
    documented default; otherwise the current step ends as if the faction had passed.

    ``decision_id`` names the one decision to answer (a passed reaction deadline): that
    decision, and no other, is answered by default; refused if it is no longer pending.
    """

    decision_id: int | None = None


@dataclass(frozen=True, slots=True)
class ForfeitTurn(Order):
    """``faction`` (the active faction) missed its turn deadline: the bot plays the rest of its
    turn passively (R-PBP-DEAD-03). Given by the umpire or the scheduler.

    Refused for a faction that is not playing, and when the turn is already passive and can
    go no further until another faction answers its decision (R-PBP-DEAD-04).
    """


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class GameRoundBegan(Event):
    """Game round ``round`` began (R-TURN-01)."""

    round: int


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """``faction`` began its turn of game round ``round``; ``turn_number`` counts its turns from 1."""

    faction: str
    round: int
    turn_number: int


@dataclass(frozen=True, slots=True)
class StepBegan(Event):
    """``faction``'s turn entered ``step`` (R-TURN-02)."""

    faction: str
    round: int
    step: Step


@dataclass(frozen=True, slots=True)
class StepEnded(Event):
    """``faction``'s ``step`` ended; ``by_umpire`` when an ``UmpireAdvance`` ended it."""

    faction: str
    round: int
    step: Step
    by_umpire: bool = False


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """``faction`` finished its turn of game round ``round``."""

    faction: str
    round: int


@dataclass(frozen=True, slots=True)
class TurnForfeited(Event):
    """``faction`` missed its turn deadline in ``step``; the rest of its turn of game round
    ``round`` is played passively (R-PBP-DEAD-03)."""

    faction: str
    round: int
    step: Step


@dataclass(frozen=True, slots=True)
class DecisionDefaulted(Event):
    """The umpire answered ``faction``'s pending decision ``decision_id`` (of ``kind``) with its
    default (R-PBP-DEAD-04)."""

    faction: str
    decision_id: int
    kind: DecisionKind


# --------------------------------------------------------------------------- the sequencer


@cache
def steps_in_order(step_order: tuple[str, ...]) -> tuple[Step, ...]:
    """The steps of a turn in the order of the game data (``Ruleset.step_order``, R-TURN-02):
    each id is the lower-case name of a :class:`~caedes_bot.rules.state.Step`.

    Raises:
        ValueError: an id that names no step, or no step at all.
    """
    if not step_order:
        raise ValueError("a turn needs at least one step")
    try:
        return tuple(Step[name.upper()] for name in step_order)
    except KeyError as err:
        raise ValueError(f"no step is called {err.args[0].lower()!r}") from None


class Turn:
    """The step sequencer: runs each faction's turn through the steps, in the order of the game
    data, with the hooks of the steps' specs (R-TURN-01, R-TURN-02, R-PBP-DEAD-03).

    Built once from the specs of the steps (see :mod:`caedes_bot.rules.catalogue`); it holds
    no state of a campaign and is never changed. :attr:`spec` is the spec of the turn's own
    orders (``StartCampaign``, ``EndStep``, ``UmpireAdvance``, ``ForfeitTurn``), whose
    handlers are its methods.

    ``anytime``: the specs of orders of no single step, whose default answers (R-PBP-DEAD-04)
    are known to the turn as well (the Mercenary choice, asked at a turn start or a battle
    round start).

    Raises:
        ValueError: two specs for one step, a spec without a step, a step without a spec, or
            two default answers for one kind of decision.
    """

    def __init__(self, steps: Iterable[StepSpec], anytime: Iterable[StepSpec] = ()) -> None:
        by_step: dict[Step, StepSpec] = {}
        defaults: dict[DecisionKind, DefaultAnswer] = {}
        for spec in steps:
            if spec.step is None:
                raise ValueError(f"spec {spec.name!r} is not a step of the turn")
            if spec.step in by_step:
                raise ValueError(f"two specs for step {spec.step.label}")
            by_step[spec.step] = spec
            for kind, answer in spec.defaults.items():
                if kind in defaults:
                    raise ValueError(f"two default answers for decisions of kind '{kind}'")
                defaults[kind] = answer
        for spec in anytime:
            for kind, answer in spec.defaults.items():
                if kind in defaults:
                    raise ValueError(f"two default answers for decisions of kind '{kind}'")
                defaults[kind] = answer
        missing = [s.label for s in Step if s not in by_step]
        if missing:
            raise ValueError(f"no spec for step {', '.join(missing)}")
        self._steps: Mapping[Step, StepSpec] = MappingProxyType(by_step)
        #: the steps' ``after_every_order`` hooks, in the order of the specs (read once: they
        #: run after every order)
        self._after_hooks = tuple(
            hook for spec in by_step.values() if (hook := spec.after_every_order) is not None
        )
        self._defaults: Mapping[DecisionKind, DefaultAnswer] = MappingProxyType(defaults)
        self.spec = StepSpec(
            "turn",
            accepts=(
                Accepts(StartCampaign, self.handle_start_campaign, Giver.UMPIRE),
                Accepts(EndStep, self.handle_end_step),
                Accepts(UmpireAdvance, self.handle_umpire_advance, Giver.UMPIRE),
                Accepts(ForfeitTurn, self.handle_forfeit_turn, Giver.UMPIRE),
                Accepts(umpire_step.SetStep, self.handle_set_step, Giver.UMPIRE),
            ),
        )

    @property
    def steps(self) -> Mapping[Step, StepSpec]:
        """The spec of every step, read-only."""
        return self._steps

    @property
    def default_kinds(self) -> tuple[DecisionKind, ...]:
        """The kinds of decision that have a default answer (R-PBP-DEAD-04), sorted."""
        return tuple(sorted(self._defaults))

    # ----------------------------------------------------------------------- handlers

    def handle_start_campaign(
        self, state: GameState, order: Order, ruleset: Ruleset, dice: Dice
    ) -> list[Event]:
        """Begin game round 1 and run to the first step that waits (R-TURN-01, R-TURN-06).

        Raises:
            RuleViolation: the campaign has already started.
        """
        if state.round != 0 or state.active is not None:
            raise RuleViolation(
                f"The campaign has already started (game round {state.round}).",
                rule="R-TURN-01",
                allowed="carry on with the current turn",
            )
        events: list[Event] = []
        self._begin_next_turn(state, ruleset, events)
        self._run(state, ruleset, dice, events)
        return events

    def handle_end_step(
        self, state: GameState, order: Order, ruleset: Ruleset, dice: Dice
    ) -> list[Event]:
        """End the active faction's current step early and run on to the next waiting step
        (R-TURN-02).

        Raises:
            RuleViolation: whatever the step's leaving work refuses (for example an unfinished
                battle in step 7).
        """
        return self.end_current_step(state, ruleset, dice, by_umpire=False)

    def handle_umpire_advance(
        self, state: GameState, order: Order, ruleset: Ruleset, dice: Dice
    ) -> list[Event]:
        """Answer the oldest pending decision by default, or do the step's default work (in
        step 7, fight the next due battle: R-COMBAT-02), or else end the current step as a pass
        (R-PBP-DEAD-03, R-PBP-DEAD-04). With ``order.decision_id`` set, answer that decision by
        default and do nothing else (R-PBP-DEAD-04: a missed reaction deadline settles only the
        decision it was for).

        Raises:
            RuleViolation: ``order.faction`` is not the active faction (the turn has moved on);
                ``order.decision_id`` is not pending (already answered); or the decision is of
                a kind with no known default (:meth:`answer_by_default`).
        """
        assert isinstance(order, UmpireAdvance)
        _check_active(state, order.faction)
        if order.decision_id is not None:
            named = next((d for d in state.pending if d.id == order.decision_id), None)
            if named is None:
                waiting = ", ".join(f"{d.id} ({d.faction}, {d.kind})" for d in state.pending)
                raise RuleViolation(
                    f"Decision {order.decision_id} is no longer pending: it has been answered.",
                    rule="R-PBP-DEAD-04",
                    allowed=f"pending decisions: {waiting}" if waiting else "nothing is pending",
                )
            answered: list[Event] = [DecisionDefaulted(named.faction, named.id, named.kind)]
            return answered + self.answer_by_default(state, ruleset, dice, named)
        if state.pending:
            decision = state.pending[0]
            events: list[Event] = [DecisionDefaulted(decision.faction, decision.id, decision.kind)]
            return events + self.answer_by_default(state, ruleset, dice, decision)
        played = self._play_by_default(state, ruleset, dice)
        if played is not None:
            return played
        return self.end_current_step(state, ruleset, dice, by_umpire=True)

    def handle_set_step(
        self, state: GameState, order: Order, ruleset: Ruleset, dice: Dice
    ) -> list[Event]:
        """Move the turn under way on to a later step, as ``UmpireAdvance`` after
        ``UmpireAdvance`` would (R-PBP-UMP-01, R-PBP-DEAD-04; :mod:`.umpire_step`).

        Raises:
            RuleViolation: see :func:`caedes_bot.rules.umpire_step.set_step`.
        """
        assert isinstance(order, umpire_step.SetStep)

        def advance(now: GameState) -> list[Event]:
            moved = self.handle_umpire_advance(now, UmpireAdvance(now.active or ""), ruleset, dice)
            return moved + self.after_every_order(now, ruleset, dice)

        return umpire_step.set_step(state, order, advance)

    def handle_forfeit_turn(
        self, state: GameState, order: Order, ruleset: Ruleset, dice: Dice
    ) -> list[Event]:
        """The active faction missed its turn deadline: play the rest of its turn passively
        (R-PBP-DEAD-03) as far as it goes without another faction's answer.

        Raises:
            RuleViolation: ``order.faction`` is not the active faction; or the turn is already
                passive and waits for another faction's decision (R-PBP-DEAD-04).
        """
        faction = _check_active(state, order.faction)
        events: list[Event] = []
        if not state.passive:
            state.passive = True
            events.append(TurnForfeited(faction, state.round, state.step))
        events += self.continue_passive_turn(state, ruleset, dice)
        if not events:
            waiting = sorted({d.faction for d in state.pending})
            raise RuleViolation(
                f"{faction}'s turn is already played passively; it waits for "
                f"{', '.join(waiting) or 'nobody'} to answer.",
                rule="R-PBP-DEAD-04",
                allowed="wait for that answer or its reaction deadline (UmpireAdvance answers it)",
            )
        return events

    # ----------------------------------------------------------------------- the engine's calls

    def settle(
        self, state: GameState, ruleset: Ruleset, dice: Dice, result: Handled
    ) -> list[Event]:
        """The events of a handler's ``result``: as they are, or, for a
        :class:`~caedes_bot.rules.steps.StepDone`, followed by the end of the current step and
        the steps after it up to the next that waits (R-TURN-02). Mutates ``state``."""
        if isinstance(result, StepDone):
            return result.events + self.end_current_step(
                state, ruleset, dice, by_umpire=result.by_umpire
            )
        return result

    def continue_passive_turn(self, state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
        """Play a passive turn on (R-PBP-DEAD-03): answer the active faction's own decisions by
        default, do each step's default work (fight due battles in order of space name,
        R-COMBAT-02), end every step, until the turn is over or a decision owed by another
        faction waits (R-PBP-DEAD-04). Does nothing unless ``state.passive``. The engine calls
        it after every order. Mutates ``state``."""
        events: list[Event] = []
        faction = state.active
        answered: set[int] = set()
        while state.passive and not state.finished and faction is not None:
            if state.active != faction:
                break
            own = next((d for d in state.pending if d.faction == faction), None)
            if own is not None:
                if own.id in answered:  # a default answer that left its decision open: a bug
                    raise RuleViolation(
                        f"The default answer to decision {own.id} ({own.kind}) did not settle it.",
                        rule="R-PBP-DEAD-04",
                    )
                answered.add(own.id)
                events.append(DecisionDefaulted(own.faction, own.id, own.kind))
                events += self.answer_by_default(state, ruleset, dice, own)
                continue
            if state.pending:
                break  # another faction's answer is owed (R-PBP-DEAD-04)
            played = self._play_by_default(state, ruleset, dice)
            if played is not None:
                events += played
                continue
            under_way = self._steps[state.step].under_way
            if under_way is not None and under_way(state):
                break  # work under way that waits for nothing cannot be moved on here
            events += self.end_current_step(state, ruleset, dice, by_umpire=True)
        return events

    def answer_by_default(
        self, state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
    ) -> list[Event]:
        """Answer ``decision`` with the documented default for its kind (R-PBP-DEAD-04: the
        ``defaults`` of the step that asks it) and run on from there. Mutates ``state``;
        returns the events (without :class:`DecisionDefaulted`).

        Raises:
            RuleViolation: no default is known for ``decision.kind``, or the decision is out of
                date (it belongs to a battle or step that is over).
        """
        answer = self._defaults.get(decision.kind)
        if answer is None:
            known = ", ".join(sorted(self._defaults))
            raise RuleViolation(
                f"The bot knows no default answer for decision {decision.id} of {decision.faction} "
                f"(kind '{decision.kind}').",
                rule="R-PBP-DEAD-04",
                allowed=f"{decision.faction} answers it, or the umpire overrides the state; "
                f"defaults exist for: {known}",
            )
        events = self.settle(state, ruleset, dice, answer(state, ruleset, dice, decision))
        return events + self.resume_turn_start(state, ruleset, dice)

    def resume_turn_start(self, state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
        """Once the last turn-start ``mercenaries`` decision is answered (R-TURN-04,
        R-ATTR-MERC-01): the rest of the turn-start checks, then the turn begins and runs to
        its first step that waits (or, if its faction was eliminated meanwhile, the next
        faction's turn begins). Does nothing while the turn's start does not wait or an answer
        is still owed. Mutates ``state``; returns the events."""
        if not state.turn_start_waits or turn_start_waiting(state):
            return []
        state.turn_start_waits = False
        events = turn_start_rest(state, ruleset)
        if state.finished:
            return events
        faction = active_faction(state)
        if not self._enter_turn(state, faction, events):
            self._begin_next_turn(state, ruleset, events)
        self._run(state, ruleset, dice, events)
        return events

    def after_every_order(self, state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
        """What must hold across every order: a turn whose start waited for Mercenary choices
        begins once they are answered (R-ATTR-MERC-01); a passive turn plays on once another
        faction has answered (R-PBP-DEAD-03); then each step's ``after_every_order`` (the
        income record of R-COLL-04). Mutates ``state``; returns the events."""
        events = self.resume_turn_start(state, ruleset, dice) if state.turn_start_waits else []
        if state.passive:
            events += self.continue_passive_turn(state, ruleset, dice)
        events += dependants.after_every_order(state, ruleset)  # R-ATTR-UNDEAD-03, R-FEAL-03
        for hook in self._after_hooks:
            hook(state)
        return events

    def end_current_step(
        self, state: GameState, ruleset: Ruleset, dice: Dice, *, by_umpire: bool
    ) -> list[Event]:
        """End the current step (its leaving work, then :class:`StepEnded`) and run the steps
        after it up to the next that waits. Mutates ``state``.

        Raises:
            RuleViolation: whatever the step's leaving work refuses.
        """
        events: list[Event] = []
        self._leave_step(state, ruleset, dice, events, by_umpire=by_umpire)
        self._next_step(state, ruleset, events)
        self._run(state, ruleset, dice, events)
        return events

    # ----------------------------------------------------------------------- machinery

    def _play_by_default(
        self, state: GameState, ruleset: Ruleset, dice: Dice
    ) -> list[Event] | None:
        play = self._steps[state.step].play_by_default
        return None if play is None else play(state, ruleset, dice)

    def _waits(self, state: GameState, spec: StepSpec) -> bool:
        """Whether the step of ``spec``, just begun, waits for the active faction."""
        if spec.waits is None:
            return False
        if state.passive and not spec.waits_when_passive:  # R-PBP-DEAD-03: nothing to wait for
            return False
        return spec.waits(state)

    def _run(self, state: GameState, ruleset: Ruleset, dice: Dice, events: list[Event]) -> None:
        """From a step that has just begun, run steps until one waits or the campaign ends (or
        a turn's start waits for Mercenary choices, R-ATTR-MERC-01)."""
        while not state.finished and state.active is not None and not state.turn_start_waits:
            spec = self._steps[state.step]
            if spec.on_enter is not None:
                events += spec.on_enter(state, ruleset, dice)
            if self._waits(state, spec):
                return
            self._leave_step(state, ruleset, dice, events, by_umpire=False)
            self._next_step(state, ruleset, events)

    def _leave_step(
        self,
        state: GameState,
        ruleset: Ruleset,
        dice: Dice,
        events: list[Event],
        *,
        by_umpire: bool,
    ) -> None:
        hook = self._steps[state.step].on_leave
        if hook is not None:
            events += hook(state, ruleset, dice)
        events.append(StepEnded(active_faction(state), state.round, state.step, by_umpire))

    def _next_step(self, state: GameState, ruleset: Ruleset, events: list[Event]) -> None:
        faction = active_faction(state)
        order = steps_in_order(ruleset.step_order)
        at = order.index(state.step)
        if at + 1 < len(order):
            state.step = order[at + 1]
            events.append(StepBegan(faction, state.round, state.step))
            return
        events += collect.end_of_turn(state, ruleset, faction)
        events.append(TurnEnded(faction, state.round))
        self._begin_next_turn(state, ruleset, events)

    def _begin_next_turn(self, state: GameState, ruleset: Ruleset, events: list[Event]) -> None:
        """Begin the next faction's turn, advancing the game round or ending the campaign."""
        first = steps_in_order(ruleset.step_order)[0]
        after = state.active
        state.passive = False  # a missed deadline makes only the rest of that turn passive
        if state.round == 0:
            state.round = 1
            events.append(GameRoundBegan(1))
        while True:
            faction = _next_faction(state, after)
            if faction is None:
                if _next_faction(state, None) is None:
                    events += victory.end_campaign(state, ruleset, reason="no_factions")
                    return
                if state.turn_limit is not None and state.round >= state.turn_limit:
                    events += victory.end_campaign(state, ruleset, reason="turn_limit")
                    return
                state.round += 1
                events.append(GameRoundBegan(state.round))
                after = None
                continue
            state.active = faction
            state.step = first
            events += turn_start_checks(state, ruleset)
            if state.finished or state.turn_start_waits:
                return
            if not self._enter_turn(state, faction, events):
                after = faction
                continue
            return

    def _enter_turn(self, state: GameState, faction: str, events: list[Event]) -> bool:
        """Begin ``faction``'s turn once its start checks are done: ``False`` (nothing done)
        if it was eliminated by them (R-VIC-05)."""
        if state.factions[faction].eliminated:
            return False
        fs = state.factions[faction]
        fs.turns_taken += 1
        reset_movement(state, faction)
        collect.begin_turn_holdings(state, faction)
        events.append(TurnBegan(faction, state.round, fs.turns_taken))
        events.append(StepBegan(faction, state.round, state.step))
        return True


# --------------------------------------------------------------------------- helpers


def _check_active(state: GameState, faction: str) -> str:
    """``faction`` if it is the active faction (orders for a missed deadline, R-PBP-DEAD-03)."""
    if faction != state.active:
        raise RuleViolation(
            f"{faction} is not the active faction; {state.active or 'nobody'} is playing.",
            rule="R-PBP-DEAD-03",
            allowed=f"advance {state.active}" if state.active else "start the campaign",
        )
    return faction


def _next_faction(state: GameState, after: str | None) -> str | None:
    """The next faction in turn order after ``after`` (from the first if ``None``) that is
    not eliminated, or ``None`` if the game round has no more turns (R-TURN-01)."""
    order = state.in_play
    start = 0 if after is None else order.index(after) + 1
    for code in order[start:]:
        if not state.factions[code].eliminated:
            return code
    return None


def turn_start_checks(state: GameState, ruleset: Ruleset) -> list[Event]:
    """The checks at the very start of every turn (R-TURN-04): the Mercenary check for every
    faction in every space (R-ATTR-MERC-01), then the elimination check (R-VIC-05), then
    military victory (R-VIC-01) and the scenario's own (R-VIC-06). Between them, agreed pact changes take effect (R-ALLY-02,
    R-FEAL-01) and neighbourhood is judged again when due (R-PBP-NEG-03); diplomatic victory
    (R-VIC-02) is judged last. Undead and Summoned units whose last Necromancer or Summoner
    deserted go with it before the elimination check (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03).
    Option changes the umpire made take effect first (R-SETUP-04), then the scenario's events
    due now happen (R-SETUP-01).
    When a faction is asked which Mercenaries desert (R-ATTR-MERC-01), the checks stop there
    with ``state.turn_start_waits`` set; :func:`turn_start_rest` runs the others once the
    answers are in. Mutates ``state``; returns the events."""
    events = umpire_game.apply_pending(state)
    events += scenario_events.fire_due(state, ruleset)
    events += mercenary_check(state, ruleset)
    if turn_start_waiting(state):
        state.turn_start_waits = True
        return events
    return events + turn_start_rest(state, ruleset)


def turn_start_rest(state: GameState, ruleset: Ruleset) -> list[Event]:
    """The turn-start checks after the Mercenary check (R-TURN-04): Undead and Summoned units
    whose master deserted go, elimination (R-VIC-05), agreed pact changes, neighbours, and the
    victories (see :func:`turn_start_checks`). Mutates ``state``; returns the events."""
    events = dependants.lose_bound_units(state, ruleset)[0]
    events += victory.elimination_check(state, ruleset)
    events += pacts.apply_agreed(state)
    events += diplomacy.judge_neighbours(state, ruleset)
    events += victory.check_military_victory(state, ruleset)
    events += victory.check_scenario_victory(state, ruleset)
    events += victory.check_diplomatic_victory(state, ruleset)
    return events


def reset_movement(state: GameState, faction: str) -> None:
    """Give every unit of ``faction`` fresh movement bookkeeping for its turn (R-MOVE-01,
    R-MOVE-22: units mustered last turn may move again)."""
    for unit in state.units.values():
        if unit.owner == faction:
            unit.movement_used = 0
            unit.move_ended = False
            unit.entered_from = None
            unit.path = []
            unit.attacking = False
            unit.flew = False
            unit.embarked = False
            unit.landed = False
