"""The checks after every order skip the board when nothing they read changed (issue 9,
decision 0013 sixth pass; R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03, R-FEAL-03).

``dependants.after_every_order`` notes what it read on the unit and faction tables, and a
clone of a checked state looks only at what was written since. The oracle here is the same
check on a copy of the state that carries no note (a pickle round trip makes new tables):
after every change a test or an umpire could make by hand, both must give the same events
and leave the same state.

Map and kinds as in ``test_undead.py``: AN a Necromancer and AU Undead of the Acherousians,
AI their plain infantry; DI Dawnian infantry; H-DAW-01 the Dawnians' designated Hero.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import replace

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.mappers import dump_state
from caedes_bot.rules import dependants
from caedes_bot.rules.dependants import BoundUnitsLost, HeroFell
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.events import Event
from caedes_bot.rules.sharing import CowTable
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep
from tests.rules.builders import kind, ruleset, state, with_hero

KINDS = [
    kind("AI", "ACH"),
    kind("AN", "ACH", attributes=["meek", "necromancer"], cost=18),
    kind("AU", "ACH", attributes=["meek", "undead"], race="undead"),
    kind("DI", "DAW"),
]
HERO = kind("H-DAW-01", "DAW", attributes=["inspiring"], hero=True)
OWNERS = {"p1": "ACH", "p2": "ACH", "a": "DAW"}


def _rs() -> Ruleset:
    rs = ruleset(
        provinces={"p1": ("plains",), "p2": ("plains",), "a": ("plains",)},
        borders=[("a", "p1"), ("p1", "p2")],
        kinds=KINDS,
        heroes=[HERO],
    )
    return with_hero(rs, "DAW", "H-DAW-01")


RS = _rs()


def _checked() -> GameState:
    """A state the engine returned (its checks passed and noted): 1 the Hero, 2 a Dawnian
    infantry, 3 the Necromancer, 4 and 5 Undead, 6 Acherousian infantry, 7 Dawnian infantry."""
    st = state(
        RS,
        units=[
            ("H-DAW-01", "DAW", "a"),
            ("DI", "DAW", "a"),
            ("AN", "ACH", "p1"),
            ("AU", "ACH", "p1"),
            ("AU", "ACH", "p2"),
            ("AI", "ACH", "p2"),
            ("DI", "DAW", "a"),
        ],
        owners=OWNERS,
        active="DAW",
        step=Step.MOVE,
    )
    out = apply(st, EndStep("DAW"), RS, ScriptedDice([]))
    assert not [e for e in out.events if isinstance(e, BoundUnitsLost | HeroFell)]
    return out.state


def _both(st: GameState) -> tuple[list[Event], list[Event]]:
    """The checks on ``st`` (which may carry a note) and on a copy without one; asserts that
    they leave the same state and returns both lists of events."""
    bare = pickle.loads(pickle.dumps(st))
    assert not isinstance(bare.units, CowTable) or bare.units.carried() is None
    fast = dependants.after_every_order(st, RS)
    full = dependants.after_every_order(bare, RS)
    assert fast == full
    assert dump_state(st) == dump_state(bare)
    return fast, full


def test_a_clone_of_a_checked_state_carries_the_note() -> None:
    clone = _checked().clone()
    assert isinstance(clone.units, CowTable) and clone.units.carried() is not None
    assert clone.factions.carried() is clone.units.carried()
    assert _both(clone) == ([], [])


def _remove(uid: int) -> Callable[[GameState], None]:
    def change(st: GameState) -> None:
        del st.units[str(uid)]

    return change


def _owner(uid: int, owner: str) -> Callable[[GameState], None]:
    def change(st: GameState) -> None:
        st.units[str(uid)].owner = owner

    return change


def _kind(uid: int, kind_id: str) -> Callable[[GameState], None]:
    def change(st: GameState) -> None:
        st.units[str(uid)].kind = kind_id

    return change


def _place(kind_id: str, owner: str, space: str) -> Callable[[GameState], None]:
    def change(st: GameState) -> None:
        st.place_new_unit(kind_id, owner, space)

    return change


def _hero_back_alive(st: GameState) -> None:
    del st.units["1"]
    assert [type(e) for e in dependants.after_every_order(st, RS)] == [HeroFell]
    st.factions["DAW"].hero_alive = True  # an edit says the fallen Hero lives


def _plain_dicts(st: GameState) -> None:
    st.units = dict(st.units.peek_items())
    del st.units["3"]


CHANGES: dict[str, tuple[Callable[[GameState], None], type[Event] | None]] = {
    "the Hero removed": (_remove(1), HeroFell),
    "the Hero given away": (_owner(1, "ACH"), HeroFell),
    "the Hero made infantry": (_kind(1, "DI"), HeroFell),
    "the Necromancer removed": (_remove(3), BoundUnitsLost),
    "the Necromancer made infantry": (_kind(3, "AI"), BoundUnitsLost),
    "the Necromancer given away": (_owner(3, "DAW"), BoundUnitsLost),
    "an Undead given away": (_owner(4, "DAW"), BoundUnitsLost),
    "an infantry made Undead of a faction without Necromancer": (_kind(2, "AU"), BoundUnitsLost),
    "an Undead placed for a faction without Necromancer": (
        _place("AU", "DAW", "a"),
        BoundUnitsLost,
    ),
    "a Hero placed for the Acherousians": (_place("H-DAW-01", "ACH", "p2"), None),
    "an Undead removed": (_remove(4), None),
    "an infantry removed": (_remove(2), None),
    "an infantry given away": (_owner(6, "DAW"), None),
    "an infantry made a Necromancer": (_kind(2, "AN"), None),
    "a fallen Hero's faction written alive again": (_hero_back_alive, HeroFell),
    "the tables replaced by plain dicts": (_plain_dicts, BoundUnitsLost),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_every_change_by_hand_is_found_as_a_full_check_finds_it(name: str) -> None:
    change, found = CHANGES[name]
    clone = _checked().clone()
    change(clone)
    fast, _ = _both(clone)
    assert [type(e) for e in fast] == ([] if found is None else [found])


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_changes_after_a_second_clone_are_found_too(name: str) -> None:
    """The note goes on from clone to clone while the checks pass; a change two clones on
    is still found."""
    first = _checked().clone()
    del first.units["7"]  # an order that removed a unit nobody depends on
    assert _both(first) == ([], [])
    second = first.clone()
    assert second.units.carried() is not None
    change, found = CHANGES[name]
    change(second)
    fast, _ = _both(second)
    assert [type(e) for e in fast] == ([] if found is None else [found])


def test_sharing_a_table_again_forgets_what_it_carried() -> None:
    """A clone taken in the middle of an order resets what the table handed out; its note
    must go, or the change before the clone would be missed."""
    clone = _checked().clone()
    clone.units["1"].owner = "ACH"  # the Hero given away ...
    clone.clone()  # ... then the state cloned again before the checks run
    assert clone.units.carried() is None
    fast, _ = _both(clone)
    assert [type(e) for e in fast] == [HeroFell]


def test_a_note_made_before_a_later_write_is_not_carried() -> None:
    st = _checked()
    st.units["2"].location = "p1"  # written after the checks noted the table
    assert st.clone().units.carried() is None


def test_a_faction_coming_into_play_has_its_hero_looked_for() -> None:
    """The Dawnians are out of play and their Hero is not on the board: nothing is recorded.
    Back in play (an umpire's edit), the next check records the Hero fallen."""
    st = state(RS, units=[("AI", "ACH", "p1")], owners=OWNERS, active="ACH", step=Step.MOVE)
    st.in_play.remove("DAW")
    out = apply(st, EndStep("ACH"), RS, ScriptedDice([]))
    assert not [e for e in out.events if isinstance(e, HeroFell)]
    clone = out.state.clone()
    assert clone.units.carried() is not None
    clone.in_play.append("DAW")
    fast, _ = _both(clone)
    assert fast == [HeroFell("DAW", "H-DAW-01")]


def test_another_ruleset_is_checked_in_full() -> None:
    """A census holds for the ruleset it was made with only: with a ruleset where the
    Dawnian infantry hangs on a Necromancer, the same clone loses it."""
    undead_infantry = replace(RS.units["DI"], race=RS.units["AU"].race)
    other = replace(RS, units={**RS.units, "DI": undead_infantry})
    clone = _checked().clone()
    events = dependants.after_every_order(clone, other)
    assert [type(e) for e in events] == [BoundUnitsLost]
