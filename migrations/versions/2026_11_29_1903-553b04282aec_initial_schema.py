"""Initial schema: campaigns with their state document, order and event logs, members,
channels, processed interactions, outbox, deadlines and audit log (reviewed after autogenerate).

Revision ID: 553b04282aec
Revises: 
Create Date: 2026-11-29 19:03:32.745811+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '553b04282aec'
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table('campaigns',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('scenario', sa.String(length=100), nullable=False),
    sa.Column('status', sa.Enum('setting_up', 'active', 'paused', 'finished', name='campaign_status', native_enum=False, length=32), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('last_event_seq', sa.Integer(), nullable=False),
    sa.Column('created_by', sa.BigInteger(), nullable=False),
    sa.Column('umpire_user_id', sa.BigInteger(), nullable=True),
    sa.Column('category_id', sa.BigInteger(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_campaigns'))
    )
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaigns_guild_id'), ['guild_id'], unique=False)

    op.create_table('audit_log',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=True),
    sa.Column('action', sa.String(length=100), nullable=False),
    sa.Column('detail', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_audit_log_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_log'))
    )
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_log_campaign_id'), ['campaign_id'], unique=False)

    op.create_table('campaign_events',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('order_seq', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=100), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('audience', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_campaign_events_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_campaign_events')),
    sa.UniqueConstraint('campaign_id', 'seq', name=op.f('uq_campaign_events_campaign_id_seq'))
    )
    with op.batch_alter_table('campaign_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaign_events_campaign_id'), ['campaign_id'], unique=False)

    op.create_table('campaign_orders',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('actor_user_id', sa.BigInteger(), nullable=True),
    sa.Column('acting_as', sa.Enum('player', 'umpire', 'admin', 'system', name='acting_as', native_enum=False, length=32), nullable=False),
    sa.Column('faction', sa.String(length=8), nullable=True),
    sa.Column('type', sa.String(length=100), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('interaction_id', sa.String(length=100), nullable=True),
    sa.Column('dice_before', sa.Integer(), nullable=False),
    sa.Column('dice_after', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_campaign_orders_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_campaign_orders')),
    sa.UniqueConstraint('campaign_id', 'seq', name=op.f('uq_campaign_orders_campaign_id_seq'))
    )
    with op.batch_alter_table('campaign_orders', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaign_orders_campaign_id'), ['campaign_id'], unique=False)

    op.create_table('channels',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=100), nullable=False),
    sa.Column('discord_id', sa.BigInteger(), nullable=True),
    sa.Column('parent_key', sa.String(length=100), nullable=True),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_channels_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_channels')),
    sa.UniqueConstraint('campaign_id', 'key', name=op.f('uq_channels_campaign_id_key'))
    )
    with op.batch_alter_table('channels', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_channels_campaign_id'), ['campaign_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_channels_discord_id'), ['discord_id'], unique=False)

    op.create_table('deadlines',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('decision_key', sa.String(length=100), nullable=False),
    sa.Column('faction', sa.String(length=8), nullable=True),
    sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('reminder_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('reminded', sa.Boolean(), nullable=False),
    sa.Column('fired', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_deadlines_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deadlines')),
    sa.UniqueConstraint('campaign_id', 'decision_key', name=op.f('uq_deadlines_campaign_id_decision_key'))
    )
    with op.batch_alter_table('deadlines', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deadlines_campaign_id'), ['campaign_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_deadlines_due_at'), ['due_at'], unique=False)

    op.create_table('members',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('faction', sa.String(length=8), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_members_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_members')),
    sa.UniqueConstraint('campaign_id', 'faction', name=op.f('uq_members_campaign_id_faction'))
    )
    with op.batch_alter_table('members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_members_campaign_id'), ['campaign_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_members_user_id'), ['user_id'], unique=False)

    op.create_table('outbox',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('channel_key', sa.String(length=100), nullable=False),
    sa.Column('kind', sa.Enum('post', 'edit', 'create_category', 'create_channel', 'create_thread', 'add_thread_member', 'remove_thread_member', 'grant_channel_access', name='outbox_kind', native_enum=False, length=32), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('dedupe_key', sa.String(length=200), nullable=True),
    sa.Column('nonce', sa.String(length=25), nullable=False),
    sa.Column('status', sa.Enum('pending', 'delivered', 'failed', name='outbox_status', native_enum=False, length=32), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('delivered_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('discord_message_id', sa.BigInteger(), nullable=True),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('depends_on', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_outbox_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['depends_on'], ['outbox.id'], name=op.f('fk_outbox_depends_on_outbox'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox')),
    sa.UniqueConstraint('campaign_id', 'dedupe_key', name=op.f('uq_outbox_campaign_id_dedupe_key'))
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_campaign_id'), ['campaign_id'], unique=False)
        batch_op.create_index('ix_outbox_status_next_attempt_at', ['status', 'next_attempt_at'], unique=False)

    op.create_table('processed_interactions',
    sa.Column('interaction_id', sa.String(length=100), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_processed_interactions_campaign_id_campaigns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('interaction_id', name=op.f('pk_processed_interactions'))
    )
    with op.batch_alter_table('processed_interactions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_processed_interactions_campaign_id'), ['campaign_id'], unique=False)




def downgrade() -> None:

    with op.batch_alter_table('processed_interactions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_processed_interactions_campaign_id'))

    op.drop_table('processed_interactions')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_status_next_attempt_at')
        batch_op.drop_index(batch_op.f('ix_outbox_campaign_id'))

    op.drop_table('outbox')
    with op.batch_alter_table('members', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_members_user_id'))
        batch_op.drop_index(batch_op.f('ix_members_campaign_id'))

    op.drop_table('members')
    with op.batch_alter_table('deadlines', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deadlines_due_at'))
        batch_op.drop_index(batch_op.f('ix_deadlines_campaign_id'))

    op.drop_table('deadlines')
    with op.batch_alter_table('channels', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_channels_discord_id'))
        batch_op.drop_index(batch_op.f('ix_channels_campaign_id'))

    op.drop_table('channels')
    with op.batch_alter_table('campaign_orders', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_campaign_orders_campaign_id'))

    op.drop_table('campaign_orders')
    with op.batch_alter_table('campaign_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_campaign_events_campaign_id'))

    op.drop_table('campaign_events')
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_log_campaign_id'))

    op.drop_table('audit_log')
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_campaigns_guild_id'))

    op.drop_table('campaigns')

