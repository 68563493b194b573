"""``/campaign``: create, staff, start and describe a campaign (ux.md "Channels of a campaign").

Thin by design: each command parses its options, checks the member's role
(:mod:`caedes_bot.cogs._checks`), calls the :class:`~caedes_bot.service.RulesService` and
renders a private reply. Refusals are raised, never caught here: the command tree's one error
handler shows them (:mod:`caedes_bot.cogs._errors`).

* ``/campaign new`` (admin): the campaign, and through the outbox its category with
  ``#announcements``, ``#battles``, ``#table-talk``, ``#umpire`` and a private orders thread per
  faction (R-PBP-NEG-06).
* ``/campaign umpire`` (admin): names the campaign's umpire (R-PBP-UMP-01); the umpire they
  replace loses ``#umpire`` and the threads of factions they do not play. The umpire may also
  play factions; their orders for other factions are logged as the umpire's.
* ``/campaign assign`` / ``unassign`` (umpire or admin): gives a faction to a member or back to
  the umpire (R-SETUP-02, R-PBP-UMP-02).
* ``/campaign substitute`` (umpire or admin): hands a faction to another member at once, mid-turn
  too; threads, the turn panel's buttons, decisions owed and deadlines follow the faction
  (R-PBP-UMP-01), and the turn panel is posted again for the new player.
* ``/campaign finish`` (umpire or admin): the campaign ends; no orders or deadlines after it.
* ``/campaign start`` (umpire or admin): game round 1 begins (R-TURN-01); factions nobody holds
  are run by the umpire.
* ``/campaign export`` (umpire or admin) and ``/campaign import`` (admin): the campaign as a
  gzipped JSON file, and a new campaign from one (:mod:`._exports`, decision 0023).
* ``/campaign info`` (anyone in the campaign): name, scenario, status, umpire, who plays what;
  for the umpire and admins also what the bot could not deliver to Discord. Used by an admin
  outside any campaign, it lists the server's campaigns and any set-up that failed.

Checks that must hold at the moment of the change (a free name, a free faction, a campaign
not yet started) are made by the service under its lock, so two commands at once cannot both
pass them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs import _exports
from caedes_bot.cogs._checks import Need, campaign_context, find_campaign, is_admin, require_admin
from caedes_bot.cogs._errors import NotInCampaign, UserError
from caedes_bot.cogs._limits import require_room
from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import CampaignInfo, CampaignStatus
from caedes_bot.gamedata.loader import suggest
from caedes_bot.gamedata.model import FactionDef, Ruleset, Scenario
from caedes_bot.gamedata.names import contains, find
from caedes_bot.rules.errors import AmbiguousName, UnknownName
from caedes_bot.service import NAME_MAX, RulesService
from caedes_bot.ui.replies import Redelivered, first_delivery
from caedes_bot.ui.scenario_text import upcoming_field
from caedes_bot.ui.text import (
    CHOICES_LIMIT,
    EMBED_FIELD_VALUE_LIMIT,
    bullet_list,
    choice_label,
    choices,
    fit_embed,
    truncate,
)
from caedes_bot.ui.wording import STATUS_TEXT, describe_problem

if TYPE_CHECKING:
    from caedes_bot.app import CaedesBot

_OPEN = (CampaignStatus.SETTING_UP, CampaignStatus.ACTIVE, CampaignStatus.PAUSED)
_STATUS_TEXT = STATUS_TEXT

#: Delivery problems shown by ``/campaign info``.
PROBLEMS_SHOWN = 3


def faction_label(faction: FactionDef) -> str:
    """``"🦁 Dawnians (DAW)"``: emoji, name and code, so colour is never the only cue."""
    return f"{faction.emoji} {faction.name} ({faction.code})".strip()


def who(user_id: int | None) -> str:
    """A member as a mention, or "the umpire" for a faction nobody holds."""
    return f"<@{user_id}>" if user_id is not None else "the umpire"


class CampaignCog(commands.Cog):
    """The ``/campaign`` command group."""

    campaign = app_commands.Group(
        name="campaign",
        description="Create, staff and start a campaign of The Legacy of the Seven Swords",
        guild_only=True,
    )

    def __init__(self, bot: CaedesBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every ``/campaign`` command: an interaction Discord delivers a second time is
        refused before any work (:class:`~caedes_bot.ui.replies.Redelivered`, logged at
        INFO by the error handler; the first delivery answers)."""
        if not first_delivery(interaction):
            raise Redelivered("delivered again")
        return True

    @property
    def service(self) -> RulesService:
        return self.bot.service

    @property
    def ruleset(self) -> Ruleset:
        return self.bot.ruleset

    # ----------------------------------------------------------------------- helpers

    def _scenario(self, value: str) -> Scenario:
        scenarios = self.ruleset.scenarios
        found = find(value, ((s, (s.id, s.name)) for s in scenarios.values()))
        if found.item is not None:
            return found.item
        if found.ambiguous:
            listed = tuple(s.name for s in found.ambiguous)
            raise AmbiguousName("scenario", value, listed, rule="R-SETUP-01")
        names = [*scenarios, *(s.name for s in scenarios.values())]
        raise UnknownName("scenario", value, suggest(value, names), rule="R-SETUP-01")

    def _faction(self, value: str, in_play: list[str]) -> str:
        factions = [self.ruleset.faction(c) for c in in_play]
        found = find(value, ((f.code, (f.code, f.name, f.adjective)) for f in factions))
        if found.item is not None:
            return found.item
        if found.ambiguous:
            listed = tuple(self.ruleset.faction(c).name for c in found.ambiguous)
            raise AmbiguousName("faction", value, listed, rule="R-SETUP-02")
        names = [*in_play, *(f.name for f in factions)]
        raise UnknownName(
            "faction in this campaign", value, suggest(value, names), rule="R-SETUP-02"
        )

    def _open(self, info: CampaignInfo) -> None:
        if info.status is CampaignStatus.FINISHED:
            raise UserError(f"{info.name} is finished.", allowed="start a new campaign")

    @staticmethod
    def _not_a_bot(member: discord.Member | discord.User) -> None:
        if member.bot:
            raise UserError(f"{member.display_name} is a bot.", allowed="name a person")

    # ----------------------------------------------------------------------- /campaign new

    @campaign.command(
        name="new", description="Create a campaign with its category, channels and orders threads"
    )
    @app_commands.describe(
        name="The campaign's name, also its category's name",
        scenario="The scenario to play",
        umpire="The umpire; you can also name one later with /campaign umpire",
        table_talk="Add a #table-talk channel for public chat",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, NAME_MAX],
        scenario: str,
        umpire: discord.Member | None = None,
        table_talk: bool = True,
    ) -> None:
        require_admin(interaction)
        assert interaction.guild_id is not None  # guild_only
        chosen = self._scenario(scenario)
        if umpire is not None:
            self._not_a_bot(umpire)
        if interaction.guild is not None:  # Discord's limits: refuse before making anything
            places = 4 if table_talk else 3
            threads = len(chosen.factions)
            require_room(
                interaction.guild,
                channels=1 + places,
                threads=threads,
                what="a campaign",
                needs=f"{1 + places} channels (a category and {places} channels) and {threads} "
                "threads (an orders thread per faction)",
            )
        info = await self.service.create_campaign(
            interaction.guild_id,
            name,
            chosen.id,
            interaction.user.id,
            umpire_user_id=umpire.id if umpire else None,
            table_talk=table_talk,
        )
        channels = ["#announcements (read-only)", "#battles (read-only)"]
        if table_talk:
            channels.append("#table-talk")
        channels.append("#umpire (private)")
        factions = [faction_label(self.ruleset.faction(f.code)) for f in chosen.factions]
        lines = [
            f"Setting up **{info.name}** ({chosen.name}).",
            f"In a moment the category **{info.name}** will hold {', '.join(channels)}, "
            "and a private orders thread for each faction: " + ", ".join(factions) + ".",
            f"Umpire: {who(umpire.id)}."
            if umpire
            else "No umpire yet: name one with `/campaign umpire`.",
            "Then give factions to players with `/campaign assign` and begin with `/campaign start`, "
            "used in the campaign's channels.",
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @new.autocomplete("scenario")
    async def _scenario_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        items = [
            (choice_label(s.name, f"{len(s.factions)} factions", s.id), s.id)
            for s in self.ruleset.scenarios.values()
            if contains(current, s.id, s.name)
        ]
        return choices(items)

    # ----------------------------------------------------------------------- /campaign umpire

    @campaign.command(name="umpire", description="Name the campaign's umpire")
    @app_commands.describe(member="The member who will umpire this campaign")
    async def umpire(self, interaction: discord.Interaction, member: discord.Member) -> None:
        context = await campaign_context(interaction, need=Need.ADMIN)
        info = context.campaign
        self._open(info)
        self._not_a_bot(member)
        change = await self.service.set_umpire(info.id, member.id, by=interaction.user.id)
        if not change.changed:
            text = f"{who(member.id)} already umpires **{info.name}**."
        else:
            text = (
                f"{who(member.id)} is now the umpire of **{info.name}**: they get #umpire and "
                "every orders and negotiation thread (R-PBP-UMP-04)."
            )
        if change.plays:
            plays = ", ".join(faction_label(self.ruleset.faction(c)) for c in change.plays)
            text += (
                f"\n{who(member.id)} still plays {plays}; the orders they give for other "
                "factions are logged as the umpire's (R-PBP-UMP-02)."
            )
        if change.changed and change.previous is not None:
            text += (
                f"\n{who(change.previous)} is no longer the umpire: they lose #umpire and the "
                "threads of factions they do not play."
            )
        await interaction.response.send_message(text, ephemeral=True)

    # ----------------------------------------------------------------------- /campaign assign

    @campaign.command(name="assign", description="Give a faction to a member")
    @app_commands.describe(
        member="The member who will play the faction", faction="The faction to give"
    )
    async def assign(
        self, interaction: discord.Interaction, member: discord.Member, faction: str
    ) -> None:
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        info = context.campaign
        self._open(info)
        self._not_a_bot(member)
        state = await self.service.get_state(info.id)
        code = self._faction(faction, state.in_play)
        label = faction_label(self.ruleset.faction(code))
        changed = await self.service.assign(info.id, member.id, code, by=interaction.user.id)
        if not changed:
            text = f"{who(member.id)} already plays {label}."
        else:
            text = f"{who(member.id)} now plays {label} in **{info.name}** and joins its orders thread."
        umpire = (await self.service.get_view(info.id)).info.umpire_user_id
        if umpire == member.id:
            text += (
                f"\n{who(member.id)} is also the umpire; the orders they give for other "
                "factions are logged as the umpire's (R-PBP-UMP-02)."
            )
        await interaction.response.send_message(text, ephemeral=True)

    @campaign.command(name="unassign", description="Hand a faction back to the umpire")
    @app_commands.describe(faction="The faction to take back")
    async def unassign(self, interaction: discord.Interaction, faction: str) -> None:
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        info = context.campaign
        self._open(info)
        state = await self.service.get_state(info.id)
        code = self._faction(faction, state.in_play)
        label = faction_label(self.ruleset.faction(code))
        if not await self.service.unassign(info.id, code, by=interaction.user.id):
            raise UserError(
                f"Nobody holds {label}; the umpire runs it already.", rule="R-PBP-UMP-02"
            )
        await interaction.response.send_message(
            f"{label} is run by the umpire from now on (R-PBP-UMP-02).", ephemeral=True
        )

    @campaign.command(
        name="substitute", description="Hand a faction to another member now, mid-turn too"
    )
    @app_commands.describe(
        faction="The faction to hand over", member="The member who takes it over"
    )
    async def substitute(
        self, interaction: discord.Interaction, faction: str, member: discord.Member
    ) -> None:
        """R-PBP-UMP-01, R-SETUP-02: one command instead of unassign then assign; the threads,
        the turn panel's buttons and the deadlines follow the faction."""
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        info = context.campaign
        self._open(info)
        self._not_a_bot(member)
        state = await self.service.get_state(info.id)
        code = self._faction(faction, state.in_play)
        label = faction_label(self.ruleset.faction(code))
        previous = await self.service.substitute(info.id, code, member.id, by=interaction.user.id)
        state = await self.service.get_state(info.id)
        # the service posted the panel again in the substitution's transaction if it is the
        # faction's turn (RichAnnouncer.panel_again)
        panel = state.active == code and not state.finished
        text = (
            f"{who(member.id)} now plays {label} in place of {who(previous)}: they join its "
            "orders and negotiation threads, and its buttons, decisions and reminders are theirs "
            "(R-PBP-UMP-01)."
        )
        if panel:
            text += " Its turn panel was posted again in its orders thread."
        await interaction.response.send_message(text, ephemeral=True)

    @campaign.command(name="finish", description="Finish the campaign: no more orders or deadlines")
    async def finish(self, interaction: discord.Interaction) -> None:
        """R-PBP-UMP-01: the umpire or an admin ends the campaign; it is announced."""
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        info = await self.service.finish(context.campaign.id, context.actor)
        await interaction.response.send_message(
            f"**{info.name}** is finished: announced in #announcements; no more orders are "
            "taken and no deadline runs.",
            ephemeral=True,
        )

    @assign.autocomplete("faction")
    @unassign.autocomplete("faction")
    @substitute.autocomplete("faction")
    async def _faction_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            context = await campaign_context(interaction)
        except UserError:
            return []
        state = await self.service.get_state(context.campaign.id)
        players = context.players
        items: list[tuple[bool, str, str]] = []
        for code in state.in_play:
            faction = self.ruleset.faction(code)
            if not contains(current, code, faction.name, faction.adjective):
                continue
            held = code in players
            items.append((held, choice_label(faction.name, code, "held" if held else "free"), code))
        items.sort(key=lambda item: item[0])  # free factions first
        return choices(((label, code) for _, label, code in items), limit=CHOICES_LIMIT)

    # ----------------------------------------------------------------------- /campaign start

    @campaign.command(
        name="start", description="Begin game round 1; factions nobody holds are run by the umpire"
    )
    async def start(self, interaction: discord.Interaction) -> None:
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        info = context.campaign
        result = await self.service.start(info.id, context.actor)
        players = (await self.service.get_view(info.id)).players
        state = result.state
        umpire_run = [c for c in state.in_play if c not in players]
        lines = [f"**{info.name}** has begun: game round {state.round}."]
        if state.active is not None:
            lines.append(f"{faction_label(self.ruleset.faction(state.active))} plays first.")
        if umpire_run:
            lines.append(
                "Run by the umpire (R-PBP-UMP-02): "
                + ", ".join(faction_label(self.ruleset.faction(c)) for c in umpire_run)
                + "."
            )
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    # ----------------------------------------------------------------------- export, import

    @campaign.command(
        name="export", description="The campaign as a file: its state and its logs (umpire)"
    )
    async def export(self, interaction: discord.Interaction) -> None:
        await _exports.export_campaign(self.service, interaction)

    @campaign.command(name="import", description="Start a new campaign from an exported file")
    @app_commands.describe(
        file="A .json.gz file made by /campaign export",
        name="The new campaign's name, also its category's name",
    )
    async def import_(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        name: app_commands.Range[str, 1, NAME_MAX],
    ) -> None:
        await _exports.import_campaign(self.service, self.ruleset, interaction, file, name)

    # ----------------------------------------------------------------------- /campaign info

    @campaign.command(
        name="info", description="The campaign of this channel: scenario, status, umpire, players"
    )
    async def info(self, interaction: discord.Interaction) -> None:
        if await find_campaign(interaction) is None and is_admin(interaction):
            await self._guild_overview(interaction)
            return
        context = await campaign_context(interaction)
        info = context.campaign
        state = await self.service.get_state(info.id)
        players = context.players
        scenario = self.ruleset.scenarios.get(info.scenario)
        embed = discord.Embed(
            title=info.name, description=f"The campaign is {_STATUS_TEXT[info.status]}."
        )
        embed.add_field(name="Scenario", value=scenario.name if scenario else info.scenario)
        embed.add_field(
            name="Umpire", value=who(info.umpire_user_id) if info.umpire_user_id else "none yet"
        )
        if state.active is not None:
            turn = f"Game round {state.round}: {faction_label(self.ruleset.faction(state.active))}, step {state.step.label}"
            embed.add_field(name="Now", value=turn, inline=False)
        embed.add_field(
            name="Factions",
            value="\n".join(
                f"{faction_label(self.ruleset.faction(code))}: {who(players.get(code))}"
                for code in state.in_play
            ),
            inline=False,
        )
        if context.is_admin or context.is_umpire:
            coming = upcoming_field(state, self.ruleset)  # R-SETUP-01: the umpire sees ahead
            if coming:
                embed.add_field(name="Scenario events to come", value=coming, inline=False)
            problems = await self.service.delivery_problems(info.id, limit=PROBLEMS_SHOWN)
            if problems:
                embed.add_field(
                    name="Not delivered to Discord",
                    value=bullet_list(
                        [f"- {describe_problem(p)}" for p in problems],
                        limit=EMBED_FIELD_VALUE_LIMIT,
                        more="- and {n} more",
                    ),
                    inline=False,
                )
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)

    async def _guild_overview(self, interaction: discord.Interaction) -> None:
        """For an admin outside any campaign: the server's open campaigns, each with where its
        set-up stands, so a campaign whose channels could not be made is not lost."""
        assert interaction.guild_id is not None
        open_ones = await self.service.campaigns(guild_id=interaction.guild_id, statuses=_OPEN)
        if not open_ones:
            raise NotInCampaign()
        lines = ["This channel is not part of a campaign. This server's campaigns:"]
        for info in open_ones:
            channels = await self.service.channels(info.id)
            category = channels.get(ChannelKey.CATEGORY)
            where = (
                f"<#{category.discord_id}>"
                if category and category.discord_id
                else "no category yet"
            )
            lines.append(f"**{info.name}** ({_STATUS_TEXT[info.status]}): {where}")
            problems = await self.service.delivery_problems(info.id, limit=PROBLEMS_SHOWN)
            lines += [f"- {describe_problem(p)}" for p in problems]
        await interaction.response.send_message(truncate("\n".join(lines), 2000), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: add the cog to a :class:`~caedes_bot.app.CaedesBot`."""
    from caedes_bot.app import CaedesBot

    if not isinstance(bot, CaedesBot):
        raise TypeError("the campaign cog needs a CaedesBot (it uses its RulesService)")
    await bot.add_cog(CampaignCog(bot))
