"""Entry point: settings -> database at head (before any event loop) -> Caedes Bot.

Logs go to standard output. A missing or rejected token ends with one line on standard error
and exit code 2.
"""

import logging
import sys

import discord

from caedes_bot.app import CaedesBot
from caedes_bot.persistence.db import migrate_to_head
from caedes_bot.settings import Settings


def fail(message: str) -> int:
    print(f"Caedes Bot: {message}", file=sys.stderr)
    return 2


def main() -> int:
    settings = Settings()
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        return fail(
            "no Discord token. Set CAEDES_DISCORD_TOKEN in the environment or .env (see README.md)."
        )
    level = logging.getLevelNamesMapping().get(settings.log_level.upper(), logging.INFO)
    discord.utils.setup_logging(handler=logging.StreamHandler(sys.stdout), level=level, root=True)
    migrate_to_head(settings.database_url)  # Alembic runs its own event loop: before the bot's
    try:
        CaedesBot(settings, freeze_gc=True).run(token, log_handler=None)
    except discord.LoginFailure:
        return fail(
            "Discord rejected the token in CAEDES_DISCORD_TOKEN. Copy it again from the Developer Portal."
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
