"""Names typed by players and the reasons given when a named unit cannot be used
(caedes_bot/cogs/_kind_names.py, caedes_bot/cogs/_unit_names.py, caedes_bot/cogs/_play.py): a
misspelt unit gets "Did you mean", and a unit that exists but cannot move or be mustered is
refused with why and what is allowed, never "No unit".

Skirmish ids (tests/ui/skirmish.py): Dawnians 1 Tower, 2 Infantry, 3 Knights at Brightholm;
4, 5 Infantry and 6 Yeomen at Harrowgate; 7 Infantry at Corndale.
"""

from __future__ import annotations

import pytest

from caedes_bot.cogs._kind_names import kind_to_buy, kind_to_muster, resolve_kind
from caedes_bot.cogs._place_names import resolve_province
from caedes_bot.cogs._play import actable_factions
from caedes_bot.cogs._unit_names import parse_units, pick_units, unit_choices
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.errors import IllegalMove, IllegalMuster, RuleViolation, UnknownName
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.muster import MusterUnits
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep
from tests.ui.skirmish import ALICE, BOB, UMPIRE, apply, at_step, campaign, ruleset


def test_r_gen_04_misspelt_units_get_a_near_match_by_short_or_display_name() -> None:
    """R-GEN-04: "Knigths" and "Infantri" are near the short names Knights and Infantry; the
    suggestion is the display name."""
    r = ruleset()
    daw = r.order_of_battle("DAW")
    for typed, meant in (("Knigths", "Dawnian Knights"), ("infantri", "Dawnian Infantry")):
        with pytest.raises(UnknownName) as refused:
            resolve_kind(r, typed, daw, rule="R-MOVE-01")
        assert refused.value.message == f"No unit '{typed}'. Did you mean {meant}?"
    with pytest.raises(UnknownName) as refused:
        resolve_kind(r, "Dawnian Knigths")
    assert refused.value.message == "No unit 'Dawnian Knigths'. Did you mean Dawnian Knights?"
    with pytest.raises(UnknownName) as refused:
        kind_to_buy(r, "DAW", "Knigts")
    assert "Did you mean Dawnian Knights?" in refused.value.message


def test_r_attr_fort_01_a_tower_named_for_a_move_never_moves() -> None:
    """R-ATTR-FORT-01: the Tower at Brightholm is named; the refusal says why and lists what
    can move from there."""
    state = at_step(Step.MOVE)
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, ruleset(), "DAW", "brightholm", parse_units("Tower"))
    assert refused.value.rule == "R-ATTR-FORT-01"
    assert (
        refused.value.message == "Your Dawnian Tower in Brightholm cannot move: Towers never move."
    )
    assert refused.value.allowed == (
        "units that can move from Brightholm: 1 Dawnian Infantry, 1 Dawnian Knights"
    )


def test_r_move_01_knights_with_no_movement_left_are_told_so() -> None:
    """R-MOVE-01: the Knights (move 2) go to Corndale and back; a third move is refused because
    their allowance is spent, not because the name is unknown."""
    state = at_step(Step.MOVE)
    state, _ = apply(state, MoveUnits("DAW", (3,), "corndale"))
    state, _ = apply(state, MoveUnits("DAW", (3,), "brightholm"))
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, ruleset(), "DAW", "brightholm", parse_units("Knights"))
    assert refused.value.rule == "R-MOVE-01"
    assert refused.value.message == (
        "Your Dawnian Knights in Brightholm cannot move: no movement left this turn."
    )


def test_r_move_01_other_units_and_absent_ones_are_named_as_such() -> None:
    """R-MOVE-01: a faction moves only its own units, and only those that stand there."""
    state = at_step(Step.MOVE)
    r = ruleset()
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, r, "DAW", "harrowgate", parse_units("Troopers"))
    assert refused.value.message == "Orc Troopers are units of the Orcs; you move only your own."
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, r, "DAW", "harrowgate", parse_units("Windriders"))
    assert refused.value.message == "You have no Dawnian Windriders in Harrowgate."
    assert refused.value.allowed == (
        "units that can move from Harrowgate: 2 Dawnian Infantry, 1 Dawnian Yeomen"
    )
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, r, "DAW", "wolfsgate", parse_units("all"))
    assert refused.value.message == "You have no units in Wolfsgate."
    assert refused.value.allowed == (
        "a province where your units can still move: Brightholm, Corndale, Harrowgate"
    )


def test_r_move_01_a_unit_named_twice_adds_up() -> None:
    """R-MOVE-01: "1 Infantry, 1 Infantry" is two of the two Infantry at Harrowgate; a third
    is refused with the real count, not "Only 0"."""
    state = at_step(Step.MOVE)
    r = ruleset()
    assert pick_units(state, r, "DAW", "harrowgate", parse_units("1 Infantry, 1 Infantry")) == (
        4,
        5,
    )
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, r, "DAW", "harrowgate", parse_units("1 Infantry, 1 infantry, 1 U-DAW-01"))
    assert refused.value.message == "Only 2 Dawnian Infantry in Harrowgate can move now, not 3."


def test_r_move_09_a_sea_zone_is_not_a_province() -> None:
    """R-MOVE-09: land units move between provinces; the sea zone is named as such."""
    with pytest.raises(RuleViolation) as refused:
        resolve_province(
            ruleset(), "bay of sorrows", at_sea=("R-MOVE-09", "land units move between provinces")
        )
    assert refused.value.rule == "R-MOVE-09"
    assert (
        refused.value.message == "Bay of Sorrows is a sea zone; land units move between provinces."
    )
    assert refused.value.allowed == (
        "a province's name (or its start); the list offers them as you type"
    )


def _mustering() -> GameState:
    """The Dawnians bought 2 Infantry (3 RP each) and reached step 8."""
    state = at_step(Step.BUY)
    state, _ = apply(state, BuyUnits("DAW", "U-DAW-01", 2))
    while state.step is not Step.MUSTER:
        state, _ = apply(state, EndStep("DAW"))
    return state


def _refused_muster(state: GameState, text: str) -> IllegalMuster:
    """The rules' refusal to muster one unit of the kind ``text`` names at Brightholm."""
    kind = kind_to_muster(state, ruleset(), "DAW", text)
    with pytest.raises(IllegalMuster) as refused:
        apply(state, MusterUnits("DAW", ((kind.id, "brightholm"),)))
    return refused.value


def test_r_muster_01_a_unit_not_bought_is_refused_with_what_waits() -> None:
    """R-MUSTER-01: only units bought this turn are mustered; the rules' refusal names what
    waits, by name (the name is resolved by the cog, the judgement is the rules')."""
    state = _mustering()
    r = ruleset()
    assert kind_to_muster(state, r, "DAW", "infantry").id == "U-DAW-01"
    refused = _refused_muster(state, "Yeomen")
    assert refused.rule == "R-MUSTER-01"
    assert refused.message == "You bought no Dawnian Yeomen this turn."
    assert refused.allowed == "muster what is waiting: 2 Dawnian Infantry"
    refused = _refused_muster(state, "Orc Troopers")
    assert refused.message == (
        "Orc Troopers are units of the Orcs; you muster only what you bought this turn."
    )
    with pytest.raises(UnknownName) as unknown:
        kind_to_muster(state, r, "DAW", "Infantri")
    assert unknown.value.message == "No unit 'Infantri'. Did you mean Dawnian Infantry?"


def test_r_muster_01_once_all_are_placed_the_refusal_says_so() -> None:
    """R-MUSTER-01: Brightholm (plains, with the Dawnian Tower and Infantry) takes both."""
    state = _mustering()
    both = (("U-DAW-01", "brightholm"), ("U-DAW-01", "brightholm"))
    state, _ = apply(state, MusterUnits("DAW", both))
    refused = _refused_muster(state, "Infantry")
    assert refused.message == (
        "Every Dawnian Infantry you bought this turn is placed already (2 this step)."
    )
    assert refused.allowed is not None
    assert refused.allowed.startswith("nothing: every unit you bought is placed")


def test_outside_step_8_the_kind_is_left_to_the_rules() -> None:
    """R-TURN-02: in step 1 the name is resolved and the rules refuse the step itself."""
    assert kind_to_muster(at_step(Step.TRADE), ruleset(), "DAW", "Yeomen").id == "U-DAW-02"


def test_r_setup_02_a_member_acts_for_the_factions_they_hold_the_umpire_for_all() -> None:
    """R-SETUP-02, R-PBP-UMP-01: the faction choices are the member's own; the umpire's are
    every faction in play."""
    state = at_step(Step.TRADE)
    view = campaign()  # Alice plays the Dawnians, Bob the Orcs
    assert actable_factions(state, view, ALICE) == ["DAW"]
    assert actable_factions(state, view, BOB) == ["ORC"]
    assert actable_factions(state, view, UMPIRE) == ["DAW", "ORC", "ACH"]
    assert actable_factions(state, view, 4242) == []


def test_r_move_01_units_named_by_number_as_other_commands_take_them() -> None:
    """R-MOVE-01: ``/move units`` takes unit numbers (``#5``, ``#5 #4``, with or without a
    space after ``#``), mixed with counts of a kind, which are taken from the units not named;
    a number that is not one of the faction's units, one elsewhere and one that cannot move are
    refused with the reason and what is allowed."""
    state = at_step(Step.MOVE)
    r = ruleset()
    assert pick_units(state, r, "DAW", "harrowgate", parse_units("#5")) == (5,)
    assert pick_units(state, r, "DAW", "harrowgate", parse_units("#5 #4")) == (5, 4)
    assert pick_units(state, r, "DAW", "harrowgate", parse_units("# 6, #6")) == (6,)
    assert pick_units(state, r, "DAW", "harrowgate", parse_units("#5@harrowgate, 1 Infantry")) == (
        5,
        4,
    )
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, r, "DAW", "harrowgate", parse_units("#5, 2 Infantry"))
    assert refused.value.message == "Only 1 Dawnian Infantry in Harrowgate can move now, not 2."
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, r, "DAW", "harrowgate", parse_units("#3"))
    assert refused.value.message == "Your Dawnian Knights #3 in Brightholm is not in Harrowgate."
    assert refused.value.allowed == (
        "units that can move from Harrowgate: 2 Dawnian Infantry, 1 Dawnian Yeomen; "
        "or #3 with from: Brightholm"
    )
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, r, "DAW", "harrowgate", parse_units("#999"))
    assert refused.value.message == "You have no unit #999."
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, r, "DAW", "brightholm", parse_units("#1"))
    assert refused.value.rule == "R-ATTR-FORT-01"
    assert refused.value.message == (
        "Your Dawnian Tower in Brightholm cannot move: Towers never move."
    )


def test_r_move_01_typing_a_number_lists_the_units_that_can_move_by_number() -> None:
    """R-MOVE-01 (ux.md: autocomplete that knows the game): once ``#`` is typed, ``/move units``
    offers the faction's units that can move, one by one, each with its place for ``from``;
    digits narrow them; a choice keeps the units named before it and leaves them out."""
    state = at_step(Step.MOVE)
    r = ruleset()
    offered = unit_choices(state, r, "DAW", "harrowgate", "#")
    assert offered == [
        ("Dawnian Infantry #4 in Harrowgate", "#4@harrowgate"),
        ("Dawnian Infantry #5 in Harrowgate", "#5@harrowgate"),
        ("Dawnian Yeomen #6 in Harrowgate", "#6@harrowgate"),
    ]
    assert [v for _, v in unit_choices(state, r, "DAW", None, "#3")] == ["#3@brightholm"]
    more = unit_choices(state, r, "DAW", "harrowgate", "#4@harrowgate, #")
    assert more == [
        ("#4, Dawnian Infantry #5 in Harrowgate", "#4@harrowgate, #5@harrowgate"),
        ("#4, Dawnian Yeomen #6 in Harrowgate", "#4@harrowgate, #6@harrowgate"),
    ]
    value = more[0][1]
    assert pick_units(state, r, "DAW", "harrowgate", parse_units(value)) == (4, 5)
