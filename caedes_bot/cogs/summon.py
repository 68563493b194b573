"""Summons: ``/summon`` and the controls of a summons offer on the battle message
(R-MAGIC-SUMM-01..04, R-RACE-SUM-01, R-COMM-11).

``/summon unit count province`` summons at once in the faction's own turn, at any step, where
one of its Summoners stands on land. In another faction's turn a faction summons only when a
round of a battle begins where its Summoner fights: the bot asks it then (a ``summons``
decision), and ``/summon`` or the battle message's controls answer it ("Summon…", "No summons
this round", "No summons this battle").
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._checks import service_of
from caedes_bot.cogs._kind_names import resolve_kind_in
from caedes_bot.cogs._place_names import province_choices, resolve_province
from caedes_bot.cogs._play import (
    PlayCog,
    Seat,
    Table,
    add_play_cog,
    own_choices_for,
    ruleset_of,
    seat_for_command,
    seat_for_faction,
)
from caedes_bot.cogs._transformers import Choice
from caedes_bot.cogs.attack import news_of
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.gamedata.model import Ruleset, UnitKind
from caedes_bot.gamedata.names import contains
from caedes_bot.rules import summons
from caedes_bot.rules.combat.summon_answer import AnswerSummons
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import DecisionKind, GameState, PendingDecision, SummonsDetail
from caedes_bot.service import Expect
from caedes_bot.ui import views
from caedes_bot.ui.describe import kind_counts, kind_stats
from caedes_bot.ui.summoning import needs_text

#: At most this many units in one ``/summon``.
MAX_COUNT = 20


def open_offer(state: GameState, faction: str) -> PendingDecision | None:
    """The ``summons`` decision ``faction`` owes now, if any (R-MAGIC-SUMM-01)."""
    return next(
        (d for d in state.pending if d.kind is DecisionKind.SUMMONS and d.faction == faction),
        None,
    )


def summon_kind_choices(
    state: GameState, ruleset: Ruleset, faction: str, current: str
) -> list[Choice]:
    """The faction's Summoned units with their price now and where they can go:
    ``"Fire Elemental - 3 RP - A5 D3 M1 - needs a Summoner: Elderglade has one"``."""
    out: list[Choice] = []
    for kind in summons.summoned_kinds(ruleset, faction):
        if not contains(current, kind.display_name, kind.id):
            continue
        price = summons.summon_prices(state, faction, kind, 1)[0][0]
        need = needs_text(state, ruleset, faction, kind)
        label = f"{kind.display_name} - {price} RP - {kind_stats(kind)}"
        out.append((label + (f" - {need}" if need else ""), kind.id))
    return out


def _kind(seat: Seat, text: str) -> UnitKind:
    own = summons.summoned_kinds(seat.ruleset, seat.faction)
    pools = [
        own,
        list(seat.ruleset.order_of_battle(seat.faction)),
        list(seat.ruleset.units.values()),
    ]
    return resolve_kind_in(seat.ruleset, text, pools, rule="R-RACE-SUM-01")


def summon_order(seat: Seat, kind: UnitKind, count: int, province: str | None) -> Order:
    """The order a summons of ``count`` × ``kind`` is (:func:`summons_order_for`)."""
    return summons_order_for(seat.state, seat.faction, kind, count, province)


def summons_order_for(
    state: GameState, faction: str, kind: UnitKind, count: int, province: str | None
) -> Order:
    """The order a summons of ``count`` × ``kind`` by ``faction`` is: the answer to the open
    offer of a battle round if the faction owes one and ``province`` is that battle's (or not
    given), else a summons in its own turn into ``province`` (R-MAGIC-SUMM-01). A province
    other than the battle's is never taken for it: the rules then judge a summons there."""
    offer = open_offer(state, faction)
    detail = offer.detail if offer is not None else None
    if offer is not None and isinstance(detail, SummonsDetail) and province in (None, detail.space):
        return AnswerSummons(faction, offer.id, ((kind.id, count),))
    return summons.SummonUnits(faction, kind.id, count, province)


async def summon(seat: Seat, kind: UnitKind, count: int, province: str | None) -> None:
    """Give the summons and answer privately with its effect."""
    order = summon_order(seat, kind, count, province)
    expect = None
    if isinstance(order, AnswerSummons):
        expect = Expect(decision_id=order.decision_id, via="command", rule="R-MAGIC-SUMM-01")
    await seat.give(order, expect=expect, news=news_of(seat.ruleset))


async def on_summons_control(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """A click on a summons offer: units chosen, no summons this round, or this battle."""
    decision_id = int(ref.parts[1])
    ruleset = ruleset_of(interaction)
    state = await service_of(interaction).get_state(ref.campaign_id)
    expect = Expect(
        decision_id=decision_id,
        via="choice" if ref.action == "pick" else "button",
        rule="R-MAGIC-SUMM-01",
    )
    expect.check(state, ruleset)
    decision = next(d for d in state.pending if d.id == decision_id)
    seat = await seat_for_faction(interaction, ref.campaign_id, decision.faction)
    seat.require_own()
    if ref.action == "pick":
        picks = tuple((kind_id, 1) for kind_id in ref.values)
        order = AnswerSummons(decision.faction, decision_id, picks)
        head = f"Summoned: {kind_counts(ruleset, list(ref.values))} (R-MAGIC-SUMM-01)."
    else:
        whole = ref.action == "never"
        order = AnswerSummons(decision.faction, decision_id, (), whole_battle=whole)
        head = "No summons this battle." if whole else "No summons this round."
    await seat.give(order, expect=expect, headline=head, news=news_of(ruleset))


class SummonCog(PlayCog):
    """``/summon``."""

    @app_commands.command(
        name="summon",
        description="Summon units where your Summoner stands: any step of your turn, or when asked in a battle",
    )
    @app_commands.describe(
        unit="A Summoned unit of your order of battle",
        count="How many to summon",
        province="Where your Summoner stands (needed only if you have Summoners in several places)",
        faction=FACTION_HELP,
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def summon(
        self,
        interaction: discord.Interaction,
        unit: str,
        count: app_commands.Range[int, 1, MAX_COUNT] = 1,
        province: str | None = None,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        kind = _kind(seat, unit)
        place = (
            resolve_province(seat.ruleset, province, rule="R-MAGIC-SUMM-01") if province else None
        )
        await summon(seat, kind, count, place)

    @summon.autocomplete("unit")
    async def _units(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await own_choices_for(
            interaction,
            lambda t, faction: summon_kind_choices(t.state, t.ruleset, faction, current),
        )

    @summon.autocomplete("province")
    async def _places(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        def make(table: Table, faction: str) -> list[Choice]:
            places = summons.summon_places(table.state, table.ruleset, faction)
            return province_choices(table.state, table.ruleset, faction, current, places)

        return await own_choices_for(interaction, make)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog and the summons offer's controls."""
    await add_play_cog(bot, SummonCog, {"sum": on_summons_control})
