"""Campaign rows: create, read, list, change, and the versioned save of the state's parts.

The state is stored as parts (``campaign_state_parts``, :mod:`caedes_bot.persistence.stateparts`,
docs/decisions/0008). ``save_state`` is the optimistic version check of an order: it bumps the
version only if the campaign is still at the version the state was read at, else raises
:class:`StaleVersion` and writes nothing; then it writes the parts the order changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignInfo, CampaignStatus
from caedes_bot.persistence.db import RawJSON
from caedes_bot.persistence.stateparts import Part, PartChanges
from caedes_bot.persistence.tables import campaign_state_parts, campaigns


@dataclass(frozen=True, slots=True)
class CampaignRecord:
    """A campaign with its state's parts (``(key, JSON text)`` in ``ord`` order, for
    :func:`~caedes_bot.persistence.stateparts.load_parts`), the last event sequence number and
    the campaign lock's counter (``lock_seq``, decision 0024)."""

    info: CampaignInfo
    parts: list[tuple[str, str]]
    last_event_seq: int
    lock_seq: int = 0


class StaleVersion(Exception):
    """The campaign's version moved on since the state was read: reload and retry."""


_INFO_COLUMNS = (
    campaigns.c.id,
    campaigns.c.guild_id,
    campaigns.c.name,
    campaigns.c.scenario,
    campaigns.c.status,
    campaigns.c.version,
    campaigns.c.created_by,
    campaigns.c.umpire_user_id,
    campaigns.c.category_id,
    campaigns.c.created_at,
    campaigns.c.updated_at,
    campaigns.c.paused_at,
)


def _info(row: Any) -> CampaignInfo:
    m = row._mapping
    return CampaignInfo(
        id=m["id"],
        guild_id=m["guild_id"],
        name=m["name"],
        scenario=m["scenario"],
        status=CampaignStatus(m["status"]),
        version=m["version"],
        created_by=m["created_by"],
        umpire_user_id=m["umpire_user_id"],
        category_id=m["category_id"],
        created_at=m["created_at"],
        updated_at=m["updated_at"],
        paused_at=m["paused_at"],
    )


def name_key(name: str) -> str:
    """A campaign name as compared: runs of whitespace made single, case-folded
    (``"Seven  SWORDS"`` -> ``"seven swords"``)."""
    return " ".join(name.split()).casefold()[:100]


def insert_campaign(
    conn: Connection,
    *,
    guild_id: int,
    name: str,
    scenario: str,
    parts: Sequence[Part],
    created_by: int,
    umpire_user_id: int | None,
    now: datetime,
) -> int:
    """Insert a campaign in ``setting_up`` at version 0 with its state's ``parts``
    (:func:`~caedes_bot.persistence.stateparts.split_state`); returns its id.

    Raises:
        IntegrityError: the guild has a campaign of the same :func:`name_key` that is not
            finished (a unique index).
    """
    result = conn.execute(
        sa.insert(campaigns).values(
            guild_id=guild_id,
            name=name,
            name_key=name_key(name),
            scenario=scenario,
            status=CampaignStatus.SETTING_UP,
            version=0,
            last_event_seq=0,
            created_by=created_by,
            umpire_user_id=umpire_user_id,
            created_at=now,
            updated_at=now,
        )
    )
    pk = result.inserted_primary_key
    assert pk is not None
    campaign_id = int(pk[0])
    _insert_parts(conn, campaign_id, parts)
    return campaign_id


_INSERT_PART = sa.insert(campaign_state_parts)
_UPDATE_PART = (
    sa.update(campaign_state_parts)
    .where(
        campaign_state_parts.c.campaign_id == sa.bindparam("b_campaign"),
        campaign_state_parts.c.key == sa.bindparam("b_key"),
    )
    .values(doc=sa.bindparam("b_doc", type_=campaign_state_parts.c.doc.type))
)
_REORDER_PART = (
    sa.update(campaign_state_parts)
    .where(
        campaign_state_parts.c.campaign_id == sa.bindparam("b_campaign"),
        campaign_state_parts.c.key == sa.bindparam("b_key"),
    )
    .values(ord=sa.bindparam("b_ord"))
)
_DELETE_PART = sa.delete(campaign_state_parts).where(
    campaign_state_parts.c.campaign_id == sa.bindparam("b_campaign"),
    campaign_state_parts.c.key == sa.bindparam("b_key"),
)
_SELECT_PARTS = (
    sa.select(
        campaign_state_parts.c.key,
        sa.cast(campaign_state_parts.c.doc, sa.Text).label("doc"),  # the text, not parsed
    )
    .where(campaign_state_parts.c.campaign_id == sa.bindparam("b_campaign"))
    .order_by(campaign_state_parts.c.ord)
)


def _insert_parts(conn: Connection, campaign_id: int, parts: Sequence[Part]) -> None:
    if parts:
        conn.execute(
            _INSERT_PART,
            [
                {"campaign_id": campaign_id, "key": p.key, "ord": p.ord, "doc": RawJSON(p.doc)}
                for p in parts
            ],
        )


#: ``_SELECT_PARTS`` compiled for each dialect, with the order of its positional parameters.
_COMPILED_PARTS: dict[str, tuple[str, tuple[str, ...] | None]] = {}


def load_parts(conn: Connection, campaign_id: int) -> list[tuple[str, str]]:
    """The campaign's state parts as ``(key, JSON text)``, in ``ord`` order.

    Run as the driver's own SQL (compiled once per dialect): a campaign has a row per unit,
    and SQLAlchemy's processing of each row cost as much as the query itself."""
    compiled = _COMPILED_PARTS.get(conn.dialect.name)
    if compiled is None:
        statement = _SELECT_PARTS.compile(dialect=conn.dialect)
        order = statement.positiontup
        compiled = _COMPILED_PARTS[conn.dialect.name] = (
            str(statement),
            tuple(order) if order is not None else None,
        )
    sql, positions = compiled
    params: Any = (
        {"b_campaign": campaign_id} if positions is None else (campaign_id,) * len(positions)
    )
    rows = conn.exec_driver_sql(sql, params).all()  # (rows are tuples of key and text)
    return cast(list[tuple[str, str]], rows)


_LOAD_CAMPAIGN = sa.select(*_INFO_COLUMNS, campaigns.c.last_event_seq, campaigns.c.lock_seq).where(
    campaigns.c.id == sa.bindparam("b_id")
)


def load_campaign(conn: Connection, campaign_id: int) -> CampaignRecord | None:
    """The campaign with its state's parts, or ``None``."""
    row = conn.execute(_LOAD_CAMPAIGN, {"b_id": campaign_id}).first()
    if row is None:
        return None
    parts = load_parts(conn, campaign_id)
    m = row._mapping
    return CampaignRecord(_info(row), parts, m["last_event_seq"], int(m["lock_seq"]))


_LOCK_SEQ = sa.select(campaigns.c.lock_seq).where(campaigns.c.id == sa.bindparam("b_id"))


def lock_seq(conn: Connection, campaign_id: int) -> int | None:
    """The campaign lock's counter (odd while a process holds the lock, decision 0024), or
    ``None`` if there is no such campaign."""
    value = conn.scalar(_LOCK_SEQ, {"b_id": campaign_id})
    return None if value is None else int(value)


def campaign_info(conn: Connection, campaign_id: int) -> CampaignInfo | None:
    """The campaign without its state, or ``None``."""
    row = (conn.execute(sa.select(*_INFO_COLUMNS).where(campaigns.c.id == campaign_id))).first()
    return None if row is None else _info(row)


def open_campaign_named(conn: Connection, guild_id: int, name: str) -> CampaignInfo | None:
    """The guild's campaign that is not finished and has this name (compared by
    :func:`name_key`), if any."""
    row = conn.execute(
        sa.select(*_INFO_COLUMNS).where(
            campaigns.c.guild_id == guild_id,
            campaigns.c.name_key == name_key(name),
            campaigns.c.status != CampaignStatus.FINISHED,
        )
    ).first()
    return None if row is None else _info(row)


def list_campaigns(
    conn: Connection,
    *,
    guild_id: int | None = None,
    statuses: Sequence[CampaignStatus] | None = None,
) -> list[CampaignInfo]:
    """Campaigns in id order, optionally of one guild and in some statuses."""
    stmt = sa.select(*_INFO_COLUMNS).order_by(campaigns.c.id)
    if guild_id is not None:
        stmt = stmt.where(campaigns.c.guild_id == guild_id)
    if statuses is not None:
        stmt = stmt.where(campaigns.c.status.in_(list(statuses)))
    return [_info(r) for r in conn.execute(stmt)]


def update_campaign(conn: Connection, campaign_id: int, *, now: datetime, **values: Any) -> None:
    """Change columns of a campaign that are not the state (status, umpire, category)."""
    conn.execute(
        sa.update(campaigns).where(campaigns.c.id == campaign_id).values(updated_at=now, **values)
    )


_SAVE_STATE = (
    sa.update(campaigns)
    .where(
        campaigns.c.id == sa.bindparam("b_id"),
        campaigns.c.version == sa.bindparam("b_version"),
    )
    .values(
        version=campaigns.c.version + 1,
        last_event_seq=sa.bindparam("b_last_event_seq"),
        updated_at=sa.bindparam("b_now", type_=campaigns.c.updated_at.type),
    )
)
_SAVE_STATE_AND_STATUS = _SAVE_STATE.values(
    status=sa.bindparam("b_status", type_=campaigns.c.status.type)
)


def save_state(
    conn: Connection,
    *,
    campaign_id: int,
    expected_version: int,
    changes: PartChanges,
    last_event_seq: int,
    now: datetime,
    status: CampaignStatus | None = None,
) -> int:
    """Store what an order changed if the campaign is still at ``expected_version``; returns
    the new version.

    ``UPDATE campaigns SET version=version+1 ... WHERE id=:id AND version=:v``, then the
    inserts, updates, moves and deletes of ``changes``
    (:func:`~caedes_bot.persistence.stateparts.diff_state`): only the parts that changed.

    Raises:
        StaleVersion: another writer got there first (nothing was changed).
    """
    params: dict[str, Any] = {
        "b_id": campaign_id,
        "b_version": expected_version,
        "b_last_event_seq": last_event_seq,
        "b_now": now,
    }
    if status is None:
        result = conn.execute(_SAVE_STATE, params)
    else:
        params["b_status"] = status
        result = conn.execute(_SAVE_STATE_AND_STATUS, params)
    if result.rowcount != 1:
        raise StaleVersion(f"campaign {campaign_id} is no longer at version {expected_version}")
    if changes.deletes:
        conn.execute(
            _DELETE_PART, [{"b_campaign": campaign_id, "b_key": k} for k in changes.deletes]
        )
    if changes.updates:
        conn.execute(
            _UPDATE_PART,
            [
                {"b_campaign": campaign_id, "b_key": k, "b_doc": RawJSON(d)}
                for k, d in changes.updates
            ],
        )
    if changes.reorders:
        conn.execute(
            _REORDER_PART,
            [{"b_campaign": campaign_id, "b_key": k, "b_ord": o} for k, o in changes.reorders],
        )
    _insert_parts(conn, campaign_id, changes.inserts)
    return expected_version + 1


def replace_state(
    conn: Connection,
    *,
    campaign_id: int,
    expected_version: int,
    parts: Sequence[Part],
    last_event_seq: int,
    now: datetime,
) -> int:
    """Store a whole new state (``parts`` from
    :func:`~caedes_bot.persistence.stateparts.split_state`) if the campaign is still at
    ``expected_version``; returns the new version. For tools and tests that build a state
    outside the rules; orders use :func:`save_state`.

    Raises:
        StaleVersion: another writer got there first (nothing was changed).
    """
    version = save_state(
        conn,
        campaign_id=campaign_id,
        expected_version=expected_version,
        changes=PartChanges(),
        last_event_seq=last_event_seq,
        now=now,
    )
    conn.execute(
        sa.delete(campaign_state_parts).where(campaign_state_parts.c.campaign_id == campaign_id)
    )
    _insert_parts(conn, campaign_id, parts)
    return version


def count_rows(conn: Connection, table: sa.Table, campaign_id: int) -> int:
    """How many rows of ``table`` belong to the campaign (for checks and tests)."""
    value = conn.scalar(
        sa.select(sa.func.count()).select_from(table).where(table.c.campaign_id == campaign_id)
    )
    return int(value or 0)
