"""Alembic environment (async): migrates the Caedes Bot database.

The URL comes, in order, from ``-x url=...``, the ``sqlalchemy.url`` option set by
:func:`caedes_bot.persistence.db.migrate_to_head`, or the bot's settings
(``CAEDES_DATABASE_URL``). ``render_as_batch`` lets ALTERs work on SQLite.

This file calls :func:`asyncio.run`: run migrations before the bot's event loop starts.

On PostgreSQL the migrations run under an advisory lock, so that bot processes started at
once on one database migrate it once: the others wait, then find it at head (decision 0024).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from caedes_bot.persistence.locks import MIGRATION_NAMESPACE
from caedes_bot.persistence.tables import Base, UTCDateTime

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if url:
        return url
    from caedes_bot.settings import Settings

    return Settings().database_url


def _render_item(type_: str, obj: object, _autogen_context: object) -> str | bool:
    # Our UTC type is a plain timestamp with time zone in the schema; migrations must not
    # import application code.
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(**kwargs: object) -> None:
    context.configure(
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
        render_item=_render_item,
        **kwargs,  # type: ignore[arg-type]
    )


def run_migrations_offline() -> None:
    """Emit SQL to stdout instead of running it."""
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def _run_sync(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_async_engine(_url(), poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            if connection.dialect.name == "sqlite":
                await connection.exec_driver_sql("PRAGMA journal_mode=WAL")
            postgres = connection.dialect.name == "postgresql"
            if postgres:
                await connection.exec_driver_sql(
                    f"SELECT pg_advisory_lock({MIGRATION_NAMESPACE}, 0)"
                )
            await connection.run_sync(_run_sync)
            await connection.commit()
            if postgres:
                await connection.exec_driver_sql(
                    f"SELECT pg_advisory_unlock({MIGRATION_NAMESPACE}, 0)"
                )
                await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    """Connect and migrate."""
    asyncio.run(_run_async())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
