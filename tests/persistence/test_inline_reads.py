"""Reads run inline on SQLite (decision 0009, addendum "reads inline"): a short read asked with
``inline=True`` runs on the caller's thread on a reader connection kept for it; every other
read, and every read when writes do not run inline, goes to a reader thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.persistence.db import Database

pytestmark = pytest.mark.sqlite_only

WAIT = 30.0  # seconds a test waits for the writer before failing (never reached when green)


def _where(conn: Connection) -> tuple[str, int]:
    return threading.current_thread().name, id(conn.connection.dbapi_connection)


def _count(conn: Connection) -> int:
    return int(conn.scalar(sa.text("SELECT count(*) FROM touched")) or 0)


def _touch(conn: Connection) -> None:
    conn.execute(sa.text("CREATE TABLE IF NOT EXISTS touched (n INTEGER)"))
    conn.execute(sa.text("INSERT INTO touched (n) VALUES (1)"))


@pytest.fixture
async def database(db_url: str) -> AsyncIterator[Database]:
    db = Database(db_url)
    yield db
    await db.dispose()


async def test_an_inline_read_runs_on_the_callers_thread_on_one_kept_connection(
    database: Database,
) -> None:
    here = threading.current_thread().name
    first = await database.read(_where, inline=True)
    second = await database.read(_where, inline=True)
    assert first[0] == second[0] == here
    assert first[1] == second[1]  # the same reader connection each time
    thread, _ = await database.read(_where)  # not asked inline: a reader thread
    assert thread.startswith("caedes-db-reader")


async def test_reads_go_to_a_reader_thread_when_writes_do_not_run_inline(db_url: str) -> None:
    db = Database(db_url, inline_writes=False)
    try:
        thread, _ = await db.read(_where, inline=True)
        assert thread.startswith("caedes-db-reader")
    finally:
        await db.dispose()


async def test_an_inline_read_sees_what_was_committed_and_nothing_uncommitted(
    database: Database,
) -> None:
    await database.write(_touch)
    assert await database.read(_count, inline=True) == 1
    await database.write(_touch)
    assert await database.read(_count, inline=True) == 2  # a new snapshot each read

    inside, release = threading.Event(), threading.Event()

    def held_write(conn: Connection) -> None:
        _touch(conn)
        inside.set()
        assert release.wait(WAIT)

    pending = asyncio.ensure_future(database.write(held_write, inline=False))
    assert await asyncio.to_thread(inside.wait, WAIT)
    try:
        # the writer holds its transaction open: the read neither waits for it nor sees it
        assert await database.read(_count, inline=True) == 2
    finally:
        release.set()
    await pending
    assert await database.read(_count, inline=True) == 3


async def test_a_failing_inline_read_changes_nothing_and_the_next_one_works(
    database: Database,
) -> None:
    await database.write(_touch)
    _, kept = await database.read(_where, inline=True)

    def refused(conn: Connection) -> None:
        conn.execute(sa.text("SELECT count(*) FROM touched"))
        raise LookupError("no such campaign")

    with pytest.raises(LookupError, match="no such campaign"):
        await database.read(refused, inline=True)
    assert await database.read(_count, inline=True) == 1
    assert (await database.read(_where, inline=True))[1] == kept  # still fit: kept

    with pytest.raises(sa.exc.OperationalError):
        await database.read(
            lambda conn: conn.execute(sa.text("SELECT * FROM nowhere")), inline=True
        )
    assert await database.read(_count, inline=True) == 1


async def test_an_invalidated_inline_connection_is_replaced(database: Database) -> None:
    await database.write(_touch)
    _, first = await database.read(_where, inline=True)
    held = database._inline_reader
    assert held is not None
    held.invalidate()
    assert await database.read(_count, inline=True) == 1
    _, second = await database.read(_where, inline=True)
    assert second != first


async def test_closing_closes_the_inline_connection(db_url: str, tmp_path: Path) -> None:
    db = Database(db_url)
    await db.write(_touch)
    assert await db.read(_count, inline=True) == 1
    held = db._inline_reader
    assert held is not None
    await db.dispose()
    assert held.closed
    assert db._inline_reader is None
    wal = tmp_path / "caedes.db-wal"  # beside the fixture's database file
    assert not wal.exists() or wal.stat().st_size == 0  # the final checkpoint was not held up
