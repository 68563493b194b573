"""End-to-end: the real bot against the fake Discord, /campaign commands and the outbox.

Rule IDs are cited where the test checks them: R-PBP-NEG-06 (a private orders thread per
faction), R-PBP-UMP-01 (one umpire, named by an admin), R-PBP-UMP-04 (the umpire reads every
orders thread), R-SETUP-02 (factions given to players, one player per faction), R-PBP-UMP-02
(factions nobody holds are the umpire's), R-TURN-01 (round 1 begins with the first faction in
turn order).
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from sqlalchemy.engine import Connection

from caedes_bot.domain.records import OutboxKind, OutboxStatus
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.tables import audit_log, outbox
from tests.e2e.campaigns import (
    CAMPAIGN_CHANNELS,
    DEFAULT_FACTIONS,
    new_campaign,
    start_campaign,
    thread_members,
)
from tests.e2e.conftest import MakeBot
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord
from tests.fakediscord.world import PRIVATE_THREAD


async def test_bot_starts_and_syncs_commands_to_the_dev_guild(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    assert bot.bot.is_ready()
    campaign = next(c for c in fake.synced[fake.guild_id] if c["name"] == "campaign")
    subcommands = sorted(o["name"] for o in campaign["options"])
    assert subcommands == [
        "assign",
        "export",
        "finish",
        "import",
        "info",
        "new",
        "start",
        "substitute",
        "umpire",
        "unassign",
    ]
    assert None not in fake.synced  # nothing synced globally
    assert fake.sessions[-1].intents == discord.Intents.default().value


async def test_commands_sync_globally_without_dev_guilds(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner = await make_bot(dev_guild=False, ruleset=None)  # as in production: loads config/
    assert "default" in runner.bot.ruleset.scenarios
    assert "campaign" in [c["name"] for c in fake.synced[None]]
    assert fake.guild_id not in fake.synced


async def test_non_admin_is_refused_and_nothing_is_created(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    before = len(fake.world.channels)
    record = await fake.slash(
        fake.players[0], "campaign new", name="Seven Swords", scenario="default"
    )
    assert record.ephemeral
    assert "Only a server admin" in record.text and "Allowed:" in record.text
    assert len(fake.world.channels) == before
    assert await bot.bot.service.campaigns() == []


async def test_campaign_new_creates_category_channels_and_orders_threads(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    """R-PBP-NEG-06: one private orders thread per faction in play, under #announcements."""
    found = await new_campaign(fake)
    world = fake.world
    player = fake.players[0]
    category = found["category"]
    assert sorted(c["name"] for c in world.children(int(category["id"]))) == sorted(
        CAMPAIGN_CHANNELS
    )
    announcements = int(found["announcements"]["id"])
    # read-only for players, writable for the bot (ux.md); players may open no thread there,
    # public or private, but may still write in the private threads they are added to
    for key in ("announcements", "battles"):
        cid = int(found[key]["id"])
        assert world.can_see(player.id, cid) and not world.can_send(player.id, cid)
        assert not world.can(player.id, cid, "create_public_threads")
        assert not world.can(player.id, cid, "create_private_threads")
        assert world.can(player.id, cid, "send_messages_in_threads")
        assert world.can_send(fake.bot_user.id, cid)
    assert world.can_send(player.id, int(found["table-talk"]["id"]))
    # #umpire is private: no umpire yet, so only the bot
    umpire_channel = int(found["umpire"]["id"])
    assert not world.can_see(player.id, umpire_channel) and not world.can_see(
        fake.admin.id, umpire_channel
    )
    assert world.can_send(fake.bot_user.id, umpire_channel)
    for code in DEFAULT_FACTIONS:
        thread = found[f"orders:{code}"]
        assert thread["type"] == PRIVATE_THREAD and thread["parent_id"] == str(announcements)
        assert thread_members(fake, thread) == {fake.bot_user.id}
        assert not world.can_see(player.id, int(thread["id"]))
    # nothing twice
    names = [c["name"] for c in world.channels.values()]
    assert (
        len(names) == len(set(names)) == 1 + 1 + 4 + 7
    )  # general, category, 4 channels, 7 threads


async def test_second_campaign_with_the_same_name_is_refused(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    await new_campaign(fake, scenario="skirmish")
    record = await fake.slash(fake.admin, "campaign new", name="seven  swords", scenario="skirmish")
    assert record.ephemeral and "already has a campaign called" in record.text
    record = await fake.slash(fake.admin, "campaign new", name="Other", scenario="nonesuch")
    assert record.ephemeral and "No scenario 'nonesuch'" in record.text


async def test_scenario_autocomplete_offers_the_loaded_scenarios(
    fake: FakeDiscord, bot: BotRunner, ruleset: Ruleset
) -> None:
    offered = await fake.autocomplete(fake.admin, "campaign new", "scenario", "", name="x")
    assert sorted(c["value"] for c in offered) == sorted(ruleset.scenarios)
    assert all(len(c["name"]) <= 100 for c in offered)
    skirmish = await fake.autocomplete(fake.admin, "campaign new", "scenario", "skirm", name="x")
    assert [c["value"] for c in skirmish] == ["skirmish"]


async def test_commands_outside_a_campaign_say_so(fake: FakeDiscord, bot: BotRunner) -> None:
    record = await fake.slash(fake.admin, "campaign info")  # in #general
    assert record.ephemeral and "not part of a campaign" in record.text


async def test_umpire_assign_and_start(fake: FakeDiscord, bot: BotRunner) -> None:
    """R-PBP-UMP-01, R-PBP-UMP-04, R-SETUP-02, R-PBP-UMP-02, R-TURN-01."""
    found = await new_campaign(fake)
    world = fake.world
    talk = found["table-talk"]
    alice, bob, carol, umpire = fake.players
    # only an admin names the umpire
    refused = await fake.slash(alice, "campaign umpire", member=umpire, channel=talk)
    assert refused.ephemeral and "Only a server admin" in refused.text
    named = await fake.slash(fake.admin, "campaign umpire", member=umpire, channel=talk)
    assert named.ephemeral and "is now the umpire" in named.text
    threads = [found[f"orders:{c}"] for c in DEFAULT_FACTIONS]
    await fake.wait_for(
        lambda: (
            all(umpire.id in thread_members(fake, t) for t in threads)
            and world.can_see(umpire.id, int(found["umpire"]["id"]))
        ),
        what="the umpire's access",
    )
    # the umpire (not a plain player) gives factions; one member may hold several
    refused = await fake.slash(bob, "campaign assign", member=alice, faction="DAW", channel=talk)
    assert (
        refused.ephemeral and "Only the umpire" in refused.text and "R-PBP-UMP-01" in refused.text
    )
    for faction in ("DAW", "ORC"):
        given = await fake.slash(
            umpire, "campaign assign", member=alice, faction=faction, channel=talk
        )
        assert given.ephemeral and "now plays" in given.text
    held = await fake.slash(umpire, "campaign assign", member=bob, faction="DAW", channel=talk)
    assert held.ephemeral and "already held by" in held.text and "R-SETUP-02" in held.text
    unknown = await fake.slash(umpire, "campaign assign", member=bob, faction="XYZ", channel=talk)
    assert unknown.ephemeral and "No faction in this campaign 'XYZ'" in unknown.text
    by_name = await fake.slash(
        fake.admin, "campaign assign", member=bob, faction="Wood Elves", channel=talk
    )
    assert "now plays" in by_name.text
    daw, orc, wel = found["orders:DAW"], found["orders:ORC"], found["orders:WEL"]
    await fake.wait_for(
        lambda: (
            alice.id in thread_members(fake, daw)
            and alice.id in thread_members(fake, orc)
            and bob.id in thread_members(fake, wel)
        ),
        what="players added to their orders threads",
    )
    assert world.can_see(alice.id, int(daw["id"])) and not world.can_see(bob.id, int(daw["id"]))
    # free factions come first in the autocomplete
    offered = await fake.autocomplete(
        umpire, "campaign assign", "faction", "", member=carol, channel=talk
    )
    values = [c["value"] for c in offered]
    assert values[:4] == ["LIZ", "DWA", "HEL", "ACH"] and sorted(values[4:]) == [
        "DAW",
        "ORC",
        "WEL",
    ]
    # starting: not by a player; then once
    refused = await fake.slash(alice, "campaign start", channel=talk)
    assert refused.ephemeral and "Only the umpire" in refused.text
    started = await fake.slash(umpire, "campaign start", channel=talk)
    assert started.ephemeral and "has begun: game round 1" in started.text
    assert "Dawnians (DAW) plays first" in started.text
    assert "Run by the umpire" in started.text
    for code in ("LIZ", "DWA", "HEL", "ACH"):
        assert f"({code})" in started.text.split("Run by the umpire")[1]
    again = await fake.slash(umpire, "campaign start", channel=talk)
    assert again.ephemeral and "already started" in again.text
    # /campaign info, from an orders thread
    info = await fake.slash(alice, "campaign info", channel=daw)
    assert info.ephemeral
    assert (
        "Game round 1" in info.text
        and f"<@{alice.id}>" in info.text
        and f"<@{umpire.id}>" in info.text
    )
    # the start is announced through the outbox
    announcements = int(found["announcements"]["id"])
    await fake.wait_for(
        lambda: len(world.messages[announcements]) >= 2, what="the start announcement"
    )


async def test_start_needs_an_umpire(fake: FakeDiscord, bot: BotRunner) -> None:
    """R-PBP-UMP-01: each campaign has one umpire."""
    found = await new_campaign(fake, scenario="skirmish")
    refused = await fake.slash(fake.admin, "campaign start", channel=found["table-talk"])
    assert (
        refused.ephemeral and "has no umpire yet" in refused.text and "R-PBP-UMP-01" in refused.text
    )


async def test_new_with_an_umpire_opens_umpire_channel(fake: FakeDiscord, bot: BotRunner) -> None:
    umpire: FakeUser = fake.players[3]
    found = await new_campaign(fake, scenario="skirmish", umpire=umpire)
    assert fake.world.can_send(umpire.id, int(found["umpire"]["id"]))
    await fake.wait_for(
        lambda: all(
            umpire.id in thread_members(fake, found[f"orders:{c}"]) for c in ("DAW", "ORC", "ACH")
        ),
        what="the umpire in every orders thread",
    )


async def test_replaced_umpire_loses_umpire_channel_and_threads(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    """R-PBP-UMP-01 (one umpire), R-PBP-UMP-04 (the umpire, and no longer the one replaced,
    reads every orders thread). The umpire may also play a faction: the old umpire keeps the
    thread of the faction they play and loses the others."""
    alice, bob, _carol, umpire = fake.players
    found = await start_campaign(fake, players={"DAW": alice, "ORC": bob}, umpire=umpire)
    world, talk = fake.world, found["table-talk"]
    umpire_channel = int(found["umpire"]["id"])
    threads = {code: found[f"orders:{code}"] for code in ("DAW", "ORC", "ACH")}

    named = await fake.slash(fake.admin, "campaign umpire", member=alice, channel=talk)
    assert named.ephemeral and f"<@{alice.id}> is now the umpire" in named.text
    assert "still plays 🌅 Dawnians (DAW)" in named.text
    assert "orders they give for other factions are logged as the umpire's" in named.text
    assert f"<@{umpire.id}> is no longer the umpire" in named.text
    await fake.wait_for(
        lambda: (
            world.can_see(alice.id, umpire_channel)
            and not world.can_see(umpire.id, umpire_channel)
            and all(alice.id in thread_members(fake, t) for t in threads.values())
            and not any(umpire.id in thread_members(fake, t) for t in threads.values())
        ),
        what="the umpire's access moved from the old umpire to alice",
    )
    assert not world.can_see(umpire.id, int(threads["ORC"]["id"]))
    assert bob.id in thread_members(fake, threads["ORC"])  # players keep their threads

    # the old umpire comes back: alice keeps only the thread of the faction she plays
    await fake.slash(fake.admin, "campaign umpire", member=umpire, channel=talk)
    await fake.wait_for(
        lambda: (
            world.can_see(umpire.id, umpire_channel)
            and not world.can_see(alice.id, umpire_channel)
            and all(umpire.id in thread_members(fake, t) for t in threads.values())
            and alice.id in thread_members(fake, threads["DAW"])
            and alice.id not in thread_members(fake, threads["ORC"])
            and alice.id not in thread_members(fake, threads["ACH"])
        ),
        what="alice back to a player's access",
    )
    # naming the same umpire again changes nothing and says so
    service = bot.bot.service
    campaign = (await service.campaigns())[0]

    def written(conn: Connection) -> tuple[int, int]:
        return repo.count_rows(conn, outbox, campaign.id), repo.count_rows(
            conn, audit_log, campaign.id
        )

    before = await bot.bot.db.read(written)
    again = await fake.slash(fake.admin, "campaign umpire", member=umpire, channel=talk)
    assert "already umpires" in again.text
    assert await bot.bot.db.read(written) == before


async def test_umpire_given_a_faction_is_told_orders_for_others_are_logged(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    """R-PBP-UMP-02: the umpire may play a faction; orders for the others are the umpire's."""
    umpire = fake.players[3]
    found = await new_campaign(fake, scenario="skirmish", umpire=umpire)
    given = await fake.slash(
        umpire, "campaign assign", member=umpire, faction="DAW", channel=found["table-talk"]
    )
    assert "now plays 🌅 Dawnians (DAW)" in given.text
    assert "is also the umpire" in given.text and "logged as the umpire's" in given.text


async def test_blank_or_invisible_campaign_names_are_refused_and_nothing_is_made(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    before = len(fake.world.channels)
    for name in ("   ", "\u200b", "Seven\u200bSwords", "\u200b \u200b", "Bad\x07Bell"):
        record = await fake.slash(fake.admin, "campaign new", name=name, scenario="skirmish")
        assert record.ephemeral, name
        assert "Allowed: a name of 1 to 90 visible characters" in record.text, record.text
        assert "blank" in record.text or "invisible or control character" in record.text
    assert await bot.bot.service.campaigns() == []
    assert len(fake.world.channels) == before
    # a name with odd spacing is tidied, not refused
    found = await new_campaign(fake, name="Seven Swords", scenario="skirmish")
    assert found["category"]["name"] == "Seven Swords"


async def test_two_campaign_new_at_once_make_one_campaign(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    first = await fake.slash(
        fake.admin, "campaign new", name="Twin", scenario="skirmish", wait=False
    )
    second = await fake.slash(
        fake.admin, "campaign new", name="twin", scenario="skirmish", wait=False
    )
    await asyncio.gather(fake.answered(first), fake.answered(second))
    texts = sorted([first.text, second.text])
    assert "Setting up **Twin**" in texts[0] or "Setting up **twin**" in texts[0]
    assert "already has a campaign called" in texts[1]
    assert [c.name.casefold() for c in await bot.bot.service.campaigns()] == ["twin"]


async def test_two_assignments_of_one_faction_at_once_give_it_once(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    """R-SETUP-02: a faction has one player, even when two assignments race."""
    alice, bob, _carol, umpire = fake.players
    found = await new_campaign(fake, scenario="skirmish", umpire=umpire)
    talk = found["table-talk"]
    to_alice = await fake.slash(
        umpire, "campaign assign", member=alice, faction="DAW", channel=talk, wait=False
    )
    to_bob = await fake.slash(
        umpire, "campaign assign", member=bob, faction="DAW", channel=talk, wait=False
    )
    await asyncio.gather(fake.answered(to_alice), fake.answered(to_bob))
    won = [r for r in (to_alice, to_bob) if "now plays" in r.text]
    lost = [r for r in (to_alice, to_bob) if "already held by" in r.text]
    assert len(won) == 1 and len(lost) == 1 and "R-SETUP-02" in lost[0].text
    winner = alice if won[0] is to_alice else bob
    campaign = (await bot.bot.service.campaigns())[0]
    assert dict((await bot.bot.service.get_view(campaign.id)).players) == {"DAW": winner.id}


async def test_two_starts_at_once_start_once_and_say_so(fake: FakeDiscord, bot: BotRunner) -> None:
    """R-TURN-01: one game round 1; the second start is told the campaign is under way."""
    umpire = fake.players[3]
    found = await new_campaign(fake, scenario="skirmish", umpire=umpire)
    talk = found["table-talk"]
    first = await fake.slash(umpire, "campaign start", channel=talk, wait=False)
    second = await fake.slash(umpire, "campaign start", channel=talk, wait=False)
    await asyncio.gather(fake.answered(first), fake.answered(second))
    texts = sorted([first.text, second.text])
    assert "has begun: game round 1" in texts[0]
    assert "has already started (it is under way)" in texts[1]
    assert "no orders are taken" not in texts[1]


async def test_a_set_up_step_discord_refuses_is_shown_to_the_umpire_and_admin(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    """A channel the bot may not make is reported in #umpire and by /campaign info, not lost."""
    umpire = fake.players[3]
    fake.chaos.fail(403, count=1, method="POST", path=r"^/channels/\d+/threads$")
    await fake.slash(fake.admin, "campaign new", name="Broken", scenario="skirmish", umpire=umpire)
    umpire_channel = await fake.wait_for(
        lambda: next(
            (c for c in fake.world.channels_named("umpire") if fake.world.messages[int(c["id"])]),
            None,
        ),
        what="a notice in #umpire",
    )
    notice = fake.world.messages[int(umpire_channel["id"])][0]["content"]
    refused = re.search(r"Could not make the thread (orders-[a-z]+): Discord refused \(403", notice)
    assert refused is not None, notice  # threads are made side by side: any one may be hit
    info = await fake.slash(umpire, "campaign info", channel=umpire_channel)
    assert "Not delivered to Discord" in info.text and refused.group(1) in info.text
    audit = await bot.bot.service.audit_log((await bot.bot.service.campaigns())[0].id)
    assert any(a.action == "delivery_failed" for a in audit)


async def test_an_admin_outside_any_campaign_sees_a_set_up_that_failed(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    """When even the category cannot be made, /campaign info in any channel tells an admin,
    also once every channel, thread and post that needed the category has failed too (the
    cause is listed before its consequences)."""
    failed: list[OutboxKind] = []
    pending: list[int] = []
    dispatcher = bot.bot.outbox
    mark_failed = dispatcher._fail

    async def watched_fail(record: Any, error: str) -> None:  # the dispatcher gives up on a row
        await mark_failed(record, error)
        rows = await bot.bot.db.read(lambda conn: repo.outbox_rows(conn, record.campaign_id))
        failed.append(record.kind)
        pending.append(sum(r.status is OutboxStatus.PENDING for r in rows))
        fake.signal.fire()

    dispatcher._fail = watched_fail  # type: ignore[method-assign]
    fake.chaos.fail(403, count=1, method="POST", path=r"^/guilds/\d+/channels$")
    await fake.slash(fake.admin, "campaign new", name="Nowhere", scenario="skirmish")
    await fake.wait_for(
        lambda: OutboxKind.CREATE_CATEGORY in failed and 0 in pending,
        what="the category and everything that needed it given up on",
    )
    info = await fake.slash(fake.admin, "campaign info")  # in #general
    assert "**Nowhere** (being set up): no category yet" in info.text
    assert "Could not make the category Nowhere" in info.text
    player = await fake.slash(fake.players[0], "campaign info")
    assert "not part of a campaign" in player.text


class InfoLines(logging.Handler):
    """The bot's INFO lines, each waking the fake's waits."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.INFO)
        self.fake = fake
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
        self.fake.signal.fire()


def deliver_again(fake: FakeDiscord, record: InteractionRecord) -> None:
    """Discord delivers the same interaction a second time (as after a gateway resume)."""
    fake._session().dispatch("INTERACTION_CREATE", record.payload)


async def test_a_campaign_command_delivered_twice_runs_once(
    fake: FakeDiscord, bot: BotRunner
) -> None:
    """``/campaign new`` and ``/campaign start`` delivered again are dropped before any work,
    with an INFO line: no second answer, no second campaign, no second set-up."""
    heard = InfoLines(fake)
    logger = logging.getLogger("caedes_bot")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(heard)
    try:
        umpire = fake.players[3]
        made = await fake.slash(
            fake.admin, "campaign new", name="Twice", scenario="skirmish", umpire=umpire
        )
        assert "Setting up **Twice**" in made.text, made.text
        deliver_again(fake, made)
        dropped = f"interaction {made.id} was delivered again; dropped"
        await fake.wait_for(lambda: dropped in heard.lines, what="the second /campaign new")
        assert len(made.callbacks) == 1 and not made.followups
        assert [c.name for c in await bot.bot.service.campaigns()] == ["Twice"]

        talk = await fake.wait_for(
            lambda: next(iter(fake.world.channels_named("table-talk")), None),
            what="#table-talk",
        )
        started = await fake.slash(umpire, "campaign start", channel=talk)
        assert "has begun: game round 1" in started.text, started.text
        deliver_again(fake, started)
        dropped = f"interaction {started.id} was delivered again; dropped"
        await fake.wait_for(lambda: dropped in heard.lines, what="the second /campaign start")
        assert len(started.callbacks) == 1 and not started.followups
        assert not any("already answered" in line for line in heard.lines)
    finally:
        logger.removeHandler(heard)
        logger.setLevel(level)
