"""Naval battles and what ships change in any battle (R-COMBAT-14, R-COMBAT-06, R-COMBAT-15,
R-MOVE-13, R-MOVE-19, R-MOVE-20, R-ATTR-WATER-02).

A naval battle is fought with the same procedure as any other (:mod:`.battle`), in a sea zone
where the active faction's ships sailed into a non-pact faction's ships (R-MOVE-18). What
differs is worked out here:

* the sides (:func:`naval_sides`): the attacker's ships there with the units aboard them, and
  every unit there of a faction that is not its pact partner (their ships and cargo). Carried
  units fight with their own values (R-COMBAT-14, option ``cargo_fights``; when it is off
  they do not fight but still go down with their ship). Ships attack only ships and the units
  aboard them (R-ATTR-WATER-02), so a ship never joins a land battle on the attacking side,
  and ships in a sea zone never join one at all (R-COMBAT-15);
* the hand-out of hits among joint defenders starts with the faction with most units there
  (there is no owner at sea), ties in turn order (R-COMBAT-06, :func:`first_defender`);
* a ship that goes down takes the units aboard it (R-MOVE-19, :func:`lost_with_ships`); they
  are not extra hits;
* cavalry based on a ship attacks at -3: aboard (a naval attack), or when it landed to attack
  (R-MOVE-20, option ``landing_cavalry_penalty``; :func:`attack_penalty`);
* a ship withdraws to the water it sailed in from, with its cargo (R-COMBAT-08,
  :func:`may_withdraw_at_sea`);
* a won sea zone changes no owner: sea zones have none (R-COMBAT-11).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from caedes_bot.gamedata.model import BaseType, Ruleset
from caedes_bot.gamedata.water import water_neighbours
from caedes_bot.rules.state import GameState, Side, Unit

#: Attack lost by cavalry based on a ship (R-MOVE-20).
SHIP_CAVALRY_PENALTY = 3


def is_naval(ruleset: Ruleset, space: str) -> bool:
    """Whether a battle in ``space`` is a naval battle (a sea zone, R-COMBAT-14)."""
    return not ruleset.map.is_province(space)


def _fights(state: GameState, unit: Unit) -> bool:
    """A carried unit fights only with ``cargo_fights`` (R-COMBAT-14)."""
    return unit.aboard is None or state.options.cargo_fights


def _swims(ruleset: Ruleset, unit: Unit) -> bool:
    """A land unit at sea and not aboard: an Amphibian attacking there (R-ATTR-AMPH-02)."""
    return unit.aboard is None and ruleset.kind(unit.kind).base_type in (
        BaseType.INFANTRY,
        BaseType.CAVALRY,
    )


def naval_sides(
    state: GameState, ruleset: Ruleset, space: str, attacker: str
) -> tuple[list[Unit], list[Unit]]:
    """The units of each side of a naval battle ``attacker`` fights in sea zone ``space``
    (R-COMBAT-14, R-ATTR-WATER-02), each in id order: its ships there and, with
    ``cargo_fights``, its units aboard them, and its Amphibian units attacking there with
    their own values (R-ATTR-AMPH-02); every unit there of a non-partner faction (cargo
    only with ``cargo_fights``). For reading only: the units are not copied."""
    here = sorted((u for u in state.peek_units() if u.location == space), key=lambda u: u.id)
    ships = {
        u.id
        for u in here
        if u.owner == attacker and ruleset.kind(u.kind).base_type is BaseType.SHIP
    }
    attackers = [
        u
        for u in here
        if u.owner == attacker
        and (u.id in ships or (u.aboard in ships and _fights(state, u)) or _swims(ruleset, u))
    ]
    defenders = [u for u in here if not state.are_partners(u.owner, attacker) and _fights(state, u)]
    return attackers, defenders


def fighting_defenders(state: GameState, defending: Iterable[Unit]) -> list[Unit]:
    """``defending`` without the carried units that do not fight (option ``cargo_fights`` off,
    R-COMBAT-14); river-edge ships' cargo defends in a land battle only when cargo fights
    (R-MOVE-13)."""
    return [u for u in defending if _fights(state, u)]


def first_defender(
    state: GameState, ruleset: Ruleset, space: str, defending: Sequence[Unit]
) -> str | None:
    """The defending faction hits are handed out from first (R-COMBAT-06): the owner of a
    province; at sea the faction with most defending units there, ties in turn order."""
    if ruleset.map.is_province(space):
        return state.owner(space)
    counts = Counter(u.owner for u in defending)
    if not counts:
        return None
    rank = {code: n for n, code in enumerate(ruleset.turn_order)}
    return min(counts, key=lambda code: (-counts[code], rank.get(code, len(rank)), code))


def lost_with_ships(state: GameState, ruleset: Ruleset, gone: Iterable[int]) -> list[int]:
    """Ids of the units aboard the ships among ``gone`` that are not in ``gone`` themselves,
    in id order: they go down with their ship (R-MOVE-19)."""
    sunk = {
        uid
        for uid in gone
        if str(uid) in state.units
        and ruleset.kind(state.peek_unit(uid).kind).base_type is BaseType.SHIP
    }
    if not sunk:
        return []
    gone_set = set(gone)
    return sorted(u.id for u in state.peek_units() if u.aboard in sunk and u.id not in gone_set)


def attack_penalty(state: GameState, ruleset: Ruleset, unit: Unit, side: Side) -> int:
    """What ``unit`` loses from its attack value on ``side`` (R-MOVE-20): 3 for attacking
    cavalry that is aboard a ship, or that landed from one this turn to attack (option
    ``landing_cavalry_penalty``); else 0."""
    if side is not Side.ATTACKER:
        return 0
    if ruleset.kind(unit.kind).base_type is not BaseType.CAVALRY:
        return 0
    if unit.aboard is not None:
        return SHIP_CAVALRY_PENALTY
    if unit.landed and state.options.landing_cavalry_penalty:
        return SHIP_CAVALRY_PENALTY
    return 0


def may_withdraw_at_sea(state: GameState, ruleset: Ruleset, unit: Unit, space: str) -> bool:
    """Whether attacking ``unit`` may withdraw from the naval battle in ``space`` (R-COMBAT-08):
    a ship that sailed in from a linked water space, and the units aboard it with it; an
    Amphibian unit back to the province on the coast it came from (R-ATTR-AMPH-02)."""
    if _swims(ruleset, unit):
        return unit.entered_from is not None and space in ruleset.map.seas_of(unit.entered_from)
    ship = unit
    if unit.aboard is not None:
        found = state.units.get(str(unit.aboard))
        if found is None:
            return False
        ship = found
    if ruleset.kind(ship.kind).base_type is not BaseType.SHIP:
        return False
    origin = ship.entered_from
    return origin is not None and origin in water_neighbours(ruleset.map, space)
