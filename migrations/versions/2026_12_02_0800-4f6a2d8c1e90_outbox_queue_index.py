"""An index on the outbox's queues: ``(campaign_id, channel_key, status, id)``.

The outbox reads one queue's pending rows in id order on every pass, and the last message
posted in a channel when it takes a queue over. With only ``campaign_id`` indexed, both read
every row the campaign ever queued, so a delivery pass cost more with each message of the
campaign's history (issue 9; docs/decisions/0010, addendum "the queue index"). The index on
``campaign_id`` alone is dropped: the new one begins with it. Nothing stored changes.

Revision ID: 4f6a2d8c1e90
Revises: 9e3c1a7b5d24
Create Date: 2026-12-02 08:00:00.000000+00:00
"""

from collections.abc import Sequence

from alembic import op


revision: str = '4f6a2d8c1e90'
down_revision: str | Sequence[str] | None = '9e3c1a7b5d24'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(
            'ix_outbox_queue', ['campaign_id', 'channel_key', 'status', 'id'], unique=False
        )
        batch_op.drop_index('ix_outbox_campaign_id')


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index('ix_outbox_campaign_id', ['campaign_id'], unique=False)
        batch_op.drop_index('ix_outbox_queue')
