"""Benchmark: the memory of a bot process holding 1,000 mid-game campaigns over 20 servers,
against the same process idle with none; and an order on a campaign out of the state cache
against one in it.

Run from the repository root::

    .venv/bin/python -m bench.bench_memory                   # 1,000 default campaigns, 20 servers
    .venv/bin/python -m bench.bench_memory --campaigns 100 --guilds 10 --scenario skirmish

What it measures: the fake Discord of ``tests/fakediscord/`` runs in this process, holding
``--guilds`` servers; the bot runs alone in a child process (so the fake's own memory is not
counted), as ``bot.py`` runs it (start-up heap frozen, the state cache at its default size,
``CAEDES_STATE_CACHE_SIZE``). It logs in, syncs its commands and waits for the gateway; its
resident memory then is the idle footprint, the reference. It then creates the campaigns
through its ``RulesService``, spread evenly over the servers (each one's category, channels
and orders threads are made through the outbox, as ``/campaign new`` does) and plays each to
the middle of the first faction's turn: started, steps 1 to 4 ended, a unit bought in step 5;
so each campaign's turn panel is posted and edited and its deadlines are armed, and the
states beyond the cache's size have been forgotten. When the outbox has delivered everything,
the child times orders (``BuyUnits`` then ``CancelPurchase``, the buy timed) on the campaign
used last (in the cache) and on campaigns used long ago (out of it, read back from the
database), then reports its resident memory and its peak (``VmHWM``, the highest resident
size the process ever had).

Why the references are fair: the idle footprint is the same process, the same code and
libraries loaded, before any campaign exists; the cached order is the same order on the same
kind of campaign in the same process and the same seconds.

Targets: the peak at most 2x the idle footprint; an order on a campaign out of the cache at
most 3x one in it (medians). The exit code is 1 if either is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import load, machine

TARGET_RATIO = 2.0
TARGET_UNCACHED = 3.0


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


async def _mid_game(service: Any, campaign_id: int) -> str:
    """Start a campaign and play its first faction to step 5 Buy, one unit bought; returns
    that faction."""
    from caedes_bot.rules.buy import BuyUnits, buyable_kinds
    from caedes_bot.rules.state import Step
    from caedes_bot.rules.turn import EndStep
    from caedes_bot.service import Actor

    system = Actor.system_actor()
    state = (await service.start(campaign_id, system)).state
    faction = state.active
    while state.step < Step.BUY:
        state = (await service.submit(campaign_id, system, EndStep(faction))).state
    kind = buyable_kinds(service.ruleset, faction)[0]
    await service.submit(campaign_id, system, BuyUnits(faction, kind.id, 1))
    return str(faction)


async def _order_seconds(service: Any, campaign_id: int, faction: str) -> float:
    """One ``BuyUnits`` on the campaign, timed, then its ``CancelPurchase`` (untimed)."""
    from caedes_bot.rules.buy import BuyUnits, CancelPurchase, buyable_kinds
    from caedes_bot.service import Actor

    system = Actor.system_actor()
    kind = buyable_kinds(service.ruleset, faction)[0]
    start = time.perf_counter()
    await service.submit(campaign_id, system, BuyUnits(faction, kind.id, 1))
    seconds = time.perf_counter() - start
    await service.submit(campaign_id, system, CancelPurchase(faction, kind.id, 1))
    return seconds


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
    guilds = [int(g) for g in args.guilds_ids.split(",")]
    factions: dict[int, str] = {}
    for index in range(args.campaigns):
        info = await bot.service.create_campaign(
            guilds[index % len(guilds)],
            f"Bench {index:03}",
            args.scenario,
            args.admin,
            umpire_user_id=args.admin,
            table_talk=False,
        )
        factions[info.id] = await _mid_game(bot.service, info.id)
    played = time.monotonic() - started
    await _drained(bot)
    ids = [c.id for c in await bot.service.campaigns()]
    cached_ids = bot.service.cached_campaigns()
    cold_ids = [cid for cid in ids if cid not in cached_ids][: args.samples]
    warm: list[float] = []
    cold: list[float] = []
    for index, campaign_id in enumerate(cold_ids):  # cached and uncached, turn about
        last = cached_ids[-1]
        warm.append(await _order_seconds(bot.service, last, factions[last]))
        cold.append(await _order_seconds(bot.service, campaign_id, factions[campaign_id]))
        if index % 20 == 19:
            await _drained(bot)
    await _drained(bot)
    gc.collect()
    loaded = memory_kb()
    from bench.common import units_listed

    first = await bot.service.get_state(ids[0])
    units = [f"round {first.round}, step {first.step.label}", *units_listed(first, bot.ruleset)]
    cached = len(bot.service.cached_campaigns())
    await bot.close()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(gateway, timeout=10.0)
    return {
        "campaigns": args.campaigns,
        "cached_states": cached,
        "cache_size": bot.service.cache_size,
        "guilds": len(guilds),
        "cached_order_ms": statistics.median(warm) * 1e3 if warm else None,
        "uncached_order_ms": statistics.median(cold) * 1e3 if cold else None,
        "order_samples": len(cold),
        "units": units,
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
    guilds = [fake.guild_id] + [fake.add_guild(f"Server {n}") for n in range(2, args.guilds + 1)]
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
                "--guilds-ids",
                ",".join(str(g) for g in guilds),
                "--samples",
                str(args.samples),
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
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--guilds", type=int, default=20, help="servers the campaigns share")
    parser.add_argument("--samples", type=int, default=100, help="orders timed of each kind")
    parser.add_argument("--guilds-ids", help=argparse.SUPPRESS)
    parser.add_argument("--scenario", default="default")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    for name in ("api", "gateway", "token", "database"):
        parser.add_argument(f"--{name}", help=argparse.SUPPRESS)
    parser.add_argument("--guild", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--admin", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    print(f"machine: {machine()}; load average at start {load()}")
    result = asyncio.run(parent(args))
    idle, peak = result["idle_rss_kb"], result["peak_rss_kb"]
    mem_ratio = peak / idle
    print(
        f"{result['campaigns']} {args.scenario} campaigns over {result['guilds']} servers, "
        f"played in {result['seconds']} s; {result['cached_states']} states cached "
        f"(cache size {result['cache_size']})"
    )
    print("each campaign (the first shown):", *result["units"], sep="\n")
    print(f"idle RSS      {idle / 1024:8.1f} MiB")
    print(f"loaded RSS    {result['loaded_rss_kb'] / 1024:8.1f} MiB")
    print(f"peak RSS      {peak / 1024:8.1f} MiB")
    ok = mem_ratio <= TARGET_RATIO
    verdict = "ok" if ok else "MISSED"
    print(f"peak / idle   {mem_ratio:8.2f}x  (target <= {TARGET_RATIO:.0f}x) {verdict}")
    warm, cold = result["cached_order_ms"], result["uncached_order_ms"]
    if warm and cold:
        order_ratio = cold / warm
        met = order_ratio <= TARGET_UNCACHED
        ok = ok and met
        print(
            f"order medians over {result['order_samples']} each: in the cache {warm:.2f} ms, "
            f"out of it {cold:.2f} ms: {order_ratio:.2f}x (target <= {TARGET_UNCACHED:.0f}x) "
            f"{'ok' if met else 'MISSED'}"
        )
    else:
        print("no campaign was out of the cache: no uncached orders timed")
    print(f"load average at end {load()}")
    if result["fake_problems"]:
        print("fake Discord problems:", *result["fake_problems"], sep="\n  ")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
