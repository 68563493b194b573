"""Option values typed by the umpire (caedes_bot/gamedata/option_text.py, R-SETUP-04)."""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.option_text import BadOptionValue, option_text, parse_option


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("capture_on_entry", " Yes ", True),
        ("rp_carryover", "false", False),
        ("stalemate_rounds", "12", 12),
        ("breath_mighty_dice", "6", 6),
        ("turn_deadline_hours", "1.5", 1.5),
        ("casualty_chooser", "OPPONENT", "opponent"),
        ("upkeep_exempt_types", "Ship, tower, ship", ("ship", "tower")),
        ("upkeep_exempt_types", "none", ()),
    ],
)
def test_r_setup_04_values_as_typed(name: str, text: str, value: object) -> None:
    assert parse_option(name, text) == value


@pytest.mark.parametrize(
    ("name", "text", "allowed"),
    [
        ("capture_on_entry", "maybe", "true or false"),
        ("stalemate_rounds", "0", "a whole number, at least 1"),
        ("breath_mighty_dice", "4", "3 or 6"),
        ("turn_deadline_hours", "-2", "a positive number of hours up to 1440, such as 24 or 1.5"),
        ("withdraw_mixed", "sometimes", "one of: partial, forbidden"),
        ("upkeep_exempt_types", "dragons", "unit types separated by commas"),
    ],
)
def test_r_setup_04_bad_values_say_what_is_allowed(name: str, text: str, allowed: str) -> None:
    with pytest.raises(BadOptionValue) as bad:
        parse_option(name, text)
    assert bad.value.allowed.startswith(allowed)


def test_values_written_back_as_typed() -> None:
    assert [option_text(v) for v in (True, 24.0, 1.5, ("ship", "tower"), (), "over")] == [
        "true",
        "24",
        "1.5",
        "ship, tower",
        "none",
        "over",
    ]
