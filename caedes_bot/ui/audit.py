"""The audit log in plain words (R-PBP-UMP-01: every umpire override is logged).

Each entry of :meth:`~caedes_bot.service.RulesService.audit_log` becomes one line that says
who did what, in which capacity: ``"<@1> (umpire) set Dawnian RP to 12"``, ``"<@2> (admin)
assigned Dawnians to <@3>"``. Members are mentions, which Discord shows as their current
names; an entry without a member was done by the bot. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from caedes_bot.domain.records import AuditRecord
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.state import Step

#: The capacities an entry may record (``detail["as"]``, or ``acting_as`` for orders).
ROLES = ("umpire", "admin", "player", "system")


def _member(user_id: object) -> str:
    return f"<@{user_id}>" if isinstance(user_id, int) else "nobody"


def _faction(ruleset: Ruleset, code: object) -> str:
    try:
        return ruleset.faction(str(code)).name
    except KeyError:
        return str(code)


def _adjective(ruleset: Ruleset, code: object) -> str:
    try:
        return ruleset.faction(str(code)).adjective
    except KeyError:
        return str(code)


def _space(ruleset: Ruleset, space: object) -> str:
    try:
        return ruleset.map.space_name(str(space))
    except (KeyError, AttributeError):
        return str(space)


def _words(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower()


def _when(value: object) -> str:
    if isinstance(value, str):
        try:
            return f"<t:{int(datetime.fromisoformat(value).timestamp())}:f>"
        except ValueError:
            return value
    return "?"


def _order_text(ruleset: Ruleset, order: Mapping[str, Any]) -> str:
    kind = str(order.get("type", "order"))
    faction = order.get("faction")
    if kind == "SetRP":
        return f"set {_adjective(ruleset, order.get('target'))} RP to {order.get('rp')}"
    if kind == "SetCommodity":
        commodity = str(order.get("commodity", "")).title()
        target = _adjective(ruleset, order.get("target"))
        return f"set {target} {commodity} to {order.get('count')}"
    if kind == "SetOwner":
        place = _space(ruleset, order.get("province"))
        owner = order.get("owner")
        if owner is None:
            return f"left {place} without an owner"
        return f"gave {place} to the {_faction(ruleset, owner)}"
    if kind == "StartCampaign":
        return "started the campaign"
    if kind == "RollBack":
        return f"rolled the campaign back to the state after order #{order.get('to_seq')}"
    if kind == "SetStep":
        return f"moved the turn on to step {_step(order.get('step'))}"
    if kind == "UmpireAdvance":
        return f"moved the turn of the {_faction(ruleset, faction)} on"
    return f"gave the {_faction(ruleset, faction)}' order: {_words(kind)}"


def _units_text(ruleset: Ruleset, change: Mapping[str, Any]) -> str:
    ids = change.get("target") or []
    numbers = ", ".join(f"#{i}" for i in ids)
    froms = sorted({_space(ruleset, f) for f in change.get("before") or [] if f})
    was = f" (before: in {', '.join(froms)})" if froms else ""
    action = change.get("action")
    if action == "add":
        return f"added units {numbers} in {_space(ruleset, change.get('after'))}"
    if action == "remove":
        return f"removed units {numbers}{was}"
    return f"moved units {numbers} to {_space(ruleset, change.get('after'))}{was}"


def _limit(value: object) -> str:
    return f"{value} game rounds" if isinstance(value, int) else "no limit"


def _change_text(ruleset: Ruleset, change: Mapping[str, Any]) -> str | None:
    """An override's before and after (decision 0022) in words; ``None`` if not known."""
    what = change.get("what")
    before, after = change.get("before"), change.get("after")
    target = change.get("target")
    if what == "rp":
        return f"set {_adjective(ruleset, target)} RP to {after} (before: {before})"
    if what == "commodity":
        item = str(change.get("item", "")).title()
        return f"set {_adjective(ruleset, target)} {item} to {after} (before: {before})"
    if what == "owner":
        place = _space(ruleset, target)
        was = f"the {_faction(ruleset, before)}" if before else "nobody"
        now = (
            f"gave {place} to the {_faction(ruleset, after)}"
            if after
            else (f"left {place} without an owner")
        )
        return f"{now} (before: {was})"
    if what == "units":
        return _units_text(ruleset, change)
    if what == "option":
        return f"set the option {target} to {after} from the next turn start (before: {before})"
    if what == "turn_limit":
        return f"set the turn limit to {_limit(after)} (before: {_limit(before)})"
    if what == "step":
        now = f"step {_step(after)}" if after is not None else "the end of the turn"
        turn_of = change.get("was")
        whose = f"the {_faction(ruleset, turn_of)}' step" if turn_of else "step"
        return (
            f"moved the turn of the {_faction(ruleset, target)} on to {now} by the defaults "
            f"(before: {whose} {_step(before)})"
        )
    if what == "rollback":
        return (
            f"rolled the campaign back to the state after order #{target}: "
            f"{_moment(ruleset, after)} (before: {_moment(ruleset, before)})"
        )
    return None


def _step(value: object) -> str:
    try:
        return Step(int(str(value))).label
    except ValueError:
        return str(value)


def _moment(ruleset: Ruleset, value: object) -> str:
    if not isinstance(value, Mapping):
        return "?"
    active = value.get("active")
    who = f"the {_faction(ruleset, active)}' " if active else ""
    return f"{who}step {_step(value.get('step'))}, game round {value.get('round')}"


def _admin_text(ruleset: Ruleset, action: str, d: Mapping[str, Any]) -> str:
    texts: dict[str, Callable[[], str]] = {
        "campaign_created": lambda: (
            f"created the campaign {d.get('name')}"
            + (f" with {_member(d.get('umpire'))} as umpire" if d.get("umpire") else "")
        ),
        "umpire_set": lambda: (
            f"named {_member(d.get('umpire'))} umpire"
            + (f" in place of {_member(d.get('previous'))}" if d.get("previous") else "")
        ),
        "faction_assigned": lambda: (
            f"assigned the {_faction(ruleset, d.get('faction'))} to "
            f"{_member(d.get('user_id'))}"
            + (f" (before: {_member(d.get('previous'))})" if d.get("previous") else "")
        ),
        "faction_substituted": lambda: (
            f"handed the {_faction(ruleset, d.get('faction'))} to {_member(d.get('user_id'))}"
            f" in place of {_member(d.get('previous')) if d.get('previous') else 'the umpire'}"
        ),
        "faction_unassigned": lambda: (
            f"took the {_faction(ruleset, d.get('faction'))} from "
            f"{_member(d.get('previous'))}; the umpire runs them"
        ),
        "status_changed": lambda: {
            "paused": "paused the campaign",
            "active": "resumed the campaign",
            "finished": "finished the campaign",
        }.get(str(d.get("to")), f"set the campaign {d.get('to')}"),
        "deadline_moved": lambda: (
            f"moved the deadline {d.get('deadline')} to {_when(d.get('due_at'))}"
            + (f" (before: {_when(d.get('before'))})" if d.get("before") else "")
        ),
        "thread_opened": lambda: f"opened the thread {d.get('key')}",
        "campaign_exported": lambda: (
            f"exported the campaign ({d.get('orders')} orders, "
            + ("with the dice seed)" if d.get("with_seed") else "without the dice seed)")
        ),
        "campaign_imported": lambda: f"imported {d.get('source')} as {d.get('name')}",
        "thread_reused": lambda: f"asked again for the thread {d.get('key')}",
        "delivery_failed": lambda: (
            f"could not deliver to Discord ({d.get('kind')} in "
            f"{d.get('channel_key')}): {d.get('error')}"
        ),
    }
    text = texts.get(action)
    return text() if text is not None else _words(action.replace("_", " "))


def audit_line(record: AuditRecord, ruleset: Ruleset) -> str:
    """One audit entry in plain words, without its time: who (a mention and the capacity,
    or "The bot") and what, with faction and province names from ``ruleset``.

    Examples: ``"<@1> (umpire) set Dawnian RP to 12"``, ``"<@2> (admin) assigned the
    Dawnians to <@3>"``, ``"The bot could not deliver to Discord (...)"``.
    """
    detail = record.detail
    if record.action.startswith("order:"):
        order = detail.get("order")
        change = detail.get("change")
        what = (_change_text(ruleset, change) if isinstance(change, Mapping) else None) or (
            _order_text(ruleset, order if isinstance(order, Mapping) else {})
        )
        role = detail.get("acting_as")
    else:
        what = _admin_text(ruleset, record.action, detail)
        role = detail.get("as")
    if record.user_id is None:
        return f"The bot {what}"
    capacity = f" ({role})" if role in ROLES and role != "system" else ""
    return f"<@{record.user_id}>{capacity} {what}"


def audit_lines(records: list[AuditRecord], ruleset: Ruleset, *, last: int) -> list[str]:
    """The ``last`` newest entries, oldest first, each with its time as a Discord timestamp."""
    lines = []
    for record in records[-last:]:
        at = record.created_at
        at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # stored in UTC
        lines.append(f"<t:{int(at.timestamp())}:f> {audit_line(record, ruleset)}")
    return lines
