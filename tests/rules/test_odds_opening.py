"""The odds a battle message opens with (option ``battle_message_odds``, R-COMBAT-16, issue
13, decision 0020): when the option is on, the battle notes itself as it begins (a
BattleOddsAsked event) and nothing is worked out on the order's path; the odds worked out
later from that note are the odds of the battle as it began. Off (the default), nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from caedes_bot.persistence.mappers import dump_event, load_event
from caedes_bot.rules.combat.events import BattleBegan, BattleOddsAsked
from caedes_bot.rules.combat.orders import FightBattle, handle_fight_battle
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.odds import battle_odds, odds_for
from caedes_bot.rules.odds.opening import opening_figures, opening_setup
from caedes_bot.rules.odds.planned import battle_now
from caedes_bot.ui.battle_embeds import BattleHistory, battle_message
from tests.rules.combat.test_battle import battle_setup


def test_r_combat_16_battle_message_odds_option() -> None:
    """With the option on, 1 Infantry against 1 Infantry notes the battle as it begins; read
    back (after a trip through the event store) it is the battle ``/odds`` sees at the start,
    and its odds are the hand-worked 1 against 1 (attacker 0.14/0.44 of the battles that end);
    the message shows them first once known. Off, nothing is noted."""
    rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    expected = battle_odds(st, rs, "x")
    on = st.clone()
    on.options = replace(on.options, battle_message_odds=True)
    events = handle_fight_battle(on, FightBattle("DAW", "x"), rs, ScriptedDice([9, 9]))
    (asked,) = [e for e in events if isinstance(e, BattleOddsAsked)]
    assert load_event(dump_event(asked)) == asked
    setup = opening_setup(rs, asked)
    assert setup.fighters == battle_now(st, rs, "x", "DAW").fighters
    assert (setup.attacker, setup.defender_order) == ("DAW", ("ORC",))
    odds = odds_for(list(setup.fighters), on.options, **setup.odds_arguments())
    assert odds.method == "exact"
    assert odds.attacker_wins == pytest.approx(expected.attacker_wins)
    assert odds.attacker_wins == pytest.approx(0.14 / 0.44 * (1 - 0.56**20))
    history = BattleHistory(
        id=asked.battle,
        space="x",
        attacker="DAW",
        defenders=("ORC",),
        opening=(opening_figures(odds), odds.method, ()),
    )
    embed, _ = battle_message(1, on, rs, history)
    assert (embed.description or "").startswith("🎲 Odds at the start (exact): ")
    assert "take it 31.8%" in (embed.description or "")

    off = st.clone()
    events = handle_fight_battle(off, FightBattle("DAW", "x"), rs, ScriptedDice([9, 9]))
    assert [e for e in events if isinstance(e, BattleBegan)]
    assert not [e for e in events if isinstance(e, BattleOddsAsked)]
