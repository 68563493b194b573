"""The odds a battle message opens with, worked out after the order (option
``battle_message_odds``, R-COMBAT-16, issue 13, decision 0020).

The Dawnians send both Knights into Sarnath Fields (two Acherousian units) in the default
scenario. With the option on, the order that begins the battle posts its message with "being
worked out" and does no odds; after the commit the odds worker works them out and the
message is edited through the outbox once, with the same figures ``/odds`` gives for the
battle as it began; a second answer changes nothing. A battle that ended before its odds
came keeps its last embed, with the odds line in place. With the option off (the default),
nothing is asked for or worked out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import OutboxKind, OutboxRecord
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.rules.combat.events import BattleOddsAsked
from caedes_bot.rules.combat.orders import FightBattle
from caedes_bot.rules.dice import Dice, SeededDice
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.odds import battle_odds
from caedes_bot.rules.odds.planned import battle_now
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep, UmpireAdvance
from caedes_bot.service import Actor, RulesService, SubmitResult
from caedes_bot.service.odds import OddsWorker
from caedes_bot.ui.announcer import RichAnnouncer
from caedes_bot.ui.odds import OPENING_PENDING
from tests.persistence.fixtures import db, db_template, db_url

__all__ = ["db", "db_template", "db_url"]

UMPIRE = 900
PLAYER_DAW = 101
FIELDS = "sarnath-fields"


def fixed_dice(state: GameState) -> Dice:
    """Seeded dice with a seed of the test's own, resuming at the state's roll count: the
    campaign's own seed is drawn at random when it is made (R-GEN-01)."""
    return SeededDice("opening-odds", state.dice_rolls)


def service_with(db: Database, rules: Ruleset, on: bool) -> RulesService:
    return RulesService(
        db, with_option(rules, on), announcer=RichAnnouncer(), dice_factory=fixed_dice
    )


def with_option(rules: Ruleset, on: bool) -> Ruleset:
    scenario = rules.scenarios["default"]
    options = dataclasses.replace(scenario.options, battle_message_odds=on)
    return dataclasses.replace(
        rules,
        scenarios={**rules.scenarios, "default": dataclasses.replace(scenario, options=options)},
    )


@pytest.fixture(scope="module")
def shipped() -> Ruleset:
    return load_ruleset()


@pytest.fixture
async def worker() -> AsyncIterator[OddsWorker]:
    odds = OddsWorker(process=False)
    yield odds
    odds.close()


async def rows_of(db: Database, campaign_id: int) -> list[OutboxRecord]:
    def _tx(conn: Connection) -> list[OutboxRecord]:
        return repo.outbox_rows(conn, campaign_id)

    return await db.read(_tx)


async def until_battle(service: RulesService) -> tuple[int, GameState, SubmitResult]:
    """A campaign played to the Dawnians' battle at Sarnath Fields: its id, the state just
    before the order that begins it, and that order's result."""
    info = await service.create_campaign(
        1, "Odds", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.start(info.id, Actor(UMPIRE))
    daw, umpire = Actor(PLAYER_DAW), Actor(UMPIRE)
    moved = False
    for _ in range(100):
        state = await service.get_state(info.id)
        assert state.active == "DAW" and state.round == 1
        if state.pending:
            await service.submit(info.id, umpire, UmpireAdvance("DAW"))
        elif state.step is Step.MOVE and not moved:
            await service.submit(info.id, daw, MoveUnits("DAW", (5, 10), FIELDS))
            moved = True
        elif state.step is Step.COMBAT and state.battles_due:
            assert state.battles_due[0] == FIELDS
            began = await service.submit(info.id, daw, FightBattle("DAW", FIELDS))
            return info.id, state, began
        else:
            await service.submit(info.id, daw, EndStep("DAW"))
    raise AssertionError("the battle never began")


async def test_r_combat_16_opening_odds_after_the_order(
    db: Database, shipped: Ruleset, worker: OddsWorker
) -> None:
    """R-COMBAT-16, R-COMBAT-01, R-GEN-02: as in the module docstring (option on)."""
    service = service_with(db, shipped, True)
    service.attach_odds(worker)
    cid, before, began = await until_battle(service)
    after = began.state
    assert after.battle is not None
    battle_id = after.battle.id
    key = f"battle:{battle_id}"
    expected = battle_odds(before, service.ruleset, FIELDS)  # the battle as /odds sees it
    posted = [r for r in await rows_of(db, cid) if r.dedupe_key == key]
    assert len(posted) == 1
    assert posted[0].payload["embeds"][0]["description"].startswith(OPENING_PENDING)

    await service.settle_opening_odds()
    assert worker.computed == 1
    edits = [
        r
        for r in await rows_of(db, cid)
        if r.kind is OutboxKind.EDIT and r.payload.get("message_key") == key
    ]
    assert len(edits) == 1 and edits[0].payload["paced"] is True
    text = edits[0].payload["embeds"][0]["description"]
    wins = f"{expected.attacker_wins * 100:.1f}%"
    assert text.startswith("🎲 Odds at the start (exact): Dawnians take it " + wins), text
    assert edits[0].payload["components"], "the battle goes on: its controls are drawn again"

    # sent once: the same answer again writes nothing; nothing is left to resume
    stored = await db.read(lambda conn: repo.battle_odds_of(conn, cid, [battle_id]))
    opening = stored[battle_id]
    assert opening is not None and opening[0][0] == pytest.approx(expected.attacker_wins)
    asked = await db.read(lambda conn: repo.last_embed_of(conn, cid, key))
    assert asked is not None
    count = len(await rows_of(db, cid))
    request = BattleOddsAsked(battle_id, FIELDS, "DAW", ("ACH",), ())
    seq = began.order_seq
    assert not await service.note_opening_odds(cid, battle_id, seq, request, opening)
    assert not await service.note_opening_odds(cid, battle_id, seq + 1, request, opening)
    assert await service.resume_opening_odds() == 0
    assert len(await rows_of(db, cid)) == count

    # a later order draws the message with the odds from the table
    await service.submit(cid, Actor(UMPIRE), UmpireAdvance("DAW"))
    later = [
        r
        for r in await rows_of(db, cid)
        if r.kind is OutboxKind.EDIT and r.payload.get("message_key") == key
    ][-1]
    assert later.id > edits[0].id
    assert later.payload["embeds"][0]["description"].startswith(text.split("\n")[0])


async def test_r_combat_16_odds_and_the_battle_message_share_one_calculation(
    db: Database, shipped: Ruleset, worker: OddsWorker
) -> None:
    """R-COMBAT-16, issue 13: ``/odds`` for the attack being planned (no declarations given:
    the defaults) and the battle message of that battle as it begins (its declarations as a
    list, empty: nobody here declares) are one battle, worked out once."""
    service = service_with(db, shipped, True)
    service.attach_odds(worker)
    cid, before, began = await until_battle(service)
    assert began.state.battle is not None
    battle_id = began.state.battle.id
    await service.settle_opening_odds()
    assert worker.computed == 1
    planned = battle_now(before, service.ruleset, FIELDS)  # as /odds sets it up
    assert planned.declared is None
    answer = await worker.odds(planned.fighters, before.options, **planned.odds_arguments())
    assert worker.computed == 1
    stored = await db.read(lambda conn: repo.battle_odds_of(conn, cid, [battle_id]))
    opening = stored[battle_id]
    assert opening is not None and opening[0][0] == pytest.approx(answer.attacker_wins)


async def test_r_combat_16_a_battle_ended_before_its_odds_keeps_its_last_embed(
    db: Database, shipped: Ruleset, worker: OddsWorker
) -> None:
    """R-COMBAT-16: no worker while the battle is fought to its end (the bot stopped before
    the odds came); the next start works the odds out, and the message's last embed gets the
    odds line in place of "being worked out", nothing else changed (its controls are left)."""
    service = service_with(db, shipped, True)
    cid, _before, began = await until_battle(service)
    assert began.state.battle is not None
    battle_id = began.state.battle.id
    key = f"battle:{battle_id}"
    for _ in range(50):
        state = await service.get_state(cid)
        if state.battle is None and not any(d.battle_id == battle_id for d in state.pending):
            break
        await service.submit(cid, Actor(UMPIRE), UmpireAdvance("DAW"))
    shown = await db.read(lambda conn: repo.last_embed_of(conn, cid, key))
    assert shown is not None and shown["description"].startswith(OPENING_PENDING)
    assert (await service.get_state(cid)).battle is None  # ended: the state no longer has it

    service.attach_odds(worker)
    assert await service.resume_opening_odds() == 1
    await service.settle_opening_odds()
    last = (await rows_of(db, cid))[-1]
    assert last.kind is OutboxKind.EDIT and last.payload["message_key"] == key
    assert set(last.payload) == {"message_key", "embeds", "paced"}
    embed = last.payload["embeds"][0]
    first, _, rest = embed["description"].partition("\n")
    assert first.startswith("🎲 Odds at the start (exact): Dawnians take it ")
    assert rest == shown["description"].partition("\n")[2]
    assert embed["fields"] == shown["fields"] and embed["title"] == shown["title"]
    assert await service.resume_opening_odds() == 0


async def test_r_combat_16_option_off_asks_for_nothing(
    db: Database, shipped: Ruleset, worker: OddsWorker
) -> None:
    """R-COMBAT-16 at its default (off): the battle message has no odds line, nothing is
    asked for and the worker works nothing out."""
    service = service_with(db, shipped, False)
    service.attach_odds(worker)
    cid, _before, began = await until_battle(service)
    assert not [e for e in began.events if isinstance(e, BattleOddsAsked)]
    await service.settle_opening_odds()
    assert worker.computed == 0
    assert began.state.battle is not None
    battle_id = began.state.battle.id
    assert await db.read(lambda conn: repo.battle_odds_of(conn, cid, [battle_id])) == {}
    posted = [r for r in await rows_of(db, cid) if r.dedupe_key == f"battle:{battle_id}"]
    assert not posted[0].payload["embeds"][0]["description"].startswith("🎲")
