"""Settings from the environment or a ``.env`` file (pydantic-settings).

Every variable is prefixed ``CAEDES_``: ``CAEDES_DISCORD_TOKEN``, ``CAEDES_DATABASE_URL``,
``CAEDES_DEV_GUILD_IDS`` (comma-separated), ``CAEDES_LOG_LEVEL``, ``CAEDES_CONFIG_DIR``,
``CAEDES_SYNC_COMMANDS``. ``.env.example`` at the root of the repository lists them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    """The bot's configuration.

    Attributes:
        discord_token: the bot token from the Discord developer portal; never logged.
        database_url: SQLAlchemy async URL; the default is a SQLite file beside the bot.
        dev_guild_ids: guilds to sync commands to at once while developing; empty = global sync.
        log_level: Python logging level name.
        config_dir: the game data folder; ``None`` = the shipped ``config/caedes/``.
        sync_commands: sync the slash commands with Discord at start (to ``dev_guild_ids``
            when set, which is immediate; globally otherwise, which Discord may take a while
            to show).
    """

    model_config = SettingsConfigDict(
        env_prefix="CAEDES_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    discord_token: SecretStr | None = None
    database_url: str = "sqlite+aiosqlite:///caedes.db"
    # NoDecode: the environment gives "1,2", not JSON; the validator splits it.
    dev_guild_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    log_level: str = "INFO"
    config_dir: Path | None = None
    sync_commands: bool = True

    @field_validator("dev_guild_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        if isinstance(value, int):
            return [value]
        return value
