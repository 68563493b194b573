"""``scripts/_venv.sh``: the install stamp records what is installed, so a dev install (from
``scripts/test``) also serves the bot (``scripts/bot``), and nothing is installed twice.

The virtual environment is a stand-in whose ``python`` only writes down how it was called, so
the test needs no network and no package index.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def make_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "_venv.sh", project / "scripts" / "_venv.sh")
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    python = project / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\necho "$*" >> "$(dirname "$0")/calls.log"\n', encoding="utf-8")
    python.chmod(0o755)
    return project


def source(project: Path, what: str) -> str:
    """Source ``scripts/_venv.sh what`` in ``project``; returns what it printed on stderr."""
    done = subprocess.run(
        ["bash", "-c", f"source scripts/_venv.sh {what}"],
        cwd=project,
        env={"PATH": "/usr/bin:/bin", "PYTHON": sys.executable},
        check=True,
        timeout=60,
        capture_output=True,
        text=True,
    )
    return done.stderr


def installs(project: Path) -> list[str]:
    log = project / ".venv" / "bin" / "calls.log"
    if not log.exists():
        return []
    return [line for line in log.read_text(encoding="utf-8").splitlines() if "install" in line]


def test_dev_install_serves_the_bot_and_nothing_is_installed_twice(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    source(project, "dev")
    assert installs(project) == ["-m pip install --quiet -e .[dev]"]
    source(project, "run")  # the bot after the tests: the dev install has what it needs
    source(project, "dev")
    source(project, "run")
    assert len(installs(project)) == 1


def test_a_run_install_is_upgraded_to_dev_once(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    source(project, "run")
    source(project, "run")
    assert installs(project) == ["-m pip install --quiet -e ."]
    source(project, "dev")
    source(project, "run")
    source(project, "dev")
    assert installs(project)[1:] == ["-m pip install --quiet -e .[dev]"]


def test_a_changed_pyproject_installs_again(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    source(project, "dev")
    (project / "pyproject.toml").write_text('[project]\nname = "y"\n', encoding="utf-8")
    source(project, "run")
    assert installs(project)[1:] == ["-m pip install --quiet -e ."]


def test_an_install_says_it_takes_a_couple_of_minutes_and_a_ready_venv_says_nothing(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path)
    said = source(project, "run")
    assert said.count("\n") == 1 and "couple of minutes" in said
    assert source(project, "run") == ""


def run_shards(
    tmp_path: Path, *args: str, url: str, exit_code: int = 0
) -> subprocess.CompletedProcess[str]:
    """``scripts/run-shards`` with a stand-in bot that writes down its shard settings."""
    bot = tmp_path / "bot.sh"
    bot.write_text(
        f'#!/bin/sh\necho "$CAEDES_SHARD_COUNT $CAEDES_SHARD_IDS" >> "$LOG"\nexit {exit_code}\n',
        encoding="utf-8",
    )
    bot.chmod(0o755)
    return subprocess.run(
        ["bash", str(REPO / "scripts" / "run-shards"), *args],
        env={
            "PATH": "/usr/bin:/bin",
            "CAEDES_DATABASE_URL": url,
            "CAEDES_BOT_COMMAND": str(bot),
            "CAEDES_RUN_SHARDS_STAGGER": "0",
            "LOG": str(tmp_path / "shards.log"),
        },
        timeout=60,
        capture_output=True,
        text=True,
    )


def test_run_shards_gives_every_shard_to_one_process(tmp_path: Path) -> None:
    """3 processes, 5 shards: shard i runs in process i % 3; it ends when they all have."""
    done = run_shards(tmp_path, "3", "5", url="postgresql+asyncpg://u@h/caedes")
    assert done.returncode == 0, done.stderr
    started = sorted((tmp_path / "shards.log").read_text(encoding="utf-8").splitlines())
    assert started == ["5 0,3", "5 1,4", "5 2"]
    assert "process 1 runs shards 1,4 of 5" in done.stdout


def test_run_shards_refuses_several_processes_on_sqlite(tmp_path: Path) -> None:
    done = run_shards(tmp_path, "2", url="sqlite+aiosqlite:///caedes.db")
    assert done.returncode == 2 and "need PostgreSQL" in done.stderr
    assert not (tmp_path / "shards.log").exists()
    one = run_shards(tmp_path, "1", url="sqlite+aiosqlite:///caedes.db")
    assert one.returncode == 0 and (tmp_path / "shards.log").read_text() == "1 0\n"


def test_run_shards_returns_the_status_of_a_process_that_failed(tmp_path: Path) -> None:
    done = run_shards(tmp_path, "2", url="postgresql+psycopg://u@h/caedes", exit_code=3)
    assert done.returncode == 3
    assert "a process ended (status 3)" in done.stderr
