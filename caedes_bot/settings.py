"""Settings from the environment or a ``.env`` file (pydantic-settings).

Every variable is prefixed ``CAEDES_``: ``CAEDES_DISCORD_TOKEN``, ``CAEDES_DATABASE_URL``,
``CAEDES_DEV_GUILD_IDS`` (comma-separated), ``CAEDES_LOG_LEVEL``.
"""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """The bot's configuration.

    Attributes:
        discord_token: the bot token from the Discord developer portal; never logged.
        database_url: SQLAlchemy async URL; the default is a SQLite file beside the bot.
        dev_guild_ids: guilds to sync commands to at once while developing; empty = global sync.
        log_level: Python logging level name.
    """

    model_config = SettingsConfigDict(
        env_prefix="CAEDES_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    discord_token: SecretStr | None = None
    database_url: str = "sqlite+aiosqlite:///caedes.db"
    dev_guild_ids: list[int] = Field(default_factory=list)
    log_level: str = "INFO"

    @field_validator("dev_guild_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        if isinstance(value, int):
            return [value]
        return value
