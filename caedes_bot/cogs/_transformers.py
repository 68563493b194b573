"""Names typed by players, and the choices offered while they type (ux.md "Autocomplete that
knows the game").

Two halves, both pure functions of the static ruleset and a game state (no discord), so they
are tested without a bot:

* **resolving** what a member typed into ids, with near-match suggestions for a misspelt name
  (``No province 'Ormee'. Did you mean Orme?``): :func:`resolve_province`, :func:`resolve_kind`,
  :func:`resolve_faction`, :func:`parse_units`, :func:`pick_units`. Names are matched as
  people type them, folded by :func:`caedes_bot.gamedata.names.fold` (curly apostrophes,
  doubled spaces, case, accents), and a unique start of a name counts; a start shared by
  several names is refused, listing them;
* **choices** for autocomplete: ONLY what is legal now, best first (the member's own places
  first), labelled so the label alone is enough to choose ("Orme (plains, river) - Dawnian -
  3 units"), at most 25, labels under 100 characters. Each returns ``(label, value)`` pairs;
  :func:`caedes_bot.ui.text.choices` turns them into Discord choices. The commands still check
  the final value: autocomplete is a help, never a guarantee. Both halves match names with the
  same folding, so what the autocomplete finds the command accepts.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.loader import suggest
from caedes_bot.gamedata.model import Ruleset, UnitKind
from caedes_bot.gamedata.names import NAME_MAX, Found, contains, find, fold
from caedes_bot.rules import buy, movement, muster, summons, upkeep, upkeep_marks
from caedes_bot.rules.errors import (
    AmbiguousName,
    IllegalMove,
    RuleViolation,
    UnknownName,
    quoted,
)
from caedes_bot.rules.state import GameState, Unit
from caedes_bot.ui.describe import (
    faction_adjective,
    kind_counts,
    kind_stats,
    province_label,
    unit_label,
)
from caedes_bot.ui.reasons import cannot_move
from caedes_bot.ui.summoning import needs_text
from caedes_bot.ui.text import CHOICE_NAME_LIMIT, CHOICE_VALUE_LIMIT

#: At most this many choices (Discord's limit).
MAX_CHOICES = 25

Choice = tuple[str, str]


# --------------------------------------------------------------------------- resolving


def _echo(text: str) -> str:
    """What the member typed, on one line and short enough to quote back."""
    return quoted(text)


#: What is allowed instead of a name that matches nothing and nothing near.
_PICK_PROVINCE = "a province's name (or its start); the list offers them as you type"
_PICK_SPACE = "a province's or sea zone's name (or its start); the list offers them as you type"
_PICK_UNIT = "a unit's name (or its start), like Dawnian Infantry; the list offers them as you type"


def find_province(ruleset: Ruleset, text: str) -> str | None:
    """The province id ``text`` names (as :func:`resolve_province`), or ``None`` when it names
    none, several, or a sea zone: for an autocomplete, which offers and never refuses."""
    found = _find_space(ruleset, text)
    return found.item if found.item is not None and found.item in ruleset.map.provinces else None


def _find_space(ruleset: Ruleset, text: str) -> Found[str]:
    """The province or sea zone ``text`` names, by id or name (R-GEN-04, :func:`find`)."""
    game_map = ruleset.map
    spaces = [(p.id, p.name) for p in game_map.provinces.values()]
    spaces += [(z.id, z.name) for z in game_map.sea_zones.values()]
    return find(text, ((sid, (sid, name)) for sid, name in spaces))


def resolve_province(
    ruleset: Ruleset,
    text: str,
    *,
    rule: str = "R-MOVE-01",
    at_sea: tuple[str, str] | None = None,
) -> str:
    """The province id named by ``text``: its id or its name as people type them (any case,
    accents, curly apostrophes, extra spaces: :func:`caedes_bot.gamedata.names.fold`), or the
    start of exactly one province's name (R-GEN-04).

    Args:
        rule: the rule cited when no province has that name.
        at_sea: ``(rule, why)`` said when ``text`` names a sea zone ("land units move between
            provinces", R-MOVE-09); by default ``rule`` and "a province is needed here".

    Raises:
        UnknownName: no such province; carries up to three near matches by name
            ("No province 'Ormee'. Did you mean Orme?").
        AmbiguousName: ``text`` is the start of several names; lists them.
        RuleViolation: ``text`` names a sea zone (what is allowed: a province's name).
    """
    found = _find_space(ruleset, text)
    game_map = ruleset.map
    if found.item is not None and found.item in game_map.provinces:
        return found.item
    if found.item is not None:
        sea_rule, why = at_sea or (rule, "a province is needed here")
        name = game_map.space_name(found.item)
        raise RuleViolation(f"{name} is a sea zone; {why}.", rule=sea_rule, allowed=_PICK_PROVINCE)
    if found.ambiguous:
        names = tuple(game_map.space_name(s) for s in found.ambiguous)
        raise AmbiguousName("place", _echo(text), names, rule=rule)
    near = suggest(text, [p.name for p in game_map.provinces.values()])
    unknown = UnknownName("province", _echo(text), near, rule=rule)
    unknown.allowed = _PICK_PROVINCE
    raise unknown


def resolve_space(ruleset: Ruleset, text: str, *, rule: str = "R-GEN-04") -> str:
    """The province or sea zone id named by ``text`` (as :func:`resolve_province`, but a sea
    zone is allowed too): for ``/map province:``, which zooms on either.

    Raises:
        UnknownName: no such place; carries up to three near matches by name.
        AmbiguousName: ``text`` is the start of several names; lists them.
    """
    found = _find_space(ruleset, text)
    game_map = ruleset.map
    if found.item is not None:
        return found.item
    if found.ambiguous:
        names = tuple(game_map.space_name(s) for s in found.ambiguous)
        raise AmbiguousName("place", _echo(text), names, rule=rule)
    every = [p.name for p in game_map.provinces.values()]
    every += [z.name for z in game_map.sea_zones.values()]
    unknown = UnknownName("province", _echo(text), suggest(text, every), rule=rule)
    unknown.allowed = _PICK_SPACE
    raise unknown


def space_choices(
    state: GameState, ruleset: Ruleset, faction: str | None, current: str
) -> list[Choice]:
    """The provinces of :func:`province_choices` matching ``current``, then the sea zones that
    match, by name (at most :data:`MAX_CHOICES`)."""
    choices = province_choices(state, ruleset, faction, current)
    seas = sorted(
        (z.name, z.id) for z in ruleset.map.sea_zones.values() if contains(current, z.name, z.id)
    )
    return (choices + [(f"{name} (sea zone)", sid) for name, sid in seas])[:MAX_CHOICES]


def _kind_names(kind: UnitKind) -> tuple[str, str, str]:
    return (kind.id, kind.display_name, kind.name)


def _find_kind(text: str, kinds: Sequence[UnitKind]) -> Found[UnitKind]:
    """The kind among ``kinds`` named by ``text`` (see :func:`resolve_kind`): by a name, by the
    start of names, else by a part of the display or short name found in one kind only."""
    found = find(text, ((k, _kind_names(k)) for k in kinds))
    if found.item is not None or found.ambiguous:
        return found
    typed = fold(text)
    if len(typed) > NAME_MAX:
        return Found()
    inside = [k for k in kinds if typed and _inside(typed, k)]
    return Found(inside[0]) if len(inside) == 1 else Found()


def _inside(typed: str, kind: UnitKind) -> bool:
    """Whether ``typed`` (folded) is a part of the display or short name of ``kind``."""
    return typed in fold(kind.display_name) or typed in fold(kind.name)


#: How alike (difflib's ratio) a name must be to what was typed to be suggested.
_CLOSE = 0.6


def kind_suggestions(text: str, kinds: Sequence[UnitKind]) -> tuple[str, ...]:
    """Up to three display names of ``kinds`` near ``text``, compared with both the display
    names and the short names, folded (``"Knigths"`` -> Dawnian Knights, R-GEN-04); only
    names about as close as the closest are offered."""
    by_name: dict[str, list[str]] = {}
    for kind in kinds:
        for name in (kind.display_name, kind.name):
            shown = by_name.setdefault(fold(name), [])
            if kind.display_name not in shown:
                shown.append(kind.display_name)
    typed = fold(text)
    if len(typed) > NAME_MAX:
        return ()
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(typed)  # the typed text is studied once, as difflib.get_close_matches does
    close: list[tuple[float, str]] = []
    for name in by_name:
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= _CLOSE and matcher.quick_ratio() >= _CLOSE:
            score = matcher.ratio()
            if score >= _CLOSE:
                close.append((score, name))
    scored = sorted(close, reverse=True)
    best = scored[0][0] if scored else 0.0
    out: list[str] = []
    for score, name in scored:
        if score < best - 0.1:  # only names about as close as the closest
            break
        out += [d for d in by_name[name] if d not in out]
    if not out:
        out = [k.display_name for k in kinds if typed and _inside(typed, k)]
    return tuple(out[:3])


def resolve_kind(
    ruleset: Ruleset,
    text: str,
    among: Iterable[UnitKind] | None = None,
    *,
    rule: str = "R-BUY-01",
) -> UnitKind:
    """The unit kind named by ``text``: its id, its display name ("Dawnian Knights") or its short
    name ("Knights") as people type them (:func:`caedes_bot.gamedata.names.fold`); the start of
    the names of exactly one kind, or a part of one kind's name only, also counts (R-GEN-04).

    Args:
        among: the kinds to look in (default: every kind of the order of battle).

    Raises:
        UnknownName: no such kind among them, with near matches by display or short name.
        AmbiguousName: ``text`` is the start of the names of several kinds; lists them.
    """
    kinds = list(among) if among is not None else list(ruleset.units.values())
    return resolve_kind_in(ruleset, text, [kinds], rule=rule)


def find_kind(ruleset: Ruleset, text: str) -> UnitKind | None:
    """The kind ``text`` names among every kind (as :func:`resolve_kind`), or ``None``: for an
    autocomplete, which offers and never refuses."""
    return _find_kind(text, list(ruleset.units.values())).item


def resolve_kind_in(
    ruleset: Ruleset, text: str, pools: Sequence[Sequence[UnitKind]], *, rule: str
) -> UnitKind:
    """The kind named by ``text`` in the first of ``pools`` that has it (the member's likeliest
    meaning first: units here, then the faction's own, then everyone's). A full name in any
    pool comes before a start of a name or a part of one.

    Raises:
        UnknownName: in none of them; near matches from the first pool that has some.
        AmbiguousName: in the first pool where ``text`` names anything, it is the start of the
            names of several kinds; lists their display names.
    """
    typed = fold(text)
    for pool in pools:
        for kind in pool:
            if typed in (fold(n) for n in _kind_names(kind)):
                return kind
    for pool in pools:
        found = _find_kind(text, pool)
        if found.item is not None:
            return found.item
        if found.ambiguous:
            names = tuple(dict.fromkeys(k.display_name for k in found.ambiguous))
            raise AmbiguousName("unit", _echo(text), names, rule=rule)
    close: tuple[str, ...] = ()
    for pool in pools:
        close = kind_suggestions(text, pool)
        if close:
            break
    unknown = UnknownName("unit", _echo(text), close, rule=rule)
    unknown.allowed = _PICK_UNIT
    raise unknown


def resolve_faction(
    ruleset: Ruleset, text: str, codes: Sequence[str], *, rule: str = "R-SETUP-02"
) -> str:
    """The faction code among ``codes`` named by ``text``: code, name or adjective as people
    type them (:func:`caedes_bot.gamedata.names.fold`), or the start of exactly one of those
    (R-GEN-04).

    Raises:
        UnknownName: none of ``codes`` (a faction of the game that is not in this campaign is
            said to be so), with near matches and the factions allowed.
        AmbiguousName: ``text`` is the start of the names of several of ``codes``.
    """

    def entries(pool: Iterable[str]) -> list[tuple[str, tuple[str, str, str]]]:
        out = []
        for code in pool:
            faction = ruleset.faction(code)
            out.append((code, (code, faction.name, faction.adjective)))
        return out

    found = find(text, entries(codes))
    if found.item is not None:
        return found.item
    allowed = ", ".join(f"{ruleset.faction(c).name} ({c})" for c in codes) or "none"
    if found.ambiguous:
        names = tuple(ruleset.faction(c).name for c in found.ambiguous)
        error: RuleViolation = AmbiguousName("faction", _echo(text), names, rule=rule)
        error.allowed = allowed
        raise error
    others = [f.code for f in ruleset.factions if f.code not in codes]
    elsewhere = find(text, entries(others)).item
    if elsewhere is not None:
        name = ruleset.faction(elsewhere).name
        raise RuleViolation(
            f"The {name} are not in play in this campaign.", rule=rule, allowed=allowed
        )
    near = suggest(text, [*codes, *(ruleset.faction(c).name for c in codes)])
    error = UnknownName("faction", _echo(text), near, rule=rule)
    error.allowed = allowed
    raise error


_COUNTED = re.compile(
    r"(?:(?P<count>[-+]?\d+)\s*[x×*]?\s*)?(?P<name>.*)", re.IGNORECASE | re.DOTALL
)


def _counted(part: str) -> tuple[str | None, str]:
    """One item of a count list (``"2 knights"``, ``"2xU-DAW-01"``, ``"grain"``) as its count's
    digits (``None`` if it has none) and the name after them. Any text is read: whitespace of
    any kind, line breaks included, counts as one space."""
    one_line = " ".join(part.split())
    match = _COUNTED.fullmatch(one_line)
    if match is None:  # the name takes any text, so this does not happen
        return None, one_line
    return match["count"], match["name"]


#: At most this many of one item in a count typed as text (units of a kind to move,
#: commodities of a set).
MAX_TEXT_COUNT = 99


def parse_count(digits: str, typed: str, *, most: int = MAX_TEXT_COUNT, rule: str) -> int:
    """The count ``digits`` (an optional sign and decimal digits) found in ``typed``, from 1 to
    ``most``.

    The digits are measured before they become a number, so a count of thousands of digits is
    refused at once (Python will not read more than 4,300 digits) and never makes anything
    that many times.

    Raises:
        RuleViolation: 0 or negative, or more than ``most``; cites ``rule``.
    """
    value = digits.strip()
    magnitude = value.lstrip("+-").lstrip("0")
    allowed = f"a count from 1 to {most}"
    if value.startswith("-") or not magnitude:
        raise RuleViolation(
            f"Counts must be positive: '{_echo(typed)}'.", rule=rule, allowed=allowed
        )
    if len(magnitude) > len(str(most)) or int(magnitude) > most:
        raise RuleViolation(
            f"At most {most} of one item: '{_echo(typed)}' is too many.", rule=rule, allowed=allowed
        )
    return int(magnitude)


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
        digits, named = _counted(part)
        count = parse_count(digits, part, rule="R-MOVE-01") if digits else None
        requests.append(UnitRequest(named or None, count))
    if not requests:
        raise RuleViolation(
            f"'{_echo(text)}' names no units.", rule="R-MOVE-01", allowed=MOVE_UNITS_ALLOWED
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


def kind_to_buy(ruleset: Ruleset, faction: str, text: str) -> UnitKind:
    """The kind named ``text``: looked for in the faction's own order of battle first, then
    among every faction's (so that another faction's unit is refused by R-BUY-01 with a
    reason, not reported unknown).

    Raises:
        UnknownName: no such unit anywhere (near matches from the faction's own list first).
    """
    own = [k for k in ruleset.order_of_battle(faction) if not k.hero]
    return resolve_kind_in(ruleset, text, [own, list(ruleset.units.values())], rule="R-BUY-01")


def kind_to_muster(state: GameState, ruleset: Ruleset, faction: str, text: str) -> UnitKind:
    """The kind named ``text``: looked for among the units ``faction`` bought this turn and has
    not placed first, then its own order of battle, then every faction's (R-MUSTER-01). The
    rules refuse a kind that is not waiting, with the reason and what is.

    Raises:
        UnknownName: no such unit at all.
    """
    waiting = state.factions[faction].purchases
    waiting_kinds = list({k: ruleset.kind(k) for k in waiting}.values())
    own = list(ruleset.order_of_battle(faction))
    pools = [waiting_kinds, own, list(ruleset.units.values())]
    return resolve_kind_in(ruleset, text, pools, rule="R-MUSTER-01")


# --------------------------------------------------------------------------- choices


def _by_owner_first(state: GameState, faction: str | None, province: str) -> int:
    owner = state.owner(province)
    if faction is not None and owner == faction:
        return 0
    if owner is None:
        return 1
    return 2


def province_choices(
    state: GameState,
    ruleset: Ruleset,
    faction: str | None,
    current: str,
    candidates: Iterable[str] | None = None,
    *,
    notes: dict[str, str] | None = None,
) -> list[Choice]:
    """Provinces matching ``current``, the faction's own first, then unowned, then others', each
    by name, labelled by :func:`~caedes_bot.ui.describe.province_label` (plus ``notes[id]``)."""
    pool = list(ruleset.map.provinces) if candidates is None else list(candidates)
    items: list[tuple[tuple[int, str], Choice]] = []
    for pid in pool:
        province = ruleset.map.provinces.get(pid)
        if province is None or not contains(current, province.name, pid):
            continue
        label = province_label(state, ruleset, pid)
        if notes and pid in notes:
            label += f" - {notes[pid]}"
        items.append(((_by_owner_first(state, faction, pid), province.name), (label, pid)))
    items.sort(key=lambda item: item[0])
    return [choice for _, choice in items[:MAX_CHOICES]]


def buy_choices(state: GameState, ruleset: Ruleset, faction: str, current: str) -> list[Choice]:
    """Units ``faction`` may buy now with their price after discounts (R-BUY-01, R-COMM-09;
    :func:`caedes_bot.rules.buy.buy_options`): the affordable ones first. Label:
    ``"Dawnian Knights - 6 RP - A5 D4 M2"``; an Undead or Summoned unit says what it needs
    (``"- needs a Necromancer: Archursia has one"``, R-RACE-UND-01, R-RACE-SUM-01). Summoned
    units come last: buying one summons it at once (R-MAGIC-SUMM-01)."""
    items: list[tuple[tuple[int, int], Choice]] = []
    offers = [(o.kind, o.price, o.affordable) for o in buy.buy_options(state, ruleset, faction)]
    rp = state.factions[faction].rp
    for kind in summons.summoned_kinds(ruleset, faction):
        price = summons.summon_prices(state, faction, kind, 1)[0][0]
        offers.append((kind, price, price <= rp))
    for index, (kind, price, affordable) in enumerate(offers):
        if not contains(current, kind.display_name, kind.id):
            continue
        note = "" if affordable else " - too dear now"
        need = needs_text(state, ruleset, faction, kind)
        if need:
            note += f" - {need}"
        label = f"{kind.display_name} - {price} RP - {kind_stats(kind)}{note}"
        items.append(((0 if affordable else 1, index), (label, kind.id)))
    items.sort(key=lambda item: item[0])
    return [choice for _, choice in items[:MAX_CHOICES]]


def muster_kind_choices(
    state: GameState, ruleset: Ruleset, faction: str, current: str
) -> list[Choice]:
    """Units bought this turn and waiting for step 8 (R-MUSTER-01): ``"Dawnian Knights (2
    waiting)"``; those with somewhere to go first."""
    waiting: dict[str, int] = {}
    for kind_id in state.factions[faction].purchases:
        waiting[kind_id] = waiting.get(kind_id, 0) + 1
    items: list[tuple[int, Choice]] = []
    for kind_id, count in waiting.items():
        kind = ruleset.kind(kind_id)
        if not contains(current, kind.display_name, kind_id):
            continue
        legal = muster.legal_muster_provinces(state, ruleset, faction, kind_id)
        note = "" if legal else " - nowhere to muster"
        items.append((0 if legal else 1, (f"{kind.display_name} ({count} waiting){note}", kind_id)))
    items.sort(key=lambda item: item[0])
    return [choice for _, choice in items[:MAX_CHOICES]]


def muster_province_choices(
    state: GameState, ruleset: Ruleset, faction: str, kind_id: str | None, current: str
) -> list[Choice]:
    """Provinces where one unit of ``kind_id`` may be mustered now (R-MUSTER-01..08,
    R-RACE-*), each with how many more it takes this step (``"takes 1 more this step"`` under
    the one-unit limit of R-MUSTER-04, ``"any number"`` without it: :func:`muster.muster_room`),
    and for a ship the water it may go on (R-ATTR-WATER-03); with no kind, every place where
    any waiting unit may go."""
    waiting = state.factions[faction].purchases
    kinds = [kind_id] if kind_id else sorted(set(waiting))
    room: dict[str, int | None] = {}
    for kid in kinds:
        for pid, more in muster.muster_room(state, ruleset, faction, kid):
            unlimited = more is None or (pid in room and room[pid] is None)
            room[pid] = None if unlimited else more
    notes = {
        pid: "any number" if more is None else f"takes {more} more this step"
        for pid, more in room.items()
    }
    found = province_choices(state, ruleset, faction, current, room, notes=notes)
    water = sorted((ruleset.map.space_name(s), s) for s in room if not ruleset.map.is_province(s))
    found += [(name, s) for name, s in water if contains(current, name, s)]
    return found[:MAX_CHOICES]


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


def battle_choices(state: GameState, ruleset: Ruleset, current: str) -> list[Choice]:
    """The battles still due this step 7 (R-COMBAT-01, R-COMBAT-02), in the default order."""
    out: list[Choice] = []
    for space in state.battles_due:
        name = ruleset.map.space_name(space)
        if not contains(current, name, space):
            continue
        defenders = sorted({faction_adjective(ruleset, u.owner) for u in state.units_at(space)})
        mine = sum(1 for u in state.units_at(space) if u.owner == state.active)
        theirs = sum(1 for u in state.units_at(space) if u.owner != state.active)
        label = f"{name} - your {mine} against {theirs} ({', '.join(defenders)})"
        out.append((label, space))
    return out[:MAX_CHOICES]


def kind_choices(ruleset: Ruleset, faction: str | None, current: str) -> list[Choice]:
    """Unit kinds for ``/unit``: the faction's own order of battle first."""
    kinds = sorted(
        (k for k in ruleset.units.values() if contains(current, k.display_name, k.id)),
        key=lambda k: (k.faction != faction, ruleset.turn_order.index(k.faction), k.id),
    )
    out: list[Choice] = []
    for kind in kinds[:MAX_CHOICES]:
        cost = "no cost" if kind.cost is None else f"{kind.cost} RP"
        out.append((f"{kind.display_name} - {cost} - {kind_stats(kind)}", kind.id))
    return out


def faction_choices(
    ruleset: Ruleset, codes: Sequence[str], current: str, first: Sequence[str] = ()
) -> list[Choice]:
    """Factions among ``codes`` matching ``current``; those in ``first`` come first."""
    out: list[tuple[bool, Choice]] = []
    for code in codes:
        faction = ruleset.faction(code)
        if not contains(current, faction.name, code, faction.adjective):
            continue
        out.append((code not in first, (f"{faction.emoji} {faction.name} ({code})", code)))
    out.sort(key=lambda item: item[0])
    return [choice for _, choice in out[:MAX_CHOICES]]


def parse_bundle(
    text: str | None, *, rule: str = "R-TRADE-04", most: int = MAX_TEXT_COUNT
) -> dict[str, int]:
    """Commodities typed as ``"2 grain, 1 iron"`` (a name alone counts 1; repeats add up)
    into ``{"grain": 2, "iron": 1}`` (R-COMM-01 names, near matches suggested).

    Args:
        most: the largest count of one item (checked before the digits become a number).

    Raises:
        UnknownName: not a commodity. RuleViolation: a count below 1 or above ``most``.
    """
    from caedes_bot.rules.redeem import parse_commodity

    bundle: dict[str, int] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        digits, named = _counted(part)
        count = parse_count(digits, part, most=most, rule=rule) if digits else 1
        commodity = parse_commodity(named or part, rule=rule).value
        bundle[commodity] = bundle.get(commodity, 0) + count
    return bundle


def offer_choices(
    state: GameState, ruleset: Ruleset, faction: str, current: str, *, as_proposer: bool
) -> list[Choice]:
    """Open trade offers ``faction`` may answer (as counterparty) or withdraw (as proposer)
    (R-TRADE-02): ``"#12 from Dawnians: they give 3 RP; you give 1 Iron"``."""
    from caedes_bot.ui.describe import bundle_text

    out: list[Choice] = []
    for offer in state.trades:
        mine = offer.proposer if as_proposer else offer.counterparty
        if mine != faction:
            continue
        other = offer.counterparty if as_proposer else offer.proposer
        name = ruleset.faction(other).name
        give = bundle_text(offer.give_rp, offer.give_commodities)
        get = bundle_text(offer.receive_rp, offer.receive_commodities)
        if as_proposer:
            label = f"#{offer.id} to {name}: you give {give}; they give {get}"
        else:
            label = f"#{offer.id} from {name}: they give {give}; you give {get}"
        if contains(current, label):
            out.append((label, str(offer.id)))
    return out[:MAX_CHOICES]


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
        raise AmbiguousName("unit of yours", _echo(text), names, rule=rule)
    near = suggest(text, list(labels.values()))
    error = UnknownName("unit of yours", _echo(text), near, rule=rule)
    error.allowed = OWN_UNIT_ALLOWED
    raise error
