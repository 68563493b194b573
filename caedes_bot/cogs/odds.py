"""``/odds`` and the turn panel's "Odds" button: the chances of a battle before it is fought
(issue 13, decision 0020).

``/odds`` takes one of three shapes:

* ``province`` alone: the battle there as it stands (one due in step 7, one under way from its
  next round, or the faction's units already there against the others);
* ``province`` and ``from``: the faction's units at ``from`` (all, or those ``units`` names,
  like ``3 Knights, 2 Yeomen``) sent into ``province``, with its units already there;
* ``attackers`` and ``defenders`` listed by hand (``8 Yeomen, 6 Knights``), on ``terrain``
  or the terrain of ``province``, or none.

The interaction is deferred first; the odds are worked out on the bot's odds worker thread
(:class:`caedes_bot.service.odds.OddsWorker`, cached by battle) and the answer is a private
follow-up within Discord's limits. Bad input is refused with what was wrong and what is
allowed, and changes nothing.
"""

from __future__ import annotations

from collections import Counter

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._kind_names import resolve_kind, resolve_kind_in
from caedes_bot.cogs._place_names import province_choices, resolve_province, resolve_space
from caedes_bot.cogs._play import (
    PlayCog,
    Seat,
    add_play_cog,
    choices_for,
    own_choices_for,
    seat_for_command,
)
from caedes_bot.cogs._transformers import Choice, counted, parse_count
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.gamedata.model import Ruleset, Terrain, UnitKind
from caedes_bot.rules.errors import RuleViolation, UnknownName
from caedes_bot.rules.odds import Odds
from caedes_bot.rules.odds.fought import needs_fighting
from caedes_bot.rules.odds.planned import (
    BattleSetup,
    battle_now,
    battles_ahead,
    can_attack_with,
    listed_battle,
    planned_attack,
    planned_board,
)
from caedes_bot.rules.state import GameState
from caedes_bot.service.odds import OddsWorker
from caedes_bot.ui import odds as words
from caedes_bot.ui.replies import answered
from caedes_bot.ui.text import split_message

#: Most battles the turn panel's button answers for at once.
MAX_PANEL_BATTLES = 5


def worker_of(interaction: discord.Interaction) -> OddsWorker:
    """The bot's odds worker.

    Raises:
        RuntimeError: the client has none (setup_hook did not run).
    """
    worker = getattr(interaction.client, "odds", None)
    if not isinstance(worker, OddsWorker):
        raise RuntimeError("this client has no odds worker (setup_hook did not run?)")
    return worker


def refuse(reason: str, *args: object) -> UserError:
    """The refusal of ``/odds`` for ``reason`` (worded in :mod:`caedes_bot.ui.odds`)."""
    message, allowed = words.refusal(reason, *args)
    return UserError(message, allowed=allowed)


def listed_kinds(
    ruleset: Ruleset, text: str, *, pool: list[UnitKind] | None = None
) -> list[UnitKind]:
    """The units a count list names, one entry per unit (``"8 Yeomen, 2 Knights"``).

    Raises:
        RuleViolation / UnknownName / AmbiguousName: a count out of range or a name unknown.
    """
    out: list[UnitKind] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        digits, name = counted(part)
        if not name:
            raise refuse("count_alone", part)
        count = parse_count(digits, part, rule="R-COMBAT-01") if digits else 1
        kind = (
            resolve_kind_in(ruleset, name, [pool], rule="R-COMBAT-01")
            if pool is not None
            else resolve_kind(ruleset, name, rule="R-COMBAT-01")
        )
        out.extend([kind] * count)
    if not out:
        raise refuse("no_units", text)
    return out


def chosen_units(seat: Seat, origin: str, text: str | None) -> list[int]:
    """The faction's units at ``origin`` that ``text`` names (all that can attack if none)."""
    state, ruleset = seat.state, seat.ruleset
    mine = sorted(
        (u for u in state.peek_units() if u.owner == seat.faction and u.location == origin),
        key=lambda u: (u.kind, -u.muster_seq, u.id),
    )
    able = [u for u in mine if can_attack_with(ruleset, ruleset.kind(u.kind))]
    if not able:
        raise refuse("none_at", ruleset.map.space_name(origin))
    if not text:
        return [u.id for u in able]
    pool = list({u.kind: ruleset.kind(u.kind) for u in able}.values())
    try:
        wanted = listed_kinds(ruleset, text, pool=pool)
    except UnknownName as unknown:
        # A unit of the game that is not there: say how many of it are there (none), rather
        # than that no such unit exists.
        try:
            wanted = listed_kinds(ruleset, text)
        except RuleViolation:
            raise unknown from None
    picked: list[int] = []
    for kind in dict.fromkeys(wanted):
        need = wanted.count(kind)
        have = [u.id for u in able if u.kind == kind.id]
        if need > len(have):
            there = Counter(ruleset.kind(u.kind).name for u in able)
            raise refuse(
                "too_many",
                f"{need} {kind.name}",
                ruleset.map.space_name(origin),
                len(have),
                ", ".join(f"{n} {name}" for name, n in there.items()),
            )
        picked += have[:need]
    return picked


def setup_for(
    seat: Seat,
    province: str | None,
    origin: str | None,
    units: str | None,
    attackers: str | None,
    defenders: str | None,
    terrain: str | None,
) -> tuple[BattleSetup, GameState | None]:
    """The battle ``/odds`` asks about (see the module docstring), and the board it can be
    fought on (the state, or a copy with the planned move made; ``None`` for units listed by
    hand).

    Raises:
        UserError, RuleViolation: the options do not name a battle; says what is allowed.
    """
    state, ruleset = seat.state, seat.ruleset
    # A sea zone too: the odds of a naval battle there (R-COMBAT-14).
    space = resolve_space(ruleset, province, rule="R-COMBAT-01") if province else None
    if attackers or defenders:
        if not (attackers and defenders) or origin or units:
            raise refuse("by_hand")
        ground = terrain_named(terrain)
        try:
            return listed_battle(
                ruleset,
                state.options,
                listed_kinds(ruleset, attackers),
                listed_kinds(ruleset, defenders),
                terrain=ground,
                space=space,
                owner=state.owner(space) if space else None,
            ), None
        except ValueError as err:
            raise refuse("listed", str(err)) from None
    if terrain:
        raise refuse("terrain_alone")
    if space is None:
        raise refuse("nothing")
    name = ruleset.map.space_name(space)
    if origin:
        if space not in ruleset.map.provinces:  # land units go into provinces (R-MOVE-09)
            raise refuse("sea_planned", name)
        start = resolve_province(ruleset, origin, rule="R-MOVE-01")
        sent = chosen_units(seat, start, units)
        try:
            planned = planned_attack(state, ruleset, seat.faction, space, start, sent)
            return planned, planned_board(state, seat.faction, space, start, sent)
        except ValueError:
            raise refuse("nobody_there", name) from None
    if units:
        raise refuse("units_alone")
    try:
        return battle_now(state, ruleset, space, seat.faction), state
    except ValueError:
        raise refuse("no_battle", name) from None


def terrain_named(text: str | None) -> Terrain | None:
    """The terrain ``text`` names, if any.

    Raises:
        UserError: no such terrain; says which there are.
    """
    if not text:
        return None
    try:
        return Terrain(text.strip().lower())
    except ValueError:
        raise refuse("terrain", text) from None


async def work_out(
    interaction: discord.Interaction,
    seat: Seat,
    setup: BattleSetup,
    board: GameState | None,
) -> Odds:
    """The odds of ``setup`` from the bot's odds worker: fought on ``board`` by the real
    battle path when it holds an Enchanter or an Illusionist (and there is a board)."""
    worker = worker_of(interaction)
    if board is not None and setup.space is not None and needs_fighting(setup.fighters):
        try:
            return await worker.fought(
                setup.fighters, board, seat.ruleset, setup.space, setup.attacker
            )
        except ValueError:
            pass  # not to be fought by defaults there: the enumeration answers, saying so
    return await worker.odds(setup.fighters, seat.state.options, **setup.odds_arguments())


async def follow_up(interaction: discord.Interaction, text: str) -> None:
    """The private answer to a deferred interaction, split within Discord's limits."""
    try:
        for piece in split_message(text):
            await interaction.followup.send(piece, ephemeral=True)
    finally:
        answered(interaction)


def battle_title(ruleset: Ruleset, setup: BattleSetup) -> str:
    attackers = sum(1 for f in setup.fighters if f.side.value == "attacker")
    defenders = len(setup.fighters) - attackers
    where = ruleset.map.space_name(setup.space) if setup.space else "a battle listed by hand"
    return words.title(ruleset, setup.attacker, attackers, defenders, where, setup.start_round)


async def odds_panel(seat: Seat) -> None:
    """The turn panel's "Odds" button (steps 6 and 7): the odds of each battle the faction is
    about to fight, up to :data:`MAX_PANEL_BATTLES`."""
    interaction = seat.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    seat.require_own()
    ahead = battles_ahead(seat.state, seat.ruleset, seat.faction)
    if not ahead:
        await follow_up(interaction, words.NO_BATTLE_AHEAD)
        return
    texts = []
    for space in ahead[:MAX_PANEL_BATTLES]:
        try:
            setup = battle_now(seat.state, seat.ruleset, space, seat.faction)
        except ValueError:
            continue
        odds = await work_out(interaction, seat, setup, seat.state)
        texts.append(
            words.odds_text(
                seat.ruleset,
                odds,
                title=battle_title(seat.ruleset, setup),
                attacker=setup.attacker,
                defenders=setup.defender_order,
                stalemate_rounds=seat.state.options.stalemate_rounds,
            )
        )
    if len(ahead) > MAX_PANEL_BATTLES:
        texts.append(words.more_battles(len(ahead) - MAX_PANEL_BATTLES))
    await follow_up(interaction, "\n\n".join(texts) or words.NO_BATTLE_AHEAD)


class OddsCog(PlayCog):
    """``/odds``."""

    @app_commands.command(name="odds", description="The chances of a battle before you fight it")
    @app_commands.rename(origin="from")
    @app_commands.describe(
        province="Where the battle is or would be",
        origin="Send your units from this place into the province",
        units="With from: which of your units there (default: all), like 3 Knights, 2 Yeomen",
        attackers="Units listed by hand for the attacker, like 8 Yeomen, 6 Knights",
        defenders="Units listed by hand for the defender, like 12 Orc Troopers",
        terrain="Terrain for units listed by hand (default: the province's)",
        faction=FACTION_HELP,
    )
    @app_commands.choices(
        terrain=[app_commands.Choice(name=t.value, value=t.value) for t in Terrain]
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def odds(
        self,
        interaction: discord.Interaction,
        province: str | None = None,
        origin: str | None = None,
        units: str | None = None,
        attackers: str | None = None,
        defenders: str | None = None,
        terrain: str | None = None,
        faction: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        seat = await seat_for_command(interaction, faction)
        setup, board = setup_for(seat, province, origin, units, attackers, defenders, terrain)
        odds = await work_out(interaction, seat, setup, board)
        text = words.odds_text(
            seat.ruleset,
            odds,
            title=battle_title(seat.ruleset, setup),
            attacker=setup.attacker,
            defenders=setup.defender_order,
            stalemate_rounds=seat.state.options.stalemate_rounds,
        )
        await follow_up(interaction, text)

    @odds.autocomplete("province")
    async def _provinces(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: battle_provinces(t.state, t.ruleset, t.faction, current)
        )

    @odds.autocomplete("origin")
    async def _origins(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await own_choices_for(
            interaction, lambda t, faction: own_places(t.state, t.ruleset, faction, current)
        )


def battle_provinces(
    state: GameState, ruleset: Ruleset, faction: str | None, current: str
) -> list[Choice]:
    """Provinces holding units of a faction other than ``faction``: the battles ahead first."""
    ahead = battles_ahead(state, ruleset, faction) if faction else []
    held = {u.location for u in state.peek_units() if u.owner != faction}
    notes = {s: "battle ahead" for s in ahead}
    found = province_choices(state, ruleset, faction, current, held | set(ahead), notes=notes)
    found.sort(key=lambda c: c[1] not in ahead)
    return found


def own_places(state: GameState, ruleset: Ruleset, faction: str, current: str) -> list[Choice]:
    """Provinces where ``faction`` has units that could attack, with how many."""
    counts: dict[str, int] = {}
    for unit in state.peek_units():
        if unit.owner == faction and can_attack_with(ruleset, ruleset.kind(unit.kind)):
            counts[unit.location] = counts.get(unit.location, 0) + 1
    notes = {p: f"{n} units" for p, n in counts.items()}
    return province_choices(state, ruleset, faction, current, counts, notes=notes)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await add_play_cog(bot, OddsCog)
