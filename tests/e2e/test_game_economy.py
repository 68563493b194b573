"""End-to-end: trade in step 1 and redeem in step 2, through the bot (issue 5's Discord parts).

Rule IDs are cited where the test checks them: R-TRADE-01 (the active faction offers; a gift
is allowed), R-TRADE-02 (nobody gives more than it holds; the counterparty accepts with the
button in its thread and the trade is carried out at once; declined, withdrawn and lapsed
offers; the public learns only that two factions traded, option ``public_trade_log``
``parties_only``), R-GEN-07 (the offer is seen by the two parties only), R-COMM-02 and
R-COMM-04 (Grain earmarked in step 2 takes 1 RP off each Infantry bought in step 5),
R-COMM-09 (one discount per unit), R-COMM-02 (Iron that is not held cannot be redeemed),
R-UPK-01, R-UPK-02 and R-TURN-02 (units marked from the turn panel go when step 4 begins; the
bill is paid and the turn moves on without a click).
"""

from __future__ import annotations

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, control, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord, all_text


async def test_trade_offers_answered_by_button_and_by_command(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    daw, orc, ach = table.thread("DAW"), table.thread("ORC"), table.thread("ACH")
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")

    gift = await fake.slash(alice, "trade offer", to="Orcs", give_rp=3, channel=daw)
    assert gift.ephemeral and "Trade offer #" in gift.text
    offer = await fake.wait_for(
        lambda: next((m for m in fake.messages_in(orc) if "Trade offer #" in m["content"]), None),
        what="the offer in the Orcs' thread",
    )
    assert f"<@{bob.id}>" in offer["content"]  # the Orcs owe an answer: their player is pinged
    assert "🌅 Dawnians (DAW) give 3 RP; 👹 Orcs (ORC) give nothing" in offer["content"]
    assert "Trade offer #" not in all_text(fake.messages_in(ach))  # R-GEN-07
    accepted = await fake.click(bob, offer, control(offer, "accept"))
    assert accepted.ephemeral and "done: 🌅 Dawnians (DAW) give 3 RP" in accepted.text
    await fake.wait_for(
        lambda: "done" in offer["content"] and not offer["components"], what="the offer closed"
    )
    await fake.wait_for(
        lambda: (
            "🌅 Dawnians (DAW) and 👹 Orcs (ORC) traded."
            in all_text(fake.messages_in(table.announcements))
        ),
        what="the public notice without contents",
    )
    state = await runner.bot.service.get_state(1)
    assert state.factions["DAW"].rp == 7 and state.factions["ORC"].rp == 13

    short = await fake.slash(alice, "trade offer", to="ACH", give="1 grain", channel=daw)
    assert "You cannot offer more than you hold" in short.text and "R-TRADE-02" in short.text

    asked = await fake.slash(alice, "trade offer", to="ACH", give_rp=1, get_rp=1, channel=daw)
    assert "Trade offer #" in asked.text
    offers = await fake.autocomplete(carol, "trade decline", "offer", "", channel=ach)
    assert len(offers) == 1 and offers[0]["name"].startswith(f"#{offers[0]['value']} from Dawnians")
    declined = await fake.slash(carol, "trade decline", offer=offers[0]["value"], channel=ach)
    assert "was declined by" in declined.text
    twice = await fake.slash(carol, "trade accept", offer=offers[0]["value"], channel=ach)
    assert "is not open" in twice.text and "R-TRADE-02" in twice.text

    mine = await fake.slash(alice, "trade offer", to="ORC", give_rp=1, channel=daw)
    assert "Trade offer #" in mine.text
    withdrawable = await fake.autocomplete(alice, "trade withdraw", "offer", "", channel=daw)
    withdrawn = await fake.slash(
        alice, "trade withdraw", offer=withdrawable[0]["value"], channel=daw
    )
    assert "was withdrawn by" in withdrawn.text
    await fake.slash(alice, "trade offer", to="ORC", give_rp=2, channel=daw)
    ended = await fake.slash(alice, "done", channel=daw)
    assert "lapsed unanswered when step 1 ended" in ended.text
    await fake.wait_for(
        lambda: any("lapsed" in m["content"] for m in fake.messages_in(orc)),
        what="the lapsed offer shown in the Orcs' thread",
    )


async def test_redeem_earmarks_grain_for_cheaper_infantry(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """The Dawnians start the default scenario with 2 Grain and 12 RP."""
    await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, scenario="default", seats={"DAW": alice})
    daw = table.thread("DAW")
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await fake.slash(alice, "done", channel=daw)
    await panel(fake, table, "DAW", 1, showing="**Step 2 Redeem**")
    iron = await fake.slash(alice, "redeem iron", count=1, channel=daw)
    assert "You do not hold enough" in iron.text and "R-COMM-02" in iron.text
    earmarked = await fake.slash(alice, "redeem earmark", commodity="grain", count=2, channel=daw)
    assert "Earmarked 2 Grain for discounts this turn" in earmarked.text
    redeem_panel = await panel(fake, table, "DAW", 1, showing="Earmarked for discounts: 2 Grain")
    await fake.click(alice, redeem_panel, control(redeem_panel, "done"))  # steps 2, 3 and 4 over
    buy = await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    offered = await fake.autocomplete(alice, "buy", "unit", "infantry", channel=daw)
    assert offered[0]["name"].startswith("Dawnian Infantry - 2 RP")  # 3 RP less 1 Grain
    bought = await fake.slash(alice, "buy", unit="Dawnian Infantry", count=3, channel=daw)
    # two discounted (2 + 2), the third at full price (3): one Grain per unit (R-COMM-09)
    assert "Bought 3 Dawnian Infantry for 7 RP." in bought.text
    assert buy is not None


async def test_units_marked_on_the_panel_go_when_step_4_runs_by_itself(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-UPK-02: in step 1 "Disband at upkeep…" marks Infantry #7, and the panel lists it;
    R-TURN-02, R-UPK-01: ending step 1 runs steps 2 to 4 with no click: #7 goes, the other 6
    units cost ceil(6/6) = 1 RP (not ceil(7/6) = 2), 21 - 1 = 20 RP, and the panel is at step
    5. Opened again, the menu preselects the marked unit."""
    await start_bot(make_bot, QueuedDice())
    alice, bob = fake.players[:2]
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    trade = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    menu = await fake.click(alice, trade, control(trade, "disband"))
    options = menu.reply["components"][0]["components"][0]["options"]
    labels = {o["value"]: o["label"] for o in options}
    assert labels["7"] == "Dawnian Infantry #7 in Corndale"
    assert not any(o.get("default") for o in options)
    marked = await fake.select(alice, menu.reply, control(menu.reply, "pick"), ["7"])
    assert "Marked to disband at upkeep: Dawnian Infantry #7 in Corndale." in marked.text
    listed = await panel(fake, table, "DAW", 1, showing="Marked to disband at upkeep")
    again = await fake.click(alice, listed, control(listed, "disband"))
    preselected = [
        o["value"]
        for o in again.reply["components"][0]["components"][0]["options"]
        if o.get("default")
    ]
    assert preselected == ["7"]
    shown = await fake.click(alice, listed, control(listed, "done"))
    assert "lost 1 Dawnian Infantry: marked to be disbanded at upkeep (R-UPK-02)" in shown.text
    assert "Upkeep due: 6 units cost 1 RP" in shown.text
    assert "paid 1 RP. 20 RP left" in shown.text
    await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
