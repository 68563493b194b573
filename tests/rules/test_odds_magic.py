"""Battle odds with breath weapons and battle magic (issue 13; R-COMBAT-12, R-ATTR-BREATH-01..04,
R-MAGIC-ABJ-01, R-MAGIC-INV-01, R-PBP-DEAD-04), worked by hand as exact fractions.

Values from the unit-type table (Infantry A2 D3, Cavalry A5 D3) and R-GEN-02 (a die hits on its
target or less). Declarations are the defaults of a missed deadline (R-COMBAT-12), made at the
first round start and kept: a breather breathes when its three dice give strictly more expected
hits than its normal dice (own-side hits not subtracted), an Invoker likewise, an Abjurer
always. Stalemates out of reach unless said (``stalemate_rounds`` 10,000).

*Breath, 1 Infantry (A2) against 1 breathing Infantry (D3)*: the defender's normal die would
hit on 3 faces, its three breath dice on 4 faces each (12 > 3), so it breathes. Each breath die
hits the attacker with 4/10, its own side with 1/10 (a 10) and does nothing with 5/10. The
defender falls if the attacker's die hits (2/10) or a breath die shows a 10; the attacker falls
if a breath die hits it. Over the breath dice: no hit on the attacker (6/10)**3 = 216/1000, no
hit either way (5/10)**3 = 125/1000, no own-side hit (9/10)**3 = 729/1000. A round is then

* hitless: (8/10)(125/1000) = 1/10;
* the attacker's win (attacker untouched, defender down): (2/10)(216/1000) + (8/10)(216 -
  125)/1000 = 116/1000;
* the defender's hold (attacker down, defender standing, so no 10 and the attacker missed):
  (8/10)(729 - 125)/1000 = 4832/10000;
* both destroyed: the rest, (1 - 216/1000) - 4832/10000 = 3008/10000.

Each end has its round chance over 9/10: 29/225, 604/1125 and 376/1125; rounds 10/9.

With ``breath_mode = over`` a breath die hits the enemy on 4-9 (6 faces): no hit on the
attacker (4/10)**3 = 64/1000, none either way (3/10)**3 = 27/1000; hitless (8/10)(27/1000),
win (2/10)(64/1000) + (8/10)(37/1000) = 424/10000, hold (8/10)(702/1000) = 5616/10000, both
3744/10000; over 9784/10000: 53/1223, 702/1223, 468/1223.

*Fear shifts the 4 in round 1* (R-ATTR-BREATH-02): the attacker has Fear, so in round 1 the
breath dice hit on 1-3 (3 faces; still 9 > 2 expected, so it breathes): no hit on the attacker
(7/10)**3 = 343/1000, none either way (6/10)**3 = 216/1000; round 1 is hitless (8/10)(216/1000)
= 1728/10000, a win (2/10)(343/1000) + (8/10)(127/1000) = 1702/10000. Later rounds are as
above, so the win is 1702/10000 + (1728/10000)(29/225).

*Mighty does not double breath dice* (R-ATTR-BREATH-03): a Mighty breathing Infantry (A2,
normal 2 dice x 2 faces = 4 < 12) attacks 1 Infantry (D3). It falls if the defender hits (3/10)
or a breath die shows a 10; the defender falls if a breath die hits it. Hitless (7/10)(125/1000)
= 875/10000; win (7/10)(604/1000) = 4228/10000; hold (3/10)(216/1000) + (7/10)(91/1000) =
1285/10000; both 3612/10000; over 9125/10000. With ``breath_mighty_dice = 6`` it rolls six:
none either way (1/2)**6 = 1/64, no hit on the enemy (6/10)**6, no 10 (9/10)**6; hitless
(7/10)(1/64), win (7/10)((9/10)**6 - 1/64).

*A Mighty Elite breathing Cavalry* (A5 + 1 = 6, normal 2 dice x 6 faces = 12, breath 3 x 4 = 12,
not strictly more) does not breathe by default: it fights with its two normal dice.

*Invoker, 1 Elite Infantry (A3) against 1 Infantry (D3)*: normal 3 faces against five invoker
dice at 2 (10), so it invokes. No invoker hit (8/10)**5 = 1024/3125. Hitless (1024/3125)(7/10),
win (2101/3125)(7/10), hold (1024/3125)(3/10), both (2101/3125)(3/10); over 1 - hitless.

*Abjurer, a Cleric and an Infantry (A2) against 2 Infantry (D3)*: the declared Cleric does not
roll; the first hit of each round on the attacking side is cancelled (no wound, so no loss for
R-COMBAT-13), a second goes to the cheapest unit, the Infantry (the used Cleric ranks at its
cost 18). The defender's two dice hit twice with 9/100. From the start: the Infantry hits and
the defenders miss twice-over 182/1000 (to Cleric+Infantry against 1), hits and is hit twice
18/1000 (Cleric against 1), misses and is hit twice 72/1000 (Cleric against 2), else 728/1000
nothing is lost. Cleric+Infantry against 1 can only win (the one die is always cancelled), 2/10
a round; the Cleric against 1 can only stall; the Cleric against 2 falls when both dice hit
(9/100 a round). With the default 20 hitless rounds to a stalemate: win = (1 - s**20)(182/272)
(1 - (8/10)**20), hold = (1 - s**20)(72/272)(1 - (91/100)**20), s = 728/1000.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest

from caedes_bot.gamedata.model import Options, UnitKind
from caedes_bot.rules.combat.arithmetic import BattleResult, Fighter
from caedes_bot.rules.odds import Odds, odds_for
from caedes_bot.rules.odds.model import default_declared
from caedes_bot.rules.state import BattleAction, Side
from tests.rules.builders import kind

INF = kind("INF", "DAW")
FEARINF = kind("FEARINF", "DAW", attributes=["fear"])
ORCI = kind("ORCI", "ORC")
BREATH = kind("ORCBREATH", "ORC", attributes=["breathweapon"], cost=18)
MIGHTYBREATH = kind("MBREATH", "DAW", attributes=["breathweapon", "mighty"], cost=18)
CAVBREATH = kind("CBREATH", "DAW", "cavalry", ["breathweapon", "mighty", "elite"], cost=20)
SHAMAN = kind("SHAMAN", "DAW", attributes=["invoker", "elite"], cost=18)
CLERIC = kind("CLERIC", "DAW", attributes=["abjurer"], cost=18)
NO_STALEMATE = Options(stalemate_rounds=10_000)


def odds(
    attackers: Sequence[UnitKind],
    defenders: Sequence[UnitKind],
    options: Options = NO_STALEMATE,
    **kw: object,
) -> Odds:
    fighters = [Fighter(n, k, "DAW", Side.ATTACKER) for n, k in enumerate(attackers, start=1)]
    fighters += [Fighter(n, k, "ORC", Side.DEFENDER) for n, k in enumerate(defenders, start=100)]
    return odds_for(fighters, options, attacker="DAW", defender_order=["ORC"], **kw)  # type: ignore[arg-type]


def assert_odds(o: Odds, win: Fraction, held: Fraction, both: Fraction) -> None:
    assert o.method == "exact" and o.unsupported == ()
    assert o.attacker_wins == pytest.approx(float(win), abs=1e-12)
    assert o.defender_holds == pytest.approx(float(held), abs=1e-12)
    assert o.both_destroyed == pytest.approx(float(both), abs=1e-12)


def test_r_attr_breath_01_breath_battle_exact_fractions() -> None:
    """R-ATTR-BREATH-01, R-ATTR-BREATH-04, R-COMBAT-12: 29/225, 604/1125, 376/1125, rounds
    10/9 (module docstring)."""
    o = odds([INF], [BREATH])
    assert_odds(o, Fraction(29, 225), Fraction(604, 1125), Fraction(376, 1125))
    assert o.expected_rounds == pytest.approx(10 / 9, abs=1e-9)
    assert o.stalemate == pytest.approx(0.0, abs=1e-12)


def test_r_attr_breath_01_breath_mode_over() -> None:
    """Option ``breath_mode = over`` (R-ATTR-BREATH-01): 53/1223, 702/1223, 468/1223."""
    o = odds([INF], [BREATH], Options(stalemate_rounds=10_000, breath_mode="over"))
    assert_odds(o, Fraction(53, 1223), Fraction(702, 1223), Fraction(468, 1223))


def test_r_attr_breath_02_fear_shifts_the_breath_target_in_round_one() -> None:
    """R-ATTR-BREATH-02, R-ATTR-FEAR-01: round 1 at 3 faces, later rounds at 4."""
    o = odds([FEARINF], [BREATH])
    win = Fraction(1702, 10000) + Fraction(1728, 10000) * Fraction(29, 225)
    assert o.attacker_wins == pytest.approx(float(win), abs=1e-12)


def test_r_attr_breath_03_mighty_does_not_double_breath_dice() -> None:
    """R-ATTR-BREATH-03: three dice, not six; with ``breath_mighty_dice = 6`` six."""
    out = Fraction(9125, 10000)
    o = odds([MIGHTYBREATH], [ORCI])
    assert_odds(
        o, Fraction(4228, 10000) / out, Fraction(1285, 10000) / out, Fraction(3612, 10000) / out
    )
    six = odds(
        [MIGHTYBREATH],
        [ORCI],
        Options(stalemate_rounds=10_000, breath_mighty_dice=6),
    )
    hitless = Fraction(7, 10) * Fraction(1, 64)
    win = Fraction(7, 10) * (Fraction(9, 10) ** 6 - Fraction(1, 64))
    assert six.attacker_wins == pytest.approx(float(win / (1 - hitless)), abs=1e-12)


def test_r_combat_12_breath_only_when_strictly_more_expected_hits() -> None:
    """R-COMBAT-12: a Mighty Elite breathing Cavalry (12 against 12) keeps its normal dice; a
    breathing Infantry defender (12 against 3) breathes; an Invoker (10 against 3) invokes; an
    Abjurer always abjures."""
    fighters = [
        Fighter(1, CAVBREATH, "DAW", Side.ATTACKER),
        Fighter(2, SHAMAN, "DAW", Side.ATTACKER),
        Fighter(3, CLERIC, "DAW", Side.ATTACKER),
        Fighter(4, BREATH, "ORC", Side.DEFENDER),
    ]
    assert default_declared(fighters, Options()) == {
        2: BattleAction.INVOKE,
        3: BattleAction.ABJURE,
        4: BattleAction.BREATH,
    }
    plain = kind("CBPLAIN", "DAW", "cavalry", ["mighty", "elite"], cost=20)
    o = odds([CAVBREATH], [ORCI])
    same = odds([plain], [ORCI])
    assert o.attacker_wins == pytest.approx(same.attacker_wins, abs=1e-12)


def test_r_magic_inv_01_invoker_exact_fractions() -> None:
    """R-MAGIC-INV-01: five dice at 2 instead of one at 3 (module docstring)."""
    miss = Fraction(1024, 3125)
    out = 1 - miss * Fraction(7, 10)
    o = odds([SHAMAN], [ORCI])
    assert_odds(
        o,
        (1 - miss) * Fraction(7, 10) / out,
        miss * Fraction(3, 10) / out,
        (1 - miss) * Fraction(3, 10) / out,
    )


def test_r_magic_abj_01_abjurer_cancels_the_first_hit_of_each_round() -> None:
    """R-MAGIC-ABJ-01, R-COMBAT-06, R-COMBAT-13: the chain of the module docstring; a
    cancelled hit harms nobody, so such rounds count towards a stalemate."""
    s = 0.728
    left = 1 - s**20
    o = odds([CLERIC, INF], [ORCI, ORCI], Options())
    assert o.method == "exact" and o.unsupported == ()
    assert o.attacker_wins == pytest.approx(left * 182 / 272 * (1 - 0.8**20), abs=1e-12)
    assert o.defender_holds == pytest.approx(left * 72 / 272 * (1 - 0.91**20), abs=1e-12)
    assert o.both_destroyed == pytest.approx(0.0, abs=1e-12)
    # A lone Cleric against one Infantry never loses a unit: every round is hitless, and the
    # battle stalls after ``stalemate_rounds`` of them (option at 5).
    lone = odds([CLERIC], [ORCI], Options(stalemate_rounds=5))
    assert lone.stalemate == pytest.approx(1.0, abs=1e-12)
    assert lone.expected_rounds == pytest.approx(5.0, abs=1e-9)


def test_declarations_given_are_used_instead_of_the_defaults() -> None:
    """R-COMBAT-12: a breather told not to breathe rolls its normal die (1 against 1 Infantry
    as in test_odds: 7/22 for an A2 attacker against D3)."""
    fighters = [Fighter(1, INF, "DAW", Side.ATTACKER), Fighter(2, BREATH, "ORC", Side.DEFENDER)]
    o = odds_for(fighters, NO_STALEMATE, attacker="DAW", defender_order=["ORC"], declared={})
    assert o.attacker_wins == pytest.approx(7 / 22, abs=1e-12)


# --------------------------------------------------------------------------- against real battles


def _real(attackers: Sequence[str], defenders: Sequence[str], battles: int) -> Counter[str]:
    from caedes_bot.rules.combat.battle import answer_by_default
    from caedes_bot.rules.combat.events import BattleEnded
    from caedes_bot.rules.combat.orders import FightBattle, handle_fight_battle
    from caedes_bot.rules.dice import SeededDice
    from tests.rules.combat.test_magic import setup

    rs, base = setup(attackers, defenders)
    seen: Counter[str] = Counter()
    for seed in range(battles):
        st = base.clone()
        dice = SeededDice(f"odds-magic-{seed}")
        events = handle_fight_battle(st, FightBattle("DAW", "x"), rs, dice)
        while st.battle is not None:
            events += answer_by_default(st, rs, dice, st.pending[0])
        (end,) = [e for e in events if isinstance(e, BattleEnded)]
        seen[end.result.value] += 1
    return seen


@pytest.mark.parametrize(
    ("attackers", "defenders"),
    [
        (["ENG", "CLERIC", "INF"], ["ORCI", "ORCBREATH", "ORCARROW"]),
        (["SHAMAN", "FORT"], ["ORCBREATH", "ORCI"]),
    ],
)
def test_odds_with_magic_agree_with_real_battles(
    attackers: list[str], defenders: list[str]
) -> None:
    """Breath on both sides, an Abjurer, an Invoker, missile and Fortitude: the exact odds
    against 1,000 battles fought through the real battle path with every decision by its
    default (R-PBP-DEAD-04), within 4.5 standard deviations."""
    from caedes_bot.rules.odds import battle_odds
    from tests.rules.combat.test_magic import setup

    rs, st = setup(attackers, defenders)
    o = battle_odds(st, rs, "x")
    assert o.method == "exact" and o.unsupported == ()
    battles = 1000
    seen = _real(attackers, defenders, battles)
    for result, p in (
        (BattleResult.ATTACKER_WON, o.attacker_wins),
        (BattleResult.DEFENDER_HELD, o.defender_holds),
        (BattleResult.BOTH_DESTROYED, o.both_destroyed),
    ):
        sigma = (p * (1 - p) / battles) ** 0.5
        assert abs(seen[result.value] / battles - p) <= 4.5 * sigma + 1e-9, (result, seen, o)
