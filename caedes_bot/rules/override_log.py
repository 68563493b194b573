"""What an umpire override changed, before and after, for the audit log (R-PBP-UMP-01,
decision 0022).

:func:`override_change` reads an override order and the events it gave and returns one JSON
document, the same shape for every override::

    {"what": "rp", "target": "ORC", "before": 10, "after": 25}

``what`` is ``"rp"``, ``"commodity"`` (with ``"item"``, the commodity), ``"owner"`` (target a
province; before and after a faction code or ``None``), ``"units"`` (with ``"action"``;
target the unit ids; before where each was, ``""`` for a new one; after where they are, ``""``
when removed), ``"option"`` (target the option; values as text; it takes effect at the next
turn start), ``"turn_limit"`` (``None`` for no limit), ``"step"`` (``/umpire set step``
forward; target the faction whose turn it is after; the step numbers, after ``None`` when the
turn ended on the way; ``"was"``, the faction whose turn it was, when another) or ``"rollback"`` (target the point, an order number; before and after
``{"round", "active", "step"}``). The service writes it into the audit
entry of the order; the audit log is read only by the umpire and admins, so it may hold the
secret figures that the public announcement leaves out (R-GEN-07).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.replay import RolledBack
from caedes_bot.rules.state import GameState
from caedes_bot.rules.umpire import SetOwner, TreasuryOverridden
from caedes_bot.rules.umpire_game import OptionChangeAnnounced, TurnLimitSet
from caedes_bot.rules.umpire_step import StepSet
from caedes_bot.rules.umpire_units import UnitsOverridden


def override_change(
    order: Order, before: GameState, events: Sequence[Event]
) -> dict[str, Any] | None:
    """The before-and-after document of an override (module docstring), or ``None`` for an
    order that is not one. ``before`` is the state the order was applied to."""
    for event in events:
        if isinstance(event, TreasuryOverridden):
            if event.item == "rp":
                return {
                    "what": "rp",
                    "target": event.faction,
                    "before": event.before,
                    "after": event.after,
                }
            return {
                "what": "commodity",
                "target": event.faction,
                "item": event.item,
                "before": event.before,
                "after": event.after,
            }
        if isinstance(event, UnitsOverridden):
            return {
                "what": "units",
                "action": event.action,
                "target": list(event.unit_ids),
                "before": list(event.froms),
                "after": event.place,
            }
        if isinstance(event, OptionChangeAnnounced):
            return {
                "what": "option",
                "target": event.name,
                "before": event.before,
                "after": event.after,
            }
        if isinstance(event, StepSet):
            change: dict[str, Any] = {
                "what": "step",
                "target": event.faction,
                "before": int(event.before),
                "after": None if event.turn_over else int(event.after),
            }
            if event.was:
                change["was"] = event.was  # the step before was of this faction's turn
            return change
        if isinstance(event, RolledBack):
            return {
                "what": "rollback",
                "target": event.to_seq,
                "before": _moment(before.round, before.active, int(before.step)),
                "after": _moment(event.round, event.active, int(event.step)),
            }
        if isinstance(event, TurnLimitSet):
            return {
                "what": "turn_limit",
                "target": "",
                "before": event.before,
                "after": event.after,
            }
    if isinstance(order, SetOwner):
        return {
            "what": "owner",
            "target": order.province,
            "before": before.owners.get(order.province),
            "after": order.owner,
        }
    return None


def _moment(round_no: int, active: str | None, step: int) -> dict[str, Any]:
    return {"round": round_no, "active": active, "step": step}
