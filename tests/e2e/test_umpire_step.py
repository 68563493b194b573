"""End-to-end: ``/umpire set step`` (R-PBP-UMP-01) through the fake Discord, with the campaign's
own seeded dice (going back is a rollback, which replays them).

The skirmish: the Dawnians (Alice) play round 1. From step 1 the umpire sets step 6: step 1
ends as a pass, steps 2 to 4 run by themselves, step 5 ends as a pass, as ``/umpire advance``
would; announced and in the audit log with before and after. Then back to step 1: a rollback to
where the turn began. Then on into the Orcs' turn (the rest of the Dawnians' played by the
defaults) and back into the Dawnians'. Bad input is refused privately, saying what is allowed.
"""

from __future__ import annotations

from caedes_bot.rules.state import Step
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import panel, staffed_campaign
from tests.fakediscord import FakeDiscord, all_text


async def test_the_umpire_sets_the_step_forward_and_back(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await make_bot()  # the campaign's own seeded dice
    service = runner.bot.service
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk, umpire = table.found["table-talk"], table.umpire

    refused = await fake.slash(alice, "umpire set step", step=6, channel=talk)
    assert refused.ephemeral and "Only the umpire" in refused.text
    same = await fake.slash(umpire, "umpire set step", step=1, channel=talk)
    assert same.ephemeral and "at step 1 Trade already" in same.text and "Allowed:" in same.text

    forward = await fake.slash(umpire, "umpire set step", step=6, channel=talk)
    assert forward.ephemeral and "from step 1 Trade to step 6 Move" in forward.text
    assert (await service.get_state(1)).step is Step.MOVE
    await fake.wait_for(
        lambda: "The umpire moved the turn of" in all_text(fake.messages_in(table.announcements)),
        what="the public notice of the new step",
    )
    await panel(fake, table, "DAW", 1, showing="**Step 6 Move**")

    never = await fake.slash(umpire, "umpire set step", step=3, channel=talk)
    assert never.ephemeral and "never stopped at step 3 Collect" in never.text
    assert "back to step 1 Trade" in never.text

    back = await fake.slash(umpire, "umpire set step", step=1, channel=talk)
    assert back.ephemeral and "back at the start of step 1 Trade" in back.text
    state = await service.get_state(1)
    assert (state.active, state.step) == ("DAW", Step.TRADE)
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    audit = await fake.slash(umpire, "umpire audit", channel=talk)
    assert (
        "moved the turn of the" in audit.text and "on to step 6 Move by the defaults" in audit.text
    )
    assert "(before: step 1 Trade)" in audit.text
    assert "rolled the campaign back to the state after order #" in audit.text

    # into a later faction's turn of the round, and back into the Dawnians' turn
    orcs = await fake.slash(umpire, "umpire set step", step=5, faction="Orcs", channel=talk)
    assert orcs.ephemeral and "to the turn of" in orcs.text and "Orcs" in orcs.text
    state = await service.get_state(1)
    assert (state.active, state.step) == ("ORC", Step.BUY)
    back = await fake.slash(umpire, "umpire set step", step=1, faction="DAW", channel=talk)
    assert back.ephemeral and "back at the start of step 1 Trade" in back.text
    state = await service.get_state(1)
    assert (state.active, state.step) == ("DAW", Step.TRADE)
    service.forget()
    assert await service.replay(1) == state
