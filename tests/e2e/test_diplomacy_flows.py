"""End to end through the fake Discord: an alliance changing who fights whom (R-ALLY-03,
R-ALLY-05), a diplomatic victory by fealty (R-FEAL-01, R-VIC-02), and a turn-limit victory by
a player holding two factions (R-VIC-03, R-VIC-01).

Scenarios are made here from the shipped default one. "pair": the Dawnians (alice) hold
Harrowgate with two infantry, the Orcs (bob) Wolfsgate, beside it, and Melvek Tor, one
trooper each; no turn limit. "short": the skirmish in one game round.
"""

from __future__ import annotations

from dataclasses import replace

from caedes_bot.app import CaedesBot
from caedes_bot.gamedata.model import Ruleset, Scenario, ScenarioFaction, ScenarioUnit
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import JSON, QueuedDice, Table, control, staffed_campaign
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, FakeUser, all_text, message_text


def _caedes(runner: BotRunner) -> CaedesBot:
    assert isinstance(runner.bot, CaedesBot)
    return runner.bot


def _pair(shipped: Ruleset) -> Ruleset:
    base = shipped.scenarios["default"]
    scenario: Scenario = replace(
        base,
        id="pair",
        name="Two neighbours",
        factions=(ScenarioFaction("DAW", 10, {}, None), ScenarioFaction("ORC", 10, {}, None)),
        owners={"harrowgate": "DAW", "wolfsgate": "ORC", "melvek-tor": "ORC"},
        units=(
            ScenarioUnit("U-DAW-01", "harrowgate", 2),
            ScenarioUnit("U-ORC-02", "wolfsgate", 1),
            ScenarioUnit("U-ORC-02", "melvek-tor", 1),
        ),
        heroes={},
        alliances=(),
        fealty={},
        turn_limit=None,
    )
    return replace(shipped, scenarios={**shipped.scenarios, "pair": scenario})


def _short(shipped: Ruleset) -> Ruleset:
    scenario = replace(shipped.scenarios["skirmish"], id="short", turn_limit=1)
    return replace(shipped, scenarios={**shipped.scenarios, "short": scenario})


async def _pass_turn(fake: FakeDiscord, table: Table, runner: BotRunner, faction: str) -> None:
    """The umpire moves ``faction``'s turn on, step by step, until the next turn begins."""
    service = _caedes(runner).service
    last = ""
    for _ in range(15):
        state = await service.get_state(1)
        if state.active != faction or state.finished:
            return
        moved = await fake.slash(table.umpire, "umpire advance", channel=table.found["table-talk"])
        last = moved.text
    raise AssertionError(f"{faction}'s turn did not end: {last}")


async def _confirm(
    fake: FakeDiscord, table: Table, member: FakeUser, faction: str, what: str
) -> None:
    def offer() -> JSON | None:
        for m in fake.messages_in(table.thread(faction)):
            if what in message_text(m) and m.get("components"):
                return m
        return None

    message: JSON = await fake.wait_for(offer, what=f"the proposal in {faction}'s thread")
    clicked = await fake.click(member, message, control(message, "accept"))
    assert "confirmed" in clicked.text or "Agreed" in clicked.text, clicked.text


async def _to_step(
    fake: FakeDiscord, table: Table, member: FakeUser, faction: str, label: str
) -> str:
    """/done until the answer says step ``label`` began; the last answer."""
    text = ""
    for _ in range(6):
        done = await fake.slash(member, "done", channel=table.thread(faction))
        text = done.text
        if label in text:
            return text
    raise AssertionError(f"never reached {label}: {text}")


async def test_an_alliance_changes_who_fights_whom(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-ALLY-02, R-ALLY-03: allied from the Orcs' first turn, the Dawnians move into the Orcs'
    Wolfsgate in round 2 with no attack and no battle. R-ALLY-05: the Dawnians break the
    alliance; at their next turn their infantry in Wolfsgate, which the Orcs own, must fight
    there."""
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()}, ruleset=_pair(ruleset)
    )
    alice, bob, _carol, _umpire = fake.players
    table = await staffed_campaign(fake, scenario="pair", seats={"DAW": alice, "ORC": bob})
    daw = table.thread("DAW")
    sent = await fake.slash(alice, "alliance propose", partners="Orcs", channel=daw)
    assert "Proposal sent" in sent.text, sent.text
    await _confirm(fake, table, bob, "ORC", "proposes an alliance")
    await _pass_turn(fake, table, runner, "DAW")
    state = await _caedes(runner).service.get_state(1)
    assert state.alliances == [["DAW", "ORC"]]
    await _pass_turn(fake, table, runner, "ORC")

    await _to_step(fake, table, alice, "DAW", "Step 5 Buy is over.")
    moved = await fake.slash(
        alice, "move", units="1 Infantry", **{"from": "Harrowgate"}, to="Wolfsgate", channel=daw
    )
    assert "moved 1 Dawnian Infantry from Harrowgate to Wolfsgate" in moved.text, moved.text
    assert "attack" not in moved.text, moved.text
    broken = await fake.slash(alice, "alliance break", partners="Orcs", channel=daw)
    assert "end of the alliance" in broken.text, broken.text
    done = await fake.slash(alice, "done", channel=daw)
    assert "must fight" not in done.text, done.text
    state = await _caedes(runner).service.get_state(1)
    assert state.owners["wolfsgate"] == "ORC" and not state.battles_due

    await _pass_turn(fake, table, runner, "DAW")
    state = await _caedes(runner).service.get_state(1)
    assert state.alliances == [] and ("DAW", "wolfsgate") in state.parting
    await fake.wait_for(
        lambda: (
            "must leave it at its next turn or attack there (R-ALLY-05)"
            in all_text(fake.messages_in(daw)) + all_text(fake.messages_in(table.announcements))
        ),
        what="the parting announced",
    )
    await _pass_turn(fake, table, runner, "ORC")
    await _to_step(fake, table, alice, "DAW", "Step 5 Buy is over.")
    done = await fake.slash(alice, "done", channel=daw)
    assert "must fight at Wolfsgate" in done.text, done.text


async def test_a_diplomatic_victory_by_fealty(fake: FakeDiscord, make_bot: MakeBot) -> None:
    """R-FEAL-01, R-VIC-02: the Orcs and the Acherousians swear fealty to the Dawnians, who
    accept both; at the next turn's start both are in force, and every faction not Alice's is
    her vassal: a diplomatic victory, announced with the final summary."""
    runner = await make_bot(service_options={"dice_factory": QueuedDice().factory()})
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    for member, faction in ((bob, "ORC"), (carol, "ACH")):
        sworn = await fake.slash(
            member, "fealty swear", liege="Dawnians", channel=table.thread(faction)
        )
        assert "Oath sent" in sworn.text, sworn.text

    def both() -> list[JSON] | None:
        found = [
            m
            for m in fake.messages_in(table.thread("DAW"))
            if "fealty to" in message_text(m) and m.get("components")
        ]
        return found if len(found) == 2 else None

    offers = await fake.wait_for(both, what="both oaths in the Dawnians' thread")
    for offer in offers:
        clicked = await fake.click(alice, offer, control(offer, "accept"))
        assert "confirmed" in clicked.text, clicked.text
    await _pass_turn(fake, table, runner, "DAW")
    state = await _caedes(runner).service.get_state(1)
    assert state.finished and state.winner == ["DAW"]
    assert state.fealty == {"ORC": "DAW", "ACH": "DAW"}
    await fake.wait_for(
        lambda: (
            "(diplomatic victory, R-VIC-02). Winner: 🌅 Dawnians (DAW)"
            in all_text(fake.messages_in(table.announcements))
            and "**Final summary**" in all_text(fake.messages_in(table.announcements))
        ),
        what="the victory and the summary announced",
    )


async def test_a_turn_limit_victory_by_a_player_with_two_factions(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-VIC-03, R-VIC-01: one game round; Alice holds the Dawnians (3 provinces) and the
    Acherousians (3), Bob the Orcs (2). After the last turn the campaign ends; Alice's score
    sums both factions, 6 provinces and her Towers, and she wins with both."""
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()}, ruleset=_short(ruleset)
    )
    alice, bob, _carol, _umpire = fake.players
    table = await staffed_campaign(
        fake, scenario="short", seats={"DAW": alice, "ORC": bob, "ACH": alice}
    )
    for faction in ("DAW", "ORC", "ACH"):
        await _pass_turn(fake, table, runner, faction)
    state = await _caedes(runner).service.get_state(1)
    assert state.finished and state.winner == ["DAW", "ACH"]
    await fake.wait_for(
        lambda: (
            "(turn limit, R-VIC-03). Winner: 🌅 Dawnians (DAW), 💀 Acherousians (ACH)"
            in all_text(fake.messages_in(table.announcements))
        ),
        what="the turn-limit victory announced",
    )
    await fake.wait_for(
        lambda: "**Final summary**" in all_text(fake.messages_in(table.announcements)),
        what="the final summary",
    )
    summary = all_text(fake.messages_in(table.announcements))
    assert "- 👹 Orcs (ORC): 3 points (2 provinces, 1 fortified" in summary
    assert (
        "- 🌅 Dawnians (DAW), 💀 Acherousians (ACH): 8 points (6 provinces, 2 fortified" in summary
    )
