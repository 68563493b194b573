"""End-to-end: an alliance proposed with ``/alliance propose``, confirmed with the button in
the partner's orders thread, in force from the start of the next turn, listed by
``/diplomacy`` (R-ALLY-01, R-ALLY-02), and a fealty oath refused to oneself (R-FEAL-01).

Skirmish: the Dawnians (alice) play first, then the Orcs (bob). Alice proposes during her own
turn; Bob confirms; the alliance is in force when Bob's turn begins, not before.
"""

from __future__ import annotations

from caedes_bot.app import CaedesBot
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import JSON, QueuedDice, control, panel, staffed_campaign, start_bot
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, message_text


def _caedes(runner: BotRunner) -> CaedesBot:
    assert isinstance(runner.bot, CaedesBot)
    return runner.bot


async def test_an_alliance_is_proposed_confirmed_and_in_force_next_turn(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-ALLY-01, R-ALLY-02: proposed by DAW, confirmed by ORC's button: agreed, but not in
    force until the next turn (ORC's) begins; ``/diplomacy`` then lists it."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    service = _caedes(runner).service
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    sent = await fake.slash(alice, "alliance propose", partners="Orcs", channel=table.thread("DAW"))
    assert sent.ephemeral and "Proposal sent" in sent.text, sent.text

    def offer() -> JSON | None:
        for m in fake.messages_in(table.thread("ORC")):
            if "proposes an alliance" in message_text(m) and m.get("components"):
                return m
        return None

    message: JSON = await fake.wait_for(offer, what="the proposal in the Orcs' thread")
    clicked = await fake.click(bob, message, control(message, "accept"))
    assert "Agreed" in clicked.text or "confirmed" in clicked.text, clicked.text
    state = await service.get_state(1)
    assert state.alliances == [] and state.pact_proposals[0].agreed
    # R-VIC-01: the rules know who plays which faction (told when the campaign started)
    assert state.players == {"DAW": str(alice.id), "ORC": str(bob.id)}
    refused = await fake.slash(bob, "fealty swear", liege="Orcs", channel=table.thread("ORC"))
    assert refused.ephemeral and "cannot swear fealty to itself" in refused.text, refused.text
    listed = await fake.slash(alice, "diplomacy", channel=table.thread("DAW"))
    assert "waiting" not in listed.text and "agreed" in listed.text, listed.text
    talk = table.found["table-talk"]
    for _ in range(12):  # the umpire moves DAW's turn on, step by step
        state = await service.get_state(1)
        if state.active != "DAW":
            break
        await fake.slash(umpire, "umpire advance", channel=talk)
    state = await service.get_state(1)
    assert state.active == "ORC"
    assert state.alliances == [["DAW", "ORC"]] and state.pact_proposals == []
    assert state.are_partners("DAW", "ORC")
    listed = await fake.slash(bob, "diplomacy", channel=table.thread("ORC"))
    assert "Alliance:" in listed.text and "Orcs" in listed.text, listed.text
    # R-SETUP-02, R-VIC-01: a faction given during play is recorded for victory too
    given = await fake.slash(
        fake.admin, "campaign assign", member=alice, faction="ACH", channel=talk
    )
    assert "now plays" in given.text, given.text
    state = await service.get_state(1)
    assert state.players["ACH"] == str(alice.id)
