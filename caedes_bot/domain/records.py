"""Enums and records of a campaign's bookkeeping (see :mod:`caedes_bot.domain`).

The storage reads and writes them (``persistence.tables`` stores the enums as plain strings),
the service returns them, and the Discord edge renders them. Timestamps are aware UTC
datetimes.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from caedes_bot.domain.places import ChannelKey
from caedes_bot.rules.events import Event


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


# ---------------------------------------------------------------------------------------------
# Enums


class CampaignStatus(enum.StrEnum):
    """Where a campaign is in its life."""

    SETTING_UP = "setting_up"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"


class ActingAs(enum.StrEnum):
    """In which capacity an order was given (stored with every order)."""

    PLAYER = "player"
    UMPIRE = "umpire"
    ADMIN = "admin"
    SYSTEM = "system"


class OutboxKind(enum.StrEnum):
    """What an outbox row asks of Discord."""

    POST = "post"
    EDIT = "edit"
    CREATE_CATEGORY = "create_category"
    CREATE_CHANNEL = "create_channel"
    CREATE_THREAD = "create_thread"
    ADD_THREAD_MEMBER = "add_thread_member"
    REMOVE_THREAD_MEMBER = "remove_thread_member"
    GRANT_CHANNEL_ACCESS = "grant_channel_access"
    REVOKE_CHANNEL_ACCESS = "revoke_channel_access"
    LOCK_THREAD = "lock_thread"
    """Lock (``payload["locked"]`` true) or unlock a thread: PATCH the channel's ``locked``;
    unlocking also unarchives it (R-PBP-NEG-03)."""


#: Kinds that create a channel, category or thread and store its Discord id in ``channels``.
CREATING_KINDS: frozenset[OutboxKind] = frozenset(
    {OutboxKind.CREATE_CATEGORY, OutboxKind.CREATE_CHANNEL, OutboxKind.CREATE_THREAD}
)


class OutboxStatus(enum.StrEnum):
    """Delivery status of an outbox row."""

    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"


# ---------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    """A campaign as the Discord edge sees it (no rules state)."""

    id: int
    guild_id: int
    name: str
    scenario: str
    status: CampaignStatus
    version: int
    created_by: int
    umpire_user_id: int | None
    category_id: int | None
    created_at: datetime
    updated_at: datetime
    #: When the umpire paused the campaign (``None`` unless it is paused), R-PBP-UMP-05.
    paused_at: datetime | None = None


#: The least time a deadline gets back when a paused campaign resumes (R-PBP-UMP-05).
MIN_LEFT_ON_RESUME = timedelta(hours=1)


def time_left(due_at: datetime, paused_at: datetime) -> timedelta:
    """The time a deadline had left when its campaign was paused, as given back on resuming:
    ``due_at - paused_at``, but never less than :data:`MIN_LEFT_ON_RESUME` (R-PBP-UMP-05), so
    a deadline that had passed unseen when the pause came also gets one hour."""
    return max(due_at - paused_at, MIN_LEFT_ON_RESUME)


#: The odds a battle message opens with (R-COMBAT-16): the figures of
#: :func:`caedes_bot.rules.odds.opening.opening_figures`, the method, the attributes not modelled.
OpeningOdds = tuple[tuple[float, ...], str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class CampaignView:
    """What an announcer knows of a campaign: its row, who plays which faction, and its open
    deadlines (key -> when it falls due: ``turn:<round>:<faction>``, ``decision:<id>``), those
    made by the order being announced included. When the order ends a turn, ``turn_events``
    holds the events of that turn stored by earlier orders (from its ``TurnBegan`` on), so the
    turn summary can speak of the whole turn (R-GEN-07). When the order judged neighbourhood
    again, ``threads`` holds the keys of the campaign's places (its negotiation threads among
    them), so their locks can follow the judgement (R-PBP-NEG-03)."""

    info: CampaignInfo
    players: Mapping[str, int]
    deadlines: Mapping[str, datetime] = field(default_factory=dict)
    turn_events: Sequence[Event] = ()
    threads: frozenset[str] = frozenset()
    #: with the option ``battle_message_odds``, the odds of the battles the order shows that
    #: were asked for (R-COMBAT-16, decision 0020): battle id -> its odds, ``None`` while
    #: they are being worked out
    battle_odds: Mapping[int, OpeningOdds | None] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OutboxMessage:
    """A message owed to Discord, as an announcer or the service writes it.

    Attributes:
        channel_key: where it goes (``announcements``, ``orders:DAW``); the ordering key.
        kind: what to do.
        payload: JSON-friendly detail for the sender (``{"content": ...}``, names, members).
        dedupe_key: unique per campaign when set; an ``edit`` finds its message by the
            ``dedupe_key`` of the ``post`` that made it (``payload["message_key"]``). A post
            with ``payload["replaces"]`` stands in for the message of that key from then on
            (``/panel``), as does an edit that found its message deleted and posted it again.
        depends_on_key: the ``dedupe_key`` of a row that must be delivered first.
    """

    channel_key: ChannelKey
    kind: OutboxKind
    payload: Mapping[str, Any] = field(default_factory=dict)
    dedupe_key: str | None = None
    depends_on_key: str | None = None


@dataclass(frozen=True, slots=True)
class OutboxRecord:
    """A stored outbox row."""

    id: int
    campaign_id: int
    channel_key: ChannelKey
    kind: OutboxKind
    payload: dict[str, Any]
    dedupe_key: str | None
    nonce: str
    status: OutboxStatus
    attempts: int
    next_attempt_at: datetime
    last_error: str | None
    delivered_at: datetime | None
    discord_message_id: int | None
    result: dict[str, Any] | None
    depends_on: int | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class DeliveryProblem:
    """A message or set-up step the bot could not deliver to Discord, for good.

    Attributes:
        channel_key: the place (``"category"``, ``"announcements"``, ``"orders:DAW"``).
        kind: what was asked of Discord.
        error: Discord's answer, or why it could not be tried.
        payload: the row's detail (names, members).
    """

    channel_key: ChannelKey
    kind: OutboxKind
    error: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ChannelRecord:
    """A campaign's Discord place by key; ``discord_id`` is ``None`` until created."""

    campaign_id: int
    key: ChannelKey
    discord_id: int | None
    parent_key: ChannelKey | None


@dataclass(frozen=True, slots=True)
class StoredOrder:
    """One row of the order log."""

    campaign_id: int
    seq: int
    actor_user_id: int | None
    acting_as: ActingAs
    faction: str | None
    type: str
    payload: dict[str, Any]
    interaction_id: str | None
    dice_before: int
    dice_after: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of the event log; ``audience`` ``None`` = public (R-GEN-07)."""

    campaign_id: int
    seq: int
    order_seq: int
    type: str
    payload: dict[str, Any]
    audience: list[str] | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class DeadlineRecord:
    """A stored deadline."""

    id: int
    campaign_id: int
    decision_key: str
    faction: str | None
    due_at: datetime
    reminder_at: datetime | None
    reminded: bool
    fired: bool


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One audit log entry."""

    campaign_id: int
    user_id: int | None
    action: str
    detail: dict[str, Any]
    created_at: datetime
