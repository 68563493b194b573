"""The turn: game rounds, turn order, the eight steps, and the turn-start checks (R-TURN).

How a campaign runs (R-TURN-01..06):

* ``StartCampaign`` (any faction may give it, usually the umpire's tool; ``active_only`` is
  false) begins game round 1 of a state made by :func:`caedes_bot.rules.setup.new_game`.
* Factions in play take turns in the fixed order of ``GameState.in_play``; eliminated factions
  are skipped. After the last one the game round advances; after the final game round of a
  turn limit the campaign ends with the score of R-VIC-03.
* At the very start of each turn, before step 1, the Mercenary check runs for every faction in
  every space (R-ATTR-MERC-01) and then the elimination check (R-VIC-05); then the active
  faction's units get fresh movement bookkeeping.
* The eight steps follow strictly in order. On entering a step its automatic work runs
  (:data:`_ON_ENTER`); if the step is not in :data:`WAITING_STEPS`, or has nothing to wait for,
  the step ends at once (its leaving work, :data:`_ON_LEAVE`, runs) and the next one begins.
  So an order always leaves the state resting in a step that waits for the active faction.
* ``EndStep`` (active faction) ends the current step early; ``UmpireAdvance`` (umpire, for the
  active faction) either answers the oldest pending decision, of any kind, with its default
  (:data:`DEFAULT_ANSWERS`), or ends the current step as if the faction had passed
  (R-PBP-DEAD-03, R-PBP-DEAD-04).
* ``ForfeitTurn`` (umpire or scheduler, on a missed turn deadline) makes the rest of the turn
  passive (R-PBP-DEAD-03): the faction's own orders are refused, every step passes, Collect
  and Upkeep run with default disbanding, due battles are fought in order of space name with
  the faction's own decisions answered by default, and units already bought are mustered by
  the bot. Decisions owed by other factions are waited for (their reaction deadlines,
  R-PBP-DEAD-04); once answered, the engine plays on (:func:`continue_passive_turn`).

Trade (step 1) waits for the active faction; open offers lapse when it ends
(:mod:`caedes_bot.rules.trade`). Redeem (step 2) waits only if the faction holds a commodity
(:mod:`caedes_bot.rules.redeem`). Collect (step 3) runs by itself. Upkeep (step 4) shows the
bill and waits while the faction has any unit: it may disband units (``DisbandUnits``,
R-UPK-02), then ends the step (``EndStep`` or ``PayUpkeep``), which pays; if RP fall short,
an ``upkeep_disband`` decision is pending and answering it pays and moves on (R-UPK-03; see
:mod:`caedes_bot.rules.upkeep`). Paying stays automatic: whoever or whatever ends step 4,
the bot charges the bill. Movement and combat are reached through
:mod:`caedes_bot.rules.combat.battle`: ``begin_combat_step`` when step 6 ends, ``finish_combat_step``
when step 7 ends, and ``answer_by_default`` for battle decisions (see ``docs/rules-status.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import buy, collect, muster, trade, upkeep, victory
from caedes_bot.rules.combat import battle
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import mercenary_check
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, PendingDecision, Step

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
    kind: str


# --------------------------------------------------------------------------- step table

#: Steps in which the turn waits for the active faction. Steps not listed pass at once after
#: their automatic work. Redeem (2) waits only if the faction holds a commodity, Upkeep (4)
#: only if it has a unit (see _waits). In a passive turn only battles wait (R-PBP-DEAD-03).
WAITING_STEPS: frozenset[Step] = frozenset(
    {Step.TRADE, Step.REDEEM, Step.UPKEEP, Step.BUY, Step.MOVE, Step.COMBAT, Step.MUSTER}
)

StepHook = Callable[[GameState, Ruleset, Dice], list[Event]]


def _collect(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return collect.collect(state, ruleset, _active(state))


def _open_upkeep(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    # R-UPK-01: show the bill; R-UPK-03: ask who goes if RP fall short (not when passive)
    return upkeep.open_upkeep(state, ruleset, _active(state), ask=not state.passive)


def _pay_upkeep(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    faction = _active(state)
    decision = upkeep.upkeep_decision(state, faction)
    if decision is not None:
        detail = decision.detail
        raise RuleViolation(
            f"Upkeep is {detail.get('bill')} RP and you have {detail.get('rp')} RP: choose "
            f"the units to disband first (at least {detail.get('must_disband_at_least')} of "
            "those that count).",
            rule="R-UPK-03",
            allowed="DisbandUnits with the units to disband (the default choice is preselected)",
        )
    return upkeep.pay_upkeep(state, ruleset, faction)


def _begin_muster(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return muster.begin_muster_step(state, ruleset)


def _end_trade(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return trade.lapse_trades(state)  # R-TRADE-02: open offers lapse when step 1 ends


def _end_buy(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return buy.end_buy_step(state, _active(state))


def _end_move(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return battle.begin_combat_step(state, ruleset)


def _end_combat(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return battle.finish_combat_step(state, ruleset)


def _end_muster(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return muster.place_remaining(state, ruleset, _active(state))


#: Automatic work when a step begins (R-TURN-02: Collect and Upkeep run by themselves).
_ON_ENTER: dict[Step, StepHook] = {
    Step.COLLECT: _collect,
    Step.UPKEEP: _open_upkeep,
    Step.MUSTER: _begin_muster,
}

#: Work when a step ends, whether the faction ended it or it passed at once.
_ON_LEAVE: dict[Step, StepHook] = {
    Step.TRADE: _end_trade,
    Step.UPKEEP: _pay_upkeep,
    Step.BUY: _end_buy,
    Step.MOVE: _end_move,
    Step.COMBAT: _end_combat,
    Step.MUSTER: _end_muster,
}


def _waits(state: GameState, step: Step) -> bool:
    """Whether ``step``, just begun, waits for the active faction."""
    if step not in WAITING_STEPS:
        return False
    if state.passive and step is not Step.COMBAT:  # R-PBP-DEAD-03: nothing to wait for
        return False
    if step is Step.UPKEEP:  # R-UPK-02: a faction with units may disband some first
        return bool(state.units_of(_active(state)))
    if step is Step.COMBAT:
        return bool(state.battles_due) or state.battle is not None or bool(state.pending)
    if step is Step.MUSTER:
        return bool(state.factions[_active(state)].purchases)
    if step is Step.REDEEM:  # nothing to redeem without a commodity (R-COMM-02)
        return any(n > 0 for n in state.factions[_active(state)].commodities.values())
    return True


# --------------------------------------------------------------------------- handlers


def handle_start_campaign(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
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
    _begin_next_turn(state, ruleset, events)
    _run(state, ruleset, dice, events)
    return events


def handle_end_step(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """End the active faction's current step early and run on to the next waiting step
    (R-TURN-02).

    Raises:
        RuleViolation: whatever the step's leaving work refuses (for example an unfinished
            battle in step 7).
    """
    return _end_current_step(state, ruleset, dice, by_umpire=False)


def handle_umpire_advance(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Answer the oldest pending decision by default, or, in step 7, fight the next due battle
    (R-COMBAT-02), or else end the current step as a pass (R-PBP-DEAD-03, R-PBP-DEAD-04).
    With ``order.decision_id`` set, answer that decision by default and do nothing else
    (R-PBP-DEAD-04: a missed reaction deadline settles only the decision it was for).

    Raises:
        RuleViolation: ``order.faction`` is not the active faction (the turn has moved on);
            ``order.decision_id`` is not pending (already answered); or the decision is of a
            kind with no known default (:func:`answer_by_default`).
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
        return answered + answer_by_default(state, ruleset, dice, named)
    if state.pending:
        decision = state.pending[0]
        events: list[Event] = [DecisionDefaulted(decision.faction, decision.id, decision.kind)]
        return events + answer_by_default(state, ruleset, dice, decision)
    if state.step is Step.COMBAT and state.battle is None and state.battles_due:
        return battle.fight_default_battle(state, ruleset, dice)  # R-COMBAT-02
    return _end_current_step(state, ruleset, dice, by_umpire=True)


def handle_forfeit_turn(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
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
    events += continue_passive_turn(state, ruleset, dice)
    if not events:
        waiting = sorted({d.faction for d in state.pending})
        raise RuleViolation(
            f"{faction}'s turn is already played passively; it waits for "
            f"{', '.join(waiting) or 'nobody'} to answer.",
            rule="R-PBP-DEAD-04",
            allowed="wait for that answer or its reaction deadline (UmpireAdvance answers it)",
        )
    return events


def continue_passive_turn(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Play a passive turn on (R-PBP-DEAD-03): answer the active faction's own decisions by
    default, fight due battles in order of space name (R-COMBAT-02), end every step, until the
    turn is over or a decision owed by another faction waits (R-PBP-DEAD-04). Does nothing
    unless ``state.passive``. The engine calls it after every order. Mutates ``state``."""
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
            events += answer_by_default(state, ruleset, dice, own)
        elif state.pending:
            break  # another faction's answer is owed (R-PBP-DEAD-04)
        elif state.step is Step.COMBAT and state.battle is None and state.battles_due:
            events += battle.fight_default_battle(state, ruleset, dice)
        elif state.step is Step.COMBAT and state.battle is not None:
            break  # a battle that waits for nothing cannot be moved on here
        else:
            events += _end_current_step(state, ruleset, dice, by_umpire=True)
    return events


def handle_pay_upkeep(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """End step 4 and pay the bill (R-UPK-01); the engine allows it in step 4 only.

    Raises:
        RuleViolation: an ``upkeep_disband`` decision is pending (R-UPK-03): units must be
            chosen first.
    """
    return _end_current_step(state, ruleset, dice, by_umpire=False)


def handle_disband_units(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Disband units in step 4 (R-UPK-02, R-UPK-03; see :class:`upkeep.DisbandUnits`).

    Without a pending ``upkeep_disband`` decision the units go and step 4 stays open, showing
    the new bill. With one, the units named must make the bill payable; then the bill is paid
    and the turn runs on to the next step that waits.

    Raises:
        RuleViolation: outside step 4 (R-UPK-02); a unit that is not the faction's or not on
            the board; too few units to make the bill payable (R-UPK-03).
    """
    assert isinstance(order, upkeep.DisbandUnits)
    if state.step is not Step.UPKEEP:
        when = (
            "in step 4 of this turn" if state.step < Step.UPKEEP else "in step 4 of your next turn"
        )
        raise RuleViolation(
            f"Units may be disbanded only in step 4 (Upkeep), before the bill is paid; "
            f"this is step {state.step.label}.",
            rule="R-UPK-02",
            allowed=f"disband {when}",
        )
    decision = upkeep.upkeep_decision(state, order.faction)
    if decision is None:
        return upkeep.disband_voluntarily(state, ruleset, order.faction, order.unit_ids)
    events = upkeep.answer_upkeep_disband(state, ruleset, decision, order.unit_ids)
    return events + _end_current_step(state, ruleset, dice, by_umpire=False)


# --------------------------------------------------------------------------- default answers

#: How a pending decision of one kind is answered by default (R-PBP-DEAD-04).
DefaultAnswer = Callable[[GameState, Ruleset, Dice, PendingDecision], list[Event]]


def _battle_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    return battle.answer_by_default(state, ruleset, dice, decision)


def _upkeep_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    """R-UPK-03: the bot's disbanding order, then the bill is paid and step 4 ends."""
    if state.step is not Step.UPKEEP or decision.faction != state.active:
        raise RuleViolation(
            f"The upkeep decision {decision.id} of {decision.faction} is out of date.",
            rule="R-PBP-DEAD-04",
        )
    events = upkeep.answer_upkeep_by_default(state, ruleset, decision)
    return events + _end_current_step(state, ruleset, dice, by_umpire=True)


#: Decision kind -> its default answer (R-PBP-DEAD-04): casualties (R-COMBAT-06) and no
#: withdrawal (R-COMBAT-08) through :func:`battle.answer_by_default`; upkeep disbanding in the
#: bot's order (R-UPK-03).
DEFAULT_ANSWERS: dict[str, DefaultAnswer] = {
    "casualties": _battle_default,
    "press_or_withdraw": _battle_default,
    upkeep.UPKEEP_DISBAND: _upkeep_default,
}


def answer_by_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    """Answer ``decision`` with the documented default for its kind (R-PBP-DEAD-04) and run on
    from there. Mutates ``state``; returns the events (without :class:`DecisionDefaulted`).

    Raises:
        RuleViolation: no default is known for ``decision.kind``, or the decision is out of
            date (it belongs to a battle or step that is over).
    """
    answer = DEFAULT_ANSWERS.get(decision.kind)
    if answer is None:
        known = ", ".join(sorted(DEFAULT_ANSWERS))
        raise RuleViolation(
            f"The bot knows no default answer for decision {decision.id} of {decision.faction} "
            f"(kind '{decision.kind}').",
            rule="R-PBP-DEAD-04",
            allowed=f"{decision.faction} answers it, or the umpire overrides the state; "
            f"defaults exist for: {known}",
        )
    return answer(state, ruleset, dice, decision)


# --------------------------------------------------------------------------- machinery


def _active(state: GameState) -> str:
    if state.active is None:
        raise RuleViolation("No faction is playing.", rule="R-TURN-01")
    return state.active


def _check_active(state: GameState, faction: str) -> str:
    """``faction`` if it is the active faction (orders for a missed deadline, R-PBP-DEAD-03)."""
    if faction != state.active:
        raise RuleViolation(
            f"{faction} is not the active faction; {state.active or 'nobody'} is playing.",
            rule="R-PBP-DEAD-03",
            allowed=f"advance {state.active}" if state.active else "start the campaign",
        )
    return faction


def _end_current_step(
    state: GameState, ruleset: Ruleset, dice: Dice, *, by_umpire: bool
) -> list[Event]:
    events: list[Event] = []
    _leave_step(state, ruleset, dice, events, by_umpire=by_umpire)
    _next_step(state, ruleset, events)
    _run(state, ruleset, dice, events)
    return events


def _run(state: GameState, ruleset: Ruleset, dice: Dice, events: list[Event]) -> None:
    """From a step that has just begun, run steps until one waits or the campaign ends."""
    while not state.finished and state.active is not None:
        hook = _ON_ENTER.get(state.step)
        if hook is not None:
            events += hook(state, ruleset, dice)
        if _waits(state, state.step):
            return
        _leave_step(state, ruleset, dice, events, by_umpire=False)
        _next_step(state, ruleset, events)


def _leave_step(
    state: GameState, ruleset: Ruleset, dice: Dice, events: list[Event], *, by_umpire: bool
) -> None:
    hook = _ON_LEAVE.get(state.step)
    if hook is not None:
        events += hook(state, ruleset, dice)
    events.append(StepEnded(_active(state), state.round, state.step, by_umpire))


def _next_step(state: GameState, ruleset: Ruleset, events: list[Event]) -> None:
    faction = _active(state)
    if state.step is not Step.MUSTER:
        state.step = Step(state.step + 1)
        events.append(StepBegan(faction, state.round, state.step))
        return
    events += collect.end_of_turn(state, ruleset, faction)
    events.append(TurnEnded(faction, state.round))
    _begin_next_turn(state, ruleset, events)


def _next_faction(state: GameState, after: str | None) -> str | None:
    """The next faction in turn order after ``after`` (from the first if ``None``) that is
    not eliminated, or ``None`` if the game round has no more turns (R-TURN-01)."""
    order = state.in_play
    start = 0 if after is None else order.index(after) + 1
    for code in order[start:]:
        if not state.factions[code].eliminated:
            return code
    return None


def _begin_next_turn(state: GameState, ruleset: Ruleset, events: list[Event]) -> None:
    """Begin the next faction's turn, advancing the game round or ending the campaign."""
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
        state.step = Step.TRADE
        events += turn_start_checks(state, ruleset)
        if state.finished:
            return
        if state.factions[faction].eliminated:
            after = faction
            continue
        fs = state.factions[faction]
        fs.turns_taken += 1
        reset_movement(state, faction)
        collect.begin_turn_holdings(state, faction)
        events.append(TurnBegan(faction, state.round, fs.turns_taken))
        events.append(StepBegan(faction, state.round, Step.TRADE))
        return


def turn_start_checks(state: GameState, ruleset: Ruleset) -> list[Event]:
    """The checks at the very start of every turn (R-TURN-04): the Mercenary check for every
    faction in every space (R-ATTR-MERC-01), then the elimination check (R-VIC-05), then
    military victory (R-VIC-01). Mutates ``state``; returns the events."""
    events = mercenary_check(state, ruleset)
    events += victory.elimination_check(state, ruleset)
    events += victory.check_military_victory(state, ruleset)
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
