"""Battle odds off the event loop (issue 13, decision 0020): one worker process, answers cached
by battle.

:class:`OddsWorker` runs :func:`caedes_bot.rules.odds.odds_for` in a single worker process
(started at the first calculation, at a lower priority), so a long calculation never holds
the bot's interpreter lock: the event loop is watched by ``bench/bench_odds_loop.py``. At most
one calculation runs at a time (the rest queue). An answer is kept for the battle it was worked out
for: the same fighters (id, kind, owner, side, terrain, wound, muster order, Mercenary,
withdrawal, attack penalty), the same options, attacker, hand-out order, round, hitless rounds,
declarations and ships' cargo give the same odds, so they are worked out once. Asking twice
while the first is being worked out waits for the same calculation.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules.combat.arithmetic import Fighter
from caedes_bot.rules.odds import Method, Odds, odds_for
from caedes_bot.rules.odds.fought import fought_odds
from caedes_bot.rules.odds.model import modelled_declared
from caedes_bot.rules.state import BattleAction, GameState

log = logging.getLogger(__name__)

#: Answers kept (each a few hundred bytes).
CACHE_SIZE = 256


def battle_key(
    fighters: Sequence[Fighter],
    options: Options,
    attacker: str,
    defender_order: Sequence[str],
    start_round: int,
    hitless_rounds: int,
    masters_elsewhere: frozenset[tuple[str, str]],
    method: Method | None = None,
    declared: Mapping[int, BattleAction] | None = None,
    aboard: Mapping[int, int] | None = None,
) -> Hashable:
    """What the odds of a battle depend on, as a hashable value.

    The declarations are keyed as the odds use them (:func:`declared_key`), so ``/odds`` (which
    gives none: the defaults) and the battle message (which gives the list the battle began
    with, empty when nobody declares) share one answer for the same battle (issue 13)."""
    units = tuple(
        sorted(
            (
                f.id,
                f.kind.id,
                f.faction,
                f.side.value,
                "" if f.terrain is None else f.terrain.value,
                f.wounded,
                f.muster_seq,
                f.mercenary,
                f.can_withdraw,
                f.attack_penalty,
            )
            for f in fighters
        )
    )
    return (
        units,
        repr(options),
        attacker,
        tuple(defender_order),
        start_round,
        hitless_rounds,
        tuple(sorted(masters_elsewhere)),
        method or "",
        declared_key(fighters, options, start_round, declared),
        tuple(sorted((aboard or {}).items())),
    )


def declared_key(
    fighters: Sequence[Fighter],
    options: Options,
    start_round: int,
    declared: Mapping[int, BattleAction] | None,
) -> tuple[tuple[int, str], ...]:
    """The special actions the odds are worked out with, as
    :class:`~caedes_bot.rules.odds.model.BattleModel` takes them
    (:func:`~caedes_bot.rules.odds.model.modelled_declared`: the defaults of a missed deadline
    when ``declared`` is ``None``, R-COMBAT-12), of units that fight. ``(unit id, action)``
    pairs by unit id."""
    fighting = {f.id for f in fighters}
    used = modelled_declared(fighters, options, start_round, declared)
    return tuple(sorted((uid, action.value) for uid, action in used.items() if uid in fighting))


def _ready() -> None:
    """A job that does nothing: the worker process is up once it is done."""


def _lower_priority() -> None:
    """Run the worker process at a lower scheduling priority, so that the bot's own process
    gets the processor first when both want it. Its own interpreter, so no lock is shared."""
    try:
        os.nice(5)
    except (AttributeError, OSError):  # not allowed here: the default priority
        log.info("the odds worker process keeps the default priority")


class OddsWorker:
    """Odds in one worker process, cached by battle (see the module docstring)."""

    def __init__(self, cache_size: int = CACHE_SIZE, *, process: bool = True) -> None:
        self._pool: Executor | None = None
        #: the pool whose process is being started, and that start (see :meth:`_started`)
        self._starting: tuple[Executor, asyncio.Future[None]] | None = None
        self._process = process
        self._cache: OrderedDict[Hashable, Odds] = OrderedDict()
        self._running: dict[Hashable, asyncio.Future[Odds]] = {}
        self._size = cache_size
        self.computed = 0
        self._closed = False

    async def odds(
        self,
        fighters: Sequence[Fighter],
        options: Options,
        *,
        attacker: str,
        defender_order: Sequence[str],
        start_round: int = 1,
        hitless_rounds: int = 0,
        masters_elsewhere: frozenset[tuple[str, str]] = frozenset(),
        method: Method | None = None,
        declared: Mapping[int, BattleAction] | None = None,
        aboard: Mapping[int, int] | None = None,
    ) -> Odds:
        """The odds of the battle (:func:`~caedes_bot.rules.odds.odds_for`), from the cache or
        worked out in the worker process.

        Raises:
            RuntimeError: the worker was closed.
        """
        key = battle_key(
            fighters,
            options,
            attacker,
            defender_order,
            start_round,
            hitless_rounds,
            masters_elsewhere,
            method,
            declared,
            aboard,
        )
        work = partial(
            odds_for,
            list(fighters),
            options,
            attacker=attacker,
            defender_order=list(defender_order),
            start_round=start_round,
            hitless_rounds=hitless_rounds,
            masters_elsewhere=masters_elsewhere,
            method=method,
            declared=None if declared is None else dict(declared),
            aboard=dict(aboard or {}),
        )
        return await self._cached(key, work)

    async def fought(
        self,
        fighters: Sequence[Fighter],
        state: GameState,
        ruleset: Ruleset,
        space: str,
        attacker: str,
    ) -> Odds:
        """The odds of the battle ``attacker`` fights in ``space`` of ``state`` by Monte Carlo
        over the real battle path (:func:`~caedes_bot.rules.odds.fought.fought_odds`, for an
        Enchanter or an Illusionist), from the cache (by ``fighters``, the battle's units) or
        worked out in the worker process on a copy of the state.

        Raises:
            RuntimeError: the worker was closed. ValueError: the battle cannot be fought there.
        """
        under_way = state.battle.round if state.battle is not None else 0
        key = (
            "fought",
            battle_key(fighters, state.options, attacker, (), under_way, 0, frozenset()),
            space,
        )
        work = partial(fought_odds, state.clone(), ruleset, space, attacker)
        return await self._cached(key, work)

    async def _cached(self, key: Hashable, work: partial[Odds]) -> Odds:
        """The answer kept for ``key``, the one being worked out for it, or ``work`` run now in
        the worker and kept."""
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return found
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Odds] = asyncio.ensure_future(self._run(loop, work))
        self._running[key] = future
        try:
            result = await asyncio.shield(future)
        finally:
            self._running.pop(key, None)
        self.computed += 1
        self._cache[key] = result
        while len(self._cache) > self._size:
            self._cache.popitem(last=False)
        return result

    async def _run(self, loop: asyncio.AbstractEventLoop, work: partial[Odds]) -> Odds:
        """``work`` in the worker; a worker process that died (killed, out of memory) is
        replaced and the calculation tried once more in the new one, so one crash never leaves
        every later answer failing.

        Raises:
            BrokenExecutor: the new worker died too.
        """
        pool = await self._started()
        try:
            return await loop.run_in_executor(pool, work)
        except BrokenExecutor:
            log.info("the odds worker stopped unexpectedly; starting a new one")
            if self._pool is pool:
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        return await loop.run_in_executor(await self._started(), work)

    async def _started(self) -> Executor:
        """The worker, its process started off the event loop: a pool starts its process at
        the first job it is given, and starting a fresh interpreter ("spawn") takes tens of
        milliseconds of the caller's thread (more on a loaded machine), so the first job, one
        that does nothing, is handed over from a thread (``bench/bench_odds_loop.py``)."""
        if not self._process:
            return self._executor()
        if self._pool is None or self._starting is None or self._starting[0] is not self._pool:
            fresh = self._executor()
            start = asyncio.ensure_future(asyncio.to_thread(lambda: fresh.submit(_ready).result()))
            self._starting = (fresh, start)
        pool, starting = self._starting
        await asyncio.shield(starting)
        return pool

    def _executor(self) -> Executor:
        """The worker process, started at the first calculation ("spawn": a fresh interpreter
        that imports only the rules, never a copy of the bot's memory)."""
        if self._closed:
            raise RuntimeError("the odds worker is closed")
        if self._pool is None and self._process:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        elif self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="caedes-odds")
        return self._pool

    @property
    def pid(self) -> int | None:
        """The worker process's id, once started (for the memory benchmark)."""
        if self._pool is None:
            return None
        processes = list(getattr(self._pool, "_processes", {}) or {})
        return processes[0] if processes else None

    def clear(self) -> None:
        """Forget every answer kept."""
        self._cache.clear()

    def close(self) -> None:
        """Stop the worker process (a calculation under way finishes first, unwaited)."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
