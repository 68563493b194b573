"""Leases on the outbox's queues and claims on deadlines, for several bot processes.

Adds the table ``outbox_leases`` (one row per queue ``(campaign_id, channel_key)`` some process
has delivered: who holds it and until when) and ``deadlines.claimed_by`` /
``deadlines.claimed_until``. Nothing stored changes meaning: a queue without a lease row and a
deadline without a claim are free for the first process that comes (docs/decisions/0025).

Revision ID: 9e3c1a7b5d24
Revises: b7d41e9a2c36
Create Date: 2026-12-01 20:50:00.000000+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '9e3c1a7b5d24'
down_revision: str | Sequence[str] | None = 'b7d41e9a2c36'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'outbox_leases',
        sa.Column('campaign_id', sa.Integer(), nullable=False),
        sa.Column('channel_key', sa.String(length=100), nullable=False),
        sa.Column('claimed_by', sa.String(length=64), nullable=False),
        sa.Column('until', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('campaign_id', 'channel_key'),
    )
    with op.batch_alter_table('deadlines', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claimed_by', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('deadlines', schema=None) as batch_op:
        batch_op.drop_column('claimed_until')
        batch_op.drop_column('claimed_by')
    op.drop_table('outbox_leases')
