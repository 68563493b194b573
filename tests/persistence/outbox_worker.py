"""One bot process's outbox, for the several-process delivery test (decision 0025).

``python -m tests.persistence.outbox_worker URL OWNER SHARD_IDS LOG BLOCK LEASE`` delivers the
outbox rows of the campaigns whose guilds are on ``SHARD_IDS`` (comma-separated, out of 2)
under leases of ``LEASE`` seconds, with a sender that appends each post to the file ``LOG``
(``row id, nonce, content``; a look-first finds a post there by its nonce). The post whose
content is ``BLOCK`` is written to the log and then never answered: the process prints
``blocked`` and waits, as a process would that is killed while Discord has the message and
before it is recorded. It exits 0 when no row of its shards is pending.
"""

from __future__ import annotations

import asyncio
import os
import sys

import sqlalchemy as sa

from caedes_bot.domain.records import OutboxStatus
from caedes_bot.domain.shards import Shards
from caedes_bot.outbox import DeliveryResult, OutboxDispatcher, OutboxRow
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.tables import outbox
from caedes_bot.service import Delivery


class FileSender:
    def __init__(self, log: str, block: str) -> None:
        self.log = log
        self.block = block

    def _find(self, nonce: str) -> int | None:
        if not os.path.exists(self.log):
            return None
        with open(self.log, encoding="utf-8") as f:
            for line in f:
                row_id, row_nonce, _ = line.split(" ", 2)
                if row_nonce == nonce:
                    return int(row_id) + 10_000_000
        return None

    async def deliver(self, row: OutboxRow) -> DeliveryResult:
        if row.look_first:
            found = self._find(row.nonce)
            if found is not None:
                return DeliveryResult(found, {"found": True})
        content = str(row.payload["content"])
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(f"{row.id} {row.nonce} {content}\n")
            f.flush()
            os.fsync(f.fileno())
        if content == self.block:
            print("blocked", flush=True)
            await asyncio.Event().wait()
        return DeliveryResult(row.id + 10_000_000)


async def main(url: str, owner: str, ids: str, log: str, block: str, lease: float) -> None:
    shards = Shards(2, frozenset(int(i) for i in ids.split(",")))
    db = Database(url)
    delivery = Delivery(db, owner=owner, shards=shards, lease_seconds=lease)
    dispatcher = OutboxDispatcher(
        delivery, FileSender(log, block), idle_poll=0.1, base_delay=0.05, max_delay=0.2
    )
    task = asyncio.create_task(dispatcher.run())
    pending = sa.select(sa.func.count()).where(
        outbox.c.status == OutboxStatus.PENDING, repo.on_shards(outbox.c.campaign_id, shards)
    )
    while await db.read(lambda conn: conn.scalar(pending)):
        await asyncio.sleep(0.05)
    dispatcher.stop()
    await task
    await db.dispose()


if __name__ == "__main__":
    url, owner, ids, log, block, lease = sys.argv[1:7]
    asyncio.run(main(url, owner, ids, log, block, float(lease)))
