"""Seeded battles replay exactly (R-GEN-01, R-GEN-08, R-COMBAT-01..13): a regression guard.

The dice of a stored campaign are a pure function of its seed and its roll counter, so a
battle fought again from the same state with the same orders must roll the same dice, give the
same events and end the same way. These battles were fought through ``engine.apply`` before
the battle path was made faster (issue 9), and what they gave then is written down here: the
faces of every step, the result, the survivors, the dice rolled and a digest of every event
and of the final units. A change that makes battles faster must leave all of them as they are.

* The battle of ``bench/bench_battle.py`` (20 against 20 in the hills of the real game data),
  every decision answered by its default, for three seeds.
* Forty battles of random armies from the hand-made kinds of ``test_battle.py`` (missile,
  Mighty, Predator, Mercenary, Fortitude, Undead, Fear, Inspiring, Towers, a second defending
  faction), with options at other values than their defaults, and answers chosen by a seeded
  generator: a casualty choice of its own, the default, withdrawing or pressing on.

The digest reads the units only by what a battle changes of them, so a field added to a unit
later leaves it alone. If the digest alone changes (a new kind of event, a new field of an
event), the faces, results and survivors tell whether the battles themselves changed;
``fingerprints()`` prints the new values.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.combat.battle import begin_combat_step
from caedes_bot.rules.combat.events import BattleEnded, BattleStepResolved
from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle, PressOn, Withdraw
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary_answer import ChooseMercenaries
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    CasualtiesDetail,
    DecisionKind,
    FactionState,
    GameState,
    MercenariesDetail,
    Step,
    Unit,
)
from caedes_bot.rules.turn import UmpireAdvance
from tests.rules.combat.test_battle import battle_setup


@dataclass(frozen=True)
class Fingerprint:
    """What a battle gave: orders, dice rolled, the faces of each step (``round+step:faces``),
    the result, the survivors of each side and a digest of every event and the final units."""

    orders: int
    dice: int
    faces: str
    result: str
    survivors: tuple[tuple[int, ...], tuple[int, ...]]
    digest: str


def _fingerprint(
    orders: int, final: GameState, events: list[Event], dice: SeededDice
) -> Fingerprint:
    steps = [e for e in events if isinstance(e, BattleStepResolved)]
    faces = " ".join(
        f"{e.round}{e.step.value[:2]}:" + "".join(str(d.value % 10) for d in e.dice) for e in steps
    )
    (end,) = [e for e in events if isinstance(e, BattleEnded)]
    units = sorted(final.peek_units(), key=lambda u: u.id)
    # the units by what a battle changes of them (a field added to Unit later changes nothing)
    board: list[tuple[object, ...]] = [
        (u.id, u.kind, u.owner, u.location, u.wounded, u.attacking, u.move_ended, u.entered_from)
        for u in units
    ]
    board += [(u.id, tuple(u.path), u.terrain) for u in units]
    text = repr(events) + repr(dice.history) + repr(board) + repr(sorted(final.owners.items()))
    text += repr((final.pending, final.battles_due, final.battle, final.next_id, final.dice_rolls))
    return Fingerprint(
        orders,
        final.dice_rolls,
        faces,
        end.result.value,
        (end.attacker_survivors, end.defender_survivors),
        hashlib.sha256(text.encode()).hexdigest()[:16],
    )


# --------------------------------------------------------------------------- the bench battle

#: the armies of ``bench/bench_battle.py`` (issue 9), unit by unit
ATTACKERS = (("U-DAW-02", 8), ("U-DAW-03", 4), ("U-DAW-04", 6), ("U-DAW-01", 2))
DEFENDERS = (("U-ORC-02", 12), ("U-ORC-05", 4), ("U-ORC-06", 4))
SPACE = "redfern-hills"


def _hills_battle(rs: Ruleset, seed: str) -> GameState:
    came_from = sorted(rs.map.land_neighbours(SPACE))[0]
    st = GameState(
        scenario="default",
        dice_seed=seed,
        round=1,
        active="DAW",
        step=Step.COMBAT,
        in_play=["DAW", "ORC"],
        factions={code: FactionState(code=code, turns_taken=1) for code in ("DAW", "ORC")},
        owners={SPACE: "ORC", came_from: "DAW"},
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
    begin_combat_step(st, rs)
    return st


def _by_default(start: GameState, rs: Ruleset, space: str) -> Fingerprint:
    dice = SeededDice(start.dice_seed, start.dice_rolls)
    out = engine.apply(start, FightBattle("DAW", space), rs, dice)
    events, orders = list(out.events), 1
    while out.state.battle is not None:
        out = engine.apply(out.state, UmpireAdvance("DAW"), rs, dice)
        events += out.events
        orders += 1
    return _fingerprint(orders, out.state, events, dice)


def _bench_battle(seed: str) -> Fingerprint:
    rs = load_ruleset()
    return _by_default(_hills_battle(rs, seed), rs, SPACE)


# --------------------------------------------------------------------------- random battles

_ATTACKER_KINDS = (
    "INF", "ARCHER", "RANGER", "ELITE", "MIGHTY", "PREDCAV", "MISSCAV", "MERC", "FORT",
    "UNDEAD", "TWR", "H-DAW-01",
)  # fmt: skip
_DEFENDER_KINDS = (
    "ORCI", "ORCI2", "ORCMEEK", "ORCVET", "ORCCAV", "ORCARROW", "ORCFORT", "ORCWOOD",
    "ORCTWR", "H-ORC-01",
)  # fmt: skip
_TERRAINS = (("plains",), ("forest",), ("plains", "forest"), ("mountains", "swamp"), ("hills",))


def _random_battle(n: int) -> Fingerprint:
    """Battle ``n``: armies, terrain, options and every answer drawn from ``Random(n)``."""
    pick = random.Random(n)
    attackers = [pick.choice(_ATTACKER_KINDS) for _ in range(pick.randint(1, 7))]
    if all(k == "TWR" for k in attackers):
        attackers.append("INF")
    defenders = [(pick.choice(_DEFENDER_KINDS), "ORC") for _ in range(pick.randint(1, 7))]
    if pick.random() < 0.3:
        defenders += [("WELI", "WEL")] * pick.randint(1, 3)
    options = Options(
        stalemate_rounds=pick.choice((1, 2, 3, 20)),
        casualty_chooser=pick.choice(("owner", "opponent")),
        withdraw_mixed=pick.choice(("partial", "forbidden")),
        fortitude_end=pick.choice(("destroy", "heal")),
        predator_symmetric=pick.random() < 0.5,
        allied_includes_pacts=pick.random() < 0.5,
        cavalry_blitz=False,  # the guard is of the battle; a blitz after it came later
    )
    rs, start = battle_setup(
        attackers,
        defenders,
        terrain=pick.choice(_TERRAINS),
        owner=pick.choice(("ORC", "WEL", None)),
        options=options,
    )
    for uid in range(1, len(attackers) + 1):
        if pick.random() < 0.25:
            start.unit(uid).entered_from = "sea"
    dice = SeededDice(f"replay-{n}", pick.randint(0, 1000))
    out = engine.apply(start, FightBattle("DAW", "x"), rs, dice)
    events, orders = list(out.events), 1
    while out.state.battle is not None:
        now = out.state
        decision = now.pending[0]
        order: Order
        if isinstance(decision.detail, MercenariesDetail):
            # R-ATTR-MERC-01: the default, drawing nothing, so that the battle goes as when
            # the default went at once
            order = ChooseMercenaries(decision.faction, decision.id, decision.detail.default)
        elif pick.random() < 0.4:
            order = UmpireAdvance("DAW")
        elif decision.kind is DecisionKind.CASUALTIES:
            detail = decision.detail
            assert isinstance(detail, CasualtiesDetail)
            room = {u.id: u.max_hits for u in detail.units}
            picks: list[int] = []
            for _ in range(len(detail.default)):
                uid = pick.choice(sorted(k for k, v in room.items() if v > 0))
                room[uid] -= 1
                picks.append(uid)
            order = AssignCasualties(decision.faction, tuple(picks))
        else:
            order = Withdraw("DAW") if pick.random() < 0.3 else PressOn("DAW")
        out = engine.apply(now, order, rs, dice)
        events += out.events
        orders += 1
    return _fingerprint(orders, out.state, events, dice)


def fingerprints() -> None:  # pragma: no cover - prints the values written below
    for seed in BENCH:
        print(f"    {seed!r}: {_bench_battle(seed)!r},")
    for n in RANDOM_SAMPLES:
        print(f"    {n}: {_random_battle(n)!r},")
    print(f"    digest of the random battles: {_random_digest()!r}")


def _random_digest() -> str:
    text = "".join(repr(_random_battle(n)) for n in range(40))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- what they gave

BENCH: dict[str, Fingerprint] = {
    "bench-battle-0": Fingerprint(
        orders=11,
        dice=97,
        faces=(
            "1mi:877750290083 1me:169483832147272397261518081 2mi:30876 "
            "2me:5586726070843202104177 3me:1044964889983322444 4me:562848480582"
        ),
        result="defender_held",
        survivors=((), (21, 33, 34, 35, 36, 37, 38, 39, 40)),
        digest="3f1c19d3dff7e16e",
    ),
    "bench-battle-1": Fingerprint(
        orders=16,
        dice=98,
        faces=(
            "1mi:429039610297 1me:8154592931778932112951515 2mi:29893 "
            "2me:77629477688681610 3mi:419 3me:50630936848203 4me:6713164318845 "
            "5me:018251254"
        ),
        result="defender_held",
        survivors=((), (33, 37, 38, 39, 40)),
        digest="68ca02511dbebbbf",
    ),
    "bench-battle-7": Fingerprint(
        orders=11,
        dice=97,
        faces=(
            "1mi:545751388614 1me:10409804568496931720349028 2mi:65178395 "
            "2me:621956661310639221301 3me:801264327953656498 4me:708225163687"
        ),
        result="defender_held",
        survivors=((), (21, 33, 34, 35, 36, 37, 38, 39, 40)),
        digest="4b228cde1bb56fbb",
    ),
}
# Issue 12 changed every digest (battle dice and removals gained fields) and battle 30 of the
# forty: its default casualties now take the wounded Orc Fortitude unit before an unwounded
# infantry of the same cost, as R-COMBAT-06 now says explicitly. The Mercenary choice
# (R-ATTR-MERC-01) changed the digest again: battle 16 of the forty now asks which of two
# unlike Mercenaries desert (answered with the default, one order more); its dice, result and
# survivors are as before, and no other battle changed.
RANDOM_DIGEST = "779270ccdc30ede0"
RANDOM_SAMPLES: dict[int, Fingerprint] = {
    0: Fingerprint(
        orders=8,
        dice=30,
        faces="1mi:4611 1me:519899349 2mi:144 2me:475515 3mi:120 3me:055 4mi:45",
        result="attacker_won",
        survivors=((2, 3, 7), ()),
        digest="8219527e5975af99",
    ),
    6: Fingerprint(
        orders=11,
        dice=34,
        faces="1mi:1331 1me:2204776682 2mi:9 2me:872167924 3mi:4 3me:32768 4me:56 5me:45",
        result="stalemate",
        survivors=((), (12,)),
        digest="be3d9bf8d79497df",
    ),
    12: Fingerprint(
        orders=4,
        dice=20,
        faces="1me:119950 2me:7302 3me:9744 4me:1861 5me:82",
        result="both_destroyed",
        survivors=((), ()),
        digest="392dacebfe59d63d",
    ),
    21: Fingerprint(
        orders=3,
        dice=11,
        faces="1mi:9 1me:60537 2mi:0 2me:1436",
        result="defender_held",
        survivors=((), (3, 4, 5, 6)),
        digest="1c38274541141b3d",
    ),
}


@pytest.mark.parametrize("seed", sorted(BENCH))
def test_r_gen_08_the_bench_battle_replays_exactly(seed: str) -> None:
    assert _bench_battle(seed) == BENCH[seed]


@pytest.mark.parametrize("n", sorted(RANDOM_SAMPLES))
def test_r_gen_08_a_random_battle_replays_exactly(n: int) -> None:
    assert _random_battle(n) == RANDOM_SAMPLES[n]


def test_r_gen_08_forty_random_battles_replay_exactly() -> None:
    assert _random_digest() == RANDOM_DIGEST
