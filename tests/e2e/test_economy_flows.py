"""End-to-end: trade offers answered twice, upkeep shortfalls settled by the player and by
default, and what ``/status`` and the turn panel show (issue 5), through the real bot and the
fake Discord.

Figures worked out by hand from the scenario files and the rules catalogue:

* Skirmish (``skirmish.toml``): the Dawnians and the Orcs start with 10 RP each and no
  commodities. The Dawnians hold Brightholm (5 RP, 2 Grain), Harrowgate (3 RP, 1 Livestock)
  and Corndale (3 RP, 1 Grain), each with a unit in it, and have 7 units, all counted for
  upkeep: ceil(7/6) = 2 RP (R-UPK-01).
* Default scenario (``default.toml``), the Dawnians: 12 RP, 2 Grain, five provinces and 13
  units, placed first, so their ids follow the scenario's order: Brightholm 1 Tower, 2 and 3
  Infantry, 4 Yeomen, 5 Knights, 6 Aldric the Dawnbringer (a Hero, no cost); Lanternfield 7
  Infantry, 8 Yeomen; Harrowgate 9 Infantry, 10 Knights; Corndale 11 Infantry; Vigil of Bor
  12 Infantry, 13 Crossbowmen. List costs: Infantry 3, Yeomen 4, Crossbowmen 5, Knights 6,
  Tower 18 (section 15).

  To make RP fall short the umpire gives all five provinces to nobody (so step 3 collects
  nothing, R-COLL-04) and sets the Dawnians' RP to ``r``. Step 4: 13 units cost ceil(13/6) =
  3 RP (R-UPK-01). The fewest units that must go leave at most 6r units (ceil(M/6) <= r):

  - r = 1: 13 - 6 = 7 must go; 6 units then cost 1 RP, paid, 0 RP left (R-UPK-03, R-BUY-02).
    The default (R-UPK-03) takes the cheapest first: the six Infantry (3 RP), most recently
    mustered first (12, 11, 9, 7, 3, 2), then one of the two Yeomen (4 RP), the more recent (8).
    Aldric, a Hero, stays although he costs nothing (Heroes last). Left: 1, 4, 5, 6, 10, 13.
  - r = 2: 13 - 12 = 1 must go: the most recently mustered Infantry, 12. The other 12 units
    cost 2 RP, paid, 0 RP left.
"""

from __future__ import annotations

import asyncio
import copy
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from caedes_bot.app import CaedesBot
from caedes_bot.rules.state import GameState, Step
from tests.e2e.conftest import FAST_OUTBOX, MakeBot
from tests.e2e.gameplay import (
    JSON,
    QueuedDice,
    Table,
    control,
    panel,
    staffed_campaign,
    start_bot,
)
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, FakeUser, all_text, message_text

DAW_PROVINCES = ("Brightholm", "Lanternfield", "Harrowgate", "Corndale", "Vigil of Bor")

#: The Dawnians' units in the default scenario (ids in the scenario's order, see above).
DAW_UNITS = set(range(1, 14))
#: What the default disbands with 1 RP against a 3 RP bill, in its order (R-UPK-03).
DEFAULT_AT_1_RP = [12, 11, 9, 7, 3, 2, 8]


class Clock:
    """A clock the test moves by hand, shared by the service, the scheduler and the outbox so
    that deadlines, their firing and deliveries all read the same time."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


# --------------------------------------------------------------------------- helpers


def offer_id(text: str) -> int:
    """The number of the offer named in the proposer's answer ("Trade offer #N: ...")."""
    match = re.search(r"Trade offer #(\d+):", text)
    assert match, text
    return int(match[1])


async def offer_message(fake: FakeDiscord, table: Table, faction: str, number: int) -> JSON:
    """The offer ``number`` posted in ``faction``'s orders thread, with its buttons."""

    def find() -> JSON | None:
        for m in fake.messages_in(table.thread(faction)):
            if f"Trade offer #{number}:" in m["content"] and m.get("components"):
                return m
        return None

    found: JSON = await fake.wait_for(find, what=f"offer #{number} in the {faction} thread")
    return found


async def closed(fake: FakeDiscord, message: JSON) -> None:
    """Wait until an offer message has been edited to its answer, without buttons."""
    await fake.wait_for(
        lambda: "done" in message["content"] and not message["components"],
        what="the offer closed",
    )


async def propose(fake: FakeDiscord, table: Table, player: FakeUser, **terms: Any) -> int:
    sent = await fake.slash(player, "trade offer", to="ORC", channel=table.thread("DAW"), **terms)
    assert sent.ephemeral and "Trade offer #" in sent.text, sent.text
    return offer_id(sent.text)


def accepted(text: str, number: int) -> bool:
    return f"Trade #{number} done:" in text


def refused_as_answered(text: str, number: int) -> bool:
    """The clear refusal of an offer that is no longer open (R-TRADE-02): from the command or
    button, which look first, or from the rules, when two answers race."""
    gone = f"Trade offer #{number} is not open" in text or f"no open trade offer #{number}" in text
    return gone and "R-TRADE-02" in text


async def starve(fake: FakeDiscord, table: Table, rp: int) -> None:
    """As the umpire (R-PBP-UMP-01), in step 1 of the Dawnians' first turn: give their five
    provinces to nobody, so that step 3 collects nothing, and set their RP to ``rp``."""
    talk = table.found["table-talk"]
    for name in DAW_PROVINCES:
        given = await fake.slash(table.umpire, "umpire set owner", province=name, channel=talk)
        assert f"The umpire gave {name} to nobody" in given.text, given.text
    set_rp = await fake.slash(table.umpire, "umpire set rp", faction="DAW", rp=rp, channel=talk)
    assert f"set its RP from 12 to {rp}" in set_rp.text, set_rp.text


async def to_upkeep(fake: FakeDiscord, table: Table, player: FakeUser) -> str:
    """End steps 1 and 2 from the turn panel; returns the answer that shows step 4 opening."""
    trade = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await fake.click(player, trade, control(trade, "done"))
    redeem = await panel(fake, table, "DAW", 1, showing="**Step 2 Redeem**")
    shown = await fake.click(player, redeem, control(redeem, "done"))
    assert shown.ephemeral
    return shown.text


async def short_campaign(
    fake: FakeDiscord, player: FakeUser, rp: int, *, name: str = "Seven Swords"
) -> tuple[Table, str]:
    """A default-scenario campaign whose Dawnians (``player``) reach step 4 with ``rp`` RP and
    no income; returns the table and the answer that opened step 4."""
    table = await staffed_campaign(fake, scenario="default", seats={"DAW": player}, name=name)
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await starve(fake, table, rp)
    return table, await to_upkeep(fake, table, player)


def caedes(runner: BotRunner) -> CaedesBot:
    """The runner's bot, typed."""
    assert isinstance(runner.bot, CaedesBot)
    return runner.bot


def unit_ids(state: GameState, faction: str) -> set[int]:
    return {u.id for u in state.units_of(faction)}


def select_of(message: JSON) -> JSON:
    """The one string select on ``message``."""
    for row in message.get("components") or []:
        for c in row.get("components") or []:
            if c.get("type") == 3:
                found: JSON = c
                return found
    raise AssertionError(f"no select on the message: {message.get('components')}")


async def disbanded_events(runner: BotRunner, campaign_id: int) -> list[dict[str, Any]]:
    return [
        e.payload
        for e in await caedes(runner).service.events(campaign_id)
        if e.type == "UnitsDisbanded"
    ]


# --------------------------------------------------------------------------- 1. double Accept


async def test_an_offer_accepted_twice_is_carried_out_once(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-TRADE-02: accepting executes the trade once; a second Accept, whether clicked at the
    same moment, clicked again later on the same message, or given by ``/trade accept``, is
    refused privately and moves nothing. R-SETUP-02: a member who does not play the
    counterparty cannot accept for it, by command or by button.

    By hand (skirmish, the umpire gives the Dawnians 2 Grain first; DAW 10 RP, ORC 10 RP):
    A: DAW give 2 RP and 1 Grain, ORC give 1 RP -> DAW 9 RP 1 Grain, ORC 11 RP 1 Grain;
    B: DAW give 1 RP -> DAW 8, ORC 12; C: DAW give 1 RP, ORC give 2 RP -> DAW 9, ORC 11;
    D: DAW give 1 Grain -> DAW 0 Grain, ORC 2 Grain. Each executed twice would leave other
    figures (A twice: DAW 8 RP, 0 Grain), so the state tells."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    talk = table.found["table-talk"]
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    grain = await fake.slash(
        umpire, "umpire set commodity", faction="DAW", commodity="grain", count=2, channel=talk
    )
    assert "set its Grain from 0 to 2" in grain.text, grain.text
    service = caedes(runner).service

    # A: two clicks on Accept at the same moment
    a = await propose(fake, table, alice, give_rp=2, give="1 grain", get_rp=1)
    offer_a = await offer_message(fake, table, "ORC", a)
    seen = copy.deepcopy(offer_a)  # both clicks come from the message as Bob saw it
    first, second = await asyncio.gather(
        fake.click(bob, seen, control(seen, "accept")),
        fake.click(bob, seen, control(seen, "accept")),
    )
    answers = sorted([first.text, second.text], key=lambda t: not accepted(t, a))
    assert first.ephemeral and second.ephemeral
    assert accepted(answers[0], a), answers
    assert refused_as_answered(answers[1], a), answers[1]
    await closed(fake, offer_a)
    state = await service.get_state(1)
    assert (state.factions["DAW"].rp, state.factions["DAW"].commodities) == (9, {"grain": 1})
    assert (state.factions["ORC"].rp, state.factions["ORC"].commodities) == (11, {"grain": 1})

    # B: one click, then a second on the same message as it was before the first answer
    b = await propose(fake, table, alice, give_rp=1)
    offer_b = await offer_message(fake, table, "ORC", b)
    stale = copy.deepcopy(offer_b)
    once = await fake.click(bob, offer_b, control(offer_b, "accept"))
    assert accepted(once.text, b), once.text
    await closed(fake, offer_b)
    again = await fake.click(bob, stale, control(stale, "accept"))
    assert again.ephemeral and refused_as_answered(again.text, b), again.text
    state = await service.get_state(1)
    assert (state.factions["DAW"].rp, state.factions["ORC"].rp) == (8, 12)

    # C: the button and /trade accept at the same moment, then /trade accept once more
    c = await propose(fake, table, alice, give_rp=1, get_rp=2)
    offer_c = await offer_message(fake, table, "ORC", c)
    by_button, by_command = await asyncio.gather(
        fake.click(bob, offer_c, control(offer_c, "accept")),
        fake.slash(bob, "trade accept", offer=str(c), channel=table.thread("ORC")),
    )
    texts = [by_button.text, by_command.text]
    assert by_button.ephemeral and by_command.ephemeral
    assert sum(accepted(t, c) for t in texts) == 1, texts
    assert sum(refused_as_answered(t, c) for t in texts) == 1, texts
    late = await fake.slash(bob, "trade accept", offer=str(c), channel=table.thread("ORC"))
    assert late.ephemeral and refused_as_answered(late.text, c), late.text
    state = await service.get_state(1)
    assert (state.factions["DAW"].rp, state.factions["ORC"].rp) == (9, 11)

    # D: Carol (Acherousians) tries to accept the Orcs' offer: by command, then by the button
    # once Bob has brought her into his thread
    d = await propose(fake, table, alice, give="1 grain")
    offer_d = await offer_message(fake, table, "ORC", d)
    by_carol = await fake.slash(carol, "trade accept", offer=str(d), channel=table.thread("ACH"))
    assert by_carol.ephemeral and "You do not play ORC" in by_carol.text, by_carol.text
    assert "R-SETUP-02" in by_carol.text
    fake.world.add_thread_member(bob.id, int(table.thread("ORC")["id"]), carol.id)
    clicked = await fake.click(carol, offer_d, control(offer_d, "accept"))
    assert clicked.ephemeral and "You do not play ORC" in clicked.text, clicked.text
    state = await service.get_state(1)
    assert [o.id for o in state.trades] == [d]  # still open, nothing moved
    assert state.factions["DAW"].commodities == {"grain": 1}
    assert state.factions["ORC"].commodities == {"grain": 1}
    assert offer_d["components"], "the offer keeps its buttons for the Orcs"
    done = await fake.click(bob, offer_d, control(offer_d, "accept"))
    assert accepted(done.text, d), done.text
    state = await service.get_state(1)
    assert state.factions["DAW"].commodities == {} and state.factions["ORC"].commodities == {
        "grain": 2
    }
    assert (state.factions["DAW"].rp, state.factions["ORC"].rp) == (9, 11)

    executed = [e.payload for e in await service.events(1) if e.type == "TradeExecuted"]
    assert sorted(p["trade_id"] for p in executed) == [a, b, c, d]  # each exactly once
    await fake.wait_for(
        lambda: (
            all_text(fake.messages_in(table.announcements)).count(
                "🌅 Dawnians (DAW) and 👹 Orcs (ORC) traded."
            )
            == 4
        ),
        what="four public notices, one per trade",
    )


# --------------------------------------------------------------------------- 2 and 3. upkeep


async def test_upkeep_shortfall_settled_by_the_player_then_by_the_deadline_elsewhere(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-UPK-03, R-UPK-01, R-BUY-02, R-PBP-DEAD-03: two campaigns of one bot, each with the
    Dawnians at step 4 with 1 RP against a 3 RP bill (see the module docstring).

    In the first, Alice must choose: "Pay upkeep" is refused, the Disband… select asks for at
    least 7 units, 6 units (sent past the select's minimum) are refused, then her 7 are
    disbanded (the Tower, both Knights, both Yeomen, the Crossbowmen and Corndale's Infantry:
    ids 1, 4, 5, 8, 10, 13, 11) and 1 RP is paid: 0 RP, units 2, 3, 6, 7, 9, 12 left.

    In the second, Bob lets the turn deadline pass: the bot disbands the default 12, 11, 9, 7,
    3, 2, 8 and pays 1 RP; units 1, 4, 5, 6, 10, 13 are left, 0 RP; the first campaign's
    units are untouched."""
    clock = Clock()
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory(), "clock": clock},
        scheduler_options={"clock": clock},
        outbox_options={**FAST_OUTBOX, "clock": clock},
    )
    alice, bob = fake.players[:2]
    service = caedes(runner).service

    # --- campaign 1: Alice chooses
    first, opened = await short_campaign(fake, alice, 1)
    assert "Upkeep due: 13 units cost 3 RP: a bill of 3 RP; you hold 1 RP" in opened
    assert "You must disband at least 7 of them before paying (R-UPK-03)" in opened
    upkeep = await panel(fake, first, "DAW", 1, showing="**Step 4 Upkeep**")
    assert "disband at least 7 units to pay upkeep (R-UPK-03)" in message_text(upkeep)

    pay = await fake.click(alice, upkeep, control(upkeep, "done"))
    assert pay.ephemeral and "R-UPK-03" in pay.text and "at least 7" in pay.text, pay.text

    menu = await fake.click(alice, upkeep, control(upkeep, "disband"))
    assert menu.ephemeral and "7 of the units that count must go, and no more" in menu.text
    pick = select_of(menu.reply)
    assert (pick["min_values"], pick["max_values"]) == (7, 7)
    assert {int(o["value"]) for o in pick["options"]} == DAW_UNITS

    tampered = copy.deepcopy(menu.reply)  # a client that ignores the select's minimum
    select_of(tampered)["min_values"] = 1
    six = ["1", "4", "5", "8", "10", "13"]
    too_few = await fake.select(alice, tampered, pick["custom_id"], six)
    assert too_few.ephemeral and "R-UPK-03" in too_few.text, too_few.text
    assert "At least 7 of the 13 units that count must go" in too_few.text
    state = await service.get_state(1)
    assert unit_ids(state, "DAW") == DAW_UNITS and state.factions["DAW"].rp == 1
    assert state.step is Step.UPKEEP and state.pending

    select_of(tampered)["max_values"] = 13  # and its maximum: one more than the bill needs
    too_many = await fake.select(alice, tampered, pick["custom_id"], [*six, "11", "12"])
    assert too_many.ephemeral and "R-UPK-03" in too_many.text, too_many.text
    assert "needs the campaign option upkeep_waits" in too_many.text, too_many.text
    state = await service.get_state(1)
    assert unit_ids(state, "DAW") == DAW_UNITS and state.step is Step.UPKEEP

    gone = await fake.select(alice, menu.reply, pick["custom_id"], [*six, "11"])
    assert "disbanded to pay upkeep (R-UPK-03)" in gone.text, gone.text
    assert "Upkeep: 6 units cost 1 RP; paid 1 RP. 0 RP left (R-UPK-01)" in gone.text
    state = await service.get_state(1)
    assert state.factions["DAW"].rp == 0  # never below 0 (R-BUY-02)
    assert unit_ids(state, "DAW") == {2, 3, 6, 7, 9, 12}
    assert state.step is Step.BUY and state.active == "DAW" and not state.pending
    (chosen,) = await disbanded_events(runner, 1)
    assert [u[0] for u in chosen["units"]] == [1, 4, 5, 8, 10, 13, 11]
    assert chosen["rule"] == "R-UPK-03" and not chosen["by_default"]

    # --- campaign 2: Bob lets the deadline pass
    second, opened = await short_campaign(fake, bob, 1, name="Second Front")
    assert "You must disband at least 7 of them before paying (R-UPK-03)" in opened
    campaign = next(c for c in await service.campaigns() if c.name == "Second Front")
    deadline = next(
        d for d in await service.deadlines(campaign.id) if d.decision_key == "turn:1:DAW"
    )
    clock.now = deadline.due_at + timedelta(seconds=1)
    caedes(runner).scheduler.wake()
    await fake.wait_for(
        lambda: (
            "upkeep could not be paid (R-UPK-03)"
            in all_text(fake.messages_in(second.announcements))
        ),
        what="the default disbanding announced in the second campaign",
    )
    late = await service.get_state(campaign.id)
    assert unit_ids(late, "DAW") == {1, 4, 5, 6, 10, 13}  # Aldric the Hero stays
    assert late.factions["DAW"].rp == 0
    assert late.active == "ORC" and late.round == 1  # the rest of the turn was played passively
    (by_default,) = await disbanded_events(runner, campaign.id)
    assert [u[0] for u in by_default["units"]] == DEFAULT_AT_1_RP and by_default["by_default"]
    missed = all_text(fake.messages_in(second.announcements))
    assert "missed its turn deadline at step 4 Upkeep" in missed

    state = await service.get_state(1)
    assert unit_ids(state, "DAW") == {2, 3, 6, 7, 9, 12}  # the first campaign is untouched


async def test_upkeep_shortfall_settled_by_the_umpire_advancing(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-UPK-03, R-PBP-DEAD-04, R-UPK-01: the Dawnians hold 2 RP against a 3 RP bill for 13
    units, so one must go; ``/umpire advance`` answers by default: the most recently mustered
    of the six cheapest units (Infantry, 3 RP), unit 12 in Vigil of Bor; then the 12 units left
    cost 2 RP, paid, 0 RP; the turn goes on to step 5."""
    runner = await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table, opened = await short_campaign(fake, alice, 2)
    assert "a bill of 3 RP; you hold 2 RP" in opened
    assert "You must disband at least 1 of them before paying (R-UPK-03)" in opened
    moved = await fake.slash(table.umpire, "umpire advance", channel=table.found["table-talk"])
    assert moved.ephemeral
    assert "decision of 🌅 Dawnians (DAW) was answered by default (R-PBP-DEAD-04)" in moved.text
    assert "lost 1 Dawnian Infantry: upkeep could not be paid (R-UPK-03)" in moved.text
    assert "Upkeep: 12 units cost 2 RP; paid 2 RP. 0 RP left (R-UPK-01)" in moved.text
    state = await caedes(runner).service.get_state(1)
    assert unit_ids(state, "DAW") == DAW_UNITS - {12}
    assert state.factions["DAW"].rp == 0
    assert state.step is Step.BUY and state.active == "DAW" and not state.passive
    (by_default,) = await disbanded_events(runner, 1)
    assert [u[0] for u in by_default["units"]] == [12] and by_default["by_default"]
    await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")


async def test_upkeep_choice_offers_the_default(fake: FakeDiscord, make_bot: MakeBot) -> None:
    """R-UPK-03: when RP fall short, the choice in the orders thread offers the bot's default
    (units 12, 11, 9, 7, 3, 2 and 8 with 1 RP, see the module docstring): preselected in the
    Disband… select, and as a "Use default" control, which disbands exactly those; then
    R-UPK-01: the 6 units left cost 1 RP, paid, 0 RP left (R-BUY-02), and step 5 follows."""
    runner = await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table, _ = await short_campaign(fake, alice, 1)
    upkeep = await panel(fake, table, "DAW", 1, showing="**Step 4 Upkeep**")
    menu = await fake.click(alice, upkeep, control(upkeep, "disband"))
    preselected = {int(o["value"]) for o in select_of(menu.reply)["options"] if o.get("default")}
    controls = [
        c.get("custom_id", "")
        for m in (upkeep, menu.reply)
        for row in m.get("components") or []
        for c in row.get("components") or []
    ]
    offers_default = any(cid.endswith(":default") for cid in controls)
    assert preselected == set(DEFAULT_AT_1_RP) and offers_default
    assert "The bot's default is preselected" in menu.text, menu.text
    button = next(
        c
        for row in menu.reply["components"]
        for c in row["components"]
        if c.get("custom_id", "").endswith(":default")
    )
    assert button["label"] == "Use default: 6 Dawnian Infantry, 1 Dawnian Yeomen"

    stale = copy.deepcopy(menu.reply)  # the menu as it was, for a second click later
    used = await fake.click(alice, menu.reply, control(menu.reply, "default"))
    assert "disbanded to pay upkeep (R-UPK-03)" in used.text, used.text
    assert "Upkeep: 6 units cost 1 RP; paid 1 RP. 0 RP left (R-UPK-01)" in used.text
    state = await caedes(runner).service.get_state(1)
    assert unit_ids(state, "DAW") == {1, 4, 5, 6, 10, 13}
    assert state.factions["DAW"].rp == 0
    assert state.step is Step.BUY and not state.pending
    (chosen,) = await disbanded_events(runner, 1)
    assert [u[0] for u in chosen["units"]] == DEFAULT_AT_1_RP

    again = await fake.click(alice, stale, control(stale, "default"))
    assert again.ephemeral and "This choice has already been made" in again.text, again.text
    assert "R-UPK-03" in again.text and "current turn panel" in again.text
    assert unit_ids(await caedes(runner).service.get_state(1), "DAW") == {1, 4, 5, 6, 10, 13}


# --------------------------------------------------------------------------- 4. what is shown


async def test_status_and_panel_show_commodities_and_earmarks_to_the_faction_only(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-GEN-07, R-COMM-02, R-UPK-01, R-COLL-04: skirmish; the umpire gives the Dawnians 2
    Grain, Alice earmarks 1 in step 2. ``/status`` then shows 10 RP, 1 Grain in stock, 1 Grain
    earmarked and upkeep of 2 RP for 7 units; the panel shows the same treasury. Ending step 2
    collects 11 RP, 3 Grain and 1 Livestock (5 + 3 + 3 RP) and pays upkeep by itself
    (R-TURN-02): in step 5 the panel shows 21 - 2 = 19 RP, 4 Grain and 1 Livestock with 1 Grain
    still earmarked. Bob (Orcs) sees none of it: he cannot
    see the Dawnians' thread, ``/status`` for them is refused, and his own shows only his."""
    await start_bot(make_bot, QueuedDice())
    alice, bob = fake.players[:2]
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    daw, orc = table.thread("DAW"), table.thread("ORC")
    trade = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await fake.slash(
        table.umpire,
        "umpire set commodity",
        faction="DAW",
        commodity="grain",
        count=2,
        channel=table.found["table-talk"],
    )
    await fake.click(alice, trade, control(trade, "done"))
    await panel(fake, table, "DAW", 1, showing="**Step 2 Redeem**")
    earmarked = await fake.slash(alice, "redeem earmark", commodity="grain", count=1, channel=daw)
    assert "Earmarked 1 Grain for discounts this turn" in earmarked.text, earmarked.text

    status = await fake.slash(alice, "status", channel=daw)
    assert status.ephemeral
    assert "**10 RP** · commodities: 1 Grain" in status.text
    assert "Earmarked for discounts: 1 Grain (R-COMM-02)" in status.text
    assert "2 RP for 7 units (R-UPK-01)" in status.text
    redeem = await panel(fake, table, "DAW", 1, showing="Earmarked for discounts: 1 Grain")
    assert "**10 RP** · commodities: 1 Grain" in message_text(redeem)

    assert not fake.world.can_see(bob.id, int(daw["id"]))
    theirs = await fake.slash(bob, "status", faction="DAW", channel=orc)
    assert theirs.ephemeral and "You do not play 🌅 Dawnians (DAW)" in theirs.text
    assert "Grain" not in theirs.text
    own = await fake.slash(bob, "status", channel=orc)
    assert "**10 RP** · commodities: none" in own.text and "Earmarked" not in own.text

    await fake.click(alice, redeem, control(redeem, "done"))
    buy = await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    shown = message_text(buy)
    assert "**19 RP** · commodities: 4 Grain, 1 Livestock" in shown
    assert "Earmarked for discounts: 1 Grain (R-COMM-02)" in shown
    for place in (orc, table.announcements):
        text = all_text(fake.messages_in(place))
        assert "Earmarked" not in text and "Upkeep due" not in text and "19 RP" not in text


async def test_turn_panel_shows_the_upkeep_due(fake: FakeDiscord, make_bot: MakeBot) -> None:
    """R-UPK-01, R-GEN-07, R-TURN-02: before step 4 the Dawnians' ``/status`` shows the bill to
    come, 7 units cost ceil(7/6) = 2 RP; ending step 1 shows it in the answer and in
    their private thread, pays it (21 - 2 = 19 RP) and rests in step 5, with no click in
    step 4 and nothing of it in #announcements."""
    await start_bot(make_bot, QueuedDice())
    alice = fake.players[0]
    table = await staffed_campaign(fake, seats={"DAW": alice})
    daw = table.thread("DAW")
    trade = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    status = await fake.slash(alice, "status", channel=daw)
    assert "2 RP for 7 units (R-UPK-01)" in status.text
    done = await fake.click(alice, trade, control(trade, "done"))
    assert "Upkeep due: 7 units cost 2 RP: a bill of 2 RP; you hold 21 RP" in done.text
    assert "Upkeep: 7 units cost 2 RP; paid 2 RP. 19 RP left (R-UPK-01)." in done.text
    await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    await fake.wait_for(
        lambda: "paid 2 RP" in all_text(fake.messages_in(daw)), what="the bill in the thread"
    )
    assert "Upkeep" not in all_text(fake.messages_in(table.announcements))
