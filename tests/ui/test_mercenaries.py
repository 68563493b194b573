"""The Mercenary choice's controls and prompts (R-ATTR-MERC-01, R-PBP-DEAD-01, R-PBP-DEAD-04).

The decision used: the Orcs in Melvek Tor must let 2 of Rabble #3, Rabble #4 (Orc Rabble, 2 RP)
and Bugbears #5 (Bugbear Irregulars, 3 RP) go; the default is the Rabble, the newer first
(4, 3).
"""

from __future__ import annotations

from datetime import UTC, datetime

from caedes_bot.domain.places import ChannelKey
from caedes_bot.domain.records import OutboxKind
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.rules.mercenary import MercenariesOwed
from caedes_bot.rules.mercenary_answer import ChooseMercenaries
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import MercenariesDetail, MercenaryCandidate, PendingDecision
from caedes_bot.ui import battle_embeds, embeds, mercenaries
from caedes_bot.ui.components import read_control

RS = load_ruleset()
DETAIL = MercenariesDetail(
    space="melvek-tor",
    faction="ORC",
    deserting=2,
    mercenaries=3,
    others=1,
    candidates=(
        MercenaryCandidate(3, "U-ORC-01", cost=2),
        MercenaryCandidate(4, "U-ORC-01", cost=2),
        MercenaryCandidate(5, "U-ORC-03", cost=3),
    ),
    default=(4, 3),
)
DECISION = PendingDecision(12, "ORC", DETAIL.kind, True, DETAIL)


def test_r_attr_merc_01_the_select_offers_each_mercenary_with_the_default_preselected() -> None:
    """R-ATTR-MERC-01: one option per Mercenary, the default two first and preselected, exactly
    2 to pick; a **Use default** button naming the default; both controls read back under the
    ``dec`` grammar."""
    select, button = mercenaries.components(7, RS, DECISION)
    assert select["type"] == 3 and select["custom_id"] == "caedes:7:dec.12:merc"
    assert (select["min_values"], select["max_values"]) == (2, 2)
    assert select["placeholder"] == "👹 Orcs (ORC): choose 2 Mercenaries to desert"
    assert [
        (o["value"], o["label"], o["description"], o.get("default", False))
        for o in select["options"]
    ] == [
        ("3", "Orc Rabble #3", "2 RP · default", True),
        ("4", "Orc Rabble #4", "2 RP · default", True),
        ("5", "Bugbear Irregulars #5", "3 RP", False),
    ]
    assert button["custom_id"] == "caedes:7:dec.12:mercdefault"
    assert button["label"] == "Use default: 2 Orc Rabble"
    ref = read_control(select["custom_id"], ["3", "5"], select=True, ruleset=RS)
    assert (ref.parts, ref.action, ref.values) == (("dec", "12"), "merc", ("3", "5"))
    # the battle message and the turn panel use the same controls for a battle's decision
    assert battle_embeds.decision_components(7, RS, DECISION) == [select, button]


def test_r_attr_merc_01_a_pick_or_the_default_button_orders_those_units() -> None:
    """R-ATTR-MERC-01, R-PBP-DEAD-04: picking #3 and #5 orders them; the button orders the
    default (4, 3); a decision of another kind is not this module's."""
    order, head = mercenaries.order_for(DECISION, "merc", ["3", "5"], RS) or (None, "")
    assert order == ChooseMercenaries("ORC", 12, (3, 5))
    assert head == "Deserting: 1 Orc Rabble, 1 Bugbear Irregulars (R-ATTR-MERC-01)."
    order, head = mercenaries.order_for(DECISION, "mercdefault", [], RS) or (None, "")
    assert order == ChooseMercenaries("ORC", 12, (4, 3))
    assert head == "Deserting: 2 Orc Rabble (R-ATTR-MERC-01)."
    assert embeds.decision_text(RS, DECISION) == (
        "choose 2 of 3 Mercenaries to desert at Melvek Tor: 3 Mercenaries outnumber 1 other "
        "unit (R-ATTR-MERC-01)"
    )


def test_r_pbp_dead_01_a_turn_start_choice_is_posted_then_closed() -> None:
    """R-ATTR-MERC-01, R-PBP-DEAD-01: the order that asks posts the controls in the Orcs'
    orders thread with the deadline and a ping for bob (id 22); the order that answers edits
    that post without controls."""
    state = new_game(RS, "default", "s")
    state.pending = [DECISION]
    due = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
    owed = MercenariesOwed("ORC", "melvek-tor", 2, 12)
    (post,) = mercenaries.turn_start_posts(
        7, [owed], state, None, RS, {"decision:12": due}, lambda f: [22], embeds.timestamp
    )
    assert post.channel_key == ChannelKey.orders("ORC") and post.kind is OutboxKind.POST
    assert post.dedupe_key == "merc:12"
    assert post.payload["mention_user_ids"] == [22]
    assert f"by <t:{int(due.timestamp())}:R>" in post.payload["content"]
    assert "the default goes: 2 Orc Rabble" in post.payload["content"]
    assert post.payload["components"][0]["components"][0]["custom_id"] == "caedes:7:dec.12:merc"
    after = new_game(RS, "default", "s")
    (edit,) = mercenaries.turn_start_posts(7, [], after, state, RS, {}, lambda f: [], str)
    assert edit.kind is OutboxKind.EDIT
    assert edit.payload == {
        "content": "The Mercenary choice at Melvek Tor is made (R-ATTR-MERC-01).",
        "components": [],
        "message_key": "merc:12",
    }
