"""A file of the older schema 1 still reads, verifies and imports (decision 0023).

``tests/data/export-schema1.json.gz`` is a finished campaign of the default scenario written in
schema 1 (seed at the top level, no commitment): the start, the Dawnians' steps up to step 5
Buy, and 2 Dawnian Infantry bought. By hand: 12 RP + 16 collected - 3 upkeep = 25 at step 5,
less 2 x 3 RP = 19 RP.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from caedes_bot.domain.records import CampaignStatus
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.exportfile import SCHEMA, check_export, read_export
from caedes_bot.rules import engine, setup
from caedes_bot.service import RulesService
from caedes_bot.verify import main as verify_main
from tests.persistence.fixtures import db, db_template, db_url

__all__ = ["db", "db_template", "db_url"]

FILE = Path(__file__).parent / "data" / "export-schema1.json.gz"


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


def test_a_schema_1_file_is_upgraded_and_verifies(
    rules: Ruleset, capsys: pytest.CaptureFixture[str]
) -> None:
    export = read_export(FILE.read_bytes())
    assert SCHEMA == 2 and export.schema == 1
    assert (export.seed, export.commitment) == ("schema-one-seed", None)
    assert export.state.factions["DAW"].rp == 19
    verdict = check_export(export, rules, engine.apply, setup.new_game)
    assert verdict.ok, verdict.line
    assert "schema-1 file has no published commitment" in verdict.line
    assert verify_main([str(FILE)]) == 0
    assert capsys.readouterr().out.startswith("PASS: Old Format:")


def test_a_missing_file_fails_the_verifier(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert verify_main([str(tmp_path / "none.json.gz")]) == 1
    assert capsys.readouterr().out.startswith("FAIL: ")


async def test_a_schema_1_file_imports(db: Database, rules: Ruleset) -> None:
    service = RulesService(db, rules)
    info, export = await service.import_campaign(1, "Old Again", FILE.read_bytes(), 900)
    assert info.status is CampaignStatus.FINISHED and export.schema == 1
    state = await service.get_state(info.id)
    assert state == export.state and state.factions["DAW"].rp == 19
    service.forget()
    # The file was written when only moves could be taken back, so its last order (a purchase)
    # left no undo record; today's rules keep one. What /undo could take back is not part of
    # the game, so the replay is compared without it.
    replayed = await service.replay(info.id)
    assert replace(replayed, undo_log=[]) == replace(state, undo_log=[])
