"""The one error handler of the command tree (design.md sections 3 and 5, ux.md), and the
refusals the cogs and their checks raise.

Cogs have no ``try/except`` for refusals. Any :class:`~caedes_bot.rules.errors.Refusal` (a
``RuleViolation`` from the rules, a refusal of the service, a :class:`UserError` from a cog or
a check), or a failed check reaches :func:`handle_app_command_error`, which answers through
:func:`caedes_bot.ui.replies.report_error`: privately, with what was wrong, the rule ID and what
is allowed instead; a bug gets an apology. The bot's buttons and selects get the same answers.
"""

from __future__ import annotations

import discord
from discord import app_commands

from caedes_bot.rules.errors import Refusal
from caedes_bot.ui.replies import report_error


class UserError(Refusal, app_commands.AppCommandError):
    """A mistake the member can put right (wrong place, missing role, bad input), found by a
    cog or a check. It is a :class:`~caedes_bot.rules.errors.Refusal` (message, optional rule,
    what is allowed) and an ``AppCommandError``, so that discord.py passes it from a check or a
    transformer to the tree's error handler unwrapped.
    """


class NotInCampaign(UserError):
    """The command must be used in a campaign's category, channel or thread."""

    def __init__(self) -> None:
        super().__init__(
            "This channel is not part of a campaign.",
            allowed="use the command in a channel or thread of the campaign's category",
        )


class OtherCampaign(UserError):
    """A button or select names a campaign other than the one its message belongs to (or its
    message belongs to none); nothing is done."""

    def __init__(self) -> None:
        super().__init__(
            "This control belongs to another campaign than the one of this channel; nothing "
            "was done.",
            allowed="the controls posted in this campaign's channels and threads, or /help",
        )


class NotPermitted(UserError):
    """The member lacks the role the command needs (admin, umpire)."""


async def handle_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """The command tree's ``on_error``: see the module docstring."""
    await report_error(interaction, error)
