"""A step's dice luck as the step counted it while rolling (issue 9, decision 0013, seventh
pass): each side's normal dice, those that hit and the hits expected in tenths (R-GEN-02),
kept in the battle's memo by the step (:mod:`.battle`) and read by the statistics
(:mod:`caedes_bot.rules.statistics`) for the step's event, instead of counted again die by die.
"""

from __future__ import annotations

from caedes_bot.rules.state import Battle, BattleDie

#: a step's dice luck counted as its dice were rolled (:func:`keep_step_luck`), in the memo
_STEP_LUCK = "step luck"
#: how many steps' luck the memo keeps: an order fights a few steps at most before it waits
_LUCK_KEPT = 4

#: (dice, hits, hits expected in tenths) of one side's normal dice of a step
Luck = tuple[int, int, int]


def keep_step_luck(
    battle: Battle, dice: tuple[BattleDie, ...], attacker: Luck, defender: Luck
) -> None:
    """Keep in ``battle``'s memo the dice luck of the step whose dice are ``dice`` (the
    tuple its :class:`~caedes_bot.rules.combat.events.BattleStepResolved` carries), counted
    as they were rolled: for each side, its dice, those that hit and the hits expected in
    tenths (each target held to 0..10, R-GEN-02). Only for a step whose every die is a normal
    die that stands, the attacker's first (the roster's dice, no Illusionist fighting). The
    last few steps' are kept (an order may fight several steps), in a new tuple each time:
    the memo's values are shared with the clones of the state."""
    memo = battle.memo()
    held: tuple[tuple[tuple[BattleDie, ...], Luck, Luck], ...]
    held = memo.get(_STEP_LUCK, ())  # type: ignore[assignment]
    memo[_STEP_LUCK] = ((dice, attacker, defender), *held[: _LUCK_KEPT - 1])


def kept_step_luck(battle: Battle | None, dice: tuple[BattleDie, ...]) -> tuple[Luck, Luck] | None:
    """The attacker's and the defender's luck :func:`keep_step_luck` kept for the step whose
    dice are ``dice`` (the same tuple), or ``None`` (not one of the steps kept)."""
    memo = battle.__dict__.get("_memo") if battle is not None else None
    if memo is None:
        return None
    for held, attacker, defender in memo.get(_STEP_LUCK, ()):
        if held is dice:
            return attacker, defender
    return None
