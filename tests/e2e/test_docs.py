"""The guides name only commands and options that exist: every `/command option ...` written
in README.md and docs/*.md is checked against the commands the bot really synced, and every
"`name` option" against their option names (a renamed option fails here)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def command_options(synced: list[dict[str, Any]]) -> dict[str, set[str]]:
    """``"trade offer"`` -> its option names, for every command and subcommand."""
    found: dict[str, set[str]] = {}

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]  # subcommands and groups
        found[path] = {o["name"] for o in options if o["type"] not in (1, 2)}
        for sub in subs:
            walk(f"{path} {sub['name']}", sub.get("options", []))

    for command in synced:
        walk(command["name"], command.get("options", []))
    return found


def test_commands_and_options_in_the_docs_exist(fake: FakeDiscord, bot: BotRunner) -> None:
    commands = command_options(fake.synced[fake.guild_id])
    all_options = set().union(*commands.values())
    problems = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for span in re.findall(r"`(/[^`]+)`", text):
            words = span[1:].split()
            cut = max(
                (n for n in range(1, len(words) + 1) if " ".join(words[:n]) in commands), default=0
            )
            if cut == 0:
                problems.append(f"{doc.name}: `{span}`: no such command")
                continue
            path = " ".join(words[:cut])
            for word in words[cut:]:
                name = word.strip("[]")
                if re.fullmatch(r"\w+", name) and name not in commands[path]:
                    problems.append(f"{doc.name}: `{span}`: /{path} has no option {name!r}")
        for name in re.findall(r"`(\w+)` option", text):
            if name not in all_options:
                problems.append(f"{doc.name}: no command has an option {name!r}")
    assert problems == []


def test_the_faction_option_is_where_playing_md_says(fake: FakeDiscord, bot: BotRunner) -> None:
    """docs/playing.md lists the commands that take `faction` for "act as"; /negotiate and
    /trade offer do not (their `faction`/`to` name the other side)."""
    commands = command_options(fake.synced[fake.guild_id])
    text = (REPO / "docs" / "playing.md").read_text(encoding="utf-8")
    sentence = text[text.index("To act for another") :].split("\n\n")[0]
    for name in ("status", "buy", "move", "muster", "attack", "done"):
        assert f"`/{name}`" in sentence and "faction" in commands[name]
    assert all(
        "faction" in options for path, options in commands.items() if path.startswith("redeem ")
    )
    assert "as_faction" in commands["negotiate"] and "`as_faction`" in sentence
    assert not commands["trade offer"] & {"faction", "as_faction"}
