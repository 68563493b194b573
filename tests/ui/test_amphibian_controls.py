"""What players see of Amphibian units at sea (R-ATTR-AMPH-02, R-ATTR-AMPH-03): ``/move``
offers the sea zone to attack, the turn panel asks where the winners go ashore (with the
decision's id in each control), and the battle message offers a retreat by sea."""

from __future__ import annotations

from caedes_bot.cogs._routes import route_choices
from caedes_bot.rules.state import (
    ComeAshoreDetail,
    DecisionKind,
    PendingDecision,
    PressOrWithdrawDetail,
    Step,
)
from caedes_bot.ui import views
from caedes_bot.ui.battle_embeds import decision_components
from caedes_bot.ui.embeds import panel_components
from tests.rules.builders import kind, ruleset, state

RS = ruleset(
    provinces={"a": ("plains",), "b": ("plains",), "c": ("plains",), "isle": ("plains",)},
    borders=[("a", "b"), ("b", "c")],
    seas=["s", "t"],
    coasts=[("a", "s"), ("b", "s"), ("b", "t"), ("c", "t"), ("isle", "t")],
    kinds=[
        kind("AMPH", "DAW", attributes=["amphibian"]),
        kind("OSHIP", "ORC", "ship"),
        kind("ORCI", "ORC"),
    ],
)


def test_r_attr_amph_02_move_offers_the_sea_zone_to_attack() -> None:
    """R-ATTR-AMPH-02: infantry #1 in a reaches b by land; s (the Orc ship) is offered after
    the provinces as an attack at sea."""
    st = state(RS, units=[("AMPH", "DAW", "a"), ("OSHIP", "ORC", "s")])
    choices = route_choices(st, RS, "DAW", [1], "")
    assert [value for _, value in choices] == ["b", "s"]
    assert choices[-1][0] == "S - an attack at sea, then ashore (R-ATTR-AMPH-02)"
    assert route_choices(st, RS, "DAW", [1], "", flying=True) == []


def test_r_attr_amph_02_the_panel_asks_where_to_go_ashore() -> None:
    """R-ATTR-AMPH-02: with a ``come_ashore`` decision (#9) pending in step 7, the turn panel
    shows a select of a and b and a button sending the units back, both naming decision 9."""
    st = state(RS, units=[("AMPH", "DAW", "s")], step=Step.COMBAT)
    st.unit(1).entered_from = "a"
    st.pending.append(
        PendingDecision(
            9, "DAW", DecisionKind.COME_ASHORE, False, ComeAshoreDetail(5, "s", (1,), ("a", "b"))
        )
    )
    rows = panel_components(7, st, RS, "DAW")
    controls = [c for row in rows for c in row["components"]]
    first, second = controls[:2]
    ref = views.parse_custom_id(first["custom_id"])
    assert ref is not None and ref.action == "ashore" and ref.parts[4] == "9"
    assert [o["value"] for o in first["options"]] == ["a", "b"]
    home = views.parse_custom_id(second["custom_id"])
    assert home is not None and home.action == "home" and home.parts[4] == "9"
    assert second["label"] == "Back where they came from"


def test_r_attr_amph_03_the_battle_message_offers_a_retreat_by_sea() -> None:
    """R-ATTR-AMPH-03: Amphibian #1 attacked c from b by land; at the withdrawal check the
    battle message adds a select: across t to b or isle."""
    st = state(RS, units=[("AMPH", "DAW", "b"), ("ORCI", "ORC", "c")], step=Step.COMBAT)
    st.unit(1).location, st.unit(1).entered_from = "c", "b"
    decision = PendingDecision(
        8,
        "DAW",
        DecisionKind.PRESS_OR_WITHDRAW,
        False,
        PressOrWithdrawDetail(4, "c", 1, (1,), ()),
    )
    items = decision_components(7, RS, decision, st)
    assert [views.parse_custom_id(i["custom_id"]).action for i in items] == [  # type: ignore[union-attr]
        "press",
        "withdraw",
        "seaward",
    ]
    assert [(o["label"], o["value"]) for o in items[2]["options"]] == [
        ("B (across T)", "b"),
        ("Isle (across T)", "isle"),
    ]
    assert len(decision_components(7, RS, decision)) == 2  # without the state: no select
