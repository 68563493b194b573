"""Combat over land, step 7 of a turn (R-COMBAT-01..11, R-COMBAT-13, R-COMBAT-15).

The module has two layers.

**The battle arithmetic** (pure functions of :class:`Fighter` lists): who rolls in which step and
against which target (:func:`step_dice`, R-COMBAT-04/05, R-GEN-02/03 and the attribute rules),
how hits are shared among defending factions (:func:`share_hits`), the default casualties
(:func:`default_casualties`), whether a casualty choice is a real one (:func:`has_real_choice`),
the Mercenary check (:func:`mercenary_losses`), end-of-battle cleanup and the result
(:func:`survives_cleanup`, :func:`classify`). Real battles and the odds calculator
(:mod:`caedes_bot.rules.odds`) both use exactly these, so they cannot disagree.

**The battle in the game state** (:class:`~caedes_bot.rules.state.Battle` in ``state.battle``):

* When the active faction ends step 6 the turn machinery calls :func:`begin_combat_step`, which
  lists ``state.battles_due``: every province where its units entered while other factions'
  units stood there (R-COMBAT-01), ordered by province name (the default order, R-COMBAT-02).
* :class:`FightBattle` picks the next one (R-COMBAT-02). The attacker side is the active
  faction's units there except Towers (R-COMBAT-15); the defender side is every unit there of
  a faction that is not the attacker's pact partner (and, with ``river_ship_occupies``, such
  factions' ships on the province's river edges, R-MOVE-13); partners of the attacker there
  take no part (R-COMBAT-01).
* Each round (R-COMBAT-03): (0) the Mercenary check per faction per side (R-ATTR-MERC-01,
  default cheapest); (a) the missile step (R-COMBAT-04); (b) the melee step (R-COMBAT-05);
  (c) the withdrawal check (R-COMBAT-08). After every removal, a side without units ends the
  battle at once (R-COMBAT-07).
* In each step every die of both sides is rolled first (attacker's dice, then defender's, each
  in unit id order, a Mighty unit's two dice together), then casualties are removed from both
  sides at the same time (R-COMBAT-04). A faction whose units take hits and which has a real
  choice gets a ``casualties`` :class:`~caedes_bot.rules.state.PendingDecision`, answered with
  :class:`AssignCasualties`; without a real choice the rules apply the only possible result.
  Both sides choose at once; the battle goes on when the last choice is in.
* After the melee step, if both sides still have units, the round ends. If ``stalemate_rounds``
  rounds in a row had no unit removed or wounded the battle ends in stalemate (R-COMBAT-13).
  Otherwise, if any attacking unit can withdraw, the attacker gets a ``press_or_withdraw``
  decision, answered with :class:`PressOn` or :class:`Withdraw` (R-COMBAT-08, -09).
* At the end (R-COMBAT-10, R-COMBAT-11): wounded units are destroyed (option ``fortitude_end``,
  R-ATTR-FORTI-02); if the attacker still has units and the defender none, the province passes
  to the attacker (unless it is held by the attacker or a partner); any other end leaves the
  owner unchanged. Surviving attackers stay, no longer attacking.

When step 7 ends the turn machinery calls :func:`finish_combat_step`, which refuses while a
battle is due or unfinished and then applies R-COLL-02(b).

Not built yet (units with these fight with normal dice): the optional special actions of
R-COMBAT-12 (Breathweapon, Invoker, Abjurer, Enchanter, Illusionist), summons in battle
(R-MAGIC-SUMM-01), naval battles (R-COMBAT-14), the landing cavalry penalty (R-MOVE-20), flying
withdrawal limits (R-ATTR-FLY-02), blitz continuation (R-ATTR-BLITZ-02), and the loss of Undead
or Summoned units with the last Necromancer or Summoner (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import Attribute, BaseType, Options, Ruleset, Terrain, UnitKind
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalCombat, RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement import hostile_units
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    Battle,
    BattleDie,
    BattlePhase,
    BattleStepRecord,
    CasualtyShare,
    CombatStep,
    GameState,
    PendingDecision,
    Side,
    Unit,
)
from caedes_bot.rules.values import (
    DIE_SIDES,
    attack_value,
    best_combat_terrain,
    defense_value,
    dice_per_roll,
    is_hit,
    missile_usable,
    morale_shift,
    suffers_predator,
)

# --------------------------------------------------------------------------- orders


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
    """The attacker withdraws every attacking unit that may (R-COMBAT-08, R-COMBAT-09)."""

    label = "Withdrawing"


# --------------------------------------------------------------------------- events


class BattleResult(enum.StrEnum):
    """How a battle ended (R-COMBAT-10, R-COMBAT-11, R-COMBAT-13)."""

    ATTACKER_WON = "attacker_won"
    """The defender has no units and the attacker has some after cleanup: the province passes."""
    DEFENDER_HELD = "defender_held"
    """The attacker has no units and the defender has some."""
    BOTH_DESTROYED = "both_destroyed"
    """Neither side has a unit after cleanup; the owner is unchanged."""
    WITHDRAWN = "withdrawn"
    """The attacker withdrew all its units; the owner is unchanged."""
    STALEMATE = "stalemate"
    """Too many hitless rounds in a row (R-COMBAT-13); the owner is unchanged."""


@dataclass(frozen=True, slots=True)
class BattlesDue(Event):
    """``faction`` must fight in ``spaces`` this step 7 (R-COMBAT-01), default order first."""

    faction: str
    spaces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BattleBegan(Event):
    """A battle began (R-COMBAT-01): who fights on each side."""

    battle: int
    space: str
    attacker: str
    defenders: tuple[str, ...]
    attacker_units: tuple[int, ...]
    defender_units: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BattleStepResolved(Event):
    """The dice of one missile or melee step (R-COMBAT-04, -05, R-GEN-08): every die with its
    unit, target, face and whether it hit; and the hits on each side."""

    battle: int
    space: str
    round: int
    step: CombatStep
    dice: tuple[BattleDie, ...]
    hits_on_attacker: int
    hits_on_defender: int


@dataclass(frozen=True, slots=True)
class CasualtiesOwed(Event):
    """``chooser`` must choose which of ``faction``'s units take ``hits`` (R-COMBAT-06)."""

    battle: int
    space: str
    chooser: str
    faction: str
    hits: int
    decision: int


@dataclass(frozen=True, slots=True)
class CasualtiesRemoved(Event):
    """Casualties of one step, removed from both sides at once (R-COMBAT-04, -06)."""

    battle: int
    space: str
    round: int
    step: CombatStep
    attacker_destroyed: tuple[int, ...]
    attacker_wounded: tuple[int, ...]
    defender_destroyed: tuple[int, ...]
    defender_wounded: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BattleRoundEnded(Event):
    """A round ended with both sides still fighting (R-COMBAT-03)."""

    battle: int
    space: str
    round: int
    attacker_units: tuple[int, ...]
    defender_units: tuple[int, ...]
    hitless_rounds: int


@dataclass(frozen=True, slots=True)
class WithdrawalOffered(Event):
    """The attacker may press on or withdraw ``can_withdraw`` (R-COMBAT-08, -09)."""

    battle: int
    space: str
    faction: str
    round: int
    decision: int
    can_withdraw: tuple[int, ...]
    must_stay: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AttackerWithdrew(Event):
    """Attacking units withdrew, each to the space it came from (R-COMBAT-08)."""

    battle: int
    space: str
    faction: str
    unit_ids: tuple[int, ...]
    destinations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    """A battle ended (R-COMBAT-10, R-COMBAT-11).

    Attributes:
        destroyed_at_end: wounded units destroyed by cleanup (R-ATTR-FORTI-02) and, in a
            stalemate, attacking units that could not withdraw (R-COMBAT-13).
        owner: the province's owner after the battle.
    """

    battle: int
    space: str
    result: BattleResult
    attacker_survivors: tuple[int, ...]
    defender_survivors: tuple[int, ...]
    destroyed_at_end: tuple[int, ...]
    owner: str | None


@dataclass(frozen=True, slots=True)
class ProvinceCaptured(Event):
    """``province`` passed from ``previous_owner`` to ``faction`` (R-COLL-02): by winning
    ``battle`` (R-COMBAT-11), or at the end of step 7 when ``battle`` is ``None``."""

    province: str
    faction: str
    previous_owner: str | None
    battle: int | None = None


# --------------------------------------------------------------------------- fighters

HERO_COST_RANK = 10**6
"""Casualty rank of a unit without a cost (Heroes): after every bought unit (R-COMBAT-06)."""


@dataclass(frozen=True, slots=True)
class Fighter:
    """A unit as the battle arithmetic sees it.

    Attributes:
        id: the unit id. kind: its kind. faction: its owner. side: its side.
        terrain: the terrain it fights on (R-MOVE-03), ``None`` off land.
        wounded: a Fortitude unit with one hit (R-ATTR-FORTI-01).
        muster_seq: for the "most recently mustered" tie-break (R-COMBAT-06).
        mercenary: counts as a Mercenary (R-ATTR-MERC-01, option ``giant_allies_mercenary``).
        can_withdraw: may withdraw from this battle (R-COMBAT-08, R-COMBAT-09).
    """

    id: int
    kind: UnitKind
    faction: str
    side: Side
    terrain: Terrain | None = None
    wounded: bool = False
    muster_seq: int = 0
    mercenary: bool = False
    can_withdraw: bool = False

    @property
    def fortitude(self) -> bool:
        return self.kind.has(Attribute.FORTITUDE)

    @property
    def capacity(self) -> int:
        """Hits this unit can still take: 2 for an unwounded Fortitude unit, else 1
        (R-ATTR-FORTI-01)."""
        return 2 if self.fortitude and not self.wounded else 1


@dataclass(frozen=True, slots=True)
class StepContext:
    """What a step's values depend on besides the unit itself (R-GEN-03).

    Attributes:
        round_no: battle round (Fear and Inspiring act in round 1 only).
        predator: sides holding a Predator unit (R-ATTR-PRED-01).
        fear: sides holding a unit with Fear (R-ATTR-FEAR-01).
        inspiring: (side, faction) pairs with an Inspiring unit (R-ATTR-INSP-01).
        predator_symmetric: option of R-ATTR-PRED-01.
        allied_includes_pacts: option of R-GEN-05 (Inspiring reaches partners on the side).
    """

    round_no: int
    predator: frozenset[Side]
    fear: frozenset[Side]
    inspiring: frozenset[tuple[Side, str]]
    predator_symmetric: bool = False
    allied_includes_pacts: bool = False


def step_context(fighters: Iterable[Fighter], round_no: int, options: Options) -> StepContext:
    """The :class:`StepContext` of the living ``fighters`` in round ``round_no``."""
    predator: set[Side] = set()
    fear: set[Side] = set()
    inspiring: set[tuple[Side, str]] = set()
    for f in fighters:
        if f.kind.has(Attribute.PREDATOR):
            predator.add(f.side)
        if f.kind.has(Attribute.FEAR):
            fear.add(f.side)
        if f.kind.has(Attribute.INSPIRING):
            inspiring.add((f.side, f.faction))
    return StepContext(
        round_no,
        frozenset(predator),
        frozenset(fear),
        frozenset(inspiring),
        options.predator_symmetric,
        options.allied_includes_pacts,
    )


def rolling_value(f: Fighter, ctx: StepContext) -> int | None:
    """The value ``f`` rolls against (R-GEN-03): its attack value when attacking, its defense
    value when defending; ``None`` if it never rolls (a Tower on the attacking side).

    Defending cavalry without Predator, not Undead, has -1 while the attacking side holds a
    Predator (R-ATTR-PRED-01). With the option ``predator_symmetric`` a defending Predator
    likewise lowers such attacking cavalry's attack value (our reading of "both sides").
    """
    if f.side is Side.ATTACKER:
        value = attack_value(f.kind)
        if value is None:
            return None
        if ctx.predator_symmetric and Side.DEFENDER in ctx.predator and suffers_predator(f.kind):
            value -= 1
        return value
    return defense_value(f.kind, f.terrain, enemy_predator=Side.ATTACKER in ctx.predator)


def die_target(f: Fighter, ctx: StepContext) -> int | None:
    """The number ``f``'s dice must roll at or under to hit (R-GEN-02): its value shifted by
    Fear and Inspiring in round 1 (R-ATTR-FEAR-01, R-ATTR-INSP-01, R-ATTR-UNDEAD-01)."""
    value = rolling_value(f, ctx)
    if value is None:
        return None
    own_inspiring = (f.side, f.faction) in ctx.inspiring or (
        ctx.allied_includes_pacts and any(side is f.side for side, _ in ctx.inspiring)
    )
    enemy_fear = f.side.other in ctx.fear
    shift = morale_shift(
        f.kind, round_no=ctx.round_no, own_inspiring=own_inspiring, enemy_fear=enemy_fear
    )
    return value + shift


def rolls_in(f: Fighter, step: CombatStep) -> bool:
    """Whether ``f`` rolls in ``step`` (R-COMBAT-04, R-COMBAT-05, R-ATTR-MISS-01, -02): units
    that can use Missile where they fight roll in the missile step, all others in melee."""
    return missile_usable(f.kind, f.terrain) == (step is CombatStep.MISSILE)


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One die to roll: the unit, its side and its target."""

    unit: int
    kind: str
    side: Side
    target: int


def step_dice(step: CombatStep, fighters: Sequence[Fighter], ctx: StepContext) -> list[DieSpec]:
    """Every die rolled in ``step`` by the living ``fighters`` (R-COMBAT-04, R-COMBAT-05).

    Attacker's dice first, then the defender's, each in unit id order; a Mighty unit rolls two
    (R-ATTR-MIGHTY-01, also in the missile step, R-ATTR-MISS-03).
    """
    specs: list[DieSpec] = []
    for side in (Side.ATTACKER, Side.DEFENDER):
        for f in sorted((f for f in fighters if f.side is side), key=lambda f: f.id):
            if not rolls_in(f, step):
                continue
            target = die_target(f, ctx)
            if target is None:
                continue
            specs.extend(
                DieSpec(f.id, f.kind.id, side, target) for _ in range(dice_per_roll(f.kind))
            )
    return specs


# --------------------------------------------------------------------------- casualties


def casualty_rank(f: Fighter, ctx: StepContext) -> tuple[int, int, int, int]:
    """Default casualty order, first removed first (R-COMBAT-06): cheapest, then lower value,
    then most recently mustered (then higher id, to be total). Heroes (no cost) come last."""
    cost = f.kind.cost if f.kind.cost is not None else HERO_COST_RANK
    value = rolling_value(f, ctx)
    return (cost, value if value is not None else 0, -f.muster_seq, -f.id)


def hits_absorbable(fighters: Iterable[Fighter]) -> int:
    """Hits ``fighters`` can take before all are destroyed (R-COMBAT-06, R-ATTR-FORTI-01)."""
    return sum(f.capacity for f in fighters)


def default_casualties(fighters: Sequence[Fighter], hits: int, ctx: StepContext) -> list[int]:
    """The default assignment of ``hits`` to one faction's ``fighters`` (R-COMBAT-06).

    Cheapest first (:func:`casualty_rank`); a Fortitude unit picked takes its hits until
    destroyed. Hits beyond what the units can take are lost.

    Returns:
        Unit ids, one per hit applied; a Fortitude unit taking two hits appears twice.
    """
    left = min(hits, hits_absorbable(fighters))
    out: list[int] = []
    for f in sorted(fighters, key=lambda f: casualty_rank(f, ctx)):
        if left <= 0:
            break
        take = min(f.capacity, left)
        out.extend([f.id] * take)
        left -= take
    return out


def _choice_classes(fighters: Sequence[Fighter]) -> list[tuple[int, int]]:
    """Groups of interchangeable units as (count, capacity) (R-COMBAT-06)."""
    groups: Counter[tuple[str, bool, Terrain | None, int]] = Counter(
        (f.kind.id, f.wounded, f.terrain, f.capacity) for f in fighters
    )
    return [(count, key[3]) for key, count in sorted(groups.items(), key=lambda kv: str(kv[0]))]


def has_real_choice(fighters: Sequence[Fighter], hits: int) -> bool:
    """Whether assigning ``hits`` to ``fighters`` has more than one distinct outcome
    (R-COMBAT-06, R-ATTR-FORTI-01). Units of one kind, wound state and terrain are
    interchangeable; taking every unit, or one identical unit per hit, is no choice."""
    applied = min(hits, hits_absorbable(fighters))
    if applied <= 0 or applied == hits_absorbable(fighters):
        return False
    classes = _choice_classes(fighters)

    def ways(index: int, left: int) -> int:
        """Distinct outcomes for classes[index:] absorbing exactly ``left``, capped at 2."""
        if index == len(classes):
            return 1 if left == 0 else 0
        count, capacity = classes[index]
        total = 0
        if capacity == 1:
            options = [(d, d) for d in range(count + 1)]
        else:
            options = [(k * 2 + w, k) for k in range(count + 1) for w in range(count - k + 1)]
        for used, _ in options:
            if used <= left:
                total += ways(index + 1, left - used)
                if total >= 2:
                    return 2
        return total

    return ways(0, applied) >= 2


def check_assignment(fighters: Sequence[Fighter], hits: int, unit_ids: Sequence[int]) -> None:
    """Check a chosen assignment of ``hits`` to one faction's ``fighters`` (R-COMBAT-06).

    Raises:
        IllegalCombat: wrong number of ids; a unit not among ``fighters``; a unit listed more
            times than it can take hits (R-ATTR-FORTI-01).
    """
    applied = min(hits, hits_absorbable(fighters))
    by_id = {f.id: f for f in fighters}
    ids = ", ".join(f"#{f.id} {f.kind.display_name}" for f in fighters)
    if len(unit_ids) != applied:
        raise IllegalCombat(
            f"Name exactly {applied} casualt{'y' if applied == 1 else 'ies'} (one unit per hit), "
            f"not {len(unit_ids)}.",
            rule="R-COMBAT-06",
            allowed=f"{applied} of: {ids} (a Fortitude unit may be named twice)",
        )
    for uid, times in Counter(unit_ids).items():
        f = by_id.get(uid)
        if f is None:
            raise IllegalCombat(
                f"Unit #{uid} is not one of the units taking these hits.",
                rule="R-COMBAT-06",
                allowed=ids,
            )
        if times > f.capacity:
            rule = "R-ATTR-FORTI-01" if f.fortitude else "R-COMBAT-06"
            raise IllegalCombat(
                f"#{uid} {f.kind.display_name} can take only {f.capacity} hit"
                f"{'s' if f.capacity > 1 else ''}, not {times}.",
                rule=rule,
                allowed=ids,
            )


def apply_assignment(
    fighters: Sequence[Fighter], unit_ids: Sequence[int]
) -> tuple[list[int], list[int]]:
    """What an assignment does (R-COMBAT-06, R-ATTR-FORTI-01): returns (destroyed, wounded) ids,
    each in id order. A unit destroyed takes as many hits as it can; a Fortitude unit taking
    one of its two is wounded."""
    by_id = {f.id: f for f in fighters}
    destroyed: list[int] = []
    wounded: list[int] = []
    for uid, times in sorted(Counter(unit_ids).items()):
        if times >= by_id[uid].capacity:
            destroyed.append(uid)
        else:
            wounded.append(uid)
    return destroyed, wounded


def share_hits(
    fighters: Sequence[Fighter], hits: int, factions: Sequence[str]
) -> list[tuple[str, int]]:
    """Hand ``hits`` on one side out among its factions (R-COMBAT-06): one at a time in turn,
    in the order ``factions`` (province owner first), skipping a faction whose units can take
    no more. Hits beyond the side's units are lost.

    Returns:
        (faction, hits) for every faction receiving at least one hit, in ``factions`` order.
    """
    room = {code: hits_absorbable(f for f in fighters if f.faction == code) for code in factions}
    got = dict.fromkeys(factions, 0)
    left = min(hits, sum(room.values()))
    while left > 0:
        for code in factions:
            if left > 0 and got[code] < room[code]:
                got[code] += 1
                left -= 1
    return [(code, got[code]) for code in factions if got[code] > 0]


def mercenary_losses(fighters: Sequence[Fighter], ctx: StepContext) -> list[int]:
    """Mercenaries destroyed at the start of a round (R-ATTR-MERC-01, R-ATTR-MERC-02).

    For each faction on each side, the Mercenaries beyond the number of its other units there
    (wounded, Towers, Heroes included: R-ATTR-FORTI-03) go, cheapest first (the default choice,
    ranked as :func:`casualty_rank`). Returns their ids in id order.
    """
    groups: dict[tuple[Side, str], list[Fighter]] = {}
    for f in fighters:
        groups.setdefault((f.side, f.faction), []).append(f)
    lost: list[int] = []
    for members in groups.values():
        mercs = [f for f in members if f.mercenary]
        excess = len(mercs) - (len(members) - len(mercs))
        if excess > 0:
            mercs.sort(key=lambda f: casualty_rank(f, ctx))
            lost.extend(f.id for f in mercs[:excess])
    return sorted(lost)


def survives_cleanup(f: Fighter, options: Options) -> bool:
    """Whether ``f`` is still on the board after end-of-battle cleanup (R-ATTR-FORTI-02,
    option ``fortitude_end``): wounded units are destroyed unless the option is ``heal``."""
    return not f.wounded or options.fortitude_end == "heal"


def classify(attackers_left: int, defenders_left: int) -> BattleResult:
    """The result of a battle fought to the end, from each side's units after cleanup
    (R-COMBAT-10, R-COMBAT-11)."""
    if attackers_left and not defenders_left:
        return BattleResult.ATTACKER_WON
    if defenders_left and not attackers_left:
        return BattleResult.DEFENDER_HELD
    return BattleResult.BOTH_DESTROYED


# --------------------------------------------------------------------------- fighters from the state


def combat_terrain(state: GameState, ruleset: Ruleset, unit: Unit) -> Terrain | None:
    """The terrain ``unit`` fights on where it stands (R-MOVE-03): the province's only terrain,
    else the one it chose (stored when it moved in), else the best for its combat. Off land
    (river edges) there is none."""
    province = ruleset.map.provinces.get(unit.location)
    if province is None or not province.terrains:
        return None
    if len(province.terrains) == 1:
        return province.terrains[0]
    if unit.terrain is not None and unit.terrain in province.terrains:
        return unit.terrain
    return best_combat_terrain(ruleset.kind(unit.kind), province.terrains)


def can_withdraw(ruleset: Ruleset, unit: Unit, space: str) -> bool:
    """Whether ``unit`` may withdraw from the battle in ``space`` (R-COMBAT-08, R-COMBAT-09):
    it entered this turn from a province with a land border to ``space``. Units that came by a
    boarding move, an Amphibian crossing or teleportation entered from elsewhere and must stay;
    Towers never withdraw (R-ATTR-FORT-01)."""
    if ruleset.kind(unit.kind).base_type is BaseType.TOWER:
        return False
    origin = unit.entered_from
    return (
        origin is not None
        and unit.aboard is None
        and ruleset.map.is_province(origin)
        and origin in ruleset.map.land_neighbours(space)
    )


def fighter_of(state: GameState, ruleset: Ruleset, unit: Unit, side: Side, space: str) -> Fighter:
    """The :class:`Fighter` for ``unit`` on ``side`` of the battle in ``space``."""
    from caedes_bot.rules.turn import is_mercenary  # late: turn imports this module lazily

    kind = ruleset.kind(unit.kind)
    return Fighter(
        id=unit.id,
        kind=kind,
        faction=unit.owner,
        side=side,
        terrain=combat_terrain(state, ruleset, unit),
        wounded=unit.wounded,
        muster_seq=unit.muster_seq,
        mercenary=is_mercenary(kind, state.options),
        can_withdraw=side is Side.ATTACKER and can_withdraw(ruleset, unit, space),
    )


def battle_sides(
    state: GameState, ruleset: Ruleset, space: str, attacker: str
) -> tuple[list[Unit], list[Unit]]:
    """The units of each side of a battle ``attacker`` fights in ``space`` (R-COMBAT-01,
    R-COMBAT-15): its own units there except Towers and ships; every unit of a non-partner
    faction there (with river-edge ships under ``river_ship_occupies``, R-MOVE-13)."""
    attackers = [
        u
        for u in state.units_at(space)
        if u.owner == attacker
        and ruleset.kind(u.kind).base_type in (BaseType.INFANTRY, BaseType.CAVALRY)
    ]
    return attackers, hostile_units(state, ruleset, space, attacker)


def handout_order(
    factions: Iterable[str], owner: str | None, turn_order: Sequence[str]
) -> list[str]:
    """Defending factions in the order hits are handed out (R-COMBAT-06): the province owner
    first, then turn order (R-TURN-01)."""
    present = set(factions)
    first = [owner] if owner is not None and owner in present else []
    rank = {code: n for n, code in enumerate(turn_order)}
    rest = sorted(present - set(first), key=lambda code: (rank.get(code, len(rank)), code))
    return first + rest


def _fighters(state: GameState, ruleset: Ruleset, battle: Battle) -> list[Fighter]:
    out = [
        fighter_of(state, ruleset, state.unit(uid), Side.ATTACKER, battle.space)
        for uid in battle.attacker_units
    ]
    out += [
        fighter_of(state, ruleset, state.unit(uid), Side.DEFENDER, battle.space)
        for uid in battle.defender_units
    ]
    return out


# --------------------------------------------------------------------------- step 7 hooks


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
    spaces = sorted({u.location for u in state.units_of(faction) if u.attacking})
    due: list[str] = []
    for space in spaces:
        if hostile_units(state, ruleset, space, faction):
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
    events: list[Event] = []
    held = sorted(
        {u.location for u in state.units_of(faction) if ruleset.map.is_province(u.location)}
    )
    for province in held:
        if hostile_units(state, ruleset, province, faction):
            continue
        owner = state.owner(province)
        if owner is not None and state.are_partners(owner, faction):
            continue
        state.owners[province] = faction
        events.append(ProvinceCaptured(province, faction, owner, battle=None))
    for unit in state.units_of(faction):
        unit.attacking = False
    return events


def default_next_battle(state: GameState) -> str | None:
    """The battle fought next when the attacker does not choose: first by space name
    (R-COMBAT-02); ``state.battles_due`` is kept in that order."""
    return state.battles_due[0] if state.battles_due else None


# --------------------------------------------------------------------------- handlers


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
    if order.space not in state.battles_due:
        names = ", ".join(ruleset.map.space_name(s) for s in state.battles_due) or "none"
        raise IllegalCombat(
            f"No battle is due at {ruleset.map.space_name(order.space)}.",
            rule="R-COMBAT-01",
            allowed=f"battles due: {names}",
        )
    return _begin_battle(state, ruleset, dice, order.space, order.faction)


def fight_default_battle(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Begin the next due battle in the default order, by space name (R-COMBAT-02), for a
    missed deadline; fight until a decision is needed or it ends.

    Raises:
        IllegalCombat: a battle is under way, or none is due.
    """
    space = default_next_battle(state)
    if state.battle is not None or space is None or state.active is None:
        raise IllegalCombat("No battle is waiting to begin.", rule="R-COMBAT-02")
    return _begin_battle(state, ruleset, dice, space, state.active)


def _begin_battle(
    state: GameState, ruleset: Ruleset, dice: Dice, space: str, attacker: str
) -> list[Event]:
    attacking, defending = battle_sides(state, ruleset, space, attacker)
    battle = Battle(
        id=state.new_id(),
        space=space,
        attacker=attacker,
        defenders=handout_order(
            {u.owner for u in defending}, state.owner(space), ruleset.turn_order
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
    return events + _advance(state, ruleset, dice, battle)


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
    fighters = _fighters(state, ruleset, battle)
    mine = [f for f in fighters if f.side is share.side and f.faction == share.faction]
    check_assignment(mine, share.hits, order.unit_ids)
    _settle(state, share, list(order.unit_ids))
    return _advance(state, ruleset, dice, battle)


def handle_press_on(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """The attacker fights another round (R-COMBAT-08).

    Raises:
        IllegalCombat: no battle waits for the attacker's choice.
    """
    assert isinstance(order, PressOn)
    battle = _awaiting_withdrawal_choice(state, order.faction)
    _drop_decisions(state, battle.id, "press_or_withdraw")
    _next_round(battle)
    return _advance(state, ruleset, dice, battle)


def handle_withdraw(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Withdraw every attacking unit that may (R-COMBAT-08, R-COMBAT-09); the rest fight on.

    Raises:
        IllegalCombat: no battle waits for the choice; or, with ``withdraw_mixed = forbidden``,
            some attacking units may not withdraw.
    """
    assert isinstance(order, Withdraw)
    battle = _awaiting_withdrawal_choice(state, order.faction)
    attackers = [f for f in _fighters(state, ruleset, battle) if f.side is Side.ATTACKER]
    leaving = [f.id for f in attackers if f.can_withdraw]
    staying = [f.id for f in attackers if not f.can_withdraw]
    if staying and state.options.withdraw_mixed == "forbidden":
        raise IllegalCombat(
            "Some attacking units may not withdraw, so none may (withdraw_mixed = forbidden).",
            rule="R-COMBAT-09",
            allowed="press on",
        )
    _drop_decisions(state, battle.id, "press_or_withdraw")
    events: list[Event] = [_withdraw_units(state, battle, leaving)]
    if not battle.attacker_units:
        return events + _end_battle(state, ruleset, battle, BattleResult.WITHDRAWN)
    _next_round(battle)
    return events + _advance(state, ruleset, dice, battle)


def answer_by_default(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> list[Event]:
    """Answer a pending battle decision with its documented default (R-PBP-DEAD-04).

    ``casualties``: the default of R-COMBAT-06 (:func:`default_casualties`).
    ``press_or_withdraw``: no withdrawal (press on).
    Mutates ``state`` and fights on until the next decision or the end of the battle.

    Raises:
        RuleViolation: the decision is not a battle decision of the current battle.
    """
    battle = state.battle
    if battle is not None and decision.kind == "casualties":
        share = next((s for s in battle.owed if s.decision == decision.id), None)
        if share is not None:
            fighters = _fighters(state, ruleset, battle)
            ctx = step_context(fighters, battle.round, state.options)
            mine = [f for f in fighters if f.side is share.side and f.faction == share.faction]
            _settle(state, share, default_casualties(mine, share.hits, ctx))
            return _advance(state, ruleset, dice, battle)
    if (
        battle is not None
        and decision.kind == "press_or_withdraw"
        and battle.phase is BattlePhase.PRESS_OR_WITHDRAW
    ):
        _drop_decisions(state, battle.id, "press_or_withdraw")
        _next_round(battle)
        return _advance(state, ruleset, dice, battle)
    raise RuleViolation(
        f"The decision {decision.id} ({decision.kind}) is not a battle decision of the battle "
        "under way.",
        rule="R-PBP-DEAD-04",
    )


# --------------------------------------------------------------------------- the battle machine


def _awaiting_withdrawal_choice(state: GameState, faction: str) -> Battle:
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


def _drop_decisions(state: GameState, battle_id: int, kind: str) -> None:
    state.pending = [
        d for d in state.pending if not (d.kind == kind and d.detail.get("battle") == battle_id)
    ]


def _settle(state: GameState, share: CasualtyShare, unit_ids: list[int]) -> None:
    share.assignment = unit_ids
    if share.decision is not None:
        state.pending = [d for d in state.pending if d.id != share.decision]


def _next_round(battle: Battle) -> None:
    battle.round += 1
    battle.phase = BattlePhase.ROUND_START


def _advance(state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle) -> list[Event]:
    """Fight ``battle`` on until it needs a decision or ends (R-COMBAT-03..13)."""
    events: list[Event] = []
    while True:
        if battle.phase is BattlePhase.ROUND_START:
            battle.round_losses = False
            events += _mercenary_check(state, ruleset, battle)
            if _decided(battle):
                return events + _end_battle(state, ruleset, battle, None)
            events += _roll_step(state, ruleset, dice, battle, CombatStep.MISSILE)
            battle.phase = BattlePhase.MISSILE_CASUALTIES
        if battle.phase in (BattlePhase.MISSILE_CASUALTIES, BattlePhase.MELEE_CASUALTIES):
            if any(s.assignment is None for s in battle.owed):
                return events
            events += _remove_casualties(state, ruleset, battle)
            if _decided(battle):
                return events + _end_battle(state, ruleset, battle, None)
            if battle.phase is BattlePhase.MISSILE_CASUALTIES:
                events += _roll_step(state, ruleset, dice, battle, CombatStep.MELEE)
                battle.phase = BattlePhase.MELEE_CASUALTIES
                continue
            round_events, fights_on = _end_round(state, ruleset, battle)
            events += round_events
            if not fights_on:
                return events
            _next_round(battle)
            continue
        return events


def _decided(battle: Battle) -> bool:
    """A side has no units left (R-COMBAT-07)."""
    return not battle.attacker_units or not battle.defender_units


def _destroy(state: GameState, battle: Battle, unit_ids: Iterable[int]) -> None:
    gone = set(unit_ids)
    for uid in gone:
        state.units.pop(str(uid), None)
    battle.attacker_units = [u for u in battle.attacker_units if u not in gone]
    battle.defender_units = [u for u in battle.defender_units if u not in gone]


def _mercenary_check(state: GameState, ruleset: Ruleset, battle: Battle) -> list[Event]:
    """Round start: excess Mercenaries on each side go (R-ATTR-MERC-01)."""
    from caedes_bot.rules.turn import MercenariesDeserted

    fighters = _fighters(state, ruleset, battle)
    lost = mercenary_losses(fighters, step_context(fighters, battle.round, state.options))
    if not lost:
        return []
    events: list[Event] = []
    gone = set(lost)
    groups: dict[tuple[Side, str], list[Fighter]] = {}
    for f in fighters:
        groups.setdefault((f.side, f.faction), []).append(f)
    for (_side, faction), members in groups.items():
        out = [f for f in members if f.id in gone]
        if out:
            mercs = sum(1 for f in members if f.mercenary)
            events.append(
                MercenariesDeserted(
                    faction,
                    battle.space,
                    tuple((f.id, f.kind.id) for f in out),
                    mercenaries=mercs,
                    others=len(members) - mercs,
                )
            )
    _destroy(state, battle, lost)
    battle.round_losses = True
    return events


def _roll_step(
    state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle, step: CombatStep
) -> list[Event]:
    """Roll every die of ``step`` and work out who owes casualties (R-COMBAT-04, -05, -06)."""
    fighters = _fighters(state, ruleset, battle)
    ctx = step_context(fighters, battle.round, state.options)
    specs = step_dice(step, fighters, ctx)
    if not specs:
        return []
    name = ruleset.map.space_name(battle.space)
    rolled: list[BattleDie] = []
    for side in (Side.ATTACKER, Side.DEFENDER):
        mine = [s for s in specs if s.side is side]
        if not mine:
            continue
        who = battle.attacker if side is Side.ATTACKER else "/".join(battle.defenders)
        faces = dice.roll(
            DIE_SIDES,
            len(mine),
            reason=f"battle #{battle.id} at {name}, round {battle.round}, {step.value} step, "
            f"{side.value} ({who})",
        )
        rolled += [
            BattleDie(s.unit, s.kind, s.side, s.target, face, is_hit(face, s.target))
            for s, face in zip(mine, faces, strict=True)
        ]
    on_defender = sum(1 for d in rolled if d.hit and d.side is Side.ATTACKER)
    on_attacker = sum(1 for d in rolled if d.hit and d.side is Side.DEFENDER)
    battle.records.append(BattleStepRecord(battle.round, step, rolled, on_attacker, on_defender))
    events: list[Event] = [
        BattleStepResolved(
            battle.id, battle.space, battle.round, step, tuple(rolled), on_attacker, on_defender
        )
    ]
    events += _owe(state, battle, fighters, ctx, Side.ATTACKER, on_attacker)
    events += _owe(state, battle, fighters, ctx, Side.DEFENDER, on_defender)
    return events


def _owe(
    state: GameState,
    battle: Battle,
    fighters: Sequence[Fighter],
    ctx: StepContext,
    side: Side,
    hits: int,
) -> list[Event]:
    """Record the casualties ``side`` owes; ask a faction only when it has a real choice."""
    if hits <= 0:
        return []
    on_side = [f for f in fighters if f.side is side]
    order = [battle.attacker] if side is Side.ATTACKER else battle.defenders
    events: list[Event] = []
    for faction, share_count in share_hits(on_side, hits, order):
        mine = [f for f in on_side if f.faction == faction]
        if state.options.casualty_chooser == "opponent":
            chooser = battle.defenders[0] if side is Side.ATTACKER else battle.attacker
        else:
            chooser = faction
        share = CasualtyShare(faction, side, share_count, chooser)
        default = default_casualties(mine, share_count, ctx)
        if has_real_choice(mine, share_count):
            decision = PendingDecision(
                id=state.new_id(),
                faction=chooser,
                kind="casualties",
                reaction=chooser != state.active,
                detail={
                    "battle": battle.id,
                    "space": battle.space,
                    "round": battle.round,
                    "step": battle.records[-1].step.value,
                    "faction": faction,
                    "hits": share_count,
                    "units": [
                        {
                            "id": f.id,
                            "kind": f.kind.id,
                            "wounded": f.wounded,
                            "max_hits": f.capacity,
                        }
                        for f in sorted(mine, key=lambda f: f.id)
                    ],
                    "default": default,
                },
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


def _remove_casualties(state: GameState, ruleset: Ruleset, battle: Battle) -> list[Event]:
    """Remove the step's casualties from both sides at once (R-COMBAT-04, -06, R-ATTR-FORTI-01)."""
    if not battle.owed:
        return []
    fighters = _fighters(state, ruleset, battle)
    destroyed: dict[Side, list[int]] = {Side.ATTACKER: [], Side.DEFENDER: []}
    wounded: dict[Side, list[int]] = {Side.ATTACKER: [], Side.DEFENDER: []}
    for share in battle.owed:
        assert share.assignment is not None
        gone, hurt = apply_assignment(fighters, share.assignment)
        destroyed[share.side] += gone
        wounded[share.side] += hurt
    for side in Side:
        for uid in wounded[side]:
            state.unit(uid).wounded = True
    _destroy(state, battle, destroyed[Side.ATTACKER] + destroyed[Side.DEFENDER])
    battle.owed = []
    record = battle.records[-1]
    record.destroyed = sorted(destroyed[Side.ATTACKER] + destroyed[Side.DEFENDER])
    record.wounded = sorted(wounded[Side.ATTACKER] + wounded[Side.DEFENDER])
    if record.destroyed or record.wounded:
        battle.round_losses = True
    return [
        CasualtiesRemoved(
            battle.id,
            battle.space,
            battle.round,
            record.step,
            tuple(sorted(destroyed[Side.ATTACKER])),
            tuple(sorted(wounded[Side.ATTACKER])),
            tuple(sorted(destroyed[Side.DEFENDER])),
            tuple(sorted(wounded[Side.DEFENDER])),
        )
    ]


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
        return events + _end_battle(state, ruleset, battle, BattleResult.STALEMATE), False
    attackers = [f for f in _fighters(state, ruleset, battle) if f.side is Side.ATTACKER]
    leaving = tuple(f.id for f in attackers if f.can_withdraw)
    staying = tuple(f.id for f in attackers if not f.can_withdraw)
    if not leaving or (staying and state.options.withdraw_mixed == "forbidden"):
        return events, True
    decision = PendingDecision(
        id=state.new_id(),
        faction=battle.attacker,
        kind="press_or_withdraw",
        reaction=battle.attacker != state.active,
        detail={
            "battle": battle.id,
            "space": battle.space,
            "round": battle.round,
            "can_withdraw": list(leaving),
            "must_stay": list(staying),
        },
    )
    state.pending.append(decision)
    battle.phase = BattlePhase.PRESS_OR_WITHDRAW
    events.append(
        WithdrawalOffered(
            battle.id, battle.space, battle.attacker, battle.round, decision.id, leaving, staying
        )
    )
    return events, False


def _withdraw_units(state: GameState, battle: Battle, unit_ids: Sequence[int]) -> AttackerWithdrew:
    """Send ``unit_ids`` back to the space each came from; their movement ends (R-COMBAT-08)."""
    destinations: list[str] = []
    for uid in unit_ids:
        unit = state.unit(uid)
        origin = unit.entered_from
        assert origin is not None
        unit.location = origin
        unit.path = [*unit.path, origin]
        unit.entered_from = battle.space
        unit.attacking = False
        unit.move_ended = True
        unit.terrain = None
        destinations.append(origin)
    gone = set(unit_ids)
    battle.attacker_units = [u for u in battle.attacker_units if u not in gone]
    battle.withdrawn += list(unit_ids)
    return AttackerWithdrew(
        battle.id, battle.space, battle.attacker, tuple(unit_ids), tuple(destinations)
    )


def _end_battle(
    state: GameState, ruleset: Ruleset, battle: Battle, forced: BattleResult | None
) -> list[Event]:
    """End ``battle`` (R-COMBAT-10, R-COMBAT-11, R-COMBAT-13, R-ATTR-FORTI-02)."""
    events: list[Event] = []
    destroyed_at_end: list[int] = []
    if forced is BattleResult.STALEMATE:
        attackers = [f for f in _fighters(state, ruleset, battle) if f.side is Side.ATTACKER]
        leaving = [f.id for f in attackers if f.can_withdraw]
        if leaving:
            events.append(_withdraw_units(state, battle, leaving))
        destroyed_at_end += [f.id for f in attackers if not f.can_withdraw]
        _destroy(state, battle, destroyed_at_end)
    for uid in battle.attacker_units + battle.defender_units + battle.withdrawn:
        unit = state.units.get(str(uid))
        if unit is not None and unit.wounded:
            if state.options.fortitude_end == "heal":
                unit.wounded = False
            else:
                destroyed_at_end.append(uid)
    _destroy(state, battle, destroyed_at_end)
    result = forced or classify(len(battle.attacker_units), len(battle.defender_units))
    owner = state.owner(battle.space)
    if result is BattleResult.ATTACKER_WON and (
        owner is None or not state.are_partners(owner, battle.attacker)
    ):
        state.owners[battle.space] = battle.attacker
        events.append(ProvinceCaptured(battle.space, battle.attacker, owner, battle=battle.id))
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
    state.pending = [d for d in state.pending if d.detail.get("battle") != battle.id]
    state.battle = None
    return events
