"""State documents saved by an earlier version of the bot still load, unchanged.

``saved/`` holds one state document per kind of pending decision, written by ``dump_state``
before decisions had typed details: a battle with two ``casualties`` decisions (one a
reaction), a battle waiting for ``press_or_withdraw`` with a unit that must stay, and step 4
waiting for ``upkeep_disband`` with a Hero among the candidates (R-COMBAT-06, R-COMBAT-08,
R-COMBAT-09, R-UPK-03). The state document carries no version number, so its shape is the
contract: each must load and dump back to the very same JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from caedes_bot.persistence.mappers import dump_state, load_state

SAVED = Path(__file__).parent / "saved"
KINDS = ("casualties", "press_or_withdraw", "upkeep_disband")


@pytest.mark.parametrize("kind", KINDS)
def test_a_saved_state_loads_and_dumps_back_the_same(kind: str) -> None:
    document = json.loads((SAVED / f"{kind}.json").read_text())
    state = load_state(document)
    assert state.pending and all(d.kind == kind for d in state.pending)
    assert json.loads(dump_state(state)) == document
    assert load_state(dump_state(state)) == state
