"""What a battle keeps from one step to the next (issue 9, decision 0013): its fighters and the
lists each step reads of them, with the casualties taken out instead of everything worked out
again from the fighter list (R-COMBAT-03..07).

A :class:`Roster` is the fighters of one moment of a battle, attackers then defenders in the
order of the battle's unit lists, and the lists worked out from them when first asked:

* each side's fighters, and each faction's on a side (:meth:`Roster.side`, :meth:`Roster.of`);
* each side's dice of a step in a round, in unit id order (:meth:`Roster.specs`, what
  :func:`~caedes_bot.rules.combat.arithmetic.step_dice` gives without special actions);
* each faction's default casualty order (:meth:`Roster.ranked`, by
  :func:`~caedes_bot.rules.combat.arithmetic.casualty_rank`) and the hits it can take;
* the step context of each round (:meth:`Roster.context`), the fighters with a special action
  or the Illusionist power (:meth:`Roster.specials`).

When units leave the battle or are wounded, :meth:`Roster.without` makes the next roster from
this one: every list it holds is carried over at once, without the units gone and with a
wounded unit's fighter swapped in place (filtered in C, a few calls a list); the context, the
dice and the casualty ranking are carried while everything the context reads is still held by
someone (a side's Predator, Fear or Hero, a faction's Inspiring unit: counted once and the
count carried), the casualty order while no wound changed, and answers that stay true as
units leave (no ship, :meth:`Roster.flag`). So a step costs what changed, not a pass per list
over every fighter.

A roster is never changed once made (its lists are handed out for reading only), so the
clones of a state may share it: each use checks what it was made from (the unit lists, the unit
objects, the options), :func:`caedes_bot.rules.combat.sides.battle_fighters`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter, itemgetter
from typing import TypeVar

from caedes_bot.gamedata.model import Attribute, BaseType, Options
from caedes_bot.rules.combat.arithmetic import (
    DieSpec,
    Fighter,
    StepContext,
    casualty_rank,
    die_target,
    has_real_choice,
    step_context,
)
from caedes_bot.rules.combat.specials import special_action
from caedes_bot.rules.sharing import CowTable
from caedes_bot.rules.state import (
    BattleDie,
    CasualtyCandidate,
    CombatStep,
    DiePurpose,
    Side,
    Unit,
)

_BY_ID = attrgetter("id")
_CAPACITY = attrgetter("capacity")
_KIND_ID = attrgetter("kind.id")
_SPEC_UNIT = itemgetter(0)  # DieSpec.unit
_T = TypeVar("_T")
#: the two sides, attacker first, and the steps (held once: an enum member read is slow)
_SIDES = (Side.ATTACKER, Side.DEFENDER)
_MISSILE = CombatStep.MISSILE
_MELEE = CombatStep.MELEE


class Roster:
    """The fighters of a battle at one moment and the lists worked out from them (see the
    module docstring). For reading only: nothing here may be changed by a caller.

    Attributes:
        attackers, defenders: the battle's unit lists it was made from.
        keys: each fighter's key in the state's unit table (its id as text), ``None`` until
            first needed when the roster was handed on by a step (:func:`sides.hand_on`).
        units: the unit objects it was last checked against, ``None`` when not listed (then
            a changed table is checked by the units' wounds); (a unit copied on write is found
            by identity, and then its wound is compared).
        table, writes: the unit table it was last checked against and that table's count of
            objects handed out for writing then (:attr:`CowTable.writes`): while both are
            the same, nothing needs checking.
        token: that table's :meth:`CowTable.lineage`: a table shared from it at that count
            and not written since holds the same objects (:attr:`CowTable.origin`).
        fighters: attackers then defenders, in the order of the unit lists.
        magic: the declarations, used Abjurer cancels and enchantments it was made with,
            ``None`` when no battle magic was in play (no declarations, no enchanted units);
            only then are lists carried over to the next roster.
    """

    __slots__ = (
        "_by_id",
        "_cache",
        "_dice",
        "_lines",
        "_lists",
        "_orders",
        "_ranked",
        "_specs",
        "attackers",
        "defenders",
        "fighters",
        "keys",
        "magic",
        "options",
        "table",
        "token",
        "units",
        "writes",
    )

    def __init__(
        self,
        attackers: list[int],
        defenders: list[int],
        keys: list[str] | None,
        units: list[Unit] | None,
        fighters: list[Fighter],
        options: Options,
        magic: object = None,
    ) -> None:
        self.attackers, self.defenders = attackers, defenders
        self.keys, self.units, self.fighters = keys, units, fighters
        self.options, self.magic = options, magic
        self.table: object = None
        self.token: object = None
        self.writes: int | None = None
        self._by_id: dict[int, Fighter] | None = None
        #: what was worked out, by what it is, in one table per way it is carried to the
        #: next roster (:meth:`without`): fighter lists carried whatever happens; the casualty
        #: ranking and the dice while the context stays; the casualty order while no wound
        #: changes either; decision lines; and the rest (sums, the context, answers)
        self._lists: dict[object, list[Fighter]] = {}
        self._ranked: dict[object, list[Fighter]] = {}
        self._specs: dict[object, tuple[list[DieSpec], list[DieSpec]]] = {}
        self._orders: dict[object, list[Fighter]] = {}
        self._lines: dict[object, tuple[CasualtyCandidate, ...]] = {}
        self._cache: dict[object, object] = {}
        #: the fields of a normal die of each spec rolled, by ``id`` of the spec, with the
        #: spec (held, so that its ``id`` is not reused); shared by every roster made from
        #: this one (:meth:`without`)
        self._dice: dict[int, tuple[dict[str, object], DieSpec, int]] = {}

    def seen(self, table: dict[str, Unit], units: list[Unit] | None) -> None:
        """Note that the roster holds for ``table``, whose objects for :attr:`keys` are
        ``units`` (``None``: not listed), at its present count of writes (for a plain
        ``dict``: none, so every use checks the units again), and the table's
        :meth:`CowTable.lineage`, so that a clone of the table holding the same objects is
        known as such."""
        self.units, self.table = units, table
        if isinstance(table, CowTable):
            self.writes, self.token = table.writes, table.lineage()
        else:
            self.writes = self.token = None

    @property
    def by_id(self) -> dict[int, Fighter]:
        """Each fighter by unit id."""
        found = self._by_id
        if found is None:
            fighters = self.fighters
            found = self._by_id = dict(zip(map(_BY_ID, fighters), fighters, strict=True))
        return found

    # -------------------------------------------------------------- the lists

    def side(self, side: Side) -> list[Fighter]:
        """The fighters on ``side``, in the order of its unit list."""
        found = self._lists.get(side)
        if found is None:
            found = self._lists[side] = [f for f in self.fighters if f.side is side]
        return found

    def of(self, side: Side, faction: str) -> list[Fighter]:
        """The fighters of ``faction`` on ``side``, in the order of the side's unit list."""
        key = (side, faction)
        found = self._lists.get(key)
        if found is None:
            mine = self.side(side)
            found = [f for f in mine if f.faction == faction]
            if len(found) == len(mine):  # one faction on the side: its list, carried once
                found = mine
            self._lists[key] = found
        return found

    def room(self, side: Side, faction: str) -> int:
        """Hits the fighters of ``faction`` on ``side`` can take (R-COMBAT-06,
        R-ATTR-FORTI-01)."""
        key = ("room", side, faction)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = sum(map(_CAPACITY, self.of(side, faction)))
        return found  # type: ignore[return-value]

    def context(self, round_no: int) -> StepContext:
        """The :func:`step_context` of these fighters in round ``round_no``."""
        key = _CONTEXT
        found = self._cache.get(key)
        if isinstance(found, StepContext):
            if found.round_no == round_no:
                return found
            # the same units in another round: only the round differs (made field by field:
            # dataclasses.replace costs several times more)
            found = StepContext(
                round_no,
                found.predator,
                found.fear,
                found.inspiring,
                found.predator_symmetric,
                found.allied_includes_pacts,
                found.led,
            )
        else:
            found = step_context(self.fighters, round_no, self.options)
        self._cache[key] = found
        return found

    def specs(self, step: CombatStep, round_no: int) -> list[DieSpec]:
        """Every die of ``step`` in round ``round_no`` when no unit uses a special action and
        none is idle: :func:`~caedes_bot.rules.combat.arithmetic.step_dice` of these fighters
        (R-COMBAT-04, R-COMBAT-05): :meth:`side_specs`, the attacker's dice first."""
        attacker, defender = self.side_specs(step, round_no)
        return attacker + defender

    def side_specs(self, step: CombatStep, round_no: int) -> tuple[list[DieSpec], list[DieSpec]]:
        """The attacker's and the defender's dice of :meth:`specs`, each in unit id order.

        The round counts only as the first or a later one (Fear and Inspiring act in round 1
        only, R-ATTR-FEAR-01, R-ATTR-INSP-01); when nobody here has Fear or Inspiring, the
        dice of round 1 and of later rounds are the same, and are worked out once. Both
        steps' dice are worked out in one pass over the fighters."""
        first = round_no == 1
        cache = self._specs
        key = (step, first)
        found = cache.get(key)
        if found is None:
            ctx = self.context(round_no)
            if not ctx.fear and not ctx.inspiring:  # no morale shift in any round
                found = cache.get((step, not first))
            if found is None:
                missile, melee = self._normal_dice(ctx)
                cache.setdefault((_MISSILE, first), missile)
                cache.setdefault((_MELEE, first), melee)
                found = missile if step is _MISSILE else melee
            cache[key] = found
        return found

    def _normal_dice(
        self, ctx: StepContext
    ) -> tuple[tuple[list[DieSpec], list[DieSpec]], tuple[list[DieSpec], list[DieSpec]]]:
        """The normal dice of the missile step and of the melee step under ``ctx``, each as
        ``step_dice`` gives them without special actions, split by side (the attacker's,
        then the defender's): each side in unit id order, a Mighty unit's dice together; a
        unit rolls in the missile step when it can use Missile where it fights, else in
        melee, and a unit without a target never rolls (R-COMBAT-04, R-COMBAT-05,
        R-ATTR-MISS-01, R-ATTR-MIGHTY-01, R-COMBAT-15). ``tests/rules/combat/test_kept.py``
        compares them with ``step_dice``.

        :func:`die_target` reads of a fighter only its side, kind, values, faction and attack
        penalty (R-GEN-02, R-GEN-03, R-ATTR-FEAR-01, R-ATTR-INSP-01, R-MOVE-20), so it is asked
        once per side and such class of fighters (a few kinds a side), not once per fighter."""
        dice: list[tuple[list[DieSpec], list[DieSpec]]] = []
        for side in _SIDES:
            missile: list[DieSpec] = []
            melee: list[DieSpec] = []
            #: die_target by (kind, values, faction, attack penalty), the objects by identity
            targets: dict[tuple[int, int, str, int], int | None] = {}
            for f in sorted(self.side(side), key=_BY_ID):
                values = f.values
                kind = f.kind
                cls = (id(kind), id(values), f.faction, f.attack_penalty)
                if cls in targets:
                    target = targets[cls]
                else:
                    target = targets[cls] = die_target(f, ctx)
                if target is not None:
                    spec = _new_tuple(DieSpec, (f.id, kind.id, side, target, _NORMAL))
                    (missile if values.missile else melee).extend([spec] * values.dice)
            dice.append((missile, melee))
        (attacker_missile, attacker_melee), (defender_missile, defender_melee) = dice
        return (attacker_missile, defender_missile), (attacker_melee, defender_melee)

    def normal_dice(
        self, specs: Sequence[DieSpec], faces: Sequence[int]
    ) -> tuple[list[BattleDie], int, int]:
        """The :func:`normal_die` of each of ``specs`` with the face of the same place in
        ``faces`` (R-GEN-02), how many of them hit, and the hits expected of them in tenths
        (each die's target held to 0..10: the dice luck of :mod:`caedes_bot.rules.statistics`).
        Each die is made as :func:`normal_die` makes it, from the fields of its spec worked
        out once per spec (kept by ``id`` of the spec, with the spec, for every roster made
        from this one: a unit rolls with the same spec while the context stays)."""
        made = self._dice
        out: list[BattleDie] = []
        hits = tenths = 0
        for spec, face in zip(specs, faces, strict=True):
            held = made.get(id(spec))
            if held is None:
                target = spec[3]
                chance = 0 if target < 0 else 10 if target > 10 else target
                held = made[id(spec)] = (_die_fields(spec), spec, chance)
            die: BattleDie = _new(BattleDie)
            fields = die.__dict__
            fields.update(held[0])
            fields["value"] = face
            tenths += held[2]
            if face <= spec[3]:  # the target
                fields["hit"] = True
                hits += 1
            out.append(die)
        return out, hits, tenths

    def ranked(self, side: Side, faction: str, ctx: StepContext) -> list[Fighter]:
        """The fighters of ``faction`` on ``side`` by :func:`casualty_rank` under ``ctx``,
        first removed first (R-COMBAT-06). The rank reads of the context only who holds a
        Predator (and the option of R-ATTR-PRED-01, fixed for the roster)."""
        key = (side, faction, ctx.predator)
        found = self._ranked.get(key)
        if found is None:
            found = self._ranked[key] = sorted(
                self.of(side, faction), key=lambda f: casualty_rank(f, ctx)
            )
        return found

    def summoners(self, side: Side) -> list[Fighter]:
        """The fighters on ``side`` with the Summoner power (R-MAGIC-SUMM-01)."""
        key = ("summoners", side)
        found = self._lists.get(key)
        if found is None:
            summoner = Attribute.SUMMONER  # once, not per fighter (an enum read is slow)
            found = self._lists[key] = [f for f in self.side(side) if summoner in f.kind.attributes]
        return found

    def mercenaries(self, side: Side) -> list[Fighter]:
        """The fighters on ``side`` counted as Mercenaries (R-ATTR-MERC-01)."""
        key = ("mercenaries", side)
        found = self._lists.get(key)
        if found is None:
            found = self._lists[key] = [f for f in self.side(side) if f.mercenary]
        return found

    def withdrawing(self, may: bool) -> list[Fighter]:
        """The attackers that may withdraw (``may``) or may not, in the order of their unit
        list (R-COMBAT-08, R-COMBAT-09)."""
        key = ("withdraw", may)
        found = self._lists.get(key)
        if found is None:
            mine = self.side(_SIDES[0])
            found = [f for f in mine if bool(f.can_withdraw) is may]
            if len(found) == len(mine):  # every attacker: the side's list, carried once
                found = mine
            self._lists[key] = found
        return found

    def specials(self) -> list[Fighter]:
        """The fighters with a special action (R-COMBAT-12) or the Illusionist power
        (R-MAGIC-ILL-01), in unit id order."""
        key = "specials"
        found = self._lists.get(key)
        if found is None:
            illusionist = Attribute.ILLUSIONIST
            special: dict[str, bool] = {}  # asked once per kind, not per fighter
            for f in self.fighters:
                kind = f.kind
                if kind.id not in special:
                    special[kind.id] = (
                        special_action(kind) is not None or illusionist in kind.attributes
                    )
            found = self._lists[key] = sorted(
                (f for f in self.fighters if special[f.kind.id]), key=_BY_ID
            )
        return found

    def candidates(self, side: Side, faction: str) -> tuple[CasualtyCandidate, ...] | None:
        """The lines of a ``casualties`` decision for the fighters of ``faction`` on ``side``
        (R-COMBAT-06), when kept: worked out for this roster (:meth:`keep_candidates`) or
        carried from the last (:meth:`without`)."""
        return self._lines.get((side, faction))

    def keep_candidates(
        self, side: Side, faction: str, lines: tuple[CasualtyCandidate, ...]
    ) -> None:
        """Keep ``lines``, the decision lines of :meth:`candidates`, for this roster."""
        self._lines[(side, faction)] = lines

    def has_ships(self) -> bool:
        """Whether a ship fights here (R-MOVE-19: the units aboard go down with it)."""
        key = _SHIPS
        found = self._cache.get(key)
        if found is None:
            ship = BaseType.SHIP
            found = self._cache[key] = any(f.kind.base_type is ship for f in self.fighters)
        return found  # type: ignore[return-value]

    def flag(self, name: object, test: Callable[[Roster], bool]) -> bool:
        """``test(self)``, worked out once and kept under ``name``. ``test`` must be monotone
        under units leaving: once true of a roster, true of every roster made from it by
        :meth:`without`, which carries a true answer (for instance "nobody here is a
        Mercenary"); a false one is worked out again."""
        key = ("flag", name)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = test(self)
        return found  # type: ignore[return-value]

    # -------------------------------------------------------------- casualties

    def default_casualties(
        self, side: Side, faction: str, hits: int, ctx: StepContext
    ) -> list[int]:
        """:func:`~caedes_bot.rules.combat.arithmetic.default_casualties` of the fighters of
        ``faction`` on ``side`` (R-COMBAT-06, R-ATTR-FORTI-01), from the kept casualty order:
        a wounded Fortitude unit first, then by rank, each unit taking what it can. Only for a
        roster without battle magic (no shields, R-MAGIC-ABJ-01)."""
        key = (side, faction, ctx.predator)
        order = self._orders.get(key)
        if order is None:
            ranked = self.ranked(side, faction, ctx)
            hurt = [f for f in ranked if f.wounded and f.fortitude]
            if hurt:
                order = hurt + [f for f in ranked if not (f.wounded and f.fortitude)]
            else:
                order = ranked
            self._orders[key] = order
        out: list[int] = []
        left = hits
        for f in order:
            if left <= 0:
                break
            take = f.capacity if f.capacity < left else left
            out.extend([f.id] * take)
            left -= take
        return out

    def real_choice(self, side: Side, faction: str, hits: int) -> bool:
        """:func:`~caedes_bot.rules.combat.arithmetic.has_real_choice` for the fighters of
        ``faction`` on ``side`` (R-COMBAT-06), with the hits they can take kept."""
        room = self.room(side, faction)
        applied = min(hits, room)
        if applied <= 0 or applied == room:
            return False
        fighters = self.of(side, faction)
        if fighters[0].kind.id != fighters[-1].kind.id or len(set(map(_KIND_ID, fighters))) > 1:
            return True  # two kinds are two classes of units: has_real_choice says so too
        return has_real_choice(fighters, hits)

    # -------------------------------------------------------------- the next roster

    def without(
        self,
        gone: set[int],
        swapped: dict[int, Fighter],
        attackers: list[int],
        defenders: list[int],
        keys: list[str] | None,
        units: list[Unit] | None,
        kept: list[Fighter] | None = None,
    ) -> Roster:
        """The roster after the units ``gone`` left and the fighters in ``swapped`` (by id:
        a changed wound) took their places; ``attackers`` to ``units`` are what the new one is
        made from; ``kept``, when given, is this roster's fighters without the units gone
        (the caller has it already).

        Every list this roster holds is carried over at once, without the units gone and
        with the fighters swapped, each list object once (a faction's list that is its whole
        side's, the casualty order that is the ranking, the dice shared by the rounds stay one
        list): the context, the dice and the casualty ranking only when no unit gone changed
        the context (the last Predator, Fear or Inspiring unit of a side, or Hero with
        ``hero_leadership_bonus``: R-ATTR-PRED-01, R-ATTR-FEAR-01, R-ATTR-INSP-01,
        R-ATTR-HERO-02); the casualty order (wounded Fortitude units first) only when no wound
        changed; the hits each faction can take are summed again."""
        if kept is None:  # this roster's fighters without the units gone
            kept = [f for f in self.fighters if f.id not in gone]
        fighters = [swapped.get(f.id, f) for f in kept] if swapped else kept
        new = Roster(attackers, defenders, keys, units, fighters, self.options)
        new._dice = self._dice
        if self._by_id is not None:  # each fighter by id: this roster's, less the units gone
            carried_ids = self._by_id.copy()
            for uid in gone:
                carried_ids.pop(uid, None)
            carried_ids.update(swapped)
            new._by_id = carried_ids
        # the context changes only when the last unit of a side (or of a faction on a side)
        # holding Predator, Fear, Inspiring or (with hero_leadership_bonus) a Hero goes: the
        # units holding each are counted once and the count carried
        by_id = self.by_id
        same_context = True
        counts: dict[tuple[object, ...], int] | None = None
        lead = self.options.hero_leadership_bonus
        for uid in gone:
            f = by_id.get(uid)
            if f is None:
                continue
            values = f.values
            if values.predator or values.fear or values.inspiring or f.kind.hero:
                if counts is None:
                    counts = dict(self._context_counts())
                for key in _context_keys(f, lead):
                    left = counts[key] = counts[key] - 1
                    if left <= 0:
                        same_context = False
        # each list object is carried once, whichever tables hold it; each side's list is a
        # slice of the new fighters (attackers first), when the split shows at the boundary
        done: dict[int, list[Fighter]] = {}
        split = len(attackers)
        if (split == 0 or fighters[split - 1].side is _SIDES[0]) and (
            split == len(fighters) or fighters[split].side is _SIDES[1]
        ):
            for side, part in ((_SIDES[0], fighters[:split]), (_SIDES[1], fighters[split:])):
                old = self._lists.get(side)
                if old:
                    done[id(old)] = part
        new._lists = _carried(self._lists, gone, swapped, done)
        if self._lines:
            new._lines = {key: _lines(lines, gone, swapped) for key, lines in self._lines.items()}
        cache = new._cache
        for name, held in self._cache.items():
            if name is _COUNTS:
                cache[name] = held if counts is None else {k: n for k, n in counts.items() if n}
            elif name is _SHIPS:
                if held is False:  # units only left: still no ship
                    cache[name] = held
            elif name is _CONTEXT:
                if same_context:
                    cache[name] = held
            elif held is True and type(name) is tuple and name[0] == "flag":
                cache[name] = held  # true of every roster made from this one
            # the hits each faction can take: summed again when asked
        if same_context:
            new._ranked = _carried(self._ranked, gone, swapped, done)
            specs_done: dict[int, tuple[list[DieSpec], list[DieSpec]]] = {}
            carried_specs: dict[object, tuple[list[DieSpec], list[DieSpec]]] = {}
            for step_key, pair in self._specs.items():
                dice = specs_done.get(id(pair))
                if dice is None:
                    attacker, defender = pair
                    dice = specs_done[id(pair)] = (
                        [d for d in attacker if d[0] not in gone] if attacker else attacker,
                        [d for d in defender if d[0] not in gone] if defender else defender,
                    )
                carried_specs[step_key] = dice
            new._specs = carried_specs
            if not swapped:  # a new wound moves a Fortitude unit to the front
                new._orders = _carried(self._orders, gone, swapped, done)
        return new

    def _context_counts(self) -> dict[tuple[object, ...], int]:
        """How many fighters hold each thing the step context reads (:func:`_context_keys`)."""
        key = _COUNTS
        found: dict[tuple[object, ...], int] | None = self._cache.get(key)  # type: ignore[assignment]
        if found is None:
            found = {}
            lead = self.options.hero_leadership_bonus
            for f in self.fighters:
                for item in _context_keys(f, lead):
                    found[item] = found.get(item, 0) + 1
            self._cache[key] = found
        return found


#: keys of what :attr:`Roster._cache` holds besides sums and flags
_COUNTS = "context counts"
_CONTEXT = "context"
_SHIPS = "ships"


def _context_keys(f: Fighter, lead: bool) -> list[tuple[object, ...]]:
    """What ``f`` adds to :func:`~caedes_bot.rules.combat.arithmetic.step_context`: its side
    holds a Predator, Fear or (``lead``: option ``hero_leadership_bonus``) a Hero, its faction
    on its side an Inspiring unit (R-ATTR-PRED-01, R-ATTR-FEAR-01, R-ATTR-INSP-01,
    R-ATTR-HERO-02). An enchanted unit adds nothing (R-MAGIC-ENCH-03)."""
    if f.enchanted:
        return []
    values = f.values
    keys: list[tuple[object, ...]] = []
    if values.predator:
        keys.append(("predator", f.side))
    if values.fear:
        keys.append(("fear", f.side))
    if values.inspiring:
        keys.append(("inspiring", f.side, f.faction))
    if lead and f.kind.hero:
        keys.append(("led", f.side))
    return keys


def _carried(
    lists: dict[object, list[Fighter]],
    gone: set[int],
    swapped: dict[int, Fighter],
    done: dict[int, list[Fighter]],
) -> dict[object, list[Fighter]]:
    """Each of ``lists`` without the fighters whose id is in ``gone``, each swapped for its
    fighter in ``swapped`` if it is there (a changed wound), in their order. ``done`` holds
    the lists carried already, by ``id`` of the list they were carried from (the old lists
    are alive meanwhile, so an ``id`` is not reused): a list held under several keys (a
    faction's that is its whole side's) is carried once and stays one list. An empty list
    stays as it is."""
    out: dict[object, list[Fighter]] = {}
    get = swapped.get
    for key, fighters in lists.items():
        if fighters:
            found = done.get(id(fighters))
            if found is None:
                found = [f for f in fighters if f.id not in gone] if gone else fighters
                if swapped:
                    found = [get(f.id, f) for f in found]
                done[id(fighters)] = found
            fighters = found
        out[key] = fighters
    return out


def _lines(
    lines: tuple[CasualtyCandidate, ...], gone: set[int], swapped: dict[int, Fighter]
) -> tuple[CasualtyCandidate, ...]:
    """The casualty decision ``lines`` of the units not ``gone``, in their order, a swapped
    unit's line showing its new wound and the hits it can take (R-COMBAT-06)."""
    if not swapped:
        return tuple([line for line in lines if line.id not in gone])
    kept = [line for line in lines if line.id not in gone]
    for n, line in enumerate(kept):
        f = swapped.get(line.id)
        if f is not None:
            kept[n] = CasualtyCandidate(f.id, f.kind.id, f.wounded, f.capacity)
    return tuple(kept)


def normal_die(spec: DieSpec, face: int) -> BattleDie:
    """The :class:`~caedes_bot.rules.state.BattleDie` of a normal die ``spec`` that showed
    ``face``: ``BattleDie(spec.unit, spec.kind, spec.side, spec.target, face, face <=
    spec.target)`` (R-GEN-02), the same object made without the frozen dataclass's
    ``__init__``, which sets each of the eleven fields on its own (a battle makes one per die;
    ``tests/rules/combat/test_kept.py`` checks the two are equal field by field)."""
    die: BattleDie = _new(BattleDie)
    fields = die.__dict__
    fields.update(_die_fields(spec))
    fields["value"] = face
    fields["hit"] = face <= spec.target
    return die


def _die_fields(spec: DieSpec) -> dict[str, object]:
    """The fields of a normal die of ``spec``, in the dataclass's order, before its face is
    known (``value`` 0, a miss)."""
    return {
        "unit": spec.unit,
        "kind": spec.kind,
        "side": spec.side,
        "target": spec.target,
        "value": 0,
        "hit": False,
        "purpose": _NORMAL,
        "own_side": False,
        "rerolled": False,
        "replaces": None,
        "void": False,
    }


_NORMAL = DiePurpose.NORMAL
_new = object.__new__
#: ``DieSpec(...)`` with every field given, without the named tuple's Python ``__new__``
_new_tuple = tuple.__new__
