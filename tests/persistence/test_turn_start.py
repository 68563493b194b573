"""Where the turn being played starts in the event log is kept on the campaign row
(``campaigns.turn_start_seq``), so reading a turn's events does not scan the whole log: the
migration fills it for campaigns stored before it, and every event row that begins a turn
moves it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command

from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database, alembic_config, migrate_to_head
from tests.persistence.support import sqlite_url

BEFORE = "8a1f5c2d9e47"  # the state as parts, no turn_start_seq yet
NOW = datetime(2030, 1, 1, tzinfo=UTC)


def _event(kind: str, n: int) -> tuple[dict[str, object], None]:
    return {"type": kind, "n": n}, None


def test_the_migration_finds_the_latest_turn_of_each_stored_campaign(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    command.upgrade(alembic_config(sqlite_url(path)), BEFORE)
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        for cid in (1, 2):
            conn.execute(
                sa.text(
                    "INSERT INTO campaigns (id, guild_id, name, name_key, scenario, status, "
                    "version, last_event_seq, created_by, created_at, updated_at) VALUES (:id, "
                    "7, :name, :name, 'skirmish', 'active', 0, 0, 1, '2030-01-01', '2030-01-01')"
                ),
                {"id": cid, "name": f"c{cid}"},
            )
        kinds = ["TurnBegan", "StepBegan", "TurnBegan", "UnitsBought", "StepBegan"]
        for seq, kind in enumerate(kinds, start=1):  # campaign 1: its turn began at event 3
            conn.execute(
                sa.text(
                    "INSERT INTO campaign_events (campaign_id, seq, order_seq, type, payload, "
                    "created_at) VALUES (1, :seq, 1, :type, '{}', '2030-01-01')"
                ),
                {"seq": seq, "type": kind},
            )
    migrate_to_head(sqlite_url(path))
    with engine.begin() as conn:
        starts = dict(conn.execute(sa.text("SELECT id, turn_start_seq FROM campaigns")).all())
    engine.dispose()
    assert starts == {1: 3, 2: 0}  # campaign 2 has no turn yet


async def test_the_events_of_the_current_turn_start_at_its_latest_turn_began(db: Database) -> None:
    def setup(conn: sa.Connection) -> int:
        cid = repo.insert_campaign(
            conn,
            guild_id=7,
            name="turns",
            scenario="skirmish",
            parts=[],
            created_by=1,
            umpire_user_id=None,
            now=NOW,
        )
        assert repo.events_of_current_turn(conn, cid) == []  # no turn has begun
        first = [_event("StepBegan", 1), _event("TurnBegan", 2), _event("StepBegan", 3)]
        repo.insert_events(conn, campaign_id=cid, first_seq=1, order_seq=1, events=first, now=NOW)
        later = [_event("UnitsBought", 4), _event("TurnBegan", 5), _event("StepBegan", 6)]
        repo.insert_events(conn, campaign_id=cid, first_seq=4, order_seq=2, events=later, now=NOW)
        return cid

    cid = await db.write(setup)
    turn = await db.read(lambda conn: repo.events_of_current_turn(conn, cid))
    assert [(e.seq, e.type) for e in turn] == [(5, "TurnBegan"), (6, "StepBegan")]


def _began(round_no: int, faction: str) -> tuple[dict[str, object], None]:
    return {"type": "TurnBegan", "round": round_no, "faction": faction}, None


async def test_a_turn_leaves_out_what_a_rollback_voided(db: Database) -> None:
    """R-PBP-UMP-01 (decision 0023): the Dawnians' turn of round 2 (orders 1 and 2) ended in
    order 3, which began the Orcs' turn; order 5 rolled back to order 2, the Dawnians went on
    (order 6) and ended their turn again (order 7). The Dawnians' turn is then orders 1, 2, 5
    and 6; the Orcs' is order 7 on, not the voided orders 3 and 4; the turn under way right
    after the rollback is the Dawnians'."""
    rows: list[list[tuple[dict[str, object], None]]] = [
        [_began(2, "DAW"), _event("StepBegan", 1)],
        [_event("UnitsBought", 2)],
        [_event("TurnEnded", 3), _began(2, "ORC")],
        [_event("UnitsBought", 4)],
        [({"type": "RolledBack", "to_seq": 2}, None)],
        [_event("UnitsMoved", 6)],
        [_event("TurnEnded", 7), _began(2, "ORC")],
    ]

    def setup(conn: sa.Connection, upto: int) -> int:
        cid = repo.insert_campaign(
            conn,
            guild_id=7,
            name=f"rolled {upto}",
            scenario="skirmish",
            parts=[],
            created_by=1,
            umpire_user_id=None,
            now=NOW,
        )
        seq = 1
        for order_seq, events in enumerate(rows[:upto], start=1):
            repo.insert_events(
                conn, campaign_id=cid, first_seq=seq, order_seq=order_seq, events=events, now=NOW
            )
            seq += len(events)
        return cid

    def orders(events: list[Any]) -> list[tuple[int, str]]:
        return [(e.order_seq, e.type) for e in events]

    just_rolled = await db.write(lambda conn: setup(conn, 5))
    turn = await db.read(lambda conn: repo.events_of_current_turn(conn, just_rolled))
    assert orders(turn) == [
        (1, "TurnBegan"),
        (1, "StepBegan"),
        (2, "UnitsBought"),
        (5, "RolledBack"),
    ]

    cid = await db.write(lambda conn: setup(conn, 7))
    daw = await db.read(lambda conn: repo.turn_events(conn, cid, 2, "DAW"))
    assert orders(daw) == [
        (1, "TurnBegan"),
        (1, "StepBegan"),
        (2, "UnitsBought"),
        (5, "RolledBack"),
        (6, "UnitsMoved"),
        (7, "TurnEnded"),
    ]
    orc = await db.read(lambda conn: repo.turn_events(conn, cid, 2, "ORC"))
    assert orders(orc) == [(7, "TurnBegan")]
    current = await db.read(lambda conn: repo.events_of_current_turn(conn, cid))
    assert orders(current) == [(7, "TurnBegan")]


async def test_a_continued_campaign_starts_with_the_turn_it_continues(db: Database) -> None:
    """Decision 0023: a campaign imported from an unfinished export begins with
    ``CampaignContinued`` in the Dawnians' turn of round 2, begun before the export; that turn's
    events start there, and so does the turn under way until the next turn begins."""

    def setup(conn: sa.Connection) -> int:
        cid = repo.insert_campaign(
            conn,
            guild_id=7,
            name="continued",
            scenario="skirmish",
            parts=[],
            created_by=1,
            umpire_user_id=None,
            now=NOW,
        )
        continued = [({"type": "CampaignContinued", "round": 2, "active": "DAW"}, None)]
        repo.insert_events(
            conn, campaign_id=cid, first_seq=1, order_seq=1, events=continued, now=NOW
        )
        repo.insert_events(
            conn,
            campaign_id=cid,
            first_seq=2,
            order_seq=2,
            events=[_event("UnitsBought", 2)],
            now=NOW,
        )
        return cid

    cid = await db.write(setup)
    current = await db.read(lambda conn: repo.events_of_current_turn(conn, cid))
    assert [(e.seq, e.type) for e in current] == [(1, "CampaignContinued"), (2, "UnitsBought")]
    ended = [_event("TurnEnded", 3), _began(2, "ORC")]
    await db.write(
        lambda conn: repo.insert_events(
            conn, campaign_id=cid, first_seq=3, order_seq=3, events=ended, now=NOW
        )
    )
    daw = await db.read(lambda conn: repo.turn_events(conn, cid, 2, "DAW"))
    assert [e.type for e in daw] == ["CampaignContinued", "UnitsBought", "TurnEnded"]
    assert await db.read(lambda conn: repo.turn_events(conn, cid, 1, "DAW")) == []
