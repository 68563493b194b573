"""The tables of one battle step (issue 13, decision 0020): the chance of each number of hits
from a side's dice (R-GEN-02, R-ATTR-BREATH-01, R-MAGIC-INV-01), and a step's next side states
with their chances, as two independent marginals or, with breath dice, one joint table.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from caedes_bot.rules.combat.arithmetic import hit_probability
from caedes_bot.rules.combat.specials import DIE_SIDES

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]


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


def dice_distribution(targets: Sequence[int], breath_faces: Sequence[int]) -> Floats:
    """Chance of ``x`` hits on the enemy and ``y`` on the roller's own side (``[x, y]``) from
    normal or invoker dice of ``targets`` and breath dice hitting the enemy on
    ``breath_faces`` faces each (R-GEN-02, R-MAGIC-INV-01, R-ATTR-BREATH-01: a breath die's 10
    hits its own side, 1 face in 10)."""
    dist: Floats = hit_distribution(targets)[:, None]
    own = 1.0 / DIE_SIDES
    for faces in breath_faces:
        enemy = faces / DIE_SIDES
        rows, cols = dist.shape
        grown: Floats = np.zeros((rows + 1, cols + 1))
        grown[:rows, :cols] += dist * (1.0 - enemy - own)
        grown[1:, :cols] += dist * enemy
        grown[:rows, 1:] += dist * own
        dist = grown
    return dist


@dataclass(frozen=True, slots=True)
class Marginal:
    """One side's next side states after a step and their chances (they add up to 1).

    ``live`` whether each next state still has units; ``span`` the same states as a slice
    when they are numbered one after another (then arrays are added to without fancy
    indexing)."""

    states: Ints
    chances: Floats
    live: npt.NDArray[np.bool_]
    span: slice | None

    def chance_of(self, n: int) -> float:
        """The chance of next state ``n`` (0 if it is not among them)."""
        if self.states[0] == n:  # the state itself, after no hit: the usual question
            return float(self.chances[0])
        found = np.flatnonzero(self.states == n)
        return float(self.chances[found[0]]) if len(found) else 0.0


@dataclass(frozen=True, slots=True)
class Transition:
    """Both sides' next side states after a step from one battle state: ``a`` the attacker's,
    ``d`` the defender's; ``joint`` the chance of each pair (rows ``a.states``, columns
    ``d.states``) when the two are not independent (breath dice, R-ATTR-BREATH-01), else
    ``None``: the chance of a pair is the product of the marginals."""

    a: Marginal
    d: Marginal
    joint: Floats | None = None

    def table(self) -> Floats:
        """The chance of every pair of next states."""
        if self.joint is not None:
            return self.joint
        out: Floats = np.outer(self.a.chances, self.d.chances)
        return out

    def chance_of(self, i: int, j: int) -> float:
        """The chance that the step leads to battle state ``(i, j)``."""
        if self.joint is None:
            return self.a.chance_of(i) * self.d.chance_of(j)
        rows = np.flatnonzero(self.a.states == i)
        cols = np.flatnonzero(self.d.states == j)
        if not len(rows) or not len(cols):
            return 0.0
        return float(self.joint[rows[0], cols[0]])

    def pairs(self) -> Iterator[tuple[int, int, float]]:
        """Every pair of next states with a chance above 0, and that chance."""
        table = self.table()
        rows, cols = np.nonzero(table > 0.0)
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
            yield int(self.a.states[r]), int(self.d.states[c]), float(table[r, c])


def fold(dist: Floats, length: int) -> Floats:
    """``dist`` (by hits, along the first axis) cut to ``length`` entries, the chance of more
    hits added to the last (hits beyond a side's units are lost, R-COMBAT-06)."""
    if len(dist) <= length:
        return dist
    out: Floats = dist[:length].copy()
    out[-1] += dist[length:].sum(axis=0)
    return out


def merge(ladder: Ints, chances: Floats) -> tuple[Ints, Floats]:
    """Several hit counts leading to one state (bound units lost with their master,
    R-ATTR-UNDEAD-03; cargo with its ship, R-MOVE-19; a cancel): their chances add up."""
    if len(set(ladder.tolist())) == len(ladder):
        return ladder, chances
    states, inverse = np.unique(ladder, return_inverse=True)
    summed: Floats = np.bincount(inverse, weights=chances).astype(np.float64)
    return states, summed
