"""Exact battle odds (design.md section 3: one function set for real battles and odds).

:func:`odds_for` works out, for a battle fought to the end with the default casualties of
R-COMBAT-06 and no withdrawal, the exact chance of each result and the expected survivors. It
uses the very functions real battles use (:mod:`caedes_bot.rules.combat.arithmetic`:
:func:`step_dice`, :func:`share_hits`, :func:`default_casualties`, :func:`mercenary_losses`,
:func:`survives_cleanup`, :func:`classify`; the sides from :mod:`caedes_bot.rules.combat.sides`),
so odds and battles cannot disagree.

How it works. A battle state is the hit points left of every unit (0 gone, 1 whole, 2 for an
unwounded Fortitude unit). One round (R-COMBAT-03) is: the Mercenary check, the missile step,
the melee step; a step's hits on each side follow from its dice (each die hits with chance
``target/10``, R-GEN-02), and each number of hits leads to exactly one next state because the
default casualties are fixed. A round that removes or wounds nothing leaves the state as it
was; every other round lowers the total hit points. So states are processed from the highest
total down, and the run of hitless rounds of R-COMBAT-13 is summed in closed form: from a state
whose rounds are hitless with chance ``q``, with ``c`` hitless rounds already behind it, the
battle stalls with chance ``q**(N-c)`` and leaves for another state ``s'`` with chance
``T(s') * (1 - q**(N-c)) / (1 - q)``. Round 1 is worked out on its own because Fear and
Inspiring act only then (R-ATTR-FEAR-01, R-ATTR-INSP-01).

Limits: at most :data:`MAX_UNITS_PER_SIDE` units a side and :data:`MAX_STATES` distinct battle
states; beyond them :class:`OddsTooComplex` is raised. With default casualties the states grow
roughly as the product of the two sides' hit points, and each costs a few hit-count
convolutions: measured here, 10 mixed units a side take about 0.25 s (169 states), 20 a side
about 2 s (576 states), 25 a side about 5 s. Callers run it off the event loop (design.md
section 4); ``bench/bench_odds.py`` keeps the target.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, replace

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules.combat.arithmetic import (
    BattleResult,
    Fighter,
    StepContext,
    classify,
    default_casualties,
    handout_order,
    hit_probability,
    mercenary_losses,
    share_hits,
    step_context,
    step_dice,
    survives_cleanup,
)
from caedes_bot.rules.combat.sides import battle_sides, fighter_of
from caedes_bot.rules.state import BattlePhase, CombatStep, GameState, Side

#: Largest side :func:`odds_for` accepts.
MAX_UNITS_PER_SIDE = 25
#: Most distinct battle states :func:`odds_for` explores.
MAX_STATES = 2_000

Health = tuple[int, ...]
State = tuple[Health, Health]


class OddsTooComplex(ValueError):
    """The battle is too large for exact odds (see :data:`MAX_UNITS_PER_SIDE`, :data:`MAX_STATES`)."""


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact chances of a battle fought to the end with default casualties and no withdrawal.

    Attributes:
        attacker_wins: the attacker is left with units after cleanup and the defender with none.
        defender_holds: the defender is left with units and the attacker with none.
        both_destroyed: neither side has a unit after cleanup (R-COMBAT-11: owner unchanged).
        stalemate: ``stalemate_rounds`` hitless rounds in a row (R-COMBAT-13).
        expected_attacker_survivors / expected_defender_survivors: units of each side still on
            the board after the battle (in a stalemate, attackers that withdrew).
        states: distinct battle states explored.
    """

    attacker_wins: float
    defender_holds: float
    both_destroyed: float
    stalemate: float
    expected_attacker_survivors: float
    expected_defender_survivors: float
    states: int


def _hit_distribution(targets: Sequence[int]) -> list[float]:
    """Chance of 0, 1, ... hits from dice with ``targets`` (R-GEN-02)."""
    dist = [1.0]
    for target in targets:
        p = hit_probability(target)
        nxt = [0.0] * (len(dist) + 1)
        for k, mass in enumerate(dist):
            nxt[k] += mass * (1.0 - p)
            nxt[k + 1] += mass * p
        dist = nxt
    return dist


class _Battle:
    """The battle arithmetic over hit-point vectors, one per side, memoised.

    A state is ``(attacker hit points, defender hit points)``, each a tuple in the order of
    :attr:`sides`; a unit with 0 is gone, 1 whole (or a wounded Fortitude unit), 2 an unwounded
    Fortitude unit.
    """

    def __init__(
        self,
        fighters: Sequence[Fighter],
        options: Options,
        attacker: str,
        defender_order: Sequence[str],
    ) -> None:
        self.sides = {side: [f for f in fighters if f.side is side] for side in Side}
        self.index = {
            side: {f.id: i for i, f in enumerate(members)} for side, members in self.sides.items()
        }
        self.options = options
        self.orders = {Side.ATTACKER: [attacker], Side.DEFENDER: list(defender_order)}
        self._variants: dict[tuple[Side, int, bool], Fighter] = {}
        self._takes: dict[tuple[Side, Health, int, StepContext], Health] = {}
        self._steps: dict[tuple[State, CombatStep, bool], dict[State, float]] = {}
        self._rounds: dict[tuple[State, bool], dict[State, float]] = {}
        self.seen: set[State] = set()

    def start(self) -> State:
        att, dfn = (tuple(f.capacity for f in self.sides[side]) for side in Side)
        return att, dfn

    def _alive_side(self, side: Side, hp: Health) -> list[Fighter]:
        out = []
        for i, left in enumerate(hp):
            if left <= 0:
                continue
            f = self.sides[side][i]
            wounded = f.fortitude and left == 1
            key = (side, i, wounded)
            if key not in self._variants:
                self._variants[key] = replace(f, wounded=wounded)
            out.append(self._variants[key])
        return out

    def alive(self, state: State) -> list[Fighter]:
        return self._alive_side(Side.ATTACKER, state[0]) + self._alive_side(Side.DEFENDER, state[1])

    @staticmethod
    def decided(state: State) -> bool:
        return not any(state[0]) or not any(state[1])

    def note(self, state: State) -> None:
        if state not in self.seen:
            self.seen.add(state)
            if len(self.seen) > MAX_STATES:
                raise OddsTooComplex(f"more than {MAX_STATES} battle states")

    def _take(self, side: Side, hp: Health, hits: int, ctx: StepContext) -> Health:
        """``side``'s hit points after ``hits`` with the default casualties (R-COMBAT-06)."""
        if hits <= 0:
            return hp
        key = (side, hp, hits, ctx)
        found = self._takes.get(key)
        if found is not None:
            return found
        on_side = self._alive_side(side, hp)
        new = list(hp)
        for faction, count in share_hits(on_side, hits, self.orders[side]):
            mine = [f for f in on_side if f.faction == faction]
            for uid in default_casualties(mine, count, ctx):
                new[self.index[side][uid]] -= 1
        result = tuple(new)
        self._takes[key] = result
        return result

    def step(self, state: State, step: CombatStep, first_round: bool) -> dict[State, float]:
        """Distribution of states after ``step`` from ``state`` (R-COMBAT-04, -05, -06)."""
        key = (state, step, first_round)
        cached = self._steps.get(key)
        if cached is not None:
            return cached
        alive = self.alive(state)
        ctx = step_context(alive, 1 if first_round else 2, self.options)
        specs = step_dice(step, alive, ctx)
        result: dict[State, float] = {}
        if not specs:
            result[state] = 1.0
        else:
            on_defender = _hit_distribution([s.target for s in specs if s.side is Side.ATTACKER])
            on_attacker = _hit_distribution([s.target for s in specs if s.side is Side.DEFENDER])
            defenders = [
                (self._take(Side.DEFENDER, state[1], hits, ctx), p)
                for hits, p in enumerate(on_defender)
                if p > 0.0
            ]
            for hits, p in enumerate(on_attacker):
                if p <= 0.0:
                    continue
                att = self._take(Side.ATTACKER, state[0], hits, ctx)
                for dfn, pd in defenders:
                    result[(att, dfn)] = result.get((att, dfn), 0.0) + p * pd
        self._steps[key] = result
        return result

    def round(self, state: State, first_round: bool) -> dict[State, float]:
        """Distribution of states after one whole round from ``state`` (R-COMBAT-03, -07)."""
        key = (state, first_round)
        cached = self._rounds.get(key)
        if cached is not None:
            return cached
        alive = self.alive(state)
        lost = set(
            mercenary_losses(alive, step_context(alive, 1 if first_round else 2, self.options))
        )
        att, dfn = (
            tuple(
                0 if f.id in lost else hp for f, hp in zip(self.sides[side], state[n], strict=True)
            )
            for n, side in enumerate(Side)
        )
        start: State = (att, dfn)
        result: dict[State, float] = {}
        if self.decided(start):
            result[start] = 1.0
        else:
            for mid, p2 in self.step(start, CombatStep.MISSILE, first_round).items():
                if self.decided(mid):
                    result[mid] = result.get(mid, 0.0) + p2
                    continue
                for end, p3 in self.step(mid, CombatStep.MELEE, first_round).items():
                    result[end] = result.get(end, 0.0) + p2 * p3
        for reached in result:
            self.note(reached)
        self._rounds[key] = result
        return result

    def settle(self, state: State, stalemate: bool) -> tuple[BattleResult, int, int]:
        """Result and survivors of a battle ending in ``state`` (R-COMBAT-10, -11, -13)."""
        keep = [f for f in self.alive(state) if survives_cleanup(f, self.options)]
        defenders = sum(1 for f in keep if f.side is Side.DEFENDER)
        if stalemate:
            withdrawn = sum(1 for f in keep if f.side is Side.ATTACKER and f.can_withdraw)
            return BattleResult.STALEMATE, withdrawn, defenders
        attackers = sum(1 for f in keep if f.side is Side.ATTACKER)
        return classify(attackers, defenders), attackers, defenders


def odds_for(
    fighters: Sequence[Fighter],
    options: Options,
    *,
    attacker: str,
    defender_order: Sequence[str],
    start_round: int = 1,
    hitless_rounds: int = 0,
) -> Odds:
    """Exact odds of a battle between ``fighters`` (both sides), fought to the end with default
    casualties and no withdrawal (R-COMBAT-03..13, R-GEN-02).

    Args:
        fighters: every unit of both sides, as :func:`~caedes_bot.rules.combat.sides.fighter_of` makes.
        attacker: the attacking faction. defender_order: defending factions, hand-out order.
        start_round: the round about to begin (1 for a new battle).
        hitless_rounds: hitless rounds in a row already fought (R-COMBAT-13).

    Raises:
        OddsTooComplex: too many units or states.
    """
    for side in Side:
        if sum(1 for f in fighters if f.side is side) > MAX_UNITS_PER_SIDE:
            raise OddsTooComplex(f"more than {MAX_UNITS_PER_SIDE} units on one side")
    battle = _Battle(fighters, options, attacker, defender_order)
    limit = options.stalemate_rounds
    ends: dict[tuple[State, bool], float] = {}
    waiting: dict[State, dict[int, float]] = {}
    heap: list[tuple[int, State]] = []

    def add_end(h: State, stalemate: bool, mass: float) -> None:
        ends[(h, stalemate)] = ends.get((h, stalemate), 0.0) + mass

    def add_state(h: State, hitless: int, mass: float) -> None:
        if battle.decided(h):
            add_end(h, False, mass)
            return
        if hitless >= limit:
            add_end(h, True, mass)
            return
        if h not in waiting:
            waiting[h] = {}
            heapq.heappush(heap, (-sum(h[0]) - sum(h[1]), h))
        waiting[h][hitless] = waiting[h].get(hitless, 0.0) + mass

    h0 = battle.start()
    battle.note(h0)
    if start_round == 1:
        for h, p in battle.round(h0, True).items():
            add_state(h, hitless_rounds + 1 if h == h0 else 0, p)
    else:
        add_state(h0, hitless_rounds, 1.0)
    while heap:
        _, h = heapq.heappop(heap)
        masses = waiting.pop(h)
        moves = battle.round(h, False)
        q = moves.get(h, 0.0)
        for hitless, mass in masses.items():
            left = limit - hitless
            stall = q**left
            add_end(h, True, mass * stall)
            factor = (1.0 - stall) / (1.0 - q) if q < 1.0 else 0.0
            for nxt, p in moves.items():
                if nxt != h:
                    add_state(nxt, 0, mass * p * factor)
    totals = dict.fromkeys(BattleResult, 0.0)
    survivors = [0.0, 0.0]
    for (h, stalemate), mass in ends.items():
        result, att, dfn = battle.settle(h, stalemate)
        totals[result] += mass
        survivors[0] += mass * att
        survivors[1] += mass * dfn
    return Odds(
        attacker_wins=totals[BattleResult.ATTACKER_WON],
        defender_holds=totals[BattleResult.DEFENDER_HELD],
        both_destroyed=totals[BattleResult.BOTH_DESTROYED],
        stalemate=totals[BattleResult.STALEMATE],
        expected_attacker_survivors=survivors[0],
        expected_defender_survivors=survivors[1],
        states=len(battle.seen),
    )


def battle_odds(
    state: GameState, ruleset: Ruleset, space: str, attacker: str | None = None
) -> Odds:
    """Odds of the battle ``attacker`` (default: the active faction) fights in ``space``, as
    :class:`~caedes_bot.rules.combat.orders.FightBattle` would set it up (R-COMBAT-01). If that battle
    is under way, from the start of its next round with its wounds and hitless rounds.

    Raises:
        ValueError: no attacker, nobody to fight there, or casualties are owed right now.
        OddsTooComplex: too large.
    """
    battle = state.battle
    if battle is not None and battle.space == space:
        if battle.phase not in (BattlePhase.ROUND_START, BattlePhase.PRESS_OR_WITHDRAW):
            raise ValueError("odds are worked out between rounds, not while casualties are owed")
        fighters = [
            fighter_of(state, ruleset, state.unit(uid), Side.ATTACKER, space)
            for uid in battle.attacker_units
        ] + [
            fighter_of(state, ruleset, state.unit(uid), Side.DEFENDER, space)
            for uid in battle.defender_units
        ]
        next_round = battle.round + (0 if battle.phase is BattlePhase.ROUND_START else 1)
        return odds_for(
            fighters,
            state.options,
            attacker=battle.attacker,
            defender_order=battle.defenders,
            start_round=next_round,
            hitless_rounds=battle.hitless_rounds,
        )
    faction = attacker or state.active
    if faction is None:
        raise ValueError("no attacking faction")
    attackers, defenders = battle_sides(state, ruleset, space, faction)
    if not attackers or not defenders:
        raise ValueError(f"no battle to fight at {space}")
    fighters = [fighter_of(state, ruleset, u, Side.ATTACKER, space) for u in attackers] + [
        fighter_of(state, ruleset, u, Side.DEFENDER, space) for u in defenders
    ]
    order = handout_order({u.owner for u in defenders}, state.owner(space), ruleset.turn_order)
    return odds_for(fighters, state.options, attacker=faction, defender_order=order)
