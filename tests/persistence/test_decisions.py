"""Pending decisions through the stored state: every kind's typed detail round-trips, and a
stored kind that does not match its detail is refused (design.md section 4; casualties
R-COMBAT-06, press_or_withdraw R-COMBAT-08, upkeep_disband R-UPK-03)."""

from __future__ import annotations

import json
from dataclasses import fields

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caedes_bot.persistence.mappers import dump_event, dump_state, load_event, load_state
from caedes_bot.rules.engine import TURN
from caedes_bot.rules.state import (
    DETAIL_TYPES,
    DecisionDetail,
    DecisionKind,
    GameState,
    PendingDecision,
)
from caedes_bot.rules.turn import DecisionDefaulted
from tests.rules.decision_samples import STRATEGIES, decision, details, press


def _state(*found: DecisionDetail) -> GameState:
    state = GameState(scenario="test", dice_seed="seed")
    state.pending = [decision(i + 1, "ORC", d, reaction=i % 2 == 0) for i, d in enumerate(found)]
    return state


@settings(max_examples=60, deadline=None)
@given(found=st.lists(details, max_size=4))
def test_every_kind_of_detail_round_trips_through_the_stored_state(
    found: list[DecisionDetail],
) -> None:
    state = _state(*found)
    text = dump_state(state)
    back = load_state(text)
    assert back == state
    for original, loaded in zip(state.pending, back.pending, strict=True):
        assert type(loaded.detail) is type(original.detail)
        assert loaded.kind is original.kind is original.detail.kind
    assert dump_state(back) == text
    assert load_state(json.loads(text)) == state


@pytest.mark.parametrize("kind", list(DecisionKind))
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_each_kind_is_stored_as_its_value_and_its_fields(
    kind: DecisionKind, data: st.DataObject
) -> None:
    """The stored shape: ``kind`` is the enum's value and ``detail`` an object of the detail
    class's fields in order, tuples as lists (as campaigns were saved before typed details)."""
    detail = data.draw(STRATEGIES[kind])
    (stored,) = json.loads(dump_state(_state(detail)))["pending"]
    assert stored["kind"] == kind.value
    assert list(stored["detail"]) == [f.name for f in fields(DETAIL_TYPES[kind])]


def test_every_kind_has_one_detail_class_a_default_answer_and_a_strategy() -> None:
    """R-PBP-DEAD-04: each kind can be answered by default; each is stored with its own class."""
    assert set(DETAIL_TYPES) == set(DecisionKind) == set(TURN.default_kinds) == set(STRATEGIES)
    assert all(cls.kind is kind for kind, cls in DETAIL_TYPES.items())
    assert len(set(DETAIL_TYPES.values())) == len(DecisionKind)


def test_a_decision_whose_detail_is_not_of_its_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="kind casualties"):
        PendingDecision(
            id=1, faction="DAW", kind=DecisionKind.CASUALTIES, reaction=False, detail=press([1])
        )
    document = json.loads(dump_state(_state(press([1], [2]))))
    document["pending"][0]["kind"] = "casualties"
    with pytest.raises(pydantic.ValidationError):
        load_state(document)


def test_a_stored_decision_defaulted_event_loads_with_its_kind() -> None:
    """R-PBP-DEAD-04: the event log holds the kind as its value, as before it was typed."""
    stored = {"type": "DecisionDefaulted", "faction": "ORC", "decision_id": 3, "kind": "casualties"}
    event = load_event(stored)
    assert event == DecisionDefaulted("ORC", 3, DecisionKind.CASUALTIES)
    assert isinstance(event, DecisionDefaulted) and event.kind is DecisionKind.CASUALTIES
    assert dump_event(event) == stored
