"""One bot process per SQLite file: ``claim_sqlite_file`` (decision 0024)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from caedes_bot.persistence.db import DatabaseInUse, claim_sqlite_file
from tests.persistence.support import sqlite_url


def test_a_second_claim_of_one_file_is_refused_in_one_line(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "caedes.db")
    first = claim_sqlite_file(url)
    assert first is not None
    with pytest.raises(DatabaseInUse) as refused:
        claim_sqlite_file(url)
    message = str(refused.value)
    assert "\n" not in message
    assert f"pid {os.getpid()}" in message and str(tmp_path / "caedes.db") in message
    first.release()
    again = claim_sqlite_file(url)  # let go: the file may be claimed again
    assert again is not None
    again.release()


def test_other_files_and_other_databases_are_not_claimed(tmp_path: Path) -> None:
    one = claim_sqlite_file(sqlite_url(tmp_path / "one.db"))
    two = claim_sqlite_file(sqlite_url(tmp_path / "two.db"))
    assert one is not None and two is not None
    assert claim_sqlite_file("sqlite+aiosqlite://") is None  # in memory
    assert claim_sqlite_file("postgresql+asyncpg://u@h/db") is None  # several may share it
    one.release()
    two.release()
