"""Step 1, Trade: ``/trade offer``, ``accept``, ``decline``, ``withdraw`` and the offer's buttons
(R-TRADE-01..04).

The active faction offers RP and commodities to any faction in play (a gift is allowed); the
offer appears in the counterparty's orders thread with **Accept** and **Decline** buttons,
pinging its player (:mod:`caedes_bot.ui.announcer`). Accepting carries the trade out at once
if both sides still hold what they give; open offers lapse when step 1 ends (R-TRADE-02).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._checks import service_of
from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._play import (
    PlayCog,
    Table,
    add_play_cog,
    choices_for,
    own_choices_for,
    seat_for_command,
    seat_for_faction,
)
from caedes_bot.cogs._transformers import (
    Choice,
    faction_choices,
    offer_choices,
    parse_bundle,
    resolve_faction,
)
from caedes_bot.rules.errors import quoted
from caedes_bot.rules.state import TradeOffer
from caedes_bot.rules.trade import AcceptTrade, DeclineTrade, ProposeTrade, WithdrawTrade
from caedes_bot.ui import views

#: The most RP one side of an offer may name.
MAX_RP = 10_000
#: The most of one commodity one side of an offer may name.
MAX_COUNT = 10_000


_OFFER_ID = re.compile(r"#?\s*([0-9]{1,9})")


def _offer_id(text: str) -> int:
    """The offer number typed (``"12"`` or ``"#12"``); at most nine digits are read."""
    match = _OFFER_ID.fullmatch(text.strip())
    if match is None:
        raise UserError(
            f"'{quoted(text)}' is not a trade offer number.",
            allowed="an offer from the list",
        )
    return int(match[1])


async def _open_offer(
    interaction: discord.Interaction, campaign_id: int, offer_id: int
) -> TradeOffer:
    state = await service_of(interaction).get_state(campaign_id)
    offer = next((o for o in state.trades if o.id == offer_id), None)
    if offer is None:
        raise UserError(
            f"Trade offer #{offer_id} is not open: it was answered, withdrawn, or lapsed.",
            rule="R-TRADE-02",
            allowed="answer an open offer",
        )
    return offer


async def on_offer_button(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """Accept or Decline on an offer in the counterparty's thread."""
    offer = await _open_offer(interaction, ref.campaign_id, int(ref.parts[1]))
    seat = await seat_for_faction(interaction, ref.campaign_id, offer.counterparty)
    order = AcceptTrade if ref.action == "accept" else DeclineTrade
    await seat.give(order(offer.counterparty, offer.id))


class TradeCog(PlayCog):
    """The ``/trade`` command group."""

    trade = app_commands.Group(
        name="trade", description="Trade RP and commodities in step 1", guild_only=True
    )

    @trade.command(
        name="offer", description="Offer a trade to another faction (step 1 of your turn)"
    )
    @app_commands.describe(
        to="The faction you offer it to",
        give_rp="RP you give",
        give="Commodities you give, like 2 grain, 1 iron",
        get_rp="RP you ask for",
        get="Commodities you ask for, like 1 salt",
    )
    async def offer(
        self,
        interaction: discord.Interaction,
        to: str,
        give_rp: app_commands.Range[int, 0, MAX_RP] = 0,
        give: str | None = None,
        get_rp: app_commands.Range[int, 0, MAX_RP] = 0,
        get: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, None)
        counterparty = resolve_faction(seat.ruleset, to, seat.state.in_play, rule="R-TRADE-01")
        order = ProposeTrade(
            seat.faction,
            counterparty,
            give_rp,
            parse_bundle(give, most=MAX_COUNT),
            get_rp,
            parse_bundle(get, most=MAX_COUNT),
        )
        await seat.give(order, headline="Offer sent to their orders thread.")

    @offer.autocomplete("to")
    async def _others(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:

        def make(table: Table) -> list[Choice]:
            others = [
                c
                for c in table.state.in_play
                if c != table.faction and not table.state.factions[c].eliminated
            ]
            return faction_choices(table.ruleset, others, current)

        return await choices_for(interaction, make)

    async def _answer(self, interaction: discord.Interaction, offer: str, accept: bool) -> None:
        seat = await seat_for_command(interaction, None)
        found = await _open_offer(interaction, seat.campaign_id, _offer_id(offer))
        seat.faction = found.counterparty
        order = AcceptTrade if accept else DeclineTrade
        await seat.give(order(found.counterparty, found.id))

    @trade.command(
        name="accept", description="Accept a trade offered to you: it is carried out at once"
    )
    @app_commands.describe(offer="The offer to accept")
    async def accept(self, interaction: discord.Interaction, offer: str) -> None:
        await self._answer(interaction, offer, True)

    @trade.command(name="decline", description="Decline a trade offered to you")
    @app_commands.describe(offer="The offer to decline")
    async def decline(self, interaction: discord.Interaction, offer: str) -> None:
        await self._answer(interaction, offer, False)

    @trade.command(name="withdraw", description="Withdraw an offer you made")
    @app_commands.describe(offer="Your offer to withdraw")
    async def withdraw(self, interaction: discord.Interaction, offer: str) -> None:
        seat = await seat_for_command(interaction, None)
        found = await _open_offer(interaction, seat.campaign_id, _offer_id(offer))
        seat.faction = found.proposer
        await seat.give(WithdrawTrade(found.proposer, found.id))

    @accept.autocomplete("offer")
    @decline.autocomplete("offer")
    async def _offers_to_me(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:

        def make(table: Table) -> list[Choice]:
            mine = [c for c, u in table.campaign.players.items() if u == interaction.user.id]
            found = []
            for faction in mine or ([table.faction] if table.faction else []):
                found += offer_choices(
                    table.state, table.ruleset, faction, current, as_proposer=False
                )
            return found

        return await choices_for(interaction, make)

    @withdraw.autocomplete("offer")
    async def _offers_by_me(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await own_choices_for(
            interaction,
            lambda t, faction: offer_choices(
                t.state, t.ruleset, faction, current, as_proposer=True
            ),
        )


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog and the offers' buttons."""
    await add_play_cog(bot, TradeCog, {"trade": on_offer_button})
