"""JSON round trips of the game state, orders and events (design.md section 4)."""

from __future__ import annotations

import json

import pytest

from caedes_bot.gamedata.model import Options, Terrain
from caedes_bot.persistence.mappers import (
    UnknownType,
    dump_event,
    dump_order,
    dump_state,
    load_event,
    load_order,
    load_state,
)
from caedes_bot.rules.state import CasualtiesDetail, DecisionKind, Step
from tests.persistence.support import StandInBump, StandInBumped, small_ruleset
from tests.rules.builders import state
from tests.rules.decision_samples import casualties, decision

_OWED = casualties(2, [(3, "ORC-INF", 1)], [3, 3], faction="ORC", space="b")


def _rich_state():  # type: ignore[no-untyped-def]
    rs = small_ruleset()
    st = state(
        rs,
        units=[("INF", "DAW", "a"), ("INF", "DAW", "a"), ("ORC-INF", "ORC", "b")],
        owners={"a": "DAW", "b": "ORC"},
        step=Step.COMBAT,
        rp={"DAW": 7, "ORC": 3},
    )
    st.options = Options(upkeep_exempt_types=("tower",), stalemate_rounds=5)
    st.units["1"].terrain = Terrain.PLAINS
    st.units["1"].path = ["b", "a"]
    st.units["2"].wounded = True
    st.factions["DAW"].commodities = {"grain": 2, "iron": 1}
    st.pending.append(decision(9, "ORC", _OWED, reaction=True))
    st.alliances = [["DAW", "ORC"]]
    st.fealty = {"ORC": "DAW"}
    st.dice_rolls = 17
    return st


def test_game_state_round_trips_through_json() -> None:
    st = _rich_state()
    text = dump_state(st)
    back = load_state(text)
    assert back == st
    assert isinstance(back.step, Step) and back.step is Step.COMBAT
    assert back.units["1"].terrain is Terrain.PLAINS
    assert back.options.upkeep_exempt_types == ("tower",)
    assert back.pending[0].detail == _OWED
    assert isinstance(back.pending[0].detail, CasualtiesDetail)
    assert back.pending[0].kind is DecisionKind.CASUALTIES
    # also from an already parsed document (what a JSON column returns)
    assert load_state(json.loads(text)) == st
    assert dump_state(back) == text


def test_orders_and_events_are_stored_with_their_class_name() -> None:
    order = StandInBump("DAW", amount=3, rolls=2)
    doc = dump_order(order)
    assert doc == {"type": "StandInBump", "faction": "DAW", "amount": 3, "rolls": 2}
    assert load_order(json.loads(json.dumps(doc))) == order

    event = StandInBumped("ORC", 4, (1, 10))
    edoc = dump_event(event)
    assert edoc == {"type": "StandInBumped", "faction": "ORC", "rp": 4, "dice": [1, 10]}
    assert load_event(json.loads(json.dumps(edoc))) == event


def test_unknown_stored_type_is_an_error() -> None:
    with pytest.raises(UnknownType):
        load_order({"type": "NoSuchOrder", "faction": "DAW"})
    with pytest.raises(UnknownType):
        load_event({"faction": "DAW"})
