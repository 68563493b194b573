"""Wording of a scenario's events (R-SETUP-01; decision 0026): the lines of what happened, and
the umpire's list of what is still to come. Pure functions of events, state and ruleset."""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset, ScenarioEvent
from caedes_bot.rules import scenario_events as se
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import faction_name, kind_counts, space_name
from caedes_bot.ui.text import EMBED_FIELD_VALUE_LIMIT, bullet_list, truncate

_REASONS = {
    "eliminated": "a faction it names is out of the game (R-VIC-05)",
    "hostile": "hostile units stand there, and a placement starts no battle",
    "fortified": "a province holds one Fortification (R-ATTR-FORT-02)",
    "no_fealty": "that faction owes no fealty",
    "no_alliance": "there is no such alliance",
}

_EFFECTS = {
    "rp": "the RP change",
    "commodities": "the commodity change",
    "place": "the reinforcements",
    "owner": "the change of owner",
    "alliance": "the alliance",
    "break": "the end of the alliance",
    "fealty": "the fealty",
    "revoke": "the end of the fealty",
}


def fired_line(event: se.ScenarioEventFired, ruleset: Ruleset) -> str:
    """``"**Scenario event** (round 2): A relief column ... (R-SETUP-01)."``"""
    text = event.announce or f"the scenario's event '{event.event_id}' happens."
    return f"**Scenario event** (game round {event.round}): {text} (R-SETUP-01)"


def treasury_line(event: se.ScenarioTreasuryChanged) -> str:
    """The private line of an RP or commodity change, with the figures."""
    item = "RP" if event.item == "rp" else event.item.title()
    change = event.after - event.before
    verb = f"gave you {change}" if change >= 0 else f"took {-change}"
    return (
        f"The scenario's event '{event.event_id}' {verb} {item}: {event.before} -> {event.after}."
    )


def placed_line(event: se.ScenarioUnitsPlaced, ruleset: Ruleset) -> str:
    what = kind_counts(ruleset, [event.kind] * len(event.unit_ids))
    numbers = ", ".join(f"#{i}" for i in event.unit_ids)
    return (
        f"Reinforcements for {faction_name(ruleset, event.faction)}: {what} ({numbers}) "
        f"placed in {space_name(ruleset, event.place)} by the scenario (R-SETUP-01)."
    )


def removed_line(event: se.ScenarioUnitsRemoved, ruleset: Ruleset) -> str:
    where = space_name(ruleset, event.place)
    who = faction_name(ruleset, event.faction)
    if not event.unit_ids:
        return f"The scenario would take {who}'s units from {where}, but none of them is there."
    numbers = ", ".join(f"#{i}" for i in event.unit_ids)
    return (
        f"The scenario took {kind_counts(ruleset, event.kinds)} ({numbers}) of {who} off the "
        f"board in {where} (R-SETUP-01)."
    )


def owner_line(event: se.ScenarioOwnerChanged, ruleset: Ruleset) -> str:
    after = faction_name(ruleset, event.after) if event.after else "nobody"
    return f"By the scenario, {space_name(ruleset, event.province)} now belongs to {after} (R-SETUP-01)."


def skipped_line(event: se.ScenarioEffectSkipped, ruleset: Ruleset) -> str:
    effect = _EFFECTS.get(event.effect, event.effect)
    reason = _REASONS.get(event.reason, event.reason)
    return (
        f"The scenario's event '{event.event_id}' could not make {effect} happen for "
        f"{_target(ruleset, event.target)}: {reason}."
    )


def _target(ruleset: Ruleset, target: str) -> str:
    if "+" in target:
        return " and ".join(faction_name(ruleset, code) for code in target.split("+"))
    if target in ruleset.map.provinces or target in ruleset.map.sea_zones:
        return space_name(ruleset, target)
    return faction_name(ruleset, target)


def upcoming_lines(state: GameState, ruleset: Ruleset) -> list[str]:
    """One line per scenario event still to come, in order, for the umpire: when, its id, what
    it does (figures included: the umpire sees everything, R-PBP-UMP-04)."""
    return [_upcoming(ruleset, e) for e in se.upcoming(state, ruleset)]


#: At most this many characters of one event in the umpire's list (so several always fit).
UPCOMING_LINE_MAX = 300


def upcoming_field(state: GameState, ruleset: Ruleset) -> str:
    """The umpire's list of the events to come (:func:`upcoming_lines`) as one embed field's
    value: one ``- `` line each, within Discord's 1,024 characters, the events that do not fit
    counted in a last line ("- and 3 more"); ``""`` when none is to come."""
    lines = [f"- {truncate(line, UPCOMING_LINE_MAX)}" for line in upcoming_lines(state, ruleset)]
    return bullet_list(lines, limit=EMBED_FIELD_VALUE_LIMIT, more="- and {n} more")


def _upcoming(ruleset: Ruleset, e: ScenarioEvent) -> str:
    when = f"round {e.round}"
    if e.faction is not None:
        when += f", {faction_name(ruleset, e.faction)}'s turn"
    parts = [f"{faction_name(ruleset, f)} {n:+d} RP" for f, n in e.rp.items()]
    for f, stock in e.commodities.items():
        parts += [f"{faction_name(ruleset, f)} {n:+d} {c}" for c, n in stock.items()]
    for u in e.place:
        parts.append(
            f"{kind_counts(ruleset, [u.kind] * u.count)} placed in {space_name(ruleset, u.location)}"
        )
    for u in e.remove:
        parts.append(
            f"up to {kind_counts(ruleset, [u.kind] * u.count)} removed from "
            f"{space_name(ruleset, u.location)}"
        )
    for province, owner in e.owners.items():
        new = faction_name(ruleset, owner) if owner else "nobody"
        parts.append(f"{space_name(ruleset, province)} to {new}")
    parts += [f"alliance of {_target(ruleset, '+'.join(m))}" for m in e.alliances_made]
    parts += [f"end of the alliance of {_target(ruleset, '+'.join(m))}" for m in e.alliances_ended]
    parts += [
        f"{faction_name(ruleset, v)} swears fealty to {faction_name(ruleset, lg)}"
        for v, lg in e.fealty_sworn.items()
    ]
    parts += [f"{faction_name(ruleset, v)} released from fealty" for v in e.fealty_ended]
    if e.announce:
        parts.append(f'announces "{e.announce}"')
    return f"{when}: '{e.id}': {'; '.join(parts)}"
