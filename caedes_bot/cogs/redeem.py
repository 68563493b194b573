"""Step 2, Redeem: ``/redeem sets``, ``iron``, ``salt``, ``earmark`` (R-COMM-02..10).

Each spends commodities the faction held at the end of step 1: sets of different commodities
for RP (R-COMM-10), Iron for RP (R-COMM-05), Salt against this turn's upkeep (R-COMM-07), or an
earmark that takes its discount off a unit bought in step 5 (R-COMM-03, -04, -06, -08, -09).
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._play import PlayCog, add_play_cog, seat_for_command
from caedes_bot.cogs._transformers import parse_bundle
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.rules.orders import Order
from caedes_bot.rules.redeem import Earmark, RedeemIron, RedeemSalt, RedeemSets

#: The commodities that give a purchase discount when earmarked (R-COMM-03, -04, -06, -08).
EARMARK_CHOICES = [
    app_commands.Choice(name="Cloth: a Ship costs 2 RP less", value="cloth"),
    app_commands.Choice(name="Grain: an Infantry unit costs 1 RP less", value="grain"),
    app_commands.Choice(name="Livestock: a Cavalry unit costs 1 RP less", value="livestock"),
    app_commands.Choice(name="Timber: a Tower costs 3 RP less", value="timber"),
]


def parse_sets(text: str) -> tuple[tuple[str, ...], ...]:
    """Sets typed as ``"grain, iron, salt; cloth, timber, livestock"``: commodities within a set
    by commas, sets by semicolons (R-COMM-10). A count names that many of one commodity (a
    repeat adds nothing to a set's value), at most
    :data:`~caedes_bot.cogs._transformers.MAX_TEXT_COUNT`.

    Raises:
        UnknownName: not a commodity. RuleViolation: a count below 1 or too large (R-COMM-10).
    """
    sets = []
    for part in text.split(";"):
        bundle = parse_bundle(part, rule="R-COMM-10")
        if bundle:
            sets.append(tuple(c for c, n in bundle.items() for _ in range(n)))
    return tuple(sets)


class RedeemCog(PlayCog):
    """The ``/redeem`` command group."""

    redeem = app_commands.Group(
        name="redeem", description="Redeem commodities in step 2", guild_only=True
    )

    async def _give(
        self,
        interaction: discord.Interaction,
        faction: str | None,
        make: Callable[[str], Order],
    ) -> None:
        """Find the campaign and faction first; only then read what was typed (``make``)."""
        seat = await seat_for_command(interaction, faction)
        await seat.give(make(seat.faction))

    @redeem.command(
        name="sets", description="Sets of 3 to 6 different commodities for 2, 3, 5 or 8 RP"
    )
    @app_commands.describe(
        sets="Commodities of a set by commas, sets by semicolons: grain, iron, salt; cloth, timber, livestock",
        faction=FACTION_HELP,
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    async def sets(
        self, interaction: discord.Interaction, sets: str, faction: str | None = None
    ) -> None:
        await self._give(interaction, faction, lambda code: RedeemSets(code, parse_sets(sets)))

    @redeem.command(name="iron", description="Iron for 1 RP each")
    @app_commands.describe(count="How many Iron", faction=FACTION_HELP)
    @app_commands.autocomplete(faction=faction_autocomplete)
    async def iron(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 99],
        faction: str | None = None,
    ) -> None:
        await self._give(interaction, faction, lambda code: RedeemIron(code, count))

    @redeem.command(name="salt", description="Salt: 1 RP off this turn's upkeep each")
    @app_commands.describe(count="How many Salt", faction=FACTION_HELP)
    @app_commands.autocomplete(faction=faction_autocomplete)
    async def salt(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 99],
        faction: str | None = None,
    ) -> None:
        await self._give(interaction, faction, lambda code: RedeemSalt(code, count))

    @redeem.command(
        name="earmark", description="Set a commodity aside for a discount on this turn's purchases"
    )
    @app_commands.describe(commodity="Which commodity", count="How many", faction=FACTION_HELP)
    @app_commands.choices(commodity=EARMARK_CHOICES)
    @app_commands.autocomplete(faction=faction_autocomplete)
    async def earmark(
        self,
        interaction: discord.Interaction,
        commodity: str,
        count: app_commands.Range[int, 1, 99] = 1,
        faction: str | None = None,
    ) -> None:
        await self._give(interaction, faction, lambda code: Earmark(code, commodity, count))


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await add_play_cog(bot, RedeemCog)
