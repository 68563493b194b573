"""The umpire's overrides of the board and the settings (caedes_bot/rules/umpire_units.py,
umpire_game.py, override_log.py): R-PBP-UMP-01, R-PBP-UMP-03, R-SETUP-04, R-VIC-03.

The skirmish (three factions, DAW, ORC, ACH; a turn limit of 3 game rounds; a turn window of
1 hour) starts with the Dawnians' turn of round 1; units #1-#7 are Dawnian (#7 an Infantry in
Corndale), #8-#13 Orcish, #14-#20 Acherousian.
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata import options as options_module
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.errors import RuleViolation, UnknownName
from caedes_bot.rules.orders import Order
from caedes_bot.rules.override_log import override_change
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import GameState
from caedes_bot.rules.turn import EndStep, StartCampaign, TurnBegan
from caedes_bot.rules.umpire import SetOwner, SetRP
from caedes_bot.rules.umpire_game import (
    OptionChangeAnnounced,
    OptionsChanged,
    SetOption,
    SetTurnLimit,
    TurnLimitSet,
)
from caedes_bot.rules.umpire_units import SetUnits, UnitsOverridden

RULESET = load_ruleset()
NO_DICE = ScriptedDice([])


def _started() -> GameState:
    state = new_game(RULESET, "skirmish", "seed")
    return engine.apply(state, StartCampaign("UMPIRE"), RULESET, NO_DICE).state


def _apply(state: GameState, order: Order) -> engine.Outcome:
    return engine.apply(state, order, RULESET, NO_DICE)


def _end_turn(state: GameState) -> tuple[GameState, list[object]]:
    """End every step of the active faction's turn; the events of all of them."""
    faction = state.active
    events: list[object] = []
    while state.active == faction and not state.finished:
        outcome = _apply(state, EndStep(faction or ""))
        state = outcome.state
        events += outcome.events
    return state, events


# --------------------------------------------------------------------------- units


def test_r_pbp_ump_01_add_units_placed_like_mustered_ones() -> None:
    """R-PBP-UMP-01, R-MOVE-22: two Dawnian Infantry added in Corndale get the next ids (#21,
    #22, the skirmish having 20 units) and cannot move until their owner's next turn."""
    state = _started()
    outcome = _apply(
        state, SetUnits("UMPIRE", "add", owner="DAW", kind="U-DAW-01", count=2, place="corndale")
    )
    new = outcome.state
    assert [new.unit(21).location, new.unit(22).location] == ["corndale", "corndale"]
    assert new.unit(21).owner == "DAW" and new.unit(21).move_ended
    assert outcome.events == (
        UnitsOverridden("add", (21, 22), ("U-DAW-01",) * 2, ("DAW",) * 2, ("", ""), "corndale"),
    )
    assert outcome.events[0].audience() is None  # the board is public
    assert "21" not in state.units  # the state given is never changed


def test_r_pbp_ump_01_remove_and_move_units() -> None:
    """R-PBP-UMP-01: the umpire removes unit #7 and moves #12 (Orcish, in Wolfsgate) to
    Corndale; a move is no attack (no battle is due for it) and changes no owner."""
    state = _started()
    removed = _apply(state, SetUnits("UMPIRE", "remove", unit_ids=(7,))).state
    assert "7" not in removed.units
    moved = _apply(removed, SetUnits("UMPIRE", "move", place="corndale", unit_ids=(12,)))
    unit = moved.state.unit(12)
    assert unit.location == "corndale" and not unit.attacking
    assert moved.state.owners == removed.owners
    assert moved.events[0] == UnitsOverridden(
        "move", (12,), ("U-ORC-02",), ("ORC",), ("wolfsgate",), "corndale"
    )


def test_r_pbp_ump_01_unit_overrides_refused_change_nothing() -> None:
    """R-PBP-UMP-01, R-MOVE-09: an unknown unit, kind or faction, a land unit put in a sea zone,
    or more than 20 at once, is refused and the state stays as it was."""
    state = _started()
    before = state.clone()
    bad = [
        SetUnits("UMPIRE", "remove", unit_ids=(99,)),
        SetUnits("UMPIRE", "move", place="bay-of-sorrows", unit_ids=(7,)),
        SetUnits("UMPIRE", "add", owner="DAW", kind="U-DAW-99", place="corndale"),
        SetUnits("UMPIRE", "add", owner="DWA", kind="U-DAW-01", place="corndale"),
        SetUnits("UMPIRE", "add", owner="DAW", kind="U-DAW-01", count=21, place="corndale"),
        SetUnits("UMPIRE", "teleport", unit_ids=(7,)),
    ]
    for order in bad:
        with pytest.raises(RuleViolation):
            _apply(state, order)
    with pytest.raises(RuleViolation) as at_sea:
        _apply(state, SetUnits("UMPIRE", "move", place="bay-of-sorrows", unit_ids=(7,)))
    assert at_sea.value.rule == "R-MOVE-09"
    assert state == before
    ship = _apply(
        state, SetUnits("UMPIRE", "add", owner="DAW", kind="U-DAW-09", place="bay-of-sorrows")
    )
    assert ship.state.unit(21).location == "bay-of-sorrows"  # a ship may be put at sea


# --------------------------------------------------------------------------- options


def test_r_setup_04_an_option_changes_at_the_next_turn_start() -> None:
    """R-SETUP-04: the umpire sets casualty_chooser to opponent (default owner) during the
    Dawnians' turn: announced at once, in force only when the Orcs' turn begins."""
    state = _started()
    outcome = _apply(state, SetOption("UMPIRE", "casualty_chooser", "Opponent"))
    assert outcome.events == (OptionChangeAnnounced("casualty_chooser", "owner", "opponent"),)
    changed = outcome.state
    assert changed.options.casualty_chooser == "owner"  # not yet
    assert changed.options_next is not None
    assert changed.options_next.casualty_chooser == "opponent"
    after, events = _end_turn(changed)
    assert after.active == "ORC" and after.options.casualty_chooser == "opponent"
    assert after.options_next is None
    began = next(i for i, e in enumerate(events) if isinstance(e, TurnBegan))
    assert OptionsChanged((("casualty_chooser", "owner", "opponent"),)) in events[:began]


def test_r_pbp_dead_01_a_new_turn_window_from_the_next_turn() -> None:
    """R-PBP-DEAD-01, R-SETUP-04: the skirmish's turn window is 1 hour; the umpire makes it 36
    hours, and the Orcs' turn is the first to have it. Setting it back to 1 before that cancels
    the change."""
    state = _started()
    assert state.options.turn_deadline_hours == 1.0
    longer = _apply(state, SetOption("UMPIRE", "turn_deadline_hours", "36")).state
    after, _ = _end_turn(longer)
    assert after.options.turn_deadline_hours == 36.0
    cancelled = _apply(longer, SetOption("UMPIRE", "turn_deadline_hours", "1")).state
    assert cancelled.options_next is None


def test_r_setup_04_bad_and_unbuilt_options_are_refused_with_what_is_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-SETUP-04: a value that is not the option's, an unknown option, and an option whose rule
    is not built set away from its default are refused. Every option is built now, so
    early_end_needs_vote (R-VIC-04, the last one built) stands in as unbuilt for this test."""
    monkeypatch.setattr(options_module, "UNBUILT_OPTIONS", {"early_end_needs_vote": "R-VIC-04"})
    state = _started()
    with pytest.raises(RuleViolation) as bad:
        _apply(state, SetOption("UMPIRE", "breath_mode", "sideways"))
    assert bad.value.allowed == "one of: under, over"
    with pytest.raises(RuleViolation) as dice:
        _apply(state, SetOption("UMPIRE", "breath_mighty_dice", "4"))
    assert dice.value.allowed == "3 or 6"
    with pytest.raises(RuleViolation) as boolean:
        _apply(state, SetOption("UMPIRE", "capture_on_entry", "maybe"))
    assert boolean.value.allowed == "true or false"
    with pytest.raises(UnknownName):
        _apply(state, SetOption("UMPIRE", "no_such_option", "true"))
    with pytest.raises(RuleViolation) as unbuilt:
        _apply(state, SetOption("UMPIRE", "early_end_needs_vote", "false"))
    assert "R-VIC-04" in unbuilt.value.message and unbuilt.value.allowed == "its default, true"
    assert (
        _apply(state, SetOption("UMPIRE", "early_end_needs_vote", "true")).state.options_next
        is None
    )


# --------------------------------------------------------------------------- turn limit


def test_r_vic_03_turn_limit_set_or_removed_never_below_the_round() -> None:
    """R-PBP-UMP-03, R-VIC-03: the skirmish's limit of 3 rounds becomes 5, then none; a limit
    below round 1 (being played) is refused."""
    state = _started()
    five = _apply(state, SetTurnLimit("UMPIRE", 5))
    assert five.state.turn_limit == 5 and five.events == (TurnLimitSet(3, 5),)
    assert _apply(five.state, SetTurnLimit("UMPIRE", None)).state.turn_limit is None
    with pytest.raises(RuleViolation) as low:
        _apply(state, SetTurnLimit("UMPIRE", 0))
    assert low.value.rule == "R-VIC-03"


def test_r_vic_03_a_limit_of_one_round_ends_the_campaign_after_it() -> None:
    """R-VIC-03: with the limit set to 1 in round 1, the campaign ends when the round ends."""
    state = _apply(_started(), SetTurnLimit("UMPIRE", 1)).state
    for _ in range(3):
        state, _ = _end_turn(state)
    assert state.finished and state.round == 1


# --------------------------------------------------------------------------- the log


def test_r_pbp_ump_01_every_override_has_its_before_and_after() -> None:
    """R-PBP-UMP-01 (decision 0022): the audit document of each override holds what it was and
    what it became; an order that is no override has none."""
    state = _started()

    def change(order: Order) -> object:
        return override_change(order, state, _apply(state, order).events)

    assert change(SetRP("UMPIRE", "ORC", 25)) == {
        "what": "rp",
        "target": "ORC",
        "before": 10,
        "after": 25,
    }
    assert change(SetOwner("UMPIRE", "wolfsgate", None)) == {
        "what": "owner",
        "target": "wolfsgate",
        "before": "ORC",
        "after": None,
    }
    assert change(SetUnits("UMPIRE", "move", place="corndale", unit_ids=(12,))) == {
        "what": "units",
        "action": "move",
        "target": [12],
        "before": ["wolfsgate"],
        "after": "corndale",
    }
    assert change(SetOption("UMPIRE", "breath_mode", "over")) == {
        "what": "option",
        "target": "breath_mode",
        "before": "under",
        "after": "over",
    }
    assert change(SetTurnLimit("UMPIRE", 4)) == {
        "what": "turn_limit",
        "target": "",
        "before": 3,
        "after": 4,
    }
    assert override_change(EndStep("DAW"), state, ()) is None
