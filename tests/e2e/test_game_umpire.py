"""End-to-end: the umpire's overrides and audit log (R-PBP-UMP-01): only the umpire may give
them, each is announced (the figures only to the faction concerned, R-GEN-07) and logged."""

from __future__ import annotations

from caedes_bot.rules.dice import seed_commitment
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord, all_text


async def test_overrides_are_the_umpires_announced_and_logged(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]

    refused = await fake.slash(alice, "umpire set rp", faction="ORC", rp=50, channel=talk)
    assert (
        refused.ephemeral and "Only the umpire" in refused.text and "R-PBP-UMP-01" in refused.text
    )
    done = await fake.slash(umpire, "umpire set rp", faction="Orcs", rp=25, channel=talk)
    assert done.ephemeral and "The umpire set its RP from 10 to 25" in done.text
    owner = await fake.slash(umpire, "umpire set owner", province="Wolfsgate", channel=talk)
    assert "The umpire gave Wolfsgate to nobody" in owner.text
    await fake.wait_for(
        lambda: (
            "The umpire set your RP from 10 to 25"
            in all_text(fake.messages_in(table.thread("ORC")))
        ),
        what="the figures in the Orcs' own thread",
    )
    announcements = table.announcements
    await fake.wait_for(
        lambda: (
            "The umpire changed the RP of 👹 Orcs (ORC)"
            in all_text(fake.messages_in(announcements))
        ),
        what="the public notice",
    )
    state = await runner.bot.service.get_state(1)
    # R-GEN-07; the post of the dice seed's SHA-256 (decision 0023) may hold "25" by chance
    commitment = seed_commitment(state.dice_seed)
    public = [m for m in fake.messages_in(announcements) if commitment not in m["content"]]
    assert "25" not in all_text(public)
    assert state.factions["ORC"].rp == 25 and "wolfsgate" not in state.owners
    audit = await fake.slash(umpire, "umpire audit", channel=talk)
    assert "(umpire) set Orc RP to 25" in audit.text
    assert "(umpire) left Wolfsgate without an owner" in audit.text
    assert f"<@{umpire.id}>" in audit.text
