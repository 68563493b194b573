"""End-to-end: declaring several kinds one select at a time (R-COMBAT-12, R-PBP-DEAD-04).

The magic skirmish of :mod:`tests.e2e.test_game_magic`: the Dawnians attack Wolfsgate with a
Cleric (Abjurer), a Mesmer (Enchanter) and two Infantry. Their declaration has a select per
kind: each pick is kept on the pending decision (through a restart, and a repeated pick
changes nothing) until **Confirm** answers it. Between rounds the battle message's **Change
declarations** button opens the same selects for the faction's player.
"""

from __future__ import annotations

import copy

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.rules.state import DecisionKind, DeclarationsDetail
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, battle, control, custom_ids, staffed_campaign
from tests.e2e.test_game_magic import MESMER, attack_wolfsgate, ids_of, magic_ruleset
from tests.fakediscord import FakeDiscord, message_text


def declare_select(message: dict[str, object], kind: str) -> str:
    """The custom id of the declaration select of unit kind ``kind``."""
    found = [c for c in custom_ids(message) if c.endswith(":declare") and f".{kind}:" in c]
    assert len(found) == 1, custom_ids(message)
    return found[0]


def picked_values(message: dict[str, object], kind: str) -> list[str]:
    """The values the declaration select of ``kind`` shows chosen."""
    cid = declare_select(message, kind)
    rows = message.get("components") or []
    assert isinstance(rows, list)
    for row in rows:
        for c in row.get("components") or []:
            if c.get("custom_id") == cid:
                return [o["value"] for o in c.get("options") or [] if o.get("default")]
    return []


@pytest.mark.parametrize("ruleset", [magic_ruleset()], ids=["magic"])
async def test_each_kind_declared_in_its_own_select_then_confirmed(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-COMBAT-12: the Mesmer "0 enchant" (picked twice), a restart, the Cleric "1 abjures,
    ask me each round", Confirm: both picks are the standing orders. Round 1: the two
    Infantry and the Mesmer (attack 2) roll 9, 9, 9; the Cleric does not roll; the Orcs 9, 9."""
    dice = QueuedDice()
    first_bot = await make_bot(service_options={"dice_factory": dice.factory()})
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await attack_wolfsgate(fake, table, alice, "1 Cleric, 1 Mesmer, 2 Infantry")
    fought = await fake.slash(alice, "attack", province="Wolfsgate", channel=table.thread("DAW"))
    assert "The battle at Wolfsgate has begun" in fought.text
    message = await battle(fake, table, "Wolfsgate", showing="declare special actions")
    for _ in range(2):
        picked = await fake.select(alice, message, declare_select(message, MESMER), ["0"])
        assert "press Confirm" in picked.text, picked.text
    state = await first_bot.bot.service.get_state(1)
    (owed,) = [d for d in state.pending if d.kind is DecisionKind.DECLARE_ACTIONS]
    assert isinstance(owed.detail, DeclarationsDetail)
    assert {c.kind: c.chosen for c in owed.detail.choices} == {"U-DAW-05": None, MESMER: 0}
    # the battle message is drawn again with the pick (issue 12): its text and its select
    message = await battle(
        fake,
        table,
        "Wolfsgate",
        showing="picked so far: Dawnian Cleric not yet; 0 Dawnian Mesmer enchant every round",
    )
    assert picked_values(message, MESMER) == ["0"]

    await first_bot.stop()
    second_bot = await make_bot(service_options={"dice_factory": dice.factory()})
    picked = await fake.select(alice, message, declare_select(message, "U-DAW-05"), ["1a"])
    assert "press Confirm" in picked.text, picked.text
    message = await battle(
        fake,
        table,
        "Wolfsgate",
        showing="picked so far: 1 Dawnian Cleric abjure every round (asked each round); "
        "0 Dawnian Mesmer enchant every round, then Confirm",
    )
    assert picked_values(message, "U-DAW-05") == ["1a"]
    dice.push(9, 9, 9, 9, 9)
    confirmed = await fake.click(alice, message, control(message, "confirm"))
    assert "Declared (R-COMBAT-12)" in confirmed.text, confirmed.text
    again = await fake.click(alice, message, control(message, "confirm"))
    assert "Declared" not in again.text, again.text
    message = await battle(fake, table, "Wolfsgate", showing="press on or withdraw")
    text = message_text(message)
    assert "1 Dawnian Cleric abjure every round (asked each round)" in text, text
    assert "0 Dawnian Mesmer enchant every round" in text, text
    state = await second_bot.bot.service.get_state(1)
    assert state.battle is not None
    assert sorted((o.kind, o.count, o.ask) for o in state.battle.standing) == [
        ("U-DAW-05", 1, True),
        (MESMER, 0, False),
    ]
    dice.assert_used_up()


@pytest.mark.parametrize("ruleset", [magic_ruleset()], ids=["magic"])
async def test_change_declarations_between_rounds_from_the_battle_message(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-COMBAT-12: the Dawnians take the defaults (the Cleric abjures, the Mesmer enchants);
    round 1: infantry 9, 9, the enchant die 9 fails, the Orcs 9, 9. Their **Change
    declarations** button is refused to the Orc player; for Alice it opens the same selects,
    and "0 Mesmers enchant" (picked twice: one change) holds from round 2, where the Mesmer
    rolls one normal die at its attack 2 and nobody is asked again."""
    dice = QueuedDice()
    runner = await make_bot(service_options={"dice_factory": dice.factory()})
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await attack_wolfsgate(fake, table, alice, "1 Cleric, 1 Mesmer, 2 Infantry")
    service = runner.bot.service
    mesmer = ids_of(await service.get_state(1), MESMER, "wolfsgate")[0]
    await fake.slash(alice, "attack", province="Wolfsgate", channel=table.thread("DAW"))
    message = await battle(fake, table, "Wolfsgate", showing="declare special actions")
    assert not [c for c in custom_ids(message) if c.endswith(":open")]
    dice.push(9, 9, 9, 9, 9)
    await fake.click(alice, message, control(message, "default"))
    message = await battle(fake, table, "Wolfsgate", showing="press on or withdraw")
    change = control(message, "open")
    assert ".DAW:open" in change, change

    refused = await fake.click(bob, message, change)
    assert "You do not play" in refused.text, refused.text
    menu = await fake.click(alice, message, change)
    assert "1 Dawnian Mesmer enchant every round" in menu.text, menu.text
    assert menu.reply is not None
    for _ in range(2):
        changed = await fake.select(alice, menu.reply, declare_select(menu.reply, MESMER), ["0"])
        assert "Declaration changed from the next round" in changed.text, changed.text
    state = await service.get_state(1)
    assert state.battle is not None
    assert sorted((o.kind, o.count) for o in state.battle.standing) == [
        ("U-DAW-05", 1),
        (MESMER, 0),
    ]
    assert len([n for n in state.battle.notes if n.faction == "DAW"]) == 2  # one change

    # Round 2: infantry 9, 9, the Mesmer's normal die 9; the Orcs 9, 9.
    dice.push(9, 9, 9, 9, 9)
    await fake.click(alice, message, control(message, "press"))
    message = await battle(fake, table, "Wolfsgate", showing=f"Dawnian Mesmer #{mesmer}: 9 vs 2")
    assert "press on or withdraw" in message_text(message)
    state = await service.get_state(1)
    assert not [d for d in state.pending if d.kind is DecisionKind.DECLARE_ACTIONS]
    dice.assert_used_up()


@pytest.mark.parametrize("ruleset", [magic_ruleset()], ids=["magic"])
async def test_refused_picks_change_nothing_and_queue_nothing(
    fake: FakeDiscord, make_bot: MakeBot, ruleset: Ruleset
) -> None:
    """R-COMBAT-12, R-SETUP-02: the Orc player picking in the Dawnians' declaration is refused;
    after Confirm, a pick on the old selects is refused as stale. Neither changes the decision
    or queues an edit of the battle message; each gets one private answer."""
    dice = QueuedDice()
    runner = await make_bot(service_options={"dice_factory": dice.factory()})
    service = runner.bot.service
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await attack_wolfsgate(fake, table, alice, "1 Cleric, 1 Mesmer, 2 Infantry")
    await fake.slash(alice, "attack", province="Wolfsgate", channel=table.thread("DAW"))
    message = await battle(fake, table, "Wolfsgate", showing="declare special actions")
    before = await service.get_state(1)

    async def rows() -> int:
        return await service.db.read(lambda conn: len(repo.outbox_rows(conn, 1)))

    queued = await rows()
    refused = await fake.select(bob, message, declare_select(message, MESMER), ["0"])
    assert "You do not play" in refused.text, refused.text
    assert (await service.get_state(1)).pending == before.pending
    assert await rows() == queued

    dice.push(9, 9, 9, 9, 9)
    await fake.select(alice, message, declare_select(message, MESMER), ["0"])
    old = copy.deepcopy(message)  # the selects as a client that has not redrawn shows them
    confirmed = await fake.click(alice, message, control(message, "confirm"))
    assert "Declared (R-COMBAT-12)" in confirmed.text, confirmed.text
    await battle(fake, table, "Wolfsgate", showing="press on or withdraw")
    after = await service.get_state(1)
    queued = await rows()
    stale = await fake.select(alice, old, declare_select(old, "U-DAW-05"), ["0"])
    assert "Declared" not in stale.text and "R-COMBAT-12" in stale.text, stale.text
    assert (await service.get_state(1)).pending == after.pending
    assert await rows() == queued
    dice.assert_used_up()
