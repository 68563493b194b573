"""Benchmark: drawing the map picture of the default scenario (issue 17).

Run from the repository root::

    .venv/bin/python -m bench.bench_map

Measures, over several runs:

* the median time to draw the default scenario's map (``ui.mapimage.render_map``: fills,
  patterns, labels, counters, the key, 255-colour PNG); target: under 300 ms;
* the same as a ratio to decoding that PNG with Pillow (a fair reference on this machine: the
  same library, the same pixels, the cheapest thing one can do with the picture);
* the event loop while maps are drawn the way the bot draws them (``MapDrawer``: a worker
  thread): a task that wakes every 10 ms records how late each wake is; target: no wake more
  than 100 ms late.

Exit code 1 if a target is missed.
"""

from __future__ import annotations

import asyncio
import io
import statistics
import sys
import time

from PIL import Image

from bench.common import load, machine, ms, spread
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.rules.setup import new_game
from caedes_bot.ui.mapdraw import MapDrawer
from caedes_bot.ui.mapimage import render_map
from caedes_bot.ui.mapscene import MapScene, map_scene

RUNS = 5
DRAWS = 10  # per run
TARGET_DRAW = 0.300  # seconds
TARGET_STALL = 0.100  # seconds


def timed(call: object, times: int) -> list[float]:
    out = []
    for _ in range(times):
        start = time.perf_counter()
        call()  # type: ignore[operator]
        out.append(time.perf_counter() - start)
    return out


async def stalls_while_drawing(drawer: MapDrawer, scenes: list[MapScene]) -> float:
    """The latest a 10 ms ticker woke while ``scenes`` were drawn, one after another."""
    worst = 0.0
    running = True

    async def ticker() -> None:
        nonlocal worst
        loop = asyncio.get_running_loop()
        while running:
            due = loop.time() + 0.010
            await asyncio.sleep(0.010)
            worst = max(worst, loop.time() - due)

    task = asyncio.create_task(ticker())
    for scene in scenes:
        await drawer.png(scene)
    running = False
    await task
    return worst


def main() -> int:
    ruleset = load_ruleset()
    state = new_game(ruleset, "default", "bench")
    scene = map_scene(state, ruleset)
    png = render_map(scene, ruleset)  # warm: fonts, caches
    medians, ratios, stalls = [], [], []
    for _ in range(RUNS):
        draw = statistics.median(timed(lambda: render_map(scene, ruleset), DRAWS))
        decode = statistics.median(
            timed(lambda: Image.open(io.BytesIO(png)).convert("RGB").load(), DRAWS)
        )
        medians.append(draw)
        ratios.append(draw / decode)
        # distinct scenes, so that the drawer draws each (nothing comes from its cache)
        scenes = [MapScene.from_json({**scene.to_json(), "round": 100 + i}) for i in range(DRAWS)]
        stalls.append(asyncio.run(stalls_while_drawing(MapDrawer(ruleset), scenes)))
    print(f"machine: {machine()}; load: {load()}")
    print(f"PNG: {len(png):,} bytes, {Image.open(io.BytesIO(png)).size} pixels")
    print(f"draw the default map, median per run: {', '.join(ms(m) for m in medians)}")
    print(f"draw / decode the same PNG (min / median / max of runs): {spread(ratios)}")
    print(f"event loop, latest wake while drawing, per run: {', '.join(ms(s) for s in stalls)}")
    ok = statistics.median(medians) < TARGET_DRAW and max(stalls) < TARGET_STALL
    print(
        f"targets: median draw < {TARGET_DRAW * 1e3:.0f} ms, "
        f"no wake later than {TARGET_STALL * 1e3:.0f} ms: {'met' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
