"""End-to-end: export, import, the verifier and the rollback through the fake Discord
(decision 0023; R-GEN-01, R-GEN-08, R-PBP-UMP-01).

The bot rolls the campaign's own seeded dice. The default scenario's first game round is played
through the service (the Dawnian Knights fight for Sarnath Fields: dice are rolled), then:

* ``/campaign export`` by the umpire answers privately with the file; under way it holds no
  seed, and the commitment posted at the start is its SHA-256; imported by an admin, such a
  file continues in a new campaign with a fresh seed, whose SHA-256 is posted there;
* once finished, the export holds the seed, ``python -m caedes_bot.verify`` passes it (exit 0)
  and fails the same file with one die changed (exit 1); ``/campaign import`` of it by an admin
  makes a second campaign that plays identically;
* ``/umpire rollback``, picked from its autocomplete, takes round 2 back to before a purchase,
  is announced, and a replay of the log matches the campaign.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from caedes_bot.domain.records import CampaignStatus
from caedes_bot.persistence.exportfile import encode_export
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.dice import seed_commitment
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import EndStep
from caedes_bot.service import Actor
from caedes_bot.verify import main as verify_main
from tests.e2e.campaigns import DEFAULT_FACTIONS, setup_done
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, Table, staffed_campaign, start_bot
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, FakeFile, all_text
from tests.test_service_export import _changed_die
from tests.test_service_game import play_first_round

#: Seconds to wait for a post in #announcements: it is delivered after every post of the game
#: round before it, at the pace of the fake's rate limits, and a loaded machine is slow.
DELIVERY = 60.0


async def _round_played(fake: FakeDiscord, make_bot: MakeBot) -> tuple[BotRunner, Table]:
    runner = await make_bot()  # the campaign's own seeded dice
    alice = fake.players[0]
    table = await staffed_campaign(fake, scenario="default", seats={"DAW": alice})
    await play_first_round(
        runner.bot.service, 1, daw=Actor(alice.id), umpire=Actor(table.umpire.id)
    )
    return runner, table


def _file(record: Any, fake: FakeDiscord) -> tuple[str, bytes]:
    (attachment,) = record.reply["attachments"]
    return attachment["filename"], fake.world.files[int(attachment["id"])]


async def test_export_verify_and_import_of_a_finished_campaign(
    fake: FakeDiscord, make_bot: MakeBot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runner, table = await _round_played(fake, make_bot)
    service = runner.bot.service
    talk = table.found["table-talk"]
    state = await service.get_state(1)
    seed = state.dice_seed
    assert state.dice_rolls > 0
    await fake.wait_for(
        lambda: seed_commitment(seed) in all_text(fake.messages_in(table.announcements)),
        what="the commitment to the dice seed",
        timeout=DELIVERY,
    )

    refused = await fake.slash(fake.players[0], "campaign export", channel=talk)
    assert refused.ephemeral and "umpire" in refused.text.lower()
    mid = await fake.slash(table.umpire, "campaign export", channel=talk)
    assert mid.ephemeral and "dice seed is left out" in mid.text
    _, data = _file(mid, fake)
    assert seed.encode() not in gzip.decompress(data)
    for channel in fake.world.messages:  # nothing posted or replied shows the seed
        assert seed not in all_text(fake.world.messages[channel])

    # an unfinished file continues in a new campaign, with a fresh seed committed in public
    going = await fake.slash(
        fake.admin, "campaign import", file=FakeFile("mid.json.gz", data), name="Continued"
    )
    assert going.ephemeral and "continues **Seven Swords**" in going.text
    (continued,) = [c for c in await service.campaigns(guild_id=fake.guild_id) if c.id != 1]
    fresh = (await service.get_state(continued.id)).dice_seed
    assert fresh != seed
    places = await fake.wait_for(
        lambda: setup_done(fake, "Continued", DEFAULT_FACTIONS),
        what="the new campaign's set-up",
        timeout=DELIVERY,
    )
    await fake.wait_for(
        lambda: seed_commitment(fresh) in all_text(fake.messages_in(places["announcements"])),
        what="the commitment to the new seed",
        timeout=DELIVERY,
    )

    await service.set_status(1, CampaignStatus.FINISHED, by=table.umpire.id)
    await fake.wait_for(
        lambda: seed in all_text(fake.messages_in(table.announcements)),
        what="the seed revealed at the end",
        timeout=DELIVERY,
    )
    done = await fake.slash(table.umpire, "campaign export", channel=talk)
    name, data = _file(done, fake)
    assert name.endswith(".json.gz") and "dice seed is in it" in done.text
    honest = tmp_path / name
    honest.write_bytes(data)
    assert verify_main([str(honest)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PASS: Seven Swords:") and out.count("\n") == 1
    changed, order_seq = _changed_die(json.loads(gzip.decompress(data)))
    tampered = tmp_path / "tampered.json.gz"
    tampered.write_bytes(encode_export(changed))
    assert verify_main([str(tampered)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"FAIL: Seven Swords: order {order_seq} ") and out.count("\n") == 1

    not_admin = await fake.slash(
        table.umpire, "campaign import", file=FakeFile(name, data), name="Replayed"
    )
    assert not_admin.ephemeral and "admin" in not_admin.text.lower()
    bad = await fake.slash(
        fake.admin, "campaign import", file=FakeFile("x.json.gz", b"junk"), name="Junk"
    )
    assert bad.ephemeral and "not gzipped" in bad.text and "/campaign export" in bad.text
    imported = await fake.slash(
        fake.admin, "campaign import", file=FakeFile(name, data), name="Replayed"
    )
    assert imported.ephemeral and "every die, event and the final state match" in imported.text
    (copy,) = [c for c in await service.campaigns(guild_id=fake.guild_id) if c.name == "Replayed"]
    assert copy.status is CampaignStatus.FINISHED
    assert await service.get_state(copy.id) == await service.get_state(1)
    assert [e.payload for e in await service.events(copy.id)] == [
        e.payload for e in await service.events(1)
    ]
    service.forget()
    assert await service.replay(copy.id) == await service.get_state(1)


async def test_rollback_from_its_autocomplete_then_a_replay_matches(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    runner, table = await _round_played(fake, make_bot)
    service = runner.bot.service
    talk = table.found["table-talk"]
    alice = Actor(fake.players[0].id)
    while (await service.get_state(1)).step is not Step.BUY:
        await service.submit(1, alice, EndStep("DAW"))
    rp = (await service.get_state(1)).factions["DAW"].rp
    await service.submit(1, alice, BuyUnits("DAW", "U-DAW-01", 1))
    bought = await service.get_state(1)

    offered = await fake.autocomplete(table.umpire, "umpire rollback", "point", channel=talk)
    assert offered and all(c["name"].startswith("#") for c in offered)
    newest = offered[0]  # newest first: the state right before the purchase
    assert "Dawnians" in newest["name"]
    assert await fake.autocomplete(fake.players[0], "umpire rollback", "point", channel=talk) == []
    wrong = await fake.slash(table.umpire, "umpire rollback", point="999", channel=talk)
    assert wrong.ephemeral and "not an earlier point" in wrong.text and "R-PBP-UMP-01" in wrong.text

    done = await fake.slash(table.umpire, "umpire rollback", point=newest["value"], channel=talk)
    assert done.ephemeral and f"order #{newest['value']}" in done.text
    state = await service.get_state(1)
    assert state.step is Step.BUY and state.factions["DAW"].rp == rp
    assert state.dice_rolls == bought.dice_rolls  # the dice counter never goes back
    await fake.wait_for(
        lambda: (
            "The umpire rolled the campaign back" in all_text(fake.messages_in(table.announcements))
        ),
        what="the notice of the rollback",
        timeout=DELIVERY,
    )
    audit = await fake.slash(table.umpire, "umpire audit", channel=talk)
    assert f"rolled the campaign back to the state after order #{newest['value']}" in audit.text

    await service.submit(1, alice, BuyUnits("DAW", "U-DAW-01", 2))
    service.forget()
    assert await service.replay(1) == await service.get_state(1)


async def test_an_export_over_the_servers_upload_limit_is_refused_clearly(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """Decision 0023: an export larger than the upload limit the interaction gives is not
    sent: the umpire is told privately both sizes and what to do, and nothing is logged as
    exported. When Discord takes less than it said (413, code 40005 "Request entity too
    large"), the umpire is told so too, never left with a silent failure."""
    runner = await start_bot(make_bot, QueuedDice())
    table = await staffed_campaign(fake, seats={"DAW": fake.players[0]})
    talk = table.found["table-talk"]
    service = runner.bot.service
    fake.upload_limit = 1000  # bytes; a fresh campaign's export is several times that

    told = await fake.slash(table.umpire, "campaign export", channel=talk)
    assert told.ephemeral and not told.reply.get("attachments")
    assert "Discord takes files of at most" in told.text and "(1,000 bytes)" in told.text
    assert "so it was not sent" in told.text and "Server Boost" in told.text
    assert "campaign_exported" not in [a.action for a in await service.audit_log(1)]
    assert not [r for r in fake.requests if r.status == 413]  # refused before any upload

    fake.told_upload_limit = 10 * 1024 * 1024  # the interaction says more than is taken
    refused = await fake.slash(table.umpire, "campaign export", channel=talk)
    assert refused.ephemeral and not refused.reply.get("attachments")
    assert "Request entity too large" in refused.text and "so it was not sent" in refused.text
    assert [r.status for r in fake.requests if r.status == 413] == [413]
