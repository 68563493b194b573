"""All SQL of the bot: small synchronous functions over one ``Connection`` (design.md section 4),
in one module per aggregate:

* :mod:`.campaigns`: the campaign rows and the versioned state, stored as parts;
* :mod:`.eventlog`: the order and event logs and the processed interactions;
* :mod:`.members`: who plays which faction; :mod:`.channels`: a campaign's Discord places;
* :mod:`.outbox`: messages owed to Discord; :mod:`.deadlines`: turn and reaction deadlines;
* :mod:`.leases`: outbox leases and deadline claims of several processes;
* :mod:`.audit`: the audit log; :mod:`.battleodds`: the odds battle messages open with.

Every function takes the connection of the transaction it belongs to; a caller composes several
of them into ONE transaction function and runs it with
:meth:`~caedes_bot.persistence.db.Database.write` (on the single writer thread) or
:meth:`~caedes_bot.persistence.db.Database.read` (on a reader thread), so a whole transaction
costs one hop off the event loop. The statements are SQLAlchemy Core, and those on an order's
path are built once at import: an order costs a handful of statements and maps no ORM rows.
Nothing here is SQLite-specific.

Results are the typed frozen records of :mod:`caedes_bot.domain.records`; timestamps are aware
UTC datetimes. This package re-exports every function, so a caller may write
``from caedes_bot.persistence import repository as repo`` and ``repo.save_state(...)``.
"""

from __future__ import annotations

from caedes_bot.persistence.repository.audit import (
    insert_audit,
    list_audit,
)
from caedes_bot.persistence.repository.battleodds import (
    OddsAsked,
    answer_battle_odds,
    ask_battle_odds,
    battle_odds_of,
    last_embed_of,
    unanswered_battle_odds,
)
from caedes_bot.persistence.repository.campaigns import (
    CampaignRecord,
    StaleVersion,
    campaign_info,
    count_rows,
    insert_campaign,
    list_campaigns,
    load_campaign,
    load_parts,
    lock_seq,
    name_key,
    open_campaign_named,
    replace_state,
    save_state,
    update_campaign,
)
from caedes_bot.persistence.repository.channels import (
    add_channel,
    channel_by_discord_id,
    channels_of,
    set_channel_discord_id,
)
from caedes_bot.persistence.repository.deadlines import (
    close_open_deadlines,
    due_deadlines,
    due_reminders,
    existing_deadline_keys,
    insert_deadline,
    mark_fired,
    mark_reminded,
    next_deadline_time,
    open_deadlines,
    reopen_deadline,
    set_deadline_due,
    shift_deadline,
)
from caedes_bot.persistence.repository.eventlog import (
    events_of_current_turn,
    get_processed,
    insert_events,
    insert_order,
    insert_processed,
    latest_order_with_event,
    list_events,
    list_orders,
    turn_events,
)
from caedes_bot.persistence.repository.leases import (
    claim_deadlines,
    expire_outbox_leases,
    lease_due_queues,
    next_leasable_attempt,
    on_shards,
    release_deadline_claims,
    renew_outbox_lease,
)
from caedes_bot.persistence.repository.members import (
    factions_of,
    players_of,
    remove_member,
    set_member,
)
from caedes_bot.persistence.repository.outbox import (
    defer_outbox,
    delivered_message_id,
    due_outbox_heads,
    failed_outbox_rows,
    insert_outbox,
    last_posted_message_id,
    mark_outbox_delivered,
    mark_outbox_failed,
    mark_outbox_retry,
    mark_outbox_superseded,
    new_nonce,
    next_outbox_attempt,
    outbox_key_exists,
    outbox_queue,
    outbox_row,
    outbox_rows,
)

__all__ = [
    "CampaignRecord",
    "OddsAsked",
    "StaleVersion",
    "add_channel",
    "answer_battle_odds",
    "ask_battle_odds",
    "battle_odds_of",
    "campaign_info",
    "channel_by_discord_id",
    "channels_of",
    "claim_deadlines",
    "close_open_deadlines",
    "count_rows",
    "defer_outbox",
    "delivered_message_id",
    "due_deadlines",
    "due_outbox_heads",
    "due_reminders",
    "events_of_current_turn",
    "existing_deadline_keys",
    "expire_outbox_leases",
    "factions_of",
    "failed_outbox_rows",
    "get_processed",
    "insert_audit",
    "insert_campaign",
    "insert_deadline",
    "insert_events",
    "insert_order",
    "insert_outbox",
    "insert_processed",
    "last_embed_of",
    "last_posted_message_id",
    "latest_order_with_event",
    "lease_due_queues",
    "list_audit",
    "list_campaigns",
    "list_events",
    "list_orders",
    "load_campaign",
    "load_parts",
    "lock_seq",
    "mark_fired",
    "mark_outbox_delivered",
    "mark_outbox_failed",
    "mark_outbox_retry",
    "mark_outbox_superseded",
    "mark_reminded",
    "name_key",
    "new_nonce",
    "next_deadline_time",
    "next_leasable_attempt",
    "next_outbox_attempt",
    "on_shards",
    "open_campaign_named",
    "open_deadlines",
    "outbox_key_exists",
    "outbox_queue",
    "outbox_row",
    "outbox_rows",
    "players_of",
    "release_deadline_claims",
    "remove_member",
    "renew_outbox_lease",
    "reopen_deadline",
    "replace_state",
    "save_state",
    "set_channel_discord_id",
    "set_deadline_due",
    "set_member",
    "shift_deadline",
    "turn_events",
    "unanswered_battle_odds",
    "update_campaign",
]
