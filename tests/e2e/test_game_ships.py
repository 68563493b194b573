"""End to end at sea, on the shipped map: the High Elves ship an army from Estlon to the
mainland, and an infantry unit lands among the Acherousians and may not withdraw.

The scenario is made here from the shipped default one ("voyage": the High Elves and the
Acherousians only, so the High Elves play first):

* High Elves: a Tower and 2 Infantry (#1 Tower, #2 and #3) in Silverhaven, two Ships (#4, #5)
  on the Strait of Estlon with one Infantry (#6) aboard the first, one Infantry (#7) in
  Mossvale, on the mainland;
* Acherousians: one Phalanx Spearmen (#8) in Hartsford (beside Mossvale and on the Strait),
  one in Archursia (#9).

Values from the unit-type table: infantry attack 2, defense 3; a die hits at or under its
value (R-GEN-02). Rule IDs: R-MOVE-14, R-MOVE-15, R-MOVE-17, R-MOVE-18, R-COMBAT-08,
R-COMBAT-09, R-COMBAT-11.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from caedes_bot.gamedata.model import Ruleset, Scenario, ScenarioFaction, ScenarioUnit
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import (
    JSON,
    QueuedDice,
    Table,
    battle,
    control,
    custom_ids,
    option_labels,
    option_values,
    panel,
    panels,
    staffed_campaign,
)
from tests.fakediscord import FakeDiscord, message_text


def _voyage(shipped: Ruleset) -> Ruleset:
    base = shipped.scenarios["default"]
    scenario: Scenario = replace(
        base,
        id="voyage",
        name="Voyage to the mainland",
        factions=(ScenarioFaction("HEL", 10, {}, None), ScenarioFaction("ACH", 10, {}, None)),
        owners={
            "silverhaven": "HEL",
            "mossvale": "HEL",
            "hartsford": "ACH",
            "archursia": "ACH",
        },
        units=(
            ScenarioUnit("U-HEL-08", "silverhaven", 1),
            ScenarioUnit("U-HEL-01", "silverhaven", 2),
            ScenarioUnit("U-HEL-09", "strait-of-estlon", 2),
            ScenarioUnit("U-HEL-01", "strait-of-estlon", 1),
            ScenarioUnit("U-HEL-01", "mossvale", 1),
            ScenarioUnit("U-ACH-01", "hartsford", 1),
            ScenarioUnit("U-ACH-01", "archursia", 1),
        ),
        heroes={},
        alliances=(),
        fealty={},
    )
    return replace(shipped, scenarios={**shipped.scenarios, "voyage": scenario})


async def _to_step_6(fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset, dice: QueuedDice):  # type: ignore[no-untyped-def]
    await make_bot(service_options={"dice_factory": dice.factory()}, ruleset=_voyage(ruleset))
    elf = fake.players[0]
    table = await staffed_campaign(fake, scenario="voyage", seats={"HEL": elf})
    hel = table.thread("HEL")
    for _ in range(4):  # Trade, perhaps Redeem, then Buy wait (R-TURN-02)
        done = await fake.slash(elf, "done", channel=hel)
        if "Step 5 Buy is over." in done.text:
            break
    await panel(fake, table, "HEL", 1, showing="**Step 6 Move**")
    return table, elf, hel


async def test_the_high_elves_ship_an_army_to_the_mainland(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-MOVE-14, R-MOVE-15, R-MOVE-18: two infantry board the second ship from Silverhaven,
    the ship sails one space to the Silver Gulf (1 of its 2 moves left), /status shows it and
    its cargo, and the infantry land in Silverbirch, on the mainland."""
    dice = QueuedDice()
    _table, elf, hel = await _to_step_6(fake, make_bot, ruleset, dice)

    boarders = await fake.autocomplete(elf, "embark", "units", "", channel=hel)
    assert {c["value"] for c in boarders} >= {"#2", "#3", "#7"}
    rides = await fake.autocomplete(elf, "embark", "ship", "", channel=hel, units="#2, #3")
    assert [c["value"] for c in rides] == ["#5"]  # #4 has room for one infantry only
    full = await fake.slash(elf, "embark", units="#2, #3", ship="#4", channel=hel)
    assert full.ephemeral and "Nothing went aboard" in full.text and "R-MOVE-14" in full.text
    boarded = await fake.slash(elf, "embark", units="#2, #3", ship="#5", channel=hel)
    assert (
        "put 2 High Elven Infantry from Silverhaven aboard a ship on Strait of Estlon"
        in boarded.text
    )

    waters = await fake.autocomplete(elf, "sail", "to", "", channel=hel, ship="#5")
    assert "silver-gulf" in [c["value"] for c in waters]
    sailed = await fake.slash(elf, "sail", ship="#5", to="Silver Gulf", channel=hel)
    assert "sailed 1 High Elven Ship from Strait of Estlon to Silver Gulf" in sailed.text
    assert "carrying 2 units" in sailed.text

    status = await fake.slash(elf, "status", channel=hel)
    assert "High Elven Ship #5 in Silver Gulf, 1 move left, carrying 2 High Elven Infantry" in (
        status.text
    )

    shores = await fake.autocomplete(elf, "disembark", "to", "", channel=hel, units="#2")
    assert {c["value"] for c in shores} == {"duriak", "ebbtide", "silverbirch"}
    landed = await fake.slash(elf, "disembark", units="#2, #3", to="Silverbirch", channel=hel)
    assert "landed 2 High Elven Infantry from Silver Gulf in Silverbirch." in landed.text
    again = await fake.slash(elf, "embark", units="#2", ship="#5", channel=hel)
    assert again.ephemeral and "R-MOVE-15" in again.text

    province = await fake.slash(elf, "province", name="Silverbirch", channel=hel)
    assert "2 High Elven Infantry" in province.text
    assert "Silver Gulf: ⛵ High Elves (HEL) High Elven Ship #5, empty" in province.text
    dice.assert_used_up()


async def test_infantry_lands_among_enemies_and_may_not_withdraw(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-MOVE-17, R-COMBAT-08, R-COMBAT-09, R-COMBAT-11: #6 lands from the Strait into
    Hartsford, held by one Acherousian unit, and #7 marches in from Mossvale. Round 1: the two
    attackers roll 9 and 9 (need 2), the defender 9 (needs 3): nobody is hit. Only #7 may
    withdraw; it does, and goes back to Mossvale, while #6, which came from the sea, stays and
    fights on. Round 2: #6 rolls 1 (a hit), the defender 9: Hartsford passes to the High Elves."""
    dice = QueuedDice()
    table, elf, hel = await _to_step_6(fake, make_bot, ruleset, dice)

    landed = await fake.slash(elf, "disembark", units="#6", to="Hartsford", channel=hel)
    assert "landed 1 High Elven Infantry from Strait of Estlon in Hartsford" in landed.text
    assert "amphibious assault" in landed.text
    where: dict[str, str] = {"from": "Mossvale"}
    marched = await fake.slash(
        elf, "move", units="1 High Elven Infantry", to="Hartsford", channel=hel, **where
    )
    assert "an attack" in marched.text
    await fake.slash(elf, "done", channel=hel)

    dice.push(9, 9, 9)
    fight = await fake.slash(elf, "attack", province="Hartsford", channel=hel)
    assert "The battle at Hartsford has begun" in fight.text
    message = await battle(fake, table, "Hartsford", showing="press on or withdraw")
    assert "1 unit that came by sea or by magic must stay and fight on (R-COMBAT-09)" in (
        message_text(message)
    )
    dice.push(1, 9)
    withdrew = await fake.click(elf, message, control(message, "withdraw"))
    assert "You withdraw" in withdrew.text
    over = await battle(fake, table, "Hartsford", showing="The attacker won")
    text = message_text(over)
    assert "High Elven Infantry #7 to Mossvale" in text
    assert "**The attacker won.** Hartsford is held by ⛵ High Elves (HEL)." in text
    status = await fake.slash(elf, "province", name="Hartsford", channel=hel)
    assert "1 High Elven Infantry" in status.text
    dice.assert_used_up()


async def test_a_ship_is_bought_and_mustered_on_the_water(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-BUY-01, R-ATTR-WATER-03, R-MUSTER-01: the High Elves (10 RP) buy a ship for 8 RP with no
    warning (their Tower stands in Silverhaven, on the Strait of Estlon and the Eastern Deep);
    in step 8 /muster offers the water beside Silverhaven and places the ship there."""
    dice = QueuedDice()
    await make_bot(service_options={"dice_factory": dice.factory()}, ruleset=_voyage(ruleset))
    elf = fake.players[0]
    table = await staffed_campaign(fake, scenario="voyage", seats={"HEL": elf})
    hel = table.thread("HEL")
    for _ in range(3):  # Trade, perhaps Redeem, until Buy waits (R-TURN-02)
        shown = await fake.slash(elf, "status", channel=hel)
        if "step 5 Buy" in shown.text:
            break
        await fake.slash(elf, "done", channel=hel)
    bought = await fake.slash(elf, "buy", unit="High Elven Ship", count=1, channel=hel)
    assert "Bought 1 High Elven Ship for 8 RP." in bought.text and "Warning" not in bought.text
    for _ in range(3):  # Buy, Move, Combat
        done = await fake.slash(elf, "done", channel=hel)
        if "step 8 Muster" in done.text:
            break
    waters = await fake.autocomplete(
        elf, "muster", "province", "", channel=hel, unit="High Elven Ship"
    )
    assert [c["value"] for c in waters] == ["eastern-deep", "strait-of-estlon"]
    placed = await fake.slash(
        elf, "muster", unit="High Elven Ship", province="Eastern Deep", channel=hel
    )
    assert "mustered 1 High Elven Ship in Eastern Deep" in placed.text
    dice.assert_used_up()


async def _panel_undoing(fake: FakeDiscord, table: Table, orders: int) -> JSON:
    """The HEL turn panel once it is updated to offer taking back ``orders`` orders."""

    def find() -> JSON | None:
        for m in panels(fake, table, "HEL"):
            if any(c.endswith(f".{orders}:undo") for c in custom_ids(m)):
                return m
        return None

    found: JSON = await fake.wait_for(find, what=f"the HEL panel undoing {orders} orders")
    return found


async def test_a_double_click_on_undo_takes_back_one_order(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """Issue 11, undo: #2 and #3 board ship #5 by two orders (R-MOVE-15); the turn panel's Undo
    button, clicked twice on the same panel, takes back only the second order: the second
    click is refused, ephemeral, and #2 stays aboard. A click on the updated panel then takes
    back the first order too."""
    dice = QueuedDice()
    table, elf, hel = await _to_step_6(fake, make_bot, ruleset, dice)
    await fake.slash(elf, "embark", units="#2", ship="#5", channel=hel)
    await fake.slash(elf, "embark", units="#3", ship="#5", channel=hel)
    board = await _panel_undoing(fake, table, 2)
    button = control(board, "undo")
    seen = copy.deepcopy(board)  # the panel as the player saw it, before the first click
    first = await fake.click(elf, board, button)
    assert "Correction:" in first.text and "High Elven Infantry #3 in Silverhaven" in first.text
    second = await fake.click(elf, seen, button)
    assert second.ephemeral and "Nothing was taken back" in second.text
    assert "Allowed: press Undo on the updated turn panel" in second.text
    status = await fake.slash(elf, "status", channel=hel)
    assert "High Elven Ship #5 in Strait of Estlon, 2 moves left, carrying 1 High Elven" in (
        status.text
    )
    board = await _panel_undoing(fake, table, 1)
    third = await fake.click(elf, board, control(board, "undo"))
    assert "High Elven Infantry #2 in Silverhaven" in third.text
    dice.assert_used_up()


async def test_refused_orders_at_sea_say_what_is_allowed(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-MOVE-14, R-MOVE-15, R-MOVE-18, R-MAGIC-TELE-01: each refusal below is ephemeral, names
    its rule, says what is allowed, and leaves /status as it was. #8 is an Acherousian unit,
    so "ship #8" is no ship; #1 is a Tower, #4 a ship, #2 a land unit not aboard."""
    dice = QueuedDice()
    _table, elf, hel = await _to_step_6(fake, make_bot, ruleset, dice)
    before = (await fake.slash(elf, "status", channel=hel)).text
    refusals: list[tuple[str, dict[str, str], str, str]] = [
        ("sail", {"ship": "#99", "to": "Silver Gulf"}, "no unit #99", "R-MOVE-18"),
        ("sail", {"ship": "#4, #4", "to": "Silver Gulf"}, "listed twice", "R-MOVE-18"),
        ("embark", {"units": "#2", "ship": "#8"}, "#8 is Acherousian", "R-MOVE-14"),
        ("embark", {"units": "#2", "ship": "#99"}, "#99 is no ship", "R-MOVE-14"),
        ("embark", {"units": "#1", "ship": "#5"}, "never boards a ship", "R-MOVE-14"),
        ("embark", {"units": "#4", "ship": "#5"}, "never carries a ship", "R-MOVE-14"),
        ("embark", {"units": "#2, #2", "ship": "#5"}, "listed twice", "R-MOVE-15"),
        ("embark", {"units": "#99", "ship": "#5"}, "no unit #99", "R-MOVE-15"),
        ("disembark", {"units": "#2", "to": "Silverbirch"}, "not aboard", "R-MOVE-15"),
        ("disembark", {"units": "#6", "to": "Silver Gulf"}, "is a sea zone", "R-MOVE-15"),
        ("teleport", {"unit": "#2", "to": "Mossvale"}, "no Teleportation", "R-MAGIC-TELE-01"),
    ]
    for command, options, says, rule in refusals:
        refused = await fake.slash(elf, command, channel=hel, **options)
        assert refused.ephemeral, (command, options)
        assert says in refused.text and f"({rule})" in refused.text, refused.text
        assert "\nAllowed: " in refused.text, refused.text
    assert (await fake.slash(elf, "status", channel=hel)).text == before
    dice.assert_used_up()


async def test_the_turn_panel_ships_an_army_and_survives_a_restart(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-MOVE-14, R-MOVE-15, R-MOVE-18: the step-6 panel's **Ships…** lists the ships that can
    act; ship #5 chosen, **Take aboard…** puts #2 and #3 on it. The bot restarts; the same
    menu message still works: **Sail to…** (a destination's place in the rules' list, since a
    river edge's id does not fit a select value) takes it to the Silver Gulf, and **Land the
    cargo at…** lands both in Silverbirch. A sail choice from the menu as drawn before the ship
    sailed is refused and changes nothing: the list it was drawn from has changed."""
    dice = QueuedDice()
    runner = await make_bot(
        service_options={"dice_factory": dice.factory()}, ruleset=_voyage(ruleset)
    )
    elf = fake.players[0]
    table = await staffed_campaign(fake, scenario="voyage", seats={"HEL": elf})
    hel = table.thread("HEL")
    for _ in range(4):  # Trade, perhaps Redeem, then Buy wait (R-TURN-02)
        done = await fake.slash(elf, "done", channel=hel)
        if "Step 5 Buy is over." in done.text:
            break
    board = await panel(fake, table, "HEL", 1, showing="**Step 6 Move**")
    opened = await fake.click(elf, board, control(board, "ships"))
    assert opened.ephemeral and "Which ship?" in opened.text
    assert option_values(opened.reply, "ship") == ["4", "5"]
    chosen = await fake.select(elf, opened.reply, control(opened.reply, "ship"), ["5"])
    assert {"2", "3"} <= set(option_values(chosen.reply, "board"))
    boarded = await fake.select(elf, chosen.reply, control(chosen.reply, "board"), ["2", "3"])
    assert "put 2 High Elven Infantry from Silverhaven aboard a ship" in boarded.text
    menu = copy.deepcopy(boarded.reply)

    await runner.stop()  # a restart: the menu's controls carry all they need
    await make_bot(service_options={"dice_factory": dice.factory()}, ruleset=_voyage(ruleset))
    labels = option_labels(menu, "sail")
    gulf = next(v for v, label in labels.items() if label.startswith("Silver Gulf"))
    drawn = copy.deepcopy(menu)  # the menu as drawn before the ship sailed
    sailed = await fake.select(elf, menu, control(menu, "sail"), [gulf])
    assert "sailed 1 High Elven Ship from Strait of Estlon to Silver Gulf" in sailed.text
    stale = await fake.select(elf, drawn, control(drawn, "sail"), [gulf])
    assert "has changed since this menu was drawn; nothing was done" in stale.text
    landed = await fake.select(elf, sailed.reply, control(sailed.reply, "land"), ["silverbirch"])
    assert "landed 2 High Elven Infantry from Silver Gulf in Silverbirch." in landed.text
    status = await fake.slash(elf, "status", channel=hel)
    assert "High Elven Ship #5 in Silver Gulf, 1 move left, empty" in status.text
    dice.assert_used_up()
