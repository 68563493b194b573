"""End to end: a substitute takes a faction over mid-turn, /history shows a turn to each reader
what they may see, /undo takes back a purchase and is refused after a die roll, and a finished
campaign takes no more orders (R-PBP-UMP-01, R-SETUP-02, R-GEN-07, R-BUY-01, R-MAGIC-DIV-01).

The undo test plays a small scenario made from the shipped default one ("divination": the
Dawnians and the Orcs only): a Dawnian Wizard (#1, a Diviner) and Dawnian Infantry (#2) in
Harrowgate, owned by the Dawnians, and Orc Infantry (#3) in Kestrel Downs.
"""

from __future__ import annotations

import re
from dataclasses import replace

from caedes_bot.gamedata.model import Ruleset, Scenario, ScenarioFaction, ScenarioUnit
from tests.e2e.campaigns import thread_members
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import (
    QueuedDice,
    control,
    custom_ids,
    panel,
    panels,
    staffed_campaign,
    start_bot,
)
from tests.fakediscord import FakeDiscord, all_text


async def test_a_substitute_takes_over_mid_turn(fake: FakeDiscord, make_bot: MakeBot) -> None:
    """R-PBP-UMP-01, R-SETUP-02: in the Dawnians' step 1, the umpire hands them from Alice to
    Carol in one command. Carol joins the orders thread and is pinged there; Alice leaves it and
    can no longer give their orders; the panel is posted again and Carol's press on it ends the
    step; the deadline stays the turn's; the audit log says who replaced whom."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]
    service = runner.bot.service
    (deadline,) = await service.deadlines(1)

    refused = await fake.slash(
        alice, "campaign substitute", faction="DAW", member=carol, channel=talk
    )
    assert refused.ephemeral and "Only the umpire" in refused.text
    done = await fake.slash(
        umpire, "campaign substitute", faction="DAW", member=carol, channel=talk
    )
    assert done.ephemeral and f"<@{carol.id}> now plays" in done.text
    assert f"in place of <@{alice.id}>" in done.text
    daw = table.thread("DAW")
    await fake.wait_for(
        lambda: carol.id in thread_members(fake, daw) and alice.id not in thread_members(fake, daw),
        what="Carol in the Dawnians' orders thread in place of Alice",
    )
    await fake.wait_for(
        lambda: f"<@{carol.id}> now plays" in all_text(fake.messages_in(daw)),
        what="the notice pinging Carol in the orders thread",
    )
    await fake.wait_for(lambda: len(panels(fake, table, "DAW")) > 1, what="the panel again")
    await fake.wait_for(
        lambda: (
            f"is now played by <@{carol.id}>" in all_text(fake.messages_in(table.announcements))
        ),
        what="the public notice of the substitute",
    )
    assert (await service.players(1))["DAW"] == carol.id
    assert umpire.id in thread_members(fake, daw)  # R-PBP-UMP-04: the umpire stays
    (still,) = await service.deadlines(1)
    assert (still.decision_key, still.due_at) == (deadline.decision_key, deadline.due_at)

    old = await fake.slash(alice, "done", channel=talk)
    assert old.ephemeral and "is over" not in old.text
    assert (await service.get_state(1)).step.value == 1
    fresh = panels(fake, table, "DAW")[-1]
    assert fresh["id"] != first["id"]
    pressed = await fake.click(carol, fresh, control(fresh, "done"))
    assert "Step 1 Trade is over" in pressed.text
    audit = await fake.slash(umpire, "umpire audit", channel=talk)
    assert f"(umpire) handed the Dawnians to <@{carol.id}> in place of <@{alice.id}>" in audit.text


async def test_history_shows_each_reader_what_they_may_see(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-GEN-07: the umpire sets the Dawnians' RP during their turn. In /history of that turn,
    Alice (the Dawnians) reads the figures, Bob (the Orcs) only the public notice, the umpire
    both; a round never played is refused with what is allowed."""
    await start_bot(make_bot, QueuedDice())
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]
    await fake.slash(umpire, "umpire set rp", faction="DAW", rp=25, channel=talk)

    own = await fake.slash(alice, "history", channel=talk)
    assert own.ephemeral and "game round 1, the turn of" in own.text
    assert "The umpire set your RP" in own.text and "The umpire changed the RP" in own.text
    other = await fake.slash(bob, "history", round=1, faction="DAW", channel=talk)
    assert "The umpire changed the RP" in other.text and "set your RP" not in other.text
    assert "25" not in other.text
    umpires = await fake.slash(umpire, "history", channel=talk)
    assert "The umpire set your RP" in umpires.text
    never = await fake.slash(alice, "history", round=7, channel=talk)
    assert never.ephemeral and "game round from 1 to 1" in never.text


def _divination(shipped: Ruleset) -> Ruleset:
    base = shipped.scenarios["default"]
    scenario: Scenario = replace(
        base,
        id="divination",
        name="Stars over Harrowgate",
        factions=(ScenarioFaction("DAW", 10, {}, None), ScenarioFaction("ORC", 10, {}, None)),
        owners={"harrowgate": "DAW", "kestrel-downs": "ORC"},
        units=(
            ScenarioUnit("U-DAW-06", "harrowgate", 1),
            ScenarioUnit("U-DAW-01", "harrowgate", 1),
            ScenarioUnit("U-ORC-02", "kestrel-downs", 1),
        ),
        heroes={},
        alliances=(),
        fealty={},
    )
    return replace(shipped, scenarios={**shipped.scenarios, "divination": scenario})


async def test_undo_takes_back_a_purchase_and_is_refused_after_a_die_roll(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """Issue 16 /undo: in step 5 a purchase of Infantry (3 RP) is taken back by /undo and by
    the panel's Undo button; in step 6 a move may be taken back until the Wizard divines
    (R-MAGIC-DIV-01: dice 7 and 2, 5 Livestock), after which /undo is refused and the move
    stays."""
    dice = QueuedDice()
    await make_bot(service_options={"dice_factory": dice.factory()}, ruleset=_divination(ruleset))
    alice = fake.players[0]
    table = await staffed_campaign(fake, scenario="divination", seats={"DAW": alice})
    daw = table.thread("DAW")
    done = await fake.slash(alice, "done", channel=daw)  # steps 2 to 4 need nothing here
    assert "Step 1 Trade is over" in done.text
    await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    treasury = _rp((await fake.slash(alice, "status", channel=daw)).text)
    bought = await fake.slash(alice, "buy", unit="Infantry", channel=daw)
    assert "Dawnian Infantry" in bought.text
    undone = await fake.slash(alice, "undo", channel=daw)
    assert "Correction:" in undone.text
    await fake.slash(alice, "buy", unit="Infantry", channel=daw)

    def undo_button() -> bool:
        latest = panels(fake, table, "DAW")[-1]
        return any(c.endswith(":undo") for c in custom_ids(latest))

    await fake.wait_for(undo_button, what="the panel's Undo button in step 5")
    board = panels(fake, table, "DAW")[-1]
    clicked = await fake.click(alice, board, control(board, "undo"))
    assert "Correction:" in clicked.text
    assert _rp((await fake.slash(alice, "status", channel=daw)).text) == treasury

    await fake.slash(alice, "done", channel=daw)
    await panel(fake, table, "DAW", 1, showing="**Step 6 Move**")
    moved = await fake.slash(
        alice, "move", units="Infantry", to="Brightholm", channel=daw, **{"from": "Harrowgate"}
    )
    assert "moved 1 Dawnian Infantry" in moved.text
    dice.push(7, 2)
    divined = await fake.slash(alice, "divine", unit="#1", commodity="livestock", channel=daw)
    assert "rolled **7** and **2**: 5 Livestock" in divined.text
    refused = await fake.slash(alice, "undo", channel=daw)
    assert refused.ephemeral and "no order to take back" in refused.text
    status = await fake.slash(alice, "status", channel=daw)
    assert "Dawnian Infantry #2 in Brightholm" in status.text
    dice.assert_used_up()


def _rp(status: str) -> int:
    """The RP of a /status answer (``**12 RP**``)."""
    found = re.search(r"\*\*(\d+) RP\*\*", status)
    assert found is not None, status
    return int(found[1])


async def test_a_finished_campaign_takes_no_orders(fake: FakeDiscord, make_bot: MakeBot) -> None:
    """R-PBP-UMP-01: a player cannot finish the campaign; the umpire can. It is announced, its
    deadline is closed, its dice seed is revealed, and the next order is refused."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]
    refused = await fake.slash(alice, "campaign finish", channel=talk)
    assert refused.ephemeral and "Only the umpire" in refused.text
    done = await fake.slash(umpire, "campaign finish", channel=talk)
    assert done.ephemeral and "is finished" in done.text
    await fake.wait_for(
        lambda: (
            "has been finished by the umpire" in all_text(fake.messages_in(table.announcements))
        ),
        what="the notice in #announcements",
    )
    assert await runner.bot.service.deadlines(1) == []
    seed = (await runner.bot.service.get_state(1)).dice_seed
    await fake.wait_for(
        lambda: f"The dice seed was `{seed}`" in all_text(fake.messages_in(table.announcements)),
        what="the dice seed revealed (decision 0023)",
    )
    late = await fake.slash(alice, "done", channel=table.thread("DAW"))
    assert late.ephemeral and "is over; no orders are taken" in late.text
