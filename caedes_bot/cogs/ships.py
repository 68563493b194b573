"""Step 6 at sea: ``/sail``, ``/embark`` and ``/disembark`` (R-MOVE-13..18).

Ships and the units they carry are named one by one, by number (``#12``) or by the words of
their label (``Ship #12 on Pearl Sea``); several units are separated by commas. While typing,
each option offers only what is legal now: ships that can still sail and the water they can
reach (attacks marked), units that can board and the ships with room for them, units aboard
and the provinces they can land in (amphibious assaults marked). The rules check everything
again (:mod:`caedes_bot.rules.ships`, :mod:`caedes_bot.rules.cargo`).

The turn panel's **Ships…** button (step 6) opens the same orders privately: a select of the
faction's ships that can do something, then, for the ship chosen, **Sail to…**, **Take aboard…**
and **Land the cargo at…** selects. A sail destination may be a river edge, whose id does not
fit a select value's grammar, so the sail select sends the destination's place in the list
the rules give (:func:`~caedes_bot.rules.ships.sail_destinations`, in id order), and its
custom id carries a digest of that list: a click after the list changed (the ship sailed, a
restart with a changed board) is refused and the menu is drawn again, never read against
another list (decision 0016). Everything the controls need is in their custom ids, so they
work after a restart like the others.
"""

from __future__ import annotations

import re
import zlib

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._place_names import resolve_province
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
from caedes_bot.cogs._unit_names import resolve_own_unit
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.cogs.move import TERRAINS
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.gamedata.names import contains
from caedes_bot.rules import cargo, ships
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.state import GameState, Step, Unit
from caedes_bot.service import Expect, StaleOrder
from caedes_bot.ui import views
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
            :func:`~caedes_bot.cogs._unit_names.resolve_own_unit`.
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


# --------------------------------------------------------------------------- the Ships… menu


def _digest(destinations: list[str]) -> int:
    """A short number that changes when the list of sail destinations changes."""
    return zlib.crc32("|".join(destinations).encode()) % 1_000_000_000


def _boarders(state: GameState, ruleset: Ruleset, ship: Unit) -> list[Unit]:
    """The faction's units that may go aboard ``ship`` now (R-MOVE-14, R-MOVE-15)."""
    return [
        u
        for u in state.peek_units_of(ship.owner)
        if any(s.id == ship.id for s in cargo.ships_to_board(state, ruleset, u))
    ]


def _landings(state: GameState, ruleset: Ruleset, ship: Unit) -> dict[str, bool]:
    """Where every unit aboard ``ship`` may land together now, each ``True`` for an amphibious
    assault (R-MOVE-15..17)."""
    found: dict[str, bool] | None = None
    for unit in ships.cargo_of(state, ship.id):
        here = cargo.landing_places(state, ruleset, unit)
        found = here if found is None else {p: a for p, a in found.items() if p in here}
    return found or {}


def _busy(state: GameState, ruleset: Ruleset, ship: Unit) -> bool:
    return bool(
        ships.sail_destinations(state, ruleset, ship)
        or _boarders(state, ruleset, ship)
        or _landings(state, ruleset, ship)
    )


def ship_rows(seat: Seat) -> list[views.JSON]:
    """The first select of "Ships…": the faction's ships that can sail, take units aboard or
    land their cargo now."""
    st, rs = seat.state, seat.ruleset
    found = [
        (ship_label(st, rs, u), str(u.id))
        for u in st.peek_units_of(seat.faction)
        if ships.is_ship(rs, u) and _busy(st, rs, u)
    ][:_MAX]
    cid = views.custom_id(seat.campaign_id, ["sh", seat.faction, st.round], "ship")
    return views.select_rows(cid, views.options(found), placeholder="Which ship…")


#: "Ships…" opened: which ship?
ships_menu = asking(
    ship_rows,
    "Which ship? (R-MOVE-18, R-MOVE-15)",
    "None of your ships can sail, take units aboard or land them now.",
)


def ship_menu(seat: Seat, ship: Unit) -> tuple[str, list[views.JSON]]:
    """The second step of "Ships…": where ``ship`` may sail (R-MOVE-18), who may go aboard
    (R-MOVE-14, R-MOVE-15) and where its cargo may land (R-MOVE-15..17)."""
    st, rs = seat.state, seat.ruleset
    destinations = list(ships.sail_destinations(st, rs, ship).items())
    obj = ["sv", seat.faction, st.round, ship.id, _digest([d for d, _ in destinations])]
    items: list[views.JSON] = []
    if destinations:
        options = [
            views.option(space_name(rs, d) + (" - attack" if plan.attack else ""), str(n))
            for n, (d, plan) in enumerate(destinations)
        ][:_MAX]
        items.append(
            views.select(
                views.custom_id(seat.campaign_id, obj, "sail"), options, placeholder="Sail to…"
            )
        )
    boarders = _boarders(st, rs, ship)[:_MAX]
    if boarders:
        options = [
            views.option(unit_label(rs, u.id, u.kind, u.location), str(u.id)) for u in boarders
        ]
        items.append(
            views.select(
                views.custom_id(seat.campaign_id, obj, "board"),
                options,
                placeholder="Take aboard…",
                min_values=1,
                max_values=len(options),
            )
        )
    landings = _landings(st, rs, ship)
    if landings:
        options = [
            views.option(space_name(rs, p) + (" - amphibious assault" if a else ""), p)
            for p, a in landings.items()
        ][:_MAX]
        items.append(
            views.select(
                views.custom_id(seat.campaign_id, obj, "land"),
                options,
                placeholder="Land the cargo at…",
            )
        )
    text = ship_label(st, rs, ship) + "."
    if not items:
        text += " It can do nothing more this turn."
    return text, views.layout(items)


def _ship_of(seat: Seat, ship_id: int) -> Unit:
    ship = seat.state.units.get(str(ship_id))
    if ship is None or ship.owner != seat.faction or not ships.is_ship(seat.ruleset, ship):
        raise StaleOrder(
            "That ship is no longer yours on the board; nothing was done.",
            rule="R-MOVE-18",
            allowed="open Ships… on the turn panel again",
        )
    return ship


async def on_ship_component(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """A ship chosen in "Ships…" (``sh``): its orders; or one of them (``sv``): sail, take
    aboard, land (R-MOVE-14..18)."""
    faction, round_no = ref.parts[1], ref.parts[2]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    seat.require_own()
    expect = turn_expect(faction, round_no, Step.MOVE)
    seat.check(expect)
    if ref.kind == "sh":
        text, rows = ship_menu(seat, _ship_of(seat, int(ref.values[0])))
        await answer(interaction, text, rows, update=True)
        return
    ship = _ship_of(seat, int(ref.parts[3]))

    def again(new: Seat) -> tuple[str, list[views.JSON]]:
        return (
            ship_menu(new, new.state.unit(ship.id))
            if str(ship.id) in new.state.units
            else (
                "",
                [],
            )
        )

    if ref.action == "sail":
        destinations = list(ships.sail_destinations(seat.state, seat.ruleset, ship))
        index = int(ref.values[0])
        if _digest(destinations) != int(ref.parts[4]) or index >= len(destinations):
            text, rows = ship_menu(seat, ship)
            await answer(
                interaction,
                "Where the ship can sail has changed since this menu was drawn; nothing was "
                f"done. Choose again (R-MOVE-18).\n\n{text}",
                rows,
                update=True,
            )
            return
        order: ships.SailShips | cargo.Embark | cargo.Disembark = ships.SailShips(
            faction, (ship.id,), destinations[index]
        )
    elif ref.action == "board":
        order = cargo.Embark(faction, tuple(int(v) for v in ref.values), ship.id)
    else:
        aboard = tuple(u.id for u in ships.cargo_of(seat.state, ship.id))
        order = cargo.Disembark(faction, aboard, ref.values[0])
    await seat.give(order, expect=expect, then=again, update=True)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the commands and the controls of the "Ships…" menu."""
    await add_play_cog(bot, ShipsCog, {"sh": on_ship_component, "sv": on_ship_component})
