"""Muster, step 8: placing the units bought this turn (R-MUSTER, R-RACE, R-ATTR-FORT-02..05).

Conditions are judged on the board as it stood when step 8 began (R-MUSTER-01): a unit placed
earlier in the step qualifies no later one, and a Tower placed in the step is no Fortification
for it (R-ATTR-FORT-05). The snapshot needs no copy of the board: units placed during the step
have a ``muster_seq`` above ``GameState.muster_start_seq``, and nothing else moves, dies or
changes owner in step 8.

Where a unit may go (for one unit of a kind, province by province):

1. a province, never water (R-MUSTER-07); ships go on the water instead, next to the
   faction's Fortification (R-ATTR-WATER-03, :mod:`caedes_bot.rules.ships`);
2. owned by the faction (option ``muster_requires_ownership``) and free of units of factions
   that are not its pact partners (R-MUSTER-02);
3. Towers: an infantry-type unit of the faction there, and no Fortification there yet
   (R-ATTR-FORT-02, R-ATTR-FORT-03, R-RACE-NONE-01);
4. otherwise the race rule (R-RACE-*): terrain (any of the province's terrains, R-MUSTER-06)
   and an infantry-type unit of that race of the faction (R-MUSTER-03), or a named place
   (Archursia, Estlon); with ``fort_is_muster_point`` the faction's Fortification makes any
   of its units musterable there;
5. the one-unit limit of R-MUSTER-04 for limited races, lifted by the faction's Fortification
   (R-ATTR-FORT-04) and, for Bugbears, by its Summoner (R-RACE-BUG-01).

:func:`legal_muster_provinces` answers where one unit of a kind may go now. A muster of a kind
that is not waiting is refused naming it and the units that are, by name and count.
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.gamedata.model import (
    ARCHURSIA,
    ESTLON,
    LIMITED_RACES,
    MUSTER_TERRAINS,
    Attribute,
    BaseType,
    Province,
    Race,
    Ruleset,
    UnitKind,
)
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalMuster, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ships import ship_muster_places, ship_muster_refusal, ship_nowhere
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.rules.steps import Accepts, StepSpec, active_faction
from caedes_bot.rules.summons import is_summoned, vanish_summons

# --------------------------------------------------------------------------- orders, events


@dataclass(frozen=True, slots=True)
class MusterUnits(Order):
    """Place bought units in step 8 (R-MUSTER-01): ``placements`` are ``(kind id, province id)``,
    one unit each, placed in the order given."""

    label = "Mustering units"
    undoable = True  # /undo takes it back (caedes_bot.rules.undo)

    placements: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class UnitsMustered(Event):
    """Units of ``faction`` came onto the board; ``units`` are ``(unit id, kind id, province)``.
    ``by_bot`` when the bot placed them at the end of step 8 (R-PBP-DEAD-03)."""

    faction: str
    round: int
    units: tuple[tuple[int, str, str], ...]
    by_bot: bool = False


@dataclass(frozen=True, slots=True)
class PurchaseLost(Event):
    """Units bought this turn with no legal place at the end of step 8 were lost without refund
    (R-MUSTER-01, R-BUY-04). ``reasons`` says why, one entry per distinct kind in
    ``kind_ids`` order: ``(kind id, why)``. Private: purchases are secret (R-GEN-07)."""

    private: ClassVar[bool] = True
    faction: str
    round: int
    kind_ids: tuple[str, ...]
    reasons: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class MusterShortfall(Event):
    """Some units ``faction`` bought this turn cannot all be placed on the board as it stands:
    ``kind_ids`` (one entry per unit) will be lost without refund when step 8 ends, for the
    ``reasons`` given per kind (R-MUSTER-01, R-BUY-04). Told when step 8 begins, and again
    after a muster that leaves more units without a place than before. Private (R-GEN-07):
    it goes to the faction's orders thread."""

    private: ClassVar[bool] = True
    faction: str
    round: int
    kind_ids: tuple[str, ...]
    reasons: tuple[tuple[str, str], ...] = ()


# --------------------------------------------------------------------------- the snapshot


def begin_muster_step(state: GameState, ruleset: Ruleset) -> list[Event]:
    """Start of step 8: every Summoned unit on the board vanishes (R-MAGIC-SUMM-02, any
    faction's), then the board that musters are judged on is fixed and the per-province counts
    are cleared (R-MUSTER-01, R-MUSTER-04). If some units bought this turn cannot all be placed,
    :class:`MusterShortfall` warns the faction now, while it can still choose (R-BUY-04)."""
    events = vanish_summons(state, ruleset)
    state.muster_start_seq = state.mustered_seq
    state.muster_counts = {}
    faction = state.active
    if faction is not None and state.factions[faction].purchases:
        plan = plan_muster(state, ruleset, faction)
        if plan.lost:
            events.append(
                MusterShortfall(
                    faction, state.round, plan.lost, lost_reasons(state, ruleset, faction, plan)
                )
            )
    return events


def _judging_now(state: GameState, faction: str) -> bool:
    return state.step is Step.MUSTER and state.active == faction


def _snapshot(state: GameState, faction: str, here: Sequence[Unit]) -> list[Unit]:
    """Of the units ``here`` (in one province), those that count for muster conditions
    (R-MUSTER-01, R-ATTR-FORT-05)."""
    limit = state.muster_start_seq if _judging_now(state, faction) else state.mustered_seq
    return [u for u in here if u.muster_seq <= limit]


def _units_by_province(state: GameState) -> dict[str, list[Unit]]:
    """Every unit by the space it is in, read once (not copied) for judging many provinces."""
    found: defaultdict[str, list[Unit]] = defaultdict(list)
    for unit in state.peek_units():
        found[unit.location].append(unit)
    return found


def _lasting(
    state: GameState, ruleset: Ruleset, faction: str, here: Sequence[Unit]
) -> Sequence[Unit]:
    """Of the units ``here``, those still on the board when ``faction``'s step 8 judges: judged
    before that step (the R-BUY-04 warning, autocomplete), Summoned units are left out, since
    every one of them vanishes as a step 8 begins (R-MAGIC-SUMM-02); during it, all."""
    if _judging_now(state, faction):
        return here
    return [u for u in here if not is_summoned(ruleset.kind(u.kind))]


def is_fortification(state: GameState, kind: UnitKind) -> bool:
    """Whether ``kind`` is a Fortification: a Tower-type unit, a summoned one only with the
    option ``summoned_tower_is_fortification`` (R-ATTR-FORT-01, R-ATTR-FORT-06)."""
    if not kind.has(Attribute.FORTIFICATION):
        return False
    return not is_summoned(kind) or state.options.summoned_tower_is_fortification


def _counts(state: GameState, faction: str) -> Mapping[str, int]:
    return state.muster_counts if _judging_now(state, faction) else {}


# --------------------------------------------------------------------------- judging


@dataclass(frozen=True, slots=True)
class _Verdict:
    """Whether one unit may be mustered in one province: the refusal (rule, message), or the
    R-MUSTER-04 counter key it uses up (``None`` if it is not limited)."""

    refusal: tuple[str, str] | None = None
    limit_key: str | None = None


def _qualifying_owners(state: GameState, faction: str) -> set[str]:
    """Factions whose units count as the faction's own for muster (R-GEN-05)."""
    if not state.options.allied_includes_pacts:
        return {faction}
    return {code for code in state.factions if state.are_partners(faction, code)}


def _judge(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    kind: UnitKind,
    province: Province,
    counts: Mapping[str, int] | None = None,
    here: Sequence[Unit] | None = None,
) -> _Verdict:
    """Whether one unit of ``kind`` may be mustered in ``province`` now; ``counts`` are the
    R-MUSTER-04 counts to judge the limit against (default: those of the step under way);
    ``here`` the units in ``province``, if the caller has them already."""
    opts = state.options
    name = province.name
    if opts.muster_requires_ownership and state.owners.get(province.id) != faction:
        return _Verdict(("R-MUSTER-02", f"{name} is not yours."))
    if here is None:
        here = state.peek_units_at(province.id)
    here = _lasting(state, ruleset, faction, here)
    if any(not state.are_partners(u.owner, faction) for u in here):
        return _Verdict(("R-MUSTER-02", f"{name} holds units of another faction."))
    snapshot = _snapshot(state, faction, here)
    own = _qualifying_owners(state, faction)
    has_fort = any(
        u.owner == faction and ruleset.kind(u.kind).has(Attribute.FORTIFICATION) for u in snapshot
    )

    if kind.base_type is BaseType.TOWER:
        if any(is_fortification(state, ruleset.kind(u.kind)) for u in here):
            return _Verdict(("R-ATTR-FORT-02", f"{name} already has a Fortification."))
        if not any(
            u.owner in own and ruleset.kind(u.kind).base_type is BaseType.INFANTRY for u in snapshot
        ):
            return _Verdict(
                ("R-ATTR-FORT-03", f"A Tower needs one of your infantry units in {name}.")
            )
        return _Verdict()
    if kind.base_type is BaseType.SHIP:
        return _Verdict(("R-ATTR-WATER-03", "Ships are mustered on the water, not in provinces."))

    if opts.fort_is_muster_point and has_fort:
        return _Verdict()  # R-ATTR-FORT-04 option: a Fortification is a muster point, no limit

    race = kind.race
    if race is Race.SUMMONED:
        return _Verdict(
            (
                "R-RACE-SUM-01",
                f"{kind.display_name} is summoned, not mustered: it is placed where your "
                "Summoner stands the moment it is bought.",
            )
        )
    if race is Race.UNDEAD:
        if not any(
            u.owner in own and ruleset.kind(u.kind).has(Attribute.NECROMANCER) for u in snapshot
        ):
            return _Verdict(
                ("R-RACE-UND-01", f"Undead muster only beside your Necromancer; {name} has none.")
            )
        return _Verdict()  # R-RACE-UND-01, R-MUSTER-05: any number
    if race is Race.ACHEROUSIAN:
        if province.id != ARCHURSIA:
            return _Verdict(("R-RACE-ACH-01", "Acherousians muster only in Archursia."))
        return _Verdict()
    if race is Race.HIGH_ELVEN:
        if province.island != ESTLON:
            return _Verdict(("R-RACE-HEL-01", "High Elves muster only on the island of Estlon."))
        return _Verdict()
    if race is None or race not in MUSTER_TERRAINS:
        return _Verdict(("R-MUSTER-01", f"{kind.display_name} cannot be mustered yet."))

    terrains, rule = MUSTER_TERRAINS[race]
    summoner_route = race is Race.BUGBEAR and opts.bugbear_rule in ("union", "procedure")
    has_summoner = summoner_route and any(
        u.owner == faction and ruleset.kind(u.kind).has(Attribute.SUMMONER) for u in snapshot
    )
    if has_summoner:
        return _Verdict()  # R-RACE-BUG-01: no limit where the faction's Summoner stands
    race_infantry = any(
        u.owner in own
        and ruleset.kind(u.kind).base_type is BaseType.INFANTRY
        and ruleset.kind(u.kind).race is race
        for u in snapshot
    )
    wanted = " or ".join(sorted(str(t) for t in terrains))
    if not any(province.has_terrain(t) for t in terrains):
        return _Verdict((rule, f"{kind.display_name} musters only in {wanted}; {name} is not."))
    if not race_infantry:
        label = race.value.replace("_", " ").title()
        return _Verdict(
            (rule, f"{kind.display_name} needs a {label} infantry unit of yours in {name}.")
        )

    if race not in LIMITED_RACES:
        return _Verdict()
    fort_lifts = race is not Race.BUGBEAR or opts.bugbear_rule in ("union", "appendix")
    if has_fort and fort_lifts:
        return _Verdict()  # R-ATTR-FORT-04
    key = province.id if opts.muster_limit_scope == "province" else f"{province.id}|{race.value}"
    used = _counts(state, faction) if counts is None else counts
    if used.get(key, 0) >= 1:
        return _Verdict(
            ("R-MUSTER-04", f"{name} has already taken its one unit of a limited race this step.")
        )
    return _Verdict(limit_key=key)


def _mustered_kind(ruleset: Ruleset, kind_id: str) -> UnitKind:
    return ruleset.kind(kind_id)


def legal_muster_provinces(
    state: GameState, ruleset: Ruleset, faction: str, kind_id: str
) -> list[str]:
    """Province ids where one unit of ``kind_id`` could be mustered by ``faction`` now, sorted
    by province name (R-MUSTER-01..08, R-RACE-*, R-ATTR-FORT-02..05).

    During ``faction``'s step 8 the judgement uses the board at the start of the step and the
    musters already made in it; at any other time it uses the board as it stands (the R-BUY-04
    warning, autocomplete). For a ship the places are water spaces
    (:func:`~caedes_bot.rules.ships.ship_muster_places`, R-ATTR-WATER-03). Summoned units
    (never mustered: they are summoned, :mod:`caedes_bot.rules.summons`) and unknown kind ids
    give ``[]``.
    """
    kind = ruleset.units.get(kind_id)
    if kind is None:
        return []
    if kind.base_type is BaseType.SHIP:
        return ship_muster_places(state, ruleset, faction)
    if kind.race is Race.SUMMONED:
        return []
    provinces = sorted(ruleset.map.provinces.values(), key=lambda p: (p.name, p.id))
    here = _units_by_province(state)
    return [
        p.id
        for p in provinces
        if _judge(state, ruleset, faction, kind, p, here=here.get(p.id, [])).refusal is None
    ]


def unitless_muster_site(ruleset: Ruleset, faction: str, province_id: str) -> bool:
    """Whether ``faction`` could muster in ``province_id`` with none of its units there:
    Archursia for a faction with Acherousian units, Estlon for one with High Elven units
    (R-RACE-ACH-01, R-RACE-HEL-01; the exception of R-VIC-05)."""
    province = ruleset.map.provinces.get(province_id)
    if province is None:
        return False
    races = {k.race for k in ruleset.order_of_battle(faction) if not k.hero}
    return (Race.ACHEROUSIAN in races and province.id == ARCHURSIA) or (
        Race.HIGH_ELVEN in races and province.island == ESTLON
    )


# --------------------------------------------------------------------------- room and plans


def muster_room(
    state: GameState, ruleset: Ruleset, faction: str, kind_id: str
) -> list[tuple[str, int | None]]:
    """Where one unit of ``kind_id`` may be mustered now and how many more units that place
    takes: ``(province id, 1)`` where the one-unit limit of R-MUSTER-04 applies and is not used
    yet, ``(province id, None)`` where there is no limit (R-MUSTER-05, R-ATTR-FORT-04,
    R-RACE-ACH-01, R-RACE-HEL-01, R-RACE-UND-01); for a ship the water spaces it may go on,
    each ``None`` (R-ATTR-WATER-03). Sorted by name, as :func:`legal_muster_provinces`."""
    kind = ruleset.units.get(kind_id)
    if kind is not None and kind.base_type is BaseType.SHIP:  # R-ATTR-WATER-03: on the water
        return [(space, None) for space in ship_muster_places(state, ruleset, faction)]
    if kind is None or kind.race is Race.SUMMONED:
        return []
    out: list[tuple[str, int | None]] = []
    for province in sorted(ruleset.map.provinces.values(), key=lambda p: (p.name, p.id)):
        verdict = _judge(state, ruleset, faction, kind, province)
        if verdict.refusal is None:
            out.append((province.id, None if verdict.limit_key is None else 1))
    return out


@dataclass(frozen=True, slots=True)
class MusterPlan:
    """Where the units waiting would go if the bot placed them now (R-MUSTER-01,
    R-PBP-DEAD-03).

    Attributes:
        placed: ``(kind id, province id, R-MUSTER-04 key or None)`` per unit placed, in the
            order of the purchases.
        lost: kind ids of the units no province can take (one entry per unit).
        crowded: kind ids in ``lost`` that had legal places, all of whose one-unit limits were
            taken by other units (R-MUSTER-04).
    """

    placed: tuple[tuple[str, str, str | None], ...]
    lost: tuple[str, ...]
    crowded: frozenset[str] = frozenset()

    def placed_of(self, kind_id: str) -> int:
        """How many units of ``kind_id`` the plan places."""
        return sum(1 for k, _p, _key in self.placed if k == kind_id)


def plan_muster(
    state: GameState, ruleset: Ruleset, faction: str, kind_ids: Sequence[str] | None = None
) -> MusterPlan:
    """Place as many of ``kind_ids`` (default: the faction's purchases waiting) as the board
    allows, each at the first legal province in order of name (R-PBP-DEAD-03) unless that
    would shut out a unit bought after it (R-MUSTER-04 is the only limit that makes units
    compete: one unit of a limited race per province, or per province and race). Earlier
    purchases keep their place; a later one moves an earlier one on to its next legal
    province when that lets both be placed. Judged as :func:`legal_muster_provinces` judges.
    Changes nothing."""
    kinds = list(state.factions[faction].purchases if kind_ids is None else kind_ids)
    used = dict(_counts(state, faction))
    provinces = sorted(ruleset.map.provinces.values(), key=lambda p: (p.name, p.id))
    options: dict[str, list[tuple[str, str | None]]] = {}
    here = _units_by_province(state)
    if state.options.muster_requires_ownership:  # the others _judge refuses first (R-MUSTER-02)
        provinces = [p for p in provinces if state.owners.get(p.id) == faction]
    for kind_id in dict.fromkeys(kinds):
        kind = ruleset.units.get(kind_id)
        found: list[tuple[str, str | None]] = []
        if kind is not None and kind.base_type is BaseType.SHIP:  # R-ATTR-WATER-03
            found = [(space, None) for space in ship_muster_places(state, ruleset, faction)]
        elif kind is not None:
            for province in provinces:
                units = here.get(province.id, [])
                verdict = _judge(state, ruleset, faction, kind, province, {}, here=units)
                if verdict.refusal is None:
                    found.append((province.id, verdict.limit_key))
        options[kind_id] = found
    holder: dict[str, int] = {}
    assigned: list[tuple[str, str | None] | None] = [None] * len(kinds)

    def seat(index: int, seen: set[str]) -> bool:
        """Seat unit ``index``: at its first free place by name, or else by moving the holder
        of one of its places on to another place (an augmenting path)."""
        mine = options[kinds[index]]
        for pid, key in mine:
            if key is None or (used.get(key, 0) < 1 and key not in holder):
                if key is not None:
                    holder[key] = index
                assigned[index] = (pid, key)
                return True
        for pid, key in mine:
            if key is None or used.get(key, 0) >= 1 or key in seen:
                continue
            seen.add(key)
            if seat(holder[key], seen):
                holder[key] = index
                assigned[index] = (pid, key)
                return True
        return False

    for index in range(len(kinds)):
        seat(index, set())
    placed = tuple(
        (kinds[i], spot[0], spot[1]) for i, spot in enumerate(assigned) if spot is not None
    )
    lost = tuple(kinds[i] for i, spot in enumerate(assigned) if spot is None)
    crowded = frozenset(k for k in lost if options[k])
    return MusterPlan(placed, lost, crowded)


def why_nowhere(state: GameState, ruleset: Ruleset, faction: str, kind_id: str) -> str:
    """Why no province can take a unit of ``kind_id`` now, in a player's words with the rule:
    the refusal of the first province by name the faction owns (or, with none, of the first
    province), as :func:`legal_muster_provinces` judges it (R-MUSTER-01..08, R-RACE-*)."""
    kind = ruleset.kind(kind_id)
    if kind.base_type is BaseType.SHIP:
        return ship_nowhere(state, ruleset, faction)
    provinces = sorted(ruleset.map.provinces.values(), key=lambda p: (p.name, p.id))
    own = [p for p in provinces if state.owners.get(p.id) == faction]
    if not own and state.options.muster_requires_ownership:
        return "you own no province (R-MUSTER-02)"
    for province in own or provinces:
        verdict = _judge(state, ruleset, faction, kind, province, {})
        if verdict.refusal is not None:
            rule, message = verdict.refusal
            return f"{message} ({rule})"
    return f"no province can take a {kind.display_name} (R-MUSTER-01)"


def lost_reasons(
    state: GameState, ruleset: Ruleset, faction: str, plan: MusterPlan
) -> tuple[tuple[str, str], ...]:
    """``(kind id, why)`` for each distinct kind ``plan`` loses (:func:`why_nowhere`; for a kind
    whose places are all used up, the one-unit limit of R-MUSTER-04)."""
    out: list[tuple[str, str]] = []
    for kind_id in dict.fromkeys(plan.lost):
        if kind_id in plan.crowded:
            name = ruleset.kind(kind_id).display_name
            why = (
                f"every province that can take a {name} takes one unit of a limited race per "
                "step 8, and those places are used (R-MUSTER-04)"
            )
        else:
            why = why_nowhere(state, ruleset, faction, kind_id)
        out.append((kind_id, why))
    return tuple(out)


# --------------------------------------------------------------------------- placing


def _place(state: GameState, faction: str, kind: UnitKind, province: str, key: str | None) -> Unit:
    """Put one bought unit on the board; it cannot move until next turn (R-MOVE-22)."""
    fs = state.factions[faction]
    index = fs.purchases.index(kind.id)
    fs.purchases.pop(index)
    fs.purchase_prices.pop(index)
    unit = state.place_new_unit(kind.id, faction, province)
    if key is not None:
        state.muster_counts[key] = state.muster_counts.get(key, 0) + 1
    return unit


def handle_muster_units(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Place bought units in step 8, one by one in the order given (R-MUSTER-01..08, R-RACE-*).

    Raises:
        IllegalMuster: the unit was not bought this turn, or the province is not a legal place
            for it (with the rule broken and the legal provinces in ``allowed``).
        UnknownName: no such province.
        NotBuiltYet: a kind whose muster rules are not built.
    """
    assert isinstance(order, MusterUnits)
    faction = order.faction
    fs = state.factions[faction]
    lost_before = len(plan_muster(state, ruleset, faction).lost)
    placed: list[Unit] = []
    for kind_id, province_id in order.placements:
        if kind_id not in fs.purchases:
            raise _not_waiting(state, ruleset, faction, kind_id)
        kind = _mustered_kind(ruleset, kind_id)
        if kind.base_type is BaseType.SHIP:  # R-ATTR-WATER-03: on the water
            placed.append(_place_ship(state, ruleset, faction, kind, province_id))
            continue
        province = ruleset.map.provinces.get(province_id)
        if province is None:
            if ruleset.map.is_sea(province_id) or province_id in ruleset.map.rivers:
                raise IllegalMuster(
                    "Land units are mustered in provinces, never on water or aboard ships.",
                    rule="R-MUSTER-07",
                    allowed=_allowed(state, ruleset, faction, kind),
                )
            names = {p.name: p.id for p in ruleset.map.provinces.values()}
            close = difflib.get_close_matches(province_id, [*names, *names.values()], n=3)
            raise UnknownName("province", province_id, tuple(close), rule="R-MUSTER-01")
        verdict = _judge(state, ruleset, faction, kind, province)
        if verdict.refusal is not None:
            rule, message = verdict.refusal
            raise IllegalMuster(message, rule=rule, allowed=_allowed(state, ruleset, faction, kind))
        placed.append(_place(state, faction, kind, province.id, verdict.limit_key))
    events: list[Event] = [
        UnitsMustered(faction, state.round, tuple((u.id, u.kind, u.location) for u in placed))
    ]
    if fs.purchases:
        plan = plan_muster(state, ruleset, faction)
        if len(plan.lost) > lost_before:
            reasons = lost_reasons(state, ruleset, faction, plan)
            events.append(MusterShortfall(faction, state.round, plan.lost, reasons))
    return events


def _place_ship(
    state: GameState, ruleset: Ruleset, faction: str, kind: UnitKind, space: str
) -> Unit:
    """Place a bought ship on water space ``space`` (R-ATTR-WATER-03, R-RACE-NONE-01).

    Raises:
        UnknownName: no such space. IllegalMuster: not a legal place for a ship.
    """
    game_map = ruleset.map
    if not (game_map.is_province(space) or game_map.is_sea(space) or space in game_map.rivers):
        names = [s.name for s in game_map.sea_zones.values()] + list(game_map.sea_zones)
        close = difflib.get_close_matches(space, names, n=3)
        raise UnknownName("sea zone or river edge", space, tuple(close), rule="R-ATTR-WATER-03")
    refusal = ship_muster_refusal(state, ruleset, faction, space)
    if refusal is not None:
        rule, message = refusal
        raise IllegalMuster(message, rule=rule, allowed=_allowed(state, ruleset, faction, kind))
    return _place(state, faction, kind, space, None)


def _not_waiting(state: GameState, ruleset: Ruleset, faction: str, kind_id: str) -> IllegalMuster:
    """The refusal to muster a unit of ``kind_id`` that ``faction`` has not waiting: another
    faction's kind, one not bought this turn, or one whose purchases are all placed
    (R-MUSTER-01); the units still waiting are named."""
    waiting = Counter(state.factions[faction].purchases)
    allowed = (
        "muster what is waiting: "
        + ", ".join(f"{n} {ruleset.kind(k).display_name}" for k, n in waiting.items())
        if waiting
        else "nothing: every unit you bought is placed; end the step with Done or /done"
    )
    kind = ruleset.units.get(kind_id)
    if kind is None:
        return IllegalMuster(
            f"No {kind_id} bought this turn is waiting to be mustered.", allowed=allowed
        )
    if kind.faction != faction:
        owner = ruleset.faction(kind.faction).name
        return IllegalMuster(
            f"{kind.display_name} are units of the {owner}; you muster only what you bought "
            "this turn.",
            allowed=allowed,
        )
    placed = [
        u
        for u in state.units_of(faction)
        if u.kind == kind.id and u.muster_seq > state.muster_start_seq
    ]
    if placed:
        return IllegalMuster(
            f"Every {kind.display_name} you bought this turn is placed already "
            f"({len(placed)} this step).",
            allowed=allowed,
        )
    return IllegalMuster(f"You bought no {kind.display_name} this turn.", allowed=allowed)


def _allowed(state: GameState, ruleset: Ruleset, faction: str, kind: UnitKind) -> str:
    legal = legal_muster_provinces(state, ruleset, faction, kind.id)
    if not legal:
        where = "no water" if kind.base_type is BaseType.SHIP else "no province"
        return f"{where} can take a {kind.display_name} now; it will be lost at the end of step 8"
    return ", ".join(ruleset.map.space_name(p) for p in legal)


def place_remaining(state: GameState, ruleset: Ruleset, faction: str) -> list[Event]:
    """End of step 8: the bot places every unit still waiting at the first legal province in
    order of province name, keeping places for later units where it can (:func:`plan_muster`,
    R-PBP-DEAD-03); a unit with none is lost without refund (R-MUSTER-01, R-BUY-04), and
    :class:`PurchaseLost` says why. Mutates ``state``; returns the events."""
    fs = state.factions[faction]
    plan = plan_muster(state, ruleset, faction)
    reasons = lost_reasons(state, ruleset, faction, plan)
    placed = [
        _place(state, faction, ruleset.kind(kind_id), pid, key) for kind_id, pid, key in plan.placed
    ]
    for kind_id in plan.lost:
        index = fs.purchases.index(kind_id)
        fs.purchases.pop(index)
        fs.purchase_prices.pop(index)
    events: list[Event] = []
    if placed:
        events.append(
            UnitsMustered(
                faction,
                state.round,
                tuple((u.id, u.kind, u.location) for u in placed),
                by_bot=True,
            )
        )
    if plan.lost:
        events.append(PurchaseLost(faction, state.round, plan.lost, reasons))
    return events


# --------------------------------------------------------------------------- step 8


def _begin_muster(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return begin_muster_step(state, ruleset)


def _end_muster(state: GameState, ruleset: Ruleset, dice: Dice) -> list[Event]:
    return place_remaining(state, ruleset, active_faction(state))


def _has_purchases(state: GameState) -> bool:
    """Step 8 waits only while units bought this turn wait to be placed (R-MUSTER-01)."""
    return bool(state.factions[active_faction(state)].purchases)


#: Step 8, Muster (R-MUSTER-01..08): units bought are placed; what is left is placed by the
#: bot when the step ends.
SPEC = StepSpec(
    "muster",
    Step.MUSTER,
    accepts=(Accepts(MusterUnits, handle_muster_units),),
    on_enter=_begin_muster,
    on_leave=_end_muster,
    waits=_has_purchases,
)
