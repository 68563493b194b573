"""Step 6 at sea: ``/sail``, ``/embark`` and ``/disembark`` (R-MOVE-13..18).

Ships and the units they carry are named one by one, by number (``#12``) or by the words of
their label (``Ship #12 on Pearl Sea``); several units are separated by commas. While typing,
each option offers only what is legal now: ships that can still sail and the water they can
reach (attacks marked), units that can board and the ships with room for them, units aboard
and the provinces they can land in (amphibious assaults marked). The rules check everything
again (:mod:`caedes_bot.rules.ships`, :mod:`caedes_bot.rules.cargo`).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._play import PlayCog, Table, add_play_cog, own_choices_for, seat_for_command
from caedes_bot.cogs._transformers import Choice, resolve_own_unit, resolve_province
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.cogs.move import TERRAINS
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.gamedata.names import contains
from caedes_bot.rules import cargo, ships
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.state import GameState
from caedes_bot.service import Expect
from caedes_bot.ui.describe import space_name, unit_label
from caedes_bot.ui.fleet import ship_label

_ID = re.compile(r"#?\d{1,9}")
_MAX = 25


def _unit_ids(
    state: GameState, ruleset: Ruleset, faction: str, text: str, rule: str = "R-MOVE-15"
) -> tuple[int, ...]:
    """The unit ids ``text`` names: numbers (``"#3, #4"`` or ``"3 4"``) or, between commas, the
    words of one of the faction's units each (as ``/disband`` reads them). ``rule`` is the
    command's rule, cited by a refusal (R-MOVE-18 for ``/sail``, R-MOVE-15 for boarding).

    Raises:
        RuleViolation: more units than a command takes; see also
            :func:`~caedes_bot.cogs._transformers.resolve_own_unit`.
    """
    out: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        tokens = part.replace("#", " #").split()
        if tokens and all(_ID.fullmatch(t) for t in tokens):
            out += [int(t.lstrip("#")) for t in tokens]
        else:
            out.append(resolve_own_unit(state, ruleset, faction, part, rule))
        if len(out) > _MAX:
            raise RuleViolation(
                f"A command names at most {_MAX} units.",
                rule=rule,
                allowed="fewer units, like #3, #4",
            )
    return tuple(out)


def _first_id(state: GameState, table: Table, faction: str, text: str | None) -> int | None:
    if not text:
        return None
    try:
        ids = _unit_ids(state, table.ruleset, faction, text)
    except RuleViolation:
        return None
    return ids[0] if ids else None


def _typed(interaction: discord.Interaction, name: str) -> str | None:
    value = getattr(interaction.namespace, name, None)
    return value if isinstance(value, str) and value else None


def _via(text: str | None) -> tuple[str, ...]:
    return tuple(p.strip() for p in (text or "").split(",") if p.strip())


class ShipsCog(PlayCog):
    """``/sail``, ``/embark``, ``/disembark``."""

    @app_commands.command(name="sail", description="Sail a ship in step 6 (2 spaces a turn)")
    @app_commands.describe(
        ship="The ship, like #12 (the list offers those that can sail)",
        to="A sea zone or navigable river edge; one holding another faction's ships is an attack",
        via="Water to pass through on the way, in order, separated by commas (optional)",
        faction=FACTION_HELP,
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def sail(
        self,
        interaction: discord.Interaction,
        ship: str,
        to: str,
        via: str | None = None,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        ids = _unit_ids(seat.state, seat.ruleset, seat.faction, ship, "R-MOVE-18")
        order = ships.SailShips(seat.faction, ids, to.strip(), _via(via))
        await seat.give(order, expect=Expect.turn_of(seat.state, via="command"))

    @sail.autocomplete("ship")
    async def _ships(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        def make(table: Table, faction: str) -> list[Choice]:
            st, rs = table.state, table.ruleset
            out = []
            for unit in st.peek_units_of(faction):
                if ships.sail_destinations(st, rs, unit):
                    label = ship_label(st, rs, unit)
                    if contains(current, label):
                        out.append((label, f"#{unit.id}"))
            return out[:_MAX]

        return await own_choices_for(interaction, make)

    @sail.autocomplete("to")
    async def _waters(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = _typed(interaction, "ship")

        def make(table: Table, faction: str) -> list[Choice]:
            uid = _first_id(table.state, table, faction, typed)
            unit = table.state.units.get(str(uid)) if uid is not None else None
            if unit is None or unit.owner != faction:
                return []
            out = []
            for dest, plan in ships.sail_destinations(table.state, table.ruleset, unit).items():
                label = space_name(table.ruleset, dest) + (" - attack" if plan.attack else "")
                if contains(current, label, dest):
                    out.append((label, dest))
            return out[:_MAX]

        return await own_choices_for(interaction, make)

    @app_commands.command(name="embark", description="Put land units aboard a ship in step 6")
    @app_commands.describe(
        units="The units, like #3, #4 (a ship takes one cavalry or two infantry)",
        ship="The ship on the water next to their province",
        faction=FACTION_HELP,
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def embark(
        self,
        interaction: discord.Interaction,
        units: str,
        ship: str,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        ids = _unit_ids(seat.state, seat.ruleset, seat.faction, units)
        ship_ids = _unit_ids(seat.state, seat.ruleset, seat.faction, ship)
        if len(ship_ids) != 1:
            raise RuleViolation(
                "Name one ship to board.", rule="R-MOVE-15", allowed="one ship, like #12"
            )
        order = cargo.Embark(seat.faction, ids, ship_ids[0])
        await seat.give(order, expect=Expect.turn_of(seat.state, via="command"))

    @embark.autocomplete("units")
    async def _boarders(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        def make(table: Table, faction: str) -> list[Choice]:
            st, rs = table.state, table.ruleset
            out = []
            for unit in st.peek_units_of(faction):
                if cargo.ships_to_board(st, rs, unit):
                    label = unit_label(rs, unit.id, unit.kind, unit.location)
                    if contains(current, label):
                        out.append((label, f"#{unit.id}"))
            return out[:_MAX]

        return await own_choices_for(interaction, make)

    @embark.autocomplete("ship")
    async def _rides(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = _typed(interaction, "units")

        def make(table: Table, faction: str) -> list[Choice]:
            st, rs = table.state, table.ruleset
            try:
                ids = _unit_ids(st, rs, faction, typed or "")
            except RuleViolation:
                return []
            units = [st.units[str(i)] for i in ids if str(i) in st.units]
            if not units or any(u.owner != faction for u in units):
                return []
            out = []
            for ship in cargo.ships_for_all(st, rs, units):
                label = ship_label(st, rs, ship)
                if contains(current, label):
                    out.append((label, f"#{ship.id}"))
            return out[:_MAX]

        return await own_choices_for(interaction, make)

    @app_commands.command(name="disembark", description="Land units from their ship in step 6")
    @app_commands.describe(
        units="The units aboard, like #3, #4",
        to="The province they land in; one held by another faction is an amphibious assault",
        terrain="In a province of several terrains, the one they use there (R-MOVE-03)",
        faction=FACTION_HELP,
    )
    @app_commands.choices(terrain=TERRAINS)
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def disembark(
        self,
        interaction: discord.Interaction,
        units: str,
        to: str,
        terrain: str | None = None,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        ids = _unit_ids(seat.state, seat.ruleset, seat.faction, units)
        destination = resolve_province(
            seat.ruleset, to, rule="R-MOVE-15", at_sea=("R-MOVE-15", "units land in a province")
        )
        order = cargo.Disembark(seat.faction, ids, destination, terrain)
        await seat.give(order, expect=Expect.turn_of(seat.state, via="command"))

    @disembark.autocomplete("units")
    async def _aboard(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        def make(table: Table, faction: str) -> list[Choice]:
            st, rs = table.state, table.ruleset
            out = []
            for unit in st.peek_units_of(faction):
                if cargo.landing_places(st, rs, unit):
                    label = unit_label(rs, unit.id, unit.kind, unit.location) + " (aboard)"
                    if contains(current, label):
                        out.append((label, f"#{unit.id}"))
            return out[:_MAX]

        return await own_choices_for(interaction, make)

    @disembark.autocomplete("to")
    async def _shores(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = _typed(interaction, "units")

        def make(table: Table, faction: str) -> list[Choice]:
            st, rs = table.state, table.ruleset
            uid = _first_id(st, table, faction, typed)
            unit = st.units.get(str(uid)) if uid is not None else None
            if unit is None or unit.owner != faction:
                return []
            out = []
            for province, attack in cargo.landing_places(st, rs, unit).items():
                label = space_name(rs, province) + (" - amphibious assault" if attack else "")
                if contains(current, label, province):
                    out.append((label, province))
            return out[:_MAX]

        return await own_choices_for(interaction, make)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await add_play_cog(bot, ShipsCog)
