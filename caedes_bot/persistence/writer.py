"""The single writer thread (design.md section 4) and when it checkpoints SQLite's WAL.

Every write of the bot runs on this one thread, in the order asked, on the one writer
connection. The writer connection's automatic checkpoint is off (otherwise the commit that
happens to cross SQLite's threshold copies the whole WAL back into the database file while an
order waits for it). Instead the thread checkpoints:

* **when idle**: no job has been asked for ``idle_seconds`` and something was written since
  the last checkpoint. This is the usual case in the bot: orders come at the pace of people,
  and the outbox's bookkeeping after an order comes in a short burst, so the checkpoint runs
  in the quiet that follows and no order waits for it;
* **when never idle**: after ``busy_writes`` writes without a checkpoint, between two
  transactions, so that a flood of writes cannot grow the WAL without bound. Only then can
  a write wait for a checkpoint (about one write in ``busy_writes``).

Only the writer checkpoints, and on its own connection: SQLite 3.40 has a published race in
which a second connection checkpointing while the writer writes can reset the WAL wrongly.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)

#: Seconds without any job after which the writer checkpoints what was written.
IDLE_CHECKPOINT_SECONDS = 0.05

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


class WriterThread:
    """One thread running jobs in order, checkpointing when idle (see the module docstring).

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
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._since = 0
        self._closed = False
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
        if self._closed:
            raise RuntimeError("the writer thread is closed")
        future: Future[T] = Future()
        self._jobs.put((job, future, write))
        return future

    def checkpoint(self, reason: str, mode: str = "PASSIVE") -> Checkpoint | None:
        """Run a checkpoint now. Call it on the writer thread only (a job may)."""
        if self._checkpoint_fn is None:
            return None
        writes, self._since = self._since, 0
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

    def close(self) -> None:
        """Run the jobs already queued, then stop the thread (and wait for it)."""
        if self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            waiting = self._since > 0 and self._checkpoint_fn is not None
            try:
                item = self._jobs.get(timeout=self.idle_seconds if waiting else None)
            except queue.Empty:
                self.checkpoint("idle")
                continue
            if item is None:
                return
            job, future, write = item
            if not future.set_running_or_notify_cancel():
                continue  # cancelled before it started: it never runs
            try:
                result = job()
            except BaseException as err:  # the caller gets it
                future.set_exception(err)
            else:
                future.set_result(result)
            if write:
                self._since += 1
                if self._since >= self.busy_writes:
                    self.checkpoint("busy")
