"""Every scenario file under tests/scenarios/ is a test: one parametrised test runs each case
(design.md section 6; how to write a case: README.md beside this file)."""

from __future__ import annotations

import pytest

from tests.scenarios import runner, schema

CASES = schema.collect()


def test_there_are_scenario_files() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("ref", CASES, ids=[ref.test_id for ref in CASES])
def test_scenario(ref: schema.CaseRef) -> None:
    runner.run(schema.load(ref))
