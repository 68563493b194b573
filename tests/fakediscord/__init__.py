"""A Discord-compatible fake server for end-to-end tests (design.md section 6).

Start a :class:`FakeDiscord`, point discord.py at it (``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``), run the real bot, then act as members with
:meth:`FakeDiscord.slash`, :meth:`FakeDiscord.click`, :meth:`FakeDiscord.select` and
:meth:`FakeDiscord.autocomplete`. ``tests/e2e/harness.py`` does the wiring.
"""

from tests.fakediscord.commands import CommandNotSynced, FakeFile
from tests.fakediscord.server import (
    DROP,
    HOLD_ANSWER,
    LOSE_ANSWER,
    BotDied,
    Chaos,
    FakeDiscord,
    FakeTimeout,
    InteractionRecord,
    RequestRecord,
    all_text,
    message_text,
)
from tests.fakediscord.world import EPHEMERAL, ApiError, FakeUser, World

__all__ = [
    "DROP",
    "EPHEMERAL",
    "HOLD_ANSWER",
    "LOSE_ANSWER",
    "ApiError",
    "BotDied",
    "Chaos",
    "CommandNotSynced",
    "FakeDiscord",
    "FakeFile",
    "FakeTimeout",
    "FakeUser",
    "InteractionRecord",
    "RequestRecord",
    "World",
    "all_text",
    "message_text",
]
