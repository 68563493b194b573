"""End-to-end: the Acherousians raising their dead, and the Wood Elves summoning in defence,
through slash commands and clicks against the fake Discord, with scripted dice.

Two small scenarios are added to the shipped game data for these tests:

* ``necromancy``: Dawnians and Acherousians. The Acherousian Necromancer stands in Sarnath
  Fields, not in Archursia: Undead muster where the Necromancer is (R-RACE-UND-01,
  R-MAGIC-NEC-01), Acherousians only in Archursia (R-RACE-ACH-01).
* ``wood-and-swamp``: Wood Elves and Lizardmen. A Wood Elven Druid and Scouts hold Duriak
  (forest); a Lizardman infantry unit stands next door in Reedwater and another in the
  Hissing Fen.

Rule IDs checked: R-RACE-UND-01, R-MAGIC-NEC-01, R-ATTR-UNDEAD-03 (what /status tells),
R-BUY-01, R-MUSTER-01, R-MUSTER-04 (/muster offers only legal places, with their room),
R-MAGIC-SUMM-01 (summons refused outside a battle in another faction's turn; offered as the
round begins, with its controls on the battle message; the units fight at once),
R-COMM-11 (full cost), R-MAGIC-SUMM-02 (they vanish at the Lizardmen's step 8), R-ATTR-FORT-06,
R-ATTR-MEEK-01 (the Earth Elemental defends at 6).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset, Scenario, ScenarioFaction, ScenarioUnit
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import (
    QueuedDice,
    battle,
    control,
    option_labels,
    panel,
    staffed_campaign,
    start_bot,
)
from tests.fakediscord import FakeDiscord, FakeUser, message_text

JSON = dict[str, Any]


def _scenario(
    base: Scenario,
    sid: str,
    factions: dict[str, int],
    owners: dict[str, str],
    units: list[tuple[str, str, int]],
) -> Scenario:
    return replace(
        base,
        id=sid,
        name=sid.replace("-", " ").title(),
        factions=tuple(ScenarioFaction(code, rp, {}, None) for code, rp in factions.items()),
        owners=owners,
        units=tuple(ScenarioUnit(k, where, n) for k, where, n in units),
        turn_limit=3,
        alliances=(),
        fealty={},
    )


@pytest.fixture
def ruleset() -> Ruleset:
    """The shipped game data with the two scenarios of this module."""
    shipped = load_ruleset()
    base = shipped.scenarios["default"]
    necromancy = _scenario(
        base,
        "necromancy",
        {"DAW": 10, "ACH": 20},
        {"brightholm": "DAW", "archursia": "ACH", "sarnath-fields": "ACH"},
        [
            ("U-DAW-01", "brightholm", 1),
            ("U-ACH-01", "archursia", 1),
            ("U-ACH-05", "sarnath-fields", 1),
            ("U-ACH-01", "sarnath-fields", 1),
        ],
    )
    swamp = _scenario(
        base,
        "wood-and-swamp",
        {"WEL": 12, "LIZ": 10},
        {"duriak": "WEL", "reedwater": "LIZ", "hissing-fen": "LIZ"},
        [
            ("U-WEL-05", "duriak", 1),
            ("U-WEL-01", "duriak", 1),
            ("U-LIZ-01", "reedwater", 1),
            ("U-LIZ-01", "hissing-fen", 1),
        ],
    )
    scenarios = {**shipped.scenarios, "necromancy": necromancy, "wood-and-swamp": swamp}
    return replace(shipped, scenarios=scenarios)


async def done_until(
    fake: FakeDiscord, player: FakeUser, thread: JSON, until: str, *, most: int = 10
) -> str:
    """End steps with ``/done`` in ``thread`` until the answer says ``until`` (the turn is at
    that step: "Now: step 5 Buy", or has passed: "Now playing: ..."); returns that answer."""
    for _ in range(most):
        done = await fake.slash(player, "done", channel=thread)
        assert done.ephemeral, done.text
        if until in done.text:
            return done.text
    raise AssertionError(f"/done never reached {until!r}")


async def test_an_acherousian_turn_with_a_necromancer_mustering_undead(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-RACE-UND-01, R-MAGIC-NEC-01, R-RACE-ACH-01, R-BUY-01, R-MUSTER-01, R-ATTR-UNDEAD-03:
    the Acherousians' whole first turn. /buy offers Undead Infantry saying what it needs (the
    Necromancer stands in Sarnath Fields); 2 Undead Infantry (3 RP each) and 1 Phalanx (3 RP)
    are bought without a warning. In step 8 /muster offers Sarnath Fields for the Undead (any number) and only
    Archursia for the Phalanx; both Undead go to Sarnath Fields, the Phalanx to Archursia.
    /status then tells of the Undead hanging on the Necromancer."""
    dice = QueuedDice()
    await start_bot(make_bot, dice)
    alice, bob, _carol, _umpire = fake.players
    table = await staffed_campaign(fake, scenario="necromancy", seats={"DAW": alice, "ACH": bob})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await done_until(fake, alice, table.thread("DAW"), "Now playing: 💀")
    ach = table.thread("ACH")
    await panel(fake, table, "ACH", 1, showing="**Step 1 Trade**")
    await done_until(fake, bob, ach, "Now: step 5 Buy")

    offered = await fake.autocomplete(bob, "buy", "unit", "undead inf", channel=ach)
    labels = {c["value"]: c["name"] for c in offered}
    assert labels["U-ACH-08"].endswith("needs a Necromancer: Sarnath Fields has one"), labels
    bought = await fake.slash(bob, "buy", unit="Undead Infantry", count=2, channel=ach)
    assert "Bought 2 Undead Infantry for 6 RP" in bought.text, bought.text
    assert "Warning" not in bought.text
    spears = await fake.slash(bob, "buy", unit="Phalanx Spearmen", count=1, channel=ach)
    assert "Bought 1" in spears.text and "Warning" not in spears.text

    # steps 6 and 7 pass; step 8 waits for the units bought
    await done_until(fake, bob, ach, "Now: step 8 Muster")
    places = await fake.autocomplete(bob, "muster", "province", "", channel=ach, unit="U-ACH-08")
    assert [c["value"] for c in places] == ["sarnath-fields"]
    assert places[0]["name"].endswith("any number")
    spear_places = await fake.autocomplete(
        bob, "muster", "province", "", channel=ach, unit="U-ACH-01"
    )
    assert [c["value"] for c in spear_places] == ["archursia"]
    first = await fake.slash(
        bob, "muster", unit="Undead Infantry", province="Sarnath Fields", channel=ach
    )
    assert "mustered 1 Undead Infantry in Sarnath Fields" in first.text, first.text
    second = await fake.slash(
        bob, "muster", unit="Undead Infantry", province="Sarnath Fields", channel=ach
    )
    assert "mustered 1 Undead Infantry in Sarnath Fields" in second.text
    wrong = await fake.slash(
        bob, "muster", unit="Phalanx Spearmen", province="Sarnath Fields", channel=ach
    )
    assert "R-RACE-ACH-01" in wrong.text and "Archursia" in wrong.text
    status = await fake.slash(bob, "status", channel=ach)
    assert (
        "Undead (R-ATTR-UNDEAD-03): 2, they hang on your Necromancers at Sarnath Fields"
        in status.text
    )
    last = await fake.slash(
        bob, "muster", unit="Phalanx Spearmen", province="Archursia", channel=ach
    )
    assert "in Archursia" in last.text
    # nothing is left waiting: the Acherousians end step 8 and their turn; the Dawnians play
    # game round 2
    ended = await fake.slash(bob, "done", channel=ach)
    assert "Now playing: 🌅" in ended.text, ended.text
    await panel(fake, table, "DAW", 2, showing="**Step 1 Trade**")
    dice.assert_used_up()


async def test_a_druid_summons_elementals_in_defence_and_they_vanish_at_step_8(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    """R-MAGIC-SUMM-01, R-MAGIC-SUMM-02, R-COMM-11, R-ATTR-FORT-06, R-ATTR-MEEK-01: the Wood
    Elves pass their turn; in the Lizardmen's turn /summon is refused outside a battle. The
    Lizardman in Reedwater attacks Duriak. As round 1 begins the Wood Elves get the offer on the
    battle message (they hold 12 + 4 from Duriak - 1 upkeep = 15 RP) and pick a Fire Elemental
    and an Earth Elemental: full cost, 3 + 6 = 9 RP, 6 left; they declare that their Druid (an
    Enchanter too) does not enchant (R-COMBAT-12). The elementals fight at once, all in the melee step (in forest the Fire Elemental,
    without Woodlore, cannot shoot): the Lizardman 9 misses; Druid 9, Scouts 9, Fire 9 miss;
    the Earth Elemental rolls 6 at its defense 7 - 1 (Meek) = 6: a hit, and the Lizardman
    dies. When the Lizardmen's step 8 begins both elementals vanish."""
    dice = QueuedDice()
    await start_bot(make_bot, dice)
    alice, bob, _carol, _umpire = fake.players
    table = await staffed_campaign(
        fake, scenario="wood-and-swamp", seats={"WEL": alice, "LIZ": bob}
    )
    await panel(fake, table, "WEL", 1, showing="**Step 1 Trade**")
    liz, wel = table.thread("LIZ"), table.thread("WEL")
    await done_until(fake, alice, wel, "Now playing: 🦎")
    early = await fake.slash(alice, "summon", unit="Fire Elemental", channel=wel)
    assert early.ephemeral and "R-MAGIC-SUMM-01" in early.text, early.text
    await panel(fake, table, "LIZ", 1, showing="**Step 1 Trade**")
    await done_until(fake, bob, liz, "Now: step 6 Move")
    moved = await fake.slash(
        bob, "move", units="1 Infantry", **{"from": "Reedwater"}, to="Duriak", channel=liz
    )
    assert "**an attack**" in moved.text, moved.text
    await fake.slash(bob, "done", channel=liz)
    begun = await fake.slash(bob, "attack", province="Duriak", channel=liz)
    assert begun.ephemeral, begun.text
    message = await battle(fake, table, "Duriak", showing="R-MAGIC-SUMM-01")
    labels = option_labels(message, "pick")
    assert labels == {
        "U-WEL-06": "Summoned Fire Elemental - 3 RP",
        "U-WEL-07": "Summoned Earth Elemental - 6 RP",
    }
    control(message, "skip")
    control(message, "never")
    dice.push(9, 9, 9, 9, 6)
    picked = await fake.select(alice, message, control(message, "pick"), ["U-WEL-06", "U-WEL-07"])
    assert picked.ephemeral and "Paid 3 RP" in picked.text and "Paid 6 RP" in picked.text, (
        picked.text
    )
    assert "6 RP left" in picked.text
    # R-COMBAT-12: the Druid is also an Enchanter: the Wood Elves declare it does not enchant
    message = await battle(fake, table, "Duriak", showing="declare special actions")
    declared = await fake.select(alice, message, control(message, "declare"), ["0"])
    assert "Declared" in declared.text, declared.text
    ended = await battle(fake, table, "Duriak", showing="Result")
    assert "held by 🌲" in message_text(ended)
    dice.assert_used_up()
    status = await fake.slash(alice, "status", channel=wel)
    assert "Summoned (R-MAGIC-SUMM-02)" in status.text and "Duriak" in status.text
    assert "step 8 of" in status.text
    await fake.slash(bob, "done", channel=liz)  # step 7 ends; step 8 begins
    after = await fake.slash(alice, "status", channel=wel)
    assert "Summoned (R-MAGIC-SUMM-02)" not in after.text, after.text
    assert "Wood Elven Druid" in after.text
