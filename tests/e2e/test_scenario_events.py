"""End to end: a scenario's event happens at the start of a faction's turn (R-SETUP-01;
decision 0026), and the umpire sees what is to come.

The scenario is made here from the shipped default one ("reinforced"): the Dawnians (alice)
hold Harrowgate with one infantry, the Orcs (bob) Melvek Tor with one trooper. Its event
"warband" comes at the start of the Orcs' turn in round 1: two more Orc troopers in Melvek Tor,
5 RP for the Orcs, and a line for everyone.
"""

from __future__ import annotations

from dataclasses import replace

from caedes_bot.app import CaedesBot
from caedes_bot.gamedata.model import (
    EventUnits,
    Ruleset,
    Scenario,
    ScenarioEvent,
    ScenarioFaction,
    ScenarioUnit,
)
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, staffed_campaign
from tests.fakediscord import FakeDiscord, all_text

WARBAND = ScenarioEvent(
    id="warband",
    round=1,
    faction="ORC",
    announce="War drums sound in the Melvek hills.",
    rp={"ORC": 5},
    place=(EventUnits("ORC", "U-ORC-02", "melvek-tor", 2),),
)


def _reinforced(shipped: Ruleset) -> Ruleset:
    base = shipped.scenarios["default"]
    scenario: Scenario = replace(
        base,
        id="reinforced",
        name="Reinforced",
        factions=(ScenarioFaction("DAW", 10, {}, None), ScenarioFaction("ORC", 10, {}, None)),
        owners={"harrowgate": "DAW", "melvek-tor": "ORC"},
        units=(
            ScenarioUnit("U-DAW-01", "harrowgate", 1),
            ScenarioUnit("U-ORC-02", "melvek-tor", 1),
        ),
        heroes={},
        alliances=(),
        fealty={},
        turn_limit=None,
        events=(WARBAND,),
    )
    return replace(shipped, scenarios={**shipped.scenarios, "reinforced": scenario})


async def test_a_scenario_event_fires_at_the_orc_turn_start_and_the_umpire_saw_it_coming(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-SETUP-01, R-GEN-07, R-PBP-UMP-04: before the Orc turn the umpire's /campaign info lists
    the event (a player's does not); when the Dawnian turn is moved on, #announcements gets the
    event's line and the two new troopers, the Orcs' orders thread the 5 RP (10 to 15, before
    any collection), and the umpire's list is empty."""
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()}, ruleset=_reinforced(ruleset)
    )
    assert isinstance(runner.bot, CaedesBot)
    service = runner.bot.service
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, scenario="reinforced", seats={"DAW": alice, "ORC": bob})
    talk = table.found["table-talk"]

    info = await fake.slash(umpire, "campaign info", channel=talk)
    assert "Scenario events to come" in info.text, info.text
    assert "round 1, 👹 Orcs (ORC)'s turn: 'warband'" in info.text, info.text
    assert "Orcs (ORC) +5 RP; 2 Orc Troopers placed in Melvek Tor" in info.text, info.text
    seen = await fake.slash(alice, "campaign info", channel=table.thread("DAW"))
    assert "Scenario events" not in seen.text and "warband" not in seen.text, seen.text

    for _ in range(15):
        state = await service.get_state(1)
        if state.active != "DAW":
            break
        await fake.slash(umpire, "umpire advance", channel=talk)
    state = await service.get_state(1)
    assert state.active == "ORC" and state.scenario_events_done == ["warband"]
    assert [u.kind for u in state.units_at("melvek-tor")] == ["U-ORC-02"] * 3
    announcements = int(table.announcements["id"])
    await fake.wait_for(
        lambda: (
            "War drums sound in the Melvek hills." in all_text(fake.world.messages[announcements])
            and "Reinforcements for" in all_text(fake.world.messages[announcements])
        ),
        what="the event announced",
    )
    public = all_text(fake.world.messages[announcements])
    assert "5 RP" not in public  # the treasury is the Orcs' secret (R-GEN-07)
    orcs = int(table.thread("ORC")["id"])
    await fake.wait_for(
        lambda: "gave you 5 RP: 10 -> 15" in all_text(fake.world.messages[orcs]),
        what="the Orcs told of their 5 RP",
    )
    assert "gave you 5 RP" not in all_text(fake.world.messages[int(table.thread("DAW")["id"])])
    after = await fake.slash(umpire, "campaign info", channel=talk)
    assert "Scenario events to come" not in after.text, after.text
