"""What every part of the service shares: the database, the game data, the per-campaign
locks, the cache of the last state of each campaign (keyed by its version), and the listeners
woken after each commit.

The cache is bounded: it holds the ``cache_size`` campaigns used most recently and forgets
the least recently used one when a new one comes in (an order on a forgotten campaign reads
it back from the database, a few milliseconds). Every change the service commits goes
through :meth:`ServiceCore._store`, which also counts a generation per campaign, so a read
from the database that was under way while the campaign changed is never cached in place of
the change (it reads again).

:class:`ServiceCore` is the base of the service's parts (orders, campaigns, access, deadlines,
queries, delivery reports); :class:`~caedes_bot.service.RulesService` is composed of them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignInfo, CampaignView, DeadlineRecord, utcnow
from caedes_bot.domain.shards import ALL_SHARDS, Shards, process_name
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.locks import Held
from caedes_bot.persistence.repository import CampaignRecord
from caedes_bot.persistence.stateparts import load_parts
from caedes_bot.rules import engine, setup
from caedes_bot.rules.dice import Dice, SeededDice
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState
from caedes_bot.service.announce import Announcer, PlainAnnouncer
from caedes_bot.service.delivery import Delivery
from caedes_bot.service.errors import UnknownCampaign
from caedes_bot.service.policy import DeadlinePolicy

log = logging.getLogger(__name__)

#: The rules entry point: ``(state, order, ruleset, dice) -> Outcome``.
ApplyFn = Callable[[GameState, Order, Ruleset, Dice], engine.Outcome]
#: Builds a campaign's first state: ``(ruleset, scenario id, dice seed) -> GameState``.
NewGameFn = Callable[[Ruleset, str, str], GameState]

#: Campaigns whose last state the service keeps in memory, by default (``CAEDES_STATE_CACHE_SIZE``).
DEFAULT_CACHE_SIZE = 100

#: On a database shared with other processes (PostgreSQL), the seconds a read may be answered
#: from the cache before the service checks that no other process changed the campaign
#: (decision 0024). Changes always check, under the campaign's lock.
READ_RECHECK_SECONDS = 2.0

#: Seconds a process's claim on a due deadline lasts; a claim left to run out (the process
#: died) is taken by the next process that finds the deadline due (decision 0025).
DEADLINE_CLAIM_SECONDS = 60.0

#: Changes of one process in a row that may keep a campaign's database lock while more of
#: them wait, before it is let go for other processes (decision 0024).
LOCK_BATCH = 16


def seeded_dice(state: GameState) -> Dice:
    """The campaign's own dice: seeded, resuming at its roll count (R-GEN-01)."""
    return SeededDice(state.dice_seed, state.dice_rolls)


@dataclass
class Cached:
    """The last known state of a campaign, valid for ``info.version``, with who plays which
    faction and its open deadlines (key -> due time)."""

    info: CampaignInfo
    state: GameState
    last_event_seq: int
    players: dict[str, int]
    deadline_keys: frozenset[str]
    deadline_due: dict[str, datetime] = field(default_factory=dict)

    def view(self) -> CampaignView:
        return CampaignView(self.info, dict(self.players), dict(self.deadline_due))


class WakeHold:
    """The listeners' calls of one task (the handling of one interaction), held back until
    :meth:`release`: each campaign committed meanwhile is woken once, in the order first held.

    Made by :meth:`ServiceCore.hold_wakes`.
    """

    def __init__(self, wake: Callable[[int], None]) -> None:
        self._wake = wake
        self._campaigns: dict[int, None] = {}
        self._later: list[Callable[[], None]] = []
        self.released = False

    @property
    def held(self) -> tuple[int, ...]:
        """The campaigns waiting to be woken."""
        return tuple(self._campaigns)

    def hold(self, campaign_id: int) -> None:
        self._campaigns[campaign_id] = None

    def defer(self, work: Callable[[], None]) -> None:
        """Call ``work`` at the release, after the wakes (work started by a commit that must
        not compete with the answer: the opening odds of a battle, decision 0020)."""
        self._later.append(work)

    def release(self) -> None:
        """Wake the listeners for every campaign held (once; later calls do nothing)."""
        if self.released:
            return
        self.released = True
        held, self._campaigns = self._campaigns, {}
        for campaign_id in held:
            self._wake(campaign_id)
        later, self._later = self._later, []
        for work in later:
            work()


@dataclass
class Locks:
    """One lock per campaign: the service's changes to a campaign are made one at a time.

    Attributes:
        by_campaign: this process's lock of each campaign.
        waiting: per campaign, the changes waiting for its lock.
        held: per campaign, the database's lock held (PostgreSQL) and how many changes
            have had it since it was taken.
    """

    by_campaign: dict[int, asyncio.Lock] = field(default_factory=dict)
    waiting: dict[int, int] = field(default_factory=dict)
    held: dict[int, list[Any]] = field(default_factory=dict)

    def get(self, campaign_id: int) -> asyncio.Lock:
        lock = self.by_campaign.get(campaign_id)
        if lock is None:
            lock = self.by_campaign[campaign_id] = asyncio.Lock()
        return lock


class ServiceCore:
    """The shared state of the service's parts.

    Args:
        db: the engines (single writer + readers).
        ruleset: the static game data.
        apply: the rules entry point (``rules.engine.apply``; tests may pass a stand-in).
        new_game: builds a campaign's first state (``rules.setup.new_game`` by default).
        announcer: turns events into outbox messages (:class:`PlainAnnouncer` by default).
        clock: the current UTC time.
        deadlines: turn and reaction deadline windows (:class:`DeadlinePolicy`).
        max_retries: how often a stale write is retried before giving up.
        dice_factory: the dice an order is applied with, from the state before it; by default
            the campaign's seeded dice (R-GEN-01). End-to-end tests pass scripted dice.
        cache_size: how many campaigns' states are kept in memory (the least recently used is
            forgotten first); at least 1.
        shards: the Discord shards this process runs (decision 0025): the scheduler and the
            outbox work only on campaigns of guilds on them.
        process: this process's name in outbox leases and deadline claims (by default host,
            pid and a random tail).

    Raises:
        ValueError: ``cache_size`` is below 1.

    Attributes:
        delivery: the delivery API over the same database, for the outbox dispatcher.
    """

    def __init__(
        self,
        db: Database,
        ruleset: Ruleset,
        *,
        apply: ApplyFn = engine.apply,
        new_game: NewGameFn = setup.new_game,
        announcer: Announcer | None = None,
        clock: Callable[[], datetime] = utcnow,
        deadlines: DeadlinePolicy | None = None,
        max_retries: int = 5,
        dice_factory: Callable[[GameState], Dice] | None = None,
        cache_size: int = DEFAULT_CACHE_SIZE,
        shards: Shards = ALL_SHARDS,
        process: str | None = None,
    ) -> None:
        if cache_size < 1:
            raise ValueError(f"cache_size must be at least 1, not {cache_size}")
        self.db = db
        self.ruleset = ruleset
        self._apply = apply
        self._new_game = new_game
        self.announcer: Announcer = announcer or PlainAnnouncer()
        self._clock = clock
        self.deadline_policy = deadlines or DeadlinePolicy()
        self._max_retries = max_retries
        self._dice_factory = dice_factory or seeded_dice
        self.cache_size = cache_size
        self._cache: OrderedDict[int, Cached] = OrderedDict()
        self._generations: dict[int, int] = {}
        self._locks = Locks()
        #: per campaign: the ``lock_seq`` this process last saw with nobody holding the lock
        #: (decision 0024); the cache is trusted only while the database still shows it
        self._lock_seen: dict[int, int] = {}
        self._checked_at: dict[int, float] = {}
        self._holding: set[int] = set()
        self.read_recheck = READ_RECHECK_SECONDS
        self._listeners: list[Callable[[int], None]] = []
        self._hold: ContextVar[WakeHold | None] = ContextVar("caedes_wake_hold", default=None)
        self.shards = shards
        self.process = process or process_name()
        self.deadline_claim_seconds = DEADLINE_CLAIM_SECONDS
        #: deadlines this service claimed (let go on a clean stop: ``release_claims``)
        self._claimed_deadlines: set[int] = set()
        self.delivery = Delivery(db, shards=shards, owner=self.process)

    def add_listener(self, callback: Callable[[int], None]) -> None:
        """Call ``callback(campaign_id)`` after every commit that may have queued outbox rows
        or deadlines (the outbox dispatcher's and scheduler's ``wake``)."""
        self._listeners.append(callback)

    def hold_wakes(self) -> WakeHold:
        """Hold back the listeners' calls of the current task (and of tasks it starts) until
        the returned hold is released.

        The Discord edge holds them while it answers an interaction, so that the outbox and
        the scheduler start on what an order queued only once its answer is sent, instead of
        competing with it. After the release, commits in the same task wake the listeners at
        once again.
        """
        hold = WakeHold(self._wake)
        self._hold.set(hold)
        return hold

    def _notify(self, campaign_id: int) -> None:
        """Wake the listeners after a commit of ``campaign_id`` (or hold it, see
        :meth:`hold_wakes`)."""
        hold = self._hold.get()
        if hold is not None and not hold.released:
            hold.hold(campaign_id)
            return
        self._wake(campaign_id)

    def _after_answer(self, work: Callable[[], None]) -> None:
        """Call ``work`` once the interaction being handled is answered (see
        :meth:`hold_wakes`), or now when none is held."""
        hold = self._hold.get()
        if hold is not None and not hold.released:
            hold.defer(work)
            return
        work()

    def _wake(self, campaign_id: int) -> None:
        for callback in self._listeners:
            try:
                callback(campaign_id)
            except Exception:  # a listener must never undo a committed order
                log.exception("listener failed after commit of campaign %s", campaign_id)

    @asynccontextmanager
    async def _campaign_lock(self, campaign_id: int) -> AsyncIterator[None]:
        """Hold the campaign's lock while the block changes it: this process's lock, then the
        database's (PostgreSQL: an advisory lock, so changes from every process sharing the
        database are made one at a time, decision 0024).

        Taking the database's lock checks the campaign's ``lock_seq``: if another process
        held it since this one last saw the campaign, the cached campaign is forgotten and
        the block reads it again. When more of this process's changes to the campaign are
        waiting, the database's lock passes to them without being let go, up to
        :data:`LOCK_BATCH` changes, so two busy processes take turns in batches rather than
        reloading the campaign at every change."""
        locks = self._locks
        locks.waiting[campaign_id] = locks.waiting.get(campaign_id, 0) + 1
        try:
            await locks.get(campaign_id).acquire()
        finally:
            locks.waiting[campaign_id] -= 1
        try:
            if self.db.locks is not None and campaign_id not in locks.held:
                held = await self.db.locks.acquire(campaign_id)
                if held.before % 2 or self._lock_seen.get(campaign_id) != held.before:
                    self.forget(campaign_id)
                locks.held[campaign_id] = [held, 0]
            self._holding.add(campaign_id)
            try:
                yield
            finally:
                self._holding.discard(campaign_id)
                entry = locks.held.get(campaign_id)
                if entry is not None:
                    entry[1] += 1
                    if locks.waiting.get(campaign_id, 0) == 0 or entry[1] >= LOCK_BATCH:
                        del locks.held[campaign_id]
                        await self._let_go(entry[0])
        finally:
            locks.get(campaign_id).release()

    async def _let_go(self, held: Held) -> None:
        assert self.db.locks is not None
        try:
            await self.db.locks.release(held)
        finally:
            self._lock_seen[held.campaign_id] = held.after
            self._checked_at[held.campaign_id] = time.monotonic()

    async def _still_current(self, campaign_id: int) -> bool:
        """Whether no other process changed the campaign since this one last saw it
        (its ``lock_seq`` in the database is the one seen)."""
        seq = await self.db.read(lambda conn: repo.lock_seq(conn, campaign_id))
        self._checked_at[campaign_id] = time.monotonic()
        return seq is not None and seq == self._lock_seen.get(campaign_id)

    def _cached(self, campaign_id: int) -> Cached | None:
        """The campaign's cached entry, now the most recently used; ``None`` if not cached."""
        cached = self._cache.get(campaign_id)
        if cached is not None:
            self._cache.move_to_end(campaign_id)
        return cached

    def _store(self, cached: Cached) -> None:
        """Cache ``cached`` (after a committed change, or changed in place) as the campaign's
        current entry, the most recently used; forget the least recently used beyond
        ``cache_size``."""
        campaign_id = cached.info.id
        self._generations[campaign_id] = self._generations.get(campaign_id, 0) + 1
        self._cache[campaign_id] = cached
        self._cache.move_to_end(campaign_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    async def _load(self, campaign_id: int) -> Cached:
        """The campaign from the cache, or read from the database (and cached).

        Raises:
            UnknownCampaign: no such campaign.
        """
        while True:
            cached = self._cached(campaign_id)
            if cached is not None:
                if (
                    self.db.shared
                    and campaign_id not in self._holding
                    and time.monotonic() - self._checked_at.get(campaign_id, 0.0)
                    > self.read_recheck
                ):
                    generation = self._generations.get(campaign_id, 0)
                    unchanged = await self._still_current(campaign_id)
                    if not unchanged and self._generations.get(campaign_id, 0) == generation:
                        self.forget(campaign_id)  # another process changed it
                        continue
                    cached = self._cached(campaign_id)
                    if cached is None:
                        continue
                return cached
            generation = self._generations.get(campaign_id, 0)
            loaded, seq = await self._read_campaign(campaign_id)
            if self._generations.get(campaign_id, 0) != generation:
                continue  # changed while it was read: what was read may be older
            current = self._cached(campaign_id)
            if current is not None and current.info.version >= loaded.info.version:
                return current  # another read of the same campaign came first
            self._cache[campaign_id] = loaded
            if campaign_id not in self._holding:
                # odd: a process holds the lock (or died holding it); trust nothing yet
                self._lock_seen[campaign_id] = seq if seq % 2 == 0 else -1
            self._checked_at[campaign_id] = time.monotonic()
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
            return loaded

    async def _read_campaign(self, campaign_id: int) -> tuple[Cached, int]:
        """The campaign read from the database, and its ``lock_seq`` in the same snapshot."""

        def _tx(
            conn: Connection,
        ) -> tuple[CampaignRecord, GameState, dict[str, int], list[DeadlineRecord], set[str]]:
            record = repo.load_campaign(conn, campaign_id)
            if record is None:
                raise UnknownCampaign(campaign_id)
            state = load_parts(record.parts)
            players = repo.players_of(conn, campaign_id)
            open_deadlines = repo.open_deadlines(conn, campaign_id)
            # a deadline the state still wants but that was acted on (a forfeited turn waiting
            # for a reaction) is closed, not missing: it must not be armed a second time
            open_keys = {d.decision_key for d in open_deadlines}
            missing = [k for k in self.deadline_policy.wanted(state) if k not in open_keys]
            armed = repo.existing_deadline_keys(conn, campaign_id, missing)
            return record, state, players, open_deadlines, armed

        record, state, players, open_deadlines, armed = await self.db.read(_tx, inline=True)
        cached = Cached(
            record.info,
            state,
            record.last_event_seq,
            players,
            frozenset(d.decision_key for d in open_deadlines) | armed,
            {d.decision_key: d.due_at for d in open_deadlines},
        )
        return cached, record.lock_seq

    def cached_campaigns(self) -> list[int]:
        """The ids of the campaigns in the cache, least recently used first."""
        return list(self._cache)

    def forget(self, campaign_id: int | None = None) -> None:
        """Drop cached states (all, or one campaign's); the next access reads the database."""
        ids = list(self._cache) if campaign_id is None else [campaign_id]
        for cid in ids:
            self._generations[cid] = self._generations.get(cid, 0) + 1
            self._cache.pop(cid, None)
