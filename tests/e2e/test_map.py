"""End-to-end: the map picture through the fake Discord (issue 17).

``/map`` is deferred before the picture is drawn and then answered with the PNG attached
(multipart ``payload_json`` + ``files[0]``, as Discord takes uploads); a bad name is refused at
once. The end of each faction's turn posts the new map in ``#announcements`` through the
outbox, and a restarted bot does not post it again.
"""

from __future__ import annotations

import asyncio
import io
from collections import Counter
from datetime import UTC, datetime, timedelta

from PIL import Image

from caedes_bot.domain.records import OutboxKind, OutboxMessage
from caedes_bot.ui.mapdraw import PICTURE_TOO_LARGE
from caedes_bot.ui.mapimage import WIDTH
from caedes_bot.ui.mapscene import map_scene
from tests.e2e.campaigns import new_campaign
from tests.e2e.conftest import FAST_OUTBOX, MakeBot
from tests.e2e.gameplay import QueuedDice, panel, staffed_campaign, start_bot
from tests.e2e.test_exactly_once import LATER
from tests.e2e.test_outbox_delivery import outbox_statuses
from tests.fakediscord import LOSE_ANSWER, FakeDiscord
from tests.fakediscord.uploads import UPLOAD_LIMIT

CB_MESSAGE, CB_DEFERRED = 4, 5


def picture(fake: FakeDiscord, message: dict[str, object]) -> Image.Image:
    (attachment,) = message["attachments"]  # type: ignore[misc]
    assert attachment["content_type"] == "image/png"
    data = fake.world.files[int(attachment["id"])]
    assert len(data) == attachment["size"] < UPLOAD_LIMIT
    image = Image.open(io.BytesIO(data))
    assert (image.width, image.height) == (attachment["width"], attachment["height"])
    return image


def map_posts(fake: FakeDiscord, channel: dict[str, object]) -> list[dict[str, object]]:
    return [m for m in fake.messages_in(channel) if m.get("attachments")]


async def test_map_is_deferred_then_answered_with_the_picture(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    daw = table.thread("DAW")
    answer = await fake.slash(alice, "map", channel=daw)
    assert [cb["type"] for cb in answer.callbacks] == [CB_DEFERRED]
    assert answer.ephemeral
    assert answer.reply["content"].startswith("The map in game round 1, turn of 🌅 Dawnians")
    image = picture(fake, answer.reply)
    assert image.width == WIDTH
    assert answer.reply["attachments"][0]["filename"] == "caedes-round-1-DAW.png"
    drawn = runner.bot.map_drawer.drawn
    again = await fake.slash(alice, "map", channel=table.announcements)
    assert picture(fake, again.reply).width == WIDTH
    assert runner.bot.map_drawer.drawn == drawn  # the same state is not drawn twice
    zoom = await fake.slash(alice, "map", province="hissing", faction="Dawnians", channel=daw)
    assert "around Hissing Fen and its neighbours" in zoom.text
    assert "holdings of 🌅 Dawnians (DAW) picked out" in zoom.text
    assert zoom.reply["attachments"][0]["filename"] == "caedes-round-1-DAW-hissing-fen-DAW.png"
    # bad input: refused at once, privately, nothing drawn
    wrong = await fake.slash(alice, "map", province="Ormee", channel=daw)
    assert [cb["type"] for cb in wrong.callbacks] == [CB_MESSAGE]
    assert wrong.ephemeral and "No province 'Ormee'. Did you mean Orme?" in wrong.text
    assert not wrong.reply.get("attachments")


async def test_turn_end_posts_the_new_map_once_even_after_a_restart(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-TURN-01: the Dawnians' turn ends; #announcements gets the map of the state after it,
    once. A new bot on the same database posts nothing again."""
    first = await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    daw = table.thread("DAW")
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    for _ in range(10):  # /done through the Dawnians' steps until the Orcs' turn begins
        done = await fake.slash(alice, "done", channel=daw)
        if "Orcs" in done.text and "turn" in done.text:
            break
    await fake.wait_for(lambda: map_posts(fake, table.announcements), what="the map post")
    (post,) = map_posts(fake, table.announcements)
    assert post["content"] == "The map after the turn of 🌅 Dawnians (DAW) in game round 1."
    assert post["attachments"][0]["filename"] == "caedes-round-1-ORC.png"
    service = first.bot.service
    (campaign,) = await service.campaigns()
    state = await service.get_state(campaign.id)
    expected = await first.bot.map_drawer.png(map_scene(state, first.bot.ruleset))
    assert fake.world.files[int(post["attachments"][0]["id"])] == expected  # the new state
    await first.stop()

    second = await start_bot(make_bot, QueuedDice())
    # a marker queued behind everything in #announcements: once it is there, nothing older
    # is still waiting to be posted
    await second.bot.service.queue_messages(
        campaign.id,
        [OutboxMessage("announcements", OutboxKind.POST, {"content": "marker after restart"})],
    )
    await fake.wait_for(
        lambda: any(
            m["content"] == "marker after restart" for m in fake.messages_in(table.announcements)
        ),
        what="the marker",
    )
    assert len(map_posts(fake, table.announcements)) == 1
    await second.stop()


async def test_a_map_post_appears_once_after_a_failed_upload_and_a_lost_answer(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """The first upload fails (Discord answers 500, and discord.py sends it again); that one
    reaches Discord but its answer is lost, so the outbox tries the row again later, after
    Discord forgot the nonce: it finds the post by its text and its attachment's name instead
    of posting it again."""
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
    retries = asyncio.Queue[None]()
    first_retry = delivery.retry

    async def watched_retry(*args: object, **kwargs: object) -> None:
        await first_retry(*args, **kwargs)  # type: ignore[arg-type]
        retries.put_nowait(None)

    delivery.retry = watched_retry  # type: ignore[method-assign]
    posts = rf"^/channels/{channel_id}/messages$"
    fake.chaos.fail(500, count=1, method="POST", path=posts)
    fake.chaos.fail(LOSE_ANSWER, count=1, method="POST", path=posts)
    state = await service.get_state(campaign.id)
    scene = map_scene(state, runner.bot.ruleset)
    payload = {"content": "the map, once", "map": scene.to_json()}
    await service.queue_messages(
        campaign.id, [OutboxMessage("announcements", OutboxKind.POST, payload)]
    )
    await asyncio.wait_for(retries.get(), timeout=20)  # the lost answer: Discord has it
    assert len(map_posts(fake, found["announcements"])) == 1
    fake.world.advance(LATER)  # ... and forgets its nonce
    shift[0] = timedelta(hours=2)
    runner.bot.outbox.wake()
    await fake.wait_for(
        lambda: fake.requests_to("GET", rf"^/channels/{channel_id}/messages$"), what="the look"
    )
    await runner.stop()
    (post,) = map_posts(fake, found["announcements"])
    assert post["content"] == "the map, once"
    uploads = [r for r in fake.requests if r.method == "POST" and r.uploads]
    assert len(uploads) == 2  # the failed upload and the one whose answer was lost
    assert uploads[0].uploads[0].data == uploads[1].uploads[0].data  # the same picture
    statuses = await outbox_statuses(database_url)
    assert statuses == Counter({"delivered": sum(statuses.values())}), statuses


async def test_map_zooms_on_a_sea_zone_and_names_what_is_allowed(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """``/map province:`` takes a sea zone too (the picture zooms on it, its coasts and the
    seas beside it), offers sea zones as you type, and refuses a name that matches no place,
    saying what it takes."""
    await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    daw = table.thread("DAW")
    offered = await fake.autocomplete(alice, "map", "province", "dilgac", channel=daw)
    assert {"name": "Dilgac Sound (sea zone)", "value": "dilgac-sound"} in offered
    sea = await fake.slash(alice, "map", province="dilgac sound", channel=daw)
    assert [cb["type"] for cb in sea.callbacks] == [CB_DEFERRED]
    assert sea.ephemeral and "around Dilgac Sound and its neighbours" in sea.text
    assert sea.reply["attachments"][0]["filename"] == "caedes-round-1-DAW-dilgac-sound.png"
    assert picture(fake, sea.reply).width == WIDTH
    nowhere = await fake.slash(alice, "map", province="Atlantis", channel=daw)
    assert [cb["type"] for cb in nowhere.callbacks] == [CB_MESSAGE]
    assert nowhere.ephemeral and "No province 'Atlantis'." in nowhere.text
    assert "Allowed: a province's or sea zone's name (or its start)" in nowhere.text
    assert not nowhere.reply.get("attachments")


async def test_a_map_post_over_the_upload_limit_is_posted_without_its_picture(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """Discord refuses an upload over the guild's limit with 413 (code 40005) however often it
    is tried: the post's text still appears, once, saying the picture was left out, and the
    row is delivered, not failed (nothing owed to Discord is lost)."""
    runner = await make_bot(outbox_options=FAST_OUTBOX)
    found = await new_campaign(fake, scenario="skirmish")
    service = runner.bot.service
    (campaign,) = await service.campaigns()
    drawer = runner.bot.map_drawer

    async def huge_png(_scene: object) -> bytes:
        return b"\x89PNG" + bytes(UPLOAD_LIMIT + 1)

    drawer.png = huge_png  # type: ignore[method-assign]
    state = await service.get_state(campaign.id)
    payload = {"content": "the map, too big", "map": map_scene(state, runner.bot.ruleset).to_json()}
    await service.queue_messages(
        campaign.id, [OutboxMessage("announcements", OutboxKind.POST, payload)]
    )
    await fake.wait_for(
        lambda: [
            m
            for m in fake.messages_in(found["announcements"])
            if m["content"].startswith("the map, too big")
        ],
        what="the map post's text",
    )
    await runner.stop()
    (post,) = [
        m
        for m in fake.messages_in(found["announcements"])
        if m["content"].startswith("the map, too big")
    ]
    assert post["content"] == f"the map, too big\n{PICTURE_TOO_LARGE}"
    assert not post.get("attachments")
    channel_id = int(found["announcements"]["id"])
    posts = fake.requests_to("POST", rf"^/channels/{channel_id}/messages$")
    assert [r.status for r in posts][-2:] == [413, 200]  # refused; then the text alone
    statuses = await outbox_statuses(database_url)
    assert statuses == Counter({"delivered": sum(statuses.values())}), statuses
