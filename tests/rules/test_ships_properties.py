"""Property tests of ships and cargo in step 6 (R-MOVE-14, R-MOVE-15, R-MOVE-18).

Random sequences of sail, board and land orders, legal or not, on the small map of
``test_cargo`` with two Dawnian ships, three infantry, a cavalry unit and an Orc ship:

* no unit is ever aboard a ship that is not on the board, nor anywhere but its ship's space;
* no ship ever carries more than one cavalry unit or two infantry units, nor a ship or Tower;
* no ship spends more than its 2 movement points in the turn, and no unit goes aboard or
  lands twice;
* a refused order leaves the state exactly as it was (and ``apply`` never changes its input).
"""

from __future__ import annotations

import pickle

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caedes_bot.gamedata.model import BaseType
from caedes_bot.rules.cargo import CARGO_ROOM, SHIP_ROOM, Disembark, Embark
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ships import SailShips
from caedes_bot.rules.state import GameState
from tests.rules.builders import state
from tests.rules.test_cargo import _rs

RS = _rs()
SPACES = ["s1", "s2", "river:a|r", "a", "b", "c", "m", "f", "r"]
UNITS = [1, 2, 3, 4, 5, 6, 7, 8]


def _start() -> GameState:
    return state(
        RS,
        units=[
            ("SHIP", "DAW", "s1"),
            ("SHIP", "DAW", "s2"),
            ("INF", "DAW", "a"),
            ("INF", "DAW", "b"),
            ("INF", "DAW", "c"),
            ("CAV", "DAW", "b"),
            ("OSHIP", "ORC", "s2"),
            ("INF", "DAW", "r"),
        ],
    )


orders = st.one_of(
    st.builds(
        lambda ids, to: SailShips("DAW", ids, to),
        st.lists(st.sampled_from([1, 2, 3]), min_size=1, max_size=2, unique=True).map(tuple),
        st.sampled_from(SPACES),
    ),
    st.builds(
        lambda ids, ship: Embark("DAW", ids, ship),
        st.lists(st.sampled_from(UNITS), min_size=1, max_size=3, unique=True).map(tuple),
        st.sampled_from([1, 2, 7, 3]),
    ),
    st.builds(
        lambda ids, to: Disembark("DAW", ids, to),
        st.lists(st.sampled_from(UNITS), min_size=1, max_size=3, unique=True).map(tuple),
        st.sampled_from(SPACES),
    ),
)


def _check(st_: GameState) -> None:
    ships = {u.id: u for u in st_.units.values() if RS.kind(u.kind).base_type is BaseType.SHIP}
    room: dict[int, int] = {}
    for unit in st_.units.values():
        if unit.aboard is None:
            continue
        assert unit.aboard in ships, f"#{unit.id} is aboard #{unit.aboard}, which is gone"
        assert unit.location == ships[unit.aboard].location
        kind = RS.kind(unit.kind)
        assert kind.base_type in CARGO_ROOM
        room[unit.aboard] = room.get(unit.aboard, 0) + CARGO_ROOM[kind.base_type]
    assert all(used <= SHIP_ROOM for used in room.values())
    for ship in ships.values():
        assert ship.movement_used <= 2
        assert not RS.map.is_province(ship.location)
    for unit in st_.units.values():
        if unit.landed:
            assert unit.aboard is None and unit.move_ended


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(orders, min_size=1, max_size=12))
def test_random_ship_and_cargo_orders_keep_the_board_sound(sequence: list[Order]) -> None:
    """R-MOVE-14, R-MOVE-15, R-MOVE-18: whatever is asked, cargo is never without its ship,
    no ship is over its room or its 2 moves, and a refused order changes nothing."""
    current = _start()
    current.clone()  # its units become a shared table once, as after any order
    for order in sequence:
        before = pickle.dumps(current)
        try:
            out = apply(current, order, RS, ScriptedDice([]))
        except RuleViolation:
            assert pickle.dumps(current) == before
            continue
        assert pickle.dumps(current) == before  # apply never changes its input
        current = out.state
        _check(current)
