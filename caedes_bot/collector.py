"""The cyclic garbage collector kept out of the time a member waits for an answer (issue 9).

CPython's collector runs whenever enough container objects have been made since the last
collection, in the middle of whatever code made the last one. An order makes a few thousand
(the new state's changed parts, its events, the messages it queues), so about one order in
seven paid for a young collection (0.4 ms at the median) and one in twenty for an older one
(1.5-2 ms) before its answer was sent: a good part of the order's slowest percent.

:class:`CollectorPause` holds the automatic collector off while any interaction is being
answered, and gives it back once none has been for ``idle_seconds`` (a few milliseconds): the
collection that was due then runs at the next allocation, in the gap between interactions,
with CPython's own choice of generation (its thresholds and its rule for full collections are
untouched). Interactions that come one right after another (a member's command, then the
next one's) keep it off between them too, so it does not start in the middle of parsing the
next one either.

The pause is bounded, so that memory never grows without limit when interactions overlap
without a gap: a hold lasts at most as long as its interaction's handling (the caller lets go
when the answer is sent, when the handling task ends, or after a time limit, see
:func:`caedes_bot.ui.replies.hold_wakes`), and when more than ``limit`` objects have been made
under the pause, the next hold first collects what CPython would have collected by then.

Decision 0009 (addendum "the collector and the answer").
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

#: Objects made under the pause (CPython's generation-0 count) after which a new hold first
#: collects: fifty times CPython's default threshold of 700.
PAUSE_LIMIT = 35_000

#: Seconds without any interaction being answered before the collector may run again.
IDLE_SECONDS = 0.005


class CollectorPause:
    """Holds :mod:`gc`'s automatic collection off while any hold is taken, and until
    ``idle_seconds`` after the last one goes.

    Args:
        limit: see :data:`PAUSE_LIMIT`.
        idle_seconds: see :data:`IDLE_SECONDS`; ``0``: given back as soon as the last hold
            goes.

    Attributes:
        held: holds taken and not let go.
        forced: collections a hold ran because ``limit`` was passed.
    """

    def __init__(self, *, limit: int = PAUSE_LIMIT, idle_seconds: float = IDLE_SECONDS) -> None:
        self.limit = limit
        self.idle_seconds = idle_seconds
        self.held = 0
        self.forced = 0
        self._paused = False  # whether this pause turned the collector off (not someone else)
        self._resume: asyncio.TimerHandle | None = None
        self._closed = False

    @property
    def paused(self) -> bool:
        """Whether the collector is off because of this pause (held, or not idle long enough)."""
        return self._paused

    @property
    def resuming(self) -> bool:
        """Whether the collector is due back once the quiet after the last hold has lasted."""
        return self._resume is not None

    def hold(self) -> Callable[[], None]:
        """Take a hold; returns the function that lets it go (calling it again does nothing).

        While any hold is taken the collector does not run by itself. If it was off already
        (``gc.disable()`` by someone else), it is left off. After :meth:`close`, holds change
        nothing.
        """
        if self._closed:
            return _nothing
        self._cancel_resume()
        if not self._paused:
            if gc.isenabled():
                gc.disable()
                self._paused = True
        elif gc.get_count()[0] > self.limit:
            self.forced += 1
            gc.collect(_due_generation())
        self.held += 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self.held -= 1
            if self.held == 0 and self._paused:
                self._idle()

        return release

    def _idle(self) -> None:
        """The last hold went: give the collector back after ``idle_seconds`` (at once with
        none, or outside an event loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or self.idle_seconds <= 0:
            self.resume()
        else:
            self._resume = loop.call_later(self.idle_seconds, self.resume)

    def resume(self) -> None:
        """Give the collector back now if no hold is taken."""
        self._cancel_resume()
        if self.held == 0 and self._paused:
            self._paused = False
            gc.enable()

    def close(self) -> None:
        """Give the collector back now, held or not, and for good: later holds change nothing
        (the bot calls it when it closes, so that no process is left without its collector)."""
        self._closed = True
        self._cancel_resume()
        if self._paused:
            self._paused = False
            gc.enable()

    def _cancel_resume(self) -> None:
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None


def _nothing() -> None:
    """The release of a hold taken after :meth:`CollectorPause.close`."""


def _due_generation() -> int:
    """The oldest generation CPython would collect now: the oldest whose count has reached
    its threshold, the first always (as its count has)."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1):
        if counts[generation] >= thresholds[generation]:
            return generation
    return 0
