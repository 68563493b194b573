"""A counter on the campaign row that every holder of the campaign's lock moves on.

Adds ``campaigns.lock_seq`` (0 for every stored campaign). On PostgreSQL, where several bot
processes may share the database, the process that takes a campaign's lock adds one to it
(making it odd while it holds the lock) and adds one again when it lets go (even); a process
whose last sight of the counter is not the value it finds when it takes the lock reloads the
campaign instead of trusting its cache (docs/decisions/0024). SQLite keeps it at 0.

Revision ID: 5d2b8e61f0a3
Revises: c4e7a9d2b815
Create Date: 2026-12-01 17:00:00.000000+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '5d2b8e61f0a3'
down_revision: str | Sequence[str] | None = 'c4e7a9d2b815'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('lock_seq', sa.BigInteger(), server_default='0', nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.drop_column('lock_seq')
