"""Each faction's statistics, folded from the events of every order (decision 0021).

Kinds of ``test_victory_players``: DI (DAW infantry), OT (ORC infantry), WI (WEL infantry).
Every count below is worked out by hand from the events written here.
"""

from __future__ import annotations

from caedes_bot.rules import engine
from caedes_bot.rules.buy import PurchaseCancelled, UnitsBought
from caedes_bot.rules.collect import IncomeCollected
from caedes_bot.rules.combat.arithmetic import BattleResult
from caedes_bot.rules.combat.events import (
    BattleBegan,
    BattleEnded,
    BattleStepResolved,
    CasualtiesRemoved,
)
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.state import BattleDie, CombatStep, DiePurpose, FactionStats, GameState, Side
from caedes_bot.rules.statistics import record
from caedes_bot.rules.turn import TurnBegan
from caedes_bot.rules.umpire import SetRP
from caedes_bot.rules.upkeep import UnitsDisbanded
from tests.rules.builders import state
from tests.rules.test_victory_players import RS


def _st() -> GameState:
    """DAW units 1, 2 in a; ORC unit 3 and WEL unit 4 in b; DAW owns a and c, ORC b."""
    return state(
        RS,
        units=[("DI", "DAW", "a"), ("DI", "DAW", "a"), ("OT", "ORC", "b"), ("WI", "WEL", "b")],
        owners={"a": "DAW", "b": "ORC", "c": "DAW"},
        in_play=["DAW", "ORC", "WEL"],
    )


def _income(faction: str, round_no: int, rp: int) -> IncomeCollected:
    return IncomeCollected(faction, round_no, rp, 0, rp, (), (), ())


def test_income_purchases_and_provinces_by_round() -> None:
    """DAW collects 5 then 2 more in round 1 (7 in all) and 4 in round 2; buys 2, 1 and 1
    units and cancels 1 (3 bought); its turn of round 2 begins owning a and c: 2 provinces in round 2."""
    before = _st()
    after = before.clone()
    events = [
        _income("DAW", 1, 5),
        _income("DAW", 1, 2),
        UnitsBought("DAW", "DI", "Infantry", 2, 6, 10, 4),
        UnitsBought("DAW", "DI", "Infantry", 1, 3, 4, 1),
        UnitsBought("DAW", "DI", "Infantry", 1, 3, 1, 0),
        PurchaseCancelled("DAW", "DI", 1, 3, 0, 3),
        _income("DAW", 2, 4),
        TurnBegan("DAW", 2, 2),
    ]
    record(before, after, events, RS)
    assert after.stats["DAW"] == FactionStats(
        income=((1, 7), (2, 4)), bought=3, provinces=((2, 2),)
    )
    assert before.stats == {}  # the state the order was applied to is untouched


def test_battles_losses_and_dice_luck() -> None:
    """DAW attacks b (ORC defends, WEL with it). Missile step: DAW unit 1 rolls at 2 and hits,
    unit 2 at 2 and misses; ORC unit 3 at 3 misses; WEL unit 4 at 3 hits. A breath die and a
    rerolled die do not count. Casualties: ORC unit 3 and DAW unit 2 destroyed. DAW wins.
    DAW: 2 dice, 1 hit, 0.4 expected (4 tenths), won 1, lost 1 unit. ORC: 1 die, 0 hits, 0.3
    expected, lost the battle and 1 unit. WEL: 1 die, 1 hit, 0.3 expected, lost the battle."""
    before = _st()
    after = before.clone()
    dice = (
        BattleDie(1, "DI", Side.ATTACKER, 2, 1, True),
        BattleDie(2, "DI", Side.ATTACKER, 2, 5, False),
        BattleDie(3, "OT", Side.DEFENDER, 3, 9, False),
        BattleDie(4, "WI", Side.DEFENDER, 3, 2, True),
        BattleDie(4, "WI", Side.DEFENDER, 3, 1, True, purpose=DiePurpose.BREATH),
        BattleDie(1, "DI", Side.ATTACKER, 2, 8, False, rerolled=True),
    )
    events = [
        BattleBegan(7, "b", "DAW", ("ORC", "WEL"), (1, 2), (3, 4)),
        BattleStepResolved(7, "b", 1, CombatStep.MISSILE, dice, 1, 1),
        CasualtiesRemoved(7, "b", 1, CombatStep.MISSILE, (2,), (), (3,), ()),
        BattleEnded(7, "b", BattleResult.ATTACKER_WON, (1,), (), (), "DAW"),
    ]
    record(before, after, events, RS)
    assert after.stats["DAW"] == FactionStats(
        lost=1, battles_won=1, dice=2, hits=1, expected_tenths=4
    )
    assert after.stats["ORC"] == FactionStats(
        lost=1, battles_lost=1, dice=1, hits=0, expected_tenths=3
    )
    assert after.stats["WEL"] == FactionStats(battles_lost=1, dice=1, hits=1, expected_tenths=3)
    assert after.stats_battles == {}


def test_a_held_battle_and_disbanded_units() -> None:
    """ORC attacks a and is held (DAW wins it); a withdrawal is lost by the attacker too. WEL
    disbands 2 units at upkeep: 2 lost."""
    before = _st()
    after = before.clone()
    events = [
        BattleBegan(8, "a", "ORC", ("DAW",), (3,), (1, 2)),
        BattleEnded(8, "a", BattleResult.DEFENDER_HELD, (), (1, 2), (), "DAW"),
        BattleBegan(9, "a", "ORC", ("DAW",), (3,), (1, 2)),
        BattleEnded(9, "a", BattleResult.WITHDRAWN, (3,), (1, 2), (), "DAW"),
        UnitsDisbanded("WEL", ((4, "WI", "b"), (5, "WI", "b")), "R-UPK-03", "to pay upkeep"),
    ]
    record(before, after, events, RS)
    assert after.stats["ORC"] == FactionStats(battles_lost=2)
    assert after.stats["DAW"] == FactionStats(battles_won=2)
    assert after.stats["WEL"] == FactionStats(lost=2)


def test_the_engine_keeps_the_counters_of_every_order() -> None:
    """An order without such events changes no counter; the engine folds each order's events
    (an umpire override here: none counted)."""
    st = _st()
    out = engine.apply(st, SetRP("UMPIRE", "DAW", 9), RS, ScriptedDice([]))
    assert out.state.stats == {}


def test_an_event_class_made_after_import_is_folded_as_its_base() -> None:
    """The fold sorts events by their class through a table made at import; a subclass made
    later (here) is not in it and is still folded as the event it extends: 2 units bought."""
    from dataclasses import dataclass

    from caedes_bot.rules import statistics

    @dataclass(frozen=True, slots=True)
    class LateUnitsBought(UnitsBought):
        pass

    assert LateUnitsBought not in statistics._BRANCHES
    before = _st()
    after = before.clone()
    record(before, after, [LateUnitsBought("DAW", "DI", "Infantry", 2, 6, 10, 4)], RS)
    assert after.stats["DAW"] == FactionStats(bought=2)


def test_the_fold_table_sorts_every_event_class_as_isinstance_does() -> None:
    """Each event class the table lists goes to the branch the list of folded events gives
    an instance of it by ``isinstance`` (the first that matches), or to none."""
    from caedes_bot.rules import statistics

    for cls, branch in statistics._BRANCHES.items():
        first = next(
            (n for n, classes in enumerate(statistics._FOLDED) if issubclass(cls, classes)), None
        )
        assert branch == first, cls
    assert statistics._BRANCHES[BattleStepResolved] == statistics._STEP
    assert statistics._BRANCHES[UnitsDisbanded] == statistics._UNITS_GONE
