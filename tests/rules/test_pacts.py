"""Alliances and fealty (R-ALLY-01, R-ALLY-02, R-ALLY-04, R-ALLY-05, R-FEAL-01..04,
R-PBP-NEG-05).

The board: provinces a - b - c in a row, with land borders a-b and b-c, and the far-off
provinces h1..h4 where each faction keeps one unit (so nobody is eliminated, R-VIC-05). Orders
go through the engine, as the service gives them; the start of the next turn is
:func:`turn_start_checks`.
"""

from __future__ import annotations

import random

import pytest

from caedes_bot.gamedata.model import Options, Ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.combat.battle import begin_combat_step
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import peek_hostile_units
from caedes_bot.rules.pacts import (
    AnswerPact,
    BreakAlliance,
    PactAgreed,
    PactLapsed,
    PactTookEffect,
    ProposeAlliance,
    RevokeFealty,
    SwearFealty,
)
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import turn_start_checks
from caedes_bot.rules.victory import CampaignEnded, EndEarly
from tests.rules.builders import kind, ruleset, state

FACTIONS = ("DAW", "ORC", "WEL", "LIZ")


def _rs() -> Ruleset:
    return ruleset(
        provinces={p: ("plains",) for p in ("a", "b", "c", "h1", "h2", "h3", "h4")},
        borders=[("a", "b"), ("b", "c")],
        kinds=[kind("X" + f, f) for f in FACTIONS],
    )


RS = _rs()


def _st(
    *,
    units: list[tuple[str, str, str]] | None = None,
    owners: dict[str, str] | None = None,
    active: str = "DAW",
) -> GameState:
    homes = [("X" + f, f, f"h{n}") for n, f in enumerate(FACTIONS, start=1)]
    return state(
        RS, units=[*(units or []), *homes], owners=owners, active=active, in_play=list(FACTIONS)
    )


def _give(st: GameState, order: Order) -> tuple[GameState, tuple[Event, ...]]:
    out = engine.apply(st, order, RS, ScriptedDice([]))
    return out.state, out.events


def _next_turn(st: GameState, faction: str) -> list[Event]:
    st.active = faction
    return turn_start_checks(st, RS)


def test_r_ally_01_an_alliance_needs_every_member_to_confirm() -> None:
    """R-ALLY-01: DAW proposes an alliance with ORC and WEL in ORC's turn (R-ALLY-02: orders
    outside one's turn are taken); it is agreed only when both have confirmed."""
    st = _st(active="ORC")
    st, events = _give(st, ProposeAlliance("DAW", ("ORC", "WEL")))
    (proposal,) = st.pact_proposals
    assert proposal.members == ("DAW", "ORC", "WEL") and proposal.confirmed == ("DAW",)
    st, events = _give(st, AnswerPact("ORC", proposal.id, True))
    assert not any(isinstance(e, PactAgreed) for e in events)
    st, events = _give(st, AnswerPact("WEL", proposal.id, True))
    assert any(isinstance(e, PactAgreed) for e in events)
    assert st.alliances == []  # not yet: next turn (R-ALLY-02)


def test_r_ally_01_a_refusal_drops_the_proposal() -> None:
    """R-ALLY-01: one member refusing drops the proposal; a later answer is refused."""
    st = _st()
    st, _ = _give(st, ProposeAlliance("DAW", ("ORC",)))
    pid = st.pact_proposals[0].id
    st, _ = _give(st, AnswerPact("ORC", pid, False))
    assert st.pact_proposals == []
    with pytest.raises(RuleViolation) as err:
        _give(st, AnswerPact("ORC", pid, True))
    assert err.value.rule == "R-ALLY-01"


@pytest.mark.parametrize(
    ("partners", "why"),
    [((), "no partner"), (("DAW",), "itself"), (("HEL",), "not in the game")],
)
def test_r_ally_01_refuses_a_bad_alliance(partners: tuple[str, ...], why: str) -> None:
    """R-ALLY-01: an alliance needs another faction in the game."""
    with pytest.raises(RuleViolation) as err:
        _give(_st(), ProposeAlliance("DAW", partners))
    assert err.value.rule == "R-ALLY-01", why


def test_r_ally_02_changes_take_effect_at_the_start_of_the_next_turn_whoevers() -> None:
    """R-ALLY-02: agreed during DAW's turn, the alliance of DAW and ORC is in force when WEL's
    turn begins (not DAW's or ORC's own), and a break declared by ORC alone ends it at the
    start of the turn after."""
    st = _st(active="DAW")
    st, _ = _give(st, ProposeAlliance("DAW", ("ORC",)))
    st, _ = _give(st, AnswerPact("ORC", st.pact_proposals[0].id, True))
    assert not st.are_partners("DAW", "ORC")
    events = _next_turn(st, "WEL")
    assert [type(e) for e in events if isinstance(e, PactTookEffect)] == [PactTookEffect]
    assert st.alliances == [["DAW", "ORC"]] and st.are_partners("DAW", "ORC")
    st, events = _give(st, BreakAlliance("ORC", ("DAW",)))
    assert any(isinstance(e, PactAgreed) for e in events)  # one member suffices (R-ALLY-01)
    assert st.are_partners("DAW", "ORC")  # still, during this turn
    _next_turn(st, "LIZ")
    assert st.alliances == [] and not st.are_partners("DAW", "ORC")


def test_r_ally_02_a_proposal_waiting_at_a_turn_start_stays_waiting() -> None:
    """R-ALLY-02: only agreed changes take effect; an unconfirmed proposal waits on."""
    st = _st()
    st, _ = _give(st, ProposeAlliance("DAW", ("ORC",)))
    _next_turn(st, "ORC")
    assert len(st.pact_proposals) == 1 and st.alliances == []


def test_r_ally_05_partners_sharing_a_province_part_at_the_next_turn() -> None:
    """R-ALLY-05: ORC's units stand in b, owned by DAW, their ally. The alliance breaks; at the
    start of ORC's next turn they are still there; if they have not left when ORC's step 7
    opens, they attack b (a battle is due there). DAW's units in its own b do nothing."""
    st = _st(units=[("XDAW", "DAW", "b"), ("XORC", "ORC", "b")], owners={"b": "DAW"})
    st.alliances = [["DAW", "ORC"]]
    st, _ = _give(st, BreakAlliance("DAW", ("ORC",)))
    events = _next_turn(st, "ORC")
    effect = next(e for e in events if isinstance(e, PactTookEffect))
    assert effect.parting == (("ORC", "b"),)
    assert st.parting == [("ORC", "b")]
    st.step = Step.COMBAT
    begin_combat_step(st, RS)
    assert st.battles_due == ["b"]
    assert st.parting == []
    assert st.unit(2).attacking and not st.unit(1).attacking


def test_r_ally_05_units_that_left_fight_nobody() -> None:
    """R-ALLY-05: ORC's units left b in step 6: no battle when step 7 opens."""
    st = _st(units=[("XDAW", "DAW", "b"), ("XORC", "ORC", "b")], owners={"b": "DAW"})
    st.alliances = [["DAW", "ORC"]]
    st, _ = _give(st, BreakAlliance("DAW", ("ORC",)))
    _next_turn(st, "ORC")
    st.unit(2).location = "c"
    st.step = Step.COMBAT
    begin_combat_step(st, RS)
    assert st.battles_due == [] and st.parting == []


def test_r_ally_04_an_ally_present_does_not_attack_with_the_active_faction() -> None:
    """R-ALLY-04: ORC attacks c (WEL's); DAW, ORC's ally, also has units in c that entered in
    its own turn (they are not attacking): only ORC's units attack, DAW's do not join."""
    st = _st(
        active="ORC",
        units=[("XORC", "ORC", "c"), ("XWEL", "WEL", "c"), ("XDAW", "DAW", "c")],
        owners={"c": "WEL"},
    )
    st.alliances = [["DAW", "ORC"]]
    st.unit(1).attacking = True
    st.step = Step.COMBAT
    begin_combat_step(st, RS)
    assert st.battles_due == ["c"]
    assert [u.id for u in st.units.values() if u.attacking] == [1]


def test_r_feal_01_fealty_needs_the_liege_and_waits_for_the_next_turn() -> None:
    """R-FEAL-01: WEL swears to DAW; DAW accepts; at the next turn's start WEL is DAW's vassal,
    and R-FEAL-02: the two are partners as allies are."""
    st = _st()
    st, _ = _give(st, SwearFealty("WEL", "DAW"))
    st, events = _give(st, AnswerPact("DAW", st.pact_proposals[0].id, True))
    assert any(isinstance(e, PactAgreed) for e in events) and st.fealty == {}
    _next_turn(st, "ORC")
    assert st.fealty == {"WEL": "DAW"}
    assert st.are_partners("WEL", "DAW") and not st.are_partners("WEL", "ORC")


def test_r_feal_03_no_revoking_while_the_liege_hero_lives() -> None:
    """R-FEAL-03: WEL cannot revoke while DAW's Hero lives (or DAW never had one); once it has
    fallen WEL revokes alone, effective at the next turn, and nobody may swear to DAW again."""
    st = _st()
    st.fealty = {"WEL": "DAW"}
    with pytest.raises(RuleViolation) as err:
        _give(st, RevokeFealty("WEL"))
    assert err.value.rule == "R-FEAL-03"
    st.factions["DAW"].hero_alive = False
    st, events = _give(st, RevokeFealty("WEL"))
    assert any(isinstance(e, PactAgreed) for e in events)
    _next_turn(st, "ORC")
    assert st.fealty == {}
    with pytest.raises(RuleViolation) as err:
        _give(st, SwearFealty("LIZ", "DAW"))
    assert err.value.rule == "R-FEAL-03"


def test_r_feal_03_an_oath_agreed_before_the_hero_fell_lapses() -> None:
    """R-FEAL-03: LIZ's oath to DAW is agreed, then DAW's Hero falls before the next turn: the
    oath lapses."""
    st = _st()
    st, _ = _give(st, SwearFealty("LIZ", "DAW"))
    st, _ = _give(st, AnswerPact("DAW", st.pact_proposals[0].id, True))
    st.factions["DAW"].hero_alive = False
    events = _next_turn(st, "ORC")
    assert [e.reason for e in events if isinstance(e, PactLapsed)] == ["hero_fallen"]
    assert st.fealty == {}


def test_r_feal_04_chains_are_flattened_and_a_vassal_receives_no_fealty() -> None:
    """R-FEAL-04: LIZ is WEL's vassal; WEL swears to DAW: at the next turn both WEL and LIZ
    are DAW's vassals. WEL, a vassal now, cannot receive ORC's fealty."""
    st = _st()
    st.fealty = {"LIZ": "WEL"}
    st, _ = _give(st, SwearFealty("WEL", "DAW"))
    st, _ = _give(st, AnswerPact("DAW", st.pact_proposals[0].id, True))
    events = _next_turn(st, "ORC")
    effect = next(e for e in events if isinstance(e, PactTookEffect))
    assert effect.also_vassals == ("LIZ",)
    assert st.fealty == {"LIZ": "DAW", "WEL": "DAW"}
    with pytest.raises(RuleViolation) as err:
        _give(st, SwearFealty("ORC", "WEL"))
    assert err.value.rule == "R-FEAL-04"


def test_r_feal_04_oaths_agreed_together_are_flattened_in_order() -> None:
    """R-FEAL-04: ORC's oath to WEL is agreed, and WEL's oath to DAW too, in that order: at the
    next turn ORC becomes WEL's vassal and is passed on to DAW with WEL."""
    st = _st()
    st, _ = _give(st, SwearFealty("ORC", "WEL"))
    st, _ = _give(st, AnswerPact("WEL", st.pact_proposals[0].id, True))
    st, _ = _give(st, SwearFealty("WEL", "DAW"))
    st, _ = _give(st, AnswerPact("DAW", st.pact_proposals[-1].id, True))
    _next_turn(st, "LIZ")
    assert st.fealty == {"ORC": "DAW", "WEL": "DAW"}


def test_r_pbp_neg_05_only_pacts_bind() -> None:
    """R-PBP-NEG-05: an agreement that is not a pact binds nobody: without an alliance or
    fealty in force, DAW and ORC are not partners, whatever they said in their thread; a
    proposal not yet agreed binds nobody either."""
    st = _st()
    st, _ = _give(st, ProposeAlliance("DAW", ("ORC",)))
    assert not st.are_partners("DAW", "ORC")


def test_r_ally_01_public_alliances_shows_pact_events_to_everyone() -> None:
    """R-ALLY-01: pact events are seen by their members (and the umpire) only; with the option
    ``public_alliances`` true, by everyone."""
    st = _st()
    _, events = _give(st, ProposeAlliance("DAW", ("ORC",)))
    assert events[0].audience() == ("DAW", "ORC")
    st.options = Options(public_alliances=True)
    _, events = _give(st, ProposeAlliance("DAW", ("ORC",)))
    assert events[0].audience() is None


def test_r_ally_01_asking_again_is_refused_with_what_the_asker_can_do() -> None:
    """R-ALLY-01, R-ALLY-02: DAW proposes an alliance with ORC and WEL. DAW asking again is told
    to wait for ORC and WEL (the buttons are theirs, and nothing withdraws a proposal); ORC,
    asking for the same alliance, is told to answer with its own buttons; once ORC has
    confirmed, its asking again is told to wait for WEL; once agreed, nothing is left to do."""
    st = _st()
    st, _ = _give(st, ProposeAlliance("DAW", ("ORC", "WEL")))
    with pytest.raises(RuleViolation) as again:
        _give(st, ProposeAlliance("DAW", ("ORC", "WEL")))
    assert again.value.rule == "R-ALLY-01"
    assert again.value.message == "That has already been proposed and is waiting for confirmation."
    assert again.value.allowed == (
        "wait for ORC, WEL to confirm or refuse it in their orders threads "
        "(/diplomacy shows where it stands)"
    )
    with pytest.raises(RuleViolation) as other:
        _give(st, ProposeAlliance("ORC", ("DAW", "WEL")))
    assert other.value.allowed == "confirm or refuse it with the buttons in your orders thread"
    pid = st.pact_proposals[0].id
    st, _ = _give(st, AnswerPact("ORC", pid, True))
    with pytest.raises(RuleViolation) as confirmed:
        _give(st, ProposeAlliance("ORC", ("DAW", "WEL")))
    assert confirmed.value.allowed is not None
    assert confirmed.value.allowed.startswith("wait for WEL to confirm or refuse it")
    st, _ = _give(st, AnswerPact("WEL", pid, True))
    with pytest.raises(RuleViolation) as agreed:
        _give(st, ProposeAlliance("DAW", ("ORC", "WEL")))
    assert agreed.value.rule == "R-ALLY-02"
    assert agreed.value.allowed == (
        "nothing more to do: it takes effect at the start of the next turn"
    )


def test_r_ally_02_proposals_still_waiting_are_closed_when_the_campaign_ends() -> None:
    """R-ALLY-02, R-VIC-04: DAW proposes an alliance with ORC and WEL, which ORC confirms; LIZ
    swears fealty to DAW; ORC and WEL agree to an alliance. The umpire ends the campaign (no
    player has a vote, so at once): no turn starts again, so none can take effect; each is
    closed after the end, naming who had not answered (their buttons go), and no longer
    listed."""
    st = _st()
    st, _ = _give(st, ProposeAlliance("DAW", ("ORC", "WEL")))
    alliance = st.pact_proposals[0].id
    st, _ = _give(st, AnswerPact("ORC", alliance, True))
    st, _ = _give(st, SwearFealty("LIZ", "DAW"))
    oath = st.pact_proposals[1].id
    st, _ = _give(st, ProposeAlliance("ORC", ("WEL",)))
    agreed = st.pact_proposals[2].id
    st, _ = _give(st, AnswerPact("WEL", agreed, True))
    st, events = _give(st, EndEarly("UMPIRE", ("DAW",)))
    assert st.finished and st.pact_proposals == []
    assert isinstance(events[0], CampaignEnded)
    assert list(events[1:]) == [
        PactLapsed(alliance, "alliance", ("DAW", "ORC", "WEL"), False, "over", ("WEL",)),
        PactLapsed(oath, "fealty", ("LIZ", "DAW"), False, "over", ("DAW",)),
        PactLapsed(agreed, "alliance", ("ORC", "WEL"), False, "over", ()),
    ]
    assert st.alliances == []


def test_r_ally_02_a_proposal_with_an_eliminated_member_lapses_at_the_next_turn() -> None:
    """R-ALLY-02, R-VIC-05: DAW proposes an alliance with ORC and WEL, which ORC confirms;
    ORC and LIZ agree to another. WEL is then eliminated. At the start of the next turn
    neither can take effect: each is closed with the reason, naming who had not answered
    (WEL, whose buttons go), the agreed one naming nobody; neither is listed any more and no
    alliance is made."""
    st = _st()
    st, _ = _give(st, ProposeAlliance("DAW", ("ORC", "WEL")))
    waiting = st.pact_proposals[0].id
    st, _ = _give(st, AnswerPact("ORC", waiting, True))
    st, _ = _give(st, ProposeAlliance("LIZ", ("WEL",)))
    agreed = st.pact_proposals[1].id
    st, _ = _give(st, AnswerPact("WEL", agreed, True))
    st.factions["WEL"].eliminated = True
    events = _next_turn(st, "ORC")
    lapsed = [e for e in events if isinstance(e, PactLapsed)]
    assert lapsed == [
        PactLapsed(waiting, "alliance", ("DAW", "ORC", "WEL"), False, "eliminated", ("WEL",)),
        PactLapsed(agreed, "alliance", ("WEL", "LIZ"), False, "eliminated", ()),
    ]
    assert st.pact_proposals == [] and st.alliances == []


@pytest.mark.parametrize("seed", range(8))
def test_r_combat_01_the_hostile_units_are_those_of_every_non_partner_one_by_one(
    seed: int,
) -> None:
    """R-COMBAT-01, R-ALLY-04, R-FEAL-02: the units a faction meets as enemies in a province
    (peek_hostile_units, which asks once per owner there whether it is a partner) are, in id
    order, every unit there whose owner is not the faction or its partner, asked unit by unit,
    under random alliances and fealties."""
    pick = random.Random(seed)
    units = [(f"X{f}", f, pick.choice("abc")) for f in pick.choices(FACTIONS, k=12)]
    st = _st(units=units)
    if pick.random() < 0.6:
        st.alliances = [pick.sample(FACTIONS, 2)]
    if pick.random() < 0.5:
        vassal, liege = pick.sample(FACTIONS, 2)
        st.fealty = {vassal: liege}
    for province in "abc":
        for faction in FACTIONS:
            expected = sorted(
                (
                    u
                    for u in st.peek_units()
                    if u.location == province and not st.are_partners(u.owner, faction)
                ),
                key=lambda u: u.id,
            )
            assert peek_hostile_units(st, RS, province, faction) == expected
