"""Whether a casualty choice is a real one (R-COMBAT-06, R-ATTR-FORTI-01), against a count of
every outcome.

``has_real_choice`` answers at once when the units fall in two classes or more (kind, wound,
terrain) and counts the ways only for one class. Here every way of handing the hits to small
groups of units is listed by brute force, units of one class being interchangeable, and the
answer must be "more than one distinct outcome" for every group and number of hits.
"""

from __future__ import annotations

import itertools
from collections import Counter

from caedes_bot.gamedata.model import Terrain
from caedes_bot.rules.combat.arithmetic import Fighter, has_real_choice
from caedes_bot.rules.state import Side
from tests.rules.builders import kind

INF = kind("INF", "ORC")
OTHER = kind("OTHER", "ORC")
FORT = kind("FORT", "ORC", attributes=["fortitude"])

#: (kind, wounded, terrain) of the units a group is drawn from
UNITS = [
    (INF, False, None),
    (OTHER, False, None),
    (FORT, False, None),
    (FORT, True, None),
    (INF, False, Terrain.FOREST),
]


def _outcomes(fighters: list[Fighter], hits: int) -> int:
    """Distinct results of ``hits`` (capped at what the units can take) on ``fighters``: which
    units of each class are destroyed or wounded, units of one class being interchangeable."""
    applied = min(hits, sum(f.capacity for f in fighters))
    seen: set[frozenset[tuple[tuple[str, bool, object, int], tuple[int, ...]]]] = set()
    for taken in itertools.product(*(range(f.capacity + 1) for f in fighters)):
        if sum(taken) != applied:
            continue
        per_class: dict[tuple[str, bool, object, int], list[int]] = {}
        for f, n in zip(fighters, taken, strict=True):
            per_class.setdefault((f.kind.id, f.wounded, f.terrain, f.capacity), []).append(n)
        seen.add(frozenset((key, tuple(sorted(ns))) for key, ns in per_class.items()))
    return len(seen)


def test_r_combat_06_a_real_choice_is_more_than_one_distinct_outcome() -> None:
    checked: Counter[bool] = Counter()
    for size in range(1, 5):
        for group in itertools.combinations_with_replacement(range(len(UNITS)), size):
            fighters = [
                Fighter(n, UNITS[i][0], "ORC", Side.DEFENDER, UNITS[i][2], UNITS[i][1])
                for n, i in enumerate(group, start=1)
            ]
            for hits in range(0, 2 * size + 2):
                real = _outcomes(fighters, hits) >= 2
                assert has_real_choice(fighters, hits) is real, (group, hits)
                checked[real] += 1
    assert checked[True] > 100 and checked[False] > 100
