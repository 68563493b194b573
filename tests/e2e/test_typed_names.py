"""End-to-end: names as people type them (R-GEN-04), through the real bot and the fake Discord.

A phone sends "Serpent’s Tooth" with a curly apostrophe, and a hurried player types two spaces
or the start of a name; the command and its autocomplete find the same place, unit or faction.
An ambiguous start is refused privately, naming the candidates, and changes nothing.
"""

from __future__ import annotations

from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord


async def test_r_gen_04_names_typed_as_phones_and_people_type_them(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-GEN-04 with R-MOVE-01, R-BUY-01, R-SETUP-02: curly apostrophes, doubled spaces, odd
    case and accents, and unique starts of names are accepted, in the final check and in
    autocomplete alike."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    daw = table.thread("DAW")

    tooth = await fake.slash(alice, "province", name="Serpent’s  Tooth", channel=daw)
    assert tooth.ephemeral and "Serpent's Tooth" in tooth.text
    assert "No province" not in tooth.text
    offered = await fake.autocomplete(alice, "province", "name", "serpent’s", channel=daw)
    assert [c["value"] for c in offered] == ["serpents-tooth"]

    vague = await fake.slash(alice, "province", name="Gr", channel=daw)
    assert vague.ephemeral
    assert vague.text.startswith("'Gr' could be more than one place: ")
    assert "Greywater Ford" in vague.text and "Grimscar Crags" in vague.text

    knights = await fake.slash(alice, "unit", name="dáwnian   KNIGHTS", channel=daw)
    assert knights.ephemeral and "Dawnian Knights" in knights.text
    assert "No unit" not in knights.text

    status = await fake.slash(alice, "status", faction="  dawnians ", channel=daw)
    assert status.ephemeral and "No faction" not in status.text

    await fake.slash(alice, "done", channel=daw)  # step 1; step 4 runs by itself
    bought = await fake.slash(alice, "buy", unit="Dawnian  Infantry", channel=daw)
    assert bought.text.startswith("Bought 1 Dawnian Infantry"), bought.text
    await fake.slash(alice, "done", channel=daw)  # step 5: now moving

    moved = await fake.slash(
        alice,
        "move",
        units="1  dawnian infantry",
        to="vigil  of  BOR",
        channel=daw,
        **{"from": "harrowgate "},
    )
    assert "Vigil of Bor" in moved.text and "No " not in moved.text, moved.text
    state = await runner.bot.service.get_state(1)
    assert state.unit(4).location == "vigil-of-bor"


async def test_r_move_01_move_takes_unit_numbers_as_other_commands_do(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-MOVE-01: ``/move units`` takes unit numbers as ``/disband``, ``/embark`` and the
    umpire's commands do. Typing ``#`` offers the units that can move from Harrowgate one by
    one; the first chosen and ``#`` again offers the rest; ``/move`` with that value moves
    exactly those units; a unit of another province is refused, saying where it is."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    daw = table.thread("DAW")
    await fake.slash(alice, "done", channel=daw)  # step 1; step 4 runs by itself
    await fake.slash(alice, "done", channel=daw)  # step 5: now moving
    state = await runner.bot.service.get_state(1)
    here = [u.id for u in state.units_at("harrowgate") if u.owner == "DAW"]
    assert len(here) >= 2, here
    where = {"from": "Harrowgate"}
    offered = await fake.autocomplete(alice, "move", "units", "#", channel=daw, **where)
    assert sorted(c["value"] for c in offered) == sorted(f"#{i}@harrowgate" for i in here)
    assert all(f"#{c['value'][1:].split('@')[0]} in Harrowgate" in c["name"] for c in offered)
    first = f"#{here[0]}@harrowgate"
    more = await fake.autocomplete(alice, "move", "units", f"{first}, #", channel=daw, **where)
    assert [c["value"] for c in more] == [f"{first}, #{i}@harrowgate" for i in here[1:]]

    elsewhere = next(u.id for u in state.peek_units_of("DAW") if u.location != "harrowgate")
    refused = await fake.slash(
        alice, "move", units=f"#{elsewhere}", to="Vigil of Bor", channel=daw, **where
    )
    assert refused.ephemeral and "is not in Harrowgate" in refused.text, refused.text
    assert f"or #{elsewhere} with from: " in refused.text, refused.text

    moved = await fake.slash(
        alice, "move", units=f"#{here[0]}", to="Vigil of Bor", channel=daw, **where
    )
    assert "Vigil of Bor" in moved.text and "No " not in moved.text, moved.text
    state = await runner.bot.service.get_state(1)
    assert state.unit(here[0]).location == "vigil-of-bor"
    assert all(state.unit(i).location == "harrowgate" for i in here[1:])
