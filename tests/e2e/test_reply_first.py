"""End-to-end: an order's answer is sent before the outbox is woken for what the order queued
(design.md section 4: direct replies at once; the outbox delivers the rest), for a slash
command and for a button, through the real bot and the fake Discord."""

from __future__ import annotations

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, control, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord

CALLBACKS = r"^/interactions/\d+/[^/]+/callback$"


async def test_the_outbox_is_woken_only_after_the_answer_is_sent(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    daw = table.thread("DAW")
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    service = runner.bot.service
    # for every wake after a commit: how many interaction answers the fake had received then
    answers_seen: list[int] = []
    service.add_listener(
        lambda _campaign: answers_seen.append(len(fake.requests_to("POST", CALLBACKS)))
    )

    async def woken_after_answer(what: str, wakes: int, answers: int) -> None:
        """The wakes since ``wakes`` all came once this interaction's answer had arrived."""
        await fake.wait_for(lambda: len(answers_seen) > wakes, what=f"the wake after {what}")
        assert min(answers_seen[wakes:]) == answers + 1, (what, answers_seen[wakes:])

    # a button: Done on the turn panel (step 1 ends)
    wakes, before = len(answers_seen), len(fake.requests_to("POST", CALLBACKS))
    done = await fake.click(alice, first, control(first, "done"))
    assert done.text.startswith("Step 1 Trade is over."), done.text
    await woken_after_answer("the Done button", wakes, before)

    # slash commands: /buy in step 5 (step 4 ran by itself), then /done (step 5 ends)
    wakes, before = len(answers_seen), len(fake.requests_to("POST", CALLBACKS))
    bought = await fake.slash(alice, "buy", unit="Infantry", channel=daw)
    assert "Bought" in bought.text, bought.text
    await woken_after_answer("/buy", wakes, before)
    wakes, before = len(answers_seen), len(fake.requests_to("POST", CALLBACKS))
    ended = await fake.slash(alice, "done", channel=daw)
    assert ended.ephemeral and ended.text.startswith("Step 5 Buy is over."), ended.text
    await woken_after_answer("/done", wakes, before)
