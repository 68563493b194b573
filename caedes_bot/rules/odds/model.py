"""The battle as the odds calculator sees it: every side state, and what one step does to it
(R-COMBAT-03..07, R-COMBAT-12, R-COMBAT-13, R-GEN-02, R-ATTR-MERC-01, R-ATTR-BREATH-01..04,
R-MAGIC-ABJ-01, R-MAGIC-INV-01, R-MOVE-19), built from the very functions real battles use
(:mod:`caedes_bot.rules.combat.arithmetic`, :mod:`caedes_bot.rules.combat.specials`,
:mod:`caedes_bot.rules.combat.actions`).

A *side state* is the hit points left of each unit of one side, in a fixed unit order (0 gone,
1 whole or a wounded Fortitude unit, 2 an unwounded Fortitude unit, R-ATTR-FORTI-01), followed
by one flag per declared Abjurer: whether its cancel is still unused this round
(R-MAGIC-ABJ-01). Each side numbers its states as it meets them; a battle state is a pair of
those numbers. The *hit points* of a state (``hp``) leave the flags out: a round lowers them,
or leaves the state as it was (a hitless round, or one whose only hits were cancelled).

Declarations (R-COMBAT-12) are those of a missed deadline, made at the first round start and
kept as standing orders (:func:`caedes_bot.rules.combat.actions.default_count`), or the
standing orders of a battle under way: each declared Breathweapon, Invoker or Abjurer uses its
action every round (:func:`~caedes_bot.rules.combat.arithmetic.step_dice` with the actions).

One step of a round from a battle state gives the chance of each pair of next side states.
Without breath dice it is a product of two independent parts (the dice of the attacker decide
the hits on the defender, and the other way round, R-COMBAT-04, -05), so each side gets a
*marginal* (:class:`Marginal`) and the pair's chance is the product. A breath die may also hit
its own side (a 10, R-ATTR-BREATH-01), so with breath dice the two sides' hits are worked out
together as a joint table (:class:`Transition`). The hits a side takes lead to exactly one next
side state, because the casualties are the defaults of a missed deadline (R-COMBAT-06,
:func:`default_casualties`; hits handed out among several defending factions with
:func:`share_hits`). For one faction the default order of casualties does not depend on how
many hits there are (the first ``k`` hits of any larger number go to the same units), so the
whole ladder of next states is worked out from one call. After the melee step the cancels of
the Abjurers still standing come back for the next round.

Bound units go with their last master (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03), and the units
aboard a ship with the ship (R-MOVE-19, not as extra hits).

Everything is memoised per model; a model serves one battle and is thrown away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from caedes_bot.gamedata.model import Attribute, Options
from caedes_bot.rules.combat.actions import default_count
from caedes_bot.rules.combat.arithmetic import (
    Fighter,
    StepContext,
    default_casualties,
    mercenary_losses,
    share_hits,
    step_context,
    step_dice,
    survives_cleanup,
)
from caedes_bot.rules.combat.specials import (
    enemy_hit_faces,
    special_action,
    special_dice,
)
from caedes_bot.rules.dependants import BONDS, bound_to
from caedes_bot.rules.odds.tables import (
    Floats,
    Ints,
    Marginal,
    Transition,
    dice_distribution,
    fold,
    merge,
)
from caedes_bot.rules.state import BattleAction, CombatStep, DiePurpose, Side

Health = tuple[int, ...]

#: Attributes whose battle effect a side state cannot hold (the Enchanter changes a unit's
#: side, the Illusionist rerolls dice after they fall), reported as not supported.
UNMODELLED: tuple[Attribute, ...] = (Attribute.ENCHANTER, Attribute.ILLUSIONIST)

#: Special actions the side states hold (R-COMBAT-12).
MODELLED_ACTIONS = (BattleAction.BREATH, BattleAction.INVOKE, BattleAction.ABJURE)


def _bonds(
    fighters: Sequence[Fighter],
    masters_elsewhere: frozenset[tuple[str, str]],
    aboard: Mapping[int, int],
) -> list[tuple[list[int], list[int]]]:
    """For each faction and bond that can break in this battle (its masters all fight here,
    none stands elsewhere): the slots of its masters and of its bound units
    (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03); and for each ship fighting here with units aboard that
    fight too, the ship's slot and theirs (R-MOVE-19)."""
    out = []
    for faction in sorted({f.faction for f in fighters}):
        for bond in BONDS:
            if (faction, bond.master.value) in masters_elsewhere:
                continue
            mine = [(n, f) for n, f in enumerate(fighters) if f.faction == faction]
            masters = [n for n, f in mine if f.kind.has(bond.master)]
            bound = [n for n, f in mine if bound_to(f.kind) is bond]
            if masters and bound:
                out.append((masters, bound))
    slot = {f.id: n for n, f in enumerate(fighters)}
    ships: dict[int, list[int]] = {}
    for f in fighters:
        ship = aboard.get(f.id)
        if ship is not None and ship in slot:
            ships.setdefault(slot[ship], []).append(slot[f.id])
    out += [([ship], cargo) for ship, cargo in sorted(ships.items())]
    return out


class SideSpace:
    """The side states of one side met so far, numbered in the order met.

    Attributes:
        side: which side. fighters: its units in a fixed order (each unwounded variant).
        states: every side state met, by number. hp: hit points of each state (cancels of
            Abjurers left out).
    """

    def __init__(
        self,
        side: Side,
        fighters: Sequence[Fighter],
        order: Sequence[str],
        masters_elsewhere: frozenset[tuple[str, str]] = frozenset(),
        declared: Mapping[int, BattleAction] | None = None,
        aboard: Mapping[int, int] | None = None,
    ) -> None:
        self.side = side
        self.bonds = _bonds(fighters, masters_elsewhere, aboard or {})
        self.order = list(order)
        self.actions = {f.id: a for f in fighters if (a := (declared or {}).get(f.id)) is not None}
        plain = [replace(f, shield=0) if f.shield else f for f in fighters]
        self.whole = [replace(f, wounded=False) if f.fortitude else f for f in plain]
        self.wounded = [replace(f, wounded=True) if f.fortitude else f for f in plain]
        self.units = len(plain)
        #: the slots of the declared Abjurers, whose cancel flags follow the hit points
        self.abjurers = [
            n for n, f in enumerate(plain) if self.actions.get(f.id) is BattleAction.ABJURE
        ]
        self._flag = {slot: self.units + k for k, slot in enumerate(self.abjurers)}
        self._shielded = {
            slot: (replace(self.whole[slot], shield=1), replace(self.wounded[slot], shield=1))
            for slot in self.abjurers
        }
        self.slot = {f.id: n for n, f in enumerate(plain)}
        self.states: list[Health] = []
        self.index: dict[Health, int] = {}
        self.hp: list[int] = []
        self._alive: list[list[Fighter]] = []
        self.signature: list[int] = []
        self._signatures: dict[frozenset[tuple[str, str]], int] = {}
        self.single_faction = len({f.faction for f in fighters}) <= 1
        start = tuple(f.capacity for f in plain) + (1,) * len(self.abjurers)
        self.start = self.number(start)

    def number(self, health: Health) -> int:
        """The number of side state ``health``, numbering it if new (the cancel flag of a unit
        gone is cleared first, so a state has one spelling)."""
        if self.abjurers:
            cut = list(health)
            for slot, flag in self._flag.items():
                if cut[slot] <= 0:
                    cut[flag] = 0
            health = tuple(cut)
        found = self.index.get(health)
        if found is not None:
            return found
        n = len(self.states)
        self.states.append(health)
        self.index[health] = n
        self.hp.append(sum(health[: self.units]))
        alive = []
        for k in range(self.units):
            left = health[k]
            if left <= 0:
                continue
            wounded = left == 1 and self.whole[k].fortitude
            if k in self._flag and health[self._flag[k]]:
                alive.append(self._shielded[k][1 if wounded else 0])
            else:
                alive.append(self.wounded[k] if wounded else self.whole[k])
        self._alive.append(alive)
        key = frozenset((f.kind.id, f.faction) for f in alive)
        self.signature.append(self._signatures.setdefault(key, len(self._signatures)))
        return n

    def alive(self, n: int) -> list[Fighter]:
        """The units still fighting in side state ``n`` (wounded ones marked, Abjurers with an
        unused cancel shielded)."""
        return self._alive[n]

    def empty(self, n: int) -> bool:
        return self.hp[n] == 0

    def _hit(self, health: list[int], uid: int) -> None:
        """One hit on unit ``uid``: an unused cancel takes it, else a hit point
        (R-MAGIC-ABJ-01, R-ATTR-FORTI-01)."""
        k = self.slot[uid]
        flag = self._flag.get(k)
        if flag is not None and health[flag]:
            health[flag] = 0
        else:
            health[k] -= 1

    def bind(self, health: Health) -> Health:
        """``health`` after the bound units whose last master fell go with it
        (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03), and the units aboard a sunk ship with it
        (R-MOVE-19)."""
        for masters, bound in self.bonds:
            if all(health[m] <= 0 for m in masters) and any(health[b] for b in bound):
                cut = list(health)
                for b in bound:
                    cut[b] = 0
                health = tuple(cut)
        return health

    def renew(self, health: Health) -> Health:
        """``health`` at the next round start: every declared Abjurer still standing has its
        cancel again (R-MAGIC-ABJ-01, R-COMBAT-12)."""
        if not self.abjurers:
            return health
        out = list(health)
        for slot, flag in self._flag.items():
            out[flag] = 1 if out[slot] > 0 else 0
        return tuple(out)

    def _next(self, health: list[int], renew: bool) -> int:
        after = self.bind(tuple(health))
        return self.number(self.renew(after) if renew else after)

    def ladder(self, n: int, ctx: StepContext, renew: bool = False) -> list[int]:
        """Next side state after 0, 1, ... hits with the default casualties (R-COMBAT-06), up to
        the hits the side can take; more hits are lost and lead to the last entry. With
        ``renew`` (after the melee step) the Abjurers' cancels come back."""
        alive = self.alive(n)
        capacity = sum(f.capacity for f in alive)
        health = self.states[n]
        if self.single_faction:
            order = default_casualties(alive, capacity, ctx)
            current = list(health)
            out = [self._next(current, renew)]
            for uid in order:
                self._hit(current, uid)
                out.append(self._next(current, renew))
            return out
        # R-COMBAT-06: several factions take the side's hits in turn; each faction's share
        # goes to its default casualties, the first of them first.
        orders = {
            faction: default_casualties([f for f in alive if f.faction == faction], capacity, ctx)
            for faction in self.order
        }
        current = list(health)
        out = [self._next(current, renew)]
        given = dict.fromkeys(orders, 0)
        for faction in handout_sequence(alive, capacity, self.order):
            self._hit(current, orders[faction][given[faction]])
            given[faction] += 1
            out.append(self._next(current, renew))
        return out

    def after_mercenaries(self, n: int, ctx: StepContext) -> int:
        """Side state after the round-start Mercenary check (R-ATTR-MERC-01)."""
        lost = mercenary_losses(self.alive(n), ctx)
        if not lost:
            return n
        health = list(self.states[n])
        for uid in lost:
            health[self.slot[uid]] = 0
        return self.number(self.bind(tuple(health)))

    def survivors(self, n: int, options: Options, stalemate: bool) -> list[Fighter]:
        """Units left on the board after the battle ends in side state ``n`` (R-COMBAT-10,
        R-COMBAT-13, R-ATTR-FORTI-02): in a stalemate only attackers that may withdraw."""
        keep = [f for f in self.alive(n) if survives_cleanup(f, options)]
        if stalemate and self.side is Side.ATTACKER:
            keep = [f for f in keep if f.can_withdraw]
        return keep


def handout_sequence(fighters: Sequence[Fighter], hits: int, factions: Sequence[str]) -> list[str]:
    """The faction each of ``hits`` hits on one side goes to, first hit first (R-COMBAT-06):
    :func:`share_hits` hands them out one at a time in turn, skipping a faction that can take
    no more, so the first ``k`` of them are its answer for ``k`` hits (checked in
    tests/rules/test_odds_methods.py). Worked out from one call, not one per ``k``."""
    room = dict(share_hits(fighters, hits, factions))
    got = dict.fromkeys(factions, 0)
    out: list[str] = []
    total = sum(room.values())
    while len(out) < total:
        for code in factions:
            if len(out) < total and got[code] < room.get(code, 0):
                got[code] += 1
                out.append(code)
    return out


def default_declared(
    fighters: Sequence[Fighter], options: Options, round_no: int = 1
) -> dict[int, BattleAction]:
    """The units that use their special action every round on a missed deadline
    (R-COMBAT-12, R-PBP-DEAD-04): per faction and kind, all or none by
    :func:`~caedes_bot.rules.combat.actions.default_count` in the context of the first round
    start (``round_no``), kept as standing orders for the rest of the battle. Only the actions
    the side states hold (:data:`MODELLED_ACTIONS`)."""
    ctx = step_context(fighters, round_no, options)
    groups: dict[tuple[Side, str, str], list[Fighter]] = {}
    for f in sorted(fighters, key=lambda f: f.id):
        action = special_action(f.kind)
        if action in MODELLED_ACTIONS:
            groups.setdefault((f.side, f.faction, f.kind.id), []).append(f)
    out: dict[int, BattleAction] = {}
    for members in groups.values():
        action = special_action(members[0].kind)
        assert action is not None
        for f in members[: default_count(members, ctx, options)]:
            out[f.id] = action
    return out


def modelled_declared(
    fighters: Sequence[Fighter],
    options: Options,
    start_round: int,
    declared: Mapping[int, BattleAction] | None,
) -> dict[int, BattleAction]:
    """The standing declarations the odds are worked out with: ``declared``, or the defaults
    of a missed deadline when it is ``None`` (:func:`default_declared`, R-COMBAT-12,
    R-PBP-DEAD-04), keeping only the actions the side states hold (:data:`MODELLED_ACTIONS`).
    Unit id -> action."""
    if declared is None:
        declared = default_declared(fighters, options, start_round)
    return {k: v for k, v in declared.items() if v in MODELLED_ACTIONS}


class BattleModel:
    """Both sides' spaces and the memoised step arithmetic of one battle.

    ``declared`` maps the units using a special action every round to it (default: the
    defaults of a missed deadline, :func:`default_declared`); ``aboard`` maps a carried unit
    to its ship (R-MOVE-19)."""

    def __init__(
        self,
        fighters: Sequence[Fighter],
        options: Options,
        attacker: str,
        defender_order: Sequence[str],
        masters_elsewhere: frozenset[tuple[str, str]] = frozenset(),
        *,
        declared: Mapping[int, BattleAction] | None = None,
        aboard: Mapping[int, int] | None = None,
        start_round: int = 1,
    ) -> None:
        self.options = options
        declared = modelled_declared(fighters, options, start_round, declared)
        self.declared = declared
        self.att = SideSpace(
            Side.ATTACKER,
            [f for f in fighters if f.side is Side.ATTACKER],
            [attacker],
            masters_elsewhere,
            declared,
            aboard,
        )
        self.dfn = SideSpace(
            Side.DEFENDER,
            [f for f in fighters if f.side is Side.DEFENDER],
            defender_order,
            masters_elsewhere,
            declared,
            aboard,
        )
        self.unmodelled = tuple(
            sorted({a.value for f in fighters for a in UNMODELLED if f.kind.has(a)})
        )
        self.renews = bool(self.att.abjurers or self.dfn.abjurers)
        self._ctx: dict[tuple[int, int, bool], tuple[int, StepContext]] = {}
        self._ladders: dict[tuple[Side, int, int, bool], Ints] = {}
        self._dice: dict[tuple[Side, int, int, CombatStep], tuple[int, Floats]] = {}
        self._dist: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, Floats]] = {}
        self._marginals: dict[tuple[Side, int, int, int, bool], Marginal] = {}
        self._joints: dict[tuple[int, int], Floats] = {}
        self._merc: dict[tuple[Side, int, int], int] = {}
        self._steps: dict[tuple[int, int, CombatStep, bool], Transition] = {}
        self.any_mercenary = any(f.mercenary for f in fighters)

    def space(self, side: Side) -> SideSpace:
        return self.att if side is Side.ATTACKER else self.dfn

    def context(self, i: int, j: int, first_round: bool) -> tuple[int, StepContext]:
        """The step context of battle state ``(i, j)`` (round 1 or a later one), numbered."""
        key = (self.att.signature[i], self.dfn.signature[j], first_round)
        found = self._ctx.get(key)
        if found is None:
            alive = self.att.alive(i) + self.dfn.alive(j)
            ctx = step_context(alive, 1 if first_round else 2, self.options)
            found = self._ctx[key] = (len(self._ctx), ctx)
        return found

    def _ladder(self, side: Side, n: int, ctx: tuple[int, StepContext], renew: bool) -> Ints:
        key = (side, n, ctx[0], renew)
        found = self._ladders.get(key)
        if found is None:
            ladder = self.space(side).ladder(n, ctx[1], renew)
            found = self._ladders[key] = np.array(ladder, np.intp)
        return found

    def _hits_from(
        self, side: Side, n: int, ctx: tuple[int, StepContext], step: CombatStep
    ) -> tuple[int, Floats]:
        """Chance of ``[x, y]``: ``x`` hits that ``side``'s dice score on the other side in
        ``step`` and ``y`` on its own (breath 10s), with a number for each distinct table."""
        key = (side, n, ctx[0], step)
        found = self._dice.get(key)
        if found is None:
            space = self.space(side)
            specs = step_dice(step, space.alive(n), ctx[1], space.actions, self.options)
            targets = tuple(sorted(s.target for s in specs if s.purpose is not DiePurpose.BREATH))
            breath = tuple(
                sorted(
                    enemy_hit_faces(s.purpose, s.target, self.options)
                    for s in specs
                    if s.purpose is DiePurpose.BREATH
                )
            )
            found = self._dist.get((targets, breath))
            if found is None:
                table = dice_distribution(targets, breath)
                found = self._dist[(targets, breath)] = (len(self._dist), table)
            self._dice[key] = found
        return found

    def _marginal(
        self,
        side: Side,
        own: int,
        ctx: tuple[int, StepContext],
        number: int,
        dist: Floats,
        renew: bool,
    ) -> Marginal:
        """Next states of ``side`` (now in ``own``) after it takes hits with chances ``dist``
        (table ``number``)."""
        key = (side, own, ctx[0], number, renew)
        known = self._marginals.get(key)
        if known is not None:
            return known
        ladder = self._ladder(side, own, ctx, renew)
        chances = fold(dist, len(ladder))
        ladder = ladder[: len(chances)]
        ladder, chances = merge(ladder, chances)
        made = self._marginals[key] = self._made(side, ladder, chances)
        return made

    def _made(self, side: Side, ladder: Ints, chances: Floats) -> Marginal:
        numbers = ladder.tolist()
        first = numbers[0]
        consecutive = numbers == list(range(first, first + len(numbers)))
        span = slice(first, first + len(numbers)) if consecutive else None
        hp = self.space(side).hp
        live = np.array([hp[n] > 0 for n in numbers], dtype=bool)
        return Marginal(ladder, chances, live, span)

    def _joint(self, na: int, pa: Floats, nd: int, pd: Floats) -> Floats:
        """Chance of ``[u, v]``: ``u`` hits on the attacker and ``v`` on the defender, from the
        attacker's table ``pa`` (hits on the enemy, on its own side) and the defender's ``pd``
        (R-ATTR-BREATH-01, R-ATTR-BREATH-04: own-side hits fall with the step's others)."""
        found = self._joints.get((na, nd))
        if found is not None:
            return found
        ea, ba = pa.shape[0] - 1, pa.shape[1] - 1
        ed, bd = pd.shape[0] - 1, pd.shape[1] - 1
        joint: Floats = np.zeros((ed + ba + 1, ea + bd + 1))
        for y in range(ba + 1):
            for v in range(bd + 1):
                joint[y : y + ed + 1, v : v + ea + 1] += np.outer(pd[:, v], pa[:, y])
        self._joints[(na, nd)] = joint
        return joint

    def step(self, i: int, j: int, step: CombatStep, first_round: bool) -> Transition:
        """Both sides' next side states after ``step`` from ``(i, j)`` (after the melee step,
        the Abjurers' cancels are back for the next round)."""
        key = (i, j, step, first_round)
        found = self._steps.get(key)
        if found is not None:
            return found
        ctx = self.context(i, j, first_round)
        renew = self.renews and step is CombatStep.MELEE
        na, pa = self._hits_from(Side.ATTACKER, i, ctx, step)
        nd, pd = self._hits_from(Side.DEFENDER, j, ctx, step)
        if pa.shape[1] == 1 and pd.shape[1] == 1:
            made = Transition(
                self._marginal(Side.ATTACKER, i, ctx, nd, pd[:, 0], renew),
                self._marginal(Side.DEFENDER, j, ctx, na, pa[:, 0], renew),
            )
        else:
            made = self._joint_step(i, j, ctx, renew, self._joint(na, pa, nd, pd))
        if len(self._steps) < 200_000:
            self._steps[key] = made
        return made

    def _joint_step(
        self, i: int, j: int, ctx: tuple[int, StepContext], renew: bool, joint: Floats
    ) -> Transition:
        lad_a = self._ladder(Side.ATTACKER, i, ctx, renew)
        lad_d = self._ladder(Side.DEFENDER, j, ctx, renew)
        table = fold(joint, len(lad_a))
        table = fold(table.T, len(lad_d)).T
        lad_a, lad_d = lad_a[: table.shape[0]], lad_d[: table.shape[1]]
        rows, inverse = np.unique(lad_a, return_inverse=True)
        if len(rows) < len(lad_a):
            merged: Floats = np.zeros((len(rows), table.shape[1]))
            np.add.at(merged, inverse, table)
            table, lad_a = merged, rows
        cols, inverse = np.unique(lad_d, return_inverse=True)
        if len(cols) < len(lad_d):
            merged = np.zeros((table.shape[0], len(cols)))
            np.add.at(merged.T, inverse, table.T)
            table, lad_d = merged, cols
        a = self._made(Side.ATTACKER, lad_a, table.sum(axis=1))
        d = self._made(Side.DEFENDER, lad_d, table.sum(axis=0))
        return Transition(a, d, np.ascontiguousarray(table))

    def after_mercenaries(self, i: int, j: int, first_round: bool) -> tuple[int, int]:
        """Battle state after the round-start Mercenary check (R-ATTR-MERC-01)."""
        if not self.any_mercenary:
            return i, j
        ctx = self.context(i, j, first_round)
        out = []
        for side, n in ((Side.ATTACKER, i), (Side.DEFENDER, j)):
            key = (side, n, ctx[0])
            found = self._merc.get(key)
            if found is None:
                found = self._merc[key] = self.space(side).after_mercenaries(n, ctx[1])
            out.append(found)
        return out[0], out[1]

    def decided(self, i: int, j: int) -> bool:
        """A side has no units (R-COMBAT-07)."""
        return self.att.hp[i] == 0 or self.dfn.hp[j] == 0

    def work_bound(self) -> int:
        """A bound on the arithmetic of the enumeration, worked out before computing: the
        :meth:`size_bound` times the cells of one step's table at the start (the hits each
        side's dice can score, up to the hits the other side can take, plus one, multiplied).
        The large battles' cost is in those tables (a 300 against 300 battle adds a table of
        about 90,000 cells for each of its states)."""
        cells = 1
        for rolling, taking in ((self.att, self.dfn), (self.dfn, self.att)):
            dice = 0
            for f in rolling.whole:
                action = rolling.actions.get(f.id)
                if action is BattleAction.ABJURE:
                    continue
                count = f.values.dice
                if action is not None:
                    count = special_dice(f.kind, action, self.options)
                dice += count
            room = sum(f.capacity for f in taking.whole) + len(taking.abjurers)
            cells *= min(dice, room) + 1
        return self.size_bound() * cells

    def size_bound(self) -> int:
        """A bound on the battle's state space, worked out before computing: for each side
        the product over its factions of (hit points + cancels + 1), since a faction's
        default casualties depend only on the hits it has taken (R-COMBAT-06); the two sides
        multiplied. Chooses the method (:func:`caedes_bot.rules.odds.choose_method`)."""
        size = 1
        for space in (self.att, self.dfn):
            per_faction: dict[str, int] = {}
            for n, f in enumerate(space.whole):
                extra = 1 if n in space.abjurers else 0
                per_faction[f.faction] = per_faction.get(f.faction, 0) + f.capacity + extra
            for hp in per_faction.values():
                size *= hp + 1
        return size
