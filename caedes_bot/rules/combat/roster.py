"""Who is still fighting on each side of a battle: taking units off the board during a battle
(R-COMBAT-04..07, R-ATTR-MERC-01). Everything that removes a unit in the middle of a battle goes
through :func:`remove_units`, so that whatever else hangs on a unit's loss happens in one place."""

from __future__ import annotations

from collections.abc import Iterable

from caedes_bot.rules.state import Battle, GameState


def remove_units(state: GameState, battle: Battle, unit_ids: Iterable[int]) -> None:
    """Take ``unit_ids`` off the board and out of both sides of ``battle`` (R-COMBAT-04,
    R-COMBAT-07); the units aboard a ship among them go down with it (R-MOVE-19). Ids not on
    the board are ignored. Mutates ``state`` and ``battle``."""
    gone = set(unit_ids)
    if not gone:
        return
    gone |= {u.id for u in state.peek_units() if u.aboard is not None and u.aboard in gone}
    units = state.units
    for uid in gone:
        key = str(uid)
        if key in units:
            del units[key]  # not pop: that would copy a shared unit only to drop it
    battle.attacker_units = [u for u in battle.attacker_units if u not in gone]
    battle.defender_units = [u for u in battle.defender_units if u not in gone]
