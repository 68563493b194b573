"""Private answers to interactions, and what happens when one fails (design.md sections 3 and
5, ux.md).

A failed command, button or select is answered privately by :func:`report_error`: any
:class:`~caedes_bot.rules.errors.Refusal` (a ``RuleViolation`` from the rules, a refusal of the
service, a ``UserError`` from a cog or a check) or a failed check is explained with what was
wrong, the rule ID and what is allowed instead. Anything else is a bug: it is logged with its
traceback and the member gets a short apology, which says whether the order was carried out
before the failure (:func:`mark_committed`) or nothing was changed. The command tree's handler
(``caedes_bot.cogs._errors``) and the bot's components both call it.

An order's answer goes out before the outbox starts on what the order queued (posts, panel
edits): :func:`hold_wakes` holds the service's wakes from the start of an interaction, and
they are released once the interaction is answered (:func:`answered`, called by the answering
helpers), or in any case when the task handling it ends, or after Discord's 3 seconds.

Discord may deliver the same interaction twice (a gateway resume). A second delivery is not an
error: :func:`first_delivery` recognises it (the gameplay cogs and the bot's components ask it
before anything else) and it is dropped with an INFO line; should one still reach a reply,
Discord's "already acknowledged" is logged at INFO too.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable

import discord
from discord import app_commands

from caedes_bot.collector import CollectorPause
from caedes_bot.rules.errors import Refusal
from caedes_bot.service.core import WakeHold
from caedes_bot.ui.text import MESSAGE_LIMIT, truncate

log = logging.getLogger(__name__)

APOLOGY = (
    "Sorry, something went wrong on the bot's side and nothing was changed. "
    "The error has been logged for the admins."
)
#: The apology when the order was carried out before the failure (the reply failed).
APOLOGY_AFTER_ORDER = (
    "Sorry, something went wrong on the bot's side after your order was carried out: it "
    "stands (see `/status` or the turn panel). The error has been logged for the admins."
)

#: The key of :attr:`discord.Interaction.extras` set once an order of the interaction is
#: committed.
COMMITTED = "caedes_order_committed"


def mark_committed(interaction: discord.Interaction) -> None:
    """Note that an order given by ``interaction`` has been carried out (and stands)."""
    interaction.extras[COMMITTED] = True


def order_committed(interaction: discord.Interaction) -> bool:
    """Whether an order given by ``interaction`` has been carried out."""
    return bool(interaction.extras.get(COMMITTED))


#: The key of :attr:`discord.Interaction.extras` holding what lets the holds of
#: :func:`hold_wakes` go.
WAKES_HELD = "caedes_wakes_held"
#: Seconds after which held wakes go anyway (Discord wants a first answer within 3 s).
HOLD_LIMIT = 3.0


def hold_wakes(interaction: discord.Interaction) -> None:
    """Hold back the service's wakes of the outbox and the scheduler for the commits made while
    ``interaction`` is handled, and the garbage collector (the client's
    :class:`~caedes_bot.collector.CollectorPause`, if it has one), until it is answered
    (:func:`answered`), the task handling it ends, or :data:`HOLD_LIMIT` seconds pass,
    whichever comes first. Call it at the start of the handling, in the task that handles it;
    on a client with neither a service nor a collector pause it does nothing."""
    held: list[Callable[[], None]] = []
    pause = getattr(interaction.client, "collector", None)
    if isinstance(pause, CollectorPause):
        held.append(pause.hold())
    make = getattr(getattr(interaction.client, "service", None), "hold_wakes", None)
    if make is not None:
        hold = make()
        if isinstance(hold, WakeHold):
            held.append(hold.release)
    if not held:
        return

    def release(_task: object = None) -> None:
        for let_go in reversed(held):  # the wakes first, then the collector
            let_go()

    interaction.extras[WAKES_HELD] = release
    timer = asyncio.get_running_loop().call_later(HOLD_LIMIT, release)

    def done(_task: object) -> None:
        timer.cancel()
        release()

    task = asyncio.current_task()
    if task is not None:
        task.add_done_callback(done)


def answered(interaction: discord.Interaction) -> None:
    """``interaction`` has been answered: wake the outbox and the scheduler for what it
    committed, and let the garbage collector run again (see :func:`hold_wakes`)."""
    release = interaction.extras.get(WAKES_HELD)
    if callable(release):
        release()


class Redelivered(app_commands.CheckFailure):
    """Discord delivered an interaction the bot has already handled; it is dropped quietly."""


#: Interaction ids remembered per client to recognise a second delivery.
SEEN_LIMIT = 4096
_SEEN_ATTR = "caedes_seen_interactions"
#: Discord's error code for a second answer to one interaction.
ALREADY_ACKNOWLEDGED = 40060


def first_delivery(interaction: discord.Interaction) -> bool:
    """Whether this is the first time the bot sees ``interaction``'s id (in this process);
    remembers it. Ask once per interaction, before doing anything."""
    seen: OrderedDict[int, None] | None = getattr(interaction.client, _SEEN_ATTR, None)
    if seen is None:
        seen = OrderedDict()
        setattr(interaction.client, _SEEN_ATTR, seen)
    if interaction.id in seen:
        return False
    seen[interaction.id] = None
    while len(seen) > SEEN_LIMIT:
        seen.popitem(last=False)
    return True


def _answered_elsewhere(interaction: discord.Interaction, error: BaseException) -> bool:
    """Discord refused the answer because another delivery of the interaction answered it."""
    return (
        isinstance(error, discord.HTTPException)
        and error.code == ALREADY_ACKNOWLEDGED
        and not interaction.response.is_done()
    )


def error_text(error: BaseException) -> str | None:
    """The private answer for a refusal the member can act on, or ``None`` for a bug.

    Args:
        error: what the command tree caught (a ``CommandInvokeError`` is unwrapped).
    """
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, Refusal):
        return error.player_text()
    if isinstance(error, app_commands.TransformerError):
        return f"'{error.value}' is not a valid value here."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works only in a server."
    if isinstance(error, app_commands.MissingPermissions):
        missing = ", ".join(p.replace("_", " ") for p in error.missing_permissions)
        return f"You need the {missing} permission for this."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.CheckFailure):
        return "You may not use this command here."
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return "This command has just changed. Try again in a minute."
    return None


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """Answer ``interaction`` privately, whether or not it was already answered or deferred."""
    text = truncate(text, MESSAGE_LIMIT)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:
        if _answered_elsewhere(interaction, error):
            log.info("interaction %s was already answered (delivered twice)", interaction.id)
        else:
            log.warning("could not send an error reply to interaction %s", interaction.id)
    finally:
        answered(interaction)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed command, button or select: the refusal explained, or an apology for a
    bug (logged at ERROR with its traceback). A second delivery of an interaction is only
    logged at INFO."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, Redelivered) or _answered_elsewhere(interaction, original):
        log.info("interaction %s was delivered again; dropped", interaction.id)
        return
    text = error_text(error)
    if text is None:
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error(
            "Unexpected error in %s (interaction %s, user %s)",
            command,
            interaction.id,
            interaction.user.id,
            exc_info=(type(original), original, original.__traceback__),
        )
        text = APOLOGY_AFTER_ORDER if order_committed(interaction) else APOLOGY
    elif isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.warning("command out of sync: %s", error)
    await send_private(interaction, text)
