"""End-to-end: an order's answer is sent before the outbox is woken for what the order queued
(design.md section 4: direct replies at once; the outbox delivers the rest), for a slash
command and for a button, through the real bot and the fake Discord."""

from __future__ import annotations

from caedes_bot.service.core import WakeHold
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, control, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord

CALLBACKS = r"^/interactions/\d+/[^/]+/callback$"


async def test_the_outbox_is_woken_only_after_the_answer_is_sent(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    service = runner.bot.service
    # every interaction's hold on the wakes, to know when none still holds one back
    holds: list[WakeHold] = []
    make_hold = service.hold_wakes

    def tracked_hold() -> WakeHold:
        hold = make_hold()
        holds.append(hold)
        return hold

    service.hold_wakes = tracked_hold  # type: ignore[method-assign]
    # for every wake after a commit: how many interaction answers the fake had received then
    answers_seen: list[int] = []

    def heard(_campaign: int) -> None:
        answers_seen.append(len(fake.requests_to("POST", CALLBACKS)))
        fake.signal.fire()

    service.add_listener(heard)
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    daw = table.thread("DAW")
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")

    async def before_interaction() -> tuple[int, int]:
        """The wakes and answers so far, once no earlier interaction holds a wake back.

        /campaign start releases its wakes when its handling ends, which may come after its
        answer and after the outbox (in a pass begun before the start) posted the panel; a
        wake counted for the next interaction must be that interaction's own."""
        await fake.wait_for(
            lambda: not any(hold.held for hold in holds), what="the earlier wakes released"
        )
        return len(answers_seen), len(fake.requests_to("POST", CALLBACKS))

    async def woken_after_answer(what: str, wakes: int, answers: int) -> None:
        """The wakes since ``wakes`` all came once this interaction's answer had arrived."""
        await fake.wait_for(lambda: len(answers_seen) > wakes, what=f"the wake after {what}")
        assert min(answers_seen[wakes:]) == answers + 1, (what, answers_seen[wakes:])

    # a button: Done on the turn panel (step 1 ends)
    wakes, before = await before_interaction()
    done = await fake.click(alice, first, control(first, "done"))
    assert done.text.startswith("Step 1 Trade is over."), done.text
    await woken_after_answer("the Done button", wakes, before)

    # slash commands: /buy in step 5 (step 4 ran by itself), then /done (step 5 ends)
    wakes, before = await before_interaction()
    bought = await fake.slash(alice, "buy", unit="Infantry", channel=daw)
    assert "Bought" in bought.text, bought.text
    await woken_after_answer("/buy", wakes, before)
    wakes, before = await before_interaction()
    ended = await fake.slash(alice, "done", channel=daw)
    assert ended.ephemeral and ended.text.startswith("Step 5 Buy is over."), ended.text
    await woken_after_answer("/done", wakes, before)
