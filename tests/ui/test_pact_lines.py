"""The wording of fealty proposals (R-FEAL-01): the vassal swears and its liege accepts, each
line citing fealty's rule, and a second oath while one waits is refused under it too."""

from __future__ import annotations

import pytest

from caedes_bot.rules import engine
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.pacts import PactAnswered, PactProposed, ProposeAlliance, SwearFealty
from caedes_bot.ui.lines import event_line
from tests.ui.skirmish import ruleset, started


def test_r_feal_01_an_oath_is_worded_as_sworn_and_waits_for_the_liege() -> None:
    """R-FEAL-01: "Dawnians swear fealty to the Acherousians ... waiting for the Acherousians to
    accept (R-FEAL-01)", not an alliance's "proposes ... to confirm (R-ALLY-01)"; a refused
    oath cites R-FEAL-01. An alliance proposal keeps its own wording and rule."""
    state, _ = started()
    rs = ruleset()
    oath = PactProposed(5, "fealty", ("DAW", "ACH"), False, "DAW", ("ACH",))
    line = event_line(oath, state, rs) or ""
    assert "swears fealty to" in line and "(proposal 5)" in line, line
    assert "Acherousians (ACH) to accept (R-FEAL-01)." in line, line
    assert "proposes" not in line and "R-ALLY-01" not in line, line
    refused = PactAnswered(5, "fealty", ("DAW", "ACH"), False, "ACH", False, ())
    assert "dropped (R-FEAL-01)" in (event_line(refused, state, rs) or "")
    alliance = PactProposed(6, "alliance", ("DAW", "ORC"), False, "DAW", ("ORC",))
    text = event_line(alliance, state, rs) or ""
    assert "proposes an alliance of" in text and "to confirm (R-ALLY-01)." in text, text


def test_r_feal_01_a_second_oath_while_one_waits_is_refused_under_fealty_s_rule() -> None:
    """R-FEAL-01: the Dawnians swear to the Acherousians twice: the second is refused citing
    R-FEAL-01; a second alliance proposal is refused citing R-ALLY-01."""
    state, _ = started()
    rs = ruleset()
    state = engine.apply(state, SwearFealty("DAW", "ACH"), rs, ScriptedDice([])).state
    with pytest.raises(RuleViolation) as oath:
        engine.apply(state, SwearFealty("DAW", "ACH"), rs, ScriptedDice([]))
    assert oath.value.rule == "R-FEAL-01" and "already been proposed" in str(oath.value)
    state = engine.apply(state, ProposeAlliance("DAW", ("ORC",)), rs, ScriptedDice([])).state
    with pytest.raises(RuleViolation) as alliance:
        engine.apply(state, ProposeAlliance("DAW", ("ORC",)), rs, ScriptedDice([]))
    assert alliance.value.rule == "R-ALLY-01"
