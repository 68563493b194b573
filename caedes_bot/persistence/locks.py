"""The per-campaign lock across processes (PostgreSQL advisory locks, decision 0024).

Several bot processes may share one PostgreSQL database. Whatever changes a campaign (an
order, an assignment, a pause, a deadline acted on) first takes the campaign's lock, a
session advisory lock ``pg_advisory_lock(LOCK_NAMESPACE, campaign_id)`` held on a connection
of its own, so the changes to one campaign from every process are made one at a time, in the
order asked (PostgreSQL queues the waiters), and none is refused. The lock is held only while
the service reads, applies and writes: never across a call to Discord. A process that dies
holding it (SIGKILL, a lost connection) lets it go with its session.

Taking the lock also tells whether the process's cache is still good: the campaign row's
``lock_seq`` is moved on by one when the lock is taken (odd: held) and by one when it is let
go (even). :class:`Held.before` is the value found; the service trusts its cached campaign
only if that is the even value it saw last (its own release, or its last read of the row),
and reloads it otherwise (another process changed it, or died holding the lock).

Each lock held pins one connection. Locks are taken on ``connections`` threads (a thread waits
while another process holds the lock) and let go on as many others, so letting go never waits
behind a thread that waits for a lock: the processes cannot deadlock on the threads.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

#: The first key of the campaigns' advisory locks (the second is the campaign id): "CAED".
LOCK_NAMESPACE = 0x43414544
#: The first key of the migrations' advisory lock (the second is 0): "MIGR".
MIGRATION_NAMESPACE = 0x4D494752

_LOCK = sa.text("SELECT pg_advisory_lock(:ns, :id)")
_UNLOCK = sa.text("SELECT pg_advisory_unlock(:ns, :id)")
_BUMP = sa.text("UPDATE campaigns SET lock_seq = lock_seq + 1 WHERE id = :id RETURNING lock_seq")


@dataclass(slots=True)
class Held:
    """A campaign's lock, held by this process.

    Attributes:
        campaign_id: the campaign.
        before: ``lock_seq`` when the lock was taken (even, unless a holder died; ``-1`` if
            there is no such campaign).
        after: ``lock_seq`` once let go (set by :meth:`CampaignLocks.release`).
    """

    campaign_id: int
    before: int
    after: int = -1
    connection: Any = None


class CampaignLocks:
    """Advisory locks per campaign over ``engine`` (PostgreSQL).

    Args:
        engine: a synchronous engine on the bot's database, with a pool of ``connections``.
        connections: locks held at once by this process (more wait for a connection).
    """

    def __init__(self, engine: Engine, *, connections: int) -> None:
        self._engine = engine
        self._take = ThreadPoolExecutor(connections, thread_name_prefix="caedes-lock-take")
        self._give = ThreadPoolExecutor(connections, thread_name_prefix="caedes-lock-give")

    def _acquire(self, campaign_id: int) -> Held:
        conn = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            conn.execute(_LOCK, {"ns": LOCK_NAMESPACE, "id": campaign_id})
            seq = conn.scalar(_BUMP, {"id": campaign_id})
        except BaseException:
            conn.invalidate()  # the session ends, and any lock with it
            conn.close()
            raise
        return Held(campaign_id, -1 if seq is None else int(seq) - 1, connection=conn)

    def _release(self, held: Held) -> None:
        conn: Connection = held.connection
        try:
            seq = conn.scalar(_BUMP, {"id": held.campaign_id})
            conn.execute(_UNLOCK, {"ns": LOCK_NAMESPACE, "id": held.campaign_id})
            held.after = -1 if seq is None else int(seq)
        except BaseException:
            conn.invalidate()  # the session ends, and the lock with it
            raise
        finally:
            conn.close()

    async def acquire(self, campaign_id: int) -> Held:
        """Wait for the campaign's lock and take it. If the awaiting task is cancelled, a lock
        taken meanwhile is let go at once."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._take, self._acquire, campaign_id)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:

            def _let_go(done: asyncio.Future[Held]) -> None:
                if not done.cancelled() and done.exception() is None:
                    loop.run_in_executor(self._give, self._release, done.result())

            future.add_done_callback(_let_go)
            raise

    async def release(self, held: Held) -> None:
        """Let the lock go (also when the awaiting task is cancelled)."""
        loop = asyncio.get_running_loop()
        await asyncio.shield(loop.run_in_executor(self._give, self._release, held))

    def close(self) -> None:
        """Stop the threads and close the connections (every lock must have been let go)."""
        self._take.shutdown(wait=True)
        self._give.shutdown(wait=True)
        self._engine.dispose()
