"""The migration that stores each campaign's state as parts (docs/decisions/0008) keeps every
campaign stored before it: a database made with the previous schema, its state documents
written as the old code wrote them (``dump_state`` into ``campaigns.state``), loads after the
migration as the very same state, replays from its order log to the same state and dice
(R-GEN-01), takes further orders, and goes back to one document per campaign on a downgrade.

The old-format fixtures: the saved documents of ``saved/`` (a battle with casualties owed, a
battle waiting for press or withdraw, an upkeep disband decision) and a skirmish played
through a fixed list of orders, with its order log.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.persistence.db import Database, alembic_config, migrate_to_head
from caedes_bot.persistence.mappers import dump_order, dump_state, load_state
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState
from caedes_bot.rules.turn import EndStep, StartCampaign
from caedes_bot.service import Actor, RulesService
from tests.persistence.support import sqlite_url
from tests.rules.test_sharing_properties import _apply, _order, _start

BEFORE = "3b9d2c4e8f10"  # campaign names and paused_at, the state still one document
SAVED = Path(__file__).parent / "saved"
KINDS = ("casualties", "press_or_withdraw", "upkeep_disband")
#: (order kind, pick) as ``tests/rules/test_sharing_properties.py`` plays them: a skirmish
#: into game round 2 with a battle fought (dice rolled), 29 orders taken
MOVES = [
    ("move", 48), ("buy", 2), ("act", 32), ("end", 25), ("act", 30), ("act", 37), ("act", 32),
    ("act", 18), ("act", 48), ("act", 39), ("act", 34), ("withdraw", 9), ("act", 6),
    ("act", 43), ("act", 30), ("fight", 6), ("act", 27), ("act", 39), ("forfeit", 13),
    ("fight", 30), ("end", 33), ("act", 3), ("fight", 0), ("act", 46), ("move", 45),
    ("forfeit", 0), ("withdraw", 31), ("act", 15), ("act", 45), ("act", 12), ("press", 14),
    ("act", 9), ("fight", 28), ("act", 5), ("act", 32), ("end", 6), ("act", 35), ("act", 45),
    ("act", 35), ("act", 34),
]  # fmt: skip


def _played() -> tuple[GameState, list[Order], list[tuple[int, int]]]:
    """A skirmish after a fixed list of orders: the state, the orders it took, and the dice
    count before and after each."""
    state = _start()  # StartCampaign is the first order of the log
    orders: list[Order] = [StartCampaign("umpire")]
    dice = [(0, state.dice_rolls)]
    for kind, pick in MOVES:
        order = _order(state, kind, pick)
        try:
            new = _apply(state, order)
        except RuleViolation:
            continue
        orders.append(order)
        dice.append((state.dice_rolls, new.dice_rolls))
        state = new
    return state, orders, dice


def _old_campaign(conn: sa.Connection, cid: int, scenario: str, state: GameState) -> None:
    conn.execute(
        sa.text(
            "INSERT INTO campaigns (id, guild_id, name, name_key, scenario, status, state, "
            "version, last_event_seq, created_by, created_at, updated_at) VALUES (:id, 7, "
            ":name, :name, :scenario, 'active', :state, :version, 0, 1, '2030-01-01', "
            "'2030-01-01')"
        ),
        {
            "id": cid,
            "name": f"old {cid}",
            "scenario": scenario,
            "state": dump_state(state),
            "version": 0,
        },
    )


def _old_orders(
    conn: sa.Connection, cid: int, orders: list[Order], dice: list[tuple[int, int]]
) -> None:
    for seq, (order, (before, after)) in enumerate(zip(orders, dice, strict=True), start=1):
        payload: dict[str, Any] = dump_order(order)
        conn.execute(
            sa.text(
                "INSERT INTO campaign_orders (campaign_id, seq, acting_as, faction, type, "
                "payload, dice_before, dice_after, created_at) VALUES (:cid, :seq, 'system', "
                ":faction, :type, :payload, :before, :after, '2030-01-01')"
            ),
            {
                "cid": cid,
                "seq": seq,
                "faction": order.faction,
                "type": payload["type"],
                "payload": json.dumps(payload),
                "before": before,
                "after": after,
            },
        )
    conn.execute(
        sa.text("UPDATE campaigns SET version = :v WHERE id = :cid"), {"v": len(orders), "cid": cid}
    )


def _old_database(path: Path) -> tuple[GameState, dict[int, GameState]]:
    """A database at the previous schema holding the played skirmish (campaign 1) and the
    saved documents (campaigns 2, 3, 4)."""
    command.upgrade(alembic_config(sqlite_url(path)), BEFORE)
    played, orders, dice = _played()
    saved = {
        cid: load_state(json.loads((SAVED / f"{kind}.json").read_text()))
        for cid, kind in enumerate(KINDS, start=2)
    }
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        _old_campaign(conn, 1, "skirmish", played)
        _old_orders(conn, 1, orders, dice)
        for cid, state in saved.items():
            _old_campaign(conn, cid, state.scenario, state)
    engine.dispose()
    return played, saved


async def test_campaigns_stored_before_load_replay_and_play_on_after_it(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    played, saved = await asyncio.to_thread(_old_database, path)
    assert played.dice_rolls > 0 and played.round == 2
    await asyncio.to_thread(migrate_to_head, sqlite_url(path))
    db = Database(sqlite_url(path))
    rules = load_ruleset()
    try:
        service = RulesService(db, rules)
        for cid, state in {1: played, **saved}.items():
            loaded = await service.get_state(cid)
            assert loaded == state
            assert dump_state(loaded) == dump_state(state)  # units and factions in their order
        replayed = await service.replay(1)  # check=True: dice counts and end state compared
        assert replayed == played
        assert replayed.dice_rolls == played.dice_rolls
        # it plays on, each order writing its parts, and reads back the same from the database
        active = played.active
        assert active is not None
        result = await service.submit(1, Actor.system_actor(), EndStep(active))
        assert result.state == _apply(played, EndStep(active))
        service.forget()
        assert await service.get_state(1) == result.state
        assert await service.replay(1) == result.state
    finally:
        await db.dispose()


def test_the_downgrade_joins_the_parts_into_one_document_again(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    played, saved = _old_database(path)
    url = sqlite_url(path)
    migrate_to_head(url)
    command.downgrade(alembic_config(url), BEFORE)
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        rows = dict(conn.execute(sa.text("SELECT id, state FROM campaigns")).all())
        tables = set(sa.inspect(conn).get_table_names())
    engine.dispose()
    assert "campaign_state_parts" not in tables
    for cid, state in {1: played, **saved}.items():
        assert json.loads(rows[cid]) == json.loads(dump_state(state))
        assert dump_state(load_state(rows[cid])) == dump_state(state)
