"""What ``/move`` and ``/fly`` offer while typing (R-MOVE-01, R-MOVE-02, R-ATTR-FLY-01,
R-ATTR-AMPH-01): destinations with their cost and any battle, and ``via`` spaces on a route."""

from __future__ import annotations

import pytest

from caedes_bot.cogs._routes import parse_via, route_choices, via_choices
from caedes_bot.rules.errors import UnknownName
from caedes_bot.rules.state import BlitzDetail, DecisionKind, PendingDecision, Step
from caedes_bot.ui.embeds import panel_components
from tests.rules.builders import kind, ruleset, state

KINDS = [
    kind("CAV", "DAW", "cavalry"),
    kind("FLY", "DAW", attributes=["flying"]),
    kind("AMPH", "DAW", attributes=["amphibian"]),
    kind("ORCI", "ORC"),
]
RS = ruleset(
    provinces={"a": ("plains",), "b": ("plains",), "c": ("plains",), "isle": ("plains",)},
    borders=[("a", "b"), ("b", "c")],
    seas=["sea"],
    coasts=[("a", "sea"), ("isle", "sea")],
    kinds=KINDS,
)


def _labels(choices: list[tuple[str, str]]) -> dict[str, str]:
    return {value: label for label, value in choices}


def test_r_move_02_destinations_carry_their_cost_and_battles() -> None:
    """R-MOVE-01, R-MOVE-02: cavalry (2) reaches b for 1 and c, held by Orcs, for 2: a battle."""
    st = state(RS, units=[("CAV", "DAW", "a"), ("ORCI", "ORC", "c")])
    labels = _labels(route_choices(st, RS, "DAW", [1], ""))
    assert set(labels) == {"b", "c"}
    assert "1 movement" in labels["b"] and "battle" not in labels["b"]
    assert "2 movement, starts a battle" in labels["c"]


def test_r_attr_fly_01_and_amph_01_flights_and_crossings_are_labelled() -> None:
    """R-ATTR-FLY-01: a flight to the island over the sea is 2 spaces; R-ATTR-AMPH-01: the
    Amphibian unit's way there is a sea crossing; via offers the sea zone for it."""
    st = state(RS, units=[("FLY", "DAW", "a"), ("AMPH", "DAW", "a")])
    assert "2 flight" in _labels(route_choices(st, RS, "DAW", [1], "", flying=True))["isle"]
    assert "sea crossing" in _labels(route_choices(st, RS, "DAW", [2], ""))["isle"]
    assert ("Sea", "Sea") in via_choices(st, RS, [2], "")
    assert parse_via(RS, "sea") == ("sea",)
    with pytest.raises(UnknownName):
        parse_via(RS, "nowhere")


def test_r_attr_blitz_02_the_panel_offers_the_blitz() -> None:
    """R-ATTR-BLITZ-02: with a blitz pending in step 7, the turn panel offers where the cavalry
    may go on from b (a, 1 space back; c, held by Orcs: a battle) and a button to stop."""
    st = state(RS, units=[("CAV", "DAW", "b"), ("ORCI", "ORC", "c")], step=Step.COMBAT)
    cav = st.unit(1)
    cav.movement_used, cav.path, cav.move_ended = 1, ["b"], True
    st.pending.append(
        PendingDecision(2, "DAW", DecisionKind.BLITZ, False, BlitzDetail(1, "b", (1,)))
    )
    rows = panel_components(7, st, RS, "DAW")
    controls = [c for row in rows for c in row["components"]]
    actions = [c["custom_id"].rsplit(":", 1)[1] for c in controls]
    assert actions[:2] == ["blitz", "stop"]
    labels = {o["value"]: o["label"] for o in controls[0]["options"]}
    assert labels == {"a": "A", "c": "C - starts a battle"}
