"""End-to-end, through the real bot and the fake Discord: the garbage collector does not run
by itself while an order is being answered and runs again once the answer is sent
(caedes_bot.collector), and the interpreter lock switches every millisecond while the bot runs
(issue 9, decision 0009)."""

from __future__ import annotations

import gc
import sys
from typing import Any

import pytest

from caedes_bot.app import GIL_SWITCH_SECONDS
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


async def test_the_interpreter_lock_switches_every_millisecond_while_the_bot_runs(
    make_bot: MakeBot,
) -> None:
    before = sys.getswitchinterval()
    runner = await make_bot()
    assert sys.getswitchinterval() == pytest.approx(GIL_SWITCH_SECONDS)
    assert runner.bot.collector is not None
    await runner.stop()
    assert sys.getswitchinterval() == pytest.approx(before)  # Python's own, given back
    assert gc.isenabled()  # and the collector, for good


async def test_without_the_settings_python_keeps_its_own(make_bot: MakeBot) -> None:
    before = sys.getswitchinterval()
    runner = await make_bot(switch_interval=None, pause_gc=False)
    assert sys.getswitchinterval() == pytest.approx(before)
    assert runner.bot.collector is None
