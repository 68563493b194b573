"""The player's choice of deserting Mercenaries (R-ATTR-MERC-01, R-TURN-04, R-PBP-DEAD-04,
R-PBP-DEAD-01).

Turn-start world (values worked out by hand in each test):

    a plains - b plains - c hills
    DAW owns a and b, 2 Infantry (DI, ids 1 and 2) in a; ORC owns c, 1 Trooper (OT, id 3).
    Orc Rabble (OR): Mercenary, 2 RP. Orc Mercenary Captains (OM): Mercenary, 4 RP.
    Dawnian Sellswords (DM): Mercenary, 1 RP. Dawnian Free Lances (DL): Mercenary, 3 RP.

Battle world: :func:`tests.rules.combat.test_battle.battle_setup`'s province x, with one more
kind, MERC4 (Dawnian Mercenary, 4 RP) beside its MERC (2 RP).
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.events import BattleStepResolved
from caedes_bot.rules.combat.orders import PressOn
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.mercenary import MercenariesDeserted, MercenariesOwed
from caedes_bot.rules.mercenary_answer import ChooseMercenaries
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import (
    DecisionKind,
    GameState,
    MercenariesDetail,
    MercenaryCandidate,
    PendingDecision,
    Step,
)
from caedes_bot.rules.turn import (
    DecisionDefaulted,
    EndStep,
    ForfeitTurn,
    StartCampaign,
    TurnBegan,
    TurnForfeited,
    UmpireAdvance,
)
from caedes_bot.rules.umpire_units import SetUnits
from caedes_bot.service.policy import DeadlinePolicy
from tests.rules.builders import kind, ruleset, with_scenario
from tests.rules.combat import test_battle
from tests.rules.combat.test_battle import fight, of_type

NO_DICE = ScriptedDice([])


def _world() -> Ruleset:
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("hills",)},
        borders=[("a", "b"), ("b", "c")],
        rp={"a": 3, "b": 2, "c": 1},
        kinds=[
            kind("DI", "DAW"),
            kind("DM", "DAW", attributes=["mercenary"], cost=1),
            kind("DL", "DAW", attributes=["mercenary"], cost=3),
            kind("OT", "ORC"),
            kind("OR", "ORC", attributes=["mercenary"], cost=2),
            kind("OM", "ORC", attributes=["mercenary"], cost=4),
        ],
    )
    return with_scenario(
        rs,
        factions={"DAW": (10, {}), "ORC": (5, {})},
        owners={"a": "DAW", "b": "DAW", "c": "ORC"},
        units=[("DI", "a", 2), ("OT", "c", 1)],
    )


def _game(rs: Ruleset, extra: list[tuple[str, str, str]]) -> GameState:
    """The scenario's start with ``extra`` units ``(kind, owner, space)`` placed, ids from 4."""
    st = new_game(rs, "test", "s")
    for kind_id, owner, space in extra:
        st.place_new_unit(kind_id, owner, space)
    return st


def _only(st: GameState) -> PendingDecision:
    (decision,) = st.pending
    assert decision.kind is DecisionKind.MERCENARIES
    return decision


def _detail(decision: PendingDecision) -> MercenariesDetail:
    assert isinstance(decision.detail, MercenariesDetail)
    return decision.detail


# --------------------------------------------------------------------------- turn start


def _orc_choice() -> tuple[Ruleset, GameState, PendingDecision]:
    """In c the Orcs have Rabble #4, Rabble #5, Captains #6 and Trooper #3: 3 Mercenaries > 1
    other unit, so 3 - 1 = 2 go. Cheapest first: the two Rabble (2 RP < 4 RP), the newer (#5)
    first, so the default is (5, 4). Rabble and Captains differ: a real choice."""
    rs = _world()
    st = _game(rs, [("OR", "ORC", "c"), ("OR", "ORC", "c"), ("OM", "ORC", "c")])
    out = apply(st, StartCampaign("umpire"), rs, NO_DICE)
    return rs, out.state, _only(out.state)


def test_r_attr_merc_01_turn_start_asks_when_the_choice_matters_and_the_turn_waits() -> None:
    """R-ATTR-MERC-01, R-TURN-04: the Orcs are asked which 2 of their 3 Mercenaries in c
    desert, the default (5, 4) shown; the Dawnian turn has not begun (no TurnBegan), its
    orders are refused and nothing is destroyed yet."""
    rs = _world()
    st = _game(rs, [("OR", "ORC", "c"), ("OR", "ORC", "c"), ("OM", "ORC", "c")])
    out = apply(st, StartCampaign("umpire"), rs, NO_DICE)
    decision = _only(out.state)
    assert decision.faction == "ORC" and decision.reaction
    assert _detail(decision) == MercenariesDetail(
        space="c",
        faction="ORC",
        deserting=2,
        mercenaries=3,
        others=1,
        candidates=(
            MercenaryCandidate(4, "OR", cost=2),
            MercenaryCandidate(5, "OR", cost=2),
            MercenaryCandidate(6, "OM", cost=4),
        ),
        default=(5, 4),
    )
    assert of_type(out.events, MercenariesOwed) == [
        MercenariesOwed("ORC", "c", 2, decision.id, battle=None)
    ]
    assert not of_type(out.events, TurnBegan) and not of_type(out.events, MercenariesDeserted)
    assert out.state.turn_start_waits and out.state.active == "DAW"
    assert {"4", "5", "6"} <= set(out.state.units)
    with pytest.raises(RuleViolation) as refused:
        apply(out.state, EndStep("DAW"), rs, NO_DICE)
    assert refused.value.rule == "R-ATTR-MERC-01"


def test_r_attr_merc_01_turn_start_the_player_picks_other_mercenaries() -> None:
    """R-ATTR-MERC-01: the Orcs choose Rabble #4 and Captains #6 instead of the default: those
    two go, Rabble #5 stays with the Trooper; then the Dawnian turn begins at step 1."""
    rs, st, decision = _orc_choice()
    out = apply(st, ChooseMercenaries("ORC", decision.id, (4, 6)), rs, NO_DICE)
    assert of_type(out.events, MercenariesDeserted) == [
        MercenariesDeserted("ORC", "c", ((4, "OR"), (6, "OM")), mercenaries=3, others=1)
    ]
    assert of_type(out.events, TurnBegan) == [TurnBegan("DAW", 1, 1)]
    assert "4" not in out.state.units and "6" not in out.state.units
    assert out.state.unit(5).kind == "OR"
    assert not out.state.turn_start_waits and out.state.pending == []
    assert (out.state.active, out.state.step) == ("DAW", Step.TRADE)


@pytest.mark.parametrize(
    ("faction", "ids"),
    [
        ("ORC", (4,)),  # one, but two must go
        ("ORC", (4, 4)),  # the same unit twice
        ("ORC", (4, 3)),  # the Trooper is no Mercenary
        ("DAW", (4, 5)),  # not the Dawnians' choice
    ],
)
def test_r_attr_merc_01_a_wrong_answer_changes_nothing(faction: str, ids: tuple[int, ...]) -> None:
    """R-ATTR-MERC-01: exactly 2 different Mercenaries of the list, from the Orcs only."""
    rs, st, decision = _orc_choice()
    before = st.clone()
    with pytest.raises(RuleViolation) as refused:
        apply(st, ChooseMercenaries(faction, decision.id, ids), rs, NO_DICE)
    assert refused.value.rule == "R-ATTR-MERC-01"
    assert st == before


def test_r_pbp_dead_04_a_missed_turn_start_choice_applies_the_default() -> None:
    """R-PBP-DEAD-04, R-ATTR-MERC-01: the scheduler's UmpireAdvance naming the decision (its
    reaction deadline passed) destroys the default, Rabble #5 and #4, and the turn begins."""
    rs, st, decision = _orc_choice()
    out = apply(st, UmpireAdvance("DAW", decision_id=decision.id), rs, NO_DICE)
    assert out.events[0] == DecisionDefaulted("ORC", decision.id, DecisionKind.MERCENARIES)
    assert of_type(out.events, MercenariesDeserted) == [
        MercenariesDeserted("ORC", "c", ((5, "OR"), (4, "OR")), mercenaries=3, others=1)
    ]
    assert of_type(out.events, TurnBegan) == [TurnBegan("DAW", 1, 1)]
    assert out.state.unit(6).kind == "OM" and not out.state.turn_start_waits


def test_r_attr_merc_01_equivalent_candidates_go_at_once() -> None:
    """R-ATTR-MERC-01: three Rabble (#4, #5, #6) and the Trooper: 2 must go, and any two Rabble
    are the same, so nobody is asked: the newest two, #6 and #5, go at once and the turn
    begins in the same order."""
    rs = _world()
    st = _game(rs, [("OR", "ORC", "c"), ("OR", "ORC", "c"), ("OR", "ORC", "c")])
    out = apply(st, StartCampaign("umpire"), rs, NO_DICE)
    assert out.state.pending == [] and not out.state.turn_start_waits
    assert of_type(out.events, MercenariesDeserted) == [
        MercenariesDeserted("ORC", "c", ((6, "OR"), (5, "OR")), mercenaries=3, others=1)
    ]
    assert of_type(out.events, TurnBegan) == [TurnBegan("DAW", 1, 1)]


def test_r_attr_merc_01_the_active_faction_is_asked_with_a_reaction_deadline() -> None:
    """R-ATTR-MERC-01, R-PBP-DEAD-01: in a the Dawnians have Sellswords #4 and #5 (1 RP), Free
    Lances #6 (3 RP) and 2 Infantry: 3 > 2, so 1 goes, by default the newer Sellsword #5. The
    turn has not begun, so even the active faction answers under a reaction deadline."""
    rs = _world()
    st = _game(rs, [("DM", "DAW", "a"), ("DM", "DAW", "a"), ("DL", "DAW", "a")])
    out = apply(st, StartCampaign("umpire"), rs, NO_DICE)
    decision = _only(out.state)
    assert decision.faction == "DAW" and decision.reaction
    assert (_detail(decision).deserting, _detail(decision).default) == (1, (5,))
    wanted = DeadlinePolicy().wanted(out.state)
    assert wanted[f"decision:{decision.id}"] == ("DAW", out.state.options.reaction_deadline_hours)
    done = apply(out.state, ChooseMercenaries("DAW", decision.id, (6,)), rs, NO_DICE)
    assert "6" not in done.state.units and {"4", "5"} <= set(done.state.units)
    assert of_type(done.events, TurnBegan) == [TurnBegan("DAW", 1, 1)]


def test_r_pbp_dead_03_a_turn_forfeited_while_its_start_waits_plays_on_after_the_answer() -> None:
    """R-PBP-DEAD-03, R-ATTR-MERC-01: the Dawnians miss their turn deadline while the Orcs'
    choice is open: the turn is forfeited but still waits; once the Orcs answer, the Dawnian
    turn begins and is played passively to its end, and the Orc turn begins (Rabble #5 and the
    Trooper are 1 against 1: nobody goes)."""
    rs, st, decision = _orc_choice()
    out = apply(st, ForfeitTurn("DAW"), rs, NO_DICE)
    assert of_type(out.events, TurnForfeited) and out.state.turn_start_waits
    done = apply(out.state, ChooseMercenaries("ORC", decision.id, (4, 6)), rs, NO_DICE)
    assert of_type(done.events, TurnBegan) == [TurnBegan("DAW", 1, 1), TurnBegan("ORC", 1, 1)]
    assert done.state.active == "ORC" and not done.state.passive


# --------------------------------------------------------------------------- battle round start


def _battle() -> tuple[Ruleset, GameState]:
    """DAW attacks x from a with MERC #1 (2 RP), MERC4 #2 (4 RP) and Infantry #3 against two
    Orc Infantry (#4, #5): 2 Mercenaries > 1 other, so 1 goes, by default MERC #1 (cheaper).
    The kinds differ: a real choice."""
    saved = test_battle.KINDS
    test_battle.KINDS = [*saved, kind("MERC4", "DAW", attributes=["mercenary"], cost=4)]
    try:
        return test_battle.battle_setup(
            ["MERC", "MERC4", "INF"], [("ORCI", "ORC"), ("ORCI", "ORC")]
        )
    finally:
        test_battle.KINDS = saved


def test_r_attr_merc_01_round_start_asks_and_the_round_waits() -> None:
    """R-ATTR-MERC-01, R-COMBAT-03: round 1 begins; the Dawnians (the attacker, the active
    faction: under their turn deadline, as for casualties) are asked which Mercenary goes, and
    no die is rolled until they answer."""
    rs, st = _battle()
    out = fight(st, rs, [])
    decision = _only(out.state)
    battle = out.state.battle
    assert battle is not None and decision.battle_id == battle.id and not decision.reaction
    detail = _detail(decision)
    assert (detail.deserting, detail.mercenaries, detail.others) == (1, 2, 1)
    assert [c.id for c in detail.candidates] == [1, 2] and detail.default == (1,)
    assert (detail.round, detail.space) == (1, "x")
    assert not of_type(out.events, BattleStepResolved)
    assert battle.attacker_units == [1, 2, 3]


def test_r_attr_merc_01_round_start_the_player_picks_the_dearer_mercenary() -> None:
    """R-ATTR-MERC-01: the Dawnians let MERC4 #2 go instead: it leaves the battle, and the
    round is fought. Melee: MERC #1 and Infantry #3 roll 9, the two Orcs roll 9: nobody is hit
    (infantry attack 2, defense 3: a 9 is no hit), so the attacker is asked to press on or
    withdraw."""
    rs, st = _battle()
    out = fight(st, rs, [])
    decision = _only(out.state)
    done = fight(out.state, rs, [9, 9, 9, 9], ChooseMercenaries("DAW", decision.id, (2,)))
    assert of_type(done.events, MercenariesDeserted) == [
        MercenariesDeserted("DAW", "x", ((2, "MERC4"),), mercenaries=2, others=1)
    ]
    assert done.state.battle is not None and done.state.battle.attacker_units == [1, 3]
    assert "2" not in done.state.units
    assert [d.kind for d in done.state.pending] == [DecisionKind.PRESS_OR_WITHDRAW]
    # round 2: MERC #1 and Infantry #3 are 1 against 1: nobody goes, nobody is asked
    again = fight(done.state, rs, [9, 9, 9, 9], PressOn("DAW"))
    assert not of_type(again.events, MercenariesOwed)


def test_r_pbp_dead_04_a_missed_round_start_choice_applies_the_default() -> None:
    """R-PBP-DEAD-04, R-ATTR-MERC-01: on the missed deadline the default, MERC #1, goes and
    the round is fought with MERC4 #2 and Infantry #3 (four 9s: nobody is hit)."""
    rs, st = _battle()
    out = fight(st, rs, [])
    decision = _only(out.state)
    done = fight(out.state, rs, [9, 9, 9, 9], UmpireAdvance("DAW", decision_id=decision.id))
    assert of_type(done.events, MercenariesDeserted) == [
        MercenariesDeserted("DAW", "x", ((1, "MERC"),), mercenaries=2, others=1)
    ]
    assert done.state.battle is not None and done.state.battle.attacker_units == [2, 3]


def test_r_attr_merc_01_round_start_equivalent_candidates_go_at_once() -> None:
    """R-ATTR-MERC-01: MERC #1, MERC #2 and Infantry #3: one must go and the two are alike, so
    nobody is asked: the newer, #2, goes and the round is fought at once."""
    rs, st = test_battle.battle_setup(["MERC", "MERC", "INF"], [("ORCI", "ORC"), ("ORCI", "ORC")])
    out = fight(st, rs, [9, 9, 9, 9])
    assert of_type(out.events, MercenariesDeserted) == [
        MercenariesDeserted("DAW", "x", ((2, "MERC"),), mercenaries=2, others=1)
    ]
    assert not of_type(out.events, MercenariesOwed) and out.state.pending[0].kind is not (
        DecisionKind.MERCENARIES
    )


def test_r_attr_merc_01_an_answer_after_the_umpire_changed_the_space_counts_it_again() -> None:
    """R-ATTR-MERC-01, R-PBP-UMP-01: while the turn's start waits for the Orcs' choice (2 of
    Rabble #4, #5 and Captains #6 beside Trooper #3 in c), the umpire corrects the board.

    - Captains #6 moved to b: in c, 2 Mercenaries against 1 other unit, so 1 goes. The Orcs
      answer (4, 6): #6 is no longer there, so only #4 goes; #6 stays in b, #5 in c.
    - Two Troopers added in c instead: 3 Mercenaries against 3 others, no excess: the answer
      destroys nothing.
    - Trooper #3 removed instead: 3 Mercenaries against none, all 3 go: the chosen #6 and #4,
      then the default's #5."""
    rs, st, decision = _orc_choice()
    moved = apply(st, SetUnits("umpire", "move", place="b", unit_ids=(6,)), rs, NO_DICE).state
    out = apply(moved, ChooseMercenaries("ORC", decision.id, (4, 6)), rs, NO_DICE)
    (deserted,) = of_type(out.events, MercenariesDeserted)
    assert deserted.units == ((4, "OR"),)
    assert (deserted.mercenaries, deserted.others) == (2, 1)
    assert out.state.unit(6).location == "b" and out.state.unit(5).location == "c"

    added = apply(
        st, SetUnits("umpire", "add", owner="ORC", kind="OT", count=2, place="c"), rs, NO_DICE
    ).state
    out = apply(added, ChooseMercenaries("ORC", decision.id, (4, 6)), rs, NO_DICE)
    (deserted,) = of_type(out.events, MercenariesDeserted)
    assert deserted.units == () and {"4", "5", "6"} <= set(out.state.units)

    removed = apply(st, SetUnits("umpire", "remove", unit_ids=(3,)), rs, NO_DICE).state
    out = apply(removed, ChooseMercenaries("ORC", decision.id, (6, 4)), rs, NO_DICE)
    (deserted,) = of_type(out.events, MercenariesDeserted)
    assert deserted.units == ((6, "OM"), (4, "OR"), (5, "OR"))
