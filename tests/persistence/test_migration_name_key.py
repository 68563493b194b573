"""The migration that makes campaign names unique per guild keeps campaigns stored before it,
even twins that the old race let in, and then holds the rule in the database itself."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.exc import IntegrityError

from caedes_bot.persistence.db import alembic_config, migrate_to_head
from tests.persistence.support import sqlite_url

BEFORE = "553b04282aec"  # the initial schema, without campaigns.name_key


def _campaign(conn: sa.Connection, cid: int, guild: int, name: str, status: str) -> None:
    conn.execute(
        sa.text(
            "INSERT INTO campaigns (id, guild_id, name, scenario, status, state, version, "
            "last_event_seq, created_by, created_at, updated_at) VALUES (:id, :guild, :name, "
            "'skirmish', :status, '{}', 0, 0, 1, '2030-01-01', '2030-01-01')"
        ),
        {"id": cid, "guild": guild, "name": name, "status": status},
    )


def test_twins_stored_before_the_migration_survive_it(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    url = sqlite_url(path)
    command.upgrade(alembic_config(url), BEFORE)
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        _campaign(conn, 1, 7, "Twin", "setting_up")
        _campaign(conn, 2, 7, "twin ", "active")  # the race's twin
        _campaign(conn, 3, 7, "Twin", "finished")
        _campaign(conn, 4, 8, "Twin", "active")  # another guild
    migrate_to_head(url)
    with engine.begin() as conn:
        keys = dict(conn.execute(sa.text("SELECT id, name_key FROM campaigns")).all())
        assert keys == {1: "twin", 2: "twin #2", 3: "twin", 4: "twin"}
        names = [n for (n,) in conn.execute(sa.text("SELECT name FROM campaigns ORDER BY id"))]
        assert names == ["Twin", "twin ", "Twin", "Twin"]  # names are kept as they were
    # from now on the database refuses a second open campaign of one name in a guild
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(sa.text("UPDATE campaigns SET name_key = 'twin' WHERE id = 2"))
    with engine.begin() as conn:  # a finished campaign does not hold its name
        conn.execute(sa.text("UPDATE campaigns SET status = 'finished' WHERE id = 1"))
        conn.execute(sa.text("UPDATE campaigns SET name_key = 'twin' WHERE id = 2"))
    engine.dispose()
