"""The turn: ``/done``, ``/disband`` and the turn panel's controls (R-TURN-02, ux.md "The turn
panel").

``/panel`` posts the faction's turn panel again at the foot of its orders thread.

``/done`` ends the current step of the faction's turn; the steps that need nothing from the
player (Collect, Upkeep, and any step with nothing to do) then run by themselves, and the turn
passes to the next faction after step 8 (R-TURN-01).

``/disband unit`` marks a unit to be disbanded when step 4 begins, or takes its mark back
(R-UPK-02 as ruled); the turn panel's "Disband at upkeep…" does the same for several units at
once, the marked ones preselected. In step 4 itself, which rests only while it waits (a
shortfall, R-UPK-03, or the option ``upkeep_waits``), both disband at once. The turn panel in the faction's orders
thread (posted and edited by :mod:`caedes_bot.ui.announcer`) has the same "Done" button plus
the step's own controls; they are answered here, and each names its faction, game round and
step (``caedes:<campaign>:panel.<faction>.<round>.<step>:<action>``), so a click left over from
an earlier step is refused instead of ending the wrong one.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._play import (
    Menu,
    PlayCog,
    Seat,
    add_play_cog,
    answer,
    open_menu,
    own_choices_for,
    seat_for_command,
    seat_for_faction,
    turn_expect,
)
from caedes_bot.cogs._unit_names import mark_choices, resolve_own_unit
from caedes_bot.cogs.attack import fight
from caedes_bot.cogs.buy import buy_menu
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete, send_status
from caedes_bot.cogs.move import blitz_order, move_menu
from caedes_bot.cogs.muster import muster_menu
from caedes_bot.cogs.odds import odds_panel
from caedes_bot.cogs.ships import ships_menu
from caedes_bot.rules import upkeep, upkeep_marks
from caedes_bot.rules.movement.amphibian import ComeAshore
from caedes_bot.rules.state import PendingDecision, Step, UpkeepDisbandDetail
from caedes_bot.rules.turn import EndStep
from caedes_bot.rules.undo import UndoLastOrder
from caedes_bot.rules.upkeep import PayUpkeep
from caedes_bot.service import Expect
from caedes_bot.ui import views
from caedes_bot.ui.announcer import RichAnnouncer, panel_again_reply
from caedes_bot.ui.describe import kind_counts, unit_label
from caedes_bot.ui.embeds import help_embed
from caedes_bot.ui.steps import over_text


async def end_step(seat: Seat, expect: Expect) -> None:
    """End the step ``expect`` names (R-TURN-02) and answer privately with what followed. In
    step 4 this pays upkeep (``PayUpkeep``, R-UPK-01). If the turn has moved on meanwhile (a
    second click or command), nothing is ended (:class:`~caedes_bot.service.StaleOrder`)."""
    step = expect.step or seat.state.step
    order = PayUpkeep(seat.faction) if step is Step.UPKEEP else EndStep(seat.faction)
    await seat.give(order, expect=expect, headline=over_text(step))


def default_ids(decision: PendingDecision | None) -> tuple[int, ...]:
    """The units an ``upkeep_disband`` decision disbands by default (``detail.default``, in
    the order of R-UPK-03); empty without a decision."""
    if decision is None or not isinstance(decision.detail, UpkeepDisbandDetail):
        return ()
    return decision.detail.default


def disband_menu(seat: Seat) -> tuple[str, list[views.JSON]]:
    """The turn panel's disbanding menu: in steps 1 to 3 "Disband at upkeep…"
    (:func:`marks_menu`); in step 4, while it waits, "Disband…" (:func:`disband_now_menu`)."""
    if seat.state.step is Step.UPKEEP:
        return disband_now_menu(seat)
    return marks_menu(seat)


def marks_menu(seat: Seat) -> tuple[str, list[views.JSON]]:
    """The private "Disband at upkeep…" select (R-UPK-02 as ruled): the faction's units, the
    marked ones first and preselected, then in the bot's disbanding order, up to 25; any number
    may be chosen, none included, and the marks become the choice (``SetDisbandMarks``; custom
    id ``caedes:<campaign>:dm.<faction>.<round>.<step>:pick``)."""
    state, ruleset = seat.state, seat.ruleset
    marked = set(upkeep.marked_units(state, seat.faction))
    units = upkeep_marks.markable_units(state, ruleset, seat.faction)[:25]
    if not units:
        return "You have no unit to mark.", []
    found = [
        views.option(
            unit_label(ruleset, u.id, u.kind, u.location), str(u.id), default=u.id in marked
        )
        for u in units
    ]
    cid = views.custom_id(
        seat.campaign_id, ["dm", seat.faction, state.round, int(state.step)], "pick"
    )
    select = views.select(
        cid, found, placeholder="Units to disband at upkeep…", min_values=0, max_values=len(found)
    )
    text = (
        "Which units should be disbanded when step 4 begins? They then leave the board for good, "
        "before the upkeep bill is computed (R-UPK-02). Until then you can change your choice: "
        "leave a unit out to take its mark back."
    )
    if marked:
        text += " The units marked now are preselected."
    return text, views.layout([select])


def disband_now_menu(seat: Seat) -> tuple[str, list[views.JSON]]:
    """The private "Disband…" select of step 4 while it waits (R-UPK-02, R-UPK-03): the
    faction's units in the bot's default disbanding order (cheapest first), up to 25; several
    may be chosen (to pay a shortfall, as many as the bill needs and, unless the option
    ``upkeep_waits`` allows more, no more). When RP cannot cover the bill, the bot's default is preselected and a "Use
    default" button disbands exactly it (custom id
    ``caedes:<campaign>:db.<faction>.<round>.<decision>:default``).
    """
    state, ruleset = seat.state, seat.ruleset
    units = upkeep.disband_order(state.peek_units_of(seat.faction), ruleset)[:25]
    decision = upkeep.upkeep_decision(state, seat.faction)
    default = default_ids(decision)
    found = [
        views.option(
            unit_label(ruleset, u.id, u.kind, u.location),
            str(u.id),
            default=u.id in default,
        )
        for u in units
    ]
    least = (
        decision.detail.must_disband_at_least
        if decision is not None and isinstance(decision.detail, UpkeepDisbandDetail)
        else 1
    )
    only_needed = decision is not None and not state.options.upkeep_waits
    fewest, most = upkeep.disband_answer_limits(
        state, ruleset, seat.faction, [u.id for u in units], least, only_needed=only_needed
    )
    obj: list[object] = ["db", seat.faction, state.round]
    items = [
        views.select(
            views.custom_id(seat.campaign_id, obj, "pick"),
            found,
            placeholder="Units to disband…",
            min_values=fewest,
            max_values=most,
        )
    ]
    text = "Disband which units? They leave the board for good (R-UPK-02)."
    if decision is not None:
        if only_needed:
            text += (
                f" Your RP cannot cover the bill: {least} of the units that count must go, and"
                " no more than that (a ship takes its cargo with it) (R-UPK-03)."
            )
        else:
            text += f" Your RP cannot cover the bill: at least {least} must go (R-UPK-03)."
        if default:
            kinds = [state.unit(u).kind for u in default if str(u) in state.units]
            items.append(
                views.button(
                    views.custom_id(seat.campaign_id, [*obj, decision.id], "default"),
                    f"Use default: {kind_counts(ruleset, kinds)}",
                    style="danger",
                )
            )
            text += " The bot's default is preselected."
    return text, views.layout(items)


#: The turn panel's buttons that open a private menu: the step they belong to (``None``: the
#: panel's own step is enough) and the menu.
MENUS: dict[str, tuple[Step | None, Menu]] = {
    "disband": (None, disband_menu),
    "buy": (Step.BUY, buy_menu),
    "move": (Step.MOVE, move_menu),
    "ships": (Step.MOVE, ships_menu),
    "muster": (Step.MUSTER, muster_menu),
}


async def on_panel(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """A click on a turn panel."""
    _, faction, round_no, step_no = ref.parts[:4]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    if ref.action == "status":
        await send_status(seat)
        return
    if ref.action == "help":
        await interaction.response.send_message(
            embed=help_embed(seat.state, seat.ruleset, faction), ephemeral=True
        )
        return
    expect = turn_expect(faction, round_no, Step(int(step_no)), via="button")
    seat.check(expect)
    if ref.action == "done":
        await end_step(seat, expect)
    elif ref.action in MENUS:
        step, menu = MENUS[ref.action]
        await open_menu(seat, step, menu)
    elif ref.action == "fight":
        await fight(seat, ref.values[0], expect)
    elif ref.action == "odds":
        await odds_panel(seat)
    elif ref.action in ("blitz", "stop"):
        seat.require_own()
        place = ref.values[0] if ref.action == "blitz" else None
        await seat.give(blitz_order(seat, place, decision_id=int(ref.parts[4])))
    elif ref.action in ("ashore", "home"):  # R-ATTR-AMPH-02: the decision's id is part 4
        seat.require_own()
        place = ref.values[0] if ref.action == "ashore" else None
        await seat.give(ComeAshore(faction, place, decision=int(ref.parts[4])))
    elif ref.action == "undo":
        seat.require_own()
        records = int(ref.parts[4])  # the undo records the panel showed (a double click)
        await seat.give(UndoLastOrder(faction, records=records), expect=expect)
    else:
        await answer(interaction, views.STALE_REPLY)


async def on_disband(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """Units chosen in the "Disband…" select, or its "Use default" button: disband them (step 4
    only, R-UPK-02; the default of R-UPK-03, while its decision is pending)."""
    _, faction, round_no = ref.parts[:3]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    if ref.action == "default":
        expect = Expect(
            round=int(round_no),
            faction=faction,
            step=Step.UPKEEP,
            decision_id=int(ref.parts[3]),
            via="button",
            rule="R-UPK-03",
        )
        seat.check(expect)
        ids = default_ids(upkeep.upkeep_decision(seat.state, faction))
    else:
        expect = turn_expect(faction, round_no, Step.UPKEEP)
        seat.check(expect)
        ids = tuple(int(v) for v in ref.values)
    await seat.give(upkeep.DisbandUnits(faction, ids), expect=expect, update=True)


async def on_marks(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """Units chosen in the "Disband at upkeep…" select: they become the faction's marks
    (R-UPK-02). Marks beyond the 25 units the select can show are kept. Refused as stale once
    the step the menu was opened in is over (in step 4 a choice would disband at once)."""
    _, faction, round_no, step_no = ref.parts[:4]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    expect = turn_expect(faction, round_no, Step(int(step_no)))
    seat.check(expect)
    shown = {u.id for u in upkeep_marks.markable_units(seat.state, seat.ruleset, faction)[:25]}
    kept = [u for u in upkeep.marked_units(seat.state, faction) if u not in shown]
    ids = tuple(sorted({*kept, *(int(v) for v in ref.values)}))
    await seat.give(upkeep_marks.SetDisbandMarks(faction, ids), expect=expect, update=True)


class TurnCog(PlayCog):
    """``/done``, ``/disband`` and ``/panel``."""

    @app_commands.command(
        name="disband", description="Mark a unit to disband at upkeep (step 4), or unmark it"
    )
    @app_commands.describe(unit="One of your units; a marked one is unmarked", faction=FACTION_HELP)
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def disband(
        self, interaction: discord.Interaction, unit: str, faction: str | None = None
    ) -> None:
        """Toggle the mark of one unit (R-UPK-02); in step 4 while it waits, disband it now."""
        seat = await seat_for_command(interaction, faction)
        unit_id = resolve_own_unit(seat.state, seat.ruleset, seat.faction, unit)
        order = upkeep_marks.ToggleDisbandMark(seat.faction, unit_id)
        await seat.give(order, expect=Expect.turn_of(seat.state, via="command"))

    @disband.autocomplete("unit")
    async def _units(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await own_choices_for(
            interaction, lambda t, faction: mark_choices(t.state, t.ruleset, faction, current)
        )

    @app_commands.command(name="done", description="End the current step of your turn")
    @app_commands.describe(faction=FACTION_HELP)
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def done(self, interaction: discord.Interaction, faction: str | None = None) -> None:
        seat = await seat_for_command(interaction, faction)
        await end_step(seat, Expect.turn_of(seat.state, via="command"))

    @app_commands.command(
        name="panel", description="Post your turn panel again in your orders thread"
    )
    @app_commands.describe(faction=FACTION_HELP)
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def panel(self, interaction: discord.Interaction, faction: str | None = None) -> None:
        """Post the turn panel of the member's faction afresh (lost, or deleted by a
        moderator); later edits of the turn go to the new one."""
        seat = await seat_for_command(interaction, faction)
        seat.require_own()
        rows = RichAnnouncer().panel_again(seat.campaign, seat.state, seat.ruleset, seat.faction)
        if rows:
            await seat.service.queue_messages(seat.campaign_id, rows)
        text = panel_again_reply(seat.ruleset, seat.state, seat.faction, posted=bool(rows))
        await answer(interaction, text)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog and the turn panel's controls."""
    await add_play_cog(bot, TurnCog, {"panel": on_panel, "db": on_disband, "dm": on_marks})
