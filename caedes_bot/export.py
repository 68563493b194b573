"""``python -m caedes_bot.export CAMPAIGN [FILE]``: a campaign's export from the database.

The same file as ``/campaign export`` (decision 0023: gzipped JSON with the scenario, options,
state and the order and event logs; the dice seed only once the campaign has finished), for
whoever runs the bot when the file is larger than a Discord server takes, or the bot is not on
Discord at all. ``CAMPAIGN`` is a campaign's number (``/campaign info`` shows it) or its name;
``FILE`` defaults to the name the bot would give the upload, in the current folder, and an
existing file is never overwritten. The database is the bot's (``CAEDES_DATABASE_URL``, from
the environment or ``.env``); nothing is written to it, so no audit entry is made.

A SQLite file serves one process (decision 0024): while the bot runs on it, this command
refuses and says how to export from a copy instead (``sqlite3 caedes.db ".backup copy.db"``
copies a file in use safely). With PostgreSQL it runs beside any number of bot processes.

It prints one line and exits with 0 when the file is written, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError
from sqlalchemy.engine import make_url

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.persistence.db import Database, DatabaseInUse, claim_sqlite_file
from caedes_bot.service import RulesService
from caedes_bot.settings import Settings, settings_error_line

__all__ = ["ExportFailed", "export_to", "main"]


class ExportFailed(Exception):
    """Why no file was written, in one line for the command line."""


async def export_to(
    url: str, campaign: str, path: Path | None, *, config_dir: Path | None = None
) -> Path:
    """Write the export of ``campaign`` (its number or name) from the database at ``url`` to
    ``path`` (``None``: the bot's file name, in the current folder); returns the path.

    Raises:
        ExportFailed: no such campaign, a name shared by several, an existing file, a SQLite
            file in use by a bot, or a database that cannot be read.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if not parsed.database or not Path(parsed.database).is_file():
            raise ExportFailed(f"there is no SQLite file {parsed.database or '(none)'}")
        try:
            claim = claim_sqlite_file(url)
        except DatabaseInUse as err:
            raise ExportFailed(
                f"{err}; to export while it runs, copy the file first (sqlite3 FILE "
                '".backup copy.db") and run this with CAEDES_DATABASE_URL naming the copy'
            ) from err
    else:
        claim = None
    ruleset = load_ruleset(config_dir)
    db = Database(url)
    try:
        service = RulesService(db, ruleset)
        found = await _campaign_id(service, campaign)
        name, data = await service.export_campaign(found, by=None, logged=False)
    finally:
        await db.dispose()
        if claim is not None:
            claim.release()
    target = path if path is not None else Path(name)
    try:
        with target.open("xb") as out:  # "x": never over a file that is there
            out.write(data)
    except FileExistsError as err:
        raise ExportFailed(f"{target} exists already; name another file") from err
    except OSError as err:
        raise ExportFailed(f"cannot write {target} ({err.strerror or err})") from err
    return target


async def _campaign_id(service: RulesService, campaign: str) -> int:
    campaigns = await service.campaigns()
    wanted = campaign.strip().lstrip("#")
    if wanted.isdigit():
        matches = [c for c in campaigns if c.id == int(wanted)]
    else:
        matches = [c for c in campaigns if c.name.casefold() == wanted.casefold()]
    if len(matches) == 1:
        return matches[0].id
    known = ", ".join(f"{c.id} {c.name!r}" for c in campaigns) or "none"
    if matches:
        raise ExportFailed(
            f"{len(matches)} campaigns are called {campaign!r}: give the number of one "
            f"({', '.join(str(c.id) for c in matches)})"
        )
    raise ExportFailed(f"no campaign {campaign!r} in this database; there are: {known}")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m caedes_bot.export",
        description="Write a campaign's export (the file /campaign export gives) from the "
        "bot's database (CAEDES_DATABASE_URL).",
    )
    parser.add_argument("campaign", help="the campaign's number or name")
    parser.add_argument(
        "file", nargs="?", type=Path, help="where to write it (default: the bot's file name)"
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as err:
        print(f"FAIL: {settings_error_line(err)}")
        return 1
    try:
        written = asyncio.run(
            export_to(
                settings.database_url, args.campaign, args.file, config_dir=settings.config_dir
            )
        )
    except ExportFailed as err:
        print(f"FAIL: {err}.")
        return 1
    except Exception as err:  # any driver, any database: one line, not a traceback
        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        print(f"FAIL: the database cannot be read ({type(err).__name__}: {first}).")
        return 1
    print(f"Wrote {written} ({written.stat().st_size:,} bytes).")
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line
    sys.exit(main())
