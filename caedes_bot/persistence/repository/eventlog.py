"""The append-only order and event logs, and the processed interactions (idempotency).

The order log is enough to replay a campaign exactly; the event log is the history players
see. A processed interaction keeps the first result of an order, so the same interaction
twice has one effect.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import ActingAs, StoredEvent, StoredOrder
from caedes_bot.persistence.tables import (
    campaign_events,
    campaign_orders,
    campaigns,
    processed_interactions,
)

#: The event that begins a turn (``rules.turn.TurnBegan``): the events from the latest one on
#: are the turn being played (:func:`events_of_current_turn`).
TURN_BEGAN = "TurnBegan"

#: The event of a campaign imported from an unfinished export (``rules.replay.
#: CampaignContinued``): it carries on the turn of ``active`` in game round ``round``, begun
#: before the export, so it starts that turn's events in this campaign's log (decision 0023).
CAMPAIGN_CONTINUED = "CampaignContinued"
TURN_STARTS = (TURN_BEGAN, CAMPAIGN_CONTINUED)

#: The event of an umpire's rollback (``rules.replay.RolledBack``): the orders after its point
#: ``to_seq`` and before the rollback itself no longer count (R-PBP-UMP-01, decision 0023), so
#: the history players see leaves out their events (:func:`turn_events`,
#: :func:`events_of_current_turn`).
ROLLED_BACK = "RolledBack"

_INSERT_ORDER = sa.insert(campaign_orders)


def insert_order(
    conn: Connection,
    *,
    campaign_id: int,
    seq: int,
    actor_user_id: int | None,
    acting_as: ActingAs,
    faction: str | None,
    payload: dict[str, Any],
    interaction_id: str | None,
    dice_before: int,
    dice_after: int,
    now: datetime,
) -> None:
    """Append an accepted order to the log (``payload`` holds ``"type"``)."""
    conn.execute(
        _INSERT_ORDER,
        {
            "campaign_id": campaign_id,
            "seq": seq,
            "actor_user_id": actor_user_id,
            "acting_as": acting_as,
            "faction": faction,
            "type": payload["type"],
            "payload": payload,
            "interaction_id": interaction_id,
            "dice_before": dice_before,
            "dice_after": dice_after,
            "created_at": now,
        },
    )


_INSERT_EVENT = sa.insert(campaign_events)


def insert_events(
    conn: Connection,
    *,
    campaign_id: int,
    first_seq: int,
    order_seq: int,
    events: Sequence[tuple[dict[str, Any], list[str] | None]],
    now: datetime,
) -> None:
    """Append events (payload with ``"type"``, audience) numbered from ``first_seq``; if one
    begins a turn (or continues one, :data:`TURN_STARTS`), the campaign's ``turn_start_seq``
    becomes its number."""
    if not events:
        return
    began = [i for i, (payload, _) in enumerate(events) if payload["type"] in TURN_STARTS]
    if began:
        conn.execute(
            sa.update(campaigns)
            .where(campaigns.c.id == campaign_id)
            .values(turn_start_seq=first_seq + began[-1])
        )
    conn.execute(
        _INSERT_EVENT,
        [
            {
                "campaign_id": campaign_id,
                "seq": first_seq + i,
                "order_seq": order_seq,
                "type": payload["type"],
                "payload": payload,
                "audience": audience,
                "created_at": now,
            }
            for i, (payload, audience) in enumerate(events)
        ],
    )


def list_orders(conn: Connection, campaign_id: int, *, from_seq: int = 0) -> list[StoredOrder]:
    """The campaign's order log in order (the orders numbered ``from_seq`` and after)."""
    rows = conn.execute(
        sa.select(campaign_orders)
        .where(campaign_orders.c.campaign_id == campaign_id, campaign_orders.c.seq >= from_seq)
        .order_by(campaign_orders.c.seq)
    )
    return [
        StoredOrder(
            campaign_id=r.campaign_id,
            seq=r.seq,
            actor_user_id=r.actor_user_id,
            acting_as=ActingAs(r.acting_as),
            faction=r.faction,
            type=r.type,
            payload=r.payload,
            interaction_id=r.interaction_id,
            dice_before=r.dice_before,
            dice_after=r.dice_after,
            created_at=r.created_at,
        )
        for r in rows
    ]


def list_events(
    conn: Connection, campaign_id: int, *, after_seq: int = 0, limit: int | None = None
) -> list[StoredEvent]:
    """The campaign's events with ``seq > after_seq``, in order."""
    stmt = (
        sa.select(campaign_events)
        .where(campaign_events.c.campaign_id == campaign_id, campaign_events.c.seq > after_seq)
        .order_by(campaign_events.c.seq)
    )
    if limit is not None:
        stmt = stmt.limit(limit)
    return [
        StoredEvent(
            campaign_id=r.campaign_id,
            seq=r.seq,
            order_seq=r.order_seq,
            type=r.type,
            payload=r.payload,
            audience=r.audience,
            created_at=r.created_at,
        )
        for r in conn.execute(stmt)
    ]


def latest_order_with_event(conn: Connection, campaign_id: int, types: Sequence[str]) -> int:
    """The number of the latest order that gave an event of one of ``types`` (0 if none)."""
    value = conn.scalar(
        sa.select(sa.func.max(campaign_events.c.order_seq)).where(
            campaign_events.c.campaign_id == campaign_id,
            campaign_events.c.type.in_(list(types)),
        )
    )
    return int(value or 0)


def _voided_orders(conn: Connection, campaign_id: int) -> list[tuple[int, int]]:
    """The spans of orders a rollback voided: ``(to_seq, rollback_seq)`` for each rollback,
    the orders numbered strictly between the two no longer counting (R-PBP-UMP-01). A rollback
    returns only to an order that still counts, so a later rollback's span holds every earlier
    one it reaches back over."""
    rows = conn.execute(
        sa.select(campaign_events.c.order_seq, campaign_events.c.payload).where(
            campaign_events.c.campaign_id == campaign_id,
            campaign_events.c.type == ROLLED_BACK,
        )
    ).all()
    return [(int(payload["to_seq"]), int(seq)) for seq, payload in rows]


def _counts(order_seq: int, voided: Sequence[tuple[int, int]]) -> bool:
    return not any(low < order_seq < high for low, high in voided)


def events_of_current_turn(conn: Connection, campaign_id: int) -> list[StoredEvent]:
    """The stored events from the latest ``TurnBegan`` on, in order (empty before any turn),
    without those of orders a rollback voided.

    Turns are played one after another, so these are the events of the turn being played.
    Where they start is kept on the campaign row (``turn_start_seq``), so this reads the
    turn's events only, whatever the length of the log. After a rollback to an earlier turn
    of the round, that row names a turn the rollback voided: the turn that still counts is
    then found among the turn starts.
    """
    start = conn.scalar(sa.select(campaigns.c.turn_start_seq).where(campaigns.c.id == campaign_id))
    if not start:
        return []
    voided = _voided_orders(conn, campaign_id)
    if voided:
        starts = _turn_starts(conn, campaign_id, voided)
        start = starts[-1][0] if starts else start
    found = list_events(conn, campaign_id, after_seq=int(start) - 1)
    return [e for e in found if _counts(e.order_seq, voided)]


def _turn_starts(
    conn: Connection, campaign_id: int, voided: Sequence[tuple[int, int]]
) -> list[tuple[int, object, object]]:
    """``(seq, game round, faction)`` of every event of :data:`TURN_STARTS` of an order that
    still counts, in order."""
    rows = conn.execute(
        sa.select(campaign_events.c.seq, campaign_events.c.order_seq, campaign_events.c.payload)
        .where(
            campaign_events.c.campaign_id == campaign_id,
            campaign_events.c.type.in_(TURN_STARTS),
        )
        .order_by(campaign_events.c.seq)
    ).all()
    return [
        (int(seq), payload.get("round"), payload.get("faction", payload.get("active")))
        for seq, order_seq, payload in rows
        if _counts(order_seq, voided)
    ]


def turn_events(
    conn: Connection, campaign_id: int, round_no: int, faction: str
) -> list[StoredEvent]:
    """The stored events of ``faction``'s turn of game round ``round_no``: from its
    ``TurnBegan`` up to the next turn's, in order (empty if that turn was never begun; in a
    campaign continued from an unfinished export, the turn it continued starts at its
    ``CampaignContinued``). Reads
    the turn starts (one row per turn), then that turn's events only. The events of orders a
    rollback voided are left out, and so is a turn begun by such an order: after a rollback
    to an earlier turn, that turn goes on past the turn it had ended (R-PBP-UMP-01)."""
    voided = _voided_orders(conn, campaign_id)
    starts = _turn_starts(conn, campaign_id, voided)
    for i, (seq, round_of, faction_of) in enumerate(starts):
        if round_of == round_no and faction_of == faction:
            end = starts[i + 1][0] if i + 1 < len(starts) else None
            limit = None if end is None else end - seq
            found = list_events(conn, campaign_id, after_seq=seq - 1, limit=limit)
            return [e for e in found if _counts(e.order_seq, voided)]
    return []


_INSERT_PROCESSED = sa.insert(processed_interactions)


def insert_processed(
    conn: Connection,
    *,
    interaction_id: str,
    campaign_id: int,
    result: dict[str, Any],
    now: datetime,
) -> None:
    """Record an interaction's first result. Raises ``IntegrityError`` if already recorded."""
    conn.execute(
        _INSERT_PROCESSED,
        {
            "interaction_id": interaction_id,
            "campaign_id": campaign_id,
            "result": result,
            "created_at": now,
        },
    )


def get_processed(conn: Connection, interaction_id: str) -> tuple[int, dict[str, Any]] | None:
    """``(campaign_id, result)`` stored for an interaction, or ``None``."""
    row = (
        conn.execute(
            sa.select(processed_interactions.c.campaign_id, processed_interactions.c.result).where(
                processed_interactions.c.interaction_id == interaction_id
            )
        )
    ).first()
    return None if row is None else (row.campaign_id, row.result)
