"""Taking back a faction's last orders of the current step (``/undo``).

An order class that sets ``undoable = True`` (:attr:`~caedes_bot.rules.orders.Order.undoable`)
leaves a record of what it changed each time it is applied without rolling a die. Every step's
own orders are undoable: offering and withdrawing a trade (step 1), redeeming and earmarking
(step 2), marking units to disband (steps 1 to 4), disbanding and paying upkeep (step 4: the
answer that ends the step is taken back with the step, so the faction is in step 4 again),
buying and cancelling a purchase (step 5), moving, flying, sailing, embarking and disembarking
(step 6), mustering (step 8), and summoning in the faction's own turn (any step). Answers to
others (accepting or declining a trade), pacts, battles (a summons into a battle included) and
everything that rolls are not.
The record holds the units it touched as they were before it, the factions' records, the owners
of provinces, the open trade offers, the muster counters, and for step 4's answers the step and
the decisions owed, before it (each only if changed),
and the id counter (:func:`after_order`, called by
:func:`caedes_bot.rules.engine.apply` after every order). :class:`UndoLastOrder` restores the last
record and drops it, so repeated undos take the orders back in reverse order.

The records are kept in :attr:`GameState.undo_log` and live only while nothing else happens:
any other order (by anyone: another faction's reaction, the umpire, ending the step), and any
order that rolled a die (a teleport, a divination, a battle), empties the log, so such orders
and everything before them can never be taken back. An undoable order whose effects reach beyond
what a record holds (a battle begun, a decision asked, the step changed) empties it too.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.sharing import copy_plain
from caedes_bot.rules.state import GameState, Step, UndoRecord, Unit
from caedes_bot.rules.steps import Accepts, StepSpec

#: The other fields of the state an undo record keeps when an order changed them: open trade
#: offers (R-TRADE-02), the muster counters of step 8 (R-MUSTER-01, R-MUSTER-04) and the
#: factions' statistics (a purchase counts a unit bought, decision 0021).
_KEPT = ("trades", "mustered_seq", "muster_counts", "stats")

#: The fields of the state an undo record restores (the log itself is handled on its own).
_RESTORED = frozenset({"units", "factions", "owners", "next_id", "undo_log", "dice_rolls", *_KEPT})
_OTHER_FIELDS = tuple(f.name for f in dataclasses.fields(GameState) if f.name not in _RESTORED)
#: The fields an order that may end the step (``Order.undo_keeps_step``) may also change and
#: its record keeps: the step and the decisions owed (step 4's answers, R-UPK-01, R-UPK-03).
_STEP_FIELDS = frozenset({"step", "pending"})


@dataclass(frozen=True, slots=True)
class UndoLastOrder(Order):
    """Take back the faction's last order of the current step (see the module docstring).

    Attributes:
        records: how many records :attr:`GameState.undo_log` held when the member asked (the
            turn panel's Undo button carries it); if the log is shorter now (something was
            taken back since), the order is refused and nothing changes, so a double click
            takes back one order, not two. A longer log (orders given since, the panel not yet
            updated) takes back the last one as usual.
            ``None`` (``/undo``): not checked.
    """

    records: int | None = None

    label = "Taking back an order"


@dataclass(frozen=True, slots=True)
class OrderTakenBack(Event):
    """``faction`` took back its order ``label``; a correction to what was posted about it.

    Attributes:
        unit_ids: the units the order had changed, now as they were before it.
        places: where each of them is again, same order (``""`` for a unit the order had
            made, now gone).
        left: how many more of the faction's orders of this step may still be taken back.
    """

    faction: str
    label: str
    unit_ids: tuple[int, ...]
    places: tuple[str, ...]
    left: int


def _changed_units(old: GameState, new: GameState) -> dict[str, Unit | None]:
    """Unit id -> the unit in ``old`` (``None`` if it was not there) for every unit the order
    changed, made or removed."""
    before = old.units
    after = new.units
    changed: dict[str, Unit | None] = {}
    for key in set(dict.keys(before)) | set(dict.keys(after)):
        was = dict.get(before, key)
        now = dict.get(after, key)
        if was is now:
            continue
        if was is None or now is None or was != now:
            changed[key] = was
    return changed


def after_order(old: GameState, new: GameState, order: Order, rolled: int) -> None:
    """Keep :attr:`GameState.undo_log` of ``new`` up to date after ``order`` turned ``old``
    into ``new`` rolling ``rolled`` dice: add a record for an undoable order, else empty it.
    :class:`UndoLastOrder` keeps what its handler left."""
    if isinstance(order, UndoLastOrder):
        return
    if not order.undoable:  # most orders (every battle order): the log is emptied, no more
        if new.undo_log:
            new.undo_log = []
        return
    log = old.undo_log
    also = _STEP_FIELDS if order.undo_keeps_step else frozenset()
    if (
        not order.undoable
        or rolled
        # every record is one faction's (another's order empties the log), so the last
        # tells: looking through all of them cost an order more with every record kept
        or (log and log[-1].faction != order.faction)
        or any(
            getattr(old, name) != getattr(new, name) for name in _OTHER_FIELDS if name not in also
        )
    ):
        if new.undo_log:
            new.undo_log = []
        return
    units = _changed_units(old, new)
    factions = {
        code: copy_plain(f)
        for code, f in dict.items(old.factions)  # read only: neither state is changed here
        if dict.get(new.factions, code) != f
    }
    record = UndoRecord(
        faction=order.faction,
        label=order.label,
        units={k: (None if u is None else copy_plain(u)) for k, u in units.items()},
        factions=factions,
        owners=None if old.owners == new.owners else dict(old.owners),
        next_id=old.next_id,
        trades=None if old.trades == new.trades else [copy_plain(t) for t in old.trades],
        mustered_seq=None if old.mustered_seq == new.mustered_seq else old.mustered_seq,
        muster_counts=(None if old.muster_counts == new.muster_counts else dict(old.muster_counts)),
        stats=None if old.stats == new.stats else dict(old.stats),
        step=None if old.step == new.step else old.step,
        # a decision is frozen once made (PendingDecision), so the record shares them
        pending=None if old.pending == new.pending else list(old.pending),
    )
    new.undo_log = [*log, record]


#: The rule under which each step's orders are given, cited when taking one back is refused.
_STEP_RULES = {Step.UPKEEP: "R-UPK-02", Step.MOVE: "R-MOVE-01"}


def undo_rule(state: GameState) -> str:
    """The rule a refused ``/undo`` cites: the rule that gives the current step's orders
    (R-MOVE-01 in step 6), else the turn's sequence of steps (R-TURN-02)."""
    return _STEP_RULES.get(state.step, "R-TURN-02")


def handle_undo(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Apply :class:`UndoLastOrder`: restore what the faction's last undoable order changed.

    Raises:
        RuleViolation: nothing may be taken back (no order since the step began, or a die was
            rolled or another faction acted since), or the log is shorter than
            ``order.records`` (a double click on the panel's Undo button); nothing changes.
    """
    assert isinstance(order, UndoLastOrder)
    log = state.undo_log
    if not log or log[-1].faction != order.faction:
        raise RuleViolation(
            "There is no order to take back: only your own orders of this step can be taken "
            "back, and only while no die has been rolled and no other faction has acted since.",
            rule=undo_rule(state),
            allowed="give a new order instead",
        )
    if order.records is not None and len(log) < order.records:
        raise RuleViolation(
            "Nothing was taken back: an order was already taken back since that Undo button was "
            "drawn (a double click, or a panel not yet updated).",
            rule=undo_rule(state),
            allowed="press Undo on the updated turn panel, or use /undo, to take back one more",
        )
    record = log[-1]
    state.undo_log = log[:-1]
    ids: list[int] = []
    places: list[str] = []
    came_back = False
    for key, unit in sorted(record.units.items(), key=lambda kv: int(kv[0])):
        ids.append(int(key))
        if unit is None:
            del state.units[key]
            places.append("")
        else:
            came_back = came_back or key not in state.units
            state.units[key] = copy_plain(unit)
            places.append(unit.location)
    if came_back:  # a unit the order removed (disbanded) is back: in its place on the board
        _in_id_order(state.units)
    for code, faction in record.factions.items():
        state.factions[code] = copy_plain(faction)
    if record.owners is not None:
        state.owners = dict(record.owners)
    if record.trades is not None:
        state.trades = [copy_plain(t) for t in record.trades]
    if record.mustered_seq is not None:
        state.mustered_seq = record.mustered_seq
    if record.muster_counts is not None:
        state.muster_counts = dict(record.muster_counts)
    if record.stats is not None:
        state.stats = dict(record.stats)
    if record.step is not None:
        state.step = record.step
    if record.pending is not None:
        state.pending = list(record.pending)  # frozen decisions, shared
    state.next_id = record.next_id
    return [
        OrderTakenBack(
            faction=order.faction,
            label=record.label,
            unit_ids=tuple(ids),
            places=tuple(places),
            left=len(state.undo_log),
        )
    ]


def _in_id_order(units: dict[str, Unit]) -> None:
    """Put the board back in the order of unit ids, which is the order units are made in (a
    unit put back by an undo was appended last), without copying any unit."""
    keys = list(dict.keys(units))
    ordered = sorted(keys, key=int)
    if keys == ordered:
        return
    held = [(key, dict.__getitem__(units, key)) for key in ordered]
    for key in keys:
        dict.__delitem__(units, key)
    for key, unit in held:
        dict.__setitem__(units, key, unit)


def can_undo(state: GameState, faction: str) -> bool:
    """``faction`` has an order it may take back now (for the edge's buttons)."""
    return bool(state.undo_log) and state.undo_log[-1].faction == faction


#: Taking back orders: in any step, by the active faction (its undoable orders are its own).
SPEC = StepSpec("undo", accepts=(Accepts(UndoLastOrder, handle_undo),))
