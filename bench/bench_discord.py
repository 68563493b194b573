"""Benchmark: a slash command's round trip through the fake Discord, against a no-op command.

Run from the repository root::

    .venv/bin/python -m bench.bench_discord            # 300 rounds
    .venv/bin/python -m bench.bench_discord --rounds 1000

Both commands travel the same way: the fake sends INTERACTION_CREATE over the gateway,
discord.py parses it and calls the command, the reply comes back as an interaction callback.
``/bench noop`` answers at once; ``/campaign info`` resolves the campaign from the channel,
reads the campaign, its state and its players, and renders an embed. The ratio of the two is
what the bot itself adds to Discord's own plumbing.

Target: ``/campaign info`` takes at most 2x the no-op round trip, at the median and at p99.
The exit code is 1 if the target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from caedes_bot.app import REQUIRED_PERMISSIONS, CaedesBot
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.persistence.db import migrate_to_head
from caedes_bot.settings import Settings
from tests.e2e.campaigns import new_campaign
from tests.e2e.harness import BotRunner, ErrorCatcher, pointed_at
from tests.fakediscord import FakeDiscord

TARGET_RATIO = 2.0


class NoopCog(commands.Cog):
    bench = app_commands.Group(name="bench", description="Benchmark commands")

    @bench.command(name="noop", description="Answer at once")
    async def noop(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)


class BenchBot(CaedesBot):
    async def setup_hook(self) -> None:
        await self.add_cog(NoopCog())
        await super().setup_hook()


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def round_trip(fake: FakeDiscord, user: Any, command: str, channel: dict[str, Any]) -> float:
    start = time.perf_counter()
    record = await fake.slash(user, command, channel=channel)
    elapsed = time.perf_counter() - start
    assert record.ephemeral, record.text
    return elapsed


async def run(database_url: str, rounds: int, warmup: int) -> dict[str, dict[str, float]]:
    ruleset = load_ruleset()
    fake = FakeDiscord(bot_permissions=REQUIRED_PERMISSIONS.value)
    await fake.start()
    errors = ErrorCatcher()
    errors.install()
    try:
        with pointed_at(fake):
            settings = Settings(
                discord_token=fake.token, database_url=database_url, dev_guild_ids=[fake.guild_id]
            )
            bot = BenchBot(settings, ruleset=ruleset, guild_ready_timeout=0.01, freeze_gc=True)
            runner = await BotRunner(fake, bot, errors).start()
            found = await new_campaign(fake, "Bench", "skirmish")
            channel = found["table-talk"]
            user = fake.players[0]
            timings: dict[str, list[float]] = {"bench noop": [], "campaign info": []}
            for _ in range(warmup):
                for command in timings:
                    await round_trip(fake, user, command, channel)
            gc.collect()
            for _ in range(rounds):
                for command, samples in timings.items():
                    samples.append(await round_trip(fake, user, command, channel))
            await runner.stop()
            runner.assert_clean()
    finally:
        errors.uninstall()
        await fake.stop()
    return {
        command: {
            "median_ms": statistics.median(samples) * 1000,
            "p99_ms": percentile(samples, 0.99) * 1000,
        }
        for command, samples in timings.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        migrate_to_head(url)  # before the event loop, as bot.py does
        results = asyncio.run(run(url, args.rounds, args.warmup))
    noop, info = results["bench noop"], results["campaign info"]
    ok = True
    print(f"{'command':<16}{'median ms':>12}{'p99 ms':>10}")
    for command, r in results.items():
        print(f"/{command:<15}{r['median_ms']:>12.2f}{r['p99_ms']:>10.2f}")
    for stat in ("median_ms", "p99_ms"):
        ratio = info[stat] / noop[stat]
        verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
        ok = ok and ratio <= TARGET_RATIO
        print(f"ratio {stat[:-3]:<7} {ratio:5.2f}x  (target <= {TARGET_RATIO:.0f}x) {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
