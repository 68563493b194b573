"""End-to-end: every subcommand of ``/umpire`` as a user would use it, with good and bad input
(R-PBP-UMP-01, R-PBP-UMP-03, R-PBP-UMP-05, R-SETUP-04, R-VIC-03, R-VIC-04; decision 0022).

Skirmish, scripted dice: Alice plays the Dawnians, Bob the Orcs; ``fake.players[3]`` umpires.
Each bad input gets a private answer that says what was wrong and what is allowed
("Allowed: ..."), and changes nothing (the state and the audit log are as before); the fixtures
fail the test on any ERROR logged.
"""

from __future__ import annotations

from typing import Any

from caedes_bot.rules.state import Step
from tests.e2e.campaigns import setup_done
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord, InteractionRecord


def _refused(record: InteractionRecord, *words: str) -> None:
    text = record.text
    assert record.ephemeral, text
    assert "Allowed:" in text, text
    for word in words:
        assert word in text, (word, text)


async def test_every_umpire_subcommand_with_good_and_bad_input(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await start_bot(make_bot, QueuedDice())
    service = runner.bot.service
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]

    async def slash(user: Any, command: str, **options: Any) -> InteractionRecord:
        return await fake.slash(user, command, channel=talk, **options)

    async def unchanged(record: InteractionRecord, *words: str) -> None:
        before_state = await service.get_state(1)
        _refused(record, *words)
        assert await service.get_state(1) == before_state

    # who may: a player is refused every umpire tool, with who may use it
    for command, options in (
        ("umpire advance", {}),
        ("umpire set rp", {"faction": "ORC", "rp": 1}),
        ("umpire set step", {"step": 5}),
        ("umpire deadline", {"hours": 1.0}),
        ("umpire turn-limit", {"rounds": 3}),
        ("umpire rollback", {"point": "1"}),
        ("umpire audit", {}),
        ("umpire pause", {}),
        ("umpire end", {"winners": "DAW"}),
    ):
        record = await slash(alice, command, **options)
        assert record.ephemeral and "umpire" in record.text.lower(), (command, record.text)
    logged = len(await service.audit_log(1))

    # /umpire set rp | commodity | owner
    await unchanged(await slash(umpire, "umpire set rp", faction="Atlantis", rp=5), "Atlantis")
    done = await slash(umpire, "umpire set rp", faction="Orcs", rp=12)
    assert "The umpire set its RP from 10 to 12" in done.text
    await unchanged(
        await slash(umpire, "umpire set commodity", faction="Nobody", commodity="iron", count=1)
    )
    done = await slash(umpire, "umpire set commodity", faction="DAW", commodity="iron", count=3)
    assert done.ephemeral and "Iron" in done.text
    await unchanged(await slash(umpire, "umpire set owner", province="Atlantis"), "Atlantis")

    # /umpire set unit
    await unchanged(
        await slash(umpire, "umpire set unit", action="add"), "needs a faction, a kind and a place"
    )
    await unchanged(await slash(umpire, "umpire set unit", action="remove", units="lots"))
    await unchanged(await slash(umpire, "umpire set unit", action="remove", units="#999"), "999")
    await unchanged(await slash(umpire, "umpire set unit", action="move", units="#1"), "the place")
    await unchanged(
        await slash(
            umpire, "umpire set unit", action="add", faction="DAW", kind="Zzyzx", place="Orme"
        ),
        "Zzyzx",
    )

    # /umpire set option
    await unchanged(
        await slash(umpire, "umpire set option", name="no_such_option", value="1"),
        "no_such_option",
    )
    await unchanged(
        await slash(umpire, "umpire set option", name="turn_deadline_hours", value="soon"),
        "soon",
    )
    done = await slash(umpire, "umpire set option", name="turn_deadline_hours", value="36")
    assert done.ephemeral and "turn_deadline_hours" in done.text

    # /umpire set step
    await unchanged(await slash(umpire, "umpire set step", step=1), "already")

    # /umpire deadline
    await unchanged(await slash(umpire, "umpire deadline"), "Nothing to change")
    await unchanged(await slash(umpire, "umpire deadline", hours=0.0), "0 hours")
    await unchanged(await slash(umpire, "umpire deadline", hours=-200.0), "15 minutes")
    done = await slash(umpire, "umpire deadline", hours=2.0)
    assert done.ephemeral and "Announced in #announcements" in done.text

    # /umpire turn-limit
    done = await slash(umpire, "umpire turn-limit", rounds=4)
    assert done.ephemeral and "4 game rounds" in done.text

    # /umpire rollback
    await unchanged(await slash(umpire, "umpire rollback", point="banana"), "banana")
    await unchanged(await slash(umpire, "umpire rollback", point="#9999"), "#9999")

    # /umpire end
    await unchanged(await slash(umpire, "umpire end", winners="Atlantis"), "Atlantis")
    await unchanged(await slash(umpire, "umpire end", winners=" , "))

    # /umpire pause | resume: the campaign's umpire alone
    await unchanged(await slash(umpire, "umpire resume"), "not paused")
    await unchanged(await slash(fake.admin, "umpire pause"))
    paused = await slash(umpire, "umpire pause")
    assert paused.ephemeral and "paused" in paused.text.lower()
    await unchanged(await slash(umpire, "umpire pause"), "already")
    await unchanged(await slash(umpire, "umpire advance"), "paused")
    resumed = await slash(umpire, "umpire resume")
    assert resumed.ephemeral and "resumed" in resumed.text.lower()

    # /umpire advance, then the audit shows the good changes and none of the refusals
    done = await slash(umpire, "umpire advance")
    assert done.ephemeral and "Moved on for" in done.text
    assert (await service.get_state(1)).step > Step.TRADE
    audit = await slash(umpire, "umpire audit")
    assert audit.ephemeral and "set Orc RP to 12 (before: 10)" in audit.text
    actions = [a.action for a in (await service.audit_log(1))[logged:]]
    assert actions == [
        "order:SetRP",
        "order:SetCommodity",
        "order:SetOption",
        "deadline_moved",
        "order:SetTurnLimit",
        "status_changed",
        "status_changed",
        "order:UmpireAdvance",
    ], actions


async def test_umpire_tools_on_the_board_and_before_the_start_refuse_clearly(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-PBP-UMP-01, R-COLL-03, R-PBP-UMP-03: a sea zone has no owner; only ships go to sea; no
    reaction deadline is open to move; before the campaign starts there is no turn to move on
    or step to set. Each refusal is private, says what is allowed, and changes nothing."""
    runner = await start_bot(make_bot, QueuedDice())
    service = runner.bot.service
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]
    state = await service.get_state(1)
    sea = next(iter(runner.bot.ruleset.map.sea_zones.values())).name
    land_unit = next(u for u in state.units_of("DAW"))

    for command, options, words in (
        ("umpire set owner", {"province": sea}, ("R-COLL-03",)),
        (
            "umpire set unit",
            {"action": "move", "units": f"#{land_unit.id}", "place": sea},
            ("ships",),
        ),
        ("umpire deadline", {"hours": 1.0, "which": "reactions"}, ("no open deadline",)),
    ):
        record = await fake.slash(umpire, command, channel=talk, **options)
        _refused(record, *words)
    assert await service.get_state(1) == state

    found = await fake.slash(
        fake.admin, "campaign new", name="Later", scenario="skirmish", umpire=umpire
    )
    assert found.ephemeral
    places = await fake.wait_for(
        lambda: setup_done(fake, "Later", ["DAW", "ORC", "ACH"]), what="the new campaign"
    )
    for command, options in (("umpire advance", {}), ("umpire set step", {"step": 5})):
        record = await fake.slash(umpire, command, channel=places["umpire"], **options)
        _refused(record)
