"""The outbox finds one queue's rows through ``ix_outbox_queue`` (decision 0010, addendum "the
queue index"): a delivery pass reads the queue's pending rows, and a take-over the channel's
last post, without reading every row the campaign ever queued. The migration that adds the
index keeps the rows and goes back down."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy import event

from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database, alembic_config, migrate_to_head
from caedes_bot.persistence.tables import outbox
from caedes_bot.service import RulesService
from tests.persistence.support import small_ruleset, sqlite_url, stand_in_new_game

BEFORE = "9e3c1a7b5d24"  # the outbox leases: the last revision without the queue index


def _plans(path: Path, read: Any) -> list[str]:
    """SQLite's query plan of every statement ``read(conn)`` runs on the outbox table."""
    engine = sa.create_engine(f"sqlite:///{path}")
    seen: list[tuple[str, Any]] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _keep(_conn: Any, _cursor: Any, statement: str, params: Any, *_: Any) -> None:
        if "FROM outbox" in statement:
            seen.append((statement, params))

    with engine.connect() as conn:
        read(conn)
        event.remove(engine, "before_cursor_execute", _keep)
        plans = [
            " / ".join(row[3] for row in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, params))
            for sql, params in seen
        ]
    engine.dispose()
    return plans


@pytest.mark.sqlite_only
def test_a_queues_pending_rows_and_a_channels_last_post_are_read_through_the_index(
    tmp_path: Path,
) -> None:
    path = tmp_path / "plans.db"
    migrate_to_head(sqlite_url(path))

    def queue(conn: Any) -> None:
        repo.outbox_queue(conn, 1, "orders:DAW")

    def last_post(conn: Any) -> None:
        repo.last_posted_message_id(conn, 1, "orders:DAW")

    for read in (queue, last_post):
        (plan,) = _plans(path, read)
        assert "USING INDEX ix_outbox_queue (campaign_id=? AND channel_key=? AND status=?)" in plan
        assert "SCAN" not in plan


async def _campaign_with_posts(path: Path) -> int:
    """A new campaign on ``path`` (its set-up queues outbox rows); how many rows it queued."""
    db = Database(sqlite_url(path))
    try:
        service = RulesService(db, small_ruleset(), new_game=stand_in_new_game)
        await service.create_campaign(1, "queued", "test", created_by=900, umpire_user_id=900)
    finally:
        await db.dispose()
    return _count(path)


def _count(path: Path) -> int:
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        found = int(conn.scalar(sa.select(sa.func.count()).select_from(outbox)) or 0)
    engine.dispose()
    return found


def _indexes(path: Path) -> set[str]:
    engine = sa.create_engine(f"sqlite:///{path}")
    found = {ix["name"] for ix in sa.inspect(engine).get_indexes("outbox") if ix["name"]}
    engine.dispose()
    return found


@pytest.mark.sqlite_only
async def test_the_migration_keeps_the_rows_and_goes_back_down(tmp_path: Path) -> None:
    path = tmp_path / "migrated.db"
    config = alembic_config(sqlite_url(path))
    await asyncio.to_thread(migrate_to_head, sqlite_url(path))
    queued = await _campaign_with_posts(path)
    assert queued > 0
    assert {"ix_outbox_queue", "ix_outbox_status_next_attempt_at"} <= _indexes(path)
    assert "ix_outbox_campaign_id" not in _indexes(path)
    await asyncio.to_thread(command.downgrade, config, BEFORE)
    assert "ix_outbox_queue" not in _indexes(path)
    assert "ix_outbox_campaign_id" in _indexes(path)
    assert _count(path) == queued
    await asyncio.to_thread(migrate_to_head, sqlite_url(path))
    assert "ix_outbox_queue" in _indexes(path)
    assert _count(path) == queued
