"""What ``/move`` and ``/fly`` offer while typing (R-MOVE-01, R-MOVE-02, R-ATTR-FLY-01,
R-ATTR-AMPH-01): destinations with their cost and any battle, and ``via`` spaces on a route."""

from __future__ import annotations

import pytest

from caedes_bot.cogs._routes import parse_via, route_choices, via_choices
from caedes_bot.rules.errors import UnknownName
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
