"""The odds battle messages open with (option ``battle_message_odds``, R-COMBAT-16, decision
0020): asked for in the transaction of the order that began the battle, answered by the odds
worker in a transaction of its own, read by the orders that draw the battle message again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import OpeningOdds
from caedes_bot.persistence.tables import battle_odds, outbox


@dataclass(frozen=True, slots=True)
class OddsAsked:
    """A battle whose odds were asked for and not answered yet: ``request`` its stored
    ``BattleOddsAsked`` event, ``asked_seq`` the order that began it."""

    campaign_id: int
    battle_id: int
    asked_seq: int
    request: Mapping[str, Any]


def ask_battle_odds(
    conn: Connection,
    campaign_id: int,
    battle_id: int,
    *,
    asked_seq: int,
    request: Mapping[str, Any],
    now: datetime,
) -> None:
    """Note that the odds of ``battle_id`` are wanted; a row of the same battle id (begun
    before an undo or a rollback took it back) is replaced."""
    conn.execute(
        sa.delete(battle_odds).where(
            battle_odds.c.campaign_id == campaign_id, battle_odds.c.battle_id == battle_id
        )
    )
    conn.execute(
        sa.insert(battle_odds).values(
            campaign_id=campaign_id,
            battle_id=battle_id,
            asked_seq=asked_seq,
            request=dict(request),
            asked_at=now,
        )
    )


def answer_battle_odds(
    conn: Connection,
    campaign_id: int,
    battle_id: int,
    *,
    asked_seq: int,
    odds: OpeningOdds,
    now: datetime,
) -> bool:
    """Keep the odds of the battle asked for by order ``asked_seq``; ``False`` (nothing
    changed) if they were answered already or the battle was asked for again since."""
    figures, method, unsupported = odds
    done = conn.execute(
        sa.update(battle_odds)
        .where(
            battle_odds.c.campaign_id == campaign_id,
            battle_odds.c.battle_id == battle_id,
            battle_odds.c.asked_seq == asked_seq,
            battle_odds.c.answered_at.is_(None),
        )
        .values(
            figures=list(figures), method=method, unsupported=list(unsupported), answered_at=now
        )
    )
    return bool(done.rowcount)


def battle_odds_of(
    conn: Connection, campaign_id: int, battle_ids: Iterable[int]
) -> dict[int, OpeningOdds | None]:
    """Of ``battle_ids``, those whose odds were asked for: their odds, ``None`` while not
    answered."""
    ids = sorted(set(battle_ids))
    if not ids:
        return {}
    rows = conn.execute(
        sa.select(
            battle_odds.c.battle_id,
            battle_odds.c.figures,
            battle_odds.c.method,
            battle_odds.c.unsupported,
            battle_odds.c.answered_at,
        ).where(battle_odds.c.campaign_id == campaign_id, battle_odds.c.battle_id.in_(ids))
    )
    out: dict[int, OpeningOdds | None] = {}
    for battle_id, figures, method, unsupported, answered in rows:
        out[int(battle_id)] = (
            None
            if answered is None
            else (tuple(float(x) for x in figures or ()), str(method), tuple(unsupported or ()))
        )
    return out


def unanswered_battle_odds(conn: Connection, *, limit: int = 100) -> list[OddsAsked]:
    """Battles whose odds were asked for and never answered (the bot stopped first), oldest
    first."""
    rows = conn.execute(
        sa.select(
            battle_odds.c.campaign_id,
            battle_odds.c.battle_id,
            battle_odds.c.asked_seq,
            battle_odds.c.request,
        )
        .where(battle_odds.c.answered_at.is_(None))
        .order_by(battle_odds.c.asked_at)
        .limit(limit)
    )
    return [OddsAsked(int(c), int(b), int(s), dict(r)) for c, b, s, r in rows]


def last_embed_of(conn: Connection, campaign_id: int, message_key: str) -> dict[str, Any] | None:
    """The embed the message posted under ``message_key`` (its ``dedupe_key``) last got from
    the outbox: of its post or its newest edit carrying embeds; ``None`` if none."""
    posted = conn.scalar(
        sa.select(outbox.c.id).where(
            outbox.c.campaign_id == campaign_id, outbox.c.dedupe_key == message_key
        )
    )
    if posted is None:
        return None
    rows = conn.execute(
        sa.select(outbox.c.id, outbox.c.payload)
        .where(outbox.c.campaign_id == campaign_id, outbox.c.id >= posted)
        .order_by(outbox.c.id.desc())
    )
    for row_id, payload in rows:
        mine = row_id == posted or payload.get("message_key") == message_key
        embeds = payload.get("embeds")
        if mine and embeds:
            first = embeds[0]
            return dict(first) if isinstance(first, Mapping) else None
    return None
