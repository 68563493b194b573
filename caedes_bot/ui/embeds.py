"""The bot's embeds: the turn panel, the battle message, status, provinces, units, help (ux.md).

Each function is a pure function of the ruleset, a game state and plain values: it returns a
:class:`discord.Embed` (pure data; the announcer stores ``embed.to_dict()`` in outbox rows) and,
where the message carries controls, their Discord JSON (:mod:`caedes_bot.ui.views`). Nothing
here decides a rule: values, legal choices and defaults come from :mod:`caedes_bot.rules`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord

from caedes_bot.gamedata.model import Attribute, BaseType, Ruleset, UnitKind, movement_allowance
from caedes_bot.rules import movement, upkeep, upkeep_marks
from caedes_bot.rules.combat import arithmetic, sides
from caedes_bot.rules.combat.arithmetic import (
    BattleResult,
    CasualtyGroup,
    casualty_groups,
    spread_hits,
)
from caedes_bot.rules.combat.events import AttackerWithdrew, BattleEnded
from caedes_bot.rules.movement import amphibian, blitz
from caedes_bot.rules.state import (
    BattleNote,
    BattleStepRecord,
    BlitzDetail,
    CasualtiesDetail,
    CasualtyCandidate,
    ComeAshoreDetail,
    DeclarationsDetail,
    DiePurpose,
    Enchantment,
    GameState,
    PendingDecision,
    PressOrWithdrawDetail,
    Side,
    StandingOrder,
    Step,
    SummonsDetail,
    Unit,
    UpkeepDisbandDetail,
)
from caedes_bot.rules.undo import can_undo
from caedes_bot.ui import battle_magic, views, wording
from caedes_bot.ui.describe import (
    ATTRIBUTE_TEXT,
    commodities_text,
    faction_name,
    kind_counts,
    kind_name,
    kind_stats,
    space_name,
    unit_label,
)
from caedes_bot.ui.fleet import ships_near_text, ships_text
from caedes_bot.ui.odds import OPENING_PENDING, opening_text
from caedes_bot.ui.steps import FIGHT_OPTION, FIGHT_PLACEHOLDER, MARKS_MENU, STEPS, step_line
from caedes_bot.ui.summoning import (
    board_notes,
    kind_notes,
    province_notes,
    summons_components,
    summons_decision_text,
)
from caedes_bot.ui.talks import NEGOTIATE_HERE_ONLY, UMPIRE_ENFORCES
from caedes_bot.ui.text import (
    EMBED_DESCRIPTION_LIMIT,
    EMBED_FIELD_VALUE_LIMIT,
    fit_embed,
    truncate,
)

JSON = dict[str, Any]

#: Characters of round detail kept on a battle message before earlier rounds are folded.
BATTLE_DETAIL_BUDGET = 3500


def timestamp(when: datetime | None) -> str:
    """``<t:UNIX:R>`` (each member sees it in local time), or ``"none"``."""
    if when is None:
        return "none"
    return f"<t:{int(when.timestamp())}:R>"


def _colour(ruleset: Ruleset, faction: str | None) -> discord.Colour | None:
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
#: The battle message's select of a retreat by sea (R-ATTR-AMPH-03).
SEAWARD_PLACEHOLDER = "Withdraw; Amphibians retreat by sea to…"
#: A won battle's message once what it led to (a blitz, a landing) is answered.
AFTER_BATTLE_ANSWERED = (
    "After this battle nothing more is asked: the blitz or the landing is settled."
)

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
    embed = discord.Embed(title=title, colour=_colour(ruleset, faction))
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


# --------------------------------------------------------------------------- status, help


def status_embed(state: GameState, ruleset: Ruleset, faction: str) -> discord.Embed:
    """``/status``: the faction's treasury, upkeep due, units, purchases and what it owes
    (private to the faction and the umpire, R-GEN-07)."""
    fs = state.factions[faction]
    embed = discord.Embed(
        title=f"{faction_name(ruleset, faction)} · status", colour=_colour(ruleset, faction)
    )
    now = "not started" if state.active is None else f"game round {state.round}"
    if state.active is not None:
        now += f", {faction_name(ruleset, state.active)} at step {state.step.label}"
    if state.finished:
        now = "the campaign is over"
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
    embed = discord.Embed(title=province.name, colour=_colour(ruleset, owner))
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
        title=f"{kind.display_name} ({kind.id})", colour=_colour(ruleset, kind.faction)
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


# --------------------------------------------------------------------------- battles


@dataclass
class BattleHistory:
    """Everything a battle message shows, gathered by the announcer from the state and the
    events (R-COMBAT-16, R-GEN-08).

    Attributes:
        id, space, attacker, defenders: as in :class:`~caedes_bot.rules.state.Battle`.
        records: every missile and melee step so far, with every die.
        attacker_units / defender_units: units still fighting on each side.
        kinds / owners: unit id -> kind id / faction, for every unit seen in the battle.
        withdrawals: the attacker's withdrawals. ended: the end, if it has ended.
        round: the current round.
        notes: changes of declarations and of sides (R-COMBAT-12, R-MAGIC-ENCH-01, -03).
        standing / illusion_rules / enchanted: as in the battle (R-COMBAT-12,
            R-MAGIC-ILL-01, R-MAGIC-ENCH-01).
    """

    id: int
    space: str
    attacker: str
    defenders: tuple[str, ...]
    records: list[BattleStepRecord] = field(default_factory=list)
    attacker_units: list[int] = field(default_factory=list)
    defender_units: list[int] = field(default_factory=list)
    kinds: dict[int, str] = field(default_factory=dict)
    owners: dict[int, str] = field(default_factory=dict)
    withdrawals: list[AttackerWithdrew] = field(default_factory=list)
    ended: BattleEnded | None = None
    round: int = 1
    #: the odds it began with (option ``battle_message_odds``): figures, method, unsupported
    opening: tuple[tuple[float, ...], str, tuple[str, ...]] = ((), "", ())
    #: the option ``battle_message_odds`` asked for its odds, not known yet
    opening_pending: bool = False
    notes: list[BattleNote] = field(default_factory=list)
    standing: list[StandingOrder] = field(default_factory=list)
    illusion_rules: dict[str, int] = field(default_factory=dict)
    enchanted: list[Enchantment] = field(default_factory=list)


def _unit_name(ruleset: Ruleset, history: BattleHistory, uid: int) -> str:
    kind = history.kinds.get(uid)
    return f"{kind_name(ruleset, kind)} #{uid}" if kind else f"unit #{uid}"


def _dice_text(
    ruleset: Ruleset, history: BattleHistory, record: BattleStepRecord, side: Side
) -> str:
    dice = [d for d in record.dice if d.side is side]
    if not dice:
        return "no dice"
    if all(d.purpose is DiePurpose.NORMAL and d.counts for d in dice):
        parts = []
        for d in dice:
            face = f"**{d.value}**" if d.hit else str(d.value)
            parts.append(f"{_unit_name(ruleset, history, d.unit)}: {face} vs {d.target}")
        return " · ".join(parts)
    names = {d.unit: _unit_name(ruleset, history, d.unit) for d in dice}
    return battle_magic.dice_line(dice, names, record.dice)


def _names(ruleset: Ruleset, history: BattleHistory, ids: Iterable[int]) -> dict[int, str]:
    return {u: _unit_name(ruleset, history, u) for u in ids}


def _step_text(ruleset: Ruleset, history: BattleHistory, record: BattleStepRecord) -> str:
    lines = [f"__Round {record.round}, {record.step.value} step__"]
    lines.append(f"Attacker: {_dice_text(ruleset, history, record, Side.ATTACKER)}")
    lines.append(f"Defender: {_dice_text(ruleset, history, record, Side.DEFENDER)}")
    result = f"Hits: {record.hits_on_defender} on the defender, {record.hits_on_attacker} on the attacker."
    if record.destroyed:
        result += (
            " Lost: " + ", ".join(_unit_name(ruleset, history, u) for u in record.destroyed) + "."
        )
    if record.wounded:
        result += (
            " Wounded: " + ", ".join(_unit_name(ruleset, history, u) for u in record.wounded) + "."
        )
    if record.absorbed:
        result += (
            " Hit cancelled by (R-MAGIC-ABJ-01): "
            + ", ".join(_unit_name(ruleset, history, u) for u in record.absorbed)
            + "."
        )
    lines.append(result)
    return "\n".join(lines)


def _notes_text(ruleset: Ruleset, history: BattleHistory, round_no: int) -> list[str]:
    out = []
    for note in history.notes:
        if note.round == round_no:
            ids = (*note.units, *note.enchanters)
            out.append(battle_magic.note_text(ruleset, note, _names(ruleset, history, ids)))
    return out


def _fold(records: Sequence[BattleStepRecord]) -> str:
    rounds = sorted({r.round for r in records})
    on_attacker = sum(r.hits_on_attacker for r in records)
    on_defender = sum(r.hits_on_defender for r in records)
    lost = sum(len(r.destroyed) for r in records)
    span = f"Round {rounds[0]}" if len(rounds) == 1 else f"Rounds {rounds[0]}–{rounds[-1]}"
    return (
        f"*{span}: {on_defender} hits on the defender, {on_attacker} on the attacker; "
        f"{lost} units lost.*"
    )


def battle_detail(
    ruleset: Ruleset, history: BattleHistory, budget: int = BATTLE_DETAIL_BUDGET
) -> str:
    """Every step of the battle with every die (R-GEN-08); the oldest rounds fold into one
    summary line when the text would pass ``budget`` characters (ux.md "The battle message")."""
    rounds = sorted({r.round for r in history.records} | {n.round for n in history.notes})
    blocks = {
        n: "\n".join(
            [
                *_notes_text(ruleset, history, n),
                *(_step_text(ruleset, history, r) for r in history.records if r.round == n),
            ]
        )
        for n in rounds
    }
    kept: list[int] = []
    used = 0
    for n in reversed(rounds):
        size = len(blocks[n]) + 2
        if kept and used + size > budget:
            break
        kept.insert(0, n)
        used += size
    text = "\n\n".join(blocks[n] for n in kept)
    folded = [r for r in history.records if r.round not in kept]
    if folded:
        text = _fold(folded) + "\n\n" + text
    return truncate(text, budget + 200) if text else "The first round is about to be fought."


def _side_units(state: GameState, ruleset: Ruleset, history: BattleHistory, side: Side) -> str:
    ids = history.attacker_units if side is Side.ATTACKER else history.defender_units
    if not ids:
        return "none left"
    fighters = []
    for uid in ids:
        if str(uid) in state.units:  # read only: no copy (decision 0012)
            unit = state.peek_unit(uid)
            fighters.append(sides.fighter_of(state, ruleset, unit, side, history.space))
    ctx = arithmetic.step_context(fighters, history.round, state.options)
    groups: Counter[tuple[str, int | None, bool, str | None]] = Counter()
    for f in fighters:
        terrain = f.terrain.value if f.terrain is not None else None
        groups[(f.kind.id, arithmetic.die_target(f, ctx), f.wounded, terrain)] += 1
    parts = []
    for (kind_id, target, wounded, terrain), n in groups.items():
        value = "never rolls" if target is None else f"hits on {target} or less"
        extra = ", wounded" if wounded else ""
        where = f", on {terrain}" if terrain else ""
        parts.append(f"{n} {kind_name(ruleset, kind_id)} ({value}{where}{extra})")
    return "\n".join(parts) or "none left"


RESULT_TEXT: Mapping[BattleResult, str] = {
    BattleResult.ATTACKER_WON: "the attacker won",
    BattleResult.DEFENDER_HELD: "the defender held",
    BattleResult.BOTH_DESTROYED: "both sides were destroyed",
    BattleResult.WITHDRAWN: "the attacker withdrew",
    BattleResult.STALEMATE: "stalemate (R-COMBAT-13)",
}


def battle_message(
    campaign_id: int,
    state: GameState,
    ruleset: Ruleset,
    history: BattleHistory,
    *,
    deadlines: Mapping[int, datetime | None] | None = None,
) -> tuple[discord.Embed, list[JSON]]:
    """The one message of a battle in #battles (ux.md "The battle message", R-COMBAT-16): the
    province and the terrain each side uses, each side's units with their values, every die
    with the unit that rolled it and its target (hits in bold), casualties and wounds, and,
    while a decision is owed, its controls and deadline; at the end the result, the owner and
    the survivors.

    Args:
        deadlines: decision id -> deadline, for the decisions owed.

    Returns:
        The embed and the component rows (empty once the battle has ended).
    """
    province = ruleset.map.provinces.get(history.space)
    terrain = f" ({', '.join(t.value for t in province.terrains)})" if province else ""
    title = f"⚔️ Battle at {space_name(ruleset, history.space)}{terrain}"
    embed = discord.Embed(title=title, colour=_colour(ruleset, history.attacker))
    detail = battle_detail(ruleset, history)
    if history.opening[0]:
        detail = f"{opening_text(ruleset, history.attacker, *history.opening)}\n{detail}"
    elif history.opening_pending:
        detail = f"{OPENING_PENDING}\n{detail}"
    embed.description = truncate(detail, EMBED_DESCRIPTION_LIMIT)
    defenders = ", ".join(faction_name(ruleset, d) for d in history.defenders)
    embed.add_field(
        name=f"Attacker: {faction_name(ruleset, history.attacker)}",
        value=truncate(
            _side_units(state, ruleset, history, Side.ATTACKER), EMBED_FIELD_VALUE_LIMIT
        ),
        inline=True,
    )
    embed.add_field(
        name=f"Defender: {defenders}",
        value=truncate(
            _side_units(state, ruleset, history, Side.DEFENDER), EMBED_FIELD_VALUE_LIMIT
        ),
        inline=True,
    )
    standing = _standing_text(ruleset, history)
    if standing:
        embed.add_field(
            name="Standing declarations (R-COMBAT-12)",
            value=truncate(standing, EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    if history.enchanted and history.ended is None:
        taken = ", ".join(
            f"{_unit_name(ruleset, history, e.unit)} fights for {faction_name(ruleset, e.faction)}"
            f" (enchanted by {_unit_name(ruleset, history, e.enchanter)})"
            for e in history.enchanted
        )
        embed.add_field(
            name="Enchanted (R-MAGIC-ENCH-01)",
            value=truncate(taken, EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    for withdrawal in history.withdrawals:
        back = ", ".join(
            f"{_unit_name(ruleset, history, u)} to {space_name(ruleset, d)}"
            for u, d in zip(withdrawal.unit_ids, withdrawal.destinations, strict=False)
        )
        embed.add_field(
            name="Withdrawn (R-COMBAT-08)",
            value=truncate(back, EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    rows: list[JSON] = []
    if history.ended is not None:
        after = [d for d in state.pending if after_battle_of(d) == history.id]
        if after:
            embed.add_field(
                name="Waiting for",
                value="\n".join(
                    f"{faction_name(ruleset, d.faction)}: {decision_text(ruleset, d)}"
                    for d in after
                ),
                inline=False,
            )
            rows = views.layout(after_battle_components(campaign_id, state, ruleset, history.id))
        ended = history.ended
        owner = faction_name(ruleset, ended.owner) if ended.owner else "nobody"
        survivors = (
            f"attacker: {kind_counts(ruleset, [history.kinds.get(u, '?') for u in ended.attacker_survivors])}; "
            f"defender: {kind_counts(ruleset, [history.kinds.get(u, '?') for u in ended.defender_survivors])}"
        )
        text = f"**{RESULT_TEXT[ended.result].capitalize()}.** {space_name(ruleset, ended.space)} is held by {owner}.\nSurvivors: {survivors}."
        if ended.destroyed_at_end:
            lost = ", ".join(_unit_name(ruleset, history, u) for u in ended.destroyed_at_end)
            text += f"\nLost at the end of the battle (R-ATTR-FORTI-02): {lost}."
        embed.add_field(
            name="Result (R-COMBAT-11)", value=truncate(text, EMBED_FIELD_VALUE_LIMIT), inline=False
        )
    else:
        owed = [d for d in state.pending if d.battle_id == history.id]
        lines = []
        items: list[JSON] = []
        for decision in owed:
            due = (deadlines or {}).get(decision.id)
            picks = (
                battle_magic.picks_text(ruleset, decision.detail)
                if isinstance(decision.detail, DeclarationsDetail)
                else None
            )
            lines.append(
                f"{faction_name(ruleset, decision.faction)}: {decision_text(ruleset, decision)}"
                + (f", by {timestamp(due)}" if due else "")
                + (f"; {picks}, then Confirm" if picks else "")
            )
            items += decision_components(campaign_id, ruleset, decision, state)
        items += battle_magic.change_buttons(campaign_id, ruleset, state, history.id)
        if lines:
            embed.add_field(
                name="Waiting for",
                value=truncate("\n".join(lines), EMBED_FIELD_VALUE_LIMIT),
                inline=False,
            )
        rows = views.layout(items)
    embed.set_footer(text=f"Battle {history.id} · round {history.round}")
    return fit_embed(embed), rows


def after_battle_of(decision: PendingDecision) -> int | None:
    """The battle a decision asked after it ended belongs to: a blitz (R-ATTR-BLITZ-02) or
    Amphibian units going ashore (R-ATTR-AMPH-02); ``None`` for any other."""
    detail = decision.detail
    if isinstance(detail, BlitzDetail | ComeAshoreDetail):
        return detail.after_battle
    return None


def after_battle_components(
    campaign_id: int, state: GameState, ruleset: Ruleset, battle_id: int
) -> list[JSON]:
    """The controls a battle message keeps after battle ``battle_id`` ended, while a decision
    it led to is pending: **Blitz on to…** and **Stop the blitz** (R-ATTR-BLITZ-02), or
    **Go ashore at…** and **Back where they came from** (R-ATTR-AMPH-02). Each names its
    decision (``dec.<id>``), so a click after it was answered, or on an earlier blitz's
    controls after a second battle, changes nothing."""
    items: list[JSON] = []
    for decision in state.pending:
        if after_battle_of(decision) != battle_id:
            continue
        obj: list[object] = ["dec", decision.id]
        if isinstance(decision.detail, ComeAshoreDetail):
            items += ashore_components(campaign_id, ruleset, obj, decision)
            continue
        reach = blitz.blitz_destinations(state, ruleset, decision.faction)
        options = [
            views.option(space_name(ruleset, s) + (" - starts a battle" if attack else ""), s)
            for s, attack in sorted(reach.items(), key=lambda kv: space_name(ruleset, kv[0]))
        ][:25]
        if options:
            items.append(
                views.select(
                    views.custom_id(campaign_id, obj, "blitz"),
                    options,
                    placeholder=BLITZ_PLACEHOLDER,
                )
            )
        items.append(
            views.button(views.custom_id(campaign_id, obj, "stop"), BLITZ_STOP, style="secondary")
        )
    return items


def _standing_text(ruleset: Ruleset, history: BattleHistory) -> str:
    factions = list(
        dict.fromkeys([*(o.faction for o in history.standing), *history.illusion_rules])
    )
    lines = []
    for code in factions:
        orders = [o for o in history.standing if o.faction == code]
        text = battle_magic.orders_text(ruleset, orders, history.illusion_rules.get(code))
        lines.append(f"{faction_name(ruleset, code)}: {text}")
    return "\n".join(lines)


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


def decision_components(
    campaign_id: int,
    ruleset: Ruleset,
    decision: PendingDecision,
    state: GameState | None = None,
) -> list[JSON]:
    """The controls of one battle decision: Press on / Withdraw (R-COMBAT-08) and, given the
    ``state``, a select of the provinces its Amphibian units may retreat to by sea
    (R-ATTR-AMPH-03); or the casualty select with a "Use default" button (R-COMBAT-06)."""
    obj = ["dec", decision.id]
    detail = decision.detail
    if isinstance(detail, PressOrWithdrawDetail):
        items = [
            views.button(
                views.custom_id(campaign_id, obj, "press"), "Press on", style="primary", emoji="⚔️"
            ),
            views.button(
                views.custom_id(campaign_id, obj, "withdraw"), "Withdraw", style="danger", emoji="🏳️"
            ),
        ]
        retreats = (
            amphibian.sea_retreats(
                state, ruleset, detail.space, decision.faction, detail.can_withdraw
            )
            if state is not None
            else {}
        )
        if retreats:
            options = [
                views.option(f"{space_name(ruleset, p)} (across {space_name(ruleset, sea)})", p)
                for p, sea in retreats.items()
            ][:25]
            items.append(
                views.select(
                    views.custom_id(campaign_id, obj, "seaward"),
                    options,
                    placeholder=SEAWARD_PLACEHOLDER,
                )
            )
        return items
    if isinstance(detail, CasualtiesDetail):
        hits = detail.hits
        options = casualty_options(ruleset, detail)
        who = faction_name(ruleset, detail.faction)
        default = casualty_default_text(ruleset, detail)
        return [
            views.select(
                views.custom_id(campaign_id, obj, "pick"),
                options,
                placeholder=f"{who}: choose {hits} casualt{'y' if hits == 1 else 'ies'}",
                min_values=min(hits, len(options)),
                max_values=min(hits, len(options)),
            ),
            views.button(
                views.custom_id(campaign_id, obj, "default"),
                f"Use default: {default}",
            ),
        ]
    if isinstance(detail, SummonsDetail):
        return summons_components(campaign_id, ruleset, decision)
    return battle_magic.components(campaign_id, ruleset, decision)


def casualty_default_text(ruleset: Ruleset, detail: CasualtiesDetail) -> str:
    """The default casualties of a decision (R-COMBAT-06), e.g. ``"2 Orc Troopers"``."""
    kinds = {u.id: u.kind for u in detail.units}
    return kind_counts(ruleset, [kinds.get(u, "?") for u in dict.fromkeys(detail.default)])


def casualty_options(ruleset: Ruleset, detail: CasualtiesDetail) -> list[JSON]:
    """The options of a casualty select (R-COMBAT-06, R-ATTR-FORTI-01; ux.md "Casualties with
    many units").

    With room for every hit a unit can take, one option per hit: ``u<id>`` for a unit and
    ``u<id>b`` for a Fortitude unit's second hit. Otherwise by unit kind and wound: ``g<n>:<k>``
    is the k-th hit on group n (units of one kind and wound state), as many as the hits owed.
    The default is preselected.
    """
    units = detail.units
    hits = detail.hits
    default_ids = Counter(detail.default)
    slots = sum(u.max_hits for u in units)
    out: list[JSON] = []
    if slots <= 25:
        for u in sorted(units, key=lambda u: u.id):
            uid = u.id
            name = f"{kind_name(ruleset, u.kind)} #{uid}"
            # a unit that can take two hits without Fortitude is an Abjurer with its cancel
            shield = u.max_hits >= 2 and not _has_fortitude(ruleset, u.kind)
            first = "destroyed" if u.max_hits == 1 else "wounded"
            out.append(
                views.option(
                    name + (" (wounded)" if u.wounded else ""),
                    f"u{uid}",
                    description="hit cancelled (Abjurer, R-MAGIC-ABJ-01)" if shield else first,
                    default=default_ids[uid] >= 1,
                )
            )
            if u.max_hits >= 2:
                second = "R-MAGIC-ABJ-01" if shield else "Fortitude, R-ATTR-FORTI-01"
                out.append(
                    views.option(
                        f"{name}: second hit",
                        f"u{uid}b",
                        description=f"destroyed ({second})",
                        default=default_ids[uid] >= 2,
                    )
                )
        return out
    for index, group in enumerate(_groups(units)):
        ids = group.unit_ids
        room = sum(u.max_hits for u in units if u.id in ids)
        chosen = sum(default_ids[i] for i in ids)
        hurt = " (wounded)" if group.wounded else ""
        for k in range(1, min(hits, room) + 1):
            label = f"{len(ids)} {kind_name(ruleset, group.kind)}{hurt}: hit {k}"
            out.append(views.option(label, f"g{index}:{k}", default=k <= chosen))
    return out[:25]


def _has_fortitude(ruleset: Ruleset, kind_id: str) -> bool:
    try:
        return ruleset.kind(kind_id).has(Attribute.FORTITUDE)
    except KeyError:
        return False


def _groups(units: Sequence[CasualtyCandidate]) -> list[CasualtyGroup]:
    """The rules' groups of like units (:func:`caedes_bot.rules.combat.arithmetic.casualty_groups`)."""
    return casualty_groups((u.id, u.kind, u.wounded) for u in units)


def casualty_assignment(detail: CasualtiesDetail, values: Sequence[str]) -> tuple[int, ...]:
    """The unit ids (one per hit, R-COMBAT-06) chosen with :func:`casualty_options` values.

    A group's hits spread over its units as the rules say
    (:func:`caedes_bot.rules.combat.arithmetic.spread_hits`: in turn, each taking as many as it
    can, a Fortitude unit two, before the next). Unknown values are ignored; the rules check
    the result.
    """
    units = detail.units
    capacity = {u.id: u.max_hits for u in units}
    chosen: list[int] = []
    per_group: Counter[int] = Counter()
    for value in values:
        if value.startswith("u"):
            digits = value[1:].rstrip("b")
            if digits.isdigit() and int(digits) in capacity:
                chosen.append(int(digits))
        elif value.startswith("g") and ":" in value:
            head = value[1:].split(":", 1)[0]
            if head.isdigit():
                per_group[int(head)] += 1
    groups = _groups(units)
    for index, count in sorted(per_group.items()):
        if index < len(groups):
            chosen += spread_hits([(uid, capacity[uid]) for uid in groups[index].unit_ids], count)
    return tuple(chosen)
