"""Campaigns: create one (its first state and its Discord set-up), start it, finish it
(R-SETUP-01, R-TURN-01); pausing and resuming are :mod:`.pausing` (R-PBP-UMP-05); and the rules
for a campaign's name.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import (
    ActingAs,
    CampaignInfo,
    CampaignStatus,
    OutboxKind,
    OutboxMessage,
)
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.stateparts import split_state
from caedes_bot.rules.errors import UnknownName
from caedes_bot.rules.state import GameState
from caedes_bot.rules.turn import StartCampaign
from caedes_bot.service.access import CAMPAIGN_CHANNELS, THREAD_PARENT, acting_role, add_member
from caedes_bot.service.core import Cached
from caedes_bot.service.errors import (
    AlreadyStarted,
    CampaignNameTaken,
    CampaignNotActive,
    InvalidCampaignName,
    NotAuthorised,
    NoUmpire,
)
from caedes_bot.service.orders import Orders, players_order
from caedes_bot.service.pausing import Pausing
from caedes_bot.service.seeds import seed_messages
from caedes_bot.service.values import Actor, SubmitResult
from caedes_bot.ui import wording

#: Longest campaign name: it is also the category's name (Discord allows 100).
NAME_MAX = 90

#: What a campaign name may hold, for refusals.
NAME_ALLOWED = (
    f"a name of 1 to {NAME_MAX} visible characters (letters, digits, punctuation, emoji, "
    "single spaces), such as Seven Swords"
)

#: Unicode categories never allowed in a name: control, format (zero-width and direction
#: marks), private use, surrogates, unassigned.
_BANNED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})


def tidy_campaign_name(raw: str) -> str:
    """The name a campaign is stored and shown under: runs of whitespace become one space,
    none at either end.

    Returns:
        The tidied name: 1 to :data:`NAME_MAX` characters, at least one of them a letter,
        digit, punctuation mark or symbol.

    Raises:
        InvalidCampaignName: blank once tidied, longer than :data:`NAME_MAX`, or holding a
            control or invisible character (zero-width space, direction mark...).
    """
    name = " ".join(raw.split())
    for char in name:
        if unicodedata.category(char) in _BANNED_CATEGORIES:
            raise InvalidCampaignName(
                f"The name holds an invisible or control character (U+{ord(char):04X}).",
                allowed=NAME_ALLOWED,
            )
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        raise InvalidCampaignName("The name is blank.", allowed=NAME_ALLOWED)
    if len(name) > NAME_MAX:
        raise InvalidCampaignName(f"The name is {len(name)} characters long.", allowed=NAME_ALLOWED)
    return name


class Campaigns(Orders, Pausing):
    """A campaign's life: created, started (an order, hence an :class:`Orders`), paused and
    resumed (:class:`Pausing`), finished."""

    async def create_campaign(
        self,
        guild_id: int,
        name: str,
        scenario_id: str,
        created_by: int,
        *,
        umpire_user_id: int | None = None,
        table_talk: bool = True,
        then: Callable[[Connection, CampaignInfo, GameState], Cached] | None = None,
    ) -> CampaignInfo:
        """Create a campaign in ``setting_up`` with its first state and queue its Discord set-up.
        ``then``: more to write in the same transaction, given the new campaign and its first
        state (an import's ``ContinueFrom``); it returns the campaign's cache entry after it.

        The set-up is a resumable sequence of outbox rows (ux.md): the category, then
        ``#announcements``, ``#battles``, ``#table-talk`` (if ``table_talk``), ``#umpire``, then
        one private orders thread per faction in play (R-PBP-NEG-06) under ``#announcements``,
        the umpire added to each, and a welcome post. The dice seed comes from
        :mod:`secrets` (R-GEN-01). The name is checked and tidied
        (:func:`tidy_campaign_name`) and must be free in the guild, in the same transaction
        as the insert, so two creations at once cannot both take it. Logged in the audit log
        as done by ``created_by``.

        Raises:
            UnknownName: no such scenario (R-SETUP-01).
            InvalidCampaignName: the name is blank, too long or holds invisible characters.
            CampaignNameTaken: the guild has a campaign of that name that is not finished.
        """
        if scenario_id not in self.ruleset.scenarios:
            scenarios = tuple(sorted(self.ruleset.scenarios))
            raise UnknownName(
                "scenario", scenario_id, scenarios, rule="R-SETUP-01", allowed=", ".join(scenarios)
            )
        name = tidy_campaign_name(name)
        state = self._new_game(self.ruleset, scenario_id, secrets.token_hex(16))
        now = self._clock()
        parts = split_state(state)

        def taken(existing: str) -> CampaignNameTaken:
            return CampaignNameTaken(
                f"This server already has a campaign called {existing}.",
                allowed="another name, or finish the old campaign first",
            )

        def _tx(conn: Connection) -> tuple[int, Cached]:
            existing = repo.open_campaign_named(conn, guild_id, name)
            if existing is not None:
                raise taken(existing.name)
            campaign_id = repo.insert_campaign(
                conn,
                guild_id=guild_id,
                name=name,
                scenario=scenario_id,
                parts=parts,
                created_by=created_by,
                umpire_user_id=umpire_user_id,
                now=now,
            )
            messages = self._setup_rows(
                conn, campaign_id, name, state, umpire_user_id, table_talk=table_talk
            )
            repo.insert_outbox(conn, campaign_id, messages, now=now)
            repo.insert_audit(
                conn,
                campaign_id=campaign_id,
                user_id=created_by,
                action="campaign_created",
                detail={
                    "name": name,
                    "scenario": scenario_id,
                    "umpire": umpire_user_id,
                    "as": ActingAs.ADMIN.value,
                },
                now=now,
            )
            info = repo.campaign_info(conn, campaign_id)
            assert info is not None
            if then is None:
                return campaign_id, Cached(info, state, 0, {}, frozenset())
            after = then(conn, info, state)
            now_info = repo.campaign_info(conn, campaign_id)
            assert now_info is not None
            after.info = now_info
            return campaign_id, after

        try:
            # a new campaign writes its whole board (and an import, ``then``, a whole log):
            # tens of milliseconds, so on the writer thread, off the event loop
            campaign_id, cached = await self.db.write(_tx, inline=False)
        except IntegrityError as err:  # another process took the name first (unique index)
            raise taken(name) from err
        self._store(cached)
        self._notify(campaign_id)
        return cached.info

    def _setup_rows(
        self,
        conn: Connection,
        campaign_id: int,
        name: str,
        state: GameState,
        umpire: int | None,
        *,
        table_talk: bool,
    ) -> list[OutboxMessage]:
        category = ChannelKey.CATEGORY
        rows = [
            OutboxMessage(
                category,
                OutboxKind.CREATE_CATEGORY,
                {"name": name[:100]},
                dedupe_key=category.creation_key,
            )
        ]
        repo.add_channel(conn, campaign_id, category, None)
        for key, channel_name, read_only, private in CAMPAIGN_CHANNELS:
            if key == ChannelKey.TABLE_TALK and not table_talk:
                continue
            repo.add_channel(conn, campaign_id, key, category)
            payload: dict[str, Any] = {
                "name": channel_name,
                "parent_key": category,
                "read_only": read_only,
                "private": private,
            }
            if private and umpire is not None:
                payload["allow_users"] = [umpire]
            rows.append(
                OutboxMessage(
                    key,
                    OutboxKind.CREATE_CHANNEL,
                    payload,
                    dedupe_key=key.creation_key,
                    depends_on_key=category.creation_key,
                )
            )
        for faction in state.in_play:
            key = ChannelKey.orders(faction)
            repo.add_channel(conn, campaign_id, key, THREAD_PARENT)
            rows.append(
                OutboxMessage(
                    key,
                    OutboxKind.CREATE_THREAD,
                    {
                        "name": f"orders-{faction.lower()}",
                        "parent_key": THREAD_PARENT,
                        "private": True,
                        "faction": faction,
                    },
                    dedupe_key=key.creation_key,
                    depends_on_key=THREAD_PARENT.creation_key,
                )
            )
            if umpire is not None:
                rows.append(add_member(key, umpire))
        scenario = self.ruleset.scenarios[state.scenario]
        rows.append(
            OutboxMessage(
                ChannelKey.ANNOUNCEMENTS,
                OutboxKind.POST,
                {"content": wording.welcome_text(name, scenario.name, state.in_play)},
                dedupe_key="setup:welcome",
            )
        )
        return rows

    async def start(self, campaign_id: int, actor: Actor) -> SubmitResult:
        """Start the campaign: status ``active`` and the first game round begins
        (``StartCampaign``, R-TURN-01), in one transaction. Of two starts at once, one starts
        the campaign and the other is refused with :class:`AlreadyStarted`.

        Raises:
            NoUmpire: the campaign has no umpire yet (R-PBP-UMP-01).
            AlreadyStarted: the campaign is not being set up any more.
            NotAuthorised: the actor is neither the umpire, an admin nor the system.
        """
        info = (await self._load(campaign_id)).info
        if info.umpire_user_id is None:
            raise NoUmpire(
                f"{info.name} has no umpire yet.",
                rule="R-PBP-UMP-01",
                allowed="an admin names one with `/campaign umpire`",
            )
        try:
            # who plays what is told to the rules first, in the same transaction
            return await self._submit(
                campaign_id,
                actor,
                StartCampaign(faction="UMPIRE"),
                interaction_id=None,
                from_status=CampaignStatus.SETTING_UP,
                to_status=CampaignStatus.ACTIVE,
                preface=lambda cached: players_order(cached.state, cached.players),
            )
        except CampaignNotActive as err:  # started meanwhile (another /campaign start)
            now = (await self._load(campaign_id)).info
            raise AlreadyStarted(
                f"{now.name} has already started (it is {wording.STATUS_TEXT[now.status]}).",
                allowed="`/campaign info` to see where it stands",
            ) from err

    async def finish(self, campaign_id: int, actor: Actor) -> CampaignInfo:
        """The umpire or an admin finishes the campaign (R-PBP-UMP-01): from then on it takes no
        order and no deadline or reminder of it fires. One transaction under the campaign's
        lock: the status, its open deadlines closed, the audit entry ``status_changed`` (to
        ``finished``, as umpire or admin), a notice in ``#announcements`` and the dice seed
        revealed there (decision 0023). Finishing by
        victory is the rules' (``CampaignEnded``), which the order's commit stores the same way.

        Raises:
            NotAuthorised: the actor is neither the campaign's umpire, an admin nor the bot.
            CampaignNotActive: the campaign is finished already.
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            info = cached.info
            if not (actor.system or actor.is_admin or actor.user_id == info.umpire_user_id):
                raise NotAuthorised(
                    "Only the umpire or an admin may finish a campaign.",
                    rule="R-PBP-UMP-01",
                    allowed="ask the umpire",
                )
            if info.status is CampaignStatus.FINISHED:
                words = wording.not_running(info.name, info.status)
                raise CampaignNotActive(words.message, allowed=words.allowed)
            now = self._clock()
            notice = OutboxMessage(
                ChannelKey.ANNOUNCEMENTS,
                OutboxKind.POST,
                {"content": wording.finished_text(info.name)},
                dedupe_key="umpire:finished",
            )

            def _tx(conn: Connection) -> CampaignInfo | None:
                keys = [d.decision_key for d in repo.open_deadlines(conn, campaign_id)]
                if keys:
                    repo.close_open_deadlines(conn, campaign_id, keys)
                repo.update_campaign(
                    conn, campaign_id, now=now, status=CampaignStatus.FINISHED, paused_at=None
                )
                repo.insert_audit(
                    conn,
                    campaign_id=campaign_id,
                    user_id=actor.user_id,
                    action="status_changed",
                    detail={
                        "from": info.status.value,
                        "to": CampaignStatus.FINISHED.value,
                        "as": acting_role(info, actor.user_id),
                    },
                    now=now,
                )
                reveal = seed_messages(
                    info.name, info.status, CampaignStatus.FINISHED, cached.state
                )  # the dice seed made public (decision 0023)
                repo.insert_outbox(conn, campaign_id, [notice, *reveal], now=now)
                return repo.campaign_info(conn, campaign_id)

            finished = await self.db.write(_tx)
            assert finished is not None
            cached.info = finished
            cached.deadline_due.clear()
            self._store(cached)
        self._notify(campaign_id)
        return finished

    async def set_status(
        self, campaign_id: int, status: CampaignStatus, *, by: int | None = None
    ) -> CampaignInfo:
        """Set a campaign's status; logged in the audit log as done by ``by``. Pausing and
        resuming go through :meth:`~caedes_bot.service.pausing.Pausing.pause` and ``resume``
        (R-PBP-UMP-05: the deadlines stop and get their time back), as ``by`` (the bot itself
        when ``None``); any other change is only the status (finishing a campaign, or
        starting a stand-in campaign in tests).

        Raises:
            NotAuthorised: a pause or resume by someone who is not the umpire.
            PauseRefused: a pause of a campaign not under way, or a resume of one not paused.
        """
        actor = Actor.system_actor() if by is None else Actor(by)
        if status is CampaignStatus.PAUSED:
            return (await self.pause(campaign_id, actor)).info
        if (await self._load(campaign_id)).info.status is CampaignStatus.PAUSED and (
            status is CampaignStatus.ACTIVE
        ):
            return (await self.resume(campaign_id, actor)).info
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            now = self._clock()

            def _tx(conn: Connection) -> CampaignInfo | None:
                repo.update_campaign(conn, campaign_id, now=now, status=status)
                repo.insert_outbox(
                    conn,
                    campaign_id,
                    seed_messages(cached.info.name, cached.info.status, status, cached.state),
                    now=now,
                )
                repo.insert_audit(
                    conn,
                    campaign_id=campaign_id,
                    user_id=by,
                    action="status_changed",
                    detail={
                        "from": cached.info.status.value,
                        "to": status.value,
                        "as": acting_role(cached.info, by),
                    },
                    now=now,
                )
                info = repo.campaign_info(conn, campaign_id)
                return info

            info = await self.db.write(_tx)
            assert info is not None
            cached.info = info
            self._store(cached)
        self._notify(campaign_id)
        return info
