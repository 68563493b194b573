"""The schema: Alembic migrations agree with the models; SQLite connections are set up right."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection

from caedes_bot.persistence.db import Database, migrate_to_head, sync_url
from caedes_bot.persistence.tables import Base
from tests.persistence.support import sqlite_url


def test_migrations_match_models(db_url: str) -> None:
    """``alembic check``: a database upgraded to head has no difference from the models (on
    SQLite and on PostgreSQL, whose types and partial indexes differ)."""
    engine = sa.create_engine(sync_url(db_url))
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diffs = compare_metadata(context, Base.metadata)
    engine.dispose()
    assert diffs == []


async def test_the_tests_database_is_of_the_backend_asked(db: Database, db_backend: str) -> None:
    # the parametrised fixture really runs these tests on each store
    assert db.writer.dialect.name == db.reader.dialect.name == db_backend
    assert await db.read(lambda conn: conn.dialect.name) == db_backend


def test_migrate_to_head_twice_is_harmless(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "twice.db")
    migrate_to_head(url)
    migrate_to_head(url)
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'twice.db'}")
    with engine.connect() as conn:
        tables = set(sa.inspect(conn).get_table_names())
    engine.dispose()
    assert {"campaigns", "campaign_events", "campaign_orders", "outbox", "deadlines"} <= tables


async def test_migrate_to_head_refuses_inside_a_running_loop(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="own event loop"):
        migrate_to_head(sqlite_url(tmp_path / "x.db"))
    # the documented way from async code: a worker thread
    await asyncio.to_thread(migrate_to_head, sqlite_url(tmp_path / "x.db"))


def _pragmas(conn: Connection) -> tuple[object, ...]:
    return tuple(
        conn.scalar(sa.text(f"PRAGMA {name}"))
        for name in ("foreign_keys", "journal_mode", "synchronous", "busy_timeout")
    )


@pytest.mark.sqlite_only
async def test_sqlite_pragmas_on_every_connection(db: Database) -> None:
    # foreign keys on, WAL, synchronous NORMAL (1), 30 s busy timeout
    assert await db.write(_pragmas) == (1, "wal", 1, 30_000)
    assert await db.read(_pragmas) == (1, "wal", 1, 30_000)


async def test_one_writer_thread_runs_writes_one_at_a_time(db: Database) -> None:
    """One writer (design.md section 4): writes never overlap, and all run on one thread."""
    running: list[int] = []
    overlaps: list[int] = []
    threads: set[int] = set()

    def work(n: int) -> int:
        running.append(n)
        if len(running) > 1:
            overlaps.append(n)
        threads.add(threading.get_ident())
        time.sleep(0.001)
        running.remove(n)
        return n

    def task(n: int) -> Callable[[Connection], int]:
        return lambda _conn: work(n)

    results = await asyncio.gather(*(db.write(task(n)) for n in range(20)))
    assert results == list(range(20))
    assert overlaps == [] and len(threads) == 1


def test_async_urls_map_to_their_sync_drivers() -> None:
    assert str(sync_url("sqlite+aiosqlite:///x.db")) == "sqlite+pysqlite:///x.db"
    assert str(sync_url("postgresql+asyncpg://u@h/db")) == "postgresql+psycopg://u@h/db"
    assert str(sync_url("postgresql+psycopg://u@h/db")) == "postgresql+psycopg://u@h/db"
