"""End-to-end: what a careless or hostile player types, clicks twice, or has delivered twice,
through the real bot and the fake Discord (skirmish: Alice plays the Dawnians, Bob the Orcs,
Carol the Acherousians).

Every case gets a private, clear answer; none logs an ERROR (the fixtures fail the test on
one), none freezes the bot, and a refusal changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any, Literal

import pytest

from caedes_bot.rules.state import Step
from caedes_bot.ui.replies import APOLOGY_AFTER_ORDER
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import (
    QueuedDice,
    Table,
    battle,
    control,
    panel,
    staffed_campaign,
    start_bot,
)
from tests.e2e.harness import BotRunner
from tests.fakediscord import EPHEMERAL, FakeDiscord, InteractionRecord, message_text

JSON = dict[str, Any]

HUGE = "9" * 4400  # more digits than Python turns into an int


async def skirmish(fake: FakeDiscord, make_bot: MakeBot) -> tuple[BotRunner, Table]:
    """A started skirmish with scripted dice, the Dawnians' turn panel posted."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    return runner, table


async def test_huge_counts_are_refused_at_once_with_the_cap(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-COMM-10, R-MOVE-01: counts typed as text are capped at 99 of one item (10,000 in a
    trade) and read only once the campaign is known."""
    runner, table = await skirmish(fake, make_bot)
    alice = fake.players[0]
    daw = table.thread("DAW")

    outside = await fake.slash(alice, "redeem sets", sets="999999999 grain")
    assert outside.ephemeral and outside.text.startswith("This channel is not part of a campaign.")

    sets = await fake.slash(alice, "redeem sets", sets="999999999 grain", channel=daw)
    assert sets.ephemeral
    assert sets.text.startswith("At most 99 of one item: '999999999 grain' is too many.")
    assert "(R-COMM-10)" in sets.text

    give = await fake.slash(alice, "trade offer", to="ORC", give=HUGE + " grain", channel=daw)
    assert give.ephemeral and give.text.startswith("At most 10000 of one item: '9999")
    assert len(give.text) < 300

    many = await fake.slash(
        alice,
        "move",
        units="99999999999999999999999 Infantry",
        to="Wolfsgate",
        channel=daw,
        **{"from": "Harrowgate"},
    )
    assert many.text.startswith("At most 99 of one item") and "(R-MOVE-01)" in many.text
    negative = await fake.slash(
        alice, "move", units="-1 Infantry", to="Wolfsgate", channel=daw, **{"from": "Harrowgate"}
    )
    assert negative.text.startswith("Counts must be positive: '-1 Infantry'.")

    offer = await fake.slash(alice, "trade accept", offer=HUGE, channel=daw)
    assert offer.text.startswith("'9999") and "is not a trade offer number" in offer.text

    state = await runner.bot.service.get_state(1)
    assert state.step.label == "1 Trade" and not state.trades  # nothing changed


class Gate(asyncio.Lock):
    """Stands in for a campaign's lock: the test holds it until ``orders`` orders wait for it,
    so commands sent together really meet under the lock, whatever the timing."""

    def __init__(self, orders: int) -> None:
        super().__init__()
        self.orders = orders
        self.arrived = 0
        self.all_waiting = asyncio.Event()

    async def acquire(self) -> Literal[True]:
        self.arrived += 1
        if self.arrived > self.orders:  # the first acquire is the test's own
            self.all_waiting.set()
        return await super().acquire()


async def answers(fake: FakeDiscord, *records: InteractionRecord) -> list[str]:
    for record in records:
        await fake.answered(record)
    return [r.text for r in records]


async def test_r_turn_02_a_double_clicked_done_ends_one_step(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-TURN-02: both clicks carry step 1 Trade; the second is refused under the lock."""
    runner, table = await skirmish(fake, make_bot)
    alice = fake.players[0]
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    one = await fake.click(alice, first, control(first, "done"), wait=False)
    two = await fake.click(alice, first, control(first, "done"), wait=False)
    texts = sorted(await answers(fake, one, two))
    assert texts[0].startswith("Step 1 Trade is over.")
    assert texts[1] == (
        "That button was for step 1 Trade, which is over; the turn is now at step 5 Buy. "
        "(R-TURN-02)\nAllowed: the controls of the current turn panel, or /help"
    )
    state = await runner.bot.service.get_state(1)
    assert state.step is Step.BUY  # steps 3 and 4 ran by themselves


async def test_r_turn_02_done_typed_twice_at_once_ends_one_step(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-TURN-02: two /done read at step 6 Move meet under the lock: Move ends once (to step 8,
    where the bought Infantry waits); the second is refused, so Muster is not ended."""
    runner, table = await skirmish(fake, make_bot)
    alice = fake.players[0]
    daw = table.thread("DAW")
    await fake.slash(alice, "done", channel=daw)  # step 1; upkeep pays itself (R-TURN-02)
    await fake.slash(alice, "buy", unit="Infantry", channel=daw)
    await fake.slash(alice, "done", channel=daw)
    service = runner.bot.service
    assert (await service.get_state(1)).step is Step.MOVE
    gate = Gate(orders=2)
    service._locks.by_campaign[1] = gate  # the service's per-campaign lock, watched
    await gate.acquire()
    one = await fake.slash(alice, "done", channel=daw, wait=False)
    two = await fake.slash(alice, "done", channel=daw, wait=False)
    await asyncio.wait_for(gate.all_waiting.wait(), timeout=10)
    gate.release()
    texts = sorted(await answers(fake, one, two))
    assert texts[0].startswith("Step 6 Move is over.")
    assert texts[1].startswith(
        "That command was for step 6 Move, which is over; the turn is now at step 8 Muster."
    )
    state = await service.get_state(1)
    assert (state.active, state.step) == ("DAW", Step.MUSTER)


async def kestrel_round_one(fake: FakeDiscord, table: Table, dice: QueuedDice) -> JSON:
    """The Dawnians attack Kestrel Downs with 2 Infantry; round 1 misses all round (every die
    9): the attacker must press on or withdraw."""
    alice = fake.players[0]
    daw = table.thread("DAW")
    for _ in range(2):  # steps 1 and 5 (step 4 runs by itself)
        await fake.slash(alice, "done", channel=daw)
    await fake.slash(
        alice, "move", units="2 Infantry", to="Kestrel Downs", channel=daw, **{"from": "Harrowgate"}
    )
    await fake.slash(alice, "done", channel=daw)
    dice.push(9, 9, 9, 9)
    await fake.slash(alice, "attack", province="Kestrel Downs", channel=daw)
    return await battle(fake, table, "Kestrel Downs", showing="press on or withdraw")


async def test_r_combat_08_press_on_and_withdraw_at_once_apply_one(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-COMBAT-08: both buttons name the same decision; whichever comes second is refused."""
    dice = QueuedDice()
    runner = await start_bot(make_bot, dice)
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    kestrel = await kestrel_round_one(fake, table, dice)
    dice.push(9, 9, 9, 9)  # round 2, if pressing on comes first
    press = await fake.click(alice, kestrel, control(kestrel, "press"), wait=False)
    withdraw = await fake.click(alice, kestrel, control(kestrel, "withdraw"), wait=False)
    texts = await answers(fake, press, withdraw)
    applied = [t for t in texts if t.startswith(("You press on", "You withdraw"))]
    refused = [t for t in texts if t.startswith("This choice has already been made")]
    assert len(applied) == 1 and len(refused) == 1
    assert "(R-COMBAT-08)" in refused[0]
    state = await runner.bot.service.get_state(1)
    if applied[0].startswith("You withdraw"):
        assert state.battle is None and len(dice.queue) == 4  # no second round
    else:
        assert state.battle is not None and state.battle.round == 2 and not dice.queue


async def test_r_combat_08_a_double_pressed_press_on_fights_one_round(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-COMBAT-08: two clicks on Press on fight one more round, not two."""
    dice = QueuedDice()
    runner = await start_bot(make_bot, dice)
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    kestrel = await kestrel_round_one(fake, table, dice)
    dice.push(*[9] * 8)  # enough for two rounds; only one may be fought
    one = await fake.click(alice, kestrel, control(kestrel, "press"), wait=False)
    two = await fake.click(alice, kestrel, control(kestrel, "press"), wait=False)
    texts = sorted(await answers(fake, one, two))
    assert texts[0].startswith("This choice has already been made") and "R-COMBAT-08" in texts[0]
    assert texts[1].startswith("You press on")
    state = await runner.bot.service.get_state(1)
    assert state.battle is not None and state.battle.round == 2
    assert len(dice.queue) == 4  # one round's dice rolled


async def test_r_pbp_ump_01_two_advances_at_once_say_which_step_each_ended(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-PBP-UMP-01: both advances were read at step 1 Trade; under the lock the second moves on
    from step 5 Buy (step 4 ran by itself), and its answer says so."""
    runner, table = await skirmish(fake, make_bot)
    umpire = table.umpire
    talk = table.found["table-talk"]
    service = runner.bot.service
    gate = Gate(orders=2)
    service._locks.by_campaign[1] = gate
    await gate.acquire()
    one = await fake.slash(umpire, "umpire advance", channel=talk, wait=False)
    two = await fake.slash(umpire, "umpire advance", channel=talk, wait=False)
    await asyncio.wait_for(gate.all_waiting.wait(), timeout=10)
    gate.release()
    texts = await answers(fake, one, two)
    heads = sorted(t.splitlines()[0] for t in texts)
    assert heads == [
        "Moved on for 🌅 Dawnians (DAW) (it was at step 1 Trade); written to the audit log "
        "(R-PBP-UMP-01).",
        "Moved on for 🌅 Dawnians (DAW) (it was at step 5 Buy); written to the audit log "
        "(R-PBP-UMP-01).",
    ]
    assert (await service.get_state(1)).step is Step.MOVE


async def test_r_trade_02_open_offers_are_capped_per_counterparty(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-TRADE-02: at most 3 open offers wait for one counterparty; the 4th is refused with
    the offers that may be withdrawn."""
    runner, table = await skirmish(fake, make_bot)
    alice = fake.players[0]
    daw = table.thread("DAW")
    for _ in range(3):
        sent = await fake.slash(alice, "trade offer", to="ORC", give_rp=1, channel=daw)
        assert "Trade offer #" in sent.text
    fourth = await fake.slash(alice, "trade offer", to="ORC", give_rp=1, channel=daw)
    assert fourth.text.startswith(
        "You already have 3 open offers to ORC; at most 3 may wait for its answer at once. "
        "(R-TRADE-02)\nAllowed: wait for an answer, or withdraw one of #"
    )
    asked = await fake.slash(
        alice, "trade offer", to="ACH", give_rp=1, get="99999999999 iron", channel=daw
    )
    assert asked.text.startswith("At most 10000 of one item: '99999999999 iron' is too many.")
    assert len((await runner.bot.service.get_state(1)).trades) == 3


async def test_a_reply_over_2000_characters_arrives_in_pieces(
    fake: FakeDiscord, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An answer longer than Discord's 2,000 characters (the tester's /done after 60 lapsed
    offers was 4,325) is split at line breaks: the answer and private follow-ups."""
    runner, table = await skirmish(fake, make_bot)
    alice = fake.players[0]
    long_text = "\n".join(f"Line {n}: " + "x" * 80 for n in range(50))  # 4,540 characters
    monkeypatch.setattr("caedes_bot.cogs._play.effect_text", lambda *a, **k: long_text)
    done = await fake.slash(alice, "done", channel=table.thread("DAW"))
    await fake.wait_for(lambda: len(done.followups) == 2, what="the two follow-ups")
    pieces = [message_text(m) for m in done.messages]
    assert [len(p) <= 2000 for p in pieces] == [True, True, True]
    assert "\n".join(pieces) == long_text
    assert all(int(m.get("flags") or 0) & EPHEMERAL for m in done.messages)
    assert (await runner.bot.service.get_state(1)).step is Step.BUY


async def test_an_error_after_the_order_was_carried_out_says_so(
    fake: FakeDiscord, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the answer fails after the order was committed, the apology must not claim that
    nothing was changed: the step did end."""
    runner, table = await skirmish(fake, make_bot)
    alice = fake.players[0]

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the answer failed")

    monkeypatch.setattr("caedes_bot.cogs._play.answer", broken)
    with runner.expect_errors() as records:
        done = await fake.slash(alice, "done", channel=table.thread("DAW"))
        assert done.ephemeral and done.text == APOLOGY_AFTER_ORDER
        assert any("the answer failed" in str(r.exc_info[1]) for r in records if r.exc_info)
    assert "nothing was changed" not in done.text
    assert (await runner.bot.service.get_state(1)).step is Step.BUY


class Heard(logging.Handler):
    """INFO lines of the bot, waking the fake's waits."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.INFO)
        self.fake = fake
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
        self.fake.signal.fire()


@pytest.fixture
def heard(fake: FakeDiscord) -> Iterator[Heard]:
    handler = Heard(fake)
    logger = logging.getLogger("caedes_bot")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def deliver_again(fake: FakeDiscord, record: InteractionRecord) -> None:
    """Discord delivers the same interaction a second time (as after a gateway resume)."""
    fake._session().dispatch("INTERACTION_CREATE", record.payload)


async def test_an_interaction_delivered_twice_is_dropped_quietly(
    fake: FakeDiscord, make_bot: MakeBot, heard: Heard
) -> None:
    """A command and a button delivered again: no second answer, no second effect, and an INFO
    line instead of an ERROR (the fixtures fail the test on any ERROR)."""
    runner, table = await skirmish(fake, make_bot)
    alice = fake.players[0]
    offer = await fake.slash(alice, "trade offer", to="ORC", give_rp=1, channel=table.thread("DAW"))
    assert "Trade offer #" in offer.text
    deliver_again(fake, offer)
    again = f"interaction {offer.id} was delivered again; dropped"
    await fake.wait_for(lambda: again in heard.lines, what="the second delivery noticed")
    assert len(offer.callbacks) == 1 and not offer.followups
    assert len((await runner.bot.service.get_state(1)).trades) == 1

    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    status = await fake.click(alice, first, control(first, "status"))
    deliver_again(fake, status)
    again = f"interaction {status.id} was delivered again; dropped"
    await fake.wait_for(lambda: again in heard.lines, what="the second click noticed")
    assert len(status.callbacks) == 1 and not status.followups


async def test_refusals_name_the_reason_in_a_players_words(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-TURN-02 (an order's step, in words), R-GEN-04 (near matches for misspelt units),
    R-SETUP-02 (the factions one may name), R-ATTR-FORT-01 (Towers never move), R-MOVE-09 (a
    sea zone is no province), R-MUSTER-01 (only what was bought is mustered)."""
    runner, table = await skirmish(fake, make_bot)
    alice = fake.players[0]
    daw, talk = table.thread("DAW"), table.found["table-talk"]

    early = await fake.slash(alice, "buy", unit="Infantry", channel=daw)
    assert early.text == (
        "Buying units is step 5 Buy; the turn is at step 1 Trade. (R-TURN-02)\n"
        "Allowed: end the steps before it (Done or /done) to reach step 5 Buy"
    )
    unit = await fake.slash(alice, "unit", name="Knigths", channel=daw)
    assert unit.text == (  # what is allowed too, as every refusal says it (ux.md)
        "No unit 'Knigths'. Did you mean Dawnian Knights? (R-GEN-04)\n"
        "Allowed: a unit's name (or its start), like Dawnian Infantry; the list offers them "
        "as you type"
    )
    orks = await fake.slash(alice, "done", faction="Orks", channel=daw)
    assert orks.text == (
        "No faction 'Orks'. Did you mean Orcs? (R-SETUP-02)\n"
        "Allowed: Dawnians (DAW), Orcs (ORC), Acherousians (ACH)"
    )
    mine = await fake.autocomplete(alice, "status", "faction", "", channel=daw)
    assert [c["value"] for c in mine] == ["DAW"]
    every = await fake.autocomplete(table.umpire, "status", "faction", "", channel=talk)
    assert [c["value"] for c in every] == ["DAW", "ORC", "ACH"]

    await fake.slash(alice, "done", channel=daw)  # step 1 (step 4 runs by itself)
    await fake.slash(alice, "buy", unit="Infantry", channel=daw)
    await fake.slash(alice, "done", channel=daw)  # step 5: now moving
    tower = await fake.slash(
        alice, "move", units="Tower", to="Harrowgate", channel=daw, **{"from": "Brightholm"}
    )
    assert tower.text.startswith(
        "Your Dawnian Tower in Brightholm cannot move: Towers never move. (R-ATTR-FORT-01)"
    )
    sea = await fake.slash(
        alice,
        "move",
        units="1 Infantry",
        to="Bay of Sorrows",
        channel=daw,
        **{"from": "Harrowgate"},
    )
    assert sea.text == (
        "Bay of Sorrows is a sea zone; land units move between provinces. (R-MOVE-09)\n"
        "Allowed: a province's name (or its start); the list offers them as you type"
    )
    typo = await fake.slash(
        alice, "move", units="1 Infantri", to="Wolfsgate", channel=daw, **{"from": "Harrowgate"}
    )
    assert typo.text == (
        "No unit 'Infantri'. Did you mean Dawnian Infantry? (R-MOVE-01)\n"
        "Allowed: a unit's name (or its start), like Dawnian Infantry; the list offers them "
        "as you type"
    )

    await fake.slash(alice, "done", channel=daw)  # no attack: on to step 8
    yeomen = await fake.slash(alice, "muster", unit="Yeomen", province="Brightholm", channel=daw)
    assert yeomen.text == (
        "You bought no Dawnian Yeomen this turn. (R-MUSTER-01)\n"
        "Allowed: muster what is waiting: 1 Dawnian Infantry"
    )
    state = await runner.bot.service.get_state(1)
    assert state.step is Step.MUSTER and state.factions["DAW"].purchases == ["U-DAW-01"]
