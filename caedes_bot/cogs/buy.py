"""Step 5, Buy: ``/buy`` and the turn panel's "Buy…" select (R-BUY-01..05).

A Summoned unit chosen here is summoned at once where the faction's Summoner stands, as
``/summon`` does (R-MAGIC-SUMM-01, R-BUY-05).

``/buy unit count`` buys ``count`` units at once; "Buy…" on the turn panel opens a private
select of the faction's units with their prices after discounts, each choice buying one. Every
purchase is answered privately with its effect: "Bought 2 Dawnian Knights for 12 RP. 7 RP left."
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._kind_names import buy_choices, kind_to_buy
from caedes_bot.cogs._play import (
    PlayCog,
    Seat,
    add_play_cog,
    own_choices_for,
    seat_for_command,
    seat_for_faction,
    turn_expect,
)
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.cogs.summon import summon, summon_order
from caedes_bot.rules import summons
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import Step
from caedes_bot.ui import views

#: At most this many units in one ``/buy``.
MAX_COUNT = 50


def buy_menu(seat: Seat) -> tuple[str, list[views.JSON]]:
    """The private "Buy…" message: the RP left and a select of the units with their prices."""
    rp = seat.state.factions[seat.faction].rp
    found = buy_choices(seat.state, seat.ruleset, seat.faction, "")
    cid = views.custom_id(seat.campaign_id, ["buy", seat.faction, seat.state.round], "kind")
    rows = views.select_rows(cid, views.options(found), placeholder="Buy one unit…")
    text = f"You have {rp} RP. Each choice buys one unit (R-BUY-01); prices include discounts."
    return text, rows


async def on_buy_select(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """A unit chosen in the buy menu: buy one, show the effect and the menu again."""
    _, faction, round_no = ref.parts[:3]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    expect = turn_expect(faction, round_no, Step.BUY)
    seat.check(expect)
    kind = seat.ruleset.units.get(ref.values[0])
    order: Order = BuyUnits(faction, ref.values[0], 1)
    if kind is not None and summons.is_summoned(kind):
        order = summon_order(seat, kind, 1, None)  # R-MAGIC-SUMM-01: summoned at once
    await seat.give(order, expect=expect, then=buy_menu, update=True)


class BuyCog(PlayCog):
    """``/buy``."""

    @app_commands.command(
        name="buy", description="Buy units in step 5; they are mustered in step 8"
    )
    @app_commands.describe(
        unit="The unit to buy, from your order of battle",
        count="How many to buy",
        faction=FACTION_HELP,
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def buy(
        self,
        interaction: discord.Interaction,
        unit: str,
        count: app_commands.Range[int, 1, MAX_COUNT] = 1,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        kind = kind_to_buy(seat.ruleset, seat.faction, unit)
        if summons.is_summoned(kind) and kind.faction == seat.faction:
            await summon(seat, kind, count, None)  # R-MAGIC-SUMM-01, R-BUY-05: summoned at once
            return
        await seat.give(BuyUnits(seat.faction, kind.id, count))

    @buy.autocomplete("unit")
    async def _units(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await own_choices_for(
            interaction, lambda t, faction: buy_choices(t.state, t.ruleset, faction, current)
        )


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog and the buy menu's select."""
    await add_play_cog(bot, BuyCog, {"buy": on_buy_select})
