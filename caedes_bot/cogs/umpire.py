"""``/umpire``: the umpire's tools (R-PBP-UMP-01, R-PBP-DEAD-03, R-PBP-DEAD-04).

* ``/umpire advance`` gives ``UmpireAdvance`` for the active faction: the oldest pending
  decision is answered with its default, or in step 7 the next due battle is fought, or else
  the current step ends as if the faction had passed.
* ``/umpire set rp``, ``/umpire set commodity``, ``/umpire set owner`` override a faction's
  RP, a stock or a province's owner (:mod:`caedes_bot.rules.umpire`); each is announced (the
  figures only to the faction concerned, R-GEN-07).
* ``/umpire end`` proposes to end the campaign now naming the winners (R-VIC-04): the players
  still in the game vote (:mod:`caedes_bot.cogs.ending`), unless ``early_end_needs_vote`` is
  false.
* ``/umpire pause`` and ``/umpire resume`` (the campaign's umpire only, R-PBP-UMP-05) stop
  and restart the campaign's clock: no orders, deadlines or reminders while paused, and each
  deadline gets back the time it had left (:mod:`caedes_bot.service.pausing`).
* ``/umpire rollback`` takes the campaign back to an earlier point of the current game round,
  picked with autocomplete (:mod:`._exports`, :mod:`caedes_bot.rules.replay`); announced.
* ``/umpire audit`` shows the latest entries of the campaign's audit log.
* ``/umpire set step`` sets the step of the turn under way: a later one with the steps between
  played by their defaults, an earlier one by a rollback to where it began
  (:mod:`caedes_bot.rules.umpire_step`, :mod:`caedes_bot.service.stepping`).
* ``/umpire set unit`` adds, removes or moves units (:mod:`caedes_bot.rules.umpire_units`);
  ``/umpire set option`` changes a campaign option from the next turn start, with notice
  (R-SETUP-04, :mod:`caedes_bot.rules.umpire_game`); ``/umpire turn-limit`` sets the number
  of game rounds (R-VIC-03). Each is announced in ``#announcements``.
* ``/umpire deadline`` moves the open deadlines by some hours, or changes the turn and
  reaction windows from the next turn start (R-PBP-UMP-03, R-PBP-DEAD-01).

Every order given here is written to the audit log by the service, with who gave it and, for
an override, the values before and after (decision 0022).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs import _exports
from caedes_bot.cogs._checks import Need, campaign_context
from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._kind_names import kind_choices, resolve_kind_in
from caedes_bot.cogs._place_names import (
    province_choices,
    resolve_province,
    resolve_space,
    space_choices,
)
from caedes_bot.cogs._play import (
    PlayCog,
    add_play_cog,
    answer,
    choices_for,
    visible_lines,
    where_now,
)
from caedes_bot.cogs._transformers import faction_choices, resolve_faction
from caedes_bot.cogs._umpire_routes import (
    option_name_choices,
    option_value_choices,
    parse_unit_ids,
    unit_id_choices,
)
from caedes_bot.cogs.attack import battle_news
from caedes_bot.domain.records import CampaignStatus, CampaignView
from caedes_bot.gamedata.model import Commodity
from caedes_bot.gamedata.scenario_events import MAX_RP, MAX_STOCK
from caedes_bot.rules import umpire_game, umpire_units
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import UmpireAdvance
from caedes_bot.rules.umpire import SetCommodity, SetOwner, SetRP
from caedes_bot.rules.victory import EndEarly
from caedes_bot.ui import umpire_text
from caedes_bot.ui.audit import audit_lines
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.lines import event_line
from caedes_bot.ui.replies import mark_committed
from caedes_bot.ui.text import MESSAGE_LIMIT, truncate
from caedes_bot.ui.wording import (
    deadline_what,
    deadlines_moved_text,
    not_running,
    status_change_reply,
)

AUDIT_LINES = 15


class UmpireCog(PlayCog):
    """The ``/umpire`` command group."""

    umpire = app_commands.Group(
        name="umpire", description="The umpire's tools: move a stalled game on", guild_only=True
    )
    #: ``/umpire set ...``: the overrides of R-PBP-UMP-01 (decision 0022).
    set_group = app_commands.Group(
        name="set", description="Override the game: RP, stocks, owners", parent=umpire
    )

    @umpire.command(
        name="advance",
        description="Answer the oldest decision by default, or end the current step as a pass",
    )
    async def advance(self, interaction: discord.Interaction) -> None:
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        service = self.bot.service
        ruleset = self.bot.ruleset
        state = await service.get_state(context.campaign.id)
        if state.finished:  # not "start it": a finished campaign takes no order (R-PBP-UMP-05)
            words = not_running(context.campaign.name, CampaignStatus.FINISHED)
            raise UserError(words.message, rule="R-PBP-UMP-05", allowed=words.allowed)
        if state.active is None:
            raise UserError(
                "No faction is playing, so there is nothing to move on.",
                rule="R-PBP-DEAD-03",
                allowed="`/campaign start` if the campaign has not begun",
            )
        result = await service.submit(
            context.campaign.id,
            context.actor,
            UmpireAdvance(state.active),
            interaction_id=str(interaction.id),
        )
        mark_committed(interaction)
        # what it really moved on from: the state under the lock, not the one read before it
        was = result.before or state
        active = was.active or state.active
        lines = [
            f"Moved on for {faction_name(ruleset, active)} (it was at step {was.step.label}); "
            "written to the audit log (R-PBP-UMP-01)."
        ]
        for faction in dict.fromkeys([active, *result.state.in_play]):
            for line in visible_lines(result.events, result.state, ruleset, faction):
                if line not in lines:
                    lines.append(line)
        lines += battle_news(result.events, result.state, ruleset)
        lines.append(where_now(result.state, ruleset, result.state.active or active))
        await answer(interaction, "\n".join(lines))

    async def _override(self, interaction: discord.Interaction, order: Order) -> None:
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        result = await self.bot.service.submit(
            context.campaign.id, context.actor, order, interaction_id=str(interaction.id)
        )
        mark_committed(interaction)
        ruleset = self.bot.ruleset
        lines = ["Done; written to the audit log (R-PBP-UMP-01)."]
        for event in result.events:
            line = event_line(event, result.state, ruleset)
            if line is not None:
                lines.append(line.replace("your ", "its ") if event.audience() else line)
        await answer(interaction, "\n".join(lines))

    async def _faction(self, interaction: discord.Interaction, text: str) -> str:
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        state = await self.bot.service.get_state(context.campaign.id)
        return resolve_faction(self.bot.ruleset, text, state.in_play, rule="R-PBP-UMP-01")

    @set_group.command(name="rp", description="Set a faction's RP (logged and announced)")
    @app_commands.describe(faction="The faction", rp="Its new RP")
    async def rp(
        self,
        interaction: discord.Interaction,
        faction: str,
        rp: app_commands.Range[int, 0, MAX_RP],
    ) -> None:
        code = await self._faction(interaction, faction)
        await self._override(interaction, SetRP("UMPIRE", code, rp))

    @set_group.command(name="commodity", description="Set a faction's stock of a commodity")
    @app_commands.describe(faction="The faction", commodity="The commodity", count="Its new stock")
    @app_commands.choices(
        commodity=[app_commands.Choice(name=c.value.title(), value=c.value) for c in Commodity]
    )
    async def commodity(
        self,
        interaction: discord.Interaction,
        faction: str,
        commodity: str,
        count: app_commands.Range[int, 0, MAX_STOCK],
    ) -> None:
        code = await self._faction(interaction, faction)
        await self._override(interaction, SetCommodity("UMPIRE", code, commodity, count))

    @set_group.command(name="owner", description="Give a province to a faction, or to nobody")
    @app_commands.describe(province="The province", faction="Its new owner; leave empty for none")
    async def owner(
        self, interaction: discord.Interaction, province: str, faction: str | None = None
    ) -> None:
        place = resolve_province(
            self.bot.ruleset,
            province,
            rule="R-PBP-UMP-01",
            at_sea=("R-COLL-03", "sea zones are never owned"),
        )
        code = await self._faction(interaction, faction) if faction else None
        await self._override(interaction, SetOwner("UMPIRE", place, code))

    @rp.autocomplete("faction")
    @commodity.autocomplete("faction")
    @owner.autocomplete("faction")
    async def _factions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: faction_choices(t.ruleset, t.state.in_play, current)
        )

    @set_group.command(name="unit", description="Add, remove or move units (logged and announced)")
    @app_commands.describe(
        action="Add new units, remove units, or move units to a place",
        place="add, move: where the units are put",
        faction="add: whose units they are",
        kind="add: the unit kind",
        count="add: how many (1 to 20)",
        units="remove, move: unit numbers separated by commas, such as #4, #7",
    )
    @app_commands.choices(
        action=[app_commands.Choice(name=a.title(), value=a) for a in umpire_units.ACTIONS]
    )
    async def unit(
        self,
        interaction: discord.Interaction,
        action: str,
        place: str | None = None,
        faction: str | None = None,
        kind: str | None = None,
        count: app_commands.Range[int, 1, umpire_units.MAX_ADD] = 1,
        units: str | None = None,
    ) -> None:
        """R-PBP-UMP-01: the umpire's override of the board."""
        ruleset = self.bot.ruleset
        where = resolve_space(ruleset, place, rule="R-PBP-UMP-01") if place else ""
        if action == "add":
            if not (faction and kind and place):
                raise UserError(
                    "Adding units needs a faction, a kind and a place.",
                    rule="R-PBP-UMP-01",
                    allowed="`/umpire set unit action:Add faction:... kind:... place:...`",
                )
            code = await self._faction(interaction, faction)
            own = [k for k in ruleset.units.values() if k.faction == code]
            # the faction's own kinds first; the umpire may also give it another's
            found = resolve_kind_in(
                ruleset, kind, [own, list(ruleset.units.values())], rule="R-PBP-UMP-01"
            )
            order = umpire_units.SetUnits(
                "UMPIRE", "add", owner=code, kind=found.id, count=count, place=where
            )
        else:
            ids = parse_unit_ids(units)
            if action == "move" and not place:
                raise UserError(
                    "Moving units needs the place to put them in.",
                    rule="R-PBP-UMP-01",
                    allowed="`/umpire set unit action:Move units:#4 place:...`",
                )
            order = umpire_units.SetUnits("UMPIRE", action, place=where, unit_ids=ids)
        await self._override(interaction, order)

    @set_group.command(
        name="option", description="Change a campaign option from the next turn start (announced)"
    )
    @app_commands.describe(name="The option", value="Its new value (autocomplete lists them)")
    async def option(self, interaction: discord.Interaction, name: str, value: str) -> None:
        """R-SETUP-04: with notice; it takes effect at the start of the next turn."""
        await self._override(interaction, umpire_game.SetOption("UMPIRE", name.strip(), value))

    @set_group.command(
        name="step", description="Set the step of the turn under way (announced and logged)"
    )
    @app_commands.describe(
        step="Later: the steps between are played by their defaults; earlier: rolled back to "
        "where it began",
        faction="Whose turn of this game round (default: the turn under way)",
    )
    @app_commands.choices(step=[app_commands.Choice(name=f"{s.label}", value=int(s)) for s in Step])
    async def step(
        self, interaction: discord.Interaction, step: int, faction: str | None = None
    ) -> None:
        """R-PBP-UMP-01: forward by the defaults (``SetStep``), back by a rollback."""
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        service = self.bot.service
        chosen = Step(step)
        code = await self._faction(interaction, faction) if faction else None
        await interaction.response.defer(ephemeral=True, thinking=True)  # back: a replay
        result = await service.set_step(
            context.campaign.id,
            context.actor,
            chosen,
            turn_of=code,
            interaction_id=str(interaction.id),
        )
        mark_committed(interaction)
        text = umpire_text.step_reply(result.before, result.state, result.events, self.bot.ruleset)
        await interaction.followup.send(truncate(text, MESSAGE_LIMIT), ephemeral=True)

    @step.autocomplete("faction")
    async def _step_factions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: faction_choices(t.ruleset, t.state.in_play, current)
        )

    @umpire.command(
        name="deadline",
        description="Extend or shorten the open deadlines, or change the default windows",
    )
    @app_commands.describe(
        hours="Hours to add to the open deadlines; negative to shorten them",
        which="Which open deadlines (default: all)",
        turn_default="New turn window in hours, from the next turn start",
        reaction_default="New reaction window in hours, from the next turn start",
    )
    @app_commands.choices(
        which=[
            app_commands.Choice(name="All open deadlines", value="all"),
            app_commands.Choice(name="The turn under way", value="turn"),
            app_commands.Choice(name="Answers owed by other factions", value="reactions"),
        ]
    )
    async def deadline(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, -240.0, 240.0] | None = None,
        which: str = "all",
        turn_default: app_commands.Range[float, 0.25, 1440.0] | None = None,
        reaction_default: app_commands.Range[float, 0.25, 1440.0] | None = None,
    ) -> None:
        """R-PBP-UMP-03, R-PBP-DEAD-01: the umpire changes deadlines with notice."""
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        if hours is None and turn_default is None and reaction_default is None:
            raise UserError(
                "Nothing to change was given.",
                rule="R-PBP-UMP-03",
                allowed="`hours` to move the open deadlines, or `turn_default` / "
                "`reaction_default` for the windows of later ones",
            )
        if hours == 0:
            raise UserError("0 hours changes nothing.", allowed="a number of hours, not 0")
        service = self.bot.service
        windows = {
            option: value
            for option, value in (
                ("turn_deadline_hours", turn_default),
                ("reaction_deadline_hours", reaction_default),
            )
            if value is not None
        }
        # one transaction: the deadlines moved and the windows changed (decision 0022)
        moved, results = await service.umpire_deadlines(
            context.campaign.id,
            context.actor,
            hours=hours,
            which=which,
            windows=windows,
            interaction_id=str(interaction.id),
        )
        mark_committed(interaction)
        lines: list[str] = []
        if moved:
            state = await service.get_state(context.campaign.id)
            lines.append(
                deadlines_moved_text(
                    context.campaign.name,
                    [(deadline_what(k, state, self.bot.ruleset), b, a) for k, b, a in moved],
                )
            )
        for result in results:
            for event in result.events:
                line = event_line(event, result.state, self.bot.ruleset)
                if line is not None:
                    lines.append(line)
        lines.append("Announced in #announcements and written to the audit log (R-PBP-UMP-01).")
        await answer(interaction, "\n".join(lines))

    @umpire.command(name="turn-limit", description="Set how many game rounds are played")
    @app_commands.describe(rounds="Game rounds to play in all; 0 for no limit")
    async def turn_limit(
        self, interaction: discord.Interaction, rounds: app_commands.Range[int, 0, 1000]
    ) -> None:
        """R-PBP-UMP-03, R-VIC-03: at once, announced; never below the round being played."""
        await self._override(interaction, umpire_game.SetTurnLimit("UMPIRE", rounds or None))

    @unit.autocomplete("faction")
    async def _unit_factions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: faction_choices(t.ruleset, t.state.in_play, current)
        )

    @unit.autocomplete("kind")
    async def _unit_kinds(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        faction = getattr(interaction.namespace, "faction", None)
        return await choices_for(
            interaction, lambda t: kind_choices(t.ruleset, _code(t.state, faction), current)
        )

    @unit.autocomplete("place")
    async def _unit_places(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: space_choices(t.state, t.ruleset, None, current)
        )

    @unit.autocomplete("units")
    async def _unit_ids(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: unit_id_choices(t.state, t.ruleset, current)
        )

    @option.autocomplete("name")
    async def _option_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(interaction, lambda t: option_name_choices(t.state, current))

    @option.autocomplete("value")
    async def _option_values(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        name = str(getattr(interaction.namespace, "name", "") or "")
        return await choices_for(interaction, lambda t: option_value_choices(name, current))

    @owner.autocomplete("province")
    async def _provinces(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: province_choices(t.state, t.ruleset, None, current)
        )

    @umpire.command(
        name="end", description="Propose to end the campaign now, naming the winner (a vote)"
    )
    @app_commands.describe(winners="The winning factions, separated by commas")
    async def end(self, interaction: discord.Interaction, winners: str) -> None:
        """R-VIC-04: put to the players' vote, or at once when ``early_end_needs_vote`` is
        false (or no faction has a player)."""
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        state = await self.bot.service.get_state(context.campaign.id)
        names = [p.strip() for p in winners.replace(";", ",").split(",") if p.strip()]
        codes = tuple(
            dict.fromkeys(
                resolve_faction(self.bot.ruleset, n, state.in_play, rule="R-VIC-04") for n in names
            )
        )
        await self._override(interaction, EndEarly("UMPIRE", codes))

    @umpire.command(
        name="pause", description="Pause the campaign: no orders, deadlines or reminders"
    )
    async def pause(self, interaction: discord.Interaction) -> None:
        """R-PBP-UMP-05: only the campaign's umpire; each deadline keeps its time left."""
        context = await campaign_context(interaction)
        view = await self.bot.service.pause(context.campaign.id, context.actor)
        await self._paused_or_resumed(interaction, view)

    @umpire.command(
        name="resume", description="Resume a paused campaign: deadlines get their time left back"
    )
    async def resume(self, interaction: discord.Interaction) -> None:
        """R-PBP-UMP-05: each deadline gets the time it had left (at least one hour)."""
        context = await campaign_context(interaction)
        view = await self.bot.service.resume(context.campaign.id, context.actor)
        await self._paused_or_resumed(interaction, view)

    async def _paused_or_resumed(
        self, interaction: discord.Interaction, view: CampaignView
    ) -> None:
        mark_committed(interaction)
        state = await self.bot.service.get_state(view.info.id)
        await answer(interaction, status_change_reply(view, state, self.bot.ruleset))

    @umpire.command(
        name="rollback",
        description="Take the campaign back to an earlier point of this game round",
    )
    @app_commands.describe(point="The point to go back to: the state right after that order")
    async def rollback(self, interaction: discord.Interaction, point: str) -> None:
        await _exports.rollback(self.bot.service, self.bot.ruleset, interaction, point)

    @rollback.autocomplete("point")
    async def _points(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _exports.rollback_choices(
            self.bot.service, self.bot.ruleset, interaction, current
        )

    @umpire.command(name="audit", description="The latest entries of the campaign's audit log")
    async def audit(self, interaction: discord.Interaction) -> None:
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
        records = await self.bot.service.audit_log(context.campaign.id)
        lines = audit_lines(records, self.bot.ruleset, last=AUDIT_LINES)
        text = "\n".join(lines) if lines else "The audit log is empty."
        await interaction.response.send_message(truncate(text, MESSAGE_LIMIT), ephemeral=True)


def _code(state: GameState, text: object) -> str | None:
    """The faction code typed so far in another option, if it is one in play."""
    code = str(text or "").strip().upper()
    return code if code in state.in_play else None


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await add_play_cog(bot, UmpireCog)
