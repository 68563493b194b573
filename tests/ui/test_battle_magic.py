"""How the special dice read on the battle message (R-COMBAT-16, R-ATTR-BREATH-01,
R-MAGIC-ILL-01, R-MAGIC-ENCH-01) and what a click on a magic control orders (R-COMBAT-12)."""

from __future__ import annotations

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.rules.combat.actions import DeclareActions, DeclaredKind
from caedes_bot.rules.combat.orders import RerollDice
from caedes_bot.rules.state import (
    BattleAction,
    BattleDie,
    DeclarableKind,
    DeclarationsDetail,
    DiePurpose,
    PendingDecision,
    Side,
)
from caedes_bot.ui.battle_magic import change_order, components, dice_line, order_for


def test_r_attr_breath_01_own_side_tens_and_rerolls_beside_the_dice_they_replaced() -> None:
    """R-ATTR-BREATH-01, R-MAGIC-ILL-01: breath 2 (hit), 7, 10 (own side); the 2 was rerolled
    into a 6 by an enemy Illusionist: shown struck through with its reroll beside it."""
    a = Side.ATTACKER
    dice = [
        BattleDie(3, "ENG", a, 4, 2, True, DiePurpose.BREATH, rerolled=True),
        BattleDie(3, "ENG", a, 4, 7, False, DiePurpose.BREATH),
        BattleDie(3, "ENG", a, 4, 10, False, DiePurpose.BREATH, own_side=True),
        BattleDie(3, "ENG", a, 4, 6, False, DiePurpose.BREATH, replaces=0),
    ]
    text = dice_line(dice, {3: "Military Engineer #3"}, dice)
    assert text == "Military Engineer #3: 🔥~~2~~→🔥6 🔥7 🔥**10** (own side) vs 4"


def test_r_magic_ill_01_a_void_die_and_the_enchant_die() -> None:
    """R-MAGIC-ILL-01, R-MAGIC-ENCH-01: an Illusionist's own die that no longer counts is
    struck through; a successful enchant die says so."""
    d = Side.DEFENDER
    dice = [
        BattleDie(7, "ILL", d, 2, 1, True, void=True),
        BattleDie(8, "DRUID", d, 4, 4, True, DiePurpose.ENCHANT),
    ]
    text = dice_line(dice, {7: "Illusionist #7", 8: "Druid #8"}, dice)
    assert (
        text == "Illusionist #7: ~~1~~ (Illusionist acts) vs 2 · Druid #8: 🌀**4** (enchants) vs 4"
    )


def test_r_combat_12_a_declaration_select_orders_that_kind_with_its_count_and_ask() -> None:
    """R-COMBAT-12: the value ``2a`` of the Engineers' select orders 2 of them to breathe and
    to be asked again; "Use defaults" orders every kind's default; a reroll pick orders it."""
    detail = DeclarationsDetail(
        battle=5,
        space="x",
        round=1,
        faction="DWA",
        choices=(DeclarableKind("ENG", BattleAction.BREATH, 3, 3),),
    )
    decision = PendingDecision(9, "DWA", detail.kind, False, detail)
    order, _ = order_for(decision, "declare", ("dec", "9", "ENG"), ["2a"]) or (None, "")
    assert order == DeclareActions("DWA", (DeclaredKind("ENG", 2, True),))
    default, _ = order_for(decision, "default", ("dec", "9"), []) or (None, "")
    assert default == DeclareActions("DWA", (DeclaredKind("ENG", 3),), None)
    assert not isinstance(default, RerollDice)


def test_r_combat_12_several_kinds_give_partial_picks_and_a_confirm_button() -> None:
    """R-COMBAT-12: with two kinds, each select is a partial pick, a pick already made shows
    as the select's default, and **Confirm** answers with nothing named (the picks stand)."""
    detail = DeclarationsDetail(
        battle=5,
        space="x",
        round=1,
        faction="DWA",
        choices=(
            DeclarableKind("ENG", BattleAction.BREATH, 3, 3, chosen=1, chosen_ask=True),
            DeclarableKind("CLERIC", BattleAction.ABJURE, 1, 1),
        ),
    )
    decision = PendingDecision(9, "DWA", detail.kind, False, detail)
    order, head = order_for(decision, "declare", ("dec", "9", "CLERIC"), ["0"]) or (None, "")
    assert order == DeclareActions("DWA", (DeclaredKind("CLERIC", 0),), partial=True)
    assert "Confirm" in head
    confirm, _ = order_for(decision, "confirm", ("dec", "9"), []) or (None, "")
    assert confirm == DeclareActions("DWA")
    items = components(1, load_ruleset(), decision)
    ids = [c.get("custom_id") for c in items]
    assert "caedes:1:dec.9:confirm" in ids
    (eng,) = [c for c in items if c.get("custom_id") == "caedes:1:dec.9.ENG:declare"]
    assert [o["value"] for o in eng["options"] if o.get("default")] == ["1a"]


def test_r_combat_12_a_change_menu_pick_is_a_partial_change_of_that_kind() -> None:
    """R-COMBAT-12: in the change menu (``chg.<battle>.<faction>.<kind>``) the value ``0``
    orders that kind to 0 from the next round; the Illusionist select sets its rule."""
    order, head = change_order("DWA", "declare", ("chg", "5", "DWA", "ENG"), ["0"])
    assert order == DeclareActions("DWA", (DeclaredKind("ENG", 0),), partial=True)
    assert "next round" in head
    rule, _ = change_order("DWA", "illusion", ("chg", "5", "DWA"), ["2"])
    assert rule == DeclareActions("DWA", (), 2, partial=True)
