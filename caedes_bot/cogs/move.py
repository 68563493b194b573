"""Step 6, Move: ``/move``, ``/fly``, ``/teleport``, ``/divine``, ``/undo`` and the turn panel's
"Move…" selects (R-MOVE-01..12, R-ATTR-FLY-01, R-ATTR-AMPH-01, R-MAGIC-TELE-01, R-MAGIC-DIV-01).

Units are chosen by kind and count, or by number (``#4``, as other commands name units), from
one province; the rules find each unit's route to the destination
(:mod:`caedes_bot.rules.movement`). ``/move units from to`` offers, while typing, only stacks
(or, once ``#`` is typed, units) that can still move, only provinces holding them, and only
destinations all the
chosen units can reach, each with its cost and whether it starts a battle; ``via`` names
spaces the route must pass through (a sea zone asks for an Amphibian crossing). "Move…" on the
turn panel does the same with three selects: the stack, how many, and where. ``/fly`` is the
same for a flying move; ``/undo`` takes back the last order while nothing has rolled since.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._place_names import (
    find_province,
    province_choices,
    resolve_province,
    resolve_space,
)
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
from caedes_bot.cogs._routes import (
    acting_unit_choices,
    companion_choices,
    parse_via,
    route_choices,
    via_choices,
)
from caedes_bot.cogs._transformers import Choice
from caedes_bot.cogs._unit_names import (
    UnitRequest,
    destination_choices,
    movable_stacks,
    origin_choices,
    parse_units,
    pick_units,
    resolve_own_unit,
    stack_label,
    unit_choices,
)
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.gamedata.model import Attribute, Commodity, Ruleset, Terrain
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.movement import Divine, FlyUnits, MoveUnits, Teleport
from caedes_bot.rules.movement.amphibian import sea_attacks
from caedes_bot.rules.movement.blitz import BlitzOn, BlitzStop, blitz_destinations, pending_blitz
from caedes_bot.rules.state import BlitzDetail, GameState, Step
from caedes_bot.rules.undo import UndoLastOrder
from caedes_bot.ui import views


def _namespace(interaction: discord.Interaction, name: str) -> str | None:
    value = getattr(interaction.namespace, name, None)
    return value if isinstance(value, str) and value else None


def _origin_of(interaction: discord.Interaction) -> str | None:
    """The ``from`` province typed so far, or the one a units value names (``…@province``)."""
    origin = _namespace(interaction, "from")
    if origin:
        return origin
    units = _namespace(interaction, "units")
    if units and "@" in units:
        return units.rsplit("@", 1)[1]
    return None


def _province_or_none(ruleset: Ruleset, text: str | None) -> str | None:
    """The province ``text`` names, or ``None`` (an autocomplete only offers; it never refuses)."""
    return find_province(ruleset, text) if text else None


# --------------------------------------------------------------------------- the menu


def stack_menu(seat: Seat) -> list[views.JSON]:
    """The first select of "Move…": every stack that can still move."""
    stacks = movable_stacks(seat.state, seat.ruleset, seat.faction)
    found = [(stack_label(seat.ruleset, s), f"{s.province}|{s.kind}") for s in stacks]
    cid = views.custom_id(seat.campaign_id, ["move", seat.faction, seat.state.round], "stack")
    return views.select_rows(cid, views.options(found), placeholder="Units to move…")


#: "Move…" opened: which units?
move_menu = asking(stack_menu, "Which units? (R-MOVE-01)", "None of your units can move now.")
#: After a move from the menu: the stacks again, if any can still move.
more_moves = asking(stack_menu, "Move more?", "")


def where_menu(
    seat: Seat, province: str, kind: str, count: int, available: int
) -> tuple[str, list[views.JSON]]:
    """The second step of "Move…": how many (if several) and where to."""
    obj = ["mv", seat.faction, seat.state.round, province, kind, count]
    ids = pick_units(seat.state, seat.ruleset, seat.faction, province, [UnitRequest(kind, count)])
    destinations = destination_choices(seat.state, seat.ruleset, seat.faction, ids, "")
    items = []
    if available > 1:
        counts = [
            views.option(f"{n} of {available}", str(n), default=n == count)
            for n in range(1, min(available, 25) + 1)
        ]
        items.append(
            views.select(
                views.custom_id(seat.campaign_id, obj, "count"), counts, placeholder="How many…"
            )
        )
    items.append(
        views.select(
            views.custom_id(seat.campaign_id, obj, "to"),
            views.options(destinations),
            placeholder="Move to…",
        )
    )
    name = seat.ruleset.kind(kind).display_name
    where = seat.ruleset.map.space_name(province)
    text = f"Moving {count} {name} from {where}."
    if not destinations:
        text += " They cannot reach anywhere together; choose fewer."
    return text, views.layout(items)


async def on_move_stack(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """A stack chosen: ask how many and where."""
    _, faction, round_no = ref.parts[:3]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    seat.require_own()
    seat.check(turn_expect(faction, round_no, Step.MOVE))
    province, kind = ref.values[0].split("|", 1)
    available = len(
        pick_units(seat.state, seat.ruleset, faction, province, [UnitRequest(kind, None)])
    )
    text, rows = where_menu(seat, province, kind, available, available)
    await answer(interaction, text, rows, update=True)


async def on_move_where(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """How many chosen (show the destinations for that many), or where: move them."""
    _, faction, round_no, province, kind, count = ref.parts[:6]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    expect = turn_expect(faction, round_no, Step.MOVE)
    seat.check(expect)
    if ref.action == "count":
        seat.require_own()
        available = len(
            pick_units(seat.state, seat.ruleset, faction, province, [UnitRequest(kind, None)])
        )
        text, rows = where_menu(seat, province, kind, int(ref.values[0]), available)
        await answer(interaction, text, rows, update=True)
        return
    destination = ref.values[0]
    ids = pick_units(
        seat.state, seat.ruleset, faction, province, [UnitRequest(kind, int(count))], destination
    )
    order = MoveUnits(faction, ids, destination)
    await seat.give(order, expect=expect, then=more_moves, update=True)


async def on_move_component(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    if ref.kind == "move":
        await on_move_stack(interaction, ref)
    else:
        await on_move_where(interaction, ref)


def blitz_order(
    seat: Seat,
    destination: str | None,
    via: tuple[str, ...] = (),
    decision_id: int | None = None,
) -> BlitzOn | BlitzStop:
    """Move the units of the pending blitz on to ``destination``, or stop them (``None``)
    (R-ATTR-BLITZ-02). ``decision_id``: the decision the control was drawn for; the rules
    refuse the order if another is pending now (a double click after a later battle)."""
    if destination is None:
        return BlitzStop(seat.faction, decision=decision_id)
    decision = pending_blitz(seat.state, seat.faction)
    detail = decision.detail if decision is not None else None
    units = detail.units if isinstance(detail, BlitzDetail) else ()
    return BlitzOn(seat.faction, tuple(units), destination, None, via, decision=decision_id)


async def _unit_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    origin = _namespace(interaction, "from")

    def make(table: Table, faction: str) -> list[Choice]:
        start = _province_or_none(table.ruleset, origin)
        return unit_choices(table.state, table.ruleset, faction, start, current)

    return await own_choices_for(interaction, make)


async def _origin_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    preferred = _origin_of(interaction)
    return await own_choices_for(
        interaction,
        lambda t, faction: origin_choices(t.state, t.ruleset, faction, current, preferred),
    )


def _typed_units(table: Table, faction: str, interaction: discord.Interaction) -> list[int]:
    """The units ``/move`` or ``/fly`` names so far, or none."""
    origin = _origin_of(interaction)
    units = _namespace(interaction, "units") or "all"
    start = find_province(table.ruleset, origin) if origin else None
    if start is None:
        return []
    try:  # what has been typed so far may not be a list of units yet
        return list(pick_units(table.state, table.ruleset, faction, start, parse_units(units)))
    except RuleViolation:
        return []


async def _route_autocomplete(
    interaction: discord.Interaction, current: str, *, flying: bool
) -> list[app_commands.Choice[str]]:
    def make(table: Table, faction: str) -> list[Choice]:
        ids = _typed_units(table, faction, interaction)
        try:
            via = parse_via(table.ruleset, _namespace(interaction, "via"))
        except RuleViolation:
            via = ()
        return route_choices(
            table.state, table.ruleset, faction, ids, current, flying=flying, via=via
        )

    return await own_choices_for(interaction, make)


async def _via_autocomplete(
    interaction: discord.Interaction, current: str, *, flying: bool
) -> list[app_commands.Choice[str]]:
    def make(table: Table, faction: str) -> list[Choice]:
        ids = _typed_units(table, faction, interaction)
        return via_choices(table.state, table.ruleset, ids, current, flying=flying)

    return await own_choices_for(interaction, make)


# --------------------------------------------------------------------------- /move

TERRAINS = [app_commands.Choice(name=t.value, value=t.value) for t in Terrain]

#: What a sea zone named as a ``/move`` province is told (R-MOVE-09).
AT_SEA = ("R-MOVE-09", "land units move between provinces")
#: What a sea zone named as where a flight ends is told (R-ATTR-FLY-01).
AT_END_AT_SEA = ("R-ATTR-FLY-01", "a flight ends in a province; name the sea zone in via")
COMMODITIES = [app_commands.Choice(name=c.value.title(), value=c.value) for c in Commodity]


def _place_part(origin: str) -> str:
    """The place in a ``from`` value: autocomplete offers ``label@place``, a player types the place."""
    return origin.split("@")[-1] if "@" in origin else origin


def _move_destination(
    state: GameState, ruleset: Ruleset, faction: str, start: str, text: str
) -> str:
    """Where ``/move`` goes: a province, or a sea zone that one of the faction's Amphibian
    units in ``start`` may attack (R-ATTR-AMPH-02); any other sea zone is refused
    (R-MOVE-09)."""
    try:
        space = resolve_space(ruleset, text, rule="R-MOVE-01")
    except RuleViolation:
        space = None
    own = (u for u in state.peek_units_of(faction) if u.location == start)
    if (
        space is not None
        and ruleset.map.is_sea(space)
        and any(space in sea_attacks(state, ruleset, u) for u in own)
    ):
        return space
    return resolve_province(ruleset, text, at_sea=AT_SEA)


class MoveCog(PlayCog):
    """``/move``."""

    @app_commands.command(name="move", description="Move units in step 6; the bot finds the route")
    @app_commands.rename(origin="from")
    @app_commands.describe(
        units="Which units: like 2 Dawnian Infantry, unit numbers like #4, #7, or all",
        origin="The province they are in",
        to="Where they go; a province held by another faction's units is an attack",
        terrain="In a province of several terrains, the one they use there (R-MOVE-03)",
        via="Provinces or sea zones the route must pass through, in order, separated by commas",
        faction=FACTION_HELP,
    )
    @app_commands.choices(terrain=TERRAINS)
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def move(
        self,
        interaction: discord.Interaction,
        units: str,
        origin: str,
        to: str,
        terrain: str | None = None,
        via: str | None = None,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        ruleset = seat.ruleset
        start = resolve_province(ruleset, _place_part(origin), at_sea=AT_SEA)
        destination = _move_destination(seat.state, ruleset, seat.faction, start, to)
        ids = pick_units(seat.state, ruleset, seat.faction, start, parse_units(units), destination)
        route = parse_via(ruleset, via)
        await seat.give(MoveUnits(seat.faction, ids, destination, terrain, route))

    @move.autocomplete("units")
    async def _units(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _unit_autocomplete(interaction, current)

    @move.autocomplete("origin")
    async def _origins(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _origin_autocomplete(interaction, current)

    @move.autocomplete("to")
    async def _destinations(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _route_autocomplete(interaction, current, flying=False)

    @move.autocomplete("via")
    async def _via(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _via_autocomplete(interaction, current, flying=False)

    @app_commands.command(
        name="fly", description="Fly units up to 4 spaces over anything, instead of moving"
    )
    @app_commands.rename(origin="from")
    @app_commands.describe(
        units="Which Flying units: like 2 Windriders, unit numbers like #4, or all",
        origin="The province they are in",
        to="A province within 4 spaces (sea zones count); one held by another faction's "
        "units is an attack",
        via="Spaces to fly over, in order, separated by commas",
        terrain="In a province of several terrains, the one they use there (R-MOVE-03)",
        faction=FACTION_HELP,
    )
    @app_commands.choices(terrain=TERRAINS)
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def fly(
        self,
        interaction: discord.Interaction,
        units: str,
        origin: str,
        to: str,
        via: str | None = None,
        terrain: str | None = None,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        ruleset = seat.ruleset
        start = resolve_province(ruleset, _place_part(origin), at_sea=AT_SEA)
        destination = resolve_province(ruleset, to, at_sea=AT_END_AT_SEA)
        ids = pick_units(seat.state, ruleset, seat.faction, start, parse_units(units))
        await seat.give(FlyUnits(seat.faction, ids, destination, terrain, parse_via(ruleset, via)))

    @fly.autocomplete("units")
    async def _fly_units(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _unit_autocomplete(interaction, current)

    @fly.autocomplete("origin")
    async def _fly_origins(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _origin_autocomplete(interaction, current)

    @fly.autocomplete("to")
    async def _fly_destinations(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _route_autocomplete(interaction, current, flying=True)

    @fly.autocomplete("via")
    async def _fly_via(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _via_autocomplete(interaction, current, flying=True)

    @app_commands.command(
        name="teleport", description="Teleport a unit and companions, instead of moving (1d10)"
    )
    @app_commands.describe(
        unit="The unit with Teleportation",
        to="A land province no other faction occupies",
        companions="Units of yours in its province to take along, in order, separated by "
        "commas; the die decides how many go",
        faction=FACTION_HELP,
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def teleport(
        self,
        interaction: discord.Interaction,
        unit: str,
        to: str,
        companions: str | None = None,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        ruleset, state = seat.ruleset, seat.state
        uid = resolve_own_unit(state, ruleset, seat.faction, unit, "R-MAGIC-TELE-01")
        destination = resolve_province(ruleset, to, rule="R-MAGIC-TELE-01")
        others = tuple(
            resolve_own_unit(state, ruleset, seat.faction, part, "R-MAGIC-TELE-01")
            for part in (companions or "").split(",")
            if part.strip()
        )
        await seat.give(Teleport(seat.faction, uid, destination, others))

    @teleport.autocomplete("unit")
    async def _teleporters(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await own_choices_for(
            interaction,
            lambda t, f: acting_unit_choices(
                t.state, t.ruleset, f, Attribute.TELEPORTATION, current
            ),
        )

    @teleport.autocomplete("to")
    async def _teleport_to(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        def make(table: Table, faction: str) -> list[Choice]:
            free = [
                p
                for p in table.ruleset.map.provinces
                if all(u.owner == faction for u in table.state.units_at(p))
            ]
            return province_choices(table.state, table.ruleset, faction, current, free)

        return await own_choices_for(interaction, make)

    @teleport.autocomplete("companions")
    async def _companions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = _namespace(interaction, "unit")

        def make(table: Table, faction: str) -> list[Choice]:
            try:
                uid = resolve_own_unit(table.state, table.ruleset, faction, typed or "")
            except RuleViolation:
                return []
            return companion_choices(table.state, table.ruleset, faction, uid, current)

        return await own_choices_for(interaction, make)

    @app_commands.command(name="divine", description="Divine with a Diviner, instead of moving")
    @app_commands.describe(
        unit="The Diviner, in a province your faction owns",
        commodity="The commodity to divine for (the difference of two dice is the bonus)",
        faction=FACTION_HELP,
    )
    @app_commands.choices(commodity=COMMODITIES)
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def divine(
        self,
        interaction: discord.Interaction,
        unit: str,
        commodity: str,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        uid = resolve_own_unit(seat.state, seat.ruleset, seat.faction, unit, "R-MAGIC-DIV-01")
        await seat.give(Divine(seat.faction, uid, commodity))

    @divine.autocomplete("unit")
    async def _diviners(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await own_choices_for(
            interaction,
            lambda t, f: acting_unit_choices(t.state, t.ruleset, f, Attribute.DIVINER, current),
        )

    @app_commands.command(
        name="blitz", description="After a won battle: move blitz units on, or stop them"
    )
    @app_commands.describe(
        to="Where they move on (a battle there is fought at once); leave out to stop",
        via="Provinces the route must pass through, in order, separated by commas",
        faction=FACTION_HELP,
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def blitz(
        self,
        interaction: discord.Interaction,
        to: str | None = None,
        via: str | None = None,
        faction: str | None = None,
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        if to is None:
            await seat.give(BlitzStop(seat.faction))
            return
        decision = pending_blitz(seat.state, seat.faction)
        units = (
            decision.detail.units if decision and isinstance(decision.detail, BlitzDetail) else ()
        )
        destination = resolve_province(seat.ruleset, to, rule="R-ATTR-BLITZ-02")
        route = parse_via(seat.ruleset, via)
        await seat.give(BlitzOn(seat.faction, tuple(units), destination, None, route))

    @blitz.autocomplete("to")
    async def _blitz_to(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        def make(table: Table, faction: str) -> list[Choice]:
            reach = blitz_destinations(table.state, table.ruleset, faction)
            notes = {p: "starts a battle" for p, attack in reach.items() if attack}
            return province_choices(
                table.state, table.ruleset, faction, current, reach, notes=notes
            )

        return await own_choices_for(interaction, make)

    @app_commands.command(
        name="undo", description="Take back your last order of this step, if nothing rolled since"
    )
    @app_commands.describe(faction=FACTION_HELP)
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction, faction: str | None = None) -> None:
        seat = await seat_for_command(interaction, faction)
        await seat.give(UndoLastOrder(seat.faction))


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog and the "Move…" selects."""
    await add_play_cog(bot, MoveCog, {"move": on_move_component, "mv": on_move_component})
