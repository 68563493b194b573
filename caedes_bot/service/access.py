"""Access: who plays which faction, who umpires, and the Discord access that follows from it
(R-SETUP-02, R-PBP-UMP-01, R-PBP-UMP-02, R-PBP-UMP-04, R-PBP-NEG-01, R-PBP-NEG-06).

Threads (a faction's orders thread, a negotiation thread) hold their factions' players and the
umpire; ``#umpire`` is open to the umpire. Every change of members is one transaction that
stores it, queues the Discord access changes (:func:`access_changes`) and logs it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import (
    ActingAs,
    CampaignInfo,
    CampaignStatus,
    CampaignView,
    ChannelRecord,
    OutboxKind,
    OutboxMessage,
)
from caedes_bot.persistence import repository as repo
from caedes_bot.rules.errors import UnknownName
from caedes_bot.rules.state import GameState
from caedes_bot.service.core import Cached
from caedes_bot.service.errors import CampaignNotActive, FactionHeld
from caedes_bot.service.orders import Orders, Prepared, players_order
from caedes_bot.service.values import Actor, UmpireChange
from caedes_bot.ui import wording

#: Channels of a campaign (ux.md "Channels of a campaign"): key -> (name, read-only, private).
CAMPAIGN_CHANNELS: tuple[tuple[ChannelKey, str, bool, bool], ...] = (
    (ChannelKey.ANNOUNCEMENTS, "announcements", True, False),
    (ChannelKey.BATTLES, "battles", True, False),
    (ChannelKey.TABLE_TALK, "table-talk", False, False),
    (ChannelKey.UMPIRE, "umpire", False, True),
)

#: The channel that holds the private orders and negotiation threads (players must see it).
THREAD_PARENT = ChannelKey.ANNOUNCEMENTS


def add_member(channel_key: ChannelKey, user_id: int) -> OutboxMessage:
    """The outbox row that adds ``user_id`` to the thread ``channel_key``."""
    return OutboxMessage(channel_key, OutboxKind.ADD_THREAD_MEMBER, {"user_id": user_id})


def _wanted_members(
    keys: Iterable[ChannelKey], players: Mapping[str, int], umpire: int | None
) -> dict[ChannelKey, set[int]]:
    """Who belongs in each orders and negotiation thread: the players of its factions and the
    umpire (R-PBP-NEG-01, R-PBP-NEG-06, R-PBP-UMP-04)."""
    wanted: dict[ChannelKey, set[int]] = {}
    for key in keys:
        if not key.is_thread:
            continue
        members = {players[f] for f in key.factions if f in players}
        if umpire is not None:
            members.add(umpire)
        wanted[key] = members
    return wanted


def access_changes(
    keys: Iterable[str],
    before: tuple[Mapping[str, int], int | None],
    after: tuple[Mapping[str, int], int | None],
) -> list[OutboxMessage]:
    """The outbox rows that take a campaign's Discord access from ``before`` to ``after``,
    each a ``(players, umpire)`` pair.

    Threads (``orders:*``, ``talks:*`` among ``keys``) hold their factions' players and the
    umpire: a member who no longer belongs is removed and one who newly belongs is added; a
    member who belongs both before and after (an old umpire who plays the faction) is left
    alone. ``#umpire`` (if among ``keys``) is opened to a new umpire and closed to the old one.
    Rows for the same place keep their order, so applying them again changes nothing.
    """
    places = [ChannelKey(key) for key in keys]
    rows: list[OutboxMessage] = []
    old_umpire, new_umpire = before[1], after[1]
    umpire = ChannelKey.UMPIRE
    if old_umpire != new_umpire and umpire in places:
        if old_umpire is not None:
            rows.append(
                OutboxMessage(umpire, OutboxKind.REVOKE_CHANNEL_ACCESS, {"user_id": old_umpire})
            )
        if new_umpire is not None:
            rows.append(
                OutboxMessage(umpire, OutboxKind.GRANT_CHANNEL_ACCESS, {"user_id": new_umpire})
            )
    was = _wanted_members(places, *before)
    now = _wanted_members(places, *after)
    for key in now:
        for user in sorted(was[key] - now[key]):
            rows.append(OutboxMessage(key, OutboxKind.REMOVE_THREAD_MEMBER, {"user_id": user}))
        for user in sorted(now[key] - was[key]):
            rows.append(add_member(key, user))
    return rows


def acting_role(info: CampaignInfo, user_id: int | None) -> str:
    """In which capacity a member does an administration act, for the audit log:
    ``"umpire"`` (the campaign's umpire), ``"admin"`` (anyone else allowed to), ``"system"``
    (the bot itself)."""
    if user_id is None:
        return ActingAs.SYSTEM.value
    if user_id == info.umpire_user_id:
        return ActingAs.UMPIRE.value
    return ActingAs.ADMIN.value


class Access(Orders):
    """Members, the umpire and threads of a campaign."""

    async def assign(
        self,
        campaign_id: int,
        user_id: int,
        faction: str,
        *,
        by: int | None = None,
        replace: bool = False,
    ) -> bool:
        """Give ``faction`` to ``user_id`` (R-SETUP-02): a user may hold several factions, a
        faction has one player. The user joins the faction's orders thread and its negotiation
        threads; a replaced player leaves them (unless they still belong: the umpire, or the
        player of the other side). The check and the change are one step under the campaign's
        lock, so two assignments at once cannot both succeed. Logged as done by ``by``.

        Args:
            replace: take the faction from its current player instead of refusing.

        Returns:
            ``True`` if the faction changed hands, ``False`` if ``user_id`` held it already.

        Raises:
            UnknownName: the faction is not in play in this campaign (R-SETUP-02).
            FactionHeld: another member plays it and ``replace`` is false (R-SETUP-02).
            UnknownCampaign: no such campaign.
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            if faction not in cached.state.in_play:
                raise UnknownName(
                    "faction",
                    faction,
                    tuple(cached.state.in_play),
                    rule="R-SETUP-02",
                    allowed=", ".join(cached.state.in_play),
                )
            previous = cached.players.get(faction)
            if previous == user_id:
                return False
            if previous is not None and not replace:
                label = self._faction_label(faction)
                raise FactionHeld(
                    f"{label} is already held by <@{previous}>.",
                    rule="R-SETUP-02",
                    allowed=f"`/campaign unassign faction:{faction}` first, or another faction",
                )
            after = {**cached.players, faction: user_id}
            await self._change_members(
                cached,
                after,
                cached.info.umpire_user_id,
                action="faction_assigned",
                detail={"faction": faction, "user_id": user_id, "previous": previous},
                by=by,
            )
        self._notify(campaign_id)
        return True

    async def substitute(
        self, campaign_id: int, faction: str, user_id: int, *, by: int | None = None
    ) -> int | None:
        """Hand ``faction`` to ``user_id`` at once, mid-turn included (R-PBP-UMP-01,
        R-SETUP-02): in one transaction the member replaces whoever held it (a player or the
        umpire), joins its orders and negotiation threads while the one replaced leaves them
        (unless they still belong), a notice pinging the new player is posted in the orders
        thread and the change is announced in ``#announcements`` (without a ping), the turn
        panel under way is posted again in its orders thread if it is the faction's turn, the
        rules are told who plays what (R-VIC-01), and the audit log records
        ``faction_substituted`` with before and after. The
        turn panel's buttons, pending decisions and deadlines belong to the faction, so they
        follow: the next press, answer or reminder goes by who holds it then.

        Returns:
            The member replaced (``None``: the umpire ran it).

        Raises:
            UnknownName: the faction is not in play (R-SETUP-02).
            CampaignNotActive: the campaign is finished.
            FactionHeld: ``user_id`` holds it already (nothing to hand over).
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            info = cached.info
            if faction not in cached.state.in_play:
                raise UnknownName(
                    "faction",
                    faction,
                    tuple(cached.state.in_play),
                    rule="R-SETUP-02",
                    allowed=", ".join(cached.state.in_play),
                )
            if info.status is CampaignStatus.FINISHED:
                words = wording.not_running(info.name, info.status)
                raise CampaignNotActive(words.message, allowed=words.allowed)
            previous = cached.players.get(faction)
            label = self._faction_label(faction)
            if previous == user_id:
                raise FactionHeld(
                    f"<@{user_id}> already plays {label}.",
                    rule="R-SETUP-02",
                    allowed="another member",
                )
            notice = OutboxMessage(
                ChannelKey.orders(faction),
                OutboxKind.POST,
                {
                    "content": wording.substitute_text(label, user_id, previous),
                    "mention_user_ids": [user_id],
                },
            )
            public = OutboxMessage(
                ChannelKey.ANNOUNCEMENTS,
                OutboxKind.POST,
                {"content": wording.substitute_notice(label, user_id, previous)},
            )
            await self._change_members(
                cached,
                {**cached.players, faction: user_id},
                info.umpire_user_id,
                action="faction_substituted",
                detail={"faction": faction, "user_id": user_id, "previous": previous},
                by=by,
                extra=(notice, public),
                panel_for=faction,
            )
        self._notify(campaign_id)
        return previous

    async def unassign(self, campaign_id: int, faction: str, *, by: int | None = None) -> bool:
        """Leave ``faction`` to the umpire (R-PBP-UMP-02): its player leaves its orders and
        negotiation threads (unless they still belong there). Logged as done by ``by``.

        Returns:
            ``True`` if a player was taken off, ``False`` if nobody held the faction.

        Raises:
            UnknownCampaign: no such campaign.
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            previous = cached.players.get(faction)
            if previous is None:
                return False
            after = {f: u for f, u in cached.players.items() if f != faction}
            await self._change_members(
                cached,
                after,
                cached.info.umpire_user_id,
                action="faction_unassigned",
                detail={"faction": faction, "previous": previous},
                by=by,
            )
        self._notify(campaign_id)
        return True

    def _faction_label(self, code: str) -> str:
        try:
            return f"{self.ruleset.faction(code).name} ({code})"
        except (KeyError, LookupError):
            return code

    async def _change_members(
        self,
        cached: Cached,
        players: dict[str, int],
        umpire: int | None,
        *,
        action: str,
        detail: dict[str, Any],
        by: int | None,
        extra: Sequence[OutboxMessage] = (),
        panel_for: str | None = None,
    ) -> None:
        """Store who plays what and who umpires, queue the Discord access that follows
        (:func:`access_changes`) and ``extra`` messages, log it, and (once the campaign is
        under way) tell the rules who plays what (``SetPlayers``, R-VIC-01), all in one
        transaction; then update the cache. ``panel_for``: a faction whose turn panel under
        way is posted again (for its new player). The caller holds the campaign's lock."""
        campaign_id = cached.info.id
        before_players = dict(cached.players)
        before_umpire = cached.info.umpire_user_id
        role = acting_role(cached.info, by)
        now = self._clock()
        order = (
            players_order(cached.state, players)
            if cached.info.status is CampaignStatus.ACTIVE
            else None
        )
        prepared: Prepared | None = None
        if order is not None:
            outcome = self._apply(
                cached.state, order, self.ruleset, self._dice_factory(cached.state)
            )
            prepared = await self._prepare(
                cached,
                Actor.system_actor(),
                ActingAs.SYSTEM,
                order,
                outcome,
                None,
                None,
                players=players,
            )
        after = prepared.after if prepared is not None else cached
        panel: list[OutboxMessage] = []
        if panel_for is not None:
            view = CampaignView(after.info, dict(players), dict(after.deadline_due))
            panel = self.announcer.panel_again(view, after.state, self.ruleset, panel_for)

        def _tx(conn: Connection) -> CampaignInfo | None:
            if prepared is not None:
                prepared.write(conn)
            for faction in before_players.keys() - players.keys():
                repo.remove_member(conn, campaign_id, faction)
            for faction, user in players.items():
                if before_players.get(faction) != user:
                    repo.set_member(conn, campaign_id, faction, user)
            if umpire != before_umpire:
                repo.update_campaign(conn, campaign_id, now=now, umpire_user_id=umpire)
            keys = sorted(repo.channels_of(conn, campaign_id))
            messages = access_changes(keys, (before_players, before_umpire), (players, umpire))
            repo.insert_outbox(conn, campaign_id, [*messages, *extra, *panel], now=now)
            repo.insert_audit(
                conn,
                campaign_id=campaign_id,
                user_id=by,
                action=action,
                detail={**detail, "as": role},
                now=now,
            )
            return repo.campaign_info(conn, campaign_id)

        info = await self.db.write(_tx)
        assert info is not None
        after.info = info
        after.players.clear()
        after.players.update(players)
        self._store(after)

    async def open_thread(
        self,
        campaign_id: int,
        key: ChannelKey,
        name: str,
        members: Sequence[int],
        *,
        by: int | None = None,
        first_post: str | None = None,
        check: Callable[[GameState], None] | None = None,
    ) -> tuple[ChannelRecord | None, bool]:
        """Make a private thread ``key`` under ``#announcements``, or reuse it if it was made
        before, and add ``members`` to it (adding a member twice changes nothing). Used for
        negotiation threads (R-PBP-NEG-01). A new thread gets ``first_post`` as its first
        message. Logged in the audit log; all of it in one transaction.

        ``check``, if given, is called with the campaign's state under the campaign's lock,
        before anything is written: it raises to refuse. So a judgement of neighbours made
        by an order between the caller's own check and this call is seen (R-PBP-NEG-03):
        factions judged apart get no thread, and nothing is written.

        Returns:
            The thread's record as it was before this call (``None`` if new) and whether it is
            new. Its ``discord_id`` is ``None`` until the outbox has made it.

        Raises:
            CampaignNotActive: the thread is new and the campaign is finished (a finished
                campaign stays readable, so a thread made before is still found), with
                nothing written.
            Whatever ``check`` raises (a ``RuleViolation``), with nothing written.
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            info = cached.info
            if check is not None:
                check(cached.state)
            now = self._clock()

            def _tx(conn: Connection) -> tuple[ChannelRecord | None, bool]:
                existing = repo.channels_of(conn, campaign_id).get(key)
                messages: list[OutboxMessage] = []
                if existing is None and info.status is CampaignStatus.FINISHED:
                    words = wording.not_running(info.name, info.status)
                    raise CampaignNotActive(words.message, allowed=words.allowed)
                if existing is None:
                    repo.add_channel(conn, campaign_id, key, THREAD_PARENT)
                    messages.append(
                        OutboxMessage(
                            key,
                            OutboxKind.CREATE_THREAD,
                            {"name": name, "parent_key": THREAD_PARENT, "private": True},
                            dedupe_key=key.creation_key,
                            depends_on_key=THREAD_PARENT.creation_key,
                        )
                    )
                messages += [add_member(key, user) for user in dict.fromkeys(members)]
                if existing is None and first_post is not None:
                    messages.append(OutboxMessage(key, OutboxKind.POST, {"content": first_post}))
                repo.insert_outbox(conn, campaign_id, messages, now=now)
                repo.insert_audit(
                    conn,
                    campaign_id=campaign_id,
                    user_id=by,
                    action="thread_opened" if existing is None else "thread_reused",
                    detail={"key": key, "members": list(members)},
                    now=now,
                )
                return existing, existing is None

            found = await self.db.write(_tx)
        self._notify(campaign_id)
        return found

    async def set_umpire(
        self, campaign_id: int, user_id: int, *, by: int | None = None
    ) -> UmpireChange:
        """Make ``user_id`` the campaign's umpire (R-PBP-UMP-01): ``#umpire`` and every orders
        and negotiation thread are opened to them (R-PBP-UMP-04) and closed to the umpire they
        replace, who stays only where they play a faction. The umpire may also play factions;
        the orders they give for factions they do not play are logged as the umpire's. Naming
        the same umpire again changes nothing. Logged as done by ``by``.

        Returns:
            The umpire replaced, whether anything changed, and the factions the new umpire
            plays.

        Raises:
            UnknownCampaign: no such campaign.
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            previous = cached.info.umpire_user_id
            plays = tuple(sorted(f for f, u in cached.players.items() if u == user_id))
            if previous == user_id:
                return UmpireChange(previous, False, plays)
            await self._change_members(
                cached,
                dict(cached.players),
                user_id,
                action="umpire_set",
                detail={"umpire": user_id, "previous": previous},
                by=by,
            )
        self._notify(campaign_id)
        return UmpireChange(previous, True, plays)
