"""The umpire's override of the board: add, remove or move units (R-PBP-UMP-01).

:class:`SetUnits` is umpire-only (``Giver.UMPIRE``), in any step and during anyone's turn. Its
public event :class:`UnitsOverridden` says what changed (units are on the public board).

* ``add``: ``count`` (1 to :data:`MAX_ADD`) new units of ``kind`` for ``owner`` in ``place``,
  placed as mustered units are: they move from their owner's next turn (R-MOVE-22).
* ``remove``: the units ``unit_ids`` leave the board; a ship's cargo goes with it.
* ``move``: the units ``unit_ids`` are put in ``place``; a ship's cargo goes with it, a unit
  aboard a ship lands. A move by the umpire is not an attack (no battle is due for it), and
  changes no province's owner (ownership changes only at Collect, R-COLL-02).

Refused, changing nothing: an unknown faction, kind, place or unit; a land unit put in a sea
zone or on a river; a ship put inland on no river and no coast is not checked (the umpire
decides); any unit in the space of the battle being fought, or a place where it is fought
(the battle's sides are fixed while it lasts, R-COMBAT-03).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from caedes_bot.gamedata.model import BaseType, Ruleset
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState
from caedes_bot.rules.steps import Accepts, Giver, StepSpec

RULE = "R-PBP-UMP-01"

#: The most units one ``add`` makes.
MAX_ADD = 20

#: What ``SetUnits.action`` may be.
ACTIONS = ("add", "remove", "move")


@dataclass(frozen=True, slots=True)
class SetUnits(Order):
    """Add, remove or move units (see the module docstring).

    Attributes:
        action: ``"add"``, ``"remove"`` or ``"move"``.
        owner: ``add``: the faction the new units belong to.
        kind: ``add``: the unit kind id (``"U-DAW-01"``).
        count: ``add``: how many.
        place: ``add`` and ``move``: the space id they are put in.
        unit_ids: ``remove`` and ``move``: the units concerned.
    """

    action: str
    owner: str = ""
    kind: str = ""
    count: int = 1
    place: str = ""
    unit_ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class UnitsOverridden(Event):
    """The umpire added, removed or moved units (R-PBP-UMP-01); public.

    Attributes:
        action: ``"add"``, ``"remove"`` or ``"move"``.
        unit_ids: every unit concerned (cargo included), ascending.
        kinds: their kind ids, same order.
        owners: their owners, same order.
        froms: where each was before (``""`` for a new unit), same order.
        place: where they are now (``""`` after ``remove``).
    """

    action: str
    unit_ids: tuple[int, ...]
    kinds: tuple[str, ...]
    owners: tuple[str, ...]
    froms: tuple[str, ...]
    place: str


def _check_place(state: GameState, ruleset: Ruleset, place: str, ships_only: bool) -> None:
    game_map = ruleset.map
    if place not in game_map.provinces and place not in game_map.sea_zones:
        names = [*game_map.provinces, *game_map.sea_zones]
        close = tuple(difflib.get_close_matches(place, names, n=2))
        raise UnknownName("province or sea zone", place, close, rule=RULE)
    if game_map.is_sea(place) and not ships_only:
        raise RuleViolation(
            f"Only ships can be put in {game_map.space_name(place)}, a sea zone.",
            rule="R-MOVE-09",
            allowed="a province for land units; a sea zone for ships",
        )
    battle = state.battle
    if battle is not None and battle.space == place:
        raise RuleViolation(
            f"A battle is being fought in {game_map.space_name(place)}; its sides stay as they "
            "are until it ends.",
            rule="R-COMBAT-03",
            allowed="wait for the battle to end, or another place",
        )


def _with_cargo(state: GameState, ids: tuple[int, ...]) -> list[int]:
    """``ids`` and every unit aboard one of them, ascending; unknown ids refused."""
    missing = [uid for uid in ids if str(uid) not in state.units]
    if missing or not ids:
        raise RuleViolation(
            f"No unit #{missing[0]} is on the board." if missing else "No unit was named.",
            rule=RULE,
            allowed="units on the board, by their number",
        )
    chosen = set(ids)
    for unit in state.units.values():
        if unit.aboard is not None and unit.aboard in chosen:
            chosen.add(unit.id)
    return sorted(chosen)


def _not_in_battle(state: GameState, ruleset: Ruleset, ids: list[int]) -> None:
    battle = state.battle
    if battle is None:
        return
    for uid in ids:
        if state.peek_unit(uid).location == battle.space:
            raise RuleViolation(
                f"Unit #{uid} is in the battle being fought in "
                f"{ruleset.map.space_name(battle.space)}; its sides stay as they are until it "
                "ends.",
                rule="R-COMBAT-03",
                allowed="wait for the battle to end",
            )


def _add(state: GameState, order: SetUnits, ruleset: Ruleset) -> UnitsOverridden:
    if order.owner not in state.in_play:
        close = tuple(difflib.get_close_matches(order.owner.upper(), state.in_play, n=2))
        raise UnknownName("faction in play", order.owner, close, rule=RULE)
    if order.kind not in ruleset.units:
        close = tuple(difflib.get_close_matches(order.kind, list(ruleset.units), n=2))
        raise UnknownName("unit kind", order.kind, close, rule=RULE)
    if not 1 <= order.count <= MAX_ADD:
        raise RuleViolation(
            f"{order.count} units asked.", rule=RULE, allowed=f"1 to {MAX_ADD} at a time"
        )
    kind = ruleset.kind(order.kind)
    _check_place(state, ruleset, order.place, kind.base_type is BaseType.SHIP)
    ids = [state.place_new_unit(kind.id, order.owner, order.place).id for _ in range(order.count)]
    n = len(ids)
    return UnitsOverridden(
        "add", tuple(ids), (kind.id,) * n, (order.owner,) * n, ("",) * n, order.place
    )


def _remove_or_move(state: GameState, order: SetUnits, ruleset: Ruleset) -> UnitsOverridden:
    ids = _with_cargo(state, order.unit_ids)
    _not_in_battle(state, ruleset, ids)
    units = [state.peek_unit(uid) for uid in ids]
    kinds = tuple(u.kind for u in units)
    owners = tuple(u.owner for u in units)
    froms = tuple(u.location for u in units)
    if order.action == "remove":
        for uid in ids:
            del state.units[str(uid)]
        return UnitsOverridden("remove", tuple(ids), kinds, owners, froms, "")
    named = set(order.unit_ids)
    ships_only = all(
        ruleset.kind(u.kind).base_type is BaseType.SHIP or u.id not in named for u in units
    )
    _check_place(state, ruleset, order.place, ships_only)
    for uid in ids:
        unit = state.unit(uid)  # a copy of its own, to change
        unit.location = order.place
        unit.attacking = False
        unit.entered_from = None
        if uid in named:
            unit.aboard = None  # a named unit that was aboard lands; cargo keeps its ship
    return UnitsOverridden("move", tuple(ids), kinds, owners, froms, order.place)


def handle_set_units(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Add, remove or move units (R-PBP-UMP-01; see the module docstring).

    Raises:
        UnknownName: no such faction, kind or place. RuleViolation: an unknown action or unit,
            a count out of range, a land unit for a sea zone, a unit or place of the battle
            being fought.
    """
    assert isinstance(order, SetUnits)
    if order.action == "add":
        return [_add(state, order, ruleset)]
    if order.action in ("remove", "move"):
        return [_remove_or_move(state, order, ruleset)]
    raise RuleViolation(f"No action '{order.action[:20]}'.", rule=RULE, allowed=", ".join(ACTIONS))


#: The umpire's board override: any step, anyone's turn (R-PBP-UMP-01).
SPEC = StepSpec("umpire_units", accepts=(Accepts(SetUnits, handle_set_units, Giver.UMPIRE),))
