"""Embeds (caedes_bot/ui/embeds.py, caedes_bot/ui/battle_embeds.py) and component JSON
(caedes_bot/ui/views.py)."""

from __future__ import annotations

import discord
import pytest

from caedes_bot.rules.state import BattleDie, BattleStepRecord, CombatStep, Side, Step
from caedes_bot.rules.upkeep_marks import SetDisbandMarks
from caedes_bot.ui import views
from caedes_bot.ui.battle_embeds import (
    BattleHistory,
    battle_detail,
    casualty_assignment,
    casualty_options,
)
from caedes_bot.ui.embeds import panel_components, status_embed, turn_panel, unit_embed
from caedes_bot.ui.steps import step_line
from tests.rules.decision_samples import casualties
from tests.ui.skirmish import apply, at_step, ruleset


def _actions(rows: list[views.JSON]) -> list[str]:
    return [c["custom_id"].rsplit(":", 1)[1] for row in rows for c in row["components"]]


@pytest.mark.parametrize(
    ("step", "actions"),
    [
        (Step.TRADE, ["disband", "done", "status", "help"]),
        (Step.UPKEEP, ["disband", "done", "status", "help"]),
        (Step.BUY, ["buy", "done", "status", "help"]),
        (Step.MOVE, ["move", "odds", "undo", "done", "status", "help"]),  # issue 13: the odds
    ],
)
def test_r_turn_02_the_panel_offers_the_current_steps_controls(
    step: Step, actions: list[str]
) -> None:
    """R-TURN-02, R-UPK-02: each waiting step has its "Done" button and its own controls, named
    with the faction, game round and step so a stale click is caught; step 1 has "Disband at
    upkeep…" (marks), step 4 rests only with the option upkeep_waits (then "Disband…"), step 6
    has "Undo last move" (/undo)."""
    state = at_step(step, upkeep_waits=True)
    rows = panel_components(7, state, ruleset(), "DAW")
    assert _actions(rows) == actions
    assert rows[0]["components"][0]["custom_id"].startswith(f"caedes:7:panel.DAW.1.{int(step)}:")


def test_step_line_marks_the_steps_done_and_the_current_one() -> None:
    line = step_line(Step.BUY)
    assert line.startswith("~~1 Trade~~ · ~~2 Redeem~~")
    assert "**5 Buy** · 6 Move" in line


def test_status_shows_treasury_upkeep_and_units() -> None:
    """R-UPK-01: 7 Dawnian units count for upkeep: ceil(7/6) = 2 RP."""
    state = at_step(Step.BUY)
    embed = status_embed(state, ruleset(), "DAW")
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Treasury"].startswith("**19 RP**")
    assert fields["Upkeep at your next step 4"] == "2 RP for 7 units (R-UPK-01)"
    assert "Harrowgate: 2 Dawnian Infantry, 1 Dawnian Yeomen" in (fields["Units (7)"] or "")


def test_r_upk_02_the_panel_and_status_list_the_marked_units() -> None:
    """R-UPK-02, R-UPK-01: in step 1 Infantry #7 (Corndale) and #6 are marked: the panel and
    /status list them by id; /status counts the next bill on the 5 units left, ceil(5/6) =
    1 RP; with no mark neither lists anything."""
    state, _ = apply(at_step(Step.TRADE), SetDisbandMarks("DAW", (7, 6)))
    embed, _rows = turn_panel(7, state, ruleset(), "DAW", 1)
    fields = {f.name: f.value or "" for f in embed.fields}
    listed = fields["Marked to disband at upkeep (R-UPK-02)"]
    assert listed.splitlines()[1] == "Dawnian Infantry #7 in Corndale"
    assert listed.splitlines()[0].endswith("#6 in Harrowgate")
    status = {f.name: f.value or "" for f in status_embed(state, ruleset(), "DAW").fields}
    assert status["Marked to disband at upkeep (R-UPK-02)"] == listed
    assert status["Upkeep at your next step 4"] == (
        "1 RP for 5 units (of 7, once the marked units go) (R-UPK-01)"
    )
    plain, _ = turn_panel(7, at_step(Step.TRADE), ruleset(), "DAW", 1)
    assert "Marked to disband at upkeep (R-UPK-02)" not in [f.name for f in plain.fields]


def test_unit_embed_explains_each_attribute_with_its_rule() -> None:
    """Dawnian Knights: Cavalry (Blitz) with Veteran: A5, D3+1 = 4, M2 (R-GEN-03)."""
    kind = ruleset().kind("U-DAW-04")
    embed = unit_embed(ruleset(), kind)
    assert "**A5 D4 M2**" in (embed.description or "")
    attributes = embed.fields[0].value or ""
    assert "**Veteran**: defends at +1 (R-ATTR-VET-01)." in attributes
    assert "**Blitz**:" in attributes and "(R-ATTR-BLITZ-02)" in attributes


DETAIL = casualties(2, [(10, "U-ORC-05", 2), (12, "U-ORC-02", 1)], [12, 10])


def test_r_attr_forti_01_a_fortitude_unit_offers_a_second_hit() -> None:
    """R-COMBAT-06 with R-ATTR-FORTI-01: the Ogre Heavy Infantry can take two hits; the default
    (Troopers, then one hit on the Ogre) is preselected."""
    options = casualty_options(ruleset(), DETAIL)
    assert [(o["value"], o.get("default", False)) for o in options] == [
        ("u10", True),
        ("u10b", False),
        ("u12", True),
    ]
    assert casualty_assignment(DETAIL, ["u10", "u10b"]) == (10, 10)  # the Ogre destroyed
    assert casualty_assignment(DETAIL, ["u12", "u10"]) == (12, 10)  # Troopers, Ogre wounded


def test_r_combat_06_many_units_are_chosen_by_kind_and_count() -> None:
    """R-COMBAT-06, R-ATTR-FORTI-01: ux.md "Casualties with many units": 30 Troopers and 2 Ogres
    take 3 hits; the select offers hits by kind (the 25-option limit), and a kind's hits go to
    its most recent units, an Ogre taking both its hits before the next.
    """
    units = [(i, "U-ORC-02", 1) for i in range(1, 31)]
    units += [(40 + i, "U-ORC-05", 2) for i in (1, 2)]
    detail = casualties(3, units, [30, 29, 28])
    options = casualty_options(ruleset(), detail)
    assert [o["value"] for o in options] == ["g0:1", "g0:2", "g0:3", "g1:1", "g1:2", "g1:3"]
    assert options[0]["label"] == "30 Orc Troopers: hit 1"
    assert [o.get("default", False) for o in options] == [True, True, True, False, False, False]
    assert casualty_assignment(detail, ["g0:1", "g1:1", "g1:2"]) == (30, 42, 42)


def _record(round_no: int, step: CombatStep) -> BattleStepRecord:
    die = BattleDie(unit=5, kind="U-DAW-01", side=Side.ATTACKER, target=2, value=9, hit=False)
    return BattleStepRecord(round_no, step, [die], 0, 0)


def test_long_battles_fold_their_earlier_rounds() -> None:
    """ux.md "The battle message": the latest rounds stay whole, earlier ones become one line."""
    history = BattleHistory(
        id=1,
        space="wolfsgate",
        attacker="DAW",
        defenders=("ORC",),
        records=[_record(n, CombatStep.MELEE) for n in range(1, 31)],
        kinds={5: "U-DAW-01"},
    )
    text = battle_detail(ruleset(), history, budget=600)
    assert text.startswith("*Rounds 1–")
    assert "__Round 30, melee step__" in text and "Dawnian Infantry #5: 9 vs 2" in text
    assert "__Round 1, melee step__" not in text
    assert len(text) < 800


def test_custom_ids_are_stable_and_parsed_back() -> None:
    cid = views.custom_id(7, ["panel", "DAW", 1, 5], "done")
    assert cid == "caedes:7:panel.DAW.1.5:done"
    ref = views.parse_custom_id(cid)
    assert ref == views.ComponentRef(7, ("panel", "DAW", "1", "5"), "done")
    assert views.parse_custom_id("other:1:x:y") is None
    with pytest.raises(ValueError):
        views.custom_id(7, ["x" * 100], "done")


def test_layout_puts_selects_alone_and_buttons_five_to_a_row() -> None:
    buttons = [views.button(f"caedes:1:b.{i}:go", f"B{i}") for i in range(7)]
    select = views.select("caedes:1:s:pick", [views.option("A", "a")], placeholder="Pick")
    empty = views.select("caedes:1:e:pick", [], placeholder="Nothing")
    rows = views.layout([select, empty, *buttons])
    assert [len(r["components"]) for r in rows] == [1, 5, 2]
    assert rows[0]["components"][0]["type"] == 3


async def test_components_view_renders_the_json_and_keeps_nothing() -> None:
    rows = views.layout(
        [
            views.button("caedes:1:b:go", "Go", style="primary"),
            views.select("caedes:1:s:pick", [views.option("A", "a")], placeholder="Pick"),
        ]
    )
    view = views.components_view(rows)
    assert view is not None and view.is_finished()  # stopped: discord.py stores nothing
    dumped = view.to_components()
    assert [c["components"][0]["custom_id"] for c in dumped] == ["caedes:1:b:go", "caedes:1:s:pick"]
    assert isinstance(view.children[0], discord.ui.Button)
    assert views.components_view([]) is None


def test_r_pbp_dead_03_a_passive_turn_has_no_controls_but_status_and_help() -> None:
    """R-PBP-DEAD-03: after a missed turn deadline the faction's own orders are refused, so its
    panel offers none."""
    from caedes_bot.ui.embeds import turn_panel

    state = at_step(Step.BUY)
    state.passive = True
    embed, rows = turn_panel(7, state, ruleset(), "DAW", 1)
    assert _actions(rows) == ["status", "help"]
    assert "plays the rest of this turn passively (R-PBP-DEAD-03)" in (embed.description or "")


def test_r_pbp_dead_03_a_forfeited_turn_is_announced() -> None:
    """R-PBP-DEAD-03: a missed turn deadline is announced with the step it came in, and that the bot
    plays the rest of the turn passively.
    """
    from caedes_bot.rules.turn import TurnForfeited
    from caedes_bot.ui.lines import event_line

    state = at_step(Step.BUY)
    line = event_line(TurnForfeited("DAW", 1, Step.BUY), state, ruleset())
    assert line == (
        "🌅 Dawnians (DAW) missed its turn deadline at step 5 Buy: the bot plays the rest of its "
        "turn passively (R-PBP-DEAD-03)."
    )
