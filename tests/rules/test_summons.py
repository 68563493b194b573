"""Summoned units (R-MAGIC-SUMM-01..04, R-RACE-SUM-01, R-ATTR-FORT-06, R-COMM-11, R-BUY-05).

Map: f forest and g forest (Wood Elven), s swamp (Lizardmen), f-s and f-g borders; the sea zone
bay off f. Kinds: WD Druid (Summoner, 18), WS Scouts, WF Fire Elemental (Summoned cavalry,
Slow, Missile, 3 RP), WE Earth Elemental (Summoned Tower, Meek, Fortitude, 6 RP), WT a Wood Elf
Tower, WP a ship; LI Lizardman infantry.
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.battle import begin_combat_step
from caedes_bot.rules.combat.events import BattleEnded, BattleStepResolved
from caedes_bot.rules.combat.orders import FightBattle, PressOn
from caedes_bot.rules.combat.summon_answer import AnswerSummons
from caedes_bot.rules.dependants import BoundUnitsLost
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.errors import IllegalMuster, RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import DecisionKind, GameState, Side, Step, SummonsDetail
from caedes_bot.rules.summons import (
    SummonsDeclined,
    SummonsOffered,
    SummonsPaid,
    SummonsVanished,
    SummonUnits,
    UnitsSummoned,
)
from caedes_bot.rules.turn import EndStep, UmpireAdvance
from tests.rules.builders import kind, ruleset, state, with_options

NO_DICE = ScriptedDice([])

KINDS = [
    # a summoner without Enchanter: these battles fight with normal dice (R-COMBAT-12 would
    # ask the Wood Elves to declare the enchantment first; that is tested in combat/test_magic)
    kind("WD", "WEL", attributes=["summoner"], cost=18, name="Druid"),
    kind("WS", "WEL", name="Scouts"),
    kind("WF", "WEL", "cavalry", ["slow", "missile"], race="summoned", cost=3, name="Fire"),
    kind("WE", "WEL", "tower", ["meek", "fortitude"], race="summoned", cost=6, name="Earth"),
    kind("WT", "WEL", "tower", name="Wood Elf Tower"),
    kind("WP", "WEL", "ship", name="Ship"),
    kind("LI", "LIZ", attributes=["amphibian", "swamplore"], name="Lizardman Infantry"),
]


def _rs(**options: object) -> Ruleset:
    rs = ruleset(
        provinces={"f": ("forest",), "g": ("forest",), "s": ("swamp",)},
        borders=[("f", "s"), ("f", "g")],
        coasts=[("f", "bay")],
        kinds=KINDS,
    )
    return with_options(rs, **options) if options else rs


OWNERS = {"f": "WEL", "g": "WEL", "s": "LIZ"}


def _own_turn(rs: Ruleset, step: Step, units: list[tuple[str, str]], rp: int = 20) -> GameState:
    return state(
        rs,
        units=[(k, "WEL", p) for k, p in units],
        owners=OWNERS,
        active="WEL",
        step=step,
        rp={"WEL": rp},
    )


def _of(events: tuple[Event, ...], cls: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, cls)]


# --------------------------------------------------------------------------- in one's own turn


@pytest.mark.parametrize(
    ("step", "may_move"), [(Step.TRADE, True), (Step.BUY, True), (Step.MOVE, False)]
)
def test_r_magic_summ_01_own_turn_any_step_and_summ_04_moving(step: Step, may_move: bool) -> None:
    """R-MAGIC-SUMM-01, R-RACE-SUM-01, R-BUY-05, R-MAGIC-SUMM-04: in its own turn, at any
    step, the Wood Elves summon 2 Fire Elementals into f where the Druid stands: 2 × 3 = 6 RP
    of 20, 14 left. Placed before step 6 they may move; placed in step 6 they may not."""
    rs = _rs()
    st = _own_turn(rs, step, [("WD", "f")])
    out = apply(st, SummonUnits("WEL", "WF", 2), rs, NO_DICE)
    (summoned,) = _of(out.events, UnitsSummoned)
    assert isinstance(summoned, UnitsSummoned)
    assert (summoned.province, [k for _, k in summoned.units]) == ("f", ["WF", "WF"])
    assert out.state.factions["WEL"].rp == 14
    assert [u.move_ended for u in out.state.units_at("f")][1:] == [not may_move] * 2
    assert out.state.factions["WEL"].purchases == []  # never waiting for step 8


def test_r_comm_11_discounts_only_in_own_turn_after_step_2() -> None:
    """R-COMM-11, R-COMM-06, R-COMM-08: with Livestock and Timber earmarked, a Fire Elemental
    (cavalry, 3) costs 3 - 1 = 2 and an Earth Elemental (Tower type, 6) 6 - 3 = 3 in step 5;
    the same summons in step 2 pays full cost, 3 and 6, and uses no earmark."""
    rs = _rs()
    for step, fire, earth in ((Step.BUY, 2, 3), (Step.REDEEM, 3, 6)):
        st = _own_turn(rs, step, [("WD", "f")])
        st.factions["WEL"].earmarks = {"livestock": 1, "timber": 1}
        out = apply(st, SummonUnits("WEL", "WF", 1), rs, NO_DICE)
        out = apply(out.state, SummonUnits("WEL", "WE", 1), rs, NO_DICE)
        paid = [e.total for e in _of(out.events, SummonsPaid) if isinstance(e, SummonsPaid)]
        assert out.state.factions["WEL"].rp == 20 - fire - earth, step
        assert paid == [earth]
        left = out.state.factions["WEL"].earmarks
        assert left == ({} if step is Step.BUY else {"livestock": 1, "timber": 1})


def test_r_magic_summ_01_only_where_a_summoner_stands_on_land() -> None:
    """R-MAGIC-SUMM-01, R-RACE-SUM-01: g holds no Summoner: refused. A Druid aboard the ship in
    the bay cannot summon: with it the only Summoner, no province can take a summons."""
    rs = _rs()
    st = _own_turn(rs, Step.TRADE, [("WD", "f"), ("WS", "g")])
    with pytest.raises(IllegalMuster) as err:
        apply(st, SummonUnits("WEL", "WF", 1, "g"), rs, NO_DICE)
    assert err.value.rule == "R-RACE-SUM-01"
    afloat = _own_turn(rs, Step.TRADE, [("WP", "bay"), ("WD", "bay"), ("WS", "f")])
    afloat.unit(2).aboard = 1
    with pytest.raises(IllegalMuster) as err:
        apply(afloat, SummonUnits("WEL", "WF", 1), rs, NO_DICE)
    assert err.value.rule == "R-MAGIC-SUMM-01" and "aboard" in err.value.message


def test_r_magic_summ_01_not_in_another_factions_turn_outside_a_battle() -> None:
    """R-MAGIC-SUMM-01, R-TURN-03: in the Lizardmen's turn the Wood Elves may not summon
    (they are asked as a battle round begins, not otherwise); nothing is paid."""
    rs = _rs()
    st = state(rs, units=[("WD", "WEL", "f")], owners=OWNERS, active="LIZ", rp={"WEL": 20})
    with pytest.raises(RuleViolation) as err:
        apply(st, SummonUnits("WEL", "WF", 1), rs, NO_DICE)
    assert err.value.rule == "R-MAGIC-SUMM-01"


def test_r_attr_fort_06_a_summoned_tower_is_a_fortification() -> None:
    """R-ATTR-FORT-06, R-ATTR-FORT-02: where the Wood Elf Tower stands no Earth Elemental may be
    summoned, and never two in one province."""
    rs = _rs()
    st = _own_turn(rs, Step.TRADE, [("WD", "f"), ("WT", "f")])
    with pytest.raises(IllegalMuster) as err:
        apply(st, SummonUnits("WEL", "WE", 1), rs, NO_DICE)
    assert err.value.rule == "R-ATTR-FORT-06"
    bare = _own_turn(rs, Step.TRADE, [("WD", "f")])
    with pytest.raises(IllegalMuster):
        apply(bare, SummonUnits("WEL", "WE", 2), rs, NO_DICE)


def test_r_attr_fort_06_option_off_lifts_the_limit_for_summoned_towers() -> None:
    """R-ATTR-FORT-06, option summoned_tower_is_fortification false: two Earth Elementals go
    into f beside the Tower: 12 RP of 20."""
    rs = _rs(summoned_tower_is_fortification=False)
    st = _own_turn(rs, Step.TRADE, [("WD", "f"), ("WT", "f")])
    out = apply(st, SummonUnits("WEL", "WE", 2), rs, NO_DICE)
    assert [u.kind for u in out.state.units_at("f")] == ["WD", "WT", "WE", "WE"]
    assert out.state.factions["WEL"].rp == 8


def test_r_magic_summ_02_summoned_in_own_turn_vanish_at_its_step_8_or_the_next_one() -> None:
    """R-MAGIC-SUMM-02: summoned in step 1, the Fire Elemental vanishes when the Wood Elves'
    own step 8 begins; one summoned during step 8 stays until the next Muster step."""
    rs = _rs()
    st = _own_turn(rs, Step.COMBAT, [("WD", "f")])
    st = apply(st, SummonUnits("WEL", "WF", 1), rs, NO_DICE).state
    st.factions["WEL"].purchases = ["WS"]  # so step 8 waits
    st.factions["WEL"].purchase_prices = [3]
    out = apply(st, EndStep("WEL"), rs, NO_DICE)
    assert out.state.step is Step.MUSTER
    assert len(_of(out.events, SummonsVanished)) == 1
    out = apply(out.state, SummonUnits("WEL", "WF", 1), rs, NO_DICE)
    assert [u.kind for u in out.state.units_at("f")] == ["WD", "WF"]
    out = apply(out.state, EndStep("WEL"), rs, NO_DICE)  # ends step 8 and the turn
    assert [u.kind for u in out.state.units_at("f")][:2] == ["WD", "WF"]


def test_r_magic_summ_03_no_summoner_left_no_summoned_units() -> None:
    """R-MAGIC-SUMM-03: the Druid is disbanded at upkeep; the Fire Elemental goes with it."""
    from caedes_bot.rules.upkeep import UnitsDisbanded
    from caedes_bot.rules.upkeep_marks import ToggleDisbandMark

    rs = _rs()
    st = _own_turn(rs, Step.TRADE, [("WD", "f"), ("WS", "f")])
    st = apply(st, SummonUnits("WEL", "WF", 1), rs, NO_DICE).state
    st = apply(st, ToggleDisbandMark("WEL", 1), rs, NO_DICE).state
    st.step = Step.COLLECT
    out = apply(st, EndStep("WEL"), rs, NO_DICE)
    rules = [e.rule for e in out.events if isinstance(e, UnitsDisbanded)]
    assert rules == ["R-UPK-02", "R-MAGIC-SUMM-03"]
    assert [u.kind for u in out.state.units_of("WEL")] == ["WS"]


# --------------------------------------------------------------------------- in a battle


def _attacked(lizards: int, rp: int = 20) -> tuple[Ruleset, GameState]:
    """The Lizardmen's step 7: ``lizards`` infantry (ids from 3) came from s into f, where the
    Druid (1) and Scouts (2) stand."""
    rs = _rs()
    units = [("WD", "WEL", "f"), ("WS", "WEL", "f")] + [("LI", "LIZ", "f")] * lizards
    st = state(rs, units=units, owners=OWNERS, active="LIZ", step=Step.COMBAT, rp={"WEL": rp})
    for uid in range(3, 3 + lizards):
        unit = st.unit(uid)
        unit.attacking, unit.move_ended = True, True
        unit.entered_from, unit.path, unit.movement_used = "s", ["f"], 1
    begin_combat_step(st, rs)
    return rs, st


def _offer(out: Outcome) -> SummonsDetail:
    (decision,) = [d for d in out.state.pending if d.kind is DecisionKind.SUMMONS]
    assert isinstance(decision.detail, SummonsDetail)
    return decision.detail


def test_r_magic_summ_01_defender_summons_as_a_round_begins_and_they_fight_at_once() -> None:
    """R-MAGIC-SUMM-01, R-COMM-11, R-COMBAT-03: the Lizardmen attack f. As round 1 begins the
    Wood Elves (Druid in the battle, 20 RP) are asked, after the attacker (who has no Summoner);
    no die is rolled yet. They summon a Fire Elemental and an Earth Elemental at full cost,
    3 + 6 = 9 RP (11 left): both join the defence at once. In forest the Fire Elemental, without
    Woodlore, cannot shoot (R-ATTR-MISS-02), so everyone rolls in the melee step: the Lizardman
    9 (miss); Druid, Scouts and Fire Elemental 9, 9, 9 at 3; the Earth Elemental 6 at its
    defense 7 - 1 (Meek) = 6: a hit. The lone Lizardman dies and the battle ends, won by the
    defender. When the Lizardmen's step 8 begins, both elementals vanish."""
    rs, st = _attacked(1)
    out = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([]))
    offer = _offer(out)
    assert offer.side is Side.DEFENDER and offer.faction == "WEL"
    assert offer.options == (("WF", 3), ("WE", 6)) and offer.rp == 20
    assert not _of(out.events, BattleStepResolved)
    (offered,) = _of(out.events, SummonsOffered)
    assert isinstance(offered, SummonsOffered) and offered.private
    decision = out.state.pending[0].id
    out = apply(
        out.state,
        AnswerSummons("WEL", decision, (("WF", 1), ("WE", 1))),
        rs,
        ScriptedDice([9, 9, 9, 9, 6]),
    )
    joined = [e for e in _of(out.events, UnitsSummoned) if isinstance(e, UnitsSummoned)]
    assert {e.side for e in joined} == {Side.DEFENDER}
    assert [k for e in joined for _, k in e.units] == ["WF", "WE"]
    assert out.state.factions["WEL"].rp == 11
    (step,) = [e for e in _of(out.events, BattleStepResolved) if isinstance(e, BattleStepResolved)]
    assert [(d.kind, d.target, d.hit) for d in step.dice] == [
        ("LI", 2, False),
        ("WD", 3, False),
        ("WS", 3, False),
        ("WF", 3, False),
        ("WE", 6, True),
    ]
    (end,) = [e for e in _of(out.events, BattleEnded) if isinstance(e, BattleEnded)]
    assert end.owner == "WEL"
    out = apply(out.state, EndStep("LIZ"), rs, NO_DICE)  # step 7 ends; step 8 begins
    (gone,) = [e for e in _of(out.events, SummonsVanished) if isinstance(e, SummonsVanished)]
    assert gone.faction == "LIZ" and [u[1] for u in gone.units] == ["WF", "WE"]
    assert [u.kind for u in out.state.units_of("WEL")] == ["WD", "WS"]


@pytest.mark.parametrize("whole_battle", [False, True])
def test_r_magic_summ_01_no_summons_this_battle_is_not_asked_again(whole_battle: bool) -> None:
    """R-MAGIC-SUMM-01: the Wood Elves answer no summons as round 1 begins. Every melee die
    misses (attack 2 and defense 3 against 9s); the Lizardmen press on. As round 2 begins they
    are asked again after "not this round", never after "not this battle"."""
    rs, st = _attacked(2)
    out = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([]))
    decision = out.state.pending[0].id
    answer = AnswerSummons("WEL", decision, (), whole_battle=whole_battle)
    out = apply(out.state, answer, rs, ScriptedDice([9, 9, 9, 9]))
    (declined,) = _of(out.events, SummonsDeclined)
    assert isinstance(declined, SummonsDeclined) and declined.whole_battle is whole_battle
    out = apply(out.state, PressOn("LIZ"), rs, ScriptedDice([] if not whole_battle else [9] * 4))
    asked = [d for d in out.state.pending if d.kind is DecisionKind.SUMMONS]
    assert bool(asked) is not whole_battle


def test_r_pbp_dead_04_a_missed_summons_deadline_summons_nothing() -> None:
    """R-PBP-DEAD-04: the Wood Elves' reaction deadline passes: no summons this round, the
    battle goes on (melee 9, 9, 9: every die misses)."""
    rs, st = _attacked(1)
    out = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([]))
    decision = out.state.pending[0].id
    out = apply(out.state, UmpireAdvance("LIZ", decision), rs, ScriptedDice([9, 9, 9]))
    (declined,) = _of(out.events, SummonsDeclined)
    assert isinstance(declined, SummonsDeclined) and declined.by_default
    assert len(_of(out.events, BattleStepResolved)) == 1


def test_r_pbp_dead_04_a_missed_summons_deadline_costs_nothing_and_adds_no_unit() -> None:
    """R-PBP-DEAD-04 (summons default to none): when the Wood Elves' reaction deadline passes
    unanswered (the scheduler's UmpireAdvance for that decision), nothing is summoned, their
    20 RP stay whole, only the Druid (1) and the Scouts (2) defend, and the decision is gone."""
    rs, st = _attacked(1)
    out = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([]))
    decision = out.state.pending[0].id
    out = apply(out.state, UmpireAdvance("LIZ", decision), rs, ScriptedDice([9, 9, 9]))
    assert not _of(out.events, UnitsSummoned)
    assert out.state.factions["WEL"].rp == 20
    assert [u.id for u in out.state.units_of("WEL")] == [1, 2]
    assert all(d.id != decision for d in out.state.pending)


def test_r_magic_summ_01_not_offered_without_rp_for_one_unit() -> None:
    """R-MAGIC-SUMM-01: with 2 RP the Wood Elves cannot pay for any Summoned unit (3 and 6):
    no offer; the battle goes straight to its dice (melee 9, 9, 9)."""
    rs, st = _attacked(1, rp=2)
    out = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([9, 9, 9]))
    assert not [d for d in out.state.pending if d.kind is DecisionKind.SUMMONS]
    assert not _of(out.events, SummonsOffered)


def test_r_magic_summ_03_summoned_units_die_with_the_last_summoner_in_battle() -> None:
    """R-MAGIC-SUMM-03: the Wood Elves summon a Fire Elemental (3 RP). Melee (no missile step in
    forest): the Lizardman rolls 1 (a hit at attack 2); Druid, Scouts and Fire Elemental roll
    9, 9, 9. The Wood Elves put the hit on the Druid, their only Summoner: the Fire Elemental
    goes with it at once."""
    rs, st = _attacked(1)
    out = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([]))
    decision = out.state.pending[0].id
    out = apply(
        out.state, AnswerSummons("WEL", decision, (("WF", 1),)), rs, ScriptedDice([1, 9, 9, 9])
    )
    (casualties,) = [d for d in out.state.pending if d.kind is DecisionKind.CASUALTIES]
    from caedes_bot.rules.combat.orders import AssignCasualties

    out = apply(out.state, AssignCasualties("WEL", (1,)), rs, ScriptedDice([]))
    (lost,) = [e for e in _of(out.events, BoundUnitsLost) if isinstance(e, BoundUnitsLost)]
    assert lost.rule == "R-MAGIC-SUMM-03" and [u[1] for u in lost.units] == ["WF"]
    assert casualties.faction == "WEL"


def test_r_vic_05_a_faction_left_with_nothing_when_its_summons_go_is_eliminated() -> None:
    """R-VIC-05, R-MAGIC-SUMM-03, R-TURN-04: the Druid alone holds f and summons a Fire
    Elemental (3 RP). Melee: the Lizardman rolls 1 (a hit); Druid and Fire Elemental roll 9, 9.
    The Wood Elves lose the Druid, and the elemental with it: they have no unit left and lose
    f. When the next turn begins they are eliminated."""
    from caedes_bot.rules.combat.orders import AssignCasualties
    from caedes_bot.rules.victory import FactionEliminated

    rs = _rs()
    st = state(
        rs,
        units=[("WD", "WEL", "f"), ("LI", "LIZ", "f")],
        owners=OWNERS,
        active="LIZ",
        step=Step.COMBAT,
        rp={"WEL": 20},
    )
    lizard = st.unit(2)
    lizard.attacking, lizard.move_ended, lizard.entered_from, lizard.path = True, True, "s", ["f"]
    begin_combat_step(st, rs)
    out = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([]))
    offer = out.state.pending[0].id
    out = apply(out.state, AnswerSummons("WEL", offer, (("WF", 1),)), rs, ScriptedDice([1, 9, 9]))
    out = apply(out.state, AssignCasualties("WEL", (1,)), rs, ScriptedDice([]))
    assert out.state.units_of("WEL") == []
    assert out.state.owners["f"] == "LIZ"
    out = apply(out.state, EndStep("LIZ"), rs, NO_DICE)  # steps 7 and 8 end; the turn passes
    gone = [e for e in out.events if isinstance(e, FactionEliminated)]
    assert "WEL" in [e.faction for e in gone]  # (so are the factions this board never had)
    assert out.state.factions["WEL"].eliminated


# --------------------------------------------------------------------------- odd input


def test_r_magic_summ_01_an_open_offer_names_its_battle_when_another_province_is_asked() -> None:
    """R-MAGIC-SUMM-01: the Lizardmen attack f and the Wood Elves hold an open summons offer.
    A summons into g, in the Lizardmen's turn, is refused naming the battle at f, where alone
    they may summon now; nothing is paid and the offer stays open."""
    rs, st = _attacked(1)
    out = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([]))
    with pytest.raises(RuleViolation) as err:
        apply(out.state, SummonUnits("WEL", "WF", 1, "g"), rs, NO_DICE)
    assert err.value.rule == "R-MAGIC-SUMM-01"
    assert "battle at F" in err.value.message and err.value.allowed is not None
    assert "battle at F" in err.value.allowed
    assert out.state.factions["WEL"].rp == 20
    assert [d.kind for d in out.state.pending] == [DecisionKind.SUMMONS]


def test_r_magic_summ_01_a_negative_count_in_an_answer_says_what_is_allowed() -> None:
    """R-MAGIC-SUMM-01: answering the offer with -1 Fire Elementals is refused, saying that 1
    or more is allowed; nothing is paid."""
    rs, st = _attacked(1)
    out = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([]))
    offer = out.state.pending[0].id
    with pytest.raises(RuleViolation) as err:
        apply(out.state, AnswerSummons("WEL", offer, (("WF", -1),)), rs, NO_DICE)
    assert err.value.allowed == "1 or more"
    assert out.state.factions["WEL"].rp == 20


def test_r_buy_01_another_factions_unit_is_named_with_both_factions() -> None:
    """R-BUY-01, R-RACE-SUM-01: the Wood Elves summoning Lizardman Infantry are told whose
    units those are, by name, and which units they may summon."""
    rs = _rs()
    st = _own_turn(rs, Step.TRADE, [("WD", "f")])
    with pytest.raises(RuleViolation) as err:
        apply(st, SummonUnits("WEL", "LI", 1), rs, NO_DICE)
    lizards, elves = rs.faction("LIZ").name, rs.faction("WEL").name
    assert err.value.message == (
        f"Lizardman Infantry are units of the {lizards}, not of the {elves}."
    )
    assert err.value.allowed is not None and "Fire (3 RP)" in err.value.allowed
