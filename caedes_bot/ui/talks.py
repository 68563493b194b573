"""Negotiation threads that follow the judged neighbourhood (R-PBP-NEG-01, R-PBP-NEG-03).

A negotiation thread (``talks:DAW+ORC``, or a group ``talks:DAW+ORC+ACH``) is open while every
two of its factions are neighbours as last judged (:func:`caedes_bot.rules.diplomacy.judged_neighbours`),
and read-only otherwise. When an order judges neighbourhood again (a
:class:`~caedes_bot.rules.diplomacy.NeighboursJudged` event), :func:`thread_locks` compares the
judgement before and after the order for each negotiation thread the campaign has and returns
the outbox rows that lock it (a notice, then ``lock_thread`` with ``locked`` true) or open it
again (``lock_thread`` with ``locked`` false, which also unarchives it, then a notice).

A locked thread can still be read; only members with Manage Threads may post in it or
unarchive it, and the bot's own unarchiving sends ``archived: false`` only, so an unarchive
never unlocks it: only the unlocking row does.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from caedes_bot.domain.places import ChannelKey, PlaceKind
from caedes_bot.domain.records import CampaignView, OutboxKind, OutboxMessage
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.diplomacy import NeighboursJudged, judged_neighbours
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import faction_name


def thread_open(state: GameState, ruleset: Ruleset, factions: Sequence[str]) -> bool:
    """Whether a negotiation thread of ``factions`` is open in ``state``: every two of them
    neighbours as last judged (R-PBP-NEG-01, R-PBP-NEG-03)."""
    return all(judged_neighbours(state, ruleset, a, b) for a, b in combinations(factions, 2))


def _apart(state: GameState, ruleset: Ruleset, factions: Sequence[str]) -> list[tuple[str, str]]:
    return [
        (a, b) for a, b in combinations(factions, 2) if not judged_neighbours(state, ruleset, a, b)
    ]


#: R-PBP-NEG-04 in a sentence, for the players and the umpire: where negotiation may happen.
NEGOTIATE_HERE_ONLY = (
    "Negotiate only in these threads: private talks elsewhere (direct messages, other servers, "
    "other channels) are against the rules, and the umpire enforces this (R-PBP-NEG-04). "
    "Public words in #table-talk are allowed, but they are not negotiation."
)

#: What R-PBP-NEG-04 asks of the umpire.
UMPIRE_ENFORCES = (
    "You enforce R-PBP-NEG-04: negotiation belongs in the bot's negotiation threads, which you "
    "read (R-PBP-UMP-04); private talks elsewhere are against the rules, and what to do about "
    "them is yours to decide (a warning, an override with `/umpire set`, a substitute)."
)


def opening_notice(ruleset: Ruleset, faction: str, others: Sequence[str]) -> str:
    """The first post of a new negotiation thread (R-PBP-NEG-01, R-PBP-NEG-04, R-PBP-NEG-05)."""
    mine = faction_name(ruleset, faction)
    theirs = ", ".join(faction_name(ruleset, o) for o in others)
    return (
        f"Negotiation between {mine} and {theirs}, with the umpire reading (R-PBP-NEG-01, "
        "R-PBP-UMP-04). Only trades the bot carries out, alliances and fealty bind anyone "
        f"(R-PBP-NEG-05). {NEGOTIATE_HERE_ONLY}"
    )


def locked_notice(ruleset: Ruleset, pairs: Sequence[tuple[str, str]]) -> str:
    """The notice posted in a negotiation thread as it goes read-only (R-PBP-NEG-03)."""
    apart = "; ".join(
        f"{faction_name(ruleset, a)} and {faction_name(ruleset, b)}" for a, b in pairs
    )
    return (
        f"Borders were judged again: {apart} are no longer neighbours, so this thread is "
        "read-only until they are neighbours again (R-PBP-NEG-03)."
    )


def reopened_notice(ruleset: Ruleset, factions: Sequence[str]) -> str:
    """The notice posted in a negotiation thread as it opens again (R-PBP-NEG-03)."""
    names = ", ".join(faction_name(ruleset, f) for f in factions)
    return (
        f"Borders were judged again: {names} are neighbours once more, so this thread is "
        "open again (R-PBP-NEG-03)."
    )


def thread_locks(
    campaign: CampaignView,
    events: Sequence[Event],
    state: GameState,
    ruleset: Ruleset,
    before: GameState | None,
) -> list[OutboxMessage]:
    """The rows that lock or reopen the campaign's negotiation threads (``campaign.threads``)
    whose openness changed in this order (see the module docstring). Empty unless the order
    judged neighbourhood again and the state before it is known."""
    if before is None or not any(isinstance(e, NeighboursJudged) for e in events):
        return []
    out: list[OutboxMessage] = []
    for text in sorted(campaign.threads):
        key = ChannelKey(text)
        if key.kind is not PlaceKind.TALKS:
            continue
        members = key.factions
        was_open = thread_open(before, ruleset, members)
        now_open = thread_open(state, ruleset, members)
        if was_open and not now_open:
            notice = locked_notice(ruleset, _apart(state, ruleset, members))
            out.append(OutboxMessage(key, OutboxKind.POST, {"content": notice}))
            out.append(OutboxMessage(key, OutboxKind.LOCK_THREAD, {"locked": True}))
        elif now_open and not was_open:
            out.append(OutboxMessage(key, OutboxKind.LOCK_THREAD, {"locked": False}))
            notice = reopened_notice(ruleset, members)
            out.append(OutboxMessage(key, OutboxKind.POST, {"content": notice}))
    return out
