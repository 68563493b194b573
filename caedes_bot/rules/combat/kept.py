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
this one: every list it holds loses the units gone, a wounded unit's fighter is swapped in
place, and the context, the dice and the casualty order are carried over when no unit gone
changed the context (a Predator, Fear, Inspiring, a Hero or an enchanted unit). So a step
costs what changed, not a pass per list over every fighter.

A roster is never changed once made (its lists are handed out for reading only), so the
clones of a state may share it: each use checks what it was made from (the unit lists, the unit
objects, the options), :func:`caedes_bot.rules.combat.sides.battle_fighters`.
"""

from __future__ import annotations

from operator import attrgetter

from caedes_bot.gamedata.model import Attribute, BaseType, Options
from caedes_bot.rules.combat.arithmetic import (
    DieSpec,
    Fighter,
    StepContext,
    casualty_rank,
    has_real_choice,
    step_context,
    step_dice,
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


class Roster:
    """The fighters of a battle at one moment and the lists worked out from them (see the
    module docstring). For reading only: nothing here may be changed by a caller.

    Attributes:
        attackers, defenders: the battle's unit lists it was made from.
        keys: each fighter's key in the state's unit table (its id as text).
        units: the unit objects it was last checked against (a unit copied on write is found
            by identity, and then its wound is compared).
        table, writes: the unit table it was last checked against and that table's count of
            objects handed out for writing then (:attr:`CowTable.writes`): while both are
            the same, nothing needs checking.
        fighters: attackers then defenders, in the order of the unit lists.
        magic: the declarations, used Abjurer cancels and enchantments it was made with,
            ``None`` when no battle magic was in play (no declarations, no enchanted units);
            only then are lists carried over to the next roster.
    """

    __slots__ = (
        "_by_id",
        "_cache",
        "_carry",
        "attackers",
        "defenders",
        "fighters",
        "keys",
        "magic",
        "options",
        "table",
        "units",
        "writes",
    )

    def __init__(
        self,
        attackers: list[int],
        defenders: list[int],
        keys: list[str],
        units: list[Unit],
        fighters: list[Fighter],
        options: Options,
        magic: object = None,
    ) -> None:
        self.attackers, self.defenders = attackers, defenders
        self.keys, self.units, self.fighters = keys, units, fighters
        self.options, self.magic = options, magic
        self.table: object = None
        self.writes: int | None = None
        self._by_id: dict[int, Fighter] | None = None
        #: what was worked out, by what it is: see the methods
        self._cache: dict[object, object] = {}
        #: the roster this one was made from, the units gone since, the fighters swapped and
        #: whether the context stayed the same (:meth:`without`); lists are carried from it
        #: when first asked
        self._carry: tuple[Roster, set[int], dict[int, Fighter], bool] | None = None

    def seen(self, table: dict[str, Unit], units: list[Unit]) -> None:
        """Note that the roster holds for ``table``, whose objects for :attr:`keys` are
        ``units``, at its present count of writes (for a plain ``dict``: none, so every use
        checks the units again)."""
        self.units, self.table = units, table
        self.writes = table.writes if isinstance(table, CowTable) else None

    @property
    def by_id(self) -> dict[int, Fighter]:
        """Each fighter by unit id."""
        found = self._by_id
        if found is None:
            found = self._by_id = {f.id: f for f in self.fighters}
        return found

    # -------------------------------------------------------------- the lists

    def _carried(self, key: object, *, context: bool = False, wounds: bool = False) -> object:
        """The list kept under ``key`` by the roster this one was made from, without the units
        gone since and with the fighters swapped; ``None`` if it had none (or, for what
        depends on the ``context``, if the context changed; for what depends on the
        ``wounds``, if a wound changed)."""
        carry = self._carry
        if carry is None:
            return None
        parent, gone, swapped, same_context = carry
        if (context and not same_context) or (wounds and swapped):
            return None
        value = parent._cache.get(key)
        if value is None:
            return None
        if isinstance(value, StepContext):
            return value
        if key[0] == "specs":  # type: ignore[index]
            return [d for d in value if d.unit not in gone]  # type: ignore[attr-defined]
        if swapped:
            return [swapped.get(f.id, f) for f in value if f.id not in gone]  # type: ignore[attr-defined]
        return [f for f in value if f.id not in gone]  # type: ignore[attr-defined]

    def side(self, side: Side) -> list[Fighter]:
        """The fighters on ``side``, in the order of its unit list."""
        key = ("side", side)
        found = self._cache.get(key)
        if found is None:
            found = self._carried(key)
            if found is None:
                found = [f for f in self.fighters if f.side is side]
            self._cache[key] = found
        return found  # type: ignore[return-value]

    def of(self, side: Side, faction: str) -> list[Fighter]:
        """The fighters of ``faction`` on ``side``, in the order of the side's unit list."""
        key = ("of", side, faction)
        found = self._cache.get(key)
        if found is None:
            found = self._carried(key)
            if found is None:
                found = [f for f in self.side(side) if f.faction == faction]
            self._cache[key] = found
        return found  # type: ignore[return-value]

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
        key = ("ctx",)
        found = self._cache.get(key)
        if found is None:
            found = self._carried(key, context=True)
        if isinstance(found, StepContext):
            if found.round_no == round_no:
                self._cache[key] = found
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
        none is idle: :func:`step_dice` of these fighters (R-COMBAT-04, R-COMBAT-05)."""
        key = ("specs", step, round_no == 1)  # the round counts only as first or not
        found = self._cache.get(key)
        if found is None:
            found = self._carried(key, context=True)
            if found is None:
                found = step_dice(step, self.fighters, self.context(round_no))
            self._cache[key] = found
        return found  # type: ignore[return-value]

    def ranked(self, side: Side, faction: str, ctx: StepContext) -> list[Fighter]:
        """The fighters of ``faction`` on ``side`` by :func:`casualty_rank` under ``ctx``,
        first removed first (R-COMBAT-06). The rank reads of the context only who holds a
        Predator (and the option of R-ATTR-PRED-01, fixed for the roster)."""
        key = ("ranked", side, faction, ctx.predator)
        found = self._cache.get(key)
        if found is None:
            found = self._carried(key, context=True)
            if found is None:
                found = sorted(self.of(side, faction), key=lambda f: casualty_rank(f, ctx))
            self._cache[key] = found
        return found  # type: ignore[return-value]

    def summoners(self, side: Side) -> list[Fighter]:
        """The fighters on ``side`` with the Summoner power (R-MAGIC-SUMM-01)."""
        key = ("summoners", side)
        found = self._cache.get(key)
        if found is None:
            found = self._carried(key)
            if found is None:
                summoner = Attribute.SUMMONER  # once, not per fighter (an enum read is slow)
                found = [f for f in self.side(side) if summoner in f.kind.attributes]
            self._cache[key] = found
        return found  # type: ignore[return-value]

    def specials(self) -> list[Fighter]:
        """The fighters with a special action (R-COMBAT-12) or the Illusionist power
        (R-MAGIC-ILL-01), in unit id order."""
        key = ("specials",)
        found = self._cache.get(key)
        if found is None:
            found = self._carried(key)
            if found is None:
                found = sorted(
                    (
                        f
                        for f in self.fighters
                        if special_action(f.kind) is not None
                        or Attribute.ILLUSIONIST in f.kind.attributes
                    ),
                    key=_BY_ID,
                )
            self._cache[key] = found
        return found  # type: ignore[return-value]

    def candidates(self, side: Side, faction: str) -> tuple[CasualtyCandidate, ...] | None:
        """The lines of a ``casualties`` decision for the fighters of ``faction`` on ``side``
        (R-COMBAT-06), when kept: worked out for this roster (:meth:`keep_candidates`) or
        carried from the last without the units gone (a wound changed: worked out again)."""
        key = ("candidates", side, faction)
        found = self._cache.get(key)
        if found is None:
            carried = self._carried(key, wounds=True)
            if carried is None:
                return None
            found = self._cache[key] = tuple(carried)  # type: ignore[arg-type]
        return found  # type: ignore[return-value]

    def keep_candidates(
        self, side: Side, faction: str, lines: tuple[CasualtyCandidate, ...]
    ) -> None:
        """Keep ``lines``, the decision lines of :meth:`candidates`, for this roster."""
        self._cache[("candidates", side, faction)] = lines

    def has_ships(self) -> bool:
        """Whether a ship fights here (R-MOVE-19: the units aboard go down with it)."""
        key = ("ships",)
        found = self._cache.get(key)
        if found is None:
            carry = self._carry
            if carry is not None and carry[0]._cache.get(key) is False:
                found = False  # units only left since: still no ship
            else:
                ship = BaseType.SHIP
                found = any(f.kind.base_type is ship for f in self.fighters)
            self._cache[key] = found
        return found  # type: ignore[return-value]

    # -------------------------------------------------------------- casualties

    def default_casualties(
        self, side: Side, faction: str, hits: int, ctx: StepContext
    ) -> list[int]:
        """:func:`~caedes_bot.rules.combat.arithmetic.default_casualties` of the fighters of
        ``faction`` on ``side`` (R-COMBAT-06, R-ATTR-FORTI-01), from the kept casualty order:
        a wounded Fortitude unit first, then by rank, each unit taking what it can. Only for a
        roster without battle magic (no shields, R-MAGIC-ABJ-01)."""
        key = ("order", side, faction, ctx.predator)
        order: list[Fighter] | None = self._cache.get(key)  # type: ignore[assignment]
        if order is None:
            order = self._carried(key, context=True, wounds=True)  # type: ignore[assignment]
            if order is None:
                ranked = self.ranked(side, faction, ctx)
                hurt = [f for f in ranked if f.wounded and f.fortitude]
                order = hurt + [f for f in ranked if not (f.wounded and f.fortitude)]
            self._cache[key] = order
        out: list[int] = []
        left = hits
        for f in order:
            if left <= 0:
                break
            take = min(f.capacity, left)
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
        if len(set(map(_KIND_ID, fighters))) > 1:
            return True  # two kinds are two classes of units: has_real_choice says so too
        return has_real_choice(fighters, hits)

    # -------------------------------------------------------------- the next roster

    def without(
        self,
        gone: set[int],
        swapped: dict[int, Fighter],
        attackers: list[int],
        defenders: list[int],
        keys: list[str],
        units: list[Unit],
        kept: list[Fighter] | None = None,
    ) -> Roster:
        """The roster after the units ``gone`` left and the fighters in ``swapped`` (by id:
        a changed wound) took their places; ``attackers`` to ``units`` are what the new one is
        made from; ``kept``, when given, is this roster's fighters without the units gone
        (the caller has it already). Each list kept here is carried over, when first asked,
        without the units gone; the context, the dice and the casualty order only when no
        unit gone changed the context (R-ATTR-PRED-01, R-ATTR-FEAR-01, R-ATTR-INSP-01,
        R-ATTR-HERO-02)."""
        if kept is None:  # this roster's fighters without the units gone
            kept = [f for f in self.fighters if f.id not in gone]
        fighters = [swapped.get(f.id, f) for f in kept] if swapped else kept
        new = Roster(attackers, defenders, keys, units, fighters, self.options)
        by_id = self.by_id
        same_context = True
        for uid in gone:
            f = by_id.get(uid)
            if f is not None and (
                f.values.predator or f.values.fear or f.values.inspiring or f.kind.hero
            ):
                same_context = False
                break
        self._carry = None  # carried one roster on at most, so no chain is kept alive
        new._carry = (self, gone, swapped, same_context)
        if same_context:  # each step asks for the other step's dice: carried at once
            cache = new._cache
            for key, value in self._cache.items():
                if key[0] == "specs":  # type: ignore[index]
                    cache[key] = [d for d in value if d.unit not in gone]  # type: ignore[attr-defined]
        return new


def normal_die(spec: DieSpec, face: int) -> BattleDie:
    """The :class:`~caedes_bot.rules.state.BattleDie` of a normal die ``spec`` that showed
    ``face``: ``BattleDie(spec.unit, spec.kind, spec.side, spec.target, face, face <=
    spec.target)`` (R-GEN-02), the same object made without the frozen dataclass's
    ``__init__``, which sets each of the eleven fields on its own (a battle makes one per die;
    ``tests/rules/combat/test_kept.py`` checks the two are equal field by field)."""
    die: BattleDie = _new(BattleDie)
    _set(
        die,
        "__dict__",
        {
            "unit": spec.unit,
            "kind": spec.kind,
            "side": spec.side,
            "target": spec.target,
            "value": face,
            "hit": face <= spec.target,
            "purpose": _NORMAL,
            "own_side": False,
            "rerolled": False,
            "replaces": None,
            "void": False,
        },
    )
    return die


_NORMAL = DiePurpose.NORMAL
_new = object.__new__
_set = object.__setattr__
