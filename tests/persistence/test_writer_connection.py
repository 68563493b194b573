"""The writer keeps its one connection from one write to the next (decision 0009), on SQLite and
on PostgreSQL: a failed write gives it back to the pool, which resets it, and closing the
database closes it. Correctness only, never how long anything took."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.persistence.db import Database


def _identity(conn: Connection) -> int:
    conn.execute(sa.text("UPDATE campaigns SET name = name WHERE 1 = 0"))
    return id(conn.connection.dbapi_connection)


def _insert(n: int, *, fail: bool = False) -> Callable[[Connection], int]:
    def work(conn: Connection) -> int:
        conn.execute(sa.text("CREATE TABLE IF NOT EXISTS kept_rows (n INTEGER)"))
        conn.execute(sa.text("INSERT INTO kept_rows (n) VALUES (:n)"), {"n": n})
        if fail:
            raise ValueError("refused")
        return n

    return work


def _rows(conn: Connection) -> list[int]:
    return [int(n) for n in conn.scalars(sa.text("SELECT n FROM kept_rows ORDER BY n"))]


async def test_writes_share_one_connection_and_a_failed_one_leaves_nothing(db_url: str) -> None:
    db = Database(db_url)
    try:
        first = await db.write(_identity)
        assert await db.write(_identity) == first
        assert await db.write(_identity, inline=False) == first  # on the writer's thread too
        assert db.writer.pool.checkedout() == 1  # type: ignore[attr-defined]
        await db.write(_insert(1))
        with pytest.raises(ValueError, match="refused"):
            await db.write(_insert(2, fail=True))
        assert db.writer.pool.checkedout() == 0  # type: ignore[attr-defined]
        # the next write takes a connection again, in a clean transaction
        await db.write(_insert(3))
        assert await db.write(_rows) == [1, 3]
        assert await db.read(_rows) == [1, 3]
    finally:
        await db.dispose()
    assert db.writer.pool.checkedout() == 0  # type: ignore[attr-defined]


async def test_a_write_after_its_connection_was_lost_reconnects(db_url: str) -> None:
    """A connection the driver lost (invalidated) is not used again: the next write takes a
    new one."""
    db = Database(db_url)
    try:
        await db.write(_identity)

        def lose(conn: Connection) -> None:
            conn.invalidate()

        with pytest.raises(sa.exc.PendingRollbackError):
            await db.write(lose)
        await db.write(_identity)
        assert db.writer.pool.checkedout() == 1  # type: ignore[attr-defined]
        await db.write(_insert(7))
        assert await db.read(_rows) == [7]
    finally:
        await db.dispose()
