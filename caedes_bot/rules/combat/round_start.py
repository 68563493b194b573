"""The round-start phase of a battle (R-COMBAT-03, step (0)): an ordered list of actions, each
run for the attacking side and then for the defending side, before the missile step.

The actions today are, in catalogue order:

1. ``mercenary``: excess Mercenaries of each faction on the side go, or its player is asked
   which (R-ATTR-MERC-01, :mod:`caedes_bot.rules.mercenary_answer`).
2. ``summons``: a faction of the side with a Summoner fighting is asked whether it summons
   (R-MAGIC-SUMM-01, :func:`caedes_bot.rules.summons.offer_summons`).
3. ``declarations``: special actions for the round, from the standing orders or by asking
   (R-COMBAT-12, :mod:`caedes_bot.rules.combat.actions`); both sides at once.

How the phase runs. :func:`run_round_start` works through the slots ``(action, side)`` in
order (every action for the attacker, then the same action for the defender, then the next
action), counting the slots done in :attr:`Battle.start_done`, which :func:`next_round` sets
back to 0. After each slot it stops if a side has no units left (the battle ends, R-COMBAT-07)
or if the slot left a pending decision of this battle (the battle waits for it). The handler of
that decision applies the answer and calls :func:`caedes_bot.rules.combat.battle.advance`,
which carries on with the next slot; the slot that asked is never run twice in a round.

How to add an action (summons, for instance):

* write ``def my_action(state, ruleset, dice, battle, side) -> list[Event]``: do what the
  action does for ``side`` (``Side.ATTACKER`` or ``Side.DEFENDER``) of ``battle``, mutating
  ``state``; remove units only with :func:`caedes_bot.rules.combat.roster.remove_units`; add
  units to ``battle.attacker_units`` / ``battle.defender_units`` to make them fight; append a
  :class:`~caedes_bot.rules.state.PendingDecision` whose detail names ``battle`` (a field
  ``battle: int``) to make the battle wait for a player;
* put ``RoundStartAction("my_action", my_action)`` at its place in :data:`ROUND_START_ACTIONS`;
  give it ``idle=...`` when the battle's roster can tell at once that it has nothing to do for
  a side (see :class:`RoundStartAction`), so that a round whose every slot is idle is passed
  over in one test;
* give the decision's kind a step default (R-PBP-DEAD-04) and an order whose handler applies
  the answer, then returns ``advance(state, ruleset, dice, battle)``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.actions import declare_actions
from caedes_bot.rules.combat.arithmetic import Fighter, mercenary_losses
from caedes_bot.rules.combat.kept import Roster
from caedes_bot.rules.combat.roster import remove_units
from caedes_bot.rules.combat.sides import battle_context, battle_roster
from caedes_bot.rules.dependants import lose_bound_units
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import MercenariesDeserted, ask, real_choice
from caedes_bot.rules.state import (
    Battle,
    GameState,
    MercenariesDetail,
    MercenaryCandidate,
    Side,
)
from caedes_bot.rules.summons import offer_summons

#: ``(state, ruleset, dice, battle, side) -> events``: one round-start action for one side.
RoundStartRun = Callable[[GameState, Ruleset, Dice, Battle, Side], list[Event]]
#: ``(roster, side) -> bool``: the action has nothing to do for ``side`` of these fighters.
RoundStartIdle = Callable[[Roster, Side], bool]


@dataclass(frozen=True, slots=True, eq=False)
class RoundStartAction:
    """One action of the round-start phase (R-COMBAT-03): ``run`` is called once per side per
    round, attacker first.

    ``together``: both sides decide at once, so a decision the attacker's slot leaves does not
    hold back the defender's slot (declarations, R-COMBAT-12); otherwise the defender acts only
    once the attacker's decision is answered (summons: the defender after the attacker,
    R-MAGIC-SUMM-01).

    ``idle``, if given, tells from the battle's roster that ``run`` would do nothing for a
    side (no event, no change): no Mercenary, no Summoner, nobody who can declare. It must
    stay true as units leave (the answer is kept and carried from step to step,
    :meth:`~caedes_bot.rules.combat.kept.Roster.flag`). When every slot of the phase is idle,
    the phase is passed over at once, so most battles ask once per battle, not per round and
    slot; without ``idle`` the action always runs. Compared and hashed by identity (each
    action is one object in :data:`ROUND_START_ACTIONS`; a roster keeps its answer for the
    tuple of them)."""

    name: str
    run: RoundStartRun
    together: bool = False
    idle: RoundStartIdle | None = None


def mercenary_check(
    state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle, side: Side
) -> list[Event]:
    """Excess Mercenaries of each faction on ``side`` go (R-ATTR-MERC-01, R-ATTR-MERC-02):
    at once, cheapest first, when every choice comes to the same; otherwise the faction is
    asked (a ``mercenaries`` decision, :func:`caedes_bot.rules.mercenary.ask`) and the round
    waits for the answer (:mod:`caedes_bot.rules.mercenary_answer`)."""
    roster = battle_roster(state, ruleset, battle)
    if not roster.mercenaries(side):
        return []
    mine = roster.side(side)
    lost = mercenary_losses(mine, battle_context(state, ruleset, battle, roster.fighters))
    if not lost:
        return []
    gone = set(lost)
    events: list[Event] = []
    groups: dict[str, list[int]] = {}
    for n, f in enumerate(mine):
        groups.setdefault(f.faction, []).append(n)
    now: list[int] = []
    for faction, members in groups.items():
        out = [mine[n] for n in members if mine[n].id in gone]
        if not out:
            continue
        counted = [mine[n] for n in members if not mine[n].enchanted]  # count for neither
        mercs = [f for f in counted if f.mercenary]
        detail = MercenariesDetail(
            space=battle.space,
            faction=faction,
            deserting=len(out),
            mercenaries=len(mercs),
            others=len(counted) - len(mercs),
            candidates=tuple(
                MercenaryCandidate(f.id, f.kind.id, f.wounded, f.kind.cost)
                for f in sorted(mercs, key=lambda f: f.id)
            ),
            default=tuple(f.id for f in out),
            battle=battle.id,
            round=battle.round,
        )
        if real_choice(fighter_likeness(state, mercs), len(out)):
            events.append(ask(state, detail, reaction=faction != state.active))
            continue
        now += detail.default
        events.append(
            MercenariesDeserted(
                faction,
                battle.space,
                tuple((f.id, f.kind.id) for f in out),
                mercenaries=detail.mercenaries,
                others=detail.others,
            )
        )
    if not now:
        return events
    remove_units(state, battle, now)
    battle.round_losses = True
    return events + lose_bound_units(state, ruleset, battle=battle.id)[0]  # R-ATTR-UNDEAD-03


def fighter_likeness(state: GameState, mercs: list[Fighter]) -> list[Hashable]:
    """What about each of ``mercs`` matters when it deserts a battle (R-ATTR-MERC-01): its
    kind, wound and terrain, whether it may withdraw and where from, its attack penalty and
    shield, and the ship it is aboard."""
    units = {u.id: u for u in state.peek_units()}
    out: list[Hashable] = []
    for f in mercs:
        unit = units.get(f.id)
        origin = (unit.entered_from, unit.aboard) if unit is not None else (None, None)
        out.append(
            (f.kind.id, f.wounded, f.terrain, f.can_withdraw, f.attack_penalty, f.shield, origin)
        )
    return out


def summons_offer(
    state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle, side: Side
) -> list[Event]:
    """The summons slot (R-MAGIC-SUMM-01): :func:`offer_summons`, asked only when a Summoner
    fights on ``side`` (the battle's roster keeps them; most battles have none)."""
    if not battle_roster(state, ruleset, battle).summoners(side):
        return []
    return offer_summons(state, ruleset, dice, battle, side)


def _no_mercenary(roster: Roster, side: Side) -> bool:
    return not roster.mercenaries(side)  # R-ATTR-MERC-01: then nobody deserts


def _no_summoner(roster: Roster, side: Side) -> bool:
    return not roster.summoners(side)  # R-MAGIC-SUMM-01: then nobody is asked


def _no_declarer(roster: Roster, side: Side) -> bool:
    # R-COMBAT-12: nobody on the side with a special action or the Illusionist power
    return all(f.side is not side for f in roster.specials())


#: The round-start actions in order (R-COMBAT-03); see the module docstring to add one.
ROUND_START_ACTIONS: list[RoundStartAction] = [
    RoundStartAction("mercenary", mercenary_check, idle=_no_mercenary),
    RoundStartAction("summons", summons_offer, idle=_no_summoner),  # R-MAGIC-SUMM-01
    RoundStartAction("declarations", declare_actions, together=True, idle=_no_declarer),
]


def round_start_slots() -> list[tuple[RoundStartAction, Side]]:
    """Every ``(action, side)`` of the phase in the order they run: each action for the
    attacker, then for the defender."""
    return [(action, side) for action in ROUND_START_ACTIONS for side in _SIDES]


#: the sides in the order of the enum (a tuple: iterating an enum runs Python code)
_SIDES = tuple(Side)


def waits_on_players(state: GameState, battle: Battle) -> bool:
    """Whether a pending decision of ``battle`` is open."""
    if not state.pending:  # asked several times a step: mostly nothing is pending
        return False
    ident = battle.id
    return any(d.battle_id == ident for d in state.pending)


def _all_idle(roster: Roster, actions: tuple[RoundStartAction, ...]) -> bool:
    """Whether every action of the phase is idle for both sides of ``roster``."""
    return all(a.idle is not None and a.idle(roster, side) for a in actions for side in _SIDES)


def run_round_start(
    state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle
) -> tuple[list[Event], bool]:
    """Run the slots of the round-start phase not yet done this round (R-COMBAT-03).

    Returns:
        The events, and whether the phase is complete. It is not when a slot left a decision
        to wait for, or when a side has no units left (the caller ends the battle).
    """
    events: list[Event] = []
    slots = round_start_slots()
    if battle.start_done == 0 and not waits_on_players(state, battle):
        actions = tuple(ROUND_START_ACTIONS)
        roster = battle_roster(state, ruleset, battle)
        if roster.flag(("round start", actions), lambda r: _all_idle(r, actions)):
            battle.start_done = len(slots)  # every slot would do nothing
            return events, True
    while battle.start_done < len(slots):
        action, side = slots[battle.start_done]
        if waits_on_players(state, battle) and not (action.together and side is Side.DEFENDER):
            return events, False
        battle.start_done += 1
        events += action.run(state, ruleset, dice, battle, side)
        if not battle.attacker_units or not battle.defender_units:
            return events, False
    return events, not waits_on_players(state, battle)
