"""The database schema: typed SQLAlchemy 2 models (design.md section 4).

Alembic owns the schema (``migrations/``); these models are its source of truth for
autogenerate and a test checks that the two agree.

What lives where:

* ``campaigns``: one row per campaign with its ``version``, which every order bumps;
* ``campaign_state_parts``: its rules state (:class:`~caedes_bot.rules.state.GameState`) as
  parts, one JSON document per unit, per faction and per other section
  (:mod:`caedes_bot.persistence.stateparts`, docs/decisions/0008), so that an order rewrites
  only the parts it changed.
* ``campaign_orders`` and ``campaign_events``: the append-only order log (enough to replay a
  campaign exactly) and event log (the history players see).
* ``members``, ``channels``, ``deadlines``, ``processed_interactions``, ``outbox``,
  ``audit_log``: relational tables for what the Discord edge looks up on its own.

The enums stored here (campaign status, acting as, outbox kind and status) belong to
:mod:`caedes_bot.domain.records`, which the rest of the bot imports them from.

All timestamps are UTC (:class:`UTCDateTime`). JSON columns use ``sa.JSON`` so the same models
work on SQLite and PostgreSQL. Relationships are not used: the service reads and writes with a
few Core statements per order, so there is no lazy loading to guard against.
"""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from caedes_bot.domain.records import ActingAs, CampaignStatus, OutboxKind, OutboxStatus

NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """A timestamp stored as UTC and always read back timezone-aware (UTC).

    SQLite keeps no zone, so values are stored as naive UTC; aware values of any zone are
    converted to UTC first. Naive values given to it are taken to be UTC already.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is not None:
            value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def _enum(cls: type[enum.StrEnum], name: str) -> sa.Enum:
    # Stored as plain strings (no native enum type, no CHECK constraint): adding a member
    # needs no migration.
    return sa.Enum(
        cls,
        name=name,
        native_enum=False,
        create_constraint=False,
        length=32,
        values_callable=lambda members: [m.value for m in members],
    )


class Base(DeclarativeBase):
    """Declarative base with the project's constraint naming convention."""

    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: dict[Any, Any] = {  # noqa: RUF012 - SQLAlchemy's documented hook
        datetime: UTCDateTime(),
        dict[str, Any]: sa.JSON(),
        list[Any]: sa.JSON(),
    }


#: Campaigns that still hold their name: any but finished ones.
_OPEN_CAMPAIGN = sa.text("status != 'finished'")


class Campaign(Base):
    """One campaign: its Discord home, its status and the version of its rules state (whose
    parts are :class:`CampaignStatePart` rows).

    ``name_key`` is the name as compared (case-folded); two campaigns of a guild that are not
    finished never share one (a partial unique index), so two ``/campaign new`` at once cannot
    both make a campaign of the same name.
    """

    __tablename__ = "campaigns"
    __table_args__ = (
        sa.Index(
            "uq_campaigns_guild_id_name_key_open",
            "guild_id",
            "name_key",
            unique=True,
            sqlite_where=_OPEN_CAMPAIGN,
            postgresql_where=_OPEN_CAMPAIGN,
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    guild_id: Mapped[int] = mapped_column(sa.BigInteger, index=True)
    name: Mapped[str] = mapped_column(sa.String(100))
    name_key: Mapped[str] = mapped_column(sa.String(100))
    scenario: Mapped[str] = mapped_column(sa.String(100))
    status: Mapped[CampaignStatus] = mapped_column(_enum(CampaignStatus, "campaign_status"))
    version: Mapped[int] = mapped_column(sa.Integer, default=0)
    last_event_seq: Mapped[int] = mapped_column(sa.Integer, default=0)
    #: ``seq`` of the campaign's latest ``TurnBegan`` event (0 before any): where the events of
    #: the turn being played start, found without scanning the event log.
    turn_start_seq: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")
    #: moved on by each holder of the campaign's lock across processes, odd while held
    #: (PostgreSQL; :meth:`caedes_bot.persistence.db.Database.campaign_lock`, decision 0024).
    lock_seq: Mapped[int] = mapped_column(sa.BigInteger, default=0, server_default="0")
    created_by: Mapped[int] = mapped_column(sa.BigInteger)
    umpire_user_id: Mapped[int | None] = mapped_column(sa.BigInteger)
    category_id: Mapped[int | None] = mapped_column(sa.BigInteger)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class CampaignStatePart(Base):
    """One part of a campaign's rules state (a unit, a faction, a section): its key, its place
    among the parts of its kind (``ord``, which keeps the order of the state's dicts) and its
    JSON text (:mod:`caedes_bot.persistence.stateparts`)."""

    __tablename__ = "campaign_state_parts"

    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(sa.String(100), primary_key=True)
    ord: Mapped[int] = mapped_column(sa.BigInteger)
    doc: Mapped[Any] = mapped_column(sa.JSON())


class CampaignOrder(Base):
    """One accepted order, in the order applied: what makes exact replay possible."""

    __tablename__ = "campaign_orders"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(sa.Integer)
    actor_user_id: Mapped[int | None] = mapped_column(sa.BigInteger)
    acting_as: Mapped[ActingAs] = mapped_column(_enum(ActingAs, "acting_as"))
    faction: Mapped[str | None] = mapped_column(sa.String(8))
    type: Mapped[str] = mapped_column(sa.String(100))
    payload: Mapped[dict[str, Any]] = mapped_column(sa.JSON())
    interaction_id: Mapped[str | None] = mapped_column(sa.String(100))
    dice_before: Mapped[int] = mapped_column(sa.Integer)
    dice_after: Mapped[int] = mapped_column(sa.Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class CampaignEvent(Base):
    """One event of a campaign's append-only history."""

    __tablename__ = "campaign_events"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(sa.Integer)
    order_seq: Mapped[int] = mapped_column(sa.Integer)
    type: Mapped[str] = mapped_column(sa.String(100))
    payload: Mapped[dict[str, Any]] = mapped_column(sa.JSON())
    audience: Mapped[list[Any] | None] = mapped_column(sa.JSON())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class Member(Base):
    """A user holding a faction. A user may hold several factions; a faction has one player."""

    __tablename__ = "members"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "faction"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int] = mapped_column(sa.BigInteger, index=True)
    faction: Mapped[str] = mapped_column(sa.String(8))


class Channel(Base):
    """A Discord place of a campaign by key (``"announcements"``, ``"orders:DAW"``).

    ``discord_id`` is ``None`` until the outbox has created it.
    """

    __tablename__ = "channels"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    key: Mapped[str] = mapped_column(sa.String(100))
    discord_id: Mapped[int | None] = mapped_column(sa.BigInteger, index=True)
    parent_key: Mapped[str | None] = mapped_column(sa.String(100))


class ProcessedInteraction(Base):
    """An interaction already handled, with the result first returned (idempotency)."""

    __tablename__ = "processed_interactions"

    interaction_id: Mapped[str] = mapped_column(sa.String(100), primary_key=True)
    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    result: Mapped[dict[str, Any]] = mapped_column(sa.JSON())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class OutboxEntry(Base):
    """A message owed to Discord, written in the same transaction as the change it reports.

    Rows of one ``(campaign_id, channel_key)`` are delivered strictly in id order;
    ``depends_on`` names a row that must be delivered first (e.g. the channel's creation).
    ``dedupe_key`` is unique per campaign when set, so a resumed set-up writes no row twice;
    ``nonce`` goes with a posted message so Discord drops a duplicate.
    """

    __tablename__ = "outbox"
    __table_args__ = (
        sa.UniqueConstraint("campaign_id", "dedupe_key"),
        sa.Index("ix_outbox_status_next_attempt_at", "status", "next_attempt_at"),
        # one queue's rows by status, in id order: the pending rows the outbox serves and the
        # last post of a channel are found without reading the campaign's whole history (it
        # serves the look-ups by campaign too, so campaign_id has no index of its own)
        sa.Index("ix_outbox_queue", "campaign_id", "channel_key", "status", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    campaign_id: Mapped[int] = mapped_column(sa.ForeignKey("campaigns.id", ondelete="CASCADE"))
    channel_key: Mapped[str] = mapped_column(sa.String(100))
    kind: Mapped[OutboxKind] = mapped_column(_enum(OutboxKind, "outbox_kind"))
    payload: Mapped[dict[str, Any]] = mapped_column(sa.JSON())
    dedupe_key: Mapped[str | None] = mapped_column(sa.String(200))
    nonce: Mapped[str] = mapped_column(sa.String(25))
    status: Mapped[OutboxStatus] = mapped_column(_enum(OutboxStatus, "outbox_status"))
    attempts: Mapped[int] = mapped_column(sa.Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_error: Mapped[str | None] = mapped_column(sa.Text)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    discord_message_id: Mapped[int | None] = mapped_column(sa.BigInteger)
    result: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON())
    depends_on: Mapped[int | None] = mapped_column(sa.ForeignKey("outbox.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class Deadline(Base):
    """A deadline of a campaign: a turn (``turn:<round>:<faction>``) or a decision
    (``decision:<id>``). Re-armed from here when the bot starts. ``fired`` means closed: it
    passed and was acted on, or what it waited for was done."""

    __tablename__ = "deadlines"
    __table_args__ = (sa.UniqueConstraint("campaign_id", "decision_key"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    decision_key: Mapped[str] = mapped_column(sa.String(100))
    faction: Mapped[str | None] = mapped_column(sa.String(8))
    due_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    reminder_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    reminded: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    fired: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    #: the process acting on it and until when (decision 0025): a passed deadline is acted on
    #: by the one process holding its claim; a claim past ``claimed_until`` may be taken over
    claimed_by: Mapped[str | None] = mapped_column(sa.String(64))
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime())


class OutboxLease(Base):
    """Which process delivers a queue ``(campaign_id, channel_key)`` of the outbox, and until
    when (decision 0025). A process delivers a queue's rows only while it holds the lease, so
    each message goes out from one process, in order; a lease past ``until`` (its process
    died or stalled) may be taken by another."""

    __tablename__ = "outbox_leases"

    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    channel_key: Mapped[str] = mapped_column(sa.String(100), primary_key=True)
    claimed_by: Mapped[str] = mapped_column(sa.String(64))
    until: Mapped[datetime] = mapped_column(UTCDateTime())


class AuditEntry(Base):
    """An umpire's (or admin's) action, for the ``#umpire`` channel and later review."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(sa.BigInteger)
    action: Mapped[str] = mapped_column(sa.String(100))
    detail: Mapped[dict[str, Any]] = mapped_column(sa.JSON())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class BattleOddsEntry(Base):
    """The odds a battle message opens with (option ``battle_message_odds``, R-COMBAT-16,
    decision 0020): asked for in the transaction of the order that began the battle
    (``request``: its ``BattleOddsAsked`` event, ``asked_seq``: that order), answered by the
    odds worker after it (``figures``, ``method``, ``unsupported``, ``answered_at``). A battle
    id begun again after an undo or a rollback replaces its row."""

    __tablename__ = "battle_odds"

    campaign_id: Mapped[int] = mapped_column(
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    battle_id: Mapped[int] = mapped_column(sa.BigInteger, primary_key=True)
    asked_seq: Mapped[int] = mapped_column(sa.BigInteger)
    request: Mapped[dict[str, Any]] = mapped_column(sa.JSON())
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime())
    figures: Mapped[list[float] | None] = mapped_column(sa.JSON())
    method: Mapped[str | None] = mapped_column(sa.String(20))
    unsupported: Mapped[list[str] | None] = mapped_column(sa.JSON())
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), index=True)


campaigns = cast(sa.Table, Campaign.__table__)
campaign_state_parts = cast(sa.Table, CampaignStatePart.__table__)
campaign_orders = cast(sa.Table, CampaignOrder.__table__)
campaign_events = cast(sa.Table, CampaignEvent.__table__)
members = cast(sa.Table, Member.__table__)
channels = cast(sa.Table, Channel.__table__)
processed_interactions = cast(sa.Table, ProcessedInteraction.__table__)
outbox = cast(sa.Table, OutboxEntry.__table__)
deadlines = cast(sa.Table, Deadline.__table__)
outbox_leases = cast(sa.Table, OutboxLease.__table__)
audit_log = cast(sa.Table, AuditEntry.__table__)
battle_odds = cast(sa.Table, BattleOddsEntry.__table__)
