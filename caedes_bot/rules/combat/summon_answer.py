"""The answer to a ``summons`` decision, asked as a round of a battle begins (R-MAGIC-SUMM-01,
R-COMBAT-03, R-PBP-DEAD-04): the units summoned join the battle at once, on the side of the
faction asked, paid at full cost outside its own turn (R-COMM-11). The offer itself is
:func:`caedes_bot.rules.summons.offer_summons`, a slot of the round-start phase.

* :class:`AnswerSummons` (a reaction, from the faction asked): ``picks`` are what it summons
  (nothing: no summons this round); ``whole_battle`` also says "no summons this battle", and
  the faction is not asked again in it.
* The default on a missed reaction deadline is none, for this round only (R-PBP-DEAD-04).

The battle goes on once no decision of it is open.
"""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.battle import advance
from caedes_bot.rules.combat.round_start import waits_on_players
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalCombat, IllegalMuster, RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    Battle,
    DecisionKind,
    GameState,
    PendingDecision,
    Step,
    SummonsDetail,
)
from caedes_bot.rules.steps import Accepts, Giver, StepSpec
from caedes_bot.rules.summons import (
    SummonsDeclined,
    battle_options,
    fortification_refusal,
    place_summoned,
)


@dataclass(frozen=True, slots=True)
class AnswerSummons(Order):
    """Answer the ``summons`` decision ``decision_id`` (R-MAGIC-SUMM-01): summon ``picks``
    (``(kind id, count)`` each) into the battle now; no picks: none this round;
    ``whole_battle``: and do not ask again in this battle."""

    label = "Answering the summons offer"

    decision_id: int
    picks: tuple[tuple[str, int], ...] = ()
    whole_battle: bool = False


def _open_decision(state: GameState, faction: str, decision_id: int) -> PendingDecision:
    found = next(
        (
            d
            for d in state.pending
            if d.id == decision_id and d.kind is DecisionKind.SUMMONS and d.faction == faction
        ),
        None,
    )
    if found is None:
        mine = [
            d.id for d in state.pending if d.kind is DecisionKind.SUMMONS and d.faction == faction
        ]
        raise IllegalCombat(
            f"{faction} has no summons offer {decision_id} open.",
            rule="R-MAGIC-SUMM-01",
            allowed=f"the open offer {mine[0]}" if mine else "wait for a summons offer",
        )
    return found


def _battle_of(state: GameState, detail: SummonsDetail) -> Battle:
    battle = state.battle
    if battle is None or battle.id != detail.battle:
        raise IllegalCombat(
            "That battle is over; its summons offer is closed.", rule="R-MAGIC-SUMM-01"
        )
    return battle


def _close(state: GameState, decision: PendingDecision) -> None:
    state.pending = [d for d in state.pending if d.id != decision.id]


def _go_on(state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle) -> list[Event]:
    """The battle fights on once no decision of it is open."""
    if waits_on_players(state, battle):
        return []
    return advance(state, ruleset, dice, battle)


def handle_answer_summons(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Answer a ``summons`` decision (R-MAGIC-SUMM-01, R-COMM-11, R-ATTR-FORT-06); a reaction.

    Raises:
        IllegalCombat: no such offer open for the faction, or its battle is over.
        IllegalMuster: a kind it may not summon into this side now, or a second Fortification.
        NotEnoughRP: it cannot pay for everything picked (nothing is summoned).
    """
    assert isinstance(order, AnswerSummons)
    decision = _open_decision(state, order.faction, order.decision_id)
    detail = decision.detail
    assert isinstance(detail, SummonsDetail)
    battle = _battle_of(state, detail)
    events: list[Event] = []
    _close(state, decision)
    if order.whole_battle and order.faction not in battle.no_summons:
        battle.no_summons = [*battle.no_summons, order.faction]  # replaced, not appended to
    picks = [(k, n) for k, n in order.picks if n != 0]
    if not picks:
        events.append(
            SummonsDeclined(order.faction, battle.id, battle.round, whole_battle=order.whole_battle)
        )
        return events + _go_on(state, ruleset, dice, battle)
    offered = {
        k for k, _price in battle_options(state, ruleset, battle, detail.side, order.faction)
    }
    offered |= {k for k, _price in detail.options}
    allowed = ", ".join(ruleset.kind(k).display_name for k, _p in detail.options)
    for kind_id, count in picks:
        if kind_id not in offered:
            raise IllegalMuster(
                f"{ruleset.kind(kind_id).display_name if kind_id in ruleset.units else kind_id} "
                "cannot be summoned into this battle now.",
                rule="R-MAGIC-SUMM-01",
                allowed=allowed,
            )
        if count < 0:
            raise RuleViolation(
                "Summon a count of 1 or more.", rule="R-MAGIC-SUMM-01", allowed="1 or more"
            )
        kind = ruleset.kind(kind_id)
        refusal = fortification_refusal(state, ruleset, kind, battle.space, count)
        if refusal is not None:
            raise IllegalMuster(refusal, rule="R-ATTR-FORT-06", allowed=allowed)
        events += place_summoned(
            state,
            ruleset,
            order.faction,
            kind,
            battle.space,
            count,
            battle=battle,
            side=detail.side,
        )
    return events + _go_on(state, ruleset, dice, battle)


def answer_summons_by_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    """A missed reaction deadline: no summons this round (R-PBP-DEAD-04); the battle goes on."""
    detail = decision.detail
    assert isinstance(detail, SummonsDetail)
    battle = _battle_of(state, detail)
    _close(state, decision)
    events: list[Event] = [
        SummonsDeclined(decision.faction, battle.id, battle.round, by_default=True)
    ]
    return events + _go_on(state, ruleset, dice, battle)


#: The answer to a summons offer, in step 7 of any faction's turn (R-MAGIC-SUMM-01).
SPEC = StepSpec(
    "battle_summons",
    accepts=(Accepts(AnswerSummons, handle_answer_summons, Giver.REACTION, steps=(Step.COMBAT,)),),
)
