"""What every gameplay command and button shares: for which faction a member acts, giving the
order to the service, and the private answer that shows its effect (ux.md "Whose command is
it", "Every order gets an answer that shows its effect").

* :func:`choose_faction` (pure): a member who holds several factions acts for the one whose
  turn it is, or for one that owes a decision, or names the faction; the umpire acts for the
  active faction unless told otherwise (R-PBP-UMP-01, R-PBP-UMP-02).
* :class:`Seat`: the campaign, its state and the faction acted for, with :meth:`Seat.submit`
  and :meth:`Seat.give` (submit, then answer with the effect). The service checks again that
  the member may give the order (R-SETUP-02) and logs the umpire's orders in the audit log.
* :func:`effect_text`: the lines of an accepted order's events that the faction may see
  (R-GEN-07), and where the turn now stands.
* :func:`answer`: every private answer goes through it, so none is over Discord's 2,000
  characters (long text is split at line breaks into follow-ups).
* the shared shapes of the gameplay cogs: :class:`PlayCog` (their base), :func:`add_play_cog`
  (their ``setup``), :func:`open_menu` and :func:`asking` (the turn panel's private menus),
  :func:`choices_for` and :func:`own_choices_for` (their autocompletes).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs._checks import (
    campaign_context,
    directory_of,
    find_campaign,
    is_admin,
    service_of,
)
from caedes_bot.cogs._errors import NotInCampaign, NotPermitted, OtherCampaign, UserError
from caedes_bot.cogs._transformers import Choice, resolve_faction
from caedes_bot.domain.records import CampaignView
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step
from caedes_bot.service import Actor, Expect, RulesService, SubmitResult
from caedes_bot.ui import views
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.lines import event_line
from caedes_bot.ui.replies import Redelivered, answered, first_delivery, mark_committed
from caedes_bot.ui.steps import now_text
from caedes_bot.ui.text import ELLIPSIS, choices, split_message

if TYPE_CHECKING:
    from caedes_bot.app import CaedesBot

log = logging.getLogger(__name__)

__all__ = [
    "Menu",
    "PlayCog",
    "Seat",
    "Table",
    "actable_factions",
    "add_play_cog",
    "answer",
    "asking",
    "choices_for",
    "choose_faction",
    "effect_text",
    "open_menu",
    "own_choices_for",
    "ruleset_of",
    "seat_for_command",
    "seat_for_faction",
    "table_for_autocomplete",
    "turn_expect",
]


class PlayCog(commands.Cog):
    """Base of the gameplay cogs: keeps the bot, and drops an interaction Discord delivers a
    second time before any of its work is done (logged at INFO, never an error)."""

    def __init__(self, bot: CaedesBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every app command of the cog: refuse a second delivery (:class:`Redelivered`,
        answered by nobody: the first delivery answers)."""
        if not first_delivery(interaction):
            raise Redelivered("delivered again")
        return True


async def answer(
    interaction: discord.Interaction,
    text: str,
    rows: Sequence[views.JSON] | None = None,
    *,
    update: bool = False,
) -> None:
    """Answer ``interaction`` privately within Discord's limits: ``text`` is split at line
    breaks into messages of at most 2,000 characters, the first as the answer (with the
    components ``rows``), the others as private follow-ups.

    Args:
        update: edit the message whose control was used instead of answering with a new one
            (its components become ``rows``; none removes them).
    """
    pieces = split_message(text) or [ELLIPSIS]
    try:
        if update:
            view = views.components_view(rows)
            await interaction.response.edit_message(content=pieces[0], view=view)
        else:
            reply = views.reply_view(rows)
            await interaction.response.send_message(pieces[0], view=reply, ephemeral=True)
    finally:
        answered(interaction)  # only now may the outbox start on what the order queued
    for piece in pieces[1:]:
        await interaction.followup.send(piece, ephemeral=True)


def ruleset_of(interaction: discord.Interaction) -> Ruleset:
    """The bot's game data."""
    ruleset = getattr(interaction.client, "ruleset", None)
    if not isinstance(ruleset, Ruleset):
        raise RuntimeError("this client has no ruleset (setup_hook did not run?)")
    return ruleset


def choose_faction(
    ruleset: Ruleset,
    state: GameState,
    players: Mapping[str, int],
    user_id: int,
    *,
    is_umpire: bool,
    named: str | None = None,
) -> str:
    """The faction a member acts for (ux.md "Whose command is it").

    * ``named``: that faction (code, name or adjective; near matches suggested);
    * otherwise, of the member's factions: the active one, else the first that owes a
      decision, else the first in turn order;
    * a member with no faction who is the umpire acts for the active faction.

    Raises:
        UnknownName: ``named`` is no faction in play.
        NotPermitted: the member plays nothing here and is not the umpire, or the umpire named
            nothing while no faction is playing (before the start: saying so, R-PBP-UMP-02).
    """
    if named:
        return resolve_faction(ruleset, named, state.in_play)
    mine = [code for code in state.in_play if players.get(code) == user_id]
    if state.active in mine:
        assert state.active is not None
        return state.active
    owing = [d.faction for d in state.pending if d.faction in mine]
    if owing:
        return owing[0]
    if mine:
        return mine[0]
    if is_umpire:
        if state.active is None and not state.finished:  # naming a faction would not help
            raise NotPermitted(
                "No faction is playing yet: the campaign has not begun.",
                allowed="`/campaign start` once the players have their factions",
            )
        if state.active is None:
            raise NotPermitted(
                "No faction is playing now.", allowed="name the faction with the faction option"
            )
        return state.active
    raise NotPermitted(
        "You play no faction in this campaign.",
        rule="R-SETUP-02",
        allowed="ask the umpire for one (`/campaign assign`)",
    )


@dataclass
class Seat:
    """A member at the table: the campaign, its current state, and the faction acted for.

    Attributes:
        interaction: the command or click. service: the rules service. ruleset: game data.
        campaign: the campaign's row and players. state: its current state (read-only).
        faction: the faction acted for. user_id: the member.
        is_umpire: the member is the campaign's umpire. is_admin: has Manage Server.
    """

    interaction: discord.Interaction
    service: RulesService
    ruleset: Ruleset
    campaign: CampaignView
    state: GameState
    faction: str
    user_id: int
    is_umpire: bool
    is_admin: bool

    @property
    def campaign_id(self) -> int:
        return self.campaign.info.id

    @property
    def actor(self) -> Actor:
        return Actor(user_id=self.user_id, is_admin=self.is_admin)

    @property
    def plays(self) -> bool:
        """The member is the faction's player."""
        return self.campaign.players.get(self.faction) == self.user_id

    @property
    def for_umpire(self) -> bool:
        """The umpire acts for a faction that is not theirs (logged, R-PBP-UMP-01)."""
        return not self.plays and self.is_umpire

    def require_own(self) -> None:
        """Refuse unless the member plays the faction or is the umpire (private information
        and controls, R-GEN-07).

        Raises:
            NotPermitted: neither.
        """
        if self.plays or self.is_umpire:
            return
        mine = sorted(f for f, u in self.campaign.players.items() if u == self.user_id)
        raise NotPermitted(
            f"You do not play {faction_name(self.ruleset, self.faction)}.",
            rule="R-SETUP-02",
            allowed=f"act for {', '.join(mine)}" if mine else "ask the umpire for a faction",
        )

    async def submit(self, order: Order, *, expect: Expect | None = None) -> SubmitResult:
        """Give ``order`` through the service, once per interaction (a repeated click returns
        the first result). ``expect`` is what the member saw (step, turn or decision); the
        service checks it under the campaign's lock, so a double click has one effect.

        Raises:
            RuleViolation: the rules refuse the order; StaleOrder: ``expect`` no longer holds.
        """
        result = await self.service.submit(
            self.campaign_id,
            self.actor,
            order,
            interaction_id=str(self.interaction.id),
            expect=expect,
        )
        mark_committed(self.interaction)
        self.state = result.state
        return result

    async def give(
        self,
        order: Order,
        *,
        expect: Expect | None = None,
        headline: str | None = None,
        news: Callable[[SubmitResult], Sequence[str]] | None = None,
        then: Menu | None = None,
        update: bool = False,
    ) -> SubmitResult:
        """Give ``order`` (:meth:`submit`) and answer privately with its effect
        (:func:`effect_text`, after ``headline``), the lines ``news`` makes of the result, and
        ``then``: the question and menu offered next, made from the new state (a menu offered
        again after an order given from it).

        Args:
            update: edit the message whose control was used instead of answering anew.

        Raises:
            RuleViolation: as :meth:`submit`.
        """
        result = await self.submit(order, expect=expect)
        text = "\n".join([effect_text(self, result, headline=headline), *(news or _none)(result)])
        rows = None
        if then is not None:
            question, rows = then(self)
            if question:
                text += "\n\n" + question
        await answer(self.interaction, text, rows, update=update)
        return result

    def check(self, expect: Expect) -> None:
        """Refuse at once a control that is already stale (a menu is not opened for a step that
        is over); the service checks again under the lock when an order is given.

        Raises:
            StaleOrder: the game has moved on from ``expect``.
        """
        expect.check(self.state, self.ruleset)

    async def reload(self) -> GameState:
        """The campaign's state as it is now (after any order given meanwhile)."""
        self.state = await self.service.get_state(self.campaign_id)
        return self.state


#: A private menu: the question to ask (``""``: none) and the components (Discord JSON rows).
Menu = Callable[[Seat], tuple[str, list[views.JSON]]]


def asking(rows_of: Callable[[Seat], list[views.JSON]], question: str, otherwise: str) -> Menu:
    """A :data:`Menu` of the rows ``rows_of`` makes: ``question`` over them, or ``otherwise``
    when there are none."""

    def menu(seat: Seat) -> tuple[str, list[views.JSON]]:
        rows = rows_of(seat)
        return (question if rows else otherwise), rows

    return menu


def _none(result: SubmitResult) -> Sequence[str]:
    return ()


async def open_menu(seat: Seat, step: Step | None, menu: Menu) -> None:
    """Answer a turn panel's button with its private menu: only for the faction's player or the
    umpire (R-GEN-07), and only while the turn is at ``step`` (if given).

    Raises:
        NotPermitted: another member. StaleOrder: the turn is not at ``step``.
    """
    seat.require_own()
    if step is not None:
        seat.check(turn_expect(seat.faction, seat.state.round, step))
    text, rows = menu(seat)
    await answer(seat.interaction, text, rows)


async def seat_for_command(interaction: discord.Interaction, named: str | None) -> Seat:
    """The seat of a slash command used in a campaign's channel or thread.

    Raises:
        NotInCampaign: the channel belongs to no campaign.
        UnknownName / NotPermitted: see :func:`choose_faction`.
    """
    context = await campaign_context(interaction)
    service = service_of(interaction)
    ruleset = ruleset_of(interaction)
    state = await service.get_state(context.campaign.id)
    view = await service.get_view(context.campaign.id)
    faction = choose_faction(
        ruleset,
        state,
        context.players,
        interaction.user.id,
        is_umpire=context.is_umpire,
        named=named,
    )
    return Seat(
        interaction,
        service,
        ruleset,
        view,
        state,
        faction,
        interaction.user.id,
        context.is_umpire,
        context.is_admin,
    )


async def seat_for_faction(
    interaction: discord.Interaction, campaign_id: int, faction: str
) -> Seat:
    """The seat behind a button or select of campaign ``campaign_id`` acting for ``faction``:
    the state is reloaded from the service on every click (design.md section 5).

    Raises:
        NotInCampaign: the campaign is not of this server.
        NotPermitted: ``faction`` is not in play in the campaign.
    """
    service = service_of(interaction)
    view = await service.get_view(campaign_id)
    if view.info.guild_id != interaction.guild_id:
        raise NotInCampaign()
    directory_of(interaction)  # keeps the channel directory warm for later commands
    state = await service.get_state(campaign_id)
    if faction not in state.in_play:
        log.info("a control of campaign %s named %r, not in play there", campaign_id, faction)
        raise NotPermitted(
            f"{faction_name(ruleset_of(interaction), faction)} is not in play in this "
            "campaign; nothing was done.",
            rule="R-SETUP-02",
            allowed="the controls of a faction in play, or /help",
        )
    user_id = interaction.user.id
    return Seat(
        interaction,
        service,
        ruleset_of(interaction),
        view,
        state,
        faction,
        user_id,
        view.info.umpire_user_id == user_id,
        is_admin(interaction),
    )


def visible_lines(
    events: Sequence[Event], state: GameState, ruleset: Ruleset, faction: str
) -> list[str]:
    """The lines of ``events`` that ``faction`` may see (R-GEN-07)."""
    lines = []
    for event in events:
        audience = event.audience()
        if audience is not None and faction not in audience:
            continue
        line = event_line(event, state, ruleset)
        if line is not None:
            lines.append(line)
    return lines


def where_now(state: GameState, ruleset: Ruleset, faction: str) -> str:
    """Where the turn stands, for the end of an answer."""
    if state.finished:
        return "The campaign is over."
    if state.active is None:
        return "No faction is playing."
    if state.active != faction:
        return f"Now playing: {faction_name(ruleset, state.active)} (step {state.step.label})."
    return f"Now: {now_text(state.step)}"


def effect_text(seat: Seat, result: SubmitResult, *, headline: str | None = None) -> str:
    """The private answer to an accepted order: ``headline``, the lines of its events the
    faction may see, and where the turn stands; noted when the umpire acted for a faction
    (logged, R-PBP-UMP-01) or when the same click came twice."""
    lines: list[str] = []
    if result.duplicate:
        lines.append("Already done (this was a repeated click); nothing changed again.")
    if seat.for_umpire:
        lines.append(
            f"*As umpire, for {faction_name(seat.ruleset, seat.faction)}: logged (R-PBP-UMP-01).*"
        )
    if headline:
        lines.append(headline)
    lines += visible_lines(result.events, result.state, seat.ruleset, seat.faction)
    step_changed = any(type(e).__name__ == "StepBegan" for e in result.events)
    if step_changed or not lines:
        lines.append(where_now(result.state, seat.ruleset, seat.faction))
    return "\n".join(lines)


def turn_expect(faction: str, round_no: int | str, step: Step, *, via: str = "choice") -> Expect:
    """What a control of ``faction``'s turn in game round ``round_no`` at ``step`` expects."""
    return Expect(round=int(round_no), faction=faction, step=step, via=via)


def actable_factions(state: GameState, campaign: CampaignView, user_id: int) -> list[str]:
    """The factions in play a member may act for, in turn order: every one for the campaign's
    umpire (R-PBP-UMP-01), else those the member plays (R-SETUP-02)."""
    if campaign.info.umpire_user_id == user_id:
        return list(state.in_play)
    return [c for c in state.in_play if campaign.players.get(c) == user_id]


@dataclass(frozen=True, slots=True)
class Table:
    """What an autocomplete needs: the campaign, its state and the faction the member would
    act for (``None`` if none can be told)."""

    campaign: CampaignView
    state: GameState
    faction: str | None
    ruleset: Ruleset


async def choices_for(
    interaction: discord.Interaction, make: Callable[[Table], Iterable[Choice]]
) -> list[app_commands.Choice[str]]:
    """An autocomplete's choices: ``make(table)`` in a campaign, nothing elsewhere."""
    table = await table_for_autocomplete(interaction)
    return [] if table is None else choices(make(table))


async def own_choices_for(
    interaction: discord.Interaction,
    make: Callable[[Table, str], Iterable[Choice]],
    *,
    acting: str = "faction",
) -> list[app_commands.Choice[str]]:
    """An autocomplete's choices for the faction the member acts for: ``make(table, faction)``;
    nothing outside a campaign or when that faction cannot be told. ``acting`` is the option
    that names the faction acted for (``as_faction`` where ``faction`` means another one)."""
    table = await table_for_autocomplete(interaction, acting=acting)
    if table is None or table.faction is None:
        return []
    return choices(make(table, table.faction))


async def add_play_cog(
    bot: commands.Bot,
    cog: Callable[[CaedesBot], PlayCog],
    components: Mapping[str, views.Handler] | None = None,
) -> None:
    """An extension's ``setup``: add ``cog`` and register its buttons' and selects' handlers by
    the first part of their object (:func:`caedes_bot.ui.views.register`).

    Raises:
        TypeError: ``bot`` is not a :class:`~caedes_bot.app.CaedesBot`.
    """
    from caedes_bot.app import CaedesBot

    if not isinstance(bot, CaedesBot):
        raise TypeError(f"{getattr(cog, '__name__', 'this cog')} needs a CaedesBot")
    await bot.add_cog(cog(bot))
    for kind, handler in (components or {}).items():
        views.register(bot, kind, own_campaign_only(handler))


def own_campaign_only(handler: views.Handler) -> views.Handler:
    """``handler``, run only when the control's campaign is the one its message belongs to
    (the campaign of the channel or thread clicked in): a control naming another campaign, or
    clicked outside any, is refused with :class:`OtherCampaign` (logged at INFO) and does
    nothing."""

    async def guarded(interaction: discord.Interaction, ref: views.ComponentRef) -> None:
        view = await find_campaign(interaction)
        if view is None or view.info.id != ref.campaign_id:
            log.info(
                "a control of campaign %s was clicked in channel %s of campaign %s; refused",
                ref.campaign_id,
                interaction.channel_id,
                None if view is None else view.info.id,
            )
            raise OtherCampaign()
        await handler(interaction, ref)

    guarded.__qualname__ = getattr(handler, "__qualname__", "handler")
    return guarded


async def table_for_autocomplete(
    interaction: discord.Interaction, *, acting: str = "faction"
) -> Table | None:
    """The :class:`Table` of an autocomplete, or ``None`` outside a campaign; the faction acted
    for is named by the option ``acting``, if typed. Never raises for the member's mistakes:
    an autocomplete only offers, the command checks."""
    view = await find_campaign(interaction)
    if view is None:
        return None
    service = service_of(interaction)
    ruleset = ruleset_of(interaction)
    state = await service.get_state(view.info.id)
    named = getattr(interaction.namespace, acting, None)
    try:
        faction: str | None = choose_faction(
            ruleset,
            state,
            view.players,
            interaction.user.id,
            is_umpire=view.info.umpire_user_id == interaction.user.id,
            named=named if isinstance(named, str) and named else None,
        )
    except (UserError, RuleViolation):
        faction = None
    return Table(view, state, faction, ruleset)
