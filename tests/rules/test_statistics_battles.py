"""The statistics fold over whole battles against a plain fold written here (decision 0021,
issue 9: the fold sums each order's counters before writing them).

The reference below counts as the module docstring of :mod:`caedes_bot.rules.statistics`
says, one die and one unit at a time (R-COMBAT-04: the standing normal dice of each step, the
hits among them, each target held to 0..10 in tenths, R-GEN-02; R-COMBAT-05, -11: the units
destroyed, by owner; R-COMBAT-10, -11: the battles won and lost). For every order of seeded
battles (the bench battle of the real game data, and random armies of the hand-made kinds with
a second defending faction) the engine's counters must equal it, and the factions must enter
``stats`` in the same order.
"""

from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.combat.arithmetic import BattleResult
from caedes_bot.rules.combat.events import (
    BattleBegan,
    BattleEnded,
    BattleStepResolved,
    CasualtiesRemoved,
)
from caedes_bot.rules.combat.luck import kept_step_luck
from caedes_bot.rules.combat.orders import FightBattle, PressOn, Withdraw
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import DecisionKind, DiePurpose, FactionStats, GameState, Side
from caedes_bot.rules.turn import UmpireAdvance
from tests.rules.combat.test_battle import battle_setup
from tests.rules.combat.test_battle_replay import SPACE, _hills_battle


def _owner(before: GameState, after: GameState, uid: int) -> str | None:
    for st in (before, after):
        if str(uid) in dict.keys(st.units):
            return st.peek_unit(uid).owner
    return None


def _reference(
    before: GameState, after: GameState, events: tuple[Event, ...], rs: Ruleset
) -> dict[str, FactionStats]:
    """``before.stats`` with the battle counters of ``events``, one die and one unit at a
    time."""
    stats = dict(before.stats)
    battles = {k: list(v) for k, v in before.stats_battles.items()}

    def add(faction: str | None, name: str, value: int) -> None:
        if faction is not None:
            old = stats.get(faction) or FactionStats()
            stats[faction] = replace(old, **{name: getattr(old, name) + value})

    for event in events:
        if isinstance(event, BattleBegan):
            battles[str(event.battle)] = [event.attacker, *event.defenders]
        elif isinstance(event, BattleStepResolved):
            sides = battles.get(str(event.battle))
            for die in event.dice:
                if die.purpose is not DiePurpose.NORMAL or not die.counts:
                    continue
                owner = rs.kind(die.kind).faction
                if not sides:
                    who = owner
                elif die.side is Side.ATTACKER:
                    who = sides[0]
                else:
                    who = owner if owner in sides[1:] else sides[1]
                add(who, "dice", 1)
                add(who, "hits", 1 if die.hit else 0)
                add(who, "expected_tenths", max(0, min(10, die.target)))
        elif isinstance(event, CasualtiesRemoved):
            for uid in (*event.attacker_destroyed, *event.defender_destroyed):
                add(_owner(before, after, uid), "lost", 1)
        elif isinstance(event, BattleEnded):
            for uid in event.destroyed_at_end:
                add(_owner(before, after, uid), "lost", 1)
            sides = battles.pop(str(event.battle), None)
            if sides and event.result is BattleResult.ATTACKER_WON:
                add(sides[0], "battles_won", 1)
                for d in sides[1:]:
                    add(d, "battles_lost", 1)
            elif sides and event.result in (BattleResult.DEFENDER_HELD, BattleResult.WITHDRAWN):
                add(sides[0], "battles_lost", 1)
                for d in sides[1:]:
                    add(d, "battles_won", 1)
    return stats


def _check(start: GameState, rs: Ruleset, answer: random.Random | None, seed: str) -> int:
    """Fight the due battle order by order, checking the counters after each; the orders."""
    dice = SeededDice(seed, 0)
    order: Order = FightBattle("DAW", start.battles_due[0])
    now, orders = start, 0
    while True:
        out = engine.apply(now, order, rs, dice)
        orders += 1
        expected = _reference(now, out.state, out.events, rs)
        assert out.state.stats == expected
        assert list(out.state.stats) == list(expected)  # the same order of factions
        now = out.state
        if now.battle is None:
            return orders
        decision = now.pending[0]
        order = UmpireAdvance("DAW")
        if answer is not None and decision.kind is DecisionKind.PRESS_OR_WITHDRAW:
            order = Withdraw("DAW") if answer.random() < 0.2 else PressOn("DAW")


def test_the_fold_has_a_sum_for_every_counter() -> None:
    """The fold writes every field of FactionStats by name (decision 0021): a new counter
    must be added there too."""
    assert [f.name for f in fields(FactionStats)] == [
        "income", "bought", "lost", "battles_won", "battles_lost", "provinces", "dice",
        "hits", "expected_tenths",
    ]  # fmt: skip


@pytest.mark.parametrize("seed", ["stats-0", "stats-1", "stats-2"])
def test_the_bench_battle_counts_as_die_by_die(seed: str) -> None:
    """R-COMBAT-04, R-GEN-02: the 20 against 20 battle of issue 9, every answer the default."""
    rs = load_ruleset()
    start = _hills_battle(rs, seed)
    assert start.battles_due == [SPACE]
    assert _check(start, rs, None, seed) > 5


@pytest.mark.parametrize("n", range(12))
def test_random_battles_count_as_die_by_die(n: int) -> None:
    """R-COMBAT-04, -10, -11: random armies, sometimes a second defender (Welsh infantry),
    withdrawals chosen by a seeded generator."""
    pick = random.Random(n)
    attackers = [pick.choice(("INF", "ARCHER", "MIGHTY", "MERC", "FORT")) for _ in range(5)]
    defenders = [(pick.choice(("ORCI", "ORCARROW", "ORCFORT")), "ORC") for _ in range(4)]
    if n % 2:
        defenders += [("WELI", "WEL")] * 2
    rs, start = battle_setup(attackers, defenders)
    assert start.battles_due == ["x"]
    assert _check(start, rs, pick, f"stats-random-{n}") >= 1


@pytest.mark.parametrize("seed", ["stats-luck-0", "stats-luck-1"])
def test_r_gen_02_a_step_keeps_the_luck_it_counted_as_it_rolled(seed: str) -> None:
    """R-COMBAT-04, R-GEN-02: a step of the bench battle (normal dice only, one defender)
    keeps, for the statistics, each side's dice, hits and hits expected in tenths as it
    counted them while rolling (kept_step_luck, matched to the event's own dice tuple); they
    are the counts die by die, and a tuple of equal dice that is not the event's finds
    nothing."""
    rs = load_ruleset()
    dice = SeededDice(seed, 0)
    now = engine.apply(_hills_battle(rs, seed), FightBattle("DAW", SPACE), rs, dice).state
    kept = 0
    while now.battle is not None:
        out = engine.apply(now, UmpireAdvance("DAW"), rs, dice)
        for event in out.events:
            if not isinstance(event, BattleStepResolved) or out.state.battle is None:
                continue
            luck = kept_step_luck(out.state.battle, event.dice)
            assert luck is not None
            for side, (count, hits, tenths) in zip(Side, luck, strict=True):
                mine = [d for d in event.dice if d.side is side]
                assert count == len(mine)
                assert hits == sum(d.hit for d in mine)
                assert tenths == sum(max(0, min(10, d.target)) for d in mine)
            assert kept_step_luck(out.state.battle, tuple(list(event.dice))) is None
            kept += 1
        now = out.state
    assert kept > 3
