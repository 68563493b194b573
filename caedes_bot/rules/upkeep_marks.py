"""Marking units to be disbanded at upkeep (R-UPK-02 and R-TURN-02 as ruled;
``docs/decisions/0007``).

Step 4 runs by itself, so voluntary disbanding is asked for ahead of it: in steps 1 to 4 of its
own turn the active faction marks the units it wants gone, and may take a mark back; when step
4 begins the marked units are disbanded, and only then is the bill computed
(:mod:`caedes_bot.rules.upkeep`). The marks are ``FactionState.disband_marks``, private to the
faction (R-GEN-07) like its treasury.

The orders belong to no single step, so they have a spec of their own (:data:`SPEC`); only the
active faction gives them (``Giver.ACTIVE``: the engine refuses others, and the faction itself
in a passive turn, so marks made before a missed deadline stand, R-PBP-DEAD-03).

* :class:`ToggleDisbandMark`: mark one unit, or take its mark back (``/disband``).
* :class:`SetDisbandMarks`: the marks become exactly the units named (the turn panel's menu).
* In step 4, which rests only while it waits (a shortfall, R-UPK-03, or the option
  ``upkeep_waits``), upkeep is now: marking a unit disbands it at once, as
  :class:`~caedes_bot.rules.upkeep.DisbandUnits` does (and answers a shortfall the same way).
* In steps 5 to 8 they are refused under R-UPK-02, saying when marking is possible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.rules.steps import Accepts, Giver, Handled, StepSpec
from caedes_bot.rules.upkeep import (
    DisbandUnits,
    check_disbanding,
    disband_order,
    handle_disband_units,
    marked_units,
)

#: The steps in which units may be marked (R-UPK-02 as ruled); in the last of them, upkeep
#: itself, marking disbands at once.
MARKING_STEPS = (Step.TRADE, Step.REDEEM, Step.COLLECT, Step.UPKEEP)


def markable_units(state: GameState, ruleset: Ruleset, faction: str) -> list[Unit]:
    """What ``faction`` may mark now (R-UPK-02): every unit of its own on the board, the marked
    ones first, then in the bot's disbanding order (cheapest first, :func:`disband_order`);
    nothing unless it is the faction's own turn, not passive, in steps 1 to 4."""
    if state.active != faction or state.passive or state.step not in MARKING_STEPS:
        return []
    marked = set(marked_units(state, faction))
    units = disband_order(state.units_of(faction), ruleset)
    return sorted(units, key=lambda u: u.id not in marked)


@dataclass(frozen=True, slots=True)
class ToggleDisbandMark(Order):
    """Mark ``unit_id`` of ``faction`` to be disbanded at the start of step 4, or take its mark
    back if it has one (R-UPK-02). In step 4 itself the unit is disbanded at once."""

    label = "Marking units to disband at upkeep"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    unit_id: int


@dataclass(frozen=True, slots=True)
class SetDisbandMarks(Order):
    """The marks of ``faction`` become exactly ``unit_ids`` (none: every mark taken back)
    (R-UPK-02). In step 4 itself the units named are disbanded at once."""

    label = "Marking units to disband at upkeep"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    unit_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DisbandMarksChanged(Event):
    """``faction`` marked units to be disbanded at upkeep, or took marks back (R-UPK-02).
    Private to the faction (R-GEN-07).

    Attributes:
        marked: the units newly marked, as ``(unit id, kind id, space)``.
        unmarked: the units whose mark was taken back, the same way.
        marks: every unit marked now, by id.
    """

    private: ClassVar[bool] = True
    faction: str
    marked: tuple[tuple[int, str, str], ...]
    unmarked: tuple[tuple[int, str, str], ...]
    marks: tuple[int, ...]


def _refuse_after_upkeep(state: GameState) -> RuleViolation:
    return RuleViolation(
        f"Units can be marked to disband at upkeep only in steps 1 to 4 of your turn; upkeep is "
        f"over for this one (step {state.step.label}).",
        rule="R-UPK-02",
        allowed="mark them in steps 1 to 4 of your next turn: they are disbanded when its "
        "step 4 begins",
    )


def _triple(unit: Unit) -> tuple[int, str, str]:
    return (unit.id, unit.kind, unit.location)


def _set_marks(state: GameState, faction: str, wanted: list[int]) -> list[Event]:
    """Make ``wanted`` (checked unit ids) the faction's marks; one event saying what changed."""
    fs = state.factions[faction]
    before = set(marked_units(state, faction))
    after = sorted(set(wanted))
    fs.disband_marks = after
    marked = tuple(_triple(state.unit(u)) for u in after if u not in before)
    unmarked = tuple(_triple(state.unit(u)) for u in sorted(before - set(after)))
    return [DisbandMarksChanged(faction, marked, unmarked, tuple(after))]


def handle_toggle_mark(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Handled:
    """Mark one unit or take its mark back (R-UPK-02); in step 4, disband it now.

    Raises:
        RuleViolation: in steps 5 to 8 (R-UPK-02); a unit that is not the faction's or not on
            the board (R-UPK-02); in step 4, whatever disbanding refuses (R-UPK-03).
    """
    assert isinstance(order, ToggleDisbandMark)
    if state.step is Step.UPKEEP:
        return handle_disband_units(
            state, DisbandUnits(order.faction, (order.unit_id,)), ruleset, dice
        )
    if state.step not in MARKING_STEPS:
        raise _refuse_after_upkeep(state)
    (unit_id,) = check_disbanding(state, ruleset, order.faction, (order.unit_id,))
    marks = marked_units(state, order.faction)
    wanted = [u for u in marks if u != unit_id] if unit_id in marks else [*marks, unit_id]
    return _set_marks(state, order.faction, wanted)


def handle_set_marks(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Handled:
    """Make the units named the faction's marks (R-UPK-02); in step 4, disband them now.

    Raises:
        RuleViolation: in steps 5 to 8 (R-UPK-02); a unit that is not the faction's or not on
            the board (R-UPK-02); in step 4, no unit named or whatever disbanding refuses.
    """
    assert isinstance(order, SetDisbandMarks)
    if state.step is Step.UPKEEP:
        return handle_disband_units(
            state, DisbandUnits(order.faction, order.unit_ids), ruleset, dice
        )
    if state.step not in MARKING_STEPS:
        raise _refuse_after_upkeep(state)
    wanted = (
        check_disbanding(state, ruleset, order.faction, order.unit_ids) if order.unit_ids else []
    )
    return _set_marks(state, order.faction, wanted)


#: Marks to disband at upkeep: the active faction's orders of no single step, taken in any step
#: so that steps 5 to 8 refuse them with R-UPK-02 and say when marking is possible.
SPEC = StepSpec(
    "disband_marks",
    accepts=(
        Accepts(ToggleDisbandMark, handle_toggle_mark, Giver.ACTIVE),
        Accepts(SetDisbandMarks, handle_set_marks, Giver.ACTIVE),
    ),
)
