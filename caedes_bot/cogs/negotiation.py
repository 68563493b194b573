"""``/negotiate``: a private thread with a neighbouring faction, or with a group of mutual
neighbours (R-PBP-NEG-01, R-PBP-NEG-02, R-PBP-NEG-03).

The thread holds the factions' players and the umpire (a faction nobody holds is the
umpire's). There is one thread per pair or group: asking again reuses it (and adds anyone
missing). Neighbours are those judged at the last recompute (R-PBP-NEG-03). Factions that are
not neighbours are refused, with the factions that are: the rules judge
(:func:`caedes_bot.rules.diplomacy.why_no_talks`, R-PBP-NEG-02, and
:func:`~caedes_bot.rules.diplomacy.why_no_group_talks` for a group, which needs the option
``multiparty_threads``, R-PBP-NEG-01) and :mod:`caedes_bot.ui.reasons` words it. A thread
whose factions are judged apart later is locked until they neighbour again
(:mod:`caedes_bot.ui.talks`).
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
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.diplomacy import (
    apart_pairs,
    judged_neighbours_of,
    why_no_group_talks,
    why_no_talks,
)
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.reasons import no_group_talks, no_talks


def thread_key(ruleset: Ruleset, a: str, b: str, *more: str) -> tuple[ChannelKey, str]:
    """The channel key and the thread name of the negotiation between ``a`` and ``b`` (and
    ``more`` for a group), the same whoever asks: ``("talks:DAW+ORC", "talks-daw-orc")`` in
    turn order."""
    members = sorted({a, b, *more}, key=ruleset.turn_order.index)
    name = "talks-" + "-".join(m.lower() for m in members)
    return ChannelKey.talks(*members), name


def _names(text: str | None) -> list[str]:
    if not text:
        return []
    return [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]


class NegotiationCog(PlayCog):
    """``/negotiate``."""

    @app_commands.command(
        name="negotiate",
        description="Open (or find) a private thread with a neighbouring faction, or a group",
    )
    @app_commands.describe(
        faction="The faction to talk to",
        more="More factions for a group thread, separated by commas (all mutual neighbours)",
        as_faction=FACTION_HELP,
    )
    @app_commands.guild_only()
    async def negotiate(
        self,
        interaction: discord.Interaction,
        faction: str,
        more: str | None = None,
        as_faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, as_faction)
        seat.require_own()
        ruleset, state = seat.ruleset, seat.state
        other = resolve_faction(ruleset, faction, state.in_play, rule="R-PBP-NEG-02")
        extra = [
            resolve_faction(ruleset, n, state.in_play, rule="R-PBP-NEG-01") for n in _names(more)
        ]
        others = list(dict.fromkeys([other, *extra]))
        near = judged_neighbours_of(state, ruleset, seat.faction)
        if len(others) == 1:
            why = why_no_talks(state, ruleset, seat.faction, other)
            if why is not None:
                raise no_talks(ruleset, why, seat.faction, other, near)
        else:
            why = why_no_group_talks(state, ruleset, seat.faction, others)
            if why is not None:
                apart = apart_pairs(state, ruleset, [seat.faction, *others])
                raise no_group_talks(ruleset, why, seat.faction, others, apart, near)
        mine = faction_name(ruleset, seat.faction)
        theirs = ", ".join(faction_name(ruleset, o) for o in others)
        key, name = thread_key(ruleset, seat.faction, *others)
        guild = interaction.guild  # a new thread must fit under Discord's cap of active threads
        if (
            guild is not None
            and shortage(guild, threads=1)
            and key not in await seat.service.channels(seat.campaign_id)
        ):
            require_room(guild, threads=1, what="a negotiation thread", needs="one thread")
        players = seat.campaign.players
        umpire = seat.campaign.info.umpire_user_id
        wanted = [players.get(f) for f in (seat.faction, *others)]
        members = list(dict.fromkeys(u for u in (*wanted, umpire) if u))
        intro = (
            f"Negotiation between {mine} and {theirs}, with the umpire "
            "reading (R-PBP-NEG-01, R-PBP-UMP-04). Only trades the bot carries "
            "out, alliances and fealty bind anyone (R-PBP-NEG-05)."
        )
        # the thread, its members and its first post in one transaction
        record, made = await seat.service.open_thread(
            seat.campaign_id, key, name, members, by=interaction.user.id, first_post=intro
        )
        if made:
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
                t.ruleset, judged_neighbours_of(t.state, t.ruleset, faction), current
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
