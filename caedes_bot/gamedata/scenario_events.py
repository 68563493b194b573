"""Reading a scenario's ``[[event]]`` tables: what happens at a given moment of play (R-SETUP-01).

Part of the loader (:mod:`caedes_bot.gamedata.scenarios`); decision 0026. One table per event::

    [[event]]
    id = "relief-column"                 # a slug, unique in the file
    round = 2                            # game round, from 1 (at most the turn limit)
    faction = "ACH"                      # optional: at the start of ACH's turn in that round;
                                         # without it, at the start of the round
    announce = "A relief column ..."     # optional line for #announcements
    rp = { ACH = 5, DAW = -2 }           # RP given or taken (never below 0 when it happens),
                                         # at most 100,000 either way
    commodities = { ACH = { grain = 2 } }   # at most 1,000 of one either way
    place = { ACH = { kestrel-downs = { U-ACH-01 = 2 } } }   # reinforcements
    remove = { DAW = { corndale = { U-DAW-01 = 1 } } }
    owners = { corndale = "ACH", wolfsgate = "none" }
    alliance_made = [["DAW", "ACH"]]
    alliance_ended = [["DAW", "ACH"]]
    fealty_sworn = { ORC = "ACH" }       # vassal = liege
    fealty_ended = ["ORC"]               # vassals released

Every problem names the file and the event (``scenarios/x.toml: event 'relief-column': ...``).
What the rules do with an event is in :mod:`caedes_bot.rules.scenario_events`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from caedes_bot.gamedata.model import (
    BaseType,
    Commodity,
    EventUnits,
    GameMap,
    ScenarioEvent,
    UnitKind,
)
from caedes_bot.gamedata.schema import SLUG, DataReader, item_label

__all__ = ["MAX_PLACED", "MAX_RP", "MAX_STOCK", "NO_OWNER", "load_events"]

#: The most units one entry of ``place`` or ``remove`` names.
MAX_PLACED = 20

#: The most RP one event gives or takes from one faction: the most the umpire's RP override
#: (``/umpire set rp``) sets a treasury to.
MAX_RP = 100_000

#: The most of one commodity one event gives or takes from one faction: the most the umpire's
#: commodity override (``/umpire set commodity``) sets a stock to.
MAX_STOCK = 1_000

#: The owner that leaves a province to nobody.
NO_OWNER = "none"


class EventSchema(BaseModel):
    """The shape of one ``[[event]]`` table (unknown keys refused)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: str
    round: int = Field(ge=1)
    faction: str | None = None
    announce: str = ""
    rp: dict[str, int] = Field(default_factory=dict)
    commodities: dict[str, dict[str, int]] = Field(default_factory=dict)
    place: dict[str, dict[str, dict[str, int]]] = Field(default_factory=dict)
    remove: dict[str, dict[str, dict[str, int]]] = Field(default_factory=dict)
    owners: dict[str, str] = Field(default_factory=dict)
    alliance_made: list[list[str]] = Field(default_factory=list)
    alliance_ended: list[list[str]] = Field(default_factory=list)
    fealty_sworn: dict[str, str] = Field(default_factory=dict)
    fealty_ended: list[str] = Field(default_factory=list)


def load_events(
    r: DataReader,
    file: str,
    raw_events: list[dict[str, Any]],
    in_play: Collection[str],
    kinds: Mapping[str, UnitKind],
    game_map: GameMap | None,
    turn_limit: int | None,
) -> tuple[ScenarioEvent, ...]:
    """The scenario's events in the file's order; every problem is recorded in ``r``.

    Args:
        r: the loading run (problems go there).
        file: the scenario file, as problems name it (``"scenarios/skirmish.toml"``).
        raw_events: the file's ``[[event]]`` tables.
        in_play: the scenario's factions in play.
        kinds: every unit kind the scenario knows (its Heroes included, which are refused).
        game_map: the map, or ``None`` if it failed to load (names of spaces are then not checked).
        turn_limit: the scenario's turn limit; an event after it could never happen.

    Returns:
        The events that loaded without a problem.
    """
    out: list[ScenarioEvent] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_events):
        label = item_label("event", raw, index)
        parsed = r.validate(EventSchema, raw, file, label)
        if parsed is None:
            continue
        before = len(r.problems)
        event = _event(r, file, label, parsed, in_play, kinds, game_map, turn_limit)
        if parsed.id in seen:
            r.problem(file, label, "event id used twice")
        seen.add(parsed.id)
        if len(r.problems) == before:
            out.append(event)
    return tuple(out)


def _event(
    r: DataReader,
    file: str,
    label: str,
    p: EventSchema,
    in_play: Collection[str],
    kinds: Mapping[str, UnitKind],
    game_map: GameMap | None,
    turn_limit: int | None,
) -> ScenarioEvent:
    def faction(code: str, where: str) -> None:
        if code not in in_play:
            r.problem(
                file, label, f"{where}: faction {code!r} is not in play ({', '.join(in_play)})"
            )

    if not SLUG.match(p.id):
        r.problem(file, label, "id: a lower-case slug like 'relief-column'")
    if turn_limit is not None and p.round > turn_limit:
        r.problem(file, label, f"round {p.round} is after the turn limit ({turn_limit})")
    if p.faction is not None:
        faction(p.faction, "faction")
    for code, amount in p.rp.items():
        faction(code, "rp")
        if amount == 0:
            r.problem(file, label, f"rp: {code} = 0 changes nothing")
        elif abs(amount) > MAX_RP:
            r.problem(file, label, f"rp: {code} = {amount}: a change is -{MAX_RP:,} to {MAX_RP:,}")
    commodities: dict[str, dict[Commodity, int]] = {}
    for code, stock in p.commodities.items():
        faction(code, "commodities")
        for name, amount in stock.items():
            commodity = r.enum_value(Commodity, name, file, label, "commodity")
            if commodity is not None:
                commodities.setdefault(code, {})[commodity] = amount
            if amount == 0:
                r.problem(file, label, f"commodities: {code} {name} = 0 changes nothing")
            elif abs(amount) > MAX_STOCK:
                r.problem(
                    file,
                    label,
                    f"commodities: {code} {name} = {amount}: a change is -{MAX_STOCK:,} "
                    f"to {MAX_STOCK:,}",
                )
    place = _units(r, file, label, "place", p.place, in_play, kinds, game_map)
    remove = _units(r, file, label, "remove", p.remove, in_play, kinds, game_map)
    owners: dict[str, str | None] = {}
    for province, owner in p.owners.items():
        if game_map is not None and not game_map.is_province(province):
            r.unknown(file, label, "province", province, game_map.provinces)
        if owner != NO_OWNER:
            faction(owner, f"owners.{province}")
        owners[province] = None if owner == NO_OWNER else owner
    made = _groups(r, file, label, "alliance_made", p.alliance_made, in_play)
    ended = _groups(r, file, label, "alliance_ended", p.alliance_ended, in_play)
    for vassal, liege in p.fealty_sworn.items():
        faction(vassal, "fealty_sworn")
        faction(liege, "fealty_sworn")
        if vassal == liege:
            r.problem(file, label, f"fealty_sworn: {vassal} cannot be its own liege")
    for vassal in p.fealty_ended:
        faction(vassal, "fealty_ended")
    effects = (p.rp, p.commodities, p.place, p.remove, p.owners, p.alliance_made)
    more = (p.alliance_ended, p.fealty_sworn, p.fealty_ended)
    if not p.announce.strip() and not any(effects) and not any(more):
        r.problem(file, label, "an event needs an announce line or at least one effect")
    return ScenarioEvent(
        id=p.id,
        round=p.round,
        faction=p.faction,
        announce=p.announce.strip(),
        rp=dict(p.rp),
        commodities=commodities,
        place=place,
        remove=remove,
        owners=owners,
        alliances_made=made,
        alliances_ended=ended,
        fealty_sworn=dict(p.fealty_sworn),
        fealty_ended=tuple(p.fealty_ended),
    )


def _units(
    r: DataReader,
    file: str,
    label: str,
    key: str,
    table: Mapping[str, Mapping[str, Mapping[str, int]]],
    in_play: Collection[str],
    kinds: Mapping[str, UnitKind],
    game_map: GameMap | None,
) -> tuple[EventUnits, ...]:
    out: list[EventUnits] = []
    for code, by_space in table.items():
        if code not in in_play:
            r.problem(file, label, f"{key}: faction {code!r} is not in play ({', '.join(in_play)})")
            continue
        for space, counts in by_space.items():
            where = f"{key}.{code}.{space}"
            if game_map is not None:
                spaces = [*game_map.provinces, *game_map.sea_zones]
                if space not in spaces:
                    r.unknown(file, label, f"province or sea zone ({where})", space, spaces)
                    continue
            for kind_id, count in counts.items():
                kind = kinds.get(kind_id)
                if kind is None:
                    r.unknown(file, label, f"unit kind ({where})", kind_id, kinds)
                    continue
                if kind.faction != code:
                    r.problem(file, label, f"{where}: '{kind_id}' belongs to {kind.faction}")
                    continue
                if kind.hero:
                    r.problem(
                        file,
                        label,
                        f"{where}: '{kind_id}' is a Hero; events place and remove "
                        "no Heroes (R-ATTR-HERO-01)",
                    )
                    continue
                if not 1 <= count <= MAX_PLACED:
                    r.problem(file, label, f"{where}: '{kind_id}': a count is 1 to {MAX_PLACED}")
                    continue
                if game_map is not None:
                    ship = kind.base_type is BaseType.SHIP
                    if ship != game_map.is_sea(space):
                        r.problem(
                            file,
                            label,
                            f"{where}: '{kind_id}': ships go in sea zones, other "
                            "units in provinces (R-MOVE-09)",
                        )
                        continue
                out.append(EventUnits(code, kind_id, space, count))
    return tuple(out)


def _groups(
    r: DataReader,
    file: str,
    label: str,
    key: str,
    groups: list[list[str]],
    in_play: Collection[str],
) -> tuple[tuple[str, ...], ...]:
    out: list[tuple[str, ...]] = []
    for group in groups:
        members = tuple(sorted(set(group)))
        if len(members) < 2 or len(members) != len(group):
            r.problem(file, label, f"{key}: {group} needs two or more different factions")
            continue
        for code in members:
            if code not in in_play:
                r.problem(file, label, f"{key}: faction {code!r} is not in play")
        out.append(members)
    return tuple(out)
