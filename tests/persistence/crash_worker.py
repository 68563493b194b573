"""A process that submits orders until it kills itself with SIGKILL (for the crash test).

Usage: ``python -m tests.persistence.crash_worker URL CAMPAIGN_ID RUN KILL_AT MAX_ORDERS``

It submits stand-in orders (+1 RP, one die) with interaction ids ``r<RUN>-<n>`` and sends
itself SIGKILL when the writer connection reaches its ``KILL_AT``-th statement or commit,
which may fall anywhere inside an order's transaction. If ``MAX_ORDERS`` orders go through
first, it exits normally.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from typing import Any

from sqlalchemy import event

from caedes_bot.persistence.db import Database
from caedes_bot.service import Actor, RulesService
from tests.persistence.support import (
    StandInBump,
    small_ruleset,
    stand_in_apply,
    stand_in_new_game,
)

PLAYER = 101


async def main(url: str, campaign_id: int, run: int, kill_at: int, max_orders: int) -> None:
    db = Database(url)
    count = 0

    def tick(*_args: Any, **_kwargs: Any) -> None:
        nonlocal count
        count += 1
        if count >= kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    event.listen(db.writer, "before_cursor_execute", tick)
    event.listen(db.writer, "commit", tick)
    service = RulesService(db, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game)
    for n in range(max_orders):
        await service.submit(
            campaign_id, Actor(PLAYER), StandInBump("DAW", 1, rolls=1), interaction_id=f"r{run}-{n}"
        )
    await db.dispose()


if __name__ == "__main__":
    url, cid, run, kill_at, max_orders = sys.argv[1:6]
    asyncio.run(main(url, int(cid), int(run), int(kill_at), int(max_orders)))
