"""The odds worker (issue 13, decision 0020): a worker process that dies is replaced, so one
crash never leaves every later ``/odds`` failing, and never leaves a caller waiting."""

from __future__ import annotations

import asyncio
import os
import signal

from caedes_bot.gamedata.model import Options
from caedes_bot.rules.combat.arithmetic import Fighter
from caedes_bot.rules.state import BattleAction, Side
from caedes_bot.service.odds import OddsWorker, battle_key
from tests.rules.builders import kind

INF = kind("INF", "DAW")
ORCI = kind("ORCI", "ORC")


def one_against(defenders: int) -> list[Fighter]:
    fighters = [Fighter(1, INF, "DAW", Side.ATTACKER)]
    fighters += [Fighter(100 + n, ORCI, "ORC", Side.DEFENDER) for n in range(defenders)]
    return fighters


async def test_a_killed_worker_process_is_replaced() -> None:
    """R-GEN-02: after the worker process is killed, the next odds are worked out in a new
    one (one Infantry against one: the attacker takes it with 7/22, hand-worked in
    tests/rules/test_odds_methods.py)."""
    worker = OddsWorker()
    try:
        options = Options(stalemate_rounds=10_000)
        first = await worker.odds(one_against(1), options, attacker="DAW", defender_order=["ORC"])
        assert abs(first.attacker_wins - 7 / 22) < 1e-9
        pid = worker.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        again = await asyncio.wait_for(
            worker.odds(one_against(2), options, attacker="DAW", defender_order=["ORC"]), 60
        )
        assert 0.0 < again.attacker_wins < first.attacker_wins
        assert worker.pid not in (None, pid)
    finally:
        worker.close()


async def test_a_battle_with_an_enchanter_is_fought_in_the_worker_process() -> None:
    """R-MAGIC-ENCH-01: the worker process fights a battle holding an Enchanter on a copy of
    the state (:mod:`caedes_bot.rules.odds.fought`); the answer is kept by battle. The odds,
    14/29 for the attacker, are worked by hand in tests/rules/test_odds_fought.py."""
    from caedes_bot.rules.odds.planned import battle_now
    from tests.rules.combat.test_magic import setup

    rs, st = setup(["DRUID"], ["ORCI"])
    fighters = battle_now(st, rs, "x").fighters
    worker = OddsWorker()
    try:
        odds = await asyncio.wait_for(worker.fought(fighters, st, rs, "x", "DAW"), 120)
        assert odds.fought == ("enchanter",) and odds.runs == 1_000
        assert abs(odds.attacker_wins - 14 / 29) < 4.5 * (0.25 / 1_000) ** 0.5
        again = await worker.fought(fighters, st, rs, "x", "DAW")
        assert again is odds and worker.computed == 1
        assert st.battle is None and len(st.units) == 2
    finally:
        worker.close()


def test_r_combat_12_the_cache_key_reads_declarations_as_the_odds_do() -> None:
    """R-COMBAT-12, R-PBP-DEAD-04 (issue 13): no declarations given means the defaults of a
    missed deadline, so it keys the same battle as those defaults written out, and as an empty
    list when nobody would declare; a list that leaves a breather out is another battle."""
    options = Options(stalemate_rounds=10_000)
    plain = one_against(1)
    assert battle_key(plain, options, "DAW", ["ORC"], 1, 0, frozenset()) == battle_key(
        plain, options, "DAW", ["ORC"], 1, 0, frozenset(), declared={}
    )
    breather = kind("ORCBREATH", "ORC", attributes=["breathweapon"], cost=18)
    fighters = [*plain, Fighter(200, breather, "ORC", Side.DEFENDER)]
    defaults = battle_key(fighters, options, "DAW", ["ORC"], 1, 0, frozenset())
    written = {200: BattleAction.BREATH}
    assert defaults == battle_key(
        fighters, options, "DAW", ["ORC"], 1, 0, frozenset(), declared=written
    )
    assert defaults != battle_key(fighters, options, "DAW", ["ORC"], 1, 0, frozenset(), declared={})
