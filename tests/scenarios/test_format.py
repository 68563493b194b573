"""The scenario format itself: a file that breaks it is refused with a message that says
where and what is allowed, and a case that goes otherwise fails with its sentence."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from caedes_bot.gamedata import options as options_module
from tests.scenarios import checks, runner, schema
from tests.scenarios.checks import ScenarioFileError

GOOD = """
title = "Infantry moves one province"

[map]
provinces = { a = ["plains"], b = ["plains"] }
borders = [["a", "b"]]

[kinds]
INF = { faction = "DAW" }

[setup]
step = "move"
units = { a = ["INF"] }

[[case]]
rules = ["R-MOVE-01"]
says = "Infantry enters the next province."

[[case.order]]
by = "DAW"
order = { type = "MoveUnits", unit_ids = [1], destination = "b" }
expect.units = { b = ["INF"] }
"""

PATH = checks.ROOT / "inline.toml"


def _case(text: str) -> schema.Case:
    return schema.load_document(tomllib.loads(text), PATH, 0, "inline")


def _refused(text: str) -> str:
    with pytest.raises(ScenarioFileError) as info:
        _case(text)
    return str(info.value)


def test_a_good_file_runs() -> None:
    runner.run(_case(GOOD))


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ('title = "', 'titel = "x"\ntitle = "', "unknown key 'titel'"),
        ("[setup]", "[setup]\nactve = 'DAW'", "unknown key 'actve' (did you mean active?)"),
        ('type = "MoveUnits"', 'type = "MoveUnit"', "unknown order type 'MoveUnit'"),
        ("destination =", "destinaton =", "MoveUnits has no field 'destinaton'"),
        ('by = "DAW"', 'by = "DAWN"', "'DAWN' is not a faction here"),
        ('by = "DAW"', 'by = "umpire"', "MoveUnits is given by a faction; by = 'umpire'"),
        (
            'type = "MoveUnits", unit_ids = [1], destination = "b"',
            'type = "StartCampaign"',
            "StartCampaign is given only by the umpire; by = 'DAW'",
        ),
        ("unit_ids = [1],", 'faction = "DAW", unit_ids = [1],', "drop 'faction'"),
        ("unit_ids = [1]", 'unit_ids = ["one"]', "unit_ids.0"),
        ("[setup]", "[options]\ncapture_on_entri = true\n[setup]", "unknown option"),
        ("[setup]", "[options]\ncapture_on_entry = 1\n[setup]", "takes a value like False"),
        ("[setup]", "[options]\nentire_move_mode = 'fly'\n[setup]", "is one of"),
        (
            "[setup]",
            "[options]\nearly_end_needs_vote = false\n[setup]",
            "early_end_needs_vote is not built yet",
        ),
        ('["R-MOVE-01"]', '["move 1"]', "is not a rule ID"),
        ('a = ["INF"] }', 'a = ["INFF"] }', "unknown unit kind 'INFF'"),
        ('a = ["INF"] }', 'z = ["INF"] }', "no space 'z'"),
        ('step = "move"', 'step = "march"', "'march' is not a step"),
        ("expect.units", "expect.unit_at", "unknown key 'unit_at'"),
        (
            "expect.units = { b",
            "events = [{ type = 'UnitMoved' }]\nexpect.units = { b",
            "unknown event type 'UnitMoved'",
        ),
        (
            "expect.units = { b",
            "events = [{ type = 'UnitsMoved', to = 'b' }]\nexpect.units = { b",
            "unknown key 'to'",
        ),
        (
            "expect.units = { b",
            "refused = { error = 'IllegalMov', rule = 'R-MOVE-01' }\nexpect.units = { b",
            "unknown error class 'IllegalMov'",
        ),
        (
            "expect.units = { b",
            "refused = { error = 'IllegalMove' }\nexpect.units = { b",
            "missing key 'rule'",
        ),
    ],
)
def test_a_file_that_breaks_the_format_is_refused_with_where_and_why(
    old: str, new: str, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every option is built now: early_end_needs_vote (R-VIC-04) stands in for an unbuilt one
    monkeypatch.setattr(options_module, "UNBUILT_OPTIONS", {"early_end_needs_vote": "R-VIC-04"})
    assert old in GOOD
    message = _refused(GOOD.replace(old, new, 1))
    assert says in message
    assert message.startswith("tests/scenarios/inline.toml")


def test_several_cases_need_names() -> None:
    second = GOOD[GOOD.index("[[case]]") :]
    assert "needs a name" in _refused(GOOD + second)


def _failure(text: str) -> str:
    with pytest.raises(pytest.fail.Exception) as info:
        runner.run(_case(text))
    return str(info.value)


def test_a_wrong_outcome_fails_with_the_case_sentence() -> None:
    message = _failure(GOOD.replace('b = ["INF"]', 'a = ["INF"]'))
    assert "Infantry enters the next province." in message
    assert "(R-MOVE-01)" in message
    assert "at order 1 (DAW: MoveUnits)" in message
    assert "units in a: expected ['INF'], got []" in message


def test_dice_left_unrolled_fail_the_case() -> None:
    message = _failure(GOOD.replace('by = "DAW"', 'by = "DAW"\ndice = [3]'))
    assert "1 scripted dice were never rolled" in message


def test_an_unexpected_refusal_and_an_unexpected_acceptance_fail() -> None:
    refused = _failure(GOOD.replace('destination = "b"', 'destination = "a"'))
    assert "refused:" in refused
    accepted = _failure(
        GOOD.replace(
            "expect.units", "refused = { error = 'IllegalMove', rule = 'R-MOVE-01' }\nexpect.units"
        )
    )
    assert "expected a refusal IllegalMove (R-MOVE-01), but it was accepted" in accepted


def test_collect_names_each_case_of_a_file(tmp_path: Path) -> None:
    second = GOOD[GOOD.index("[[case]]") :]
    two = GOOD.replace("[[case]]", '[[case]]\nname = "one"') + second.replace(
        "[[case]]", '[[case]]\nname = "two"'
    )
    (tmp_path / "area").mkdir()
    (tmp_path / "area" / "file.toml").write_text(two, encoding="utf-8")
    (tmp_path / "broken.toml").write_text("title = ", encoding="utf-8")
    refs = schema.collect(tmp_path)
    assert [r.test_id for r in refs] == ["area/file/one", "area/file/two", "broken"]
    with pytest.raises(ScenarioFileError, match="not valid TOML"):
        schema.load(refs[2])


def test_too_few_scripted_dice_fail_the_case() -> None:
    battle = (checks.ROOT / "combat" / "dice_decide.toml").read_text(encoding="utf-8")
    assert "dice = [4, 4, 4]" in battle
    message = _failure(battle.replace("dice = [4, 4, 4]", "dice = [4, 4]"))
    assert "at order 3 (DAW: FightBattle)" in message
    assert "scripted dice: asked for" in message
