"""End to end: ``/negotiate more`` offers only the factions the rules let join (R-PBP-NEG-01),
and a thread is not made for factions judged apart between the command's check and the
making of the thread (R-PBP-NEG-03).

The boards are those of ``test_talks_threads``: "borders" (the Dawnians in Harrowgate, the
Orcs in Melvek Tor and Wolfsgate, neighbours through Wolfsgate only; neighbours judged at every
turn start) and "three" (with the Acherousians in Kestrel Downs, beside Harrowgate and
Tallowmere but not Wolfsgate).
"""

from __future__ import annotations

from typing import Any

from caedes_bot.app import CaedesBot
from caedes_bot.gamedata.model import Ruleset
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, staffed_campaign
from tests.e2e.test_talks_threads import _borders, _pass_turn, _three
from tests.fakediscord import FakeDiscord


async def test_more_offers_only_factions_that_neighbour_every_member(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-PBP-NEG-01: with the Orcs as first faction, ``more`` offers the Dawnians nothing (the
    Acherousians do not neighbour the Orcs); with the Acherousians first, nothing either. Once
    the Orcs hold Tallowmere (judged at the Orcs' turn start) the Acherousians are offered
    beside the Orcs, and the Orcs beside the Acherousians; never the asker, never a faction
    already named. Typing "Or" in ``faction`` offers the Orcs (what is typed there names the
    faction to talk to, not the one acted for)."""
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()}, ruleset=_three(ruleset)
    )
    alice, bob, carol, umpire = fake.players
    table = await staffed_campaign(
        fake, scenario="three", seats={"DAW": alice, "ORC": bob, "ACH": carol}
    )
    daw = table.thread("DAW")
    offered = await fake.autocomplete(alice, "negotiate", "more", "", faction="ORC", channel=daw)
    assert offered == [], offered
    moved = await fake.slash(
        umpire,
        "umpire set owner",
        province="Tallowmere",
        faction="ORC",
        channel=table.found["table-talk"],
    )
    assert "Done" in moved.text, moved.text
    await _pass_turn(fake, table, runner, "DAW")
    offered = await fake.autocomplete(alice, "negotiate", "more", "", faction="ORC", channel=daw)
    assert [(c["name"], c["value"]) for c in offered] == [("Acherousians", "ACH")], offered
    offered = await fake.autocomplete(alice, "negotiate", "more", "or", faction="ACH", channel=daw)
    assert [(c["name"], c["value"]) for c in offered] == [("Orcs", "ORC")], offered
    offered = await fake.autocomplete(
        alice, "negotiate", "more", "ACH, ", faction="ORC", channel=daw
    )
    assert offered == [], offered  # the three are all named: nobody else neighbours them all
    ach = table.thread("ACH")
    mine = await fake.autocomplete(carol, "negotiate", "more", "", faction="DAW", channel=ach)
    assert [c["value"] for c in mine] == ["ORC"], mine  # for the Acherousians, Carol's own
    # what is typed in ``faction`` is the faction to talk to, not the one acted for
    typed = await fake.autocomplete(alice, "negotiate", "faction", "Or", channel=daw)
    assert [c["value"] for c in typed] == ["ORC"], typed


async def test_a_thread_is_not_made_when_borders_are_judged_apart_meanwhile(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-PBP-NEG-03, R-PBP-NEG-01: Alice asks for a thread with the Orcs while they are
    neighbours; before the thread is made (the service's call is held back here) the umpire
    takes Wolfsgate from the Orcs and the turn passes, so they are judged apart. The thread is
    not made: Alice is told why, naming no neighbour, and nothing waits in the outbox."""
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()}, ruleset=_borders(ruleset)
    )
    assert isinstance(runner.bot, CaedesBot)
    service = runner.bot.service
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, scenario="borders", seats={"DAW": alice, "ORC": bob})
    real = service.open_thread

    async def judged_apart_first(*args: Any, **kwargs: Any) -> Any:
        given = await fake.slash(
            umpire, "umpire set owner", province="Wolfsgate", channel=table.found["table-talk"]
        )
        assert "Done" in given.text, given.text
        await _pass_turn(fake, table, runner, "DAW")
        state = await service.get_state(1)
        assert state.neighbour_view == [], state.neighbour_view
        return await real(*args, **kwargs)

    service.open_thread = judged_apart_first  # type: ignore[method-assign]
    refused = await fake.slash(alice, "negotiate", faction="Orcs", channel=table.thread("DAW"))
    assert refused.ephemeral and "R-PBP-NEG-02" in refused.text, refused.text
    assert "talks-daw-orc" not in refused.text, refused.text
    channels = await service.channels(1)
    assert not any("talks" in str(key) for key in channels), channels
    assert not [c for c in fake.world.channels.values() if c["name"] == "talks-daw-orc"]


async def test_r_pbp_neg_04_players_and_umpire_are_told_where_negotiation_belongs(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-PBP-NEG-04: the first post of a new negotiation thread, seen by both players and the
    umpire, says negotiation belongs in these threads and elsewhere is against the rules;
    Alice's /help says so too, and the umpire's /help that the umpire enforces it."""
    await make_bot(
        service_options={"dice_factory": QueuedDice().factory()}, ruleset=_borders(ruleset)
    )
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, scenario="borders", seats={"DAW": alice, "ORC": bob})
    opened = await fake.slash(alice, "negotiate", faction="Orcs", channel=table.thread("DAW"))
    assert "talks-daw-orc" in opened.text, opened.text
    (thread,) = await fake.wait_for(
        lambda: [c for c in fake.world.channels.values() if c["name"] == "talks-daw-orc"],
        what="the negotiation thread",
    )
    first = await fake.wait_for(
        lambda: fake.messages_in(thread)[:1], what="the thread's first post"
    )
    assert "R-PBP-NEG-04" in first[0]["content"] and "against the rules" in first[0]["content"]
    for member in (alice, bob, umpire):
        assert fake.world.can_see(member.id, int(thread["id"]))
    helped = await fake.slash(alice, "help", channel=table.thread("DAW"))
    assert "R-PBP-NEG-04" in helped.text and "You enforce" not in helped.text, helped.text
    umpired = await fake.slash(umpire, "help", channel=table.found["table-talk"])
    assert "You enforce R-PBP-NEG-04" in umpired.text, umpired.text
