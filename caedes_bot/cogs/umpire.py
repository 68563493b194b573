"""``/umpire``: the umpire's tools (R-PBP-UMP-01, R-PBP-DEAD-03, R-PBP-DEAD-04).

* ``/umpire advance`` gives ``UmpireAdvance`` for the active faction: the oldest pending
  decision is answered with its default, or in step 7 the next due battle is fought, or else
  the current step ends as if the faction had passed.
* ``/umpire set rp``, ``/umpire set commodity``, ``/umpire set owner`` override a faction's
  RP, a stock or a province's owner (:mod:`caedes_bot.rules.umpire`); each is announced (the
  figures only to the faction concerned, R-GEN-07).
* ``/umpire pause`` and ``/umpire resume`` (the campaign's umpire only, R-PBP-UMP-05) stop
  and restart the campaign's clock: no orders, deadlines or reminders while paused, and each
  deadline gets back the time it had left (:mod:`caedes_bot.service.pausing`).
* ``/umpire rollback`` takes the campaign back to an earlier point of the current game round,
  picked with autocomplete (:mod:`._exports`, :mod:`caedes_bot.rules.replay`); announced.
* ``/umpire audit`` shows the latest entries of the campaign's audit log.

Every order given here is written to the audit log by the service, with who gave it.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.cogs import _exports
from caedes_bot.cogs._checks import Need, campaign_context
from caedes_bot.cogs._errors import UserError
from caedes_bot.cogs._play import (
    PlayCog,
    add_play_cog,
    answer,
    choices_for,
    visible_lines,
    where_now,
)
from caedes_bot.cogs._transformers import (
    faction_choices,
    province_choices,
    resolve_faction,
    resolve_province,
)
from caedes_bot.cogs.attack import battle_news
from caedes_bot.domain.records import CampaignView
from caedes_bot.gamedata.model import Commodity
from caedes_bot.rules.orders import Order
from caedes_bot.rules.turn import UmpireAdvance
from caedes_bot.rules.umpire import SetCommodity, SetOwner, SetRP
from caedes_bot.ui.audit import audit_lines
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.lines import event_line
from caedes_bot.ui.replies import mark_committed
from caedes_bot.ui.text import MESSAGE_LIMIT, truncate
from caedes_bot.ui.wording import status_change_reply

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
        rp: app_commands.Range[int, 0, 100_000],
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
        count: app_commands.Range[int, 0, 1000],
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

    @owner.autocomplete("province")
    async def _provinces(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await choices_for(
            interaction, lambda t: province_choices(t.state, t.ruleset, None, current)
        )

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


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await add_play_cog(bot, UmpireCog)
