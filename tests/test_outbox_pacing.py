"""The outbox coalesces the edits of one message and paces the paced ones (decision 0015): a
battle clicked through quickly owes its message one edit with the newest content, not one
per round, and a paced message is written at most once per ``edit_interval`` seconds, on a
fake clock. Nothing owed is lost: the rows are stored, and a fresh dispatcher (a restart)
delivers the newest content."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from sqlalchemy.engine import Connection

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import OutboxKind, OutboxMessage, OutboxStatus
from caedes_bot.outbox import OutboxDispatcher
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.service import Delivery, RulesService
from caedes_bot.settings import Settings, settings_error_line
from tests.persistence.fake_sender import FakeDiscord
from tests.persistence.fixtures import db, db_template, db_url
from tests.test_outbox import T0, FakeClock, _set_up, clock, service

__all__ = ["clock", "db", "db_template", "db_url", "service"]

BATTLES = ChannelKey.BATTLES


def _post(text: str, key: str, **extra: Any) -> OutboxMessage:
    return OutboxMessage(BATTLES, OutboxKind.POST, {"content": text, **extra}, dedupe_key=key)


def _edit(text: str, key: str, **extra: Any) -> OutboxMessage:
    return OutboxMessage(BATTLES, OutboxKind.EDIT, {"content": text, "message_key": key, **extra})


async def _queue(db: Database, cid: int, messages: list[OutboxMessage]) -> list[int]:
    def _q(conn: Connection) -> list[int]:
        return repo.insert_outbox(conn, cid, messages, now=T0)

    return await db.write(_q)


async def _rows(db: Database, cid: int, ids: list[int]) -> list[Any]:
    def _q(conn: Connection) -> Any:
        return repo.outbox_rows(conn, cid, ids=ids)

    return await db.read(_q)


async def _battles_texts(service: RulesService, discord: FakeDiscord, cid: int) -> list[str]:
    channel = (await service.channels(cid))["battles"].discord_id
    assert channel is not None
    return discord.messages[channel]


async def test_pending_edits_of_one_message_become_the_newest(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """A post and five edits of it queued at once: one edit goes, with the newest content;
    the four older are marked delivered, superseded by it, and nothing is sent for them."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    ids = await _queue(
        db,
        cid,
        [_post("round 0", "battle:1"), *(_edit(f"round {n}", "battle:1") for n in range(1, 6))],
    )
    calls_before = len(discord.calls)
    assert await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once() == 2
    assert discord.calls[calls_before:] == [ids[0], ids[5]]
    assert await _battles_texts(service, discord, cid) == ["round 5"]
    rows = await _rows(db, cid, ids)
    assert all(r.status is OutboxStatus.DELIVERED for r in rows)
    assert [r.result for r in rows[1:5]] == [{"superseded_by": ids[5]}] * 4
    assert all(r.discord_message_id is None for r in rows[1:5])
    assert rows[5].discord_message_id == rows[0].discord_message_id


async def test_an_edit_meant_for_a_replaced_message_is_not_coalesced(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """An edit of a key, a post that replaces that key, an edit of it again: the first edit is
    for the old message and the last for the new one, so all three go."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    await _queue(db, cid, [_post("old panel", "panel:1")])
    await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once()
    ids = await _queue(
        db,
        cid,
        [
            _edit("retired", "panel:1"),
            OutboxMessage(
                BATTLES, OutboxKind.POST, {"content": "new panel", "replaces": "panel:1"}
            ),
            _edit("new panel v2", "panel:1"),
        ],
    )
    assert await OutboxDispatcher(Delivery(db), discord, clock=clock).run_once() == 3
    assert await _battles_texts(service, discord, cid) == ["retired", "new panel v2"]
    assert all(
        r.result is None or "superseded_by" not in r.result for r in await _rows(db, cid, ids)
    )


async def test_a_paced_message_is_written_once_per_interval_with_the_newest_content(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """``edit_interval`` 10 s: the battle's post goes at once; an edit owed 1 s later waits
    until 10 s after the post (and its queue with it), edits queued meanwhile fold into it;
    at 10 s one edit goes with the newest content. The next edit waits 10 s again."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    dispatcher = OutboxDispatcher(Delivery(db), discord, clock=clock, edit_interval=10.0)
    await _queue(db, cid, [_post("round 0", "battle:1", paced=True)])
    assert await dispatcher.run_once() == 1
    clock.advance(1)
    await _queue(db, cid, [_edit("round 1", "battle:1", paced=True)])
    assert await dispatcher.run_once() == 0
    assert await dispatcher.delivery.next_attempt() == T0.replace(second=10)
    clock.advance(4)
    ids = await _queue(
        db,
        cid,
        [*(_edit(f"round {n}", "battle:1", paced=True) for n in (2, 3, 4)), _post("news", "n:1")],
    )
    assert await dispatcher.run_once() == 0
    assert await _battles_texts(service, discord, cid) == ["round 0"]
    clock.advance(5)
    assert await dispatcher.run_once() == 2  # the newest edit, then the post behind it
    assert await _battles_texts(service, discord, cid) == ["round 4", "news"]
    rows = await _rows(db, cid, ids)
    assert [r.result for r in rows[:2]] == [{"superseded_by": ids[2]}] * 2
    clock.advance(3)
    await _queue(db, cid, [_edit("round 5", "battle:1", paced=True)])
    assert await dispatcher.run_once() == 0
    clock.advance(7)
    assert await dispatcher.run_once() == 1
    assert await _battles_texts(service, discord, cid) == ["round 5", "news"]


async def test_edits_owed_before_a_restart_are_delivered_after_it(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """Edits waiting for their interval when the bot stops are stored rows: a fresh
    dispatcher (which remembers no write) delivers the newest at once."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    first = OutboxDispatcher(Delivery(db), discord, clock=clock, edit_interval=60.0)
    await _queue(db, cid, [_post("round 0", "battle:1", paced=True)])
    await first.run_once()
    await _queue(db, cid, [_edit(f"round {n}", "battle:1", paced=True) for n in (1, 2, 3)])
    assert await first.run_once() == 0
    clock.advance(1)
    second = OutboxDispatcher(Delivery(db), discord, clock=clock, edit_interval=60.0)
    assert await second.run_once() == 0  # deferred rows wait for their time even so
    clock.advance(59)
    assert await second.run_once() == 1
    assert await _battles_texts(service, discord, cid) == ["round 3"]


async def test_edits_not_marked_paced_go_at_once(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """Pacing is for messages marked ``paced`` (battle messages): a turn panel's edits go
    after every order, each the newest of what is pending."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    dispatcher = OutboxDispatcher(Delivery(db), discord, clock=clock, edit_interval=60.0)
    await _queue(db, cid, [_post("panel v1", "panel:1")])
    for n in (2, 3):
        await _queue(db, cid, [_edit(f"panel v{n}", "panel:1")])
        assert await dispatcher.run_once() >= 1
        assert await _battles_texts(service, discord, cid) == [f"panel v{n}"]


def test_an_edit_of_text_and_controls_only_never_supersedes_an_embed() -> None:
    """R-ATTR-BLITZ-02 (decision 0015): a won battle's result (an edit with its embed) and,
    queued behind it, the edit that takes the blitz controls away once answered (text and
    controls only): both are owed, since the second does not carry the embed; a full edit
    after them supersedes both."""
    from caedes_bot.domain.records import OutboxRecord
    from caedes_bot.outbox import superseding_edit

    def row(n: int, payload: dict[str, Any]) -> OutboxRecord:
        return OutboxRecord(
            id=n,
            campaign_id=1,
            channel_key=BATTLES,
            kind=OutboxKind.EDIT,
            payload={"message_key": "battle:1", **payload},
            dedupe_key=None,
            nonce=f"n{n}",
            status=OutboxStatus.PENDING,
            attempts=0,
            next_attempt_at=T0,
            last_error=None,
            delivered_at=None,
            discord_message_id=None,
            result=None,
            depends_on=None,
            created_at=T0,
        )

    full = row(1, {"embeds": [{"title": "Battle"}], "components": []})
    partial = row(2, {"content": "answered", "components": []})
    assert superseding_edit([full, partial], 0) is None
    later = row(3, {"embeds": [{"title": "Battle"}], "components": []})
    rows = [full, partial, later]
    assert superseding_edit(rows, 0) is later and superseding_edit(rows, 1) is later


@pytest.mark.parametrize("bad", ["-1", "3601", "inf", "nan", "soon"])
def test_the_interval_is_a_setting_that_refuses_bad_values(
    monkeypatch: pytest.MonkeyPatch, bad: str
) -> None:
    """``CAEDES_BATTLE_EDIT_INTERVAL``: 2 s by default, any number of seconds from 0 to an
    hour; anything else stops the start with one line naming the variable."""
    assert Settings(_env_file=None).battle_edit_interval == 2.0  # type: ignore[call-arg]
    monkeypatch.setenv("CAEDES_BATTLE_EDIT_INTERVAL", "0.5")
    assert Settings(_env_file=None).battle_edit_interval == 0.5  # type: ignore[call-arg]
    monkeypatch.setenv("CAEDES_BATTLE_EDIT_INTERVAL", bad)
    with pytest.raises(ValidationError) as err:
        Settings(_env_file=None)  # type: ignore[call-arg]
    line = settings_error_line(err.value)
    assert "CAEDES_BATTLE_EDIT_INTERVAL" in line and "0 to 3600" in line, line


async def test_an_interval_that_runs_out_during_a_pass_waits_for_the_next_read(
    service: RulesService, db: Database, clock: FakeClock
) -> None:
    """A pass reads a post and a paced edit; while Discord takes the post the interval runs
    out and a newer edit is queued. The edit read before is not sent (the newer one was not
    read with it): the next pass folds it into the newer one, so the message gets one edit."""
    discord = FakeDiscord()
    cid = await _set_up(service, discord, clock)
    dispatcher = OutboxDispatcher(Delivery(db), discord, clock=clock, edit_interval=10.0)
    await _queue(db, cid, [_post("round 0", "battle:1", paced=True)])
    await dispatcher.run_once()
    clock.advance(1)
    await _queue(db, cid, [_post("news", "n:1"), _edit("round 1", "battle:1", paced=True)])
    plain = discord.deliver

    async def slow(row: Any) -> Any:
        if row.payload.get("content") == "news":
            clock.advance(10)  # Discord is slow: the interval runs out meanwhile
            await _queue(db, cid, [_edit("round 2", "battle:1", paced=True)])
        return await plain(row)

    discord.deliver = slow  # type: ignore[method-assign]
    sent = len(discord.calls)
    await dispatcher.run_once()
    assert await _battles_texts(service, discord, cid) == ["round 2", "news"]
    assert len(discord.calls) - sent == 2  # the post and one edit
