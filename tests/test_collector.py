"""The garbage collector held off while interactions are answered (caedes_bot.collector,
issue 9: the order's tail; decision 0009)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Iterator

import pytest

from caedes_bot.collector import CollectorPause


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture(autouse=True)
def _collector_as_it_was() -> Iterator[None]:
    enabled, threshold = gc.isenabled(), gc.get_threshold()
    gc.enable()
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        (gc.enable if enabled else gc.disable)()


def cyclic_garbage(count: int) -> list[weakref.ref[Node]]:
    """``count`` pairs of nodes that only refer to each other (only the collector frees them);
    weak references to one of each pair."""
    refs = []
    for _ in range(count):
        a, b = Node(), Node()
        a.other, b.other = b, a
        refs.append(weakref.ref(a))
    return refs


def test_a_hold_turns_the_collector_off_until_it_is_let_go() -> None:
    pause = CollectorPause()  # outside an event loop: back as soon as the last hold goes
    release = pause.hold()
    assert not gc.isenabled() and pause.held == 1
    release()
    assert gc.isenabled() and pause.held == 0
    release()  # a second call does nothing
    assert gc.isenabled() and pause.held == 0


def test_overlapping_holds_give_the_collector_back_only_when_the_last_goes() -> None:
    pause = CollectorPause()
    first, second = pause.hold(), pause.hold()
    first()
    assert not gc.isenabled() and pause.held == 1
    first()  # the same hold again: still one held
    assert not gc.isenabled() and pause.held == 1
    second()
    assert gc.isenabled() and pause.held == 0


def test_a_collector_turned_off_by_someone_else_stays_off() -> None:
    gc.disable()
    pause = CollectorPause()
    pause.hold()()
    assert not gc.isenabled()


def test_garbage_made_under_a_hold_is_collected_once_it_goes() -> None:
    gc.collect()
    gc.set_threshold(50)  # a young collection after 50 objects, once allowed
    pause = CollectorPause()
    release = pause.hold()
    refs = cyclic_garbage(200)  # 400 objects: eight times what would have started a collection
    assert all(r() is not None for r in refs)  # nothing ran while held
    release()
    for _ in range(100):  # the next objects made start the collection that was due
        Node()
    assert all(r() is None for r in refs)


def test_holds_that_never_all_go_still_collect_past_the_limit() -> None:
    gc.collect()
    pause = CollectorPause(limit=1_000)
    first = pause.hold()
    refs = cyclic_garbage(1_000)  # 2,000 objects made under the pause
    second = pause.hold()  # the count is past the limit: this hold collects first
    assert pause.forced == 1
    assert all(r() is None for r in refs)
    assert not gc.isenabled()
    third = pause.hold()  # below the limit again: no collection
    assert pause.forced == 1
    for release in (first, second, third):
        release()
    assert gc.isenabled()


async def test_the_collector_comes_back_only_after_a_quiet_moment() -> None:
    pause = CollectorPause(idle_seconds=60)  # a timer that never fires in this test
    first = pause.hold()
    first()
    assert not gc.isenabled() and pause.paused  # the last hold went: waiting for the quiet
    second = pause.hold()  # the next interaction before the quiet: still off, no collection
    assert not gc.isenabled() and pause.forced == 0
    second()
    pause.resume()  # what the timer does once the quiet has lasted
    assert gc.isenabled() and not pause.paused


async def test_the_quiet_timer_gives_the_collector_back(monkeypatch: pytest.MonkeyPatch) -> None:
    loop = asyncio.get_running_loop()
    timers: list[tuple[float, Callable[[], None]]] = []
    plain = loop.call_later

    def call_later(delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        timers.append((delay, callback))
        return plain(3600, callback)  # never fires by itself here

    monkeypatch.setattr(loop, "call_later", call_later)
    pause = CollectorPause(idle_seconds=0.005)
    pause.hold()()
    assert not gc.isenabled() and pause.resuming
    [(delay, resume)] = timers
    assert delay == 0.005
    resume()  # the quiet has lasted
    assert gc.isenabled() and not pause.paused and not pause.resuming


def test_closing_gives_the_collector_back_for_good() -> None:
    pause = CollectorPause()
    release = pause.hold()
    pause.close()
    assert gc.isenabled()
    release()
    pause.hold()
    assert gc.isenabled() and pause.held == 0
