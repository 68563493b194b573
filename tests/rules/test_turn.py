"""The turn: order, steps, turn-start checks, advancing (R-TURN-01..06, R-ATTR-MERC-01, R-VIC-03).

World used by most tests (values worked out by hand below each test):

    a plains RP 3  - b plains RP 2  - c hills RP 1
    DAW owns a and b; ORC owns c.
    DAW: 2 infantry (DI) in a, 10 RP.   ORC: 1 trooper (OT) in c, 5 RP.
"""

from dataclasses import replace

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.economy import BuyUnits, IncomeCollected, UpkeepPaid
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import NotYourTurn, RuleViolation, WrongStep
from caedes_bot.rules.events import Event
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import (
    WAITING_STEPS,
    DecisionDefaulted,
    EndStep,
    GameRoundBegan,
    MercenariesDeserted,
    StartCampaign,
    StepBegan,
    StepEnded,
    TurnBegan,
    TurnEnded,
    UmpireAdvance,
    mercenary_check,
)
from caedes_bot.rules.victory import CampaignEnded
from tests.rules.builders import kind, ruleset, state, with_options, with_scenario

NO_DICE = ScriptedDice([])


def _world(turn_limit: int | None = None, factions: tuple[str, ...] = ("DAW", "ORC")) -> Ruleset:
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("hills",)},
        borders=[("a", "b"), ("b", "c")],
        rp={"a": 3, "b": 2, "c": 1},
        kinds=[
            kind("DI", "DAW"),
            kind("OT", "ORC"),
            kind("OR", "ORC", attributes=["mercenary", "meek"], cost=2),
            kind("OW", "ORC", "cavalry", cost=5),
        ],
    )
    start = {"DAW": (10, {}), "ORC": (5, {}), "WEL": (4, {})}
    return with_scenario(
        rs,
        factions={code: start[code] for code in factions},
        owners={"a": "DAW", "b": "DAW", "c": "ORC"},
        units=[("DI", "a", 2), ("OT", "c", 1)],
        turn_limit=turn_limit,
    )


def _start(rs: Ruleset) -> tuple[GameState, tuple[Event, ...]]:
    out = apply(new_game(rs, "test", "s"), StartCampaign("umpire"), rs, NO_DICE)
    st, more = _pass_trade_and_redeem(out.state, rs)
    return st, out.events + tuple(more)


def _pass_trade_and_redeem(st: GameState, rs: Ruleset) -> tuple[GameState, list[Event]]:
    """End steps 1 and 2 of a turn that has just begun: these worlds trade and redeem nothing."""
    events: list[Event] = []
    while st.active is not None and st.step in (Step.TRADE, Step.REDEEM):
        out = apply(st, EndStep(st.active), rs, NO_DICE)
        st = out.state
        events += out.events
    return st, events


def _names(events: tuple[Event, ...]) -> list[str]:
    return [type(e).__name__ for e in events]


def _end(st: GameState, rs: Ruleset, times: int = 1) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for _ in range(times):
        assert st.active is not None
        out = apply(st, EndStep(st.active), rs, NO_DICE)
        st, more = _pass_trade_and_redeem(out.state, rs)
        events += [*out.events, *more]
    return st, events


def test_r_turn_02_start_runs_steps_1_to_4_in_order_and_waits_in_buy() -> None:
    """R-TURN-02, R-TURN-06: round 1 begins with the Dawnians; Trade and Redeem pass at once,
    Collect and Upkeep run by themselves, and the turn waits in step 5.
    By hand: first turn collects a (3 RP, garrisoned), not b (no unit): 10 + 3 = 13;
    upkeep ceil(2/6) = 1: 12 RP."""
    rs = _world()
    st, events = _start(rs)
    assert _names(events) == [
        "GameRoundBegan",
        "TurnBegan",
        "StepBegan",  # 1 trade
        "StepEnded",
        "StepBegan",  # 2 redeem
        "StepEnded",
        "StepBegan",  # 3 collect
        "IncomeCollected",
        "StepEnded",
        "StepBegan",  # 4 upkeep
        "UpkeepPaid",
        "StepEnded",
        "StepBegan",  # 5 buy
    ]
    steps = [e.step for e in events if isinstance(e, StepBegan)]
    assert steps == [Step.TRADE, Step.REDEEM, Step.COLLECT, Step.UPKEEP, Step.BUY]
    assert events[0] == GameRoundBegan(1)
    assert events[1] == TurnBegan("DAW", 1, 1)
    assert (st.round, st.active, st.step) == (1, "DAW", Step.BUY)
    assert st.factions["DAW"].rp == 12
    assert st.factions["DAW"].turns_taken == 1
    assert st.factions["ORC"].turns_taken == 0


def test_start_campaign_twice_is_refused() -> None:
    rs = _world()
    st, _ = _start(rs)
    with pytest.raises(RuleViolation) as err:
        apply(st, StartCampaign("umpire"), rs, NO_DICE)
    assert err.value.rule == "R-TURN-01"


def test_r_turn_03_only_the_active_faction_ends_its_step() -> None:
    """R-TURN-03: the Orcs cannot end the Dawnians' step; nothing changes."""
    rs = _world()
    st, _ = _start(rs)
    with pytest.raises(NotYourTurn):
        apply(st, EndStep("ORC"), rs, NO_DICE)


def test_r_turn_02_orders_of_another_step_are_refused() -> None:
    """R-TURN-02: buying belongs to step 5; in step 6 it is refused."""
    rs = _world()
    st, _ = _start(rs)
    st, _ = _end(st, rs)  # 5 -> 6
    assert st.step is Step.MOVE
    with pytest.raises(WrongStep):
        apply(st, BuyUnits("DAW", "DI", 1), rs, NO_DICE)


def test_r_turn_02_ending_steps_5_and_6_passes_7_and_8_with_nothing_to_do() -> None:
    """R-TURN-02: EndStep in 5 goes to 6; EndStep in 6 passes 7 (no battles) and 8 (nothing
    bought) and hands the turn to the Orcs, who collect c (1 RP) and pay ceil(1/6) = 1:
    5 + 1 - 1 = 5 RP."""
    rs = _world()
    st, _ = _start(rs)
    st, events = _end(st, rs)
    assert [type(e).__name__ for e in events] == ["StepEnded", "StepBegan"]
    assert st.step is Step.MOVE
    st, events = _end(st, rs)
    ended = [e.step for e in events if isinstance(e, StepEnded)]
    assert ended[:3] == [Step.MOVE, Step.COMBAT, Step.MUSTER]
    assert TurnEnded("DAW", 1) in events
    assert TurnBegan("ORC", 1, 1) in events
    assert (st.active, st.step, st.round) == ("ORC", Step.BUY, 1)
    assert st.factions["ORC"].rp == 5


def test_r_turn_01_round_advances_after_the_last_faction() -> None:
    """R-TURN-01: after the Orcs (last in play) game round 2 begins with the Dawnians' second
    turn."""
    rs = _world()
    st, _ = _start(rs)
    st, _ = _end(st, rs, 2)  # DAW done
    st, events = _end(st, rs, 2)  # ORC done
    assert GameRoundBegan(2) in events
    assert TurnBegan("DAW", 2, 2) in events
    assert (st.round, st.active, st.step) == (2, "DAW", Step.BUY)


def test_r_turn_01_eliminated_faction_is_skipped() -> None:
    """R-TURN-01: an eliminated faction takes no turn; the Wood Elves follow the Dawnians."""
    rs = _world(factions=("DAW", "ORC", "WEL"))
    st = new_game(rs, "test", "s")
    st.factions["ORC"].eliminated = True
    st.units = {k: u for k, u in st.units.items() if u.owner != "ORC"}
    st.units["99"] = replace(st.unit(1), id=99, owner="WEL", kind="DI")
    st = apply(st, StartCampaign("umpire"), rs, NO_DICE).state
    st, _ = _pass_trade_and_redeem(st, rs)
    st, events = _end(st, rs, 2)
    assert TurnBegan("WEL", 1, 1) in events
    assert not any(isinstance(e, TurnBegan) and e.faction == "ORC" for e in events)


def test_r_turn_05_one_player_two_factions_play_each_turn_separately() -> None:
    """R-TURN-05: factions are played one turn each in their own place; the Orc turn is its
    own, even straight after the Dawnian one."""
    rs = _world()
    st, _ = _start(rs)
    st, events = _end(st, rs, 2)
    assert [e.faction for e in events if isinstance(e, TurnBegan)] == ["ORC"]
    assert st.factions["DAW"].turns_taken == 1 and st.factions["ORC"].turns_taken == 1


def test_trade_and_redeem_wait_for_the_active_faction() -> None:
    """R-TURN-02: the turn rests in step 1 (trade); step 2 (redeem) is tested in test_redeem."""
    assert {Step.TRADE, Step.REDEEM, Step.BUY, Step.MOVE, Step.COMBAT, Step.MUSTER} <= WAITING_STEPS
    rs = _world()
    st = apply(new_game(rs, "test", "s"), StartCampaign("umpire"), rs, NO_DICE).state
    assert (st.active, st.step) == ("DAW", Step.TRADE)


def test_r_turn_04_movement_bookkeeping_is_reset_for_the_active_faction_only() -> None:
    """R-TURN-04 / R-MOVE-22: at the start of the Orc turn the Orc units' movement is fresh;
    Dawnian units keep theirs until their own turn."""
    rs = _world()
    st, _ = _start(rs)
    st, _ = _end(st, rs)  # into step 6
    for uid in (1, 3):
        u = st.unit(uid)
        u.movement_used, u.move_ended, u.entered_from = 1, True, "b"
        u.path, u.attacking = ["b", "c"], True
    st, _ = _end(st, rs)  # DAW ends, ORC starts
    orc = st.unit(3)
    assert (orc.movement_used, orc.move_ended, orc.entered_from, orc.path, orc.attacking) == (
        0,
        False,
        None,
        [],
        False,
    )
    daw = st.unit(1)
    assert (daw.movement_used, daw.move_ended) == (1, True)


def test_r_attr_merc_01_excess_mercenaries_go_cheapest_then_newest() -> None:
    """R-ATTR-MERC-01: in c the Orcs have 3 Rabble (Mercenary, 2 RP) and 1 Trooper: 3 > 1, so
    3 - 1 = 2 Rabble go; equal cost, so the two mustered last (ids 3 and 4) go. In b the
    Orcs have 1 Rabble and 1 Wolfrider: 1 is not more than 1, nobody goes."""
    rs = _world()
    st = state(
        rs,
        units=[
            ("OR", "ORC", "c"),
            ("OT", "ORC", "c"),
            ("OR", "ORC", "c"),
            ("OR", "ORC", "c"),
            ("OR", "ORC", "b"),
            ("OW", "ORC", "b"),
        ],
    )
    events = mercenary_check(st, rs)
    assert events == [MercenariesDeserted("ORC", "c", ((4, "OR"), (3, "OR")), 3, 1)]
    assert sorted(int(k) for k in st.units) == [1, 2, 5, 6]


def test_r_attr_merc_01_lone_mercenary_goes_at_turn_start() -> None:
    """R-ATTR-MERC-02 / R-TURN-04: a lone Rabble is destroyed at the start of the next turn,
    whoever's turn it is (here the Dawnians')."""
    rs = _world()
    st = new_game(rs, "test", "s")
    st.units["9"] = replace(st.unit(3), id=9, kind="OR", location="b")
    out = apply(st, StartCampaign("umpire"), rs, NO_DICE)
    lost = [e for e in out.events if isinstance(e, MercenariesDeserted)]
    assert lost == [MercenariesDeserted("ORC", "b", ((9, "OR"),), 1, 0)]
    assert "9" not in out.state.units
    assert _names(out.events).index("MercenariesDeserted") < _names(out.events).index("TurnBegan")


def test_r_attr_merc_01_giant_allies_option() -> None:
    """R-ATTR-MISS-03: with giant_allies_mercenary the Giant allies count as Mercenary."""
    rs = ruleset(
        provinces={"a": ("hills",)},
        kinds=[kind("U-ORC-07", "ORC", cost=15)],
    )
    st = state(rs, units=[("U-ORC-07", "ORC", "a")])
    assert mercenary_check(st, rs) == []
    rs2 = with_options(rs, giant_allies_mercenary=True)
    st2 = state(rs2, units=[("U-ORC-07", "ORC", "a")])
    assert len(mercenary_check(st2, rs2)) == 1


def test_r_vic_03_turn_limit_ends_after_the_last_turn_of_the_final_round() -> None:
    """R-VIC-03: with a limit of 1 game round the campaign ends when the Orcs end round 1.
    Scores by hand: DAW owns a and b (2 points), ORC owns c (1 point): DAW wins."""
    rs = _world(turn_limit=1)
    st, _ = _start(rs)
    st, _ = _end(st, rs, 2)
    st, events = _end(st, rs, 2)
    ended = [e for e in events if isinstance(e, CampaignEnded)]
    assert len(ended) == 1
    assert ended[0].reason == "turn_limit" and ended[0].winners == ("DAW",)
    assert [(s.faction, s.points) for s in ended[0].scores] == [("DAW", 2), ("ORC", 1)]
    assert st.finished and st.active is None and st.winner == ["DAW"]
    assert not any(isinstance(e, GameRoundBegan) for e in events)


def test_umpire_advance_ends_the_step_as_a_pass() -> None:
    """R-PBP-DEAD-03: UmpireAdvance in step 5 ends it as if the faction had passed."""
    rs = _world()
    st, _ = _start(rs)
    out = apply(st, UmpireAdvance("DAW"), rs, NO_DICE)
    assert out.events[0] == StepEnded("DAW", 1, Step.BUY, by_umpire=True)
    assert out.state.step is Step.MOVE


def test_umpire_advance_for_a_faction_not_playing_is_refused() -> None:
    rs = _world()
    st, _ = _start(rs)
    with pytest.raises(RuleViolation) as err:
        apply(st, UmpireAdvance("ORC"), rs, NO_DICE)
    assert err.value.rule == "R-PBP-DEAD-03"


def test_refused_order_changes_nothing() -> None:
    rs = _world()
    st, _ = _start(rs)
    before = st.clone()
    with pytest.raises(NotYourTurn):
        apply(st, EndStep("ORC"), rs, NO_DICE)
    assert st == before


def test_events_of_a_turn_are_public_except_treasury() -> None:
    """R-GEN-07: income and upkeep are private to the faction; the turn events are public."""
    rs = _world()
    _, events = _start(rs)
    for e in events:
        if isinstance(e, IncomeCollected | UpkeepPaid):
            assert e.audience() == ("DAW",)
        else:
            assert e.audience() is None


# --------------------------------------------------------------------------- umpire in step 7


def _battle_in_x() -> tuple[Ruleset, GameState]:
    """Two Dawnian infantry (ids 1, 2) have attacked x from a, where one Orc trooper (id 3)
    stands; another trooper (id 4) holds y. Step 7 has begun and the battle is due."""
    from caedes_bot.rules.combat import begin_combat_step

    rs = ruleset(
        provinces={"a": ("plains",), "x": ("plains",), "y": ("hills",)},
        borders=[("a", "x")],
        kinds=[kind("DI", "DAW"), kind("OT", "ORC")],
    )
    st = state(
        rs,
        units=[("DI", "DAW", "x"), ("DI", "DAW", "x"), ("OT", "ORC", "x"), ("OT", "ORC", "y")],
        owners={"a": "DAW", "x": "ORC", "y": "ORC"},
        step=Step.COMBAT,
        in_play=["DAW", "ORC"],
    )
    for uid in (1, 2):
        unit = st.unit(uid)
        unit.attacking, unit.move_ended, unit.entered_from, unit.path = True, True, "a", ["x"]
    begin_combat_step(st, rs)
    return rs, st


def test_r_combat_02_umpire_advance_fights_the_next_due_battle() -> None:
    """R-COMBAT-02, R-PBP-DEAD-03: with a battle due and none begun, UmpireAdvance fights it.
    Melee dice 9, 9 (attack 2) and 9 (defense 3): no hit; the attacker is asked to press on
    or withdraw."""
    rs, st = _battle_in_x()
    dice = ScriptedDice([9, 9, 9])
    out = apply(st, UmpireAdvance("DAW"), rs, dice)
    dice.assert_exhausted()
    assert out.state.battle is not None
    assert [d.kind for d in out.state.pending] == ["press_or_withdraw"]


def test_r_pbp_dead_04_umpire_advance_answers_the_oldest_decision_by_default() -> None:
    """R-PBP-DEAD-04: the pending press-or-withdraw is answered "no withdrawal"; round 2 is
    fought: dice 1, 1 hit (attack 2), 9 misses (defense 3): the trooper falls, x is taken.
    A last UmpireAdvance ends step 7; nothing was bought, so step 8 passes and the Orcs begin."""
    from caedes_bot.rules.combat import BattleEnded, ProvinceCaptured

    rs, st = _battle_in_x()
    st = apply(st, UmpireAdvance("DAW"), rs, ScriptedDice([9, 9, 9])).state
    (decision,) = st.pending
    dice = ScriptedDice([1, 1, 9])
    out = apply(st, UmpireAdvance("DAW"), rs, dice)
    dice.assert_exhausted()
    assert out.events[0] == DecisionDefaulted("DAW", decision.id, "press_or_withdraw")
    assert any(isinstance(e, BattleEnded) for e in out.events)
    assert any(isinstance(e, ProvinceCaptured) for e in out.events)
    assert out.state.owners["x"] == "DAW"
    assert "3" not in out.state.units
    final = apply(out.state, UmpireAdvance("DAW"), rs, NO_DICE)
    assert StepEnded("DAW", 1, Step.COMBAT, by_umpire=True) in final.events
    assert final.state.active == "ORC"


def test_r_coll_01_an_empty_province_keeps_its_owner() -> None:
    """R-COLL-01: b (Dawnian, no unit in it) is still Dawnian after a whole game round."""
    rs = _world()
    st, _ = _start(rs)
    st, _ = _end(st, rs, 2)
    st, _ = _end(st, rs, 2)
    assert st.round == 2
    assert st.owners["b"] == "DAW"
    assert not any(u.location == "b" for u in st.units.values())
