"""End-to-end: every post appears once, even after Discord has forgotten its nonce.

Discord drops a repeated post only if its nonce came in the past few minutes; the fake forgets
nonces after :data:`~tests.fakediscord.limits.NONCE_MEMORY` of its clock (``World.advance``).
So the bot marks each row delivered as soon as Discord accepts it, and before posting again a
row that may have reached Discord (a retry, or a row pending when it started) it looks for it
among its own newer messages in the channel.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from caedes_bot.domain.records import OutboxKind, OutboxMessage
from caedes_bot.service.delivery import Delivered
from tests.e2e.campaigns import new_campaign
from tests.e2e.conftest import FAST_OUTBOX, MakeBot
from tests.e2e.test_outbox_delivery import outbox_statuses
from tests.fakediscord import LOSE_ANSWER, FakeDiscord

#: Past Discord's memory of a nonce (a few minutes).
LATER = timedelta(minutes=10)


def texts_in(fake: FakeDiscord, channel_id: int, prefix: str) -> list[str]:
    return [
        str(m["content"])
        for m in fake.world.messages[channel_id]
        if str(m["content"]).startswith(prefix)
    ]


async def test_a_post_whose_answer_was_lost_is_not_posted_again_after_the_window(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """Discord made the message but the bot never heard; the retry comes after Discord has
    forgotten the nonce, and finds the message instead of posting it again."""
    shift = [timedelta(0)]
    runner = await make_bot(
        outbox_options={
            **FAST_OUTBOX,
            "base_delay": 3600.0,
            "max_delay": 3600.0,
            "clock": lambda: datetime.now(UTC) + shift[0],
        }
    )
    found = await new_campaign(fake, scenario="skirmish")
    service = runner.bot.service
    (campaign,) = await service.campaigns()
    channel_id = int(found["announcements"]["id"])
    delivery = runner.bot.outbox.delivery
    retried = asyncio.Event()
    first_retry = delivery.retry

    async def watched_retry(*args: object, **kwargs: object) -> None:
        await first_retry(*args, **kwargs)  # type: ignore[arg-type]
        retried.set()

    delivery.retry = watched_retry  # type: ignore[method-assign]
    fake.chaos.fail(LOSE_ANSWER, count=1, method="POST", path=rf"^/channels/{channel_id}/messages$")
    texts = [f"once {i}" for i in range(3)]
    await service.queue_messages(
        campaign.id,
        [OutboxMessage("announcements", OutboxKind.POST, {"content": t}) for t in texts],
    )
    await asyncio.wait_for(retried.wait(), timeout=10)  # a guard, not a synchronisation
    assert texts_in(fake, channel_id, "once") == ["once 0"]  # Discord has it
    fake.world.advance(LATER)  # ... and forgets its nonce
    shift[0] = timedelta(hours=2)  # the retry is due
    runner.bot.outbox.wake()
    await fake.wait_for(
        lambda: len(texts_in(fake, channel_id, "once")) >= len(texts), what="every post"
    )
    assert texts_in(fake, channel_id, "once") == texts
    assert fake.requests_to("GET", rf"^/channels/{channel_id}/messages$")  # it looked
    await runner.stop()
    statuses = await outbox_statuses(database_url)
    assert statuses == Counter({"delivered": sum(statuses.values())}), statuses


async def test_a_bot_killed_mid_delivery_posts_nothing_twice_after_the_window(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """The bot dies right after Discord accepted the ninth of twenty posts, before it could
    record it; the next bot starts after Discord forgot the nonces. Every post appears once,
    in order, the repeated texts as often as they were queued."""
    first = await make_bot(shutdown_grace=0.05)
    found = await new_campaign(fake, scenario="skirmish")
    service = first.bot.service
    (campaign,) = await service.campaigns()
    channel_id = int(found["announcements"]["id"])
    delivery = first.bot.outbox.delivery
    record_marks = delivery.mark_delivered
    accepted = 0
    dead = asyncio.Event()

    async def dies_at_the_ninth(done: Sequence[Delivered], *, now: datetime) -> None:
        nonlocal accepted
        posts = [d for d in done if d.record.channel_key == "announcements"]
        if posts and accepted + len(posts) >= 9:
            dead.set()
            await asyncio.Event().wait()  # killed: nothing more is written
        accepted += len(posts)
        await record_marks(done, now=now)

    delivery.mark_delivered = dies_at_the_ninth  # type: ignore[method-assign]
    texts = [f"post {i}" if i % 4 else "post: the same text" for i in range(20)]
    await service.queue_messages(
        campaign.id,
        [OutboxMessage("announcements", OutboxKind.POST, {"content": t}) for t in texts],
    )
    await asyncio.wait_for(dead.wait(), timeout=10)  # a guard, not a synchronisation
    await first.stop()
    posted = texts_in(fake, channel_id, "post")
    assert posted == texts[:9]  # the ninth reached Discord; the bot never recorded it
    fake.world.advance(LATER)
    later = {**FAST_OUTBOX, "clock": lambda: datetime.now(UTC) + timedelta(hours=2)}
    second = await make_bot(outbox_options=later)
    await fake.wait_for(
        lambda: len(texts_in(fake, channel_id, "post")) >= len(texts), what="every post"
    )
    assert texts_in(fake, channel_id, "post") == texts
    await second.stop()
    statuses = await outbox_statuses(database_url)
    assert statuses == Counter({"delivered": sum(statuses.values())}), statuses
