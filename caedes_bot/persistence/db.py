"""Engines, connection set-up, the writer thread and migrations (design.md section 4).

One writer: every write of the bot (orders, outbox bookkeeping, deadlines, memberships) runs
on ONE connection (``pool_size=1, max_overflow=0``), one at a time, so writes queue instead of
racing for SQLite's lock. A caller hands :meth:`Database.write` a plain function of a
``Connection``; the whole transaction runs as one piece: on SQLite at once on the event loop's
thread when the writer is free (about a millisecond), otherwise on the dedicated writer thread
behind the writes asked before it (through aiosqlite every statement is a hop: measured here
at about 0.5 ms each, several times the cost of the transaction itself). On SQLite the writer opens its
transactions with ``BEGIN IMMEDIATE``, so a read made inside the transaction can never be
stale; readers (a small thread pool, :meth:`Database.read`) use plain ``BEGIN`` and see one WAL
snapshot, and never wait for the writer. The writer alone checkpoints the WAL, on its own
connection, when it is idle (:mod:`caedes_bot.persistence.writer`).

Every SQLite connection gets ``foreign_keys=ON``, ``journal_mode=WAL``, ``busy_timeout`` and
``synchronous=NORMAL``. The configured URL is the async one the rest of the project uses
(``sqlite+aiosqlite://``, or ``postgresql+asyncpg://`` / ``postgresql+psycopg://``);
:func:`sync_url` maps it to the matching synchronous driver (pysqlite, psycopg). Nothing here
but the pragmas is SQLite-specific.

:func:`migrate_to_head` runs Alembic; call it BEFORE the bot's event loop starts, because
Alembic's async ``env.py`` calls :func:`asyncio.run` (which cannot run inside a running loop).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.pool import ConnectionPoolEntry

from caedes_bot.persistence.locks import CampaignLocks, Held
from caedes_bot.persistence.writer import (
    BUSY_CHECKPOINT_WRITES,
    IDLE_CHECKPOINT_SECONDS,
    WriterThread,
)

if TYPE_CHECKING:
    from alembic.config import Config

T = TypeVar("T")


#: Milliseconds a SQLite connection waits for a lock before failing with "database is locked".
BUSY_TIMEOUT_MS = 30_000

#: Campaign locks a process holds at once on PostgreSQL (each pins a connection).
LOCK_CONNECTIONS = 8

#: Async driver -> the synchronous driver of the same database.
SYNC_DRIVERS: dict[str, str] = {
    "aiosqlite": "pysqlite",
    "asyncpg": "psycopg",
    "psycopg_async": "psycopg",
}


class RawJSON(str):
    """A string that already holds JSON text: stored in a JSON column as it is.

    The service serialises the game state with pydantic straight to JSON text; wrapping it in
    ``RawJSON`` keeps SQLAlchemy's JSON type from encoding it a second time.
    """

    __slots__ = ()


def json_serializer(value: Any) -> str:
    """The engines' JSON serializer: :class:`RawJSON` passes through, anything else is dumped."""
    if isinstance(value, RawJSON):
        return str.__str__(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def is_sqlite(url: str | URL) -> bool:
    """Whether ``url`` names a SQLite database."""
    return make_url(url).get_backend_name() == "sqlite"


def sync_url(url: str | URL) -> URL:
    """The URL with its async driver replaced by the synchronous one (``aiosqlite`` ->
    ``pysqlite``, ``asyncpg``/``psycopg_async`` -> ``psycopg``); other URLs unchanged."""
    parsed = make_url(url)
    driver = SYNC_DRIVERS.get(parsed.get_driver_name())
    if driver is None:
        return parsed
    return parsed.set(drivername=f"{parsed.get_backend_name()}+{driver}")


def _make_engine(
    url: URL, *, pool_size: int, begin: str, echo: bool, autocheckpoint: bool = True
) -> Engine:
    sqlite = is_sqlite(url)
    engine = sa.create_engine(
        url,
        echo=echo,
        pool_size=pool_size,
        max_overflow=0,
        pool_timeout=600,
        json_serializer=json_serializer,
        connect_args={"check_same_thread": False} if sqlite else {},
    )
    if sqlite:

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
            # Take transaction control away from the driver (it would BEGIN late, after reads).
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            if not autocheckpoint:
                # the writer thread checkpoints when idle instead (persistence/writer.py)
                cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            conn.exec_driver_sql(begin)

    return engine


def _lock_engine(url: URL, *, pool_size: int, echo: bool) -> Engine:
    """The engine of the campaign locks (PostgreSQL): its commits (the ``lock_seq`` moves)
    need not wait for the disk, since losing one only makes a process reload a campaign."""
    engine = sa.create_engine(url, echo=echo, pool_size=pool_size, max_overflow=0, pool_timeout=600)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True
        cursor = dbapi_connection.cursor()
        cursor.execute("SET synchronous_commit = off")
        cursor.close()
        dbapi_connection.autocommit = autocommit

    return engine


class Database:
    """The bot's database: one writer thread with one connection, and a few reader threads.

    Args:
        url: the SQLAlchemy URL (async or sync driver; see :func:`sync_url`).
        echo: log every statement.
        readers: reader threads (and connections).
        idle_checkpoint: seconds of quiet after which the writer checkpoints the WAL
            (:mod:`caedes_bot.persistence.writer`).
        busy_checkpoint: writes after which a writer that is never idle checkpoints anyway.
        inline_writes: let a write run on the caller's thread when the writer is free
            (SQLite only: PostgreSQL's statements wait on the network, so there every write
            runs on the writer thread). See :meth:`write`.

    Attributes:
        url: the URL as given. writer: the writer's engine. reader: the readers' engine.
        writer_thread: the writer: its thread, where writes run unless they run inline,
            and its ``checkpoints`` (when and where each checkpoint ran).
    """

    def __init__(
        self,
        url: str,
        *,
        echo: bool = False,
        readers: int = 4,
        idle_checkpoint: float = IDLE_CHECKPOINT_SECONDS,
        busy_checkpoint: int = BUSY_CHECKPOINT_WRITES,
        inline_writes: bool = True,
    ) -> None:
        self.url = url
        target = sync_url(url)
        self._sqlite = is_sqlite(target)
        self.inline_writes = inline_writes and self._sqlite
        self.writer = _make_engine(
            target, pool_size=1, begin="BEGIN IMMEDIATE", echo=echo, autocheckpoint=False
        )
        # one connection more than reader threads: the one reads run inline use (read)
        self.reader = _make_engine(target, pool_size=readers + 1, begin="BEGIN", echo=echo)
        self.writer_thread = WriterThread(
            self._checkpoint if self._sqlite else None,
            idle_seconds=idle_checkpoint,
            busy_writes=busy_checkpoint,
        )
        self._read_threads = ThreadPoolExecutor(readers, thread_name_prefix="caedes-db-reader")
        self._held: Connection | None = None  # the writer's connection (_connection)
        #: the reader connection of the reads run inline, on the event loop's thread (read)
        self._inline_reader: Connection | None = None
        self.locks: CampaignLocks | None = None
        if not self._sqlite:
            self.locks = CampaignLocks(
                _lock_engine(target, pool_size=LOCK_CONNECTIONS, echo=echo),
                connections=LOCK_CONNECTIONS,
            )

    @property
    def shared(self) -> bool:
        """Whether other processes may use the database too (PostgreSQL; a SQLite file
        serves one process, :func:`claim_sqlite_file`)."""
        return not self._sqlite

    @asynccontextmanager
    async def campaign_lock(self, campaign_id: int) -> AsyncIterator[Held | None]:
        """Hold the campaign's lock across processes while the block runs (PostgreSQL: an
        advisory lock, :mod:`caedes_bot.persistence.locks`); it is let go when the block
        ends, also by an exception or a cancellation.

        Yields:
            The lock held (``before``: ``lock_seq`` when taken; ``after`` is set once the
            block has ended), or ``None`` on SQLite, where one process owns the file and
            the service's own per-campaign lock is enough.
        """
        if self.locks is None:
            yield None
            return
        held = await self.locks.acquire(campaign_id)
        try:
            yield held
        finally:
            await self.locks.release(held)

    def _connection(self) -> Connection:
        """The writer's connection, kept checked out of its pool from one write to the next
        (taking it from the pool and giving it back cost about a tenth of a millisecond a
        write, decision 0009). Used only by whoever holds the writer's lock (every write and
        checkpoint runs under it, :mod:`caedes_bot.persistence.writer`)."""
        conn = self._held
        if conn is None or conn.closed or conn.invalidated:
            if conn is not None:
                conn.close()
            conn = self._held = self.writer.connect()
        return conn

    def _let_go(self) -> None:
        """Give the writer's connection back to its pool (after a failed write, and when the
        database closes); the next write takes it again."""
        conn, self._held = self._held, None
        if conn is not None:
            conn.close()

    def _transaction(self, work: Callable[[Connection], T]) -> T:
        conn = self._connection()
        try:
            with conn.begin():
                return work(conn)
        except BaseException:
            self._let_go()  # whatever state the failure left it in, the pool resets it
            raise

    def _checkpoint(self, mode: str) -> tuple[int, tuple[int, int]]:
        """Copy the WAL back into the database file (SQLite), on the writer's connection (the
        pool holds only that one), outside any transaction. Run by the writer thread only.

        Returns:
            ``id()`` of the DBAPI connection used, and SQLite's frames (in the WAL, copied).
        """
        raw = self._connection().connection.dbapi_connection
        assert raw is not None
        cursor = raw.cursor()
        try:
            cursor.execute(f"PRAGMA wal_checkpoint({mode})")
            row = cursor.fetchone()
        finally:
            cursor.close()
        return id(raw), (int(row[1]), int(row[2])) if row else (-1, -1)

    async def write(self, work: Callable[[Connection], T], *, inline: bool = True) -> T:
        """Run ``work(conn)`` as one transaction on the writer connection; commit if it
        returns, roll back if it raises (the exception reaches the caller).

        Writes are serialised: one at a time, in the order asked. On SQLite, with
        ``inline_writes`` and ``inline``, a write asked while the writer has nothing queued or
        running runs at once on the event loop's thread (an order's transaction is about a
        millisecond; the two thread hand-offs cost more than that on a busy machine, decision
        0009); otherwise it runs on the writer thread, and if the awaiting task is cancelled
        once the transaction has started, it still completes (cancelled before it starts, it
        never runs).

        Args:
            work: the transaction's statements. It must not touch the event loop, nor wait for
                anything the loop does.
            inline: ``False`` for a write that may take long (an import), which must not hold
                the event loop up: it always goes to the writer thread.
        """
        job = partial(self._transaction, work)
        if inline and self.inline_writes:
            ran, result = self.writer_thread.run_inline(job)
            if ran:
                return cast(T, result)
        return await asyncio.wrap_future(self.writer_thread.submit(job))

    async def read(self, work: Callable[[Connection], T], *, inline: bool = False) -> T:
        """Run ``work(conn)`` in one read transaction (a consistent snapshot) on a reader
        thread; nothing it does is committed.

        Args:
            work: the transaction's statements; it must not touch the event loop.
            inline: a short read (one campaign's state, about a millisecond on SQLite) that
                runs at once on the caller's thread when writes do too (SQLite with
                ``inline_writes``), on a reader connection kept for such reads: the hand-off
                to a reader thread and back costs about as much as the read (decision 0009,
                "reads inline"). Anything else, and every read on PostgreSQL, where a read
                waits on the network, runs on a reader thread.
        """
        if inline and self.inline_writes:
            return self._read_inline(work)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._read_threads, self._read, work)

    def _read_inline(self, work: Callable[[Connection], T]) -> T:
        """:meth:`read` on the caller's thread, on the reader connection kept for it (only the
        event loop's thread reads inline, one read at a time: a read never awaits)."""
        conn = self._inline_reader
        if conn is None or conn.closed or conn.invalidated:
            if conn is not None:
                conn.close()
            conn = self._inline_reader = self.reader.connect()
        try:
            return _read_only(conn, work)
        except Exception:
            if conn.invalidated or conn.in_transaction():  # not fit for the next read
                self._inline_reader = None
                conn.close()  # the pool resets it
            raise

    def _read(self, work: Callable[[Connection], T]) -> T:
        with self.reader.connect() as conn:
            return _read_only(conn, work)

    async def dispose(self) -> None:
        """Checkpoint the whole WAL (SQLite), close every connection and stop the threads.

        A write asked once this has begun is refused (``RuntimeError``); the writes asked
        before it run first, and the final checkpoint comes after the last of them.
        """
        writer = self.writer_thread
        inline, self._inline_reader = self._inline_reader, None
        if inline is not None:
            inline.close()

        def last() -> None:
            if self._sqlite:
                writer.checkpoint("close", "TRUNCATE")
            self._let_go()
            self.writer.dispose()

        writer.stop(last)  # at once: a write asked from now on is refused
        await asyncio.to_thread(writer.close)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._read_threads, self.reader.dispose)
        self._read_threads.shutdown(wait=True)
        if self.locks is not None:
            await asyncio.to_thread(self.locks.close)


def _read_only(conn: Connection, work: Callable[[Connection], T]) -> T:
    """``work(conn)`` in one transaction that is always rolled back (a read: nothing it does
    is committed)."""
    with conn.begin() as tx:
        try:
            return work(conn)
        finally:
            tx.rollback()


class DatabaseInUse(Exception):
    """Another process uses this SQLite file already (:func:`claim_sqlite_file`)."""


class SqliteClaim:
    """This process's claim on a SQLite file: an exclusive ``flock`` on ``<file>-lock``
    beside it, held until :meth:`release` or the process ends (also by SIGKILL)."""

    def __init__(self, path: Path, handle: Any) -> None:
        self.path = path
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def claim_sqlite_file(url: str | URL) -> SqliteClaim | None:
    """Claim the SQLite file of ``url`` for this process, so that a second bot process on the
    same file is refused at start (one SQLite file has one writer: several processes need
    PostgreSQL, decision 0024).

    Returns:
        The claim (keep it for the life of the process), or ``None`` when ``url`` is not a
        SQLite file (PostgreSQL, or an in-memory database).

    Raises:
        DatabaseInUse: another process holds the file; the message is one line that names it.
    """
    import fcntl
    import os

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database).resolve()
    lock = path.with_name(path.name + "-lock")
    handle = open(lock, "a+", encoding="utf-8")  # noqa: SIM115 (held for the process)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "unknown"
        handle.close()
        raise DatabaseInUse(
            f"another Caedes Bot process (pid {holder}) is using the SQLite file {path}; a "
            "SQLite file serves one process: stop the other one, or use PostgreSQL for several"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return SqliteClaim(lock, handle)


def repo_root() -> Path:
    """The project's root folder (where ``migrations/`` and ``pyproject.toml`` live)."""
    return Path(__file__).resolve().parents[2]


def alembic_config(url: str) -> Config:
    """An Alembic ``Config`` for ``url`` that finds ``migrations/`` without the current folder."""
    from alembic.config import Config

    root = repo_root()
    toml = root / "pyproject.toml"
    config = Config(toml_file=str(toml)) if toml.exists() else Config()
    config.set_main_option("script_location", str(root / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def migrate_to_head(url: str) -> None:
    """Upgrade the database at ``url`` to the newest Alembic revision.

    Synchronous, and it runs its own event loop (Alembic's async ``env.py`` calls
    :func:`asyncio.run`): call it before the bot's loop starts, or from a worker thread.

    Raises:
        RuntimeError: called from a thread that is running an event loop.
    """
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError(
            "migrate_to_head runs its own event loop; call it before the bot starts "
            "or in a thread (asyncio.to_thread)"
        )
    from alembic import command

    command.upgrade(alembic_config(url), "head")
