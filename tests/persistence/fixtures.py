"""Fixtures for storage and service tests: a migrated database per test, on SQLite and, when
a PostgreSQL server is given (``CAEDES_TEST_POSTGRES_URL``, see ``postgres.py``), on
PostgreSQL too.

``db_backend`` is parametrised by ``tests/conftest.py`` (``pytest_generate_tests``): every test
that uses ``db``, ``db_url`` or ``db_backend`` runs once per backend, except tests marked
``sqlite_only`` (about SQLite itself, or the Discord edge, where the store does not matter).
Without a server there are no PostgreSQL runs, and pytest says so in its header and summary.

Imported by `tests/persistence/conftest.py` and by the service and outbox test modules.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from caedes_bot.persistence.db import Database
from tests.persistence import postgres
from tests.persistence.support import make_template, migrated_copy

#: The stores the storage tests run against.
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_template(tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="session")
def pg_template() -> str:
    """The session's migrated PostgreSQL template database (the server must be given)."""
    server = postgres.server_url()
    assert server is not None
    return postgres.make_template(server)


@pytest.fixture
def db_backend(request: pytest.FixtureRequest) -> str:
    """``"sqlite"`` or ``"postgresql"`` (the latter only when a server is given)."""
    backend = str(getattr(request, "param", "sqlite"))
    if backend == "postgresql" and postgres.server_url() is None:
        pytest.skip(
            f"PostgreSQL runs skipped: no server ({postgres.POSTGRES_ENV} unset; "
            "scripts/test starts one when PostgreSQL is installed)"
        )
    return backend


@pytest.fixture
def db_url(db_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The async URL of a new migrated database (a SQLite file, or a PostgreSQL database)."""
    if db_backend == "sqlite":
        template: Path = request.getfixturevalue("db_template")
        yield migrated_copy(template, tmp_path / "caedes.db")
        return
    server = postgres.server_url()
    assert server is not None
    name = postgres.new_database(server, request.getfixturevalue("pg_template"))
    try:
        yield postgres.database_url(server, name)
    finally:
        postgres.drop_database(server, name)


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = Database(db_url)
    yield database
    await database.dispose()
