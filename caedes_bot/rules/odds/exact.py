"""Odds over battle states: exact, or pruned with a hard error bound (R-COMBAT-03..13).

The chance of reaching each battle state is worked out from the start, state by state, from the
most hit points down: apart from a hitless round, which leaves the state as it was, every round
lowers the total hit points (R-COMBAT-07), so when a state's turn comes every way into it has
been counted. A state keeps two masses: the chance of a round *starting* there
(``start``) and of a melee step starting there after a missile step that began elsewhere
(``melee``). The run of hitless rounds of R-COMBAT-13 is summed in closed form: a round from a
state is hitless with chance ``q`` (both steps hitless); a battle arriving there with ``c``
hitless rounds behind it fights ``(1 - q**(N - c)) / (1 - q)`` rounds there on average, stalls
with chance ``q**(N - c)``, and leaves with the rest, shared as one round's ways out.
Round 1 is worked out first on its own, because Fear and Inspiring act only then
(R-ATTR-FEAR-01, R-ATTR-INSP-01).

*Pruned*: a state whose mass is below ``threshold`` when its turn comes is dropped, with its
mass added to ``dropped``. Every chance reported is then too low by at most ``dropped`` in
total, and none is too high: a hard bound on the error (the approach of the AlliesCalc
calculator for Axis and Allies).
"""

from __future__ import annotations

import numpy as np

from caedes_bot.rules.odds.model import BattleModel, Floats, Ints, Marginal
from caedes_bot.rules.state import CombatStep


class Masses:
    """The masses of every battle state, grown as side states are met."""

    def __init__(self, model: BattleModel) -> None:
        self.model = model
        rows, cols = len(model.att.states), len(model.dfn.states)
        self.start: Floats = np.zeros((rows, cols))
        self.melee: Floats = np.zeros((rows, cols))
        self.stall: Floats = np.zeros((rows, cols))
        self.queued = np.zeros((rows, cols), dtype=bool)
        self.buckets: dict[int, list[tuple[int, int]]] = {}
        self.hp_a: Ints = np.array(model.att.hp, np.intp)
        self.hp_d: Ints = np.array(model.dfn.hp, np.intp)

    def fit(self) -> None:
        """Grow the arrays to every side state met so far."""
        rows, cols = len(self.model.att.states), len(self.model.dfn.states)
        if rows != len(self.hp_a):
            self.hp_a = np.array(self.model.att.hp, np.intp)
        if cols != len(self.hp_d):
            self.hp_d = np.array(self.model.dfn.hp, np.intp)
        have_rows, have_cols = self.start.shape
        if rows <= have_rows and cols <= have_cols:
            return
        rows, cols = (
            max(rows, have_rows * 2 if rows > have_rows else have_rows),
            max(cols, have_cols * 2 if cols > have_cols else have_cols),
        )
        pad = ((0, rows - have_rows), (0, cols - have_cols))
        self.start = np.pad(self.start, pad)
        self.melee = np.pad(self.melee, pad)
        self.stall = np.pad(self.stall, pad)
        self.queued = np.pad(self.queued, pad)

    def add(self, target: Floats, a: Marginal, d: Marginal, mass: float) -> None:
        """Add ``mass`` times the product of ``a`` and ``d`` into ``target`` and queue the
        undecided states reached."""
        if a.span is not None and d.span is not None:
            target[a.span, d.span] += mass * np.outer(a.chances, d.chances)
            fresh = ~self.queued[a.span, d.span]
        else:
            idx = np.ix_(a.states, d.states)
            target[idx] += mass * np.outer(a.chances, d.chances)
            fresh = ~self.queued[idx]
        fresh &= a.live[:, None]
        fresh &= d.live[None, :]
        if fresh.any():
            rows, cols = np.nonzero(fresh)
            hp_a, hp_d = self.model.att.hp, self.model.dfn.hp
            for r, c in zip(a.states[rows].tolist(), d.states[cols].tolist(), strict=True):
                self.queued[r, c] = True
                self.buckets.setdefault(hp_a[r] + hp_d[c], []).append((r, c))

    def put(self, target: Floats, i: int, j: int, mass: float) -> None:
        target[i, j] += mass
        if not self.model.decided(i, j) and not self.queued[i, j]:
            self.queued[i, j] = True
            self.buckets.setdefault(self.model.att.hp[i] + self.model.dfn.hp[j], []).append((i, j))


class Outcome:
    """What :func:`enumerate_battle` leaves: the masses, rounds and the dropped mass."""

    def __init__(self, masses: Masses, rounds: float, dropped: float, states: int) -> None:
        self.masses = masses
        self.rounds = rounds
        self.dropped = dropped
        self.states = states


def _melee(masses: Masses, i: int, j: int, mass: float, first_round: bool) -> None:
    """A melee step from ``(i, j)`` with ``mass``; where it ends, a round starts next."""
    a, d = masses.model.step(i, j, CombatStep.MELEE, first_round)
    masses.fit()
    masses.add(masses.start, a, d, mass)


def _missile_then_melee(
    masses: Masses, i: int, j: int, mass: float, first_round: bool, skip_self: bool
) -> float:
    """A missile step from ``(i, j)`` with ``mass``, then the melee step where the missile step
    left nothing changed. With ``skip_self`` a round that ends in ``(i, j)`` again is left out
    and its chance returned (the hitless round of the closed form)."""
    model = masses.model
    a, d = model.step(i, j, CombatStep.MISSILE, first_round)
    masses.fit()
    unchanged = a.nothing * d.nothing
    if unchanged < 1.0:
        before = float(masses.melee[i, j])
        masses.add(masses.melee, a, d, mass)
        masses.melee[i, j] = before
    ma, md = model.step(i, j, CombatStep.MELEE, first_round)
    masses.fit()
    again = ma.nothing * md.nothing
    if unchanged > 0.0:
        before = float(masses.start[i, j])
        masses.add(masses.start, ma, md, mass * unchanged)
        if skip_self:
            masses.start[i, j] = before
    return unchanged * again


def enumerate_battle(
    model: BattleModel,
    *,
    stalemate_rounds: int,
    start_round: int = 1,
    hitless_rounds: int = 0,
    threshold: float = 0.0,
) -> Outcome:
    """Work out the mass of every end of the battle (see the module docstring).

    Args:
        model: the battle. stalemate_rounds: option of R-COMBAT-13.
        start_round: the round about to begin (1: Fear and Inspiring act in it).
        hitless_rounds: hitless rounds in a row already behind (R-COMBAT-13).
        threshold: drop states whose mass is below it (0: exact).

    Returns:
        The masses (``start`` and ``melee`` of decided states are the battle's ends, ``stall``
        its stalemates), the expected rounds fought and the dropped mass.
    """
    masses = Masses(model)
    i0, j0 = model.att.start, model.dfn.start
    rounds = 0.0
    dropped = 0.0
    carried = hitless_rounds
    if model.decided(i0, j0):
        masses.put(masses.start, i0, j0, 1.0)
        return Outcome(masses, 0.0, 0.0, 1)
    if start_round == 1:
        # Round 1 on its own: its ways out are all worked out now; the chance of a hitless
        # round 1 stays in the start state, one more hitless round behind it.
        rounds = 1.0
        i, j = model.after_mercenaries(i0, j0, True)
        masses.fit()
        if (i, j) != (i0, j0):
            if model.decided(i, j):
                masses.put(masses.start, i, j, 1.0)
            else:
                _round_one_from(masses, i, j)
        else:
            _round_one_from(masses, i0, j0)
            carried += 1
            if carried >= stalemate_rounds:
                masses.stall[i0, j0] += masses.start[i0, j0]
                masses.start[i0, j0] = 0.0
    else:
        masses.put(masses.start, i0, j0, 1.0)
    masses.queued[i0, j0] = True
    masses.buckets.setdefault(model.att.hp[i0] + model.dfn.hp[j0], []).append((i0, j0))
    visited = 0
    hp = model.att.hp[i0] + model.dfn.hp[j0]
    while hp > 0:
        bucket = masses.buckets.pop(hp, None)
        if not bucket:
            hp -= 1
            continue
        for i, j in bucket:
            melee = float(masses.melee[i, j])
            start = float(masses.start[i, j])
            if melee + start <= threshold:
                if melee + start > 0.0:
                    dropped += melee + start
                    masses.melee[i, j] = 0.0
                    masses.start[i, j] = 0.0
                continue
            visited += 1
            if melee > 0.0:
                masses.melee[i, j] = 0.0
                _melee(masses, i, j, melee, False)
                start = float(masses.start[i, j])
            masses.start[i, j] = 0.0
            if start <= 0.0:
                continue
            behind = carried if (i, j) == (i0, j0) else 0
            rounds += _later_rounds(masses, i, j, start, stalemate_rounds - behind)
        masses.buckets.pop(hp, None)
        hp -= 1
    return Outcome(masses, rounds, dropped, visited)


def _round_one_from(masses: Masses, i: int, j: int) -> None:
    """Round 1 from ``(i, j)`` with mass 1, its melee steps worked out at once."""
    model = masses.model
    a, d = model.step(i, j, CombatStep.MISSILE, True)
    masses.fit()
    for ii, pa in zip(a.states.tolist(), a.chances.tolist(), strict=True):
        for jj, pd in zip(d.states.tolist(), d.chances.tolist(), strict=True):
            mass = pa * pd
            if mass <= 0.0:
                continue
            if model.decided(ii, jj):
                masses.put(masses.melee, ii, jj, mass)
                continue
            ma, md = model.step(ii, jj, CombatStep.MELEE, True)
            masses.fit()
            masses.add(masses.start, ma, md, mass)


def _later_rounds(masses: Masses, i: int, j: int, mass: float, rounds_left: int) -> float:
    """Rounds from ``(i, j)`` for a battle arriving with ``mass`` and ``rounds_left`` hitless
    rounds to go before a stalemate; returns the expected rounds fought there."""
    model = masses.model
    ii, jj = model.after_mercenaries(i, j, False)
    masses.fit()
    if (ii, jj) != (i, j):
        # Mercenaries left: the round changes the state whatever the dice.
        if model.decided(ii, jj):
            masses.put(masses.start, ii, jj, mass)
        else:
            _missile_then_melee(masses, ii, jj, mass, False, skip_self=False)
        return mass
    if rounds_left <= 0:
        masses.stall[i, j] += mass
        return 0.0
    # First the chance q of a hitless round, with the mass 1 (undone below).
    probe = _hitless_chance(model, i, j)
    stall = probe**rounds_left
    fought = (1.0 - stall) / (1.0 - probe) if probe < 1.0 else float(rounds_left)
    masses.stall[i, j] += mass * stall
    if probe < 1.0:
        _missile_then_melee(masses, i, j, mass * fought, False, skip_self=True)
    return mass * fought


def _hitless_chance(model: BattleModel, i: int, j: int) -> float:
    a, d = model.step(i, j, CombatStep.MISSILE, False)
    ma, md = model.step(i, j, CombatStep.MELEE, False)
    return a.nothing * d.nothing * ma.nothing * md.nothing
