"""``/alliance propose``, ``/alliance break``, ``/fealty swear``, ``/fealty revoke``,
``/diplomacy`` and the Confirm / Refuse buttons of a pact proposal (R-ALLY-01, R-ALLY-02,
R-FEAL-01, R-FEAL-03).

Any faction may give these at any time of anyone's turn (the rules' any-time orders,
:mod:`caedes_bot.rules.pacts`). A proposal appears in the orders thread of every member asked
to confirm it, with buttons (:mod:`caedes_bot.ui.announcer`); once all have confirmed it takes
effect at the start of the next turn.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._play import PlayCog, add_play_cog, answer, seat_for_command, seat_for_faction
from caedes_bot.cogs._transformers import resolve_faction
from caedes_bot.cogs.info import FACTION_HELP
from caedes_bot.rules.pacts import (
    AnswerPact,
    BreakAlliance,
    ProposeAlliance,
    RevokeFealty,
    SwearFealty,
)
from caedes_bot.ui import views
from caedes_bot.ui.pacts_text import pacts_listing


def _factions(text: str) -> list[str]:
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    found = [p for p in parts if p]
    if not found:
        raise UserError(
            "Name at least one faction.", rule="R-ALLY-01", allowed="factions separated by commas"
        )
    return found


async def on_pact_button(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """Confirm or Refuse on a proposal in a member's orders thread (R-ALLY-01, R-FEAL-01)."""
    faction = ref.parts[2]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    await seat.give(AnswerPact(faction, int(ref.parts[1]), ref.action == "accept"))


class PactsCog(PlayCog):
    """``/alliance``, ``/fealty`` and ``/diplomacy``."""

    alliance = app_commands.Group(
        name="alliance", description="Alliances between factions", guild_only=True
    )
    fealty = app_commands.Group(name="fealty", description="Fealty to a liege", guild_only=True)

    @alliance.command(name="propose", description="Propose an alliance; every member confirms it")
    @app_commands.describe(
        partners="The factions to ally with, separated by commas", as_faction=FACTION_HELP
    )
    async def propose(
        self, interaction: discord.Interaction, partners: str, as_faction: str | None = None
    ) -> None:
        seat = await seat_for_command(interaction, as_faction)
        codes = tuple(
            resolve_faction(seat.ruleset, p, seat.state.in_play, rule="R-ALLY-01")
            for p in _factions(partners)
        )
        await seat.give(
            ProposeAlliance(seat.faction, codes),
            headline="Proposal sent to the members' orders threads.",
        )

    @alliance.command(name="break", description="Break an alliance (from the next turn)")
    @app_commands.describe(partners="The other members of the alliance", as_faction=FACTION_HELP)
    async def break_(
        self, interaction: discord.Interaction, partners: str, as_faction: str | None = None
    ) -> None:
        seat = await seat_for_command(interaction, as_faction)
        codes = tuple(
            resolve_faction(seat.ruleset, p, seat.state.in_play, rule="R-ALLY-01")
            for p in _factions(partners)
        )
        await seat.give(BreakAlliance(seat.faction, codes))

    @fealty.command(name="swear", description="Swear fealty to a liege, who must accept")
    @app_commands.describe(liege="The faction to swear to", as_faction=FACTION_HELP)
    async def swear(
        self, interaction: discord.Interaction, liege: str, as_faction: str | None = None
    ) -> None:
        seat = await seat_for_command(interaction, as_faction)
        code = resolve_faction(seat.ruleset, liege, seat.state.in_play, rule="R-FEAL-01")
        await seat.give(
            SwearFealty(seat.faction, code), headline="Oath sent to the liege's orders thread."
        )

    @fealty.command(
        name="revoke", description="Revoke your fealty (only once the liege's Hero fell)"
    )
    @app_commands.describe(as_faction=FACTION_HELP)
    async def revoke(self, interaction: discord.Interaction, as_faction: str | None = None) -> None:
        seat = await seat_for_command(interaction, as_faction)
        await seat.give(RevokeFealty(seat.faction))

    @app_commands.command(name="diplomacy", description="The alliances, fealty and proposals")
    @app_commands.describe(as_faction=FACTION_HELP)
    @app_commands.guild_only()
    async def diplomacy(
        self, interaction: discord.Interaction, as_faction: str | None = None
    ) -> None:
        seat = await seat_for_command(interaction, as_faction)
        umpire = seat.campaign.info.umpire_user_id == interaction.user.id
        viewer = None if umpire and as_faction is None else seat.faction
        await answer(interaction, pacts_listing(seat.state, seat.ruleset, viewer))


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog and the proposals' buttons."""
    await add_play_cog(bot, PactsCog, {"pact": on_pact_button})
