"""End-to-end: marking units to disband at upkeep with ``/disband``, and what the turn panel and
``/status`` list (R-UPK-02 and R-TURN-02 as ruled; decision 0007), in the skirmish scenario.

The Dawnians start with 7 units (Infantry #7 alone in Corndale) and, after step 3, 21 RP.
Marked units leave the board when step 4 begins; the bill is then ceil(N/6) RP on what is
left, paid without a click (the panel's own flow is in ``test_game_economy.py``).
"""

from __future__ import annotations

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import (
    QueuedDice,
    Table,
    control,
    panel,
    panels,
    staffed_campaign,
    start_bot,
)
from tests.fakediscord import FakeDiscord, message_text
from tests.fakediscord.limits import JSON

MARKED_7 = "Dawnian Infantry #7 in Corndale"


async def test_disband_toggles_a_mark_and_status_and_the_panel_list_it(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-UPK-02: in step 1 ``/disband`` marks Infantry #7 (its suggestion then says so and comes
    first); ``/status`` lists it and counts the next bill without it, ceil(6/6) = 1 RP for 6
    of 7 units, and so does the panel; ``/disband`` again takes the mark back and the lists are
    empty again. R-TURN-03: the Orcs cannot mark during the Dawnian turn."""
    await start_bot(make_bot, QueuedDice())
    alice, bob = fake.players[:2]
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    daw, orc = table.thread("DAW"), table.thread("ORC")
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")

    offered = await fake.autocomplete(alice, "disband", "unit", "", channel=daw)
    assert {c["value"]: c["name"] for c in offered}["7"] == MARKED_7
    assert len(offered) == 7

    marked = await fake.slash(alice, "disband", unit="7", channel=daw)
    assert marked.ephemeral
    assert f"Marked to disband at upkeep: {MARKED_7}." in marked.text
    assert "1 unit is marked; they are disbanded when step 4 begins (R-UPK-02)." in marked.text
    again = await fake.autocomplete(alice, "disband", "unit", "", channel=daw)
    assert again[0]["value"] == "7"
    assert again[0]["name"] == f"{MARKED_7} - marked (choose to take the mark back)"

    status = await fake.slash(alice, "status", channel=daw)
    assert "Marked to disband at upkeep (R-UPK-02)" in status.text
    assert MARKED_7 in status.text
    assert "1 RP for 6 units (of 7, once the marked units go) (R-UPK-01)" in status.text
    listed = await panel(fake, table, "DAW", 1, showing="Marked to disband at upkeep")
    assert MARKED_7 in message_text(listed)

    unmarked = await fake.slash(alice, "disband", unit="#7", channel=daw)
    assert f"Mark taken back: {MARKED_7}." in unmarked.text
    assert "No unit is marked to disband at upkeep (R-UPK-02)." in unmarked.text
    status = await fake.slash(alice, "status", channel=daw)
    assert "Marked to disband" not in status.text
    assert "2 RP for 7 units (R-UPK-01)" in status.text
    await fake.wait_for(
        lambda: "Marked to disband" not in message_text(panel_now(fake, table)),
        what="the panel without marks",
    )

    orcs = await fake.slash(bob, "disband", unit="8", channel=orc)
    assert "not ORC's turn" in orcs.text and "R-TURN-03" in orcs.text


async def test_a_mark_made_by_command_goes_when_step_4_runs_by_itself(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-UPK-02, R-TURN-02, R-UPK-01: Infantry #7 marked by ``/disband``; ``/done`` in step 1
    runs steps 3 and 4: #7 goes, 6 units pay 1 RP, 21 - 1 = 20 RP, and the turn rests in step 5.
    There ``/disband`` is refused (upkeep is over for the turn) and suggests nothing."""
    runner = await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    daw = table.thread("DAW")
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await fake.slash(alice, "disband", unit=MARKED_7, channel=daw)
    done = await fake.slash(alice, "done", channel=daw)
    assert "lost 1 Dawnian Infantry: marked to be disbanded at upkeep (R-UPK-02)" in done.text
    assert "Upkeep: 6 units cost 1 RP; paid 1 RP. 20 RP left (R-UPK-01)." in done.text
    await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    state = await runner.bot.service.get_state(1)
    assert "7" not in state.units and state.factions["DAW"].disband_marks == []

    late = await fake.slash(alice, "disband", unit="1", channel=daw)
    assert late.ephemeral and "(R-UPK-02)" in late.text and "next turn" in late.text
    assert await fake.autocomplete(alice, "disband", "unit", "", channel=daw) == []


def panel_now(fake: FakeDiscord, table: Table) -> JSON:
    """The Dawnians' latest turn panel."""
    return panels(fake, table, "DAW")[-1]


async def test_the_panel_menu_takes_every_mark_back_with_an_empty_choice(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-UPK-02: Infantry #7 and #6 marked by command; "Disband at upkeep…" preselects both;
    sending the select with nothing chosen takes both marks back, so step 4 disbands nothing
    and the 7 units pay ceil(7/6) = 2 RP: 21 - 2 = 19 RP."""
    runner = await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    daw = table.thread("DAW")
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    for unit in ("7", "6"):
        await fake.slash(alice, "disband", unit=unit, channel=daw)
    listed = await panel(fake, table, "DAW", 1, showing="#6 in Harrowgate")
    menu = await fake.click(alice, listed, control(listed, "disband"))
    options = menu.reply["components"][0]["components"][0]["options"]
    assert sorted(o["value"] for o in options if o.get("default")) == ["6", "7"]
    cleared = await fake.select(alice, menu.reply, control(menu.reply, "pick"), [])
    assert "Mark taken back:" in cleared.text and MARKED_7 in cleared.text
    assert "No unit is marked to disband at upkeep (R-UPK-02)." in cleared.text
    done = await fake.slash(alice, "done", channel=daw)
    assert "lost" not in done.text
    assert "Upkeep: 7 units cost 2 RP; paid 2 RP. 19 RP left (R-UPK-01)." in done.text
    assert len((await runner.bot.service.get_state(1)).units_of("DAW")) == 7
