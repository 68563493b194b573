"""How events become messages owed to Discord: the :class:`Announcer` port the service writes
through, and :class:`PlainAnnouncer`, its plain default (the bot passes ``ui``'s rich one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import CampaignView, OutboxKind, OutboxMessage
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState
from caedes_bot.ui import wording


class Announcer(Protocol):
    """Turns events into messages owed to Discord (written in the order's transaction).

    Must be pure and quick: no I/O. Direct replies to the interaction are not its job.
    """

    def announce(
        self,
        campaign: CampaignView,
        events: Sequence[Event],
        state: GameState,
        ruleset: Ruleset,
        *,
        before: GameState | None = None,
    ) -> list[OutboxMessage]: ...

    def status_changed(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset
    ) -> list[OutboxMessage]:
        """What is owed when the umpire pauses or resumes the campaign (R-PBP-UMP-05):
        ``campaign.info.status`` is the new status (with ``paused_at`` when paused) and
        ``campaign.deadlines`` the open deadlines as they now stand."""
        ...

    def notice_and_panel(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset, content: str
    ) -> list[OutboxMessage]:
        """An umpire's change made outside the orders (deadlines moved, R-PBP-UMP-03):
        ``content`` for ``#announcements``, and the turn panel under way brought up to date
        (``campaign.deadlines`` as they now stand)."""
        ...

    def panel_again(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset, faction: str
    ) -> list[OutboxMessage]:
        """The turn panel of ``faction``'s turn under way, posted again at the foot of its
        orders thread (a substitute takes the faction over, R-PBP-UMP-01); empty when it is
        not ``faction``'s turn."""
        ...

    def opening_odds(
        self,
        campaign: CampaignView,
        state: GameState,
        ruleset: Ruleset,
        battle_id: int,
        attacker: str,
        shown: Mapping[str, Any] | None,
    ) -> list[OutboxMessage]:
        """The edit of a battle message once the odds it opens with are known
        (``campaign.battle_odds``; option ``battle_message_odds``, R-COMBAT-16, decision
        0020). ``shown``: the embed the message last got (for a battle already ended)."""
        ...


class PlainAnnouncer:
    """The default :class:`Announcer`: one plain-text post per event.

    Public events (``audience() is None``) go to ``#announcements``; private ones to the orders
    thread of each faction in their audience (R-GEN-07). Lines are grouped per place into
    messages under Discord's 2,000 characters.
    """

    limit = 1900

    def announce(
        self,
        campaign: CampaignView,
        events: Sequence[Event],
        state: GameState,
        ruleset: Ruleset,
        *,
        before: GameState | None = None,
    ) -> list[OutboxMessage]:
        lines: dict[ChannelKey, list[str]] = {}
        for event in events:
            audience = event.audience()
            keys = (
                [ChannelKey.ANNOUNCEMENTS]
                if audience is None
                else [ChannelKey.orders(f) for f in audience]
            )
            for key in keys:
                lines.setdefault(key, []).append(wording.event_text(event))
        out: list[OutboxMessage] = []
        for key, texts in lines.items():
            chunk = ""
            for text in texts:
                text = text[: self.limit]
                if chunk and len(chunk) + 1 + len(text) > self.limit:
                    out.append(OutboxMessage(key, OutboxKind.POST, {"content": chunk}))
                    chunk = ""
                chunk = f"{chunk}\n{text}" if chunk else text
            if chunk:
                out.append(OutboxMessage(key, OutboxKind.POST, {"content": chunk}))
        return out

    def status_changed(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset
    ) -> list[OutboxMessage]:
        """One post in ``#announcements`` saying the campaign is paused or resumed."""
        return [
            OutboxMessage(
                ChannelKey.ANNOUNCEMENTS,
                OutboxKind.POST,
                {"content": wording.status_change_text(campaign, state, ruleset)},
            )
        ]

    def notice_and_panel(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset, content: str
    ) -> list[OutboxMessage]:
        """One post of ``content`` in ``#announcements``."""
        return [OutboxMessage(ChannelKey.ANNOUNCEMENTS, OutboxKind.POST, {"content": content})]

    def panel_again(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset, faction: str
    ) -> list[OutboxMessage]:
        """Nothing: the plain announcer posts no turn panels."""
        return []

    def opening_odds(
        self,
        campaign: CampaignView,
        state: GameState,
        ruleset: Ruleset,
        battle_id: int,
        attacker: str,
        shown: Mapping[str, Any] | None,
    ) -> list[OutboxMessage]:
        """Nothing: plain messages have no battle message to edit."""
        return []
