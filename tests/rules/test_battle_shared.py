"""The battle's bookkeeping containers are shared by a clone, since they are only ever replaced
(``BATTLE_REPLACED``, docs/decisions/0013, eighth pass): the engine's battle copy shares exactly
those, and nothing in the bot changes one of them in place."""

from __future__ import annotations

import copy
import re
from dataclasses import fields
from pathlib import Path

import caedes_bot
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.sharing import copy_plain
from caedes_bot.rules.state import _BATTLE_COPY, BATTLE_REPLACED, Battle, CasualtiesDetail
from caedes_bot.rules.turn import UmpireAdvance
from tests.rules.combat.test_battle_replay import SPACE, _hills_battle


def test_the_battle_copy_shares_only_the_containers_replaced_on_write() -> None:
    """The engine's battle copy shares the fields of ``BATTLE_REPLACED`` with its source and
    copies every other container as ``copy_plain`` does (decision 0013, eighth pass)."""
    rs = load_ruleset()
    st = engine.apply(
        _hills_battle(rs, "plan"), FightBattle("DAW", SPACE), rs, SeededDice("plan", 0)
    ).state
    battle = st.battle
    assert battle is not None
    mine, theirs = _BATTLE_COPY.copy(battle), copy_plain(battle)
    assert mine.__dict__ == battle.__dict__
    for name, value in battle.__dict__.items():
        if name in BATTLE_REPLACED or name == "owed":  # owed: replaced by the clone at once
            assert mine.__dict__[name] is value, name
        else:
            assert (mine.__dict__[name] is not value) == (theirs.__dict__[name] is not value), name
    assert set(BATTLE_REPLACED) <= {f.name for f in fields(Battle)}


#: a container of ``BATTLE_REPLACED`` changed in place: an augmented assignment, a method
#: that changes a list or dict, or an item assignment or deletion
_IN_PLACE = re.compile(
    rf"\.({'|'.join(BATTLE_REPLACED)})\s*(\+=|\|=|-=|\*=|\.(append|extend|insert|pop|remove"
    r"|clear|sort|reverse|update|setdefault|popitem)\(|\[[^\]]*\]\s*=(?!=))"
)


def test_the_rules_replace_the_shared_battle_containers_and_never_change_them() -> None:
    """Every write to a field of ``BATTLE_REPLACED`` anywhere in the bot assigns a new
    container: a clone shares them, so changing one in place would change its source too."""
    root = Path(caedes_bot.__file__).parent
    found = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if _IN_PLACE.search(line) and "history." not in line  # the announcer's own copies
    ]
    assert found == []


def test_settling_casualties_replaces_the_share_and_leaves_the_state_given_alone() -> None:
    """The casualty shares are shared by a clone: answering a ``casualties`` decision (by
    default, or with ``AssignCasualties``) puts a settled copy in the new state's list and
    leaves the share of the state the order was given unchanged."""
    rs = load_ruleset()
    dice = SeededDice("shares", 0)
    st = engine.apply(_hills_battle(rs, "shares"), FightBattle("DAW", SPACE), rs, dice).state
    while st.battle is not None and not st.pending:
        st = engine.apply(st, UmpireAdvance("DAW"), rs, dice).state
    assert st.battle is not None and st.battle.owed
    decision = st.pending[0]
    assert isinstance(decision.detail, CasualtiesDetail)
    share = next(s for s in st.battle.owed if s.decision == decision.id)
    before = copy.deepcopy(st.battle.owed)
    for order in (
        UmpireAdvance("DAW"),
        AssignCasualties(decision.faction, decision.detail.default),
    ):
        after = engine.apply(st, order, rs, SeededDice("shares", st.dice_rolls)).state
        assert st.battle.owed == before and share.assignment is None
        assert share not in (after.battle.owed if after.battle is not None else [])
