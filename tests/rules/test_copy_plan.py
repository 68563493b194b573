"""``CopyPlan`` copies what ``copy_plain`` copies (docs/decisions/0012, 0013).

A plan looks only at the fields whose declared type can hold a list, dict or set; everything
it copies must be a new container and everything else the same object, exactly as
``copy_plain`` would, for the state's own classes (with containers in every field that can
hold one, ``None`` where a field may be ``None``, and a memo that is not a field).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.combat.orders import FightBattle
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.sharing import CopyPlan, copy_plain
from caedes_bot.rules.state import Battle, BattleStepRecord, CasualtyShare, GameState, Side
from tests.rules.combat.test_battle_replay import SPACE, _hills_battle


@dataclass
class _Mixed:
    n: int = 0
    text: str = ""
    pair: tuple[int, ...] = ()
    maybe: list[int] | None = None
    items: list[int] = field(default_factory=list)
    table: dict[str, int] = field(default_factory=dict)
    anything: Any = None
    plain: object = None


def _same_copy(plan: CopyPlan, obj: object) -> None:
    """``plan.copy(obj)`` equals ``obj``, with new containers exactly where copy_plain has."""
    mine, theirs = plan.copy(obj), copy_plain(obj)
    assert type(mine) is type(obj)
    assert mine.__dict__ == obj.__dict__ == theirs.__dict__
    for name, value in obj.__dict__.items():
        copied = mine.__dict__[name] is not value
        assert copied == (theirs.__dict__[name] is not value), name
        assert copied == (type(value) in (list, dict, set)), name


def test_a_plan_looks_at_the_fields_that_can_hold_a_container() -> None:
    assert CopyPlan(_Mixed).names == ("maybe", "items", "table", "anything", "plain")
    assert CopyPlan(_Mixed, skip=("items",)).names == ("maybe", "table", "anything", "plain")


@pytest.mark.parametrize(
    "obj",
    [
        _Mixed(),
        _Mixed(maybe=[1], anything=[2], plain={"a": 1}),
        _Mixed(items=[3], table={"b": 2}, anything={4}, plain=(5,)),
    ],
)
def test_a_plan_copies_what_copy_plain_copies(obj: _Mixed) -> None:
    _same_copy(CopyPlan(_Mixed), obj)


def test_the_state_and_battle_plans_copy_what_copy_plain_copies() -> None:
    """The plans the engine uses, on a battle under way (its memo included)."""
    rs = load_ruleset()
    st = engine.apply(
        _hills_battle(rs, "plan"), FightBattle("DAW", SPACE), rs, SeededDice("plan", 0)
    ).state
    battle = st.battle
    assert battle is not None and battle.records and battle.memo()
    skipped = ("units", "factions", "pending", "alliances", "trades", "battle")
    plan = CopyPlan(GameState, skip=skipped)
    mine, theirs = plan.copy(st), copy_plain(st)
    for name, value in st.__dict__.items():
        if name in skipped:
            continue
        assert (mine.__dict__[name] is not value) == (theirs.__dict__[name] is not value), name
    _same_copy(CopyPlan(Battle), battle)
    _same_copy(CopyPlan(BattleStepRecord), battle.records[-1])
    _same_copy(CopyPlan(CasualtyShare), CasualtyShare("DAW", Side.ATTACKER, 2, "DAW"))
    _same_copy(CopyPlan(CasualtyShare), CasualtyShare("DAW", Side.ATTACKER, 2, "DAW", 7, [1]))
    # every field the state's plan passes over can hold no container
    looked = set(plan.names) | set(skipped)
    assert all(
        type(st.__dict__[f.name]) not in (list, dict, set)
        for f in fields(GameState)
        if f.name not in looked
    )
