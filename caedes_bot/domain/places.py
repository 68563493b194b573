"""The key of a campaign's Discord place: built and read here, and nowhere else.

A campaign's places are its category, four channels and two kinds of private thread under
``#announcements`` (ux.md "Channels of a campaign"). Each has a stable key, stored in the
``channels`` table and on every outbox row, that the bot knows it by before Discord has made
it (and after a restart):

========================  ==============================================  =================
key                       place                                           kind
========================  ==============================================  =================
``category``              the campaign's category                         ``CATEGORY``
``announcements``         ``#announcements`` (also ``#battles``,          ``CHANNEL``
                          ``#table-talk``, ``#umpire``)
``orders:DAW``            the private orders thread of one faction        ``ORDERS``
                          (R-PBP-NEG-06)
``talks:DAW+ORC``         the negotiation thread of two factions, or of   ``TALKS``
                          a group (``talks:DAW+ORC+ACH``, R-PBP-NEG-01),
                          in turn order
========================  ==============================================  =================

:class:`ChannelKey` is a ``str`` (so it is stored, compared and sent as JSON unchanged) that
can only hold one of these shapes; the constructors build it and its properties read it.
"""

from __future__ import annotations

import enum
from typing import ClassVar


class PlaceKind(enum.StrEnum):
    """What kind of Discord place a key names."""

    CATEGORY = "category"
    CHANNEL = "channel"
    ORDERS = "orders"
    TALKS = "talks"


#: The channels of a campaign, by key.
CHANNEL_NAMES: frozenset[str] = frozenset({"announcements", "battles", "table-talk", "umpire"})

_BAD_IN_FACTION = frozenset(":+ ")


def _faction_ok(code: str) -> bool:
    return bool(code) and not _BAD_IN_FACTION.intersection(code)


class ChannelKey(str):
    """The key of a campaign's place: ``"category"``, a channel (``"announcements"``,
    ``"battles"``, ``"table-talk"``, ``"umpire"``), ``"orders:<faction>"`` or
    ``"talks:<faction>+<faction>"``.

    ``ChannelKey(text)`` parses stored text (a key given again is returned as it is).
    Build new keys with :meth:`orders`, :meth:`talks` or the constants (:attr:`CATEGORY`,
    :attr:`ANNOUNCEMENTS`, :attr:`BATTLES`, :attr:`TABLE_TALK`, :attr:`UMPIRE`).

    Raises:
        ValueError: ``text`` has none of the shapes above.
    """

    __slots__ = ()

    CATEGORY: ClassVar[ChannelKey]
    ANNOUNCEMENTS: ClassVar[ChannelKey]
    BATTLES: ClassVar[ChannelKey]
    TABLE_TALK: ClassVar[ChannelKey]
    UMPIRE: ClassVar[ChannelKey]

    def __new__(cls, text: str) -> ChannelKey:
        if isinstance(text, ChannelKey):
            return text
        head, sep, rest = text.partition(":")
        if not sep:
            ok = text == "category" or text in CHANNEL_NAMES
        elif head == "orders":
            ok = _faction_ok(rest)
        elif head == "talks":
            parts = rest.split("+")
            ok = (
                len(parts) >= 2
                and all(_faction_ok(p) for p in parts)
                and len(set(parts)) == len(parts)
            )
        else:
            ok = False
        if not ok:
            raise ValueError(f"not the key of a campaign's place: {text!r}")
        return super().__new__(cls, text)

    @classmethod
    def orders(cls, faction: str) -> ChannelKey:
        """The private orders thread of ``faction`` (R-PBP-NEG-06): ``"orders:DAW"``."""
        return cls(f"orders:{faction}")

    @classmethod
    def talks(cls, first: str, second: str, *more: str) -> ChannelKey:
        """The negotiation thread of two factions, or of a group (R-PBP-NEG-01), in the order
        given (the caller gives turn order, so every member names the same thread):
        ``"talks:DAW+ORC"``, ``"talks:DAW+ORC+ACH"``."""
        return cls("talks:" + "+".join((first, second, *more)))

    @property
    def kind(self) -> PlaceKind:
        """The kind of place."""
        head, sep, _ = self.partition(":")
        if not sep:
            return PlaceKind.CATEGORY if self == "category" else PlaceKind.CHANNEL
        return PlaceKind(head)

    @property
    def is_thread(self) -> bool:
        """An orders or negotiation thread (factions' players and the umpire belong in it)."""
        return self.kind in (PlaceKind.ORDERS, PlaceKind.TALKS)

    @property
    def creation_key(self) -> str:
        """The dedupe key of the outbox row that makes this place: ``"setup:orders:DAW"``.
        Rows that need the place to exist depend on it."""
        return f"setup:{self}"

    @property
    def factions(self) -> tuple[str, ...]:
        """The factions whose players belong in the thread: ``orders:DAW`` -> ``("DAW",)``,
        ``talks:DAW+ORC`` -> ``("DAW", "ORC")``; ``()`` for the category and channels."""
        head, _, rest = self.partition(":")
        if head == "orders":
            return (rest,)
        if head == "talks":
            return tuple(rest.split("+"))
        return ()


ChannelKey.CATEGORY = ChannelKey("category")
ChannelKey.ANNOUNCEMENTS = ChannelKey("announcements")
ChannelKey.BATTLES = ChannelKey("battles")
ChannelKey.TABLE_TALK = ChannelKey("table-talk")
ChannelKey.UMPIRE = ChannelKey("umpire")
