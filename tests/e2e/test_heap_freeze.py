"""``freeze_gc`` (as ``bot.py`` runs the bot): what is alive after start-up, the servers in
discord.py's cache included, is out of the garbage collector's sight (design.md section 4)."""

from __future__ import annotations

import asyncio
import gc

from tests.e2e.conftest import MakeBot
from tests.fakediscord import FakeDiscord


async def test_the_start_up_heap_is_frozen_with_the_servers_in_the_cache(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    try:
        runner = await make_bot(freeze_gc=True)
        bot = runner.bot
        for _ in range(1000):  # on_ready runs a few turns of the loop after READY
            if bot.heap_frozen_at_ready:
                break
            await asyncio.sleep(0)
        assert bot.heap_frozen_at_ready
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None
        tracked = gc.get_objects()  # frozen objects are not among them
        assert gc.get_freeze_count() > 0
        assert not any(o is guild for o in tracked)
        assert not any(o is bot.service for o in tracked)
        later: list[object] = []  # made after start-up: tracked as usual
        assert any(o is later for o in gc.get_objects())
    finally:
        gc.unfreeze()  # the rest of the test session collects as usual


async def test_without_freeze_gc_nothing_is_frozen(fake: FakeDiscord, make_bot: MakeBot) -> None:
    before = gc.get_freeze_count()
    runner = await make_bot()
    assert not runner.bot.heap_frozen_at_ready
    assert gc.get_freeze_count() == before
