"""The fake Discord refuses what Discord refuses, with Discord's status and JSON error code.

Driven on the fake's :class:`~tests.fakediscord.World` directly (no bot), so each behaviour the
bot's own end-to-end tests rely on is pinned down here. Each cites Discord's documentation in
:mod:`tests.fakediscord.limits` and at the place the world enforces it.
"""

from __future__ import annotations

import datetime as dt

import pytest

from caedes_bot.app import REQUIRED_PERMISSIONS
from tests.fakediscord import ApiError, World
from tests.fakediscord.world import GUILD_TEXT, JSON, PRIVATE_THREAD


@pytest.fixture
def world() -> World:
    return World(token="t", bot_permissions=REQUIRED_PERMISSIONS.value)


def thread(world: World) -> JSON:
    parent = world.create_channel_raw(name="announcements", type=GUILD_TEXT)
    made = world.create_thread(
        world.bot.id,
        int(parent["id"]),
        {"name": "orders-daw", "type": PRIVATE_THREAD, "auto_archive_duration": 10080},
    )
    return world.channel(int(made["id"]))


def refusal(call: object, *args: object) -> tuple[int, int]:
    assert callable(call)
    with pytest.raises(ApiError) as caught:
        call(*args)
    return caught.value.status, caught.value.code


def test_an_archived_thread_refuses_member_changes_and_edits_with_50083(world: World) -> None:
    t = thread(world)
    tid = int(t["id"])
    player = world.add_member("player")
    message, _ = world.post_message(world.bot.id, tid, {"content": "panel"})
    world.set_archived(tid, archived=True)
    bot = world.bot.id
    assert refusal(world.add_thread_member, bot, tid, player.id) == (400, 50083)
    assert refusal(world.remove_thread_member, bot, tid, bot) == (400, 50083)
    assert refusal(world.edit_message, bot, message, {"content": "new"}) == (400, 50083)
    # deleting is allowed in an archived thread
    world.delete_message(message)
    assert world.messages[tid] == []


def test_a_post_unarchives_a_thread_unless_it_is_locked(world: World) -> None:
    t = thread(world)
    tid = int(t["id"])
    world.set_archived(tid, archived=True)
    world.post_message(world.bot.id, tid, {"content": "wakes it"})
    assert t["thread_metadata"]["archived"] is False
    world.set_archived(tid, archived=True, locked=True)
    assert refusal(world.post_message, world.bot.id, tid, {"content": "no"}) == (400, 50083)
    # unarchiving by PATCH keeps the lock unless the body unlocks it
    world.modify_channel(world.bot.id, tid, {"archived": False})
    assert t["thread_metadata"]["archived"] is False
    assert t["thread_metadata"]["locked"] is True


def test_in_a_locked_thread_only_members_with_manage_threads_post_or_unarchive(
    world: World,
) -> None:
    """A locked thread is read-only to its members: a player's post is refused (403, 50013)
    and so is the player's PATCH to unarchive or unlock it; the bot (Manage Threads) still
    posts; ``locked: false`` opens it to the player again
    (https://discord.com/developers/docs/resources/channel#thread-metadata-object)."""
    t = thread(world)
    tid = int(t["id"])
    player = world.add_member("player")
    world.add_thread_member(world.bot.id, tid, player.id)
    world.post_message(player.id, tid, {"content": "hello"})
    world.modify_channel(world.bot.id, tid, {"locked": True})
    assert world.is_locked(tid) and not world.can_send(player.id, tid)
    assert world.can_see(player.id, tid)  # read-only, not hidden
    assert refusal(world.post_message, player.id, tid, {"content": "no"}) == (403, 50013)
    assert refusal(world.modify_channel, player.id, tid, {"locked": False}) == (403, 50013)
    world.post_message(world.bot.id, tid, {"content": "a notice"})
    world.set_archived(tid, archived=True)
    assert refusal(world.modify_channel, player.id, tid, {"archived": False}) == (403, 50013)
    world.modify_channel(world.bot.id, tid, {"locked": False, "archived": False})
    assert not world.is_locked(tid) and not t["thread_metadata"]["archived"]
    world.post_message(player.id, tid, {"content": "back"})


def test_threads_archive_after_their_idle_time_on_the_fake_clock(world: World) -> None:
    t = thread(world)
    tid = int(t["id"])
    world.advance(dt.timedelta(days=5))
    world.post_message(world.bot.id, tid, {"content": "activity"})  # the idle time restarts
    world.advance(dt.timedelta(days=6))
    assert t["thread_metadata"]["archived"] is False
    world.advance(dt.timedelta(days=1, minutes=1))
    assert t["thread_metadata"]["archived"] is True


def test_a_server_holds_500_channels_and_a_category_50(world: World) -> None:
    owner = world.owner.id
    category = world.create_channel(owner, {"name": "Camp", "type": 4})
    for i in range(50):
        world.create_channel(owner, {"name": f"c{i}", "parent_id": category["id"]})
    one_more = {"name": "c51", "parent_id": category["id"]}
    assert refusal(world.create_channel, owner, one_more) == (400, 50035)
    with pytest.raises(ApiError) as caught:
        world.create_channel(owner, one_more)
    assert "parent_id" in caught.value.body()["errors"]
    while world.channel_count() < 500:
        world.create_channel_raw(name="filler", type=GUILD_TEXT)
    assert refusal(world.create_channel, owner, {"name": "one-more"}) == (400, 30013)


def test_a_server_holds_a_capped_number_of_active_threads(world: World) -> None:
    world.max_active_threads = 2  # Discord's cap is 1,000; the fake's can be lowered
    first, _second = thread(world), thread(world)
    assert refusal(thread, world) == (400, 160006)
    # an archived thread does not count, and unarchiving it needs room again
    world.set_archived(int(first["id"]), archived=True)
    third = thread(world)
    assert refusal(world.modify_channel, world.bot.id, int(first["id"]), {"archived": False}) == (
        400,
        160006,
    )
    assert refusal(world.post_message, world.bot.id, int(first["id"]), {"content": "x"}) == (
        400,
        160006,
    )
    assert third["thread_metadata"]["archived"] is False


def test_a_nonce_is_remembered_for_a_few_minutes_of_the_fake_clock(world: World) -> None:
    channel = int(world.general["id"])
    body = {"content": "once", "nonce": "row-1", "enforce_nonce": True}
    first, made = world.post_message(world.bot.id, channel, body)
    again, made_again = world.post_message(world.bot.id, channel, body)
    assert made and not made_again and again["id"] == first["id"]
    world.advance(dt.timedelta(minutes=10))
    later, made_later = world.post_message(world.bot.id, channel, body)
    assert made_later and later["id"] != first["id"]
    assert [m["content"] for m in world.messages[channel]] == ["once", "once"]
