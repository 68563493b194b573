"""State documents saved by an earlier version of the bot still load, unchanged.

``saved/`` holds one state document per kind of pending decision, written by ``dump_state``
before decisions had typed details: a battle with two ``casualties`` decisions (one a
reaction), a battle waiting for ``press_or_withdraw`` with a unit that must stay, and step 4
waiting for ``upkeep_disband`` with a Hero among the candidates (R-COMBAT-06, R-COMBAT-08,
R-COMBAT-09, R-UPK-03). The state document carries no version number, so its shape is the
contract: each must load and dump back to the very same JSON, but for the fields added to the
state since they were saved (:data:`ADDED_SINCE`), which an old document loads with their
defaults.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from caedes_bot.persistence.mappers import dump_state, load_state

SAVED = Path(__file__).parent / "saved"
KINDS = ("casualties", "press_or_withdraw", "upkeep_disband")

#: Fields added to the state since the documents were saved, by path (``*``: every key), each
#: with the value an old document loads with: the only differences allowed in the dump.
ADDED_SINCE: dict[str, object] = {
    "options.upkeep_waits": False,  # R-TURN-02, R-UPK-02 (decision 0007)
    "factions.*.disband_marks": [],  # R-UPK-02 (decision 0007)
    "battle.start_done": 0,  # R-COMBAT-03 (round-start phase); only where a battle is saved
    "options.battle_message_odds": False,  # R-COMBAT-16 (issue 13)
    "units.*.flew": False,  # R-ATTR-FLY-02 (a unit that flew in this turn)
    "units.*.embarked": False,  # R-MOVE-15 (boarding moves)
    "units.*.landed": False,  # R-MOVE-15, R-COMBAT-09, R-MOVE-20 (boarding moves)
    "factions.*.diviner_bonuses": [],  # R-MAGIC-DIV-01 (bonuses waiting for step 3)
    "undo_log": [],  # /undo: the active faction's orders that may be taken back
    "options_next": None,  # R-SETUP-04 (the umpire's option changes for the next turn start)
    "battle.no_summons": [],  # R-MAGIC-SUMM-01 ("no summons this battle")
    "pact_proposals": [],  # R-ALLY-01, R-ALLY-02, R-FEAL-01 (pacts waiting)
    "parting": [],  # R-ALLY-05 (former partners who must leave or attack)
    "neighbour_view": [],  # R-PBP-NEG-03 (neighbours as last judged)
    "neighbour_judged": 0,  # R-PBP-NEG-03
    "players": {},  # R-VIC-01 (who holds which faction)
    "early_end": None,  # R-VIC-04 (the umpire's early end waiting for the vote)
    "stats": {},  # issue 15: each faction's statistics (decision 0021)
    "stats_battles": {},
    "scenario_events_done": [],  # R-SETUP-01 (scenario events that happened, decision 0026)
    "turn_start_waits": False,  # R-ATTR-MERC-01 (a turn start waiting for Mercenary choices)
    # R-COMBAT-12 and the battle magics (decision 0015)
    "battle.standing": [],
    "battle.illusion_rules": {},
    "battle.declared": [],
    "battle.abjured": [],
    "battle.illusion_used": [],
    "battle.enchant_successes": [],
    "battle.enchanted": [],
    "battle.notes": [],
    "battle.records.*.absorbed": [],
    "battle.records.*.dice.*.purpose": "normal",
    "battle.records.*.dice.*.own_side": False,
    "battle.records.*.dice.*.rerolled": False,
    "battle.records.*.dice.*.replaces": None,
    "battle.records.*.dice.*.void": False,
}


def _add(node: Any, path: list[str], value: object) -> None:
    head, rest = path[0], path[1:]
    keys: list[Any] = list(range(len(node))) if isinstance(node, list) else list(node)
    for key in keys if head == "*" else [head]:
        if rest:
            if node[key] is not None:  # e.g. no battle under way: nothing to add to
                _add(node[key], rest, value)
        else:
            assert key not in node, f"{key} was saved already: drop it from ADDED_SINCE"
            node[key] = copy.deepcopy(value)


def _as_loaded(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with the fields added since it was saved, at their defaults."""
    loaded = copy.deepcopy(document)
    for path, value in ADDED_SINCE.items():
        _add(loaded, path.split("."), value)
    return loaded


@pytest.mark.parametrize("kind", KINDS)
def test_a_saved_state_loads_and_dumps_back_the_same(kind: str) -> None:
    document = json.loads((SAVED / f"{kind}.json").read_text())
    state = load_state(document)
    assert state.pending and all(d.kind == kind for d in state.pending)
    assert json.loads(dump_state(state)) == _as_loaded(document)
    assert load_state(dump_state(state)) == state
