"""End-to-end: a long battle fought in one go edits its message a bounded number of times
(decision 0015, R-COMBAT-16).

The skirmish scenario: the Dawnians attack Wolfsgate (an Orc Trooper and Orc Wolfriders) with
two Infantry. Every die of ten rounds misses (a 9), so the attacker is asked to press on or
withdraw ten times; its player presses on ten times in a burst (the orders the battle
message's Press on button gives, as fast as the service takes them), and round 11 kills both
Orcs. The fake Discord allows five message edits per channel per five seconds, as Discord
does, and the bot paces its battle message to one edit per minute on a clock the test moves:
the eleven rounds reach Discord as one edit with the final content, and no request is
refused for its rate.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from caedes_bot.rules.combat.orders import PressOn
from caedes_bot.rules.state import DecisionKind
from caedes_bot.service.values import Actor
from tests.e2e.conftest import FAST_OUTBOX, MakeBot
from tests.e2e.gameplay import QueuedDice, battle, staffed_campaign
from tests.e2e.test_game_magic import attack_wolfsgate
from tests.fakediscord import FakeDiscord, message_text

INTERVAL = 60.0


class AheadClock:
    """The real time plus an offset the test moves forward."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset


async def test_ten_rounds_in_a_burst_reach_the_battle_message_as_one_edit(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-COMBAT-08, R-COMBAT-11, R-COMBAT-16: as in the module docstring."""
    clock = AheadClock()
    dice = QueuedDice()
    runner = await make_bot(
        service_options={"dice_factory": dice.factory()},
        outbox_options={**FAST_OUTBOX, "edit_interval": INTERVAL, "clock": clock},
    )
    service = runner.bot.service
    fake.rate_limits.limit(
        "PATCH", r"^/channels/(\d+)/messages/\d+$", limit=5, per=5.0, name="message-edits"
    )
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await attack_wolfsgate(fake, table, alice, "2 Infantry")
    dice.push(9, 9, 9, 9)  # round 1: the two Infantry, then the Trooper and the Wolfriders
    fought = await fake.slash(alice, "attack", province="Wolfsgate", channel=table.thread("DAW"))
    assert "The battle at Wolfsgate has begun" in fought.text, fought.text
    first = await battle(fake, table, "Wolfsgate", showing="press on or withdraw")
    assert "Round 1, melee step" in message_text(first)
    path = f"/channels/{table.battles['id']}/messages/{first['id']}"

    def edits() -> int:
        return len([r for r in fake.requests if r.method == "PATCH" and r.path == path])

    assert edits() == 0
    for round_no in range(2, 12):
        state = await service.get_state(1)
        assert [d.kind for d in state.pending] == [DecisionKind.PRESS_OR_WITHDRAW], round_no
        dice.push(*((1, 1) if round_no == 11 else (9, 9)), 9, 9)
        await service.submit(1, Actor(alice.id), PressOn("DAW"))
    state = await service.get_state(1)
    assert state.battle is None and state.owner("wolfsgate") == "DAW"
    dice.assert_used_up()

    # the edits owed wait for the interval, coalesced into one stored row
    async def waiting() -> bool:
        rows = await service.delivery.due_queues(clock() + timedelta(seconds=INTERVAL), batch=100)
        return any(r.payload.get("message_key") for queue, _ in rows for r in queue)

    assert await waiting()
    assert edits() == 0 and "Round 1, melee step" in message_text(
        fake.world.message(int(first["id"]))
    )

    clock.offset += timedelta(seconds=INTERVAL)
    runner.bot.outbox.wake()
    over = await battle(fake, table, "Wolfsgate", showing="The attacker won")
    text = message_text(over)
    assert "Round 11, melee step" in text, text
    assert "**1**" in text and not over["components"]
    assert edits() == 1
    assert not fake.rate_limits.limited
