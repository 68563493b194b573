"""The schema: Alembic migrations agree with the models; SQLite connections are set up right."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from caedes_bot.persistence.db import Database, migrate_to_head
from caedes_bot.persistence.tables import Base
from tests.persistence.support import sqlite_url


def test_migrations_match_models(db_template: Path) -> None:
    """``alembic check``: a database upgraded to head has no difference from the models."""
    engine = sa.create_engine(f"sqlite:///{db_template}")
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diffs = compare_metadata(context, Base.metadata)
    engine.dispose()
    assert diffs == []


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


async def test_sqlite_pragmas_on_every_connection(db: Database) -> None:
    for engine in (db.writer, db.reader):
        async with engine.connect() as conn:
            assert await conn.scalar(sa.text("PRAGMA foreign_keys")) == 1
            assert await conn.scalar(sa.text("PRAGMA journal_mode")) == "wal"
            assert await conn.scalar(sa.text("PRAGMA synchronous")) == 1  # NORMAL
            assert await conn.scalar(sa.text("PRAGMA busy_timeout")) == 30_000


async def test_writer_has_one_connection(db: Database) -> None:
    """One writer (design.md section 4): a second write waits for the first to finish."""
    order: list[str] = []

    async def first() -> None:
        async with db.write():
            order.append("first in")
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            order.append("first out")

    async def second() -> None:
        async with db.write():
            order.append("second in")

    await asyncio.gather(first(), second())
    assert order == ["first in", "first out", "second in"]
