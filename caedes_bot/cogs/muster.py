"""Step 8, Muster: ``/muster`` and the turn panel's "Muster…" selects (R-MUSTER-01..08, R-RACE-*).

Only units bought this turn are offered, and for each only the provinces that can take it now
(:func:`caedes_bot.rules.muster.legal_muster_provinces`). Whatever is left when the step ends is
placed by the bot, or lost if nowhere can take it (R-MUSTER-01, R-PBP-DEAD-03).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._kind_names import find_kind, kind_to_muster, muster_kind_choices
from caedes_bot.cogs._place_names import muster_province_choices, resolve_province
from caedes_bot.cogs._play import (
    PlayCog,
    Seat,
    Table,
    add_play_cog,
    answer,
    asking,
    own_choices_for,
    seat_for_command,
    seat_for_faction,
    turn_expect,
)
from caedes_bot.cogs._transformers import Choice
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.gamedata.model import BaseType
from caedes_bot.rules.muster import MusterUnits
from caedes_bot.rules.ships import resolve_water
from caedes_bot.rules.state import Step
from caedes_bot.ui import views

#: What a sea zone named as a ``/muster`` province is told (R-MUSTER-07).
AT_SEA = ("R-MUSTER-07", "units are mustered in provinces, never on water")


def kind_menu(seat: Seat) -> list[views.JSON]:
    """The first select of "Muster…": the units waiting."""
    found = muster_kind_choices(seat.state, seat.ruleset, seat.faction, "")
    cid = views.custom_id(seat.campaign_id, ["mu", seat.faction, seat.state.round], "kind")
    return views.select_rows(cid, views.options(found), placeholder="Unit to muster…")


#: "Muster…" opened: which unit?
muster_menu = asking(kind_menu, "Which unit? (R-MUSTER-01)", "Nothing bought this turn is waiting.")
#: After a muster from the menu: the units still waiting, if any.
more_musters = asking(kind_menu, "Muster more?", "")


def province_menu(seat: Seat, kind_id: str) -> tuple[str, list[views.JSON]]:
    """The second select: where one unit of ``kind_id`` may go."""
    found = muster_province_choices(seat.state, seat.ruleset, seat.faction, kind_id, "")
    cid = views.custom_id(seat.campaign_id, ["mp", seat.faction, seat.state.round, kind_id], "to")
    rows = views.select_rows(cid, views.options(found), placeholder="Muster in…")
    name = seat.ruleset.kind(kind_id).display_name
    if not found:
        return (
            f"No province can take a {name} now; it will be lost at the end of step 8 (R-MUSTER-01).",
            rows,
        )
    return f"Where should one {name} be mustered?", rows


async def on_muster_component(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """A unit chosen (ask where), or a province chosen (muster one there)."""
    faction, round_no = ref.parts[1], int(ref.parts[2])
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    expect = turn_expect(faction, round_no, Step.MUSTER)
    seat.check(expect)
    if ref.kind == "mu":
        seat.require_own()
        text, rows = province_menu(seat, ref.values[0])
        await answer(interaction, text, rows, update=True)
        return
    order = MusterUnits(faction, ((ref.parts[3], ref.values[0]),))
    await seat.give(order, expect=expect, then=more_musters, update=True)


class MusterCog(PlayCog):
    """``/muster``."""

    @app_commands.command(name="muster", description="Place a unit bought this turn, in step 8")
    @app_commands.describe(
        unit="A unit you bought this turn",
        province="Where to place it",
        faction=FACTION_HELP,
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def muster(
        self,
        interaction: discord.Interaction,
        unit: str,
        province: str,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        kind = kind_to_muster(seat.state, seat.ruleset, seat.faction, unit)
        if kind.base_type is BaseType.SHIP:  # R-ATTR-WATER-03: ships go on the water
            place = resolve_water(seat.ruleset, province)
        else:
            place = resolve_province(seat.ruleset, province, rule="R-MUSTER-01", at_sea=AT_SEA)
        await seat.give(MusterUnits(seat.faction, ((kind.id, place),)))

    @muster.autocomplete("unit")
    async def _units(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await own_choices_for(
            interaction,
            lambda t, faction: muster_kind_choices(t.state, t.ruleset, faction, current),
        )

    @muster.autocomplete("province")
    async def _provinces(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        unit = getattr(interaction.namespace, "unit", None)

        def make(table: Table, faction: str) -> list[Choice]:
            kind = find_kind(table.ruleset, unit) if isinstance(unit, str) else None
            kind_id = kind.id if kind is not None else None
            return muster_province_choices(table.state, table.ruleset, faction, kind_id, current)

        return await own_choices_for(interaction, make)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog and the "Muster…" selects."""
    await add_play_cog(bot, MusterCog, {"mu": on_muster_component, "mp": on_muster_component})
