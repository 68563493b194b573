"""End-to-end: Discord's limits on a server (500 channels, 1,000 active threads).

``/campaign new`` on a server near a limit refuses before it makes anything, saying which limit
and how many channels and threads a campaign needs; a negotiation thread past the cap is
refused to the player, and one that Discord refuses at delivery reaches the umpire as what it
is (a full server), not as a missing permission.

Rule IDs: R-PBP-NEG-06 (an orders thread per faction), R-PBP-NEG-01 (a negotiation thread).
"""

from __future__ import annotations

import asyncio

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, staffed_campaign, start_bot
from tests.e2e.test_game_round import outbox_failures
from tests.fakediscord import FakeDiscord, all_text
from tests.fakediscord.world import GUILD_TEXT, PRIVATE_THREAD


def fill_channels(fake: FakeDiscord, total: int) -> None:
    while fake.world.channel_count() < total:
        fake.world.create_channel_raw(name="filler", type=GUILD_TEXT)


def fill_threads(fake: FakeDiscord, total: int) -> None:
    general = int(fake.world.general["id"])
    while fake.world.active_thread_count() < total:
        fake.world.create_thread(
            fake.world.owner.id, general, {"name": "chat", "type": PRIVATE_THREAD}
        )


async def test_campaign_new_refuses_on_a_server_near_its_channel_limit(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    fill_channels(fake, 496)  # a campaign needs 5 more: a category and four channels
    runner = await make_bot()
    before = len(fake.world.channels)
    record = await fake.slash(fake.admin, "campaign new", name="Crowded", scenario="default")
    assert record.ephemeral
    assert "no room for a campaign" in record.text
    assert "5 channels (a category and 4 channels) and 7 threads" in record.text
    assert "500 channels" in record.text and "this one has 496" in record.text
    assert len(fake.world.channels) == before
    assert await runner.bot.service.campaigns() == []
    # without #table-talk it needs one channel fewer, and fits
    fitted = await fake.slash(
        fake.admin, "campaign new", name="Crowded", scenario="default", table_talk=False
    )
    assert "Setting up **Crowded**" in fitted.text


async def test_campaign_new_refuses_on_a_server_near_its_thread_limit(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    fill_threads(fake, 995)
    runner = await make_bot()
    record = await fake.slash(fake.admin, "campaign new", name="Busy", scenario="default")
    assert record.ephemeral and "1,000 active threads" in record.text
    assert "this one has 995" in record.text and "7 threads" in record.text
    assert await runner.bot.service.campaigns() == []
    # the skirmish scenario's three orders threads still fit
    fitted = await fake.slash(fake.admin, "campaign new", name="Busy", scenario="skirmish")
    assert "Setting up **Busy**" in fitted.text


async def test_a_negotiation_thread_past_the_thread_limit(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """R-PBP-NEG-01: at the cap the player is told at once; when Discord refuses it at
    delivery (the cap met meanwhile) the umpire hears that the server is full."""
    fill_threads(fake, 997)  # with the campaign's three orders threads: Discord's 1,000
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob = fake.players[0], fake.players[1]
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    daw = table.thread("DAW")
    guild = runner.bot.get_guild(fake.guild_id)
    assert guild is not None and len(guild.threads) == 1000
    made = len(fake.world.channels)
    refused = await fake.slash(alice, "negotiate", faction="Acherousians", channel=daw)
    assert refused.ephemeral and "no room for a negotiation thread" in refused.text
    assert "1,000 active threads" in refused.text and "this one has 1000" in refused.text
    assert len(fake.world.channels) == made
    assert await outbox_failures(database_url) == []
    # a thread is archived, so the bot sees room; but Discord's cap is met again meanwhile
    filler = next(c for c in fake.world.channels_named("chat"))
    heard = asyncio.ensure_future(runner.bot.wait_for("raw_thread_update", timeout=10))
    fake.world.set_archived(int(filler["id"]), archived=True)
    await heard  # the bot's cache drops the archived thread
    assert len(guild.threads) == 999
    fake.world.max_active_threads = 999
    asked = await fake.slash(alice, "negotiate", faction="Orcs", channel=daw)
    assert "is being made" in asked.text
    notices = table.found["umpire"]
    await fake.wait_for(
        lambda: "Could not make the thread talks-daw-orc" in all_text(fake.messages_in(notices)),
        what="the umpire's notice",
    )
    notice = all_text(fake.messages_in(notices))
    assert "limit of 1,000 active threads" in notice
    assert "permissions" not in notice
    failures = await outbox_failures(database_url)
    assert "create_thread" in failures[0] and "limit of 1,000 active threads" in failures[0]
