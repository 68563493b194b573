"""End-to-end: battles with special actions through the fake Discord (R-COMBAT-03, R-COMBAT-12,
R-MAGIC-ABJ-01, R-MAGIC-ENCH-01, R-MAGIC-ENCH-03, R-MAGIC-INV-01, R-PBP-DEAD-04, R-COMBAT-16).

The skirmish scenario, with a Dawnian Cleric (Abjurer) and a Dawnian Mesmer (a test kind: an
infantry with Enchanter) added in Harrowgate, and for the deadline test an Orc Shaman
(Invoker) in Wolfsgate. The Dawnians attack Wolfsgate (an Orc Trooper and Orc Wolfriders).

* Standing declarations: the Dawnians answer the declaration once ("Use defaults": the Cleric
  abjures, the Mesmer enchants) and the next two rounds are fought without asking again.
* The Mesmer's enchant die succeeds; the Orcs give their Wolfriders, which fight for the
  Dawnians; the Dawnians then lose the Mesmer and the Wolfriders go home.
* The bot restarts in the middle of the battle; the Press on button posted before still works
  and the battle finishes.
* A reaction deadline passes: the Orcs' declaration and then their casualty choice are taken
  by default.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Attribute, Ruleset, ScenarioUnit
from caedes_bot.rules.state import DecisionKind, GameState
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import (
    QueuedDice,
    Table,
    battle,
    control,
    custom_ids,
    panel,
    staffed_campaign,
)
from tests.fakediscord import FakeDiscord, FakeUser, message_text

MESMER = "U-DAW-90"


def magic_ruleset(*, orc_shaman: bool = False) -> Ruleset:
    """The shipped game data with the Mesmer kind and the extra units of the module docstring."""
    rs = load_ruleset()
    mesmer = dataclasses.replace(
        rs.units["U-DAW-01"],
        id=MESMER,
        name="Mesmer",
        display_name="Dawnian Mesmer",
        cost=18,
        attributes=frozenset({Attribute.ENCHANTER}),
    )
    skirmish = rs.scenarios["skirmish"]
    extra = [ScenarioUnit("U-DAW-05", "harrowgate"), ScenarioUnit(MESMER, "harrowgate")]
    if orc_shaman:
        extra.append(ScenarioUnit("U-ORC-08", "wolfsgate"))
    scenario = dataclasses.replace(skirmish, units=(*skirmish.units, *extra))
    return dataclasses.replace(
        rs,
        units={**rs.units, MESMER: mesmer},
        scenarios={**rs.scenarios, "skirmish": scenario},
    )


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


def ids_of(state: GameState, kind: str, where: str) -> list[int]:
    return sorted(u.id for u in state.units.values() if u.kind == kind and u.location == where)


async def attack_wolfsgate(fake: FakeDiscord, table: Table, alice: FakeUser, units: str) -> None:
    """The Dawnians' steps 1-6: nothing bought; ``units`` move from Harrowgate to Wolfsgate."""
    daw = table.thread("DAW")
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await fake.click(alice, first, control(first, "done"))
    buy = await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    await fake.click(alice, buy, control(buy, "done"))
    moved = await fake.slash(
        alice, "move", units=units, **{"from": "Harrowgate"}, to="Wolfsgate", channel=daw
    )
    assert "from Harrowgate to Wolfsgate" in moved.text, moved.text
    done = await fake.slash(alice, "done", channel=daw)
    assert "must fight at Wolfsgate" in done.text, done.text


@pytest.mark.parametrize("ruleset", [magic_ruleset()], ids=["magic"])
async def test_standing_declarations_an_enchantment_undone_and_a_restart(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-COMBAT-03, R-COMBAT-12, R-MAGIC-ABJ-01, R-MAGIC-ENCH-01, R-MAGIC-ENCH-03, R-COMBAT-16,
    as in the module docstring. Dice: infantry attack 2, the Trooper and the Wolfriders defend
    3 (hills: no lore), the Wolfriders attack 5 for the Dawnians; the enchant die succeeds on 4
    or less; a 9 always misses."""
    dice = QueuedDice()
    first_bot = await make_bot(service_options={"dice_factory": dice.factory()})
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    daw = table.thread("DAW")
    await attack_wolfsgate(fake, table, alice, "1 Cleric, 1 Mesmer, 2 Infantry")
    state = await first_bot.bot.service.get_state(1)
    cleric = ids_of(state, "U-DAW-05", "wolfsgate")[0]
    mesmer = ids_of(state, MESMER, "wolfsgate")[0]
    wolves = ids_of(state, "U-ORC-06", "wolfsgate")[0]

    fought = await fake.slash(alice, "attack", province="Wolfsgate", channel=daw)
    assert "The battle at Wolfsgate has begun" in fought.text
    message = await battle(fake, table, "Wolfsgate", showing="declare special actions")
    assert "how many abjure" in str(message["components"])
    # Round 1: infantry 9, 9; the Mesmer's enchant die 3 succeeds; the Orcs 9, 9.
    dice.push(9, 9, 3, 9, 9)
    declared = await fake.click(alice, message, control(message, "default"))
    assert "Declared: the defaults" in declared.text, declared.text
    message = await battle(fake, table, "Wolfsgate", showing="press on or withdraw")
    text = message_text(message)
    assert "1 Dawnian Cleric abjure every round" in text
    assert "1 Dawnian Mesmer enchant every round" in text
    assert f"Dawnian Mesmer #{mesmer}: 🌀**3** (enchants) vs 4" in text
    pressed = await fake.click(alice, message, control(message, "press"))
    assert "You press on" in pressed.text
    # The Orcs pick the unit the enchantment takes: the Wolfriders.
    message = await battle(fake, table, "Wolfsgate", showing="lose to enchantment")
    # Round 2: infantry 9, 9, the Wolfriders (now attacking) 9, the Mesmer 9; the Trooper 1.
    dice.push(9, 9, 9, 9, 1)
    given = await fake.select(bob, message, control(message, "enchant"), [str(wolves)])
    assert "Enchanted units chosen" in given.text, given.text
    message = await battle(fake, table, "Wolfsgate", showing="choose 1 casualty")
    text = message_text(message)
    assert f"Orc Wolfriders #{wolves}" in text and "enchanted by" in text
    assert f"Orc Wolfriders #{wolves}: 9 vs 5" in text
    assert "hit cancelled (Abjurer, R-MAGIC-ABJ-01)" in str(message["components"])
    # The Dawnians give the Mesmer: the Wolfriders go home.
    chosen = await fake.select(alice, message, control(message, "pick"), [f"u{mesmer}"])
    assert "Casualties chosen" in chosen.text, chosen.text
    message = await battle(fake, table, "Wolfsgate", showing="press on or withdraw")
    assert "freed" in message_text(message)
    state = await first_bot.bot.service.get_state(1)
    assert state.battle is not None and wolves in state.battle.defender_units
    assert not state.battle.enchanted

    # The bot restarts; the Press on button posted before the restart still works. Round 3
    # asks nothing: infantry 1, 1 hit; the Cleric does not roll; the Orcs 9, 9.
    await first_bot.stop()
    second_bot = await make_bot(service_options={"dice_factory": dice.factory()})
    dice.push(1, 1, 9, 9)
    pressed = await fake.click(alice, message, control(message, "press"))
    assert "You press on" in pressed.text, pressed.text
    assert "The battle at Wolfsgate is over: the attacker won" in pressed.text
    over = await battle(fake, table, "Wolfsgate", showing="The attacker won")
    text = message_text(over)
    assert "Round 3, melee step" in text and not over["components"]
    state = await second_bot.bot.service.get_state(1)
    assert state.owner("wolfsgate") == "DAW" and str(cleric) in state.units
    assert not [d for d in state.pending if d.kind is DecisionKind.DECLARE_ACTIONS]
    dice.assert_used_up()


@pytest.mark.parametrize("ruleset", [magic_ruleset(orc_shaman=True)], ids=["magic"])
async def test_a_missed_reaction_deadline_takes_every_default(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-PBP-DEAD-01, R-PBP-DEAD-04, R-COMBAT-12, R-MAGIC-INV-01, R-MAGIC-SUMM-01: the Orcs say
    nothing. Their Shaman is a Summoner and an Invoker: when the reaction deadline of the
    summons offer passes, every default is taken: no summons, then the declaration the next
    round-start slot asks of them (the Shaman invokes: five dice at 2 beat one die at 3), kept as
    their standing order. The Dawnians declare by their own button, and round 1 is fought: the
    Dawnian infantry 1 hits; the Trooper 9, the Wolfriders 9, the Shaman 1, 9, 9, 9, 9: one
    hit, and both sides owe a casualty choice."""
    clock = Clock()
    dice = QueuedDice()
    runner = await make_bot(
        service_options={"dice_factory": dice.factory()}, scheduler_options={"clock": clock}
    )
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    daw = table.thread("DAW")
    await attack_wolfsgate(fake, table, alice, "1 Cleric, 1 Infantry")
    service = runner.bot.service

    async def reaction_deadline() -> datetime:
        state = await service.get_state(1)
        (owed,) = [d for d in state.pending if d.faction == "ORC"]
        assert owed.reaction
        found = [d for d in await service.deadlines(1) if d.decision_key == f"decision:{owed.id}"]
        assert found, await service.deadlines(1)
        return found[0].due_at

    fought = await fake.slash(alice, "attack", province="Wolfsgate", channel=daw)
    assert "The battle at Wolfsgate has begun" in fought.text
    # the Shaman is a Summoner too: first the Orcs' summons offer; its deadline passes: none
    await battle(fake, table, "Wolfsgate", showing="R-MAGIC-SUMM-01")
    clock.now = await reaction_deadline() + timedelta(seconds=1)
    runner.bot.scheduler.wake()
    # the same deadline takes the Orcs' declaration too: their Shaman invokes
    message = await battle(fake, table, "Wolfsgate", showing="(by default: the deadline passed)")
    clock.now = datetime.now(UTC)  # back to now: the deadlines made from here on lie ahead
    assert "declare special actions" in message_text(message)
    state = await service.get_state(1)
    assert [(d.faction, d.kind) for d in state.pending] == [("DAW", DecisionKind.DECLARE_ACTIONS)]
    dice.push(1, 9, 9, 1, 9, 9, 9, 9)
    declared = await fake.click(alice, message, control(message, "default"))
    assert "Declared: the defaults" in declared.text
    message = await battle(fake, table, "Wolfsgate", showing="choose 1 casualty")
    text = message_text(message)
    assert "(by default: the deadline passed)" in text
    assert "1 Orc Shaman invoke every round" in text
    assert "✨**1**" in text
    state = await service.get_state(1)
    assert state.battle is not None and state.battle.records
    assert any(d.faction == "DAW" and d.kind is DecisionKind.CASUALTIES for d in state.pending)
    assert state.battle is not None
    (orders,) = [o for o in state.battle.standing if o.faction == "ORC"]
    assert (orders.kind, orders.count) == ("U-ORC-08", 1)

    # Alice gives the Cleric, whose shield cancels the hit (R-MAGIC-ABJ-01). The Orcs say
    # nothing again: when the reaction deadline of their casualty choice passes, the default
    # (R-COMBAT-06) takes the cheapest unit, the Trooper (3 RP; the Wolfriders cost 5 and the
    # Shaman 18), and the round ends with the Dawnians asked to press on or withdraw.
    cleric = ids_of(state, "U-DAW-05", "wolfsgate")[0]
    trooper = ids_of(state, "U-ORC-02", "wolfsgate")[0]
    (mine,) = [d for d in state.pending if d.faction == "DAW"]
    pick = next(c for c in custom_ids(message) if c.endswith(f"dec.{mine.id}:pick"))
    chosen = await fake.select(alice, message, pick, [f"u{cleric}"])
    assert "Casualties chosen" in chosen.text, chosen.text
    clock.now = await reaction_deadline() + timedelta(seconds=1)
    runner.bot.scheduler.wake()
    message = await battle(fake, table, "Wolfsgate", showing="press on or withdraw")
    text = message_text(message)
    assert f"Hit cancelled by (R-MAGIC-ABJ-01): Dawnian Cleric #{cleric}" in text, text
    assert f"Lost: Orc Troopers #{trooper}." in text, text
    state = await service.get_state(1)
    assert str(cleric) in state.units and str(trooper) not in state.units
    assert [(d.faction, d.kind) for d in state.pending] == [("DAW", DecisionKind.PRESS_OR_WITHDRAW)]
    dice.assert_used_up()
