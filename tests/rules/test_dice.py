"""Dice (R-GEN-01, R-GEN-08): faces 1..10, labelled rolls, exact replay from (seed, counter)."""

import pytest

from caedes_bot.rules.dice import DiceScriptError, ScriptedDice, SeededDice


def test_r_gen_01_d10_reads_1_to_10_never_0() -> None:
    """R-GEN-01: a d10 reads 1 to 10, never 0."""
    dice = SeededDice("seed")
    values = dice.roll(10, 2000, reason="test")
    assert set(values) == set(range(1, 11))


def test_seeded_dice_resume_from_counter_replays_exactly() -> None:
    first = SeededDice("abc").roll(10, 30, reason="a")
    resumed = SeededDice("abc", counter=10)
    assert resumed.roll(10, 20, reason="b") == first[10:]
    assert resumed.count == 20
    assert resumed.counter == 30


def test_r_gen_08_every_roll_is_labelled() -> None:
    """R-GEN-08: every roll is kept with the purpose it was rolled for."""
    dice = SeededDice("x")
    dice.roll(10, 3, reason="missile step, attacker")
    assert [r.reason for r in dice.history] == ["missile step, attacker"]
    assert len(dice.history[0].values) == 3


def test_scripted_dice_fail_on_unscripted_roll_and_leftovers() -> None:
    dice = ScriptedDice([3, 10])
    assert dice.roll(10, 1, reason="a") == (3,)
    with pytest.raises(DiceScriptError):
        dice.roll(10, 2, reason="b")
    with pytest.raises(DiceScriptError):
        dice.assert_exhausted()
    with pytest.raises(DiceScriptError):
        ScriptedDice([11]).roll(10, 1, reason="c")
