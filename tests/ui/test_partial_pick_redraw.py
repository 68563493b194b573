"""A partial declaration pick draws the battle message again (issue 12, R-COMBAT-12): the pick
is recorded on the open decision with no event, so the announcer compares the decisions owed
before and after the order. A repeated pick changes nothing and posts nothing.

Units (the rules tests' small game data): DAW attacks with an Engineer (Breathweapon, id 1)
and a Cleric (Abjurer, id 2) against one Orc infantry (id 3).
"""

from __future__ import annotations

from caedes_bot.domain.records import OutboxKind
from caedes_bot.rules.combat.actions import DeclareActions, DeclaredKind
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.ui.announcer import RichAnnouncer, picked_battles
from tests.rules.combat.test_magic import begin, setup
from tests.ui.skirmish import campaign


def test_r_combat_12_a_partial_pick_edits_the_battle_message_with_the_picks() -> None:
    """ "0 Engineers breathe", picked while both kinds are owed: one edit of the battle
    message, which says what is picked so far and preselects the pick; the same pick again:
    no row."""
    rs, st = setup(["ENG", "CLERIC"], ["ORCI"])
    opened = begin(st, rs).state
    assert opened.battle is not None
    pick = DeclareActions("DAW", (DeclaredKind("ENG", 0),), partial=True)
    out = apply(opened, pick, rs, ScriptedDice([]))
    assert not out.events
    assert picked_battles(out.state, opened) == [opened.battle.id]
    rows = RichAnnouncer().announce(campaign(), out.events, out.state, rs, before=opened)
    assert [(r.channel_key, r.kind) for r in rows] == [("battles", OutboxKind.EDIT)]
    payload = rows[0].payload
    assert payload["message_key"] == f"battle:{opened.battle.id}" and payload["paced"]
    waiting = [f for f in payload["embeds"][0]["fields"] if f["name"] == "Waiting for"]
    assert "picked so far:" in waiting[0]["value"], waiting
    assert "0 " in waiting[0]["value"] and "breathe every round" in waiting[0]["value"]
    chosen = [
        o["value"]
        for row in payload["components"]
        for c in row["components"]
        if c.get("custom_id", "").endswith(".ENG:declare")
        for o in c["options"]
        if o.get("default")
    ]
    assert chosen == ["0"]
    again = apply(out.state, pick, rs, ScriptedDice([]))
    assert picked_battles(again.state, out.state) == []
    assert RichAnnouncer().announce(campaign(), (), again.state, rs, before=out.state) == []
