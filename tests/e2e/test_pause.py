"""End-to-end: the umpire pauses and resumes a campaign (R-PBP-UMP-05 as ruled).

``/umpire pause`` is the umpire's alone; it is announced in #announcements, written to the
audit log and shown on the turn panel (which loses its controls). While paused, orders are
refused privately with what is wrong and what is allowed, and no deadline or reminder fires.
``/umpire resume`` gives each deadline the time it had left (at least one hour) and its
reminder moves with it. The bot's service, scheduler and outbox share one clock that the test
moves by hand; nothing sleeps.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

from caedes_bot.scheduler import TickReport
from tests.e2e.conftest import FAST_OUTBOX, MakeBot
from tests.e2e.gameplay import JSON, QueuedDice, Table, control, panel, panels, staffed_campaign
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, all_text, message_text


class Clock:
    """The bot's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


async def _bot(make_bot: MakeBot, clock: Clock) -> BotRunner:
    return await make_bot(
        service_options={"clock": clock, "dice_factory": QueuedDice().factory()},
        scheduler_options={"clock": clock},
        outbox_options={**FAST_OUTBOX, "clock": clock},
    )


def _latest_panel(fake: FakeDiscord, table: Table, faction: str) -> JSON:
    return panels(fake, table, faction)[-1]


def _announced(fake: FakeDiscord, table: Table, text: str) -> bool:
    return text in all_text(fake.messages_in(table.announcements))


async def test_only_the_umpire_pauses_and_it_is_announced_audited_and_on_the_panel(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    await _bot(make_bot, Clock())
    alice, _bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice})
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    assert control(first, "done")
    talk = table.found["table-talk"]

    refused = await fake.slash(alice, "umpire pause", channel=talk)
    assert refused.ephemeral and "Only the umpire of Seven Swords may pause" in refused.text
    assert "R-PBP-UMP-05" in refused.text and f"<@{umpire.id}>" in refused.text
    assert not _announced(fake, table, "paused")

    paused = await fake.slash(umpire, "umpire pause", channel=talk)
    assert paused.ephemeral and paused.text.startswith("Paused: announced in #announcements")
    assert "Time kept: the turn of the Dawnians: 1 h." in paused.text  # the 1 h turn
    await fake.wait_for(
        lambda: _announced(fake, table, "The umpire has paused **Seven Swords**"),
        what="the pause in #announcements",
    )
    shown = await panel(fake, table, "DAW", 1, showing="The campaign is paused")
    assert not shown.get("components")
    assert "paused; " in message_text(shown) and "left on resume" in message_text(shown)

    count = len(fake.messages_in(table.announcements))
    again = await fake.slash(umpire, "umpire pause", channel=talk)
    assert again.ephemeral and "is already paused (since <t:" in again.text
    assert "`/umpire resume`" in again.text
    audit = await fake.slash(umpire, "umpire audit", channel=talk)
    assert f"<@{umpire.id}> (umpire) paused the campaign" in audit.text
    assert len(fake.messages_in(table.announcements)) == count  # the refusal posted nothing

    resumed = await fake.slash(umpire, "umpire resume", channel=talk)
    assert resumed.ephemeral and resumed.text.startswith("Resumed: announced")
    back = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await fake.wait_for(
        lambda: bool(_latest_panel(fake, table, "DAW").get("components")),
        what="the panel's controls back",
    )
    assert "paused" not in message_text(_latest_panel(fake, table, "DAW"))
    assert back["id"] == first["id"]  # edited, not posted again
    running = await fake.slash(umpire, "umpire resume", channel=talk)
    assert "is not paused (it is under way); nothing changed" in running.text


async def test_orders_are_refused_while_paused_and_taken_after_the_resume(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await _bot(make_bot, Clock())
    alice, _bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice})
    before = copy.deepcopy(await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**"))
    talk = table.found["table-talk"]
    await fake.slash(umpire, "umpire pause", channel=talk)
    await panel(fake, table, "DAW", 1, showing="The campaign is paused")

    # a button on a panel the phone still shows from before the pause, and the command
    clicked = await fake.click(alice, before, control(before, "done"))
    typed = await fake.slash(alice, "done", channel=table.thread("DAW"))
    for refused in (clicked, typed):
        assert refused.ephemeral, refused.text
        assert "Seven Swords is paused by the umpire: no orders are taken" in refused.text
        assert "R-PBP-UMP-05" in refused.text
        assert "Allowed: looking things up" in refused.text and "/umpire resume" in refused.text
    state = await runner.bot.service.get_state(1)
    assert (state.active, state.step.label) == ("DAW", "1 Trade")
    looked = await fake.slash(alice, "status", channel=table.thread("DAW"))
    assert looked.ephemeral and "paused" not in looked.text  # looking up is allowed

    await fake.slash(umpire, "umpire resume", channel=talk)
    done = await fake.slash(alice, "done", channel=table.thread("DAW"))
    assert "Step 1 Trade is over." in done.text


async def test_no_deadline_fires_while_paused_and_resume_gives_the_time_left(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """The default scenario: the Dawnians' turn is due 24 h after it began, its reminder 2 h
    before. Paused 20 h in and left three days, the turn is not forfeited; resumed, it is due
    4 h later with its reminder 2 h later, and then it passes to the Orcs (R-PBP-DEAD-03)."""
    clock = Clock()
    runner = await _bot(make_bot, clock)
    service, scheduler = runner.bot.service, runner.bot.scheduler
    alice, _bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, scenario="default", seats={"DAW": alice})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]
    thread = table.thread("DAW")

    def reminders() -> list[JSON]:
        return [m for m in fake.messages_in(thread) if "Reminder" in str(m["content"])]

    (deadline,) = await service.deadlines(1)
    clock.now = deadline.due_at - timedelta(hours=4)
    await fake.slash(umpire, "umpire pause", channel=talk)
    clock.now += timedelta(days=3)
    assert await scheduler.tick() == TickReport()  # past both times: nothing fires
    scheduler.wake()
    assert reminders() == []
    assert (await service.get_state(1)).active == "DAW"

    resumed = await fake.slash(umpire, "umpire resume", channel=talk)
    due = clock.now + timedelta(hours=4)
    unix = int(due.timestamp())
    assert f"the turn of the Dawnians <t:{unix}:R>" in resumed.text
    (moved,) = await service.deadlines(1)
    assert (moved.due_at, moved.reminder_at, moved.reminded) == (
        due,
        due - timedelta(hours=2),
        False,
    )
    await fake.wait_for(
        lambda: _announced(fake, table, f"Deadlines: the turn of the Dawnians <t:{unix}:R>"),
        what="the resume in #announcements",
    )
    await panel(fake, table, "DAW", 1, showing=f"<t:{unix}:R>")
    assert await scheduler.tick() == TickReport()  # nothing is due at the resume

    clock.now = due - timedelta(hours=2, seconds=-1)
    scheduler.wake()
    (reminder,) = await fake.wait_for(reminders, what="the moved reminder")
    assert f"<t:{unix}:R>" in str(reminder["content"])
    assert (await service.get_state(1)).active == "DAW"

    clock.now = due + timedelta(seconds=1)
    scheduler.wake()
    await panel(fake, table, "ORC", 1, showing="**Step 1 Trade**")
    assert (await service.get_state(1)).active == "ORC"


async def test_a_panel_posted_again_while_paused_retires_the_old_one(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-PBP-UMP-05 with ``/panel``: the panel posted again while paused takes the old one's
    place; the old one is retired (no controls, saying it was posted again below and is no
    longer updated) instead of saying only "paused" for the rest of the game."""
    await _bot(make_bot, Clock())
    alice, _bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice})
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]
    await fake.slash(umpire, "umpire pause", channel=talk)
    await panel(fake, table, "DAW", 1, showing="The campaign is paused")
    again = await fake.slash(alice, "panel", channel=table.thread("DAW"))
    assert "posted again" in again.text, again.text
    await fake.wait_for(lambda: len(panels(fake, table, "DAW")) == 2, what="the panel again")
    await fake.slash(umpire, "umpire resume", channel=talk)
    await fake.wait_for(
        lambda: bool(_latest_panel(fake, table, "DAW").get("components")),
        what="the new panel's controls back",
    )

    def old() -> JSON:
        (found,) = [m for m in panels(fake, table, "DAW") if m["id"] == first["id"]]
        return found

    await fake.wait_for(
        lambda: "posted again below" in message_text(old()), what="the old panel retired"
    )
    assert "no longer updated" in str(old()["content"])
    assert not old().get("components")
    assert len(panels(fake, table, "DAW")) == 2  # no third copy
