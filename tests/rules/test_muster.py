"""Muster, step 8 (R-MUSTER-01..08, R-RACE-*, R-ATTR-FORT-02..05, R-MOVE-22, R-PBP-DEAD-03).

Map: p1, p2, p3 plains; ph hills+plains; h hills; m mountains; f forest; s swamp;
archursia plains; e1, e2 on the island of Estlon; the sea zone "bay" off p1.
Cases that are placements and their outcomes (limits, Fortifications, Bugbears, where never,
what happens after placing) are scenario files in tests/scenarios/muster/.
"""

from collections.abc import Iterable

import pytest

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import IllegalMuster, UnknownName
from caedes_bot.rules.muster import (
    MusterUnits,
    begin_muster_step,
    legal_muster_provinces,
    plan_muster,
)
from caedes_bot.rules.state import GameState, Step
from tests.rules.builders import kind, ruleset, state, with_options

NO_DICE = ScriptedDice([])

PROVINCES = {
    "p1": ("plains",),
    "p2": ("plains",),
    "p3": ("plains",),
    "ph": ("hills", "plains"),
    "h": ("hills",),
    "m": ("mountains",),
    "f": ("forest",),
    "s": ("swamp",),
    "archursia": ("plains",),
    "e1": ("plains",),
    "e2": ("forest",),
}

KINDS = [
    kind("DI", "DAW"),
    kind("DY", "DAW", attributes=["missile"], cost=4),
    kind("DK", "DAW", "cavalry", cost=6),
    kind("DT", "DAW", "tower"),
    kind("OT", "ORC"),
    kind("OG", "ORC", race="ogre", cost=4),
    kind("OB", "ORC", race="bugbear"),
    kind("OS", "ORC", attributes=["summoner"], cost=18),
    kind("XI", "DWA"),
    kind("XT", "DWA", "tower"),
    kind("LI", "LIZ"),
    kind("WI", "WEL"),
    kind("HI", "HEL"),
    kind("HT", "HEL", "tower"),
    kind("AI", "ACH"),
]


def _rs(**options: object) -> Ruleset:
    rs = ruleset(
        provinces=PROVINCES,
        coasts=[("p1", "bay")],
        islands={"e1": "estlon", "e2": "estlon"},
        kinds=KINDS,
    )
    return with_options(rs, **options) if options else rs


def _muster_state(
    rs: Ruleset,
    faction: str,
    units: Iterable[tuple[str, str, str]],
    bought: list[str],
    owners: dict[str, str] | None = None,
) -> GameState:
    """A state at the start of ``faction``'s step 8 with ``bought`` waiting; by default the
    faction owns every province."""
    st = state(
        rs,
        units=units,
        owners=owners if owners is not None else dict.fromkeys(PROVINCES, faction),
        active=faction,
        step=Step.MUSTER,
    )
    st.factions[faction].purchases = list(bought)
    st.factions[faction].purchase_prices = [3] * len(bought)
    begin_muster_step(st, rs)
    return st


def _muster(st: GameState, rs: Ruleset, faction: str, *placements: tuple[str, str]) -> GameState:
    return apply(st, MusterUnits(faction, tuple(placements)), rs, NO_DICE).state


def _refused(st: GameState, rs: Ruleset, faction: str, *placements: tuple[str, str]) -> str:
    with pytest.raises(IllegalMuster) as err:
        apply(st, MusterUnits(faction, tuple(placements)), rs, NO_DICE)
    return err.value.rule


# --------------------------------------------------------------------------- race rules


def test_r_race_daw_01_dawnian_in_plains_beside_dawnian_infantry() -> None:
    """R-RACE-DAW-01, R-MUSTER-08: infantry stands in p1 (plains) and h (hills); only p1 can
    take a Dawnian unit; p2 (plains, empty) cannot."""
    rs = _rs()
    st = _muster_state(rs, "DAW", [("DI", "DAW", "p1"), ("DI", "DAW", "h")], ["DI", "DK"])
    assert legal_muster_provinces(st, rs, "DAW", "DI") == ["p1"]
    assert legal_muster_provinces(st, rs, "DAW", "DK") == ["p1"]
    assert _refused(st, rs, "DAW", ("DI", "h")) == "R-RACE-DAW-01"
    assert _refused(st, rs, "DAW", ("DI", "p2")) == "R-RACE-DAW-01"
    new = _muster(st, rs, "DAW", ("DK", "p1"))
    assert [(u.kind, u.location) for u in new.units_of("DAW")][-1] == ("DK", "p1")


@pytest.mark.parametrize(
    ("faction", "infantry", "good", "bad", "rule"),
    [
        ("ORC", "OT", "h", "m", "R-RACE-ORC-01"),
        ("ORC", "OT", "p1", "f", "R-RACE-ORC-01"),
        ("ORC", "OG", "h", "p1", "R-RACE-OGR-01"),
        ("ORC", "OB", "m", "p1", "R-RACE-BUG-01"),
        ("DWA", "XI", "m", "h", "R-RACE-DWA-01"),
        ("LIZ", "LI", "s", "f", "R-RACE-LIZ-01"),
        ("WEL", "WI", "f", "s", "R-RACE-WEL-01"),
    ],
)
def test_race_terrain_rules(faction: str, infantry: str, good: str, bad: str, rule: str) -> None:
    """R-RACE-ORC-01 (hills or plains), R-RACE-OGR-01 (hills), R-RACE-BUG-01 (hills or
    mountains), R-RACE-DWA-01 (mountains), R-RACE-LIZ-01 (swamp), R-RACE-WEL-01 (forest):
    with an infantry unit of the race in both, only the right terrain takes a new one."""
    rs = _rs()
    units = [(infantry, faction, good), (infantry, faction, bad)]
    st = _muster_state(rs, faction, units, [infantry, infantry])
    assert legal_muster_provinces(st, rs, faction, infantry) == [good]
    assert _refused(st, rs, faction, (infantry, bad)) == rule


def test_r_race_ogr_01_orc_infantry_does_not_qualify_an_ogre() -> None:
    """R-RACE-OGR-01, R-MUSTER-03: the infantry must be of the Ogre race."""
    rs = _rs()
    st = _muster_state(rs, "ORC", [("OT", "ORC", "h")], ["OG"])
    assert legal_muster_provinces(st, rs, "ORC", "OG") == []


def test_r_muster_03_any_infantry_type_unit_of_the_race_qualifies() -> None:
    """R-MUSTER-03: Yeomen (Dawnian, infantry type) qualify p1; a knight (cavalry) in p2 does
    not."""
    rs = _rs()
    st = _muster_state(rs, "DAW", [("DY", "DAW", "p1"), ("DK", "DAW", "p2")], ["DI"])
    assert legal_muster_provinces(st, rs, "DAW", "DI") == ["p1"]


def test_r_muster_06_any_terrain_of_the_province_counts() -> None:
    """R-MUSTER-06: ph is hills and plains, so a Dawnian (plains) musters there."""
    rs = _rs()
    st = _muster_state(rs, "DAW", [("DI", "DAW", "ph")], ["DI"])
    assert legal_muster_provinces(st, rs, "DAW", "DI") == ["ph"]


def test_r_race_ach_01_acherousians_only_in_archursia_in_any_number() -> None:
    """R-RACE-ACH-01, R-MUSTER-05: three Acherousians in Archursia, no unit needed, no limit;
    p1 is refused."""
    rs = _rs()
    st = _muster_state(rs, "ACH", [], ["AI"] * 4)
    assert legal_muster_provinces(st, rs, "ACH", "AI") == ["archursia"]
    new = _muster(st, rs, "ACH", *[("AI", "archursia")] * 3)
    assert len(new.units_at("archursia")) == 3
    assert _refused(new, rs, "ACH", ("AI", "p1")) == "R-RACE-ACH-01"


def test_r_race_hel_01_high_elves_anywhere_on_estlon_in_any_number() -> None:
    """R-RACE-HEL-01, R-MUSTER-05: e1 (plains) and e2 (forest) both take High Elves, two in e1,
    with no unit there; p1 does not."""
    rs = _rs()
    st = _muster_state(rs, "HEL", [], ["HI"] * 3)
    assert legal_muster_provinces(st, rs, "HEL", "HI") == ["e1", "e2"]
    new = _muster(st, rs, "HEL", ("HI", "e1"), ("HI", "e1"), ("HI", "e2"))
    assert len(new.units_at("e1")) == 2
    assert len(new.units_at("e2")) == 1


# --------------------------------------------------------------------------- limits, towers


def test_r_muster_04_one_limited_unit_per_province_per_step() -> None:
    """R-MUSTER-04: p1 takes one Dawnian unit per step 8, p2 another."""
    rs = _rs()
    st = _muster_state(rs, "DAW", [("DI", "DAW", "p1"), ("DI", "DAW", "p2")], ["DI", "DI", "DK"])
    st = _muster(st, rs, "DAW", ("DI", "p1"))
    assert _refused(st, rs, "DAW", ("DK", "p1")) == "R-MUSTER-04"
    assert legal_muster_provinces(st, rs, "DAW", "DK") == ["p2"]


def test_r_attr_fort_03_tower_needs_own_infantry_and_ignores_race_and_terrain() -> None:
    """R-ATTR-FORT-03, R-RACE-NONE-01: a Dawnian Tower goes wherever Dawnian infantry stands,
    even in mountains (m); not where only a knight stands (p2)."""
    rs = _rs()
    st = _muster_state(rs, "DAW", [("DI", "DAW", "m"), ("DK", "DAW", "p2")], ["DT"])
    assert legal_muster_provinces(st, rs, "DAW", "DT") == ["m"]
    assert _refused(st, rs, "DAW", ("DT", "p2")) == "R-ATTR-FORT-03"


def test_r_attr_fort_04_option_fort_is_muster_point() -> None:
    """R-ATTR-FORT-04 option fort_is_muster_point: a Dwarven Tower in p1 (plains) lets Dwarves
    muster there; by default it does not (mountains needed)."""
    units = [("XI", "DWA", "p1"), ("XT", "DWA", "p1")]
    rs = _rs()
    st = _muster_state(rs, "DWA", units, ["XI"])
    assert legal_muster_provinces(st, rs, "DWA", "XI") == []
    rs_point = _rs(fort_is_muster_point=True)
    st = _muster_state(rs_point, "DWA", units, ["XI", "XI"])
    new = _muster(st, rs_point, "DWA", ("XI", "p1"), ("XI", "p1"))
    assert len(new.units_at("p1")) == 4


# --------------------------------------------------------------------------- where, never


def test_r_muster_02_option_ownership_not_required() -> None:
    """R-MUSTER-02 option muster_requires_ownership=false: unowned p1 with Dawnian infantry
    takes a Dawnian unit."""
    rs = _rs(muster_requires_ownership=False)
    st = _muster_state(rs, "DAW", [("DI", "DAW", "p1")], ["DI"], owners={})
    assert legal_muster_provinces(st, rs, "DAW", "DI") == ["p1"]


def test_r_muster_02_no_units_of_a_non_pact_faction() -> None:
    """R-MUSTER-02: an Orc unit in p1 forbids mustering there; as a pact partner it does not."""
    rs = _rs()
    units = [("DI", "DAW", "p1"), ("OT", "ORC", "p1")]
    st = _muster_state(rs, "DAW", units, ["DI"])
    assert _refused(st, rs, "DAW", ("DI", "p1")) == "R-MUSTER-02"
    st.alliances = [["DAW", "ORC"]]
    assert legal_muster_provinces(st, rs, "DAW", "DI") == ["p1"]


def test_unknown_province_suggests_a_near_name() -> None:
    rs = _rs()
    st = _muster_state(rs, "DAW", [("DI", "DAW", "p1")], ["DI"])
    with pytest.raises(UnknownName):
        apply(st, MusterUnits("DAW", (("DI", "pp1"),)), rs, NO_DICE)


def test_a_refused_placement_places_nothing_of_the_order() -> None:
    """A refusal leaves the state as it was, even for placements listed before the bad one."""
    rs = _rs()
    st = _muster_state(rs, "DAW", [("DI", "DAW", "p1")], ["DI", "DI"])
    before = st.clone()
    _refused(st, rs, "DAW", ("DI", "p1"), ("DI", "p1"))
    assert st == before


def test_refusal_lists_the_legal_provinces() -> None:
    rs = _rs()
    st = _muster_state(rs, "DAW", [("DI", "DAW", "p1"), ("DI", "DAW", "p2")], ["DI"])
    with pytest.raises(IllegalMuster) as err:
        apply(st, MusterUnits("DAW", (("DI", "h"),)), rs, NO_DICE)
    assert err.value.allowed == "P1, P2"


def test_r_gen_05_pact_partners_units_do_not_qualify_a_muster() -> None:
    """R-GEN-05: an allied Orc trooper in p1 is not "one of your infantry units" for a Dawnian
    Tower; with the option allied_includes_pacts it is."""
    units = [("OT", "ORC", "p1"), ("DI", "DAW", "p2")]
    rs = _rs()
    st = _muster_state(rs, "DAW", units, ["DT"])
    st.alliances = [["DAW", "ORC"]]
    assert legal_muster_provinces(st, rs, "DAW", "DT") == ["p2"]
    rs_pacts = _rs(allied_includes_pacts=True)
    st = _muster_state(rs_pacts, "DAW", units, ["DT"])
    st.alliances = [["DAW", "ORC"]]
    assert legal_muster_provinces(st, rs_pacts, "DAW", "DT") == ["p1", "p2"]


def test_r_muster_01_a_unit_not_waiting_is_refused_by_name_with_what_waits() -> None:
    """R-MUSTER-01: only units bought this turn and not yet placed are mustered. The refusal
    names the kind (another faction's, not bought, or all placed) and what is waiting, by name
    and count; an id that names no kind at all is quoted as given."""
    rs = _rs()
    here = [("DI", "DAW", p) for p in ("p1", "p2", "p3")]
    st = _muster_state(rs, "DAW", here, ["DI", "DI", "DK"])

    def refusal(state: GameState, kind_id: str) -> IllegalMuster:
        with pytest.raises(IllegalMuster) as err:
            apply(state, MusterUnits("DAW", ((kind_id, "p1"),)), rs, NO_DICE)
        return err.value

    other = refusal(st, "OT")
    assert other.rule == "R-MUSTER-01"
    assert other.message == "OT are units of the ORC; you muster only what you bought this turn."
    assert other.allowed == "muster what is waiting: 2 DI, 1 DK"
    assert refusal(st, "DY").message == "You bought no DY this turn."
    assert refusal(st, "NOPE").message == "No NOPE bought this turn is waiting to be mustered."
    placed = _muster(st, rs, "DAW", ("DK", "p1"))
    again = refusal(placed, "DK")
    assert again.message == "Every DK you bought this turn is placed already (1 this step)."
    assert again.allowed == "muster what is waiting: 2 DI"
    done = _muster(placed, rs, "DAW", ("DI", "p2"), ("DI", "p3"))
    assert refusal(done, "DI").allowed == (
        "nothing: every unit you bought is placed; end the step with Done or /done"
    )
    assert legal_muster_provinces(st, rs, "DAW", "NOPE") == []


def test_r_muster_02_plan_places_only_where_owned_unless_the_option_is_off() -> None:
    """R-MUSTER-02 and R-BUY-04: the muster plan behind the purchase warning places a unit
    only in a province the faction owns; with muster_requires_ownership=false, also in an
    unowned province where its units stand. Dawnian infantry stands in p1 (unowned) and p2
    (owned): p2 only by default; p1 first by name with the option off."""
    units = [("DI", "DAW", "p1"), ("DI", "DAW", "p2")]
    rs = _rs()
    st = _muster_state(rs, "DAW", units, ["DI"], owners={"p2": "DAW"})
    assert [(k, p) for k, p, _key in plan_muster(st, rs, "DAW").placed] == [("DI", "p2")]
    rs_off = _rs(muster_requires_ownership=False)
    st_off = _muster_state(rs_off, "DAW", units, ["DI"], owners={"p2": "DAW"})
    assert [(k, p) for k, p, _key in plan_muster(st_off, rs_off, "DAW").placed] == [("DI", "p1")]
