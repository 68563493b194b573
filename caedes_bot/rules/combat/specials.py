"""The dice of the special actions (R-COMBAT-12): breath (R-ATTR-BREATH-01..04), invoker
(R-MAGIC-INV-01) and enchant (R-MAGIC-ENCH-01) dice, what each face does, and the expected hits
that decide the default declaration of a missed deadline.

A special die's target ignores every value modifier (Elite, Veteran, lore, Predator, the Hero's
leadership bonus): breath 4, invoker 2, enchant 4. Fear and Inspiring shift the breath and
invoker targets in round 1 as they shift normal dice (R-ATTR-FEAR-01, R-ATTR-INSP-01); the
enchant die is never shifted (R-MAGIC-ENCH-03). Mighty does not double breath or invoker dice
(R-ATTR-MIGHTY-01, R-ATTR-BREATH-03; option ``breath_mighty_dice``: 6 lets a Mighty breather
roll six).
"""

from __future__ import annotations

from caedes_bot.gamedata.model import Attribute, Options, UnitKind
from caedes_bot.rules.state import BattleAction, DiePurpose

#: Faces of the combat die (R-GEN-01).
DIE_SIDES = 10
#: Breath: each die at or under 4 hits the enemy (R-ATTR-BREATH-01, ``breath_mode = under``).
BREATH_TARGET = 4
#: The breath face that hits the breather's own side (R-ATTR-BREATH-01).
BREATH_OWN_SIDE_FACE = 10
#: Breath dice rolled by one unit (R-ATTR-BREATH-01).
BREATH_DICE = 3
#: Invoker: five dice, each at or under 2 hits (R-MAGIC-INV-01).
INVOKER_DICE = 5
INVOKER_TARGET = 2
#: Enchanter: one die, 4 or less succeeds (R-MAGIC-ENCH-01).
ENCHANT_TARGET = 4

#: The special action of each attribute, in the order a unit with several would use them.
ACTION_OF: dict[Attribute, BattleAction] = {
    Attribute.BREATHWEAPON: BattleAction.BREATH,
    Attribute.ABJURER: BattleAction.ABJURE,
    Attribute.ENCHANTER: BattleAction.ENCHANT,
    Attribute.INVOKER: BattleAction.INVOKE,
}

#: The die purpose of each action that rolls (the Abjurer does not roll, R-MAGIC-ABJ-01).
PURPOSE_OF: dict[BattleAction, DiePurpose] = {
    BattleAction.BREATH: DiePurpose.BREATH,
    BattleAction.ENCHANT: DiePurpose.ENCHANT,
    BattleAction.INVOKE: DiePurpose.INVOKE,
}


def special_action(kind: UnitKind) -> BattleAction | None:
    """The special action ``kind`` may declare (R-COMBAT-12), or ``None``. No kind in the
    order of battle has two; one with several would use the first of :data:`ACTION_OF`."""
    for attribute, action in ACTION_OF.items():
        if kind.has(attribute):
            return action
    return None


def special_dice(kind: UnitKind, action: BattleAction, options: Options) -> int:
    """How many dice ``kind`` rolls for ``action`` (R-ATTR-BREATH-01, -03, R-MAGIC-INV-01,
    R-MAGIC-ENCH-01); 0 for the Abjurer, which does not roll (R-MAGIC-ABJ-01)."""
    if action is BattleAction.BREATH:
        if kind.has(Attribute.MIGHTY) and options.breath_mighty_dice == 6:
            return 2 * BREATH_DICE
        return BREATH_DICE
    if action is BattleAction.INVOKE:
        return INVOKER_DICE
    if action is BattleAction.ENCHANT:
        return 1
    return 0


def special_target(action: BattleAction, shift: int, options: Options) -> int:
    """The target of ``action``'s dice with the Fear/Inspiring ``shift`` of round 1 (-1, 0,
    +1; R-ATTR-BREATH-02, R-MAGIC-INV-01, R-MAGIC-ENCH-03).

    Under ``breath_mode = over`` a breath die hits on the target or more, up to 9, so a better
    chance lowers the target: ``4 - shift``. Every other target is ``base + shift`` (the enchant
    die takes no shift).
    """
    if action is BattleAction.BREATH:
        if options.breath_mode == "over":
            return BREATH_TARGET - shift
        return BREATH_TARGET + shift
    if action is BattleAction.INVOKE:
        return INVOKER_TARGET + shift
    return ENCHANT_TARGET


def judge(purpose: DiePurpose, face: int, target: int, options: Options) -> tuple[bool, bool]:
    """What ``face`` does: ``(hit, own_side)`` (R-GEN-02, R-ATTR-BREATH-01).

    A normal, invoker or enchant die hits at or under its target. A breath die: a 10 hits the
    roller's own side and never the enemy (decided by the face alone, R-ATTR-BREATH-02); with
    ``breath_mode = under`` faces up to the target hit the enemy, with ``over`` faces from
    the target to 9.
    """
    if purpose is not DiePurpose.BREATH:
        return face <= target, False
    if face == BREATH_OWN_SIDE_FACE:
        return False, True
    if options.breath_mode == "over":
        return face >= target, False
    return face <= target, False


def enemy_hit_faces(purpose: DiePurpose, target: int, options: Options) -> int:
    """How many of the ten faces of one die of ``purpose`` against ``target`` hit the enemy
    (R-GEN-02, R-ATTR-BREATH-01): faces 1..target, or for breath dice only faces 1..9 (under)
    or target..9 (over)."""
    if purpose is not DiePurpose.BREATH:
        return min(max(target, 0), DIE_SIDES)
    top = DIE_SIDES - 1
    if options.breath_mode == "over":
        return max(0, top - max(target, 1) + 1)
    return min(max(target, 0), top)


def uses_action_by_default(
    kind: UnitKind,
    action: BattleAction,
    normal_target: int | None,
    shift: int,
    options: Options,
) -> bool:
    """Whether a unit uses ``action`` on a missed deadline (R-COMBAT-12, R-PBP-DEAD-04).

    Every action is used, except that Breathweapon and Invoker are used only when they give
    strictly more expected hits on the enemy than the unit's normal dice (``normal_target``
    for each of its normal dice, two if Mighty; ``None``: it would not roll). Own-side breath
    hits are not subtracted. Worked in whole faces (tenths of a hit), so ties are exact.
    """
    if action not in (BattleAction.BREATH, BattleAction.INVOKE):
        return True
    purpose = PURPOSE_OF[action]
    special = special_dice(kind, action, options) * enemy_hit_faces(
        purpose, special_target(action, shift, options), options
    )
    if normal_target is None:
        return special > 0
    normal = (2 if kind.has(Attribute.MIGHTY) else 1) * min(max(normal_target, 0), DIE_SIDES)
    return special > normal
