"""The one entry point of the rules: ``apply(state, order, ruleset, dice) -> Outcome``.

``apply`` never changes the state it is given. It clones it, checks once that the order may be
given now (whose turn, which step: R-TURN-02, R-TURN-03), dispatches to the handler of the
order's class, and returns the new state with the events that happened. A refused order raises
a :class:`~caedes_bot.rules.errors.RuleViolation` and changes nothing.

Handlers live beside their rules (``turn.py``, ``buy.py``, ``movement.py``,
``combat/orders.py``, ``muster.py`` ...) and are listed explicitly in :func:`_routes`. A handler has the shape
``(state, order, ruleset, dice) -> list[Event]`` and mutates the clone it receives.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import (
    buy,
    collect,
    movement,
    muster,
    redeem,
    trade,
    turn,
    umpire,
    upkeep,
)
from caedes_bot.rules.combat import orders as combat_orders
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import GameOver, NotYourTurn, RuleViolation, WrongStep
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.steps import Giver

Handler = Callable[[GameState, Order, Ruleset, Dice], list[Event]]


@dataclass(frozen=True, slots=True)
class Route:
    """How an order class is checked and handled.

    Attributes:
        handler: the function applying it.
        steps: the steps in which it may be given; empty = any step.
        giver: who may give it (:class:`~caedes_bot.rules.steps.Giver`); only an ``ACTIVE``
            order is checked here against the turn (R-TURN-03). Reactions (casualty choices,
            trade answers) are checked by their handler, umpire orders by the service.
    """

    handler: Handler
    steps: tuple[Step, ...] = ()
    giver: Giver = Giver.ACTIVE

    @property
    def active_only(self) -> bool:
        """Only the active faction may give it (R-TURN-03)."""
        return self.giver is Giver.ACTIVE


@dataclass(frozen=True, slots=True)
class Outcome:
    """What :func:`apply` returns: the new state and the events, in the order they happened."""

    state: GameState
    events: tuple[Event, ...]


@cache
def _routes() -> Mapping[type[Order], Route]:
    """The dispatch table, built once and read-only."""
    table: dict[type[Order], Route] = {}
    # The turn (R-TURN), collect/upkeep/buy (R-COLL, R-UPK, R-BUY) and muster (R-MUSTER).
    table[turn.StartCampaign] = Route(turn.handle_start_campaign, giver=Giver.UMPIRE)
    table[turn.EndStep] = Route(turn.handle_end_step)
    table[turn.UmpireAdvance] = Route(turn.handle_umpire_advance, giver=Giver.UMPIRE)
    table[turn.ForfeitTurn] = Route(turn.handle_forfeit_turn, giver=Giver.UMPIRE)
    # Upkeep, step 4 (R-UPK-02, R-UPK-03); DisbandUnits refuses other steps with R-UPK-02.
    table[upkeep.DisbandUnits] = Route(turn.handle_disband_units)
    table[upkeep.PayUpkeep] = Route(turn.handle_pay_upkeep, (Step.UPKEEP,))
    table[buy.BuyUnits] = Route(buy.handle_buy_units, (Step.BUY,))
    table[buy.CancelPurchase] = Route(buy.handle_cancel_purchase, (Step.BUY,))
    table[muster.MusterUnits] = Route(muster.handle_muster_units, (Step.MUSTER,))
    # Trade, step 1 (R-TRADE-01..04); answers are reactions by the counterparty.
    table[trade.ProposeTrade] = Route(trade.handle_propose, (Step.TRADE,))
    table[trade.WithdrawTrade] = Route(trade.handle_withdraw, (Step.TRADE,))
    table[trade.AcceptTrade] = Route(trade.handle_accept, (Step.TRADE,), giver=Giver.REACTION)
    table[trade.DeclineTrade] = Route(trade.handle_decline, (Step.TRADE,), giver=Giver.REACTION)
    # Redeem, step 2; step 5 before the first purchase with redeem_fresh_commodities (R-COMM-02).
    redeem_steps = (Step.REDEEM, Step.BUY)
    table[redeem.RedeemSets] = Route(redeem.handle_redeem_sets, redeem_steps)
    table[redeem.RedeemIron] = Route(redeem.handle_redeem_iron, redeem_steps)
    table[redeem.RedeemSalt] = Route(redeem.handle_redeem_salt, redeem_steps)
    table[redeem.Earmark] = Route(redeem.handle_earmark, redeem_steps)
    # Movement, step 6 (R-MOVE), and combat, step 7 (R-COMBAT); casualty choices are reactions.
    table[movement.MoveUnits] = Route(movement.handle_move_units, (Step.MOVE,))
    table[combat_orders.FightBattle] = Route(combat_orders.handle_fight_battle, (Step.COMBAT,))
    table[combat_orders.AssignCasualties] = Route(
        combat_orders.handle_assign_casualties, (Step.COMBAT,), giver=Giver.REACTION
    )
    table[combat_orders.PressOn] = Route(combat_orders.handle_press_on, (Step.COMBAT,))
    table[combat_orders.Withdraw] = Route(combat_orders.handle_withdraw, (Step.COMBAT,))
    # Umpire overrides, any step, anyone's turn (R-PBP-UMP-01); umpire-only in the service.
    table[umpire.SetRP] = Route(umpire.handle_set_rp, giver=Giver.UMPIRE)
    table[umpire.SetCommodity] = Route(umpire.handle_set_commodity, giver=Giver.UMPIRE)
    table[umpire.SetOwner] = Route(umpire.handle_set_owner, giver=Giver.UMPIRE)
    return MappingProxyType(table)


def giver_of(order_type: type[Order]) -> Giver | None:
    """Who may give orders of ``order_type`` (R-TURN-03, R-PBP-UMP-01), as the rules declare
    it; ``None`` for a class the rules do not know (:func:`apply` refuses such an order)."""
    route = _routes().get(order_type)
    return None if route is None else route.giver


def _wrong_step(order: Order, steps: tuple[Step, ...], now: Step) -> WrongStep:
    """The refusal of ``order`` in step ``now``, in a player's words (R-TURN-02): "Buying units
    is step 5 Buy; the turn is at step 1 Trade." with what is allowed: going on to the step
    ahead, or nothing more this turn once it is over (steps never come back)."""
    named = " or ".join(f"step {s.label}" for s in steps)
    ahead = [s for s in steps if s > now]
    if ahead:
        allowed = f"end the steps before it (Done or /done) to reach step {ahead[0].label}"
    else:
        gone = " and ".join(f"step {s.label}" for s in steps)
        over = "is over" if len(steps) == 1 else "are over"
        allowed = f"nothing this turn: {gone} {over}, and steps never come back"
    return WrongStep(f"{order.label} is {named}; the turn is at step {now.label}.", allowed=allowed)


def _after_every_order(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """What must hold across every order: a passive turn plays on once another faction has
    answered (R-PBP-DEAD-03); the income record stays true (R-COLL-04)."""
    events = turn.continue_passive_turn(state, ruleset, dice)
    collect.refresh_income_basis(state)
    return events


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
        RuleViolation: the active faction's own order in a passive turn (R-PBP-DEAD-03); any
            other rule that refuses the order.
    """
    if state.finished:
        raise GameOver("The campaign is over; no more orders are taken.")
    route = _routes().get(type(order))
    if route is None:
        raise RuleViolation(f"The order {type(order).__name__} is not known to the rules.")
    if route.active_only and order.faction != state.active:
        active = state.active or "nobody"
        raise NotYourTurn(
            f"It is not {order.faction}'s turn; {active} is playing.",
            allowed="wait for your turn, or answer the decisions asked of you",
        )
    if state.passive and route.active_only and order.faction == state.active:
        raise RuleViolation(
            f"{order.faction} missed its turn deadline: the bot plays the rest of this turn "
            "passively.",
            rule="R-PBP-DEAD-03",
            allowed="wait for your next turn; answer any decision asked of you",
        )
    if route.steps and state.step not in route.steps:
        raise _wrong_step(order, route.steps, state.step)
    new = state.clone()
    before = dice.count
    events = route.handler(new, order, ruleset, dice)
    events += _after_every_order(new, ruleset, dice)
    new.dice_rolls += dice.count - before
    return Outcome(new, tuple(events))
