"""A PostgreSQL server for the storage tests, when one is given: ``CAEDES_TEST_POSTGRES_URL``
(set by ``scripts/test``, which starts a throwaway server when PostgreSQL is installed).

One database migrated by Alembic is made per test session and used as the template of a new
database for each test (``CREATE DATABASE ... TEMPLATE``), dropped after it: every test starts
from an empty, migrated schema, as the SQLite tests do with a copied file.
"""

from __future__ import annotations

import itertools
import os

import psycopg
from sqlalchemy.engine import make_url

from caedes_bot.persistence.db import migrate_to_head

#: The environment variable naming the server (any database on it; the tests make their own).
POSTGRES_ENV = "CAEDES_TEST_POSTGRES_URL"

_numbers = itertools.count(1)


def server_url() -> str | None:
    """The server's URL from the environment, or ``None``."""
    return os.environ.get(POSTGRES_ENV) or None


def database_url(server: str, name: str, driver: str = "asyncpg") -> str:
    """The URL of database ``name`` on ``server``, with ``driver`` (the bot's async URL)."""
    url = make_url(server).set(drivername=f"postgresql+{driver}", database=name)
    return url.render_as_string(hide_password=False)


def _admin(server: str) -> psycopg.Connection[tuple[object, ...]]:
    libpq = make_url(database_url(server, "postgres")).set(drivername="postgresql")
    return psycopg.connect(libpq.render_as_string(hide_password=False), autocommit=True)


def make_template(server: str) -> str:
    """A new database migrated to head (the session's template); returns its name."""
    name = f"caedes_template_{os.getpid()}"
    with _admin(server) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    migrate_to_head(database_url(server, name))
    return name


def new_database(server: str, template: str | None = None) -> str:
    """A new database (a copy of ``template``, or empty); returns its name."""
    name = f"caedes_test_{os.getpid()}_{next(_numbers)}"
    with _admin(server) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if template is None:
            conn.execute(f'CREATE DATABASE "{name}"')
        else:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
    return name


def drop_database(server: str, name: str) -> None:
    """Drop database ``name``, closing whatever connections are still open on it."""
    with _admin(server) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
