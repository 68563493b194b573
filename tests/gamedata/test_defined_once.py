"""Game facts that both the loader and the rules core need are defined once, in the game data
model, and the rules core reads them from there."""

from __future__ import annotations

from caedes_bot.gamedata import model
from caedes_bot.rules import movement, muster


def test_movement_allowance_is_the_model_s_r_move_01() -> None:
    """R-MOVE-01, R-ATTR-QUICK-01, R-ATTR-SLOW-01: one definition of the allowance."""
    assert movement.movement_allowance is model.movement_allowance


def test_muster_terrains_are_the_model_s_r_muster_06() -> None:
    """R-MUSTER-06, R-RACE-*: the muster step has no table of its own; the limited races of
    R-MUSTER-04 are those that muster on their terrain."""
    assert muster.MUSTER_TERRAINS is model.MUSTER_TERRAINS
    assert frozenset(model.MUSTER_TERRAINS) == model.LIMITED_RACES
