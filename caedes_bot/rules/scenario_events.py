"""A scenario's events: things that happen at a given moment of play (R-SETUP-01; decision 0026).

The game data declares them (``[[event]]`` in a scenario file, read by
:mod:`caedes_bot.gamedata.scenario_events` into :class:`~caedes_bot.gamedata.model.ScenarioEvent`);
this module makes them happen. :func:`fire_due` is called first among the turn-start checks
(:func:`caedes_bot.rules.turn.turn_start_checks`), so what an event changes is in place before
the Mercenary check, the elimination check, pacts taking effect, the judging of neighbours and
victory (R-TURN-04):

* an event with a ``faction`` happens at the start of that faction's turn in its round;
* one without happens at the start of its round, at the first turn start of that round;
* each happens once: its id goes into ``GameState.scenario_events_done``. An event whose moment
  has passed without it (the faction was out of the game, or the campaign began before the
  event was written) never happens.

Each effect is an event of its own, so history, export and replays show it:
:class:`ScenarioEventFired` (public, with the scenario's ``announce`` line) first, then
:class:`ScenarioTreasuryChanged` (private: RP and commodities are secret, R-GEN-07),
:class:`ScenarioUnitsPlaced`, :class:`ScenarioUnitsRemoved`, :class:`ScenarioOwnerChanged`, and
:class:`ScenarioEffectSkipped` for an effect that cannot happen. Pacts made or ended are queued
as agreed pact changes, which take effect a moment later in the same turn-start checks
(:func:`caedes_bot.rules.pacts.apply_agreed`: ``PactTookEffect`` or ``PactLapsed``, with the
flattening of fealty chains and R-ALLY-05 for former partners).

What holds when an effect happens (else it is skipped, with the reason):

* a faction out of the game (eliminated, R-VIC-05) gets, loses and is placed nothing;
* RP and stocks never go below 0 (R-BUY-02, R-COMM-01): a taking takes what there is;
* units are placed only where no unit hostile to their faction stands (a placement starts no
  battle, R-COMBAT-01), and a Fortification only where none stands, one at a time
  (R-ATTR-FORT-02, R-ATTR-FORT-06); they are placed as mustered units are (``move_ended``) and their
  faction's turn start, if it is theirs, gives them their move (R-MOVE-22);
* a removal takes up to ``count`` units of the kind there, lowest id first, and a ship's
  cargo with it;
* a province's new owner must be in the game (R-COLL-01).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.gamedata.model import BaseType, EventUnits, Ruleset, ScenarioEvent
from caedes_bot.rules.events import Event
from caedes_bot.rules.muster import is_fortification
from caedes_bot.rules.state import GameState, PactProposal

RULE = "R-SETUP-01"

# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class ScenarioEventFired(Event):
    """The scenario's event ``event_id`` happened at the start of ``turn_of``'s turn of game
    round ``round`` (R-SETUP-01); ``announce`` is its line for everyone (may be empty)."""

    event_id: str
    round: int
    turn_of: str
    announce: str


@dataclass(frozen=True, slots=True)
class ScenarioTreasuryChanged(Event):
    """Event ``event_id`` changed ``faction``'s ``item`` (``"rp"`` or a commodity) from
    ``before`` to ``after``; private to the faction (R-GEN-07)."""

    private: ClassVar[bool] = True
    event_id: str
    faction: str
    item: str
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class ScenarioUnitsPlaced(Event):
    """Event ``event_id`` placed the new units ``unit_ids`` of ``kind`` for ``faction`` in
    ``place``; public (the board is, R-GEN-07)."""

    event_id: str
    faction: str
    kind: str
    place: str
    unit_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScenarioUnitsRemoved(Event):
    """Event ``event_id`` took ``faction``'s units ``unit_ids`` (of ``kinds``, same order, a
    ship's cargo included) off the board at ``place``; ``asked`` of ``kind`` were to go."""

    event_id: str
    faction: str
    kind: str
    place: str
    asked: int
    unit_ids: tuple[int, ...]
    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ScenarioOwnerChanged(Event):
    """Event ``event_id`` gave ``province`` from ``before`` to ``after`` (``""``: nobody)."""

    event_id: str
    province: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class ScenarioEffectSkipped(Event):
    """An effect of event ``event_id`` could not happen (module docstring).

    Attributes:
        effect: ``"rp"``, ``"commodities"``, ``"place"``, ``"owner"``, ``"alliance"``,
            ``"break"``, ``"fealty"`` or ``"revoke"``.
        target: the faction, province or factions (``"DAW+ORC"``) it was for.
        reason: ``"eliminated"`` (a faction out of the game), ``"hostile"`` (hostile units in
            the place), ``"fortified"`` (a second Fortification there, R-ATTR-FORT-02), ``"no_fealty"`` (the vassal owes no fealty) or ``"no_alliance"``.
    """

    event_id: str
    effect: str
    target: str
    reason: str


# --------------------------------------------------------------------------- firing


def due(state: GameState, ruleset: Ruleset) -> list[ScenarioEvent]:
    """The scenario's events that happen now, at the start of the active faction's turn, in the
    file's order (module docstring). Pure."""
    scenario = ruleset.scenarios.get(state.scenario)
    if scenario is None or state.active is None:
        return []
    return [
        event
        for event in scenario.events
        if event.round == state.round
        and event.id not in state.scenario_events_done
        and (event.faction == state.active if event.faction else _round_starts_now(state))
    ]


def _round_starts_now(state: GameState) -> bool:
    """Whether the active faction's turn start is the first of its game round: every faction
    before it in turn order is out of the game (one still in had its turn this round, so the
    round's start, and the moment of its events, has passed)."""
    assert state.active is not None
    order = state.in_play
    return all(state.factions[f].eliminated for f in order[: order.index(state.active)])


def upcoming(state: GameState, ruleset: Ruleset) -> list[ScenarioEvent]:
    """The scenario's events still to happen, in order of round (round events first), for the
    umpire (R-PBP-UMP-04). Pure."""
    scenario = ruleset.scenarios.get(state.scenario)
    if scenario is None or state.finished:
        return []
    ahead = [
        e
        for e in scenario.events
        if e.id not in state.scenario_events_done
        and (e.round > state.round or (e.round == state.round and _still_ahead(state, e)))
    ]
    return sorted(ahead, key=lambda e: (e.round, e.faction is not None))


def _still_ahead(state: GameState, event: ScenarioEvent) -> bool:
    """Whether ``event``, of the current round, may still happen this round."""
    if event.faction is None:
        return state.round == 0 or state.active is None
    if state.round == 0 or state.active is None:
        return True
    order = state.in_play
    return event.faction in order and order.index(event.faction) > order.index(state.active)


def fire_due(state: GameState, ruleset: Ruleset) -> list[Event]:
    """Make every event due now happen, in order (module docstring). Mutates ``state``;
    returns the events."""
    events: list[Event] = []
    for scenario_event in due(state, ruleset):
        state.scenario_events_done.append(scenario_event.id)
        events += _fire(state, ruleset, scenario_event)
    return events


def _fire(state: GameState, ruleset: Ruleset, e: ScenarioEvent) -> list[Event]:
    out: list[Event] = [ScenarioEventFired(e.id, state.round, state.active or "", e.announce)]
    for faction, change in e.rp.items():
        out.append(_treasury(state, e.id, faction, "rp", change))
    for faction, stock in e.commodities.items():
        for commodity, change in stock.items():
            out.append(_treasury(state, e.id, faction, str(commodity), change))
    for entry in e.remove:
        out.append(_remove(state, ruleset, e.id, entry))
    for entry in e.place:
        out.append(_place(state, ruleset, e.id, entry))
    for province, owner in e.owners.items():
        if owner is not None and not _live(state, owner):
            out.append(ScenarioEffectSkipped(e.id, "owner", province, "eliminated"))
            continue
        before = state.owners.get(province, "")
        if owner is None:
            state.owners.pop(province, None)
        else:
            state.owners[province] = owner
        out.append(ScenarioOwnerChanged(e.id, province, before, owner or ""))
    for members in e.alliances_made:
        out += _queue(state, e.id, "alliance", members)
    for members in e.alliances_ended:
        if not any(sorted(group) == sorted(members) for group in state.alliances):
            out.append(ScenarioEffectSkipped(e.id, "break", "+".join(members), "no_alliance"))
            continue
        out += _queue(state, e.id, "break", members)
    for vassal, liege in e.fealty_sworn.items():
        out += _queue(state, e.id, "fealty", (vassal, liege))
    for vassal in e.fealty_ended:
        lord = state.fealty.get(vassal)
        if lord is None:
            out.append(ScenarioEffectSkipped(e.id, "revoke", vassal, "no_fealty"))
            continue
        out += _queue(state, e.id, "revoke", (vassal, lord))
    return out


def _live(state: GameState, code: str) -> bool:
    fs = state.factions.get(code)
    return code in state.in_play and fs is not None and not fs.eliminated


def _treasury(state: GameState, event_id: str, faction: str, item: str, change: int) -> Event:
    if not _live(state, faction):
        effect = "rp" if item == "rp" else "commodities"
        return ScenarioEffectSkipped(event_id, effect, faction, "eliminated")
    fs = state.factions[faction]
    if item == "rp":
        before = fs.rp
        fs.rp = max(0, before + change)
        return ScenarioTreasuryChanged(event_id, faction, item, before, fs.rp)
    before = fs.commodities.get(item, 0)
    after = max(0, before + change)
    if after:
        fs.commodities[item] = after
    else:
        fs.commodities.pop(item, None)
    return ScenarioTreasuryChanged(event_id, faction, item, before, after)


def _place(state: GameState, ruleset: Ruleset, event_id: str, entry: EventUnits) -> Event:
    if not _live(state, entry.faction):
        return ScenarioEffectSkipped(event_id, "place", entry.faction, "eliminated")
    if any(
        not state.are_partners(u.owner, entry.faction) for u in state.peek_units_at(entry.location)
    ):
        return ScenarioEffectSkipped(event_id, "place", entry.location, "hostile")
    kind = ruleset.kind(entry.kind)
    if is_fortification(state, kind) and (
        entry.count > 1
        or any(
            is_fortification(state, ruleset.kind(u.kind))
            for u in state.peek_units_at(entry.location)
        )
    ):
        return ScenarioEffectSkipped(event_id, "place", entry.location, "fortified")
    ids = [
        state.place_new_unit(entry.kind, entry.faction, entry.location).id
        for _ in range(entry.count)
    ]
    return ScenarioUnitsPlaced(event_id, entry.faction, entry.kind, entry.location, tuple(ids))


def _remove(state: GameState, ruleset: Ruleset, event_id: str, entry: EventUnits) -> Event:
    chosen = [
        u.id
        for u in state.peek_units_at(entry.location)
        if u.owner == entry.faction and u.kind == entry.kind
    ][: entry.count]
    ships = {uid for uid in chosen if ruleset.kind(entry.kind).base_type is BaseType.SHIP}
    cargo = [u.id for u in state.peek_units() if u.aboard is not None and u.aboard in ships]
    gone = sorted({*chosen, *cargo})
    kinds = tuple(state.peek_unit(uid).kind for uid in gone)
    for uid in gone:
        del state.units[str(uid)]
    return ScenarioUnitsRemoved(
        event_id, entry.faction, entry.kind, entry.location, entry.count, tuple(gone), kinds
    )


def _queue(state: GameState, event_id: str, kind: str, members: tuple[str, ...]) -> list[Event]:
    """An agreed pact change, to take effect in these same turn-start checks (R-ALLY-02)."""
    for code in members:
        if not _live(state, code):
            return [ScenarioEffectSkipped(event_id, kind, "+".join(members), "eliminated")]
    state.pact_proposals.append(
        PactProposal(state.new_id(), kind, tuple(members), tuple(members), agreed=True)
    )
    return []
