"""A campaign's state stored as parts, so that an order rewrites only what it changed.

Adds ``campaign_state_parts`` (one JSON document per unit ``u:<id>``, per faction
``f:<code>``, the sections ``owners``, ``options``, ``pending``, ``battle`` without its step
records and each record ``r:<i>``, and ``game`` for the other fields; ``ord`` keeps the order
of the units and factions), splits every stored ``campaigns.state`` document into them, and
drops ``campaigns.state`` (docs/decisions/0008). The downgrade joins the parts back into one
document per campaign.

The split and the join are written out here on plain JSON, not imported: a migration must not
change when the application does.

Revision ID: 8a1f5c2d9e47
Revises: 3b9d2c4e8f10
Create Date: 2026-12-01 14:00:00.000000+00:00
"""

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op


revision: str = '8a1f5c2d9e47'
down_revision: str | Sequence[str] | None = '3b9d2c4e8f10'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SECTIONS = ('owners', 'options', 'pending')


def _text(value: Any) -> str:
    return json.dumps(value, separators=(',', ':'), ensure_ascii=False)


def split(document: dict[str, Any]) -> list[tuple[str, int, str]]:
    """``(key, ord, JSON text)`` of every part of one stored state document."""
    doc = dict(document)
    units = doc.pop('units', {}) or {}
    factions = doc.pop('factions', {}) or {}
    battle = doc.pop('battle', None)
    parts = [(key, 0, _text(doc.pop(key))) for key in SECTIONS if key in doc]
    parts.append(('game', 0, _text(doc)))
    parts += [(f'f:{code}', i, _text(f)) for i, (code, f) in enumerate(factions.items())]
    parts += [(f'u:{key}', i, _text(u)) for i, (key, u) in enumerate(units.items())]
    if battle is not None:
        battle = dict(battle)
        records = battle.pop('records', []) or []
        parts.append(('battle', 0, _text(battle)))
        parts += [(f'r:{i}', i, _text(r)) for i, r in enumerate(records)]
    return parts


def join(rows: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The state document of one campaign's parts, given in ``ord`` order."""
    doc: dict[str, Any] = {}
    factions: dict[str, Any] = {}
    units: dict[str, Any] = {}
    records: list[tuple[int, Any]] = []
    battle = None
    for key, text in rows:
        value = json.loads(text)
        kind, _, name = key.partition(':')
        if kind == 'u':
            units[name] = value
        elif kind == 'f':
            factions[name] = value
        elif kind == 'r':
            records.append((int(name), value))
        elif key == 'game':
            doc.update(value)
        elif key == 'battle':
            battle = value
        else:
            doc[key] = value
    doc['factions'] = factions
    doc['units'] = units
    if battle is not None:
        battle['records'] = [r for _, r in sorted(records, key=lambda item: item[0])]
    doc['battle'] = battle
    return doc


campaigns = sa.table(
    'campaigns', sa.column('id', sa.Integer()), sa.column('state', sa.Text())
)
parts_table = sa.table(
    'campaign_state_parts',
    sa.column('campaign_id', sa.Integer()),
    sa.column('key', sa.String()),
    sa.column('ord', sa.BigInteger()),
    sa.column('doc', sa.Text()),
)


def upgrade() -> None:
    op.create_table('campaign_state_parts',
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=100), nullable=False),
    sa.Column('ord', sa.BigInteger(), nullable=False),
    sa.Column('doc', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_campaign_state_parts_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('campaign_id', 'key', name=op.f('pk_campaign_state_parts'))
    )
    conn = op.get_bind()
    for cid, text in conn.execute(sa.select(campaigns.c.id, campaigns.c.state)).all():
        document = json.loads(text) if isinstance(text, str | bytes) else text
        rows = [
            {'campaign_id': cid, 'key': key, 'ord': place, 'doc': doc}
            for key, place, doc in split(document)
        ]
        conn.execute(sa.insert(parts_table), rows)
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.drop_column('state')


def downgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.add_column(sa.Column('state', sa.JSON(), nullable=True))
    conn = op.get_bind()
    ids = [cid for (cid,) in conn.execute(sa.select(campaigns.c.id)).all()]
    for cid in ids:
        rows = conn.execute(
            sa.select(parts_table.c.key, parts_table.c.doc)
            .where(parts_table.c.campaign_id == cid)
            .order_by(parts_table.c.ord)
        ).all()
        document = join([(key, doc) for key, doc in rows])
        conn.execute(
            sa.update(campaigns).where(campaigns.c.id == cid).values(state=_text(document))
        )
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.alter_column('state', existing_type=sa.JSON(), nullable=False)
    op.drop_table('campaign_state_parts')
