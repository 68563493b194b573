"""Who owns a province and who stands in it: captures, owners, garrisons (R-COLL-01,
R-COLL-02, R-COLL-04, R-MOVE-02, R-MOVE-13, R-COMBAT-01).

A province changes hands only through :func:`capture` (R-COLL-02): when the attacker wins a
battle there (R-COMBAT-11), at the end of step 7 for every province the active faction stands
in unopposed (:func:`capture_unopposed`), or on entry under the option ``capture_on_entry``. A
province already held by the faction or one of its pact partners never changes hands. Who
stands against a faction in a province is :func:`hostile_units`; whether a faction holds a
province with a garrison (option ``income_requires_garrison``) is :func:`garrisoned`.
"""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import (
    GameState,
    Unit,
)


@dataclass(frozen=True, slots=True)
class ProvinceCaptured(Event):
    """``province`` passed from ``previous_owner`` to ``faction`` (R-COLL-02): by winning
    ``battle`` (R-COMBAT-11), or at the end of step 7 when ``battle`` is ``None``."""

    province: str
    faction: str
    previous_owner: str | None
    battle: int | None = None


def hostile_units(state: GameState, ruleset: Ruleset, province: str, faction: str) -> list[Unit]:
    """Units in ``province`` of factions that are not ``faction``'s pact partners (R-MOVE-02,
    R-COMBAT-01), plus, with the option ``river_ship_occupies``, such factions' units on river
    edges of the province (R-MOVE-13). In id order."""
    return [state.unit(u.id) for u in peek_hostile_units(state, ruleset, province, faction)]


def peek_hostile_units(
    state: GameState, ruleset: Ruleset, province: str, faction: str
) -> list[Unit]:
    """:func:`hostile_units` for reading only: the units are not copied, so the caller must not
    change them (they may be shared with the state this one was cloned from)."""
    spaces = {province}
    if state.options.river_ship_occupies:
        spaces |= {edge.id for edge in ruleset.map.river_edges_of(province)}
    there = [u for u in state.peek_units() if u.location in spaces]
    # each owner there asked once whether it is a partner (a battle's side is a few owners)
    foes = {owner for owner in {u.owner for u in there} if not state.are_partners(owner, faction)}
    return sorted([u for u in there if u.owner in foes], key=_unit_id)


def _unit_id(unit: Unit) -> int:
    return unit.id


def capture(
    state: GameState, province: str, faction: str, *, battle: int | None = None
) -> list[Event]:
    """``province`` passes to ``faction`` unless it already belongs to ``faction`` or a pact
    partner (R-COLL-02): after a battle won there (``battle``, R-COMBAT-11), at the end of step
    7, or on entry under ``capture_on_entry``. Mutates ``state``; returns the
    :class:`ProvinceCaptured`, or nothing."""
    owner = state.owner(province)
    if owner is not None and state.are_partners(owner, faction):
        return []
    state.owners[province] = faction
    return [ProvinceCaptured(province, faction, owner, battle=battle)]


def capture_unopposed(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """R-COLL-02(b): every province where ``faction`` has units and no unit of a faction that is
    not its pact partner stands, and which neither it nor a partner owns, passes to it. In
    province id order. Mutates ``state``; returns the :class:`ProvinceCaptured` events."""
    events: list[Event] = []
    held = sorted(
        {u.location for u in state.units_of(faction) if ruleset.map.is_province(u.location)}
    )
    for province in held:
        if hostile_units(state, ruleset, province, faction):
            continue
        events += capture(state, province, faction)
    return events


def garrisoned(state: GameState, faction: str, province: str) -> bool:
    """A unit of ``faction`` stands in ``province`` (or the garrison rule is off) (R-COLL-04)."""
    if not state.options.income_requires_garrison:
        return True
    return any(u.owner == faction and u.location == province for u in state.peek_units())


def held_provinces(state: GameState, faction: str) -> list[str]:
    """Provinces ``faction`` owns now, with a garrison where the option asks for one."""
    return sorted(
        p for p, owner in state.owners.items() if owner == faction and garrisoned(state, faction, p)
    )
