"""The undo log of a campaign's state stored as parts of its own, one per record.

Moves ``undo_log`` out of each campaign's ``game`` part into ``undo:<i>`` parts (the
``i``-th record, from 0), so that an order that adds a record writes that record alone
instead of the whole log again (docs/decisions/0009). The downgrade puts the records back
into the ``game`` part.

Written out here on plain JSON, not imported: a migration must not change when the
application does.

Revision ID: 9c3f7a1d5b62
Revises: 5d2b8e61f0a3
Create Date: 2026-12-01 20:00:00.000000+00:00
"""

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op


revision: str = '9c3f7a1d5b62'
down_revision: str | Sequence[str] | None = '5d2b8e61f0a3'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

parts_table = sa.table(
    'campaign_state_parts',
    sa.column('campaign_id', sa.Integer()),
    sa.column('key', sa.String()),
    sa.column('ord', sa.BigInteger()),
    sa.column('doc', sa.Text()),
)


def _text(value: Any) -> str:
    return json.dumps(value, separators=(',', ':'), ensure_ascii=False)


def _value(doc: Any) -> Any:
    return json.loads(doc) if isinstance(doc, str | bytes) else doc


def upgrade() -> None:
    conn = op.get_bind()
    games = conn.execute(
        sa.select(parts_table.c.campaign_id, parts_table.c.doc).where(parts_table.c.key == 'game')
    ).all()
    for cid, doc in games:
        game = dict(_value(doc))
        records = game.pop('undo_log', None) or []
        conn.execute(
            sa.update(parts_table)
            .where(parts_table.c.campaign_id == cid, parts_table.c.key == 'game')
            .values(doc=_text(game))
        )
        if records:
            conn.execute(
                sa.insert(parts_table),
                [
                    {'campaign_id': cid, 'key': f'undo:{i}', 'ord': i, 'doc': _text(record)}
                    for i, record in enumerate(records)
                ],
            )


def downgrade() -> None:
    conn = op.get_bind()
    undo = parts_table.c.key.like('undo:%')
    rows = conn.execute(
        sa.select(parts_table.c.campaign_id, parts_table.c.key, parts_table.c.doc).where(undo)
    ).all()
    records: dict[int, list[tuple[int, Any]]] = {}
    for cid, key, doc in rows:
        records.setdefault(cid, []).append((int(key.partition(':')[2]), _value(doc)))
    games = conn.execute(
        sa.select(parts_table.c.campaign_id, parts_table.c.doc).where(parts_table.c.key == 'game')
    ).all()
    for cid, doc in games:
        game = dict(_value(doc))
        kept = sorted(records.get(cid, []), key=lambda item: item[0])
        game['undo_log'] = [record for _, record in kept]
        conn.execute(
            sa.update(parts_table)
            .where(parts_table.c.campaign_id == cid, parts_table.c.key == 'game')
            .values(doc=_text(game))
        )
    conn.execute(sa.delete(parts_table).where(undo))
