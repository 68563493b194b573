"""The lines of diplomacy (:mod:`caedes_bot.ui.lines`): pacts proposed, answered, agreed, in
effect and lapsed (alliances and fealty, R-ALLY-*, R-FEAL-*), and the neighbours judged.

Each function is registered with :func:`~caedes_bot.ui.lines_registry.line_of` as the line of
its event class. Pure functions of the event, the state after it and the static ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import diplomacy, pacts
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import faction_name, space_name
from caedes_bot.ui.lines_registry import line_of


# --------------------------------------------------------------------------- pacts
def _names(ruleset: Ruleset, codes: Sequence[str]) -> str:
    return ", ".join(faction_name(ruleset, c) for c in codes)


def _pact_text(ruleset: Ruleset, kind: str, members: Sequence[str]) -> str:
    if kind == "alliance":
        return f"an alliance of {_names(ruleset, members)}"
    if kind == "break":
        return f"the end of the alliance of {_names(ruleset, members)}"
    vassal, liege = faction_name(ruleset, members[0]), faction_name(ruleset, members[1])
    if kind == "fealty":
        return f"{vassal}'s fealty to {liege}"
    return f"{vassal} revoking its fealty to {liege}"


def _pact_rule(kind: str) -> str:
    """The rule a proposal of ``kind`` is confirmed under: fealty's own, or the alliance's."""
    return "R-FEAL-01" if kind in ("fealty", "revoke") else "R-ALLY-01"


@line_of(pacts.PactProposed)
def _pact_proposed(event: pacts.PactProposed, state: GameState, ruleset: Ruleset) -> str:
    if event.kind == "fealty":  # the vassal swears; its liege accepts (R-FEAL-01)
        vassal, liege = (faction_name(ruleset, m) for m in event.members)
        text = f"{vassal} swears fealty to {liege} (proposal {event.proposal})."
    else:
        text = (
            f"{faction_name(ruleset, event.by)} proposes "
            f"{_pact_text(ruleset, event.kind, event.members)} (proposal {event.proposal})."
        )
    if event.waiting:
        verb = "accept" if event.kind == "fealty" else "confirm"
        text += (
            f" Waiting for {_names(ruleset, event.waiting)} to {verb} ({_pact_rule(event.kind)})."
        )
    return text


@line_of(pacts.PactAnswered)
def _pact_answered(event: pacts.PactAnswered, state: GameState, ruleset: Ruleset) -> str:
    who = faction_name(ruleset, event.by)
    what = _pact_text(ruleset, event.kind, event.members)
    if not event.accepted:
        return f"{who} refused {what}; the proposal is dropped ({_pact_rule(event.kind)})."
    if event.waiting:
        return f"{who} confirmed {what}; still waiting for {_names(ruleset, event.waiting)}."
    return f"{who} confirmed {what}."


@line_of(pacts.PactAgreed)
def _pact_agreed(event: pacts.PactAgreed, state: GameState, ruleset: Ruleset) -> str:
    what = _pact_text(ruleset, event.kind, event.members)
    return f"Agreed: {what}. It takes effect at the start of the next turn (R-ALLY-02)."


@line_of(pacts.PactTookEffect)
def _pact_took_effect(event: pacts.PactTookEffect, state: GameState, ruleset: Ruleset) -> str:
    what = _pact_text(ruleset, event.kind, event.members)
    text = f"**In force from now:** {what}."
    if event.also_vassals:
        text += (
            f" {_names(ruleset, event.also_vassals)} now owe fealty to "
            f"{faction_name(ruleset, event.members[1])} too (R-FEAL-04)."
        )
    for faction, province in event.parting:
        text += (
            f" {faction_name(ruleset, faction)}'s units in {space_name(ruleset, province)} must "
            "leave it at its next turn or attack there (R-ALLY-05)."
        )
    return text


_LAPSED = {
    "eliminated": "a member was eliminated",
    "liege_is_vassal": "the liege has become a vassal itself (R-FEAL-04)",
    "hero_fallen": "the liege's Hero has fallen (R-FEAL-03)",
    "already_vassal": "the vassal already owes fealty elsewhere",
    "gone": "the pact it changes no longer exists",
    "over": "the campaign is over",
}


@line_of(pacts.PactLapsed)
def _pact_lapsed(event: pacts.PactLapsed, state: GameState, ruleset: Ruleset) -> str:
    what = _pact_text(ruleset, event.kind, event.members)
    return f"{what[0].upper()}{what[1:]} did not take effect: {_LAPSED[event.reason]}."


@line_of(diplomacy.NeighboursJudged)
def _neighbours_judged(
    event: diplomacy.NeighboursJudged, state: GameState, ruleset: Ruleset
) -> str:
    parts = []
    if event.gained:
        pairs = "; ".join(_names(ruleset, p).replace(", ", " and ") for p in event.gained)
        parts.append(f"now neighbours: {pairs}")
    if event.lost:
        pairs = "; ".join(_names(ruleset, p).replace(", ", " and ") for p in event.lost)
        parts.append(f"no longer neighbours (their threads are read-only): {pairs}")
    return "Borders judged again (R-PBP-NEG-03): " + "; ".join(parts) + "."
