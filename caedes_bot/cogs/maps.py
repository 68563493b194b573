"""``/map``: the map as a picture (issue 17; ux.md "Looking things up").

``/map`` shows the whole board, ``/map province:<name>`` zooms on a province (or a sea zone)
and its neighbours, ``/map faction:<code>`` picks out one faction's holdings. The answer is private,
anywhere in the campaign. Names are checked first (a bad one is refused at once, changing
nothing); then the interaction is deferred, and only then is the picture drawn, off the event
loop and cached by scene (:class:`~caedes_bot.ui.mapdraw.MapDrawer`).
"""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._checks import campaign_context
from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._place_names import resolve_space, space_choices
from caedes_bot.cogs._play import PlayCog, add_play_cog, choices_for
from caedes_bot.cogs._transformers import faction_choices, resolve_faction
from caedes_bot.ui.mapdraw import map_filename
from caedes_bot.ui.mapscene import map_caption, map_scene


class NoMapPicture(UserError):
    """The game data has no map shapes, so there is no picture to show."""

    def __init__(self) -> None:
        super().__init__(
            "There is no map picture: this game data has no map shapes (map_shapes.toml).",
            allowed="/province to see one province in words",
        )


class MapCog(PlayCog):
    """``/map``."""

    @app_commands.command(
        name="map", description="The map as a picture: owners, units, battles (private)"
    )
    @app_commands.describe(
        province="Zoom on this province (or sea zone) and its neighbours",
        faction="Pick out this faction's provinces and units",
    )
    @app_commands.guild_only()
    async def map(
        self,
        interaction: discord.Interaction,
        province: str | None = None,
        faction: str | None = None,
    ) -> None:
        context = await campaign_context(interaction)
        drawer = self.bot.map_drawer
        if not drawer.available:
            raise NoMapPicture()
        ruleset = self.bot.ruleset
        focus = resolve_space(ruleset, province) if province else None
        state = await self.bot.service.get_state(context.campaign.id)
        codes = list(state.in_play) or list(ruleset.turn_order)
        highlight = resolve_faction(ruleset, faction, codes, rule="R-GEN-04") if faction else None
        await interaction.response.defer(ephemeral=True, thinking=True)
        scene = map_scene(state, ruleset, focus=focus, highlight=highlight)
        png = await drawer.png(scene)
        await interaction.followup.send(
            map_caption(ruleset, scene),
            file=discord.File(io.BytesIO(png), filename=map_filename(scene)),
            ephemeral=True,
        )

    @map.autocomplete("province")
    async def _province_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: space_choices(t.state, t.ruleset, t.faction, current)
        )

    @map.autocomplete("faction")
    async def _faction_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction,
            lambda t: faction_choices(
                t.ruleset, list(t.state.in_play) or list(t.ruleset.turn_order), current
            ),
        )


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await add_play_cog(bot, MapCog)
