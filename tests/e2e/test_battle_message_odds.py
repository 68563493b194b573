"""End-to-end: the odds a battle message opens with (option ``battle_message_odds``,
R-COMBAT-16, issue 13, decision 0020), through the real bot and the fake Discord.

The skirmish scenario with the option on: the Dawnians attack Wolfsgate (an Orc Trooper and
Orc Wolfriders) with two Infantry. The answer to ``/attack`` does not wait for any odds: the
battle message is posted saying they are being worked out, and once the bot's odds worker
has them the message is edited to show them, the same figures ``/odds`` gives for that
battle as it began. With the option off (the default) nothing is worked out.
"""

from __future__ import annotations

import dataclasses

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, battle, staffed_campaign
from tests.e2e.test_game_magic import attack_wolfsgate
from tests.fakediscord import FakeDiscord, message_text


def skirmish_with_odds(on: bool) -> Ruleset:
    rs = load_ruleset()
    skirmish = rs.scenarios["skirmish"]
    options = dataclasses.replace(skirmish.options, battle_message_odds=on)
    scenario = dataclasses.replace(skirmish, options=options)
    return dataclasses.replace(rs, scenarios={**rs.scenarios, "skirmish": scenario})


@pytest.mark.parametrize("ruleset", [skirmish_with_odds(True)], ids=["odds-on"])
async def test_r_combat_16_the_battle_message_gains_its_odds(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-COMBAT-16, R-COMBAT-01: as in the module docstring (option on)."""
    dice = QueuedDice()
    runner = await make_bot(service_options={"dice_factory": dice.factory()})
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await attack_wolfsgate(fake, table, alice, "2 Infantry")
    daw = table.thread("DAW")
    planned = await fake.slash(alice, "odds", province="Wolfsgate", channel=daw)
    line = next(t for t in planned.text.split("\n") if "take the province" in t)
    wins = line.split("**")[1]  # the attacker's chance, as /odds words it
    computed = runner.bot.odds.computed

    dice.push(9, 9, 9, 9)  # round 1: every die misses
    fought = await fake.slash(alice, "attack", province="Wolfsgate", channel=daw)
    assert "The battle at Wolfsgate has begun" in fought.text, fought.text
    shown = await battle(fake, table, "Wolfsgate", showing="Odds at the start (exact)")
    assert f"Dawnians take it {wins}" in message_text(shown), message_text(shown)
    assert "press on or withdraw" in message_text(shown)  # the controls are still there
    posts = [
        r
        for r in fake.requests
        if r.method == "POST" and r.path == f"/channels/{table.battles['id']}/messages"
    ]
    assert len(posts) == 1
    assert "being worked out" in str(posts[0].body)  # posted before the odds were known
    # no second calculation: the battle message's odds are the answer /odds worked out for
    # the planned battle, the same battle keyed the same (issue 13: it was worked out twice)
    assert runner.bot.odds.computed == computed


@pytest.mark.parametrize("ruleset", [skirmish_with_odds(False)], ids=["odds-off"])
async def test_r_combat_16_option_off_works_nothing_out(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-COMBAT-16 at its default: the battle message has no odds, and no odds are worked
    out for it."""
    dice = QueuedDice()
    runner = await make_bot(service_options={"dice_factory": dice.factory()})
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await attack_wolfsgate(fake, table, alice, "2 Infantry")
    dice.push(9, 9, 9, 9)
    fought = await fake.slash(alice, "attack", province="Wolfsgate", channel=table.thread("DAW"))
    assert "The battle at Wolfsgate has begun" in fought.text, fought.text
    shown = await battle(fake, table, "Wolfsgate", showing="press on or withdraw")
    assert "Odds at the start" not in message_text(shown)
    await runner.bot.service.settle_opening_odds()
    assert runner.bot.odds.computed == 0
