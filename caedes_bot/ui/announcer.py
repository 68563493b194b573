"""The rich announcer: what each order's events owe to Discord (ux.md; design.md section 4).

:class:`RichAnnouncer` implements the service's ``Announcer``: it is called inside the order's
transaction with the campaign, the events, the new state (and the state before the order), and
returns outbox rows. It is pure and quick: no I/O, no clock, no memory between calls.

Where things go (ux.md "Channels of a campaign"):

* public events (``audience() is None``) become lines of one post in ``#announcements``:
  turns, moves, captures, musters, losses, the end of the campaign; the end of a turn is a
  summary of it (:func:`~caedes_bot.ui.describe.turn_summary`) with the faction's income,
  upkeep, purchases and RP left only under the option ``public_treasuries`` (R-GEN-07);
* private events (R-GEN-07: income, upkeep, purchases, trades) become one post in the orders
  thread of each faction in their audience;
* each battle has ONE message in ``#battles`` (R-COMBAT-16): posted when it begins
  (``dedupe_key`` ``battle:<id>``) and edited as it goes (``message_key`` ``battle:<id>``), with
  every die (R-GEN-08), the Press on / Withdraw buttons and the casualty select while a
  decision is owed, and the result at the end;
* each turn has ONE turn panel in the faction's orders thread (``panel:<round>:<faction>``),
  posted when the turn begins, pinging its player (the post is flagged ``unarchive``: the
  sender first unarchives the thread if Discord archived it), and edited after every later
  order of the turn; when the turn ends it is edited one last time, without controls.
  ``/panel`` posts it again (:meth:`RichAnnouncer.panel_again`: a post that ``replaces`` the
  first, so later edits go to the new message, after an edit that retires the first: no
  controls, a pointer below, flagged ``if_gone: skip`` so a deleted one is not posted for it),
  and so does an edit that finds it deleted;
  while the campaign is paused it says so and has no controls (R-PBP-UMP-05,
  :meth:`RichAnnouncer.status_changed`, which also posts the pause or resume publicly);
* after each turn, the map picture in ``#announcements`` (``dedupe_key`` ``map:<round>:<faction>``):
  the row carries the scene to draw (:mod:`caedes_bot.ui.mapscene`), and the sender draws the
  PNG off the event loop and uploads it with the post (issue 17);
* when borders are judged again, negotiation threads whose factions stopped (or started again)
  being neighbours are locked (or opened again) with a notice (:mod:`caedes_bot.ui.talks`,
  R-PBP-NEG-03);
* a decision owed by a faction that is not playing (casualties, R-PBP-DEAD-01) is a short post
  in its orders thread that pings its player. Pings go only to who owes something (ux.md
  "Pings"): the faction's player, or the umpire for a faction nobody holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import (
    MIN_LEFT_ON_RESUME,
    CampaignStatus,
    CampaignView,
    OutboxKind,
    OutboxMessage,
    time_left,
)
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import dependants, pacts, summons, trade, turn
from caedes_bot.rules.combat import events as combat_events
from caedes_bot.rules.combat import magic_events
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import MercenariesOwed
from caedes_bot.rules.replay import CampaignContinued
from caedes_bot.rules.state import (
    Battle,
    BattleNote,
    BattleStepRecord,
    CasualtiesDetail,
    GameState,
    NoteKind,
    Side,
)
from caedes_bot.ui import mercenaries, views, wording
from caedes_bot.ui.battle_embeds import (
    AFTER_BATTLE_ANSWERED,
    BattleHistory,
    after_battle_components,
    after_battle_of,
    battle_message,
)
from caedes_bot.ui.describe import faction_name, turn_summary
from caedes_bot.ui.embeds import decision_text, timestamp, turn_panel
from caedes_bot.ui.ending import summary_posts, vote_messages
from caedes_bot.ui.lines import event_line
from caedes_bot.ui.lines_registry import BATTLE_DETAIL
from caedes_bot.ui.mapscene import map_scene, turn_map_caption
from caedes_bot.ui.odds import opening_text, with_opening
from caedes_bot.ui.talks import thread_locks
from caedes_bot.ui.text import split_message

#: Events of a summons (R-MAGIC-SUMM-01) that belong to a battle and change its message: the
#: offer (its controls), the answer and the units joining (its sides). They keep their own
#: lines as well.
SUMMONS_SHOWN = (
    summons.SummonsOffered,
    summons.SummonsDeclined,
    summons.UnitsSummoned,
    dependants.BoundUnitsLost,
)

#: Posts are kept under this many characters (Discord allows 2,000; mentions are added first).
POST_LIMIT = 1900


def panel_key(round_no: int, faction: str) -> str:
    """The dedupe key of a turn panel's post (its edits name it as ``message_key``)."""
    return f"panel:{round_no}:{faction}"


def battle_key(battle_id: int) -> str:
    """The dedupe key of a battle message's post."""
    return f"battle:{battle_id}"


def deadlines_of(campaign: CampaignView) -> Mapping[str, datetime]:
    """The campaign's open deadlines by key (``turn:<round>:<faction>``, ``decision:<id>``)."""
    found: Mapping[str, datetime] | None = getattr(campaign, "deadlines", None)
    return found or {}


def paused_left(campaign: CampaignView, deadline: datetime | None) -> timedelta | None:
    """While the campaign is paused, the time ``deadline`` keeps for the resume (at least one
    hour, R-PBP-UMP-05); ``None`` while it runs."""
    paused_at = campaign.info.paused_at
    if campaign.info.status is not CampaignStatus.PAUSED or paused_at is None:
        return None
    return time_left(deadline, paused_at) if deadline is not None else MIN_LEFT_ON_RESUME


def turn_events_of(campaign: CampaignView) -> Sequence[Event]:
    """Events of the turn under way from orders before this one, oldest first, when the
    campaign view carries them (``turn_events``); otherwise none, and a turn summary tells only
    what the turn-ending order itself did (and the RP left, from the state)."""
    found: Sequence[Event] | None = getattr(campaign, "turn_events", None)
    return found or ()


def this_turn(faction: str, events: Sequence[Event]) -> list[Event]:
    """The events after ``faction``'s last :class:`~caedes_bot.rules.turn.TurnBegan` in
    ``events`` (all of them if it is not there): what a turn summary may count."""
    start = 0
    for index, event in enumerate(events):
        if isinstance(event, turn.TurnBegan) and event.faction == faction:
            start = index + 1
    return list(events[start:])


def who_answers(campaign: CampaignView, faction: str) -> list[int]:
    """Whom to ping for ``faction``: its player, or the umpire when nobody holds it
    (R-PBP-UMP-02)."""
    player = campaign.players.get(faction)
    if player is not None:
        return [player]
    umpire = campaign.info.umpire_user_id
    return [umpire] if umpire is not None else []


#: The text of the old turn panel once ``/panel`` has posted it again: it shows the turn as it
#: stood then, without controls, and says it will not follow (a pause, a resume, a step).
PANEL_RETIRED = "This turn panel was posted again below; this copy is no longer updated."


def panel_again_reply(ruleset: Ruleset, state: GameState, faction: str, *, posted: bool) -> str:
    """The private answer to ``/panel``: the panel is on its way, or why there is none."""
    name = faction_name(ruleset, faction)
    if posted:
        return f"The turn panel of {name} is posted again at the foot of its orders thread."
    if state.finished:
        return "The campaign is over: there is no turn panel any more."
    if state.active is None:
        return "The campaign has not begun: there is no turn panel yet."
    return (
        f"There is no turn panel for {name} now: it is the turn of "
        f"{faction_name(ruleset, state.active)}. Its panel comes when its turn begins."
    )


def map_key(round_no: int, faction: str) -> str:
    """The dedupe key of the map posted after ``faction``'s turn of game round ``round_no``."""
    return f"map:{round_no}:{faction}"


def _turn_maps(events: Sequence[Event], state: GameState, ruleset: Ruleset) -> list[OutboxMessage]:
    """The map picture after each turn that ended in this order, in ``#announcements``: the
    row carries the scene (:mod:`caedes_bot.ui.mapscene`); the sender draws and uploads it.
    None when the game data has no map shapes."""
    if ruleset.map.geometry is None:
        return []
    out = []
    for event in events:
        if isinstance(event, turn.TurnEnded):
            scene = map_scene(state, ruleset)
            payload = {
                "content": turn_map_caption(ruleset, event.faction, event.round),
                "map": scene.to_json(),
            }
            out.append(
                OutboxMessage(
                    ChannelKey.ANNOUNCEMENTS,
                    OutboxKind.POST,
                    payload,
                    dedupe_key=map_key(event.round, event.faction),
                )
            )
    return out


def _posts(key: ChannelKey, lines: Sequence[str], **extra: Any) -> list[OutboxMessage]:
    text = "\n".join(lines)
    return [
        OutboxMessage(key, OutboxKind.POST, {"content": piece, **extra})
        for piece in split_message(text, POST_LIMIT)
    ]


class RichAnnouncer:
    """Events -> outbox rows, as the module docstring says."""

    def announce(
        self,
        campaign: CampaignView,
        events: Sequence[Event],
        state: GameState,
        ruleset: Ruleset,
        *,
        before: GameState | None = None,
    ) -> list[OutboxMessage]:
        """Outbox rows for one order's ``events`` (see the module docstring).

        Args:
            campaign: the campaign's row, players and open deadlines.
            events: what the order did, in order.
            state: the state after the order.
            ruleset: the static game data.
            before: the state before the order, for battle rounds fought in earlier orders.
        """
        redrawn = picked_battles(state, before)
        if not events:  # at most a partial pick: its battle message alone is drawn again
            return self._battles(campaign, events, state, ruleset, before, redrawn)
        out: list[OutboxMessage] = []
        public: list[str] = []
        private: dict[str, list[str]] = {}
        earlier = turn_events_of(campaign)
        for index, event in enumerate(events):
            if isinstance(event, turn.TurnEnded):
                seen = (*earlier, *events[:index])
                whole = any(
                    isinstance(e, turn.TurnBegan) and e.faction == event.faction for e in seen
                )
                line: str | None = turn_summary(
                    event.faction, this_turn(event.faction, seen), state, ruleset, whole_turn=whole
                )
            else:
                line = event_line(event, state, ruleset)
            if line is None:
                continue
            audience = event.audience()
            if audience is None:
                public.append(line)
            else:
                for faction in audience:
                    if isinstance(event, trade.TradeEvent) and faction == event.counterparty:
                        continue  # told on the offer message in its thread (_trade_offers)
                    private.setdefault(faction, []).append(line)
        out += self._panels_closed(campaign, events, state, ruleset)
        if public:
            out += _posts(ChannelKey.ANNOUNCEMENTS, public)
        out += _turn_maps(events, state, ruleset)
        out += thread_locks(campaign, events, state, ruleset, before)
        out += self._battles(campaign, events, state, ruleset, before, redrawn)
        for faction, lines in private.items():
            out += _posts(ChannelKey.orders(faction), lines)
        out += self._decision_pings(campaign, events, state, ruleset)
        out += mercenaries.turn_start_posts(
            campaign.info.id,
            events,
            state,
            before,
            ruleset,
            deadlines_of(campaign),
            lambda faction: who_answers(campaign, faction),
            timestamp,
        )
        out += self._trade_offers(campaign, events, state, ruleset)
        out += _pact_offers(campaign, events, state, ruleset)
        out += vote_messages(campaign, events, state, ruleset, before)
        out += summary_posts(events, state, ruleset)
        out += self._panels_open(campaign, events, state, ruleset)
        return out

    # ----------------------------------------------------------------------- turn panels

    def _panel(
        self,
        campaign: CampaignView,
        state: GameState,
        ruleset: Ruleset,
        faction: str,
        round_no: int,
    ) -> dict[str, Any]:
        deadline = deadlines_of(campaign).get(f"turn:{round_no}:{faction}")
        embed, rows = turn_panel(
            campaign.info.id,
            state,
            ruleset,
            faction,
            round_no,
            deadline=deadline,
            paused_left=paused_left(campaign, deadline),
        )
        return {"embeds": [embed.to_dict()], "components": rows}

    def _panels_closed(
        self, campaign: CampaignView, events: Sequence[Event], state: GameState, ruleset: Ruleset
    ) -> list[OutboxMessage]:
        """The last edit of every turn panel whose turn ended in this order."""
        out = []
        for event in events:
            if isinstance(event, turn.TurnEnded):
                payload = self._panel(campaign, state, ruleset, event.faction, event.round)
                payload["message_key"] = panel_key(event.round, event.faction)
                payload["content"] = (
                    f"{faction_name(ruleset, event.faction)}: the turn of game round "
                    f"{event.round} is over."
                )
                out.append(
                    OutboxMessage(ChannelKey.orders(event.faction), OutboxKind.EDIT, payload)
                )
        return out

    def _open_panel(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset
    ) -> dict[str, Any]:
        """The payload of the active faction's turn panel as it stands (no ping)."""
        assert state.active is not None
        faction, round_no = state.active, state.round
        payload = self._panel(campaign, state, ruleset, faction, round_no)
        deadline = deadlines_of(campaign).get(f"turn:{round_no}:{faction}")
        due = f" Deadline {timestamp(deadline)}." if deadline else ""
        if paused_left(campaign, deadline) is not None:
            due = " The campaign is paused: no orders until the umpire resumes it."
        payload["content"] = (
            f"Your turn, {faction_name(ruleset, faction)}: game round {round_no}, "
            f"step {state.step.label}.{due}"
        )
        return payload

    def status_changed(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset
    ) -> list[OutboxMessage]:
        """A pause or a resume (R-PBP-UMP-05): a post in ``#announcements`` with each open
        deadline's time kept or new time, and the turn panel under way edited (paused: it says
        so, without controls; resumed: its controls and deadline back)."""
        post = OutboxMessage(
            ChannelKey.ANNOUNCEMENTS,
            OutboxKind.POST,
            {"content": wording.status_change_text(campaign, state, ruleset)},
        )
        if state.active is None or state.finished or state.turn_start_waits:
            return [post]  # no panel yet while the turn's start waits (R-ATTR-MERC-01)
        payload = self._open_panel(campaign, state, ruleset)
        payload["message_key"] = panel_key(state.round, state.active)
        return [post, OutboxMessage(ChannelKey.orders(state.active), OutboxKind.EDIT, payload)]

    def notice_and_panel(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset, content: str
    ) -> list[OutboxMessage]:
        """An umpire's change outside the orders (deadlines moved, R-PBP-UMP-03): ``content``
        posted in ``#announcements``, and the turn panel under way edited to show it (its
        deadline from ``campaign.deadlines``)."""
        post = OutboxMessage(ChannelKey.ANNOUNCEMENTS, OutboxKind.POST, {"content": content})
        if state.active is None or state.finished or state.turn_start_waits:
            return [post]  # no panel yet while the turn's start waits (R-ATTR-MERC-01)
        payload = self._open_panel(campaign, state, ruleset)
        payload["message_key"] = panel_key(state.round, state.active)
        return [post, OutboxMessage(ChannelKey.orders(state.active), OutboxKind.EDIT, payload)]

    def panel_again(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset, faction: str
    ) -> list[OutboxMessage]:
        """The turn panel of ``faction``'s turn under way, posted afresh at the foot of its
        orders thread (``/panel``); it ``replaces`` the panel posted at the turn start, so
        later edits go to the new message. The old panel is edited first to say it was posted
        again and is no longer updated, without controls (otherwise a panel posted again while
        paused would offer nothing and say only "paused" for good, R-PBP-UMP-05). Empty when it is not ``faction``'s turn."""
        if state.active != faction or state.finished or state.turn_start_waits:
            return []
        payload = self._open_panel(campaign, state, ruleset)
        key = panel_key(state.round, faction)
        payload["replaces"] = key
        payload["unarchive"] = True
        retired = {
            "message_key": key,
            "content": PANEL_RETIRED,
            "embeds": [dict(e) for e in payload.get("embeds") or ()],
            "components": [],
            "if_gone": "skip",  # a panel a moderator deleted is not posted again for this
        }
        thread = ChannelKey.orders(faction)
        return [
            OutboxMessage(thread, OutboxKind.EDIT, retired),
            OutboxMessage(thread, OutboxKind.POST, payload),
        ]

    def _panels_open(
        self, campaign: CampaignView, events: Sequence[Event], state: GameState, ruleset: Ruleset
    ) -> list[OutboxMessage]:
        """The panel of a turn that began (posted, with a ping), or of the turn under way
        (edited). None while the turn's start waits for Mercenary choices (R-ATTR-MERC-01):
        its panel is posted when it begins."""
        if state.active is None or state.finished or state.turn_start_waits:
            return []
        faction, round_no = state.active, state.round
        began = any(
            (isinstance(e, turn.TurnBegan) and e.faction == faction and e.round == round_no)
            or isinstance(e, CampaignContinued)  # an imported campaign's first panel
            for e in events
        )
        payload = self._open_panel(campaign, state, ruleset)
        key = panel_key(round_no, faction)
        if not began:  # an edit pings nobody; the text follows the step
            payload["message_key"] = key
            return [OutboxMessage(ChannelKey.orders(faction), OutboxKind.EDIT, payload)]
        payload["mention_user_ids"] = who_answers(campaign, faction)
        payload["unarchive"] = True  # the orders thread is opened again at each turn start
        return [OutboxMessage(ChannelKey.orders(faction), OutboxKind.POST, payload, dedupe_key=key)]

    # ----------------------------------------------------------------------- battles

    def _battles(
        self,
        campaign: CampaignView,
        events: Sequence[Event],
        state: GameState,
        ruleset: Ruleset,
        before: GameState | None,
        redrawn: Sequence[int] = (),
    ) -> list[OutboxMessage]:
        ids: list[int] = list(redrawn)
        for event in events:
            if isinstance(event, BATTLE_DETAIL) and event.battle not in ids:
                ids.append(event.battle)
            elif (
                isinstance(event, SUMMONS_SHOWN)
                and event.battle is not None
                and event.battle not in ids
            ):
                # a summons offer or answer changes the battle message's controls and sides
                ids.append(event.battle)
        out = []
        deadlines = deadlines_of(campaign)
        for battle_id in ids:
            history = battle_history(battle_id, events, state, before)
            if history is None:
                continue
            _opening(history, campaign, events)
            due: dict[int, datetime | None] = {}
            for decision in state.pending:
                if decision.battle_id != battle_id:
                    continue
                key = (
                    f"decision:{decision.id}"
                    if decision.reaction
                    else f"turn:{state.round}:{decision.faction}"
                )
                due[decision.id] = deadlines.get(key)
            embed, rows = battle_message(campaign.info.id, state, ruleset, history, deadlines=due)
            # paced: the outbox edits a battle message at most once per interval, the newest
            # content owed (decision 0015)
            payload: dict[str, Any] = {
                "embeds": [embed.to_dict()],
                "components": rows,
                "paced": True,
            }
            began = any(
                isinstance(e, combat_events.BattleBegan) and e.battle == battle_id for e in events
            )
            if began:
                out.append(
                    OutboxMessage(
                        ChannelKey.BATTLES,
                        OutboxKind.POST,
                        payload,
                        dedupe_key=battle_key(battle_id),
                    )
                )
            else:
                payload["message_key"] = battle_key(battle_id)
                out.append(OutboxMessage(ChannelKey.BATTLES, OutboxKind.EDIT, payload))
        return out + _after_battle_edits(campaign.info.id, state, ruleset, before, ids)

    def opening_odds(
        self,
        campaign: CampaignView,
        state: GameState,
        ruleset: Ruleset,
        battle_id: int,
        attacker: str,
        shown: Mapping[str, Any] | None,
    ) -> list[OutboxMessage]:
        """The edit of battle ``battle_id``'s message (``attacker``: the attacking faction) once
        its opening odds are known (``campaign.battle_odds``, option ``battle_message_odds``,
        R-COMBAT-16, decision 0020): drawn again from the state while the battle goes on; for
        a battle that has ended (the state no longer holds it), ``shown``, the embed its
        message last got, with the odds line in place of "being worked out". Paced and
        coalesced with the message's other edits (decision 0015). Nothing if the odds are not
        known or there is nothing to edit."""
        known = campaign.battle_odds.get(battle_id)
        if known is None:
            return []
        if state.battle is not None and state.battle.id == battle_id:
            return self._battles(campaign, (), state, ruleset, None, [battle_id])
        if shown is None:
            return []
        line = opening_text(ruleset, attacker, *known)
        payload: dict[str, Any] = {
            "message_key": battle_key(battle_id),
            "embeds": [with_opening(shown, line)],
            "paced": True,
        }
        return [OutboxMessage(ChannelKey.BATTLES, OutboxKind.EDIT, payload)]

    def _trade_offers(
        self, campaign: CampaignView, events: Sequence[Event], state: GameState, ruleset: Ruleset
    ) -> list[OutboxMessage]:
        """Each trade offer as a message in the counterparty's orders thread, with Accept and
        Decline while it is open (R-TRADE-02), pinging its player; edited when it is answered,
        withdrawn or lapses."""
        out = []
        for event in events:
            if not isinstance(event, trade.TradeEvent):
                continue
            key = f"trade:{event.trade_id}"
            line = event_line(event, state, ruleset) or ""
            if isinstance(event, trade.TradeProposed):
                obj = ["trade", event.trade_id]
                rows = views.answer_rows(campaign.info.id, obj, no=("decline", "Decline"))
                payload: dict[str, Any] = {
                    "content": f"{line} Accept or decline before step 1 of "
                    f"{faction_name(ruleset, event.proposer)} ends (R-TRADE-02).",
                    "components": rows,
                    "mention_user_ids": who_answers(campaign, event.counterparty),
                }
                out.append(
                    OutboxMessage(
                        ChannelKey.orders(event.counterparty),
                        OutboxKind.POST,
                        payload,
                        dedupe_key=key,
                    )
                )
            else:
                payload = {"content": line, "components": [], "message_key": key}
                out.append(
                    OutboxMessage(ChannelKey.orders(event.counterparty), OutboxKind.EDIT, payload)
                )
        return out

    def _decision_pings(
        self, campaign: CampaignView, events: Sequence[Event], state: GameState, ruleset: Ruleset
    ) -> list[OutboxMessage]:
        """A ping in the orders thread of each faction newly asked for a reaction
        (R-PBP-DEAD-01): the active faction is already at its panel and is not pinged."""
        out = []
        deadlines = deadlines_of(campaign)
        asked = {
            e.decision
            for e in events
            if isinstance(
                e,
                combat_events.CasualtiesOwed
                | combat_events.WithdrawalOffered
                | magic_events.DeclarationsOwed
                | magic_events.RerollOwed
                | magic_events.EnchantVictimsOwed,
            )
        }
        asked |= {  # R-ATTR-MERC-01 at a round start; a turn start's is a post of its own
            e.decision for e in events if isinstance(e, MercenariesOwed) and e.battle is not None
        }
        for decision in state.pending:
            if decision.id not in asked or not decision.reaction:
                continue
            due = deadlines.get(f"decision:{decision.id}")
            text = (
                f"{faction_name(ruleset, decision.faction)} must {decision_text(ruleset, decision)}:"
                " answer on the battle message in #battles"
                + (f", by {timestamp(due)}" if due else "")
                + "."
            )
            out.append(
                OutboxMessage(
                    ChannelKey.orders(decision.faction),
                    OutboxKind.POST,
                    {"content": text, "mention_user_ids": who_answers(campaign, decision.faction)},
                )
            )
        return out


# --------------------------------------------------------------------------- battle history


def _copy_records(records: Iterable[BattleStepRecord]) -> list[BattleStepRecord]:
    return [
        BattleStepRecord(
            r.round,
            r.step,
            list(r.dice),
            r.hits_on_attacker,
            r.hits_on_defender,
            list(r.destroyed),
            list(r.wounded),
            list(r.absorbed),
        )
        for r in records
    ]


def _from_battle(battle: Battle) -> BattleHistory:
    return BattleHistory(
        id=battle.id,
        space=battle.space,
        attacker=battle.attacker,
        defenders=tuple(battle.defenders),
        records=_copy_records(battle.records),
        attacker_units=list(battle.attacker_units),
        defender_units=list(battle.defender_units),
        round=battle.round,
        notes=list(battle.notes),
        standing=list(battle.standing),
        illusion_rules=dict(battle.illusion_rules),
        enchanted=list(battle.enchanted),
    )


def _opening(history: BattleHistory, campaign: CampaignView, events: Sequence[Event]) -> None:
    """The odds ``history``'s message opens with (option ``battle_message_odds``,
    R-COMBAT-16): asked for in this order, or as the campaign has them (decision 0020)."""
    asked = any(
        isinstance(e, combat_events.BattleOddsAsked) and e.battle == history.id for e in events
    )
    if asked or history.id in campaign.battle_odds:
        known = None if asked else campaign.battle_odds[history.id]
        if known is None:
            history.opening_pending = True
        else:
            history.opening = known


def _after_battle_edits(
    campaign_id: int,
    state: GameState,
    ruleset: Ruleset,
    before: GameState | None,
    rendered: Sequence[int],
) -> list[OutboxMessage]:
    """Edits of the messages of battles that ended in earlier orders whose after-battle
    decisions (a blitz, R-ATTR-BLITZ-02; going ashore, R-ATTR-AMPH-02) this order answered or
    asked: the controls of what is asked now, or none, and a line saying which (the embed is
    kept: the ended battle is no longer in the state to draw it again)."""
    if before is None:
        return []

    def asked(st: GameState) -> dict[int, int]:
        found = {d.id: after_battle_of(d) for d in st.pending}
        return {d: b for d, b in found.items() if b is not None}

    old, new = asked(before), asked(state)
    if old == new:
        return []
    changed = {
        b
        for b in {*old.values(), *new.values()}
        if {d for d, x in old.items() if x == b} != {d for d, x in new.items() if x == b}
    }
    out = []
    for battle_id in sorted(changed - set(rendered)):
        waiting = [d for d in state.pending if after_battle_of(d) == battle_id]
        text = (
            "\n".join(
                f"Waiting for {faction_name(ruleset, d.faction)}: {decision_text(ruleset, d)}"
                for d in waiting
            )
            if waiting
            else AFTER_BATTLE_ANSWERED
        )
        rows = views.layout(after_battle_components(campaign_id, state, ruleset, battle_id))
        payload: dict[str, Any] = {
            "message_key": battle_key(battle_id),
            "content": text,
            "components": rows,
            "paced": True,  # written in turn with the battle's own edits (decision 0015)
        }
        out.append(OutboxMessage(ChannelKey.BATTLES, OutboxKind.EDIT, payload))
    return out


def picked_battles(state: GameState, before: GameState | None) -> list[int]:
    """The battles whose owed decisions changed with no event: a partial declaration pick,
    recorded on its open decision (R-COMBAT-12). Their message is drawn again, so the players
    see what is picked so far."""
    if before is None:
        return []
    old = {d.id: d for d in before.pending if d.battle_id is not None}
    out: list[int] = []
    for decision in state.pending:
        battle_id = decision.battle_id
        was = old.get(decision.id)
        if battle_id is not None and was is not None and was != decision and battle_id not in out:
            out.append(battle_id)
    return out


def battle_history(
    battle_id: int, events: Sequence[Event], state: GameState, before: GameState | None
) -> BattleHistory | None:
    """Everything battle ``battle_id`` has shown so far: from the state while it goes on; when
    it ended in this order, from the state before the order plus this order's events (the
    rules drop a finished battle from the state). ``None`` if neither knows it."""
    current = state.battle if state.battle is not None and state.battle.id == battle_id else None
    prior = None
    if before is not None and before.battle is not None and before.battle.id == battle_id:
        prior = before.battle
    history: BattleHistory | None = None
    withdrawn: list[int] = []
    if current is not None:
        history = _from_battle(current)
        withdrawn = list(current.withdrawn)
    else:
        if prior is not None:
            history = _from_battle(prior)
            withdrawn = list(prior.withdrawn)
        for event in events:
            if isinstance(event, combat_events.BattleBegan) and event.battle == battle_id:
                history = BattleHistory(
                    id=event.battle,
                    space=event.space,
                    attacker=event.attacker,
                    defenders=event.defenders,
                    attacker_units=list(event.attacker_units),
                    defender_units=list(event.defender_units),
                )
            if history is None or getattr(event, "battle", None) != battle_id:
                continue
            _apply(history, event)
    if history is None:
        return None
    for source in (before, state):
        if source is None:
            continue
        for unit in source.peek_units():  # read only: no copy of the board (decision 0012)
            history.kinds.setdefault(unit.id, unit.kind)
            history.owners.setdefault(unit.id, unit.owner)
        for decision in source.pending:
            if isinstance(decision.detail, CasualtiesDetail):
                for item in decision.detail.units:
                    history.kinds.setdefault(item.id, item.kind)
    for record in history.records:
        for die in record.dice:
            history.kinds.setdefault(die.unit, die.kind)
    withdrawals = [
        e for e in events if isinstance(e, combat_events.AttackerWithdrew) and e.battle == battle_id
    ]
    earlier = [u for u in withdrawn if not any(u in w.unit_ids for w in withdrawals)]
    if earlier:
        places = tuple(
            state.peek_unit(u).location if str(u) in state.units else "?" for u in earlier
        )
        withdrawals.insert(
            0,
            combat_events.AttackerWithdrew(
                battle_id, history.space, history.attacker, tuple(earlier), places
            ),
        )
    history.withdrawals = withdrawals
    return history


def _apply(history: BattleHistory, event: Event) -> None:
    """Add one event of this order to a battle rebuilt from the state before it."""
    if isinstance(event, combat_events.BattleStepResolved):
        history.round = event.round
        record = BattleStepRecord(
            event.round,
            event.step,
            list(event.dice),
            event.hits_on_attacker,
            event.hits_on_defender,
        )
        last = history.records[-1] if history.records else None
        if last is not None and (last.round, last.step) == (event.round, event.step):
            history.records[-1] = record  # rolled before this order, counted now (rerolls)
        else:
            history.records.append(record)
    elif isinstance(event, combat_events.CasualtiesRemoved):
        for record in reversed(history.records):
            if record.round == event.round and record.step is event.step:
                record.destroyed = sorted(event.attacker_destroyed + event.defender_destroyed)
                record.wounded = sorted(event.attacker_wounded + event.defender_wounded)
                record.absorbed = sorted(event.absorbed)
                break
        gone = set(event.attacker_destroyed) | set(event.defender_destroyed)
        history.attacker_units = [u for u in history.attacker_units if u not in gone]
        history.defender_units = [u for u in history.defender_units if u not in gone]
    elif isinstance(event, combat_events.BattleRoundEnded):
        history.attacker_units = list(event.attacker_units)
        history.defender_units = list(event.defender_units)
    elif isinstance(event, summons.UnitsSummoned) and event.side is not None:
        side = history.attacker_units if event.side is Side.ATTACKER else history.defender_units
        side += [uid for uid, _kind in event.units]
        for uid, kind in event.units:
            history.kinds[uid] = kind
            history.owners[uid] = event.faction
    elif isinstance(event, dependants.BoundUnitsLost):
        gone = {uid for uid, _kind, _space in event.units}
        history.attacker_units = [u for u in history.attacker_units if u not in gone]
        history.defender_units = [u for u in history.defender_units if u not in gone]
    elif isinstance(event, combat_events.AttackerWithdrew):
        history.attacker_units = [u for u in history.attacker_units if u not in event.unit_ids]
    elif isinstance(event, magic_events.StandingOrdersSet):
        history.notes.append(
            BattleNote(
                event.round,
                NoteKind.DECLARED,
                event.faction,
                orders=event.orders,
                illusion_threshold=event.illusion_threshold,
                by_default=event.by_default,
            )
        )
    elif isinstance(event, magic_events.UnitsEnchanted):
        history.notes.append(
            BattleNote(
                event.round,
                NoteKind.ENCHANTED,
                event.faction,
                units=tuple(u for u, _ in event.units),
                enchanters=tuple(e for _, e in event.units),
            )
        )
    elif isinstance(event, combat_events.BattleEnded):
        history.ended = event
        history.attacker_units = list(event.attacker_survivors)
        history.defender_units = list(event.defender_survivors)


def _pact_offers(
    campaign: CampaignView, events: Sequence[Event], state: GameState, ruleset: Ruleset
) -> list[OutboxMessage]:
    """Each pact proposal as a message with Confirm and Refuse in the orders thread of every
    member asked to confirm it, pinging its player (R-ALLY-01, R-FEAL-01); the buttons go
    once that member has answered (a later click on another member's is refused with the
    reason), or when the proposal is closed unanswered (the campaign ended)."""
    out: list[OutboxMessage] = []
    for event in events:
        if isinstance(event, pacts.PactProposed):
            line = event_line(event, state, ruleset) or ""
            for member in event.waiting:
                obj = ["pact", event.proposal, member]
                rows = views.answer_rows(campaign.info.id, obj, yes=("accept", "Confirm"))
                payload: dict[str, Any] = {
                    "content": f"{line} Confirm or refuse for {faction_name(ruleset, member)}.",
                    "components": rows,
                    "mention_user_ids": who_answers(campaign, member),
                }
                out.append(
                    OutboxMessage(
                        ChannelKey.orders(member),
                        OutboxKind.POST,
                        payload,
                        dedupe_key=f"pact:{event.proposal}:{member}",
                    )
                )
        elif isinstance(event, pacts.PactAnswered):
            payload = {
                "content": event_line(event, state, ruleset) or "",
                "components": [],
                "message_key": f"pact:{event.proposal}:{event.by}",
            }
            out.append(OutboxMessage(ChannelKey.orders(event.by), OutboxKind.EDIT, payload))
        elif isinstance(event, pacts.PactLapsed):  # closed unanswered: the buttons go
            text = event_line(event, state, ruleset) or ""
            for member in event.waiting:
                payload = {
                    "content": text,
                    "components": [],
                    "message_key": f"pact:{event.proposal}:{member}",
                }
                out.append(OutboxMessage(ChannelKey.orders(member), OutboxKind.EDIT, payload))
    return out
