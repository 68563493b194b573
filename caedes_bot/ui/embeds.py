"""The bot's embeds: the turn panel, status, provinces, units, help (ux.md). The battle message
is in :mod:`caedes_bot.ui.battle_embeds`.

Each function is a pure function of the ruleset, a game state and plain values: it returns a
:class:`discord.Embed` (pure data; the announcer stores ``embed.to_dict()`` in outbox rows) and,
where the message carries controls, their Discord JSON (:mod:`caedes_bot.ui.views`). Nothing
here decides a rule: values, legal choices and defaults come from :mod:`caedes_bot.rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import discord

from caedes_bot.gamedata.model import BaseType, Ruleset, UnitKind, movement_allowance
from caedes_bot.rules import movement, upkeep, upkeep_marks
from caedes_bot.rules.mercenary import turn_start_owing
from caedes_bot.rules.movement import amphibian, blitz
from caedes_bot.rules.state import (
    BlitzDetail,
    CasualtiesDetail,
    ComeAshoreDetail,
    GameState,
    MercenariesDetail,
    PendingDecision,
    PressOrWithdrawDetail,
    Step,
    SummonsDetail,
    Unit,
    UpkeepDisbandDetail,
)
from caedes_bot.rules.undo import can_undo
from caedes_bot.ui import battle_magic, mercenaries, views, wording
from caedes_bot.ui.describe import (
    ATTRIBUTE_TEXT,
    commodities_text,
    faction_name,
    kind_counts,
    kind_stats,
    space_name,
    unit_label,
)
from caedes_bot.ui.fleet import ships_near_text, ships_text
from caedes_bot.ui.steps import FIGHT_OPTION, FIGHT_PLACEHOLDER, MARKS_MENU, STEPS, step_line
from caedes_bot.ui.summoning import board_notes, kind_notes, province_notes, summons_decision_text
from caedes_bot.ui.talks import NEGOTIATE_HERE_ONLY, UMPIRE_ENFORCES
from caedes_bot.ui.text import EMBED_FIELD_VALUE_LIMIT, fit_embed, truncate

JSON = dict[str, Any]


def timestamp(when: datetime | None) -> str:
    """``<t:UNIX:R>`` (each member sees it in local time), or ``"none"``."""
    if when is None:
        return "none"
    return f"<t:{int(when.timestamp())}:R>"


def faction_colour(ruleset: Ruleset, faction: str | None) -> discord.Colour | None:
    """The colour of ``faction`` (its embeds' side bar), or ``None`` for none or an unknown one."""
    if faction is None:
        return None
    try:
        return discord.Colour(ruleset.faction(faction).colour)
    except KeyError:
        return None


# --------------------------------------------------------------------------- turn panel


def treasury_text(state: GameState, faction: str) -> str:
    """RP, commodities, earmarks and Salt credit of ``faction`` (private, R-GEN-07)."""
    fs = state.factions[faction]
    lines = [f"**{fs.rp} RP** · commodities: {commodities_text(fs.commodities)}"]
    if any(fs.earmarks.values()):
        lines.append(f"Earmarked for discounts: {commodities_text(fs.earmarks)} (R-COMM-02)")
    if fs.salt_credit:
        lines.append(f"Salt against upkeep: {fs.salt_credit} (R-COMM-07)")
    return "\n".join(lines)


def _lines_by_place(ruleset: Ruleset, units: Sequence[Unit]) -> list[str]:
    """``"Harrowgate: 2 Dawnian Infantry"``: one line per space holding ``units``, by name."""
    by_place: dict[str, list[str]] = {}
    for unit in units:
        by_place.setdefault(unit.location, []).append(unit.kind)
    return [
        f"{space_name(ruleset, p)}: {kind_counts(ruleset, kinds)}"
        for p, kinds in sorted(by_place.items(), key=lambda kv: space_name(ruleset, kv[0]))
    ]


def movable_text(state: GameState, ruleset: Ruleset, faction: str, limit: int = 12) -> str:
    """The faction's units that may still move, by province (R-MOVE-01)."""
    lines = _lines_by_place(ruleset, movement.movable_units(state, ruleset, faction))
    if not lines:
        return "none"
    if len(lines) > limit:
        lines = [*lines[:limit], f"… and {len(lines) - limit} more places"]
    return "\n".join(lines)


def movement_lines(state: GameState, ruleset: Ruleset, units: Sequence[Unit]) -> list[str]:
    """For the active faction's turn in steps 6 and 7: each of ``units`` that has moved or can
    move, with its movement left or the attack it is committed to (R-MOVE-01, R-MOVE-02,
    R-ATTR-FLY-01); nothing in other steps or for other factions' units."""
    if state.step not in (Step.MOVE, Step.COMBAT) or state.active is None:
        return []
    lines = []
    for unit in units:
        kind = ruleset.kind(unit.kind)
        if unit.owner != state.active or kind.base_type in (BaseType.TOWER, BaseType.SHIP):
            continue
        label = unit_label(ruleset, unit.id, unit.kind, unit.location)
        if unit.attacking:
            lines.append(f"{label}: committed to an attack here")
        elif unit.move_ended:
            lines.append(f"{label}: movement ended" if unit.path else f"{label}: cannot move")
        elif unit.path or state.step is Step.MOVE:
            allowance = movement_allowance(kind)
            left = movement.remaining_movement(unit, kind)
            lines.append(f"{label}: {left} of {allowance} movement left")
    return lines


#: The turn panel's controls of a blitz after a won battle (R-ATTR-BLITZ-02).
BLITZ_PLACEHOLDER = "Blitz on to…"
BLITZ_STOP = "Stop the blitz"
#: The turn panel's controls of Amphibian units that won at sea (R-ATTR-AMPH-02).
ASHORE_PLACEHOLDER = "Go ashore at…"
ASHORE_HOME = "Back where they came from"

#: The turn panel's button of step 6 that takes back the last order (``/undo``).
UNDO_BUTTON = "Undo last move"
#: The same button in the other steps, shown while an order of the step may be taken back.
UNDO_ORDER_BUTTON = "Undo last order"

#: The name of the field listing the units marked to be disbanded at upkeep (R-UPK-02).
MARKS_FIELD = "Marked to disband at upkeep (R-UPK-02)"


def marks_text(state: GameState, ruleset: Ruleset, faction: str, limit: int = 10) -> str:
    """The units of ``faction`` marked to be disbanded at upkeep, one a line, in id order:
    ``"Dawnian Knights #4 in Orme"``; ``""`` when none is marked (R-UPK-02)."""
    marked = [state.unit(u) for u in upkeep.marked_units(state, faction)]
    lines = [unit_label(ruleset, u.id, u.kind, u.location) for u in marked]
    if len(lines) > limit:
        lines = [*lines[:limit], f"… and {len(lines) - limit} more"]
    return "\n".join(lines)


def _add_marks(embed: discord.Embed, state: GameState, ruleset: Ruleset, faction: str) -> None:
    text = marks_text(state, ruleset, faction)
    if text:
        value = truncate(text + "\nThey are disbanded when step 4 begins.", EMBED_FIELD_VALUE_LIMIT)
        embed.add_field(name=MARKS_FIELD, value=value, inline=False)


def decision_text(ruleset: Ruleset, decision: PendingDecision) -> str:
    """What a pending decision asks, in a few words."""
    detail = decision.detail
    if isinstance(detail, CasualtiesDetail):
        where = f" at {space_name(ruleset, detail.space)}"
        what = "casualty" if detail.hits == 1 else "casualties"
        return f"choose {detail.hits} {what} in the battle{where} (R-COMBAT-06)"
    if isinstance(detail, PressOrWithdrawDetail):
        where = f" at {space_name(ruleset, detail.space)}"
        text = f"press on or withdraw in the battle{where} (R-COMBAT-08)"
        if detail.must_stay:
            n = len(detail.must_stay)
            text += (
                f"; {n} unit{'s' if n > 1 else ''} that came by sea or by magic must stay "
                "and fight on (R-COMBAT-09)"
            )
        return text
    if isinstance(detail, SummonsDetail):
        return summons_decision_text(ruleset, detail)
    if isinstance(detail, BlitzDetail):
        where = space_name(ruleset, detail.space)
        return f"blitz on from {where} (/blitz to) or stop (/blitz) (R-ATTR-BLITZ-02)"
    if isinstance(detail, ComeAshoreDetail):
        where = space_name(ruleset, detail.space)
        return f"choose where the Amphibian units in {where} go ashore (R-ATTR-AMPH-02)"
    if isinstance(detail, MercenariesDetail):
        return mercenaries.decision_text(ruleset, detail)
    magic = battle_magic.decision_text(ruleset, detail)
    if magic is not None:
        return magic
    assert isinstance(detail, UpkeepDisbandDetail)
    return f"disband at least {detail.must_disband_at_least} units to pay upkeep (R-UPK-03)"


def panel_object(faction: str, round_no: int, step: Step) -> list[object]:
    """The custom_id object of a turn panel's controls: ``panel.<faction>.<round>.<step>``."""
    return ["panel", faction, round_no, int(step)]


def turn_panel(
    campaign_id: int,
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    round_no: int,
    *,
    deadline: datetime | None = None,
    paused_left: timedelta | None = None,
) -> tuple[discord.Embed, list[JSON]]:
    """The turn panel of ``faction``'s turn of game round ``round_no`` (ux.md "The turn panel"):
    faction, game round, current step, treasury, what may still move or fight, decisions owed,
    the deadline, and the controls of the current step. Once that turn is over the panel says so
    and has no controls. While the campaign is paused (``paused_left``: the time the turn's
    deadline keeps for the resume, R-PBP-UMP-05) the panel says so and has no controls.

    Returns:
        The embed and the component rows (Discord JSON; empty when the turn is over).
    """
    title = f"{faction_name(ruleset, faction)} · game round {round_no}"
    live = state.active == faction and state.round == round_no and not state.finished
    embed = discord.Embed(title=title, colour=faction_colour(ruleset, faction))
    if not live:
        embed.description = "This turn is over."
        if faction in state.factions:
            embed.add_field(name="Treasury", value=treasury_text(state, faction), inline=False)
        return fit_embed(embed), []
    step = state.step
    words = STEPS[step]
    embed.description = (
        f"{step_line(step)}\n\n**Step {step.label}** ({words.rule}): {words.purpose}"
    )
    if state.passive:
        embed.description += (
            "\n\nThe turn deadline was missed: the bot plays the rest of this turn passively "
            "(R-PBP-DEAD-03)."
        )
    embed.add_field(name="Treasury", value=treasury_text(state, faction), inline=False)
    if step is Step.UPKEEP:
        embed.add_field(
            name="Upkeep due",
            value=upkeep_due_text(upkeep.upkeep_bill(state, ruleset, faction)),
            inline=False,
        )
    _add_marks(embed, state, ruleset, faction)
    fs = state.factions[faction]
    if fs.purchases:
        embed.add_field(
            name="Bought, waiting for step 8",
            value=kind_counts(ruleset, fs.purchases),
            inline=False,
        )
    if step is Step.MOVE:
        embed.add_field(
            name="Units that may still move",
            value=truncate(movable_text(state, ruleset, faction), EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    if step is Step.COMBAT:
        due = ", ".join(space_name(ruleset, s) for s in state.battles_due) or "none"
        embed.add_field(name="Battles still to fight", value=due, inline=False)
        if state.battle is not None:
            embed.add_field(
                name="Battle under way",
                value=f"{space_name(ruleset, state.battle.space)}, round {state.battle.round} "
                "(see #battles)",
                inline=False,
            )
    owed = [d for d in state.pending if d.faction == faction]
    if owed:
        embed.add_field(
            name="You owe",
            value="\n".join(decision_text(ruleset, d) for d in owed),
            inline=False,
        )
    if paused_left is not None:
        embed.description = f"{PAUSED_LINE}\n\n{embed.description}"
        kept = wording.duration_text(paused_left)
        embed.add_field(name="Deadline", value=f"paused; {kept} left on resume", inline=False)
        return fit_embed(embed), []
    embed.add_field(name="Deadline", value=timestamp(deadline), inline=False)
    embed.set_footer(text="Slash commands do the same: /help lists them.")
    return fit_embed(embed), panel_components(campaign_id, state, ruleset, faction)


#: The head of a turn panel while its campaign is paused (R-PBP-UMP-05).
PAUSED_LINE = (
    "⏸️ **The campaign is paused** by the umpire (R-PBP-UMP-05): no orders are taken and the "
    "deadline is stopped until it resumes."
)


def upkeep_due_text(bill: upkeep.UpkeepBill) -> str:
    """The step-4 bill in a line (R-UPK-01, R-COMM-07): ``"7 units cost 2 RP: a bill of 2 RP;
    you hold 21 RP (R-UPK-01)"``, with any Salt used and, when RP fall short, how many units
    must go first (R-UPK-03)."""
    salt = f", less {bill.salt_used} Salt" if bill.salt_used else ""
    text = (
        f"{bill.units_counted} units cost {bill.upkeep} RP{salt}: a bill of {bill.bill} RP; "
        f"you hold {bill.rp} RP (R-UPK-01)"
    )
    if bill.must_disband:
        text += f". At least {bill.must_disband} must be disbanded first (R-UPK-03)"
    return text


#: The steps whose turn panel has an "Odds" button: the odds of each battle about to be fought
#: (issue 13).
ODDS_STEPS = (Step.MOVE, Step.COMBAT)
ODDS_BUTTON = "Odds"
#: The step-6 turn panel's button of the faction's ships (R-MOVE-14..18; cogs/ships.py).
SHIPS_BUTTON = "Ships…"


def panel_components(
    campaign_id: int, state: GameState, ruleset: Ruleset, faction: str
) -> list[JSON]:
    """The controls of the current step (ux.md): for step 5 "Buy…" and "Done buying", etc."""
    obj = panel_object(faction, state.round, state.step)

    def cid(action: str) -> str:
        return views.custom_id(campaign_id, obj, action)

    step = state.step
    items: list[JSON] = []
    if state.passive:  # R-PBP-DEAD-03: the faction's own orders are refused now
        items.append(views.button(cid("status"), "Status"))
        items.append(views.button(cid("help"), "Help"))
        return views.layout(items)
    words = STEPS[step]
    ashore = amphibian.pending_ashore(state, faction) if step is Step.COMBAT else None
    reach = blitz.blitz_destinations(state, ruleset, faction) if step is Step.COMBAT else {}
    if ashore is not None:
        items += ashore_components(campaign_id, ruleset, [*obj, ashore.id], ashore)
    elif reach:  # R-ATTR-BLITZ-02: the units that won may move on, or stop
        options = [
            views.option(space_name(ruleset, s) + (" - starts a battle" if attack else ""), s)
            for s, attack in sorted(reach.items(), key=lambda kv: space_name(ruleset, kv[0]))
        ][:25]
        asked = blitz.pending_blitz(state, faction)
        number = asked.id if asked is not None else 0
        blitz_id = views.custom_id(campaign_id, [*obj, number], "blitz")
        items.append(views.select(blitz_id, options, placeholder=BLITZ_PLACEHOLDER))
        stop_id = views.custom_id(campaign_id, [*obj, number], "stop")
        items.append(views.button(stop_id, BLITZ_STOP, style="secondary"))
    elif step is Step.COMBAT and state.battle is None and state.battles_due:
        options = [
            views.option(FIGHT_OPTION.format(place=space_name(ruleset, s)), s)
            for s in state.battles_due
        ]
        items.append(views.select(cid("fight"), options, placeholder=FIGHT_PLACEHOLDER))
    menu = words.menu
    if menu is None and step in upkeep_marks.MARKING_STEPS:
        menu = MARKS_MENU  # R-UPK-02: units are marked in steps 1 to 4
    if menu is not None and (step is not Step.MUSTER or state.factions[faction].purchases):
        items.append(views.button(cid(menu.action), menu.label, style=menu.style, emoji=menu.emoji))
    if step is Step.MOVE and any(
        ruleset.kind(u.kind).base_type is BaseType.SHIP for u in state.peek_units_of(faction)
    ):  # R-MOVE-14..18: sail, take aboard, land
        items.append(views.button(cid("ships"), SHIPS_BUTTON, emoji="⛵"))
    if step in ODDS_STEPS:
        items.append(views.button(cid("odds"), ODDS_BUTTON))
    if step is Step.MOVE or can_undo(state, faction):  # while nothing has rolled since
        # the number of orders it may take back: a double click takes back one, not two
        undo_id = views.custom_id(campaign_id, [*obj, len(state.undo_log)], "undo")
        label = UNDO_BUTTON if step is Step.MOVE else UNDO_ORDER_BUTTON
        items.append(views.button(undo_id, label, emoji="↩️"))
    if words.done is not None:
        items.append(views.button(cid("done"), words.done, style="success"))
    items.append(views.button(cid("status"), "Status"))
    items.append(views.button(cid("help"), "Help"))
    return views.layout(items)


def ashore_components(
    campaign_id: int, ruleset: Ruleset, where: Sequence[object], decision: PendingDecision
) -> list[JSON]:
    """The controls of a ``come_ashore`` decision (R-ATTR-AMPH-02), on the turn panel or the
    battle message (object ``where``, which names the decision): a select of where the units
    may go ashore and a button sending each back where it came from (the default). Both name
    the decision, so a click meant for an earlier landing is refused."""
    detail = decision.detail
    assert isinstance(detail, ComeAshoreDetail)
    items: list[JSON] = []
    if detail.choices:
        options = [views.option(space_name(ruleset, p), p) for p in detail.choices][:25]
        items.append(
            views.select(
                views.custom_id(campaign_id, where, "ashore"),
                options,
                placeholder=ASHORE_PLACEHOLDER,
            )
        )
    items.append(
        views.button(views.custom_id(campaign_id, where, "home"), ASHORE_HOME, style="secondary")
    )
    return items


# --------------------------------------------------------------------------- status, help


def status_embed(state: GameState, ruleset: Ruleset, faction: str) -> discord.Embed:
    """``/status``: the faction's treasury, upkeep due, units, purchases and what it owes
    (private to the faction and the umpire, R-GEN-07)."""
    fs = state.factions[faction]
    embed = discord.Embed(
        title=f"{faction_name(ruleset, faction)} · status", colour=faction_colour(ruleset, faction)
    )
    now = "not started" if state.active is None else f"game round {state.round}"
    if state.active is not None:
        now += f", {faction_name(ruleset, state.active)} at step {state.step.label}"
    if state.finished:
        now = "the campaign is over"
    elif state.turn_start_waits:  # R-ATTR-MERC-01: the turn has not begun yet
        owing = [faction_name(ruleset, f) for f in turn_start_owing(state)]
        now += f"; the turn begins once {', '.join(owing)} choose which Mercenaries desert"
    embed.description = f"Now: {now}."
    embed.add_field(name="Treasury", value=treasury_text(state, faction), inline=False)
    counted = len(upkeep.upkeep_units(state, ruleset, faction))
    after = upkeep.counted_after_marks(state, ruleset, faction)
    due = upkeep.upkeep_for(after)
    left = f" (of {counted}, once the marked units go)" if after != counted else ""
    embed.add_field(
        name="Upkeep at your next step 4",
        value=f"{due} RP for {after} units{left} (R-UPK-01)",
        inline=False,
    )
    _add_marks(embed, state, ruleset, faction)
    owned = sorted(space_name(ruleset, p) for p, o in state.owners.items() if o == faction)
    embed.add_field(
        name=f"Provinces ({len(owned)})",
        value=truncate(", ".join(owned) or "none", EMBED_FIELD_VALUE_LIMIT),
        inline=False,
    )
    units = "\n".join(_lines_by_place(ruleset, state.peek_units_of(faction)))
    embed.add_field(
        name=f"Units ({len(state.peek_units_of(faction))})",
        value=truncate(units or "none", EMBED_FIELD_VALUE_LIMIT),
        inline=False,
    )
    notes = board_notes(state, ruleset, faction)
    if notes:
        embed.add_field(
            name="Heroes, Towers, summoned and Undead",
            value=truncate("\n".join(notes), EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    fleet = ships_text(state, ruleset, faction)
    if fleet:
        embed.add_field(
            name="Ships (R-MOVE-14, R-MOVE-18)",
            value=truncate(fleet, EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    if fs.purchases:
        embed.add_field(name="Bought, waiting for step 8", value=kind_counts(ruleset, fs.purchases))
    moving = movement_lines(state, ruleset, state.peek_units_of(faction))
    if moving:
        embed.add_field(
            name="Movement this turn (R-MOVE-01)",
            value=truncate("\n".join(moving), EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    owed = [d for d in state.pending if d.faction == faction]
    if owed:
        embed.add_field(
            name="You owe", value="\n".join(decision_text(ruleset, d) for d in owed), inline=False
        )
    return fit_embed(embed)


def help_embed(
    state: GameState, ruleset: Ruleset, faction: str | None, *, umpire: bool = False
) -> discord.Embed:
    """``/help``: what the current step allows, in a few lines, with its commands and buttons;
    where negotiation belongs (R-PBP-NEG-04), and for the ``umpire`` that they enforce it."""
    embed = discord.Embed(title="What you can do now")
    if state.finished:
        embed.description = "The campaign is over."
        return embed
    if state.active is None:
        embed.description = (
            "The campaign has not started: the umpire starts it with `/campaign start`."
        )
        return embed
    step = state.step
    words = STEPS[step]
    active = faction_name(ruleset, state.active)
    yours = faction is not None and faction == state.active
    embed.description = (
        f"Game round {state.round}: {active}, step {step.label} ({words.rule}).\n"
        f"{words.purpose}\n\n"
        + (
            words.commands
            if yours
            else "It is not your turn: you act only to answer what is asked of you (R-TURN-03)."
        )
    )
    if faction is not None:
        owed = [d for d in state.pending if d.faction == faction]
        if owed:
            embed.add_field(
                name="You owe",
                value="\n".join(decision_text(ruleset, d) for d in owed)
                + "\nAnswer on the battle message in #battles.",
                inline=False,
            )
    embed.add_field(
        name="Any time",
        value="`/status` your treasury and units · `/province name` · `/unit name` · "
        "`/negotiate faction` a private thread with a neighbour (R-PBP-NEG-01)",
        inline=False,
    )
    embed.add_field(name="Negotiation", value=NEGOTIATE_HERE_ONLY, inline=False)
    if umpire:
        embed.add_field(name="Umpire", value=UMPIRE_ENFORCES, inline=False)
    return fit_embed(embed)


def province_embed(state: GameState, ruleset: Ruleset, province_id: str) -> discord.Embed:
    """``/province``: terrain, RP, commodities, owner, units (the board is public, R-GEN-07),
    borders, rivers and coasts."""
    game_map = ruleset.map
    province = game_map.provinces[province_id]
    owner = state.owner(province_id)
    embed = discord.Embed(title=province.name, colour=faction_colour(ruleset, owner))
    embed.description = province.colour_text or None
    embed.add_field(name="Terrain", value=", ".join(t.value for t in province.terrains))
    embed.add_field(name="Income", value=f"{province.rp} RP")
    embed.add_field(
        name="Commodities",
        value=", ".join(c.value.title() for c in province.commodities) or "none",
    )
    embed.add_field(name="Owner", value=faction_name(ruleset, owner) if owner else "unowned")
    embed.add_field(name="Region", value=province.region + (" (island)" if province.island else ""))
    by_owner: dict[str, list[str]] = {}
    for unit in state.units_at(province_id):
        by_owner.setdefault(unit.owner, []).append(unit.kind)
    units = "\n".join(
        f"{faction_name(ruleset, f)}: {kind_counts(ruleset, kinds)}"
        for f, kinds in by_owner.items()
    )
    embed.add_field(name="Units", value=units or "none", inline=False)
    notes = province_notes(state, ruleset, province_id)
    if notes:
        embed.add_field(
            name="Of note", value=truncate("\n".join(notes), EMBED_FIELD_VALUE_LIMIT), inline=False
        )
    moving = movement_lines(state, ruleset, state.units_at(province_id))
    if moving:
        embed.add_field(
            name="Moving this turn (R-MOVE-01)",
            value=truncate("\n".join(moving), EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    borders = sorted(game_map.provinces[p].name for p in game_map.land_neighbours(province_id))
    embed.add_field(name="Borders", value=", ".join(borders) or "none (an island)", inline=False)
    rivers = sorted({e.river for e in game_map.river_edges_of(province_id)})
    if rivers:
        embed.add_field(name="Rivers (R-MOVE-11)", value=", ".join(rivers), inline=False)
    seas = sorted(game_map.sea_zones[s].name for s in game_map.seas_of(province_id))
    if seas:
        embed.add_field(name="Coasts", value=", ".join(seas), inline=False)
    near = ships_near_text(state, ruleset, province_id)
    if near:
        embed.add_field(
            name="Ships on its water", value=truncate(near, EMBED_FIELD_VALUE_LIMIT), inline=False
        )
    return fit_embed(embed)


def unit_embed(ruleset: Ruleset, kind: UnitKind, state: GameState | None = None) -> discord.Embed:
    """``/unit``: stats, cost, and each attribute explained in a sentence with its rule ID;
    for a Hero, an Undead or a Summoned unit, how it comes onto the board and what keeps it
    there (with ``state``: its faction's Necromancers or Summoners now)."""
    embed = discord.Embed(
        title=f"{kind.display_name} ({kind.id})", colour=faction_colour(ruleset, kind.faction)
    )
    cost = "none: a Hero is never bought (R-BUY-03)" if kind.cost is None else f"{kind.cost} RP"
    embed.description = (
        f"{faction_name(ruleset, kind.faction)} · {kind.base_type.value} · race "
        f"{kind.race.value.replace('_', ' ') if kind.race else 'none'}\n"
        f"**{kind_stats(kind)}** (attack, defense and move after its attributes, R-GEN-03) · "
        f"cost {cost}"
    )
    lines = []
    for attribute in sorted(kind.attributes, key=lambda a: a.value):
        rule, sentence = ATTRIBUTE_TEXT.get(attribute, ("", ""))
        text = (
            f"**{attribute.value.title()}**: {sentence}"
            if sentence
            else f"**{attribute.value.title()}**"
        )
        lines.append(text + (f" ({rule})." if rule else "."))
    embed.add_field(
        name="Attributes",
        value=truncate("\n".join(lines) or "none", EMBED_FIELD_VALUE_LIMIT),
        inline=False,
    )
    notes = kind_notes(ruleset, kind, state)
    if notes:
        embed.add_field(
            name="On the board",
            value=truncate("\n".join(notes), EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    if kind.description:
        embed.set_footer(text=kind.description)
    return fit_embed(embed)
