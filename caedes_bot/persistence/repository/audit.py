"""The audit log: what umpires, admins and the system did to a campaign."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import AuditRecord
from caedes_bot.persistence.tables import audit_log


def insert_audit(
    conn: Connection,
    *,
    campaign_id: int,
    user_id: int | None,
    action: str,
    detail: dict[str, Any],
    now: datetime,
) -> None:
    """Log an umpire's or admin's action."""
    conn.execute(
        sa.insert(audit_log).values(
            campaign_id=campaign_id, user_id=user_id, action=action, detail=detail, created_at=now
        )
    )


def list_audit(conn: Connection, campaign_id: int) -> list[AuditRecord]:
    """The campaign's audit log, oldest first."""
    rows = conn.execute(
        sa.select(audit_log).where(audit_log.c.campaign_id == campaign_id).order_by(audit_log.c.id)
    )
    return [AuditRecord(r.campaign_id, r.user_id, r.action, r.detail, r.created_at) for r in rows]
