"""When a campaign was paused, so that resuming gives each deadline the time it had left.

Adds ``campaigns.paused_at`` (UTC, empty unless the campaign is paused; R-PBP-UMP-05). A
campaign paused before this revision has none: on resuming, its deadlines count from the
moment of the resume, and get at least one hour.

Revision ID: 3b9d2c4e8f10
Revises: 7efc79e3e774
Create Date: 2026-12-01 12:00:00.000000+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '3b9d2c4e8f10'
down_revision: str | Sequence[str] | None = '7efc79e3e774'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.drop_column('paused_at')
