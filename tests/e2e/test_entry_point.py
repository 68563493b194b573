"""``bot.py``: every common start-up failure ends with ONE clear line on stderr naming the
setting at fault, no traceback, and exit code 2 (1 when Discord cannot be reached)."""

from __future__ import annotations

import asyncio
import logging
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import discord.http
import pytest

import bot as entry_point
from caedes_bot.app import CaedesBot
from caedes_bot.persistence.db import SqliteClaim, claim_sqlite_file
from caedes_bot.settings import Settings
from tests.fakediscord import FakeDiscord


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """No .env, no CAEDES_ variables from outside, and the root logger restored after."""
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:
        monkeypatch.delenv(f"CAEDES_{name.upper()}", raising=False)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    quiet = {name: logging.getLogger(name).level for name in entry_point.QUIET_LOGGERS}
    try:
        yield tmp_path
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for name, old in quiet.items():
            logging.getLogger(name).setLevel(old)


def one_line(err: str) -> str:
    """The single line a failed start printed on stderr (fails if there is more)."""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    return err


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def ready_env(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A token and a database in ``tmp_path``: everything but the setting under test is right."""
    monkeypatch.setenv("CAEDES_DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("CAEDES_DATABASE_URL", f"sqlite+aiosqlite:///{clean_env / 'caedes.db'}")
    return clean_env


def no_login(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace ``CaedesBot.run``: records that the bot would have logged in."""
    calls: list[str] = []
    monkeypatch.setattr(CaedesBot, "run", lambda self, token, **_: calls.append(token))
    return calls


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("CAEDES_DEV_GUILD_IDS", "abc", "server ids (numbers) separated by commas"),
        ("CAEDES_SYNC_COMMANDS", "maybe", "true or false"),
        ("CAEDES_LOG_LEVEL", "LOUD", "one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ("CAEDES_DATABASE_URL", "nonsense", "a SQLAlchemy async URL"),
    ],
)
def test_bad_setting_is_one_line_naming_it_and_exit_2(
    ready_env: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    value: str,
    expected: str,
) -> None:
    logins = no_login(monkeypatch)
    monkeypatch.setenv(variable, value)
    assert entry_point.main() == 2
    err = one_line(capsys.readouterr().err)
    assert f"{variable}='{value}' is not valid" in err and expected in err
    assert logins == []


def test_unwritable_sqlite_path_is_one_line_and_exit_2(
    ready_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    logins = no_login(monkeypatch)
    missing = ready_env / "no-such-folder" / "caedes.db"
    monkeypatch.setenv("CAEDES_DATABASE_URL", f"sqlite+aiosqlite:///{missing}")
    assert entry_point.main() == 2
    err = one_line(capsys.readouterr().err)
    assert "CAEDES_DATABASE_URL=" in err and "cannot be opened" in err and "writable" in err
    assert logins == []


def test_a_second_process_on_one_sqlite_file_is_one_line_and_exit_2(
    ready_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    logins = no_login(monkeypatch)
    url = f"sqlite+aiosqlite:///{ready_env / 'caedes.db'}"
    assert entry_point.main() == 0  # the first start claims the file (and keeps it)
    other = entry_point._claim
    entry_point._claim = None  # as a second process: the first one still holds the file
    try:
        assert entry_point.main() == 2
        err = one_line(capsys.readouterr().err)
        assert "CAEDES_DATABASE_URL" in err and "another Caedes Bot process" in err
        assert "use PostgreSQL for several" in err
    finally:
        assert isinstance(other, SqliteClaim)
        other.release()
    assert logins == ["a-token"]
    # once the first process has stopped, the file may be used again
    assert claim_sqlite_file(url) is not None


def test_missing_game_data_is_one_line_before_login_and_exit_2(
    ready_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    logins = no_login(monkeypatch)
    monkeypatch.setenv("CAEDES_CONFIG_DIR", str(ready_env / "nonexistent"))
    assert entry_point.main() == 2
    err = one_line(capsys.readouterr().err)
    assert "CAEDES_CONFIG_DIR" in err and "does not exist" in err and "config/caedes" in err
    assert logins == []  # checked before logging in
    assert not (ready_env / "caedes.db").exists()  # ... and before the database


def test_discord_unreachable_is_one_line_and_exit_1(
    ready_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing listens where discord.py looks for Discord: connection refused."""
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    assert entry_point.main() == 1
    out = capsys.readouterr()
    err = one_line(out.err)
    assert "cannot reach Discord" in err and "Check the network" in err
    # the game data and the database were ready before the bot tried to log in
    assert (ready_env / "caedes.db").exists()
    # logs to a pipe are plain: no colour codes; alembic's plugin chatter is quiet
    assert "\x1b[" not in out.out and "setup plugin" not in out.out
    assert "logging in using static token" in out.out


def test_discord_that_never_answers_is_one_line_and_exit_1(
    ready_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host that accepts and never answers makes aiohttp time out (after ~30 s in life)."""

    def time_out(self: CaedesBot, token: str, **_: object) -> None:
        raise aiohttp.ConnectionTimeoutError("Connection timeout to host https://discord.com")

    monkeypatch.setattr(CaedesBot, "run", time_out)
    assert entry_point.main() == 1
    err = one_line(capsys.readouterr().err)
    assert "cannot reach Discord (ConnectionTimeoutError" in err


def test_missing_token_is_one_line_and_exit_2(
    clean_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAEDES_DISCORD_TOKEN", "   ")
    assert entry_point.main() == 2
    err = one_line(capsys.readouterr().err)
    assert "no Discord token" in err and "CAEDES_DISCORD_TOKEN" in err


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


async def test_a_dev_server_the_bot_is_not_in_is_one_line_and_exit_2(
    ready_env: Path,
    fake: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discord answers the command sync for a server the bot is not in with 403 (code 50001):
    one line naming CAEDES_DEV_GUILD_IDS and the server id, exit code 2, no traceback."""
    elsewhere = fake.guild_id + 12345
    monkeypatch.setenv("CAEDES_DISCORD_TOKEN", fake.token)
    monkeypatch.setenv("CAEDES_DEV_GUILD_IDS", f"{fake.guild_id},{elsewhere}")
    code = await asyncio.to_thread(entry_point.main)
    assert code == 2
    err = one_line(capsys.readouterr().err)
    assert "CAEDES_DEV_GUILD_IDS" in err and str(elsewhere) in err
    assert "not in it" in err and "Copy Server ID" in err
    sync = fake.requests_to("PUT", rf"/guilds/{elsewhere}/commands$")
    assert [r.status for r in sync] == [403]
    assert fake.guild_id in fake.synced  # the server it is in was synced first


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
        + 2**35  # create public threads (to deny it in read-only channels)
        + 2**36  # create private threads
        + 2**38  # send messages in threads
    )
    assert by_hand == 395405544464 == REQUIRED_PERMISSIONS.value
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


def test_readme_example_env_leaves_the_servers_empty_and_says_how_to_find_one() -> None:
    """A placeholder server id in the example crashed new users' bots: it is empty, and the
    README says how to find a real one and that the first run installs for a while."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    example = readme.split("```sh\nCAEDES_DISCORD_TOKEN=", 1)[1].split("```", 1)[0]
    assert "\nCAEDES_DEV_GUILD_IDS=\n" in example
    assert "Developer Mode" in readme and "Copy Server ID" in readme
    assert "couple of minutes" in readme
