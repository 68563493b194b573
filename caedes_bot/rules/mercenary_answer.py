"""The answer to a ``mercenaries`` decision (R-ATTR-MERC-01, R-PBP-DEAD-04): which of a
faction's excess Mercenaries are destroyed, when the choice is a real one
(:mod:`caedes_bot.rules.mercenary`).

* :class:`ChooseMercenaries` (a reaction, from the faction asked, in anyone's turn): exactly as
  many of the Mercenaries listed as must go.
* On a missed reaction deadline the default is applied: the cheapest, ties the most recently
  mustered (:func:`answer_mercenaries_by_default`, R-PBP-DEAD-04).
* At the start of a turn the units simply go; the turn begins once every turn-start answer is
  in (:meth:`caedes_bot.rules.turn.Turn.resume_turn_start`). At the start of a battle round they
  leave the battle, and the round goes on once no decision of the battle is open
  (:func:`caedes_bot.rules.combat.battle.advance`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.battle import advance, end_battle
from caedes_bot.rules.combat.roster import remove_units
from caedes_bot.rules.combat.round_start import waits_on_players
from caedes_bot.rules.dependants import lose_bound_units
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import MercenariesDeserted, check_choice, desert
from caedes_bot.rules.movement import blitz
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    DecisionKind,
    GameState,
    MercenariesDetail,
    PendingDecision,
)
from caedes_bot.rules.steps import Accepts, Giver, StepSpec


@dataclass(frozen=True, slots=True)
class ChooseMercenaries(Order):
    """Answer the ``mercenaries`` decision ``decision_id`` (R-ATTR-MERC-01): ``unit_ids`` are
    the Mercenaries destroyed, exactly as many as must go. A reaction order."""

    label = "Choosing the Mercenaries who desert"

    decision_id: int
    unit_ids: tuple[int, ...]


def _open_decision(state: GameState, faction: str, decision_id: int) -> PendingDecision:
    found = next(
        (
            d
            for d in state.pending
            if d.id == decision_id and d.kind is DecisionKind.MERCENARIES and d.faction == faction
        ),
        None,
    )
    if found is None:
        mine = [
            d.id
            for d in state.pending
            if d.kind is DecisionKind.MERCENARIES and d.faction == faction
        ]
        raise RuleViolation(
            f"{faction} has no Mercenary choice {decision_id} open.",
            rule="R-ATTR-MERC-01",
            allowed=f"the open choice {mine[0]}" if mine else "nothing to choose now",
        )
    return found


def settle_mercenaries(
    state: GameState,
    ruleset: Ruleset,
    dice: Dice,
    decision: PendingDecision,
    unit_ids: Sequence[int],
) -> list[Event]:
    """Destroy ``unit_ids`` for ``decision`` and close it (R-ATTR-MERC-01); in a battle, then
    fight on once no decision of it is open. Mutates ``state``.

    Raises:
        RuleViolation: the decision's battle is over (it cannot be: a battle's decisions are
            dropped with it).
    """
    detail = decision.detail
    assert isinstance(detail, MercenariesDetail)
    state.pending = [d for d in state.pending if d.id != decision.id]
    if detail.battle is None:
        return [desert(state, ruleset, detail, unit_ids)]
    battle = state.battle
    if battle is None or battle.id != detail.battle:
        raise RuleViolation(
            "That battle is over; its Mercenary choice is closed.", rule="R-ATTR-MERC-01"
        )
    fighting = set(battle.attacker_units) | set(battle.defender_units)
    gone = [uid for uid in unit_ids if uid in fighting]
    kinds = {c.id: c.kind for c in detail.candidates}
    events: list[Event] = [
        MercenariesDeserted(
            detail.faction,
            detail.space,
            tuple((uid, kinds[uid]) for uid in gone),
            mercenaries=detail.mercenaries,
            others=detail.others,
        )
    ]
    remove_units(state, battle, gone)
    battle.round_losses = True
    events += lose_bound_units(state, ruleset, battle=battle.id)[0]  # R-ATTR-UNDEAD-03
    if not battle.attacker_units or not battle.defender_units:  # R-COMBAT-07
        events += end_battle(state, ruleset, battle, None)
    elif not waits_on_players(state, battle):
        events += advance(state, ruleset, dice, battle)
    return events + blitz.offer_after_battles(state, ruleset, events)  # R-ATTR-BLITZ-02


def handle_choose_mercenaries(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Answer a ``mercenaries`` decision (R-ATTR-MERC-01); a reaction.

    Raises:
        RuleViolation: no such choice open for the faction, or not exactly as many of the
            Mercenaries listed as must go; nothing changes.
    """
    assert isinstance(order, ChooseMercenaries)
    decision = _open_decision(state, order.faction, order.decision_id)
    detail = decision.detail
    assert isinstance(detail, MercenariesDetail)
    check_choice(detail, order.unit_ids)
    return settle_mercenaries(state, ruleset, dice, decision, order.unit_ids)


def answer_mercenaries_by_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    """A missed reaction deadline: the default Mercenaries go, the cheapest, ties the most
    recently mustered (R-PBP-DEAD-04, R-ATTR-MERC-01)."""
    detail = decision.detail
    assert isinstance(detail, MercenariesDetail)
    return settle_mercenaries(state, ruleset, dice, decision, detail.default)


#: The answer to a Mercenary choice, in any step of anyone's turn (R-ATTR-MERC-01), and its
#: default (R-PBP-DEAD-04).
SPEC = StepSpec(
    "mercenary_choice",
    accepts=(Accepts(ChooseMercenaries, handle_choose_mercenaries, Giver.REACTION, steps=()),),
    defaults={DecisionKind.MERCENARIES: answer_mercenaries_by_default},
)
