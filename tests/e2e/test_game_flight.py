"""End to end on the shipped map: Dawnian Windriders fly over an Orc province, the move is
taken back with /undo, and the panel's and /status's movement lines show what is left.

The scenario is made here from the shipped default one ("flight": the Dawnians and the Orcs
only, so the Dawnians play first): Dawnian Windriders (#1, cavalry with Flying) in Harrowgate,
Orc infantry (#2) in Kestrel Downs, which borders Harrowgate and Orme; Orme is empty and does
not border Harrowgate. Rule IDs: R-ATTR-FLY-01, R-MOVE-02, R-MOVE-01.
"""

from __future__ import annotations

from dataclasses import replace

from caedes_bot.gamedata.model import Ruleset, Scenario, ScenarioFaction, ScenarioUnit
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, control, panel, staffed_campaign
from tests.fakediscord import FakeDiscord


def _flight(shipped: Ruleset) -> Ruleset:
    base = shipped.scenarios["default"]
    scenario: Scenario = replace(
        base,
        id="flight",
        name="Over the Downs",
        factions=(ScenarioFaction("DAW", 10, {}, None), ScenarioFaction("ORC", 10, {}, None)),
        owners={"harrowgate": "DAW", "kestrel-downs": "ORC"},
        units=(
            ScenarioUnit("U-DAW-07", "harrowgate", 1),
            ScenarioUnit("U-ORC-02", "kestrel-downs", 1),
        ),
        heroes={},
        alliances=(),
        fealty={},
    )
    return replace(shipped, scenarios={**shipped.scenarios, "flight": scenario})


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
    for _ in range(4):  # Trade, perhaps Redeem, then Buy wait (R-TURN-02)
        done = await fake.slash(rider, "done", channel=daw)
        if "Step 5 Buy is over." in done.text:
            break
    await panel(fake, table, "DAW", 1, showing="**Step 6 Move**")
    where: dict[str, str] = {"from": "Harrowgate"}

    by_land = await fake.autocomplete(
        rider, "move", "to", "", channel=daw, units="all", **where
    )
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
    board = await panel(fake, table, "DAW", 1, showing="**Step 6 Move**")
    clicked = await fake.click(rider, board, control(board, "undo"))
    assert "Correction:" in clicked.text and "(moving units)" in clicked.text
    dice.assert_used_up()
