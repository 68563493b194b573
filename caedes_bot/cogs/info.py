"""Looking things up: ``/status``, ``/province``, ``/unit``, ``/help``, ``/history`` (ux.md
"Looking things up").

All answers are private. ``/status`` shows a faction's secrets (R-GEN-07), so only its player
and the umpire may see it; the board (provinces, units) is public. ``/history`` words a turn's
events: the public ones for anyone, a private one only for its factions and the umpire.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._checks import campaign_context, find_campaign
from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._kind_names import kind_choices, resolve_kind
from caedes_bot.cogs._place_names import province_choices, resolve_province
from caedes_bot.cogs._play import (
    PlayCog,
    Seat,
    Table,
    actable_factions,
    add_play_cog,
    choices_for,
    choose_faction,
    seat_for_command,
    table_for_autocomplete,
)
from caedes_bot.cogs._transformers import Choice, faction_choices, resolve_faction
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.embeds import help_embed, province_embed, status_embed, unit_embed
from caedes_bot.ui.history import history_heading, history_lines, history_pages
from caedes_bot.ui.text import MESSAGE_LIMIT, choices, truncate

FACTION_HELP = "The faction you act for, if you hold several (default: the one whose turn it is)"


async def faction_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The factions the member may act for: its own; for the umpire every faction in play,
    its own first (R-SETUP-02, R-PBP-UMP-01)."""

    def make(table: Table) -> list[Choice]:
        codes = actable_factions(table.state, table.campaign, interaction.user.id)
        mine = [c for c in codes if table.campaign.players.get(c) == interaction.user.id]
        return faction_choices(table.ruleset, codes, current, first=mine)

    return await choices_for(interaction, make)


async def send_status(seat: Seat) -> None:
    """Answer privately with the faction's status (R-GEN-07)."""
    seat.require_own()
    embed = status_embed(seat.state, seat.ruleset, seat.faction)
    await seat.interaction.response.send_message(embed=embed, ephemeral=True)


class InfoCog(PlayCog):
    """``/status``, ``/province``, ``/unit``, ``/help`` and ``/history``."""

    @app_commands.command(
        name="status", description="Your faction's RP, commodities, units and purchases (private)"
    )
    @app_commands.describe(faction=FACTION_HELP)
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction, faction: str | None = None) -> None:
        await send_status(await seat_for_command(interaction, faction))

    @app_commands.command(
        name="province", description="A province: terrain, income, owner, units, borders"
    )
    @app_commands.describe(name="The province's name")
    @app_commands.guild_only()
    async def province(self, interaction: discord.Interaction, name: str) -> None:
        context = await campaign_context(interaction)
        state = await self.bot.service.get_state(context.campaign.id)
        province_id = resolve_province(self.bot.ruleset, name, rule="R-GEN-04")
        await interaction.response.send_message(
            embed=province_embed(state, self.bot.ruleset, province_id), ephemeral=True
        )

    @province.autocomplete("name")
    async def _province_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: province_choices(t.state, t.ruleset, t.faction, current)
        )

    @app_commands.command(
        name="unit", description="A unit: values, cost, and what each attribute does"
    )
    @app_commands.describe(name="The unit's name, like Dawnian Knights")
    @app_commands.guild_only()
    async def unit(self, interaction: discord.Interaction, name: str) -> None:
        kind = resolve_kind(self.bot.ruleset, name, rule="R-GEN-04")
        state = None
        found = await find_campaign(interaction)
        if found is not None:
            state = await self.bot.service.get_state(found.info.id)
        await interaction.response.send_message(
            embed=unit_embed(self.bot.ruleset, kind, state), ephemeral=True
        )

    @unit.autocomplete("name")
    async def _unit_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await table_for_autocomplete(interaction)
        faction = table.faction if table is not None else None
        return choices(kind_choices(self.bot.ruleset, faction, current))

    @app_commands.command(
        name="help", description="What you can do now, and the commands and buttons for it"
    )
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction) -> None:
        context = await campaign_context(interaction)
        state = await self.bot.service.get_state(context.campaign.id)
        try:
            faction: str | None = choose_faction(
                self.bot.ruleset,
                state,
                context.players,
                interaction.user.id,
                is_umpire=context.is_umpire,
            )
        except (UserError, RuleViolation):
            faction = None
        await interaction.response.send_message(
            embed=help_embed(state, self.bot.ruleset, faction, umpire=context.is_umpire),
            ephemeral=True,
        )

    @app_commands.command(
        name="history", description="A turn's events in words (private events only your own)"
    )
    @app_commands.describe(
        round="The game round (default: the one being played)",
        faction="Whose turn (default: the faction playing now, or the last to play)",
        page="Which page, when the turn fills several",
    )
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 10_000] | None = None,
        faction: str | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        """R-GEN-07: public events for anyone in the campaign; a private one for its factions
        and the umpire only."""
        context = await campaign_context(interaction)
        ruleset = self.bot.ruleset
        state = await self.bot.service.get_state(context.campaign.id)
        if state.round == 0:
            raise UserError(
                "The campaign has not begun, so there is no history yet.",
                allowed="`/campaign start` (the umpire)",
            )
        round_no = round or state.round
        if faction:
            code = resolve_faction(ruleset, faction, state.in_play, rule="R-GEN-07")
        else:
            code = state.active or state.in_play[-1]
        events = await self.bot.service.turn_events(context.campaign.id, round_no, code)
        if not events:
            raise UserError(
                f"There is no turn of {faction_name(ruleset, code)} in game round {round_no} "
                "(yet).",
                allowed=f"a game round from 1 to {state.round}, and a faction in play",
            )
        mine = [f for f, user in context.players.items() if user == interaction.user.id]
        lines = history_lines(events, state, ruleset, factions=mine, sees_all=context.is_umpire)
        pages = history_pages(lines, history_heading(ruleset, round_no, code))
        if page > len(pages):
            raise UserError(
                f"That turn's history has {len(pages)} page(s).",
                allowed=f"`page` from 1 to {len(pages)}",
            )
        text = pages[page - 1]
        if page < len(pages):
            more = f"\nMore: `/history round:{round_no} faction:{code} page:{page + 1}`"
            text = truncate(text, MESSAGE_LIMIT - len(more)) + more
        await interaction.response.send_message(text, ephemeral=True)

    @history.autocomplete("faction")
    async def _history_factions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: faction_choices(t.ruleset, t.state.in_play, current)
        )


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await add_play_cog(bot, InfoCog)
