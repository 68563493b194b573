"""The vote on the umpire's early end, in the players' orders threads (R-VIC-04).

When the umpire proposes an early end (:class:`~caedes_bot.rules.early_end.EarlyEndProposed`),
each player still in the game gets one message with Accept and Refuse in the orders thread of
their first faction (``endvote:<proposal>:<faction>``), pinging them. Their answer takes the
buttons off their message; when the vote is decided (the campaign ends, or the proposal is
refused or replaced) every message of that proposal loses its buttons and says how it ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import CampaignView, OutboxKind, OutboxMessage
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import early_end
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState
from caedes_bot.rules.victory import CampaignEnded
from caedes_bot.ui import views
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.lines import event_line
from caedes_bot.ui.stats import final_summary
from caedes_bot.ui.text import split_message

#: Posts are kept under this many characters (as the announcer's).
_LIMIT = 1900


def vote_key(proposal: int, faction: str) -> str:
    """The dedupe key of the vote message of ``proposal`` in ``faction``'s orders thread."""
    return f"endvote:{proposal}:{faction}"


def _asked(state: GameState) -> list[str]:
    found = (early_end.vote_faction(state, p) for p in early_end.voters(state))
    return [f for f in found if f is not None]


def _retire(proposal: int, factions: Sequence[str], text: str) -> list[OutboxMessage]:
    return [
        OutboxMessage(
            ChannelKey.orders(f),
            OutboxKind.EDIT,
            {"content": text, "components": [], "message_key": vote_key(proposal, f)},
        )
        for f in factions
    ]


def summary_posts(
    events: Sequence[Event], state: GameState, ruleset: Ruleset
) -> list[OutboxMessage]:
    """The final summary in ``#announcements`` when the campaign ended in this order: the
    winners, the scores and every faction's statistics (issue 15)."""
    out: list[OutboxMessage] = []
    for event in events:
        if isinstance(event, CampaignEnded):
            text = final_summary(event, state, ruleset)
            for index, piece in enumerate(split_message(text, _LIMIT)):
                out.append(
                    OutboxMessage(
                        ChannelKey.ANNOUNCEMENTS,
                        OutboxKind.POST,
                        {"content": piece},
                        dedupe_key=f"summary:{index}",
                    )
                )
    return out


def vote_messages(
    campaign: CampaignView,
    events: Sequence[Event],
    state: GameState,
    ruleset: Ruleset,
    before: GameState | None,
) -> list[OutboxMessage]:
    """The vote's messages for this order's events (see the module docstring)."""
    out: list[OutboxMessage] = []
    old = before.early_end if before is not None else None
    for event in events:
        if isinstance(event, early_end.EarlyEndProposed):
            if old is not None and before is not None:
                out += _retire(old.proposal, _asked(before), "This proposal was replaced.")
            line = event_line(event, state, ruleset) or ""
            for faction in event.ask:
                obj = ["endvote", event.proposal, faction]
                rows = views.answer_rows(campaign.info.id, obj)
                player = campaign.players.get(faction)
                payload: dict[str, Any] = {
                    "content": f"{line}\nYour vote, as the player of "
                    f"{faction_name(ruleset, faction)} (one vote for all your factions):",
                    "components": rows,
                    "mention_user_ids": [player] if player is not None else [],
                }
                out.append(
                    OutboxMessage(
                        ChannelKey.orders(faction),
                        OutboxKind.POST,
                        payload,
                        dedupe_key=vote_key(event.proposal, faction),
                    )
                )
        elif isinstance(event, early_end.EarlyEndVoted):
            text = event_line(event, state, ruleset) or ""
            out += _retire(event.proposal, [event.faction], text)
        elif (
            isinstance(event, early_end.EarlyEndRefused | CampaignEnded)
            and old is not None
            and before is not None
        ):
            text = event_line(event, state, ruleset) or ""
            out += _retire(old.proposal, _asked(before), text)
    return out
