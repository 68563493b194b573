"""Settings from the environment or a ``.env`` file (pydantic-settings).

Every variable is prefixed ``CAEDES_``: ``CAEDES_DISCORD_TOKEN``, ``CAEDES_DATABASE_URL``,
``CAEDES_DEV_GUILD_IDS`` (comma-separated), ``CAEDES_LOG_LEVEL``, ``CAEDES_CONFIG_DIR``,
``CAEDES_SYNC_COMMANDS``, ``CAEDES_STATE_CACHE_SIZE``, ``CAEDES_BATTLE_EDIT_INTERVAL``,
``CAEDES_SHARD_COUNT``, ``CAEDES_SHARD_IDS`` (comma-separated). ``.env.example`` at the root of the repository lists them. The
``.env`` file is read from the current folder (``scripts/bot`` runs the bot from the root of
the repository).

A bad value raises pydantic's ``ValidationError``; :func:`settings_error_line` turns it into
one line that names the variable and what it accepts (``bot.py`` prints it).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from caedes_bot.domain.shards import Shards

#: The default of ``CAEDES_STATE_CACHE_SIZE`` (the service's ``cache_size``; kept equal to it
#: by a test, so that the settings need not import the service).
DEFAULT_CACHE_SIZE = 100

#: Prefix of every environment variable.
ENV_PREFIX = "CAEDES_"

#: The log level names ``CAEDES_LOG_LEVEL`` accepts.
LOG_LEVELS: tuple[str, ...] = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

#: What each setting accepts, in the words of the one-line start-up error.
ACCEPTS: dict[str, str] = {
    "discord_token": "the bot token from the Discord Developer Portal",
    "database_url": "a SQLAlchemy async URL such as sqlite+aiosqlite:///caedes.db "
    "or postgresql+asyncpg://user:password@host/caedes",
    "dev_guild_ids": "server ids (numbers) separated by commas, or nothing",
    "log_level": "one of " + ", ".join(LOG_LEVELS),
    "config_dir": "a folder holding the game data, like config/caedes (or leave it unset)",
    "sync_commands": "true or false",
    "state_cache_size": "a whole number of campaigns, at least 1",
    "battle_edit_interval": "a number of seconds from 0 to 3600 (0: edit after every order)",
    "shard_count": "a whole number of Discord shards, at least 1 (the same in every process)",
    "shard_ids": "shard numbers from 0 to CAEDES_SHARD_COUNT - 1 separated by commas, "
    "or nothing for all of them",
}


def env_name(field: str) -> str:
    """The environment variable of a setting: ``"log_level"`` -> ``"CAEDES_LOG_LEVEL"``."""
    return ENV_PREFIX + field.upper()


class Settings(BaseSettings):
    """The bot's configuration.

    Attributes:
        discord_token: the bot token from the Discord developer portal; never logged.
        database_url: SQLAlchemy async URL; the default is a SQLite file in the current folder.
        dev_guild_ids: guilds to sync commands to at once while developing; empty = global sync.
        log_level: a Python logging level name (:data:`LOG_LEVELS`), upper case.
        config_dir: the game data folder; ``None`` = the shipped ``config/caedes/``.
        sync_commands: sync the slash commands with Discord at start (to ``dev_guild_ids``
            when set, which is immediate; globally otherwise, which Discord may take a while
            to show).
        state_cache_size: how many campaigns' states the bot keeps in memory, the most
            recently used; an order on another campaign first reads it from the database.
        battle_edit_interval: the fewest seconds between two edits of one battle message
            (the outbox's ``edit_interval``); the edits owed meanwhile are coalesced into
            the newest (decision 0015). 0 edits after every order.
        shard_count: how many Discord shards the whole bot runs (every process the same);
            a guild is on shard ``(guild_id >> 22) % shard_count`` (decision 0025).
        shard_ids: the shards this process runs; empty = all of them. A process receives
            only the interactions of its shards' guilds, and delivers the outbox and fires
            the deadlines of those guilds only.

    Raises:
        pydantic.ValidationError: a value is not what its setting accepts (:data:`ACCEPTS`).
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    discord_token: SecretStr | None = None
    database_url: str = "sqlite+aiosqlite:///caedes.db"
    # NoDecode: the environment gives "1,2", not JSON; the validator splits it.
    dev_guild_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    log_level: str = "INFO"
    config_dir: Path | None = None
    sync_commands: bool = True
    state_cache_size: int = Field(default=DEFAULT_CACHE_SIZE, ge=1)
    battle_edit_interval: float = Field(default=2.0, ge=0, le=3600, allow_inf_nan=False)
    shard_count: int = Field(default=1, ge=1)
    shard_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)

    @field_validator("dev_guild_ids", "shard_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [part for part in value.replace(" ", "").split(",") if part]
            if not all(part.isdigit() for part in parts):
                raise ValueError("not a list of ids")
            return [int(part) for part in parts]
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError("not a log level")
        return level

    @field_validator("database_url")
    @classmethod
    def _parsable_url(cls, value: str) -> str:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        try:
            url = make_url(value.strip())
        except ArgumentError as err:
            raise ValueError("not a database URL") from err
        if not url.drivername:
            raise ValueError("not a database URL")
        return value.strip()

    @field_validator("shard_ids")
    @classmethod
    def _shards_in_range(cls, value: list[int], info: ValidationInfo) -> list[int]:
        count = info.data.get("shard_count", 1)
        if any(not 0 <= i < count for i in value):
            raise ValueError("a shard id is not below the shard count")
        return sorted(set(value))

    @property
    def shards(self) -> Shards:
        """The shards this process runs (:class:`~caedes_bot.domain.shards.Shards`)."""
        ids = frozenset(self.shard_ids) if self.shard_ids else None
        return Shards(self.shard_count, ids)

    @property
    def log_level_number(self) -> int:
        """:attr:`log_level` as a :mod:`logging` number."""
        return logging.getLevelNamesMapping()[self.log_level]


def settings_error_line(error: ValidationError) -> str:
    """One line for a start-up error: the first bad setting, the value given and what it
    accepts, e.g. ``"CAEDES_SYNC_COMMANDS='maybe' is not valid: use true or false."``."""
    parts: list[str] = []
    for item in error.errors():
        field = str(item["loc"][0]) if item.get("loc") else "?"
        given = item.get("input")
        secret = field == "discord_token"
        plain = not (secret or given is None or isinstance(given, dict))
        shown = f"={str(given)[:60]!r}" if plain else ""
        accepts = ACCEPTS.get(field, "see README.md")
        parts.append(f"{env_name(field)}{shown} is not valid: use {accepts}")
    return "; ".join(parts) + "."


def not_in_server_line(guild_id: int) -> str:
    """The start-up error for a development server the bot is not in (Discord answered the
    command sync with 403, Missing Access)."""
    return (
        f"{env_name('dev_guild_ids')} names the server {guild_id}, but the bot is not in it "
        "(Discord answered 403 Missing Access). Invite the bot there (README.md, Inviting the "
        "bot), fix the id (Developer Mode, then right-click the server and Copy Server ID), or "
        "leave the setting empty to sync commands to every server."
    )
