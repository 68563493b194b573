"""``/umpire``: the umpire moves a stalled game on (R-PBP-UMP-01, R-PBP-DEAD-03, R-PBP-DEAD-04).

``/umpire advance`` gives ``UmpireAdvance`` for the active faction: the oldest pending decision
is answered with its default, or in step 7 the next due battle is fought, or else the current
step ends as if the faction had passed. Every such order is written to the campaign's audit
log by the service, with who gave it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._checks import Need, campaign_context
from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._play import visible_lines, where_now
from caedes_bot.cogs.attack import battle_news
from caedes_bot.rules.turn import UmpireAdvance
from caedes_bot.ui.describe import faction_name

if TYPE_CHECKING:
    from caedes_bot.app import CaedesBot


class UmpireCog(commands.Cog):
    """The ``/umpire`` command group."""

    umpire = app_commands.Group(
        name="umpire", description="The umpire's tools: move a stalled game on", guild_only=True
    )

    def __init__(self, bot: CaedesBot) -> None:
        self.bot = bot

    @umpire.command(
        name="advance",
        description="Answer the oldest decision by default, or end the current step as a pass",
    )
    async def advance(self, interaction: discord.Interaction) -> None:
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        service = self.bot.service
        ruleset = self.bot.ruleset
        state = await service.get_state(context.campaign.id)
        if state.active is None:
            raise UserError(
                "No faction is playing, so there is nothing to move on.",
                rule="R-PBP-DEAD-03",
                allowed="`/campaign start` if the campaign has not begun",
            )
        active = state.active
        step = state.step
        result = await service.submit(
            context.campaign.id,
            context.actor,
            UmpireAdvance(active),
            interaction_id=str(interaction.id),
        )
        lines = [
            f"Moved on for {faction_name(ruleset, active)} (it was at step {step.label}); "
            "written to the audit log (R-PBP-UMP-01)."
        ]
        for faction in dict.fromkeys([active, *result.state.in_play]):
            for line in visible_lines(result.events, result.state, ruleset, faction):
                if line not in lines:
                    lines.append(line)
        lines += battle_news(result.events, result.state, ruleset)
        lines.append(where_now(result.state, ruleset, result.state.active or active))
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    from caedes_bot.app import CaedesBot

    if not isinstance(bot, CaedesBot):
        raise TypeError("the umpire cog needs a CaedesBot")
    await bot.add_cog(UmpireCog(bot))
