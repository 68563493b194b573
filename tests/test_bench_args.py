"""The benchmarks' command lines (bench/README.md): a count of nothing is refused with
argparse's one-line message instead of a traceback after the set-up, and ``--quick`` fills
only what is not given beside it. Nothing here runs a benchmark."""

from __future__ import annotations

import argparse

import pytest

from bench import bench_battle, bench_service, bench_size
from bench.common import at_least_one


@pytest.mark.parametrize("text", ["0", "-3"])
def test_a_count_below_one_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="too few: give 1 or more"):
        at_least_one(text)


def test_a_count_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="not a whole number"):
        at_least_one("many")
    assert at_least_one("7") == 7


@pytest.mark.parametrize("module", [bench_service, bench_size])
def test_the_command_line_refuses_zero_runs(
    module: object, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        module.arguments(["--runs", "0"])  # type: ignore[attr-defined]
    assert stopped.value.code == 2
    assert "--runs: 0 is too few: give 1 or more" in capsys.readouterr().err


def test_bench_battle_takes_its_counts_as_at_least_one() -> None:
    assert bench_battle.at_least_one is at_least_one


def test_service_quick_fills_only_what_is_not_given() -> None:
    quick = bench_service.arguments(["--quick"])
    assert (quick.runs, quick.orders, quick.cold) == (1, 2500, 10)
    given = bench_service.arguments(["--quick", "--orders", "500", "--runs", "2"])
    assert (given.runs, given.orders, given.cold) == (2, 500, 10)
    plain = bench_service.arguments([])
    assert (plain.runs, plain.orders, plain.cold, plain.beside_thread) == (3, 2500, 20, False)


def test_size_quick_fills_only_what_is_not_given() -> None:
    quick = bench_size.arguments(["--quick"])
    assert (quick.runs, quick.orders, quick.warmup, quick.wal_orders) == (3, 150, 25, 25)
    given = bench_size.arguments(["--quick", "--runs", "1"])
    assert (given.runs, given.orders) == (1, 150)
    plain = bench_size.arguments([])
    assert (plain.runs, plain.orders, plain.warmup, plain.wal_orders) == (5, 500, 50, 50)
