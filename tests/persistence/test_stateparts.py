"""The state stored as parts (docs/decisions/0008): split and joined back it is the same state,
in the same order; an order's changes name only the parts it changed.

The saved documents of ``saved/`` (a battle with casualties owed, a battle waiting for press
or withdraw, an upkeep disband decision) cover the battle, its step records and the pending
decisions; the property test of ``tests/rules/test_sharing_properties.py`` plays random orders
through the same diff.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caedes_bot.persistence.mappers import dump_state, load_state
from caedes_bot.persistence.stateparts import (
    ORD_STEP,
    Part,
    diff_state,
    join_parts,
    load_parts,
    split_state,
    unit_text,
)
from caedes_bot.rules.state import GameState, Unit
from tests.persistence.support import PartStore

SAVED = Path(__file__).parent / "saved"
KINDS = ("casualties", "press_or_withdraw", "upkeep_disband")


def _saved(kind: str) -> GameState:
    return load_state(json.loads((SAVED / f"{kind}.json").read_text()))


def _rows(parts: list[Part]) -> list[tuple[str, str]]:
    return [(p.key, p.doc) for p in sorted(parts, key=lambda p: p.ord)]


@pytest.mark.parametrize("kind", KINDS)
def test_a_state_split_into_parts_and_joined_is_the_same_state(kind: str) -> None:
    state = _saved(kind)
    parts = split_state(state)
    keys = {p.key for p in parts}
    assert {"game", "options", "owners", "pending"} <= keys
    assert {f"u:{key}" for key in state.units} <= keys
    assert {f"f:{code}" for code in state.factions} <= keys
    if state.battle is not None:
        assert {"battle"} | {f"r:{i}" for i in range(len(state.battle.records))} <= keys
    back = load_parts(_rows(parts))
    assert back == state
    assert dump_state(back) == dump_state(state)


def test_no_change_writes_nothing() -> None:
    state = _saved("casualties")
    changes = diff_state(state, state.clone(), 1)
    assert (changes.inserts, changes.updates, changes.reorders, changes.deletes) == ([], [], [], [])


def test_a_unit_wounded_writes_that_unit_alone() -> None:
    state = _saved("press_or_withdraw")
    new = state.clone()
    key = next(iter(new.units))
    for unit in new.units.values():  # every unit handed out (copied), one of them changed
        unit.wounded = unit.wounded or unit.id == int(key)
    changes = diff_state(state, new, 7)
    wounded = [k for k, _ in changes.updates]
    assert wounded == ([f"u:{key}"] if not state.peek_unit(int(key)).wounded else [])


def test_units_added_go_after_the_others_and_units_removed_are_deleted() -> None:
    state = _saved("upkeep_disband")
    store = PartStore(state)
    new = state.clone()
    first, second = list(new.units)[:2]
    unit = new.units.pop(first)
    new.units[str(new.next_id)] = type(unit)(new.next_id, unit.kind, unit.owner, unit.location)
    new.next_id += 1
    changes = diff_state(state, new, 3)
    assert changes.deletes == [f"u:{first}"]
    assert [(p.key, p.ord) for p in changes.inserts] == [(f"u:{new.next_id - 1}", 3 * ORD_STEP)]
    assert changes.reorders == []
    store.write(changes)
    assert dump_state(store.load()) == dump_state(new)
    assert next(iter(store.load().units)) == second


def test_a_dict_whose_order_changed_is_stored_in_its_new_order() -> None:
    state = _saved("casualties")
    store = PartStore(state)
    new = state.clone()
    first = next(iter(new.units))
    new.units[first] = new.units.pop(first)  # the same unit, now last
    code = next(iter(new.factions))
    new.factions[code] = new.factions.pop(code)
    changes = diff_state(state, new, 2)
    assert changes.updates == [] and changes.inserts == [] and changes.deletes == []
    assert changes.reorders
    store.write(changes)
    loaded = store.load()
    assert list(loaded.units) == list(new.units)
    assert list(loaded.factions) == list(new.factions)
    assert dump_state(loaded) == dump_state(new)


def test_a_battle_ending_deletes_it_with_its_records() -> None:
    state = _saved("press_or_withdraw")
    assert state.battle is not None and state.battle.records
    new = state.clone()
    new.battle = None
    changes = diff_state(state, new, 5)
    records = {f"r:{i}" for i in range(len(state.battle.records))}
    assert set(changes.deletes) == {"battle"} | records


#: Every field of a unit at its default, as stored unit parts take them (they leave them out).
_UNIT_DEFAULTS: dict[str, object] = {
    "wounded": False,
    "movement_used": 0,
    "move_ended": False,
    "entered_from": None,
    "path": [],
    "terrain": None,
    "muster_seq": 0,
    "aboard": None,
    "attacking": False,
    "flew": False,
    "embarked": False,
    "landed": False,
}


def test_a_unit_part_leaves_out_the_fields_at_their_defaults() -> None:
    unit = Unit(7, "U-DAW-01", "DAW", "brightholm")
    assert unit_text(unit) == '{"id":7,"kind":"U-DAW-01","owner":"DAW","location":"brightholm"}'
    moved = Unit(8, "U-DAW-04", "DAW", "brightholm", movement_used=2, path=["a", "b"], flew=True)
    assert json.loads(unit_text(moved)) == {
        "id": 8,
        "kind": "U-DAW-04",
        "owner": "DAW",
        "location": "brightholm",
        "movement_used": 2,
        "path": ["a", "b"],
        "flew": True,
    }
    state = _saved("press_or_withdraw")
    for part in split_state(state):
        if part.key.startswith("u:"):
            unit = state.peek_unit(int(part.key[2:]))
            at_default = {n for n, d in _UNIT_DEFAULTS.items() if getattr(unit, n) == d}
            assert not at_default & json.loads(part.doc).keys()


def test_the_defaults_stored_unit_parts_leave_out_are_pinned() -> None:
    """A stored unit part means what these defaults say: changing one of them changes every
    stored state, so it needs a data migration of the stored parts (decision 0009)."""
    defaults = {
        f.name: f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        for f in dataclasses.fields(Unit)
        if f.name not in ("id", "kind", "owner", "location")
    }
    assert defaults == _UNIT_DEFAULTS


def test_an_unknown_part_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown state part 'x:1'"):
        join_parts([("game", '{"scenario":"s","dice_seed":"d"}'), ("x:1", "{}")])


#: Changes made to a clone's units: ``(what, which unit by position, how many times)``.
_EDITS = st.lists(
    st.tuples(st.sampled_from(("wound", "remove", "add", "move_last")), st.integers(0, 30)),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(_EDITS, _EDITS)
def test_any_edit_of_the_units_is_stored_in_its_order(
    first: list[tuple[str, int]], second: list[tuple[str, int]]
) -> None:
    """Units wounded, removed, added or taken out and put back (which moves them last), over
    two orders in a row: the parts stored give the state in memory, its order included."""
    state = _saved("upkeep_disband")
    store = PartStore(state)
    for version, edits in enumerate((first, second), start=1):
        new = state.clone()
        for what, pick in edits:
            keys = list(new.units)
            key = keys[pick % len(keys)] if keys else None
            if what == "add" or key is None:
                uid = new.new_id()
                new.units[str(uid)] = Unit(uid, "U-DAW-01", "DAW", "x")
            elif what == "wound":
                new.units[key].wounded = not new.units[key].wounded
            elif what == "remove":
                del new.units[key]
            else:
                new.units[key] = new.units.pop(key)
        store.write(diff_state(state, new, version))
        assert dump_state(store.load()) == dump_state(new)
        state = new
