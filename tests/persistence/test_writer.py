"""The writer thread checkpoints SQLite's WAL itself, on its own connection, when it is idle
(design.md section 4: one writer; a second connection checkpointing is SQLite 3.40's WAL-reset
race). Correctness only: what ran, where and in what order, never how long it took."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.persistence.db import Database
from caedes_bot.persistence.writer import Checkpoint, WriterThread

# the writer's WAL checkpoints are SQLite's
pytestmark = pytest.mark.sqlite_only

WAIT = 30.0  # seconds a test waits for the writer before failing (never reached when green)


class Watch:
    """Collects the writer's checkpoints and lets a test wait for the next one."""

    def __init__(self, db: Database) -> None:
        self.seen: list[Checkpoint] = []
        self._event = threading.Event()
        db.writer_thread.on_checkpoint = self._record

    def _record(self, done: Checkpoint) -> None:
        self.seen.append(done)
        self._event.set()

    async def next(self) -> Checkpoint:
        assert await asyncio.to_thread(self._event.wait, WAIT), "no checkpoint came"
        self._event.clear()
        return self.seen[-1]


def _writer_identity(conn: Connection) -> tuple[int, str]:
    conn.execute(sa.text("UPDATE campaigns SET name = name WHERE 0"))
    return id(conn.connection.dbapi_connection), threading.current_thread().name


def _touch(n: int) -> Callable[[Connection], int]:
    def work(conn: Connection) -> int:
        conn.execute(sa.text("CREATE TABLE IF NOT EXISTS touched (n INTEGER)"))
        conn.execute(sa.text("INSERT INTO touched (n) VALUES (:n)"), {"n": n})
        return n

    return work


@pytest.fixture
async def idle_db(db_url: str) -> AsyncIterator[Database]:
    """A database whose writer checkpoints after 10 ms of quiet and never when busy."""
    database = Database(db_url, idle_checkpoint=0.01, busy_checkpoint=1_000_000)
    yield database
    await database.dispose()


async def test_the_writer_connection_never_checkpoints_on_its_own(idle_db: Database) -> None:
    """No commit pays for an automatic checkpoint: the writer's is off."""
    assert await idle_db.write(lambda c: c.scalar(sa.text("PRAGMA wal_autocheckpoint"))) == 0


async def test_an_idle_writer_checkpoints_on_its_own_connection(idle_db: Database) -> None:
    watch = Watch(idle_db)
    connection, thread = await idle_db.write(_writer_identity, inline=False)
    inline_connection, _ = await idle_db.write(_writer_identity)  # the writer is free: inline
    await idle_db.write(_touch(1))
    done = await watch.next()
    assert done.reason == "idle"
    assert done.connection == connection == inline_connection  # one writer connection
    assert done.thread == thread and thread.startswith("caedes-db-writer")
    assert done.writes >= 1 and done.frames[0] > 0
    # nothing more is written: no more checkpoints, whatever the wait
    assert idle_db.writer_thread.checkpoints == watch.seen


async def test_no_checkpoint_while_writes_are_queued(idle_db: Database) -> None:
    """Writes queued behind one another run back to back; the checkpoint comes after them."""
    watch = Watch(idle_db)
    gate = threading.Event()

    def blocker(_conn: Connection) -> int:
        assert gate.wait(WAIT)
        return -1

    first = asyncio.ensure_future(idle_db.write(blocker, inline=False))
    await asyncio.sleep(0)  # the blocker is queued first
    rest = [asyncio.ensure_future(idle_db.write(_touch(n))) for n in range(10)]
    await asyncio.sleep(0)
    gate.set()
    assert await asyncio.gather(first, *rest) == [-1, *range(10)]
    done = await watch.next()
    assert [(c.reason, c.writes) for c in watch.seen] == [("idle", 11)]
    assert done.frames[0] > 0


async def test_a_writer_that_is_never_idle_checkpoints_every_busy_writes(db_url: str) -> None:
    database = Database(db_url, idle_checkpoint=3600.0, busy_checkpoint=5)
    try:
        results = await asyncio.gather(*(database.write(_touch(n)) for n in range(12)))
        assert results == list(range(12))
        reasons = [(c.reason, c.writes) for c in database.writer_thread.checkpoints]
        assert reasons == [("busy", 5), ("busy", 5)]
    finally:
        await database.dispose()
    assert database.writer_thread.checkpoints[-1].reason == "close"


async def test_closing_checkpoints_the_whole_wal(db_url: str, tmp_path: Path) -> None:
    database = Database(db_url, idle_checkpoint=3600.0)
    await database.write(_touch(1))
    await database.dispose()
    last = database.writer_thread.checkpoints[-1]
    assert last.reason == "close" and last.frames[0] == last.frames[1]
    wal = tmp_path / "caedes.db-wal"  # beside the fixture's database file
    assert not wal.exists() or wal.stat().st_size == 0
    with pytest.raises(RuntimeError, match="closed"):
        database.writer_thread.submit(lambda: None)


async def test_a_write_runs_inline_when_the_writer_is_free(idle_db: Database) -> None:
    """Decision 0009 (third addendum): nothing queued or running, so the transaction runs at
    once on the caller's thread, on the writer's connection; the quiet after it is counted
    from that write and the thread checkpoints it."""
    watch = Watch(idle_db)
    connection, _ = await idle_db.write(_writer_identity, inline=False)
    await watch.next()
    ran: list[str] = []

    def work(conn: Connection) -> int:
        ran.append(threading.current_thread().name)
        return _touch(7)(conn)

    assert await idle_db.write(work) == 7
    assert ran == [threading.current_thread().name]
    done = await watch.next()  # counted: the thread checkpoints the inline write
    assert (done.reason, done.writes, done.connection) == ("idle", 1, connection)
    assert done.thread.startswith("caedes-db-writer")


async def test_a_write_asked_behind_queued_ones_waits_its_turn(idle_db: Database) -> None:
    """While a write is queued or running on the thread, a later write is not run inline
    ahead of it: writes keep the order in which they were asked."""
    gate = threading.Event()
    order: list[int] = []

    def blocker(_conn: Connection) -> int:
        assert gate.wait(WAIT)
        order.append(0)
        return 0

    def step(n: int) -> Callable[[Connection], int]:
        def work(_conn: Connection) -> int:
            order.append(n)
            return n

        return work

    first = asyncio.ensure_future(idle_db.write(blocker, inline=False))
    await asyncio.sleep(0)
    later = asyncio.ensure_future(idle_db.write(step(1)))  # inline allowed, but not its turn
    await asyncio.sleep(0)
    assert order == []
    gate.set()
    assert await asyncio.gather(first, later) == [0, 1]
    assert order == [0, 1]
    assert await idle_db.write(step(2)) == 2  # free again: inline
    assert order == [0, 1, 2]


async def test_an_inline_write_that_fails_rolls_back_and_frees_the_writer(
    idle_db: Database,
) -> None:
    def failing(conn: Connection) -> None:
        _touch(5)(conn)
        raise ValueError("refused")

    await idle_db.write(_touch(1))
    with pytest.raises(ValueError, match="refused"):
        await idle_db.write(failing)
    assert await idle_db.write(lambda c: c.scalar(sa.text("SELECT count(*) FROM touched"))) == 1
    assert await idle_db.write(_touch(2), inline=False) == 2


async def test_no_write_runs_inline_when_inline_writes_are_off(db_url: str) -> None:
    database = Database(db_url, inline_writes=False)
    try:
        _, thread = await database.write(_writer_identity)
        assert thread.startswith("caedes-db-writer")
    finally:
        await database.dispose()


async def test_closing_runs_the_writes_asked_before_then_refuses_new_ones(
    db_url: str, tmp_path: Path
) -> None:
    """dispose() while writes are queued: those run, the final checkpoint comes after the last
    of them (the WAL is empty), and a write asked once dispose() has begun is refused instead
    of being written after the final checkpoint on a connection nobody closes."""
    database = Database(db_url, idle_checkpoint=3600.0)
    await database.write(_touch(0))
    gate = threading.Event()

    def blocker(conn: Connection) -> int:
        assert gate.wait(WAIT)
        return _touch(1)(conn)

    queued = [asyncio.ensure_future(database.write(blocker, inline=False))]
    await asyncio.sleep(0)  # the blocker runs on the thread
    queued += [asyncio.ensure_future(database.write(_touch(n))) for n in range(2, 6)]
    await asyncio.sleep(0)  # queued behind it
    closing = asyncio.ensure_future(database.dispose())
    await asyncio.sleep(0)  # dispose() has begun
    for inline in (True, False):
        with pytest.raises(RuntimeError, match="closed"):
            await database.write(_touch(99), inline=inline)
    gate.set()
    assert await asyncio.gather(*queued) == [1, 2, 3, 4, 5]
    await closing
    last = database.writer_thread.checkpoints[-1]
    assert last.reason == "close" and last.frames[0] == last.frames[1]
    assert last.thread.startswith("caedes-db-writer")
    wal = tmp_path / "caedes.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    again = Database(db_url)
    try:
        touched = await again.read(
            lambda c: [r[0] for r in c.execute(sa.text("SELECT n FROM touched ORDER BY rowid"))]
        )
    finally:
        await again.dispose()
    assert touched == [0, 1, 2, 3, 4, 5]  # each once, in the order asked, none after the end


def test_a_job_submitted_while_the_writer_stops_runs_or_is_refused() -> None:
    """A job handed over while another thread stops the writer is never queued behind the
    end (where it would never run and its caller would wait for ever)."""
    writer = WriterThread(None)
    real = writer._jobs
    closer = threading.Thread(target=writer.close)

    class StopsMidPut:
        """The writer's queue; the first job put starts another thread stopping the writer
        and gives it the chance to finish first."""

        def put(self, item: object) -> None:
            if isinstance(item, tuple) and not closer.is_alive():
                closer.start()
                closer.join(0.2)  # it cannot finish while submit holds the writer's count
            real.put(item)

        def get(self, timeout: float | None = None) -> object:
            return real.get(timeout=timeout)

    writer._jobs = StopsMidPut()  # type: ignore[assignment]
    future = writer.submit(lambda: "ran")
    assert future.result(timeout=WAIT) == "ran"
    closer.join(WAIT)
    writer.close()
    with pytest.raises(RuntimeError, match="closed"):
        writer.submit(lambda: None)
