"""Umpire overrides (caedes_bot/rules/umpire.py): R-PBP-UMP-01, with R-GEN-07 for what is public."""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.errors import RuleViolation, UnknownName
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import GameState
from caedes_bot.rules.turn import StartCampaign
from caedes_bot.rules.umpire import (
    SetCommodity,
    SetOwner,
    SetRP,
    TreasuryOverridden,
    UmpireOverride,
)

RULESET = load_ruleset()


def _started() -> GameState:
    state = new_game(RULESET, "skirmish", "seed")
    return engine.apply(state, StartCampaign("UMPIRE"), RULESET, ScriptedDice([])).state


def test_r_pbp_ump_01_set_rp_during_another_factions_turn() -> None:
    """R-PBP-UMP-01: The Orcs start the skirmish with 10 RP; the umpire sets 25 while the Dawnians
    play. The public event names the change, not the figure (R-GEN-07); the Orcs' own event has
    both.
    """
    state = _started()
    assert state.active == "DAW" and state.factions["ORC"].rp == 10
    outcome = engine.apply(state, SetRP("UMPIRE", "ORC", 25), RULESET, ScriptedDice([]))
    assert outcome.state.factions["ORC"].rp == 25
    public, private = outcome.events
    assert public == UmpireOverride("rp", "ORC") and public.audience() is None
    assert private == TreasuryOverridden("ORC", "rp", 10, 25)
    assert private.audience() == ("ORC",)


def test_r_pbp_ump_01_rp_and_stocks_stay_non_negative() -> None:
    """R-PBP-UMP-01, R-BUY-02: RP are never negative, even by override; the refusal changes
    nothing.
    """
    state = _started()
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state, SetRP("UMPIRE", "ORC", -1), RULESET, ScriptedDice([]))
    assert refused.value.rule == "R-BUY-02"
    assert state.factions["ORC"].rp == 10
    with pytest.raises(UnknownName):
        engine.apply(state, SetRP("UMPIRE", "DWA", 5), RULESET, ScriptedDice([]))  # not in play


def test_r_pbp_ump_01_set_a_commodity_stock() -> None:
    """R-PBP-UMP-01: the umpire sets a commodity stock (any spelling of its name), to 0 as well; an
    unknown commodity is refused.
    """
    state = _started()
    outcome = engine.apply(
        state, SetCommodity("UMPIRE", "DAW", "Salt", 2), RULESET, ScriptedDice([])
    )
    assert outcome.state.factions["DAW"].commodities["salt"] == 2
    assert outcome.events[1] == TreasuryOverridden("DAW", "salt", 0, 2)
    cleared = engine.apply(
        outcome.state, SetCommodity("UMPIRE", "DAW", "salt", 0), RULESET, ScriptedDice([])
    )
    assert "salt" not in cleared.state.factions["DAW"].commodities
    with pytest.raises(UnknownName):
        engine.apply(state, SetCommodity("UMPIRE", "DAW", "spice", 1), RULESET, ScriptedDice([]))


def test_r_pbp_ump_01_set_an_owner_or_none() -> None:
    """R-PBP-UMP-01, R-COLL-01: a province has at most one owner; the umpire may give it to another
    faction or leave it unowned.
    """
    state = _started()
    assert state.owners["wolfsgate"] == "ORC"
    given = engine.apply(state, SetOwner("UMPIRE", "wolfsgate", "ACH"), RULESET, ScriptedDice([]))
    assert given.state.owners["wolfsgate"] == "ACH"
    assert given.events == (UmpireOverride("owner", "wolfsgate", "ACH"),)
    freed = engine.apply(
        given.state, SetOwner("UMPIRE", "wolfsgate", None), RULESET, ScriptedDice([])
    )
    assert "wolfsgate" not in freed.state.owners
    with pytest.raises(UnknownName) as refused:
        engine.apply(state, SetOwner("UMPIRE", "wolfsgat", "ACH"), RULESET, ScriptedDice([]))
    assert "wolfsgate" in refused.value.message


def test_r_coll_03_the_umpire_cannot_give_a_sea_zone_or_river_edge_an_owner() -> None:
    """R-COLL-03, R-PBP-UMP-01: sea zones and river edges are never owned, even by override;
    the refusal changes nothing."""
    state = _started()
    before = state.clone()
    for space in ("bay-of-sorrows", "river:kestrel-downs|tallowmere"):
        with pytest.raises(UnknownName):
            engine.apply(state, SetOwner("UMPIRE", space, "DAW"), RULESET, ScriptedDice([]))
    assert state == before
