"""Each step's wording lives in one place: caedes_bot/ui/steps.py (R-TURN-02)."""

from __future__ import annotations

import re

from caedes_bot.rules.state import Step
from caedes_bot.ui.steps import STEPS, now_text, over_text, step_line


def test_every_step_has_its_wording_with_a_rule_id() -> None:
    assert list(STEPS) == list(Step)
    for step, words in STEPS.items():
        assert re.fullmatch(r"R-[A-Z]+-\d\d", words.rule), step
        assert words.purpose.endswith(".") and words.commands, step
        if words.menu is not None:
            assert words.menu.label.endswith("…") and words.menu.action.isalpha(), step


def test_only_the_collect_step_has_no_done_button() -> None:
    """Step 3 runs by itself (R-COLL-04); every other step can wait for its faction."""
    assert [s for s, w in STEPS.items() if w.done is None] == [Step.COLLECT]


def test_the_shared_phrases_read_the_step_table() -> None:
    assert now_text(Step.BUY) == f"step 5 Buy (R-BUY-01). {STEPS[Step.BUY].purpose}"
    assert over_text(Step.MOVE) == "Step 6 Move is over."
    assert step_line(Step.TRADE).startswith("**1 Trade** · 2 Redeem")
