"""``/history`` pages and readers (caedes_bot/ui/history.py): R-GEN-07 (a private event only
for its factions and the umpire) and Discord's 2,000 characters per message."""

from __future__ import annotations

from caedes_bot.rules.umpire import TreasuryOverridden, UmpireOverride
from caedes_bot.ui.history import history_lines, history_pages
from caedes_bot.ui.text import MESSAGE_LIMIT
from tests.ui.skirmish import ruleset, started


def test_r_gen_07_a_private_event_only_for_its_faction_and_the_umpire() -> None:
    state, _ = started()
    events = [UmpireOverride("rp", "DAW"), TreasuryOverridden("DAW", "rp", 10, 25)]
    rules = ruleset()
    daw = history_lines(events, state, rules, factions=["DAW"], sees_all=False)
    orc = history_lines(events, state, rules, factions=["ORC"], sees_all=False)
    umpire = history_lines(events, state, rules, factions=[], sees_all=True)
    assert len(daw) == 2 and daw == umpire
    assert len(orc) == 1 and "25" not in orc[0]


def test_a_long_turn_comes_in_pages_that_each_fit_a_message() -> None:
    """300 lines of 39 characters: a page holds at most 1,800 characters of lines (2,000 less
    200 kept for the heading), so 45 lines (45 x 39 + 44 line breaks = 1,799), and 300 lines
    need 7 pages; every page has the heading and its number."""
    lines = [f"• line {i:03d} " + "x" * 28 for i in range(300)]
    pages = history_pages(lines, "**History**")
    assert len(pages) == 7
    assert all(len(p) <= MESSAGE_LIMIT for p in pages)
    assert pages[0].startswith("**History** (page 1 of 7)\n• line 000")
    assert pages[-1].startswith("**History** (page 7 of 7)") and pages[-1].endswith(
        "line 299 " + "x" * 28
    )
    assert sum(p.count("\n• line") for p in pages) == 300


def test_an_empty_turn_says_so() -> None:
    assert history_pages([], "**History**") == [
        "**History**\nNothing you may see happened in this turn."
    ]
