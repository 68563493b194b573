"""Who is still fighting on each side of a battle: taking units off the board during a battle
(R-COMBAT-04..07, R-ATTR-MERC-01). Everything that removes a unit in the middle of a battle goes
through :func:`remove_units`, so that whatever else hangs on a unit's loss happens in one place."""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

from caedes_bot.rules.state import Battle, BattleNote, Enchantment, GameState, NoteKind


def remove_units(
    state: GameState, battle: Battle, unit_ids: Iterable[int], *, ships: bool = True
) -> list[int]:
    """Take ``unit_ids`` off the board and out of both sides of ``battle`` (R-COMBAT-04,
    R-COMBAT-07); the units aboard a ship among them go down with it (R-MOVE-19). Ids not on
    the board are ignored. Units enchanted by a unit removed go back to the other side, their
    owner's (R-MAGIC-ENCH-03). ``ships=False``: the caller knows that none of ``unit_ids`` is
    a ship, so the board is not searched for units aboard them.

    Returns:
        The ids of the units that went back, in id order. Mutates ``state`` and ``battle``.
    """
    gone = set(unit_ids)
    if not gone:
        return []
    if ships and not gone.isdisjoint(map(_ABOARD, state.peek_units())):  # mostly none
        gone |= {u.id for u in state.peek_units() if u.aboard is not None and u.aboard in gone}
    units = state.units
    for uid in gone:
        key = str(uid)
        if key in units:
            del units[key]  # not pop: that would copy a shared unit only to drop it
    battle.attacker_units = [u for u in battle.attacker_units if u not in gone]
    battle.defender_units = [u for u in battle.defender_units if u not in gone]
    if not battle.enchanted:
        return []
    back: list[int] = []
    kept: list[Enchantment] = []
    for e in battle.enchanted:
        if e.unit in gone:
            continue
        if e.enchanter in gone:
            back.append(e.unit)
            move_to_other_side(battle, e.unit)
        else:
            kept.append(e)
    battle.enchanted = kept
    if back:
        owners = sorted({state.peek_unit(u).owner for u in back if str(u) in state.units})
        battle.notes = [
            *battle.notes,
            *(
                BattleNote(
                    battle.round,
                    NoteKind.REVERTED,
                    owner,
                    units=tuple(u for u in sorted(back) if state.peek_unit(u).owner == owner),
                )
                for owner in owners
            ),
        ]
    return sorted(back)


#: a unit's ship, ``None`` when it is not aboard one
_ABOARD = attrgetter("aboard")


def move_to_other_side(battle: Battle, unit_id: int) -> None:
    """Move ``unit_id`` from the unit list of its side to the other's (R-MAGIC-ENCH-01, -03)."""
    if unit_id in battle.attacker_units:
        battle.attacker_units = [u for u in battle.attacker_units if u != unit_id]
        battle.defender_units = [*battle.defender_units, unit_id]
    elif unit_id in battle.defender_units:
        battle.defender_units = [u for u in battle.defender_units if u != unit_id]
        battle.attacker_units = [*battle.attacker_units, unit_id]
