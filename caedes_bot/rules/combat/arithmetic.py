"""The battle arithmetic: values, dice, casualties and hit sharing (R-GEN-01..03,
R-COMBAT-04..07, R-COMBAT-10, R-COMBAT-11 and the combat attributes of catalogue section 15).

Everything here is a pure function of unit kinds and :class:`Fighter` lists: a unit's attack and
defense values on the terrain it uses (:func:`attack_value`, :func:`defense_value`), who rolls in
which step and against which target (:func:`step_dice`), how hits are shared among defending
factions (:func:`handout_order`, :func:`share_hits`), the default casualties
(:func:`default_casualties`), whether a casualty choice is a real one (:func:`has_real_choice`),
how hits chosen for a group of like units spread over it (:func:`casualty_groups`,
:func:`spread_hits`), the Mercenary count of a battle round (:func:`mercenary_losses`), end-of-battle cleanup and the
result (:func:`survives_cleanup`, :func:`classify`). Real battles
(:mod:`caedes_bot.rules.combat.battle`) and the odds calculator (:mod:`caedes_bot.rules.odds`)
both use exactly these, so they cannot disagree.

Values are never clamped (R-GEN-02): a target of 0 or less never hits, 10 or more always hits.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import NamedTuple

from caedes_bot.gamedata.model import Attribute, BaseType, Options, Terrain, UnitKind
from caedes_bot.rules.combat.specials import PURPOSE_OF, special_dice, special_target
from caedes_bot.rules.errors import (
    IllegalCombat,
)
from caedes_bot.rules.state import (
    BattleAction,
    CombatStep,
    DiePurpose,
    Side,
)

# --------------------------------------------------------------------------- values

#: The lore attribute that gives +1 defense on each terrain (R-ATTR-WOOD-01, R-ATTR-SWAMP-01,
#: R-ATTR-MTN-01). Plains and hills carry no modifier (R-MOVE-08).
LORE_OF_TERRAIN: dict[Terrain, Attribute] = {
    Terrain.FOREST: Attribute.WOODLORE,
    Terrain.SWAMP: Attribute.SWAMPLORE,
    Terrain.MOUNTAINS: Attribute.MOUNTAINLORE,
}

#: Faces of the combat die (R-GEN-01).
DIE_SIDES = 10


def lore_bonus(kind: UnitKind, terrain: Terrain | None) -> int:
    """+1 defense when ``kind`` has the lore of ``terrain``, else 0 (R-ATTR-WOOD-01,
    R-ATTR-SWAMP-01, R-ATTR-MTN-01)."""
    if terrain is None:
        return 0
    lore = LORE_OF_TERRAIN.get(terrain)
    return 1 if lore is not None and kind.has(lore) else 0


def attack_value(kind: UnitKind) -> int | None:
    """Attack value of ``kind`` (R-GEN-03): base attack, Elite +1 (R-ATTR-ELITE-01), Weak -1
    (R-ATTR-WEAK-01). ``None`` for kinds that never attack (Towers, R-ATTR-FORT-01)."""
    if kind.attack is None:
        return None
    value = kind.attack
    if kind.has(Attribute.ELITE):
        value += 1
    if kind.has(Attribute.WEAK):
        value -= 1
    return value


def suffers_predator(kind: UnitKind) -> bool:
    """Whether an enemy Predator lowers ``kind``'s value (R-ATTR-PRED-01, R-ATTR-UNDEAD-01):
    cavalry without Predator that is not Undead."""
    return (
        kind.base_type is BaseType.CAVALRY
        and not kind.has(Attribute.PREDATOR)
        and not kind.has(Attribute.UNDEAD)
    )


def defense_value(kind: UnitKind, terrain: Terrain | None, *, enemy_predator: bool = False) -> int:
    """Defense value of ``kind`` fighting on ``terrain`` (R-GEN-03).

    Base defense, Veteran +1 (R-ATTR-VET-01), Meek -1 (R-ATTR-MEEK-01), +1 for the lore of the
    terrain it uses (R-ATTR-WOOD-01, R-ATTR-SWAMP-01, R-ATTR-MTN-01), and -1 when
    ``enemy_predator`` (the attacking side holds a Predator) and the kind suffers it
    (R-ATTR-PRED-01).
    """
    value = kind.defense
    if kind.has(Attribute.VETERAN):
        value += 1
    if kind.has(Attribute.MEEK):
        value -= 1
    value += lore_bonus(kind, terrain)
    if enemy_predator and suffers_predator(kind):
        value -= 1
    return value


def missile_usable(kind: UnitKind, terrain: Terrain | None) -> bool:
    """Whether ``kind`` rolls in the missile step on ``terrain`` (R-ATTR-MISS-01, R-ATTR-MISS-02):
    it has Missile, and it is not fighting in forest unless it has Woodlore."""
    if not kind.has(Attribute.MISSILE):
        return False
    return terrain is not Terrain.FOREST or kind.has(Attribute.WOODLORE)


def dice_per_roll(kind: UnitKind) -> int:
    """Dice ``kind`` rolls for its normal attack or defense roll: 2 if Mighty, else 1
    (R-ATTR-MIGHTY-01)."""
    return 2 if kind.has(Attribute.MIGHTY) else 1


def morale_shift(kind: UnitKind, *, round_no: int, own_inspiring: bool, enemy_fear: bool) -> int:
    """The shift of ``kind``'s die target from Fear and Inspiring (R-ATTR-FEAR-01,
    R-ATTR-INSP-01, R-ATTR-UNDEAD-01).

    Only in battle round 1; Undead are immune. ``own_inspiring``: a unit of this unit's faction
    on its side has Inspiring (+1). ``enemy_fear``: the other side holds a unit with Fear (-1).
    Several of one do not add up; one of each cancels. Returns -1, 0 or +1.
    """
    if round_no != 1 or kind.has(Attribute.UNDEAD):
        return 0
    return (1 if own_inspiring else 0) - (1 if enemy_fear else 0)


def is_hit(die: int, target: int) -> bool:
    """Whether ``die`` (1..10) hits ``target`` (R-GEN-02): ``die <= target``; a target of 0 or
    less never hits and one of 10 or more always hits, which the comparison gives by itself."""
    return die <= target


def hit_probability(target: int) -> float:
    """Chance that one d10 hits ``target`` (R-GEN-01, R-GEN-02): ``target/10`` within 0..1."""
    return min(max(target, 0), DIE_SIDES) / DIE_SIDES


def combat_terrain_key(kind: UnitKind, terrain: Terrain) -> tuple[int, int]:
    """How good ``terrain`` is for ``kind``'s combat, larger is better (R-MOVE-03).

    First whether it can use its Missile there (R-ATTR-MISS-02; kinds without Missile score the
    same everywhere), then its lore bonus to defense (R-GEN-03).
    """
    missile = 1 if (kind.has(Attribute.MISSILE) and missile_usable(kind, terrain)) else 0
    return (missile, lore_bonus(kind, terrain))


def best_combat_terrain(kind: UnitKind, terrains: Sequence[Terrain]) -> Terrain | None:
    """The terrain among ``terrains`` best for ``kind``'s combat (R-MOVE-03), ties to the
    first listed; ``None`` if ``terrains`` is empty (a space without terrain)."""
    best: Terrain | None = None
    best_key: tuple[int, int] | None = None
    for terrain in terrains:
        key = combat_terrain_key(kind, terrain)
        if best_key is None or key > best_key:
            best, best_key = terrain, key
    return best


# --------------------------------------------------------------------------- fighters


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
        attack_penalty: taken off its attack value when it attacks (R-MOVE-20: 3 for cavalry
            based on a ship).
        shield: hits it cancels before any harm: 1 for a declared Abjurer whose cancel is
            unused this round (R-MAGIC-ABJ-01), else 0.
        enchanted: it fights for the other side (R-MAGIC-ENCH-01); ``faction`` is then the
            faction it fights for. Its Fear, Inspiring, Predator and leadership count for
            nobody (R-MAGIC-ENCH-03), and it counts for no Mercenary check (R-ATTR-MERC-01).
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
    #: ``fighter_values(kind, terrain)`` if the caller has it already (a battle keeps one per
    #: kind and terrain); else it is worked out here
    known_values: FighterValues | None = field(default=None, compare=False, repr=False)
    attack_penalty: int = 0
    shield: int = 0
    enchanted: bool = False
    #: the kind has Fortitude (R-ATTR-FORTI-01); worked out from ``kind``
    fortitude: bool = field(init=False, compare=False, repr=False)
    #: hits this unit can still take: 2 for an unwounded Fortitude unit, else 1
    #: (R-ATTR-FORTI-01), plus its shield (R-MAGIC-ABJ-01); worked out from ``kind``,
    #: ``wounded`` and ``shield``
    capacity: int = field(init=False, compare=False, repr=False)
    #: what the battle arithmetic reads of ``kind`` on ``terrain`` (:func:`fighter_values`)
    values: FighterValues = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        fortitude = Attribute.FORTITUDE in self.kind.attributes
        object.__setattr__(self, "fortitude", fortitude)
        base = 2 if fortitude and not self.wounded else 1
        object.__setattr__(self, "capacity", base + self.shield)
        values = self.known_values or fighter_values(self.kind, self.terrain)
        object.__setattr__(self, "values", values)


@dataclass(frozen=True, slots=True)
class FighterValues:
    """What the battle arithmetic reads of a unit kind fighting on a terrain (R-GEN-03),
    worked out once (:func:`fighter_values`) rather than at every die: a battle rolls every step
    against them.

    Attributes:
        attack: :func:`attack_value`. defense: :func:`defense_value` without an enemy Predator.
        predated: :func:`suffers_predator`. missile: :func:`missile_usable` there.
        dice: :func:`dice_per_roll`. cost_rank: the cost of :func:`casualty_rank` (Heroes last).
        morale: Fear and Inspiring move its dice (it is not Undead, :func:`morale_shift`).
        predator, fear, inspiring: it has the attribute itself (:func:`step_context`).
    """

    attack: int | None
    defense: int
    predated: bool
    missile: bool
    dice: int
    cost_rank: int
    morale: bool
    predator: bool
    fear: bool
    inspiring: bool


def fighter_values(kind: UnitKind, terrain: Terrain | None) -> FighterValues:
    """The :class:`FighterValues` of ``kind`` fighting on ``terrain`` (R-GEN-03)."""
    return FighterValues(
        attack=attack_value(kind),
        defense=defense_value(kind, terrain),
        predated=suffers_predator(kind),
        missile=missile_usable(kind, terrain),
        dice=dice_per_roll(kind),
        cost_rank=kind.cost if kind.cost is not None else HERO_COST_RANK,
        morale=morale_shift(kind, round_no=1, own_inspiring=True, enemy_fear=False) != 0,
        predator=kind.has(Attribute.PREDATOR),
        fear=kind.has(Attribute.FEAR),
        inspiring=kind.has(Attribute.INSPIRING),
    )


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
        led: sides whose normal dice get +1 from a Hero fighting there (option
            ``hero_leadership_bonus``, R-ATTR-HERO-02); empty when the option is off.
    """

    round_no: int
    predator: frozenset[Side]
    fear: frozenset[Side]
    inspiring: frozenset[tuple[Side, str]]
    predator_symmetric: bool = False
    allied_includes_pacts: bool = False
    led: frozenset[Side] = frozenset()


def step_context(fighters: Iterable[Fighter], round_no: int, options: Options) -> StepContext:
    """The :class:`StepContext` of the living ``fighters`` in round ``round_no``."""
    predator: set[Side] = set()
    fear: set[Side] = set()
    inspiring: set[tuple[Side, str]] = set()
    led: set[Side] = set()
    for f in fighters:
        if f.enchanted:
            continue  # R-MAGIC-ENCH-03: these do not change sides
        if options.hero_leadership_bonus and f.kind.hero:
            led.add(f.side)
        values = f.values
        if values.predator:
            predator.add(f.side)
        if values.fear:
            fear.add(f.side)
        if values.inspiring:
            inspiring.add((f.side, f.faction))
    return StepContext(
        round_no,
        frozenset(predator),
        frozenset(fear),
        frozenset(inspiring),
        options.predator_symmetric,
        options.allied_includes_pacts,
        frozenset(led),
    )


def rolling_value(f: Fighter, ctx: StepContext) -> int | None:
    """The value ``f`` rolls against (R-GEN-03): its attack value when attacking, its defense
    value when defending; ``None`` if it never rolls (a Tower on the attacking side).

    Defending cavalry without Predator, not Undead, has -1 while the attacking side holds a
    Predator (R-ATTR-PRED-01). With the option ``predator_symmetric`` a defending Predator
    likewise lowers such attacking cavalry's attack value (our reading of "both sides").
    """
    values = f.values
    if f.side is Side.ATTACKER:
        value = values.attack
        if value is None:
            return None
        value -= f.attack_penalty  # R-MOVE-20
        if ctx.predator_symmetric and Side.DEFENDER in ctx.predator and values.predated:
            value -= 1
        return value
    # defense_value(f.kind, f.terrain, enemy_predator=...), from the values worked out once
    if values.predated and Side.ATTACKER in ctx.predator:
        return values.defense - 1
    return values.defense


def die_target(f: Fighter, ctx: StepContext) -> int | None:
    """The number ``f``'s normal dice must roll at or under to hit (R-GEN-02): its value
    shifted by Fear and Inspiring in round 1 (R-ATTR-FEAR-01, R-ATTR-INSP-01,
    R-ATTR-UNDEAD-01), +1 where a Hero leads the side (option ``hero_leadership_bonus``,
    R-ATTR-HERO-02: every round, several Heroes not adding up)."""
    value = rolling_value(f, ctx)
    if value is None:
        return None
    if ctx.led and f.side in ctx.led:
        value += 1
    if ctx.round_no != 1 or not f.values.morale:
        return value  # morale_shift is 0 after round 1 and for Undead
    return value + morale(f, ctx)


def morale(f: Fighter, ctx: StepContext) -> int:
    """The Fear/Inspiring shift of ``f``'s hit dice this round: -1, 0 or +1 (R-ATTR-FEAR-01,
    R-ATTR-INSP-01); it applies to normal, breath and invoker dice alike."""
    if ctx.round_no != 1 or not f.values.morale:
        return 0
    own_inspiring = (f.side, f.faction) in ctx.inspiring or (
        ctx.allied_includes_pacts and any(side is f.side for side, _ in ctx.inspiring)
    )
    enemy_fear = f.side.other in ctx.fear
    return morale_shift(
        f.kind, round_no=ctx.round_no, own_inspiring=own_inspiring, enemy_fear=enemy_fear
    )


def rolls_in(f: Fighter, step: CombatStep) -> bool:
    """Whether ``f`` rolls in ``step`` (R-COMBAT-04, R-COMBAT-05, R-ATTR-MISS-01, -02): units
    that can use Missile where they fight roll in the missile step, all others in melee."""
    return f.values.missile == (step is CombatStep.MISSILE)


class DieSpec(NamedTuple):
    """One die to roll: the unit, its side and its target. A named tuple, not a dataclass:
    a battle makes one for every die of every step, and a tuple is made several times faster."""

    unit: int
    kind: str
    side: Side
    target: int
    purpose: DiePurpose = DiePurpose.NORMAL


def step_dice(
    step: CombatStep,
    fighters: Sequence[Fighter],
    ctx: StepContext,
    actions: Mapping[int, BattleAction] | None = None,
    options: Options | None = None,
    idle: Collection[int] = (),
) -> list[DieSpec]:
    """Every die rolled in ``step`` by the living ``fighters`` (R-COMBAT-04, R-COMBAT-05).

    Attacker's dice first, then the defender's, each in unit id order; a Mighty unit rolls two
    (R-ATTR-MIGHTY-01, also in the missile step, R-ATTR-MISS-03). A unit in ``actions`` rolls
    its special action's dice instead, in its normal step (R-COMBAT-12, R-ATTR-BREATH-04,
    R-MAGIC-INV-01, R-MAGIC-ENCH-01; the Abjurer rolls none, R-MAGIC-ABJ-01), with the
    options ``options`` (``breath_mode``, ``breath_mighty_dice``). Units in ``idle`` roll
    nothing (an Illusionist that used its power this round, R-MAGIC-ILL-01).
    """
    specs: list[DieSpec] = []
    for side in (Side.ATTACKER, Side.DEFENDER):
        rolling = [f for f in fighters if f.side is side and rolls_in(f, step)]
        rolling.sort(key=_UNIT_ID)
        for f in rolling:
            if idle and f.id in idle:
                continue
            action = actions.get(f.id) if actions else None
            if action is not None:
                if rolling_value(f, ctx) is None:
                    continue  # never rolls (a Tower attacking: R-COMBAT-15)
                purpose = PURPOSE_OF.get(action)
                if purpose is None:
                    continue  # an abjuring Abjurer does not roll (R-MAGIC-ABJ-01)
                opts = options or Options()
                special = special_target(action, morale(f, ctx), opts)
                specs.extend(
                    [DieSpec(f.id, f.kind.id, side, special, purpose)]
                    * special_dice(f.kind, action, opts)
                )
                continue
            target = die_target(f, ctx)
            if target is not None:
                specs.extend([DieSpec(f.id, f.kind.id, side, target)] * f.values.dice)
    return specs


_UNIT_ID = attrgetter("id")


# --------------------------------------------------------------------------- casualties


def casualty_rank(f: Fighter, ctx: StepContext) -> tuple[int, int, int, int]:
    """Default casualty order, first removed first (R-COMBAT-06): cheapest, then lower value,
    then most recently mustered (then higher id, to be total). Heroes (no cost) come last."""
    value = rolling_value(f, ctx)
    return (f.values.cost_rank, value if value is not None else 0, -f.muster_seq, -f.id)


def hits_absorbable(fighters: Iterable[Fighter]) -> int:
    """Hits ``fighters`` can take before all are destroyed (R-COMBAT-06, R-ATTR-FORTI-01)."""
    return sum(f.capacity for f in fighters)


def default_casualties(fighters: Sequence[Fighter], hits: int, ctx: StepContext) -> list[int]:
    """The default assignment of ``hits`` to one faction's ``fighters`` (R-COMBAT-06).

    First each shielded Abjurer cancels one hit (R-MAGIC-ABJ-01); then a wounded Fortitude unit
    takes the next, whatever else the side holds; then the cheapest first
    (:func:`casualty_rank`, a used Abjurer ranking as an ordinary unit of its cost), a Fortitude
    unit picked taking its hits until destroyed. Hits beyond what the units can take are lost.

    Returns:
        Unit ids, one per hit applied; a unit taking two hits (a Fortitude unit destroyed, an
        Abjurer cancelling one and destroyed by the next) appears twice.
    """
    out: list[int] = []
    shielded = sorted((f for f in fighters if f.shield), key=lambda f: casualty_rank(f, ctx))
    for f in shielded[:hits]:
        out.append(f.id)
    left = hits - len(out)
    if left <= 0:
        return out
    ranked = sorted(
        fighters,
        key=lambda f: (0 if f.fortitude and f.wounded else 1, casualty_rank(f, ctx)),
    )
    return out + spread_hits([(f.id, f.capacity - f.shield) for f in ranked], left)


def spread_hits(units: Iterable[tuple[int, int]], hits: int) -> list[int]:
    """Hand ``hits`` to ``units`` in the order given, each taking as many as it can before the
    next (R-COMBAT-06; a Fortitude unit takes two, R-ATTR-FORTI-01). Hits beyond what the
    units can take are lost.

    Args:
        units: ``(unit id, hits it can still take)``, first hit first.

    Returns:
        Unit ids, one per hit applied; a unit taking two hits appears twice.
    """
    left = hits
    out: list[int] = []
    for uid, capacity in units:
        if left <= 0:
            break
        take = min(capacity, left)
        out.extend([uid] * take)
        left -= take
    return out


@dataclass(frozen=True, slots=True)
class CasualtyGroup:
    """Interchangeable units of one faction taking hits: one kind, one wound state
    (R-COMBAT-06). Hits chosen for the group go to :attr:`unit_ids` in order (the most recent
    unit, with the highest id, first), each taking as many as it can (:func:`spread_hits`).
    """

    kind: str
    wounded: bool
    unit_ids: tuple[int, ...]


def casualty_groups(units: Iterable[tuple[int, str, bool]]) -> list[CasualtyGroup]:
    """``units`` (``(unit id, kind id, wounded)``) grouped by kind and wound state, in a fixed
    order: by kind id, unwounded before wounded (R-COMBAT-06)."""
    groups: dict[tuple[str, bool], list[int]] = {}
    for uid, kind, wounded in sorted(units, key=lambda u: (u[1], u[2], -u[0])):
        groups.setdefault((kind, wounded), []).append(uid)
    return [CasualtyGroup(kind, wounded, tuple(ids)) for (kind, wounded), ids in groups.items()]


def _choice_key(f: Fighter) -> tuple[str, bool, str, int]:
    """What makes units interchangeable as casualties: kind, wound, terrain (R-COMBAT-06)."""
    return (f.kind.id, f.wounded, "" if f.terrain is None else f.terrain.value, f.capacity)


def _choice_classes(fighters: Sequence[Fighter]) -> list[tuple[int, int]]:
    """Groups of interchangeable units as (count, capacity) (R-COMBAT-06)."""
    groups = Counter(_choice_key(f) for f in fighters)
    return [(count, key[3]) for key, count in sorted(groups.items())]


def _absorptions(count: int, capacity: int) -> list[int]:
    """Hits absorbed by each distinct way ``count`` like units of ``capacity`` can share hits
    (how many units take 1, 2, ... ``capacity`` hits); one entry per distinct outcome."""
    if capacity <= 1:
        return list(range(count + 1))
    out: list[int] = []
    for n in range(count + 1):  # units taking the full capacity
        out += [n * capacity + used for used in _absorptions(count - n, capacity - 1)]
    return out


def has_real_choice(fighters: Sequence[Fighter], hits: int) -> bool:
    """Whether assigning ``hits`` to ``fighters`` has more than one distinct outcome
    (R-COMBAT-06, R-ATTR-FORTI-01). Units of one kind, wound state and terrain are
    interchangeable; taking every unit, or one identical unit per hit, is no choice."""
    room = hits_absorbable(fighters)
    applied = min(hits, room)
    if applied <= 0 or applied == room:
        return False
    # Two classes or more always give a choice: some class has room left and some other class
    # has taken a hit (or, if only the class with room has taken hits, another class is full),
    # and moving one hit between the two is another outcome. Only one class needs counting.
    first = _choice_key(fighters[0])
    if any(_choice_key(f) != first for f in fighters):
        return True
    classes = _choice_classes(fighters)

    def ways(index: int, left: int) -> int:
        """Distinct outcomes for classes[index:] absorbing exactly ``left``, capped at 2."""
        if index == len(classes):
            return 1 if left == 0 else 0
        count, capacity = classes[index]
        total = 0
        for used in _absorptions(count, capacity):
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
    each in id order (:func:`apply_hits` without the absorbed hits)."""
    destroyed, wounded, _ = apply_hits(fighters, unit_ids)
    return destroyed, wounded


def apply_hits(
    fighters: Sequence[Fighter], unit_ids: Sequence[int]
) -> tuple[list[int], list[int], list[int]]:
    """What an assignment does (R-COMBAT-06, R-ATTR-FORTI-01, R-MAGIC-ABJ-01): returns
    (destroyed, wounded, absorbed) ids, each in id order. A shielded Abjurer's first hit is
    cancelled (absorbed, no wound); a unit destroyed takes as many hits as it can; a Fortitude
    unit taking one of its two is wounded."""
    by_id = {f.id: f for f in fighters}
    destroyed: list[int] = []
    wounded: list[int] = []
    absorbed: list[int] = []
    counts: dict[int, int] = {}
    for uid in unit_ids:
        counts[uid] = counts.get(uid, 0) + 1
    for uid, times in sorted(counts.items()):
        f = by_id[uid]
        if f.shield:
            absorbed.append(uid)
            times -= f.shield
            if times <= 0:
                continue
        if times >= f.capacity - f.shield:
            destroyed.append(uid)
        else:
            wounded.append(uid)
    return destroyed, wounded, absorbed


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


def share_hits(
    fighters: Sequence[Fighter], hits: int, factions: Sequence[str]
) -> list[tuple[str, int]]:
    """Hand ``hits`` on one side out among its factions (R-COMBAT-06): one at a time in turn,
    in the order ``factions`` (province owner first), skipping a faction whose units can take
    no more. Hits beyond the side's units are lost.

    Returns:
        (faction, hits) for every faction receiving at least one hit, in ``factions`` order.
    """
    if len(factions) == 1:  # the usual case: every hit to the one faction, as far as it can
        code = factions[0]
        given = min(hits, hits_absorbable(f for f in fighters if f.faction == code))
        return [(code, given)] if given > 0 else []
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
    if not any(f.mercenary for f in fighters):
        return []
    groups: dict[tuple[Side, str], list[Fighter]] = {}
    for f in fighters:
        groups.setdefault((f.side, f.faction), []).append(f)
    lost: list[int] = []
    for members in groups.values():
        members = [f for f in members if not f.enchanted]  # R-ATTR-MERC-01: count for neither
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
