"""The end of a campaign: the players' Accept / Refuse on the umpire's early end (R-VIC-04).

The umpire proposes with ``/umpire end`` (:mod:`caedes_bot.cogs.umpire`); each player still in
the game answers with the buttons in their orders thread (:mod:`caedes_bot.ui.ending`). Only
the faction's own player may press them: the umpire proposed, and votes for nobody.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._play import PlayCog, add_play_cog, seat_for_faction
from caedes_bot.rules.early_end import VoteEarlyEnd
from caedes_bot.ui import views
from caedes_bot.ui.describe import faction_name


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
    """The early end's vote buttons."""


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the vote's buttons."""
    await add_play_cog(bot, EndingCog, {"endvote": on_vote_button})
