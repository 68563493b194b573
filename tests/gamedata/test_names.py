"""Names as people type them (caedes_bot/gamedata/names.py, R-GEN-04): the one folding and the
one way of matching a typed name, with names written out by hand."""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.names import Found, contains, find, fold


@pytest.mark.parametrize(
    "typed",
    [
        "Serpent's Tooth",
        "Serpent’s Tooth",  # the curly apostrophe phones put in
        "Serpent‘s Tooth",
        "Serpentʼs Tooth",
        "Serpent`s Tooth",
        "Serpent's  Tooth",  # two spaces
        "  serpent's\ttooth ",
        "SERPENT'S\u00a0TOOTH",  # a no-break space
        "Serpent's\nTooth",
        "Ser\u200bpent's Tooth",  # a zero-width space
        "Sérpent’s Tööth",  # accents
        "Ｓｅｒｐｅｎｔ's Tooth",  # full-width letters
    ],
)
def test_r_gen_04_spellings_of_one_name_fold_alike(typed: str) -> None:
    """R-GEN-04: typographic apostrophes, spacing, case, accents and invisible characters do not
    make another name."""
    assert fold(typed) == "serpent's tooth"


def test_fold_makes_quotes_and_dashes_plain_and_is_idempotent() -> None:
    assert fold("“Kestrel” Downs") == '"kestrel" downs'
    assert fold("«Orme»") == '"orme"'
    assert fold("Greywater – Ford") == "greywater - ford"
    assert fold("Straße") == "strasse"
    for text in ("Serpent’s  Tooth", "Ｏｒｍｅ", "ŁÓDŹ"):
        assert fold(fold(text)) == fold(text)
    assert fold("   ") == ""


NAMES = [
    ("orme", ("orme", "Orme")),
    ("orlean", ("orlean", "Orléan")),
    ("kestrel", ("kestrel-downs", "Kestrel Downs")),
    ("tooth", ("serpents-tooth", "Serpent's Tooth")),
]


def test_r_gen_04_a_name_or_the_start_of_one_names_one_item() -> None:
    """R-GEN-04: a full name wins, even when it starts another ("Orme" is no start of
    Orléan, but "Or" is both); a unique start names its item; a start of several is
    ambiguous and lists them; nothing typed names nothing."""
    assert find("ORME", NAMES) == Found("orme")
    assert find("orleAn", NAMES) == Found("orlean")
    assert find("Kest", NAMES) == Found("kestrel")
    assert find("serpent’s", NAMES) == Found("tooth")
    assert find("serpents-t", NAMES) == Found("tooth")
    assert find("Or", NAMES) == Found(None, ("orme", "orlean"))
    assert find("Wolfsgate", NAMES) == Found()
    assert find("  ", NAMES) == Found()


def test_the_first_item_with_a_full_name_wins() -> None:
    """Two items with one name (two factions' "Infantry"): the first given is taken."""
    assert find("Infantry", [("a", ("Infantry",)), ("b", ("Infantry",))]) == Found("a")


def test_autocomplete_matches_a_folded_part_of_a_name() -> None:
    assert contains("", "Orme")
    assert contains("pent’s  to", "Serpent's Tooth")
    assert contains("LEAN", "Orléan")
    assert not contains("Orx", "Orme", "orme")
