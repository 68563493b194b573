"""Counts typed as free text (caedes_bot/cogs/_transformers.py, caedes_bot/cogs/_unit_names.py,
caedes_bot/cogs/redeem.py, caedes_bot/cogs/trade.py): every count is capped and measured BEFORE
it becomes a number, so a huge count is refused at once with a clear message and is never made
into that many things.
"""

from __future__ import annotations

import pytest

from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._transformers import MAX_TEXT_COUNT, parse_bundle, parse_count
from caedes_bot.cogs._unit_names import UnitRequest, parse_units
from caedes_bot.cogs.redeem import parse_sets
from caedes_bot.cogs.trade import _offer_id
from caedes_bot.rules.errors import RuleViolation

HUGE = "9" * 4400  # more digits than Python will turn into an int (4,300)


def test_counts_from_1_to_99_are_read() -> None:
    assert MAX_TEXT_COUNT == 99
    assert parse_count("1", "1 x", rule="R-MOVE-01") == 1
    assert parse_count("+7", "+7 x", rule="R-MOVE-01") == 7
    assert parse_count("099", "099 x", rule="R-MOVE-01") == 99
    assert parse_count("12", "12 x", most=12, rule="R-MOVE-01") == 12


@pytest.mark.parametrize("digits", ["0", "-0", "-1", "-999"])
def test_counts_below_one_are_refused_as_not_positive(digits: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        parse_count(digits, f"{digits} Infantry", rule="R-MOVE-01")
    assert refused.value.message == f"Counts must be positive: '{digits} Infantry'."
    assert refused.value.rule == "R-MOVE-01"
    assert refused.value.allowed == "a count from 1 to 99"


@pytest.mark.parametrize("digits", ["100", "999999999", "99999999999999999999999", HUGE])
def test_counts_above_the_cap_are_refused_whatever_their_length(digits: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        parse_count(digits, f"{digits} grain", rule="R-COMM-10")
    message = refused.value.message
    assert message.startswith("At most 99 of one item: '")
    assert message.endswith("' is too many.")
    assert len(message) < 120  # the typed text is quoted short, never in full


def test_units_option_refuses_bad_counts_and_keeps_good_ones() -> None:
    assert parse_units("99 Infantry") == [UnitRequest("Infantry", 99)]
    with pytest.raises(RuleViolation) as refused:
        parse_units("-1 Infantry")
    assert refused.value.message == "Counts must be positive: '-1 Infantry'."
    with pytest.raises(RuleViolation) as refused:
        parse_units("99999999999999999999999 Infantry")
    assert refused.value.message.startswith("At most 99 of one item")
    with pytest.raises(RuleViolation):
        parse_units(HUGE + " Infantry")


def test_commodity_counts_are_capped_by_the_caller() -> None:
    """R-TRADE-04 names; the trade command allows larger counts than a set does."""
    assert parse_bundle("10000 grain", most=10_000) == {"grain": 10_000}
    with pytest.raises(RuleViolation) as refused:
        parse_bundle(HUGE + " grain", most=10_000)
    assert refused.value.message.startswith("At most 10000 of one item")
    with pytest.raises(RuleViolation) as refused:
        parse_bundle("-2 grain")
    assert refused.value.message == "Counts must be positive: '-2 grain'."


def test_r_comm_10_sets_with_a_huge_count_are_refused_before_any_item_is_made() -> None:
    """R-COMM-10: a set is named by its commodities; a count over 99 is refused outright."""
    assert parse_sets("grain, iron, salt; 2 cloth, timber, livestock") == (
        ("grain", "iron", "salt"),
        ("cloth", "cloth", "timber", "livestock"),
    )
    for text in ("999999999 grain", HUGE + " grain, iron, salt"):
        with pytest.raises(RuleViolation) as refused:
            parse_sets(text)
        assert refused.value.rule == "R-COMM-10"
        assert refused.value.message.startswith("At most 99 of one item")


def test_offer_numbers_are_read_up_to_nine_digits() -> None:
    assert _offer_id("12") == 12
    assert _offer_id(" #12 ") == 12
    for text in ("abc", "²", "-3", "1234567890", HUGE):
        with pytest.raises(UserError) as refused:
            _offer_id(text)
        assert "is not a trade offer number" in refused.value.message
        assert len(refused.value.message) < 100
