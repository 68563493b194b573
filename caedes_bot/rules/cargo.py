"""Cargo: land units going aboard ships and landing from them in step 6 (R-MOVE-14..17,
R-MOVE-20, R-COMBAT-09).

What a ship carries (R-MOVE-14): one cavalry unit or up to two infantry units; never a Tower
(or any Fortification) and never a ship. Carried units stand on their ship's space with
``aboard`` naming it, move with it (:mod:`caedes_bot.rules.ships`) and may stay aboard from turn
to turn.

The boarding move (R-MOVE-15), each part at most once a turn per unit, given as orders of their
own before, between or after the ship's moves:

* :class:`Embark` takes land units from their province onto a ship on a sea zone on its coast
  or on one of its navigable river edges. It is the unit's move: a unit that has moved this
  turn, was mustered this turn or has embarked already may not. Only the faction's own ships
  carry its units, or a pact partner's with the option ``carry_pact_units``. An order that
  would put more aboard than the ship has room for is refused whole.
* :class:`Disembark` lands units from their ship into a province touching the ship's space (the
  coast of the sea zone, or either province of the river edge). It costs nothing and ends the
  unit's movement; entire-movement terrain costs do not apply, prohibitions do (R-MOVE-16:
  cavalry never lands in mountains without Mountainlore). A unit that started the turn aboard
  may land; one that has landed may not go aboard again this turn (its move has ended).
* Landing into a province holding units of a non-pact faction (or, with
  ``river_ship_occupies``, such ships on its river edges) is an amphibious assault (R-MOVE-17):
  the units attack there in step 7 and may not withdraw (R-COMBAT-09: they entered from the
  water, not over a land border). Cavalry that lands to attack fights at -3 attack for the
  whole battle (R-MOVE-20, option ``landing_cavalry_penalty``; :mod:`caedes_bot.rules.combat`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import Attribute, BaseType, Ruleset, Terrain, UnitKind
from caedes_bot.gamedata.water import province_waters, water_shores
from caedes_bot.rules.combat.arithmetic import combat_terrain_key
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalMove, RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement import Entry, entry_cost, parse_terrain
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import capture, hostile_units
from caedes_bot.rules.ships import cargo_of, is_ship, unit_label
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.rules.steps import Accepts, StepSpec

#: Room a ship has, and room each land unit type takes (R-MOVE-14).
SHIP_ROOM = 2
CARGO_ROOM = {BaseType.INFANTRY: 1, BaseType.CAVALRY: 2}


def room_taken(state: GameState, ruleset: Ruleset, ship_id: int) -> int:
    """Room used aboard ship ``ship_id``: 1 per infantry, 2 per cavalry (R-MOVE-14)."""
    return sum(CARGO_ROOM[ruleset.kind(u.kind).base_type] for u in cargo_of(state, ship_id))


def may_carry(state: GameState, ship: Unit, faction: str) -> bool:
    """Whether ``ship`` may carry ``faction``'s units: its own, or a pact partner's with the
    option ``carry_pact_units`` (R-MOVE-15)."""
    if ship.owner == faction:
        return True
    return state.options.carry_pact_units and state.are_partners(ship.owner, faction)


# --------------------------------------------------------------------------- orders, events


@dataclass(frozen=True, slots=True)
class Embark(Order):
    """Put land units of the active faction aboard ship ``ship_id`` (R-MOVE-14, R-MOVE-15)."""

    label = "Going aboard"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    unit_ids: tuple[int, ...]
    ship_id: int


@dataclass(frozen=True, slots=True)
class Disembark(Order):
    """Land units of the active faction from their ship into province ``destination``
    (R-MOVE-15..17); ``terrain`` names the terrain they use there (R-MOVE-03), if any."""

    label = "Landing"
    undoable = True

    unit_ids: tuple[int, ...]
    destination: str
    terrain: str | None = None


@dataclass(frozen=True, slots=True)
class UnitsEmbarked(Event):
    """Units of ``faction`` went aboard ``ship`` on ``space`` from ``origin`` (R-MOVE-15)."""

    faction: str
    unit_ids: tuple[int, ...]
    ship: int
    origin: str
    space: str


@dataclass(frozen=True, slots=True)
class UnitsLanded(Event):
    """Units of ``faction`` landed from ``ship`` on ``space`` into ``destination``
    (R-MOVE-15); ``attack``: an amphibious assault, no withdrawal (R-MOVE-17, R-COMBAT-09)."""

    faction: str
    unit_ids: tuple[int, ...]
    ship: int
    space: str
    destination: str
    attack: bool
    terrain: Terrain | None = None


# --------------------------------------------------------------------------- checks


def _own_unit(state: GameState, ruleset: Ruleset, faction: str, uid: int) -> Unit:
    unit = state.units.get(str(uid))
    if unit is None:
        raise RuleViolation(
            f"There is no unit #{uid} on the board.",
            rule="R-MOVE-15",
            allowed="your units by number, as the units option lists them (#3, #4)",
        )
    if unit.owner != faction:
        raise RuleViolation(
            f"{unit_label(ruleset, unit)} belongs to {unit.owner}, not {faction}.",
            rule="R-TURN-03",
            allowed="move your own units",
        )
    return unit


def _check_ids(unit_ids: Sequence[int], what: str) -> None:
    if not unit_ids:
        raise RuleViolation(
            f"Name at least one unit to {what}.",
            rule="R-MOVE-15",
            allowed="one or more units, like #3, #4",
        )
    if len(set(unit_ids)) != len(unit_ids):
        raise RuleViolation(
            "A unit is listed twice in one order.",
            rule="R-MOVE-15",
            allowed="each unit once, like #3, #4",
        )


def why_not_aboard(state: GameState, ruleset: Ruleset, unit: Unit) -> IllegalMove | None:
    """Why land unit ``unit`` may not go aboard a ship now, whatever the ship, or ``None``
    (R-MOVE-14, R-MOVE-15, R-MOVE-22, R-ATTR-FORT-01)."""
    kind = ruleset.kind(unit.kind)
    label = unit_label(ruleset, unit)
    if kind.base_type is BaseType.TOWER or kind.has(Attribute.FORTIFICATION):
        return IllegalMove(
            f"{label} is a Fortification and never boards a ship.",
            rule="R-MOVE-14",
            allowed="infantry or cavalry units",
        )
    if kind.base_type is BaseType.SHIP:
        return IllegalMove(
            f"{label} is a ship; a ship never carries a ship.",
            rule="R-MOVE-14",
            allowed="infantry or cavalry units; ships sail with /sail",
        )
    if unit.aboard is not None:
        return IllegalMove(
            f"{label} is aboard a ship already.",
            rule="R-MOVE-15",
            allowed="land it with /disembark, or board units that are ashore",
        )
    if unit.embarked:
        return IllegalMove(
            f"{label} has gone aboard once this turn already.",
            rule="R-MOVE-15",
            allowed="board units that have not boarded this turn",
        )
    if unit.move_ended and unit.movement_used == 0 and not unit.path:
        return IllegalMove(
            f"{label} was mustered this turn and may board from its faction's next turn.",
            rule="R-MOVE-22",
            allowed="board units mustered before this turn",
        )
    if unit.attacking or unit.move_ended or unit.movement_used > 0:
        return IllegalMove(
            f"{label} has moved this turn; boarding is a unit's move for the turn.",
            rule="R-MOVE-15",
            allowed="board units that have not moved this turn",
        )
    return None


def ships_to_board(state: GameState, ruleset: Ruleset, unit: Unit) -> list[Unit]:
    """The ships ``unit`` may go aboard now, each with room for it, in id order (R-MOVE-14,
    R-MOVE-15); empty if it may not board at all."""
    if why_not_aboard(state, ruleset, unit) is not None:
        return []
    waters = set(province_waters(ruleset.map, unit.location))
    need = CARGO_ROOM[ruleset.kind(unit.kind).base_type]
    return [
        s
        for s in sorted(state.peek_units(), key=lambda u: u.id)
        if is_ship(ruleset, s)
        and s.location in waters
        and may_carry(state, s, unit.owner)
        and not s.attacking
        and room_taken(state, ruleset, s.id) + need <= SHIP_ROOM
    ]


def ships_for_all(state: GameState, ruleset: Ruleset, units: Sequence[Unit]) -> list[Unit]:
    """The ships every one of ``units`` may board now, with room for all of them together, in
    id order (R-MOVE-14: an order over capacity is refused whole)."""
    if not units:
        return []
    need = sum(CARGO_ROOM.get(ruleset.kind(u.kind).base_type, SHIP_ROOM + 1) for u in units)
    common: list[Unit] | None = None
    for unit in units:
        mine = ships_to_board(state, ruleset, unit)
        common = mine if common is None else [s for s in common if s in mine]
    return [s for s in common or [] if room_taken(state, ruleset, s.id) + need <= SHIP_ROOM]


def _check_embark(state: GameState, ruleset: Ruleset, order: Embark) -> tuple[Unit, list[Unit]]:
    _check_ids(order.unit_ids, "put aboard")
    ship = state.units.get(str(order.ship_id))
    if ship is None or not is_ship(ruleset, ship):
        what = "no ship" if ship is None else f"{unit_label(ruleset, ship)}, not a ship"
        raise RuleViolation(
            f"#{order.ship_id} is {what}.",
            rule="R-MOVE-14",
            allowed="one of your ships on the water next to the units, as the ship option lists",
        )
    ship_label = unit_label(ruleset, ship)
    if not may_carry(state, ship, order.faction):
        why = (
            "only your own ships carry your units (carry_pact_units is off)"
            if state.are_partners(ship.owner, order.faction)
            else "it is not yours"
        )
        raise IllegalMove(
            f"{ship_label} cannot carry your units: {why}.",
            rule="R-MOVE-15",
            allowed="one of your own ships, as the ship option lists them",
        )
    if ship.attacking:
        raise IllegalMove(
            f"{ship_label} has sailed into another faction's ships and must fight there first.",
            rule="R-MOVE-18",
            allowed="board another of your ships; this one fights in step 7",
        )
    units = [_own_unit(state, ruleset, order.faction, uid) for uid in order.unit_ids]
    where = ruleset.map.space_name(ship.location)
    for unit in units:
        refusal = why_not_aboard(state, ruleset, unit)
        if refusal is not None:
            raise refusal
        if ship.location not in province_waters(ruleset.map, unit.location):
            raise IllegalMove(
                f"{unit_label(ruleset, unit)} is in {ruleset.map.space_name(unit.location)}, "
                f"which does not touch {where}, where {ship_label} is.",
                rule="R-MOVE-15",
                allowed="board a ship on a sea zone on your province's coast or on one of its "
                "navigable river edges",
            )
    room = SHIP_ROOM - room_taken(state, ruleset, ship.id)
    need = sum(CARGO_ROOM[ruleset.kind(u.kind).base_type] for u in units)
    if need > room:
        raise IllegalMove(
            f"{ship_label} carries one cavalry unit or two infantry units; it has room for "
            f"{room} infantry now, and these need room for {need}. Nothing went aboard.",
            rule="R-MOVE-14",
            allowed=f"at most {room} infantry" + (" or 1 cavalry" if room == SHIP_ROOM else ""),
        )
    return ship, units


def handle_embark(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`Embark` (step 6, active faction; R-MOVE-14, R-MOVE-15). All or nothing.

    Raises:
        RuleViolation: unknown units or ship, not the faction's own.
        IllegalMove: a unit may not board, the ship is out of reach or may not carry it, or
            the units need more room than the ship has (refused whole, R-MOVE-14).
    """
    assert isinstance(order, Embark)
    ship, units = _check_embark(state, ruleset, order)
    origins = {u.location for u in units}
    events: list[Event] = []
    for origin in sorted(origins):
        ids = tuple(u.id for u in units if u.location == origin)
        for uid in ids:
            unit = state.unit(uid)
            unit.aboard = ship.id
            unit.location = ship.location
            unit.entered_from = origin
            unit.path = [*unit.path, ship.location]
            unit.embarked = True
            unit.terrain = None
        events.append(UnitsEmbarked(order.faction, ids, ship.id, origin, ship.location))
    return events


def _landing_terrain(
    ruleset: Ruleset, kind: UnitKind, space: str, destination: str, named: Terrain | None
) -> tuple[Terrain | None, str | None]:
    """How a unit of ``kind`` lands in ``destination`` (R-MOVE-03, R-MOVE-16): ``(terrain,
    None)`` with the terrain to store (the named one, else the best for its combat among those
    it may enter; ``None`` in a province of one terrain), or ``(None, reason)`` when it may
    enter none of them (a prohibition; entire-movement costs do not apply)."""
    province = ruleset.map.provinces[destination]
    pool = [named] if named is not None else list(province.terrains)
    allowed = []
    reason = "it may enter none of its terrains"
    for terrain in pool:
        cost = entry_cost(ruleset, kind, space, destination, terrain)
        if cost.entry is Entry.FORBIDDEN:
            reason = cost.reason
            continue
        allowed.append(terrain)
    if not allowed:
        return None, reason
    best = max(allowed, key=lambda t: (*combat_terrain_key(kind, t), -province.terrains.index(t)))
    return (best if len(province.terrains) > 1 else None), None


def landing_places(state: GameState, ruleset: Ruleset, unit: Unit) -> dict[str, bool]:
    """Provinces ``unit`` may land in now from its ship, each ``True`` if landing there is an
    amphibious assault (R-MOVE-15..17), in id order; empty if it may not land."""
    if unit.aboard is None or unit.landed:
        return {}
    ship = state.units.get(str(unit.aboard))
    if ship is None or ship.attacking:
        return {}
    kind = ruleset.kind(unit.kind)
    out: dict[str, bool] = {}
    for province in water_shores(ruleset.map, ship.location):
        _terrain, reason = _landing_terrain(ruleset, kind, ship.location, province, None)
        if reason is None:
            out[province] = bool(hostile_units(state, ruleset, province, unit.owner))
    return out


def _check_disembark(
    state: GameState, ruleset: Ruleset, order: Disembark
) -> list[tuple[Unit, Terrain | None]]:
    _check_ids(order.unit_ids, "land")
    game_map = ruleset.map
    destination = order.destination
    if not game_map.is_province(destination):
        raise IllegalMove(
            f"Units land in a province, not on {game_map.space_name(destination)}.",
            rule="R-MOVE-15",
            allowed="a province touching the ship's sea zone or river edge",
        )
    named = parse_terrain(order.terrain)
    name = game_map.space_name(destination)
    province = game_map.provinces[destination]
    if named is not None and named not in province.terrains:
        have = ", ".join(t.value for t in province.terrains)
        raise IllegalMove(
            f"{name} has no {named.value}; its terrain is {have}.",
            rule="R-MOVE-03",
            allowed=f"name one of: {have}, or none",
        )
    out: list[tuple[Unit, Terrain | None]] = []
    for uid in order.unit_ids:
        unit = _own_unit(state, ruleset, order.faction, uid)
        label = unit_label(ruleset, unit)
        if unit.aboard is None:
            raise IllegalMove(
                f"{label} is not aboard a ship.",
                rule="R-MOVE-15",
                allowed="units aboard a ship, as the units option lists them; land units move with /move",
            )
        if unit.landed:
            raise IllegalMove(
                f"{label} has landed once this turn already.",
                rule="R-MOVE-15",
                allowed="land units that have not landed this turn",
            )
        ship = state.unit(unit.aboard)
        if ship.attacking:
            raise IllegalMove(
                f"{label}'s ship has sailed into another faction's ships and must fight there "
                "first.",
                rule="R-MOVE-18",
                allowed="land them after the battle, next turn",
            )
        shores = water_shores(game_map, ship.location)
        if destination not in shores:
            raise IllegalMove(
                f"{name} does not touch {game_map.space_name(ship.location)}, where "
                f"{label} is aboard.",
                rule="R-MOVE-15",
                allowed="land in " + (", ".join(game_map.space_name(p) for p in shores) or "none"),
            )
        terrain, reason = _landing_terrain(
            ruleset, ruleset.kind(unit.kind), ship.location, destination, named
        )
        if reason is not None:
            raise IllegalMove(
                f"{label} cannot land in {name}: {reason}.",
                rule="R-MOVE-16",
                allowed="another province the ship touches, or another terrain there",
            )
        out.append((unit, terrain))
    return out


def handle_disembark(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`Disembark` (step 6, active faction; R-MOVE-15..17). All or nothing.

    Raises:
        RuleViolation: unknown units, not the faction's own.
        UnknownName: unknown terrain.
        IllegalMove: a unit is not aboard or has landed already, the province does not touch
            the ship's space, or the unit may not enter it (R-MOVE-16).
    """
    assert isinstance(order, Disembark)
    landing = _check_disembark(state, ruleset, order)
    destination = order.destination
    attack = bool(hostile_units(state, ruleset, destination, order.faction))
    groups: dict[tuple[int, str, Terrain | None], list[int]] = {}
    for unit, terrain in landing:
        assert unit.aboard is not None
        ship = state.peek_unit(unit.aboard)
        groups.setdefault((ship.id, ship.location, terrain), []).append(unit.id)
        mine = state.unit(unit.id)
        mine.aboard = None
        mine.entered_from = ship.location
        mine.location = destination
        mine.path = [*mine.path, destination]
        mine.landed = True
        mine.move_ended = True
        mine.attacking = attack
        mine.terrain = terrain
    events: list[Event] = [
        UnitsLanded(order.faction, tuple(ids), ship_id, space, destination, attack, terrain)
        for (ship_id, space, terrain), ids in groups.items()
    ]
    if state.options.capture_on_entry and not attack:
        events += capture(state, destination, order.faction)  # R-COLL-02 option
    return events


#: Cargo orders of step 6 (R-MOVE-14..17).
SPEC = StepSpec(
    "cargo",
    accepts=(
        Accepts(Embark, handle_embark, steps=(Step.MOVE,)),
        Accepts(Disembark, handle_disembark, steps=(Step.MOVE,)),
    ),
)
