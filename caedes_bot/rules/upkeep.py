"""Upkeep, step 4 of a turn (R-UPK-01..05, R-TURN-02, R-COMM-07, R-ATTR-UNDEAD-02,
R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03): the bill, the Salt that lowers it, and disbanding.

Step 4 runs by itself (R-TURN-02 and R-UPK-02 as ruled; ``docs/decisions/0007``):

1. In steps 1 to 4 of its turn the faction may mark units to be disbanded at upkeep, and take
   a mark back (the orders of :mod:`caedes_bot.rules.upkeep_marks`); the marks are
   ``FactionState.disband_marks``.
2. Step 4 begins: the marked units are disbanded (:class:`UnitsDisbanded` under R-UPK-02, a
   ship with its cargo, the last Necromancer or Summoner with what depends on it) and the marks
   are cleared; then the bill is shown, :class:`UpkeepDue`: ceil(N/6) RP for the N units that
   count (Undead, exempt unit types and units not yet mustered do not: R-UPK-01, R-UPK-04,
   R-UPK-05), less the Salt redeemed in step 2 (R-COMM-07, :func:`upkeep_after_salt`), against
   the RP held.
3. If RP cover the bill, it is paid (:class:`UpkeepPaid`) and the turn moves on to step 5
   without waiting: unless the campaign option ``upkeep_waits`` is true, when the step waits
   for a faction with units, which may disband more with :class:`DisbandUnits` (each shows the
   new bill) and ends the step itself (``EndStep`` or :class:`PayUpkeep`), which pays.
4. If RP cannot cover the bill, step 4 waits with a pending ``upkeep_disband`` decision
   (R-UPK-03): ``DisbandUnits`` must then name units that make the bill payable (at least
   ``must_disband`` of the units that count, or a ship with its cargo, or the last Summoner
   with its Summoned units), and, as ruled, no more than that: each unit named must be
   needed, unless ``upkeep_waits`` allows disbanding in step 4 besides (R-UPK-02); that
   answer pays and ends the step at once.
5. If the faction does not choose (``UmpireAdvance``, a missed turn deadline, a passive turn:
   R-PBP-DEAD-03), the bot disbands by :func:`default_disbanding`, cheapest list cost first,
   ties most recently mustered, Heroes last, and pays. RP never go below 0 (R-BUY-02). A
   passive turn carries out the marks made before the deadline all the same.

A mark goes with its unit when the unit leaves the board or the faction
(:func:`forget_lost_marks`, after every order).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.gamedata.model import Attribute, Ruleset
from caedes_bot.rules.dependants import units_lost_without
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    DecisionKind,
    DisbandCandidate,
    GameState,
    PendingDecision,
    Step,
    Unit,
    UpkeepDisbandDetail,
)
from caedes_bot.rules.steps import Accepts, StepDone, StepSpec, active_faction

# --------------------------------------------------------------------------- orders and events


@dataclass(frozen=True, slots=True)
class DisbandUnits(Order):
    """Disband ``unit_ids`` of ``faction`` now, in step 4 while it waits (R-UPK-02, R-UPK-03).

    Without a pending ``upkeep_disband`` decision (the option ``upkeep_waits``) this is
    voluntary disbanding before the bill is paid, and step 4 stays open. With one, it is the
    answer: the units named must make the bill payable; then upkeep is paid and the turn runs
    on to step 5. A ship takes its cargo with it (R-MOVE-19); losing the last Necromancer or
    Summoner takes the Undead or Summoned units too (R-UPK-04). Before step 4, units are marked
    instead (:mod:`caedes_bot.rules.upkeep_marks`).
    """

    label = "Disbanding units"
    undoable = True  # /undo takes it back, with step 4 if it ended it (caedes_bot.rules.undo)
    undo_keeps_step = True

    unit_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PayUpkeep(Order):
    """End step 4 and pay the bill (R-UPK-01); the same as ``EndStep`` given in step 4, but
    refused in any other step, so a stale "Pay upkeep" button can end nothing else."""

    label = "Paying upkeep"
    undoable = True  # /undo takes it back: step 4 again, the bill unpaid (caedes_bot.rules.undo)
    undo_keeps_step = True


@dataclass(frozen=True, slots=True)
class UpkeepBill:
    """What step 4 charges ``faction`` on the board as it stands (R-UPK-01, R-UPK-03, R-COMM-07).

    Attributes:
        units_counted: N, the units that count (:func:`upkeep_units`).
        upkeep: ceil(N/6), in RP.
        salt_credit: Salt redeemed this turn, 1 RP each.
        salt_used: the part of ``salt_credit`` the bill uses: min(credit, upkeep).
        bill: ``upkeep`` less Salt, never below 0, in RP.
        rp: RP held.
        must_disband: the fewest counted units that must leave the board before the bill is no
            larger than ``rp``: max(0, N - 6 × (rp + salt credit)); 0 when RP cover the bill.
    """

    units_counted: int
    upkeep: int
    salt_credit: int
    salt_used: int
    bill: int
    rp: int
    must_disband: int

    @property
    def short(self) -> bool:
        """RP cannot cover the bill (R-UPK-03)."""
        return self.bill > self.rp


@dataclass(frozen=True, slots=True)
class UpkeepDue(Event):
    """Step 4 of ``faction``'s turn shows its bill (R-UPK-01), before anything is paid; shown
    again after each voluntary disbanding (R-UPK-02).

    ``decision`` is the id of the pending ``upkeep_disband`` decision when RP fall short
    (R-UPK-03), with ``must_disband`` the fewest counted units that must go and
    ``default_disband`` the unit ids the bot disbands if the faction does not choose.
    """

    private: ClassVar[bool] = True
    faction: str
    round: int
    units_counted: int
    upkeep: int
    salt_credit: int
    salt_used: int
    bill: int
    rp: int
    must_disband: int = 0
    decision: int | None = None
    default_disband: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class UpkeepPaid(Event):
    """``faction`` paid ``bill`` RP in step 4 (R-UPK-01): ceil(``units_counted``/6) = ``upkeep``,
    less ``salt_used`` (R-COMM-07). ``units_counted`` is after any disbanding."""

    private: ClassVar[bool] = True
    faction: str
    round: int
    units_counted: int
    upkeep: int
    salt_used: int
    bill: int
    rp_before: int
    rp_after: int


@dataclass(frozen=True, slots=True)
class UnitsDisbanded(Event):
    """Units of ``faction`` were removed from the board under ``rule``; ``units`` are
    ``(unit id, kind id, space)`` and ``names`` their display names, in the same order.
    Public: the board is public (R-GEN-07).

    ``rule`` is R-UPK-02 (voluntary: marked before step 4, or disbanded during it), R-UPK-03
    (to pay upkeep; ``by_default`` when the bot chose), R-ATTR-UNDEAD-03 or R-MAGIC-SUMM-03
    (lost with the last Necromancer or Summoner).
    """

    faction: str
    units: tuple[tuple[int, str, str], ...]
    rule: str
    reason: str
    names: tuple[str, ...] = ()
    by_default: bool = False


# --------------------------------------------------------------------------- the bill


def upkeep_after_salt(bill: int, salt_credit: int) -> int:
    """This turn's upkeep bill after Salt: ``max(0, bill - salt_credit)`` RP (R-COMM-07).

    Credit beyond the bill is lost; the caller sets ``salt_credit`` to 0 once upkeep is paid.
    """
    return max(0, bill - max(0, salt_credit))


def upkeep_units(state: GameState, ruleset: Ruleset, faction: str) -> list[Unit]:
    """The units of ``faction`` that count for upkeep (R-UPK-01): every unit on the board,
    aboard ships included, except Undead (R-ATTR-UNDEAD-02, R-UPK-04) and unit types listed in
    the option ``upkeep_exempt_types``. Units bought but not mustered are not on the board
    (R-UPK-05). In id order."""
    exempt = set(state.options.upkeep_exempt_types)
    counted = []
    for unit in state.units_of(faction):
        kind = ruleset.kind(unit.kind)
        if kind.has(Attribute.UNDEAD) or str(kind.base_type) in exempt:
            continue
        counted.append(unit)
    return counted


def upkeep_for(count: int) -> int:
    """ceil(``count`` / 6) RP (R-UPK-01)."""
    return math.ceil(count / 6)


def must_disband(count: int, rp: int, salt_credit: int) -> int:
    """The fewest of ``count`` counted units that must go so that the bill, ceil(N/6) less
    ``salt_credit``, is no larger than ``rp`` (R-UPK-03): ceil(M/6) <= rp + salt holds exactly
    when M <= 6 × (rp + salt), so the answer is max(0, count - 6 × (rp + salt))."""
    return max(0, count - 6 * (max(0, rp) + max(0, salt_credit)))


def _bill_for(count: int, salt_credit: int) -> int:
    return upkeep_after_salt(upkeep_for(count), salt_credit)


def upkeep_bill(state: GameState, ruleset: Ruleset, faction: str) -> UpkeepBill:
    """``faction``'s step-4 bill on the board as it stands (R-UPK-01, R-COMM-07, R-UPK-03)."""
    fs = state.factions[faction]
    count = len(upkeep_units(state, ruleset, faction))
    upkeep = upkeep_for(count)
    salt = max(0, fs.salt_credit)
    return UpkeepBill(
        units_counted=count,
        upkeep=upkeep,
        salt_credit=salt,
        salt_used=min(salt, upkeep),
        bill=_bill_for(count, salt),
        rp=fs.rp,
        must_disband=must_disband(count, fs.rp, salt),
    )


def disband_order(units: list[Unit], ruleset: Ruleset) -> list[Unit]:
    """``units`` in the default disbanding order of R-UPK-03: cheapest list cost first; ties
    go most recently mustered first (highest ``muster_seq``); Heroes last."""

    def key(unit: Unit) -> tuple[bool, int, int]:
        kind = ruleset.kind(unit.kind)
        return (kind.hero, kind.cost or 0, -unit.muster_seq)

    return sorted(units, key=key)


def _with_cargo(state: GameState, unit_ids: list[int]) -> list[Unit]:
    """The units ``unit_ids`` in that order, each ship followed by its cargo (R-MOVE-19)."""
    seen: set[int] = set()
    out: list[Unit] = []
    for unit_id in unit_ids:
        for unit in [state.unit(unit_id), *_cargo(state, unit_id)]:
            if unit.id not in seen:
                seen.add(unit.id)
                out.append(unit)
    return out


def _cargo(state: GameState, ship_id: int) -> list[Unit]:
    return sorted((u for u in state.units.values() if u.aboard == ship_id), key=lambda u: u.id)


def _dependants(
    state: GameState, ruleset: Ruleset, faction: str, gone: set[int]
) -> list[tuple[list[Unit], str, str]]:
    """The Undead / Summoned units of ``faction`` lost if the units ``gone`` leave the board
    and no Necromancer / Summoner stays (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03, R-UPK-04), as
    ``(units, rule, reason)`` (:func:`caedes_bot.rules.dependants.units_lost_without`)."""
    lost = units_lost_without(ruleset, state.units_of(faction), gone)
    return [(units, bond.rule, bond.reason) for units, bond in lost]


def units_leaving(
    state: GameState, ruleset: Ruleset, faction: str, unit_ids: list[int]
) -> list[Unit]:
    """Every unit that leaves the board if ``faction`` disbands ``unit_ids``: those units, a
    ship's cargo (R-MOVE-19), and the Undead or Summoned units lost with the last Necromancer or
    Summoner (R-UPK-04). ``unit_ids`` must be units of ``faction`` on the board."""
    direct = _with_cargo(state, unit_ids)
    gone = {u.id for u in direct}
    for lost, _rule, _reason in _dependants(state, ruleset, faction, gone):
        direct += lost
    return direct


def _bill_after(
    state: GameState, ruleset: Ruleset, faction: str, unit_ids: list[int]
) -> tuple[int, int]:
    """(units counted, bill) once ``unit_ids`` are disbanded (R-UPK-01, R-COMM-07)."""
    gone = {u.id for u in units_leaving(state, ruleset, faction, unit_ids)}
    count = sum(1 for u in upkeep_units(state, ruleset, faction) if u.id not in gone)
    return count, _bill_for(count, state.factions[faction].salt_credit)


def default_disbanding(state: GameState, ruleset: Ruleset, faction: str) -> list[int]:
    """The units the bot disbands when ``faction`` cannot pay and does not choose (R-UPK-03):
    counted units in :func:`disband_order`, one at a time, until the bill is no larger than
    its RP. Undead and exempt unit types never need disbanding (R-UPK-04). Returns their ids in
    that order (a ship's cargo, gone with it, is not listed); empty when RP cover the bill."""
    fs = state.factions[faction]
    counted = upkeep_units(state, ruleset, faction)
    counted_ids = {u.id for u in counted}
    cargo: dict[int, list[int]] = {}
    for unit in state.units.values():
        if unit.aboard is not None:
            cargo.setdefault(unit.aboard, []).append(unit.id)
    chosen: list[int] = []
    direct: set[int] = set()
    left = len(counted_ids)
    for unit in disband_order(counted, ruleset):
        if _bill_for(left, fs.salt_credit) <= fs.rp:
            break
        if unit.id in direct:
            continue  # already gone as cargo of a disbanded ship
        chosen.append(unit.id)
        direct |= {unit.id, *cargo.get(unit.id, ())}
        gone = set(direct)
        for lost, _rule, _reason in _dependants(state, ruleset, faction, direct):
            gone |= {u.id for u in lost}
        left = len(counted_ids - gone)
    return chosen


def lose_dependants(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """The moment ``faction`` has no Necromancer on the board its Undead are destroyed
    (R-ATTR-UNDEAD-03); with no Summoner, its Summoned units (R-MAGIC-SUMM-03) (R-UPK-04).
    Mutates ``state``; returns one :class:`UnitsDisbanded` per kind of loss."""
    events: list[Event] = []
    for lost, rule, reason in _dependants(state, ruleset, faction, set()):
        for unit in lost:
            del state.units[str(unit.id)]
        events.append(_disbanded(ruleset, faction, lost, rule, reason))
    return events


def _disbanded(
    ruleset: Ruleset,
    faction: str,
    units: list[Unit],
    rule: str,
    reason: str,
    *,
    by_default: bool = False,
) -> UnitsDisbanded:
    return UnitsDisbanded(
        faction,
        tuple((u.id, u.kind, u.location) for u in units),
        rule,
        reason,
        tuple(ruleset.kind(u.kind).display_name for u in units),
        by_default,
    )


def _remove(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    unit_ids: list[int],
    rule: str,
    reason: str,
    *,
    by_default: bool = False,
) -> list[Event]:
    """Take ``unit_ids`` (with cargo) off the board, then whatever depends on them."""
    if not unit_ids:
        return []
    gone = _with_cargo(state, unit_ids)
    for unit in gone:
        del state.units[str(unit.id)]
    events: list[Event] = [_disbanded(ruleset, faction, gone, rule, reason, by_default=by_default)]
    return events + lose_dependants(state, ruleset, faction)


def check_disbanding(
    state: GameState, ruleset: Ruleset, faction: str, unit_ids: tuple[int, ...]
) -> list[int]:
    """The distinct unit ids of ``unit_ids``, in order, if each is a unit of ``faction`` on the
    board (R-UPK-02).

    Raises:
        RuleViolation: no unit named, or a unit that is not ``faction``'s or not on the board.
    """
    own = state.units_of(faction)
    listed = ", ".join(
        f"{u.id} {ruleset.kind(u.kind).display_name} ({ruleset.map.space_name(u.location)})"
        for u in disband_order(own, ruleset)[:10]
    )
    allowed = f"your units, for example {listed}" if own else "nothing: you have no units"
    if not unit_ids:
        raise RuleViolation("Name at least one unit to disband.", rule="R-UPK-02", allowed=allowed)
    ids: list[int] = []
    for unit_id in unit_ids:
        unit = state.units.get(str(unit_id))
        if unit is None or unit.owner != faction:
            raise RuleViolation(
                f"Unit {unit_id} is not one of {faction}'s units on the board.",
                rule="R-UPK-02",
                allowed=allowed,
            )
        if unit_id not in ids:
            ids.append(unit_id)
    return ids


def open_upkeep(state: GameState, ruleset: Ruleset, faction: str, *, ask: bool) -> list[Event]:
    """Step 4 begins: show ``faction`` its bill (R-UPK-01). If RP cannot cover it and ``ask``,
    add a pending ``upkeep_disband`` decision (R-UPK-03) with an :class:`UpkeepDisbandDetail`:
    the bill, the fewest counted units that must leave the board, the counted units in the
    bot's disbanding order and its default choice.

    Mutates ``state``; returns ``[UpkeepDue]``.
    """
    bill = upkeep_bill(state, ruleset, faction)
    decision: int | None = None
    default: tuple[int, ...] = ()
    if bill.short:
        default = tuple(default_disbanding(state, ruleset, faction))
    if bill.short and ask:
        counted = disband_order(upkeep_units(state, ruleset, faction), ruleset)
        candidates: list[DisbandCandidate] = []
        for unit in counted:
            kind = ruleset.kind(unit.kind)
            candidates.append(
                DisbandCandidate(
                    id=unit.id,
                    kind=kind.id,
                    name=kind.display_name,
                    space=unit.location,
                    cost=kind.cost,
                    hero=kind.hero,
                    cargo=tuple(u.id for u in _cargo(state, unit.id)),
                )
            )
        pending = PendingDecision(
            id=state.new_id(),
            faction=faction,
            kind=DecisionKind.UPKEEP_DISBAND,
            reaction=False,
            detail=UpkeepDisbandDetail(
                round=state.round,
                bill=bill.bill,
                upkeep=bill.upkeep,
                salt=bill.salt_credit,
                rp=bill.rp,
                units_counted=bill.units_counted,
                must_disband_at_least=bill.must_disband,
                candidates=tuple(candidates),
                default=default,
            ),
        )
        state.pending.append(pending)
        decision = pending.id
    return [_due(state, faction, bill, decision, default)]


def _due(
    state: GameState,
    faction: str,
    bill: UpkeepBill,
    decision: int | None = None,
    default: tuple[int, ...] = (),
) -> UpkeepDue:
    return UpkeepDue(
        faction,
        state.round,
        bill.units_counted,
        bill.upkeep,
        bill.salt_credit,
        bill.salt_used,
        bill.bill,
        bill.rp,
        bill.must_disband,
        decision,
        default,
    )


def upkeep_decision(state: GameState, faction: str) -> PendingDecision | None:
    """``faction``'s pending ``upkeep_disband`` decision, if any (R-UPK-03)."""
    return next(
        (
            d
            for d in state.pending
            if d.kind is DecisionKind.UPKEEP_DISBAND and d.faction == faction
        ),
        None,
    )


def _drop_upkeep_decisions(state: GameState, faction: str) -> None:
    state.pending = [
        d
        for d in state.pending
        if not (d.kind is DecisionKind.UPKEEP_DISBAND and d.faction == faction)
    ]


def disband_voluntarily(
    state: GameState, ruleset: Ruleset, faction: str, unit_ids: tuple[int, ...]
) -> list[Event]:
    """Voluntary disbanding in step 4 before the bill is paid (R-UPK-02); any of the faction's
    units, Undead included. The caller checks the step. Mutates ``state``.

    Returns:
        ``[UnitsDisbanded, ...]`` (R-UPK-02, then any R-UPK-04 losses), then the new
        :class:`UpkeepDue`.

    Raises:
        RuleViolation: see :func:`check_disbanding`.
    """
    ids = check_disbanding(state, ruleset, faction, unit_ids)
    events = _remove(state, ruleset, faction, ids, "R-UPK-02", "disbanded by choice")
    return [*events, _due(state, faction, upkeep_bill(state, ruleset, faction))]


def answer_upkeep_disband(
    state: GameState,
    ruleset: Ruleset,
    decision: PendingDecision,
    unit_ids: tuple[int, ...],
) -> list[Event]:
    """Answer ``decision`` (``upkeep_disband``) by disbanding ``unit_ids`` (R-UPK-03). As
    ruled, only as many units go as make the bill payable: every unit named must be needed
    (without it the bill would not be payable). With the option ``upkeep_waits`` more may be
    named, the rest being voluntary disbanding in step 4 (R-UPK-02). The caller then pays.
    Mutates ``state``.

    Raises:
        RuleViolation: see :func:`check_disbanding`; or, with those units gone, the bill would
            still be larger than the faction's RP (names how many counted units must go and
            the default choice); or, without ``upkeep_waits``, a unit named is not needed.
    """
    faction = decision.faction
    ids = check_disbanding(state, ruleset, faction, unit_ids)
    count, bill = _bill_after(state, ruleset, faction, ids)
    rp = state.factions[faction].rp
    if bill > rp:
        before = upkeep_bill(state, ruleset, faction)
        default = default_disbanding(state, ruleset, faction)
        names = ", ".join(
            f"{u.id} {ruleset.kind(u.kind).display_name}" for u in _with_cargo(state, default)
        )
        raise RuleViolation(
            f"With those units gone {count} units still count for upkeep: a bill of {bill} RP, "
            f"and you have {rp} RP. At least {before.must_disband} of the "
            f"{before.units_counted} units that count must go.",
            rule="R-UPK-03",
            allowed=f"disband at least {before.must_disband} counted units, e.g. the default: {names}",
        )
    if not state.options.upkeep_waits:
        _refuse_spare(state, ruleset, faction, ids)
    _drop_upkeep_decisions(state, faction)
    return _remove(state, ruleset, faction, ids, "R-UPK-03", "disbanded to pay upkeep")


def disband_answer_limits(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    offered: list[int],
    least: int,
    *,
    only_needed: bool,
) -> tuple[int, int]:
    """How few and how many of the units ``offered`` (ids of ``faction``'s units) a disbanding
    answer may name, for a menu: at least ``least`` (at least 1), or 1 when one of them takes
    others with it (a ship its cargo, the last Summoner its Summoned units); with
    ``only_needed`` (a shortfall without ``upkeep_waits``: no more than the bill needs, R-UPK-03
    as ruled, R-UPK-02) at most ``least``, else all of them. The answer is checked again when
    it is given (:func:`answer_upkeep_disband`)."""
    takes_others = any(len(units_leaving(state, ruleset, faction, [i])) > 1 for i in offered)
    fewest = 1 if takes_others else max(1, least)
    most = min(len(offered), max(1, least)) if only_needed else len(offered)
    return fewest, most


def _refuse_spare(state: GameState, ruleset: Ruleset, faction: str, ids: list[int]) -> None:
    """Refuse an answer to a shortfall that names a unit the bill does not need: one without
    which the bill would still be payable (R-UPK-03 as ruled: the minimum number of units goes;
    voluntary disbanding in step 4 only with ``upkeep_waits``, R-UPK-02).

    Raises:
        RuleViolation: naming the units not needed and the default choice.
    """
    rp = state.factions[faction].rp
    spare = [
        i for i in ids if _bill_after(state, ruleset, faction, [j for j in ids if j != i])[1] <= rp
    ]
    if not spare:
        return
    before = upkeep_bill(state, ruleset, faction)
    default = default_disbanding(state, ruleset, faction)
    names = ", ".join(
        f"{u.id} {ruleset.kind(u.kind).display_name}" for u in _with_cargo(state, default)
    )
    listed = ", ".join(f"{i} {ruleset.kind(state.peek_unit(i).kind).display_name}" for i in spare)
    raise RuleViolation(
        f"The bill is payable without disbanding one of {listed}: only as many units go as make "
        f"it payable ({before.must_disband} of the {before.units_counted} that count), and "
        "disbanding more in step 4 needs the campaign option upkeep_waits.",
        rule="R-UPK-03",
        allowed=f"disband just enough counted units, e.g. the default: {names}",
    )


def answer_upkeep_by_default(
    state: GameState, ruleset: Ruleset, decision: PendingDecision
) -> list[Event]:
    """Answer ``decision`` (``upkeep_disband``) with the default of R-UPK-03 (cheapest first,
    ties most recently mustered, Heroes last; :func:`default_disbanding`), for a missed
    deadline (R-PBP-DEAD-03). The caller then pays. Mutates ``state``.

    Raises:
        RuleViolation: ``decision`` is not an upkeep decision.
    """
    if decision.kind is not DecisionKind.UPKEEP_DISBAND:
        raise RuleViolation(
            f"Decision {decision.id} ({decision.kind}) is not an upkeep decision.",
            rule="R-PBP-DEAD-04",
        )
    faction = decision.faction
    _drop_upkeep_decisions(state, faction)
    return _remove(
        state,
        ruleset,
        faction,
        default_disbanding(state, ruleset, faction),
        "R-UPK-03",
        "upkeep could not be paid",
        by_default=True,
    )


def pay_upkeep(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """End of step 4: pay ceil(N/6) RP less Salt credit (R-UPK-01, R-COMM-07).

    If RP still cannot cover the bill, the fewest units that make it payable are disbanded in
    the default order of :func:`default_disbanding` first (R-UPK-03); RP never go below 0
    (R-BUY-02). A disbanded ship takes its cargo (R-MOVE-19). Salt credit is used up, whatever
    is left of it is lost (R-COMM-07). Any pending ``upkeep_disband`` decision is dropped.

    Mutates ``state``; returns ``[UnitsDisbanded, ...]`` (if any) then ``[UpkeepPaid]``.
    """
    fs = state.factions[faction]
    _drop_upkeep_decisions(state, faction)
    events = _remove(
        state,
        ruleset,
        faction,
        default_disbanding(state, ruleset, faction),
        "R-UPK-03",
        "upkeep could not be paid",
        by_default=True,
    )
    bill = upkeep_bill(state, ruleset, faction)
    before = fs.rp
    fs.rp -= bill.bill
    fs.salt_credit = 0
    events.append(
        UpkeepPaid(
            faction,
            state.round,
            bill.units_counted,
            bill.upkeep,
            bill.salt_used,
            bill.bill,
            before,
            fs.rp,
        )
    )
    return events


# --------------------------------------------------------------------------- marks

#: Why marked units leave the board at the start of step 4 (R-UPK-02).
MARKED_REASON = "marked to be disbanded at upkeep"


def marked_units(state: GameState, faction: str) -> list[int]:
    """The ids of ``faction``'s units marked to be disbanded at upkeep that are still its own
    and on the board, in id order (R-UPK-02)."""
    return [
        unit_id
        for unit_id in state.factions[faction].disband_marks
        if (unit := state.units.get(str(unit_id))) is not None and unit.owner == faction
    ]


def forget_lost_marks(state: GameState) -> None:
    """Drop every mark whose unit has left the board or changed hands: a mark goes with its
    unit (R-UPK-02). Run after every order. Mutates ``state``."""
    # read without copying (units and factions are copied on write, GameState.clone); a
    # faction is taken for writing only when one of its marks goes
    for seen in dict.values(state.factions):
        if seen.disband_marks:
            break
    else:
        return  # no faction has marks: nothing to drop
    units = state.units
    for code, seen in list(dict.items(state.factions)):
        if not seen.disband_marks:
            continue
        kept = [
            unit_id
            for unit_id in seen.disband_marks
            if (unit := dict.get(units, str(unit_id))) is not None and unit.owner == code
        ]
        if kept != seen.disband_marks:
            state.factions[code].disband_marks = kept


def counted_after_marks(state: GameState, ruleset: Ruleset, faction: str) -> int:
    """N of R-UPK-01 once ``faction``'s marked units are gone (with a ship's cargo and whatever
    depends on them): the units its next step 4 charges for, unless more go (R-UPK-02)."""
    gone = {u.id for u in units_leaving(state, ruleset, faction, marked_units(state, faction))}
    return sum(1 for u in upkeep_units(state, ruleset, faction) if u.id not in gone)


def carry_out_marks(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """The start of step 4: disband ``faction``'s marked units (R-UPK-02 as ruled), a ship
    with its cargo (R-MOVE-19), then whatever depended on them (R-UPK-04), and clear the marks.
    Mutates ``state``; returns ``[UnitsDisbanded, ...]``, or nothing without marks."""
    ids = marked_units(state, faction)
    state.factions[faction].disband_marks = []
    return _remove(state, ruleset, faction, ids, "R-UPK-02", MARKED_REASON)


def not_in_step_4(step: Step) -> RuleViolation:
    """The refusal of disbanding at once outside step 4 (R-UPK-02): before it, units are marked
    and disbanded when it begins; after it, upkeep is over for the turn."""
    if step < Step.UPKEEP:
        return RuleViolation(
            f"Units are disbanded at the start of step 4 (Upkeep), before the bill is computed; "
            f"this is step {step.label}.",
            rule="R-UPK-02",
            allowed="mark them to be disbanded at upkeep (in steps 1 to 4; a mark can be "
            "taken back until then)",
        )
    return RuleViolation(
        f"Upkeep is over for this turn: units are disbanded only at step 4, and this is step "
        f"{step.label}.",
        rule="R-UPK-02",
        allowed="mark units in steps 1 to 4 of your next turn; they go when its step 4 begins",
    )


# --------------------------------------------------------------------------- step 4


def handle_pay_upkeep(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> StepDone:
    """End step 4 and pay the bill (R-UPK-01); the engine allows it in step 4 only. The bill is
    paid when the step ends (:func:`_leave_upkeep`).

    Raises:
        RuleViolation: an ``upkeep_disband`` decision is pending (R-UPK-03): units must be
            chosen first (raised when the step ends).
    """
    return StepDone()


def handle_disband_units(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event] | StepDone:
    """Disband units in step 4 (R-UPK-02, R-UPK-03; see :class:`DisbandUnits`).

    Without a pending ``upkeep_disband`` decision the units go and step 4 stays open, showing
    the new bill. With one, the units named must make the bill payable; then the bill is paid
    and the turn runs on to the next step that waits.

    Raises:
        RuleViolation: outside step 4 (R-UPK-02: before it, units are marked instead); a unit
            that is not the faction's or not on the board; too few units to make the bill
            payable (R-UPK-03).
    """
    assert isinstance(order, DisbandUnits)
    if state.step is not Step.UPKEEP:
        raise not_in_step_4(state.step)
    decision = upkeep_decision(state, order.faction)
    if decision is None:
        return disband_voluntarily(state, ruleset, order.faction, order.unit_ids)
    return StepDone(answer_upkeep_disband(state, ruleset, decision, order.unit_ids))


def default_answer(
    state: GameState, ruleset: Ruleset, dice: Dice, decision: PendingDecision
) -> StepDone:
    """The default answer to an ``upkeep_disband`` decision (R-UPK-03, R-PBP-DEAD-04): the
    bot's disbanding order, then the bill is paid and step 4 ends.

    Raises:
        RuleViolation: the decision is out of date (not step 4 of its faction's turn).
    """
    if state.step is not Step.UPKEEP or decision.faction != state.active:
        raise RuleViolation(
            f"The upkeep decision {decision.id} of {decision.faction} is out of date.",
            rule="R-PBP-DEAD-04",
        )
    return StepDone(answer_upkeep_by_default(state, ruleset, decision), by_umpire=True)


def _open_upkeep(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Step 4 begins (R-UPK-02 as ruled, R-UPK-01, R-UPK-03): the marked units go, then the
    bill is shown on what is left, and a shortfall is asked about (not in a passive turn, whose
    default disbanding happens when the bill is paid, R-PBP-DEAD-03)."""
    faction = active_faction(state)
    events = carry_out_marks(state, ruleset, faction)
    return events + open_upkeep(state, ruleset, faction, ask=not state.passive)


def _leave_upkeep(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    """Step 4 ends: the bill is paid, whoever ended the step (R-TURN-02, R-UPK-01); refused
    while the faction owes an ``upkeep_disband`` answer (R-UPK-03). No mark outlives step 4."""
    faction = active_faction(state)
    decision = upkeep_decision(state, faction)
    if decision is not None and isinstance(decision.detail, UpkeepDisbandDetail):
        detail = decision.detail
        raise RuleViolation(
            f"Upkeep is {detail.bill} RP and you have {detail.rp} RP: choose "
            f"the units to disband first (at least {detail.must_disband_at_least} of "
            "those that count).",
            rule="R-UPK-03",
            allowed="DisbandUnits with the units to disband (the default choice is preselected)",
        )
    state.factions[faction].disband_marks = []
    return pay_upkeep(state, ruleset, faction)


def step_4_waits(state: GameState) -> bool:
    """Whether step 4, just begun, waits for the active faction (R-TURN-02 as ruled): when its
    RP cannot cover the bill (R-UPK-03: the ``upkeep_disband`` decision), or, with the option
    ``upkeep_waits``, whenever it has a unit it could disband (R-UPK-02). Otherwise upkeep is
    paid and the turn moves on by itself."""
    faction = active_faction(state)
    if upkeep_decision(state, faction) is not None:
        return True
    return state.options.upkeep_waits and bool(state.units_of(faction))


#: Step 4, Upkeep (R-UPK-01..05, R-TURN-02). ``DisbandUnits`` is taken in any step so that it
#: can refuse with R-UPK-02 and say what to do instead (mark the units, before step 4). The
#: orders that mark units are of no single step (:mod:`caedes_bot.rules.upkeep_marks`); this
#: step carries the marks out and drops those of units gone (``after_every_order``).
SPEC = StepSpec(
    "upkeep",
    Step.UPKEEP,
    accepts=(
        Accepts(DisbandUnits, handle_disband_units, steps=()),
        Accepts(PayUpkeep, handle_pay_upkeep),
    ),
    on_enter=_open_upkeep,
    on_leave=_leave_upkeep,
    waits=step_4_waits,
    defaults={DecisionKind.UPKEEP_DISBAND: default_answer},
    after_every_order=forget_lost_marks,
)
