"""Step 8, Muster: ``/muster`` and the turn panel's "Muster…" selects (R-MUSTER-01..08, R-RACE-*).

Only units bought this turn are offered, and for each only the provinces that can take it now
(:func:`caedes_bot.rules.muster.legal_muster_provinces`). Whatever is left when the step ends is
placed by the bot, or lost if nowhere can take it (R-MUSTER-01, R-PBP-DEAD-03).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._play import (
    PlayCog,
    Seat,
    answer,
    effect_text,
    seat_for_command,
    seat_for_faction,
    table_for_autocomplete,
    turn_expect,
)
from caedes_bot.cogs._transformers import (
    kind_to_muster,
    muster_kind_choices,
    muster_province_choices,
    resolve_kind,
    resolve_province,
)
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.muster import MusterUnits
from caedes_bot.rules.state import Step
from caedes_bot.ui import views
from caedes_bot.ui.text import choices


def kind_menu(seat: Seat) -> list[views.JSON]:
    """The first select of "Muster…": the units waiting."""
    options = [
        views.option(label, value)
        for label, value in muster_kind_choices(seat.state, seat.ruleset, seat.faction, "")
    ]
    cid = views.custom_id(seat.campaign_id, ["mu", seat.faction, seat.state.round], "kind")
    return views.layout([views.select(cid, options, placeholder="Unit to muster…")])


def province_menu(seat: Seat, kind_id: str) -> tuple[str, list[views.JSON]]:
    """The second select: where one unit of ``kind_id`` may go."""
    found = muster_province_choices(seat.state, seat.ruleset, seat.faction, kind_id, "")
    cid = views.custom_id(seat.campaign_id, ["mp", seat.faction, seat.state.round, kind_id], "to")
    rows = views.layout(
        [
            views.select(
                cid,
                [views.option(label, value) for label, value in found],
                placeholder="Muster in…",
            )
        ]
    )
    name = seat.ruleset.kind(kind_id).display_name
    if not found:
        return (
            f"No province can take a {name} now; it will be lost at the end of step 8 (R-MUSTER-01).",
            rows,
        )
    return f"Where should one {name} be mustered?", rows


async def open_muster(seat: Seat) -> None:
    """Answer a click on "Muster…" with the private select of the units waiting."""
    seat.require_own()
    seat.check(turn_expect(seat.faction, seat.state.round, Step.MUSTER))
    rows = kind_menu(seat)
    text = "Which unit? (R-MUSTER-01)" if rows else "Nothing bought this turn is waiting."
    await answer(seat.interaction, text, rows)


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
    kind_id = ref.parts[3]
    result = await seat.submit(MusterUnits(faction, ((kind_id, ref.values[0]),)), expect=expect)
    rows = kind_menu(seat)
    more = "\n\nMuster more?" if rows else ""
    await answer(interaction, effect_text(seat, result) + more, rows, update=True)


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
        place = resolve_province(
            seat.ruleset,
            province,
            rule="R-MUSTER-01",
            at_sea=("R-MUSTER-07", "units are mustered in provinces, never on water"),
        )
        result = await seat.submit(MusterUnits(seat.faction, ((kind.id, place),)))
        await answer(interaction, effect_text(seat, result))

    @muster.autocomplete("unit")
    async def _units(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await table_for_autocomplete(interaction)
        if table is None or table.faction is None:
            return []
        return choices(muster_kind_choices(table.state, table.ruleset, table.faction, current))

    @muster.autocomplete("province")
    async def _provinces(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await table_for_autocomplete(interaction)
        if table is None or table.faction is None:
            return []
        unit = getattr(interaction.namespace, "unit", None)
        kind_id = None
        if isinstance(unit, str) and unit:
            try:
                kind_id = resolve_kind(table.ruleset, unit).id
            except RuleViolation:
                kind_id = None
        return choices(
            muster_province_choices(table.state, table.ruleset, table.faction, kind_id, current)
        )


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog and the "Muster…" selects."""
    from caedes_bot.app import CaedesBot

    if not isinstance(bot, CaedesBot):
        raise TypeError("the muster cog needs a CaedesBot")
    await bot.add_cog(MusterCog(bot))
    views.register(bot, "mu", on_muster_component)
    views.register(bot, "mp", on_muster_component)
