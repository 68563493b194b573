"""The end of a campaign: the players' Accept / Refuse on the umpire's early end (R-VIC-04),
and ``/stats``, each faction's statistics during play (the final summary at the end is the
announcer's, :mod:`caedes_bot.ui.ending`).

The umpire proposes with ``/umpire end`` (:mod:`caedes_bot.cogs.umpire`); each player still in
the game answers with the buttons in their orders thread (:mod:`caedes_bot.ui.ending`). Only
the faction's own player may press them: the umpire proposed, and votes for nobody.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._checks import campaign_context
from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._play import PlayCog, add_play_cog, answer, seat_for_faction
from caedes_bot.rules.early_end import VoteEarlyEnd
from caedes_bot.ui import views
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.stats import stats_text


async def on_vote_button(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """Accept or Refuse on the early end in a player's orders thread (R-VIC-04)."""
    faction = ref.parts[2]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    if seat.campaign.players.get(faction) != interaction.user.id:
        raise UserError(
            f"Only the player of {faction_name(seat.ruleset, faction)} votes with these buttons.",
            rule="R-VIC-04",
            allowed="vote with the buttons in your own orders thread",
        )
    accept = ref.action == "accept"
    await seat.give(
        VoteEarlyEnd(faction, int(ref.parts[1]), accept),
        headline="You accept the early end." if accept else "You refuse the early end.",
    )


class EndingCog(PlayCog):
    """``/stats`` and the early end's vote buttons."""

    @app_commands.command(
        name="stats", description="Each faction's statistics: provinces, battles, losses, luck"
    )
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction) -> None:
        """Income and purchases only of the member's own factions (all for the umpire),
        unless ``public_treasuries`` (R-GEN-07). Answers in a finished campaign too."""
        context = await campaign_context(interaction)
        state = await self.bot.service.get_state(context.campaign.id)
        umpire = context.campaign.umpire_user_id == interaction.user.id
        own = (
            None if umpire else [f for f, u in context.players.items() if u == interaction.user.id]
        )
        await answer(interaction, stats_text(state, self.bot.ruleset, own))


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the vote's buttons."""
    await add_play_cog(bot, EndingCog, {"endvote": on_vote_button})
