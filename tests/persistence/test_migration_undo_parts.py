"""The migration that stores the undo log as parts of its own (``undo:<i>``, decision 0009)
keeps every campaign stored before it: a campaign whose ``game`` part holds a log of two
purchases loads after the migration as the very same state, its log takes one more order and
gives one back (``/undo``), and a downgrade puts the log back into the ``game`` part."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import sqlalchemy as sa
from alembic import command

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.persistence.db import Database, alembic_config, migrate_to_head
from caedes_bot.persistence.mappers import dump_state
from caedes_bot.persistence.stateparts import diff_state, split_state
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep
from caedes_bot.rules.undo import UndoLastOrder
from caedes_bot.service import Actor, RulesService
from tests.persistence.support import sqlite_url
from tests.rules.test_sharing_properties import _apply, _start

BEFORE = "5d2b8e61f0a3"  # the state in parts, the undo log inside the game part


def _two_purchases() -> GameState:
    """A skirmish at the first faction's step 5 Buy, after two purchases (both undoable)."""
    state = _start()
    active = state.active
    assert active is not None
    while state.step < Step.BUY:
        state = _apply(state, EndStep(active))
    kind = next(k for k in load_ruleset().order_of_battle(active) if k.cost)
    for _ in range(2):
        state = _apply(state, BuyUnits(active, kind.id, 1))
    assert len(state.undo_log) == 2
    return state


def _old_parts(state: GameState) -> list[dict[str, object]]:
    """The state's parts as the previous version stored them: the log inside ``game``."""
    log = json.loads(dump_state(state))["undo_log"]
    rows = []
    for part in split_state(state):
        if part.key.startswith("undo:"):
            continue
        doc = part.doc
        if part.key == "game":
            doc = json.dumps({**json.loads(doc), "undo_log": log})
        rows.append({"key": part.key, "ord": part.ord, "doc": doc})
    return rows


def _old_database(path: Path, state: GameState) -> None:
    command.upgrade(alembic_config(sqlite_url(path)), BEFORE)
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO campaigns (id, guild_id, name, name_key, scenario, status, version, "
                "last_event_seq, created_by, created_at, updated_at) VALUES (1, 7, 'old', 'old', "
                "'skirmish', 'active', 0, 0, 1, '2030-01-01', '2030-01-01')"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO campaign_state_parts (campaign_id, key, ord, doc) "
                "VALUES (1, :key, :ord, :doc)"
            ),
            _old_parts(state),
        )
    engine.dispose()


def _keys(path: Path) -> dict[str, str]:
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        rows = conn.execute(sa.text("SELECT key, doc FROM campaign_state_parts")).all()
    engine.dispose()
    return {str(key): str(doc) for key, doc in rows}


async def test_an_undo_log_stored_before_loads_plays_on_and_goes_back(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    state = _two_purchases()
    await asyncio.to_thread(_old_database, path, state)
    await asyncio.to_thread(migrate_to_head, sqlite_url(path))
    parts = await asyncio.to_thread(_keys, path)
    assert "undo_log" not in json.loads(parts["game"])
    assert {k for k in parts if k.startswith("undo:")} == {"undo:0", "undo:1"}
    db = Database(sqlite_url(path))
    try:
        service = RulesService(db, load_ruleset())
        loaded = await service.get_state(1)
        assert loaded == state
        assert dump_state(loaded) == dump_state(state)
        active = state.active
        assert active is not None
        kind = state.factions[active].purchases[0]
        bought = await service.submit(1, Actor.system_actor(), BuyUnits(active, kind, 1))
        taken = await service.submit(1, Actor.system_actor(), UndoLastOrder(active))
        assert len(bought.state.undo_log) == 3 and len(taken.state.undo_log) == 2
        assert taken.state == _apply(
            _apply(state, BuyUnits(active, kind, 1)), UndoLastOrder(active)
        )
        service.forget()
        assert await service.get_state(1) == taken.state
    finally:
        await db.dispose()
    parts = await asyncio.to_thread(_keys, path)
    assert {k for k in parts if k.startswith("undo:")} == {"undo:0", "undo:1"}
    await asyncio.to_thread(command.downgrade, alembic_config(sqlite_url(path)), BEFORE)
    parts = await asyncio.to_thread(_keys, path)
    assert not [k for k in parts if k.startswith("undo:")]
    assert json.loads(parts["game"])["undo_log"] == json.loads(dump_state(taken.state))["undo_log"]


def test_an_undoable_order_writes_its_record_alone_and_a_step_ended_deletes_the_log() -> None:
    state = _two_purchases()
    active = state.active
    assert active is not None
    kind = state.factions[active].purchases[0]
    bought = _apply(state, BuyUnits(active, kind, 1))
    changes = diff_state(state, bought, 9)
    assert [p.key for p in changes.inserts if p.key.startswith("undo:")] == ["undo:2"]
    assert not [k for k, _ in changes.updates if k.startswith("undo:")]
    assert "undo_log" not in json.loads(next(d for k, d in changes.updates if k == "game"))
    ended = _apply(bought, EndStep(active))
    assert not ended.undo_log
    assert {k for k in diff_state(bought, ended, 10).deletes if k.startswith("undo:")} == {
        "undo:0",
        "undo:1",
        "undo:2",
    }
