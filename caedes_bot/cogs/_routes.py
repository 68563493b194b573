"""Routes for ``/move`` and ``/fly`` and the units of ``/teleport`` and ``/divine``: what their
options accept and what their autocompletes offer (R-MOVE-01, R-MOVE-02, R-ATTR-FLY-01,
R-ATTR-AMPH-01, R-MAGIC-TELE-01, R-MAGIC-DIV-01). Pure functions of the state; the rules decide
again when the order comes."""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.cogs._place_names import province_choices
from caedes_bot.cogs._transformers import MAX_CHOICES, Choice
from caedes_bot.gamedata.loader import suggest
from caedes_bot.gamedata.model import Attribute, Ruleset
from caedes_bot.gamedata.names import contains, find
from caedes_bot.rules import movement
from caedes_bot.rules.errors import AmbiguousName, RuleViolation, UnknownName, quoted
from caedes_bot.rules.movement import MoveKind, MovePlan, amphibian
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import unit_label


def resolve_space(ruleset: Ruleset, text: str) -> str:
    """The province or sea zone ``text`` names (R-GEN-04), for ``via``.

    Raises:
        UnknownName: no such space; near matches suggested.
        AmbiguousName: the start of several names.
    """
    game_map = ruleset.map
    spaces = [(p.id, p.name) for p in game_map.provinces.values()]
    spaces += [(z.id, z.name) for z in game_map.sea_zones.values()]
    found = find(text, ((sid, (sid, name)) for sid, name in spaces))
    if found.item is not None:
        return found.item
    if found.ambiguous:
        names = tuple(game_map.space_name(s) for s in found.ambiguous)
        raise AmbiguousName("place", quoted(text), names, rule="R-MOVE-01")
    near = suggest(text, [name for _, name in spaces])
    unknown = UnknownName("province or sea zone", quoted(text), near, rule="R-MOVE-01")
    unknown.allowed = "a province's or sea zone's name, separated by commas"
    raise unknown


def parse_via(ruleset: Ruleset, text: str | None) -> tuple[str, ...]:
    """The spaces of a ``via`` option: names separated by commas, in order."""
    if not text:
        return ()
    return tuple(resolve_space(ruleset, part) for part in text.split(",") if part.strip())


def _plans(
    table_state: GameState, ruleset: Ruleset, ids: Sequence[int], flying: bool, via: Sequence[str]
) -> list[dict[str, MovePlan]]:
    found = []
    for uid in ids:
        unit = table_state.peek_unit(uid)
        if flying:
            found.append(movement.plan_flights(table_state, ruleset, unit, via=via))
        else:
            found.append(movement.plan_moves(table_state, ruleset, unit, via=via))
    return found


def route_choices(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    ids: Sequence[int],
    current: str,
    *,
    flying: bool = False,
    via: Sequence[str] = (),
) -> list[Choice]:
    """Destinations every one of ``ids`` can reach now (through ``via``), each labelled with
    the movement it costs and whether it starts a battle (R-MOVE-01, R-MOVE-02,
    R-ATTR-FLY-01)."""
    plans = _plans(state, ruleset, ids, flying, via)
    if not plans:
        return []
    common = set(plans[0]).intersection(*plans[1:])
    notes: dict[str, str] = {}
    for dest in common:
        cost = max(p[dest].cost for p in plans)
        how = {MoveKind.FLIGHT: "flight", MoveKind.CROSSING: "sea crossing"}.get(
            plans[0][dest].how, "movement"
        )
        note = f"{cost} {how}" if how == "movement" or how == "flight" else how
        if any(p[dest].attack for p in plans):
            note += ", starts a battle"
        notes[dest] = note
    found = province_choices(state, ruleset, faction, current, common, notes=notes)
    if flying or via:
        return found
    return found + _sea_attack_choices(state, ruleset, ids, current)[: MAX_CHOICES - len(found)]


def _sea_attack_choices(
    state: GameState, ruleset: Ruleset, ids: Sequence[int], current: str
) -> list[Choice]:
    """The sea zones every one of ``ids`` may attack now (R-ATTR-AMPH-02), after the
    provinces."""
    seas: set[str] | None = None
    for uid in ids:
        here = set(amphibian.sea_attacks(state, ruleset, state.peek_unit(uid)))
        seas = here if seas is None else seas & here
    out = []
    for sea in sorted(seas or (), key=ruleset.map.space_name):
        name = ruleset.map.space_name(sea)
        if contains(current, name, sea):
            out.append((f"{name} - an attack at sea, then ashore (R-ATTR-AMPH-02)", sea))
    return out


def via_choices(
    state: GameState,
    ruleset: Ruleset,
    ids: Sequence[int],
    current: str,
    *,
    flying: bool = False,
) -> list[Choice]:
    """What ``via`` may name next: the spaces on any route the units have now, after those
    already typed (separated by commas)."""
    typed = [p.strip() for p in current.split(",")]
    done, last = typed[:-1], typed[-1]
    try:
        before = tuple(resolve_space(ruleset, p) for p in done if p)
    except RuleViolation:
        return []
    spaces: set[str] = set()
    for plans in _plans(state, ruleset, ids, flying, before):
        for plan in plans.values():
            spaces.update(plan.path[:-1])
    spaces -= set(before)
    prefix = ", ".join(ruleset.map.space_name(s) for s in before)
    out: list[Choice] = []
    for space in sorted(spaces, key=ruleset.map.space_name):
        name = ruleset.map.space_name(space)
        if contains(last, name, space):
            value = f"{prefix}, {name}" if prefix else name
            out.append((value, value))
    return out[:MAX_CHOICES]


def acting_unit_choices(
    state: GameState, ruleset: Ruleset, faction: str, attribute: Attribute, current: str
) -> list[Choice]:
    """``faction``'s units with ``attribute`` that have not moved this turn and may still act
    (R-MAGIC-TELE-01, R-MAGIC-DIV-01)."""
    out: list[Choice] = []
    for unit in state.peek_units_of(faction):
        if not ruleset.kind(unit.kind).has(attribute) or unit.movement_used or unit.path:
            continue
        if movement.why_stuck(state, ruleset, unit) not in (None, movement.Stuck.NOWHERE):
            continue
        label = unit_label(ruleset, unit.id, unit.kind, unit.location)
        if contains(current, label, str(unit.id)):
            out.append((label, f"#{unit.id}"))
    return out[:MAX_CHOICES]


def companion_choices(
    state: GameState, ruleset: Ruleset, faction: str, teleporter: int, current: str
) -> list[Choice]:
    """What ``companions`` may name next: ``faction``'s other units beside the teleporter
    that may move, never Towers (R-MAGIC-TELE-01, R-ATTR-FORT-01), after those typed."""
    unit = state.units.get(str(teleporter))
    if unit is None:
        return []
    typed = [p.strip() for p in current.split(",")]
    done, last = [p for p in typed[:-1] if p], typed[-1]
    taken = {p.lstrip("#") for p in done}
    prefix = ", ".join(done)
    out: list[Choice] = []
    for other in state.units_at(unit.location):
        if other.owner != faction or other.id == unit.id or str(other.id) in taken:
            continue
        if movement.why_stuck(state, ruleset, other) not in (None, movement.Stuck.NOWHERE):
            continue
        label = unit_label(ruleset, other.id, other.kind, other.location)
        if contains(last, label, str(other.id)):
            value = f"{prefix}, #{other.id}" if prefix else f"#{other.id}"
            out.append((f"{prefix + ', ' if prefix else ''}{label}"[:100], value))
    return out[:MAX_CHOICES]
