"""``/negotiate``: a private thread with a neighbouring faction (R-PBP-NEG-01, R-PBP-NEG-02).

The thread holds both factions' players and the umpire (a faction nobody holds is the
umpire's). There is one thread per pair: asking again reuses it (and adds anyone missing).
Factions that are not neighbours are refused, with the factions that are: the rules judge
(:func:`caedes_bot.rules.diplomacy.why_no_talks`, R-PBP-NEG-02) and
:func:`caedes_bot.ui.reasons.no_talks` words it.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._limits import require_room, shortage
from caedes_bot.cogs._play import (
    PlayCog,
    actable_factions,
    add_play_cog,
    answer,
    choices_for,
    own_choices_for,
    seat_for_command,
)
from caedes_bot.cogs._transformers import faction_choices, resolve_faction
from caedes_bot.cogs.info import FACTION_HELP
from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import OutboxKind, OutboxMessage
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.diplomacy import neighbours_of, why_no_talks
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.reasons import no_talks


def thread_key(ruleset: Ruleset, a: str, b: str) -> tuple[ChannelKey, str]:
    """The channel key and the thread name of the negotiation between ``a`` and ``b``, the
    same whoever asks: ``("talks:DAW+ORC", "talks-daw-orc")`` in turn order."""
    first, second = sorted((a, b), key=ruleset.turn_order.index)
    return ChannelKey.talks(first, second), f"talks-{first.lower()}-{second.lower()}"


class NegotiationCog(PlayCog):
    """``/negotiate``."""

    @app_commands.command(
        name="negotiate", description="Open (or find) a private thread with a neighbouring faction"
    )
    @app_commands.describe(faction="The faction to talk to", as_faction=FACTION_HELP)
    @app_commands.guild_only()
    async def negotiate(
        self, interaction: discord.Interaction, faction: str, as_faction: str | None = None
    ) -> None:
        seat = await seat_for_command(interaction, as_faction)
        seat.require_own()
        ruleset, state = seat.ruleset, seat.state
        other = resolve_faction(ruleset, faction, state.in_play, rule="R-PBP-NEG-02")
        mine = faction_name(ruleset, seat.faction)
        theirs = faction_name(ruleset, other)
        why = why_no_talks(state, ruleset, seat.faction, other)
        if why is not None:
            raise no_talks(
                ruleset, why, seat.faction, other, neighbours_of(state, ruleset, seat.faction)
            )
        key, name = thread_key(ruleset, seat.faction, other)
        guild = interaction.guild  # a new thread must fit under Discord's cap of active threads
        if (
            guild is not None
            and shortage(guild, threads=1)
            and key not in await seat.service.channels(seat.campaign_id)
        ):
            require_room(guild, threads=1, what="a negotiation thread", needs="one thread")
        players = seat.campaign.players
        umpire = seat.campaign.info.umpire_user_id
        members = [u for u in (players.get(seat.faction), players.get(other), umpire) if u]
        record, made = await seat.service.open_thread(
            seat.campaign_id, key, name, members, by=interaction.user.id
        )
        if made:
            await seat.service.queue_messages(
                seat.campaign_id,
                [
                    OutboxMessage(
                        key,
                        OutboxKind.POST,
                        {
                            "content": f"Negotiation between {mine} and {theirs}, with the umpire "
                            "reading (R-PBP-NEG-01, R-PBP-UMP-04). Only trades the bot carries "
                            "out, alliances and fealty bind anyone (R-PBP-NEG-05)."
                        },
                    )
                ],
            )
            text = f"A private thread **{name}** is being made for {mine} and {theirs}, with the umpire (R-PBP-NEG-01)."
        elif record is not None and record.discord_id is not None:
            text = f"Your thread with {theirs} is <#{record.discord_id}> (R-PBP-NEG-01)."
        else:
            text = f"Your thread with {theirs} (**{name}**) is still being made."
        await answer(interaction, text)

    @negotiate.autocomplete("faction")
    async def _neighbours(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await own_choices_for(
            interaction,
            lambda t, faction: faction_choices(
                t.ruleset, neighbours_of(t.state, t.ruleset, faction), current
            ),
        )

    @negotiate.autocomplete("as_faction")
    async def _mine(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        user = interaction.user.id
        return await choices_for(
            interaction,
            lambda t: faction_choices(
                t.ruleset, actable_factions(t.state, t.campaign, user), current
            ),
        )


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await add_play_cog(bot, NegotiationCog)
