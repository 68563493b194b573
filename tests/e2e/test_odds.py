"""End-to-end: ``/odds`` and the turn panel's "Odds" button through the real bot and the fake
Discord (issue 13): each answer is deferred first, then given privately within Discord's
limits; bad input is refused cleanly and changes nothing."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, control, panel, staffed_campaign, start_bot
from tests.e2e.test_game_round import daw_turn_until_battles
from tests.fakediscord import FakeDiscord
from tests.fakediscord.server import CB_DEFERRED_MESSAGE, InteractionRecord

LIMIT = 2000


def deferred_and_private(record: InteractionRecord) -> str:
    assert record.callback_type == CB_DEFERRED_MESSAGE, record.callbacks
    assert record.ephemeral
    for message in record.messages:
        assert len(message.get("content") or "") <= LIMIT
    return record.text


async def test_odds_by_hand_from_a_place_and_refused(
    fake: FakeDiscord, make_bot: MakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    """R-COMBAT-01, R-COMBAT-06, R-COMBAT-13, R-GEN-02: the issue's 20 against 20 listed by hand
    on hills is answered exactly; units sent from a place are answered; bad input is refused
    with what is allowed, logging nothing above INFO."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    daw = table.thread("DAW")
    before = await runner.bot.service.get_state(1)

    listed = await fake.slash(
        alice,
        "odds",
        attackers="8 Yeomen, 4 Crossbowmen, 6 Knights, 2 Dawnian Infantry",
        defenders="12 Orc Troopers, 4 Ogre Heavy Infantry, 4 Wolfriders",
        terrain="hills",
        channel=daw,
    )
    text = deferred_and_private(listed)
    assert "Odds: 20 Dawnian units against 20" in text
    assert "Dawnians take the province: **65.2%**" in text, text
    assert "Method: exact (every way the battle can go: 525 battle states)" in text, text
    assert "Expected rounds: 5.8" in text
    assert "Knights 3.38" in text

    # R-COMBAT-14: a sea zone names a naval battle; units listed there fight on no terrain.
    at_sea = await fake.slash(
        alice,
        "odds",
        province="Silver Gulf",
        attackers="2 Knights",
        defenders="1 Troopers",
        channel=daw,
    )
    assert "at Silver Gulf" in deferred_and_private(at_sea), at_sea.text

    sent = await fake.slash(
        alice, "odds", province="Wolfsgate", channel=daw, **{"from": "Harrowgate"}
    )
    text = deferred_and_private(sent)
    assert "at Wolfsgate" in text and "take the province" in text, text

    caplog.clear()
    with caplog.at_level(logging.INFO):
        refusals = {
            "Name a battle": {},
            "need both attackers and defenders": {"attackers": "2 Knights"},
            "At most 99 of one item": {"attackers": "500 Knights", "defenders": "1 Troopers"},
            "No unit": {"attackers": "2 Zorblaxes", "defenders": "1 Troopers"},
            "cannot fight itself": {"attackers": "2 Knights", "defenders": "1 Dawnian Infantry"},
            "No battle is set up at Wolfsgate": {"province": "Wolfsgate"},
            "Terrain is for units listed by hand": {"province": "Wolfsgate", "terrain": "hills"},
            "Silver Gulf is a sea zone": {"province": "Silver Gulf", "from": "Harrowgate"},
            # R-COMBAT-01: a unit of the game that is not at the place is counted there (none),
            # not called unknown.
            "You asked for 3 Windriders, but Harrowgate has 0 of them": {
                "province": "Wolfsgate",
                "from": "Harrowgate",
                "units": "3 Windriders",
            },
            # a count with no unit after it
            "'3' gives a count but no unit": {
                "attackers": "2 Knights, 3",
                "defenders": "1 Troopers",
            },
            # what is allowed names what is there
            "at most what Harrowgate has that can attack: 2 Infantry, 1 Yeomen": {
                "province": "Wolfsgate",
                "from": "Harrowgate",
                "units": "3 Infantry",
            },
            "No unit 'Zorblax'": {
                "province": "Wolfsgate",
                "from": "Harrowgate",
                "units": "Zorblax",
            },
        }
        for said, options in refusals.items():
            refused = await fake.slash(alice, "odds", channel=daw, **options)
            assert refused.ephemeral and said in refused.text, (said, refused.text)
            assert "Allowed:" in refused.text or "Did you mean" in refused.text, refused.text
    assert not [r for r in caplog.records if r.levelno > logging.INFO]
    after = await runner.bot.service.get_state(1)
    assert after.step == before.step and after.active == before.active
    assert {u.id: u.location for u in after.peek_units()} == {
        u.id: u.location for u in before.peek_units()
    }

    offered = await fake.autocomplete(alice, "odds", "from", "harrow", channel=daw)
    assert [c["value"] for c in offered] == ["harrowgate"]


async def test_turn_panel_odds_button_in_step_7(fake: FakeDiscord, make_bot: MakeBot) -> None:
    """The turn panel's "Odds" button gives the odds of each battle due (R-COMBAT-01, -02)."""
    await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await daw_turn_until_battles(fake, table, alice)
    combat_panel = await panel(fake, table, "DAW", 1, showing="**Step 7 Combat**")
    clicked = await fake.click(alice, combat_panel, control(combat_panel, "odds"))
    text = deferred_and_private(clicked)
    assert "at Kestrel Downs" in text and "at Wolfsgate" in text, text
    assert text.count("Method: exact") == 2


async def test_odds_by_monte_carlo_of_a_one_sided_battle(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-COMBAT-01, R-GEN-02: 297 Knights (hit on 1-5 of a d10) against 99 units of each of
    three factions is too large to enumerate, so it is rolled; 297 Knights score about 148
    hits in round 1 and the 297 defenders about 89, so every rolled battle is won by the
    attacker. It was refused with an unexpected error (a standard error of a chance summed
    past 1); it is answered, with the method and a standard error of 0."""
    await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    listed = await fake.slash(
        alice,
        "odds",
        attackers="99 Knights, 99 Knights, 99 Knights",
        defenders="99 U-ORC-02, 99 U-ACH-01, 99 U-WEL-01",
        channel=table.thread("DAW"),
    )
    text = deferred_and_private(listed)
    assert "Odds: 297 Dawnian units against 297" in text, text
    assert "Dawnians take the province: **100%**" in text, text
    assert "Monte Carlo estimate of 20,000 battles, standard error 0.00 percentage points" in text


def within_limits(record: InteractionRecord) -> str:
    """Deferred, private, and every follow-up within Discord's limits: 2,000 characters of
    content; at most 10 embeds, each title 256, description 4,096, 25 fields, 6,000 in all."""
    text = deferred_and_private(record)
    for message in record.messages:
        embeds = message.get("embeds") or []
        assert len(embeds) <= 10
        for embed in embeds:
            fields = embed.get("fields") or []
            assert len(embed.get("title") or "") <= 256
            assert len(embed.get("description") or "") <= 4096
            assert len(fields) <= 25
            total = len(embed.get("title") or "") + len(embed.get("description") or "")
            total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
            assert total <= 6000
    return text


async def test_turn_panel_odds_button_in_steps_6_and_7(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-COMBAT-01, R-COMBAT-02, R-COMBAT-13: the step-6 panel's "Odds" button says no battle
    is ahead before any unit has moved in among the enemy; once two Infantry have moved into
    Wolfsgate (an Orc Trooper and Orc Wolfriders), it gives that battle's odds; in step 7 the
    same button gives the same battle, about to be fought, the same figures; once the battle
    is under way (round 1 all misses, the attacker asked to press on), its odds from round 2.
    Each answer is deferred first, then given privately within Discord's limits."""
    dice = QueuedDice()
    await start_bot(make_bot, dice)
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    daw = table.thread("DAW")
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await fake.click(alice, first, control(first, "done"))
    buy = await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    await fake.click(alice, buy, control(buy, "done"))
    move_panel = await panel(fake, table, "DAW", 1, showing="**Step 6 Move**")
    nothing = within_limits(await fake.click(alice, move_panel, control(move_panel, "odds")))
    assert "No battle is ahead of you yet" in nothing, nothing

    moved = await fake.slash(
        alice, "move", units="2 Infantry", **{"from": "Harrowgate"}, to="Wolfsgate", channel=daw
    )
    assert "from Harrowgate to Wolfsgate" in moved.text, moved.text
    move_panel = await panel(fake, table, "DAW", 1, showing="**Step 6 Move**")
    planned = within_limits(await fake.click(alice, move_panel, control(move_panel, "odds")))
    assert "Odds: 2 Dawnian units against 2 at Wolfsgate" in planned, planned
    assert "Method: exact" in planned and "Expected rounds" in planned, planned

    done = await fake.slash(alice, "done", channel=daw)
    assert "must fight at Wolfsgate" in done.text, done.text
    combat_panel = await panel(fake, table, "DAW", 1, showing="**Step 7 Combat**")
    due = within_limits(await fake.click(alice, combat_panel, control(combat_panel, "odds")))
    assert due == planned  # the same battle, about to be fought: the same figures

    dice.push(9, 9, 9, 9)  # round 1: every die misses
    fought = await fake.slash(alice, "attack", province="Wolfsgate", channel=daw)
    assert "The battle at Wolfsgate has begun" in fought.text, fought.text
    combat_panel = await panel(fake, table, "DAW", 1, showing="press on")
    under_way = within_limits(await fake.click(alice, combat_panel, control(combat_panel, "odds")))
    assert "at Wolfsgate, from round 2" in under_way, under_way
    assert "Method: exact" in under_way, under_way
