"""What the benchmarks share: percentiles that refuse too few samples, the machine's load, the
min / median / max summary of a ratio over several runs, and a campaign's units listed.

The machine is shared, so no benchmark judges an absolute time: each compares a ratio to a
reference measured in the same run, and repeats the run to show how much the ratio moves.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sqlite3
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from caedes_bot.gamedata.model import Ruleset
    from caedes_bot.rules.state import GameState

#: Samples that must lie beyond a percentile for it to be reported (p99 needs 5,000).
TAIL_SAMPLES = 50


def at_least_one(text: str) -> int:
    """An ``argparse`` type for a count of runs, orders or battles: a whole number of at least
    1 (0 or less would leave nothing to time, and a median of nothing is no figure)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is too few: give 1 or more")
    return value


def samples_needed(q: float) -> int:
    """How many samples the ``q`` quantile needs: 50 of them beyond it (p99: 5,000, p90: 500,
    the median and below: any number)."""
    return math.ceil(TAIL_SAMPLES / (1.0 - q)) if q >= 0.5 else 1


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile of ``values`` (nearest rank), or ``None`` with too few samples
    (:func:`samples_needed`)."""
    if not values or len(values) < samples_needed(q):
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def ms(value: float | None) -> str:
    """Seconds as milliseconds, or why there is no figure."""
    return "n/a (too few samples)" if value is None else f"{value * 1e3:.3f} ms"


def ratio(top: float | None, bottom: float | None) -> float | None:
    """``top / bottom``, or ``None`` if either is missing."""
    if top is None or bottom is None or bottom == 0:
        return None
    return top / bottom


def spread(values: Sequence[float | None]) -> str:
    """``min / median / max`` of the runs' values (``n/a`` if any run has none)."""
    if not values or any(v is None for v in values):
        return "n/a"
    known = [v for v in values if v is not None]
    return f"{min(known):.2f} / {statistics.median(known):.2f} / {max(known):.2f}"


def load() -> str:
    """The load averages (1, 5, 15 minutes) as ``uptime`` shows them."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def machine() -> str:
    """Cores, Python and SQLite versions: what a figure was measured on."""
    return (
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]} ({platform.machine()}), "
        f"SQLite {sqlite3.sqlite_version}"
    )


def units_listed(state: GameState, ruleset: Ruleset) -> list[str]:
    """A campaign's units, faction by faction and kind by kind (what a figure was measured
    on)."""
    lines = []
    for faction in sorted({u.owner for u in state.units.values()}):
        kinds = Counter(u.kind for u in state.units.values() if u.owner == faction)
        listed = ", ".join(f"{n} {ruleset.kind(k).name} ({k})" for k, n in sorted(kinds.items()))
        lines.append(f"  {faction} ({sum(kinds.values())}): {listed}")
    return lines
