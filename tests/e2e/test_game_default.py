"""End-to-end on the shipped default scenario: the Dawnians' first turn by slash commands, the
look-up commands, autocomplete that offers only what is legal, and the turn passing on.

Rule IDs are cited where the test checks them: R-TURN-01, R-TURN-02 (the turn's steps in
order, then the Orcs), R-BUY-01 (a purchase and its effect), R-MOVE-01 (only units that can
move and reachable destinations are offered), R-MUSTER-01 (units left waiting are placed by
the bot at the end of step 8), R-GEN-07 (/status is private). Names are read in any case, with
near matches (no rule of play).
"""

from __future__ import annotations

import copy

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, control, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord, message_text


async def test_the_dawnians_first_turn_in_the_default_scenario(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-TURN-01, R-TURN-02, R-BUY-01, R-MOVE-01, R-MUSTER-01, R-GEN-07: the Dawnians' first
    turn by commands and clicks: private status, steps in order (a stale click refused), a
    purchase, a move among reachable places, a muster and the bot placing the rest, then the
    Orcs' turn."""
    dice = QueuedDice()
    await start_bot(make_bot, dice)
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, scenario="default", seats={"DAW": alice, "ORC": bob})
    daw = table.thread("DAW")
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    stale_copy = copy.deepcopy(first)

    # looking things up
    status = await fake.slash(alice, "status", channel=daw)
    assert status.ephemeral and "**12 RP** · commodities: 2 Grain" in status.text
    nosy = await fake.slash(bob, "status", faction="DAW", channel=table.thread("ORC"))
    assert nosy.ephemeral and "You do not play 🌅 Dawnians (DAW)" in nosy.text  # R-GEN-07
    misspelt = await fake.slash(alice, "province", name="Ormee", channel=daw)
    assert misspelt.ephemeral and "No province 'Ormee'. Did you mean Orme?" in misspelt.text
    orme = await fake.slash(alice, "province", name="orme", channel=daw)
    assert "Orme" in orme.text and "plains" in orme.text
    knights = await fake.slash(alice, "unit", name="dawnian knights", channel=daw)
    assert "**A5 D4 M2**" in knights.text and "(R-ATTR-VET-01)" in knights.text
    helped = await fake.slash(alice, "help", channel=daw)
    assert "step 1 Trade" in helped.text and "`/done`" in helped.text
    offered = await fake.autocomplete(alice, "province", "name", "", channel=daw)
    assert len(offered) == 25 and all(len(c["name"]) < 100 for c in offered)
    assert offered[0]["name"].endswith("Dawnian - 6 units")  # own places first: Brightholm
    assert offered[0]["value"] == "brightholm"

    # R-TURN-02: the steps in order; Redeem waits for the Grain the Dawnians hold, Collect and
    # Upkeep run by themselves
    for step in ("1 Trade", "2 Redeem"):
        await panel(fake, table, "DAW", 1, showing=f"**Step {step}**")
        done = await fake.slash(alice, "done", channel=daw)
        assert f"Step {step} is over." in done.text
    assert "Upkeep: " in done.text and "paid" in done.text
    await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    old = await fake.click(alice, stale_copy, control(stale_copy, "done"))
    assert old.text.startswith(
        "That button was for step 1 Trade, which is over; the turn is now at step 5 Buy."
    )
    assert "R-TURN-02" in old.text

    units = await fake.autocomplete(alice, "buy", "unit", "", channel=daw)
    assert units[0]["value"] == "U-DAW-01" and units[0]["name"].startswith(
        "Dawnian Infantry - 3 RP"
    )
    bought = await fake.slash(alice, "buy", unit="infantry", count=2, channel=daw)
    assert "Bought 2 Dawnian Infantry for 6 RP." in bought.text  # R-BUY-01
    await fake.slash(alice, "done", channel=daw)

    # R-MOVE-01: autocomplete offers stacks that can move and places they can reach
    stacks = await fake.autocomplete(
        alice, "move", "units", "", channel=daw, **{"from": "Brightholm"}
    )
    values = [c["value"] for c in stacks]
    assert "1xU-DAW-04@brightholm" in values and not any("U-DAW-08" in v for v in values)
    places = await fake.autocomplete(
        alice,
        "move",
        "to",
        "",
        channel=daw,
        units="1xU-DAW-04@brightholm",
        **{"from": "brightholm"},
    )
    assert places and all(c["value"] != "brightholm" for c in places)
    target = places[0]["value"]
    moved = await fake.slash(
        alice,
        "move",
        units="1xU-DAW-04@brightholm",
        **{"from": "brightholm"},
        to=target,
        channel=daw,
    )
    assert "moved 1 Dawnian Knights from Brightholm" in moved.text
    where = await fake.slash(
        alice, "move", units="1 Knights", **{"from": "Brightholm"}, to="Nowhere", channel=daw
    )
    assert "No province 'Nowhere'" in where.text
    await fake.slash(alice, "done", channel=daw)

    # R-MUSTER-01: one placed by /muster, the other by the bot when the step ends
    muster = await panel(fake, table, "DAW", 1, showing="**Step 8 Muster**")
    places = await fake.autocomplete(alice, "muster", "province", "", channel=daw, unit="U-DAW-01")
    assert [c["value"] for c in places][:1] == ["brightholm"]
    placed = await fake.slash(
        alice, "muster", unit="Dawnian Infantry", province="Brightholm", channel=daw
    )
    assert "mustered 1 Dawnian Infantry in Brightholm" in placed.text
    ended = await fake.click(alice, muster, control(muster, "done"))
    assert "placed by the bot" in ended.text and "Now playing: 👹 Orcs (ORC)" in ended.text

    # R-TURN-01: the Orcs are next; their player is pinged on their panel
    orc_panel = await panel(fake, table, "ORC", 1, showing="**Step 1 Trade**")
    assert f"<@{bob.id}>" in orc_panel["content"]
    closed = await panel(fake, table, "DAW", 1, showing="This turn is over.")
    assert not closed["components"]
    status = await fake.click(bob, orc_panel, control(orc_panel, "status"))
    assert status.ephemeral and "Orcs (ORC) · status" in message_text(status.reply)
    assert umpire.id != bob.id
    dice.assert_used_up()
