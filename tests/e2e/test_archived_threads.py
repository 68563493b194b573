"""End-to-end: threads that Discord archived.

Discord archives a thread after a week without activity (sooner on a busy server) and then
refuses member changes and message edits in it with 400, code 50083; the fake does the same
(``World.set_archived``, ``World.advance``). The bot holds Manage Threads: it unarchives and
carries on, never reports a missing permission, and never unlocks a locked thread.

Rule IDs: R-PBP-NEG-06 (each faction's private orders thread), R-PBP-UMP-04 (the umpire reads
every orders thread), R-SETUP-02 (a player joins the thread of the faction given).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from tests.e2e.campaigns import DEFAULT_FACTIONS, new_campaign, thread_members
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, control, panel, staffed_campaign, start_bot
from tests.e2e.harness import BotRunner
from tests.e2e.test_game_round import outbox_failures
from tests.fakediscord import FakeDiscord, all_text

JSON = dict[str, Any]


def archived(thread: JSON) -> bool:
    return bool(thread["thread_metadata"]["archived"])


def unarchiving(fake: FakeDiscord, thread: JSON) -> list[int]:
    """Indexes in the request log of the bot's PATCHes that unarchived ``thread``."""
    return [
        i
        for i, r in enumerate(fake.requests)
        if r.method == "PATCH"
        and r.path == f"/channels/{thread['id']}"
        and isinstance(r.body, dict)
        and r.body.get("archived") is False
    ]


def umpire_notices(fake: FakeDiscord, found: dict[str, Any]) -> str:
    return all_text(fake.messages_in(found["umpire"]))


async def test_assign_adds_the_player_to_an_archived_orders_thread(
    fake: FakeDiscord, bot: BotRunner, database_url: str
) -> None:
    """R-SETUP-02: "... joins its orders thread" comes true although Discord archived it."""
    alice, umpire = fake.players[0], fake.players[3]
    found = await new_campaign(fake, umpire=umpire)
    daw = found["orders:DAW"]
    await fake.wait_for(lambda: umpire.id in thread_members(fake, daw), what="the umpire in")
    fake.world.set_archived(int(daw["id"]), archived=True)
    given = await fake.slash(
        umpire, "campaign assign", member=alice, faction="DAW", channel=found["table-talk"]
    )
    assert "now plays" in given.text
    await fake.wait_for(lambda: alice.id in thread_members(fake, daw), what="alice in the thread")
    assert not archived(daw)
    assert unarchiving(fake, daw)
    assert await outbox_failures(database_url) == []
    assert "Could not" not in umpire_notices(fake, found)


async def test_a_new_umpire_moves_into_threads_archived_for_idleness(
    fake: FakeDiscord, bot: BotRunner, database_url: str
) -> None:
    """R-PBP-UMP-04: after eight idle days every orders thread is archived; naming another
    umpire still takes the old one out of each and puts the new one in."""
    old, new = fake.players[2], fake.players[3]
    found = await new_campaign(fake, umpire=old)
    threads = [found[f"orders:{c}"] for c in DEFAULT_FACTIONS]
    await fake.wait_for(
        lambda: all(old.id in thread_members(fake, t) for t in threads), what="the first umpire"
    )
    fake.world.advance(dt.timedelta(days=6))
    assert not any(archived(t) for t in threads)  # a week is the longest Discord waits
    fake.world.advance(dt.timedelta(days=2))
    assert all(archived(t) for t in threads)
    named = await fake.slash(fake.admin, "campaign umpire", member=new, channel=found["table-talk"])
    assert "is now the umpire" in named.text
    await fake.wait_for(
        lambda: all(
            new.id in thread_members(fake, t) and old.id not in thread_members(fake, t)
            for t in threads
        ),
        what="the new umpire in every orders thread and the old one out",
    )
    assert await outbox_failures(database_url) == []
    assert "Could not" not in umpire_notices(fake, found)


async def test_a_locked_thread_is_unarchived_and_stays_locked(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    alice, umpire = fake.players[0], fake.players[3]
    found = await new_campaign(fake, umpire=umpire)
    orc = found["orders:ORC"]
    await fake.wait_for(lambda: umpire.id in thread_members(fake, orc), what="the umpire in")
    fake.world.set_archived(int(orc["id"]), archived=True, locked=True)
    await fake.slash(
        umpire, "campaign assign", member=alice, faction="ORC", channel=found["table-talk"]
    )
    await fake.wait_for(lambda: alice.id in thread_members(fake, orc), what="alice in the thread")
    assert not archived(orc)
    assert orc["thread_metadata"]["locked"] is True
    assert all("locked" not in (fake.requests[i].body or {}) for i in unarchiving(fake, orc))


async def test_the_turn_panel_is_edited_in_an_archived_orders_thread(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """The panel edit after an order reaches a thread Discord archived meanwhile; the umpire
    is not told to check permissions."""
    await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    daw = table.thread("DAW")
    # Discord archives the thread just before the bot edits the panel in it
    fake.before_next(
        "PATCH",
        rf"^/channels/{daw['id']}/messages/{first['id']}$",
        lambda: fake.world.set_archived(int(daw["id"]), archived=True),
    )
    done = await fake.click(alice, first, control(first, "done"))
    assert "Step 1 Trade is over." in done.text
    await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    assert unarchiving(fake, daw)
    assert await outbox_failures(database_url) == []
    assert "Could not" not in umpire_notices(fake, table.found)


async def test_an_orders_thread_is_unarchived_when_its_faction_turn_begins(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """R-TURN-01: when the Orcs' turn begins, their archived orders thread is unarchived before
    the turn panel is posted in it."""
    await start_bot(make_bot, QueuedDice())
    alice, bob = fake.players[0], fake.players[1]
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    orc = table.thread("ORC")
    fake.world.set_archived(int(orc["id"]), archived=True)
    daw = table.thread("DAW")
    for _ in range(10):  # /done through the Dawnians' steps until the Orcs' turn begins
        done = await fake.slash(alice, "done", channel=daw)
        if "Orcs" in done.text and "turn" in done.text:
            break
    orc_panel = await panel(fake, table, "ORC", 1, showing="**Step 1 Trade**")
    assert not archived(orc)
    posted = [
        i
        for i, r in enumerate(fake.requests)
        if r.method == "POST" and r.path == f"/channels/{orc['id']}/messages"
    ]
    assert unarchiving(fake, orc) and posted and unarchiving(fake, orc)[0] < posted[-1]
    assert f"<@{bob.id}>" in orc_panel["content"]
    assert await outbox_failures(database_url) == []
