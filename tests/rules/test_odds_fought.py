"""Odds of battles with an Enchanter or an Illusionist: Monte Carlo over the real battle path
(issue 13; R-MAGIC-ENCH-01..03, R-MAGIC-ILL-01, R-COMBAT-12, R-PBP-DEAD-04), against values
worked by hand. Units from tests/rules/combat/test_magic (Infantry A2 D3; R-GEN-02).

*Illusionist*: 1 Infantry (A2) attacks 1 Meek Illusionist (D3 - 1 = 2). On a missed deadline
the Illusionist rerolls whenever an eligible hit lands (R-MAGIC-ILL-01), and then its own die
of that step does not count. The attacker hits with 2/10: the die is rerolled and hits again
with 2/10, and the Illusionist's die is void; so the defender falls with (2/10)(2/10) = 4/100
and the attacker is never hit in such a round. The attacker misses with 8/10: the
Illusionist's die counts and hits with 2/10, so the attacker falls with 16/100. Every other
round is hitless (80/100): win (4/100)/(20/100) = 1/5, held 4/5, apart from a stalemate after
20 hitless rounds, (8/10)**20; so win (1/5)(1 - (8/10)**20), held (4/5)(1 - (8/10)**20).

*Enchanter*: 1 Enchanter (infantry) attacks 1 Infantry (D3). It always declares by default
(R-COMBAT-12): its one die succeeds on 1-4 (4/10). The defender's die hits with 3/10 and
takes the Enchanter (the battle ends, no enchantment). Otherwise (7/10) a success takes the
defender's last unit to the Enchanter's side, so the defender's side is destroyed and the
attacker wins (the enchanted unit is destroyed at the end, R-MAGIC-ENCH-03). A round is a
win (7/10)(4/10) = 28/100, held 30/100, hitless 42/100: win 28/58 = 14/29, held 15/29 (a
stalemate needs twenty hitless rounds: (42/100)**20, under 1e-7).
"""

from __future__ import annotations

import pytest

from caedes_bot.rules.odds import battle_odds
from caedes_bot.rules.odds.fought import fought_odds, needs_fighting
from caedes_bot.rules.odds.planned import battle_now
from tests.rules.combat.test_magic import setup

RUNS = 2_000


def _within(seen: float, p: float, runs: int = RUNS) -> None:
    sigma = (p * (1 - p) / runs) ** 0.5
    assert abs(seen - p) <= 4.5 * sigma + 1e-9, (seen, p)


def test_r_magic_ill_01_illusionist_odds_by_the_real_battle_path() -> None:
    """R-MAGIC-ILL-01 (module docstring): 1/5 and 4/5 of the battles not stalled."""
    rs, st = setup(["INF"], ["ILLUS"])
    o = fought_odds(st, rs, "x", "DAW", runs=RUNS)
    assert o.method == "monte_carlo" and o.runs == RUNS and o.fought == ("illusionist",)
    assert o.unsupported == ()
    left = 1 - 0.8**20
    _within(o.attacker_wins, 0.2 * left)
    _within(o.defender_holds, 0.8 * left)
    assert o.both_destroyed == 0.0
    assert o.standard_error is not None and 0 < o.standard_error < 0.02
    # Survivors by kind: the Infantry survives exactly its wins.
    assert dict(o.attacker_by_kind)["INF"] == pytest.approx(o.attacker_wins + o.stalemate)
    # Nothing of the state changed, and the same seed gives the same answer.
    assert st.battle is None and len(st.units) == 2
    assert fought_odds(st, rs, "x", "DAW", runs=200) == fought_odds(st, rs, "x", "DAW", runs=200)


def test_r_magic_ench_01_enchanter_odds_by_the_real_battle_path() -> None:
    """R-MAGIC-ENCH-01, R-MAGIC-ENCH-03 (module docstring): 14/29 and 15/29, by the default
    number of battles."""
    rs, st = setup(["DRUID"], ["ORCI"])
    setup_now = battle_now(st, rs, "x")
    assert needs_fighting(setup_now.fighters)
    o = fought_odds(st, rs, "x", "DAW")
    assert o.method == "monte_carlo" and o.fought == ("enchanter",) and o.runs == 1_000
    _within(o.attacker_wins, 14 / 29, 1_000)
    _within(o.defender_holds, 15 / 29, 1_000)
    assert o.both_destroyed == 0.0
    # The enchanted Infantry is destroyed at the end: only the Enchanter survives a win.
    assert dict(o.defender_by_kind)["ORCI"] == pytest.approx(o.defender_holds)


def test_a_battle_without_them_is_not_fought() -> None:
    """Breath, Abjurers and Invokers are enumerated (test_odds_magic), not fought."""
    rs, st = setup(["ENG", "CLERIC"], ["ORCI"])
    assert not needs_fighting(battle_now(st, rs, "x").fighters)
    assert battle_odds(st, rs, "x").method == "exact"


def test_a_planned_attack_with_an_enchanter_is_fought_on_a_copy_with_the_move_made() -> None:
    """R-COMBAT-01, R-MAGIC-ENCH-01: in step 6 the Enchanter still stands in a; the odds of
    sending it into x are fought on a copy of the state with the move made (14/29 as above),
    and the state itself does not change."""
    from caedes_bot.rules.odds.planned import planned_attack, planned_board
    from caedes_bot.rules.state import Step
    from tests.rules.builders import state

    rs, _ = setup(["DRUID"], ["ORCI"])
    st = state(
        rs,
        units=[("DRUID", "DAW", "a"), ("ORCI", "ORC", "x")],
        owners={"a": "DAW", "x": "ORC"},
        step=Step.MOVE,
    )
    planned = planned_attack(st, rs, "DAW", "x", "a", [1])
    assert needs_fighting(planned.fighters)
    board = planned_board(st, "DAW", "x", "a", [1])
    o = fought_odds(board, rs, "x", "DAW", runs=RUNS)
    _within(o.attacker_wins, 14 / 29)
    assert st.unit(1).location == "a" and board.unit(1).location == "x"
