"""The bodies of ``/campaign export``, ``/campaign import`` and ``/umpire rollback``
(decision 0023), kept here so that the command trees in :mod:`.campaign` and :mod:`.umpire`
stay short.

* export (umpire or admin): the campaign as a gzipped JSON file, sent privately as the
  interaction's follow-up (the interaction is deferred first); refused if it is larger than
  Discord takes here (``Interaction.filesize_limit``). The dice seed is in it only once the
  campaign is finished.
* import (admin): a new campaign from such a file (:meth:`RulesService.import_campaign`).
* rollback (umpire or admin): back to a point of the current game round, picked from
  :meth:`RulesService.rollback_points` with autocomplete.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands

from caedes_bot.cogs._checks import Need, campaign_context, require_admin
from caedes_bot.cogs._errors import UserError
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.replay import RollBack, RolledBack
from caedes_bot.service import MAX_IMPORT_BYTES, ExportTooLarge, RollbackPoint, RulesService
from caedes_bot.ui.export_text import (
    export_reply,
    import_reply,
    point_label,
    rollback_reply,
)
from caedes_bot.ui.replies import mark_committed
from caedes_bot.ui.text import CHOICES_LIMIT, truncate

#: Discord's JSON error code for a request over the upload limit ("Request entity too large",
#: HTTP 413).
REQUEST_TOO_LARGE = 40005


async def export_campaign(service: RulesService, interaction: discord.Interaction) -> None:
    """``/campaign export``: see the module docstring."""
    context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
    await interaction.response.defer(ephemeral=True, thinking=True)
    limit = interaction.filesize_limit
    name, data = await service.export_campaign(
        context.campaign.id, by=interaction.user.id, limit=limit
    )
    info = await service.get_campaign(context.campaign.id)
    try:
        await interaction.followup.send(
            export_reply(info, len(data)),
            file=discord.File(io.BytesIO(data), filename=name),
            ephemeral=True,
        )
    except discord.HTTPException as err:
        if err.code != REQUEST_TOO_LARGE:
            raise
        # Discord took less than the interaction said: say so instead of failing silently
        raise ExportTooLarge(len(data), None) from err


async def import_campaign(
    service: RulesService,
    ruleset: Ruleset,
    interaction: discord.Interaction,
    file: discord.Attachment,
    name: str,
) -> None:
    """``/campaign import``: see the module docstring."""
    require_admin(interaction)
    assert interaction.guild_id is not None  # guild_only
    if file.size > MAX_IMPORT_BYTES:
        raise UserError(
            f"{file.filename} is {file.size:,} bytes; an export is at most {MAX_IMPORT_BYTES:,}.",
            allowed="a .json.gz file made by `/campaign export`",
        )
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await file.read()
    info, export = await service.import_campaign(
        interaction.guild_id, name, data, interaction.user.id
    )
    state = await service.get_state(info.id)
    await interaction.followup.send(
        import_reply(info, export.name, len(export.orders), state, ruleset), ephemeral=True
    )


async def rollback_choices(
    service: RulesService, ruleset: Ruleset, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The points of the current game round, newest first, that match what is typed."""
    try:
        context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
    except UserError:
        return []
    points = await service.rollback_points(context.campaign.id)
    typed = current.strip().lower()
    out: list[app_commands.Choice[str]] = []
    for point in reversed(points):
        label = point_label(point, ruleset)
        if typed and typed not in label.lower():
            continue
        out.append(app_commands.Choice(name=truncate(label, 100), value=str(point.seq)))
        if len(out) == CHOICES_LIMIT:
            break
    return out


def _point(points: list[RollbackPoint], value: str) -> RollbackPoint | None:
    digits = value.strip().lstrip("#").split(" ")[0]
    return next((p for p in points if digits.isdigit() and p.seq == int(digits)), None)


async def rollback(
    service: RulesService, ruleset: Ruleset, interaction: discord.Interaction, point: str
) -> None:
    """``/umpire rollback``: see the module docstring."""
    context = await campaign_context(interaction, need=Need.UMPIRE_OR_ADMIN)
    points = await service.rollback_points(context.campaign.id)
    chosen = _point(points, point)
    if chosen is None:
        raise UserError(
            f"{point!r} is not an earlier point of the current game round.",
            rule="R-PBP-UMP-01",
            allowed="one of the points the option offers as you type"
            if points
            else "nothing yet: no order of this game round can be gone back to",
        )
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await service.submit(
        context.campaign.id,
        context.actor,
        RollBack(faction="UMPIRE", to_seq=chosen.seq),
        interaction_id=str(interaction.id),
    )
    mark_committed(interaction)
    done = next(e for e in result.events if isinstance(e, RolledBack))
    await interaction.followup.send(rollback_reply(done, chosen, ruleset), ephemeral=True)
