"""The service: the only door to a campaign's state (design.md sections 1 and 4).

Every change to a campaign goes through :class:`RulesService`, as ONE database transaction
under the campaign's lock. The package holds one module per job:

* :mod:`.orders`: submit an order (lock, authorise, version check, apply, commit, cache) and
  replay a campaign from its order log;
* :mod:`.campaigns`: create, start and finish a campaign; its name;
* :mod:`.pausing`: the umpire pauses and resumes a campaign, and its deadlines with it;
* :mod:`.exports`, :mod:`.seeds`, :mod:`.rollback`: a campaign to and from a file, its dice
  seed committed and revealed, and the umpire's rollback (decision 0023);
* :mod:`.access`: who plays which faction, the umpire, and the threads and channel access
  that follow;
* :mod:`.deadlines` (and :mod:`.policy`): reminders and passed deadlines for the scheduler;
* :mod:`.queries`: read-only questions of the Discord edge;
* :mod:`.reports` and :mod:`.delivery`: what could not be delivered, and the outbox
  dispatcher's one door to the database;
* :mod:`.core`: what the parts share (database, game data, locks, the cache of states);
  :mod:`.values`, :mod:`.errors`, :mod:`.announce`: what the service takes, returns, refuses
  and writes through.

Every refusal here is a :class:`~caedes_bot.rules.errors.Refusal`. A refused order (a
:class:`~caedes_bot.rules.errors.RuleViolation`, including :class:`NotAuthorised` and
:class:`CampaignNotActive`) changes nothing and writes nothing; it reaches the caller unchanged.
A stale version (another writer got there first) reloads and re-applies, never merges. The
same interaction id twice has one effect and returns the first result.

All writes of the process share the single writer connection of
:class:`~caedes_bot.persistence.db.Database`; reads for the Discord edge use the reader pool.
The player-facing words the service uses are in :mod:`caedes_bot.ui.wording`.
"""

from __future__ import annotations

from caedes_bot.service.access import CAMPAIGN_CHANNELS, THREAD_PARENT, access_changes, acting_role
from caedes_bot.service.announce import Announcer, PlainAnnouncer
from caedes_bot.service.campaigns import NAME_ALLOWED, NAME_MAX, tidy_campaign_name
from caedes_bot.service.core import ApplyFn, NewGameFn
from caedes_bot.service.delivery import Delivered, Delivery, QueueContext
from caedes_bot.service.errors import (
    AdminRefused,
    AlreadyStarted,
    CampaignNameTaken,
    CampaignNotActive,
    DeadlineRefused,
    FactionHeld,
    InvalidCampaignName,
    NotAuthorised,
    NoUmpire,
    PauseRefused,
    ReplayMismatch,
    StaleOrder,
    UnknownCampaign,
)
from caedes_bot.service.exports import MAX_IMPORT_BYTES, ExportTooLarge, ImportRefused
from caedes_bot.service.facade import RulesService
from caedes_bot.service.policy import DeadlinePolicy
from caedes_bot.service.rollback import RollbackPoint
from caedes_bot.service.values import Actor, Expect, SubmitResult, UmpireChange

__all__ = [
    "CAMPAIGN_CHANNELS",
    "MAX_IMPORT_BYTES",
    "NAME_ALLOWED",
    "NAME_MAX",
    "THREAD_PARENT",
    "Actor",
    "AdminRefused",
    "AlreadyStarted",
    "Announcer",
    "ApplyFn",
    "CampaignNameTaken",
    "CampaignNotActive",
    "DeadlinePolicy",
    "DeadlineRefused",
    "Delivered",
    "Delivery",
    "Expect",
    "ExportTooLarge",
    "FactionHeld",
    "ImportRefused",
    "InvalidCampaignName",
    "NewGameFn",
    "NoUmpire",
    "NotAuthorised",
    "PauseRefused",
    "PlainAnnouncer",
    "QueueContext",
    "ReplayMismatch",
    "RollbackPoint",
    "RulesService",
    "StaleOrder",
    "SubmitResult",
    "UmpireChange",
    "UnknownCampaign",
    "access_changes",
    "acting_role",
    "tidy_campaign_name",
]
