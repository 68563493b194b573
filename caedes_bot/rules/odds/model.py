"""The battle as the odds calculator sees it: every side state, and what one step does to it
(R-COMBAT-03..07, R-COMBAT-13, R-GEN-02, R-ATTR-MERC-01), built from the very functions real
battles use (:mod:`caedes_bot.rules.combat.arithmetic`).

A *side state* is the hit points left of each unit of one side, in a fixed unit order (0 gone,
1 whole or a wounded Fortitude unit, 2 an unwounded Fortitude unit, R-ATTR-FORTI-01). Each side
numbers its states as it meets them; a battle state is a pair of those numbers.

One step of a round from a battle state is a product of two independent parts: the dice of the
attacker decide the hits on the defender, and the other way round (R-COMBAT-04, -05). So for
each side the model gives the chance of each *next side state* (:meth:`BattleModel.step`), and the
battle's next state is the pair of the two, with the product of their chances. The hits a side
takes lead to exactly one next side state, because the casualties are the defaults of a missed
deadline (R-COMBAT-06, :func:`default_casualties`; hits handed out among several defending
factions with :func:`share_hits`). For one faction the default order of casualties does not
depend on how many hits there are (the first ``k`` hits of any larger number go to the same
units: :func:`default_casualties` ranks the units once and hands the hits out in that order), so
the whole ladder of next states is worked out from one call.

Everything is memoised per model; a model serves one battle and is thrown away.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from caedes_bot.gamedata.model import Attribute, Options
from caedes_bot.rules.combat.arithmetic import (
    Fighter,
    StepContext,
    default_casualties,
    hit_probability,
    mercenary_losses,
    share_hits,
    step_context,
    step_dice,
    survives_cleanup,
)
from caedes_bot.rules.dependants import BONDS, bound_to
from caedes_bot.rules.state import CombatStep, Side

Health = tuple[int, ...]
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]

#: Attributes whose battle effect the model cannot hold in a side state (they change sides,
#: reroll dice or act by a player's declaration), reported as not supported in the answer.
UNMODELLED: tuple[Attribute, ...] = (
    Attribute.ABJURER,
    Attribute.BREATHWEAPON,
    Attribute.ENCHANTER,
    Attribute.ILLUSIONIST,
    Attribute.INVOKER,
    Attribute.SUMMONER,
)


def hit_distribution(targets: Sequence[int]) -> Floats:
    """Chance of 0, 1, ... ``len(targets)`` hits from one die per target (R-GEN-01, R-GEN-02:
    a die hits with chance ``target/10`` within 0..1). Dice of one target add up as a binomial."""
    dist: Floats = np.ones(1)
    counts: dict[int, int] = {}
    for target in targets:
        counts[target] = counts.get(target, 0) + 1
    for target, n in sorted(counts.items()):
        p = hit_probability(target)
        if p <= 0.0:
            continue
        if p >= 1.0:
            dist = np.concatenate((np.zeros(n), dist))
            continue
        binom = np.array([math.comb(n, k) * p**k * (1.0 - p) ** (n - k) for k in range(n + 1)])
        dist = np.convolve(dist, binom)
    return dist


@dataclass(frozen=True, slots=True)
class Marginal:
    """One side's next side states after a step and their chances (they add up to 1).

    ``nothing`` is the chance that the side takes no hit (its state is unchanged); ``live``
    whether each next state still has units; ``span`` the same states as a slice when they
    are numbered one after another (then arrays are added to without fancy indexing)."""

    states: Ints
    chances: Floats
    nothing: float
    live: npt.NDArray[np.bool_]
    span: slice | None


def _bonds(
    fighters: Sequence[Fighter], masters_elsewhere: frozenset[tuple[str, str]]
) -> list[tuple[list[int], list[int]]]:
    """For each faction and bond that can break in this battle (its masters all fight here,
    none stands elsewhere): the slots of its masters and of its bound units
    (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03)."""
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
    return out


class SideSpace:
    """The side states of one side met so far, numbered in the order met.

    Attributes:
        side: which side. fighters: its units in a fixed order (each unwounded variant).
        states: every side state met, by number. hp: total hit points of each state.
    """

    def __init__(
        self,
        side: Side,
        fighters: Sequence[Fighter],
        order: Sequence[str],
        masters_elsewhere: frozenset[tuple[str, str]] = frozenset(),
    ) -> None:
        self.side = side
        self.bonds = _bonds(fighters, masters_elsewhere)
        self.order = list(order)
        self.whole = [replace(f, wounded=False) if f.fortitude else f for f in fighters]
        self.wounded = [replace(f, wounded=True) if f.fortitude else f for f in fighters]
        self.slot = {f.id: n for n, f in enumerate(fighters)}
        self.states: list[Health] = []
        self.index: dict[Health, int] = {}
        self.hp: list[int] = []
        self._alive: list[list[Fighter]] = []
        self.signature: list[int] = []
        self._signatures: dict[frozenset[tuple[str, str]], int] = {}
        self.single_faction = len({f.faction for f in fighters}) <= 1
        self.start = self.number(tuple(f.capacity for f in fighters))

    def number(self, health: Health) -> int:
        """The number of side state ``health``, numbering it if new."""
        found = self.index.get(health)
        if found is not None:
            return found
        n = len(self.states)
        self.states.append(health)
        self.index[health] = n
        self.hp.append(sum(health))
        alive = [
            (self.wounded[k] if (left == 1 and self.whole[k].fortitude) else self.whole[k])
            for k, left in enumerate(health)
            if left > 0
        ]
        self._alive.append(alive)
        key = frozenset((f.kind.id, f.faction) for f in alive)
        self.signature.append(self._signatures.setdefault(key, len(self._signatures)))
        return n

    def alive(self, n: int) -> list[Fighter]:
        """The units still fighting in side state ``n`` (wounded ones marked)."""
        return self._alive[n]

    def empty(self, n: int) -> bool:
        return self.hp[n] == 0

    def hit(self, health: Health, unit_ids: Sequence[int]) -> Health:
        new = list(health)
        for uid in unit_ids:
            new[self.slot[uid]] -= 1
        return tuple(new)

    def bind(self, health: Health) -> Health:
        """``health`` after the bound units whose last master fell go with it
        (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03)."""
        for masters, bound in self.bonds:
            if all(health[m] == 0 for m in masters) and any(health[b] for b in bound):
                cut = list(health)
                for b in bound:
                    cut[b] = 0
                health = tuple(cut)
        return health

    def ladder(self, n: int, ctx: StepContext) -> list[int]:
        """Next side state after 0, 1, ... hits with the default casualties (R-COMBAT-06), up to
        the hits the side can take; more hits are lost and lead to the last entry."""
        alive = self.alive(n)
        capacity = self.hp[n]
        health = self.states[n]
        if self.single_faction:
            order = default_casualties(alive, capacity, ctx)
            out = [n]
            current = list(health)
            for uid in order:
                current[self.slot[uid]] -= 1
                out.append(self.number(self.bind(tuple(current))))
            return out
        # R-COMBAT-06: several factions take the side's hits in turn; each faction's share
        # goes to its default casualties, the first of them first.
        orders = {
            faction: default_casualties([f for f in alive if f.faction == faction], capacity, ctx)
            for faction in self.order
        }
        out = [n]
        for k in range(1, capacity + 1):
            current = list(health)
            for faction, count in share_hits(alive, k, self.order):
                for uid in orders[faction][:count]:
                    current[self.slot[uid]] -= 1
            out.append(self.number(self.bind(tuple(current))))
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


class BattleModel:
    """Both sides' spaces and the memoised step arithmetic of one battle."""

    def __init__(
        self,
        fighters: Sequence[Fighter],
        options: Options,
        attacker: str,
        defender_order: Sequence[str],
        masters_elsewhere: frozenset[tuple[str, str]] = frozenset(),
    ) -> None:
        self.options = options
        self.att = SideSpace(
            Side.ATTACKER,
            [f for f in fighters if f.side is Side.ATTACKER],
            [attacker],
            masters_elsewhere,
        )
        self.dfn = SideSpace(
            Side.DEFENDER,
            [f for f in fighters if f.side is Side.DEFENDER],
            defender_order,
            masters_elsewhere,
        )
        self.unmodelled = tuple(
            sorted({a.value for f in fighters for a in UNMODELLED if f.kind.has(a)})
        )
        self._ctx: dict[tuple[int, int, bool], tuple[int, StepContext]] = {}
        self._ladders: dict[tuple[Side, int, int], Ints] = {}
        self._dice: dict[tuple[Side, int, int, CombatStep], tuple[int, Floats]] = {}
        self._dist: dict[tuple[int, ...], tuple[int, Floats]] = {}
        self._marginals: dict[tuple[Side, int, int, int], Marginal] = {}
        self._merc: dict[tuple[Side, int, int], int] = {}
        self._steps: dict[tuple[int, int, CombatStep, bool], tuple[Marginal, Marginal]] = {}
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

    def _ladder(self, side: Side, n: int, ctx: tuple[int, StepContext]) -> Ints:
        key = (side, n, ctx[0])
        found = self._ladders.get(key)
        if found is None:
            found = self._ladders[key] = np.array(self.space(side).ladder(n, ctx[1]), np.intp)
        return found

    def _hits_from(
        self, side: Side, n: int, ctx: tuple[int, StepContext], step: CombatStep
    ) -> tuple[int, Floats]:
        """Chance of 0, 1, ... hits that ``side``'s dice score on the other side in ``step``,
        with a number for each distinct distribution."""
        key = (side, n, ctx[0], step)
        found = self._dice.get(key)
        if found is None:
            alive = self.space(side).alive(n)
            targets = tuple(sorted(s.target for s in step_dice(step, alive, ctx[1])))
            found = self._dist.get(targets)
            if found is None:
                found = self._dist[targets] = (len(self._dist), hit_distribution(targets))
            self._dice[key] = found
        return found

    def marginal(
        self, side: Side, own: int, other: int, ctx: tuple[int, StepContext], step: CombatStep
    ) -> Marginal:
        """Next states of ``side`` (now in ``own``) after the other side (in ``other``) rolls
        its dice of ``step``."""
        number, dist = self._hits_from(side.other, other, ctx, step)
        key = (side, own, ctx[0], number)
        known = self._marginals.get(key)
        if known is not None:
            return known
        ladder = self._ladder(side, own, ctx)
        if len(dist) > len(ladder):
            chances = dist[: len(ladder)].copy()
            chances[-1] += float(dist[len(ladder) :].sum())
        else:
            chances = dist
            ladder = ladder[: len(dist)]
        nothing = float(chances[0])
        if len(set(ladder.tolist())) < len(ladder):
            # Bound units lost with their master (R-ATTR-UNDEAD-03): several hit counts lead
            # to one state; their chances add up.
            ladder, inverse = np.unique(ladder, return_inverse=True)
            summed: Floats = np.bincount(inverse, weights=chances).astype(np.float64)
            chances = summed
        first = int(ladder[0])
        consecutive = bool((np.diff(ladder) == 1).all())
        span = slice(first, first + len(ladder)) if consecutive else None
        hp = self.space(side).hp
        live = np.array([hp[n] > 0 for n in ladder.tolist()], dtype=bool)
        made = self._marginals[key] = Marginal(ladder, chances, nothing, live, span)
        return made

    def step(
        self, i: int, j: int, step: CombatStep, first_round: bool
    ) -> tuple[Marginal, Marginal]:
        """Attacker's and defender's next side states after ``step`` from ``(i, j)``."""
        key = (i, j, step, first_round)
        found = self._steps.get(key)
        if found is None:
            ctx = self.context(i, j, first_round)
            found = self._steps[key] = (
                self.marginal(Side.ATTACKER, i, j, ctx, step),
                self.marginal(Side.DEFENDER, j, i, ctx, step),
            )
        return found

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

    def size_bound(self) -> int:
        """A bound on the battle's state space, worked out before computing: for each side
        the product over its factions of (hit points + 1), since a faction's default
        casualties depend only on the hits it has taken (R-COMBAT-06); the two sides
        multiplied. Chooses the method (:func:`caedes_bot.rules.odds.choose_method`)."""
        size = 1
        for space in (self.att, self.dfn):
            per_faction: dict[str, int] = {}
            for f in space.whole:
                per_faction[f.faction] = per_faction.get(f.faction, 0) + f.capacity
            for hp in per_faction.values():
                size *= hp + 1
        return size
