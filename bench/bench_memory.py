"""Benchmark: the memory of a bot process holding 100 mid-game campaigns, against the same
process idle with none.

Run from the repository root::

    .venv/bin/python -m bench.bench_memory                   # 100 campaigns of the default scenario
    .venv/bin/python -m bench.bench_memory --campaigns 20 --scenario skirmish

The fake Discord of ``tests/fakediscord/`` runs in this process; the bot runs alone in a child
process (so the fake's own memory is not counted), logs in to the fake, syncs its commands and
waits for the gateway. Its resident memory then is the idle footprint. It then creates the
campaigns through its ``RulesService`` (each one's category, channels and orders threads are
made through the outbox, as ``/campaign new`` does) and plays each to the middle of the first
faction's turn: started, steps 1-4 ended, a unit bought, a unit moved (step 6 under way), so
each campaign's state sits in the service's cache, its turn panel is posted and edited and its
deadlines are armed. When the outbox has delivered everything, the child reports its resident
memory and its peak (``VmHWM``, the highest resident size the process ever had).

Target: the peak is at most 2x the idle footprint. The exit code is 1 if the target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_RATIO = 2.0


def memory_kb() -> dict[str, int]:
    """This process's resident size now (``VmRSS``) and its peak (``VmHWM``), in KiB (Linux)."""
    found: dict[str, int] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return found


# --------------------------------------------------------------------------- the child (the bot)


async def _drained(bot: Any, timeout: float = 600.0) -> None:
    """Wait until the outbox has nothing pending."""
    from caedes_bot.persistence import repository as repo

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await bot.db.read(repo.next_outbox_attempt) is None:
            return
        bot.outbox.wake()
        await asyncio.sleep(0.2)
    raise TimeoutError("the outbox did not drain")


async def _mid_game(service: Any, campaign_id: int) -> None:
    """Start a campaign and play its first faction to the middle of step 6."""
    from caedes_bot.rules import movement
    from caedes_bot.rules.buy import BuyUnits, buyable_kinds
    from caedes_bot.rules.movement import MoveUnits
    from caedes_bot.rules.state import Step
    from caedes_bot.rules.turn import EndStep
    from caedes_bot.service import Actor

    system = Actor.system_actor()
    state = (await service.start(campaign_id, system)).state
    faction = state.active
    while state.step < Step.BUY:
        state = (await service.submit(campaign_id, system, EndStep(faction))).state
    kind = buyable_kinds(service.ruleset, faction)[0]
    state = (await service.submit(campaign_id, system, BuyUnits(faction, kind.id, 1))).state
    state = (await service.submit(campaign_id, system, EndStep(faction))).state
    for unit in movement.movable_units(state, service.ruleset, faction):
        plans = movement.plan_moves(state, service.ruleset, unit)
        quiet = [dest for dest, plan in plans.items() if not plan.attack]
        if quiet:
            order = MoveUnits(faction, (unit.id,), quiet[0])
            await service.submit(campaign_id, system, order)
            return


async def _child_main(args: argparse.Namespace) -> dict[str, Any]:
    from caedes_bot.app import CaedesBot
    from caedes_bot.settings import Settings

    settings = Settings(
        discord_token=args.token, database_url=args.database, dev_guild_ids=[args.guild]
    )
    bot = CaedesBot(settings, guild_ready_timeout=0.01, freeze_gc=True)
    await bot.login(args.token)
    gateway = asyncio.create_task(bot.connect(reconnect=False))
    await bot.wait_until_ready()
    await _drained(bot)
    gc.collect()
    idle = memory_kb()
    started = time.monotonic()
    for index in range(args.campaigns):
        info = await bot.service.create_campaign(
            args.guild,
            f"Bench {index:03}",
            args.scenario,
            args.admin,
            umpire_user_id=args.admin,
            table_talk=False,
        )
        await _mid_game(bot.service, info.id)
    played = time.monotonic() - started
    await _drained(bot)
    gc.collect()
    loaded = memory_kb()
    cached = len(bot.service._cache)
    await bot.close()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(gateway, timeout=10.0)
    return {
        "campaigns": args.campaigns,
        "cached_states": cached,
        "idle_rss_kb": idle["VmRSS"],
        "loaded_rss_kb": loaded["VmRSS"],
        "peak_rss_kb": loaded["VmHWM"],
        "seconds": round(played, 1),
    }


def child(args: argparse.Namespace) -> int:
    import discord.gateway
    import discord.http
    import yarl

    from caedes_bot.persistence.db import migrate_to_head

    migrate_to_head(args.database)  # before the event loop, as bot.py does
    discord.http.Route.BASE = args.api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    result = asyncio.run(_child_main(args))
    print(json.dumps(result), flush=True)
    return 0


# --------------------------------------------------------------------------- the parent (the fake)


async def parent(args: argparse.Namespace) -> dict[str, Any]:
    from caedes_bot.app import REQUIRED_PERMISSIONS
    from tests.fakediscord import FakeDiscord

    fake = FakeDiscord(bot_permissions=REQUIRED_PERMISSIONS.value)
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            database = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.bench_memory",
                "--child",
                "--api",
                fake.api_base,
                "--gateway",
                str(fake.gateway_url),
                "--token",
                fake.token,
                "--guild",
                str(fake.guild_id),
                "--admin",
                str(fake.admin.id),
                "--database",
                database,
                "--campaigns",
                str(args.campaigns),
                "--scenario",
                args.scenario,
                stdout=asyncio.subprocess.PIPE,
            )
            out, _ = await process.communicate()
            if process.returncode != 0:
                raise SystemExit(f"the bot process failed (exit {process.returncode})")
            result: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
            result["fake_problems"] = fake.problems()
            return result
    finally:
        await fake.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=100)
    parser.add_argument("--scenario", default="default")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    for name in ("api", "gateway", "token", "database"):
        parser.add_argument(f"--{name}", help=argparse.SUPPRESS)
    parser.add_argument("--guild", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--admin", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    result = asyncio.run(parent(args))
    idle, peak = result["idle_rss_kb"], result["peak_rss_kb"]
    ratio = peak / idle
    print(
        f"{result['campaigns']} {args.scenario} campaigns ({result['cached_states']} states cached), "
        f"played in {result['seconds']} s"
    )
    print(f"idle RSS      {idle / 1024:8.1f} MiB")
    print(f"loaded RSS    {result['loaded_rss_kb'] / 1024:8.1f} MiB")
    print(f"peak RSS      {peak / 1024:8.1f} MiB")
    verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
    print(f"peak / idle   {ratio:8.2f}x  (target <= {TARGET_RATIO:.0f}x) {verdict}")
    if result["fake_problems"]:
        print("fake Discord problems:", *result["fake_problems"], sep="\n  ")
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
