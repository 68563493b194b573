"""End-to-end: the scheduler's reminder reaches the faction's orders thread and pings only its
player (R-PBP-DEAD-02: reminders are sent before each deadline)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.e2e.campaigns import start_campaign
from tests.e2e.conftest import MakeBot
from tests.fakediscord import FakeDiscord


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_turn_reminder_pings_the_player_in_the_orders_thread(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-PBP-DEAD-02."""
    clock = Clock()
    runner = await make_bot(scheduler_options={"clock": clock})
    alice = fake.players[0]
    found = await start_campaign(fake, players={"DAW": alice})
    thread = found["orders:DAW"]
    messages = fake.world.messages[int(thread["id"])]

    def reminders() -> list[dict[str, object]]:
        return [m for m in messages if str(m["content"]).find("Reminder") >= 0]

    assert reminders() == []
    service = runner.bot.service
    (campaign,) = await service.campaigns()
    (deadline,) = await service.deadlines(campaign.id)
    assert deadline.decision_key == "turn:1:DAW" and deadline.reminder_at is not None
    # just after the reminder time, before the deadline itself
    clock.now = deadline.reminder_at + timedelta(seconds=1)
    assert clock.now < deadline.due_at
    runner.bot.scheduler.wake()
    await fake.wait_for(reminders, what="the reminder")
    (reminder,) = reminders()
    assert str(reminder["content"]).startswith(f"<@{alice.id}> Reminder: DAW")
    assert "<t:" in str(reminder["content"])
    assert reminder["mentions"] == [alice.user_payload()]
