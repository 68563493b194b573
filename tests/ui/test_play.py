"""For which faction a member acts (caedes_bot/cogs/_play.py, ux.md "Whose command is it")."""

from __future__ import annotations

import pytest

from caedes_bot.cogs._errors import NotPermitted
from caedes_bot.cogs._play import choose_faction
from caedes_bot.rules.errors import UnknownName
from caedes_bot.rules.setup import new_game
from tests.rules.decision_samples import casualties, decision
from tests.ui.skirmish import ALICE, BOB, UMPIRE, ruleset, started


def test_a_member_with_several_factions_acts_for_the_one_playing() -> None:
    state, _ = started()  # the Dawnians play
    players = {"ORC": ALICE, "DAW": ALICE}
    assert choose_faction(ruleset(), state, players, ALICE, is_umpire=False) == "DAW"
    assert choose_faction(ruleset(), state, players, ALICE, is_umpire=False, named="orcs") == "ORC"


def test_otherwise_the_faction_that_owes_a_decision() -> None:
    """R-TURN-03: a faction that is not playing acts only to answer what it is asked."""
    state, _ = started()
    owed = casualties(1, [(3, "U-ACH-01", 1)], [3], faction="ACH")
    state.pending.append(decision(99, "ACH", owed, reaction=True))
    players = {"ORC": BOB, "ACH": BOB}
    assert choose_faction(ruleset(), state, players, BOB, is_umpire=False) == "ACH"
    state.pending.clear()
    assert choose_faction(ruleset(), state, players, BOB, is_umpire=False) == "ORC"


def test_the_umpire_acts_for_the_active_faction() -> None:
    """R-PBP-UMP-02: the umpire plays the factions nobody holds."""
    state, _ = started()
    assert choose_faction(ruleset(), state, {}, UMPIRE, is_umpire=True) == "DAW"


def test_r_setup_02_a_member_without_a_faction_is_told_so() -> None:
    """R-SETUP-02: a member given no faction cannot act for one; a faction name that matches none is
    refused.
    """
    state, _ = started()
    with pytest.raises(NotPermitted) as refused:
        choose_faction(ruleset(), state, {"DAW": ALICE}, BOB, is_umpire=False)
    assert refused.value.rule == "R-SETUP-02"
    with pytest.raises(UnknownName):
        choose_faction(ruleset(), state, {"DAW": ALICE}, ALICE, is_umpire=False, named="Elves")


def test_the_umpire_before_the_start_is_told_the_campaign_has_not_begun() -> None:
    """R-PBP-UMP-02 with R-SETUP-02: before ``/campaign start`` no faction plays, and naming a
    faction would not help (``/panel``, ``/done``); the umpire is told to start the campaign."""
    state = new_game(ruleset(), "skirmish", "seed")
    assert state.active is None and not state.finished
    with pytest.raises(NotPermitted) as refused:
        choose_faction(ruleset(), state, {}, UMPIRE, is_umpire=True)
    assert refused.value.message == "No faction is playing yet: the campaign has not begun."
    assert refused.value.allowed is not None and "`/campaign start`" in refused.value.allowed
