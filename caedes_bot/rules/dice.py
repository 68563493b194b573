"""Dice for the rules core (R-GEN-01, R-GEN-08).

The rules never draw randomness themselves: every roll goes through an injected :class:`Dice`.
Production uses :class:`SeededDice`, a counter-based generator whose seed and roll count live in
the game state, so any stretch of a campaign replays exactly. Tests use :class:`ScriptedDice`,
which fails loudly on a roll it was not told about.

A d10 reads 1..10; a face printed "0" reads 10 (R-GEN-01).

Anyone may check the dice of a finished campaign: at the start the bot publishes
:func:`seed_commitment` of the seed (its SHA-256), at the end the seed itself, and
``python -m caedes_bot.verify`` replays the campaign with :class:`SeededDice` (decision 0023).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Roll:
    """One labelled roll (R-GEN-08): ``count`` dice of ``sides`` sides, with their results."""

    reason: str
    sides: int
    values: tuple[int, ...]


class Dice(Protocol):
    """Where every random number comes from.

    ``roll`` returns ``count`` results, each in ``1..sides``. ``count`` is the number of dice
    rolled so far by this object (the rules add the difference to the state's roll counter),
    and ``history`` is every roll made, labelled with its reason.
    """

    @property
    def count(self) -> int: ...

    @property
    def history(self) -> list[Roll]: ...

    def roll(self, sides: int, count: int, *, reason: str) -> tuple[int, ...]: ...


@dataclass
class SeededDice:
    """Deterministic dice from ``(seed, counter)``: die number ``n`` is a pure function of both.

    Die ``n`` is read from SHA-256 of ``seed:n`` with rejection sampling, so every face is
    equally likely and resuming at ``counter`` continues the exact same sequence.
    """

    seed: str
    counter: int = 0
    _start: int = field(init=False, default=0)
    history: list[Roll] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self._start = self.counter

    @property
    def count(self) -> int:
        """Dice rolled through this object since it was made."""
        return self.counter - self._start

    def _die(self, sides: int) -> int:
        limit = (2**64 // sides) * sides
        salt = 0
        while True:
            digest = hashlib.sha256(f"{self.seed}:{self.counter}:{salt}".encode()).digest()
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                self.counter += 1
                return value % sides + 1
            salt += 1

    def roll(self, sides: int, count: int, *, reason: str) -> tuple[int, ...]:
        if sides < 1 or count < 0:
            raise ValueError(f"cannot roll {count}d{sides}")
        values = tuple(self._die(sides) for _ in range(count))
        self.history.append(Roll(reason, sides, values))
        return values


def seed_commitment(seed: str) -> str:
    """The public commitment to a dice seed: SHA-256 of its UTF-8 text, as 64 hex digits.

    Published when a campaign starts; once the seed is revealed at the end, anyone can check
    that ``seed_commitment(seed)`` is what was published (decision 0023).
    """
    return hashlib.sha256(seed.encode()).hexdigest()


class DiceScriptError(AssertionError):
    """A scripted die was asked for that the script does not hold, or one was left over."""


@dataclass
class ScriptedDice:
    """Dice that return a fixed script in order; for tests (design.md section 3).

    Raises :class:`DiceScriptError` when more dice are asked for than scripted, or when a value
    does not fit the die. Call :meth:`assert_exhausted` at the end of a test to check that no
    scripted die was left unused.
    """

    script: list[int]
    history: list[Roll] = field(default_factory=list)
    _pos: int = 0

    def __init__(self, values: Iterable[int]) -> None:
        self.script = list(values)
        self.history = []
        self._pos = 0

    @property
    def count(self) -> int:
        return self._pos

    @property
    def remaining(self) -> int:
        return len(self.script) - self._pos

    def roll(self, sides: int, count: int, *, reason: str) -> tuple[int, ...]:
        if self._pos + count > len(self.script):
            raise DiceScriptError(
                f"asked for {count}d{sides} ({reason}) but only {self.remaining} scripted dice left"
            )
        values = tuple(self.script[self._pos : self._pos + count])
        for v in values:
            if not 1 <= v <= sides:
                raise DiceScriptError(f"scripted value {v} does not fit a d{sides} ({reason})")
        self._pos += count
        self.history.append(Roll(reason, sides, values))
        return values

    def assert_exhausted(self) -> None:
        if self.remaining:
            raise DiceScriptError(f"{self.remaining} scripted dice were never rolled")
