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
from caedes_bot.gamedata.names import find
from caedes_bot.rules.diplomacy import (
    apart_pairs,
    judged_neighbours_of,
    may_join_talks,
    why_no_group_talks,
    why_no_talks,
)
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.reasons import no_group_talks, no_talks
from caedes_bot.ui.talks import opening_notice


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


def _check_talks(ruleset: Ruleset, state: GameState, faction: str, others: list[str]) -> None:
    """Refuse a thread of ``faction`` with ``others`` unless they are neighbours as last judged
    in ``state`` (R-PBP-NEG-02, R-PBP-NEG-03), and for a group every pair of them with the
    option ``multiparty_threads`` (R-PBP-NEG-01).

    Raises:
        RuleViolation: worded by :mod:`caedes_bot.ui.reasons`, naming the neighbours there are.
    """
    near = judged_neighbours_of(state, ruleset, faction)
    if len(others) == 1:
        why = why_no_talks(state, ruleset, faction, others[0])
        if why is not None:
            raise no_talks(ruleset, why, faction, others[0], near)
        return
    why = why_no_group_talks(state, ruleset, faction, others)
    if why is not None:
        apart = apart_pairs(state, ruleset, [faction, *others])
        raise no_group_talks(ruleset, why, faction, others, apart, near)


def more_choices(
    ruleset: Ruleset, state: GameState, faction: str, named: str | None, current: str
) -> list[tuple[str, str]]:
    """Choices for ``more`` as ``current`` is typed (``"ORC, Wo"``): the factions already
    listed, then each faction the rules would let join the group of ``faction``, ``named``
    and those listed (:func:`~caedes_bot.rules.diplomacy.may_join_talks`, R-PBP-NEG-01) whose
    name matches what is being typed. Names that name no faction yet are dropped from the
    value. ``[(label, value)]``, at most 25."""
    *done, typing = current.split(",")
    members = [faction]
    for text in [named or "", *done]:
        code = find(text, _faction_names(ruleset, state.in_play)).item
        if code is not None and code not in members:
            members.append(code)
    if len(members) < 2:
        return []  # the first faction comes first: groups are built on a pair
    listed = members[2:]
    out = []
    for _label, code in faction_choices(
        ruleset, may_join_talks(state, ruleset, members), typing.strip()
    ):
        group = [*listed, code]
        out.append((", ".join(ruleset.faction(c).name for c in group), ", ".join(group)))
    return out


def _faction_names(ruleset: Ruleset, codes: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    return [(c, (c, ruleset.faction(c).name, ruleset.faction(c).adjective)) for c in codes]


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

        def may_talk(now: GameState) -> None:
            """Refuses factions not judged neighbours in ``now`` (R-PBP-NEG-01..03)."""
            _check_talks(ruleset, now, seat.faction, others)

        may_talk(state)
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
        # the thread, its members and its first post in one transaction, checked again under
        # the campaign's lock (R-PBP-NEG-03)
        record, made = await seat.service.open_thread(
            seat.campaign_id,
            key,
            name,
            members,
            by=interaction.user.id,
            first_post=opening_notice(ruleset, seat.faction, others),
            check=may_talk,
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
            acting="as_faction",  # here ``faction`` is the one to talk to
        )

    @negotiate.autocomplete("more")
    async def _more(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """R-PBP-NEG-01: the factions that may still join the group, after those typed."""
        named = getattr(interaction.namespace, "faction", None)
        return await own_choices_for(
            interaction,
            lambda t, faction: more_choices(t.ruleset, t.state, faction, named, current),
            acting="as_faction",
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
