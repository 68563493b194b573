"""End-to-end: two whole bot processes of one deployment (issue 18, decision 0025).

One PostgreSQL database and one fake Discord with two servers, on shard 0 and shard 1 of 2.
Process A runs the shard of the first server, process B the other's; each is ``bot.py`` as
deployed (``tests/e2e/bot_process.py`` only points it at the fake and shortens the leases to
two seconds). Both start at once on an empty database and migrate it once.

* A campaign is played in each server through slash commands and buttons, each served by its
  own process only.
* In B's campaign a turn deadline passes: it fires once (one announcement, one order).
* In A's campaign Discord makes the announcement of a move, and A is killed with SIGKILL
  before the answer reaches it (the post is made, its row not marked). B carries on with its
  campaign meanwhile. A restarted process for shard 0 takes A's queues over once A's leases
  run out, looks before posting the row A may have sent (and finds it), and the campaign goes
  on through it.
* In the end every outbox row is delivered and no message was posted twice.

Runs only when a PostgreSQL server is given (``scripts/test`` and CI start one).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import IO, Any

import pytest
import sqlalchemy as sa

from caedes_bot.domain.records import OutboxStatus, utcnow
from caedes_bot.domain.shards import shard_of
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.tables import campaigns, deadlines, outbox, processed_interactions
from tests.e2e.gameplay import Table, control, panel, panels, staffed_campaign
from tests.fakediscord import HOLD_ANSWER, FakeDiscord, FakeUser, all_text, message_text
from tests.fakediscord.world import GUILD_TEXT
from tests.persistence import postgres

ROOT = Path(__file__).resolve().parents[2]
#: Seconds an outbox lease and a deadline claim last in these bots (30 and 60 when deployed).
LEASE = 2.0
#: Seconds a process may take to start or stop before the test calls it hung (nothing is
#: timed by it).
TIMEOUT = 60.0

pytestmark = pytest.mark.skipif(
    postgres.server_url() is None,
    reason="needs a PostgreSQL server (CAEDES_TEST_POSTGRES_URL; scripts/test starts one)",
)


@pytest.fixture
async def database() -> AsyncIterator[str]:
    """An empty database on the test server (the bots migrate it); dropped after."""
    server = postgres.server_url()
    assert server is not None
    name = await asyncio.to_thread(postgres.new_database, server)
    try:
        yield postgres.database_url(server, name)
    finally:
        await asyncio.to_thread(postgres.drop_database, server, name)


class Process:
    """One bot process of shard ``shard`` of 2, its output in ``log``."""

    def __init__(self, fake: FakeDiscord, url: str, shard: int, log: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CAEDES_")}
        env |= {
            "CAEDES_DISCORD_TOKEN": fake.token,
            "CAEDES_DATABASE_URL": url,
            "CAEDES_SHARD_COUNT": "2",
            "CAEDES_SHARD_IDS": str(shard),
            "CAEDES_LOG_LEVEL": "INFO",
        }
        self.shard = shard
        self.log = log
        self._out: IO[str] = log.open("w", encoding="utf-8")
        self.popen = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.e2e.bot_process",
                str(fake.api_base),
                str(fake.gateway_url),
                str(LEASE),
            ],
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def connected(self, fake: FakeDiscord) -> bool:
        """Whether its gateway session has identified with its shard (its set-up is done:
        the bot connects after ``setup_hook``)."""
        if self.popen.poll() is not None:
            raise AssertionError(f"the bot of shard {self.shard} ended:\n{self.output()}")
        return any(s.identified and s.shard == (self.shard, 2) for s in fake.sessions)

    def output(self) -> str:
        if not self._out.closed:
            self._out.flush()
        return self.log.read_text(encoding="utf-8")

    async def stop(self) -> int:
        """Stop it as systemd and ``scripts/run-shards`` do (SIGTERM: the bot closes cleanly)
        and wait for it."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(self.popen.wait, TIMEOUT)
        self._out.close()
        return code

    async def kill(self) -> None:
        self.popen.kill()  # SIGKILL
        await asyncio.to_thread(self.popen.wait, TIMEOUT)
        self._out.close()


async def connected(fake: FakeDiscord, *processes: Process) -> None:
    await fake.wait_for(
        lambda: all(p.connected(fake) for p in processes),
        timeout=TIMEOUT,
        what="the bot processes connected",
    )


def texts(fake: FakeDiscord, channel: dict[str, Any], part: str) -> list[str]:
    """The messages of ``channel`` whose text holds ``part``."""
    return [t for t in (all_text([m]) for m in fake.messages_in(channel)) if part in t]


async def first_orders(
    fake: FakeDiscord, table: Table, player: FakeUser, faction: str = "DAW"
) -> None:
    """A faction's step 1 (trade) and step 5 (buy) of round 1 done with its panel's buttons."""
    first = await panel(fake, table, faction, 1, showing="**Step 1 Trade**")
    await fake.click(player, first, control(first, "done"))
    buy = await panel(fake, table, faction, 1, showing="**Step 5 Buy**")
    await fake.click(player, buy, control(buy, "done"))


def next_faction(fake: FakeDiscord, table: Table, factions: list[str]) -> str | None:
    """The one of ``factions`` whose round-1 panel shows step 1, if any."""
    for faction in factions:
        if any("**Step 1 Trade**" in message_text(p) for p in panels(fake, table, faction)):
            return faction
    return None


async def settled(db: Database, seconds: float = TIMEOUT) -> None:
    """Wait until no outbox row is pending (the processes deliver in their own time)."""
    pending = sa.select(sa.func.count()).where(outbox.c.status == OutboxStatus.PENDING)
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while await db.read(lambda conn: conn.scalar(pending)):
        assert loop.time() < end, "outbox rows still pending"
        await asyncio.sleep(0.05)


async def test_two_bot_processes_each_play_their_server_and_one_killed_is_taken_over(
    fake: FakeDiscord, database: str, tmp_path: Path
) -> None:
    first_guild = fake.guild_id
    second_guild = fake.add_guild("Second Guild")
    while shard_of(second_guild, 2) == shard_of(first_guild, 2):
        second_guild = fake.add_guild("Another Guild")
    second_general = fake.world.create_channel_raw(
        name="general", type=GUILD_TEXT, guild_id=second_guild
    )
    shard_a, shard_b = shard_of(first_guild, 2), shard_of(second_guild, 2)
    alice, bob, carol, _umpire = fake.players
    seats = {"DAW": alice, "ORC": bob, "ACH": carol}

    a = Process(fake, database, shard_a, tmp_path / "a.log")
    b = Process(fake, database, shard_b, tmp_path / "b.log")
    processes = [a, b]
    db = Database(database)
    try:
        await connected(fake, a, b)  # both migrated the empty database at once
        alpha = await staffed_campaign(fake, seats=seats, name="Alpha")
        beta = await staffed_campaign(fake, seats=seats, name="Beta", channel=second_general)
        await first_orders(fake, alpha, alice)
        await first_orders(fake, beta, alice)

        # B's campaign: the Dawnians' turn deadline passes, and fires once
        def _guild_of(conn: Any, guild: int) -> int:
            return int(conn.scalar(sa.select(campaigns.c.id).where(campaigns.c.guild_id == guild)))

        beta_id = await db.read(lambda conn: _guild_of(conn, second_guild))
        alpha_id = await db.read(lambda conn: _guild_of(conn, first_guild))
        turn = (deadlines.c.campaign_id == beta_id) & (deadlines.c.decision_key == "turn:1:DAW")
        deadline_id = await db.read(lambda conn: conn.scalar(sa.select(deadlines.c.id).where(turn)))
        past = utcnow() - timedelta(seconds=1)
        await db.write(
            lambda conn: conn.execute(sa.update(deadlines).where(turn).values(due_at=past))
        )
        missed = "Dawnians (DAW) missed its turn deadline"
        await fake.wait_for(
            lambda: texts(fake, beta.announcements, missed),
            timeout=TIMEOUT,
            what="the deadline fired in the second server",
        )

        # A's campaign: a move; when the turn is done Discord makes the move's announcement,
        # and A dies before it hears
        moved = await fake.slash(
            alice,
            "move",
            units="2 Infantry",
            **{"from": "Harrowgate"},
            to="Brightholm",
            channel=alpha.thread("DAW"),
        )
        assert "from Harrowgate to Brightholm" in moved.text, moved.text
        held = fake.chaos.fail(
            HOLD_ANSWER,
            count=1,
            method="POST",
            path=f"^/channels/{alpha.announcements['id']}/messages$",
        )
        done = await fake.slash(alice, "done", channel=alpha.thread("DAW"))
        assert "Dawnians" in done.text, done.text
        await asyncio.wait_for(held.reached.wait(), timeout=TIMEOUT)
        await a.kill()
        held.release.set()
        (announced,) = [
            all_text([m])
            for m in fake.messages_in(alpha.announcements)
            if "Harrowgate to Brightholm" in all_text([m])
        ]  # Discord has it; A never heard

        # B carries on with its server meanwhile
        skipped = await fake.slash(bob, "done", channel=beta.thread("ORC"))
        assert skipped.text, "process B did not answer"

        # a new process for shard 0 takes A's queues over once A's leases run out, and the
        # campaign goes on through it: the next faction's first orders
        restarted = Process(fake, database, shard_a, tmp_path / "a2.log")
        processes.append(restarted)
        await connected(fake, restarted)
        following = await fake.wait_for(
            lambda: next_faction(fake, alpha, ["ORC", "ACH"]),
            timeout=TIMEOUT,
            what="the next faction's turn panel in the first server",
        )
        await first_orders(fake, alpha, seats[following], following)
        await settled(db)
    finally:
        codes = {}
        for process in processes:
            if process.popen.poll() is None:
                codes[process.log.name] = await process.stop()
        await db.dispose()

    assert codes == {"b.log": 0, "a2.log": 0}, {p.log.name: p.output() for p in processes}
    for process in (b, restarted):
        output = process.output()
        assert "[ERROR" not in output and "Traceback" not in output, output
        assert "SIGTERM: closing" in output, output  # a clean stop: leases let go
    assert texts(fake, alpha.announcements, announced) == [announced]  # looked first

    # the deadline fired once: one announcement, one order under its interaction id
    assert len(texts(fake, beta.announcements, missed)) == 1
    db = Database(database)
    try:

        def _fired(conn: Any) -> tuple[Any, int]:
            row = conn.execute(sa.select(deadlines).where(deadlines.c.id == deadline_id)).one()
            orders = conn.scalar(
                sa.select(sa.func.count()).where(
                    processed_interactions.c.interaction_id.like(f"deadline:{deadline_id}:%")
                )
            )
            return row, int(orders)

        row, orders = await db.read(_fired)
        assert row.fired and orders == 1

        def _rows(conn: Any) -> list[Any]:
            return list(
                conn.execute(
                    sa.select(outbox.c.campaign_id, outbox.c.status, outbox.c.nonce).where(
                        outbox.c.campaign_id.in_([alpha_id, beta_id])
                    )
                )
            )

        rows = await db.read(_rows)
    finally:
        await db.dispose()
    assert rows and all(r.status == OutboxStatus.DELIVERED for r in rows)
    posted = Counter(
        m.get("nonce") for ms in fake.world.messages.values() for m in ms if m.get("nonce")
    )
    assert [n for n, count in posted.items() if count > 1] == []  # nothing posted twice
    assert {r.campaign_id for r in rows} == {alpha_id, beta_id}
