"""The service's words: what the service says to players and umpires in its own name.

The service refuses stale orders, posts a welcome when a campaign is set up, reminds a faction
of a deadline and tells the umpire of a message Discord refused; the words for all of these
live here, with the words for a campaign's status and places that the cogs show too.

This module is the one part of ``ui/`` that the service may import: it is Discord-free and
imports nothing of ours but the rules, the game data and :mod:`caedes_bot.domain` (an import
contract checks it; see ``pyproject.toml``). Every function is pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import fields
from datetime import datetime, timedelta
from typing import NamedTuple

from caedes_bot.domain.places import ChannelKey, PlaceKind
from caedes_bot.domain.records import (
    CampaignStatus,
    CampaignView,
    DeliveryProblem,
    OutboxKind,
    time_left,
)
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState, Step

#: A campaign's status in words ("it is under way").
STATUS_TEXT: Mapping[CampaignStatus, str] = {
    CampaignStatus.SETTING_UP: "being set up",
    CampaignStatus.ACTIVE: "under way",
    CampaignStatus.PAUSED: "paused",
    CampaignStatus.FINISHED: "finished",
}

#: What to use instead of a control whose moment has passed.
_CURRENT_PANEL = "the controls of the current turn panel, or /help"
_CURRENT_BATTLE = "the controls now shown on the battle message, or /help"


class Refused(NamedTuple):
    """The words of a refusal: what was wrong and what is allowed instead."""

    message: str
    allowed: str


# --------------------------------------------------------------------------- the turn


def _faction_word(ruleset: Ruleset, code: str) -> str:
    try:
        return ruleset.faction(code).name
    except KeyError:
        return code


def moment(ruleset: Ruleset, step: Step | None, faction: str | None, round_no: int | None) -> str:
    """``"step 8 Muster (Dawnians, game round 1)"`` from what is known of a moment of the game."""
    where = [_faction_word(ruleset, faction)] if faction else []
    if round_no is not None:
        where.append(f"game round {round_no}")
    head = f"step {step.label}" if step is not None else "that turn"
    return f"{head} ({', '.join(where)})" if where else head


def turn_text(state: GameState, ruleset: Ruleset) -> str:
    """Where the game stands, as the end of a sentence: ``"now: step 5 Buy (Dawnians, game
    round 2)"``, ``"the campaign is over"``."""
    if state.finished:
        return "the campaign is over"
    if state.active is None:
        return "no faction is playing"
    return f"now: {moment(ruleset, state.step, state.active, state.round)}"


def already_chosen(state: GameState, ruleset: Ruleset, rule: str | None) -> Refused:
    """A choice answered twice (a double click on a decision's control); ``rule`` is the
    decision's rule, if known (battle decisions point to the battle message)."""
    battle = rule is None or rule.startswith("R-COMBAT")
    return Refused(
        f"This choice has already been made; {turn_text(state, ruleset)}.",
        _CURRENT_BATTLE if battle else _CURRENT_PANEL,
    )


def moment_over(
    via: str,
    step: Step | None,
    faction: str | None,
    round_no: int | None,
    state: GameState,
    ruleset: Ruleset,
) -> Refused:
    """A control (``via``: ``"button"``, ``"command"``...) meant for a turn that is over."""
    was = moment(ruleset, step, faction, round_no)
    return Refused(
        f"That {via} was for {was}, which is over; {turn_text(state, ruleset)}.", _CURRENT_PANEL
    )


def step_over(via: str, step: Step, now: Step) -> Refused:
    """A control meant for a step of this turn that is over."""
    return Refused(
        f"That {via} was for step {step.label}, which is over; the turn is now at step "
        f"{now.label}.",
        _CURRENT_PANEL,
    )


# --------------------------------------------------------------------------- posts


def welcome_text(name: str, scenario_name: str, factions: Sequence[str]) -> str:
    """The first post in ``#announcements`` of a campaign being set up."""
    return (
        f"Campaign **{name}** ({scenario_name}) is being set up. Factions: {', '.join(factions)}."
    )


def seed_commitment_text(name: str, commitment: str) -> str:
    """The post in ``#announcements`` that commits the bot to a campaign's dice seed before any
    die is rolled (decision 0023)."""
    return (
        f"**{name}**: the dice of this campaign come from a secret seed. Its SHA-256 is "
        f"`{commitment}`. The seed is revealed when the campaign ends, so anyone can check "
        "every die with `python -m caedes_bot.verify` on the campaign's export."
    )


def seed_reveal_text(name: str, seed: str, commitment: str) -> str:
    """The post in ``#announcements`` that reveals a finished campaign's dice seed."""
    return (
        f"**{name}** is over. The dice seed was `{seed}` (SHA-256 `{commitment}`, as published "
        "at the start). Check every die with `python -m caedes_bot.verify` on the export from "
        "`/campaign export`."
    )


def reminder_text(faction: str | None, owes_turn: bool, due_unix: int) -> str:
    """A deadline's reminder (R-PBP-DEAD-02), with the deadline as a Discord timestamp."""
    what = "its turn" if owes_turn else "a decision"
    return f"Reminder: {faction or 'someone'} still owes {what}; the deadline is <t:{due_unix}:R>."


def _words(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower()


def event_text(event: Event) -> str:
    """A plain one-line description of an event: ``"units bought: faction=DAW, kind=U-DAW-01"``."""
    parts = [f"{f.name}={getattr(event, f.name)}" for f in fields(event)]
    head = _words(type(event).__name__)
    return head[:1].upper() + head[1:] + (": " + ", ".join(parts) if parts else "")


# --------------------------------------------------------------------------- delivery


def place_text(key: str) -> str:
    """A campaign place in words: ``"#battles"``, ``"the orders thread of DAW"``.

    Raises:
        ValueError: ``key`` is not the key of a campaign's place.
    """
    place = ChannelKey(key)
    kind = place.kind
    if kind is PlaceKind.CATEGORY:
        return "the campaign's category"
    if kind is PlaceKind.ORDERS:
        return f"the orders thread of {place.factions[0]}"
    if kind is PlaceKind.TALKS:
        return "the negotiation thread of " + " and ".join(place.factions)
    return f"#{place}"


def describe_problem(problem: DeliveryProblem) -> str:
    """A failed delivery in one line: ``"Could not make #battles: Discord refused (403 ...)"``."""
    payload = problem.payload
    place = place_text(problem.channel_key)
    user = f"<@{payload['user_id']}>" if isinstance(payload.get("user_id"), int) else "a member"
    name = str(payload.get("name") or problem.channel_key)
    what = {
        OutboxKind.CREATE_CATEGORY: f"make the category {name}",
        OutboxKind.CREATE_CHANNEL: f"make #{name}",
        OutboxKind.CREATE_THREAD: f"make the thread {name}",
        OutboxKind.POST: f"post in {place}",
        OutboxKind.EDIT: f"edit a message in {place}",
        OutboxKind.ADD_THREAD_MEMBER: f"add {user} to {place}",
        OutboxKind.REMOVE_THREAD_MEMBER: f"remove {user} from {place}",
        OutboxKind.GRANT_CHANNEL_ACCESS: f"open {place} to {user}",
        OutboxKind.REVOKE_CHANNEL_ACCESS: f"close {place} to {user}",
        OutboxKind.LOCK_THREAD: (
            f"lock {place}" if payload.get("locked") else f"open {place} again"
        ),
    }.get(problem.kind, f"deliver to {place}")
    error = " ".join(problem.error.split())
    return f"Could not {what}: {error[:300]}"


def delivery_notice(problem: DeliveryProblem) -> str:
    """The notice in ``#umpire`` of a delivery that failed for good. Only a refusal for want
    of permission (403) points at the bot's permissions; a server at one of Discord's limits
    is named as such by the error itself."""
    advice = " Check the bot's permissions in this server;" if "(403 " in problem.error else ""
    return f"⚠️ {describe_problem(problem)}.{advice} `/campaign info` lists what failed."


# --------------------------------------------------------------------------- pause (R-PBP-UMP-05)


def not_running(name: str, status: CampaignStatus) -> Refused:
    """Why a campaign that is not under way takes no order, and what is allowed instead."""
    if status is CampaignStatus.PAUSED:
        return Refused(
            f"{name} is paused by the umpire: no orders are taken and no deadline runs "
            "until it resumes.",
            "looking things up (`/status`, `/province`, `/unit`, `/help`) and talking in the "
            "negotiation threads; the umpire carries on with `/umpire resume`",
        )
    if status is CampaignStatus.FINISHED:
        return Refused(f"{name} is over; no orders are taken.", "nothing: the campaign is over")
    return Refused(
        f"{name} is {STATUS_TEXT[status]}; no orders are taken yet.",
        "the umpire starts it with `/campaign start`",
    )


def duration_text(span: timedelta) -> str:
    """A span in hours and minutes, rounded down: ``"23 h 59 min"``, ``"45 min"``, ``"2 h"``."""
    minutes = max(0, int(span.total_seconds()) // 60)
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return f"{minutes} min"
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def deadline_what(key: str, state: GameState, ruleset: Ruleset) -> str:
    """What a deadline is for, in words: ``"the turn of the Dawnians"``, ``"the answer of the
    Acherousians"`` (keys ``turn:<round>:<faction>``, ``decision:<id>``)."""
    if key.startswith("turn:"):
        return f"the turn of the {_faction_word(ruleset, key.rsplit(':', 1)[1])}"
    if key.startswith("decision:"):
        decision_id = key.split(":", 1)[1]
        for decision in state.pending:
            if str(decision.id) == decision_id:
                return f"the answer of the {_faction_word(ruleset, decision.faction)}"
        return "an answer"
    return key


def finished_text(name: str) -> str:
    """The post in ``#announcements`` when the umpire or an admin finishes a campaign."""
    return (
        f"🏁 **{name}** has been finished by the umpire (R-PBP-UMP-01). No more orders are "
        "taken and no deadline runs; `/history` still shows what happened."
    )


def substitute_text(faction: str, user_id: int, previous: int | None) -> str:
    """The notice in a faction's orders thread when the umpire hands it to a substitute
    (R-PBP-UMP-01): ``faction`` as ``"Dawnians (DAW)"``."""
    before = f"<@{previous}>" if previous is not None else "the umpire"
    return (
        f"🔁 <@{user_id}> now plays {faction} in place of {before} (R-PBP-UMP-01). The turn "
        "panel, the decisions owed and the deadlines go on as they were; the buttons and "
        "reminders are yours from now on."
    )


def substitute_notice(faction: str, user_id: int, previous: int | None) -> str:
    """The post in ``#announcements`` when the umpire hands a faction to a substitute
    (R-PBP-UMP-01); the new player is named, not pinged (they are pinged in the orders thread)."""
    before = f"<@{previous}>" if previous is not None else "the umpire"
    return f"🔁 {faction} is now played by <@{user_id}> in place of {before} (R-PBP-UMP-01)."


def deadlines_moved_text(name: str, moves: Sequence[tuple[str, datetime, datetime]]) -> str:
    """The post in ``#announcements`` when the umpire moves deadlines (R-PBP-UMP-03);
    ``moves``: what each deadline is for, its time before and its new time."""
    lines = [f"⏰ The umpire has changed deadlines in **{name}** (R-PBP-UMP-03):"]
    for what, before, after in moves:
        verb = "extended" if after > before else "brought forward"
        lines.append(
            f"• {what}: {verb} to <t:{int(after.timestamp())}:f> "
            f"(<t:{int(after.timestamp())}:R>; it was <t:{int(before.timestamp())}:f>)"
        )
    return "\n".join(lines)


def paused_text(name: str, left: Sequence[tuple[str, timedelta]]) -> str:
    """The post in ``#announcements`` when the umpire pauses the campaign; ``left``: what each
    open deadline is for and the time it keeps for the resume."""
    kept = "; ".join(f"{what}: {duration_text(span)}" for what, span in left)
    return (
        f"⏸️ The umpire has paused **{name}** (R-PBP-UMP-05). No orders are taken and no "
        "deadline or reminder runs until the campaign resumes; each deadline then gets back "
        "the time it has left now (at least 1 h)." + (f"\nTime kept: {kept}." if kept else "")
    )


def resumed_text(name: str, due: Sequence[tuple[str, int]]) -> str:
    """The post in ``#announcements`` when the umpire resumes the campaign; ``due``: what each
    open deadline is for and its new time (unix seconds)."""
    ends = "; ".join(f"{what} <t:{unix}:R>" for what, unix in due)
    return (
        f"▶️ The umpire has resumed **{name}** (R-PBP-UMP-05). Orders are taken again and each "
        "deadline has the time it had left." + (f"\nDeadlines: {ends}." if ends else "")
    )


def already_paused(name: str, since_unix: int | None) -> Refused:
    """``/umpire pause`` on a campaign already paused."""
    since = f" (since <t:{since_unix}:R>)" if since_unix is not None else ""
    return Refused(f"{name} is already paused{since}; nothing changed.", "`/umpire resume`")


def cannot_pause(name: str, status: CampaignStatus) -> Refused:
    """``/umpire pause`` on a campaign being set up or finished."""
    allowed = (
        "nothing: the campaign is over"
        if status is CampaignStatus.FINISHED
        else "`/campaign start` first; a campaign under way can be paused"
    )
    return Refused(f"{name} is {STATUS_TEXT[status]}, so it cannot be paused.", allowed)


def not_paused(name: str, status: CampaignStatus) -> Refused:
    """``/umpire resume`` on a campaign that is not paused."""
    allowed = {
        CampaignStatus.ACTIVE: "`/umpire pause` to pause it",
        CampaignStatus.SETTING_UP: "`/campaign start` to begin it",
    }.get(status, "nothing: the campaign is over")
    return Refused(f"{name} is not paused (it is {STATUS_TEXT[status]}); nothing changed.", allowed)


def umpire_only(name: str, umpire: int | None) -> Refused:
    """Pausing and resuming belong to the campaign's umpire alone."""
    who = f"the umpire, <@{umpire}>" if umpire is not None else "the umpire"
    return Refused(f"Only the umpire of {name} may pause or resume it.", f"ask {who}")


def status_change_text(campaign: CampaignView, state: GameState, ruleset: Ruleset) -> str:
    """The post of a pause or a resume (:func:`paused_text`, :func:`resumed_text`) from the
    campaign as it now stands: paused (``info.paused_at`` set) or running again."""
    info = campaign.info
    deadlines = sorted(campaign.deadlines.items(), key=lambda item: (item[1], item[0]))
    if info.status is CampaignStatus.PAUSED and info.paused_at is not None:
        paused_at = info.paused_at
        return paused_text(
            info.name,
            [(deadline_what(k, state, ruleset), time_left(due, paused_at)) for k, due in deadlines],
        )
    return resumed_text(
        info.name,
        [(deadline_what(k, state, ruleset), int(due.timestamp())) for k, due in deadlines],
    )


def status_change_reply(campaign: CampaignView, state: GameState, ruleset: Ruleset) -> str:
    """The umpire's private answer to ``/umpire pause`` or ``/umpire resume``."""
    done = "Paused" if campaign.info.status is CampaignStatus.PAUSED else "Resumed"
    return (
        f"{done}: announced in #announcements, shown on the turn panel and written to the "
        f"audit log.\n{status_change_text(campaign, state, ruleset)}"
    )
