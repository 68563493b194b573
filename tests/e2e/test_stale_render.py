"""End to end: a click on a control that the message no longer shows is answered.

Discord sends a component interaction with the message as it is when the member clicks. A
member who clicks a turn panel drawn a moment before its latest edit clicks a control the
message no longer holds; discord.py hands such a click to no dynamic item and would drop it
unanswered. The bot answers it as any other click: its custom id says what it is, and the
handler refuses it when the game has moved on (R-TURN-02), privately, changing nothing.
"""

from __future__ import annotations

import copy
import gc
import logging
from typing import Any

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import (
    QueuedDice,
    Table,
    control,
    custom_ids,
    panel,
    staffed_campaign,
    start_bot,
)
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.server import message_text


async def test_a_click_on_a_render_edited_since_is_answered_and_changes_nothing(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    alice, table, shown = await _at_trade(fake, make_bot)
    seen = copy.deepcopy(shown)  # what Alice's screen still shows
    ended = await fake.slash(alice, "done", channel=table.thread("DAW"))
    assert ended.text.startswith("Step 1 Trade is over."), ended.text
    now = await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    stale = control(seen, "done")
    assert stale not in custom_ids(now)

    clicked = await fake.click(alice, seen, stale)
    assert clicked.ephemeral, clicked.text
    assert "That button was for step 1 Trade, which is over" in clicked.text, clicked.text
    assert len(clicked.callbacks) == 1
    after = await panel(fake, table, "DAW", 1)
    assert "**Step 5 Buy**" in message_text(after)  # the turn did not move on


async def test_a_click_whose_control_is_still_shown_is_answered_once(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    alice, _table, shown = await _at_trade(fake, make_bot)
    clicked = await fake.click(alice, shown, control(shown, "done"))
    assert clicked.text.startswith("Step 1 Trade is over."), clicked.text
    assert len(clicked.callbacks) == 1 and not clicked.followups


async def _at_trade(fake: FakeDiscord, make_bot: MakeBot) -> tuple[FakeUser, Table, dict[str, Any]]:
    """A started campaign of three players: Alice (the Dawnians, first to play), the table,
    and her turn panel at step 1 Trade."""
    return (await _with_runner(fake, make_bot))[1]


async def _with_runner(
    fake: FakeDiscord, make_bot: MakeBot
) -> tuple[BotRunner, tuple[FakeUser, Table, dict[str, Any]]]:
    """:func:`_at_trade`, and the bot's runner."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    return runner, (alice, table, await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**"))


async def test_a_forged_click_naming_the_wrong_component_type_is_refused(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """A button's custom id sent as a select's choice (a forged click): discord.py finds no
    select with that id on the message and calls no dynamic item; the bot refuses it
    privately, and the step does not end."""
    alice, table, shown = await _at_trade(fake, make_bot)
    forged = await fake._component_interaction(
        alice,
        shown,
        control(shown, "done"),
        {"component_type": 3, "values": ["1"]},
        wait=True,
        timeout=30.0,
    )
    assert forged.ephemeral and len(forged.callbacks) == 1, forged.callbacks
    assert "Step 1 Trade is over." not in forged.text
    still = await panel(fake, table, "DAW", 1)
    assert "**Step 1 Trade**" in message_text(still)


def _discord_views_own(record: logging.LogRecord) -> bool:
    """Whether ``record`` is asyncio's report of discord.py's view task failing on a row
    wider than five (a forged message), and nothing of the bot's."""
    error = record.exc_info[1] if record.exc_info else None
    return (
        record.name == "asyncio" and isinstance(error, ValueError) and "would not fit" in str(error)
    )


async def test_a_forged_message_no_dynamic_item_takes_is_still_answered(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """A forged message (not one Discord sends: a button with an empty custom id, or a row
    of six buttons) makes discord.py call no dynamic item; the bot still answers the click,
    privately, once."""
    runner, (alice, table, shown) = await _with_runner(fake, make_bot)
    status = control(shown, "status")

    def button(custom_id: str) -> dict[str, Any]:
        return {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}

    rows = {
        "": [{"type": 1, "components": [button("")]}],
        status: [
            {
                "type": 1,
                "components": [*(button(f"caedes:1:zz.{n}:x") for n in range(5)), button(status)],
            }
        ],
    }
    for number, (custom_id, components) in enumerate(rows.items(), start=1):
        forged = {**copy.deepcopy(shown), "id": str(int(shown["id"]) + number)}
        forged["components"] = components
        # discord.py's own view task fails on a row of six (it cannot make a view of it) and
        # asyncio logs that task's exception; that error is discord.py's, not the bot's
        with runner.expect_errors() as records:
            clicked = await fake._component_interaction(
                alice, forged, custom_id, {"component_type": 2}, wait=True, timeout=30.0
            )
            gc.collect()  # the failed task is reported when it is freed
            assert clicked.ephemeral and len(clicked.callbacks) == 1, (custom_id, clicked.callbacks)
            assert all(_discord_views_own(r) for r in records), [r.getMessage() for r in records]
    still = await panel(fake, table, "DAW", 1)
    assert "**Step 1 Trade**" in message_text(still)
