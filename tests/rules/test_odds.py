"""Exact battle odds (design.md section 3), checked on cases worked by hand and against the real
battle machinery fought many times with seeded dice.

Hand work for 1 infantry attacking (A2) 1 infantry defending (D3), R-GEN-02: a round hits the
defender with chance 0.2 and the attacker with 0.3, so it ends both destroyed 0.2*0.3 = 0.06,
attacker wins 0.2*0.7 = 0.14, defender holds 0.8*0.3 = 0.24, and is hitless 0.8*0.7 = 0.56.
"""

from __future__ import annotations

from collections import Counter

import pytest

from caedes_bot.gamedata.model import Options
from caedes_bot.rules.combat.arithmetic import BattleResult, Fighter
from caedes_bot.rules.combat.battle import answer_by_default
from caedes_bot.rules.combat.events import BattleEnded
from caedes_bot.rules.combat.orders import FightBattle, handle_fight_battle
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.odds import Odds, OddsTooComplex, battle_odds, odds_for
from caedes_bot.rules.state import Side
from tests.rules.builders import kind
from tests.rules.combat.test_battle import battle_setup, fight

INF = kind("INF", "DAW")
ORCI = kind("ORCI", "ORC")
ORCFORT = kind("ORCFORT", "ORC", attributes=["fortitude"])
FEAR_HERO = kind("H-ORC-01", "ORC", attributes=["fear"], hero=True)


def one_on_one(defender: Fighter, options: Options, **kw: object) -> Odds:
    fighters = [Fighter(1, INF, "DAW", Side.ATTACKER), defender]
    return odds_for(fighters, options, attacker="DAW", defender_order=["ORC"], **kw)  # type: ignore[arg-type]


def total(odds: Odds) -> float:
    return odds.attacker_wins + odds.defender_holds + odds.both_destroyed + odds.stalemate


def test_r_combat_13_one_infantry_each_with_the_default_stalemate_bound() -> None:
    """20 hitless rounds in a row: 0.56**20, about once in 100,000 battles (R-COMBAT-13)."""
    odds = one_on_one(Fighter(2, ORCI, "ORC", Side.DEFENDER), Options())
    ends = 1 - 0.56**20
    assert odds.stalemate == pytest.approx(0.56**20, rel=1e-9)
    assert odds.stalemate == pytest.approx(9.2e-6, rel=0.01)
    assert odds.attacker_wins == pytest.approx(0.14 / 0.44 * ends, rel=1e-9)
    assert odds.defender_holds == pytest.approx(0.24 / 0.44 * ends, rel=1e-9)
    assert odds.both_destroyed == pytest.approx(0.06 / 0.44 * ends, rel=1e-9)
    assert total(odds) == pytest.approx(1.0)
    # R-COMBAT-13: the unit that cannot withdraw is destroyed in a stalemate.
    assert odds.expected_attacker_survivors == pytest.approx(odds.attacker_wins)
    assert odds.expected_defender_survivors == pytest.approx(odds.defender_holds + odds.stalemate)


def test_r_combat_13_short_stalemate_bound_in_closed_form() -> None:
    """R-COMBAT-13 with stalemate_rounds = 2: stall 0.56**2; attacker wins 0.14 + 0.56*0.14; an
    attacker that may withdraw survives the stalemate.
    """
    odds = one_on_one(Fighter(2, ORCI, "ORC", Side.DEFENDER), Options(stalemate_rounds=2))
    assert odds.stalemate == pytest.approx(0.3136)
    assert odds.attacker_wins == pytest.approx(0.2184)
    assert odds.defender_holds == pytest.approx(0.24 * 1.56)
    # A unit that may withdraw survives a stalemate by withdrawing.
    fighters = [
        Fighter(1, INF, "DAW", Side.ATTACKER, can_withdraw=True),
        Fighter(2, ORCI, "ORC", Side.DEFENDER),
    ]
    odds2 = odds_for(fighters, Options(stalemate_rounds=2), attacker="DAW", defender_order=["ORC"])
    assert odds2.expected_attacker_survivors == pytest.approx(0.2184 + 0.3136)


def test_r_attr_forti_02_fortitude_defender_worked_by_hand() -> None:
    """R-ATTR-FORTI-01, R-ATTR-FORTI-02: Against a Fortitude defender (two hits, wounded ones
    destroyed at the end): from whole, the attacker wounds it first with 0.14/0.44; from wounded
    it wins with 0.14/0.44, and a defender win leaves only a wounded unit, destroyed at cleanup
    (both destroyed).
    """
    odds = one_on_one(Fighter(2, ORCFORT, "ORC", Side.DEFENDER), Options(stalemate_rounds=1000))
    assert odds.attacker_wins == pytest.approx((0.14 / 0.44) ** 2)
    assert odds.defender_holds == pytest.approx(0.24 / 0.44)
    assert odds.both_destroyed == pytest.approx(0.06 / 0.44 + (0.14 / 0.44) * (0.30 / 0.44))
    heal = one_on_one(
        Fighter(2, ORCFORT, "ORC", Side.DEFENDER),
        Options(stalemate_rounds=1000, fortitude_end="heal"),
    )
    # With healing, the wounded defender left alone when both hit from whole holds too.
    assert heal.defender_holds == pytest.approx(0.30 / 0.44 + (0.14 / 0.44) * (0.24 / 0.44))


def test_r_attr_fear_01_round_one_is_worked_on_its_own() -> None:
    """R-ATTR-FEAR-01: A Fear hero defending: the attacker hits at 1 in round 1 (0.1), at 2 later
    (0.2).
    """
    odds = one_on_one(Fighter(2, FEAR_HERO, "ORC", Side.DEFENDER), Options(stalemate_rounds=1000))
    # Round 1: both 0.1*0.3, win 0.1*0.7, held 0.9*0.3, hitless 0.9*0.7 = 0.63.
    assert odds.attacker_wins == pytest.approx(0.07 + 0.63 * 0.14 / 0.44)
    assert odds.defender_holds == pytest.approx(0.27 + 0.63 * 0.24 / 0.44)
    assert odds.both_destroyed == pytest.approx(0.03 + 0.63 * 0.06 / 0.44)
    later = one_on_one(
        Fighter(2, FEAR_HERO, "ORC", Side.DEFENDER), Options(stalemate_rounds=1000), start_round=2
    )
    assert later.attacker_wins == pytest.approx(0.14 / 0.44)


def test_r_attr_merc_02_lone_mercenary_never_fights() -> None:
    """R-ATTR-MERC-02, R-ATTR-MERC-01: a lone Mercenary attacker is destroyed at the start of round
    1, so the defender always holds.
    """
    merc = kind("MERC", "DAW", attributes=["mercenary"], cost=2)
    fighters = [
        Fighter(1, merc, "DAW", Side.ATTACKER, mercenary=True),
        Fighter(2, ORCI, "ORC", Side.DEFENDER),
    ]
    odds = odds_for(fighters, Options(), attacker="DAW", defender_order=["ORC"])
    assert odds.defender_holds == 1.0


def test_exact_forced_on_too_large_a_state_space_is_refused() -> None:
    """The method is chosen by the size of the state space before computing: 61 infantry
    against 1 is a small space (62 attacker states times 2) and is answered exactly; forcing
    the exact method on a space over the limit is refused (OddsTooComplex)."""
    many = [Fighter(i, INF, "DAW", Side.ATTACKER) for i in range(1, 62)]
    small = odds_for(
        [*many, Fighter(99, ORCI, "ORC", Side.DEFENDER)],
        Options(),
        attacker="DAW",
        defender_order=["ORC"],
    )
    assert small.method == "exact"
    # R-COMBAT-06: two defending factions take hits in turn, so their side states multiply.
    big = [Fighter(i, INF, "DAW", Side.ATTACKER) for i in range(1, 200)] + [
        Fighter(300 + i, ORCFORT, ("ORC", "LIZ")[i % 2], Side.DEFENDER) for i in range(20)
    ]
    with pytest.raises(OddsTooComplex):
        odds_for(big, Options(), attacker="DAW", defender_order=["ORC", "LIZ"], method="exact")


def test_battle_odds_reads_the_battle_from_the_state() -> None:
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    fresh = battle_odds(st, rs, "x")
    assert fresh.attacker_wins == pytest.approx(0.14 / 0.44 * (1 - 0.56**20))
    # In a battle under way after a hitless round 1, the count of hitless rounds carries on.
    out = fight(st, rs, [9, 9])
    midway = battle_odds(out.state, rs, "x")
    assert midway.stalemate == pytest.approx(0.56**19)


def _real_results(
    attackers: list[str], defenders: list[tuple[str, str]], battles: int
) -> Counter[BattleResult]:
    """Fight the same battle ``battles`` times through the real machinery, every decision
    answered by its default (R-COMBAT-06 casualties, no withdrawal: R-PBP-DEAD-04)."""
    rs, base = battle_setup(attackers, defenders)
    results: Counter[BattleResult] = Counter()
    for seed in range(battles):
        st = base.clone()
        dice = SeededDice(f"odds-check-{seed}")
        events = handle_fight_battle(st, FightBattle("DAW", "x"), rs, dice)
        while st.battle is not None:
            events += answer_by_default(st, rs, dice, st.pending[0])
        (end,) = [e for e in events if isinstance(e, BattleEnded)]
        results[end.result] += 1
    return results


def test_odds_agree_with_real_battles_fought_with_seeded_dice() -> None:
    """A mixed battle (missile, Fortitude and cavalry on both sides, real casualty choices):
    frequencies over 1,200 seeded battles stay within 4.5 standard deviations of the odds."""
    attackers = ["ARCHER", "INF", "FORT", "PREDCAV"]
    defenders = [("ORCI", "ORC"), ("ORCCAV", "ORC"), ("ORCFORT", "ORC"), ("ORCARROW", "ORC")]
    rs, st = battle_setup(attackers, defenders)
    odds = battle_odds(st, rs, "x")
    battles = 1200
    seen = _real_results(attackers, defenders, battles)
    expected = {
        BattleResult.ATTACKER_WON: odds.attacker_wins,
        BattleResult.DEFENDER_HELD: odds.defender_holds,
        BattleResult.BOTH_DESTROYED: odds.both_destroyed,
    }
    for result, p in expected.items():
        sigma = (p * (1 - p) / battles) ** 0.5
        assert abs(seen[result] / battles - p) <= 4.5 * sigma + 1e-9, (result, seen, odds)
    assert seen[BattleResult.STALEMATE] == 0
