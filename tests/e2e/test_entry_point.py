"""``bot.py``: a missing or rejected token ends with one clear line on stderr and exit code 2."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot as entry_point
from tests.fakediscord import FakeDiscord


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """No .env, no CAEDES_ variables from outside, and the root logger restored after."""
    monkeypatch.chdir(tmp_path)
    for name in (
        "CAEDES_DISCORD_TOKEN",
        "CAEDES_DATABASE_URL",
        "CAEDES_DEV_GUILD_IDS",
        "CAEDES_LOG_LEVEL",
    ):
        monkeypatch.delenv(name, raising=False)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield tmp_path
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def test_missing_token_is_one_line_and_exit_2(
    clean_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAEDES_DISCORD_TOKEN", "   ")
    assert entry_point.main() == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no Discord token" in err and "CAEDES_DISCORD_TOKEN" in err


async def test_rejected_token_is_one_line_and_exit_2(
    clean_env: Path,
    fake: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = clean_env / "caedes.db"
    monkeypatch.setenv("CAEDES_DISCORD_TOKEN", "not-the-token")
    monkeypatch.setenv("CAEDES_DATABASE_URL", f"sqlite+aiosqlite:///{database}")
    # bot.py runs its own event loops (Alembic's, then discord.py's): give it a thread
    code = await asyncio.to_thread(entry_point.main)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rejected the token" in err
    assert "Traceback" not in err
    # the database was brought to head before the bot tried to log in
    with sqlite3.connect(database) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"campaigns", "outbox", "alembic_version"} <= tables
    assert fake.requests_to("GET", r"^/users/@me$")[-1].status == 401


REPO = Path(__file__).resolve().parents[2]


def test_invite_permissions_are_documented() -> None:
    """The permission integer in README.md is the one the code asks for, worked out by hand."""
    from caedes_bot.app import REQUIRED_PERMISSIONS, invite_url

    by_hand = (
        2**4  # manage channels
        + 2**10  # view channels
        + 2**11  # send messages
        + 2**14  # embed links
        + 2**15  # attach files
        + 2**16  # read message history
        + 2**28  # manage roles
        + 2**34  # manage threads
        + 2**36  # create private threads
        + 2**38  # send messages in threads
    )
    assert by_hand == 361045806096 == REQUIRED_PERMISSIONS.value
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert str(by_hand) in readme and "scope=bot+applications.commands" in readme
    assert f"permissions={by_hand}" in invite_url(1) and "applications.commands" in invite_url(1)


def test_env_example_names_the_settings_and_holds_no_secret() -> None:
    from caedes_bot.settings import Settings

    lines = (REPO / ".env.example").read_text(encoding="utf-8").splitlines()
    values = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    assert values["CAEDES_DISCORD_TOKEN"] == ""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"CAEDES_{name.upper()}" in readme
