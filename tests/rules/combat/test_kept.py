"""The roster a battle keeps from step to step (issue 9, decision 0013; R-COMBAT-04..07).

A roster made from the last one by taking the casualties out must hold exactly what a roster
made afresh from the unit lists holds: the same fighters, the same dice of each step, the same
default casualties and the same answer to whether a casualty choice is real. The battles here
are the random armies of ``test_battle_replay.py`` (missile, Mighty, Predator, Fortitude,
Fear, Inspiring, a second defending faction), every casualty step compared both ways.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.combat.arithmetic import (
    DieSpec,
    default_casualties,
    has_real_choice,
    step_dice,
)
from caedes_bot.rules.combat.kept import normal_die
from caedes_bot.rules.combat.orders import FightBattle
from caedes_bot.rules.combat.sides import _Memo, battle_roster
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.sharing import CowTable
from caedes_bot.rules.state import Battle, BattleDie, CombatStep, DiePurpose, GameState, Side
from caedes_bot.rules.turn import UmpireAdvance
from tests.rules.combat.test_battle import battle_setup

_ATTACKERS = ("INF", "ARCHER", "MIGHTY", "PREDCAV", "FORT", "H-DAW-01", "ELITE")
_DEFENDERS = ("ORCI", "ORCARROW", "ORCFORT", "ORCCAV", "ORCVET", "H-ORC-01")


def test_a_normal_die_is_the_die_the_dataclass_makes() -> None:
    """R-GEN-02: the die made without ``__init__`` equals ``BattleDie(...)`` field by field,
    hit or miss, and carries every field the dataclass has."""
    for target, face in ((5, 3), (5, 5), (5, 6), (0, 1), (10, 10)):
        spec = DieSpec(7, "U-DAW-02", Side.DEFENDER, target)
        made = normal_die(spec, face)
        plain = BattleDie(7, "U-DAW-02", Side.DEFENDER, target, face, face <= target)
        assert made == plain
        assert vars(made) == vars(plain)
        assert repr(made) == repr(plain)
        assert hash(made) == hash(plain)
    assert normal_die(DieSpec(1, "K", Side.ATTACKER, 4), 4).purpose is DiePurpose.NORMAL


def test_the_unit_table_counts_its_writes() -> None:
    """Handing a unit out for writing, setting and deleting each count; reading does not."""
    _rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    table = CowTable(st.units)
    before = table.writes
    table.peek("1")
    list(table.peek_values())
    assert table.writes == before
    table["1"].wounded = False
    table.get("2")
    del table["2"]
    assert table.writes == before + 3


def _compare(state: GameState, rs: object, battle: Battle) -> None:
    """The kept roster of ``battle`` against one made afresh (a new memo)."""
    kept = battle_roster(state, rs, battle)  # type: ignore[arg-type]
    memo = battle.memo()
    held = memo.pop("sides")
    try:
        fresh = battle_roster(state, rs, battle)  # type: ignore[arg-type]
    finally:
        memo["sides"] = held
    assert isinstance(held, _Memo)
    assert kept.fighters == fresh.fighters
    for round_no in (1, battle.round):
        ctx = fresh.context(round_no)
        assert kept.context(round_no) == ctx
        for step in (CombatStep.MISSILE, CombatStep.MELEE):
            assert kept.specs(step, round_no) == step_dice(step, fresh.fighters, ctx)
        for side in Side:
            assert kept.side(side) == [f for f in fresh.fighters if f.side is side]
            for faction in {f.faction for f in fresh.fighters if f.side is side}:
                mine = [f for f in fresh.side(side) if f.faction == faction]
                assert kept.of(side, faction) == mine
                for hits in range(0, sum(f.capacity for f in mine) + 2):
                    assert kept.default_casualties(side, faction, hits, ctx) == (
                        default_casualties(mine, hits, ctx)
                    )
                    assert kept.real_choice(side, faction, hits) == has_real_choice(mine, hits)
    assert kept.specials() == fresh.specials()


def random_battle(
    seed: int, tag: str, attackers: tuple[str, ...] = _ATTACKERS, most: int = 8
) -> Iterator[tuple[GameState, Ruleset, Battle]]:
    """Fight a random battle by default (2 to ``most`` units a side drawn from ``attackers``
    and the Orcs' kinds, sometimes Wood Elf allies, the roster options at random) and yield
    the state, ruleset and battle after every order while the battle is under way."""
    pick = random.Random(seed)
    chosen = [pick.choice(attackers) for _ in range(pick.randint(2, most))]
    defenders = [(pick.choice(_DEFENDERS), "ORC") for _ in range(pick.randint(2, most))]
    if pick.random() < 0.4:
        defenders += [("WELI", "WEL")] * pick.randint(1, 3)
    options = Options(
        predator_symmetric=pick.random() < 0.5,
        hero_leadership_bonus=pick.random() < 0.5,
        stalemate_rounds=20,
    )
    rs, start = battle_setup(chosen, defenders, options=options)
    dice = SeededDice(tag)
    out = engine.apply(start, FightBattle("DAW", "x"), rs, dice)
    while out.state.battle is not None:
        yield out.state, rs, out.state.battle
        out = engine.apply(out.state, UmpireAdvance("DAW"), rs, dice)


def _battle(n: int) -> int:
    """Fight random battle ``n`` by default, comparing after every order; the orders
    compared."""
    checked = 0
    for state, rs, battle in random_battle(n, f"kept-{n}"):
        _compare(state, rs, battle)
        checked += 1
    return checked


def test_a_kept_roster_holds_what_a_fresh_one_holds() -> None:
    """R-COMBAT-04..07, R-ATTR-FORTI-01, R-ATTR-PRED-01, R-ATTR-FEAR-01, R-ATTR-INSP-01,
    R-ATTR-HERO-02: after every order of a battle answered by default, the roster kept from
    step to step (casualties taken out, wounds swapped in) equals one made afresh from the
    unit lists, in twenty random battles."""
    assert sum(_battle(n) for n in range(20)) >= 40
