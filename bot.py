"""Entry point: settings -> game data -> database at head (before any event loop) -> Caedes Bot.

Everything that can be checked without Discord is checked before the bot logs in. Logs go to
standard output (coloured only on a terminal). A start-up failure ends with ONE line on
standard error that names the setting at fault and what it accepts, and no traceback:

* exit code 2: the configuration is wrong (a missing or rejected token, a bad setting, game
  data that does not load, a database that cannot be opened or upgraded, a development server
  in ``CAEDES_DEV_GUILD_IDS`` that the bot is not in);
* exit code 1: Discord cannot be reached (no network, DNS, a firewall); trying again later
  may work.
"""

import logging
import sys

import aiohttp
import discord
from pydantic import ValidationError

from caedes_bot.app import StartupProblem, make_bot
from caedes_bot.gamedata.loader import GameDataError, load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.db import migrate_to_head
from caedes_bot.settings import ACCEPTS, Settings, settings_error_line

#: Exit codes (README "Configuration").
CONFIG_ERROR, UNREACHABLE = 2, 1

#: Plain log lines, for a file or a pipe.
LOG_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"

#: Loggers that talk too much at INFO on every start.
QUIET_LOGGERS = ("alembic.runtime.plugins",)


def fail(message: str, code: int = CONFIG_ERROR) -> int:
    """Print ``message`` as one line on standard error; returns ``code``."""
    print(f"Caedes Bot: {' '.join(message.split())}", file=sys.stderr)
    return code


def configure_logging(level: int) -> None:
    """Log to standard output: colours only when it is a terminal, plain lines otherwise."""
    handler = logging.StreamHandler(sys.stdout)
    if sys.stdout.isatty():
        discord.utils.setup_logging(handler=handler, level=level, root=True)
    else:
        formatter = logging.Formatter(LOG_FORMAT, "%Y-%m-%d %H:%M:%S", style="{")
        discord.utils.setup_logging(handler=handler, formatter=formatter, level=level, root=True)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def _reason(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0]}" if text else type(err).__name__


def load_game_data(settings: Settings) -> Ruleset | str:
    """The ruleset, or the one-line reason it cannot be loaded."""
    try:
        return load_ruleset(settings.config_dir)
    except GameDataError as err:
        more = len(err.problems) - 1
        first = err.problems[0] if err.problems else "unknown problem"
        tail = f" (and {more} more problem{'s' if more != 1 else ''})" if more > 0 else ""
        return f"CAEDES_CONFIG_DIR: {first}{tail}. Use {ACCEPTS['config_dir']}."


#: This process's claim on its SQLite file, held while it runs (a second process is refused).
_claim: object = None


def open_database(settings: Settings) -> str | None:
    """Claim a SQLite file for this process and bring the database to head; ``None``, or the
    one-line reason it failed."""
    global _claim
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    from caedes_bot.persistence.db import (
        DatabaseInUse,
        SqliteClaim,
        claim_sqlite_file,
        is_sqlite,
        sync_url,
    )

    if isinstance(_claim, SqliteClaim):
        _claim.release()  # a second start in the same process (tests) claims afresh
    try:
        _claim = claim_sqlite_file(settings.database_url)
    except DatabaseInUse as err:
        return f"CAEDES_DATABASE_URL: {err}."
    except OSError:
        _claim = None  # the folder is missing or read-only: the probe below says so
    try:
        if is_sqlite(settings.database_url):
            # open it synchronously first: a SQLite file that cannot be opened would otherwise
            # fail inside aiosqlite's worker thread, which prints its own traceback
            probe = sa.create_engine(sync_url(settings.database_url))
            try:
                with probe.connect():
                    pass
            finally:
                probe.dispose()
        migrate_to_head(settings.database_url)
    except Exception as err:  # any driver, any database: say why in one line
        shown = make_url(settings.database_url).render_as_string(hide_password=True)
        return (
            f"CAEDES_DATABASE_URL={shown}: the database cannot be opened or upgraded "
            f"({_reason(err)}). Check that the URL is right, its driver is installed and, "
            "for SQLite, that the folder exists and is writable."
        )
    return None


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as err:
        return fail(settings_error_line(err))
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        return fail(
            "no Discord token. Set CAEDES_DISCORD_TOKEN in the environment or .env (see README.md)."
        )
    configure_logging(settings.log_level_number)
    ruleset = load_game_data(settings)
    if isinstance(ruleset, str):
        return fail(ruleset)
    problem = open_database(settings)  # Alembic runs its own event loop: before the bot's
    if problem is not None:
        return fail(problem)
    try:
        bot = make_bot(settings, ruleset=ruleset, freeze_gc=True, stop_on_sigterm=True)
        bot.run(token, log_handler=None)
    except StartupProblem as err:  # a development server the bot is not in
        return fail(str(err))
    except discord.LoginFailure:
        return fail(
            "Discord rejected the token in CAEDES_DISCORD_TOKEN. Copy it again from the Developer Portal."
        )
    except (aiohttp.ClientError, OSError, TimeoutError, discord.GatewayNotFound) as err:
        return fail(
            f"cannot reach Discord ({_reason(err)}). Check the network and try again.",
            UNREACHABLE,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
