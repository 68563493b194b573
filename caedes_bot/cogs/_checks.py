"""Who may use a command, and on which campaign (ux.md "Whose command is it").

A command acts on the campaign whose category it is used in: the channel itself, or for a
thread its parent channel, or the category above either, is looked up in the campaign's
channels. Roles:

* **admin**: a member with the Manage Server permission (creates campaigns, names umpires);
* **umpire**: the campaign's umpire (R-PBP-UMP-01), stored per campaign;
* **player**: a member holding one of the campaign's factions.

Cogs call :func:`campaign_context` with what they need; a refusal raises a
:class:`~caedes_bot.cogs._errors.UserError` that the tree's error handler shows privately.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

import discord

from caedes_bot.cogs._errors import NotInCampaign, NotPermitted
from caedes_bot.domain.records import CampaignInfo, CampaignView
from caedes_bot.service import Actor, RulesService


class Need(Enum):
    """The role a command needs."""

    ANYONE = "anyone"
    ADMIN = "admin"
    UMPIRE_OR_ADMIN = "umpire or admin"


@dataclass(frozen=True, slots=True)
class CampaignContext:
    """The campaign a command acts on and who is asking.

    Attributes:
        campaign: the campaign's row.
        players: faction -> the member playing it (factions nobody holds are the umpire's).
        user_id: the member using the command.
        is_admin: the member has Manage Server.
        is_umpire: the member is this campaign's umpire.
    """

    campaign: CampaignInfo
    players: Mapping[str, int]
    user_id: int
    is_admin: bool
    is_umpire: bool

    @property
    def actor(self) -> Actor:
        """The member as the service's :class:`~caedes_bot.service.Actor`."""
        return Actor(user_id=self.user_id, is_admin=self.is_admin)


def service_of(interaction: discord.Interaction) -> RulesService:
    """The bot's :class:`~caedes_bot.service.RulesService`.

    Raises:
        RuntimeError: the client has none (it is not a set-up Caedes bot).
    """
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, RulesService):
        raise RuntimeError("this client has no RulesService (setup_hook did not run?)")
    return service


def is_admin(interaction: discord.Interaction) -> bool:
    """Whether the member may administer campaigns: Manage Server (or Administrator)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def require_admin(interaction: discord.Interaction) -> None:
    """Refuse unless the member has Manage Server.

    Raises:
        NotPermitted: not an admin.
    """
    if not is_admin(interaction):
        raise NotPermitted(
            "Only a server admin (Manage Server permission) may do this.",
            allowed="ask a server admin",
        )


def _candidate_ids(channel: object) -> list[int]:
    """The channel, its parent (for a thread) and their category, in that order."""
    ids: list[int] = []
    channel_id = getattr(channel, "id", None)
    if isinstance(channel_id, int):
        ids.append(channel_id)
    if isinstance(channel, discord.Thread):
        ids.append(channel.parent_id)
        parent = channel.parent
        if parent is not None and parent.category_id is not None:
            ids.append(parent.category_id)
    else:
        category_id = getattr(channel, "category_id", None)
        if isinstance(category_id, int):
            ids.append(category_id)
    return ids


class ChannelDirectory:
    """Which campaign a Discord channel, category or thread belongs to.

    A binding never changes once the outbox has made the channel, so a found one is kept in
    memory; a miss is asked of the service again next time (the channel may not exist yet).
    The bot holds one (``CaedesBot.directory``).
    """

    def __init__(self, service: RulesService) -> None:
        self._service = service
        self._known: dict[int, int] = {}

    async def campaign_of(self, channel_id: int) -> int | None:
        """The id of the campaign owning ``channel_id``, or ``None``."""
        known = self._known.get(channel_id)
        if known is not None:
            return known
        info = await self._service.campaign_for_channel(channel_id)
        if info is None:
            return None
        self._known[channel_id] = info.id
        return info.id


def directory_of(interaction: discord.Interaction) -> ChannelDirectory:
    """The bot's :class:`ChannelDirectory` (a fresh one if the client has none)."""
    directory = getattr(interaction.client, "directory", None)
    if isinstance(directory, ChannelDirectory):
        return directory
    return ChannelDirectory(service_of(interaction))


async def find_campaign(interaction: discord.Interaction) -> CampaignView | None:
    """The campaign whose category, channel or thread the interaction comes from, with its
    players, if any."""
    if interaction.guild_id is None or interaction.channel is None:
        return None
    directory = directory_of(interaction)
    for channel_id in _candidate_ids(interaction.channel):
        campaign_id = await directory.campaign_of(channel_id)
        if campaign_id is None:
            continue
        view = await service_of(interaction).get_view(campaign_id)
        if view.info.guild_id == interaction.guild_id:
            return view
    return None


async def campaign_context(
    interaction: discord.Interaction, *, need: Need = Need.ANYONE
) -> CampaignContext:
    """The campaign of the interaction's channel and the member's roles in it.

    Raises:
        NotInCampaign: the channel belongs to no campaign.
        NotPermitted: the member lacks what ``need`` asks (admin; umpire or admin).
    """
    view = await find_campaign(interaction)
    if view is None:
        raise NotInCampaign()
    info = view.info
    context = CampaignContext(
        campaign=info,
        players=view.players,
        user_id=interaction.user.id,
        is_admin=is_admin(interaction),
        is_umpire=info.umpire_user_id is not None and info.umpire_user_id == interaction.user.id,
    )
    if need is Need.ADMIN and not context.is_admin:
        require_admin(interaction)
    if need is Need.UMPIRE_OR_ADMIN and not (context.is_admin or context.is_umpire):
        raise NotPermitted(
            f"Only the umpire of {info.name} or a server admin may do this.",
            rule="R-PBP-UMP-01",
            allowed="ask the umpire",
        )
    return context
