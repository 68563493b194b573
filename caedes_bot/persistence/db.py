"""Engines, connection set-up and migrations (design.md section 4).

One writer: every write of the bot (orders, outbox bookkeeping, deadlines, memberships) goes
through :meth:`Database.write`, which uses an engine holding exactly ONE connection
(``pool_size=1, max_overflow=0``). Writers therefore queue in the pool instead of racing for
SQLite's lock. On SQLite the writer opens its transactions with ``BEGIN IMMEDIATE`` so a read
made inside the transaction can never be stale; readers use plain ``BEGIN`` and see one WAL
snapshot. Reads that the Discord edge makes go through :meth:`Database.read` on a separate
pool, so they never wait for the writer.

Every SQLite connection gets ``foreign_keys=ON``, ``journal_mode=WAL``, ``busy_timeout`` and
``synchronous=NORMAL``. The same code runs on PostgreSQL (``postgresql+asyncpg://`` or
``postgresql+psycopg://``): nothing here but the pragmas is SQLite-specific.

:func:`migrate_to_head` runs Alembic; call it BEFORE the bot's event loop starts, because
Alembic's async ``env.py`` calls :func:`asyncio.run` (which cannot run inside a running loop).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

#: Milliseconds a SQLite connection waits for a lock before failing with "database is locked".
BUSY_TIMEOUT_MS = 30_000

#: Seconds a writer waits for the single writer connection before giving up.
WRITER_POOL_TIMEOUT_S = 300.0


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


def _sqlite_setup(engine: AsyncEngine, *, begin: str) -> None:
    """Pragmas on connect; SQLAlchemy (not the driver) emits ``begin`` to open a transaction."""

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # Take transaction control away from the driver (it would BEGIN late, after reads).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql(begin)


class Database:
    """The bot's two engines: one writer connection and a pool of readers.

    Attributes:
        url: the SQLAlchemy async URL.
        writer: engine with a single connection; use :meth:`write`.
        reader: engine for reads; use :meth:`read`.
    """

    def __init__(self, url: str, *, echo: bool = False, reader_pool_size: int = 5) -> None:
        self.url = url
        sqlite = is_sqlite(url)
        self.writer = create_async_engine(
            url,
            echo=echo,
            pool_size=1,
            max_overflow=0,
            pool_timeout=WRITER_POOL_TIMEOUT_S,
            json_serializer=json_serializer,
        )
        self.reader = create_async_engine(
            url,
            echo=echo,
            pool_size=reader_pool_size,
            max_overflow=reader_pool_size,
            json_serializer=json_serializer,
        )
        if sqlite:
            _sqlite_setup(self.writer, begin="BEGIN IMMEDIATE")
            _sqlite_setup(self.reader, begin="BEGIN")

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """One write transaction on the single writer connection; commits on success.

        Do not nest: a second :meth:`write` inside the first waits for the same connection.
        """
        async with self.writer.begin() as conn:
            yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """One read-only transaction (a consistent snapshot on SQLite WAL)."""
        async with self.reader.connect() as conn, conn.begin():
            yield conn

    async def dispose(self) -> None:
        """Close every connection."""
        await self.writer.dispose()
        await self.reader.dispose()


def repo_root() -> Path:
    """The project's root folder (where ``migrations/`` and ``pyproject.toml`` live)."""
    return Path(__file__).resolve().parents[2]


def alembic_config(url: str) -> Any:
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
