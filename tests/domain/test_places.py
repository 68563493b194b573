"""The key of a campaign's place (caedes_bot/domain/places.py): one type, built and read in one
place (ux.md "Channels of a campaign", R-PBP-NEG-01, R-PBP-NEG-06)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from caedes_bot.domain.places import ChannelKey, PlaceKind

PACKAGE = Path(__file__).resolve().parents[2] / "caedes_bot"


def test_keys_are_built_by_their_constructors() -> None:
    assert ChannelKey.orders("DAW") == "orders:DAW"
    assert ChannelKey.talks("DAW", "ORC") == "talks:DAW+ORC"
    # R-PBP-NEG-01: a group of mutual neighbours has one thread
    assert ChannelKey.talks("DAW", "ORC", "ACH") == "talks:DAW+ORC+ACH"
    assert ChannelKey.talks("DAW", "ORC", "ACH").factions == ("DAW", "ORC", "ACH")
    assert ChannelKey.CATEGORY == "category"
    assert [ChannelKey.ANNOUNCEMENTS, ChannelKey.BATTLES, ChannelKey.TABLE_TALK] == [
        "announcements",
        "battles",
        "table-talk",
    ]
    assert ChannelKey.UMPIRE.creation_key == "setup:umpire"


@pytest.mark.parametrize(
    ("text", "kind", "factions", "thread"),
    [
        ("category", PlaceKind.CATEGORY, (), False),
        ("umpire", PlaceKind.CHANNEL, (), False),
        ("table-talk", PlaceKind.CHANNEL, (), False),
        ("orders:DAW", PlaceKind.ORDERS, ("DAW",), True),
        ("talks:DAW+ORC", PlaceKind.TALKS, ("DAW", "ORC"), True),
    ],
)
def test_stored_text_is_read_back(
    text: str, kind: PlaceKind, factions: tuple[str, ...], thread: bool
) -> None:
    key = ChannelKey(text)
    assert (key.kind, key.factions, key.is_thread) == (kind, factions, thread)
    assert ChannelKey(key) is key


@pytest.mark.parametrize(
    "text",
    [
        "",
        "general",
        "orders:",
        "orders:DA W",
        "talks:DAW",
        "talks:DAW+DAW",
        "talks:DAW+ORC+DAW",
        "thread:DAW",
    ],
)
def test_text_of_no_known_shape_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not the key"):
        ChannelKey(text)


def test_a_key_is_stored_and_sent_as_plain_text() -> None:
    key = ChannelKey.orders("ORC")
    assert json.dumps({"parent_key": key}) == '{"parent_key": "orders:ORC"}'
    assert {key: 1}["orders:ORC"] == 1
    assert type(str(key)) is str


def test_no_module_builds_a_key_by_hand() -> None:
    """Keys are built only in places.py: no f-string elsewhere spells one out."""
    built = re.compile(r"""f["'](orders|talks):""")
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.name != "places.py" and built.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
