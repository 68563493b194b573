"""End to end: the Orcs choose which Mercenaries desert at the start of a turn, through the fake
Discord (R-ATTR-MERC-01, R-TURN-04, R-PBP-DEAD-01).

The scenario is made here from the shipped default one ("sellswords"): the Dawnians (alice)
hold Harrowgate with one infantry (#1); the Orcs (bob) hold Melvek Tor with an Orc Trooper (#2),
two Orc Rabble (#3, #4; Mercenary, 2 RP) and Bugbear Irregulars (#5; Mercenary, 3 RP). At the
start of the first turn (the Dawnians') 3 Mercenaries outnumber 1 other unit, so 2 must go; by
default the Rabble, the newer first (#4, #3). Rabble and Bugbears differ, so bob is asked.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from caedes_bot.app import CaedesBot
from caedes_bot.gamedata.model import Attribute, Ruleset, Scenario, ScenarioFaction, ScenarioUnit
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, battle, control, panel, panels, staffed_campaign
from tests.fakediscord import FakeDiscord, message_text

JSON = dict[str, Any]


def _sellswords(shipped: Ruleset) -> Ruleset:
    base = shipped.scenarios["default"]
    scenario: Scenario = replace(
        base,
        id="sellswords",
        name="Sellswords",
        factions=(ScenarioFaction("DAW", 10, {}, None), ScenarioFaction("ORC", 10, {}, None)),
        owners={"harrowgate": "DAW", "melvek-tor": "ORC"},
        units=(
            ScenarioUnit("U-DAW-01", "harrowgate", 1),
            ScenarioUnit("U-ORC-02", "melvek-tor", 1),
            ScenarioUnit("U-ORC-01", "melvek-tor", 2),
            ScenarioUnit("U-ORC-03", "melvek-tor", 1),
        ),
        heroes={},
        alliances=(),
        fealty={},
        turn_limit=None,
        events=(),
    )
    return replace(shipped, scenarios={**shipped.scenarios, "sellswords": scenario})


async def test_the_orcs_pick_a_rabble_and_the_bugbears_instead_of_the_default(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-ATTR-MERC-01, R-PBP-DEAD-01: the Orcs' orders thread gets the choice, pinging bob, with
    the default (Rabble #4 and #3) preselected and named on **Use default**; the Dawnian turn
    has no panel yet. Bob picks Rabble #3 and the Bugbears #5: they go, Rabble #4 stays with the
    Trooper, the post loses its controls, and the Dawnian turn begins with its panel."""
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()}, ruleset=_sellswords(ruleset)
    )
    assert isinstance(runner.bot, CaedesBot)
    service = runner.bot.service
    alice, bob, _carol, _umpire = fake.players
    table = await staffed_campaign(fake, scenario="sellswords", seats={"DAW": alice, "ORC": bob})
    orcs = table.thread("ORC")

    def asked() -> JSON | None:
        for m in fake.messages_in(orcs):
            if "Mercenaries to desert at Melvek Tor" in (m.get("content") or ""):
                return m
        return None

    post = await fake.wait_for(asked, what="the Mercenary choice in the Orcs' thread")
    text = message_text(post)
    assert f"<@{bob.id}>" in post["content"]  # the ping goes to who answers (ux.md "Pings")
    assert "choose 2 of 3 Mercenaries to desert at Melvek Tor" in text, text
    assert "the default goes: 2 Orc Rabble" in text, text
    (select,) = [c for row in post["components"] for c in row["components"] if c.get("type") == 3]
    assert select["min_values"] == select["max_values"] == 2
    assert [(o["value"], o.get("default", False)) for o in select["options"]] == [
        ("3", True),
        ("4", True),
        ("5", False),
    ]
    labels = {o["value"]: o["label"] for o in select["options"]}
    assert labels == {"3": "Orc Rabble #3", "4": "Orc Rabble #4", "5": "Bugbear Irregulars #5"}
    default = [c for row in post["components"] for c in row["components"] if c.get("type") == 2]
    assert default[0]["label"] == "Use default: 2 Orc Rabble"
    state = await service.get_state(1)
    assert state.turn_start_waits and state.active == "DAW"
    assert panels(fake, table, "DAW") == []

    early = await fake.slash(alice, "done", channel=table.thread("DAW"))
    assert early.ephemeral and "waits for ORC" in early.text, early.text
    assert "wait until it is made" in early.text, early.text  # not Alice's choice to make
    status = await fake.slash(alice, "status", channel=table.thread("DAW"))
    assert "the turn begins once 👹 Orcs (ORC) choose which Mercenaries" in status.text, status.text

    picked = await fake.select(bob, post, control(post, "merc"), ["3", "5"])
    assert picked.ephemeral
    assert "Deserting: 1 Orc Rabble, 1 Bugbear Irregulars (R-ATTR-MERC-01)." in picked.text

    late = await fake.click(bob, post, control(post, "mercdefault"))  # the post as first shown
    assert late.ephemeral and "already been made" in late.text, late.text
    assert "R-ATTR-MERC-01" in late.text and "battle message" not in late.text, late.text

    state = await service.get_state(1)
    assert not state.turn_start_waits and state.pending == []
    assert sorted(u.id for u in state.units_at("melvek-tor")) == [2, 4]
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    assert f"<@{alice.id}>" in first["content"]

    def answered() -> bool:
        now = next(m for m in fake.messages_in(orcs) if m["id"] == post["id"])
        return "is made" in (now.get("content") or "") and not now.get("components")

    await fake.wait_for(answered, what="the Mercenary choice post without its controls")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_a_missed_deadline_lets_the_default_rabble_go(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-PBP-DEAD-04, R-PBP-DEAD-01: bob says nothing; when the choice's reaction deadline
    passes the scheduler applies the default, Rabble #4 and #3 go, the Bugbears #5 stay with
    the Trooper, and the Dawnian turn begins."""
    clock = Clock()
    runner = await make_bot(
        service_options={"dice_factory": QueuedDice().factory()},
        scheduler_options={"clock": clock},
        ruleset=_sellswords(ruleset),
    )
    assert isinstance(runner.bot, CaedesBot)
    service = runner.bot.service
    alice, bob, _carol, _umpire = fake.players
    table = await staffed_campaign(fake, scenario="sellswords", seats={"DAW": alice, "ORC": bob})
    state = await service.get_state(1)
    (owed,) = state.pending
    (deadline,) = [d for d in await service.deadlines(1) if d.decision_key == f"decision:{owed.id}"]
    assert deadline.faction == "ORC"
    clock.now = deadline.due_at + timedelta(seconds=1)
    runner.bot.scheduler.wake()
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    after = await service.get_state(1)
    assert not after.turn_start_waits and after.pending == []
    assert sorted(u.id for u in after.units_at("melvek-tor")) == [2, 5]


SELLSWORDS, FREELANCES = "U-DAW-91", "U-DAW-92"


def _hired(shipped: Ruleset) -> Ruleset:
    """The skirmish with two Dawnian Mercenary kinds (test kinds: infantry, Sellswords 2 RP and
    Freelances 4 RP), one of each in Harrowgate beside its 2 Infantry and Yeomen."""
    base = shipped.units["U-DAW-01"]
    kinds = {
        SELLSWORDS: replace(
            base,
            id=SELLSWORDS,
            name="Sellswords",
            display_name="Dawnian Sellswords",
            cost=2,
            attributes=frozenset({Attribute.MERCENARY}),
        ),
        FREELANCES: replace(
            base,
            id=FREELANCES,
            name="Freelances",
            display_name="Dawnian Freelances",
            cost=4,
            attributes=frozenset({Attribute.MERCENARY}),
        ),
    }
    skirmish = shipped.scenarios["skirmish"]
    extra = (ScenarioUnit(SELLSWORDS, "harrowgate"), ScenarioUnit(FREELANCES, "harrowgate"))
    scenario = replace(skirmish, units=(*skirmish.units, *extra))
    return replace(
        shipped,
        units={**shipped.units, **kinds},
        scenarios={**shipped.scenarios, "skirmish": scenario},
    )


async def test_at_a_round_start_the_attacker_keeps_the_cheaper_mercenary(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-ATTR-MERC-01, R-COMBAT-03: the Dawnians attack Wolfsgate with the Sellswords, the
    Freelances and 1 Infantry: 2 Mercenaries > 1 other, so 1 goes, by default the Sellswords
    (2 RP). The battle message asks before any die is rolled; alice lets the Freelances go
    instead, and round 1 is fought (the Sellswords and the Infantry roll 9, 9; the Trooper and
    the Wolfriders 9, 9: no hit)."""
    dice = QueuedDice()
    runner = await make_bot(
        service_options={"dice_factory": dice.factory()}, ruleset=_hired(ruleset)
    )
    assert isinstance(runner.bot, CaedesBot)
    service = runner.bot.service
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    daw = table.thread("DAW")
    first = await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    await fake.click(alice, first, control(first, "done"))
    buy = await panel(fake, table, "DAW", 1, showing="**Step 5 Buy**")
    await fake.click(alice, buy, control(buy, "done"))
    moved = await fake.slash(
        alice,
        "move",
        units="1 Sellswords, 1 Freelances, 1 Infantry",
        **{"from": "Harrowgate"},
        to="Wolfsgate",
        channel=daw,
    )
    assert "from Harrowgate to Wolfsgate" in moved.text, moved.text
    done = await fake.slash(alice, "done", channel=daw)
    assert "must fight at Wolfsgate" in done.text, done.text
    state = await service.get_state(1)
    (sell,) = [u.id for u in state.units_at("wolfsgate") if u.kind == SELLSWORDS]
    (free,) = [u.id for u in state.units_at("wolfsgate") if u.kind == FREELANCES]

    fought = await fake.slash(alice, "attack", province="Wolfsgate", channel=daw)
    assert "The battle at Wolfsgate has begun" in fought.text
    message = await battle(fake, table, "Wolfsgate", showing="Mercenary to desert")
    assert dice.rolled == 0
    values = [
        (o["value"], o.get("default", False))
        for row in message["components"]
        for c in row["components"]
        if c.get("custom_id", "").endswith(":merc")
        for o in c["options"]
    ]
    assert values == [(str(sell), True), (str(free), False)]
    dice.push(9, 9, 9, 9)
    picked = await fake.select(alice, message, control(message, "merc"), [str(free)])
    assert "Deserting: 1 Dawnian Freelances (R-ATTR-MERC-01)." in picked.text, picked.text
    message = await battle(fake, table, "Wolfsgate", showing="press on or withdraw")
    state = await service.get_state(1)
    assert state.battle is not None and free not in state.battle.attacker_units
    assert sell in state.battle.attacker_units and str(free) not in state.units
    dice.assert_used_up()
