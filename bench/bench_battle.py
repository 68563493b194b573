"""Battles through the real engine against a plain loop drawing the same dice (issue 9).

What it measures: the 20 against 20 battle below, in Redfern Hills (hills and forest; every
unit here fights on the hills), fought through ``engine.apply`` as the bot fights it:
``FightBattle``, then ``UmpireAdvance`` for every decision (each answered by its default: the
default casualties, pressing on), order by order, every state the engine returns kept as the
next state. The rate is battles a second.

The reference: a plain loop over the same armies that draws every die from the same
``SeededDice`` class (one ``roll`` a side and step, as the engine does), with each unit's die
target worked out once before the battle, and the default casualties as a plain list cut.
So the ratio ``engine rate / loop rate`` measures the engine (orders, state copies, decisions,
events), not the dice: SHA-256 per die is paid by both.

Target: the engine at least a third of the loop's rate (ratio >= 0.33), min / median / max over
``--runs`` runs, the engine's and the loop's battles interleaved one by one.

The bot freezes its start-up heap for the garbage collector (``gc.freeze()``), so the ruleset
and what it loaded are never scanned again; so does this benchmark, after the ruleset, the 50
starting states and the warm-up, for both sides alike.

    .venv/bin/python -m bench.bench_battle                 # 5 runs of 200 battles
    .venv/bin/python -m bench.bench_battle --runs 7 --battles 300
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time

from bench.common import at_least_one, load, machine, spread
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.combat.arithmetic import (
    HERO_COST_RANK,
    die_target,
    is_hit,
    rolls_in,
    step_context,
)
from caedes_bot.rules.combat.battle import begin_combat_step
from caedes_bot.rules.combat.orders import FightBattle
from caedes_bot.rules.combat.sides import battle_fighters
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.state import Battle, CombatStep, FactionState, GameState, Side, Step, Unit
from caedes_bot.rules.turn import UmpireAdvance

TARGET = 1 / 3

#: (kind id, how many) of each side, unit by unit as the issue lists them.
ATTACKERS = (("U-DAW-02", 8), ("U-DAW-03", 4), ("U-DAW-04", 6), ("U-DAW-01", 2))
DEFENDERS = (("U-ORC-02", 12), ("U-ORC-05", 4), ("U-ORC-06", 4))
#: a province of hills and forest (every unit here fights on the hills), held by the Orcs
SPACE = "redfern-hills"


def battle_state(rs: Ruleset, seed: str) -> GameState:
    """Step 7 of a Dawnian turn: the 20 attackers have entered ``SPACE`` from a neighbour,
    where the 20 Orcs stand; the battle is due. Each faction's designated Hero stands in the
    province the default scenario starts it in, owned by its faction, away from the battle
    (a state a campaign can reach: without them every order would find both Heroes fallen,
    R-FEAL-03). The Heroes are placed after the armies, so the armies' ids are as before."""
    came_from = sorted(rs.map.land_neighbours(SPACE))[0]
    homes = _hero_homes(rs)
    st = GameState(
        scenario="default",
        dice_seed=seed,
        round=1,
        active="DAW",
        step=Step.COMBAT,
        in_play=["DAW", "ORC"],
        factions={code: FactionState(code=code, turns_taken=1) for code in ("DAW", "ORC")},
        owners={SPACE: "ORC", came_from: "DAW", **{home: c for c, (_, home) in homes.items()}},
    )
    for side, owner in ((ATTACKERS, "DAW"), (DEFENDERS, "ORC")):
        for kind, count in side:
            for _ in range(count):
                uid = st.new_id()
                st.mustered_seq += 1
                unit = Unit(uid, kind, owner, SPACE, muster_seq=st.mustered_seq)
                if owner == "DAW":
                    unit.attacking = unit.move_ended = True
                    unit.entered_from, unit.path, unit.movement_used = came_from, [SPACE], 1
                st.units[str(uid)] = unit
    for code, (hero, home) in homes.items():
        st.place_new_unit(hero, code, home)
    begin_combat_step(st, rs)
    return st


def _hero_homes(rs: Ruleset) -> dict[str, tuple[str, str]]:
    """Faction code -> (its designated Hero's kind id, the province the default scenario
    starts it in), for the two factions of the battle."""
    scenario = rs.scenarios["default"]
    homes: dict[str, tuple[str, str]] = {}
    for code in ("DAW", "ORC"):
        hero = scenario.faction(code).hero
        assert hero is not None
        home = next(u.location for u in scenario.units if u.kind == hero)
        assert home not in (SPACE, *rs.map.land_neighbours(SPACE))
        homes[code] = (hero, home)
    return homes


def listed(rs: Ruleset) -> list[str]:
    lines = []
    for faction, side in (("DAW (attacker)", ATTACKERS), ("ORC (defender)", DEFENDERS)):
        units = ", ".join(
            f"{n} {rs.kind(k).display_name or rs.kind(k).name} ({k})" for k, n in side
        )
        lines.append(f"  {faction}: {units}")
    return lines


def engine_battle(start: GameState, rs: Ruleset) -> int:
    """Fight the due battle through ``engine.apply`` with default decisions; orders given."""
    dice = SeededDice(start.dice_seed, start.dice_rolls)
    state = engine.apply(start, FightBattle("DAW", SPACE), rs, dice).state
    orders = 1
    while state.battle is not None:
        state = engine.apply(state, UmpireAdvance("DAW"), rs, dice).state
        orders += 1
    return orders


def loop_battle(start: GameState, rs: Ruleset) -> int:
    """The same armies fought by a plain loop: targets worked out once, dice from the same
    ``SeededDice``, default casualties cheapest first, the attacker always pressing on, the
    battle over when a side is gone or after the stalemate rounds. Returns the rounds."""
    dice = SeededDice(start.dice_seed, start.dice_rolls)
    armies = Battle(
        0,
        SPACE,
        "DAW",
        ["ORC"],
        [u.id for u in start.peek_units() if u.owner == "DAW" and u.location == SPACE],
        [u.id for u in start.peek_units() if u.owner == "ORC" and u.location == SPACE],
    )
    fighters = battle_fighters(start, rs, armies)
    first, later = (
        step_context(fighters, 1, start.options),
        step_context(fighters, 2, start.options),
    )
    sides: dict[Side, list[list[int]]] = {Side.ATTACKER: [], Side.DEFENDER: []}
    for f in fighters:  # die targets (0: none) of round 1 and later rounds, capacity, cost
        targets = [
            (die_target(f, ctx) or 0) if rolls_in(f, step) else 0
            for ctx in (first, later)
            for step in (CombatStep.MISSILE, CombatStep.MELEE)
        ]
        cost = f.kind.cost if f.kind.cost is not None else HERO_COST_RANK
        sides[f.side].append([*targets, f.capacity, cost])
    for units in sides.values():
        units.sort(key=lambda u: u[5])
    rounds, hitless = 0, 0
    while sides[Side.ATTACKER] and sides[Side.DEFENDER]:
        rounds += 1
        lost = False
        for index in (0, 1) if rounds == 1 else (2, 3):
            hits = {}
            for side, units in sides.items():
                targets = [u[index] for u in units if u[index]]
                faces = dice.roll(10, len(targets), reason="loop")
                hits[side.other] = sum(
                    1 for t, v in zip(targets, faces, strict=True) if is_hit(v, t)
                )
            for side, n in hits.items():
                units = sides[side]
                while n and units:
                    units[0][4] -= 1
                    if units[0][4] == 0:
                        units.pop(0)
                    n -= 1
                    lost = True
        hitless = 0 if lost else hitless + 1
        if hitless >= start.options.stalemate_rounds:
            break
    return rounds


def timed(battles: int, starts: list[GameState], rs: Ruleset) -> tuple[float, float]:
    """Battles a second of the engine and of the loop, the two interleaved battle by battle
    on the same starting states (so a change in the machine's load falls on both)."""
    spent = [0.0, 0.0]
    clock = time.perf_counter
    for i in range(battles):
        start = starts[i % len(starts)]
        t0 = clock()
        engine_battle(start, rs)
        t1 = clock()
        loop_battle(start, rs)
        spent[0] += t1 - t0
        spent[1] += clock() - t1
    return battles / spent[0], battles / spent[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=at_least_one, default=5)
    parser.add_argument("--battles", type=at_least_one, default=200)
    args = parser.parse_args(argv)
    rs = load_ruleset()
    starts = [battle_state(rs, f"bench-battle-{i}") for i in range(50)]
    orders = [engine_battle(s, rs) for s in starts]
    print(f"machine: {machine()}; load {load()}")
    print(f"battle in {SPACE} (hills and forest, fought on the hills), 20 against 20:")
    print("\n".join(listed(rs)))
    print(
        f"orders per battle: median {statistics.median(orders)} (min {min(orders)}, max {max(orders)})"
    )
    timed(20, starts, rs)  # warm up both
    gc.collect()
    gc.freeze()  # as the bot does after start-up
    try:
        ratios = []
        for run in range(1, args.runs + 1):
            eng, ref = timed(args.battles, starts, rs)
            ratios.append(eng / ref)
            print(f"run {run}: engine {eng:,.0f}/s, loop {ref:,.0f}/s, ratio {eng / ref:.3f}")
        print(f"ratio engine/loop min / median / max: {spread(ratios)} (target >= {TARGET:.2f})")
    finally:
        gc.unfreeze()
    return 0 if min(ratios) >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
