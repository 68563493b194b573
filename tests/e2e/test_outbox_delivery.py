"""End-to-end: the outbox delivers at least once, and Discord sees everything exactly once.

* a bot stopped in the middle of a campaign's set-up, after Discord made a thread whose answer
  never arrived, is replaced by a new bot on the same database, which finishes the set-up
  with no category, channel, thread or message made twice;
* while the fake answers 429, 500, 503 and drops connections, every queued message still
  arrives, in order, once.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from caedes_bot.domain.records import OutboxKind, OutboxMessage, OutboxStatus
from caedes_bot.persistence.tables import outbox
from tests.e2e.campaigns import DEFAULT_FACTIONS, new_campaign, setup_done, thread_members
from tests.e2e.conftest import FAST_OUTBOX, MakeBot
from tests.fakediscord import DROP, LOSE_ANSWER, FakeDiscord

THREADS = r"^/channels/\d+/threads$"


async def outbox_statuses(database_url: str) -> Counter[str]:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(sa.select(outbox.c.status))).all()
    finally:
        await engine.dispose()
    return Counter(str(OutboxStatus(r.status).value) for r in rows)


async def reused_places(database_url: str) -> int:
    """Creating rows that found their place already made (``result["existing"]``)."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            results = (await conn.execute(sa.select(outbox.c.result))).scalars().all()
    finally:
        await engine.dispose()
    return sum(1 for r in results if isinstance(r, dict) and r.get("existing"))


async def test_restart_mid_setup_creates_nothing_twice(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    umpire = fake.players[3]
    # The first bot retries only after an hour, so it stops with its failed rows untried.
    first = await make_bot(
        outbox_options={**FAST_OUTBOX, "base_delay": 3600.0, "max_delay": 3600.0}
    )
    # Discord makes the first orders thread but its answer is lost; the other threads fail.
    fake.chaos.fail(LOSE_ANSWER, count=1, method="POST", path=THREADS)
    fake.chaos.fail(503, seconds=3600, method="POST", path=THREADS)
    record = await fake.slash(
        fake.admin, "campaign new", name="Interrupted", scenario="default", umpire=umpire
    )
    assert "Setting up" in record.text
    world = fake.world

    def threads() -> list[dict[str, object]]:
        return [c for c in world.channels.values() if str(c["name"]).startswith("orders-")]

    await fake.wait_for(
        lambda: len(fake.requests_to("POST", THREADS)) == len(DEFAULT_FACTIONS),
        what="one try at every orders thread",
    )
    await first.stop()
    assert len(threads()) == 1  # made by Discord, unknown to the database
    assert setup_done(fake, "Interrupted", DEFAULT_FACTIONS) is None
    assert (await outbox_statuses(database_url))["pending"] > 0

    fake.chaos.clear()
    # The second bot's clock is two hours on, so the rows the first left are due.
    later = {**FAST_OUTBOX, "clock": lambda: datetime.now(UTC) + timedelta(hours=2)}
    second = await make_bot(outbox_options=later)
    found = await fake.wait_for(
        lambda: setup_done(fake, "Interrupted", DEFAULT_FACTIONS), what="the set-up to finish"
    )
    await fake.wait_for(
        lambda: all(
            umpire.id in thread_members(fake, found[f"orders:{c}"]) for c in DEFAULT_FACTIONS
        ),
        what="the umpire in every orders thread",
    )
    names = Counter(str(c["name"]) for c in world.channels.values())
    assert set(names.values()) == {1}, names
    assert len(threads()) == len(DEFAULT_FACTIONS)
    assert len(fake.requests_to("POST", THREADS)) == 2 * len(DEFAULT_FACTIONS) - 1
    welcome = [
        m
        for m in world.messages[int(found["announcements"]["id"])]
        if "being set up" in m["content"]
    ]
    assert len(welcome) == 1
    # the campaign's channels are known, so its commands work from them
    info = await fake.slash(umpire, "campaign info", channel=found["orders:DAW"])
    assert "Interrupted" in info.text
    await second.stop()
    statuses = await outbox_statuses(database_url)
    assert statuses == Counter({"delivered": sum(statuses.values())}), statuses
    assert await reused_places(database_url) == 1  # the lost thread, found by name


async def test_every_message_arrives_in_order_once_despite_faults(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await make_bot()
    found = await new_campaign(fake, scenario="skirmish")
    service = runner.bot.service
    (campaign,) = await service.campaigns()
    channel_id = int(found["announcements"]["id"])
    path = rf"^/channels/{channel_id}/messages$"
    # A 500 first: discord.py itself waits a second and retries (later tries wait longer).
    fake.chaos.fail(500, count=1, method="POST", path=path)
    # More 429s in a row than discord.py retries by itself, so the outbox retries too.
    fake.chaos.fail(429, count=7, method="POST", path=path)
    fake.chaos.fail(503, count=3, method="POST", path=path)
    fake.chaos.fail(DROP, count=2, method="POST", path=path)
    # Discord posts but the bot never hears: the retry carries the same nonce.
    fake.chaos.fail(LOSE_ANSWER, count=2, method="POST", path=path)
    texts = [f"dispatch {i}" for i in range(12)]
    await service.queue_messages(
        campaign.id,
        [OutboxMessage("announcements", OutboxKind.POST, {"content": t}) for t in texts],
    )

    def posted() -> list[str]:
        return [
            m["content"]
            for m in fake.world.messages[channel_id]
            if m["content"].startswith("dispatch")
        ]

    await fake.wait_for(lambda: len(posted()) >= len(texts), timeout=30.0, what="every message")
    assert posted() == texts
    assert all(f.remaining == 0 for f in fake.chaos.faults)
    injected = Counter(status for _, _, status in fake.chaos.injected)
    assert injected == Counter({429: 7, 503: 3, 500: 1, DROP: 2, LOSE_ANSWER: 2})


async def test_edits_follow_their_post_and_a_refusal_is_not_retried(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    runner = await make_bot()
    found = await new_campaign(fake, scenario="skirmish")
    service = runner.bot.service
    (campaign,) = await service.campaigns()
    channel_id = int(found["battles"]["id"])
    # Discord refuses the first post (403): the row fails for good and the queue moves on.
    fake.chaos.fail(403, count=1, method="POST", path=rf"^/channels/{channel_id}/messages$")
    await service.queue_messages(
        campaign.id,
        [
            OutboxMessage("battles", OutboxKind.POST, {"content": "refused"}),
            OutboxMessage(
                "battles",
                OutboxKind.POST,
                {"content": "Battle of Orme: round 1"},
                dedupe_key="battle:1",
            ),
            OutboxMessage(
                "battles",
                OutboxKind.EDIT,
                {"message_key": "battle:1", "content": "Battle of Orme: round 2"},
            ),
        ],
    )
    messages = fake.world.messages[channel_id]
    await fake.wait_for(lambda: messages and messages[-1]["edited_timestamp"], what="the edit")
    assert [m["content"] for m in messages] == ["Battle of Orme: round 2"]
    assert len(fake.requests_to("POST", rf"^/channels/{channel_id}/messages$")) == 2  # no retry
    await runner.stop()
    statuses = await outbox_statuses(database_url)
    assert statuses["failed"] == 1 and statuses["pending"] == 0


async def test_unassign_takes_the_player_out_of_the_orders_thread(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-PBP-UMP-02: a faction nobody holds goes back to the umpire."""
    await make_bot()
    found = await new_campaign(fake, scenario="skirmish")
    talk, thread = found["table-talk"], found["orders:ORC"]
    player = fake.players[0]
    await fake.slash(fake.admin, "campaign assign", member=player, faction="ORC", channel=talk)
    await fake.wait_for(
        lambda: player.id in thread_members(fake, thread), what="the player in the thread"
    )
    record = await fake.slash(fake.admin, "campaign unassign", faction="ORC", channel=talk)
    assert record.ephemeral and "run by the umpire" in record.text
    await fake.wait_for(
        lambda: player.id not in thread_members(fake, thread), what="the player out"
    )
    again = await fake.slash(fake.admin, "campaign unassign", faction="ORC", channel=talk)
    assert "Nobody holds" in again.text


async def test_posts_ping_only_the_members_they_name(fake: FakeDiscord, make_bot: MakeBot) -> None:
    """ux.md "Pings": a post pings the members it lists, never everyone, and no one else."""
    runner = await make_bot()
    found = await new_campaign(fake, scenario="skirmish")
    service = runner.bot.service
    (campaign,) = await service.campaigns()
    alice, bob = fake.players[0], fake.players[1]
    await service.queue_messages(
        campaign.id,
        [
            OutboxMessage(
                "announcements",
                OutboxKind.POST,
                {
                    "content": f"Your turn. (<@{bob.id}> waits.) @everyone",
                    "mention_user_ids": [alice.id],
                },
            ),
            OutboxMessage(
                "announcements", OutboxKind.POST, {"content": f"<@{alice.id}> took Orme."}
            ),
        ],
    )
    channel = fake.world.messages[int(found["announcements"]["id"])]
    await fake.wait_for(lambda: len(channel) >= 3, what="both posts")
    turn, capture = channel[-2], channel[-1]
    assert turn["content"].startswith(f"<@{alice.id}> Your turn.")
    assert [m["id"] for m in turn["mentions"]] == [str(alice.id)] and not turn["mention_everyone"]
    assert capture["mentions"] == [] and not capture["mention_everyone"]
