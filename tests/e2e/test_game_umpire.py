"""End-to-end: the umpire's overrides and audit log (R-PBP-UMP-01): only the umpire may give
them, each is announced (the figures only to the faction concerned, R-GEN-07) and logged."""

from __future__ import annotations

from datetime import timedelta

from caedes_bot.rules.dice import seed_commitment
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord, all_text


async def test_overrides_are_the_umpires_announced_and_logged(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]

    refused = await fake.slash(alice, "umpire set rp", faction="ORC", rp=50, channel=talk)
    assert (
        refused.ephemeral and "Only the umpire" in refused.text and "R-PBP-UMP-01" in refused.text
    )
    done = await fake.slash(umpire, "umpire set rp", faction="Orcs", rp=25, channel=talk)
    assert done.ephemeral and "The umpire set its RP from 10 to 25" in done.text
    owner = await fake.slash(umpire, "umpire set owner", province="Wolfsgate", channel=talk)
    assert "The umpire gave Wolfsgate to nobody" in owner.text
    await fake.wait_for(
        lambda: (
            "The umpire set your RP from 10 to 25"
            in all_text(fake.messages_in(table.thread("ORC")))
        ),
        what="the figures in the Orcs' own thread",
    )
    announcements = table.announcements
    await fake.wait_for(
        lambda: (
            "The umpire changed the RP of 👹 Orcs (ORC)"
            in all_text(fake.messages_in(announcements))
        ),
        what="the public notice",
    )
    state = await runner.bot.service.get_state(1)
    # R-GEN-07; the post of the dice seed's SHA-256 (decision 0023) may hold "25" by chance
    commitment = seed_commitment(state.dice_seed)
    public = [m for m in fake.messages_in(announcements) if commitment not in m["content"]]
    assert "25" not in all_text(public)
    assert state.factions["ORC"].rp == 25 and "wolfsgate" not in state.owners
    audit = await fake.slash(umpire, "umpire audit", channel=talk)
    assert "(umpire) set Orc RP to 25" in audit.text
    assert "(umpire) left Wolfsgate without an owner" in audit.text
    assert f"<@{umpire.id}>" in audit.text


async def test_every_override_is_in_the_audit_log_with_before_and_after(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-PBP-UMP-01, R-SETUP-04, R-VIC-03 (decision 0022): units added, an option changed for
    the next turn and a new turn limit are each announced in #announcements and logged with the
    values before and after; a bad option value is refused privately with what is allowed."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]

    added = await fake.slash(
        umpire,
        "umpire set unit",
        action="add",
        faction="DAW",
        kind="Dawnian Infantry",
        count=2,
        place="Corndale",
        channel=talk,
    )
    assert added.ephemeral and "The umpire added 2 Dawnian Infantry" in added.text
    chosen = await fake.autocomplete(umpire, "umpire set unit", "units", "Infantry", channel=talk)
    assert chosen and all(str(c["value"]).startswith("#") for c in chosen)
    state = await runner.bot.service.get_state(1)
    new_ids = sorted(int(k) for k in state.units)[-2:]
    moved = await fake.slash(
        umpire,
        "umpire set unit",
        action="move",
        units=f"#{new_ids[0]}",
        place="Wolfsgate",
        channel=talk,
    )
    assert "moved 1 Dawnian Infantry" in moved.text
    bad = await fake.slash(
        umpire, "umpire set option", name="breath_mode", value="sideways", channel=talk
    )
    assert bad.ephemeral and "one of: under, over" in bad.text
    option = await fake.slash(
        umpire, "umpire set option", name="breath_mode", value="over", channel=talk
    )
    assert "takes effect at the start of the next turn" in option.text
    limit = await fake.slash(umpire, "umpire turn-limit", rounds=5, channel=talk)
    assert "turn limit to 5 game rounds" in limit.text
    await fake.wait_for(
        lambda: "The umpire set the turn limit" in all_text(fake.messages_in(table.announcements)),
        what="the public notice of the new turn limit",
    )
    audit = await fake.slash(umpire, "umpire audit", channel=talk)
    assert f"added units #{new_ids[0]}, #{new_ids[1]} in Corndale" in audit.text
    assert f"moved units #{new_ids[0]} to Wolfsgate (before: in Corndale)" in audit.text
    assert "set the option breath_mode to over from the next turn start (before: under)" in (
        audit.text
    )
    assert "set the turn limit to 5 game rounds (before: 3 game rounds)" in audit.text
    state = await runner.bot.service.get_state(1)
    assert state.turn_limit == 5 and state.options.breath_mode == "under"


async def test_the_umpire_extends_the_deadline_with_notice(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-PBP-UMP-03, R-PBP-DEAD-01: `/umpire deadline hours:12` moves the Dawnians' turn 12 h
    later, announced in #announcements; a player cannot; the audit log has the old time."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    talk = table.found["table-talk"]
    service = runner.bot.service
    (before,) = await service.deadlines(1)

    refused = await fake.slash(alice, "umpire deadline", hours=12.0, channel=talk)
    assert refused.ephemeral and "Only the umpire" in refused.text
    done = await fake.slash(umpire, "umpire deadline", hours=12.0, channel=talk)
    assert done.ephemeral and "extended" in done.text
    (after,) = await service.deadlines(1)
    assert after.due_at - before.due_at == timedelta(hours=12)
    unix = int(after.due_at.timestamp())
    await fake.wait_for(
        lambda: f"<t:{unix}:f>" in all_text(fake.messages_in(table.announcements)),
        what="the notice of the new deadline",
    )
    audit = await fake.slash(umpire, "umpire audit", channel=talk)
    assert "moved the deadline turn:1:DAW" in audit.text
    assert f"(before: <t:{int(before.due_at.timestamp())}:f>)" in audit.text
    nothing = await fake.slash(umpire, "umpire deadline", channel=talk)
    assert nothing.ephemeral and "Nothing to change" in nothing.text
