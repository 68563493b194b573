"""The orders of a battle in step 7 (R-COMBAT-02, R-COMBAT-06, R-COMBAT-08, R-COMBAT-09):
the attacker picks the next battle (:class:`FightBattle`) and, at the end of a round, presses on
or withdraws (:class:`PressOn`, :class:`Withdraw`); a faction whose units take hits chooses its
casualties (:class:`AssignCasualties`, a reaction). The battle itself is
:mod:`caedes_bot.rules.combat.battle`."""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.actions import DeclareActions, open_declaration, set_orders
from caedes_bot.rules.combat.arithmetic import BattleResult, check_assignment
from caedes_bot.rules.combat.battle import (
    advance,
    answer_by_default,
    awaiting_withdrawal_choice,
    begin_battle,
    close_round,
    drop_decisions,
    end_battle,
    fight_default_battle,
    finish_combat_step,
    settle,
    withdraw_units,
)
from caedes_bot.rules.combat.magic import check_victims, enchant, illusion_side, reroll
from caedes_bot.rules.combat.sides import battle_fighters
from caedes_bot.rules.combat.summon_answer import answer_summons_by_default
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import (
    IllegalCombat,
)
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement import amphibian, blitz
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    Battle,
    DecisionKind,
    EnchantVictimDetail,
    GameState,
    PendingDecision,
    Side,
    Step,
)
from caedes_bot.rules.steps import Accepts, DefaultAnswer, Giver, Handler, StepSpec


@dataclass(frozen=True, slots=True)
class FightBattle(Order):
    """The attacker fights its next battle, in ``space`` (R-COMBAT-02)."""

    label = "Fighting a battle"

    space: str


@dataclass(frozen=True, slots=True)
class AssignCasualties(Order):
    """Choose the units that take this step's hits (R-COMBAT-06, R-ATTR-FORTI-01).

    A reaction order: given by the faction asked in a ``casualties`` decision, whoever is
    active. ``unit_ids`` lists one id per hit; a Fortitude unit listed twice takes two hits
    (destroyed), once is wounded.
    """

    label = "Choosing casualties"

    unit_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PressOn(Order):
    """The attacker fights another round (R-COMBAT-08)."""

    label = "Pressing on"


@dataclass(frozen=True, slots=True)
class Withdraw(Order):
    """The attacker withdraws every attacking unit that may (R-COMBAT-08, R-COMBAT-09).

    Attributes:
        by_sea: a province its Amphibian units that entered the battle by land retreat to
            across one sea zone, instead of going back (R-ATTR-AMPH-03); ``None``: all go back.
    """

    label = "Withdrawing"

    by_sea: str | None = None


def handle_fight_battle(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Begin the battle in ``order.space`` and fight until a decision is needed or it ends
    (R-COMBAT-01..07).

    Raises:
        IllegalCombat: another battle is under way, or no battle is due there.
    """
    assert isinstance(order, FightBattle)
    if state.battle is not None:
        name = ruleset.map.space_name(state.battle.space)
        raise IllegalCombat(
            f"The battle at {name} is not finished yet.",
            rule="R-COMBAT-02",
            allowed=f"finish the battle at {name} first",
        )
    if blitz.pending_blitz(state, order.faction) is not None:
        raise IllegalCombat(
            "Your blitz units wait to move on or stop first.",
            rule="R-ATTR-BLITZ-02",
            allowed="move them on or stop them first (/blitz)",
        )
    if amphibian.pending_ashore(state, order.faction) is not None:
        raise IllegalCombat(
            "Your Amphibian units at sea must go ashore first.",
            rule="R-ATTR-AMPH-02",
            allowed="choose where they go ashore on the turn panel first",
        )
    if order.space not in state.battles_due:
        names = ", ".join(ruleset.map.space_name(s) for s in state.battles_due) or "none"
        raise IllegalCombat(
            f"No battle is due at {ruleset.map.space_name(order.space)}.",
            rule="R-COMBAT-01",
            allowed=f"battles due: {names}",
        )
    return begin_battle(state, ruleset, dice, order.space, order.faction)


def handle_assign_casualties(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Answer a ``casualties`` decision (R-COMBAT-06); a reaction order.

    Raises:
        IllegalCombat: the faction owes no casualty choice, or the assignment is wrong (count,
            units, more hits on a unit than it can take); nothing changes.
    """
    assert isinstance(order, AssignCasualties)
    battle = state.battle
    open_shares = (
        [s for s in battle.owed if s.chooser == order.faction and s.assignment is None]
        if battle is not None
        else []
    )
    if battle is None or not open_shares:
        raise IllegalCombat(
            f"{order.faction} has no casualties to choose now.",
            rule="R-COMBAT-06",
            allowed="wait until your units take hits",
        )
    share = open_shares[0]
    if len(open_shares) > 1 and order.unit_ids:
        first = state.units.get(str(order.unit_ids[0]))
        share = next((s for s in open_shares if first and s.faction == first.owner), share)
    fighters = battle_fighters(state, ruleset, battle)
    mine = [f for f in fighters if f.side is share.side and f.faction == share.faction]
    check_assignment(mine, share.hits, order.unit_ids)
    settle(state, share, list(order.unit_ids))
    return advance(state, ruleset, dice, battle)


def handle_press_on(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """The attacker fights another round (R-COMBAT-08).

    Raises:
        IllegalCombat: no battle waits for the attacker's choice.
    """
    assert isinstance(order, PressOn)
    battle = awaiting_withdrawal_choice(state, order.faction)
    drop_decisions(state, battle.id, DecisionKind.PRESS_OR_WITHDRAW)
    close_round(battle)
    return advance(state, ruleset, dice, battle)


def handle_withdraw(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Withdraw every attacking unit that may (R-COMBAT-08, R-COMBAT-09); the rest fight on.

    Raises:
        IllegalCombat: no battle waits for the choice; or, with ``withdraw_mixed = forbidden``,
            some attacking units may not withdraw; or a retreat by sea none may make, or to a
            province not open to it (R-ATTR-AMPH-03).
    """
    assert isinstance(order, Withdraw)
    battle = awaiting_withdrawal_choice(state, order.faction)
    attackers = [f for f in battle_fighters(state, ruleset, battle) if f.side is Side.ATTACKER]
    leaving = [f.id for f in attackers if f.can_withdraw]
    staying = [f.id for f in attackers if not f.can_withdraw]
    if staying and state.options.withdraw_mixed == "forbidden":
        raise IllegalCombat(
            "Some attacking units may not withdraw, so none may (withdraw_mixed = forbidden).",
            rule="R-COMBAT-09",
            allowed="press on",
        )
    routes = None
    if order.by_sea is not None:
        routes = amphibian.retreat_routes(
            state, ruleset, battle.space, order.faction, leaving, order.by_sea
        )
    drop_decisions(state, battle.id, DecisionKind.PRESS_OR_WITHDRAW)
    events: list[Event] = [withdraw_units(state, battle, leaving, routes)]
    enchanted = {e.unit for e in battle.enchanted}
    if all(uid in enchanted for uid in battle.attacker_units):
        # only units the attacker enchanted are left: they do not fight on alone (R-COMBAT-10)
        return events + end_battle(state, ruleset, battle, BattleResult.WITHDRAWN)
    close_round(battle)
    return events + advance(state, ruleset, dice, battle)


@dataclass(frozen=True, slots=True)
class RerollDice(Order):
    """Answer an ``illusion_reroll`` decision: the places, in the step's dice, of the enemy
    hit dice the faction's Illusionists force to be rerolled; none to let them stand
    (R-MAGIC-ILL-01). A reaction order."""

    label = "Illusionist rerolls"

    places: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseEnchanted(Order):
    """Answer an ``enchant_victim`` decision: one of the faction's units per enchantment
    (R-MAGIC-ENCH-01). A reaction order."""

    label = "Choosing the enchanted units"

    unit_ids: tuple[int, ...]


def _battle_of(state: GameState, rule: str) -> Battle:
    if state.battle is None:
        raise IllegalCombat("No battle is under way.", rule=rule)
    return state.battle


def _decision_of(
    state: GameState, battle: Battle, faction: str, kind: DecisionKind, rule: str
) -> PendingDecision:
    found = next(
        (
            d
            for d in state.pending
            if d.kind is kind and d.faction == faction and d.battle_id == battle.id
        ),
        None,
    )
    if found is None:
        raise IllegalCombat(
            f"{faction} has no {kind.value.replace('_', ' ')} choice to make now.",
            rule=rule,
            allowed="wait until the battle asks you",
        )
    return found


def handle_declare_actions(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Set standing declarations (R-COMBAT-12); a reaction order, given at any time of the
    battle by a faction with units that have a special action in it. Answering the round's
    ``declare_actions`` decision fights on.

    Raises:
        IllegalCombat: no battle, or the declarations are wrong (see
            :func:`~caedes_bot.rules.combat.actions.set_orders`); nothing changes.
    """
    assert isinstance(order, DeclareActions)
    battle = _battle_of(state, "R-COMBAT-12")
    asked = open_declaration(state, battle, order.faction) is not None
    events = set_orders(
        state,
        ruleset,
        battle,
        order.faction,
        order.choices,
        order.illusion_threshold,
        partial=order.partial,
    )
    if asked and not order.partial:
        events += advance(state, ruleset, dice, battle)
    return events


def handle_reroll_dice(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Answer an ``illusion_reroll`` decision (R-MAGIC-ILL-01) and fight on.

    Raises:
        IllegalCombat: no such decision, or the dice picked are not allowed; nothing changes.
    """
    assert isinstance(order, RerollDice)
    battle = _battle_of(state, "R-MAGIC-ILL-01")
    decision = _decision_of(
        state, battle, order.faction, DecisionKind.ILLUSION_REROLL, "R-MAGIC-ILL-01"
    )
    side = illusion_side(state, ruleset, battle, order.faction)
    events = reroll(state, ruleset, dice, battle, order.faction, side, order.places)
    state.pending = [d for d in state.pending if d.id != decision.id]
    return events + advance(state, ruleset, dice, battle)


def handle_choose_enchanted(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Answer an ``enchant_victim`` decision (R-MAGIC-ENCH-01) and fight on.

    Raises:
        IllegalCombat: no such decision, or not one listed unit per enchantment; nothing
            changes.
    """
    assert isinstance(order, ChooseEnchanted)
    battle = _battle_of(state, "R-MAGIC-ENCH-01")
    decision = _decision_of(
        state, battle, order.faction, DecisionKind.ENCHANT_VICTIM, "R-MAGIC-ENCH-01"
    )
    detail = decision.detail
    assert isinstance(detail, EnchantVictimDetail)
    check_victims(ruleset, detail, order.unit_ids)
    state.pending = [d for d in state.pending if d.id != decision.id]
    events = enchant(state, battle, detail.faction, detail.enchanters, order.unit_ids)
    return events + advance(state, ruleset, dice, battle)


# --------------------------------------------------------------------------- step 7


def _finish(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    events: list[Event] = []
    for decision in [d for d in state.pending if d.kind is DecisionKind.BLITZ]:
        events += blitz.stop_by_default(state, ruleset, dice, decision)  # R-ATTR-BLITZ-02
    for decision in [d for d in state.pending if d.kind is DecisionKind.COME_ASHORE]:
        events += amphibian.ashore_by_default(state, ruleset, dice, decision)  # R-ATTR-AMPH-02
    return events + finish_combat_step(state, ruleset)


def _battles_to_fight(state: GameState) -> bool:
    """Step 7 waits while a battle is due or under way, or a decision is pending."""
    return bool(state.battles_due) or state.battle is not None or bool(state.pending)


def _fight_next(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event] | None:
    """For a faction that does not act: the next due battle, by space name (R-COMBAT-02)."""
    if state.battle is None and state.battles_due:
        return fight_default_battle(state, ruleset, dice)
    return None


def _battle_under_way(state: GameState) -> bool:
    return state.battle is not None


def _then_blitz(handler: Handler) -> Handler:
    """``handler``, then the ``blitz`` decision if the battle it ended was won by blitz units
    with movement left (R-ATTR-BLITZ-02)."""

    def run(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
        events = handler(state, order, ruleset, dice)
        assert isinstance(events, list)
        return events + blitz.offer_after_battles(state, ruleset, events)

    run.__doc__ = handler.__doc__
    return run


def _default_then_blitz(answer: DefaultAnswer) -> DefaultAnswer:
    """The default ``answer``, then the ``blitz`` decision if it ended a battle the attacker's
    blitz units won (R-ATTR-BLITZ-02)."""

    def run(
        state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
    ) -> list[Event]:
        events = answer(state, ruleset, dice, decision)
        assert isinstance(events, list)
        return events + blitz.offer_after_battles(state, ruleset, events)

    return run


def _fight_next_or_stop_blitz(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event] | None:
    """For a faction that does not act: its blitz stops (the default), else the next battle."""
    if state.active is not None:
        waiting = blitz.pending_blitz(state, state.active)
        if waiting is not None:
            return blitz.stop_by_default(state, ruleset, dice, waiting)
        ashore = amphibian.pending_ashore(state, state.active)
        if ashore is not None:
            return amphibian.ashore_by_default(state, ruleset, dice, ashore)
    events = _fight_next(state, ruleset, dice)
    return None if events is None else events + blitz.offer_after_battles(state, ruleset, events)


#: Step 7, Combat (R-COMBAT-01..15). Battles wait even in a passive turn (R-PBP-DEAD-03); the
#: default answers are R-COMBAT-06's casualties and no withdrawal (R-COMBAT-08).
SPEC = StepSpec(
    "combat",
    Step.COMBAT,
    accepts=(
        Accepts(FightBattle, _then_blitz(handle_fight_battle)),
        Accepts(AssignCasualties, _then_blitz(handle_assign_casualties), Giver.REACTION),
        Accepts(PressOn, _then_blitz(handle_press_on)),
        Accepts(Withdraw, _then_blitz(handle_withdraw)),
        Accepts(blitz.BlitzOn, _then_blitz(blitz.handle_blitz_on)),
        Accepts(blitz.BlitzStop, blitz.handle_blitz_stop),
        Accepts(amphibian.ComeAshore, amphibian.handle_come_ashore),
        Accepts(DeclareActions, _then_blitz(handle_declare_actions), Giver.REACTION),
        Accepts(RerollDice, _then_blitz(handle_reroll_dice), Giver.REACTION),
        Accepts(ChooseEnchanted, _then_blitz(handle_choose_enchanted), Giver.REACTION),
    ),
    on_leave=_finish,
    waits=_battles_to_fight,
    waits_when_passive=True,
    play_by_default=_fight_next_or_stop_blitz,
    under_way=_battle_under_way,
    defaults={
        DecisionKind.CASUALTIES: _default_then_blitz(answer_by_default),
        DecisionKind.PRESS_OR_WITHDRAW: _default_then_blitz(answer_by_default),
        DecisionKind.SUMMONS: _default_then_blitz(answer_summons_by_default),  # none
        DecisionKind.BLITZ: blitz.stop_by_default,
        DecisionKind.COME_ASHORE: amphibian.ashore_by_default,
        DecisionKind.DECLARE_ACTIONS: _default_then_blitz(answer_by_default),
        DecisionKind.ILLUSION_REROLL: _default_then_blitz(answer_by_default),
        DecisionKind.ENCHANT_VICTIM: _default_then_blitz(answer_by_default),
    },
)
