"""Helpers for end-to-end tests (and the bench) that need a campaign set up through the bot."""

from __future__ import annotations

import re
from typing import Any

from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.world import GUILD_CATEGORY, GUILD_TEXT

CAMPAIGN_CHANNELS = ["announcements", "battles", "table-talk", "umpire"]
DEFAULT_FACTIONS = ["DAW", "ORC", "WEL", "LIZ", "DWA", "HEL", "ACH"]


def setup_done(fake: FakeDiscord, name: str, factions: list[str]) -> dict[str, Any] | None:
    """The campaign's category, channels and threads once all exist, else ``None``."""
    world = fake.world
    categories = [c for c in world.channels_named(name) if c["type"] == GUILD_CATEGORY]
    if len(categories) != 1:
        return None
    category = categories[0]
    found: dict[str, Any] = {"category": category}
    for key in CAMPAIGN_CHANNELS:
        chans = [
            c
            for c in world.channels_named(key, parent_id=int(category["id"]))
            if c["type"] == GUILD_TEXT
        ]
        if not chans:
            return None
        found[key] = chans[0]
    for code in factions:
        threads = world.channels_named(
            f"orders-{code.lower()}", parent_id=int(found["announcements"]["id"])
        )
        if not threads:
            return None
        found[f"orders:{code}"] = threads[0]
    welcome = [
        m
        for m in world.messages[int(found["announcements"]["id"])]
        if "is being set up" in m["content"]
    ]
    if not welcome:
        return None
    return found


async def new_campaign(
    fake: FakeDiscord,
    name: str = "Seven Swords",
    scenario: str = "default",
    *,
    channel: dict[str, Any] | int | None = None,
    **options: Any,
) -> dict[str, Any]:
    """``/campaign new`` as the admin in ``channel`` (default: the first server's #general);
    returns :func:`setup_done`'s places once all exist."""
    record = await fake.slash(
        fake.admin, "campaign new", name=name, scenario=scenario, channel=channel, **options
    )
    assert record.ephemeral, record.text
    assert f"Setting up **{name}**" in record.text
    # the reply names every faction that gets an orders thread: "... Dawnians (DAW), ..."
    factions = re.findall(r"\(([A-Z]{3})\)", record.text.split("orders thread", 1)[1])
    assert factions, record.text
    found: dict[str, Any] = await fake.wait_for(
        lambda: setup_done(fake, name, factions), what=f"the set-up of {name}"
    )
    return found


def thread_members(fake: FakeDiscord, thread: dict[str, Any]) -> set[int]:
    return fake.world.thread_members[int(thread["id"])]


async def start_campaign(
    fake: FakeDiscord,
    *,
    name: str = "Seven Swords",
    scenario: str = "skirmish",
    players: dict[str, FakeUser] | None = None,
    umpire: FakeUser | None = None,
) -> dict[str, Any]:
    """A campaign set up, staffed and started through the bot's own commands.

    ``players`` maps faction codes to members (default: the first player holds DAW); the
    umpire defaults to the fake's last player. Returns :func:`setup_done`'s places once every
    player is in their orders thread and the start is answered.
    """
    umpire = umpire or fake.players[-1]
    players = players if players is not None else {"DAW": fake.players[0]}
    found = await new_campaign(fake, name, scenario, umpire=umpire)
    talk = found["table-talk"]
    for faction, member in players.items():
        record = await fake.slash(
            umpire, "campaign assign", member=member, faction=faction, channel=talk
        )
        assert "now plays" in record.text, record.text
    await fake.wait_for(
        lambda: all(m.id in thread_members(fake, found[f"orders:{f}"]) for f, m in players.items()),
        what="every player in their orders thread",
    )
    started = await fake.slash(umpire, "campaign start", channel=talk)
    assert "has begun" in started.text, started.text
    return found
