"""The turn: order, steps, turn-start checks, advancing (R-TURN-01..06, R-ATTR-MERC-01, R-VIC-03).

World used by most tests (values worked out by hand below each test):

    a plains RP 3  - b plains RP 2  - c hills RP 1
    DAW owns a and b; ORC owns c.
    DAW: 2 infantry (DI) in a, 10 RP.   ORC: 1 trooper (OT) in c, 5 RP.
"""

from dataclasses import replace

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import catalogue, engine
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.collect import IncomeCollected
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import NotYourTurn, RuleViolation, WrongStep
from caedes_bot.rules.events import Event
from caedes_bot.rules.mercenary import MercenariesDeserted, mercenary_check
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import (
    DecisionKind,
    GameState,
    PendingDecision,
    PressOrWithdrawDetail,
    Step,
)
from caedes_bot.rules.steps import Giver
from caedes_bot.rules.turn import (
    DecisionDefaulted,
    EndStep,
    ForfeitTurn,
    GameRoundBegan,
    StartCampaign,
    StepBegan,
    StepEnded,
    TurnBegan,
    TurnEnded,
    TurnForfeited,
    UmpireAdvance,
)
from caedes_bot.rules.upkeep import UpkeepDue, UpkeepPaid
from caedes_bot.rules.victory import CampaignEnded
from tests.rules.builders import kind, ruleset, state, with_options, with_scenario

#: The steps that may wait for the active faction, as their specs declare (R-TURN-02).
WAITING_STEPS = frozenset(spec.step for spec in catalogue.STEP_SPECS if spec.waits is not None)

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
    """End steps 1, 2 and 4 of a turn that has just begun: these worlds trade, redeem and
    disband nothing (step 4 waits for a faction with units, R-UPK-02, and pays as it ends)."""
    events: list[Event] = []
    while st.active is not None and st.step in (Step.TRADE, Step.REDEEM, Step.UPKEEP):
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
    """R-TURN-02, R-TURN-06, R-UPK-02: round 1 begins with the Dawnians; Trade is ended, Redeem
    passes at once (no commodity), Collect runs by itself, Upkeep shows the bill and is ended
    (which pays), and the turn waits in step 5.
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
        "UpkeepDue",
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
    """R-TURN-02: the turn rests in step 1 (trade); step 2 (redeem) is tested in test_redeem,
    step 4 (upkeep) in test_upkeep."""
    assert {
        Step.TRADE,
        Step.REDEEM,
        Step.UPKEEP,
        Step.BUY,
        Step.MOVE,
        Step.COMBAT,
        Step.MUSTER,
    } <= WAITING_STEPS
    assert Step.COLLECT not in WAITING_STEPS
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
    """R-ATTR-MERC-01, R-ATTR-MERC-02, R-TURN-04: a lone Rabble is destroyed at the start of the
    next turn, whoever's turn it is (here the Dawnians').
    """
    rs = _world()
    st = new_game(rs, "test", "s")
    st.units["9"] = replace(st.unit(3), id=9, kind="OR", location="b")
    out = apply(st, StartCampaign("umpire"), rs, NO_DICE)
    lost = [e for e in out.events if isinstance(e, MercenariesDeserted)]
    assert lost == [MercenariesDeserted("ORC", "b", ((9, "OR"),), 1, 0)]
    assert "9" not in out.state.units
    assert _names(out.events).index("MercenariesDeserted") < _names(out.events).index("TurnBegan")


def test_r_attr_merc_01_giant_allies_option() -> None:
    """R-ATTR-MISS-03, R-ATTR-MERC-01: with giant_allies_mercenary the Giant allies count as
    Mercenary, so a lone one goes in the Mercenary check.
    """
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
        if isinstance(e, IncomeCollected | UpkeepDue | UpkeepPaid):
            assert e.audience() == ("DAW",)
        else:
            assert e.audience() is None


# --------------------------------------------------------------------------- umpire in step 7


def _battle_in_x() -> tuple[Ruleset, GameState]:
    """Two Dawnian infantry (ids 1, 2) have attacked x from a, where one Orc trooper (id 3)
    stands; another trooper (id 4) holds y. Step 7 has begun and the battle is due."""
    from caedes_bot.rules.combat.battle import begin_combat_step

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
    from caedes_bot.rules.combat.events import BattleEnded
    from caedes_bot.rules.ownership import ProvinceCaptured

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


# --------------------------------------------------------------------------- defaults and passive turns


def _two_defenders_in_x() -> tuple[Ruleset, GameState]:
    """Two Dawnian infantry (ids 1, 2) have attacked x from a; x holds an Orc Trooper (id 3,
    3 RP) and a Wolfrider (id 4, 5 RP), so one hit on the Orcs is a real choice; another
    Trooper (id 5) holds y. Step 7 has begun with the battle due."""
    from caedes_bot.rules.combat.battle import begin_combat_step

    rs = ruleset(
        provinces={"a": ("plains",), "x": ("plains",), "y": ("hills",)},
        borders=[("a", "x")],
        kinds=[kind("DI", "DAW"), kind("OT", "ORC"), kind("OW", "ORC", "cavalry", cost=5)],
    )
    st = state(
        rs,
        units=[
            ("DI", "DAW", "x"),
            ("DI", "DAW", "x"),
            ("OT", "ORC", "x"),
            ("OW", "ORC", "x"),
            ("OT", "ORC", "y"),
        ],
        owners={"a": "DAW", "x": "ORC", "y": "ORC"},
        step=Step.COMBAT,
        in_play=["DAW", "ORC"],
    )
    for uid in (1, 2):
        unit = st.unit(uid)
        unit.attacking, unit.move_ended, unit.entered_from, unit.path = True, True, "a", ["x"]
    begin_combat_step(st, rs)
    return rs, st


def test_r_pbp_dead_04_umpire_advance_answers_a_casualty_choice_of_another_faction() -> None:
    """R-PBP-DEAD-04, R-COMBAT-06: the oldest decision is the Orcs' (a reaction): round 1 melee,
    Dawnian dice 1 (hit at 2) and 9, Orc dice 9, 9: one hit on the Orcs. UmpireAdvance answers
    it with the default, the cheapest unit: the Trooper (3 RP) before the Wolfrider (5 RP).
    The attacker is then asked to press on or withdraw."""
    from caedes_bot.rules.combat.orders import FightBattle

    rs, st = _two_defenders_in_x()
    st = apply(st, FightBattle("DAW", "x"), rs, ScriptedDice([1, 9, 9, 9])).state
    (decision,) = st.pending
    assert (decision.faction, decision.kind, decision.reaction) == ("ORC", "casualties", True)
    out = apply(st, UmpireAdvance("DAW"), rs, NO_DICE)
    assert out.events[0] == DecisionDefaulted("ORC", decision.id, "casualties")
    assert "3" not in out.state.units and "4" in out.state.units
    assert [d.kind for d in out.state.pending] == ["press_or_withdraw"]


def test_r_pbp_dead_04_a_decision_of_unknown_kind_is_refused_clearly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-PBP-DEAD-04: UmpireAdvance never guesses a default: a decision kind with none known
    (here ``press_or_withdraw``, its default taken away) is refused with the rule, the kind and
    who must answer; nothing changes."""
    kept = {
        k: a for k, a in engine.TURN._defaults.items() if k is not DecisionKind.PRESS_OR_WITHDRAW
    }
    monkeypatch.setattr(engine.TURN, "_defaults", kept)
    rs = _world()
    st, _ = _start(rs)
    detail = PressOrWithdrawDetail(battle=98, space="b", round=1, can_withdraw=(1,), must_stay=())
    st.pending = [
        PendingDecision(
            id=99, faction="ORC", kind=DecisionKind.PRESS_OR_WITHDRAW, reaction=True, detail=detail
        )
    ]
    before = st.clone()
    with pytest.raises(RuleViolation) as err:
        apply(st, UmpireAdvance("DAW"), rs, NO_DICE)
    assert err.value.rule == "R-PBP-DEAD-04"
    assert "press_or_withdraw" in err.value.message
    assert err.value.allowed is not None and "upkeep_disband" in err.value.allowed
    assert st == before


def test_r_pbp_dead_03_forfeit_from_step_1_plays_the_turn_passively() -> None:
    """R-PBP-DEAD-03, R-TRADE-02, R-UPK-03: the Dawnians (7 infantry in a, 1 RP, nothing owned)
    have offered the Orcs 1 RP when their deadline passes. The offer lapses, step 3 collects
    nothing, step 4 asks nothing and disbands by default: ceil(7/6) = 2 > 1, 7 - 6 = 1 must
    go, the newest (id 7); 6 left pay 1: 1 - 1 = 0 RP. Steps 5-8 pass; the Orcs begin."""
    from caedes_bot.rules.trade import ProposeTrade, TradeLapsed
    from caedes_bot.rules.upkeep import UnitsDisbanded, UpkeepPaid

    rs = _world()
    st = state(
        rs,
        units=[("DI", "DAW", "a")] * 7 + [("OT", "ORC", "c")],
        rp={"DAW": 1},
        step=Step.TRADE,
        in_play=["DAW", "ORC"],
    )
    st = apply(st, ProposeTrade("DAW", "ORC", give_rp=1), rs, NO_DICE).state
    out = apply(st, ForfeitTurn("DAW"), rs, NO_DICE)
    assert out.events[0] == TurnForfeited("DAW", 1, Step.TRADE)
    assert out.events[0].audience() is None
    assert any(isinstance(e, TradeLapsed) for e in out.events)
    (due,) = [e for e in out.events if isinstance(e, UpkeepDue)]
    assert (due.bill, due.rp, due.must_disband, due.decision) == (2, 1, 1, None)
    (gone,) = [e for e in out.events if isinstance(e, UnitsDisbanded)]
    assert [u[0] for u in gone.units] == [7] and gone.by_default
    assert [e for e in out.events if isinstance(e, UpkeepPaid)] == [
        UpkeepPaid("DAW", 1, 6, 1, 0, 1, 1, 0)
    ]
    ended = [e.step for e in out.events if isinstance(e, StepEnded) and e.faction == "DAW"]
    assert ended == list(Step)
    assert out.events[2] == StepEnded("DAW", 1, Step.TRADE, by_umpire=True)
    assert TurnBegan("ORC", 1, 2) in out.events
    assert (out.state.active, out.state.step, out.state.passive) == ("ORC", Step.TRADE, False)
    assert out.state.factions["DAW"].rp == 0 and out.state.pending == []


def test_r_pbp_dead_03_forfeit_musters_what_was_bought_by_province_name() -> None:
    """R-PBP-DEAD-03, R-RACE-DAW-01, R-MUSTER-04: after buying 2 Dawnian Infantry (6 RP of 12)
    the Dawnians miss their deadline in step 5. Nothing moves; in step 8 the bot places the
    first in A (plains, Dawnian infantry there; first by name) and, A's one unit used, the
    second in B (plains, infantry moved there). 12 - 6 = 6 RP."""
    from caedes_bot.rules.muster import UnitsMustered

    rs = _world()
    st, _ = _start(rs)
    st.unit(2).location = "b"
    st = apply(st, BuyUnits("DAW", "DI", 2), rs, NO_DICE).state
    out = apply(st, ForfeitTurn("DAW"), rs, NO_DICE)
    assert out.events[0] == TurnForfeited("DAW", 1, Step.BUY)
    (placed,) = [e for e in out.events if isinstance(e, UnitsMustered)]
    assert placed.by_bot
    assert [(k, p) for _, k, p in placed.units] == [("DI", "a"), ("DI", "b")]
    assert out.state.factions["DAW"].rp == 6
    assert out.state.active == "ORC"


def test_r_pbp_dead_03_passive_turn_fights_due_battles_and_waits_for_reactions() -> None:
    """R-PBP-DEAD-03, R-PBP-DEAD-04, R-COMBAT-02: the deadline passes with a battle due at x.
    ForfeitTurn fights it: round 1 melee, Dawnian dice 1 (hit), 9; Orc dice 9, 9: one hit on
    the Orcs, whose choice is a reaction: the passive turn waits for it. Meanwhile the
    Dawnians' own orders and a second ForfeitTurn are refused, and nothing changes.
    The Orcs lose the Trooper; the Dawnians' press-or-withdraw is answered by default (press
    on) and round 2 is fought: Dawnian dice 1, 1 (two hits), Orc die 9: the Wolfrider falls,
    x is taken, steps 7 and 8 end and the Orcs' turn begins, all in answer to that one order."""
    from caedes_bot.rules.combat.orders import AssignCasualties
    from caedes_bot.rules.ownership import ProvinceCaptured

    rs, st = _two_defenders_in_x()
    dice = ScriptedDice([1, 9, 9, 9])
    out = apply(st, ForfeitTurn("DAW"), rs, dice)
    dice.assert_exhausted()
    assert out.events[0] == TurnForfeited("DAW", 1, Step.COMBAT)
    st = out.state
    (decision,) = st.pending
    assert (decision.faction, decision.kind, st.passive) == ("ORC", "casualties", True)
    before = st.clone()
    with pytest.raises(RuleViolation) as err:
        apply(st, EndStep("DAW"), rs, NO_DICE)
    assert err.value.rule == "R-PBP-DEAD-03"
    with pytest.raises(RuleViolation) as err:
        apply(st, ForfeitTurn("DAW"), rs, NO_DICE)
    assert err.value.rule == "R-PBP-DEAD-04" and "ORC" in err.value.message
    assert st == before
    dice = ScriptedDice([1, 1, 9])
    out = apply(st, AssignCasualties("ORC", (3,)), rs, dice)
    dice.assert_exhausted()
    defaulted = [e for e in out.events if isinstance(e, DecisionDefaulted)]
    assert [(e.faction, e.kind) for e in defaulted] == [("DAW", "press_or_withdraw")]
    assert any(isinstance(e, ProvinceCaptured) for e in out.events)
    assert TurnEnded("DAW", 1) in out.events
    assert out.state.owners["x"] == "DAW"
    assert (out.state.active, out.state.passive, out.state.pending) == ("ORC", False, [])


def test_r_pbp_dead_03_forfeit_answers_a_pending_upkeep_decision_by_default() -> None:
    """R-PBP-DEAD-03, R-UPK-03: the deadline passes while the Dawnians (7 infantry, 1 RP) owe
    their disbanding choice: the default takes the newest infantry (id 7), 6 pay 1 RP."""
    from caedes_bot.rules.upkeep import UnitsDisbanded

    rs = _world()
    st = state(
        rs,
        units=[("DI", "DAW", "a")] * 7 + [("OT", "ORC", "c")],
        rp={"DAW": 1},
        step=Step.REDEEM,
        in_play=["DAW", "ORC"],
    )
    st = apply(st, EndStep("DAW"), rs, NO_DICE).state
    (decision,) = st.pending
    assert (st.step, decision.kind) == (Step.UPKEEP, DecisionKind.UPKEEP_DISBAND)
    out = apply(st, ForfeitTurn("DAW"), rs, NO_DICE)
    assert DecisionDefaulted("DAW", decision.id, DecisionKind.UPKEEP_DISBAND) in out.events
    (gone,) = [e for e in out.events if isinstance(e, UnitsDisbanded)]
    assert [u[0] for u in gone.units] == [7]
    assert out.state.factions["DAW"].rp == 0 and out.state.active == "ORC"


def test_forfeit_turn_only_for_the_active_faction() -> None:
    """R-PBP-DEAD-03: the Orcs' deadline cannot pass during the Dawnians' turn."""
    rs = _world()
    st, _ = _start(rs)
    with pytest.raises(RuleViolation) as err:
        apply(st, ForfeitTurn("ORC"), rs, NO_DICE)
    assert err.value.rule == "R-PBP-DEAD-03"
    assert engine.giver_of(ForfeitTurn) is Giver.UMPIRE


def test_r_pbp_dead_04_umpire_advance_naming_a_decision_answers_that_one_only() -> None:
    """R-PBP-DEAD-04, R-COMBAT-04, R-COMBAT-06: round 1 melee at x. Dawnian Infantry (attack 2)
    rolls 1 and hits, Dawnian Cavalry (attack 5) rolls 9; Orc Trooper (defense 3) rolls 1 and
    hits, Wolfrider (defense 3) rolls 9. Each side owes one hit and has a real choice; the
    Dawnians' own decision is the older one, the Orcs' is a reaction. When the Orcs' reaction
    deadline passes, UmpireAdvance naming their decision answers it with its default, the
    cheapest unit (Trooper, 3 RP, before Wolfrider, 5 RP), and leaves the Dawnians' decision
    pending: nothing is removed yet, since both sides remove casualties at once. Naming it again
    is refused and changes nothing. The Dawnians then give up their Infantry: units 1 and 3 go."""
    from caedes_bot.rules.combat.battle import begin_combat_step
    from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle

    rs = ruleset(
        provinces={"a": ("plains",), "x": ("plains",)},
        borders=[("a", "x")],
        kinds=[
            kind("DI", "DAW"),
            kind("DC", "DAW", "cavalry", cost=5),
            kind("OT", "ORC"),
            kind("OW", "ORC", "cavalry", cost=5),
        ],
    )
    st = state(
        rs,
        units=[("DI", "DAW", "x"), ("DC", "DAW", "x"), ("OT", "ORC", "x"), ("OW", "ORC", "x")],
        owners={"a": "DAW", "x": "ORC"},
        step=Step.COMBAT,
        in_play=["DAW", "ORC"],
    )
    for uid in (1, 2):
        unit = st.unit(uid)
        unit.attacking, unit.move_ended, unit.entered_from, unit.path = True, True, "a", ["x"]
    begin_combat_step(st, rs)
    dice = ScriptedDice([1, 9, 1, 9])
    st = apply(st, FightBattle("DAW", "x"), rs, dice).state
    dice.assert_exhausted()
    own, reaction = st.pending
    assert (own.faction, own.kind, own.reaction) == ("DAW", "casualties", False)
    assert (reaction.faction, reaction.kind, reaction.reaction) == ("ORC", "casualties", True)

    out = apply(st, UmpireAdvance("DAW", decision_id=reaction.id), rs, NO_DICE)
    assert out.events == (DecisionDefaulted("ORC", reaction.id, "casualties"),)
    assert out.state.pending == [own]
    assert sorted(out.state.units) == ["1", "2", "3", "4"]

    before = out.state.clone()
    with pytest.raises(RuleViolation) as err:
        apply(out.state, UmpireAdvance("DAW", decision_id=reaction.id), rs, NO_DICE)
    assert err.value.rule == "R-PBP-DEAD-04"
    assert err.value.allowed is not None and str(own.id) in err.value.allowed
    assert out.state == before

    after = apply(out.state, AssignCasualties("DAW", (1,)), rs, NO_DICE).state
    assert sorted(after.units) == ["2", "4"]
