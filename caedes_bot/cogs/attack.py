"""Step 7, Combat: ``/attack`` (or the turn panel's "Fight…" select) and the battle message's
controls (R-COMBAT-01..13, R-COMBAT-16).

The attacker picks the order of its battles (R-COMBAT-02). Each battle has one message in
``#battles`` (made and edited by :mod:`caedes_bot.ui.announcer`); while a decision is owed it
carries the attacker's **Press on** / **Withdraw** buttons (R-COMBAT-08), for each side hit
a casualty select with a **Use default** button (R-COMBAT-06), and the controls of the special
actions' decisions (declarations, Illusionist rerolls, enchanted units:
:mod:`caedes_bot.ui.battle_magic`), and the Mercenary choice (R-ATTR-MERC-01,
:mod:`caedes_bot.ui.mercenaries`), which a turn start also posts in the orders thread. The
controls name the pending decision (``caedes:<campaign>:dec.<id>:<action>``), so a click that
comes after the decision was made changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._checks import service_of
from caedes_bot.cogs._place_names import battle_choices, resolve_province
from caedes_bot.cogs._play import (
    PlayCog,
    Seat,
    add_play_cog,
    answer,
    choices_for,
    ruleset_of,
    seat_for_command,
    seat_for_faction,
)
from caedes_bot.cogs.info import FACTION_HELP, faction_autocomplete
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.events import BattleEnded, BattleRoundEnded
from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle, PressOn, Withdraw
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement.amphibian import ComeAshore
from caedes_bot.rules.movement.blitz import BlitzOn, BlitzStop
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    BlitzDetail,
    CasualtiesDetail,
    ComeAshoreDetail,
    GameState,
    PendingDecision,
)
from caedes_bot.service import Expect, StaleOrder, SubmitResult
from caedes_bot.ui import battle_magic, mercenaries, views
from caedes_bot.ui.battle_embeds import RESULT_TEXT, casualty_assignment
from caedes_bot.ui.describe import faction_name, kind_counts, space_name

#: The rule each battle control answers, for refusals of a stale click.
RULE_OF_ACTION = {
    "press": "R-COMBAT-08",
    "withdraw": "R-COMBAT-08",
    "seaward": "R-ATTR-AMPH-03",
    "blitz": "R-ATTR-BLITZ-02",
    "stop": "R-ATTR-BLITZ-02",
    "ashore": "R-ATTR-AMPH-02",
    "home": "R-ATTR-AMPH-02",
    "declare": "R-COMBAT-12",
    "confirm": "R-COMBAT-12",
    "illusion": "R-MAGIC-ILL-01",
    "reroll": "R-MAGIC-ILL-01",
    "keep": "R-MAGIC-ILL-01",
    "enchant": "R-MAGIC-ENCH-01",
    "merc": "R-ATTR-MERC-01",
    "mercdefault": "R-ATTR-MERC-01",
}


def battle_news(events: Sequence[Event], state: GameState, ruleset: Ruleset) -> list[str]:
    """Short lines on how the battles of an order went: rounds fought and the result."""
    lines = []
    for event in events:
        if isinstance(event, BattleRoundEnded):
            lines.append(f"Round {event.round} at {space_name(ruleset, event.space)} is over.")
        elif isinstance(event, BattleEnded):
            owner = faction_name(ruleset, event.owner) if event.owner else "nobody"
            lines.append(
                f"The battle at {space_name(ruleset, event.space)} is over: "
                f"{RESULT_TEXT[event.result]}; it is held by {owner}."
            )
    if state.battle is not None:
        waiting = [d for d in state.pending if d.battle_id == state.battle.id]
        if waiting:
            who = ", ".join(faction_name(ruleset, d.faction) for d in waiting)
            lines.append(f"Waiting for {who} on the battle message in #battles.")
    return lines


def news_of(ruleset: Ruleset) -> Callable[[SubmitResult], list[str]]:
    """:func:`battle_news` of an order's result."""
    return lambda result: battle_news(result.events, result.state, ruleset)


async def fight(seat: Seat, space: str, expect: Expect | None = None) -> None:
    """Begin the battle in ``space`` (R-COMBAT-02) and answer privately; ``expect``: the turn
    panel's step, when chosen there."""
    head = f"The battle at {space_name(seat.ruleset, space)} has begun: every die is shown in #battles."
    await seat.give(
        FightBattle(seat.faction, space), expect=expect, headline=head, news=news_of(seat.ruleset)
    )


async def on_decision(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """A click on a battle message: Press on, Withdraw, a casualty choice or its default."""
    decision_id = int(ref.parts[1])
    ruleset = ruleset_of(interaction)
    state = await service_of(interaction).get_state(ref.campaign_id)
    expect = Expect(
        decision_id=decision_id,
        via="button"
        if ref.action
        in ("press", "withdraw", "default", "mercdefault", "keep", "confirm", "stop", "home")
        else "choice",
        rule=RULE_OF_ACTION.get(ref.action, "R-COMBAT-06"),
    )
    expect.check(state, ruleset)
    decision = next(d for d in state.pending if d.id == decision_id)
    seat = await seat_for_faction(interaction, ref.campaign_id, decision.faction)
    after = _after_battle_order(decision, ref.action, ref.values, ruleset)
    if after is not None:
        order_after, head_after = after
        await seat.give(order_after, expect=expect, headline=head_after, news=news_of(ruleset))
        return
    merc = mercenaries.order_for(decision, ref.action, ref.values, ruleset)
    if merc is not None:  # R-ATTR-MERC-01, at a round start or a turn start
        merc_order, head_merc = merc
        await seat.give(merc_order, expect=expect, headline=head_merc, news=news_of(ruleset))
        return
    magic = battle_magic.order_for(decision, ref.action, ref.parts, ref.values)
    if magic is not None:
        magic_order, headline = magic
        await seat.give(magic_order, expect=expect, headline=headline, news=news_of(ruleset))
        return
    if ref.action == "press":
        order: PressOn | Withdraw | AssignCasualties = PressOn(decision.faction)
        head = "You press on (R-COMBAT-08)."
    elif ref.action == "withdraw":
        order = Withdraw(decision.faction)
        head = "You withdraw (R-COMBAT-08)."
    elif ref.action == "seaward":
        order = Withdraw(decision.faction, by_sea=ref.values[0])
        where = space_name(ruleset, ref.values[0])
        head = f"You withdraw; your Amphibian units retreat by sea to {where} (R-ATTR-AMPH-03)."
    else:
        # a casualty choice; on a decision of another kind nothing is chosen and the rules refuse
        detail = decision.detail if isinstance(decision.detail, CasualtiesDetail) else None
        ids: tuple[int, ...] = ()
        kinds: dict[int, str] = {}
        if detail is not None:
            ids = (
                detail.default
                if ref.action == "default"
                else casualty_assignment(detail, ref.values)
            )
            kinds = {item.id: item.kind for item in detail.units}
        order = AssignCasualties(decision.faction, ids)
        chosen = kind_counts(ruleset, [kinds.get(u, "?") for u in ids])
        head = f"Casualties chosen: {chosen} (R-COMBAT-06)."
    await seat.give(order, expect=expect, headline=head, news=news_of(ruleset))


def _after_battle_order(
    decision: PendingDecision, action: str, values: Sequence[str], ruleset: Ruleset
) -> tuple[Order, str] | None:
    """The order of a click on a won battle's message: blitz on or stop (R-ATTR-BLITZ-02), go
    ashore or back (R-ATTR-AMPH-02); ``None`` for other controls. The order names the decision,
    so the rules refuse it if another is pending by then."""
    detail = decision.detail
    faction = decision.faction
    if isinstance(detail, BlitzDetail) and action == "blitz":
        where = space_name(ruleset, values[0])
        order: Order = BlitzOn(faction, detail.units, values[0], decision=decision.id)
        return order, f"Your blitz units move on to {where} (R-ATTR-BLITZ-02)."
    if isinstance(detail, BlitzDetail) and action == "stop":
        return BlitzStop(faction, decision=decision.id), "Your blitz stops (R-ATTR-BLITZ-02)."
    if isinstance(detail, ComeAshoreDetail) and action in ("ashore", "home"):
        place = values[0] if action == "ashore" else None
        where = space_name(ruleset, place) if place else "where they came from"
        return (
            ComeAshore(faction, place, decision=decision.id),
            f"Your Amphibian units go ashore: {where} (R-ATTR-AMPH-02).",
        )
    return None


async def on_change(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
    """**Change declarations** on a battle message (``chg.<battle>.<faction>``) and the picks
    of its private menu: only the faction's player (or the umpire) may use them; a pick is a
    change from the next round start (R-COMBAT-12).

    Raises:
        NotPermitted: another member. StaleOrder: that battle is over, or the faction has
            nothing to declare in it.
    """
    battle_id, faction = int(ref.parts[1]), ref.parts[2]
    seat = await seat_for_faction(interaction, ref.campaign_id, faction)
    seat.require_own()
    state = seat.state
    menu = battle_magic.change_menu(ref.campaign_id, seat.ruleset, state, faction)
    if state.battle is None or state.battle.id != battle_id or menu is None:
        raise StaleOrder(
            "That battle is over, or there is nothing to declare in it; nothing was changed.",
            rule="R-COMBAT-12",
            allowed="the controls of the battle under way",
        )
    if ref.action == "open":
        text, rows = menu
        await answer(interaction, text, rows)
        return
    order, head = battle_magic.change_order(faction, ref.action, ref.parts, ref.values)
    await seat.give(order, headline=head, news=news_of(seat.ruleset))


class AttackCog(PlayCog):
    """``/attack``."""

    @app_commands.command(name="attack", description="Fight your next battle, in step 7")
    @app_commands.describe(
        province="Where to fight: one of the battles you must fight this step",
        faction=FACTION_HELP,
    )
    @app_commands.autocomplete(faction=faction_autocomplete)
    @app_commands.guild_only()
    async def attack(
        self, interaction: discord.Interaction, province: str, faction: str | None = None
    ) -> None:
        seat = await seat_for_command(interaction, faction)
        space = resolve_province(seat.ruleset, province, rule="R-COMBAT-01")
        await fight(seat, space)

    @attack.autocomplete("province")
    async def _battles(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction,
            lambda t: (
                battle_choices(t.state, t.ruleset, current) if t.faction == t.state.active else []
            ),
        )


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the cog and the battle message's controls."""
    await add_play_cog(bot, AttackCog, {"dec": on_decision, "chg": on_change})
