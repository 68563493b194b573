"""Discord's limits on a server, checked before a command makes anything that would meet them.

A server holds at most :data:`MAX_GUILD_CHANNELS` channels (categories included; Discord
answers one more with code 30013) and :data:`MAX_ACTIVE_THREADS` active threads (code 160006);
a category holds at most :data:`MAX_CATEGORY_CHANNELS` channels. A campaign makes its own
category, so only the first two can stop ``/campaign new``. The counts come from the bot's
cache (every channel of the server, and the active threads it can see: with Manage Threads,
all of them), so no request is made before the answer.
"""

from __future__ import annotations

from typing import Final

import discord

from caedes_bot.cogs._errors import UserError

MAX_GUILD_CHANNELS: Final = 500
MAX_CATEGORY_CHANNELS: Final = 50
MAX_ACTIVE_THREADS: Final = 1000


def shortage(guild: discord.Guild, *, channels: int = 0, threads: int = 0) -> list[str]:
    """Which of Discord's limits ``guild`` would pass with ``channels`` more channels and
    ``threads`` more active threads, in words (empty: there is room)."""
    have_channels, have_threads = len(guild.channels), len(guild.threads)
    full: list[str] = []
    if channels and have_channels + channels > MAX_GUILD_CHANNELS:
        full.append(
            f"Discord allows {MAX_GUILD_CHANNELS} channels on a server (categories count) and "
            f"this one has {have_channels}"
        )
    if threads and have_threads + threads > MAX_ACTIVE_THREADS:
        full.append(
            f"Discord allows {MAX_ACTIVE_THREADS:,} active threads on a server and this one "
            f"has {have_threads}"
        )
    return full


def require_room(
    guild: discord.Guild, *, channels: int = 0, threads: int = 0, what: str, needs: str
) -> None:
    """Refuse (:class:`UserError`, before anything is made) unless ``guild`` has room for
    ``channels`` more channels and ``threads`` more active threads.

    Args:
        what: what would be made, for the answer (``"a campaign"``).
        needs: how many of each it needs, in words (``"5 channels and 7 threads"``).
    """
    full = shortage(guild, channels=channels, threads=threads)
    if full:
        raise UserError(
            f"This server has no room for {what}, which needs {needs}: " + "; ".join(full) + ".",
            allowed="delete channels, or archive or delete threads, the server no longer needs,"
            " then try again",
        )
