"""The step's shortcuts of the sixth pass of issue 9 (decision 0013): a step's casualties
removed in one pass when no battle magic or ship is in play, the roster after them handed on
by the step that removed them, a wounded fighter made without ``dataclasses.replace``, and
the roster kept across a clone of the state whose units nobody wrote (R-COMBAT-04,
R-COMBAT-06, R-ATTR-FORTI-01).

Each shortcut is checked against the general code it stands for: the same events and the same
states after every order of random battles answered by default.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.combat import battle as battle_module
from caedes_bot.rules.combat.arithmetic import Fighter
from caedes_bot.rules.combat.kept import Roster
from caedes_bot.rules.combat.orders import FightBattle
from caedes_bot.rules.combat.sides import _with_wound, battle_fighters, battle_roster
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.engine import Outcome
from caedes_bot.rules.events import Event
from caedes_bot.rules.sharing import CowTable
from caedes_bot.rules.state import Battle, GameState
from caedes_bot.rules.turn import UmpireAdvance
from tests.rules.combat.test_battle import battle_setup

_ATTACKERS = ("INF", "ARCHER", "MIGHTY", "PREDCAV", "FORT", "H-DAW-01", "ELITE")
_DEFENDERS = ("ORCI", "ORCARROW", "ORCFORT", "ORCCAV", "ORCVET", "H-ORC-01")


def _fight(n: int) -> tuple[Ruleset, list[Outcome]]:
    """Random battle ``n`` (2 to 9 units a side, Fortitude units among them, options at
    random) fought by default: its ruleset and the outcome of every order."""
    pick = random.Random(7000 + n)
    attackers = [pick.choice(_ATTACKERS) for _ in range(pick.randint(2, 9))]
    defenders = [(pick.choice(_DEFENDERS), "ORC") for _ in range(pick.randint(2, 9))]
    options = Options(
        predator_symmetric=pick.random() < 0.5,
        hero_leadership_bonus=pick.random() < 0.5,
        casualty_chooser=pick.choice(("owner", "opponent")),
        fortitude_end=pick.choice(("destroy", "heal")),
        stalemate_rounds=20,
    )
    rs, start = battle_setup(attackers, defenders, options=options)
    dice = SeededDice(f"hand-on-{n}")
    out = engine.apply(start, FightBattle("DAW", "x"), rs, dice)
    outcomes = [out]
    while out.state.battle is not None:
        out = engine.apply(out.state, UmpireAdvance("DAW"), rs, dice)
        outcomes.append(out)
    return rs, outcomes


def _general(state: GameState, ruleset: Ruleset, battle: Battle, roster: Roster) -> list[Event]:
    """The casualty removal of any battle (shields, enchantments, ships), for every step."""
    return battle_module._remove_any(state, ruleset, battle, roster)


@pytest.mark.parametrize("n", range(12))
def test_r_combat_06_the_plain_casualty_removal_is_the_general_one(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-COMBAT-04, R-COMBAT-06, R-ATTR-FORTI-01: removing a step's casualties in one pass
    (no shield, no enchanted unit, no ship) and handing the roster on gives the same events
    and the same state after every order as the general removal, whose roster is worked out
    again from the unit lists."""
    rs, fast = _fight(n)
    monkeypatch.setattr(battle_module, "_remove_plain", _general)
    rs_slow, slow = _fight(n)
    assert len(fast) == len(slow) >= 2
    for a, b in zip(fast, slow, strict=True):
        assert a.events == b.events
        assert a.state == b.state
        if a.state.battle is not None and b.state.battle is not None:
            assert battle_fighters(a.state, rs, a.state.battle) == battle_fighters(
                b.state, rs_slow, b.state.battle
            )


def test_r_attr_forti_01_a_wound_makes_the_fighter_replace_makes() -> None:
    """R-ATTR-FORTI-01: the fighter of a unit whose wound changed is the one
    ``dataclasses.replace`` makes, every field alike (those left out of equality too): one
    hit left when wounded, two when healed."""
    rs, st = battle_setup(["FORT", "INF"], [("ORCFORT", "ORC"), ("ORCI", "ORC")])
    battle = Battle(1, "x", "DAW", ["ORC"], [1, 2], [3, 4])
    for f in battle_fighters(st, rs, battle):
        for wounded in (True, False):
            made = _with_wound(f, wounded)
            expected = dataclasses.replace(f, wounded=wounded)
            for field in dataclasses.fields(Fighter):
                assert getattr(made, field.name) == getattr(expected, field.name), field.name
    fort = battle_fighters(st, rs, battle)[0]
    assert fort.fortitude and fort.capacity == 2
    assert _with_wound(fort, True).capacity == 1
    assert _with_wound(_with_wound(fort, True), False).capacity == 2


def test_a_table_shared_unchanged_names_the_table_it_holds_the_objects_of() -> None:
    """A table shared from one whose lineage was asked names it and its count of writes; a
    table shared on without being written passes that on; once written, it names nothing."""
    table: CowTable[int] = CowTable({"1": 1, "2": 2})
    assert table.origin is None
    token = table.lineage()
    assert table.lineage() is token
    table["1"] = 5
    first = table.share()
    assert first.origin == (token, 1) and first.origin[0] is token
    second = first.share()  # nothing written to ``first``: it holds what ``table`` held
    assert second.origin is first.origin
    second["2"] = 7
    assert second.share().origin is None  # written, and its lineage never asked
    assert CowTable(dict(second)).origin is None


def test_r_combat_04_a_clone_keeps_the_roster_until_its_units_are_written() -> None:
    """R-COMBAT-04, R-ATTR-FORTI-01: the roster of a battle under way is kept across clones
    of the state while nothing is written to the clone's units, and a wound given to a unit
    of a clone shows in that clone's roster only."""
    rs, start = battle_setup(["FORT", "INF", "INF"], [("ORCFORT", "ORC"), ("ORCI", "ORC")])
    state = engine.apply(start, FightBattle("DAW", "x"), rs, SeededDice("clone-keeps")).state
    battle = state.battle
    assert battle is not None
    roster = battle_roster(state, rs, battle)
    clone = state.clone()
    assert clone.battle is not None
    assert battle_roster(clone, rs, clone.battle) is roster
    again = clone.clone()
    assert again.battle is not None
    assert battle_roster(again, rs, again.battle) is roster
    fort = next(f for f in roster.fighters if f.fortitude and not f.wounded)
    again.unit(fort.id).wounded = True
    hurt = battle_roster(again, rs, again.battle)
    assert next(f for f in hurt.fighters if f.id == fort.id).wounded
    assert not next(f for f in battle_roster(state, rs, battle).fighters if f.id == fort.id).wounded
