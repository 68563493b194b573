"""End-to-end: what a careless or hostile player types, clicks twice, or has delivered twice,
through the real bot and the fake Discord (skirmish: Alice plays the Dawnians, Bob the Orcs,
Carol the Acherousians).

Every case gets a private, clear answer; none logs an ERROR (the fixtures fail the test on
one), none freezes the bot, and a refusal changes nothing.
"""

from __future__ import annotations

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, Table, panel, staffed_campaign, start_bot
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord

HUGE = "9" * 4400  # more digits than Python turns into an int


async def skirmish(fake: FakeDiscord, make_bot: MakeBot) -> tuple[BotRunner, Table]:
    """A started skirmish with scripted dice, the Dawnians' turn panel posted."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    return runner, table


async def test_huge_counts_are_refused_at_once_with_the_cap(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-COMM-10, R-MOVE-01: counts typed as text are capped at 99 of one item (10,000 in a
    trade) and read only once the campaign is known."""
    runner, table = await skirmish(fake, make_bot)
    alice = fake.players[0]
    daw = table.thread("DAW")

    outside = await fake.slash(alice, "redeem sets", sets="999999999 grain")
    assert outside.ephemeral and outside.text.startswith("This channel is not part of a campaign.")

    sets = await fake.slash(alice, "redeem sets", sets="999999999 grain", channel=daw)
    assert sets.ephemeral
    assert sets.text.startswith("At most 99 of one item: '999999999 grain' is too many.")
    assert "(R-COMM-10)" in sets.text

    give = await fake.slash(alice, "trade offer", to="ORC", give=HUGE + " grain", channel=daw)
    assert give.ephemeral and give.text.startswith("At most 10000 of one item: '9999")
    assert len(give.text) < 300

    many = await fake.slash(
        alice,
        "move",
        units="99999999999999999999999 Infantry",
        to="Wolfsgate",
        channel=daw,
        **{"from": "Harrowgate"},
    )
    assert many.text.startswith("At most 99 of one item") and "(R-MOVE-01)" in many.text
    negative = await fake.slash(
        alice, "move", units="-1 Infantry", to="Wolfsgate", channel=daw, **{"from": "Harrowgate"}
    )
    assert negative.text.startswith("Counts must be positive: '-1 Infantry'.")

    offer = await fake.slash(alice, "trade accept", offer=HUGE, channel=daw)
    assert offer.text.startswith("'9999") and "is not a trade offer number" in offer.text

    state = await runner.bot.service.get_state(1)
    assert state.step.label == "1 Trade" and not state.trades  # nothing changed
