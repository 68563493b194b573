"""Orders: submit one (lock, authorise, version check, apply, one transaction, cache) and
replay a campaign from its order log.

``submit(campaign_id, actor, order)``
    per-campaign lock -> state from the in-memory cache (keyed by version) or the database ->
    may this actor give this order? -> ``rules.engine.apply`` with the campaign's seeded dice ->
    ``UPDATE campaigns SET version=version+1 WHERE id=:id AND version=:v`` + the parts of the
    state the order changed (docs/decisions/0008) + the order row + the event rows + the outbox rows (from the announcer) + deadline rows + the
    processed interaction -> COMMIT -> cache -> return the events.

A refused order changes nothing and writes nothing; the refusal reaches the caller unchanged.
A stale version (another writer got there first) reloads and re-applies, never merges. The
same interaction id twice has one effect and returns the first result.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from caedes_bot.domain.records import (
    ActingAs,
    CampaignStatus,
    CampaignView,
    StoredOrder,
)
from caedes_bot.domain.records import OpeningOdds as Opening
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.mappers import (
    dump_event,
    dump_order,
    dump_state,
    load_event,
    load_order,
)
from caedes_bot.persistence.repository import CampaignRecord, StaleVersion
from caedes_bot.persistence.stateparts import diff_state, load_parts
from caedes_bot.rules import engine
from caedes_bot.rules.combat.events import BattleOddsAsked
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.override_log import override_change
from caedes_bot.rules.replay import Replay, RollBack
from caedes_bot.rules.state import GameState
from caedes_bot.rules.steps import Giver
from caedes_bot.rules.turn import TurnEnded
from caedes_bot.rules.victory import SetPlayers
from caedes_bot.service.core import Cached
from caedes_bot.service.errors import (
    CampaignNotActive,
    NotAuthorised,
    ReplayMismatch,
    UnknownCampaign,
)
from caedes_bot.service.opening import OpeningOdds
from caedes_bot.service.rollback import replay_rollback
from caedes_bot.service.seeds import seed_messages
from caedes_bot.service.values import Actor, Expect, SubmitResult
from caedes_bot.ui import wording

log = logging.getLogger(__name__)


def _audience(event: Event) -> list[str] | None:
    audience = event.audience()
    return None if audience is None else list(audience)


def players_order(state: GameState, players: dict[str, int]) -> SetPlayers | None:
    """The bot's order telling the rules who holds which faction (``SetPlayers``, R-SETUP-02),
    so that victory is judged by player (R-VIC-01..03); ``None`` if the rules know it already
    or the game is over. Given when the campaign starts and with each change of players, in
    the same transaction."""
    wanted = {f: str(u) for f, u in players.items() if f in state.in_play}
    if state.players == wanted or state.finished:
        return None
    return SetPlayers(faction="UMPIRE", players=tuple(sorted(wanted.items())))


@dataclass(frozen=True)
class Prepared:
    """An order ready to be written (:meth:`Orders._prepare`): ``write`` does it in the
    caller's transaction; ``after`` is the campaign's cache entry and ``result`` the answer
    once that transaction is committed."""

    write: Callable[[Connection], None]
    after: Cached
    result: SubmitResult


class Orders(OpeningOdds):
    """The service's order desk: :meth:`submit` and :meth:`replay`."""

    async def submit(
        self,
        campaign_id: int,
        actor: Actor,
        order: Order,
        *,
        interaction_id: str | None = None,
        expect: Expect | None = None,
    ) -> SubmitResult:
        """Apply ``order`` to the campaign in one transaction.

        Args:
            campaign_id: the campaign.
            actor: who gives it (checked: the faction's player, the umpire for any faction,
                admins and the umpire for umpire orders, the system for anything).
            order: the order.
            interaction_id: the Discord interaction that caused it; the same id twice has
                one effect and the second call returns the first result (``duplicate=True``).
            expect: what the member saw (step, turn, decision), checked under the campaign's
                lock against the state the order is applied to.

        Returns:
            The events, the new version and the new state.

        Raises:
            RuleViolation: the rules refuse the order (nothing changed, nothing written).
            NotAuthorised: the actor may not give it (R-SETUP-02).
            CampaignNotActive: the campaign is not running (R-PBP-UMP-05).
            StaleOrder: ``expect`` no longer holds: the game has moved on (R-TURN-02).
            UnknownCampaign: no such campaign.
        """
        return await self._submit(
            campaign_id, actor, order, interaction_id=interaction_id, expect=expect
        )

    async def _submit(
        self,
        campaign_id: int,
        actor: Actor,
        order: Order,
        *,
        interaction_id: str | None,
        from_status: CampaignStatus = CampaignStatus.ACTIVE,
        to_status: CampaignStatus | None = None,
        expect: Expect | None = None,
        preface: Callable[[Cached], Order | None] | None = None,
    ) -> SubmitResult:
        """:meth:`submit`, from ``from_status`` to ``to_status``. ``preface``: the bot's order
        (or none) to apply first, in the same transaction, given the campaign as cached."""
        async with self._campaign_lock(campaign_id):
            for _attempt in range(self._max_retries):
                cached = await self._load(campaign_id)
                first: Prepared | None = None
                try:
                    acting_as = self._authorise(cached, actor, order, from_status)
                    pre = None if preface is None else preface(cached)
                    if pre is not None:
                        dice = self._dice_factory(cached.state)
                        done = self._apply(cached.state, pre, self.ruleset, dice)
                        first = await self._prepare(
                            cached, Actor.system_actor(), ActingAs.SYSTEM, pre, done, None, None
                        )
                        cached = first.after
                    state = cached.state
                    if expect is not None:
                        expect.check(state, self.ruleset)
                    if isinstance(order, RollBack):
                        outcome = await self._rolled_back(cached, order)
                    else:
                        dice = self._dice_factory(state)
                        outcome = self._apply(state, order, self.ruleset, dice)
                except RuleViolation:
                    if interaction_id is not None:
                        earlier = await self._first_result(campaign_id, interaction_id)
                        if earlier is not None:
                            return earlier
                    raise
                try:
                    return await self._commit(
                        cached,
                        actor,
                        acting_as,
                        order,
                        outcome,
                        interaction_id,
                        to_status,
                        first=first,
                    )
                except StaleVersion:
                    log.warning("campaign %s: stale version, reloading", campaign_id)
                    self.forget(campaign_id)
                except IntegrityError:
                    if interaction_id is None:
                        raise
                    # another writer handled this interaction: our cached state is behind
                    self.forget(campaign_id)
                    earlier = await self._first_result(campaign_id, interaction_id)
                    if earlier is None:
                        raise
                    return earlier
            raise RuntimeError(
                f"campaign {campaign_id}: gave up after {self._max_retries} stale writes"
            )

    def _authorise(
        self, cached: Cached, actor: Actor, order: Order, from_status: CampaignStatus
    ) -> ActingAs:
        info = cached.info
        if info.status is not from_status:
            words = wording.not_running(info.name, info.status)
            raise CampaignNotActive(words.message, allowed=words.allowed)
        # who may give it is declared by the rules (R-PBP-UMP-01)
        umpire_order = engine.giver_of(type(order)) is Giver.UMPIRE
        if actor.system:
            return ActingAs.SYSTEM
        is_umpire = actor.user_id is not None and actor.user_id == info.umpire_user_id
        if umpire_order:
            if is_umpire:
                return ActingAs.UMPIRE
            if actor.is_admin:
                return ActingAs.ADMIN
            raise NotAuthorised(
                f"Only the umpire or an admin may give {type(order).__name__}.",
                rule="R-PBP-UMP-01",
                allowed="ask the umpire",
            )
        if actor.user_id is not None and cached.players.get(order.faction) == actor.user_id:
            return ActingAs.PLAYER
        if is_umpire:
            return ActingAs.UMPIRE
        mine = sorted(f for f, user in cached.players.items() if user == actor.user_id)
        raise NotAuthorised(
            f"You do not play {order.faction}.",
            allowed=f"orders for {', '.join(mine)}" if mine else "ask the umpire for a faction",
        )

    async def _commit(
        self,
        cached: Cached,
        actor: Actor,
        acting_as: ActingAs,
        order: Order,
        outcome: engine.Outcome,
        interaction_id: str | None,
        to_status: CampaignStatus | None,
        *,
        first: Prepared | None = None,
    ) -> SubmitResult:
        """Write ``order`` and its ``outcome`` (after ``first``, if given: an order prepared
        on the state before, written in the same transaction), then cache the new state."""
        prepared = await self._prepare(
            cached, actor, acting_as, order, outcome, interaction_id, to_status
        )

        def _tx(conn: Connection) -> None:
            if first is not None:
                first.write(conn)
            prepared.write(conn)

        await self.db.write(_tx)
        self._store(prepared.after)
        self._notify(cached.info.id)
        result = prepared.result
        self._opening_wanted(
            result.campaign_id, result.order_seq, result.events, result.state.options
        )
        return result

    async def _prepare(
        self,
        cached: Cached,
        actor: Actor,
        acting_as: ActingAs,
        order: Order,
        outcome: engine.Outcome,
        interaction_id: str | None,
        to_status: CampaignStatus | None,
        *,
        players: dict[str, int] | None = None,
    ) -> Prepared:
        """Everything ``order`` writes (the state's changed parts, the order, its events, the
        outbox, the deadlines, the audit entry of an override) as one function of a
        connection, for the caller's transaction, with the cache entry and result that hold
        once it is committed. ``players``: who plays what after that transaction (default:
        as cached). Reads the database (what the announcer needs), writes nothing."""
        info = cached.info
        earlier: tuple[Event, ...] = ()
        if any(isinstance(e, TurnEnded) for e in outcome.events):
            stored = await self.db.read(lambda conn: repo.events_of_current_turn(conn, info.id))
            earlier = tuple(load_event(s.payload) for s in stored)
        threads: frozenset[str] = frozenset()
        if outcome.state.neighbour_view != cached.state.neighbour_view:  # R-PBP-NEG-03
            keys = await self.db.read(lambda conn: repo.channels_of(conn, info.id))
            threads = frozenset(keys)
        opening = await self._opening_odds_of(  # R-COMBAT-16 (decision 0020)
            info.id, outcome.events, cached.state, outcome.state
        )
        return self._prepare_now(
            cached,
            actor,
            acting_as,
            order,
            outcome,
            interaction_id,
            to_status,
            players=players,
            earlier=earlier,
            threads=threads,
            opening=opening,
        )

    def _prepare_now(
        self,
        cached: Cached,
        actor: Actor,
        acting_as: ActingAs,
        order: Order,
        outcome: engine.Outcome,
        interaction_id: str | None,
        to_status: CampaignStatus | None,
        *,
        players: dict[str, int] | None,
        earlier: tuple[Event, ...],
        threads: frozenset[str],
        opening: Mapping[int, Opening | None] | None = None,
    ) -> Prepared:
        """:meth:`_prepare` once its reads are done: ``earlier``, the events of the turn that
        ``order`` ends (if it ends one); ``threads``, the campaign's places (if the neighbours
        changed); ``opening``, the opening odds of the battles it shows (option
        ``battle_message_odds``). Pure: for a transaction that is already open as well."""
        info = cached.info
        new_state = outcome.state
        events = outcome.events
        version = info.version + 1
        now = self._clock()
        changes = diff_state(cached.state, new_state, version)
        order_payload = dump_order(order)
        event_rows = [(dump_event(e), _audience(e)) for e in events]
        status = CampaignStatus.FINISHED if new_state.finished else to_status
        wanted = self.deadline_policy.wanted(new_state)
        # a rollback takes the deadlines back with the game (decision 0023): every deadline
        # open now closes, and each one the state rolled back to owes starts afresh
        rolled_back = isinstance(order, RollBack)
        kept = frozenset() if rolled_back else cached.deadline_keys
        new_keys = [k for k in wanted if k not in kept]
        gone_keys = (
            sorted(cached.deadline_keys)
            if rolled_back
            else [k for k in cached.deadline_keys if k not in wanted]
        )
        new_times = {k: self.deadline_policy.times(now, wanted[k][1]) for k in new_keys}
        due = {k: when for k, when in cached.deadline_due.items() if k in wanted and k in kept}
        due.update({k: times[0] for k, times in new_times.items()})
        seen = cached.players if players is None else players
        view = CampaignView(
            cached.info, dict(seen), dict(due), earlier, threads, dict(opening or {})
        )
        asked = [e for e in events if isinstance(e, BattleOddsAsked)]  # R-COMBAT-16
        messages = self.announcer.announce(
            view, events, new_state, self.ruleset, before=cached.state
        )
        messages += seed_messages(info.name, info.status, status, new_state)
        result_doc = {
            "events": [payload for payload, _ in event_rows],
            "state_version": version,
            "order_seq": version,
            "acting_as": acting_as.value,
        }

        def _tx(conn: Connection) -> None:
            if interaction_id is not None:
                repo.insert_processed(
                    conn,
                    interaction_id=interaction_id,
                    campaign_id=info.id,
                    result=result_doc,
                    now=now,
                )
            repo.save_state(
                conn,
                campaign_id=info.id,
                expected_version=info.version,
                changes=changes,
                last_event_seq=cached.last_event_seq + len(events),
                now=now,
                status=status,
            )
            repo.insert_order(
                conn,
                campaign_id=info.id,
                seq=version,
                actor_user_id=actor.user_id,
                acting_as=acting_as,
                faction=order.faction,
                payload=order_payload,
                interaction_id=interaction_id,
                dice_before=cached.state.dice_rolls,
                dice_after=new_state.dice_rolls,
                now=now,
            )
            repo.insert_events(
                conn,
                campaign_id=info.id,
                first_seq=cached.last_event_seq + 1,
                order_seq=version,
                events=event_rows,
                now=now,
            )
            # after a rollback to an earlier turn, a turn's posts are owed again (same keys)
            repo.insert_outbox(conn, info.id, messages, now=now, replacing=True)
            for event in asked:  # worked out after the commit (decision 0020)
                repo.ask_battle_odds(
                    conn,
                    info.id,
                    event.battle,
                    asked_seq=version,
                    request=dump_event(event),
                    now=now,
                )
            if gone_keys:
                repo.close_open_deadlines(conn, info.id, gone_keys)
            for key in new_keys:
                faction, _hours = wanted[key]
                due_at, reminder_at = new_times[key]
                # after a rollback a deadline closed before may be owed again (same key)
                repo.reopen_deadline(
                    conn,
                    campaign_id=info.id,
                    decision_key=key,
                    faction=faction,
                    due_at=due_at,
                    reminder_at=reminder_at,
                )
            if acting_as in (ActingAs.UMPIRE, ActingAs.ADMIN):
                detail = {"order": order_payload, "acting_as": acting_as.value, "seq": version}
                change = override_change(order, cached.state, events)
                if change is not None:
                    detail["change"] = change  # before and after (decision 0022)
                repo.insert_audit(
                    conn,
                    campaign_id=info.id,
                    user_id=actor.user_id,
                    action=f"order:{type(order).__name__}",
                    detail=detail,
                    now=now,
                )

        new_info = replace(info, status=status or info.status, version=version, updated_at=now)
        after = Cached(
            new_info,
            new_state,
            cached.last_event_seq + len(events),
            cached.players if players is None else dict(players),
            frozenset(wanted),
            due,
        )
        result = SubmitResult(
            info.id, events, version, version, acting_as, False, new_state, cached.state
        )
        return Prepared(_tx, after, result)

    async def _rolled_back(self, cached: Cached, order: RollBack) -> engine.Outcome:
        """The outcome of the umpire's :class:`RollBack`: the log replayed from the first state
        (:mod:`.rollback`), then the rollback applied by the replay (R-PBP-UMP-01).

        Raises:
            RuleViolation: the log does not replay to the current state, or the point is not
                an earlier point of the current game round.
        """
        info, now = cached.info, cached.state
        orders = await self.db.read(lambda conn: repo.list_orders(conn, info.id))
        first = self._new_game(self.ruleset, info.scenario, now.dice_seed)
        done = await asyncio.to_thread(
            replay_rollback, first, self.ruleset, self._apply, orders, now, order, info.version + 1
        )
        return engine.Outcome(done.state, done.events)

    async def _first_result(self, campaign_id: int, interaction_id: str) -> SubmitResult | None:
        found = await self.db.read(lambda conn: repo.get_processed(conn, interaction_id))
        if found is None:
            return None
        stored_campaign, doc = found
        if stored_campaign != campaign_id:
            raise RuleViolation(
                "This interaction was already used for another campaign.", rule="R-GEN-00"
            )
        cached = await self._load(campaign_id)
        return SubmitResult(
            campaign_id=campaign_id,
            events=tuple(load_event(e) for e in doc["events"]),
            state_version=int(doc["state_version"]),
            order_seq=int(doc["order_seq"]),
            acting_as=ActingAs(doc["acting_as"]),
            duplicate=True,
            state=cached.state,
        )

    async def replay(self, campaign_id: int, *, check: bool = True) -> GameState:
        """The campaign's state rebuilt from its order log: ``new_game`` with the stored seed,
        then every stored order applied with the campaign's seeded dice (R-GEN-01), rollbacks
        included (:class:`~caedes_bot.rules.replay.Replay`, where replay lives).

        Args:
            check: compare each order's dice counts with the log, and the end state with the
                stored one.

        Raises:
            ReplayMismatch: ``check`` and the replay differs from what was stored.
            UnknownCampaign: no such campaign.
        """

        def _tx(conn: Connection) -> tuple[CampaignRecord, list[StoredOrder]]:
            record = repo.load_campaign(conn, campaign_id)
            if record is None:
                raise UnknownCampaign(campaign_id)
            orders = repo.list_orders(conn, campaign_id)
            return record, orders

        record, orders = await self.db.read(_tx)
        stored = load_parts(record.parts)
        replay = Replay(
            self._new_game(self.ruleset, record.info.scenario, stored.dice_seed),
            self.ruleset,
            self._apply,
        )
        for row in orders:
            if check and row.dice_before != replay.state.dice_rolls:
                raise ReplayMismatch(
                    f"order {row.seq}: {replay.state.dice_rolls} dice rolled before, log says "
                    f"{row.dice_before}"
                )
            state = replay.give(row.seq, load_order(row.payload)).state
            if check and row.dice_after != state.dice_rolls:
                raise ReplayMismatch(f"order {row.seq}: dice count differs after it")
        state = replay.state
        if not stored.stats:  # stored before the statistics were kept (decision 0021)
            state = replace(state, stats={}, stats_battles={})
        # what /undo could take back is not part of the game (an older bot kept less of it)
        if check and dump_state(replace(state, undo_log=[])) != dump_state(
            replace(stored, undo_log=[])
        ):
            raise ReplayMismatch(f"campaign {campaign_id}: replayed state differs from stored")
        return state
