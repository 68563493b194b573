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
attack made, withdrawn, or mustered this turn: R-MOVE-22) do not move again this turn.

Instead of its normal move (R-MOVE-21), a Flying unit may fly up to 4 spaces over anything
(:class:`FlyUnits`, :mod:`.flight`, R-ATTR-FLY-01), and an Amphibian unit may cross one sea
zone (a :class:`MoveUnits` whose route is a sea zone and a province, R-ATTR-AMPH-01). An
order's ``via`` names spaces its route must pass through. Ships, boarding moves and Amphibian
attacks at sea are not built yet and are refused with
:class:`~caedes_bot.rules.errors.NotBuiltYet` naming their rule.

What is legal now, for the edge to ask instead of trying orders: :func:`movable_units`,
:func:`legal_destinations`, :func:`plan_moves`, and :func:`why_stuck`, which names the reason a
unit cannot move as a :class:`Stuck` member carrying its rule.

An order with several units is all or nothing: if one of them cannot reach the destination the
whole order is refused, naming the unit, the reason with its rule ID, and where it can go.

The package: :mod:`.orders` (the order and its event), :mod:`.costs` (what a step costs, who
stands where), :mod:`.stuck` (why a unit cannot move at all), :mod:`.reach` (routes and legal
destinations), :mod:`.refusals` (why a destination is out of reach, names in an order) and
:mod:`.apply` (checking and carrying out an order, and step 6 itself); :mod:`.plans` (what a
planned move is), :mod:`.flight` (flying moves) and :mod:`.magic_moves` (teleporting and
divining, instead of a move).
"""

from __future__ import annotations

from caedes_bot.gamedata.model import movement_allowance
from caedes_bot.rules.movement.apply import SPEC, carry_out, handle_move_units, plan_order
from caedes_bot.rules.movement.costs import Entry, EntryCost, entry_cost, remaining_movement
from caedes_bot.rules.movement.flight import FLYING_ALLOWANCE, can_fly, plan_flights
from caedes_bot.rules.movement.magic_moves import (
    Divine,
    Divined,
    Teleport,
    UnitsTeleported,
    divinable_commodities,
)
from caedes_bot.rules.movement.orders import FlyUnits, MoveUnits, UnitsMoved
from caedes_bot.rules.movement.plans import MoveKind, MovePlan
from caedes_bot.rules.movement.reach import (
    can_move_somewhere,
    legal_destinations,
    movable_units,
    plan_moves,
    why_stuck,
)
from caedes_bot.rules.movement.refusals import parse_terrain
from caedes_bot.rules.movement.stuck import Stuck, check_movable

__all__ = [
    "FLYING_ALLOWANCE",
    "SPEC",
    "Divine",
    "Divined",
    "Entry",
    "EntryCost",
    "FlyUnits",
    "MoveKind",
    "MovePlan",
    "MoveUnits",
    "Stuck",
    "Teleport",
    "UnitsMoved",
    "UnitsTeleported",
    "can_fly",
    "can_move_somewhere",
    "carry_out",
    "check_movable",
    "divinable_commodities",
    "entry_cost",
    "handle_move_units",
    "legal_destinations",
    "movable_units",
    "movement_allowance",
    "parse_terrain",
    "plan_flights",
    "plan_moves",
    "plan_order",
    "remaining_movement",
    "why_stuck",
]
