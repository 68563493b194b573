"""One process of the PostgreSQL stress test and benchmark: many tasks submitting orders.

Usage: ``python -m tests.persistence.stress_worker URL NAME TASKS ORDERS CAMPAIGN_ID...``

It opens the database, prints ``ready`` and waits for a line on standard input (so that the
processes of a run start together), then runs ``TASKS`` tasks of ``ORDERS`` read-modify-write
orders each (+1 RP to DAW: a stand-in order, one die every other order), task ``t``'s order
``n`` going to campaign ``CAMPAIGN_ID[(t + n) % count]``, with interaction ids
``NAME-t<t>-<n>``. At the end it prints one JSON line: orders accepted, refused (any error the
service raised), deadlocks met (PostgreSQL's deadlock error anywhere in an error's chain), the
first few errors, the seconds the run took and every order's latency in milliseconds.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from caedes_bot.persistence.db import Database
from caedes_bot.service import Actor, RulesService
from tests.persistence.support import (
    StandInBump,
    small_ruleset,
    stand_in_apply,
    stand_in_new_game,
)

PLAYER = 101


def _is_deadlock(err: BaseException | None) -> bool:
    while err is not None:
        if type(err).__name__ == "DeadlockDetected" or "deadlock detected" in str(err):
            return True
        err = err.__cause__ or err.__context__
    return False


async def main(url: str, name: str, tasks: int, orders: int, campaigns: list[int]) -> None:
    db = Database(url)
    service = RulesService(db, small_ruleset(), apply=stand_in_apply, new_game=stand_in_new_game)
    for cid in campaigns:  # warm the cache, as a running bot has it
        await service.get_state(cid)
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    accepted = refused = deadlocks = 0
    errors: list[str] = []
    latencies: list[float] = []

    async def task(t: int) -> None:
        nonlocal accepted, refused, deadlocks
        for n in range(orders):
            cid = campaigns[(t + n) % len(campaigns)]
            started = time.perf_counter()
            try:
                await service.submit(
                    cid,
                    Actor(PLAYER),
                    StandInBump("DAW", 1, rolls=n % 2),
                    interaction_id=f"{name}-t{t}-{n}",
                )
            except Exception as err:  # every error is counted and reported
                refused += 1
                deadlocks += _is_deadlock(err)
                if len(errors) < 5:
                    errors.append(f"{type(err).__name__}: {err}")
            else:
                accepted += 1
                latencies.append((time.perf_counter() - started) * 1000.0)

    began = time.perf_counter()
    await asyncio.gather(*(task(t) for t in range(tasks)))
    seconds = time.perf_counter() - began
    await db.dispose()
    print(
        json.dumps(
            {
                "accepted": accepted,
                "refused": refused,
                "deadlocks": deadlocks,
                "errors": errors,
                "seconds": seconds,
                "latencies_ms": latencies,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    url, name, tasks, orders, *cids = sys.argv[1:]
    asyncio.run(main(url, name, int(tasks), int(orders), [int(c) for c in cids]))
