"""``python -m caedes_bot.verify FILE``: check the dice of a finished campaign (decision 0023).

Reads an export made by ``/campaign export`` (gzipped JSON), replays the whole campaign from
its scenario with the dice seed revealed at the end, and compares every order's dice count,
every event (each die is in the events: R-GEN-08) and the final state with the file; it also
checks that the seed's SHA-256 is the commitment the bot published when the campaign began.
It prints one line, ``PASS: ...`` or ``FAIL: ...`` with the first mismatch, and exits with 0
for a pass and 1 otherwise. It uses this version's game data (``config/caedes``) and rules, so
verify with the version of the bot that played the campaign.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.persistence.exportfile import BadExport, check_export, read_export
from caedes_bot.rules import engine, setup


def verify(data: bytes, name: str = "the file") -> tuple[bool, str]:
    """``(passed, the one line)`` for an export's bytes."""
    try:
        export = read_export(data)
    except BadExport as err:
        return False, f"FAIL: {name}: {err}"
    verdict = check_export(export, load_ruleset(), engine.apply, setup.new_game)
    return verdict.ok, verdict.line


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: one argument, the export file; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m caedes_bot.verify",
        description="Replay a finished campaign's export and check every die against its "
        "revealed seed and the seed against its published SHA-256.",
    )
    parser.add_argument("file", type=Path, help="an export made by /campaign export (.json.gz)")
    args = parser.parse_args(argv)
    path: Path = args.file
    try:
        data = path.read_bytes()
    except OSError as err:
        print(f"FAIL: {path}: cannot read it ({err.strerror or err}).")
        return 1
    passed, line = verify(data, path.name)
    print(line)
    return 0 if passed else 1


if __name__ == "__main__":  # pragma: no cover - the command line
    sys.exit(main())
