"""Names typed by players and the autocomplete choices (caedes_bot/cogs/_transformers.py and
_place_names.py, _kind_names.py, _unit_names.py beside it).

ux.md "Autocomplete that knows the game": only what is legal now, best first (own places
first), labels enough to choose by, at most 25, under 100 characters; misspelt names get a near
match.
"""

from __future__ import annotations

import pytest

from caedes_bot.cogs._kind_names import buy_choices, kind_choices, muster_kind_choices, resolve_kind
from caedes_bot.cogs._place_names import battle_choices, province_choices, resolve_province
from caedes_bot.cogs._transformers import resolve_faction
from caedes_bot.cogs._unit_names import (
    UnitRequest,
    destination_choices,
    origin_choices,
    parse_units,
    pick_units,
    unit_choices,
)
from caedes_bot.rules.diplomacy import neighbours_of
from caedes_bot.rules.errors import IllegalMove, RuleViolation, UnknownName
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import Step
from tests.ui.skirmish import apply, at_step, ruleset


def test_misspelt_province_suggests_the_near_match() -> None:
    """R-GEN-04: names are matched in any case; a misspelling gets "Did you mean"."""
    assert resolve_province(ruleset(), "orme") == "orme"
    assert resolve_province(ruleset(), "Kestrel Downs") == "kestrel-downs"
    with pytest.raises(UnknownName) as refused:
        resolve_province(ruleset(), "Ormee")
    assert refused.value.message == "No province 'Ormee'. Did you mean Orme?"


def test_unit_names_by_id_display_name_short_name_or_unique_start() -> None:
    r = ruleset()
    assert resolve_kind(r, "U-DAW-04").id == "U-DAW-04"
    assert resolve_kind(r, "dawnian knights").id == "U-DAW-04"
    assert resolve_kind(r, "Knights").id == "U-DAW-04"
    assert resolve_kind(r, "Dawnian Kni").id == "U-DAW-04"
    orcs = r.order_of_battle("ORC")
    assert resolve_kind(r, "troopers", orcs).id == "U-ORC-02"
    with pytest.raises(UnknownName) as refused:
        resolve_kind(r, "Nights", orcs)
    assert refused.value.message.startswith("No unit 'Nights'.")


def test_faction_by_code_name_or_adjective() -> None:
    r = ruleset()
    codes = ["DAW", "ORC", "ACH"]
    assert resolve_faction(r, "orc", codes) == "ORC"
    assert resolve_faction(r, "Acherousians", codes) == "ACH"
    assert resolve_faction(r, "Dawnian", codes) == "DAW"
    with pytest.raises(RuleViolation) as refused:
        resolve_faction(r, "Dwarves", codes)  # a faction, but not in this campaign
    assert refused.value.message == "The Dwarves are not in play in this campaign."
    assert refused.value.allowed == "Dawnians (DAW), Orcs (ORC), Acherousians (ACH)"


def test_units_option_reads_counts_kinds_and_all() -> None:
    assert parse_units("2xU-DAW-01@harrowgate") == [UnitRequest("U-DAW-01", 2)]
    assert parse_units("1 Infantry, 1 Yeomen") == [
        UnitRequest("Infantry", 1),
        UnitRequest("Yeomen", 1),
    ]
    assert parse_units("knights") == [UnitRequest("knights", None)]
    assert parse_units("all") == [UnitRequest(None, None)]
    with pytest.raises(RuleViolation):
        parse_units(" , ")


def test_r_move_01_units_are_picked_from_those_that_can_move() -> None:
    """R-MOVE-01: two Dawnian Infantry (4, 5) and a Yeomen (6) stand in Harrowgate."""
    state = at_step(Step.MOVE)
    r = ruleset()
    assert pick_units(state, r, "DAW", "harrowgate", [UnitRequest("Infantry", 2)]) == (4, 5)
    assert pick_units(state, r, "DAW", "harrowgate", parse_units("all")) == (4, 5, 6)
    assert pick_units(state, r, "DAW", "harrowgate", parse_units("1 yeomen, 1 infantry")) == (6, 4)
    with pytest.raises(IllegalMove) as refused:
        pick_units(state, r, "DAW", "harrowgate", [UnitRequest("Infantry", 3)])
    assert "Only 2 Dawnian Infantry in Harrowgate can move now, not 3." in refused.value.message
    moved, _ = apply(state, MoveUnits("DAW", (4, 5), "wolfsgate"))
    # R-MOVE-02: units that entered enemy units may not move on; only the Yeomen is left
    assert pick_units(moved, r, "DAW", "harrowgate", parse_units("all")) == (6,)


def test_province_choices_put_own_places_first_with_full_labels() -> None:
    state = new_game(ruleset(), "skirmish", "seed")
    found = province_choices(state, ruleset(), "DAW", "")
    assert len(found) == 25  # the map has more provinces; Discord shows 25
    assert [v for _, v in found[:3]] == ["brightholm", "corndale", "harrowgate"]
    assert found[0][0] == "Brightholm (plains) - Dawnian - 3 units"
    assert all(len(label) < 100 for label, _ in found)
    assert province_choices(state, ruleset(), "DAW", "kestrel") == [
        ("Kestrel Downs (hills, river) - Acherousian - 2 units", "kestrel-downs")
    ]


def test_r_move_02_destinations_are_only_legal_ones_with_attacks_marked() -> None:
    """From Harrowgate an Infantry (move 1) reaches its four neighbours; two hold enemy units
    (R-MOVE-02: an attack)."""
    state = at_step(Step.MOVE)
    found = dict((v, label) for label, v in destination_choices(state, ruleset(), "DAW", (4,), ""))
    assert set(found) == {"brightholm", "vigil-of-bor", "kestrel-downs", "wolfsgate"}
    assert found["wolfsgate"] == "Wolfsgate (hills) - Orc - 2 units - attack"
    assert not found["brightholm"].endswith("attack")
    order = [v for _, v in destination_choices(state, ruleset(), "DAW", (4,), "")]
    assert order[0] == "brightholm"  # own first


def test_move_units_and_origins_are_stacks_that_can_still_move() -> None:
    state = at_step(Step.MOVE)
    r = ruleset()
    here = unit_choices(state, r, "DAW", "harrowgate", "")
    assert here[0] == ("All 3 units that can move in Harrowgate", "all")
    assert ("2 Dawnian Infantry in Harrowgate", "2xU-DAW-01@harrowgate") in here
    assert ("1 Dawnian Infantry in Harrowgate", "1xU-DAW-01@harrowgate") in here
    origins = [v for _, v in origin_choices(state, r, "DAW", "")]
    assert origins == [
        "brightholm",
        "corndale",
        "harrowgate",
    ]  # the Tower never moves, but others do
    assert (
        next(v for _, v in origin_choices(state, r, "DAW", "", preferred="harrowgate"))
        == "harrowgate"
    )


def test_r_buy_01_buy_choices_show_prices_affordable_first() -> None:
    """R-BUY-01, R-BUY-03: the faction's own units, no Hero, ships included (8 RP, too dear
    with 4); Summoned and Undead are not offered by this version (see check_buyable)."""
    state = at_step(Step.BUY)
    state.factions["DAW"].rp = 4
    found = buy_choices(state, ruleset(), "DAW", "")
    labels = [label for label, _ in found]
    assert labels[0] == "Dawnian Infantry - 3 RP - A2 D3 M1"
    assert labels[1] == "Dawnian Yeomen - 4 RP - A2 D3 M1"
    assert "Dawnian Knights - 6 RP - A5 D4 M2 - too dear now" in labels
    assert "Dawnian Ship - 8 RP - A2 D2 M2 - too dear now" in labels
    assert all(v.startswith("U-DAW-") for _, v in found)


def test_r_muster_01_muster_choices_are_the_units_waiting() -> None:
    """R-MUSTER-01: the muster choices are the units bought this turn and still waiting, with their
    counts.
    """
    state = at_step(Step.BUY)
    state.factions["DAW"].purchases = ["U-DAW-01", "U-DAW-01", "U-DAW-04"]
    state.factions["DAW"].purchase_prices = [3, 3, 6]
    found = muster_kind_choices(state, ruleset(), "DAW", "")
    assert found == [
        ("Dawnian Infantry (2 waiting)", "U-DAW-01"),
        ("Dawnian Knights (1 waiting)", "U-DAW-04"),
    ]


def test_r_combat_02_battle_choices_are_the_battles_due() -> None:
    """R-COMBAT-02, R-COMBAT-01: the attacker picks among the battles due, here Kestrel Downs and
    Wolfsgate.
    """
    state = at_step(Step.MOVE)
    state, _ = apply(state, MoveUnits("DAW", (4,), "kestrel-downs"))
    state, _ = apply(state, MoveUnits("DAW", (5, 6), "wolfsgate"))
    from caedes_bot.rules.turn import EndStep

    state, _ = apply(state, EndStep("DAW"))
    assert [v for _, v in battle_choices(state, ruleset(), "")] == ["kestrel-downs", "wolfsgate"]
    assert (
        battle_choices(state, ruleset(), "wolf")[0][0]
        == "Wolfsgate - your 2 against 2 (Dawnian, Orc)"
    )


def test_unit_choices_list_own_order_of_battle_first() -> None:
    found = kind_choices(ruleset(), "ORC", "")
    assert found[0] == ("Orc Rabble - 2 RP - A2 D2 M1", "U-ORC-01")
    assert len(found) == 25


def test_r_pbp_neg_02_neighbours_in_the_skirmish() -> None:
    """R-PBP-NEG-02: Harrowgate borders Wolfsgate and Kestrel Downs: the Dawnians neighbour both
    others; the Orcs and the Acherousians touch nowhere.
    """
    state = new_game(ruleset(), "skirmish", "seed")
    assert neighbours_of(state, ruleset(), "DAW") == ["ORC", "ACH"]
    assert neighbours_of(state, ruleset(), "ORC") == ["DAW"]
    assert neighbours_of(state, ruleset(), "ACH") == ["DAW"]


def test_r_trade_04_commodity_bundles_are_read_with_near_matches() -> None:
    """R-TRADE-04: only RP and commodities trade; commodity names are read in any case."""
    from caedes_bot.cogs._transformers import parse_bundle

    assert parse_bundle("2 grain, 1 Iron, grain") == {"grain": 3, "iron": 1}
    assert parse_bundle(None) == {}
    with pytest.raises(UnknownName) as refused:
        parse_bundle("2 grian")
    assert "Did you mean Grain?" in refused.value.message


def test_r_trade_02_offers_to_answer_and_to_withdraw() -> None:
    """R-TRADE-02: the counterparty is offered the trade to answer, the proposer its offer to
    withdraw, a third faction nothing.
    """
    from caedes_bot.cogs._transformers import offer_choices
    from caedes_bot.rules.trade import ProposeTrade

    state = at_step(Step.TRADE)
    state, _ = apply(state, ProposeTrade("DAW", "ORC", give_rp=3, receive_commodities={}))
    (offer,) = state.trades
    assert offer_choices(state, ruleset(), "ORC", "", as_proposer=False) == [
        (f"#{offer.id} from Dawnians: they give 3 RP; you give nothing", str(offer.id))
    ]
    assert offer_choices(state, ruleset(), "DAW", "", as_proposer=True)[0][0].startswith(
        f"#{offer.id} to Orcs: you give 3 RP"
    )
    assert offer_choices(state, ruleset(), "ACH", "", as_proposer=False) == []


def test_r_upk_02_disband_suggests_own_units_marked_first_and_reads_ids_and_names() -> None:
    """R-UPK-02: in step 1 ``/disband`` offers the Dawnians' 7 units; once #7 is marked it comes
    first and says so. Typed: ``7``, ``#7`` or words found in one unit's label; words found in
    several are refused with them as suggestions. In step 5 nothing is offered."""
    from caedes_bot.cogs._unit_names import mark_choices, resolve_own_unit
    from caedes_bot.rules.errors import AmbiguousName
    from caedes_bot.rules.upkeep_marks import ToggleDisbandMark

    state = at_step(Step.TRADE)
    rs = ruleset()
    offered = mark_choices(state, rs, "DAW", "")
    assert len(offered) == 7 and ("Dawnian Infantry #7 in Corndale", "7") in offered
    marked, _ = apply(state, ToggleDisbandMark("DAW", 7))
    assert mark_choices(marked, rs, "DAW", "")[0] == (
        "Dawnian Infantry #7 in Corndale - marked (choose to take the mark back)",
        "7",
    )
    assert resolve_own_unit(state, rs, "DAW", "7") == 7
    assert resolve_own_unit(state, rs, "DAW", "#7") == 7
    assert resolve_own_unit(state, rs, "DAW", "infantry #7 in corndale") == 7
    assert resolve_own_unit(state, rs, "DAW", "Corndale") == 7
    with pytest.raises(AmbiguousName) as several:
        resolve_own_unit(state, rs, "DAW", "Dawnian Infantry")
    assert several.value.rule == "R-UPK-02" and len(several.value.candidates) == 4
    with pytest.raises(UnknownName) as unknown:
        resolve_own_unit(state, rs, "DAW", "Dragon")
    assert unknown.value.rule == "R-UPK-02"
    assert unknown.value.allowed is not None and "#4" in unknown.value.allowed
    assert mark_choices(at_step(Step.BUY), rs, "DAW", "") == []
