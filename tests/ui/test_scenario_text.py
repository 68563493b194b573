"""The wording of a scenario's events (R-SETUP-01; decision 0026): each effect's line, and the
umpire's list of the events to come, on the skirmish scenario given events here."""

from __future__ import annotations

from dataclasses import replace

from caedes_bot.gamedata.model import EventUnits, Ruleset, ScenarioEvent
from caedes_bot.rules import scenario_events as se
from caedes_bot.ui.lines import event_line
from caedes_bot.ui.scenario_text import upcoming_field, upcoming_lines
from tests.ui.skirmish import ruleset, started

LEVY = ScenarioEvent(
    id="levy",
    round=2,
    faction="ACH",
    rp={"ACH": 4},
    place=(EventUnits("ACH", "U-ACH-01", "kestrel-downs", 2),),
    owners={"corndale": None},
)
FEAST = ScenarioEvent(id="feast", round=1, announce="A feast in Harrowgate.")
TREATY = ScenarioEvent(id="treaty", round=3, alliances_made=(("DAW", "ORC"),))


def _with_events(*events: ScenarioEvent) -> Ruleset:
    rs = ruleset()
    scenario = replace(rs.scenarios["skirmish"], events=events)
    return replace(rs, scenarios={**rs.scenarios, "skirmish": scenario})


def test_r_setup_01_each_effect_has_its_line() -> None:
    """R-SETUP-01: the fired event shows its announcement; an RP change is told with its
    figures (to its faction only); placements, removals, owners and skipped effects name
    factions and places."""
    rs = _with_events(FEAST)
    state, _ = started()
    fired = se.ScenarioEventFired("feast", 1, "DAW", "A feast in Harrowgate.")
    assert event_line(fired, state, rs) == (
        "**Scenario event** (game round 1): A feast in Harrowgate. (R-SETUP-01)"
    )
    silent = se.ScenarioEventFired("quiet", 2, "ORC", "")
    assert "the scenario's event 'quiet' happens." in (event_line(silent, state, rs) or "")
    money = se.ScenarioTreasuryChanged("levy", "ACH", "rp", 10, 14)
    assert money.audience() == ("ACH",)
    assert event_line(money, state, rs) == "The scenario's event 'levy' gave you 4 RP: 10 -> 14."
    taken = se.ScenarioTreasuryChanged("tithe", "DAW", "grain", 3, 0)
    assert event_line(taken, state, rs) == "The scenario's event 'tithe' took 3 Grain: 3 -> 0."
    placed = se.ScenarioUnitsPlaced("levy", "ACH", "U-ACH-01", "kestrel-downs", (21, 22))
    line = event_line(placed, state, rs) or ""
    assert "Reinforcements for" in line and "(#21, #22)" in line and "Kestrel Downs" in line
    none = se.ScenarioUnitsRemoved("purge", "DAW", "U-DAW-01", "corndale", 3, (), ())
    assert "none of them is there" in (event_line(none, state, rs) or "")
    owner = se.ScenarioOwnerChanged("levy", "corndale", "DAW", "")
    assert event_line(owner, state, rs) == (
        "By the scenario, Corndale now belongs to nobody (R-SETUP-01)."
    )
    skipped = se.ScenarioEffectSkipped("levy", "place", "kestrel-downs", "hostile")
    line = event_line(skipped, state, rs) or ""
    assert "could not make the reinforcements happen for Kestrel Downs" in line
    assert "hostile units stand there" in line


def test_r_setup_01_the_umpire_sees_what_is_to_come_in_order() -> None:
    """R-SETUP-01: in the Dawnian turn of round 1 the feast (round 1) has happened (its id is
    done); the levy (round 2, Acherousian turn) and the treaty (round 3) are to come, in order,
    with their figures."""
    rs = _with_events(TREATY, LEVY, FEAST)
    state, _ = started()
    state.scenario_events_done = ["feast"]
    lines = upcoming_lines(state, rs)
    assert len(lines) == 2
    assert lines[0].startswith("round 2, ") and "'levy'" in lines[0] and "+4 RP" in lines[0]
    assert "Corndale to nobody" in lines[0]
    assert lines[1].startswith("round 3: 'treaty': alliance of ")
    state.finished = True
    assert upcoming_lines(state, rs) == []


def test_r_setup_01_a_long_list_to_come_says_how_many_are_left_out() -> None:
    """R-SETUP-01 (ux.md: within Discord's limits): forty events of about 120 characters each
    do not fit in one embed field (1,024 characters); the field shows the first ones whole and
    ends with "- and N more", the N that were left out; a short list is shown whole."""
    many = tuple(
        ScenarioEvent(id=f"omen-{n:02d}", round=2, announce=f"Omen {n:02d}: " + "x" * 90)
        for n in range(40)
    )
    state, _ = started()
    field = upcoming_field(state, _with_events(*many))
    assert len(field) <= 1024
    lines = field.split("\n")
    shown = lines[:-1]
    assert all(line.startswith("- round 2: 'omen-") for line in shown)
    assert [line[len("- round 2: '") :].split("'")[0] for line in shown] == [
        f"omen-{n:02d}" for n in range(len(shown))
    ]
    assert lines[-1] == f"- and {40 - len(shown)} more"
    assert 5 < len(shown) < 40
    short = upcoming_field(state, _with_events(LEVY, TREATY))
    assert short.split("\n") == [
        f"- {line}" for line in upcoming_lines(state, _with_events(LEVY, TREATY))
    ]
    assert "more" not in short
