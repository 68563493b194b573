"""The Illusionist's rerolls (R-MAGIC-ILL-01) and the Enchanter's enchantments
(R-MAGIC-ENCH-01..03) in a battle.

Illusionist. Once a step's dice are rolled, each side's unused Illusionists (per faction) may
force up to three each of the enemy dice that scored hits on their side to be rerolled: normal,
breath and invoker hit dice qualify; the enchant die, dice rolled by Undead and dice already
rerolled this round do not. The faction's standing rule (:attr:`Battle.illusion_rules`) decides
without asking: reroll as many as allowed whenever at least that many eligible hits landed;
with no rule, or the rule 0, it is asked (an ``illusion_reroll`` decision). An Illusionist that
acts is used for the round: its own dice of that step do not count, and it rolls nothing later
in the round. The new faces replace the old (the old die is kept, marked ``rerolled``; the
new one is added to the step's dice with ``replaces`` pointing at it).

Enchanter. A declared Enchanter's die (4 or less) succeeds; after the round's casualties and
the withdrawal check, if the battle goes on and the Enchanter still stands, the victim's side
picks one of its susceptible units per success (not Undead, not of a type in
``enchant_immune_types``; default the cheapest), and it fights for the Enchanter's side from the
next round (:func:`enchant`). It goes back when its Enchanter is destroyed
(:func:`caedes_bot.rules.combat.roster.remove_units`) and is destroyed if still enchanted when
the battle ends.
"""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Attribute, Options, Ruleset, UnitKind
from caedes_bot.rules.combat.arithmetic import DIE_SIDES, Fighter, casualty_rank
from caedes_bot.rules.combat.magic_events import (
    DiceRerolled,
    EnchantVictimsOwed,
    RerollOwed,
    UnitsEnchanted,
)
from caedes_bot.rules.combat.roster import move_to_other_side
from caedes_bot.rules.combat.sides import (
    battle_context,
    battle_fighters,
    battle_roster,
    controller,
)
from caedes_bot.rules.combat.specials import judge
from caedes_bot.rules.dependants import is_immune_to_magic
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalCombat
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import (
    Battle,
    BattleDie,
    BattleNote,
    CasualtyCandidate,
    DecisionKind,
    DiePurpose,
    Enchantment,
    EnchantVictimDetail,
    GameState,
    NoteKind,
    PendingDecision,
    RerollCandidate,
    RerollDetail,
    Side,
)

#: Dice one Illusionist may force to be rerolled (R-MAGIC-ILL-01).
REROLLS_PER_ILLUSIONIST = 3

# --------------------------------------------------------------------------- Illusionist


def idle_illusionists(battle: Battle) -> set[int]:
    """Illusionists that used their power this round and roll nothing more (R-MAGIC-ILL-01)."""
    return set(battle.illusion_used)


def eligible_dice(dice: Sequence[BattleDie], side: Side, kinds: dict[str, UnitKind]) -> list[int]:
    """Places in ``dice`` of the enemy dice that hit ``side`` and may be rerolled
    (R-MAGIC-ILL-01): rolled by the other side, standing, hits, not the enchant die, not
    rolled by an Undead unit, not themselves a reroll."""
    out: list[int] = []
    for n, d in enumerate(dice):
        if d.side is side or not d.counts or not d.hit or d.replaces is not None:
            continue
        if d.purpose is DiePurpose.ENCHANT:
            continue
        kind = kinds.get(d.kind)
        if kind is not None and is_immune_to_magic(kind):
            continue  # R-ATTR-UNDEAD-01
        out.append(n)
    return out


def _illusionists(fighters: Sequence[Fighter], battle: Battle) -> dict[tuple[Side, str], list[int]]:
    used = set(battle.illusion_used)
    found: dict[tuple[Side, str], list[int]] = {}
    for f in sorted(fighters, key=lambda f: f.id):
        if f.kind.has(Attribute.ILLUSIONIST) and f.id not in used:
            found.setdefault((f.side, f.faction), []).append(f.id)
    return found


def illusion_check(state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle) -> list[Event]:
    """After a step's dice: each side's Illusionists, attacker's first, reroll by their
    standing rule or are asked (R-MAGIC-ILL-01). Mutates the step's record."""
    roster = battle_roster(state, ruleset, battle)
    found = _illusionists(roster.specials(), battle)  # the Illusionists are among them
    fighters = roster.fighters
    if not found or not battle.records:
        return []
    record = battle.records[-1]
    kinds = {f.kind.id: f.kind for f in fighters}
    events: list[Event] = []
    for (side, faction), units in sorted(
        found.items(), key=lambda x: (x[0][0] is Side.DEFENDER, x[0][1])
    ):
        eligible = eligible_dice(record.dice, side, kinds)
        if not eligible:
            continue
        most = REROLLS_PER_ILLUSIONIST * len(units)
        rule = battle.illusion_rules.get(faction, 0)
        if rule > 0:
            if len(eligible) >= rule:
                events += reroll(state, ruleset, dice, battle, faction, side, eligible[:most])
            continue
        record_dice = record.dice
        decision = PendingDecision(
            id=state.new_id(),
            faction=faction,
            kind=DecisionKind.ILLUSION_REROLL,
            reaction=faction != state.active,
            detail=RerollDetail(
                battle=battle.id,
                space=battle.space,
                round=battle.round,
                step=record.step,
                faction=faction,
                dice=tuple(
                    RerollCandidate(
                        n,
                        record_dice[n].unit,
                        record_dice[n].kind,
                        record_dice[n].purpose,
                        record_dice[n].value,
                        record_dice[n].target,
                    )
                    for n in eligible
                ),
                most=most,
                default=tuple(eligible[:most]),
            ),
        )
        state.pending.append(decision)
        events.append(
            RerollOwed(battle.id, battle.space, faction, battle.round, record.step, decision.id)
        )
    return events


def reroll(
    state: GameState,
    ruleset: Ruleset,
    dice: Dice,
    battle: Battle,
    faction: str,
    side: Side,
    places: Sequence[int],
) -> list[Event]:
    """``faction``'s Illusionists on ``side`` force the dice at ``places`` of the step to be
    rerolled (R-MAGIC-ILL-01); nothing happens for no places.

    Raises:
        IllegalCombat: a place is not an eligible die now, is named twice, or there are more
            than the Illusionists may pick; nothing changes.
    """
    if not places:
        return []
    fighters = battle_fighters(state, ruleset, battle)
    units = _illusionists(fighters, battle).get((side, faction), [])
    record = battle.records[-1]
    kinds = {f.kind.id: f.kind for f in fighters}
    eligible = eligible_dice(record.dice, side, kinds)
    most = REROLLS_PER_ILLUSIONIST * len(units)
    if len(set(places)) != len(places) or not set(places) <= set(eligible) or len(places) > most:
        raise IllegalCombat(
            f"Pick at most {most} different enemy dice that hit your side, by their number in "
            "the step.",
            rule="R-MAGIC-ILL-01",
            allowed=", ".join(str(n) for n in eligible) or "none",
        )
    acting = units[: -(-len(places) // REROLLS_PER_ILLUSIONIST)]
    name = ruleset.map.space_name(battle.space)
    faces = dice.roll(
        DIE_SIDES,
        len(places),
        reason=f"battle #{battle.id} at {name}, round {battle.round}, {record.step.value} step, "
        f"Illusionist rerolls for {faction}",
    )
    new_dice = list(record.dice)
    old: list[BattleDie] = []
    new: list[BattleDie] = []
    for place, face in zip(places, faces, strict=True):
        was = new_dice[place]
        hit, own = judge(was.purpose, face, was.target, state.options)
        new_dice[place] = _replace_die(was, rerolled=True)
        fresh = BattleDie(
            was.unit, was.kind, was.side, was.target, face, hit, was.purpose, own, replaces=place
        )
        new_dice.append(fresh)
        old.append(was)
        new.append(fresh)
    acting_set = set(acting)
    new_dice = [
        _replace_die(d, void=True) if d.unit in acting_set and d.counts else d for d in new_dice
    ]
    record.dice = new_dice
    battle.illusion_used = [*battle.illusion_used, *acting]
    return [
        DiceRerolled(
            battle.id,
            battle.space,
            faction,
            battle.round,
            record.step,
            tuple(acting),
            tuple(old),
            tuple(new),
        )
    ]


def _replace_die(
    d: BattleDie, *, rerolled: bool | None = None, void: bool | None = None
) -> BattleDie:
    return BattleDie(
        d.unit,
        d.kind,
        d.side,
        d.target,
        d.value,
        d.hit,
        d.purpose,
        d.own_side,
        d.rerolled if rerolled is None else rerolled,
        d.replaces,
        d.void if void is None else void,
    )


def illusion_side(state: GameState, ruleset: Ruleset, battle: Battle, faction: str) -> Side:
    """The side whose Illusionists ``faction`` controls in ``battle``."""
    for f in battle_fighters(state, ruleset, battle):
        if f.faction == faction and f.kind.has(Attribute.ILLUSIONIST):
            return f.side
    return Side.ATTACKER if faction == battle.attacker else Side.DEFENDER


# --------------------------------------------------------------------------- Enchanter


def susceptible(kind: UnitKind, options: Options) -> bool:
    """Whether an enchantment may take a unit of ``kind`` (R-MAGIC-ENCH-02, R-ATTR-UNDEAD-01):
    not Undead, and not of a type in ``enchant_immune_types`` (base types ``infantry``,
    ``cavalry``, ``ship``, ``tower``, or ``hero`` for Heroes; any case)."""
    if is_immune_to_magic(kind):
        return False  # R-ATTR-UNDEAD-01
    immune = {t.lower() for t in options.enchant_immune_types}
    if str(kind.base_type).lower() in immune:
        return False
    return not (kind.hero and "hero" in immune)


def enchantment_phase(state: GameState, ruleset: Ruleset, battle: Battle) -> list[Event]:
    """Phase (d) of the round (R-COMBAT-03, R-MAGIC-ENCH-01): for each success of a standing
    Enchanter, the victim's side loses one susceptible unit to it, picked by its faction, in
    hand-out order one at a time (cheapest by default). With no real choice the units go at
    once; otherwise an ``enchant_victim`` decision is made. Clears the round's successes."""
    successes = [
        uid
        for uid in battle.enchant_successes
        if uid in battle.attacker_units or uid in battle.defender_units
    ]
    battle.enchant_successes = []
    if not successes:
        return []
    fighters = battle_fighters(state, ruleset, battle)
    ctx = battle_context(state, ruleset, battle, fighters)
    by_id = {f.id: f for f in fighters}
    events: list[Event] = []
    for side in Side:
        mine = [uid for uid in successes if by_id[uid].side is side]
        if not mine:
            continue
        victims = [
            f for f in fighters if f.side is side.other and susceptible(f.kind, state.options)
        ]
        order = [battle.attacker] if side.other is Side.ATTACKER else list(battle.defenders)
        factions = [code for code in order if any(f.faction == code for f in victims)]
        factions += sorted({f.faction for f in victims} - set(factions))
        shares: dict[str, list[int]] = {}
        room = {code: sum(1 for f in victims if f.faction == code) for code in factions}
        queue = list(mine)
        while queue and any(room.values()):
            for code in factions:
                if queue and room[code] > 0:
                    shares.setdefault(code, []).append(queue.pop(0))
                    room[code] -= 1
        for code, enchanters in shares.items():
            theirs = [f for f in victims if f.faction == code]
            ranked = sorted(theirs, key=lambda f: casualty_rank(f, ctx))
            default = tuple(f.id for f in ranked[: len(enchanters)])
            if not _real_choice(theirs, len(enchanters)):
                events += enchant(state, battle, code, tuple(enchanters), default)
                continue
            decision = PendingDecision(
                id=state.new_id(),
                faction=code,
                kind=DecisionKind.ENCHANT_VICTIM,
                reaction=code != state.active,
                detail=EnchantVictimDetail(
                    battle=battle.id,
                    space=battle.space,
                    round=battle.round,
                    faction=code,
                    enchanters=tuple(enchanters),
                    units=tuple(
                        CasualtyCandidate(f.id, f.kind.id, f.wounded, 1)
                        for f in sorted(theirs, key=lambda f: f.id)
                    ),
                    default=default,
                ),
            )
            state.pending.append(decision)
            events.append(
                EnchantVictimsOwed(battle.id, battle.space, code, len(enchanters), decision.id)
            )
    return events


def _real_choice(units: Sequence[Fighter], count: int) -> bool:
    """Whether picking ``count`` of ``units`` has more than one outcome: units of one kind and
    wound state are interchangeable."""
    if count >= len(units):
        return False
    return len({(f.kind.id, f.wounded) for f in units}) > 1


def enchant(
    state: GameState,
    battle: Battle,
    faction: str,
    enchanters: Sequence[int],
    victims: Sequence[int],
) -> list[Event]:
    """``victims`` (``faction``'s units, one per Enchanter in ``enchanters``) change sides
    (R-MAGIC-ENCH-01): each fights for the faction its Enchanter fights for, from the next round.
    A victim that was itself enchanted simply goes home."""
    pairs: list[tuple[int, int]] = []
    for enchanter, victim in zip(enchanters, victims, strict=False):
        if any(e.unit == victim for e in battle.enchanted):
            battle.enchanted = [e for e in battle.enchanted if e.unit != victim]
        else:
            battle.enchanted = [
                *battle.enchanted,
                Enchantment(victim, enchanter, controller(state, battle, enchanter)),
            ]
        move_to_other_side(battle, victim)
        pairs.append((victim, enchanter))
    if not pairs:
        return []
    battle.notes = [
        *battle.notes,
        BattleNote(
            battle.round,
            NoteKind.ENCHANTED,
            faction,
            units=tuple(v for v, _ in pairs),
            enchanters=tuple(e for _, e in pairs),
        ),
    ]
    return [UnitsEnchanted(battle.id, battle.space, faction, battle.round, tuple(pairs))]


def check_victims(ruleset: Ruleset, detail: EnchantVictimDetail, ids: Sequence[int]) -> None:
    """Check an answer to an ``enchant_victim`` decision (R-MAGIC-ENCH-01).

    Raises:
        IllegalCombat: not one different unit per success, or a unit not among those shown.
    """
    allowed = {u.id for u in detail.units}
    if len(ids) != len(detail.enchanters) or len(set(ids)) != len(ids) or not set(ids) <= allowed:
        names = ", ".join(f"#{u.id} {ruleset.kind(u.kind).display_name}" for u in detail.units)
        raise IllegalCombat(
            f"Pick exactly {len(detail.enchanters)} different unit(s) for the enchantment.",
            rule="R-MAGIC-ENCH-01",
            allowed=names,
        )
