"""``python -m caedes_bot.export``: a campaign's export written from the database, for whoever
runs the bot (decision 0023; R-PBP-UMP-01's export when the file is larger than Discord takes).

On SQLite and PostgreSQL: the file is the one ``/campaign export`` gives (the same campaign,
logs and state; no seed while under way), found by number or by name, never over an existing
file, and nothing is written to the database. A SQLite file a bot is using is refused with
what to do instead.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from caedes_bot import export
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database, claim_sqlite_file
from caedes_bot.service import Actor, RulesService
from tests.persistence.fixtures import db_template, db_url
from tests.test_service_game import PLAYER_DAW, UMPIRE

__all__ = ["db_template", "db_url"]


def _doc(data: bytes) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(gzip.decompress(data))
    doc.pop("exported_at", None)
    return doc


async def _campaign(url: str) -> tuple[int, bytes, int]:
    """A started campaign 'Seven Swords'; its export through the service and its audit size."""
    db = Database(url)
    try:
        service = RulesService(db, load_ruleset())
        info = await service.create_campaign(
            1, "Seven Swords", "default", UMPIRE, umpire_user_id=UMPIRE
        )
        await service.assign(info.id, PLAYER_DAW, "DAW")
        await service.start(info.id, Actor(UMPIRE))
        _, data = await service.export_campaign(info.id, by=UMPIRE)
        audit = await db.read(lambda conn: len(repo.list_audit(conn, info.id)))
    finally:
        await db.dispose()
    return info.id, data, audit


async def test_the_file_is_the_bots_export_by_number_or_name(db_url: str, tmp_path: Path) -> None:
    cid, by_bot, audit = await _campaign(db_url)
    written = await export.export_to(db_url, str(cid), tmp_path / "a.json.gz")
    assert written == tmp_path / "a.json.gz"
    doc = _doc(written.read_bytes())
    expected = _doc(by_bot)
    assert doc["dice"]["seed"] is None  # under way: no future die in the file
    assert doc == expected  # the same file but for the time it was made
    by_name = await export.export_to(db_url, "seven swords", tmp_path / "b.json.gz")
    assert _doc(by_name.read_bytes())["orders"] == doc["orders"]

    db = Database(db_url)
    try:  # nothing written: the audit log is as it was
        after = await db.read(lambda conn: len(repo.list_audit(conn, cid)))
    finally:
        await db.dispose()
    assert after == audit


async def test_bad_requests_say_what_is_wrong(db_url: str, tmp_path: Path) -> None:
    cid, _, _ = await _campaign(db_url)
    with pytest.raises(
        export.ExportFailed,
        match=r"no campaign 'Nowhere' in this database; there are: "
        rf"{cid} 'Seven Swords'",
    ):
        await export.export_to(db_url, "Nowhere", tmp_path / "x.json.gz")
    there = tmp_path / "there.json.gz"
    there.write_bytes(b"keep me")
    with pytest.raises(export.ExportFailed, match="exists already; name another file"):
        await export.export_to(db_url, str(cid), there)
    assert there.read_bytes() == b"keep me"


@pytest.mark.sqlite_only
async def test_a_sqlite_file_in_use_by_a_bot_is_refused(db_url: str, tmp_path: Path) -> None:
    cid, _, _ = await _campaign(db_url)
    claim = claim_sqlite_file(db_url)  # as bot.py does at start
    assert claim is not None
    try:
        with pytest.raises(export.ExportFailed, match=r"another Caedes Bot process .*\.backup"):
            await export.export_to(db_url, str(cid), tmp_path / "x.json.gz")
    finally:
        claim.release()
    assert not (tmp_path / "x.json.gz").exists()
    with pytest.raises(export.ExportFailed, match="there is no SQLite file"):
        await export.export_to("sqlite+aiosqlite:///" + str(tmp_path / "none.db"), "1", None)


@pytest.mark.sqlite_only
def test_the_command_line_prints_one_line(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    cid, _, _ = asyncio.run(_campaign(db_url))
    monkeypatch.setenv("CAEDES_DATABASE_URL", db_url)
    monkeypatch.chdir(tmp_path)
    assert export.main([str(cid)]) == 0
    line = capsys.readouterr().out
    assert line.startswith("Wrote seven-swords-") and line.endswith(" bytes).\n")
    assert export.main(["Elsewhere"]) == 1
    assert capsys.readouterr().out.startswith("FAIL: no campaign 'Elsewhere' in this database")
