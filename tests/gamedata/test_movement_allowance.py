"""Movement allowances (R-MOVE-01, R-ATTR-QUICK-01, R-ATTR-SLOW-01).

Expected numbers come from the unit-type table (Infantry M1, Cavalry M2, Tower never moves) and
the modifiers of R-ATTR-QUICK-01 and R-ATTR-SLOW-01, worked out by hand.
"""

from __future__ import annotations

from caedes_bot.gamedata.model import movement_allowance
from tests.rules.builders import kind

INF = kind("INF", "DAW")
CAV = kind("CAV", "DAW", "cavalry")
TOWER = kind("TWR", "DAW", "tower")


def test_r_move_01_allowance_is_type_move() -> None:
    """R-MOVE-01: a unit's move allowance is its type's move (Infantry 1, Cavalry 2); a Tower never
    moves.
    """
    assert movement_allowance(INF) == 1
    assert movement_allowance(CAV) == 2
    assert movement_allowance(TOWER) == 0


def test_r_attr_quick_01_adds_one_move() -> None:
    """R-ATTR-QUICK-01: Quick adds 1 to the move allowance."""
    assert movement_allowance(kind("SC", "WEL", attributes=["quick"])) == 2  # Scouts
    assert movement_allowance(kind("CH", "HEL", "cavalry", ["quick"])) == 3  # Chargers


def test_r_attr_slow_01_takes_one_move_never_below_one() -> None:
    """R-ATTR-SLOW-01: Slow takes 1 off the move allowance, never below 1."""
    assert movement_allowance(kind("FE", "WEL", "cavalry", ["slow"])) == 1  # Fire Elemental
    assert movement_allowance(kind("SI", "DAW", attributes=["slow"])) == 1  # 1 - 1 floors at 1
