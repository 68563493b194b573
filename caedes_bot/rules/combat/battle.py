"""The battle in the game state: step 7's battles fought round by round (R-COMBAT-01..13).

* When the active faction ends step 6 the turn calls :func:`begin_combat_step`, which lists
  ``state.battles_due``: every province where its units entered while other factions' units
  stood there (R-COMBAT-01), ordered by province name (the default order, R-COMBAT-02).
* :class:`~caedes_bot.rules.combat.orders.FightBattle` picks the next one (R-COMBAT-02). The
  attacker side is the active faction's units there except Towers (R-COMBAT-15); the defender
  side is every unit there of a faction that is not the attacker's pact partner (and, with
  ``river_ship_occupies``, such factions' ships on the province's river edges, R-MOVE-13);
  partners of the attacker there take no part (R-COMBAT-01). See :mod:`.sides`.
* Each round (R-COMBAT-03): (0) the round-start phase, a list of actions run for each side
  (:mod:`.round_start`: the Mercenary check per faction per side, R-ATTR-MERC-01, default
  cheapest); (a) the missile step (R-COMBAT-04); (b) the melee step (R-COMBAT-05);
  (c) the withdrawal check (R-COMBAT-08). After every removal, a side without units ends the
  battle at once (R-COMBAT-07).
* In each step every die of both sides is rolled first (attacker's dice, then defender's, each
  in unit id order, a Mighty unit's two dice together), then casualties are removed from both
  sides at the same time (R-COMBAT-04). A faction whose units take hits and which has a real
  choice gets a ``casualties`` :class:`~caedes_bot.rules.state.PendingDecision`, answered with
  ``AssignCasualties``; without a real choice the rules apply the only possible result.
  Both sides choose at once; the battle goes on when the last choice is in.
* After the melee step, if both sides still have units, the round ends. If ``stalemate_rounds``
  rounds in a row had no unit removed or wounded the battle ends in stalemate (R-COMBAT-13).
  Otherwise, if any attacking unit can withdraw, the attacker gets a ``press_or_withdraw``
  decision, answered with ``PressOn`` or ``Withdraw`` (R-COMBAT-08, -09).
* At the end (R-COMBAT-10, R-COMBAT-11): wounded units are destroyed (option ``fortitude_end``,
  R-ATTR-FORTI-02); if the attacker still has units and the defender none, the province passes
  to the attacker (unless it is held by the attacker or a partner); any other end leaves the
  owner unchanged. Surviving attackers stay, no longer attacking.

When step 7 ends the turn calls :func:`finish_combat_step`, which refuses while a battle is due
or unfinished and then applies R-COLL-02(b).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.actions import default_declarations
from caedes_bot.rules.combat.arithmetic import (
    DIE_SIDES,
    BattleResult,
    DieSpec,
    StepContext,
    apply_hits,
    classify,
    default_casualties,
    handout_order,
    share_hits,
    step_dice,
)
from caedes_bot.rules.combat.events import (
    AttackerWithdrew,
    BattleBegan,
    BattleEnded,
    BattleRoundEnded,
    BattlesDue,
    BattleStepResolved,
    CasualtiesOwed,
    CasualtiesRemoved,
    WithdrawalOffered,
)
from caedes_bot.rules.combat.kept import Roster, normal_die
from caedes_bot.rules.combat.luck import keep_step_luck
from caedes_bot.rules.combat.magic import (
    enchant,
    enchantment_phase,
    idle_illusionists,
    illusion_check,
    illusion_side,
    reroll,
)
from caedes_bot.rules.combat.magic_events import EnchantmentsBroken
from caedes_bot.rules.combat.naval import first_defender, is_naval, lost_with_ships
from caedes_bot.rules.combat.roster import remove_units
from caedes_bot.rules.combat.round_start import run_round_start, waits_on_players
from caedes_bot.rules.combat.sides import (
    battle_candidates,
    battle_context,
    battle_fighters,
    battle_roster,
    battle_sides,
    hand_on,
)
from caedes_bot.rules.combat.specials import judge, special_action
from caedes_bot.rules.dependants import holds_a_bond, lose_bound_units
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import (
    IllegalCombat,
    RuleViolation,
)
from caedes_bot.rules.events import Event
from caedes_bot.rules.odds.opening import opening_request
from caedes_bot.rules.ownership import capture, capture_unopposed, peek_hostile_units
from caedes_bot.rules.pacts import parting_attacks
from caedes_bot.rules.state import (
    Battle,
    BattleDie,
    BattlePhase,
    BattleStepRecord,
    CasualtiesDetail,
    CasualtyCandidate,
    CasualtyShare,
    CombatStep,
    DecisionKind,
    DeclarationsDetail,
    DiePurpose,
    EnchantVictimDetail,
    GameState,
    PendingDecision,
    PressOrWithdrawDetail,
    RerollDetail,
    Side,
)

# --------------------------------------------------------------------------- step 7

#: the two sides, attacker first (a tuple: iterating the enum costs more)
_SIDES = (Side.ATTACKER, Side.DEFENDER)
#: each step's and side's word in the dice record (``.value``, a Python property of an enum)
_STEP_WORD = {step: step.value for step in CombatStep}
_ATTACKER_WORD, _DEFENDER_WORD = Side.ATTACKER.value, Side.DEFENDER.value
#: the enum members the steps read, held once: reading a member off its enum class costs
#: several times a global in Python 3.11 (the enum's metaclass defines ``__getattr__``)
_ENCHANTMENT_PHASE = BattlePhase.ENCHANTMENT
_MELEE_CASUALTIES_PHASE = BattlePhase.MELEE_CASUALTIES
_MELEE_ILLUSION_PHASE = BattlePhase.MELEE_ILLUSION
_MISSILE_CASUALTIES_PHASE = BattlePhase.MISSILE_CASUALTIES
_MISSILE_ILLUSION_PHASE = BattlePhase.MISSILE_ILLUSION
_PRESS_OR_WITHDRAW_PHASE = BattlePhase.PRESS_OR_WITHDRAW
_ROUND_START_PHASE = BattlePhase.ROUND_START
_MELEE_STEP = CombatStep.MELEE
_MISSILE_STEP = CombatStep.MISSILE
_CASUALTIES_DECISION = DecisionKind.CASUALTIES
_PRESS_OR_WITHDRAW_DECISION = DecisionKind.PRESS_OR_WITHDRAW
_ENCHANT_DIE = DiePurpose.ENCHANT
_NORMAL_DIE = DiePurpose.NORMAL
_ATTACKER = Side.ATTACKER
_DEFENDER = Side.DEFENDER


def begin_combat_step(state: GameState, ruleset: Ruleset) -> list[Event]:
    """List the active faction's battles when step 6 ends (R-COMBAT-01, R-COMBAT-02).

    Sets ``state.battles_due`` to every space where the active faction has units with
    ``attacking`` set and other factions' non-partner units still stand, ordered by space name
    (the default order). Units marked attacking where no enemy is left stop attacking.

    Returns:
        A :class:`BattlesDue` event, or nothing if there is no battle.
    """
    faction = state.active
    if faction is None:
        return []
    parting_attacks(state)  # former partners that stayed attack (R-ALLY-05)
    spaces = sorted({u.location for u in state.units_of(faction) if u.attacking})
    due: list[str] = []
    for space in spaces:
        if peek_hostile_units(state, ruleset, space, faction):
            due.append(space)
        else:
            for unit in state.units_at(space):
                unit.attacking = False
    due.sort(key=lambda s: (ruleset.map.space_name(s), s))
    state.battles_due = due
    return [BattlesDue(faction, tuple(due))] if due else []


def finish_combat_step(state: GameState, ruleset: Ruleset) -> list[Event]:
    """Close step 7 (R-COMBAT-01, R-COLL-02(b)).

    Every province where the active faction has units, no unit of a faction that is not its
    pact partner, and which is owned by neither it nor a partner, passes to it.

    Raises:
        IllegalCombat: a battle is still due or unfinished (names them); nothing changes.
    """
    faction = state.active
    if faction is None:
        return []
    if state.battle is not None or state.battles_due:
        spaces = ([state.battle.space] if state.battle else []) + state.battles_due
        names = ", ".join(ruleset.map.space_name(s) for s in spaces)
        raise IllegalCombat(
            f"Every battle must be fought before step 7 ends; still to fight: {names}.",
            rule="R-COMBAT-01",
            allowed=(
                f"finish the battle at {ruleset.map.space_name(state.battle.space)}"
                if state.battle
                else f"fight the battle at {names.split(', ')[0]}"
            ),
        )
    events = capture_unopposed(state, ruleset, faction)
    for unit in state.units_of(faction):
        unit.attacking = False
    return events


def default_next_battle(state: GameState) -> str | None:
    """The battle fought next when the attacker does not choose: first by space name
    (R-COMBAT-02); ``state.battles_due`` is kept in that order."""
    return state.battles_due[0] if state.battles_due else None


def fight_default_battle(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Begin the next due battle in the default order, by space name (R-COMBAT-02), for a
    missed deadline; fight until a decision is needed or it ends.

    Raises:
        IllegalCombat: a battle is under way, or none is due.
    """
    space = default_next_battle(state)
    if state.battle is not None or space is None or state.active is None:
        raise IllegalCombat("No battle is waiting to begin.", rule="R-COMBAT-02")
    return begin_battle(state, ruleset, dice, space, state.active)


def begin_battle(
    state: GameState, ruleset: Ruleset, dice: Dice, space: str, attacker: str
) -> list[Event]:
    attacking, defending = battle_sides(state, ruleset, space, attacker)
    battle = Battle(
        id=state.new_id(),
        space=space,
        attacker=attacker,
        defenders=handout_order(
            {u.owner for u in defending},
            first_defender(state, ruleset, space, defending),  # R-COMBAT-06: at sea, most units
            ruleset.turn_order,
        ),
        attacker_units=[u.id for u in attacking],
        defender_units=[u.id for u in defending],
    )
    state.battle = battle
    events: list[Event] = [
        BattleBegan(
            battle.id,
            battle.space,
            battle.attacker,
            tuple(battle.defenders),
            tuple(battle.attacker_units),
            tuple(battle.defender_units),
        )
    ]
    if state.options.battle_message_odds:
        # R-COMBAT-16, issue 13: the battle as it begins, for its odds worked out after the
        # order (decision 0020); nothing is worked out here
        events.append(opening_request(state, ruleset, battle))
    return events + advance(state, ruleset, dice, battle)


def answer_by_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    """Answer a pending battle decision with its documented default (R-PBP-DEAD-04).

    ``casualties``: the default of R-COMBAT-06 (:func:`default_casualties`).
    ``press_or_withdraw``: no withdrawal (press on).
    ``declare_actions``: the defaults of R-COMBAT-12, kept as standing orders.
    ``illusion_reroll``: reroll the eligible dice shown (R-MAGIC-ILL-01).
    ``enchant_victim``: the cheapest susceptible units (R-MAGIC-ENCH-01).
    Mutates ``state`` and fights on until the next decision or the end of the battle.

    Raises:
        RuleViolation: the decision is not a battle decision of the current battle.
    """
    battle = state.battle
    if battle is not None and isinstance(decision.detail, CasualtiesDetail):
        share = next((s for s in battle.owed if s.decision == decision.id), None)
        if share is not None:
            # the default shown in the decision: worked out when the hits were owed, and the
            # units have not changed since (casualties go only once every share is settled)
            settle(state, share, list(decision.detail.default))
            return advance(state, ruleset, dice, battle)
    if (
        battle is not None
        and isinstance(decision.detail, PressOrWithdrawDetail)
        and battle.phase is BattlePhase.PRESS_OR_WITHDRAW
    ):
        drop_decisions(state, battle.id, DecisionKind.PRESS_OR_WITHDRAW)
        close_round(battle)
        return advance(state, ruleset, dice, battle)
    if battle is not None and decision in state.pending:
        detail = decision.detail
        if isinstance(detail, DeclarationsDetail) and detail.battle == battle.id:
            events = default_declarations(state, ruleset, battle, decision)
            return events + advance(state, ruleset, dice, battle)
        if isinstance(detail, RerollDetail) and detail.battle == battle.id:
            state.pending = [d for d in state.pending if d.id != decision.id]
            side = illusion_side(state, ruleset, battle, decision.faction)
            events = reroll(state, ruleset, dice, battle, decision.faction, side, detail.default)
            return events + advance(state, ruleset, dice, battle)
        if isinstance(detail, EnchantVictimDetail) and detail.battle == battle.id:
            state.pending = [d for d in state.pending if d.id != decision.id]
            events = enchant(state, battle, detail.faction, detail.enchanters, detail.default)
            return events + advance(state, ruleset, dice, battle)
    raise RuleViolation(
        f"The decision {decision.id} ({decision.kind}) is not a battle decision of the battle "
        "under way.",
        rule="R-PBP-DEAD-04",
    )


# --------------------------------------------------------------------------- the battle machine


def awaiting_withdrawal_choice(state: GameState, faction: str) -> Battle:
    battle = state.battle
    if battle is None or battle.phase is not BattlePhase.PRESS_OR_WITHDRAW:
        raise IllegalCombat(
            "No battle is waiting for the attacker to press on or withdraw.",
            rule="R-COMBAT-08",
        )
    if battle.attacker != faction:
        raise IllegalCombat(
            f"Only the attacker ({battle.attacker}) may press on or withdraw.",
            rule="R-COMBAT-08",
        )
    return battle


def drop_decisions(state: GameState, battle_id: int, kind: DecisionKind) -> None:
    state.pending = [d for d in state.pending if not (d.kind is kind and d.battle_id == battle_id)]


def settle(state: GameState, share: CasualtyShare, unit_ids: list[int]) -> None:
    """``unit_ids`` take the hits of ``share`` (R-COMBAT-06); its decision, if any, is closed.
    A share listed in the battle's ``owed`` is never changed (the clones of the state share
    it, :meth:`GameState.clone`): a settled copy takes its place in the list."""
    battle = state.battle
    if battle is not None:
        settled = CasualtyShare(
            share.faction, share.side, share.hits, share.chooser, share.decision, unit_ids
        )
        battle.owed = [settled if s is share else s for s in battle.owed]
    if share.decision is not None:
        state.pending = [d for d in state.pending if d.id != share.decision]


def next_round(battle: Battle) -> None:
    """Begin the next round: its round-start phase runs from its first slot (R-COMBAT-03);
    this round's declarations, Abjurer cancels and Illusionist uses are spent."""
    battle.round += 1
    battle.phase = BattlePhase.ROUND_START
    battle.start_done = 0
    battle.declared = []
    battle.abjured = []
    battle.illusion_used = []
    battle.enchant_successes = []


def close_round(battle: Battle) -> None:
    """The withdrawal check is over and the battle goes on: the round's enchantments take
    effect before the next round (R-COMBAT-03 (d), R-MAGIC-ENCH-01)."""
    battle.phase = BattlePhase.ENCHANTMENT


def advance(state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle) -> list[Event]:
    """Fight ``battle`` on until it needs a decision or ends (R-COMBAT-03..13)."""
    events: list[Event] = []
    while True:
        if battle.phase is _ROUND_START_PHASE:
            if battle.start_done == 0:
                battle.round_losses = False
            start_events, complete = run_round_start(state, ruleset, dice, battle)
            events += start_events
            if _decided(battle):
                return events + end_battle(state, ruleset, battle, None)
            if not complete:
                return events
            events += _roll_step(state, ruleset, dice, battle, _MISSILE_STEP)
            battle.phase = _MISSILE_ILLUSION_PHASE
        if battle.phase in (_MISSILE_ILLUSION_PHASE, _MELEE_ILLUSION_PHASE):
            if waits_on_players(state, battle):
                return events
            events += _tally(state, ruleset, battle)
            battle.phase = (
                _MISSILE_CASUALTIES_PHASE
                if battle.phase is _MISSILE_ILLUSION_PHASE
                else _MELEE_CASUALTIES_PHASE
            )
        if battle.phase is _ENCHANTMENT_PHASE:
            if waits_on_players(state, battle):
                return events
            events += enchantment_phase(state, ruleset, battle)
            if _decided(battle):
                return events + end_battle(state, ruleset, battle, None)
            if waits_on_players(state, battle):
                return events
            next_round(battle)
            continue
        if battle.phase in (_MISSILE_CASUALTIES_PHASE, _MELEE_CASUALTIES_PHASE):
            if any(s.assignment is None for s in battle.owed):
                return events
            events += _remove_casualties(state, ruleset, battle)
            if _decided(battle):
                return events + end_battle(state, ruleset, battle, None)
            if battle.phase is _MISSILE_CASUALTIES_PHASE:
                events += _roll_step(state, ruleset, dice, battle, _MELEE_STEP)
                battle.phase = _MELEE_ILLUSION_PHASE
                continue
            round_events, fights_on = _end_round(state, ruleset, battle)
            events += round_events
            if not fights_on:
                return events
            close_round(battle)
            continue
        return events


def _decided(battle: Battle) -> bool:
    """A side has no units left (R-COMBAT-07)."""
    return not battle.attacker_units or not battle.defender_units


def _lose_bound(state: GameState, ruleset: Ruleset, battle: Battle) -> list[Event]:
    """Undead whose faction's last Necromancer, and Summoned units whose faction's last
    Summoner, has just been removed go at once, with that step's casualties
    (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03): off the board and off the battle's sides."""
    events, gone = lose_bound_units(state, ruleset, battle=battle.id)
    if gone:
        battle.round_losses = True
    return events


def _roll_step(
    state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle, step: CombatStep
) -> list[Event]:
    """Roll every die of ``step`` and work out who owes casualties (R-COMBAT-04, -05, -06)."""
    roster = battle_roster(state, ruleset, battle)
    idle = idle_illusionists(battle)
    special = bool(battle.declared or idle)
    if special:
        fighters = roster.fighters
        ctx = battle_context(state, ruleset, battle, fighters)
        declared = set(battle.declared)
        actions = {
            f.id: action
            for f in fighters
            if f.id in declared and (action := special_action(f.kind)) is not None
        }
        specs = step_dice(step, fighters, ctx, actions, state.options, idle=idle)
        if not specs:
            return []
        by_side = _by_side(specs)
    else:  # the dice the roster keeps from step to step, by side (decision 0013)
        by_side = roster.side_specs(step, battle.round)
        if not by_side[0] and not by_side[1]:
            return []
    name = ruleset.map.space_name(battle.space)
    head = f"battle #{battle.id} at {name}, round {battle.round}, {_STEP_WORD[step]} step, "
    rolled: list[BattleDie] = []
    hit_by = [0, 0]  # hits of the attacker's and the defender's normal dice
    tenths = [0, 0]  # and the hits expected of them, in tenths (the dice luck)
    for side, mine in zip(_SIDES, by_side, strict=True):
        if not mine:
            continue
        if side is _ATTACKER:
            reason = f"{head}{_ATTACKER_WORD} ({battle.attacker})"
        else:
            reason = f"{head}{_DEFENDER_WORD} ({'/'.join(battle.defenders)})"
        faces = dice.roll(DIE_SIDES, len(mine), reason=reason)
        if not special:  # the roster's dice are all normal dice
            on = side is _DEFENDER
            made, hit_by[on], tenths[on] = roster.normal_dice(mine, faces)
            rolled += made
            continue
        for spec, face in zip(mine, faces, strict=True):
            if spec.purpose is _NORMAL_DIE:
                rolled.append(normal_die(spec, face))
            else:
                hit, own = judge(spec.purpose, face, spec.target, state.options)
                rolled.append(
                    BattleDie(
                        spec.unit, spec.kind, spec.side, spec.target, face, hit, spec.purpose, own
                    )
                )
    record = BattleStepRecord(battle.round, step, rolled)
    battle.records.append(record)
    if not roster.specials():  # no Illusionist fights (the roster lists them): nothing to ask
        if not special:  # nothing can change these dice before they are counted (_tally)
            record.hits_on_attacker, record.hits_on_defender = hit_by[1], hit_by[0]
            luck = (len(by_side[0]), hit_by[0], tenths[0]), (len(by_side[1]), hit_by[1], tenths[1])
            battle.memo()[_ROLLED_LUCK] = (rolled, luck)
        return []
    return illusion_check(state, ruleset, dice, battle)


def _by_side(specs: Sequence[DieSpec]) -> tuple[Sequence[DieSpec], Sequence[DieSpec]]:
    """The attacker's dice of ``specs`` and the defender's, each in the order given: two
    slices when the attacker's come first (as :func:`step_dice` gives them), found in C."""
    on = list(map(_SPEC_SIDE, specs))
    split = on.count(_ATTACKER)
    if _ATTACKER not in on[split:]:
        return specs[:split], specs[split:]
    return [d for d in specs if d.side is _ATTACKER], [d for d in specs if d.side is _DEFENDER]


_SPEC_SIDE = attrgetter("side")


def step_hits(dice: Sequence[BattleDie]) -> tuple[int, int]:
    """Hits on (attacker, defender) from a step's standing dice (R-COMBAT-04,
    R-ATTR-BREATH-01): each hit die on the other side, each breath 10 on its own side; the
    enchant die hits nobody (R-MAGIC-ENCH-01)."""
    if (
        set(map(_PURPOSE, dice)) <= _NORMAL_ONLY
        and not any(map(_REROLLED, dice))
        and not any(map(_VOID, dice))
        and not any(map(_OWN_SIDE, dice))
    ):  # every die a normal die that stands (most steps): counted in C when the attacker's
        # dice come first, as a step rolls them; each side's hits land on the other side
        on = list(map(_SIDE, dice))
        split = on.count(_ATTACKER)
        if _ATTACKER not in on[split:]:
            hits = list(map(_HIT, dice))
            return sum(hits[split:]), sum(hits[:split])
    on_attacker = on_defender = 0
    for d in dice:
        if not d.counts or d.purpose is _ENCHANT_DIE:
            continue
        if d.hit:
            if d.side is _ATTACKER:
                on_defender += 1
            else:
                on_attacker += 1
        elif d.own_side:
            if d.side is _ATTACKER:
                on_attacker += 1
            else:
                on_defender += 1
    return on_attacker, on_defender


_FIGHTER_ID = attrgetter("id")
_PURPOSE = attrgetter("purpose")
_HIT = attrgetter("hit")
_REROLLED = attrgetter("rerolled")
_VOID = attrgetter("void")
_OWN_SIDE = attrgetter("own_side")
_SIDE = attrgetter("side")
_NORMAL_ONLY = frozenset((DiePurpose.NORMAL,))


def _tally(state: GameState, ruleset: Ruleset, battle: Battle) -> list[Event]:
    """Count the hits of the step just rolled, after any rerolls, note the enchantments that
    succeeded, and work out who owes casualties (R-COMBAT-04, -06, R-MAGIC-ENCH-01)."""
    if not battle.records or battle.records[-1].round != battle.round:
        return []
    record = battle.records[-1]
    if record.step is not (
        _MISSILE_STEP if battle.phase is _MISSILE_ILLUSION_PHASE else _MELEE_STEP
    ):
        return []
    roster = battle_roster(state, ruleset, battle)
    dice = tuple(record.dice)
    if battle.declared or battle.illusion_used or roster.specials():
        on_attacker, on_defender = step_hits(record.dice)
        record.hits_on_attacker, record.hits_on_defender = on_attacker, on_defender
    else:  # normal dice, no Illusionist: counted as they were rolled (_roll_step)
        on_attacker, on_defender = record.hits_on_attacker, record.hits_on_defender
        counted = battle.memo().get(_ROLLED_LUCK)
        if counted is not None and counted[0] is record.dice:  # type: ignore[index]
            keep_step_luck(battle, dice, *counted[1])  # type: ignore[index]
    if battle.declared:  # only a declared Enchanter rolls an enchant die (R-MAGIC-ENCH-01)
        battle.enchant_successes = [
            *battle.enchant_successes,
            *(d.unit for d in record.dice if d.counts and d.purpose is _ENCHANT_DIE and d.hit),
        ]
    ctx = roster.context(battle.round)  # what battle_context gives for its fighters
    events: list[Event] = [
        BattleStepResolved(
            battle.id,
            battle.space,
            battle.round,
            record.step,
            dice,
            on_attacker,
            on_defender,
        )
    ]
    events += _owe(state, ruleset, battle, roster, ctx, _ATTACKER, on_attacker)
    events += _owe(state, ruleset, battle, roster, ctx, _DEFENDER, on_defender)
    return events


def _owe(
    state: GameState,
    ruleset: Ruleset,
    battle: Battle,
    roster: Roster,
    ctx: StepContext,
    side: Side,
    hits: int,
) -> list[Event]:
    """Record the casualties ``side`` owes; ask a faction only when it has a real choice.
    Reads the roster's kept lists (each faction's fighters, the hits they can take, their
    casualty order) instead of working them out from the fighter list."""
    if hits <= 0:
        return []
    order = [battle.attacker] if side is _ATTACKER else battle.defenders
    if len(order) == 1:  # share_hits of one faction: every hit, as far as its units can take
        given = min(hits, roster.room(side, order[0]))
        shares = [(order[0], given)] if given > 0 else []
    else:
        shares = share_hits(roster.side(side), hits, order)
    events: list[Event] = []
    for faction, share_count in shares:
        if state.options.casualty_chooser == "opponent":
            chooser = battle.defenders[0] if side is _ATTACKER else battle.attacker
        else:
            chooser = faction
        share = CasualtyShare(faction, side, share_count, chooser)
        if roster.magic is None:  # no shields: the roster's kept casualty order
            default = roster.default_casualties(side, faction, share_count, ctx)
        else:
            default = default_casualties(roster.of(side, faction), share_count, ctx)
        if roster.real_choice(side, faction, share_count):
            decision = PendingDecision(  # id, faction, kind, reaction, detail
                state.new_id(),
                chooser,
                _CASUALTIES_DECISION,
                chooser != state.active,
                CasualtiesDetail(  # battle, space, round, step, faction, hits, units, default
                    battle.id,
                    battle.space,
                    battle.round,
                    battle.records[-1].step,
                    faction,
                    share_count,
                    _candidates(state, ruleset, battle, roster, side, faction),
                    tuple(default),
                ),
            )
            state.pending.append(decision)
            share.decision = decision.id
            events.append(
                CasualtiesOwed(battle.id, battle.space, chooser, faction, share_count, decision.id)
            )
        else:
            share.assignment = default
        battle.owed.append(share)
    return events


def _candidates(
    state: GameState, ruleset: Ruleset, battle: Battle, roster: Roster, side: Side, faction: str
) -> tuple[CasualtyCandidate, ...]:
    """The lines of a ``casualties`` decision (R-COMBAT-06): :func:`battle_candidates` of the
    faction's fighters, kept by the roster from one step to the next."""
    lines = roster.candidates(side, faction)
    if lines is None:
        mine = roster.of(side, faction)
        if roster.magic is None:  # kept by this roster and those made from it: made here
            lines = tuple(
                [
                    CasualtyCandidate(f.id, f.kind.id, f.wounded, f.capacity)
                    for f in sorted(mine, key=_FIGHTER_ID)
                ]
            )
        else:
            lines = battle_candidates(state, ruleset, battle, mine)
        roster.keep_candidates(side, faction, lines)
    return lines


def _remove_casualties(state: GameState, ruleset: Ruleset, battle: Battle) -> list[Event]:
    """Remove the step's casualties from both sides at once (R-COMBAT-04, -06, R-ATTR-FORTI-01)."""
    if not battle.owed:
        return []
    roster = battle_roster(state, ruleset, battle)
    if roster.magic is None and not roster.has_ships():
        return _remove_plain(state, ruleset, battle, roster)
    return _remove_any(state, ruleset, battle, roster)


def _remove_any(state: GameState, ruleset: Ruleset, battle: Battle, roster: Roster) -> list[Event]:
    """:func:`_remove_casualties` in any battle: shields (R-MAGIC-ABJ-01), enchanted units
    going back (R-MAGIC-ENCH-03), units going down with their ship (R-MOVE-19)."""
    by_id = roster.by_id
    destroyed: dict[Side, list[int]] = {_ATTACKER: [], _DEFENDER: []}
    wounded: dict[Side, list[int]] = {_ATTACKER: [], _DEFENDER: []}
    absorbed: list[int] = []
    for share in battle.owed:
        assert share.assignment is not None
        hit = [by_id[uid] for uid in dict.fromkeys(share.assignment)]
        gone, hurt, saved = apply_hits(hit, share.assignment)
        destroyed[share.side] += gone
        wounded[share.side] += hurt
        absorbed += saved
    if roster.has_ships():  # R-MOVE-19: the units aboard a sunk ship go down with it
        for side in _SIDES:
            destroyed[side] += lost_with_ships(state, ruleset, destroyed[side])
    for side in _SIDES:
        for uid in wounded[side]:
            state.unit(uid).wounded = True
    battle.abjured = [*battle.abjured, *absorbed]
    back = remove_units(state, battle, destroyed[_ATTACKER] + destroyed[_DEFENDER])
    battle.owed = []
    record = battle.records[-1]
    record.destroyed = sorted(destroyed[_ATTACKER] + destroyed[_DEFENDER])
    record.wounded = sorted(wounded[_ATTACKER] + wounded[_DEFENDER])
    record.absorbed = sorted(absorbed)
    if record.destroyed or record.wounded:
        battle.round_losses = True
    broken: list[Event] = [EnchantmentsBroken(battle.id, battle.space, tuple(back))] if back else []
    removed: list[Event] = [
        CasualtiesRemoved(
            battle.id,
            battle.space,
            battle.round,
            record.step,
            tuple(sorted(destroyed[_ATTACKER])),
            tuple(sorted(wounded[_ATTACKER])),
            tuple(sorted(destroyed[_DEFENDER])),
            tuple(sorted(wounded[_DEFENDER])),
            tuple(sorted(absorbed)),
        ),
        *broken,
    ]
    # bound units can only be left without their master when a master goes (the checks
    # after every order leave none without one); a unit the battle did not list (cargo gone
    # down with its ship) is not known here, so it is checked too
    if any(uid not in by_id or holds_a_bond(by_id[uid].kind) for uid in record.destroyed):
        removed += _lose_bound(state, ruleset, battle)
    return removed


def _remove_plain(
    state: GameState, ruleset: Ruleset, battle: Battle, roster: Roster
) -> list[Event]:
    """:func:`_remove_casualties` without battle magic (no shield absorbs a hit, nobody is
    enchanted) and without ships (nobody goes down with one): what :func:`apply_hits` gives
    for each share, worked out in one pass over its units (a unit named as often as it can
    take hits is destroyed, a Fortitude unit named once wounded, R-COMBAT-06,
    R-ATTR-FORTI-01). The roster of what is left is handed on to the next step
    (:func:`hand_on`): the units gone and wounded are known here."""
    by_id = roster.by_id
    lost: tuple[list[int], list[int]] = ([], [])  # destroyed on each side
    hurt: tuple[list[int], list[int]] = ([], [])  # wounded on each side
    for share in battle.owed:
        named = share.assignment
        assert named is not None
        on = share.side is _DEFENDER
        gone, wounded = lost[on], hurt[on]
        if len(set(named)) == len(named):  # each unit named once (most shares)
            for uid in named:
                (wounded if by_id[uid].capacity > 1 else gone).append(uid)
        else:
            times: dict[int, int] = {}
            for uid in named:
                times[uid] = times.get(uid, 0) + 1
            for uid, n in times.items():
                (gone if n >= by_id[uid].capacity else wounded).append(uid)
    for side_lost in (*lost, *hurt):
        side_lost.sort()
    for side_hurt in hurt:
        for uid in side_hurt:
            state.unit(uid).wounded = True
    destroyed = lost[0] + lost[1]
    remove_units(state, battle, destroyed, ships=False)
    battle.owed = []
    record = battle.records[-1]
    record.destroyed = sorted(destroyed)
    record.wounded = sorted(hurt[0] + hurt[1])
    record.absorbed = []
    if record.destroyed or record.wounded:
        battle.round_losses = True
    removed: list[Event] = [
        CasualtiesRemoved(
            battle.id,
            battle.space,
            battle.round,
            record.step,
            tuple(lost[0]),
            tuple(hurt[0]),
            tuple(lost[1]),
            tuple(hurt[1]),
            (),
        )
    ]
    # bound units can only be left without their master when a master goes (the checks
    # after every order leave none without one); most battles have no master at all
    if not roster.flag(_NO_MASTER, _holds_no_bond) and any(
        holds_a_bond(by_id[uid].kind) for uid in destroyed
    ):
        removed += _lose_bound(state, ruleset, battle)
    if not _decided(battle):  # the battle goes on: its next step reads the roster
        hand_on(state, ruleset, battle, roster, set(destroyed), record.wounded)
    return removed


def _holds_no_bond(roster: Roster) -> bool:
    """Nobody in ``roster`` holds a bond up (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03): stays true as
    units leave. Each kind is asked once (a battle holds a few kinds)."""
    kinds = {id(f.kind): f.kind for f in roster.fighters}
    return not any(holds_a_bond(kind) for kind in kinds.values())


_NO_MASTER = "no bond master"
#: the memo's entry for a step's dice luck as it was rolled, until _tally keeps it for the
#: step's event (keep_step_luck): (the step's dice list, luck)
_ROLLED_LUCK = "rolled luck"


def _end_round(state: GameState, ruleset: Ruleset, battle: Battle) -> tuple[list[Event], bool]:
    """The withdrawal check closing a round with both sides standing (R-COMBAT-08, -13).

    Returns the events and whether the next round follows at once (no stalemate, and no
    attacking unit may withdraw, so there is nothing to ask)."""
    battle.hitless_rounds = 0 if battle.round_losses else battle.hitless_rounds + 1
    events: list[Event] = [
        BattleRoundEnded(
            battle.id,
            battle.space,
            battle.round,
            tuple(battle.attacker_units),
            tuple(battle.defender_units),
            battle.hitless_rounds,
        )
    ]
    if battle.hitless_rounds >= state.options.stalemate_rounds:
        return events + end_battle(state, ruleset, battle, BattleResult.STALEMATE), False
    roster = battle_roster(state, ruleset, battle)  # its lists are kept from step to step
    leaving = tuple(map(_FIGHTER_ID, roster.withdrawing(True)))
    staying = tuple(map(_FIGHTER_ID, roster.withdrawing(False)))
    if not leaving or (staying and state.options.withdraw_mixed == "forbidden"):
        return events, True
    decision = PendingDecision(
        id=state.new_id(),
        faction=battle.attacker,
        kind=_PRESS_OR_WITHDRAW_DECISION,
        reaction=battle.attacker != state.active,
        detail=PressOrWithdrawDetail(battle.id, battle.space, battle.round, leaving, staying),
    )
    state.pending.append(decision)
    battle.phase = _PRESS_OR_WITHDRAW_PHASE
    events.append(
        WithdrawalOffered(
            battle.id, battle.space, battle.attacker, battle.round, decision.id, leaving, staying
        )
    )
    return events, False


def withdraw_units(
    state: GameState,
    battle: Battle,
    unit_ids: Sequence[int],
    by_sea: Mapping[int, tuple[str, str]] | None = None,
) -> AttackerWithdrew:
    """Send ``unit_ids`` back to the space each came from; their movement ends (R-COMBAT-08).
    ``by_sea``: unit id -> (sea zone, province) for Amphibian units retreating across a sea
    zone instead (R-ATTR-AMPH-03)."""
    destinations: list[str] = []
    for uid in unit_ids:
        unit = state.unit(uid)
        route = (by_sea or {}).get(uid)
        if route is None:
            origin = unit.entered_from
            assert origin is not None
            unit.location = origin
            unit.path = [*unit.path, origin]
            unit.entered_from = battle.space
        else:
            sea, origin = route
            unit.location = origin
            unit.path = [*unit.path, sea, origin]
            unit.entered_from = sea
        unit.attacking = False
        unit.move_ended = True
        unit.terrain = None
        destinations.append(origin)
    gone = set(unit_ids)
    battle.attacker_units = [u for u in battle.attacker_units if u not in gone]
    battle.withdrawn = [*battle.withdrawn, *unit_ids]  # replaced, never changed in place
    return AttackerWithdrew(
        battle.id, battle.space, battle.attacker, tuple(unit_ids), tuple(destinations)
    )


def end_battle(
    state: GameState, ruleset: Ruleset, battle: Battle, forced: BattleResult | None
) -> list[Event]:
    """End ``battle`` (R-COMBAT-10, R-COMBAT-11, R-COMBAT-13, R-ATTR-FORTI-02)."""
    events: list[Event] = []
    destroyed_at_end: list[int] = []
    if forced is BattleResult.STALEMATE:
        attackers = [f for f in battle_fighters(state, ruleset, battle) if f.side is Side.ATTACKER]
        leaving = [f.id for f in attackers if f.can_withdraw]
        if leaving:
            events.append(withdraw_units(state, battle, leaving))
        destroyed_at_end += [f.id for f in attackers if not f.can_withdraw]
        remove_units(state, battle, destroyed_at_end)
    enchanted = {e.unit for e in battle.enchanted}
    for uid in battle.attacker_units + battle.defender_units + battle.withdrawn:
        unit = dict.get(state.units, str(uid))  # read only: copied below if it changes
        if uid in enchanted:
            destroyed_at_end.append(uid)  # R-MAGIC-ENCH-03
        elif unit is not None and unit.wounded:
            if state.options.fortitude_end == "heal":
                state.unit(uid).wounded = False
            else:
                destroyed_at_end.append(uid)
    battle.enchanted = []
    remove_units(state, battle, destroyed_at_end)
    events += _lose_bound(state, ruleset, battle)
    result = forced or classify(len(battle.attacker_units), len(battle.defender_units))
    if result is BattleResult.ATTACKER_WON and not is_naval(ruleset, battle.space):
        events += capture(state, battle.space, battle.attacker, battle=battle.id)
    for uid in battle.attacker_units:
        state.unit(uid).attacking = False
    events.append(
        BattleEnded(
            battle.id,
            battle.space,
            result,
            tuple(battle.attacker_units),
            tuple(battle.defender_units),
            tuple(sorted(destroyed_at_end)),
            state.owner(battle.space),
        )
    )
    state.battles_due = [s for s in state.battles_due if s != battle.space]
    state.pending = [d for d in state.pending if d.battle_id != battle.id]
    state.battle = None
    return events
