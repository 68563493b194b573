"""Odds over battle states: exact, or pruned with a hard error bound (R-COMBAT-03..13).

The chance of reaching each battle state is worked out from the start, state by state, from the
most hit points down: apart from a round that leaves the state as it was (hitless, or whose only
hits an Abjurer cancelled, R-MAGIC-ABJ-01), every round lowers the total hit points
(R-COMBAT-07), so when a state's turn comes every way into it has been counted. A state keeps
two masses: the chance of a round *starting* there (``start``) and of a melee step starting
there after a missile step that began elsewhere (``melee``). Within one total of hit points the
melee masses are worked out first, since a melee step may end in a round start of the same total
(a cancel used in the missile step comes back). The run of hitless rounds of R-COMBAT-13 is
summed in closed form: a round from a state comes back to it with chance ``q``; a battle
arriving there with ``c`` hitless rounds behind it fights ``(1 - q**(N - c)) / (1 - q)`` rounds
there on average, stalls with chance ``q**(N - c)``, and leaves with the rest, shared as one
round's ways out. Round 1 is worked out first on its own, because Fear and Inspiring act only
then (R-ATTR-FEAR-01, R-ATTR-INSP-01).

*Pruned*: a mass below ``threshold`` when its turn comes is dropped and added to ``dropped``.
Every chance reported is then too low by at most ``dropped`` in total, and none is too high: a
hard bound on the error (the approach of the AlliesCalc calculator for Axis and Allies).
"""

from __future__ import annotations

import numpy as np

from caedes_bot.rules.odds.model import BattleModel
from caedes_bot.rules.odds.tables import Floats, Ints, Transition
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

    def fit(self) -> None:
        """Grow the arrays to every side state met so far."""
        rows, cols = len(self.model.att.states), len(self.model.dfn.states)
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

    def add(self, target: Floats, t: Transition, mass: float) -> None:
        """Add ``mass`` times the chances of ``t`` into ``target`` and queue the undecided
        states reached."""
        a, d = t.a, t.d
        if a.span is not None and d.span is not None:
            target[a.span, d.span] += mass * t.table()
            fresh = ~self.queued[a.span, d.span]
        else:
            idx = np.ix_(a.states, d.states)
            target[idx] += mass * t.table()
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


def _same_hp(model: BattleModel, t: Transition, i: int, j: int) -> list[tuple[int, int]]:
    """The undecided battle states ``t`` reaches with the hit points of ``(i, j)``: ``(i, j)``
    itself and its variants whose only hits were cancelled (R-MAGIC-ABJ-01)."""
    if not model.renews:
        return [(i, j)]  # no Abjurer: only no hits at all leaves the hit points as they were
    hp_a, hp_d = model.att.hp, model.dfn.hp
    rows = [int(r) for r in t.a.states.tolist() if hp_a[r] == hp_a[i]]
    cols = [int(c) for c in t.d.states.tolist() if hp_d[c] == hp_d[j]]
    return [(r, c) for r in rows for c in cols if not model.decided(r, c)]


def _round_from(
    masses: Masses, i: int, j: int, mass: float, first_round: bool, skip_self: bool
) -> None:
    """A round from round start ``(i, j)`` with ``mass``: the missile step, then the melee
    step at once where the missile step left the hit points as they were, else later from
    ``melee``. With ``skip_self`` the chance of a round ending in ``(i, j)`` again is left out
    (the closed form of :func:`_later_rounds` counts it)."""
    model = masses.model
    missile = model.step(i, j, CombatStep.MISSILE, first_round)
    masses.fit()
    if (
        len(missile.a.states) == 1
        and len(missile.d.states) == 1
        and int(missile.a.states[0]) == i
        and int(missile.d.states[0]) == j
    ):
        # the missile step changes nothing whatever the dice (no missile unit can hit,
        # R-COMBAT-04): the melee step follows from here at once, with the whole mass
        start_before = float(masses.start[i, j])
        masses.add(masses.start, model.step(i, j, CombatStep.MELEE, first_round), mass)
        if skip_self:
            masses.start[i, j] = start_before
        return
    here = _same_hp(model, missile, i, j)
    kept = [float(masses.melee[r, c]) for r, c in here]
    masses.add(masses.melee, missile, mass)
    for (r, c), before in zip(here, kept, strict=True):
        masses.melee[r, c] = before
    start_before = float(masses.start[i, j])
    for r, c in here:
        chance = missile.chance_of(r, c)
        if chance > 0.0:
            melee = model.step(r, c, CombatStep.MELEE, first_round)
            masses.fit()
            masses.add(masses.start, melee, mass * chance)
    if skip_self:
        masses.start[i, j] = start_before


def _back_again(model: BattleModel, i: int, j: int) -> float:
    """The chance that a later round from ``(i, j)`` ends in ``(i, j)``: nobody removed or
    wounded (R-COMBAT-13; a cancelled hit harms nobody, R-MAGIC-ABJ-01)."""
    missile = model.step(i, j, CombatStep.MISSILE, False)
    total = 0.0
    for r, c in _same_hp(model, missile, i, j):
        chance = missile.chance_of(r, c)
        if chance > 0.0:
            total += chance * model.step(r, c, CombatStep.MELEE, False).chance_of(i, j)
    return total


def _melee(masses: Masses, i: int, j: int, mass: float) -> None:
    """A melee step of a later round from ``(i, j)`` with ``mass``; where it ends, a round
    starts next."""
    t = masses.model.step(i, j, CombatStep.MELEE, False)
    masses.fit()
    masses.add(masses.start, t, mass)


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
        threshold: drop masses below it (0: exact).

    Returns:
        The masses (``start`` and ``melee`` of decided states are the battle's ends, ``stall``
        its stalemates), the expected rounds fought and the dropped mass.
    """
    masses = Masses(model)
    i0, j0 = model.att.start, model.dfn.start
    rounds = 0.0
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
    dropped = 0.0
    hp = model.att.hp[i0] + model.dfn.hp[j0]
    while hp > 0:
        bucket = masses.buckets.pop(hp, None)
        if not bucket:
            hp -= 1
            continue
        # Melee steps first: one may end in a round start of this same total (a cancel used
        # in the missile step is back, R-MAGIC-ABJ-01).
        for i, j in bucket:
            melee = float(masses.melee[i, j])
            if melee <= 0.0:
                continue
            masses.melee[i, j] = 0.0
            if melee <= threshold:
                dropped += melee
                continue
            _melee(masses, i, j, melee)
        bucket += masses.buckets.pop(hp, [])
        for i, j in bucket:
            start = float(masses.start[i, j])
            if start <= 0.0:
                continue
            masses.start[i, j] = 0.0
            if start <= threshold:
                dropped += start
                continue
            visited += 1
            behind = carried if (i, j) == (i0, j0) else 0
            rounds += _later_rounds(masses, i, j, start, stalemate_rounds - behind)
        masses.buckets.pop(hp, None)
        hp -= 1
    return Outcome(masses, rounds, dropped, visited)


def _round_one_from(masses: Masses, i: int, j: int) -> None:
    """Round 1 from ``(i, j)`` with mass 1, its melee steps worked out at once."""
    model = masses.model
    missile = model.step(i, j, CombatStep.MISSILE, True)
    masses.fit()
    for ii, jj, mass in list(missile.pairs()):
        if model.decided(ii, jj):
            masses.put(masses.melee, ii, jj, mass)
            continue
        melee = model.step(ii, jj, CombatStep.MELEE, True)
        masses.fit()
        masses.add(masses.start, melee, mass)


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
            _round_from(masses, ii, jj, mass, False, skip_self=False)
        return mass
    if rounds_left <= 0:
        masses.stall[i, j] += mass
        return 0.0
    probe = _back_again(model, i, j)
    stall = probe**rounds_left
    fought = (1.0 - stall) / (1.0 - probe) if probe < 1.0 else float(rounds_left)
    masses.stall[i, j] += mass * stall
    if probe < 1.0:
        _round_from(masses, i, j, mass * fought, False, skip_self=True)
    return mass * fought


__all__ = ["Ints", "Masses", "Outcome", "enumerate_battle"]
