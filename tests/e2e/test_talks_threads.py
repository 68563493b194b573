"""End to end: a negotiation thread goes read-only when borders move and opens again when they
move back (R-PBP-NEG-01, R-PBP-NEG-02, R-PBP-NEG-03, option ``neighbour_recompute`` ``turn``).

The scenario is made here from the shipped default one ("borders"): the Dawnians (alice, first
in turn order) hold Harrowgate with one infantry; the Orcs (bob) hold Melvek Tor with one
trooper and the empty Wolfsgate, which borders Harrowgate (Melvek Tor does not). So the two are
neighbours only through Wolfsgate. The campaign judges neighbours at every turn's start
(``neighbour_recompute = "turn"``). The umpire moves the border with ``/umpire set owner``.
"""

from __future__ import annotations

from dataclasses import replace

from caedes_bot.app import CaedesBot
from caedes_bot.gamedata.model import Ruleset, Scenario, ScenarioFaction, ScenarioUnit
from tests.e2e.campaigns import thread_members
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import JSON, QueuedDice, Table, staffed_campaign
from tests.e2e.harness import BotRunner
from tests.fakediscord import ApiError, FakeDiscord, all_text


def _borders(shipped: Ruleset) -> Ruleset:
    base = shipped.scenarios["default"]
    scenario: Scenario = replace(
        base,
        id="borders",
        name="Moving borders",
        factions=(ScenarioFaction("DAW", 10, {}, None), ScenarioFaction("ORC", 10, {}, None)),
        owners={"harrowgate": "DAW", "melvek-tor": "ORC", "wolfsgate": "ORC"},
        units=(
            ScenarioUnit("U-DAW-01", "harrowgate", 1),
            ScenarioUnit("U-ORC-02", "melvek-tor", 1),
        ),
        heroes={},
        alliances=(),
        fealty={},
        turn_limit=None,
        options=replace(base.options, neighbour_recompute="turn"),
    )
    return replace(shipped, scenarios={**shipped.scenarios, "borders": scenario})


def _caedes(runner: BotRunner) -> CaedesBot:
    assert isinstance(runner.bot, CaedesBot)
    return runner.bot


async def _pass_turn(fake: FakeDiscord, table: Table, runner: BotRunner, faction: str) -> None:
    """The umpire moves ``faction``'s turn on, step by step, until the next turn begins."""
    service = _caedes(runner).service
    for _ in range(15):
        state = await service.get_state(1)
        if state.active != faction:
            return
        await fake.slash(table.umpire, "umpire advance", channel=table.found["table-talk"])
    raise AssertionError(f"{faction}'s turn did not end")


def _locked(thread: JSON) -> bool:
    return bool(thread["thread_metadata"]["locked"])


async def test_a_thread_goes_read_only_when_borders_move_and_opens_again(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-PBP-NEG-03: the Orcs lose Wolfsgate in the Dawnians' turn; at the Orcs' turn start
    the two are judged apart: a notice, then the thread is locked (Bob may read, not post;
    ``/negotiate`` refuses). Wolfsgate given back in the Orcs' turn: at the next turn start
    they neighbour again and the thread opens, and Bob may post again."""
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()}, ruleset=_borders(ruleset)
    )
    alice, bob, _carol, umpire = fake.players
    table = await staffed_campaign(fake, scenario="borders", seats={"DAW": alice, "ORC": bob})
    talk = table.found["table-talk"]

    opened = await fake.slash(alice, "negotiate", faction="Orcs", channel=table.thread("DAW"))
    assert "talks-daw-orc" in opened.text, opened.text
    (thread,) = await fake.wait_for(
        lambda: [c for c in fake.world.channels.values() if c["name"] == "talks-daw-orc"],
        what="the negotiation thread",
    )
    tid = int(thread["id"])
    await fake.wait_for(
        lambda: thread_members(fake, thread) >= {alice.id, bob.id, umpire.id},
        what="both players and the umpire in the thread",
    )
    fake.world.post_message(bob.id, tid, {"content": "Shall we talk of Wolfsgate?"})

    given = await fake.slash(umpire, "umpire set owner", province="Wolfsgate", channel=talk)
    assert "Done" in given.text, given.text
    assert not _locked(thread)  # judged only at the next turn's start
    await _pass_turn(fake, table, runner, "DAW")
    await fake.wait_for(lambda: _locked(thread), what="the thread locked")
    text = all_text(fake.messages_in(thread))
    assert "no longer neighbours" in text and "read-only" in text
    assert fake.world.can_see(bob.id, tid) and not fake.world.can_send(bob.id, tid)
    try:
        fake.world.post_message(bob.id, tid, {"content": "Let me in"})
        raise AssertionError("a post in a locked thread was taken")
    except ApiError as refused:
        assert refused.status == 403
    again = await fake.slash(bob, "negotiate", faction="DAW", channel=table.thread("ORC"))
    assert again.ephemeral and "R-PBP-NEG-02" in again.text, again.text
    # an unarchive (Discord's or the bot's) never unlocks it
    fake.world.set_archived(tid, archived=True)
    fake.world.modify_channel(fake.world.bot.id, tid, {"archived": False})
    assert _locked(thread)

    back = await fake.slash(
        umpire, "umpire set owner", province="Wolfsgate", faction="ORC", channel=talk
    )
    assert "Done" in back.text, back.text
    await _pass_turn(fake, table, runner, "ORC")
    await fake.wait_for(
        lambda: not _locked(thread) and "open again" in all_text(fake.messages_in(thread)),
        what="the thread open again, with a notice",
    )
    fake.world.post_message(bob.id, tid, {"content": "Welcome back, neighbour."})
    state = await _caedes(runner).service.get_state(1)
    assert state.round == 2 and state.neighbour_view == [("DAW", "ORC")]


def _three(shipped: Ruleset) -> Ruleset:
    """As "borders", with the Acherousians (carol) in Kestrel Downs, which borders Harrowgate
    and Tallowmere but not Wolfsgate: DAW-ORC and DAW-ACH neighbour, ORC-ACH do not."""
    ruleset = _borders(shipped)
    base = ruleset.scenarios["borders"]
    scenario = replace(
        base,
        id="three",
        factions=(*base.factions, ScenarioFaction("ACH", 10, {}, None)),
        owners={**base.owners, "kestrel-downs": "ACH"},
        units=(*base.units, ScenarioUnit("U-ACH-01", "kestrel-downs", 1)),
    )
    return replace(ruleset, scenarios={**ruleset.scenarios, "three": scenario})


async def test_a_group_thread_needs_mutual_neighbours(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-PBP-NEG-01: the Dawnians ask for one thread with the Orcs and the Acherousians, but
    those two are not neighbours: refused, naming the pair. The umpire gives the Orcs
    Tallowmere (beside Kestrel Downs); judged at the Orcs' turn start, all three neighbour, and
    the group thread holds the three players and the umpire; asked again by another member in
    another order, it is the same thread."""
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()}, ruleset=_three(ruleset)
    )
    alice, bob, carol, umpire = fake.players
    table = await staffed_campaign(
        fake, scenario="three", seats={"DAW": alice, "ORC": bob, "ACH": carol}
    )
    daw = table.thread("DAW")
    refused = await fake.slash(alice, "negotiate", faction="ORC", more="ACH", channel=daw)
    assert refused.ephemeral and "R-PBP-NEG-01" in refused.text, refused.text
    assert "not neighbours: 👹 Orcs (ORC) and 💀 Acherousians (ACH)" in refused.text, refused.text
    assert not [c for c in fake.world.channels.values() if c["name"] == "talks-daw-orc-ach"]

    moved = await fake.slash(
        umpire,
        "umpire set owner",
        province="Tallowmere",
        faction="ORC",
        channel=table.found["table-talk"],
    )
    assert "Done" in moved.text, moved.text
    await _pass_turn(fake, table, runner, "DAW")
    opened = await fake.slash(alice, "negotiate", faction="ORC", more="ACH", channel=daw)
    assert "talks-daw-orc-ach" in opened.text, opened.text
    (thread,) = await fake.wait_for(
        lambda: [c for c in fake.world.channels.values() if c["name"] == "talks-daw-orc-ach"],
        what="the group thread",
    )
    await fake.wait_for(
        lambda: thread_members(fake, thread) >= {alice.id, bob.id, carol.id, umpire.id},
        what="the three players and the umpire in the group thread",
    )
    await fake.wait_for(lambda: thread.get("id") is not None, what="the thread's id")
    again = await fake.slash(
        carol, "negotiate", faction="DAW", more="ORC", channel=table.thread("ACH")
    )
    assert f"<#{thread['id']}>" in again.text, again.text
