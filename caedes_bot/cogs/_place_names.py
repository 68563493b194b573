"""Places typed by players (:mod:`caedes_bot.cogs._transformers`): provinces and sea zones named
by id or name (R-GEN-04), and the provinces offered while they type: for a move, a muster or a
battle, the member's own first.

Pure functions of the static ruleset and a game state (no discord).
"""

from __future__ import annotations

from collections.abc import Iterable

from caedes_bot.cogs._transformers import MAX_CHOICES, Choice, echo
from caedes_bot.gamedata.loader import suggest
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.gamedata.names import Found, contains, find
from caedes_bot.rules import muster
from caedes_bot.rules.errors import AmbiguousName, RuleViolation, UnknownName
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import faction_adjective, province_label

# --------------------------------------------------------------------------- resolving


#: What is allowed instead of a name that matches nothing and nothing near.
_PICK_PROVINCE = "a province's name (or its start); the list offers them as you type"
_PICK_SPACE = "a province's or sea zone's name (or its start); the list offers them as you type"


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
        raise AmbiguousName("place", echo(text), names, rule=rule)
    near = suggest(text, [p.name for p in game_map.provinces.values()])
    unknown = UnknownName("province", echo(text), near, rule=rule)
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
        raise AmbiguousName("place", echo(text), names, rule=rule)
    every = [p.name for p in game_map.provinces.values()]
    every += [z.name for z in game_map.sea_zones.values()]
    unknown = UnknownName("province", echo(text), suggest(text, every), rule=rule)
    unknown.allowed = _PICK_SPACE
    raise unknown


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
