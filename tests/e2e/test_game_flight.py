"""End to end on the shipped map: Dawnian Windriders fly over an Orc province, the move is
taken back with /undo, and the panel's and /status's movement lines show what is left; and
Dawnian Knights win a battle and blitz on into the next Orc province.

The scenario is made here from the shipped default one ("flight": the Dawnians and the Orcs
only, so the Dawnians play first): Dawnian Windriders (#1, cavalry with Flying) in Harrowgate,
Orc infantry (#2) in Kestrel Downs, which borders Harrowgate and Orme; Orme is empty and does
not border Harrowgate. Rule IDs: R-ATTR-FLY-01, R-MOVE-02, R-MOVE-01.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from caedes_bot.gamedata.model import Ruleset, Scenario, ScenarioFaction, ScenarioUnit
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import (
    QueuedDice,
    Table,
    battle,
    control,
    custom_ids,
    option_values,
    panel,
    panels,
    staffed_campaign,
)
from tests.fakediscord import FakeDiscord, FakeUser, message_text


def _flight(shipped: Ruleset, rider: str = "U-DAW-07", second: bool = False) -> Ruleset:
    base = shipped.scenarios["default"]
    units = [ScenarioUnit(rider, "harrowgate", 1), ScenarioUnit("U-ORC-02", "kestrel-downs", 1)]
    if second:
        units.append(ScenarioUnit("U-ORC-02", "sarnath-fields", 1))
    scenario: Scenario = replace(
        base,
        id="flight",
        name="Over the Downs",
        factions=(ScenarioFaction("DAW", 10, {}, None), ScenarioFaction("ORC", 10, {}, None)),
        owners={"harrowgate": "DAW", "kestrel-downs": "ORC"},
        units=tuple(units),
        heroes={},
        alliances=(),
        fealty={},
    )
    return replace(shipped, scenarios={**shipped.scenarios, "flight": scenario})


def _undo_on(message: dict[str, object], showing: str) -> bool:
    """The turn panel ``message`` shows ``showing`` and an Undo button."""
    return showing in message_text(message) and any(
        cid.endswith(":undo") for cid in custom_ids(message)
    )


async def _to_step_6(fake: FakeDiscord, table: Table, rider: FakeUser) -> None:
    daw = table.thread("DAW")
    for _ in range(4):  # Trade, perhaps Redeem, then Buy wait (R-TURN-02)
        done = await fake.slash(rider, "done", channel=daw)
        if "Step 5 Buy is over." in done.text:
            break
    await panel(fake, table, "DAW", 1, showing="**Step 6 Move**")


async def test_windriders_fly_over_an_orc_province_and_the_move_is_taken_back(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-ATTR-FLY-01, R-MOVE-02: a normal move from Harrowgate stops at the Orcs in Kestrel
    Downs, so Orme is out of reach by /move; /fly offers Orme, 2 spaces away, as a flight that
    starts no battle, and the Windriders fly over Kestrel Downs to it. /undo takes the flight
    back with a correction; a second /undo has nothing left to take back; a normal move is
    then taken back by the turn panel's Undo button."""
    dice = QueuedDice()
    await make_bot(service_options={"dice_factory": dice.factory()}, ruleset=_flight(ruleset))
    rider = fake.players[0]
    table = await staffed_campaign(fake, scenario="flight", seats={"DAW": rider})
    daw = table.thread("DAW")
    await _to_step_6(fake, table, rider)
    where: dict[str, str] = {"from": "Harrowgate"}

    by_land = await fake.autocomplete(rider, "move", "to", "", channel=daw, units="all", **where)
    assert "orme" not in [c["value"] for c in by_land]
    downs = [c["name"] for c in by_land if c["value"] == "kestrel-downs"]
    assert downs and "starts a battle" in downs[0]

    by_air = await fake.autocomplete(rider, "fly", "to", "", channel=daw, units="all", **where)
    orme = [c["name"] for c in by_air if c["value"] == "orme"]
    assert orme and "2 flight" in orme[0] and "battle" not in orme[0]

    flown = await fake.slash(rider, "fly", units="all", to="Orme", channel=daw, **where)
    assert "flew 1 Dawnian Windriders from Harrowgate to Orme over Kestrel Downs." in flown.text
    status = await fake.slash(rider, "status", channel=daw)
    assert "Dawnian Windriders #1 in Orme: movement ended" in status.text

    undone = await fake.slash(rider, "undo", channel=daw)
    assert "Correction:" in undone.text and "Dawnian Windriders #1 in Harrowgate" in undone.text
    status = await fake.slash(rider, "status", channel=daw)
    assert "Dawnian Windriders #1 in Harrowgate: 2 of 2 movement left" in status.text
    again = await fake.slash(rider, "undo", channel=daw)
    assert again.ephemeral and "no order to take back" in again.text

    moved = await fake.slash(rider, "move", units="all", to="Brightholm", channel=daw, **where)
    assert "moved 1 Dawnian Windriders from Harrowgate to Brightholm." in moved.text
    board = await fake.wait_for(  # drawn with an Undo button (after the move, or the flight)
        lambda: next(
            (m for m in panels(fake, table, "DAW") if _undo_on(m, "**Step 6 Move**")), None
        ),
        what="the DAW panel of step 6 with an Undo button",
    )
    clicked = await fake.click(rider, board, control(board, "undo"))
    assert "Correction:" in clicked.text and "(moving units)" in clicked.text
    dice.assert_used_up()


async def test_blitz_knights_take_a_province_and_attack_the_next(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-ATTR-BLITZ-01..03, R-COMBAT-11: Knights (cavalry, attack 5, 2 movement) attack the Orc
    Troopers in Kestrel Downs (1 space; more Troopers hold Sarnath Fields beyond). Dice 1 (the Knights hit) and 9 (the Troopers, at 3,
    miss): Kestrel Downs passes to the Dawnians; the battle cost no movement, so the Knights
    are asked whether they blitz on, with 1 movement left: Orme is not offered (across a river,
    an entire-movement cost, R-MOVE-12), Sarnath Fields is. /blitz to Sarnath Fields, held by
    Orcs, fights that battle at once: dice 2 and 8, the Knights win again, and it passes too."""
    dice = QueuedDice()
    shipped = _flight(ruleset, rider="U-DAW-04", second=True)
    await make_bot(service_options={"dice_factory": dice.factory()}, ruleset=shipped)
    rider = fake.players[0]
    table = await staffed_campaign(fake, scenario="flight", seats={"DAW": rider})
    daw = table.thread("DAW")
    await _to_step_6(fake, table, rider)
    where: dict[str, str] = {"from": "Harrowgate"}
    moved = await fake.slash(rider, "move", units="all", to="Kestrel Downs", channel=daw, **where)
    assert "an attack" in moved.text
    await fake.slash(rider, "done", channel=daw)

    dice.push(1, 9)
    fought = await fake.slash(rider, "attack", province="Kestrel Downs", channel=daw)
    assert "The battle at Kestrel Downs has begun" in fought.text
    await battle(fake, table, "Kestrel Downs", showing="The attacker won")
    assert "1 Dawnian Knights in Kestrel Downs may blitz on" in fought.text
    onward = await fake.autocomplete(rider, "blitz", "to", "", channel=daw)
    labels = {c["value"]: c["name"] for c in onward}
    assert "orme" not in labels
    assert "starts a battle" in labels["sarnath-fields"]

    dice.push(2, 8)
    blitzed = await fake.slash(rider, "blitz", to="Sarnath Fields", channel=daw)
    assert "from Kestrel Downs to Sarnath Fields: **an attack**" in blitzed.text
    over = await battle(fake, table, "Sarnath Fields", showing="The attacker won")
    assert "Sarnath Fields is held by" in message_text(over)
    status = await fake.slash(rider, "province", name="Kestrel Downs", channel=daw)
    assert "Dawnians" in status.text
    dice.assert_used_up()


async def test_blitz_from_the_battle_message_and_a_double_click_after_the_second_battle(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-ATTR-BLITZ-02: after the Knights win at Kestrel Downs (dice 1 and 9) the battle
    message itself asks whether they blitz on: a **Blitz on to…** select (Sarnath Fields, a
    battle) and **Stop the blitz**. Choosing Sarnath Fields there fights that battle at once
    (dice 2 and 8: won again). The same select clicked again on the first message, as it was
    drawn (a double click arriving after the second battle), is refused privately and changes
    nothing: no die is rolled, the Knights stay in Sarnath Fields, and the first message no
    longer offers the blitz."""
    dice = QueuedDice()
    shipped = _flight(ruleset, rider="U-DAW-04", second=True)
    await make_bot(service_options={"dice_factory": dice.factory()}, ruleset=shipped)
    rider = fake.players[0]
    table = await staffed_campaign(fake, scenario="flight", seats={"DAW": rider})
    daw = table.thread("DAW")
    await _to_step_6(fake, table, rider)
    where: dict[str, str] = {"from": "Harrowgate"}
    await fake.slash(rider, "move", units="all", to="Kestrel Downs", channel=daw, **where)
    await fake.slash(rider, "done", channel=daw)

    dice.push(1, 9)
    await fake.slash(rider, "attack", province="Kestrel Downs", channel=daw)
    first = await battle(fake, table, "Kestrel Downs", showing="The attacker won")
    assert "Blitz on to…" in str(first["components"]) and control(first, "stop")
    assert "sarnath-fields" in option_values(first, "blitz")
    drawn = copy.deepcopy(first)

    dice.push(2, 8)
    onward = await fake.select(rider, first, control(first, "blitz"), ["sarnath-fields"])
    assert "move on to Sarnath Fields" in onward.text
    await battle(fake, table, "Sarnath Fields", showing="The attacker won")
    settled = await battle(fake, table, "Kestrel Downs", showing="nothing more is asked")
    assert not custom_ids(settled)

    again = await fake.select(rider, drawn, control(drawn, "blitz"), ["sarnath-fields"])
    assert again.ephemeral and "R-ATTR-BLITZ-02" in again.text
    status = await fake.slash(rider, "province", name="Sarnath Fields", channel=daw)
    assert "Dawnian Knights" in status.text
    dice.assert_used_up()
