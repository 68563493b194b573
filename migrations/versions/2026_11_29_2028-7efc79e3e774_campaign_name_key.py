"""Campaign names compared case-folded and unique per guild among campaigns not finished.

Adds ``campaigns.name_key`` (the name with runs of whitespace made single and case-folded),
fills it for the campaigns already stored, and a partial unique index on
``(guild_id, name_key)`` for campaigns that are not finished. Campaigns that already share a
name (two ``/campaign new`` at once could make them before this revision) keep their names;
the later ones get their id appended to the key so the index can be built.

Revision ID: 7efc79e3e774
Revises: 553b04282aec
Create Date: 2026-11-29 20:28:49.800209+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '7efc79e3e774'
down_revision: str | Sequence[str] | None = '553b04282aec'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OPEN = sa.text("status != 'finished'")


def _key(name: str) -> str:
    # the same as caedes_bot.persistence.repository.name_key, frozen here: a migration must
    # not change when the application does
    return " ".join(name.split()).casefold()[:100]


def upgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name_key', sa.String(length=100), nullable=True))

    campaigns = sa.table(
        'campaigns',
        sa.column('id', sa.Integer()),
        sa.column('guild_id', sa.BigInteger()),
        sa.column('name', sa.String()),
        sa.column('status', sa.String()),
        sa.column('name_key', sa.String()),
    )
    conn = op.get_bind()
    taken: set[tuple[int, str]] = set()
    rows = conn.execute(
        sa.select(campaigns.c.id, campaigns.c.guild_id, campaigns.c.name, campaigns.c.status)
        .order_by(campaigns.c.id)
    ).all()
    for row in rows:
        key = _key(row.name)
        if row.status != 'finished':
            if (row.guild_id, key) in taken:
                key = f"{key[:90]} #{row.id}"
            taken.add((row.guild_id, key))
        conn.execute(sa.update(campaigns).where(campaigns.c.id == row.id).values(name_key=key))

    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=100), nullable=False)
        batch_op.create_index(
            'uq_campaigns_guild_id_name_key_open',
            ['guild_id', 'name_key'],
            unique=True,
            sqlite_where=OPEN,
            postgresql_where=OPEN,
        )


def downgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.drop_index('uq_campaigns_guild_id_name_key_open')
        batch_op.drop_column('name_key')
