"""The odds a battle message opens with (option ``battle_message_odds``, R-COMBAT-16, issue
13): kept on the battle and its BattleBegan event when the option is on, shown first in the
battle message; nothing when it is off (the default)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from caedes_bot.rules.combat.events import BattleBegan, BattleOddsNoted
from caedes_bot.rules.combat.orders import FightBattle, handle_fight_battle
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.odds import battle_odds
from caedes_bot.ui.embeds import BattleHistory, battle_message
from tests.rules.combat.test_battle import battle_setup


def test_r_combat_16_battle_message_odds_option() -> None:
    """With the option on, 1 Infantry against 1 Infantry begins with the exact odds of the
    hand-worked 1 against 1 (attacker 0.14/0.44 of the battles that end) kept on the battle,
    on its event, and first in its message; off, nothing is kept."""
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    expected = battle_odds(st, rs, "x")
    on = st.clone()
    on.options = replace(on.options, battle_message_odds=True)
    events = handle_fight_battle(on, FightBattle("DAW", "x"), rs, ScriptedDice([9, 9]))
    (began,) = [e for e in events if isinstance(e, BattleOddsNoted)]
    assert began.method == "exact"
    assert began.figures[0] == pytest.approx(expected.attacker_wins)
    assert began.figures[0] == pytest.approx(0.14 / 0.44 * (1 - 0.56**20))
    assert on.battle is not None and on.battle.opening_odds == list(began.figures)
    history = BattleHistory(
        id=began.battle,
        space="x",
        attacker="DAW",
        defenders=("ORC",),
        opening=(began.figures, began.method, ()),
    )
    embed, _ = battle_message(1, on, rs, history)
    assert (embed.description or "").startswith("🎲 Odds at the start (exact): ")
    assert "take it 31.8%" in (embed.description or "")

    off = st.clone()
    events = handle_fight_battle(off, FightBattle("DAW", "x"), rs, ScriptedDice([9, 9]))
    assert [e for e in events if isinstance(e, BattleBegan)]
    assert not [e for e in events if isinstance(e, BattleOddsNoted)]
    assert off.battle is not None and off.battle.opening_odds == []
