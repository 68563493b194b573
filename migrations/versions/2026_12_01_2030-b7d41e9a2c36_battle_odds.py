"""The odds battle messages open with, worked out after the order that began the battle.

Adds ``battle_odds``: one row per campaign and battle whose odds the option
``battle_message_odds`` asked for (R-COMBAT-16): the battle as it began (``request``), the
order that began it (``asked_seq``), and once the odds worker has answered, the figures, the
method and the attributes not modelled (docs/decisions/0020). Nothing to move: earlier
versions kept those odds on the battle in the state, which still loads without them.

Revision ID: b7d41e9a2c36
Revises: 9c3f7a1d5b62
Create Date: 2026-12-01 20:30:00.000000+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = 'b7d41e9a2c36'
down_revision: str | Sequence[str] | None = '9c3f7a1d5b62'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('battle_odds',
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('battle_id', sa.BigInteger(), nullable=False),
    sa.Column('asked_seq', sa.BigInteger(), nullable=False),
    sa.Column('request', sa.JSON(), nullable=False),
    sa.Column('asked_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('figures', sa.JSON(), nullable=True),
    sa.Column('method', sa.String(length=20), nullable=True),
    sa.Column('unsupported', sa.JSON(), nullable=True),
    sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_battle_odds_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('campaign_id', 'battle_id', name=op.f('pk_battle_odds'))
    )
    with op.batch_alter_table('battle_odds', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_battle_odds_answered_at'), ['answered_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('battle_odds', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_battle_odds_answered_at'))
    op.drop_table('battle_odds')
