"""Units on the board typed by players (:mod:`caedes_bot.cogs._transformers`): ``/move``'s
units option (counts, kinds, unit numbers) and the units it picks, saying why those that
cannot move cannot (R-MOVE-01); the stacks, origins and destinations offered while they type;
and one unit of the faction's own named by number or label (``/disband``, ``/sail``...).

Pure functions of the static ruleset and a game state (no discord).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from caedes_bot.cogs._kind_names import resolve_kind_in
from caedes_bot.cogs._place_names import province_choices
from caedes_bot.cogs._transformers import MAX_CHOICES, Choice, counted, echo, parse_count
from caedes_bot.gamedata.loader import suggest
from caedes_bot.gamedata.model import Ruleset, UnitKind
from caedes_bot.gamedata.names import contains, fold
from caedes_bot.rules import movement, upkeep, upkeep_marks
from caedes_bot.rules.errors import AmbiguousName, IllegalMove, RuleViolation, UnknownName
from caedes_bot.rules.state import GameState, Unit
from caedes_bot.ui.describe import kind_counts, unit_label
from caedes_bot.ui.reasons import cannot_move
from caedes_bot.ui.text import CHOICE_NAME_LIMIT, CHOICE_VALUE_LIMIT

# --------------------------------------------------------------------------- resolving


@dataclass(frozen=True, slots=True)
class UnitRequest:
    """Part of a ``/move`` units option: ``count`` units (``None``: all that can move) of the
    kind named ``name`` (``None``: every kind), or the one unit numbered ``unit_id``."""

    name: str | None
    count: int | None
    unit_id: int | None = None


#: A unit number in a ``units`` option: ``#4`` (the ``#`` tells it from a count).
_UNIT_NUMBER = re.compile(r"#\s*(\d{1,9})")
#: A part of a ``units`` option that is unit numbers only: ``#4``, ``#4 #7``, ``# 4``.
_UNIT_NUMBERS = re.compile(r"(?:\s*#\s*\d{1,9})+\s*")

#: What a ``/move`` or ``/fly`` units option takes, for refusals.
MOVE_UNITS_ALLOWED = (
    "a count and a unit, like `2 Dawnian Infantry`, unit numbers like `#4, #7`, or `all`"
)


def parse_units(text: str) -> list[UnitRequest]:
    """Read a ``units`` option: ``"2xU-DAW-01"`` (the autocomplete's values), ``"2 knights"``,
    ``"knights"`` (all of them), ``"all"``, unit numbers (``"#4"``, ``"#4 #7"``, as other
    commands take units by number), or several of these joined by commas. A trailing
    ``@province`` (added by the autocomplete) is ignored here.

    Raises:
        RuleViolation: nothing readable, or a count below 1 or above :data:`MAX_TEXT_COUNT`
            (R-MOVE-01).
    """
    requests: list[UnitRequest] = []
    for part in text.split(","):
        part = part.split("@", 1)[0].strip()
        if not part:
            continue
        if fold(part) in ("all", "everything", "*"):
            requests.append(UnitRequest(None, None))
            continue
        if _UNIT_NUMBERS.fullmatch(part):
            requests += [UnitRequest(None, None, int(n)) for n in _UNIT_NUMBER.findall(part)]
            continue
        digits, named = counted(part)
        count = parse_count(digits, part, rule="R-MOVE-01") if digits else None
        requests.append(UnitRequest(named or None, count))
    if not requests:
        raise RuleViolation(
            f"'{echo(text)}' names no units.", rule="R-MOVE-01", allowed=MOVE_UNITS_ALLOWED
        )
    return requests


def _numbered_to_move(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    province: str,
    unit_id: int,
    movable: Sequence[Unit],
    allowed: str,
) -> int:
    """``unit_id`` if it is one of ``movable`` (``faction``'s units in ``province`` that can
    move); otherwise the reason it cannot be moved from there (R-MOVE-01).

    Raises:
        IllegalMove: not a unit of the faction, elsewhere, or unable to move (why).
    """
    if any(u.id == unit_id for u in movable):
        return unit_id
    unit = next((u for u in state.peek_units_of(faction) if u.id == unit_id), None)
    if unit is None:
        raise IllegalMove(f"You have no unit #{unit_id}.", allowed=allowed)
    label = unit_label(ruleset, unit.id, unit.kind, unit.location)
    if unit.location != province:
        where = ruleset.map.space_name(province)
        raise IllegalMove(
            f"Your {label} is not in {where}.",
            allowed=f"{allowed}; or #{unit_id} with from: {ruleset.map.space_name(unit.location)}",
        )
    raise _stuck(state, ruleset, [unit], province, allowed)


def _movable_here(state: GameState, ruleset: Ruleset, faction: str, province: str) -> list[Unit]:
    return [
        u
        for u in state.units_at(province)
        if u.owner == faction and movement.plan_moves(state, ruleset, u)
    ]


def _stuck(
    state: GameState, ruleset: Ruleset, units: Sequence[Unit], province: str, allowed: str
) -> IllegalMove:
    """The refusal to move ``units`` of the faction (none of which can move), saying why: for
    each kind, the first reason the rules give (:func:`caedes_bot.rules.movement.why_stuck`)."""
    by_kind: dict[str, list[Unit]] = {}
    for unit in units:
        by_kind.setdefault(unit.kind, []).append(unit)
    reasons: list[tuple[str, movement.Stuck]] = []
    for kind, group in by_kind.items():
        found = [movement.why_stuck(state, ruleset, u) for u in group]
        real = [why for why in found if why is not None and why is not movement.Stuck.NOWHERE]
        reasons.append((kind, real[0] if real else movement.Stuck.NOWHERE))
    message = cannot_move(ruleset, province, reasons)
    return IllegalMove(message, rule=reasons[0][1].rule, allowed=allowed)


def _kind_to_move(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    province: str,
    text: str,
    movable: Sequence[Unit],
    allowed: str,
) -> UnitKind:
    """The kind ``text`` names among ``faction``'s movable units in ``province``; otherwise the
    reason it cannot be moved from there (R-MOVE-01, R-ATTR-FORT-01).

    Raises:
        IllegalMove: the faction's units of that kind there cannot move (why), it has none
            there, or the kind is another faction's.
        UnknownName: no such unit at all.
    """
    where = ruleset.map.space_name(province)
    here = list({u.kind: ruleset.kind(u.kind) for u in movable}.values())
    mine_units = [u for u in state.units_at(province) if u.owner == faction]
    mine = list({u.kind: ruleset.kind(u.kind) for u in mine_units}.values())
    own = list(ruleset.order_of_battle(faction))
    everyone = list(ruleset.units.values())
    kind = resolve_kind_in(ruleset, text, [here, mine, own, everyone], rule="R-MOVE-01")
    if kind in here:
        return kind
    if kind in mine:
        stuck = [u for u in mine_units if u.kind == kind.id]
        raise _stuck(state, ruleset, stuck, province, allowed)
    if kind.faction != faction:
        owner = ruleset.faction(kind.faction).name
        raise IllegalMove(
            f"{kind.display_name} are units of the {owner}; you move only your own.",
            allowed=allowed,
        )
    raise IllegalMove(f"You have no {kind.display_name} in {where}.", allowed=allowed)


def pick_units(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    province: str,
    requests: Sequence[UnitRequest],
    destination: str | None = None,
) -> tuple[int, ...]:
    """The ids of ``faction``'s units in ``province`` that ``requests`` ask for (R-MOVE-01).

    Units named by number come first, each once; counts of a kind are taken from the others.
    Requests naming the same kind add up ("1 Infantry, 1 Infantry" is 2 Infantry). Among units
    of a kind the ones that can reach ``destination`` come first, then those with the most
    movement left, then by id.

    Raises:
        UnknownName: no unit of that name at all.
        IllegalMove: none of the faction's units there can move, or those of the kind named
            cannot (with the reason: a Tower, no movement left...); the kind is another
            faction's; fewer movable units of a kind than asked; or a unit named by number
            is not the faction's, is elsewhere, or cannot move (why).
    """
    here = _movable_here(state, ruleset, faction, province)
    name = ruleset.map.space_name(province)
    if not here:
        mine = [u for u in state.units_at(province) if u.owner == faction]
        origins = sorted(
            {ruleset.map.space_name(s.province) for s in movable_stacks(state, ruleset, faction)}
        )
        elsewhere = "a province where your units can still move: " + (", ".join(origins) or "none")
        if not mine:
            raise IllegalMove(f"You have no units in {name}.", allowed=elsewhere)
        raise _stuck(state, ruleset, mine, province, elsewhere)
    allowed = f"units that can move from {name}: " + kind_counts(ruleset, [u.kind for u in here])

    def order(unit: Unit) -> tuple[int, int, int]:
        reach = 0
        if destination is not None:
            reach = 0 if destination in movement.plan_moves(state, ruleset, unit) else 1
        return (reach, unit.movement_used, unit.id)

    chosen: list[int] = []
    for request in requests:  # units by number first; counts of a kind are taken from the rest
        if request.unit_id is not None and request.unit_id not in chosen:
            chosen.append(
                _numbered_to_move(state, ruleset, faction, province, request.unit_id, here, allowed)
            )
    wanted: dict[str | None, int | None] = {}  # kind id (None: any kind) -> count (None: all)
    for request in requests:
        if request.unit_id is not None:
            continue
        key = None
        if request.name is not None:
            key = _kind_to_move(state, ruleset, faction, province, request.name, here, allowed).id
        if key in wanted:
            before = wanted[key]
            wanted[key] = (
                None if before is None or request.count is None else before + request.count
            )
        else:
            wanted[key] = request.count
    for key, count in wanted.items():
        what = "units" if key is None else ruleset.kind(key).display_name
        pool = [u for u in here if u.id not in chosen and (key is None or u.kind == key)]
        pool.sort(key=order)
        take = len(pool) if count is None else count
        if not pool or take > len(pool):
            raise IllegalMove(
                f"Only {len(pool)} {what} in {name} can move now, not {take or 'any'}.",
                rule="R-MOVE-01",
                allowed=f"at most {len(pool)} {what}",
            )
        chosen += [u.id for u in pool[:take]]
    return tuple(chosen)


# --------------------------------------------------------------------------- choices


@dataclass(frozen=True, slots=True)
class Stack:
    """``faction``'s units of one kind in one province that can still move (R-MOVE-01)."""

    province: str
    kind: str
    unit_ids: tuple[int, ...]

    @property
    def value(self) -> str:
        """The autocomplete value: ``"2xU-DAW-01@harrowgate"``."""
        return f"{len(self.unit_ids)}x{self.kind}@{self.province}"


def movable_stacks(state: GameState, ruleset: Ruleset, faction: str) -> list[Stack]:
    """Every stack of ``faction``'s units that can still move, by province name then kind."""
    groups: dict[tuple[str, str], list[int]] = {}
    for unit in movement.movable_units(state, ruleset, faction):
        groups.setdefault((unit.location, unit.kind), []).append(unit.id)
    stacks = [Stack(p, k, tuple(ids)) for (p, k), ids in groups.items()]
    stacks.sort(key=lambda s: (ruleset.map.space_name(s.province), s.kind))
    return stacks


def stack_label(ruleset: Ruleset, stack: Stack, count: int | None = None) -> str:
    """``"2 Dawnian Infantry in Harrowgate"``."""
    n = len(stack.unit_ids) if count is None else count
    return (
        f"{n} {ruleset.kind(stack.kind).display_name} in {ruleset.map.space_name(stack.province)}"
    )


def unit_choices(
    state: GameState, ruleset: Ruleset, faction: str, origin: str | None, current: str
) -> list[Choice]:
    """What ``/move`` may take: stacks of movable units, from ``origin`` if given (then also
    "all" and one unit of each kind that has several), else from everywhere. Once ``#`` is
    typed, the movable units one by one by number instead, matching the digits typed after
    it; each keeps the parts typed before the last comma, so several can be named
    (``"#4@orme, #7@orme"``: the place tells ``from`` where they are)."""
    stacks = movable_stacks(state, ruleset, faction)
    if origin:
        stacks = [s for s in stacks if s.province == origin]
    head, _, last = current.rpartition(",")
    if last.strip().startswith("#"):
        return _numbered_choices(ruleset, stacks, head, last.strip()[1:].strip())
    out: list[Choice] = []
    for stack in stacks:
        kind = ruleset.kind(stack.kind)
        if not contains(current, kind.display_name, stack.province, kind.id):
            continue
        out.append((stack_label(ruleset, stack), stack.value))
        if origin and len(stack.unit_ids) > 1:
            out.append((stack_label(ruleset, stack, 1), f"1x{stack.kind}@{stack.province}"))
    if origin and len(stacks) > 1 and contains(current, "all"):
        total = sum(len(s.unit_ids) for s in stacks)
        name = ruleset.map.space_name(origin)
        out.insert(0, (f"All {total} units that can move in {name}", "all"))
    return out[:MAX_CHOICES]


def _numbered_choices(
    ruleset: Ruleset, stacks: Sequence[Stack], head: str, digits: str
) -> list[Choice]:
    """The units of ``stacks`` one by one, whose number starts with ``digits``:
    ``("Dawnian Knights #4 in Orme", "#4@orme")`` after the parts in ``head``."""
    parts = [p.strip() for p in head.split(",") if p.strip()]
    prefix = "".join(f"{p}, " for p in parts)
    shown = "".join(f"{p.split('@', 1)[0].strip()}, " for p in parts)  # the places left out
    taken = {p.split("@", 1)[0].strip() for p in parts}
    out: list[Choice] = []
    for stack in stacks:
        for uid in stack.unit_ids:
            if not str(uid).startswith(digits) or f"#{uid}" in taken:
                continue
            value = f"{prefix}#{uid}@{stack.province}"
            if len(value) > CHOICE_VALUE_LIMIT:
                continue
            label = shown + unit_label(ruleset, uid, stack.kind, stack.province)
            out.append((label[-CHOICE_NAME_LIMIT:], value))
            if len(out) == MAX_CHOICES:
                return out
    return out


def origin_choices(
    state: GameState, ruleset: Ruleset, faction: str, current: str, preferred: str | None = None
) -> list[Choice]:
    """Provinces where ``faction`` has units that can still move; ``preferred`` first."""
    stacks = movable_stacks(state, ruleset, faction)
    counts: dict[str, int] = {}
    for stack in stacks:
        counts[stack.province] = counts.get(stack.province, 0) + len(stack.unit_ids)
    notes = {p: f"{n} can move" for p, n in counts.items()}
    found = province_choices(state, ruleset, faction, current, counts, notes=notes)
    if preferred:
        found.sort(key=lambda c: c[1] != preferred)
    return found


def destination_choices(
    state: GameState, ruleset: Ruleset, faction: str, unit_ids: Sequence[int], current: str
) -> list[Choice]:
    """Provinces that every one of ``unit_ids`` may reach now (R-MOVE-01..12), attacks marked
    (R-MOVE-02): the faction's own first."""
    reach = movement.legal_destinations(state, ruleset, unit_ids)
    notes = {p: "attack" for p, attack in reach.items() if attack}
    return province_choices(state, ruleset, faction, current, reach, notes=notes)


def mark_choices(state: GameState, ruleset: Ruleset, faction: str, current: str) -> list[Choice]:
    """What ``/disband`` may toggle now (R-UPK-02, :func:`upkeep_marks.markable_units`): the
    faction's units, marked ones first and said so: ``"Dawnian Knights #4 in Orme - marked"``;
    nothing outside steps 1 to 4 of its turn."""
    marked = set(upkeep.marked_units(state, faction))
    out: list[Choice] = []
    for unit in upkeep_marks.markable_units(state, ruleset, faction):
        label = unit_label(ruleset, unit.id, unit.kind, unit.location)
        if unit.id in marked:
            label += " - marked (choose to take the mark back)"
        if contains(current, label, str(unit.id)):
            out.append((label, str(unit.id)))
    return out[:MAX_CHOICES]


# --------------------------------------------------------------------------- own units


_UNIT_ID = re.compile(r"#?\s*(\d{1,9})")

#: What a unit option takes, said when the text names none of the faction's units.
OWN_UNIT_ALLOWED = (
    "one of your units, as the unit option lists them: its number (#4) or its name and place "
    "(Knights #4 in Orme)"
)


def resolve_own_unit(
    state: GameState, ruleset: Ruleset, faction: str, text: str, rule: str = "R-UPK-02"
) -> int:
    """The id of the unit of ``faction`` that ``text`` names: its id (``"4"``, ``"#4"``), or
    words found in exactly one of its units' labels (``"Knights #4 in Orme"``, ``"knights"``
    if it has one Knights unit). The rules check the unit again. ``rule`` is the rule a
    refusal cites: the command's own (R-UPK-02 for ``/disband``, R-MOVE-18 for ``/sail``...).

    Raises:
        AmbiguousName: the words are found in several of its units' labels (listed).
        UnknownName: in none; near matches suggested.
    """
    match = _UNIT_ID.fullmatch(text.strip())
    if match is not None:
        return int(match[1])
    labels = {
        u.id: unit_label(ruleset, u.id, u.kind, u.location) for u in state.peek_units_of(faction)
    }
    found = [uid for uid, label in labels.items() if fold(text) and contains(text, label)]
    if len(found) == 1:
        return found[0]
    if found:
        names = tuple(labels[uid] for uid in found)
        raise AmbiguousName("unit of yours", echo(text), names, rule=rule)
    near = suggest(text, list(labels.values()))
    error = UnknownName("unit of yours", echo(text), near, rule=rule)
    error.allowed = OWN_UNIT_ALLOWED
    raise error
