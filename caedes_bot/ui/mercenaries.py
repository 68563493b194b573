"""The Mercenary choice in Discord (R-ATTR-MERC-01, R-PBP-DEAD-04): which of a faction's
excess Mercenaries desert, when the choice is a real one.

Controls (``dec.<decision>``, see :mod:`caedes_bot.ui.components`): a select of the faction's
Mercenaries there (``merc``, values: unit ids), exactly as many to pick as must go, the default
preselected (the cheapest, ties the most recently mustered), and a **Use default** button
(``default``) naming it. At a battle round start they sit on the battle message; at a turn
start on a post in the faction's orders thread (:func:`turn_start_posts`), edited without them
once the choice is made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import OutboxKind, OutboxMessage
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import MercenariesOwed
from caedes_bot.rules.mercenary_answer import ChooseMercenaries
from caedes_bot.rules.state import (
    DecisionKind,
    GameState,
    MercenariesDetail,
    MercenaryCandidate,
    PendingDecision,
)
from caedes_bot.ui import views
from caedes_bot.ui.describe import faction_name, kind_counts, kind_name, space_name

JSON = dict[str, Any]

#: The custom-id action of the select.
PICK = "merc"
#: the action of its Use default button
DEFAULT = "mercdefault"


def post_key(decision_id: int) -> str:
    """The message key of a turn-start choice's post in the orders thread."""
    return f"merc:{decision_id}"


def default_text(ruleset: Ruleset, detail: MercenariesDetail) -> str:
    """The default Mercenaries of a decision, e.g. ``"2 Orc Rabble"`` (R-ATTR-MERC-01)."""
    kinds = {c.id: c.kind for c in detail.candidates}
    return kind_counts(ruleset, [kinds.get(u, "?") for u in detail.default])


def decision_text(ruleset: Ruleset, detail: MercenariesDetail) -> str:
    """What the decision asks, in a few words (R-ATTR-MERC-01)."""
    where = space_name(ruleset, detail.space)
    n = detail.deserting
    what = f"{n} of {len(detail.candidates)} Mercenaries" if n > 1 else "1 Mercenary"
    others = f"{detail.others} other unit{'' if detail.others == 1 else 's'}"
    return (
        f"choose {what} to desert at {where}: {detail.mercenaries} Mercenaries outnumber "
        f"{others} (R-ATTR-MERC-01)"
    )


def _describe(candidate: MercenaryCandidate, default: bool) -> str:
    parts = ["free" if candidate.cost is None else f"{candidate.cost} RP"]
    if candidate.aboard is not None:
        parts.append(f"aboard ship #{candidate.aboard}")
    if default:
        parts.append("default")
    return " · ".join(parts)


def options(ruleset: Ruleset, detail: MercenariesDetail) -> list[JSON]:
    """One option per Mercenary (``<unit id>``), the default ones first and preselected, at
    most 25."""
    chosen = set(detail.default)
    ranked = sorted(detail.candidates, key=lambda c: (c.id not in chosen, c.id))
    return [
        views.option(
            f"{kind_name(ruleset, c.kind)} #{c.id}" + (" (wounded)" if c.wounded else ""),
            str(c.id),
            description=_describe(c, c.id in chosen),
            default=c.id in chosen,
        )
        for c in ranked
    ][:25]


def components(campaign_id: int, ruleset: Ruleset, decision: PendingDecision) -> list[JSON]:
    """The select of the Mercenaries to destroy and the **Use default** button."""
    detail = decision.detail
    assert isinstance(detail, MercenariesDetail)
    obj: list[object] = ["dec", decision.id]
    n = detail.deserting
    who = faction_name(ruleset, detail.faction)
    return [
        views.select(
            views.custom_id(campaign_id, obj, PICK),
            options(ruleset, detail),
            placeholder=f"{who}: choose {n} Mercenar{'y' if n == 1 else 'ies'} to desert",
            min_values=n,
            max_values=n,
        ),
        views.button(
            views.custom_id(campaign_id, obj, DEFAULT),
            f"Use default: {default_text(ruleset, detail)}",
        ),
    ]


def order_for(
    decision: PendingDecision, action: str, values: Sequence[str], ruleset: Ruleset
) -> tuple[ChooseMercenaries, str] | None:
    """The order a click on a Mercenary choice's control gives and a headline for the reply;
    ``None`` when the decision is of another kind. Values that do not read are left out (the
    rules check the order)."""
    detail = decision.detail
    if not isinstance(detail, MercenariesDetail):
        return None
    ids = detail.default if action == DEFAULT else tuple(int(v) for v in values if v.isdigit())
    kinds = {c.id: c.kind for c in detail.candidates}
    names = kind_counts(ruleset, [kinds.get(u, "?") for u in ids])
    return (
        ChooseMercenaries(decision.faction, decision.id, ids),
        f"Deserting: {names} (R-ATTR-MERC-01).",
    )


def turn_start_posts(
    campaign_id: int,
    events: Sequence[Event],
    state: GameState,
    before: GameState | None,
    ruleset: Ruleset,
    deadlines: Mapping[str, datetime],
    who_answers: Callable[[str], list[int]],
    timestamp: Callable[[datetime | None], str],
) -> list[OutboxMessage]:
    """The turn-start Mercenary choices (R-ATTR-MERC-01): a post with the controls in the
    orders thread of each faction newly asked, pinging its player, with its deadline
    (R-PBP-DEAD-01); and an edit without controls of each that was open before this order and
    is no longer."""
    out: list[OutboxMessage] = []
    asked = {e.decision for e in events if isinstance(e, MercenariesOwed) and e.battle is None}
    for decision in state.pending:
        if decision.id not in asked or not isinstance(decision.detail, MercenariesDetail):
            continue
        due = deadlines.get(f"decision:{decision.id}")
        text = (
            f"{faction_name(ruleset, decision.faction)} must "
            f"{decision_text(ruleset, decision.detail)}"
            + (f", by {timestamp(due)}" if due else "")
            + f". If no answer comes, the default goes: {default_text(ruleset, decision.detail)}."
            " The turn begins once this is answered."
        )
        payload: JSON = {
            "content": text,
            "components": views.layout(components(campaign_id, ruleset, decision)),
            "mention_user_ids": who_answers(decision.faction),
        }
        out.append(
            OutboxMessage(
                ChannelKey.orders(decision.faction),
                OutboxKind.POST,
                payload,
                dedupe_key=post_key(decision.id),
            )
        )
    if before is None:
        return out
    still = {d.id for d in state.pending}
    for decision in before.pending:
        if decision.kind is not DecisionKind.MERCENARIES or decision.battle_id is not None:
            continue
        if decision.id in still or decision.id in asked:
            continue
        assert isinstance(decision.detail, MercenariesDetail)
        where = space_name(ruleset, decision.detail.space)
        edit: JSON = {
            "content": f"The Mercenary choice at {where} is made (R-ATTR-MERC-01).",
            "components": [],
            "message_key": post_key(decision.id),
        }
        out.append(OutboxMessage(ChannelKey.orders(decision.faction), OutboxKind.EDIT, edit))
    return out
