"""Benchmark: slash commands' round trips through the fake Discord, against a no-op command.

Run from the repository root::

    .venv/bin/python -m bench.bench_discord                  # 3 runs of 5,000 rounds
    .venv/bin/python -m bench.bench_discord --runs 1 --rounds 500   # quick look, no p99

What it measures: the real bot (``CaedesBot``, as ``bot.py`` runs it, with its start-up heap
frozen for the garbage collector) against the fake Discord of ``tests/fakediscord/`` on
127.0.0.1, in one process. Every command travels the same way: the fake sends
INTERACTION_CREATE over the gateway, discord.py parses it and calls the command, the answer
comes back as an interaction callback; the time is from the fake sending to the fake having
recorded the answer. A round is three commands in a started skirmish campaign, in the
Dawnians' orders thread at step 5 Buy:

* ``/bench noop`` answers at once: Discord's and discord.py's own cost, the reference;
* ``/campaign info`` finds the campaign from the channel, reads its state and players from the
  service's cache and renders an embed;
* ``/buy unit:Infantry`` gives an order: the campaign's lock, ``rules.engine.apply``, one
  write transaction on the writer thread (state, order, events, outbox rows), then the answer;
  the outbox is woken only once the answer is sent. The service's own time for each of these
  orders (``RulesService.submit``, timed inside the bot) is the second reference.

After each ``/buy`` the benchmark waits (untimed) until the outbox has delivered what the order
queued, so the next command starts on a quiet bot, as a player's next command usually does;
then, untimed too, the service cancels that purchase (``CancelPurchase``, given straight to the
service) and the outbox delivers again, so the state keeps its size over the run: without it the
Dawnians' purchase list grew by one unit a round, and every order (and every undo record,
which keeps the faction as it was) with it. The three commands take turns at coming first in a
round.

Why the references are fair: the no-op pays everything a command pays except the bot's own
work, in the same process and the same seconds; the order's target adds the service's own
median for the very orders the ``/buy`` commands gave.

Targets, per run (min / median / max over the runs; judged on the median run):

* ``/campaign info`` at most 2x the no-op round trip, at the median and at p99;
* ``/buy`` at most 1.2 x (no-op round trip + the service's order median), at the median and
  at p99 (the no-op's p99 there).

A p99 needs at least 5,000 rounds; with fewer it is not reported and its target is missed.
The exit code is 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import SecretStr

from bench.common import load, machine, percentile, ratio, spread, units_listed
from caedes_bot.app import REQUIRED_PERMISSIONS, CaedesBot
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import migrate_to_head
from caedes_bot.persistence.stateparts import load_parts, split_state
from caedes_bot.rules.buy import CancelPurchase
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import EndStep
from caedes_bot.service import Actor, RulesService
from caedes_bot.settings import Settings
from tests.e2e.campaigns import start_campaign
from tests.e2e.harness import BotRunner, ErrorCatcher, pointed_at
from tests.fakediscord import FakeDiscord, FakeUser

TARGET_INFO = 2.0
TARGET_ORDER = 1.2
COMMANDS = ("bench noop", "campaign info", "buy")
#: the kind ``/buy unit:Infantry`` buys for the Dawnians
INFANTRY = "U-DAW-01"


class NoopCog(commands.Cog):
    bench = app_commands.Group(name="bench", description="Benchmark commands")

    @bench.command(name="noop", description="Answer at once")
    async def noop(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)


class BenchBot(CaedesBot):
    async def setup_hook(self) -> None:
        await self.add_cog(NoopCog())
        await super().setup_hook()


@dataclass
class Run:
    """One run's samples, in seconds."""

    trips: dict[str, list[float]] = field(default_factory=lambda: {c: [] for c in COMMANDS})
    orders: list[float] = field(default_factory=list)
    units: list[str] = field(default_factory=list)

    def stat(self, command: str, q: float) -> float | None:
        samples = self.trips.get(command, self.orders)
        return statistics.median(samples) if q == 0.5 else percentile(samples, q)

    def ratios(self) -> dict[str, float | None]:
        noop50, noop99 = self.stat("bench noop", 0.5), self.stat("bench noop", 0.99)
        order50, order99 = self.stat("order", 0.5), self.stat("order", 0.99)
        return {
            "info / noop (median)": ratio(self.stat("campaign info", 0.5), noop50),
            "info / noop (p99)": ratio(self.stat("campaign info", 0.99), noop99),
            "buy / (noop + order median), median": ratio(
                self.stat("buy", 0.5),
                None if noop50 is None or order50 is None else noop50 + order50,
            ),
            "buy / (noop p99 + order median), p99": ratio(
                self.stat("buy", 0.99),
                None if noop99 is None or order50 is None else noop99 + order50,
            ),
            "buy / (noop p99 + order p99), p99": ratio(
                self.stat("buy", 0.99),
                None if noop99 is None or order99 is None else noop99 + order99,
            ),
        }


TARGETS = {
    "info / noop (median)": TARGET_INFO,
    "info / noop (p99)": TARGET_INFO,
    "buy / (noop + order median), median": TARGET_ORDER,
    "buy / (noop p99 + order median), p99": TARGET_ORDER,
}


async def round_trip(fake: FakeDiscord, user: FakeUser, command: str, channel: Any) -> float:
    options: dict[str, Any] = {"unit": "Infantry"} if command == "buy" else {}
    start = time.perf_counter()
    record = await fake.slash(user, command, channel=channel, **options)
    elapsed = time.perf_counter() - start
    assert record.ephemeral, record.text
    if command == "buy":
        assert "Bought" in record.text, record.text
    return elapsed


async def drained(bot: CaedesBot) -> None:
    """Wait (untimed) until the outbox has nothing pending."""
    while await bot.service.delivery.next_attempt() is not None:
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.005)  # and the outbox has gone back to waiting


async def bought_back(bot: CaedesBot, submit: Callable[..., Any], campaign_id: int) -> None:
    """Cancel (untimed: ``submit`` is the service's own, not the timed one) the purchase the
    last ``/buy`` made, and wait until the outbox has delivered what that queued: the state
    keeps its size."""
    await submit(campaign_id, Actor.system_actor(), CancelPurchase("DAW", INFANTRY, 1))
    await drained(bot)


async def to_buy_step(service: RulesService, campaign_id: int) -> None:
    """The Dawnians at step 5 Buy with RP for every ``/buy`` of the run."""
    system = Actor.system_actor()
    state = await service.get_state(campaign_id)
    while state.step < Step.BUY:
        state = (await service.submit(campaign_id, system, EndStep("DAW"))).state

    def rich(conn: Any) -> None:
        record = repo.load_campaign(conn, campaign_id)
        assert record is not None
        st = load_parts(record.parts)
        st.factions["DAW"].rp = 10_000_000
        repo.replace_state(
            conn,
            campaign_id=campaign_id,
            expected_version=record.info.version,
            parts=split_state(st),
            last_event_seq=record.last_event_seq,
            now=record.info.updated_at,
        )

    await service.db.write(rich)
    service.forget(campaign_id)


def timing_submit(service: RulesService, samples: list[float]) -> Callable[[], None]:
    """Time every ``service.submit`` while the rounds run; returns the undo."""
    plain = service.submit

    async def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await plain(*args, **kwargs)
        finally:
            samples.append(time.perf_counter() - start)

    service.submit = timed  # type: ignore[method-assign]

    def undo() -> None:
        service.submit = plain  # type: ignore[method-assign]

    return undo


async def one_run(database_url: str, ruleset: Ruleset, rounds: int, warmup: int) -> Run:
    run = Run()
    fake = FakeDiscord(bot_permissions=REQUIRED_PERMISSIONS.value)
    await fake.start()
    errors = ErrorCatcher()
    errors.install()
    try:
        with pointed_at(fake):
            settings = Settings(
                discord_token=SecretStr(fake.token),
                database_url=database_url,
                dev_guild_ids=[fake.guild_id],
            )
            bot = BenchBot(settings, ruleset=ruleset, guild_ready_timeout=0.01, freeze_gc=True)
            runner = await BotRunner(fake, bot, errors).start()
            player = fake.players[0]
            found = await start_campaign(fake, name="Bench", players={"DAW": player})
            channel = found["orders:DAW"]
            campaign_id = (await bot.service.campaigns())[0].id
            await to_buy_step(bot.service, campaign_id)
            state = await bot.service.get_state(campaign_id)
            run.units = units_listed(state, ruleset)
            await drained(bot)
            plain_submit = bot.service.submit
            for _ in range(warmup):
                for command in COMMANDS:
                    await round_trip(fake, player, command, channel)
                await drained(bot)
                await bought_back(bot, plain_submit, campaign_id)
            gc.collect()
            undo = timing_submit(bot.service, run.orders)
            for n in range(rounds):
                # each command comes first after the quiet as often as the others; after the
                # order, the outbox delivers what it queued before the next command
                for command in COMMANDS[n % 3 :] + COMMANDS[: n % 3]:
                    run.trips[command].append(await round_trip(fake, player, command, channel))
                    if command == "buy":
                        await drained(bot)
                        await bought_back(bot, plain_submit, campaign_id)
            undo()
            await runner.stop()
            runner.assert_clean()
    finally:
        errors.uninstall()
        await fake.stop()
    return run


def ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 1e3:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5000)
    parser.add_argument("--warmup", type=int, default=50)
    args = parser.parse_args(argv)
    print(f"machine: {machine()}; load average at start {load()}")
    ruleset = load_ruleset()
    runs = []
    for index in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
            migrate_to_head(url)  # before the event loop, as bot.py does
            run = asyncio.run(one_run(url, ruleset, args.rounds, args.warmup))
        runs.append(run)
        if index == 0:
            print("campaign (skirmish, the Dawnians at step 5 Buy); units:", *run.units, sep="\n")
        cells = ", ".join(
            f"/{c} {ms(run.stat(c, 0.5))} / {ms(run.stat(c, 0.99))}" for c in COMMANDS
        )
        print(
            f"run {index + 1} ({args.rounds} rounds, median / p99 ms): {cells}; "
            f"order in the service {ms(run.stat('order', 0.5))} / {ms(run.stat('order', 0.99))}"
            f"; load {load()}"
        )
    print(f"ratios over {args.runs} runs (min / median / max); load average at end {load()}")
    ok = True
    for name in runs[0].ratios():
        values = [r.ratios()[name] for r in runs]
        known = [v for v in values if v is not None]
        target = TARGETS.get(name)
        verdict = "(for comparison)"
        if target is not None:
            met = len(known) == len(values) and statistics.median(known) <= target
            ok = ok and met
            verdict = f"(target <= {target}x) {'ok' if met else 'MISSED'}"
        print(f"  {name:<40}{spread(values):>22}  {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
