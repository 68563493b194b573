"""Where the events of the turn being played start, kept on the campaign row.

Adds ``campaigns.turn_start_seq``: the ``seq`` of the campaign's latest ``TurnBegan`` event (0
before any), filled here from the event log of each stored campaign. The service reads the
turn's events when a turn ends; finding where they start no longer scans the whole log.

Revision ID: c4e7a9d2b815
Revises: 8a1f5c2d9e47
Create Date: 2026-12-01 14:30:00.000000+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = 'c4e7a9d2b815'
down_revision: str | Sequence[str] | None = '8a1f5c2d9e47'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('turn_start_seq', sa.Integer(), server_default='0', nullable=False)
        )
    op.execute(
        "UPDATE campaigns SET turn_start_seq = COALESCE((SELECT MAX(seq) FROM campaign_events "
        "WHERE campaign_events.campaign_id = campaigns.id AND campaign_events.type = 'TurnBegan'), 0)"
    )


def downgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.drop_column('turn_start_seq')
