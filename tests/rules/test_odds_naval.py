"""Odds of naval battles (issue 13; R-COMBAT-14, R-MOVE-19, R-MOVE-20, R-GEN-02), worked by
hand. Values from the unit-type table: Ship A2 D2 cost 8, Infantry A2 D3 cost 3, Cavalry A5 D3
cost 5; a die hits on its value or less. Nobody has Missile, so only the melee step rolls; the
Dawnian ship #1 sails from s1 into s2 with unit #2 aboard, against the Orc ship #3 (D2, one die
at 2/10). Stalemates out of reach (``stalemate_rounds`` 10,000).

*The cargo goes down with its ship* (R-MOVE-19): a cheap Dawnian ship (cost 2) carries an
Infantry (3). The default casualty of the one Orc hit is the cheaper ship (R-COMBAT-06), and the
Infantry goes with it, so one hit destroys the whole attacking side. The attackers hit at least
once with 1 - (8/10)**2 = 36/100. A round is hitless (64/100)(8/10) = 512/1000, a win
(36/100)(8/10) = 288/1000, held (64/100)(2/10) = 128/1000, both destroyed (36/100)(2/10) =
72/1000; over 488/1000: 36/61, 16/61, 9/61. Were the Infantry left afloat, the Orcs would need
a second hit.

*Cavalry aboard attacks at 5 - 3 = 2* (R-MOVE-20): a Dawnian ship (8) carries a Cavalry (5).
The attackers hit at least once with 36/100 again (2/10 each). The Orc hit takes the cheaper
Cavalry; the ship fights on alone, ship against ship: win (2/10)(8/10) = 16/100, held 16/100,
both (2/10)(2/10) = 4/100, over 36/100: 4/9, 4/9, 1/9. From the start: hitless 512/1000; a
hit and no loss 288/1000 wins; a hit and the Cavalry lost 72/1000 wins too (the ship stands);
the Cavalry lost and no hit 128/1000 goes to ship against ship. Win = (360 + 128 (4/9)) / 488,
held = 128 (4/9) / 488, both = 128 (1/9) / 488. At the Cavalry's full 5 it would hit with 1/2,
and the attackers at least once with 1 - (8/10)(5/10) = 6/10.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.odds import battle_odds
from caedes_bot.rules.odds.planned import battle_now
from caedes_bot.rules.ships import SailShips
from caedes_bot.rules.state import GameState
from tests.rules.builders import kind, ruleset, state, with_options

KINDS = [
    kind("SHIP", "DAW", "ship"),
    kind("CHEAPSHIP", "DAW", "ship", cost=2),
    kind("INF", "DAW"),
    kind("CAV", "DAW", "cavalry"),
    kind("OSHIP", "ORC", "ship"),
]


def _sailed(ship: str, cargo: str) -> tuple[Ruleset, GameState]:
    rs = with_options(
        ruleset(
            provinces={"a": ("plains",), "b": ("plains",)},
            borders=[("a", "b")],
            seas=["s1", "s2"],
            coasts=[("a", "s1"), ("b", "s2")],
            sea_borders=[("s1", "s2")],
            kinds=KINDS,
        ),
        stalemate_rounds=10_000,
    )
    st = state(
        rs,
        units=[(ship, "DAW", "s1"), (cargo, "DAW", "s1"), ("OSHIP", "ORC", "s2")],
        owners={"a": "DAW", "b": "ORC"},
    )
    st.unit(2).aboard = 1
    st = apply(st, SailShips("DAW", (1,), "s2"), rs, ScriptedDice([])).state
    return rs, st


def test_r_move_19_the_cargo_goes_down_with_its_ship_in_the_odds() -> None:
    """R-MOVE-19, R-COMBAT-14: 36/61, 16/61, 9/61 (module docstring)."""
    rs, st = _sailed("CHEAPSHIP", "INF")
    setup = battle_now(st, rs, "s2")
    assert setup.aboard == ((2, 1),)
    o = battle_odds(st, rs, "s2")
    assert o.method == "exact"
    assert o.attacker_wins == pytest.approx(float(Fraction(36, 61)), abs=1e-12)
    assert o.defender_holds == pytest.approx(float(Fraction(16, 61)), abs=1e-12)
    assert o.both_destroyed == pytest.approx(float(Fraction(9, 61)), abs=1e-12)


def test_r_move_20_carried_cavalry_attacks_at_minus_3_in_the_odds() -> None:
    """R-MOVE-20: the chain of the module docstring."""
    rs, st = _sailed("SHIP", "CAV")
    o = battle_odds(st, rs, "s2")
    alone = Fraction(128, 1000)
    win = (Fraction(360, 1000) + alone * Fraction(4, 9)) / Fraction(488, 1000)
    assert o.attacker_wins == pytest.approx(float(win), abs=1e-12)
    assert o.defender_holds == pytest.approx(
        float(alone * Fraction(4, 9) / Fraction(488, 1000)), abs=1e-12
    )
    assert o.both_destroyed == pytest.approx(
        float(alone * Fraction(1, 9) / Fraction(488, 1000)), abs=1e-12
    )
