"""End-to-end: messages a moderator deleted, and ``/panel``.

Discord answers an edit of a deleted message with 404, code 10008; the fake does the same
(``FakeDiscord.delete_as_moderator``). An edit that finds its message gone posts it afresh and
the new message takes the old one's place, so the turn panel keeps its buttons for the rest of
the turn and the battle message its controls. ``/panel`` posts the turn panel again.

Rule IDs: R-TURN-02 (the steps of a turn, ended from the panel), R-GEN-07 (the panel is private
to its faction and the umpire), R-COMBAT-16 (one battle message, edited as the battle goes).
"""

from __future__ import annotations

import logging

import pytest

from caedes_bot.domain.records import OutboxKind, OutboxMessage
from tests.e2e.campaigns import new_campaign
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, control, panel, panels, staffed_campaign, start_bot
from tests.e2e.harness import BotRunner
from tests.e2e.test_game_round import outbox_failures
from tests.fakediscord import FakeDiscord, all_text, message_text


async def test_a_deleted_turn_panel_is_posted_again_and_keeps_working(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """R-TURN-02: after a moderator deletes the panel, the next order posts it afresh; its
    buttons work and later orders edit the new panel, not a third one."""
    await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    fake.delete_as_moderator(first)
    done = await fake.slash(alice, "done", channel=table.thread("DAW"))
    assert "Step 1 Trade is over." in done.text
    again = await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")  # step 4 ran by itself
    assert again["id"] != first["id"]
    bought = await fake.click(alice, again, control(again, "done"))
    assert "Step 5 Buy is over." in bought.text
    await panel(fake, table, "DAW", 1, showing="**Step 6 Move**")
    assert [m["id"] for m in panels(fake, table, "DAW")] == [again["id"]]
    assert await outbox_failures(database_url) == []
    assert "Could not" not in all_text(fake.messages_in(table.found["umpire"]))


async def test_a_deleted_battle_message_is_posted_again_and_edited_after(
    fake: FakeDiscord, bot: BotRunner, database_url: str
) -> None:
    """R-COMBAT-16: the battle message's edits (``message_key`` ``battle:<id>``) survive its
    deletion: the first edit after it posts it again, the next edits that new message."""
    found = await new_campaign(fake, scenario="skirmish")
    service = bot.bot.service
    (campaign,) = await service.campaigns()
    battles = found["battles"]

    def shown(text: str) -> list[dict[str, object]]:
        return [m for m in fake.messages_in(battles) if text in message_text(m)]

    await service.queue_messages(
        campaign.id,
        [OutboxMessage("battles", OutboxKind.POST, {"content": "Battle: round 1"}, "battle:7")],
    )
    (posted,) = await fake.wait_for(lambda: shown("round 1"), what="the battle message")
    fake.delete_as_moderator(posted)
    edit = {"content": "Battle: round 2", "message_key": "battle:7"}
    await service.queue_messages(campaign.id, [OutboxMessage("battles", OutboxKind.EDIT, edit)])
    (again,) = await fake.wait_for(lambda: shown("round 2"), what="the battle message again")
    assert again["id"] != posted["id"]
    edit = {"content": "Battle: round 3", "message_key": "battle:7"}
    await service.queue_messages(campaign.id, [OutboxMessage("battles", OutboxKind.EDIT, edit)])
    await fake.wait_for(lambda: shown("round 3"), what="round 3")
    assert [m["id"] for m in fake.messages_in(battles) if "Battle" in str(m["content"])] == [
        again["id"]
    ]
    assert await outbox_failures(database_url) == []


async def test_panel_posts_the_turn_panel_again_for_the_members_faction(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """R-GEN-07, R-TURN-02: ``/panel`` posts the panel of the member's own faction afresh; the
    turn goes on on the new one. Others get a clear private answer and nothing is posted."""
    await start_bot(make_bot, QueuedDice())
    alice, bob, carol = fake.players[0], fake.players[1], fake.players[2]
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    caplog.set_level(logging.INFO, logger="caedes_bot")
    reposted = await fake.slash(alice, "panel", channel=table.found["table-talk"])
    assert reposted.ephemeral and "posted again" in reposted.text
    await fake.wait_for(lambda: len(panels(fake, table, "DAW")) == 2, what="a second panel")
    newest = panels(fake, table, "DAW")[-1]
    assert "**Step 1 Trade**" in message_text(newest)
    assert f"<@{alice.id}>" not in str(newest["content"])  # asked for: no ping
    await fake.click(alice, newest, control(newest, "done"))
    await fake.wait_for(
        lambda: "**Step 5 Buy**" in message_text(panels(fake, table, "DAW")[-1]),
        what="the new panel edited",
    )
    assert "**Step 1 Trade**" in message_text(panels(fake, table, "DAW")[0])
    assert panels(fake, table, "DAW")[0]["id"] == first["id"]
    # the Orcs' player: not the Orcs' turn, so no panel now
    not_yet = await fake.slash(bob, "panel", channel=table.thread("ORC"))
    assert not_yet.ephemeral and "no turn panel for" in not_yet.text
    assert "Dawnians" in not_yet.text
    # a member who plays nothing here
    refused = await fake.slash(carol, "panel", channel=table.found["table-talk"])
    assert refused.ephemeral and "You play no faction in this campaign" in refused.text
    assert panels(fake, table, "ORC") == []
    assert len(panels(fake, table, "DAW")) == 2
    loud = [r for r in caplog.records if r.name.startswith("caedes_bot")]
    assert [r.getMessage() for r in loud if r.levelno > logging.INFO] == []
    assert await outbox_failures(database_url) == []


async def test_panel_after_a_moderator_deleted_the_panel_posts_exactly_one(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """R-TURN-02: ``/panel`` first retires the old panel; when a moderator deleted it, that
    edit finds nothing and posts nothing, so exactly one panel is posted again, and it works."""
    await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    fake.delete_as_moderator(first)
    again = await fake.slash(alice, "panel", channel=table.thread("DAW"))
    assert again.ephemeral and "posted again" in again.text
    await fake.wait_for(lambda: len(panels(fake, table, "DAW")) == 1, what="one panel again")
    newest = panels(fake, table, "DAW")[-1]
    assert newest["id"] != first["id"] and control(newest, "done")
    await fake.click(alice, newest, control(newest, "done"))
    await fake.wait_for(
        lambda: "**Step 5 Buy**" in message_text(panels(fake, table, "DAW")[-1]),
        what="the new panel edited",
    )
    assert len(panels(fake, table, "DAW")) == 1
    assert await outbox_failures(database_url) == []
