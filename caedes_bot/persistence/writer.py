"""The single writer (design.md section 4) and when it checkpoints SQLite's WAL.

Every write of the bot runs on the one writer connection, one at a time, in the order asked.
A write asked while the writer has nothing queued or running runs at once on the caller's
thread (:meth:`WriterThread.run_inline`): on SQLite an order's transaction is about a
millisecond of work, and handing it to a thread and back cost two thread wake-ups, which on a
busy machine were the slowest part of an order (decision 0009, third addendum). A write asked
while another is queued or running, or one that must not run on the event loop, goes to the
writer's thread and waits its turn. Either way the writer connection is used by one thread at
a time (a lock), so writes never overlap.

The writer connection's automatic checkpoint is off (otherwise the commit that happens to
cross SQLite's threshold copies the whole WAL back into the database file while an order waits
for it). Instead the thread checkpoints:

* **when idle**: nothing has been written for ``idle_seconds`` (a second) and something was
  written since the last checkpoint. This is the usual case in the bot: orders come at the
  pace of people, and the outbox's bookkeeping after an order comes in a short burst, so the
  checkpoint runs in the quiet that follows. A checkpoint holds the connection for its whole
  length (about 13 ms at the median on a shared two-core machine, most of it the two
  ``fsync`` calls), and a write asked meanwhile waits for it; so the quiet asked for is long
  enough that commands a few tens of milliseconds apart (a burst of clicks, a benchmark)
  never meet one (decision 0009, last addendum);
* **when never idle**: after ``busy_writes`` writes without a checkpoint, between two
  transactions, so that a flood of writes cannot grow the WAL without bound. Only then can
  a write wait for a checkpoint (about one write in ``busy_writes``): the write that reaches
  the count goes to the thread, which checkpoints after it.

Only the writer checkpoints, and on its own connection: SQLite 3.40 has a published race in
which a second connection checkpointing while the writer writes can reset the WAL wrongly.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar, cast

T = TypeVar("T")

log = logging.getLogger(__name__)

#: Seconds without any write after which the writer checkpoints what was written.
IDLE_CHECKPOINT_SECONDS = 1.0

#: Writes after which a writer that is never idle checkpoints anyway (between transactions).
BUSY_CHECKPOINT_WRITES = 500


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """One checkpoint the writer ran.

    Attributes:
        reason: ``"idle"``, ``"busy"`` (``busy_writes`` reached) or ``"close"`` (the last,
            when the database is closed).
        writes: write transactions since the previous checkpoint.
        thread: the name of the thread that ran it (always the writer's).
        connection: ``id()`` of the DBAPI connection it ran on (the writer's).
        frames: SQLite's answer: frames in the WAL and frames checkpointed (``-1`` if unknown).
    """

    reason: str
    writes: int
    thread: str
    connection: int
    frames: tuple[int, int]


#: Runs a checkpoint on the writer's connection: ``(mode) -> (connection id, (log, done))``.
CheckpointFn = Callable[[str], tuple[int, tuple[int, int]]]

_Job = tuple[Callable[[], Any], "Future[Any]", bool]

#: put on the queue to make the thread look at its counters again (a write ran inline)
_NUDGE = object()


class WriterThread:
    """One thread running jobs in order, checkpointing when idle; a job asked while it has
    nothing to do may run on the caller's thread instead (:meth:`run_inline`; see the module
    docstring).

    Args:
        checkpoint: runs a checkpoint on the writer's connection; ``None`` (not SQLite): the
            thread never checkpoints.
        idle_seconds: the quiet after which it checkpoints.
        busy_writes: the writes after which it checkpoints even when not idle.
        name: the thread's name.

    Attributes:
        checkpoints: every checkpoint run, oldest first (the last 1,000).
        on_checkpoint: called on the writer thread after each checkpoint (tests watch it).
    """

    def __init__(
        self,
        checkpoint: CheckpointFn | None,
        *,
        idle_seconds: float = IDLE_CHECKPOINT_SECONDS,
        busy_writes: int = BUSY_CHECKPOINT_WRITES,
        name: str = "caedes-db-writer",
    ) -> None:
        self._checkpoint_fn = checkpoint
        self.idle_seconds = idle_seconds
        self.busy_writes = busy_writes
        self.checkpoints: list[Checkpoint] = []
        self.on_checkpoint: Callable[[Checkpoint], None] | None = None
        self._jobs: queue.SimpleQueue[_Job | object | None] = queue.SimpleQueue()
        self._since = 0
        self._last_write = time.monotonic()
        self._closed = False
        self._last: Callable[[], Any] | None = None
        # held while a job or a checkpoint uses the connection, on whichever thread
        self._busy = threading.Lock()
        # jobs handed to the thread and not finished yet (guarded by _count)
        self._count = threading.Lock()
        self._pending = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[], T], *, write: bool = True) -> Future[T]:
        """Queue ``job`` behind the jobs asked before; its future holds its result or error.

        Args:
            write: the job is a write transaction (counted towards ``busy_writes`` and makes
                the next idle moment checkpoint).

        Raises:
            RuntimeError: the thread was closed.
        """
        future: Future[T] = Future()
        with self._count:  # not between close's check and its last item: it would never run
            if self._closed:
                raise RuntimeError("the writer thread is closed")
            self._pending += 1
            self._jobs.put((job, future, write))
        return future

    def run_inline(self, job: Callable[[], T]) -> tuple[bool, T | None]:
        """Run the write transaction ``job`` now on the calling thread, if the writer has
        nothing queued or running and the write would not reach ``busy_writes`` (that one
        goes to the thread, which checkpoints after it).

        Returns:
            ``(True, result)`` if it ran; ``(False, None)`` if it did not (then hand it to
            :meth:`submit`). An exception of ``job`` is raised here, after the writer is free
            again.

        Raises:
            RuntimeError: the thread was closed.
        """
        if self._closed:
            raise RuntimeError("the writer thread is closed")
        if self._pending or self._since + 1 >= self.busy_writes:
            return False, None
        if not self._busy.acquire(blocking=False):
            return False, None  # a checkpoint is running
        first = False
        try:
            if self._closed:  # closed since the first look: the last job may have run
                raise RuntimeError("the writer thread is closed")
            if self._pending:  # handed to the thread since the first look: it goes first
                return False, None
            first = self._since == 0
            try:
                return True, job()
            finally:
                self._wrote()
        finally:
            self._busy.release()
            if first and self._checkpoint_fn is not None:
                self._jobs.put(_NUDGE)  # the thread starts counting the quiet from now

    def _wrote(self) -> None:
        self._since += 1
        self._last_write = time.monotonic()

    def checkpoint(self, reason: str, mode: str = "PASSIVE") -> Checkpoint | None:
        """Run a checkpoint now. Call it on the writer thread only (a job may)."""
        if self._checkpoint_fn is None:
            return None
        writes, self._since = self._since, 0  # the caller holds self._busy
        try:
            connection, frames = self._checkpoint_fn(mode)
        except Exception:  # a failed checkpoint is retried at the next idle moment
            log.exception("WAL checkpoint failed")
            return None
        done = Checkpoint(reason, writes, threading.current_thread().name, connection, frames)
        self.checkpoints.append(done)
        del self.checkpoints[:-1000]
        if self.on_checkpoint is not None:
            self.on_checkpoint(done)
        return done

    def stop(self, last: Callable[[], Any] | None = None) -> None:
        """Refuse new jobs from now on (:meth:`submit` and :meth:`run_inline` raise); the
        thread runs the jobs already queued, then ``last``, then ends. Does not wait.

        Args:
            last: the writer's last job (closing the database: the final checkpoint and
                closing the connection), run on the thread once no write is running, inline
                or not; no write runs after it. Its error is logged.
        """
        with self._count:  # no job is queued behind the end
            if self._closed:
                return
            self._closed = True
            self._last = last
            self._jobs.put(None)

    def close(self, last: Callable[[], Any] | None = None) -> None:
        """:meth:`stop`, then wait for the thread to end."""
        self.stop(last)
        self._thread.join()

    def _run(self) -> None:
        while True:
            timeout = None
            if self._since > 0 and self._checkpoint_fn is not None:
                timeout = max(0.0, self._last_write + self.idle_seconds - time.monotonic())
            try:
                item = self._jobs.get(timeout=timeout)
            except queue.Empty:
                with self._busy:
                    quiet = time.monotonic() - self._last_write >= self.idle_seconds
                    if quiet and self._since > 0:
                        self.checkpoint("idle")
                continue  # written to inline meanwhile: wait for the quiet after it
            if item is None:
                if self._last is not None:
                    with self._busy:  # after an inline write still running elsewhere
                        try:
                            self._last()
                        except Exception:
                            log.exception("the writer's last job failed")
                return
            if item is _NUDGE:
                continue
            job, future, write = cast(_Job, item)
            try:
                if not future.set_running_or_notify_cancel():
                    continue  # cancelled before it started: it never runs
                with self._busy:
                    try:
                        result = job()
                    except BaseException as err:  # the caller gets it
                        future.set_exception(err)
                    else:
                        future.set_result(result)
                    if write:
                        self._wrote()
                        if self._since >= self.busy_writes:
                            self.checkpoint("busy")
            finally:
                with self._count:
                    self._pending -= 1
