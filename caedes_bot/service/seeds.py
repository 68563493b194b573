"""The campaign's dice seed in public: committed at the start, revealed at the end (decision 0023).

The seed lives in the rules state (:attr:`~caedes_bot.rules.state.GameState.dice_seed`), so
the dice of any stretch replay exactly. Until the campaign is finished it is a secret: it is
never shown in a reply, a log line or an export. What players get instead is its SHA-256
(:func:`~caedes_bot.rules.dice.seed_commitment`), posted in ``#announcements`` in the very
transaction that starts the campaign, before any die is rolled; the transaction that finishes
it posts the seed. With both, ``python -m caedes_bot.verify`` checks every die of an export.
"""

from __future__ import annotations

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import CampaignStatus, OutboxKind, OutboxMessage
from caedes_bot.rules.dice import seed_commitment
from caedes_bot.rules.state import GameState
from caedes_bot.ui import wording

#: Outbox keys of the two posts (one each per campaign).
COMMITMENT_KEY = "dice:commitment"
REVEAL_KEY = "dice:reveal"


def seed_messages(
    name: str, before: CampaignStatus, after: CampaignStatus | None, state: GameState
) -> list[OutboxMessage]:
    """The posts owed when a campaign's status goes from ``before`` to ``after`` (``None``: it
    stays): the commitment when it starts (``setting_up`` to ``active``), the reveal when it
    finishes; none otherwise."""
    if after is None or after is before:
        return []
    commitment = seed_commitment(state.dice_seed)
    if before is CampaignStatus.SETTING_UP and after is CampaignStatus.ACTIVE:
        text = wording.seed_commitment_text(name, commitment)
        key = COMMITMENT_KEY
    elif after is CampaignStatus.FINISHED:
        text = wording.seed_reveal_text(name, state.dice_seed, commitment)
        key = REVEAL_KEY
    else:
        return []
    return [
        OutboxMessage(ChannelKey.ANNOUNCEMENTS, OutboxKind.POST, {"content": text}, dedupe_key=key)
    ]
