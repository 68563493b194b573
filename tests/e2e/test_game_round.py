"""End-to-end: a whole game round of the skirmish scenario, played through slash commands and
clicks by three players, against the fake Discord, with scripted dice.

Rule IDs are cited where the test checks them:

* R-TURN-01 (turn order Dawnians, Orcs, Acherousians, then game round 2), R-TURN-02 (steps in
  order, ended with the panel's "Done" or ``/done``; Upkeep runs by itself), R-TURN-03 (only
  the active faction acts);
* R-BUY-01 (purchases with their effect), R-MUSTER-01 (mustered in step 8; what is left is
  placed by the bot, R-PBP-DEAD-03);
* R-MOVE-01, R-MOVE-02 (moves by destination; entering enemy units is an attack);
* R-COMBAT-02 (the attacker picks its battle), R-COMBAT-04, R-COMBAT-05, R-COMBAT-16 and
  R-GEN-08 (every die shown on one battle message, hits in bold), R-COMBAT-06 (the side hit
  chooses its casualty from a select), R-COMBAT-08 (press on, then withdraw after round 2),
  R-COMBAT-11 (a won battle takes the province);
* R-GEN-07 (private events in the faction's own thread), R-SETUP-02 (nobody acts for another
  player's faction), R-PBP-UMP-01 (the umpire's order is logged), R-PBP-NEG-01,
  R-PBP-NEG-02 (a thread between neighbours; none between non-neighbours);
* the bot is stopped mid-battle and a new bot on the same database carries on: the Withdraw
  button posted before the restart still works.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from caedes_bot.domain.records import OutboxStatus
from caedes_bot.persistence.tables import outbox
from tests.e2e.campaigns import thread_members
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import (
    QueuedDice,
    Table,
    battle,
    control,
    option_labels,
    option_values,
    panel,
    staffed_campaign,
    start_bot,
)
from tests.fakediscord import FakeDiscord, FakeUser, all_text, message_text


async def outbox_failures(database_url: str) -> list[str]:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(outbox.c.channel_key, outbox.c.kind, outbox.c.last_error).where(
                        outbox.c.status == OutboxStatus.FAILED
                    )
                )
            ).all()
    finally:
        await engine.dispose()
    return [f"{r.channel_key} {r.kind} {r.last_error}" for r in rows]


async def daw_turn_until_battles(fake: FakeDiscord, table: Table, alice: FakeUser) -> None:
    """Steps 1-6 of the Dawnians' first turn: buy by click and by command, move by both."""
    daw = table.thread("DAW")
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    assert f"<@{alice.id}>" in first["content"]  # the turn's ping goes to its player
    done = await fake.click(alice, first, control(first, "done"))
    assert done.ephemeral and "Step 1 Trade is over." in done.text
    # R-GEN-07: the collection is told to the Dawnians only
    assert "Collected 11 RP" in done.text
    assert "paid 2 RP. 19 RP left" in done.text  # step 4 ran by itself (R-TURN-02)
    buy_panel = await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    menu = await fake.click(alice, buy_panel, control(buy_panel, "buy"))
    assert menu.ephemeral and "You have 19 RP" in menu.text
    labels = option_labels(menu.reply, "kind")
    assert labels["U-DAW-01"] == "Dawnian Infantry - 3 RP - A2 D3 M1"
    bought = await fake.select(alice, menu.reply, control(menu.reply, "kind"), ["U-DAW-01"])
    assert "Bought 1 Dawnian Infantry for 3 RP. 16 RP left." in bought.text
    knights = await fake.slash(alice, "buy", unit="Knights", count=1, channel=daw)
    assert knights.ephemeral
    assert "Bought 1 Dawnian Knights for 6 RP. 10 RP left." in knights.text
    too_many = await fake.slash(alice, "buy", unit="Dawnian Knights", count=2, channel=daw)
    assert "R-BUY-02" in too_many.text and "at most 1" in too_many.text
    done = await fake.click(alice, buy_panel, control(buy_panel, "done"))
    assert "step 6 Move" in done.text
    # R-MOVE-01, R-MOVE-02: one Infantry from Harrowgate into Kestrel Downs, by the panel's selects
    move_panel = await panel(fake, table, "DAW", 1, showing="**Step 6 Move**")
    assert "Harrowgate: 2 Dawnian Infantry, 1 Dawnian Yeomen" in message_text(move_panel)
    stacks = await fake.click(alice, move_panel, control(move_panel, "move"))
    assert "harrowgate|U-DAW-01" in option_values(stacks.reply, "stack")
    where = await fake.select(
        alice, stacks.reply, control(stacks.reply, "stack"), ["harrowgate|U-DAW-01"]
    )
    one = await fake.select(alice, where.reply, control(where.reply, "count"), ["1"])
    destinations = option_labels(one.reply, "to")
    assert (
        destinations["kestrel-downs"]
        == "Kestrel Downs (hills, river) - Acherousian - 2 units - attack"
    )
    assert destinations["wolfsgate"] == "Wolfsgate (hills) - Orc - 2 units - attack"
    moved = await fake.select(alice, one.reply, control(one.reply, "to"), ["kestrel-downs"])
    assert "moved 1 Dawnian Infantry from Harrowgate to Kestrel Downs: **an attack**" in moved.text
    # ... and the rest of Harrowgate into Wolfsgate by /move
    moved = await fake.slash(
        alice,
        "move",
        units="1 Infantry, 1 Yeomen",
        **{"from": "Harrowgate"},
        to="Wolfsgate",
        channel=daw,
    )
    assert "moved 1 Dawnian Infantry, 1 Dawnian Yeomen from Harrowgate to Wolfsgate" in moved.text
    done = await fake.slash(alice, "done", channel=daw)
    assert "Dawnians (DAW) must fight at Kestrel Downs, Wolfsgate." in done.text


async def test_a_game_round_of_three_factions(
    fake: FakeDiscord, make_bot: MakeBot, database_url: str
) -> None:
    """R-TURN-01, R-TURN-02, R-TURN-03, R-BUY-01, R-BUY-02, R-MOVE-01, R-MOVE-02, R-COMBAT-01,
    R-COMBAT-02, R-COMBAT-04, R-COMBAT-05, R-COMBAT-06, R-COMBAT-08, R-COMBAT-11, R-COMBAT-16,
    R-GEN-07, R-GEN-08, R-SETUP-02, R-MUSTER-01, R-PBP-UMP-01, R-PBP-UMP-04, R-PBP-NEG-01,
    R-PBP-NEG-02: a whole game round of the skirmish by three players, as listed in the module
    docstring, with a restart mid-battle."""
    dice = QueuedDice()
    first_bot = await start_bot(make_bot, dice)
    alice, bob, carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    daw, orc, ach = table.thread("DAW"), table.thread("ORC"), table.thread("ACH")

    # R-PBP-NEG-01, R-PBP-NEG-02: the Dawnians and the Orcs are neighbours; the Orcs and the
    # Acherousians are not.
    talks = await fake.slash(alice, "negotiate", faction="Orcs", channel=daw)
    assert talks.ephemeral and "talks-daw-orc" in talks.text
    thread = await fake.wait_for(
        lambda: [c for c in fake.world.channels.values() if c["name"] == "talks-daw-orc"],
        what="the negotiation thread",
    )
    await fake.wait_for(
        lambda: thread_members(fake, thread[0]) >= {alice.id, bob.id, umpire.id},
        what="both players and the umpire in the negotiation thread",
    )
    assert carol.id not in thread_members(fake, thread[0])
    again = await fake.slash(bob, "negotiate", faction="DAW", channel=orc)
    assert f"<#{thread[0]['id']}>" in again.text  # reused, not made twice
    refused = await fake.slash(bob, "negotiate", faction="ACH", channel=orc)
    assert refused.ephemeral and "R-PBP-NEG-02" in refused.text and "not neighbours" in refused.text
    assert "Allowed: negotiate with 🌅 Dawnians (DAW)" in refused.text

    await daw_turn_until_battles(fake, table, alice)

    # R-COMBAT-02: the attacker picks Wolfsgate first from the panel.
    combat_panel = await panel(fake, table, "DAW", 1, showing="**Step 7 Combat**")
    assert option_values(combat_panel, "fight") == ["kestrel-downs", "wolfsgate"]
    dice.push(2)  # missile step: the Yeomen hits (2 against 2)
    fought = await fake.select(alice, combat_panel, control(combat_panel, "fight"), ["wolfsgate"])
    assert "The battle at Wolfsgate has begun" in fought.text
    assert "Waiting for 👹 Orcs (ORC)" in fought.text
    # R-COMBAT-06: the Orcs choose their casualty; their player is pinged in their thread.
    await fake.wait_for(
        lambda: any(
            "choose 1 casualty" in m["content"] and f"<@{bob.id}>" in m["content"]
            for m in fake.messages_in(orc)
        ),
        what="the Orcs' casualty ping",
    )
    wolfsgate = await battle(fake, table, "Wolfsgate", showing="choose 1 casualty")
    text = message_text(wolfsgate)
    assert "Dawnian Yeomen #6: **2** vs 2" in text  # R-GEN-08: the die, its unit and target
    assert sorted(option_values(wolfsgate, "pick")) == ["u12", "u13"]
    # a player who is not the Orcs' cannot choose for them (R-SETUP-02)
    not_yours = await fake.select(alice, wolfsgate, control(wolfsgate, "pick"), ["u12"])
    assert not_yours.ephemeral and "You do not play ORC" in not_yours.text
    dice.push(1, 7)  # melee: the Dawnian Infantry hits, the Orc Troopers miss
    chosen = await fake.select(bob, wolfsgate, control(wolfsgate, "pick"), ["u13"])
    assert "Casualties chosen: 1 Orc Wolfriders" in chosen.text
    assert "The battle at Wolfsgate is over: the attacker won" in chosen.text
    won = await battle(fake, table, "Wolfsgate", showing="The attacker won")
    assert "is held by 🌅 Dawnians (DAW)" in message_text(won)
    assert "Dawnian Infantry #5: **1** vs 2" in message_text(won)
    assert not won["components"]  # nothing owed any more
    await fake.wait_for(
        lambda: (
            "**🌅 Dawnians (DAW) takes Wolfsgate** from 👹 Orcs (ORC)."
            in all_text(fake.messages_in(table.announcements))
        ),
        what="the capture announced",
    )

    # The second battle: two hitless rounds, then a withdrawal (R-COMBAT-08).
    dice.push(9, 8, 7)
    kestrel_fight = await fake.slash(alice, "attack", province="Kestrel Downs", channel=daw)
    assert "The battle at Kestrel Downs has begun" in kestrel_fight.text
    kestrel = await battle(fake, table, "Kestrel Downs", showing="press on or withdraw")
    assert "Dawnian Infantry #4: 9 vs 2" in message_text(kestrel)
    dice.push(10, 9, 8)
    pressed = await fake.click(alice, kestrel, control(kestrel, "press"))
    assert "You press on" in pressed.text and "Round 2 at Kestrel Downs is over." in pressed.text
    kestrel = await battle(fake, table, "Kestrel Downs", showing="Round 2, melee step")

    # The bot stops mid-battle; a new one on the same database carries on, and the Withdraw
    # button posted before the restart still works.
    await first_bot.stop()
    second_bot = await start_bot(make_bot, dice)
    service = second_bot.bot.service
    withdrew = await fake.click(alice, kestrel, control(kestrel, "withdraw"))
    assert "You withdraw" in withdrew.text
    assert "The battle at Kestrel Downs is over: the attacker withdrew" in withdrew.text
    over = await battle(fake, table, "Kestrel Downs", showing="The attacker withdrew")
    text = message_text(over)
    assert "Round 1, melee step" in text and "Round 2, melee step" in text
    assert "Dawnian Infantry #4 to Harrowgate" in text
    assert not over["components"]

    done = await fake.slash(alice, "done", channel=daw)
    assert "step 8 Muster" in done.text
    # R-MUSTER-01: one by the panel's selects, one by /muster
    muster_panel = await panel(fake, table, "DAW", 1, showing="**Step 8 Muster**")
    kinds = await fake.click(alice, muster_panel, control(muster_panel, "muster"))
    places = await fake.select(alice, kinds.reply, control(kinds.reply, "kind"), ["U-DAW-01"])
    assert "corndale" in option_values(places.reply, "to")
    mustered = await fake.select(alice, places.reply, control(places.reply, "to"), ["corndale"])
    assert "mustered 1 Dawnian Infantry in Corndale" in mustered.text
    knights = await fake.slash(
        alice, "muster", unit="Dawnian Knights", province="Brightholm", channel=daw
    )
    assert "mustered 1 Dawnian Knights in Brightholm" in knights.text
    ended = await fake.click(alice, muster_panel, control(muster_panel, "done"))
    assert "Now playing: 👹 Orcs (ORC)" in ended.text

    # R-TURN-01: the Orcs' turn; R-TURN-03 and R-SETUP-02: nobody plays it for them.
    await panel(fake, table, "ORC", 1, showing="**Step 1 Trade**")
    not_now = await fake.slash(alice, "done", channel=daw)
    assert "R-TURN-03" in not_now.text and "not DAW's turn" in not_now.text
    not_yours = await fake.slash(alice, "done", faction="ORC", channel=daw)
    assert "You do not play ORC" in not_yours.text and "R-SETUP-02" in not_yours.text
    result = await fake.slash(bob, "done", channel=orc)
    assert "Trade is over" in result.text and "paid" in result.text  # upkeep too
    await panel(fake, table, "ORC", 1, showing="**Step 5 Buy**")
    troopers = await fake.slash(bob, "buy", unit="Troopers", channel=orc)
    assert "Bought 1 Orc Troopers for 3 RP." in troopers.text
    await fake.slash(bob, "done", channel=orc)  # step 5
    await fake.slash(bob, "done", channel=orc)  # step 6; no battle, so step 8
    orc_muster = await panel(fake, table, "ORC", 1, showing="**Step 8 Muster**")
    ended = await fake.click(bob, orc_muster, control(orc_muster, "done"))
    assert "placed by the bot" in ended.text  # R-PBP-DEAD-03

    # The Acherousians: the umpire moves step 1 on (logged), the player does the rest.
    await panel(fake, table, "ACH", 1, showing="**Step 1 Trade**")
    advanced = await fake.slash(umpire, "umpire advance", channel=ach)
    assert (
        advanced.ephemeral and "Moved on for" in advanced.text and "step 1 Trade" in advanced.text
    )
    audit = await service.audit_log(1)
    assert any(a.action == "order:UmpireAdvance" and a.user_id == umpire.id for a in audit)
    for _ in range(2):  # buy, move; upkeep runs by itself, no battle and nothing to muster
        await fake.slash(carol, "done", channel=ach)
    round_two = await panel(fake, table, "DAW", 2, showing="**Step 1 Trade**")
    assert round_two is not None

    # R-TURN-01: the order of the turns, as announced. #announcements also carries a map
    # picture after each turn, drawn as it is delivered, so its posts may come a little after
    # the panel in the orders thread: wait for the last one.
    await fake.wait_for(
        lambda: (
            "🌅 Dawnians (DAW) begins its turn (game round 2)"
            in all_text(fake.messages_in(table.announcements))
        ),
        what="the announcements of game round 2",
    )
    text = all_text(fake.messages_in(table.announcements))
    order = [
        text.index("🌅 Dawnians (DAW) begins its turn (game round 1)"),
        text.index("👹 Orcs (ORC) begins its turn (game round 1)"),
        text.index("Acherousians (ACH) begins its turn (game round 1)"),
        text.index("**Game round 2 begins.**"),
        text.index("🌅 Dawnians (DAW) begins its turn (game round 2)"),
    ]
    assert order == sorted(order)
    # R-GEN-07: private events stay in their own thread
    assert "Bought 1 Orc Troopers" in all_text(fake.messages_in(orc))
    assert "Bought 1 Orc Troopers" not in all_text(fake.messages_in(daw))
    assert "Bought 1 Orc Troopers" not in text

    state = await service.get_state(1)
    assert state.owners["wolfsgate"] == "DAW"
    placed = {(u.kind, u.location) for u in state.units.values()}
    assert {("U-DAW-01", "corndale"), ("U-DAW-04", "brightholm")} <= placed
    dice.assert_used_up()
    assert await outbox_failures(database_url) == []
