"""Movement over land, step 6 of a turn (R-MOVE-01..12, R-MOVE-22).

The active faction moves its infantry and cavalry BY DESTINATION: :class:`MoveUnits` names the
units and where they should go, and the rules find each unit's route.

How a route is found (:func:`plan_move`), for each unit on its own (R-MOVE-01):

* The unit has ``allowance - movement_used`` points left; its allowance is its type's move,
  +1 Quick, -1 Slow, never below 1 (:func:`~caedes_bot.gamedata.model.movement_allowance`, defined
  once in the game data model).
* Each step enters an adjacent province over a land border (river borders included) and costs
  1 point. Sea zones are never entered over land (R-MOVE-09); islands have no land border
  (R-MOVE-10).
* A province on the way must be empty or hold only units of the mover's faction or its pact
  partners (R-MOVE-02). Entering a province that holds units of any other faction (or, with the
  option ``river_ship_occupies``, borders a river edge holding such a faction's ships,
  R-MOVE-13) ends the move there and makes the unit an attacker in step 7 (R-MOVE-02).
* Some entries cost the unit's ENTIRE movement (R-MOVE-04): cavalry into forest without
  Woodlore (R-MOVE-05, R-ATTR-WOOD-01), cavalry into swamp unless Amphibian (R-MOVE-07,
  R-ATTR-AMPH-04), infantry into mountains, Mountainlore or not, and Mountainlore cavalry into
  mountains (R-MOVE-06, R-ATTR-MTN-01), and crossing a river edge unless Amphibian or Flying
  (R-MOVE-12); a river crossing into such terrain costs one single expenditure. Cavalry without
  Mountainlore never enters mountains (R-MOVE-06). Plains and hills cost nothing extra
  (R-MOVE-08). Under the default ``entire_move_mode = full_allowance`` such an entry is only
  possible as the unit's first step of the turn and uses its whole allowance; under
  ``stop_on_entry`` it may come at any point and the unit stops there. Either way the move ends.
* In a province with several terrains each unit uses one of them for movement and combat
  (R-MOVE-03). The order may name it; otherwise the rules take, among the terrains that make
  the move legal, the best for the unit's combat (Missile usable, then a lore bonus; see
  :func:`~caedes_bot.rules.combat.arithmetic.combat_terrain_key`), then the cheaper entry, then the
  province's own terrain order, and store it in :attr:`Unit.terrain`. With the option
  ``terrain_single_choice`` off, movement uses whichever terrain is cheapest and combat the
  best one, so only a named terrain is stored.
* Among legal routes the rules prefer the shortest, then the one passing through fewer
  provinces holding other factions' (partners') units, then the first by province ids.

Towers never move (R-ATTR-FORT-01); units whose movement has ended (entire movement paid,
attack made, withdrawn, or mustered this turn: R-MOVE-22) do not move again this turn. Ships,
boarding moves, flying moves, Amphibian crossings and teleportation are not built yet and are
refused with :class:`~caedes_bot.rules.errors.NotBuiltYet` naming their rule. A Flying unit may
always make a normal move instead (R-ATTR-FLY-02), which is what this module gives it.

What is legal now, for the edge to ask instead of trying orders: :func:`movable_units`,
:func:`legal_destinations`, :func:`plan_moves`, and :func:`why_stuck`, which names the reason a
unit cannot move as a :class:`Stuck` member carrying its rule.

An order with several units is all or nothing: if one of them cannot reach the destination the
whole order is refused, naming the unit, the reason with its rule ID, and where it can go.
"""

from __future__ import annotations

import difflib
import enum
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import (
    Attribute,
    BaseType,
    Ruleset,
    Terrain,
    UnitKind,
    movement_allowance,
)
from caedes_bot.gamedata.names import find, fold
from caedes_bot.rules.combat.arithmetic import combat_terrain_key
from caedes_bot.rules.combat.battle import begin_combat_step
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalMove, NotBuiltYet, RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import capture
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.rules.steps import Accepts, StepSpec, always

# --------------------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class MoveUnits(Order):
    """Move units of the active faction to ``destination`` in step 6 (R-MOVE-01).

    Attributes:
        unit_ids: the units to move; each finds its own route; all or none move.
        destination: a province id.
        terrain: the terrain the units use in a multi-terrain destination (R-MOVE-03), by name
            (``"forest"``); ``None`` lets the rules choose for each unit.
    """

    label = "Moving units"

    unit_ids: tuple[int, ...]
    destination: str
    terrain: str | None = None


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class UnitsMoved(Event):
    """Units of ``faction`` moved from ``origin`` along ``path`` to ``destination`` (R-MOVE-01).

    Attributes:
        unit_ids: the units that took this route.
        path: every province entered, in order, ending with ``destination``.
        attack: the destination holds units of a non-partner faction; the units will fight
            there in step 7 (R-MOVE-02).
        terrain: the terrain they use there (R-MOVE-03), if it has several.
        move_ended: they may not move again this turn (R-MOVE-04, R-MOVE-02).
    """

    faction: str
    unit_ids: tuple[int, ...]
    origin: str
    destination: str
    path: tuple[str, ...]
    attack: bool
    terrain: Terrain | None = None
    move_ended: bool = False


# --------------------------------------------------------------------------- entry costs


class Entry(enum.IntEnum):
    """What entering a province costs a unit (R-MOVE-04..12), cheapest first."""

    NORMAL = 0
    ENTIRE = 1
    FORBIDDEN = 2


@dataclass(frozen=True, slots=True)
class EntryCost:
    """The cost of one step, with the rule and the reason when it is not normal."""

    entry: Entry
    rule: str = "R-MOVE-01"
    reason: str = ""


def entry_cost(
    ruleset: Ruleset, kind: UnitKind, origin: str, destination: str, terrain: Terrain
) -> EntryCost:
    """The cost for a unit of ``kind`` to step from ``origin`` into ``destination`` using
    ``terrain`` there (R-MOVE-05, -06, -07, -08, -12; R-ATTR-WOOD-01, -MTN-01, -AMPH-04).

    Returns :attr:`Entry.FORBIDDEN` for cavalry into mountains without Mountainlore,
    :attr:`Entry.ENTIRE` when the step costs the unit's entire movement (a river crossing into
    such terrain costs it once), else :attr:`Entry.NORMAL`.
    """
    cavalry = kind.base_type is BaseType.CAVALRY
    name = ruleset.map.space_name(destination)
    if terrain is Terrain.MOUNTAINS and cavalry and not kind.has(Attribute.MOUNTAINLORE):
        return EntryCost(
            Entry.FORBIDDEN,
            "R-MOVE-06",
            f"cavalry may not enter mountains without Mountainlore, and {name} is mountains",
        )
    reasons: list[tuple[str, str]] = []
    if terrain is Terrain.MOUNTAINS:
        rule = "R-ATTR-MTN-01" if cavalry else "R-MOVE-06"
        reasons.append(
            (rule, f"entering mountains ({name}) costs {_type_word(kind)} its entire movement")
        )
    elif terrain is Terrain.FOREST and cavalry and not kind.has(Attribute.WOODLORE):
        reasons.append(
            (
                "R-MOVE-05",
                f"cavalry without Woodlore must spend its entire movement to enter forest ({name})",
            )
        )
    elif terrain is Terrain.SWAMP and cavalry and not kind.has(Attribute.AMPHIBIAN):
        reasons.append(
            (
                "R-MOVE-07",
                f"cavalry must spend its entire movement to enter swamp ({name}) unless Amphibian",
            )
        )
    river = ruleset.map.river_between(origin, destination)
    if river is not None and not (kind.has(Attribute.AMPHIBIAN) or kind.has(Attribute.FLYING)):
        reasons.append(
            (
                "R-MOVE-12",
                f"crossing the {river.river} into {name} costs its entire movement",
            )
        )
    if not reasons:
        return EntryCost(Entry.NORMAL)
    return EntryCost(Entry.ENTIRE, reasons[-1][0], "; ".join(r for _, r in reasons))


def _type_word(kind: UnitKind) -> str:
    return "cavalry" if kind.base_type is BaseType.CAVALRY else "infantry"


# --------------------------------------------------------------------------- occupation


class _Occupation:
    """Who stands where, read once per route search (R-MOVE-02, R-MOVE-13)."""

    def __init__(self, state: GameState, ruleset: Ruleset, faction: str) -> None:
        owners: dict[str, set[str]] = {}
        for unit in state.units.values():
            owners.setdefault(unit.location, set()).add(unit.owner)
        self._owners = owners
        self._state = state
        self._ruleset = ruleset
        self._faction = faction
        self._hostile: dict[str, bool] = {}

    def hostile(self, province: str) -> bool:
        """Units of a non-partner faction hold ``province`` (as :func:`hostile_units`)."""
        found = self._hostile.get(province)
        if found is None:
            spaces = [province]
            if self._state.options.river_ship_occupies:
                spaces += [e.id for e in self._ruleset.map.river_edges_of(province)]
            found = any(
                not self._state.are_partners(owner, self._faction)
                for space in spaces
                for owner in self._owners.get(space, ())
            )
            self._hostile[province] = found
        return found

    def foreign(self, province: str) -> bool:
        """Units of any other faction (partners included) stand in ``province``."""
        return bool(self._owners.get(province, set()) - {self._faction})


# --------------------------------------------------------------------------- route finding


@dataclass(frozen=True, slots=True)
class MovePlan:
    """A legal move of one unit to one destination (what :class:`MoveUnits` carries out).

    Attributes:
        unit_id: the unit.
        origin: where it starts.
        path: provinces entered, in order; the last is the destination.
        terrain: terrain to store in :attr:`Unit.terrain` (R-MOVE-03), or ``None``.
        cost: movement points it uses (its whole remaining allowance for an entire-movement
            entry, R-MOVE-04).
        entire: the last step cost its entire movement.
        attack: the destination holds non-partner units (R-MOVE-02).
    """

    unit_id: int
    origin: str
    path: tuple[str, ...]
    terrain: Terrain | None
    cost: int
    entire: bool
    attack: bool

    @property
    def destination(self) -> str:
        return self.path[-1]

    @property
    def entered_from(self) -> str:
        """The space the unit enters the destination from (R-COMBAT-08)."""
        return self.path[-2] if len(self.path) > 1 else self.origin

    @property
    def move_ended(self) -> bool:
        return self.entire or self.attack


def remaining_movement(unit: Unit, kind: UnitKind) -> int:
    """Movement points ``unit`` has left this turn (R-MOVE-01)."""
    return max(movement_allowance(kind) - unit.movement_used, 0)


def plan_moves(
    state: GameState, ruleset: Ruleset, unit: Unit, terrain: Terrain | None = None
) -> dict[str, MovePlan]:
    """Every province ``unit`` may move to now, with the preferred route to each (R-MOVE-01..12).

    Args:
        terrain: the terrain the owner names for the destination (R-MOVE-03); destinations
            without it are left out.

    Returns:
        destination id -> plan, empty if the unit cannot move (whatever the reason; see
        :func:`why_stuck` for the reason). Provinces are in id order.
    """
    kind = ruleset.kind(unit.kind)
    if _blocked(ruleset, unit, kind) is not None:
        return {}
    remaining = remaining_movement(unit, kind)
    game_map = ruleset.map
    faction = unit.owner
    start = unit.location
    first_move = unit.movement_used == 0
    stop_on_entry = state.options.entire_move_mode == "stop_on_entry"
    single_choice = state.options.terrain_single_choice
    occupation = _Occupation(state, ruleset, faction)
    best: dict[str, tuple[tuple[int, int, tuple[str, ...]], MovePlan]] = {}

    def consider(path: tuple[str, ...], here: str) -> None:
        dest = path[-1]
        province = game_map.provinces[dest]
        if terrain is not None and terrain not in province.terrains:
            return
        pool = [terrain] if (single_choice and terrain is not None) else list(province.terrains)
        candidates: list[tuple[tuple[int, ...], Terrain, EntryCost]] = []
        for t in pool:
            cost = entry_cost(ruleset, kind, here, dest, t)
            if cost.entry is Entry.FORBIDDEN:
                continue
            if (
                cost.entry is Entry.ENTIRE
                and not stop_on_entry
                and not (first_move and len(path) == 1)
            ):
                continue
            move_key = (-int(cost.entry), -province.terrains.index(t))
            key = (*combat_terrain_key(kind, t), *move_key) if single_choice else move_key
            candidates.append((key, t, cost))
        if not candidates:
            return
        _key, chosen, cost = max(candidates, key=lambda c: c[0])
        multi = len(province.terrains) > 1
        stored = (chosen if multi else None) if single_choice else terrain
        entire = cost.entry is Entry.ENTIRE
        plan = MovePlan(
            unit_id=unit.id,
            origin=start,
            path=path,
            terrain=stored,
            cost=remaining if entire else len(path),
            entire=entire,
            attack=occupation.hostile(dest),
        )
        foreign = sum(1 for p in path[:-1] if occupation.foreign(p))
        rank = (len(path), foreign, path)
        if dest not in best or rank < best[dest][0]:
            best[dest] = (rank, plan)

    def passable(here: str, nxt: str) -> bool:
        if occupation.hostile(nxt):
            return False
        return any(
            entry_cost(ruleset, kind, here, nxt, t).entry is Entry.NORMAL
            for t in game_map.provinces[nxt].terrains
        )

    def visit(path: tuple[str, ...], here: str) -> None:
        for nxt in sorted(game_map.land_neighbours(here)):
            if nxt == start or nxt in path or nxt not in game_map.provinces:
                continue
            new_path = (*path, nxt)
            consider(new_path, here)
            if len(new_path) < remaining and passable(here, nxt):
                visit(new_path, nxt)

    if remaining > 0:
        visit((), start)
    return {dest: best[dest][1] for dest in sorted(best)}


# --------------------------------------------------------------------------- checks


def _unit_label(ruleset: Ruleset, unit: Unit) -> str:
    return f"{ruleset.kind(unit.kind).display_name} #{unit.id}"


class Stuck(enum.Enum):
    """Why a unit cannot move now (R-MOVE-01, -02, -04, -15, -18, -22, R-ATTR-FORT-01): the
    answer of :func:`why_stuck`. Each member's :attr:`rule` is the rule behind it; the words
    for players are the edge's (``caedes_bot.ui``)."""

    FORTIFICATION = "fortification"
    """A Tower or other Fortification: it never moves (R-ATTR-FORT-01)."""
    SHIP = "ship"
    """A ship: ship movement is not built yet (R-MOVE-18)."""
    AFLOAT = "afloat"
    """Aboard a ship or on water: boarding moves are not built yet (R-MOVE-15)."""
    ATTACKING = "attacking"
    """It entered another faction's units and must fight there in step 7 (R-MOVE-02)."""
    MUSTERED = "mustered"
    """Mustered this turn: it moves from its faction's next turn (R-MOVE-22)."""
    MOVE_ENDED = "move_ended"
    """Its movement has ended this turn (entire movement paid, attack made; R-MOVE-04)."""
    NO_MOVEMENT_LEFT = "no_movement_left"
    """Its allowance is spent this turn (R-MOVE-01)."""
    NOWHERE = "nowhere"
    """It could move, but no province is within reach now (R-MOVE-01)."""

    @property
    def rule(self) -> str:
        """The catalogue rule behind this reason."""
        return _STUCK_RULES[self]

    @property
    def not_built(self) -> bool:
        """The rule that would let the unit move is not built yet."""
        return self in (Stuck.SHIP, Stuck.AFLOAT)


_STUCK_RULES = {
    Stuck.FORTIFICATION: "R-ATTR-FORT-01",
    Stuck.SHIP: "R-MOVE-18",
    Stuck.AFLOAT: "R-MOVE-15",
    Stuck.ATTACKING: "R-MOVE-02",
    Stuck.MUSTERED: "R-MOVE-22",
    Stuck.MOVE_ENDED: "R-MOVE-04",
    Stuck.NO_MOVEMENT_LEFT: "R-MOVE-01",
    Stuck.NOWHERE: "R-MOVE-01",
}


def _blocked(ruleset: Ruleset, unit: Unit, kind: UnitKind) -> Stuck | None:
    """Why ``unit`` cannot move at all this step, or ``None`` if it may try (never
    :attr:`Stuck.NOWHERE`)."""
    if kind.base_type is BaseType.TOWER or kind.has(Attribute.FORTIFICATION):
        return Stuck.FORTIFICATION
    if kind.base_type is BaseType.SHIP:
        return Stuck.SHIP
    if unit.aboard is not None or not ruleset.map.is_province(unit.location):
        return Stuck.AFLOAT
    if unit.attacking:
        return Stuck.ATTACKING
    if unit.move_ended:
        if unit.movement_used == 0 and not unit.path:
            return Stuck.MUSTERED
        return Stuck.MOVE_ENDED
    if remaining_movement(unit, kind) <= 0:
        return Stuck.NO_MOVEMENT_LEFT
    return None


def why_stuck(state: GameState, ruleset: Ruleset, unit: Unit) -> Stuck | None:
    """Why ``unit`` cannot move now, or ``None`` if some province is within its reach
    (R-MOVE-01..12, R-MOVE-22, R-ATTR-FORT-01).

    Returns:
        The first reason that holds, in the order of :class:`Stuck`: what keeps the unit from
        moving at all, else :attr:`Stuck.NOWHERE` when :func:`plan_moves` finds no destination.
    """
    blocked = _blocked(ruleset, unit, ruleset.kind(unit.kind))
    if blocked is not None:
        return blocked
    return None if plan_moves(state, ruleset, unit) else Stuck.NOWHERE


def _refusal(ruleset: Ruleset, unit: Unit, stuck: Stuck) -> RuleViolation:
    """The refusal of an order that moves ``unit``, which ``stuck`` keeps in place."""
    label = _unit_label(ruleset, unit)
    text = {
        Stuck.FORTIFICATION: f"{label} is a Fortification and never moves.",
        Stuck.SHIP: f"{label} is a ship; ship movement is not built yet.",
        Stuck.AFLOAT: f"{label} is aboard a ship or on water; boarding moves are not built yet.",
        Stuck.ATTACKING: (
            f"{label} entered a province held by another faction and must fight there in step 7."
        ),
        Stuck.MUSTERED: (
            f"{label} was mustered this turn and may move from its faction's next turn."
        ),
        Stuck.MOVE_ENDED: f"{label} has ended its movement this turn.",
        Stuck.NO_MOVEMENT_LEFT: f"{label} has no movement left this turn.",
        Stuck.NOWHERE: f"{label} can reach no province from here now.",
    }[stuck]
    error = NotBuiltYet if stuck.not_built else IllegalMove
    return error(text, rule=stuck.rule)


def check_movable(state: GameState, ruleset: Ruleset, unit: Unit) -> None:
    """Raise the reason ``unit`` cannot move at all now, if any (R-MOVE-01, -02, -04, -22,
    R-ATTR-FORT-01; :class:`NotBuiltYet` for ships and cargo). A unit that may move but has
    nowhere to go passes: the destination check says why."""
    stuck = _blocked(ruleset, unit, ruleset.kind(unit.kind))
    if stuck is not None:
        raise _refusal(ruleset, unit, stuck)


def movable_units(state: GameState, ruleset: Ruleset, faction: str) -> list[Unit]:
    """``faction``'s units that can still move somewhere this step, in id order (R-MOVE-01)."""
    return [u for u in state.units_of(faction) if plan_moves(state, ruleset, u)]


def legal_destinations(
    state: GameState, ruleset: Ruleset, unit_ids: Sequence[int], terrain: Terrain | None = None
) -> dict[str, bool]:
    """Where ALL of ``unit_ids`` may move now, for autocomplete (R-MOVE-01..12).

    Returns:
        province id -> ``True`` if moving there is an attack (R-MOVE-02), in id order. Empty if
        any unit is unknown or cannot move.
    """
    result: dict[str, bool] | None = None
    for uid in unit_ids:
        unit = state.units.get(str(uid))
        if unit is None:
            return {}
        plans = plan_moves(state, ruleset, unit, terrain)
        here = {dest: plan.attack for dest, plan in plans.items()}
        result = here if result is None else {d: a for d, a in result.items() if d in here}
    return result or {}


def _land_distance(
    ruleset: Ruleset, start: str, goal: str, allowed: Iterable[str] | None = None
) -> int | None:
    """Fewest land steps from ``start`` to ``goal`` through ``allowed`` provinces (all if
    ``None``; the goal is always allowed), or ``None`` if there is no land route."""
    ok = None if allowed is None else set(allowed) | {goal}
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return seen[here]
        for nxt in sorted(ruleset.map.land_neighbours(here)):
            if nxt in seen or (ok is not None and nxt not in ok):
                continue
            seen[nxt] = seen[here] + 1
            queue.append(nxt)
    return None


def _why_unreachable(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    destination: str,
    terrain: Terrain | None,
    reachable: Sequence[str],
) -> IllegalMove:
    """The clearest reason ``unit`` cannot reach ``destination`` (R-MOVE-01, -02, -04..12)."""
    kind = ruleset.kind(unit.kind)
    label = _unit_label(ruleset, unit)
    name = ruleset.map.space_name(destination)
    names = [ruleset.map.space_name(p) for p in reachable]
    allowed = (
        f"{label} can reach: " + ", ".join(names[:15]) + (" ..." if len(names) > 15 else "")
        if names
        else f"{label} cannot move anywhere from here this turn"
    )
    remaining = remaining_movement(unit, kind)
    distance = _land_distance(ruleset, unit.location, destination)
    if distance is None:
        return IllegalMove(
            f"{label} has no land route to {name}; islands are reached only by sea or air.",
            rule="R-MOVE-10",
            allowed=allowed,
        )
    if distance > remaining:
        return IllegalMove(
            f"{name} is {distance} provinces away by land; {label} has {remaining} movement left.",
            rule="R-MOVE-01",
            allowed=allowed,
        )
    terrains = (
        [terrain] if terrain is not None else list(ruleset.map.provinces[destination].terrains)
    )
    entries = [
        entry_cost(ruleset, kind, src, destination, t)
        for src in ruleset.map.land_neighbours(destination)
        for t in terrains
    ]
    if entries and all(e.entry is Entry.FORBIDDEN for e in entries):
        first = entries[0]
        return IllegalMove(f"{label}: {first.reason}.", rule=first.rule, allowed=allowed)
    occupation = _Occupation(state, ruleset, unit.owner)
    clear = [p for p in ruleset.map.provinces if not occupation.hostile(p)]
    open_distance = _land_distance(ruleset, unit.location, destination, clear)
    if open_distance is None or open_distance > remaining:
        return IllegalMove(
            f"{label} cannot reach {name}: every way there within its {remaining} movement passes "
            "through provinces held by other factions' units, where a move must stop.",
            rule="R-MOVE-02",
            allowed=allowed,
        )
    dearest = max(entries, key=lambda e: e.entry) if entries else EntryCost(Entry.NORMAL)
    if dearest.entry is Entry.ENTIRE and unit.movement_used > 0:
        detail = f"{dearest.reason}, which needs a unit that has not moved yet this turn"
    elif dearest.entry is Entry.ENTIRE:
        detail = f"{dearest.reason}, so it must be the unit's first step this turn"
    else:
        detail = "every route there costs its entire movement before the last step"
    return IllegalMove(
        f"{label} cannot reach {name}: {detail}.",
        rule=dearest.rule if dearest.entry is Entry.ENTIRE else "R-MOVE-04",
        allowed=allowed,
    )


def parse_terrain(name: str | None) -> Terrain | None:
    """The :class:`Terrain` named ``name`` as people type it, or by the start of its name
    (R-MOVE-03, R-GEN-04), or ``None`` for ``None``.

    Raises:
        UnknownName: no such terrain.
    """
    if name is None:
        return None
    found = find(name, ((t, (t.value,)) for t in Terrain)).item  # "mountain" starts one: R-GEN-04
    if found is not None:
        return found
    options = [t.value for t in Terrain]
    close = tuple(difflib.get_close_matches(fold(name), options, n=2))
    unknown = UnknownName("terrain", name, close, rule="R-MOVE-03")
    unknown.allowed = "one of: " + ", ".join(options)
    raise unknown


def _check_destination(ruleset: Ruleset, destination: str) -> None:
    game_map = ruleset.map
    if game_map.is_province(destination) or game_map.is_sea(destination):
        return
    if destination in game_map.rivers:
        raise IllegalMove(
            "Only ships move along river edges; land units cross them between provinces.",
            rule="R-MOVE-13",
            allowed="name a province",
        )
    by_name = {p.name.lower(): pid for pid, p in game_map.provinces.items()}
    pool = list(game_map.provinces) + [p.name for p in game_map.provinces.values()]
    near = difflib.get_close_matches(destination, pool, n=2)
    suggestions = tuple(game_map.space_name(by_name.get(n.lower(), n)) for n in near)
    raise UnknownName("province", destination, suggestions, rule="R-MOVE-01")


# --------------------------------------------------------------------------- the order


def plan_order(state: GameState, ruleset: Ruleset, order: MoveUnits) -> list[MovePlan]:
    """Check ``order`` and return one plan per unit, in the order given (R-MOVE-01..12).

    Raises:
        RuleViolation: no units, a unit listed twice, not the faction's own (R-TURN-03).
        UnknownName: unknown destination or terrain.
        IllegalMove: a unit cannot move, or cannot reach the destination (rule of the reason;
            ``allowed`` lists where it can go).
        NotBuiltYet: a ship, cargo, or a sea destination (ships, Amphibian crossings, flying).
    """
    if not order.unit_ids:
        raise RuleViolation("Name at least one unit to move.", rule="R-MOVE-01")
    if len(set(order.unit_ids)) != len(order.unit_ids):
        raise RuleViolation("A unit is listed twice in one move.", rule="R-MOVE-01")
    terrain = parse_terrain(order.terrain)
    _check_destination(ruleset, order.destination)
    units: list[Unit] = []
    for uid in order.unit_ids:
        unit = state.units.get(str(uid))
        if unit is None:
            raise RuleViolation(f"There is no unit #{uid} on the board.", rule="R-MOVE-01")
        if unit.owner != order.faction:
            raise RuleViolation(
                f"{_unit_label(ruleset, unit)} belongs to {unit.owner}, not {order.faction}.",
                rule="R-TURN-03",
                allowed="move your own units",
            )
        check_movable(state, ruleset, unit)
        units.append(unit)
    destination = order.destination
    name = ruleset.map.space_name(destination)
    if ruleset.map.is_sea(destination):
        first = ruleset.kind(units[0].kind)
        if first.has(Attribute.AMPHIBIAN):
            raise NotBuiltYet(
                f"Amphibian crossings and attacks at sea ({name}) are not built yet.",
                rule="R-ATTR-AMPH-01",
            )
        raise IllegalMove(
            f"Infantry and cavalry never enter a sea zone ({name}) over land.",
            rule="R-MOVE-09",
            allowed="move to a province; sea travel by ship is not built yet",
        )
    province = ruleset.map.provinces[destination]
    if terrain is not None and terrain not in province.terrains:
        have = ", ".join(t.value for t in province.terrains)
        raise IllegalMove(
            f"{name} has no {terrain.value}; its terrain is {have}.",
            rule="R-MOVE-03",
            allowed=f"name one of: {have}, or none",
        )
    plans: list[MovePlan] = []
    for unit in units:
        if unit.location == destination:
            raise IllegalMove(
                f"{_unit_label(ruleset, unit)} is already in {name}.", rule="R-MOVE-01"
            )
        options = plan_moves(state, ruleset, unit, terrain)
        plan = options.get(destination)
        if plan is None:
            raise _why_unreachable(state, ruleset, unit, destination, terrain, list(options))
        plans.append(plan)
    return plans


def carry_out(
    state: GameState, ruleset: Ruleset, faction: str, plans: Sequence[MovePlan]
) -> list[Event]:
    """Move the units along ``plans`` (already checked) and return the events (R-MOVE-01, -02).

    Each unit's ``location``, ``path``, ``entered_from``, ``movement_used``, ``terrain``,
    ``move_ended`` and ``attacking`` are updated. With the option ``capture_on_entry`` an
    unoccupied destination not held by the faction or a partner passes to it at once
    (R-COLL-02); by default ownership changes only at the end of step 7.
    """
    groups: dict[tuple[str, tuple[str, ...], Terrain | None], list[MovePlan]] = {}
    for plan in plans:
        unit = state.unit(plan.unit_id)
        unit.location = plan.destination
        unit.path = [*unit.path, *plan.path]
        unit.entered_from = plan.entered_from
        unit.movement_used += plan.cost
        unit.terrain = plan.terrain
        unit.move_ended = unit.move_ended or plan.move_ended
        unit.attacking = plan.attack
        groups.setdefault((plan.origin, plan.path, plan.terrain), []).append(plan)
    events: list[Event] = []
    for (origin, path, terrain), group in groups.items():
        events.append(
            UnitsMoved(
                faction=faction,
                unit_ids=tuple(p.unit_id for p in group),
                origin=origin,
                destination=path[-1],
                path=path,
                attack=group[0].attack,
                terrain=terrain,
                move_ended=all(p.move_ended for p in group),
            )
        )
    destination = plans[0].destination if plans else None
    if destination is not None and state.options.capture_on_entry and not plans[0].attack:
        events += capture(state, destination, faction)
    return events


def handle_move_units(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`MoveUnits` (step 6, active faction only; R-MOVE-01..12).

    Raises:
        RuleViolation: see :func:`plan_order`; nothing moves on a refusal.
    """
    assert isinstance(order, MoveUnits)
    plans = plan_order(state, ruleset, order)
    return carry_out(state, ruleset, order.faction, plans)


# --------------------------------------------------------------------------- step 6


def _list_battles(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return begin_combat_step(state, ruleset)  # R-COMBAT-01: the battles of step 7


#: Step 6, Move (R-MOVE-01..22). When it ends the battles of step 7 are listed.
SPEC = StepSpec(
    "move",
    Step.MOVE,
    accepts=(Accepts(MoveUnits, handle_move_units),),
    on_leave=_list_battles,
    waits=always,
)
