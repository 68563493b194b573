"""Declarations of special actions as standing orders (R-COMBAT-12, R-MAGIC-ILL-01,
R-PBP-DEAD-04).

At every round start (the ``declarations`` action of
:mod:`caedes_bot.rules.combat.round_start`) each faction on each side with units that have a
special action (Breathweapon, Abjurer, Enchanter, Invoker) or an Illusionist says what they do.
A faction declares per unit kind with a count ("3 of my 4 Engineers breathe"), and that is a
standing order for the rest of the battle: later rounds use it without asking. It is asked
again only

* when it asked to be asked (``ask`` on the order),
* when a new kind of choice appears: a kind of unit with a special action it has no order for
  (an enchanted unit joining its side), or Illusionists with no standing rule.

A faction may change its orders at any time of the battle with :class:`DeclareActions`; the
change holds from the next round start. Units using their action this round are listed in
:attr:`Battle.declared` (the first ``count`` of each kind, by id). On a missed deadline each
kind takes the default of R-COMBAT-12 (:func:`default_count`) and the Illusionists the rule
"reroll whenever at least one eligible hit lands"; the defaults become the standing orders, so
a silent player is not waited for every round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from caedes_bot.gamedata.model import Attribute, Options, Ruleset
from caedes_bot.rules.combat.arithmetic import Fighter, StepContext, die_target, morale
from caedes_bot.rules.combat.magic_events import DeclarationsOwed, StandingOrdersSet
from caedes_bot.rules.combat.sides import battle_context, battle_fighters, battle_roster
from caedes_bot.rules.combat.specials import special_action, uses_action_by_default
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalCombat
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    Battle,
    BattleAction,
    BattleNote,
    DecisionKind,
    DeclarableKind,
    DeclarationsDetail,
    GameState,
    NoteKind,
    PendingDecision,
    Side,
    StandingOrder,
)

#: The Illusionists' standing rule on a missed deadline: act on at least one eligible hit
#: (R-MAGIC-ILL-01).
ILLUSION_DEFAULT_THRESHOLD = 1


@dataclass(frozen=True, slots=True)
class DeclaredKind:
    """How many units of one kind use their special action each round (R-COMBAT-12);
    ``ask``: ask again at every round start."""

    kind: str
    count: int
    ask: bool = False


@dataclass(frozen=True, slots=True)
class DeclareActions(Order):
    """Set ``faction``'s standing declarations in the battle under way (R-COMBAT-12).

    A reaction order: it answers a ``declare_actions`` decision (the orders then hold from this
    round) or, given at any other time of the battle, changes the orders from the next round.
    ``choices`` names each kind at most once; a kind asked about and not named takes its
    default. ``illusion_threshold``: reroll whenever at least this many eligible hits land, 0
    to be asked each time, ``None`` to keep the rule (or take the default) (R-MAGIC-ILL-01).

    ``partial``: while the faction owes a ``declare_actions`` decision, record these choices
    on the decision without answering it (one kind at a time, as one select per kind gives
    them); the answer that follows, or the missed deadline, uses them for the kinds it does
    not name. With no decision owed, a partial order is an ordinary change.
    """

    label = "Declaring special actions"

    choices: tuple[DeclaredKind, ...] = ()
    illusion_threshold: int | None = None
    partial: bool = False


@dataclass
class Declarer:
    """One faction's units on one side that have something to declare."""

    faction: str
    kinds: dict[str, list[Fighter]] = field(default_factory=dict)
    illusionists: list[Fighter] = field(default_factory=list)


def declarers(state: GameState, ruleset: Ruleset, battle: Battle, side: Side) -> list[Declarer]:
    """The factions on ``side`` with special actions or Illusionists, in hand-out order
    (attacker; defenders from the province owner), their units grouped by kind in id order."""
    specials = battle_roster(state, ruleset, battle).specials()  # in id order
    if not specials:
        return []
    found: dict[str, Declarer] = {}
    for f in specials:
        if f.side is not side:
            continue
        action = special_action(f.kind)
        illusionist = f.kind.has(Attribute.ILLUSIONIST)
        if action is None and not illusionist:
            continue
        who = found.setdefault(f.faction, Declarer(f.faction))
        if action is not None:
            who.kinds.setdefault(f.kind.id, []).append(f)
        if illusionist:
            who.illusionists.append(f)
    order = [battle.attacker] if side is Side.ATTACKER else list(battle.defenders)
    rank = {code: n for n, code in enumerate(order)}
    return sorted(found.values(), key=lambda d: (rank.get(d.faction, len(rank)), d.faction))


def default_count(members: Sequence[Fighter], ctx: StepContext, options: Options) -> int:
    """How many of ``members`` (one kind) use their action on a missed deadline (R-COMBAT-12):
    all of them, except Breathweapon and Invoker units when their dice give no more expected
    hits on the enemy than their normal dice (:func:`uses_action_by_default`)."""
    if not members:
        return 0
    first = members[0]
    action = special_action(first.kind)
    if action is None:
        return 0
    normal = die_target(first, ctx)
    shift = morale(first, ctx)
    return len(members) if uses_action_by_default(first.kind, action, normal, shift, options) else 0


def _order_of(battle: Battle, faction: str, kind: str) -> StandingOrder | None:
    return next((o for o in battle.standing if o.faction == faction and o.kind == kind), None)


def _use_orders(battle: Battle, who: Declarer) -> None:
    """This round's declared units of ``who`` from its standing orders (R-COMBAT-12)."""
    for kind, members in who.kinds.items():
        order = _order_of(battle, who.faction, kind)
        count = min(order.count, len(members)) if order is not None else 0
        battle.declared = [*battle.declared, *(f.id for f in members[:count])]  # replaced


def _needs_asking(battle: Battle, who: Declarer) -> bool:
    for kind in who.kinds:
        order = _order_of(battle, who.faction, kind)
        if order is None or order.ask:
            return True
    return bool(who.illusionists) and who.faction not in battle.illusion_rules


def declare_actions(
    state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle, side: Side
) -> list[Event]:
    """The round-start declarations of ``side`` (R-COMBAT-03, R-COMBAT-12): factions with
    standing orders use them; the others get a ``declare_actions`` decision."""
    events: list[Event] = []
    found = declarers(state, ruleset, battle, side)
    if not found:  # most battles: nobody on the side has anything to declare
        return events
    fighters = battle_fighters(state, ruleset, battle)
    ctx = battle_context(state, ruleset, battle, fighters)
    for who in found:
        if not _needs_asking(battle, who):
            _use_orders(battle, who)
            continue
        decision = PendingDecision(
            id=state.new_id(),
            faction=who.faction,
            kind=DecisionKind.DECLARE_ACTIONS,
            reaction=who.faction != state.active,
            detail=_detail_of(state, battle, who, ctx),
        )
        state.pending.append(decision)
        events.append(
            DeclarationsOwed(battle.id, battle.space, who.faction, battle.round, decision.id)
        )
    return events


def _detail_of(
    state: GameState, battle: Battle, who: Declarer, ctx: StepContext
) -> DeclarationsDetail:
    """What ``who`` is asked to declare: each kind with its count, default and standing order."""
    choices = []
    for kind, members in who.kinds.items():
        action = special_action(members[0].kind)
        assert action is not None
        order = _order_of(battle, who.faction, kind)
        choices.append(
            DeclarableKind(
                kind=kind,
                action=action,
                units=len(members),
                default=default_count(members, ctx, state.options),
                standing=None if order is None else order.count,
                ask=False if order is None else order.ask,
            )
        )
    return DeclarationsDetail(
        battle=battle.id,
        space=battle.space,
        round=battle.round,
        faction=who.faction,
        choices=tuple(choices),
        illusionists=len(who.illusionists),
        illusion_default=ILLUSION_DEFAULT_THRESHOLD,
    )


def change_detail(
    state: GameState, ruleset: Ruleset, battle: Battle, faction: str
) -> DeclarationsDetail | None:
    """What ``faction`` may declare in ``battle`` as a change of its standing orders between
    rounds (R-COMBAT-12): the same choices a ``declare_actions`` decision would show, with its
    standing counts; ``None`` when it has no unit with a special action or Illusionist there.
    A :class:`DeclareActions` answering it holds from the next round start."""
    merged = Declarer(faction)
    for side in Side:
        for who in declarers(state, ruleset, battle, side):
            if who.faction == faction:
                merged.kinds.update(who.kinds)
                merged.illusionists += who.illusionists
    if not merged.kinds and not merged.illusionists:
        return None
    ctx = battle_context(state, ruleset, battle, battle_fighters(state, ruleset, battle))
    return _detail_of(state, battle, merged, ctx)


def open_declaration(state: GameState, battle: Battle, faction: str) -> PendingDecision | None:
    """``faction``'s pending ``declare_actions`` decision in ``battle``, if any."""
    return next(
        (
            d
            for d in state.pending
            if d.kind is DecisionKind.DECLARE_ACTIONS
            and d.faction == faction
            and d.battle_id == battle.id
        ),
        None,
    )


def set_orders(
    state: GameState,
    ruleset: Ruleset,
    battle: Battle,
    faction: str,
    choices: Sequence[DeclaredKind],
    illusion_threshold: int | None,
    *,
    by_default: bool = False,
    partial: bool = False,
) -> list[Event]:
    """Check and record ``faction``'s standing orders (R-COMBAT-12, R-MAGIC-ILL-01). If it
    owed a ``declare_actions`` decision, that is answered and the orders apply to this round
    (kinds not named take the count picked by an earlier partial answer, else the standing
    count, else the default); otherwise they apply from the next round start. ``partial``
    with a decision owed: the choices are only recorded on the decision (``chosen``), which
    stays open; no event.

    Raises:
        IllegalCombat: the faction has nothing to declare in this battle; a kind named twice,
            not among its units with a special action, or with a count below 0 or above its
            units; an Illusionist threshold below 0 or given without Illusionists. Nothing
            changes.
    """
    mine = [
        who
        for side in Side
        for who in declarers(state, ruleset, battle, side)
        if who.faction == faction
    ]
    kinds: dict[str, list[Fighter]] = {}
    illusionists = 0
    for who in mine:
        kinds.update(who.kinds)
        illusionists += len(who.illusionists)
    if not mine:
        raise IllegalCombat(
            f"{faction} has no unit with a special action in this battle.",
            rule="R-COMBAT-12",
            allowed="Breathweapon, Abjurer, Enchanter, Invoker or Illusionist units only",
        )
    allowed = ", ".join(
        f"{ruleset.kind(k).display_name} (0 to {len(m)})" for k, m in sorted(kinds.items())
    )
    named: dict[str, DeclaredKind] = {}
    for choice in choices:
        members = kinds.get(choice.kind)
        if members is None or choice.kind in named:
            raise IllegalCombat(
                f"{choice.kind} is not a kind of unit {faction} can declare for, or is named "
                "twice.",
                rule="R-COMBAT-12",
                allowed=allowed or "none",
            )
        if not 0 <= choice.count <= len(members):
            raise IllegalCombat(
                f"{choice.count} {ruleset.kind(choice.kind).display_name} cannot use their "
                f"action: {faction} has {len(members)} in this battle.",
                rule="R-COMBAT-12",
                allowed=allowed,
            )
        named[choice.kind] = choice
    if illusion_threshold is not None and (illusion_threshold < 0 or not illusionists):
        raise IllegalCombat(
            "An Illusionist rule needs Illusionists in the battle and a number of hits of 0 "
            "(ask each time) or more.",
            rule="R-MAGIC-ILL-01",
            allowed="0, 1, 2, 3 ... hits" if illusionists else "no Illusionist rule",
        )
    decision = open_declaration(state, battle, faction)
    if decision is not None and partial:
        _record_partial(state, decision, named, illusion_threshold)
        return []
    if decision is not None:
        assert isinstance(decision.detail, DeclarationsDetail)
        for item in decision.detail.choices:
            if item.kind not in named:
                if item.chosen is not None:
                    named[item.kind] = DeclaredKind(item.kind, item.chosen, item.chosen_ask)
                    continue
                count = item.standing if item.standing is not None else item.default
                named[item.kind] = DeclaredKind(item.kind, count, item.ask)
        if decision.detail.illusionists and illusion_threshold is None:
            illusion_threshold = decision.detail.illusion_chosen
        if decision.detail.illusionists and illusion_threshold is None:
            illusion_threshold = battle.illusion_rules.get(
                faction, decision.detail.illusion_default
            )
        state.pending = [d for d in state.pending if d.id != decision.id]
    kept = [o for o in battle.standing if not (o.faction == faction and o.kind in named)]
    new = [
        StandingOrder(faction, kind, _action(kinds[kind]), c.count, c.ask)
        for kind, c in sorted(named.items())
    ]
    same_rule = illusion_threshold is None or (
        battle.illusion_rules.get(faction) == illusion_threshold
    )
    if decision is None and same_rule and set(kept + new) == set(battle.standing):
        return []  # a change to what already stands (a repeated click) changes nothing
    battle.standing = kept + new
    if illusion_threshold is not None:
        battle.illusion_rules = {**battle.illusion_rules, faction: illusion_threshold}
    if decision is not None:
        for who in mine:
            _use_orders(battle, who)
        battle.declared = list(dict.fromkeys(battle.declared))
    orders = tuple(o for o in battle.standing if o.faction == faction)
    battle.notes = [
        *battle.notes,
        BattleNote(
            battle.round if decision is not None else battle.round + 1,
            NoteKind.DECLARED,
            faction,
            orders=orders,
            illusion_threshold=battle.illusion_rules.get(faction),
            by_default=by_default,
        ),
    ]
    return [
        StandingOrdersSet(
            battle.id,
            battle.space,
            faction,
            battle.round if decision is not None else battle.round + 1,
            orders,
            battle.illusion_rules.get(faction),
            by_default,
        )
    ]


def _record_partial(
    state: GameState,
    decision: PendingDecision,
    named: dict[str, DeclaredKind],
    illusion_threshold: int | None,
) -> None:
    """Record a partial answer on the open decision (same id), which stays pending."""
    detail = decision.detail
    assert isinstance(detail, DeclarationsDetail)
    choices = tuple(
        replace(c, chosen=named[c.kind].count, chosen_ask=named[c.kind].ask)
        if c.kind in named
        else c
        for c in detail.choices
    )
    chosen = detail.illusion_chosen if illusion_threshold is None else illusion_threshold
    new = replace(decision, detail=replace(detail, choices=choices, illusion_chosen=chosen))
    state.pending = [new if d.id == decision.id else d for d in state.pending]


def _action(members: Sequence[Fighter]) -> BattleAction:
    action = special_action(members[0].kind)
    assert action is not None
    return action


def default_declarations(
    state: GameState, ruleset: Ruleset, battle: Battle, decision: PendingDecision
) -> list[Event]:
    """Answer a ``declare_actions`` decision with its defaults (R-COMBAT-12, R-PBP-DEAD-04):
    each kind its default count, the Illusionists the rule "at least one eligible hit", except
    what a partial answer already picked (the defaults apply per choice). The result becomes
    the standing orders."""
    detail = decision.detail
    assert isinstance(detail, DeclarationsDetail)
    choices = [
        DeclaredKind(c.kind, c.default)
        if c.chosen is None
        else DeclaredKind(c.kind, c.chosen, c.chosen_ask)
        for c in detail.choices
    ]
    threshold = None
    if detail.illusionists:
        threshold = (
            detail.illusion_default if detail.illusion_chosen is None else detail.illusion_chosen
        )
    return set_orders(state, ruleset, battle, decision.faction, choices, threshold, by_default=True)
