"""Every campaign option does something, or is refused until its rule is built.

An option is built when the code outside the game data package reads it from the options
(``state.options.x``, ``opts.x``, ``options.x``); the others are listed in
``gamedata.options.UNBUILT_OPTIONS`` and can only keep their default (R-SETUP-04).
"""

from __future__ import annotations

import ast
import dataclasses
import shutil
from pathlib import Path

import pytest

from caedes_bot.gamedata import options as options_module
from caedes_bot.gamedata.loader import GameDataError, default_config_dir, load_ruleset
from caedes_bot.gamedata.model import OPTION_CHOICES, Options
from caedes_bot.gamedata.options import UNBUILT_OPTIONS, OptionNotBuilt, check_option_built

PACKAGE = Path(__file__).resolve().parents[2] / "caedes_bot"

#: Every option is built now; the refusal of an unbuilt one is tested with this stand-in
#: (the last option built, R-VIC-04), listed as unbuilt only while such a test runs.
STAND_IN = {"early_end_needs_vote": "R-VIC-04"}
OPTION_NAMES = [f.name for f in dataclasses.fields(Options)]


def _options_read_in_code() -> set[str]:
    """Names read as ``<something named like options>.<name>`` outside caedes_bot/gamedata."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if "gamedata" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
                continue
            base = node.value
            base_name = (
                base.id
                if isinstance(base, ast.Name)
                else base.attr
                if isinstance(base, ast.Attribute)
                else ""
            )
            if "opt" in base_name.lower():
                found.add(node.attr)
    return found


def _other_value(name: str) -> object:
    """A valid value of option ``name`` that is not its default."""
    default = getattr(Options(), name)
    if isinstance(default, bool):
        return not default
    if isinstance(default, str):
        return next(c for c in OPTION_CHOICES[name] if c != default)
    if isinstance(default, float):
        return default + 1
    if isinstance(default, int):
        return 6 if name == "breath_mighty_dice" else default + 1
    assert isinstance(default, tuple)
    return ["tower"]


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)


def test_every_option_is_read_or_refused_r_setup_04() -> None:
    read = _options_read_in_code()
    assert set(UNBUILT_OPTIONS) <= set(OPTION_NAMES)
    idle = [n for n in OPTION_NAMES if n not in read and n not in UNBUILT_OPTIONS]
    assert not idle, f"options read by nothing and not marked unbuilt: {idle}"
    stale = [n for n in OPTION_NAMES if n in read and n in UNBUILT_OPTIONS]
    assert not stale, f"options read by the code but still refused as unbuilt: {stale}"


@pytest.fixture
def unbuilt(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The options refused as unbuilt: the real list, or the stand-in when it is empty."""
    if UNBUILT_OPTIONS:
        return dict(UNBUILT_OPTIONS)
    monkeypatch.setattr(options_module, "UNBUILT_OPTIONS", STAND_IN)
    return dict(STAND_IN)


@pytest.mark.parametrize("name", sorted(UNBUILT_OPTIONS or STAND_IN))
def test_unbuilt_option_keeps_its_default(name: str, unbuilt: dict[str, str]) -> None:
    UNBUILT_OPTIONS = unbuilt
    default = getattr(Options(), name)
    check_option_built(name, default)  # the default is always accepted
    with pytest.raises(OptionNotBuilt) as info:
        check_option_built(name, _other_value(name))
    assert info.value.option == name
    assert info.value.rule == UNBUILT_OPTIONS[name]
    assert name in str(info.value)
    assert UNBUILT_OPTIONS[name] in str(info.value)
    assert "not built yet" in str(info.value)


def test_built_options_take_any_value() -> None:
    check_option_built("casualty_chooser", "opponent")
    check_option_built("upkeep_exempt_types", ["tower"])
    with pytest.raises(KeyError):
        check_option_built("public_treasury", True)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "caedes"
    shutil.copytree(default_config_dir(), root)
    return root


def _set_options(root: Path, relative: str, anchor: str, options: dict[str, object]) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    lines = "".join(f"{k} = {_toml(v)}\n" for k, v in options.items())
    assert anchor in text
    path.write_text(text.replace(anchor, anchor + lines, 1), encoding="utf-8")


def test_scenario_setting_unbuilt_options_is_refused(data: Path, unbuilt: dict[str, str]) -> None:
    """A scenario may not switch on a rule that is not built: every such option is named, with
    its rule, in one error."""
    UNBUILT_OPTIONS = unbuilt
    wanted = {name: _other_value(name) for name in UNBUILT_OPTIONS}
    _set_options(data, "scenarios/default.toml", "[options]\n", wanted)
    with pytest.raises(GameDataError) as info:
        load_ruleset(data)
    found = info.value.problems
    for name, rule in UNBUILT_OPTIONS.items():
        assert any(
            line.startswith("scenarios/default.toml: [options] option")
            and f"'{name}'" in line
            and "not built yet" in line
            and rule in line
            for line in found
        ), name
    assert len(found) == len(UNBUILT_OPTIONS)


def test_scenario_may_name_an_unbuilt_option_at_its_default(data: Path) -> None:
    _set_options(data, "scenarios/default.toml", "[options]\n", {"breath_mode": "under"})
    assert load_ruleset(data).scenarios["default"].options.breath_mode == "under"


def test_options_file_setting_an_unbuilt_option_is_refused(
    data: Path, unbuilt: dict[str, str]
) -> None:
    text = (data / "options.toml").read_text(encoding="utf-8")
    (data / "options.toml").write_text(
        text.replace("early_end_needs_vote = true", "early_end_needs_vote = false"),
        encoding="utf-8",
    )
    with pytest.raises(GameDataError) as info:
        load_ruleset(data)
    assert info.value.problems == [
        "options.toml: option 'early_end_needs_vote': the option early_end_needs_vote is not"
        " built yet: this version of the bot does not run its rule R-VIC-04, so it stays at its"
        " default true"
    ]
