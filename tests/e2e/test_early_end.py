"""End to end: the umpire's early end carried by the players' vote (R-VIC-04), and a finished
campaign that stays readable, refuses orders and fires no deadline (R-PBP-UMP-05).

Skirmish with three players: alice (Dawnians), bob (Orcs), carol (Acherousians). Three players
in the game, so 2 accepts carry the early end.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from caedes_bot.app import CaedesBot
from caedes_bot.domain.places import ChannelKey
from caedes_bot.scheduler import TickReport
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import JSON, QueuedDice, Table, control, staffed_campaign
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, all_text, message_text


class Clock:
    """The scheduler's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


def _caedes(runner: BotRunner) -> CaedesBot:
    assert isinstance(runner.bot, CaedesBot)
    return runner.bot


async def _vote_message(fake: FakeDiscord, table: Table, faction: str) -> JSON:
    def found() -> JSON | None:
        for m in fake.messages_in(table.thread(faction)):
            if "proposes to end the campaign" in message_text(m) and m.get("components"):
                return m
        return None

    message: JSON = await fake.wait_for(found, what=f"the vote in {faction}'s thread")
    return message


async def test_an_early_end_by_vote_and_a_finished_campaign(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-VIC-04: the umpire proposes the Orcs as winners; each player gets Accept and Refuse in
    their orders thread. Alice refuses (0 of 2), the umpire may not vote for Bob, Bob and Carol
    accept: the campaign is over, announced, and the buttons are gone. Then the finished
    campaign: /status still answers, /done, a new negotiation thread and the umpire's
    /umpire advance are refused with a clear answer, no deadline is open and the scheduler, two days on, posts nothing."""
    clock = Clock()
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()},
        scheduler_options={"clock": clock},
    )
    alice, bob, carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    talk = table.found["table-talk"]
    service = _caedes(runner).service

    # /stats during play: the board's figures for all, income only for one's own (R-GEN-07)
    stats = await fake.slash(alice, "stats", channel=table.thread("DAW"))
    assert stats.ephemeral and "provinces by round: R1 3" in stats.text, stats.text
    assert "for your own factions only" in stats.text

    proposed = await fake.slash(umpire, "umpire end", winners="Orcs", channel=talk)
    assert "proposes to end the campaign" in proposed.text, proposed.text
    assert "2 of the 3 players" in proposed.text, proposed.text
    await fake.wait_for(
        lambda: "proposes to end the campaign" in all_text(fake.messages_in(table.announcements)),
        what="the proposal announced",
    )
    daw = await _vote_message(fake, table, "DAW")
    assert f"<@{alice.id}>" in message_text(daw)
    orc = await _vote_message(fake, table, "ORC")
    ach = await _vote_message(fake, table, "ACH")

    no = await fake.click(alice, daw, control(daw, "refuse"))
    assert "You refuse the early end" in no.text and "0 accept, 1 refuse" in no.text, no.text
    not_yours = await fake.click(umpire, orc, control(orc, "accept"))
    assert not_yours.ephemeral and "Only the player of" in not_yours.text, not_yours.text
    yes = await fake.click(bob, orc, control(orc, "accept"))
    assert "1 accept, 1 refuse, 2 needed" in yes.text, yes.text
    assert not (await service.get_state(1)).finished
    last = await fake.click(carol, ach, control(ach, "accept"))
    assert "The campaign is over" in last.text, last.text
    state = await service.get_state(1)
    assert state.finished and state.winner == ["ORC"]
    await fake.wait_for(
        lambda: (
            "**The campaign is over** (ended early by the umpire, R-VIC-04). Winner: 👹 Orcs"
            in all_text(fake.messages_in(table.announcements))
        ),
        what="the end announced",
    )
    await fake.wait_for(
        lambda: (
            "**Final summary** after game round 1. Winner: 👹 Orcs (ORC)."
            in all_text(fake.messages_in(table.announcements))
        ),
        what="the final summary",
    )
    summary = all_text(fake.messages_in(table.announcements))
    assert "dice luck: no battle dice" in summary and "income by round" in summary
    await fake.wait_for(
        lambda: all(not fake.world.message(int(m["id"]))["components"] for m in (daw, orc, ach)),
        what="the vote's buttons gone",
    )

    # a finished campaign stays readable, takes no orders and fires no deadline
    status = await fake.slash(bob, "status", channel=table.thread("ORC"))
    assert status.ephemeral and "Orcs" in status.text, status.text
    after = await fake.slash(carol, "stats", channel=table.thread("ACH"))
    assert "Acherousians" in after.text, after.text
    done = await fake.slash(alice, "done", channel=table.thread("DAW"))
    assert done.ephemeral and "is over; no orders are taken" in done.text, done.text
    talks = await fake.slash(alice, "negotiate", faction="Orcs", channel=table.thread("DAW"))
    assert talks.ephemeral and "is over" in talks.text, talks.text
    assert ChannelKey.talks("DAW", "ORC") not in await service.channels(1)  # none made
    advance = await fake.slash(umpire, "umpire advance", channel=talk)
    assert advance.ephemeral and "is over; no orders are taken" in advance.text, advance.text
    assert "/campaign start" not in advance.text, advance.text
    assert await service.deadlines(1) == []
    clock.now += timedelta(days=2)  # long after the turn deadline the campaign had
    assert await _caedes(runner).scheduler.tick() == TickReport()


async def test_a_repeated_vote_is_answered_privately_and_proposals_close_at_the_end(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-VIC-04, R-ALLY-01, R-ALLY-02: alice proposes an alliance with the Orcs (Bob's thread
    gets Confirm and Refuse); proposing it again, she is told to wait for the Orcs, not about
    buttons she does not have. The umpire proposes an early end; alice accepts, then presses
    Accept again on her message as it stood: she is told privately that her vote is recorded,
    and nothing is announced again. Bob accepts (2 of the 3 players): the campaign is over, and
    the alliance still waiting is closed: Bob's proposal loses its buttons and says the campaign
    is over, and /diplomacy lists it no more."""
    runner = await make_bot(service_options={"dice_factory": QueuedDice().factory()})
    alice, bob, carol, umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    talk = table.found["table-talk"]
    service = _caedes(runner).service
    daw_thread = table.thread("DAW")
    await fake.slash(alice, "alliance propose", partners="Orcs", channel=daw_thread)

    def offer() -> JSON | None:
        for m in fake.messages_in(table.thread("ORC")):
            if "proposes an alliance" in message_text(m) and m.get("components"):
                return m
        return None

    proposal: JSON = await fake.wait_for(offer, what="the proposal in the Orcs' thread")
    again = await fake.slash(alice, "alliance propose", partners="Orcs", channel=daw_thread)
    assert again.ephemeral and "already been proposed" in again.text, again.text
    assert "Allowed: wait for ORC to confirm or refuse it" in again.text, again.text
    assert "buttons" not in again.text, again.text

    await fake.slash(umpire, "umpire end", winners="Orcs", channel=talk)
    daw = await _vote_message(fake, table, "DAW")
    orc = await _vote_message(fake, table, "ORC")
    yes = await fake.click(alice, daw, control(daw, "accept"))
    assert "You accept the early end" in yes.text, yes.text
    twice = await fake.click(alice, daw, control(daw, "accept"))  # the message as it stood
    assert twice.ephemeral and twice.text.startswith(
        "Your vote to accept the early end is already recorded. (R-VIC-04)\nAllowed: "
    ), twice.text
    vote = (await service.get_state(1)).early_end
    assert vote is not None and len(vote.accepts) == 1
    await fake.click(bob, orc, control(orc, "accept"))  # 2 of the 3 players: carried
    state = await service.get_state(1)
    assert state.finished and state.pact_proposals == []
    await fake.wait_for(
        lambda: "**The campaign is over**" in all_text(fake.messages_in(table.announcements)),
        what="the end announced",
    )
    news = all_text(fake.messages_in(table.announcements))
    assert news.count("Dawnians (DAW) accepts the early end") == 1, news  # announced once

    def closed() -> bool:
        shown = fake.world.message(int(proposal["id"]))
        return not shown["components"] and "the campaign is over" in message_text(shown)

    await fake.wait_for(closed, what="the proposal closed, its buttons gone")
    listed = await fake.slash(alice, "diplomacy", channel=daw_thread)
    assert "Proposal" not in listed.text, listed.text
