"""Statistics in words: /stats within what each member may see (R-GEN-07, option
``public_treasuries``), and the final summary (issue 15)."""

from __future__ import annotations

from dataclasses import replace

from caedes_bot.rules.state import FactionStats, GameState
from caedes_bot.rules.victory import CampaignEnded, PlayerScore
from caedes_bot.ui.stats import final_summary, luck_text, stats_text
from tests.ui.skirmish import ruleset, started


def _state() -> GameState:
    state, _ = started()
    state.stats = {
        "DAW": FactionStats(
            income=((1, 12),), bought=2, provinces=((1, 3),), dice=10, hits=4, expected_tenths=31
        ),
        "ORC": FactionStats(income=((1, 7),), bought=1, lost=2, battles_lost=1),
    }
    return state


def test_luck_is_hits_against_their_expectation() -> None:
    """4 hits from 10 dice expected to score 3.1: +0.9."""
    assert luck_text(FactionStats(dice=10, hits=4, expected_tenths=31)) == (
        "4 hits from 10 dice, 3.1 expected (+0.9)"
    )
    assert luck_text(FactionStats()) == "no battle dice"


def test_r_gen_07_stats_show_income_only_to_its_own_faction() -> None:
    """R-GEN-07: the Dawnians' player sees their income and purchases, not the Orcs'; the
    board's figures (provinces, battles, losses, dice) are everyone's."""
    text = stats_text(_state(), ruleset(), ["DAW"])
    assert "income by round: R1 12; units bought 2" in text
    assert "R1 7" not in text and "units bought 1" not in text
    assert "battles won 0, lost 1; units lost 2" in text  # the Orcs', public
    assert "provinces by round: R1 3" in text
    assert "4 hits from 10 dice, 3.1 expected (+0.9)" in text
    assert "for your own factions only" in text
    umpire = stats_text(_state(), ruleset(), None)
    assert "R1 12" in umpire and "R1 7" in umpire


def test_r_gen_07_option_public_treasuries_shows_every_income() -> None:
    """R-GEN-07 with ``public_treasuries`` true: every faction's income is shown to anyone."""
    state = _state()
    state.options = replace(state.options, public_treasuries=True)
    text = stats_text(state, ruleset(), [])
    assert "income by round: R1 12" in text and "income by round: R1 7" in text
    assert "own factions only" not in text


def test_the_final_summary_names_the_winner_the_scores_and_every_income() -> None:
    state = _state()
    score = PlayerScore("1", ("DAW",), 4, 3, 1, 9, 12)
    event = CampaignEnded(3, "turn_limit", ("DAW",), (), (score,), ("1",))
    text = final_summary(event, state, ruleset())
    assert text.startswith("**Final summary** after game round 3. Winner: 🌅 Dawnians (DAW).")
    assert "- 🌅 Dawnians (DAW): 4 points (3 provinces, 1 fortified; RP income 9" in text
    assert "R1 12" in text and "R1 7" in text  # everything shown at the end
