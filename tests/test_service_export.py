"""Export, import, the verifier and the rollback through the service, on the shipped default
scenario with the campaign's own seeded dice (decision 0023; R-GEN-01, R-GEN-08, R-PBP-UMP-01).

A campaign plays its first game round (a battle rolls dice: ``play_first_round``), then:
* its export while under way holds no seed; once finished it does, and the verifier passes it;
  the same file with one die changed in a battle event fails, naming that order;
* the finished file imported makes a second campaign with the same logs, state and dice;
* an unfinished file imported continues in a new campaign with a fresh seed, committed;
* a rollback in game round 2 restores the state of its point without rewinding the dice, and a
  replay of the log reproduces it.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignStatus
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.exportfile import encode_export
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.dice import seed_commitment
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.replay import RollBack, RolledBack
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import EndStep
from caedes_bot.service import Actor, ImportRefused, RulesService
from caedes_bot.verify import verify
from tests.persistence.fixtures import db, db_template, db_url
from tests.test_service_game import PLAYER_DAW, UMPIRE, play_first_round

__all__ = ["db", "db_template", "db_url"]


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


@pytest.fixture
async def service(db: Database, rules: Ruleset) -> AsyncIterator[RulesService]:
    yield RulesService(db, rules)


async def _played(service: RulesService, name: str = "Real") -> int:
    info = await service.create_campaign(1, name, "default", UMPIRE, umpire_user_id=UMPIRE)
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.start(info.id, Actor(UMPIRE))
    await play_first_round(service, info.id)
    return info.id


def _doc(data: bytes) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(gzip.decompress(data))
    return doc


def _changed_die(doc: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The document with the face of the first battle die (``BattleStepResolved``, R-GEN-08)
    changed; returns it and the number of the order that rolled it."""
    for row in doc["events"]:
        event = row["event"]
        if event["type"] == "BattleStepResolved" and event["dice"]:
            die = event["dice"][0]
            die["value"] = die["value"] % 10 + 1
            return doc, row["order_seq"]
    raise AssertionError("no event of the campaign shows its dice")


async def test_export_hides_the_seed_until_the_end_then_verifies(
    service: RulesService, db: Database
) -> None:
    cid = await _played(service)
    state = await service.get_state(cid)
    seed = state.dice_seed
    _, mid_game = await service.export_campaign(cid, by=UMPIRE)
    assert seed.encode() not in gzip.decompress(mid_game)
    doc = _doc(mid_game)
    assert doc["schema"] == 2 and doc["dice"]["seed"] is None
    assert doc["dice"]["commitment"] == seed_commitment(seed)
    assert doc["dice"]["rolled"] == state.dice_rolls > 0
    assert doc["campaign"]["scenario"] == "default" and doc["options"] == doc["state"]["options"]
    assert len(doc["orders"]) == (await service.get_campaign(cid)).version
    assert len(doc["events"]) == len(await service.events(cid))
    passed, line = verify(mid_game, "mid.json.gz")
    assert not passed and "seed is not in this file" in line

    await service.set_status(cid, CampaignStatus.FINISHED, by=UMPIRE)
    name, finished = await service.export_campaign(cid, by=UMPIRE)
    assert name.endswith(".json.gz")
    assert _doc(finished)["dice"]["seed"] == seed
    passed, line = verify(finished, name)
    assert passed, line
    assert line.startswith("PASS: Real:") and seed_commitment(seed) in line

    changed, order_seq = _changed_die(_doc(finished))
    passed, line = verify(encode_export(changed), name)
    assert not passed and line.startswith(f"FAIL: Real: order {order_seq} ")

    wrong_seed = _doc(finished)
    wrong_seed["dice"]["seed"] = wrong_seed["state"]["dice_seed"] = "0" * 32
    passed, line = verify(encode_export(wrong_seed), name)
    assert not passed and "does not match the commitment" in line

    def _audit(conn: Connection) -> list[str]:
        return [r.action for r in repo.list_audit(conn, cid)]

    assert (await db.read(_audit)).count("campaign_exported") == 2


async def test_a_finished_campaign_imported_plays_identically(service: RulesService) -> None:
    cid = await _played(service)
    await service.set_status(cid, CampaignStatus.FINISHED, by=UMPIRE)
    _, data = await service.export_campaign(cid, by=UMPIRE)
    info, export = await service.import_campaign(1, "Again", data, UMPIRE)
    assert info.id != cid and info.status is CampaignStatus.FINISHED
    assert export.finished and export.schema == 2
    first, second = await service.get_state(cid), await service.get_state(info.id)
    assert second == first and second.dice_seed == first.dice_seed
    assert [e.payload for e in await service.events(info.id)] == [
        e.payload for e in await service.events(cid)
    ]
    service.forget()
    assert await service.replay(info.id) == first
    _, again = await service.export_campaign(info.id, by=UMPIRE)
    a, b = _doc(data), _doc(again)
    for key in ("state", "dice", "options"):
        assert a[key] == b[key]
    assert [o["order"] for o in a["orders"]] == [o["order"] for o in b["orders"]]
    assert [(o["dice_before"], o["dice_after"]) for o in a["orders"]] == [
        (o["dice_before"], o["dice_after"]) for o in b["orders"]
    ]
    assert [e["event"] for e in a["events"]] == [e["event"] for e in b["events"]]

    changed, _ = _changed_die(_doc(data))
    with pytest.raises(ImportRefused, match="does not replay as its file says"):
        await service.import_campaign(1, "Tampered", encode_export(changed), UMPIRE)


async def test_an_unfinished_campaign_continues_with_a_fresh_seed(
    service: RulesService, db: Database
) -> None:
    cid = await _played(service)
    old = await service.get_state(cid)
    _, data = await service.export_campaign(cid, by=UMPIRE)
    info, export = await service.import_campaign(1, "Continued", data, UMPIRE)
    assert export.seed is None and info.status is CampaignStatus.ACTIVE
    state = await service.get_state(info.id)
    assert state.dice_seed not in ("", old.dice_seed) and state.dice_rolls == 0
    assert (state.round, state.active, state.step) == (old.round, old.active, old.step)
    assert state.factions == old.factions and state.units == old.units and state.players == {}

    def _rows(conn: Connection) -> list[Any]:
        return repo.outbox_rows(conn, info.id)

    rows = await db.read(_rows)
    commit = [r for r in rows if r.dedupe_key == "dice:commitment"]
    assert len(commit) == 1 and seed_commitment(state.dice_seed) in commit[0].payload["content"]
    assert not [r for r in rows if state.dice_seed in str(r.payload)]

    def _audit(conn: Connection) -> list[str]:
        return [r.action for r in repo.list_audit(conn, info.id)]

    assert "campaign_imported" in await db.read(_audit)
    # the umpire plays on; the log replays from the continued state with the new seed
    await service.submit(info.id, Actor(UMPIRE), EndStep("DAW"))
    service.forget()
    assert await service.replay(info.id) == await service.get_state(info.id)


async def test_bad_files_are_refused_with_what_is_wrong(service: RulesService) -> None:
    cases = {
        b"not gzip at all": "not gzipped",
        gzip.compress(b"{not json"): "does not hold JSON",
        gzip.compress(b'{"hello": 1}'): "not a Caedes Bot campaign export",
        gzip.compress(b'{"format": "caedes-bot campaign", "schema": 9}'): "schema 9",
        gzip.compress(
            b'{"format": "caedes-bot campaign", "schema": 2, "campaign": {"name": "x", '
            b'"scenario": "default"}, "dice": {}, "state": {"round": "many"}, "orders": [], '
            b'"events": []}'
        ): "state in the file cannot be read",
    }
    for data, words in cases.items():
        with pytest.raises(ImportRefused, match=words) as refused:
            await service.import_campaign(1, "Bad", data, UMPIRE)
        assert "/campaign export" in (refused.value.allowed or "")
    assert await service.campaigns(guild_id=1) == []


async def test_r_pbp_ump_01_a_rollback_replays_exactly_and_never_rewinds_the_dice(
    service: RulesService,
) -> None:
    cid = await _played(service)
    daw, umpire = Actor(PLAYER_DAW), Actor(UMPIRE)
    start = await service.get_state(cid)
    assert (start.round, start.active, start.step) == (2, "DAW", Step.TRADE)
    points = await service.rollback_points(cid)
    assert points == []  # only the state now: the order that began round 2
    while (await service.get_state(cid)).step is not Step.BUY:
        await service.submit(cid, daw, EndStep("DAW"))
    rp = (await service.get_state(cid)).factions["DAW"].rp
    await service.submit(cid, daw, BuyUnits("DAW", "U-DAW-01", 1))
    bought = await service.get_state(cid)
    assert bought.factions["DAW"].rp == rp - 3
    points = await service.rollback_points(cid)
    before_buy = points[-1]
    assert before_buy.order_type == "EndStep" and points[0].order_type == "EndStep"

    result = await service.submit(cid, umpire, RollBack("UMPIRE", to_seq=before_buy.seq))
    back = result.state
    assert back.step is Step.BUY and back.factions["DAW"].rp == rp
    assert back.dice_rolls == bought.dice_rolls and back.next_id >= bought.next_id
    (event,) = [e for e in result.events if isinstance(e, RolledBack)]
    assert (event.to_seq, event.voided, event.active) == (before_buy.seq, 1, "DAW")
    with pytest.raises(RuleViolation, match="R-PBP-UMP-01"):
        await service.submit(cid, daw, RollBack("UMPIRE", to_seq=before_buy.seq))
    with pytest.raises(RuleViolation, match="not an earlier point"):
        await service.submit(cid, umpire, RollBack("UMPIRE", to_seq=1))

    await service.submit(cid, daw, BuyUnits("DAW", "U-DAW-01", 2))
    now = await service.get_state(cid)
    assert now.factions["DAW"].rp == rp - 6
    service.forget()
    assert await service.replay(cid) == now


async def test_hand_edited_files_are_refused_before_anything_is_stored(
    service: RulesService,
) -> None:
    """A finished export edited by hand, or cut short, is refused by the verifier and by the
    import in words, never with an exception (R-GEN-01): JSON nested too deeply, a file missing
    its gzip ending, rows whose numbers do not rise or whose capacity, faction, member or
    audience is of the wrong kind, and a private event made public (its dice and state are
    untouched, so only its audience tells it)."""
    cid = await _played(service)
    await service.set_status(cid, CampaignStatus.FINISHED, by=UMPIRE)
    _, data = await service.export_campaign(cid, by=UMPIRE)
    assert verify(data)[0]

    def edited(change: Any) -> bytes:
        doc = _doc(data)
        change(doc)
        return encode_export(doc)

    def _swap(doc: dict[str, Any]) -> None:
        doc["orders"][2], doc["orders"][3] = doc["orders"][3], doc["orders"][2]

    def _public(doc: dict[str, Any]) -> None:
        private = next(r for r in doc["events"] if r["audience"])
        private["audience"] = None

    cases: dict[str, tuple[bytes, str]] = {
        "deep": (gzip.compress(b"[" * 100_000), "nested too deeply"),
        "cut": (data[:-4], "cut short"),
        "swapped": (edited(_swap), "the numbers must rise"),
        "same event": (
            edited(lambda d: d["events"][1].update(seq=d["events"][0]["seq"])),
            "the numbers must rise",
        ),
        "capacity": (
            edited(lambda d: d["orders"][3].update(acting_as="king")),
            "given as 'king'; allowed: admin, player, system, umpire",
        ),
        "faction": (edited(lambda d: d["orders"][3].update(faction=["DAW"])), "not text"),
        "member": (edited(lambda d: d["orders"][3].update(actor="bob")), "not a number"),
        "audience": (
            edited(lambda d: d["events"][0].update(audience=5)),
            "not a list of factions",
        ),
        "made public": (edited(_public), "is seen by everyone in the file but by"),
    }
    for case, (bad, words) in cases.items():
        passed, line = verify(bad, "edited.json.gz")
        assert not passed and line.startswith("FAIL: ") and words in line, (case, line)
        assert "\n" not in line, case
        with pytest.raises(ImportRefused, match=words):
            await service.import_campaign(1, "Edited", bad, UMPIRE)
    assert [c.id for c in await service.campaigns(guild_id=1)] == [cid]


async def test_an_export_holds_only_the_logs_of_its_state(
    service: RulesService, db: Database, rules: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An order committed (by another process) after the export read the state but before it
    read the logs is left out, so the file's state is the end of its order log (R-GEN-01)."""
    cid = await _played(service)
    await service.get_state(cid)  # cached: the export starts from this state
    before = await service.get_campaign(cid)
    other = RulesService(db, rules)
    real_read = db.read
    raced: list[int] = []

    async def read_after_an_order(work: Any, *, inline: bool = False) -> Any:
        if not raced:
            raced.append(0)  # once: the other service's own reads come through here too
            done = await other.submit(cid, Actor(UMPIRE), EndStep("DAW"))
            raced[0] = len(done.events)
        return await real_read(work, inline=inline)

    monkeypatch.setattr(db, "read", read_after_an_order)
    _, data = await service.export_campaign(cid, by=UMPIRE)
    doc = _doc(data)
    assert raced and raced[0] > 0
    assert len(doc["orders"]) == before.version
    assert doc["orders"][-1]["dice_after"] == doc["dice"]["rolled"]
    assert doc["events"][-1]["seq"] == len(await other.events(cid)) - raced[0]


async def test_files_are_packed_and_unpacked_off_the_event_loop(
    service: RulesService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Building, packing and reading an export (up to 200 MB of JSON) run in a worker thread,
    never on the bot's event loop."""
    import threading

    from caedes_bot.service import exports

    threads: dict[str, bool] = {}

    def watched(name: str, real: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            threads[name] = threading.current_thread() is threading.main_thread()
            return real(*args, **kwargs)

        return run

    for name in ("build_export", "encode_export", "read_export"):
        monkeypatch.setattr(exports, name, watched(name, getattr(exports, name)))
    cid = await _played(service)
    _, data = await service.export_campaign(cid, by=UMPIRE)
    await service.import_campaign(1, "Elsewhere", data, UMPIRE)
    assert threads == {"build_export": False, "encode_export": False, "read_export": False}
