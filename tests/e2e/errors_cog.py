"""A test-only extension: commands that fail in each way the tree's error handler must handle."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._errors import UserError
from caedes_bot.rules.errors import RuleViolation


class FailingCog(commands.Cog):
    failing = app_commands.Group(name="failing", description="Commands that fail (tests only)")

    @failing.command(name="rule", description="Refused by a rule")
    async def rule(self, interaction: discord.Interaction) -> None:
        raise RuleViolation(
            "Cavalry may not enter mountains: Ironpeak is mountains.",
            rule="R-MOVE-06",
            allowed="a move to a plains or hills province",
        )

    @failing.command(name="user", description="Refused by a check")
    async def user(self, interaction: discord.Interaction) -> None:
        raise UserError("Not here.", allowed="somewhere else")

    @failing.command(name="bug", description="A bug")
    async def bug(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("a bug in a command")

    @failing.command(name="late", description="A bug after deferring")
    async def late(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        raise RuntimeError("a bug after the deferral")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(FailingCog())
