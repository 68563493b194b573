"""What /status, /province, /unit and /buy say of Heroes, Fortifications, summoned units and
Undead, and the controls of a summons offer (R-ATTR-HERO-01, R-ATTR-FORT-02, R-MAGIC-SUMM-01,
R-MAGIC-SUMM-02, R-ATTR-UNDEAD-03, R-RACE-UND-01), on the shipped game data."""

from __future__ import annotations

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.rules.state import (
    DecisionKind,
    FactionState,
    GameState,
    PendingDecision,
    Side,
    Step,
    SummonsDetail,
    Unit,
)
from caedes_bot.ui.summoning import (
    board_notes,
    kind_notes,
    needs_text,
    province_notes,
    summons_components,
    vanish_text,
)

RULESET = load_ruleset()


def _state(
    units: list[tuple[str, str, str]], *, active: str = "LIZ", step: Step = Step.MOVE
) -> GameState:
    st = GameState(
        scenario="default",
        dice_seed="seed",
        round=1,
        active=active,
        step=step,
        in_play=["WEL", "LIZ", "ACH"],
        factions={c: FactionState(code=c) for c in ("WEL", "LIZ", "ACH")},
    )
    for kind, owner, where in units:
        uid = st.new_id()
        st.units[str(uid)] = Unit(id=uid, kind=kind, owner=owner, location=where)
    return st


def test_status_tells_of_the_hero_towers_summons_and_summoners() -> None:
    """R-ATTR-HERO-01, R-ATTR-FORT-02, R-MAGIC-SUMM-02: the Wood Elves' Hero and Tower in
    Elderglade, a Fire Elemental beside the Druid in Duriak, in the Lizardmen's step 6: it
    vanishes when the Lizardmen's step 8 begins."""
    st = _state(
        [
            ("H-WEL-01", "WEL", "elderglade"),
            ("U-WEL-08", "WEL", "elderglade"),
            ("U-WEL-05", "WEL", "duriak"),
            ("U-WEL-06", "WEL", "duriak"),
        ]
    )
    lines = board_notes(st, RULESET, "WEL")
    assert lines[0] == "Heroes (R-ATTR-HERO-01): Elderglade: 1 Saelith Thornwarden"
    assert lines[1] == "Fortifications (R-ATTR-FORT-02): Elderglade: 1 Wood Elven Tower"
    assert lines[2].startswith("Summoned (R-MAGIC-SUMM-02): Duriak: 1 Summoned Fire Elemental")
    assert "when step 8 of 🦎 Lizardmen (LIZ) begins, this turn" in lines[2]
    assert lines[3] == (
        "Summoners: Duriak; /summon into Duriak in your turn, or into a battle there when the "
        "bot asks"
    )
    own = board_notes(_state([("U-WEL-05", "WEL", "duriak")], active="WEL"), RULESET, "WEL")
    assert own == ["Summoners: Duriak; /summon into Duriak"]  # R-MAGIC-SUMM-01: at any step


def test_a_fallen_hero_is_told_and_undead_name_their_necromancers() -> None:
    """R-FEAL-03, R-ATTR-UNDEAD-03: the Acherousian Hero has fallen; two Undead hang on the
    Necromancer in Sarnath Fields; /province there says so, /buy's choice says where Undead
    can be raised."""
    st = _state(
        [
            ("U-ACH-05", "ACH", "sarnath-fields"),
            ("U-ACH-08", "ACH", "sarnath-fields"),
            ("U-ACH-08", "ACH", "archursia"),
        ]
    )
    st.factions["ACH"].hero_alive = False
    lines = board_notes(st, RULESET, "ACH")
    assert lines[0].startswith("Your Hero Velkhar, Heir of Ambitrax has fallen")
    assert lines[1] == (
        "Undead (R-ATTR-UNDEAD-03): 2, they hang on your Necromancers at Sarnath Fields; all go "
        "if the last one is destroyed"
    )
    assert province_notes(st, RULESET, "archursia") == [
        "1 Undead of 💀 Acherousians (ACH), hanging on its Necromancers at Sarnath Fields "
        "(R-ATTR-UNDEAD-03)"
    ]
    undead = RULESET.kind("U-ACH-08")
    assert needs_text(st, RULESET, "ACH", undead) == "needs a Necromancer: Sarnath Fields has one"
    assert needs_text(st, RULESET, "WEL", RULESET.kind("U-WEL-06")) == (
        "summoned: needs a Summoner on land; you have none"
    )


def test_unit_tells_how_a_kind_comes_and_goes() -> None:
    """R-MAGIC-SUMM-01..03, R-ATTR-FORT-06, R-ATTR-HERO-01: /unit on the Earth Elemental says it
    is summoned, vanishes at the next Muster step and is a Fortification; with the board, where
    the Wood Elves' Summoners are."""
    st = _state([("U-WEL-05", "WEL", "duriak")])
    earth = kind_notes(RULESET, RULESET.kind("U-WEL-07"), st)
    assert earth[0].startswith("Summoned: bought and placed at once where a Summoner")
    assert "(R-ATTR-FORT-06)" in earth[0]
    assert earth[1] == "🌲 Wood Elves (WEL)'s Summoners now: Duriak."
    assert kind_notes(RULESET, RULESET.kind("H-WEL-01"))[0].startswith("A Hero: placed by")


def test_vanishing_in_step_8_is_at_the_next_factions_step_8() -> None:
    """R-MAGIC-SUMM-02: summoned during a step 8, a unit lasts until the next one."""
    assert vanish_text(_state([], step=Step.MUSTER), RULESET) == (
        "when the next faction's step 8 begins"
    )


def test_the_offer_has_a_select_and_two_buttons() -> None:
    """R-MAGIC-SUMM-01: the select offers each Summoned kind with its price; the buttons are
    "No summons this round" and "No summons this battle"."""
    detail = SummonsDetail(7, "duriak", 1, Side.DEFENDER, "WEL", (("U-WEL-06", 3),), 15)
    decision = PendingDecision(42, "WEL", DecisionKind.SUMMONS, True, detail)
    select, skip, never = summons_components(5, RULESET, decision)
    assert select["custom_id"] == "caedes:5:sum.42:pick"
    assert [o["label"] for o in select["options"]] == ["Summoned Fire Elemental - 3 RP"]
    assert (skip["label"], never["label"]) == ("No summons this round", "No summons this battle")
