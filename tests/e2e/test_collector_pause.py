"""End-to-end: the garbage collector does not run by itself while an order is being answered,
and runs again once the answer is sent (caedes_bot.collector; issue 9, decision 0009), through
the real bot and the fake Discord."""

from __future__ import annotations

import gc
from typing import Any

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, control, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord


async def test_the_collector_is_held_off_while_an_order_is_answered(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    bot = runner.bot
    assert bot.collector is not None
    service = bot.service
    during: list[bool] = []  # whether the collector could run, at each order
    plain = service.submit

    async def watched(*args: Any, **kwargs: Any) -> Any:
        during.append(gc.isenabled())
        return await plain(*args, **kwargs)

    service.submit = watched  # type: ignore[method-assign]
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    done = await fake.click(alice, first, control(first, "done"))  # a button
    assert done.text.startswith("Step 1 Trade is over."), done.text
    bought = await fake.slash(alice, "buy", unit="Infantry", channel=table.thread("DAW"))
    assert "Bought" in bought.text, bought.text
    assert len(during) >= 2 and not any(during), during
    pause = bot.collector
    await fake.wait_for(lambda: pause.held == 0, what="every hold let go")
    # back after a few quiet milliseconds (or already)
    assert pause.resuming or (gc.isenabled() and not pause.paused)
    assert pause.forced == 0


async def test_closing_the_bot_gives_the_collector_back(make_bot: MakeBot) -> None:
    runner = await make_bot()
    assert runner.bot.collector is not None
    await runner.stop()
    assert gc.isenabled() and not runner.bot.collector.paused


async def test_without_the_pause_there_is_none(make_bot: MakeBot) -> None:
    runner = await make_bot(pause_gc=False)
    assert runner.bot.collector is None
