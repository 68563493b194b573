"""End-to-end: hostile clicks on the bot's buttons and selects, through the real bot and the
fake Discord (the handler-level tests with 1,000 per kind are in tests/ui/).

About 50 generated clicks per kind of control (tests/ui/hostile.py), each on a message that
carries the hostile control, clicked in campaign 1's Dawnian orders thread, its #battles, the
Dawnian thread of campaign 2 (another campaign of the same server) or #general: each gets one
private answer, nothing is logged above INFO, and neither campaign changes. A real control of
campaign 2 clicked on a message of campaign 1 does nothing to campaign 2.

Only what Discord can deliver is sent: a custom id of 1 to 100 characters, and at most 25
distinct values of 1 to 100 characters (a select's limits).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caedes_bot.cogs._errors import OtherCampaign
from caedes_bot.rules.state import Step
from caedes_bot.ui.components import SHAPES, BadControl
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, Table, control, panel, staffed_campaign, start_bot
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord
from tests.ui.hostile import HOME, OTHER, Click, hostile

JSON = dict[str, Any]

#: Generated clicks per kind of control.
PER_KIND = 50
#: Discord's limits on a component (custom id, option value, options of a select).
ID_LIMIT, VALUE_LIMIT, OPTIONS_LIMIT = 100, 100, 25

BAD_WORDS = BadControl("").message
OTHER_WORDS = OtherCampaign().message


def deliverable(case: tuple[bool, Click]) -> bool:
    """Whether Discord could deliver the click (its limits on components)."""
    click = case[1]
    values = click.values
    return (
        1 <= len(click.custom_id) <= ID_LIMIT
        and len(values) <= OPTIONS_LIMIT
        and len(set(values)) == len(values)
        and all(1 <= len(v) <= VALUE_LIMIT for v in values)
    )


def generated(kind: str) -> list[tuple[bool, Click]]:
    """:data:`PER_KIND` deliverable hostile clicks of ``kind``, drawn by hypothesis (derandomised
    under the CI profile)."""
    drawn: list[tuple[bool, Click]] = []

    @settings(
        max_examples=1,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(st.lists(hostile(kind).filter(deliverable), min_size=PER_KIND, max_size=PER_KIND))
    def draw(batch: list[tuple[bool, Click]]) -> None:
        drawn[:] = batch

    draw()
    return drawn


def forged(message: JSON, click: Click, channel_id: int) -> JSON:
    """``message`` carrying only the control of ``click``, as if in ``channel_id``."""
    if click.select:
        item: JSON = {
            "type": 3,
            "custom_id": click.custom_id,
            "options": [{"label": v, "value": v} for v in click.values]
            or [{"label": "none", "value": "none"}],
            "min_values": 0,
            "max_values": max(1, len(click.values)),
        }
    else:
        item = {"type": 2, "style": 2, "label": "Go", "custom_id": click.custom_id}
    fake_message = copy.deepcopy(message)
    fake_message["channel_id"] = str(channel_id)
    fake_message["components"] = [{"type": 1, "components": [item]}]
    return fake_message


async def send(fake: FakeDiscord, user: FakeUser, message: JSON, click: Click) -> InteractionRecord:
    """Click ``click`` on ``message`` as ``user`` and wait for the answer."""
    data: JSON = (
        {"component_type": 3, "values": list(click.values)}
        if click.select
        else {"component_type": 2}
    )
    # the fake's own click() refuses a control that is not on a message it posted: this one
    # comes from a damaged or forged message, so it is sent as Discord would deliver it
    return await fake._component_interaction(
        user, message, click.custom_id, data, wait=True, timeout=10.0
    )


class Loud(logging.Handler):
    """Records of the bot and discord.py above INFO."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def loud() -> Iterator[Loud]:
    handler = Loud()
    loggers = [logging.getLogger("caedes_bot"), logging.getLogger("discord")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


async def two_campaigns(fake: FakeDiscord, make_bot: MakeBot) -> tuple[BotRunner, Table, Table]:
    """Campaigns 1 and 2 of one server, both started, Alice the Dawnians in each."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    seats = {"DAW": alice, "ORC": bob, "ACH": carol}
    home = await staffed_campaign(fake, seats=seats, name="Seven Swords")
    other = await staffed_campaign(fake, seats=seats, name="Other Swords")
    return runner, home, other


def quiet(loud: Loud) -> None:
    """Forget what start-up logged (discord.py warns that voice is not installed)."""
    loud.records.clear()


async def versions(runner: BotRunner) -> tuple[int, int]:
    service = runner.bot.service
    return (
        (await service.get_view(HOME)).info.version,
        (await service.get_view(OTHER)).info.version,
    )


@pytest.mark.parametrize("kind", sorted(SHAPES))
async def test_hostile_clicks_get_one_private_answer_and_change_nothing(
    fake: FakeDiscord, make_bot: MakeBot, kind: str, loud: Loud
) -> None:
    runner, home, other = await two_campaigns(fake, make_bot)
    alice, bob = fake.players[0], fake.players[1]
    umpire = home.umpire
    base = await panel(fake, home, "DAW", 1, showing="**Step 1 Trade**")
    quiet(loud)
    places = [
        (int(home.thread("DAW")["id"]), (alice, umpire)),
        (int(home.battles["id"]), (alice, bob, umpire)),
        (int(other.thread("DAW")["id"]), (alice, umpire)),
        (int(fake.world.general["id"]), (alice, bob, umpire)),
    ]
    home_thread, home_battles, other_thread = places[0][0], places[1][0], places[2][0]
    before = await versions(runner)
    for number, (breaks, click) in enumerate(generated(kind)):
        channel, users = places[number % len(places)]
        user = users[number % len(users)]
        ours = click.custom_id.startswith(f"caedes:{HOME}:")
        if not breaks and channel == other_thread and not ours:
            channel = home_thread  # campaign 2's own control in its own thread is fair
        record = await send(fake, user, forged(base, click, channel), click)
        assert record.ephemeral, (click, record.text)
        if breaks:
            assert record.text.startswith(BAD_WORDS), (click, record.text)
        elif channel not in (home_thread, home_battles) or not ours:
            assert record.text.startswith(OTHER_WORDS), (click, record.text)
        assert not loud.records, [r.getMessage() for r in loud.records]
    assert await versions(runner) == before


async def test_a_control_of_another_campaign_does_nothing_there(
    fake: FakeDiscord, make_bot: MakeBot, loud: Loud
) -> None:
    """Campaign 2's own Done, put on a message in campaign 1's thread, ends no step of either
    campaign; in campaign 2's thread it works."""
    runner, home, other = await two_campaigns(fake, make_bot)
    alice = fake.players[0]
    theirs = await panel(fake, other, "DAW", 1, showing="**Step 1 Trade**")
    done = control(theirs, "done")
    assert done.startswith(f"caedes:{OTHER}:panel.DAW.1.1:")
    before = await versions(runner)
    quiet(loud)
    click = Click(done, select=False)
    mine = await panel(fake, home, "DAW", 1, showing="**Step 1 Trade**")
    record = await send(fake, alice, forged(mine, click, int(home.thread("DAW")["id"])), click)
    assert record.ephemeral and record.text.startswith(OTHER_WORDS)
    assert await versions(runner) == before
    for campaign in (HOME, OTHER):
        assert (await runner.bot.service.get_state(campaign)).step is Step.TRADE
    assert not loud.records

    fair = await fake.click(alice, theirs, done)
    assert fair.text.startswith("Step 1 Trade is over.")
    assert (await runner.bot.service.get_state(OTHER)).step is not Step.TRADE
    assert (await runner.bot.service.get_state(HOME)).step is Step.TRADE
