"""Fixtures for storage and service tests: a migrated SQLite file per test.

Imported by `tests/persistence/conftest.py` and by the service and outbox test modules.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from caedes_bot.persistence.db import Database
from tests.persistence.support import make_template, migrated_copy


@pytest.fixture(scope="session")
def db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_template(tmp_path_factory.mktemp("db"))


@pytest.fixture
def db_url(db_template: Path, tmp_path: Path) -> str:
    return migrated_copy(db_template, tmp_path / "caedes.db")


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = Database(db_url)
    yield database
    await database.dispose()
