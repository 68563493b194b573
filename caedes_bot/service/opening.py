"""The odds a battle message opens with, worked out after the order (option
``battle_message_odds``, R-COMBAT-16, issue 13, decision 0020).

The order that begins a battle does no odds: the rules note the battle as it begins (a
:class:`~caedes_bot.rules.combat.events.BattleOddsAsked` event), the order's transaction
stores that note as a ``battle_odds`` row asked for and posts the battle message with "being
worked out", and after the commit :class:`OpeningOdds` hands the battle to the odds worker
(:class:`~caedes_bot.service.odds.OddsWorker`, a process of its own, answers cached by
battle). When the answer comes, one transaction under the campaign's lock keeps the odds on
the row and queues the edit of the battle message (stored before it is sent, sent once: a
battle answered already, or asked for again after an undo, gets nothing). The edit is paced
and coalesced with the message's other edits (decision 0015), and every later drawing of the
message reads the odds from the row. Odds asked for before a restart are worked out by
:meth:`OpeningOdds.resume_opening_odds`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from sqlalchemy.engine import Connection

from caedes_bot.domain.records import OpeningOdds as Opening
from caedes_bot.gamedata.model import Options
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.mappers import load_event
from caedes_bot.rules.combat.events import BattleOddsAsked
from caedes_bot.rules.events import Event
from caedes_bot.rules.odds.opening import opening_figures, opening_setup
from caedes_bot.rules.state import GameState
from caedes_bot.service.core import ServiceCore
from caedes_bot.service.odds import OddsWorker

log = logging.getLogger(__name__)


def battles_shown(events: Iterable[Event], *states: GameState | None) -> set[int]:
    """The battles an order's messages may draw: those its events name, and the battle under
    way before and after it."""
    ids = {b for e in events if isinstance(b := getattr(e, "battle", None), int)}
    ids |= {s.battle.id for s in states if s is not None and s.battle is not None}
    return ids


class OpeningOdds(ServiceCore):
    """The battle messages' opening odds (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._odds_worker: OddsWorker | None = None
        self._opening_tasks: set[asyncio.Task[None]] = set()

    def attach_odds(self, worker: OddsWorker) -> None:
        """Work the opening odds out in ``worker`` from now on (the bot's own worker); until
        a worker is attached, battles asked for keep "being worked out" (and are worked out
        by :meth:`resume_opening_odds` once one is)."""
        self._odds_worker = worker

    async def _opening_odds_of(
        self, campaign_id: int, events: Sequence[Event], before: GameState, after: GameState
    ) -> dict[int, Opening | None]:
        """The opening odds of the battles an order shows, when the option is on (one small
        read; nothing read when it is off)."""
        if not (before.options.battle_message_odds or after.options.battle_message_odds):
            return {}
        ids = battles_shown(events, before, after)
        if not ids:
            return {}
        return await self.db.read(lambda conn: repo.battle_odds_of(conn, campaign_id, ids))

    def _opening_wanted(
        self, campaign_id: int, asked_seq: int, events: Sequence[Event], options: Options
    ) -> None:
        """After the commit of order ``asked_seq``: work out the odds of each battle it began
        with its odds asked for, off the order's path."""
        if self._odds_worker is None:
            return
        for event in events:
            if isinstance(event, BattleOddsAsked):
                # the answer to the member first (decision 0009), then the odds
                self._after_answer(partial(self._start, campaign_id, asked_seq, event, options))

    def _start(
        self, campaign_id: int, asked_seq: int, asked: BattleOddsAsked, options: Options
    ) -> None:
        task = asyncio.create_task(
            self._work_out(campaign_id, asked_seq, asked, options),
            name=f"caedes-opening-odds-{campaign_id}-{asked.battle}",
        )
        tasks = self._opening_tasks
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def _work_out(
        self, campaign_id: int, asked_seq: int, asked: BattleOddsAsked, options: Options
    ) -> None:
        worker = self._odds_worker
        if worker is None:
            return
        try:
            setup = opening_setup(self.ruleset, asked)
            odds = await worker.odds(list(setup.fighters), options, **setup.odds_arguments())
            opening = (opening_figures(odds), odds.method, tuple(odds.unsupported))
            await self.note_opening_odds(campaign_id, asked.battle, asked_seq, asked, opening)
        except asyncio.CancelledError:
            raise
        except Exception:  # the battle keeps "being worked out"; the bot goes on
            log.exception("campaign %s: the odds of battle %s failed", campaign_id, asked.battle)

    async def note_opening_odds(
        self,
        campaign_id: int,
        battle_id: int,
        asked_seq: int,
        asked: BattleOddsAsked,
        opening: Opening,
    ) -> bool:
        """Keep the odds ``opening`` of battle ``battle_id`` (asked for by order
        ``asked_seq``) and queue the edit of its message, in one transaction under the
        campaign's lock. Returns whether anything was written (``False``: answered already,
        or asked for again since).

        Raises:
            UnknownCampaign: no such campaign.
        """
        async with self._campaign_lock(campaign_id):
            cached = await self._load(campaign_id)
            state = cached.state
            view = replace(cached.view(), battle_odds={battle_id: opening})
            shown = None
            if state.battle is None or state.battle.id != battle_id:
                key = f"battle:{battle_id}"
                shown = await self.db.read(lambda conn: repo.last_embed_of(conn, campaign_id, key))
            messages = self.announcer.opening_odds(
                view, state, self.ruleset, battle_id, asked.attacker, shown
            )
            now = self._clock()

            def _tx(conn: Connection) -> bool:
                answered = repo.answer_battle_odds(
                    conn, campaign_id, battle_id, asked_seq=asked_seq, odds=opening, now=now
                )
                if answered:
                    repo.insert_outbox(conn, campaign_id, messages, now=now)
                return answered

            written = await self.db.write(_tx)
        if written:
            self._notify(campaign_id)
        return written

    async def resume_opening_odds(self) -> int:
        """Work out, in the background, the opening odds asked for and never answered (the
        bot stopped first). Returns how many were started."""
        if self._odds_worker is None:
            return 0
        waiting = await self.db.read(lambda conn: repo.unanswered_battle_odds(conn))
        started = 0
        for row in waiting:
            asked = load_event(row.request)
            if not isinstance(asked, BattleOddsAsked):
                continue
            state = (await self._load(row.campaign_id)).state
            self._start(row.campaign_id, row.asked_seq, asked, state.options)
            started += 1
        return started

    async def settle_opening_odds(self) -> None:
        """Wait until every opening odds under way is answered (tests, shutting down)."""
        while tasks := self._opening_tasks:
            await asyncio.gather(*list(tasks), return_exceptions=True)

    async def stop_opening_odds(self) -> None:
        """Stop the opening odds under way (shutting down: they are worked out again at the
        next start, :meth:`resume_opening_odds`)."""
        tasks = list(self._opening_tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
