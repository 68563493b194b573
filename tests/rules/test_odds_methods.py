"""Battle odds by every method (issue 13): hand-worked exact fractions, expected rounds and
survivors by kind, the pruned enumeration's hard bound, the method chosen by the size of the
state space, and Monte Carlo against the exact odds and against real battles.

Hand work, R-GEN-02 (a die hits on its value or less, chance value/10), R-COMBAT-04..07,
R-ATTR-FORTI-01/02, stalemates out of reach (``stalemate_rounds`` 10,000):

*1 against 1*: Infantry (A2) against Infantry (D3): a round hits the defender with 1/5 and the
attacker with 3/10; it is hitless with (4/5)(7/10) = 14/25, so the battle leaves a state with
chance 11/25 and each end has its round chance over 11/25: attacker wins (1/5)(7/10) / (11/25)
= 7/22, defender holds (4/5)(3/10) / (11/25) = 12/22, both destroyed (1/5)(3/10) / (11/25) =
3/22. Rounds are geometric with mean 25/11.

*2 against 1 with Fortitude*: 2 Infantry (A2) against one Fortitude infantry (D3, two hits).
States (attackers, defender hit points); a wounded defender left alone dies at cleanup
(R-ATTR-FORTI-02), so (0, 1) is both destroyed. From (1, 1): win 7/22, both 15/22. From (1, 2):
to (1, 1) 7/22, held 12/22, both 3/22. From (2, 1) (hitless (16/25)(7/10) = 112/250, out
138/250): a hit and no loss 63/250 wins, a hit and a loss 27/250 wins, a loss alone 48/250 goes
to (1, 1). From (2, 2): one hit no loss 56/250 to (2, 1), two hits no loss 7/250 wins, a loss
alone 48/250 to (1, 2), one hit and a loss 24/250 to (1, 1), two hits and a loss 3/250 wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from caedes_bot.gamedata.model import Attribute, Options, Terrain, UnitKind
from caedes_bot.rules.combat.arithmetic import Fighter, default_casualties, step_context
from caedes_bot.rules.odds import (
    EXACT_STATES,
    EXACT_WORK,
    PRUNED_STATES,
    Odds,
    choose_method,
    odds_for,
)
from caedes_bot.rules.odds.model import BattleModel
from caedes_bot.rules.state import Side
from tests.rules.builders import kind
from tests.rules.test_odds import _real_results

INF = kind("INF", "DAW")
ORCI = kind("ORCI", "ORC")
ORCFORT = kind("ORCFORT", "ORC", attributes=["fortitude"])
NO_STALEMATE = Options(stalemate_rounds=10_000)


def odds(
    attackers: Sequence[UnitKind],
    defenders: Sequence[UnitKind | tuple[UnitKind, str]],
    options: Options = NO_STALEMATE,
    terrain: Terrain | None = None,
    **kw: object,
) -> Odds:
    fighters = [
        Fighter(n, k, "DAW", Side.ATTACKER, terrain=terrain, mercenary=k.has(Attribute.MERCENARY))
        for n, k in enumerate(attackers, start=1)
    ]
    factions = []
    for n, entry in enumerate(defenders, start=100):
        k, faction = entry if isinstance(entry, tuple) else (entry, "ORC")
        factions.append(faction)
        fighters.append(
            Fighter(
                n, k, faction, Side.DEFENDER, terrain=terrain, mercenary=k.has(Attribute.MERCENARY)
            )
        )
    order = list(dict.fromkeys(factions))
    return odds_for(fighters, options, attacker="DAW", defender_order=order, **kw)  # type: ignore[arg-type]


def test_r_gen_02_one_against_one_exact_fractions_and_rounds() -> None:
    """R-GEN-02, R-COMBAT-05: 7/22, 12/22, 3/22; rounds 25/11 (module docstring)."""
    o = odds([INF], [ORCI])
    assert o.method == "exact"
    assert o.attacker_wins == pytest.approx(float(Fraction(7, 22)), abs=1e-12)
    assert o.defender_holds == pytest.approx(float(Fraction(12, 22)), abs=1e-12)
    assert o.both_destroyed == pytest.approx(float(Fraction(3, 22)), abs=1e-12)
    assert o.expected_rounds == pytest.approx(float(Fraction(25, 11)), abs=1e-9)
    assert o.attacker_by_kind == (("INF", pytest.approx(7 / 22)),)
    assert o.defender_by_kind == (("ORCI", pytest.approx(12 / 22)),)


def test_r_combat_13_rounds_count_the_stalemate() -> None:
    """R-COMBAT-13 with 20 rounds: rounds fought are 1 + q + ... + q**19 with q = 14/25."""
    o = odds([INF], [ORCI], Options())
    q = Fraction(14, 25)
    assert o.expected_rounds == pytest.approx(float(sum(q**k for k in range(20))), abs=1e-12)


def test_r_attr_forti_01_two_against_one_fortitude_exact_fractions() -> None:
    """R-ATTR-FORTI-01, R-ATTR-FORTI-02: the chain worked in the module docstring."""
    w11, b11 = Fraction(7, 22), Fraction(15, 22)
    to11_12, h12, b12 = Fraction(7, 22), Fraction(12, 22), Fraction(3, 22)
    w12 = to11_12 * w11
    b12 = b12 + to11_12 * b11
    out21 = Fraction(138)
    w21 = Fraction(63 + 27) / out21 + Fraction(48) / out21 * w11
    b21 = Fraction(48) / out21 * b11
    out22 = Fraction(138)
    w22 = (56 * w21 + 7 + 48 * w12 + 24 * w11 + 3) / out22
    h22 = 48 * h12 / out22
    b22 = (56 * b21 + 48 * b12 + 24 * b11) / out22
    assert w22 + h22 + b22 == 1
    assert h22 == Fraction(48, 253)
    o = odds([INF, INF], [ORCFORT])
    assert o.attacker_wins == pytest.approx(float(w22), abs=1e-12)
    assert o.defender_holds == pytest.approx(float(h22), abs=1e-12)
    assert o.both_destroyed == pytest.approx(float(b22), abs=1e-12)
    # The attackers' survivors: 2 from every win that lost no unit on the way...
    assert o.expected_attacker_survivors <= 2 * o.attacker_wins


def test_default_casualties_first_hits_are_a_prefix_of_more() -> None:
    """R-COMBAT-06: the default casualties of k hits are the first k of any larger number, which
    lets the model work out one faction's whole ladder of next states from one call."""
    kinds = [INF, ORCFORT, kind("CAV", "DAW", "cavalry"), kind("EL", "DAW", attributes=["elite"])]
    fighters = [Fighter(n, kinds[n % 4], "DAW", Side.ATTACKER, muster_seq=n) for n in range(9)]
    ctx = step_context(fighters, 2, Options())
    every = default_casualties(fighters, 100, ctx)
    for k in range(len(every) + 1):
        assert default_casualties(fighters, k, ctx) == every[:k]


def test_handout_sequence_is_share_hits_one_hit_at_a_time() -> None:
    """R-COMBAT-06: the k-th hit of the side's sequence is the one share_hits adds for k hits,
    for every k, with factions running out of room at different times."""
    from collections import Counter

    from caedes_bot.rules.combat.arithmetic import share_hits
    from caedes_bot.rules.odds.model import handout_sequence

    fighters = (
        [Fighter(n, ORCI, "ORC", Side.DEFENDER) for n in range(1, 4)]
        + [Fighter(n, ORCFORT, "LIZ", Side.DEFENDER) for n in range(10, 12)]
        + [Fighter(20, ORCI, "WEL", Side.DEFENDER)]
    )
    order = ["LIZ", "ORC", "WEL"]
    capacity = 3 + 4 + 1
    sequence = handout_sequence(fighters, capacity, order)
    assert len(sequence) == capacity
    for k in range(capacity + 3):
        assert sorted(Counter(sequence[:k]).items()) == sorted(share_hits(fighters, k, order))


def test_pruned_enumeration_reports_a_hard_bound() -> None:
    """Dropping states below a threshold loses chance, never adds it: every chance is below the
    exact one by at most the dropped mass, which the answer reports."""
    attackers = [INF] * 6 + [kind("ARCH", "DAW", attributes=["missile"])] * 4
    defenders = [ORCFORT] * 5 + [ORCI] * 5
    exact = odds(attackers, defenders, Options())
    pruned = odds(attackers, defenders, Options(), method="pruned", threshold=1e-3)
    assert pruned.method == "pruned"
    assert 0 < pruned.error_bound < 0.05
    assert pruned.states < exact.states
    for name in ("attacker_wins", "defender_holds", "both_destroyed", "stalemate"):
        gap = getattr(exact, name) - getattr(pruned, name)
        assert -1e-12 <= gap <= pruned.error_bound + 1e-12, name


def test_method_is_chosen_by_the_size_of_the_state_space() -> None:
    """Exact up to EXACT_STATES; beyond, pruned, then Monte Carlo (decided before computing)."""
    small = BattleModel(
        [Fighter(1, INF, "DAW", Side.ATTACKER), Fighter(2, ORCI, "ORC", Side.DEFENDER)],
        Options(),
        "DAW",
        ["ORC"],
    )
    assert choose_method(small) == "exact"
    # Two defending factions take hits in turn: the bound multiplies their hit points + 1.
    mid = [Fighter(i, INF, "DAW", Side.ATTACKER) for i in range(1, 100)] + [
        Fighter(300 + i, ORCI, ("ORC", "LIZ")[i % 2], Side.DEFENDER) for i in range(30)
    ]
    model = BattleModel(mid, Options(), "DAW", ["ORC", "LIZ"])
    assert model.size_bound() == 100 * 16 * 16 > EXACT_STATES
    assert choose_method(model) == "pruned"
    huge = [Fighter(i, INF, "DAW", Side.ATTACKER) for i in range(1, 100)] + [
        Fighter(400 + i, ORCFORT, ("ORC", "LIZ", "WEL")[i % 3], Side.DEFENDER) for i in range(30)
    ]
    model = BattleModel(huge, Options(), "DAW", ["ORC", "LIZ", "WEL"])
    assert model.size_bound() == 100 * 21**3 > PRUNED_STATES
    assert choose_method(model) == "monte_carlo"
    # Chosen without computing: nothing has been worked out yet.
    assert len(model.att.states) == 1 and len(model.dfn.states) == 1


def test_method_is_chosen_by_the_work_of_the_enumeration_too() -> None:
    """A large battle's cost is in its step tables: 100 against 100 (10,201 states, tables of
    101 x 101 cells) is exact; 130 against 130 (17,161 states, under EXACT_STATES, but
    17,161 x 131 x 131 cells over EXACT_WORK) is pruned; 300 against 300 (90,601 states, over
    PRUNED_STATES) is rolled. Decided before computing, never by timing out."""

    def battle(n: int) -> BattleModel:
        fighters = [Fighter(i, INF, "DAW", Side.ATTACKER) for i in range(1, n + 1)] + [
            Fighter(1000 + i, ORCI, "ORC", Side.DEFENDER) for i in range(n)
        ]
        return BattleModel(fighters, Options(), "DAW", ["ORC"])

    hundred = battle(100)
    assert hundred.size_bound() == 101 * 101
    assert hundred.work_bound() == 101**4 <= EXACT_WORK
    assert choose_method(hundred) == "exact"
    bigger = battle(130)
    assert bigger.size_bound() == 131 * 131 <= EXACT_STATES
    assert bigger.work_bound() == 131**4 > EXACT_WORK
    assert choose_method(bigger) == "pruned"
    huge = battle(300)
    assert huge.size_bound() == 301 * 301 > PRUNED_STATES
    assert choose_method(huge) == "monte_carlo"
    assert len(huge.att.states) == 1 and len(huge.dfn.states) == 1


def test_unmodelled_attributes_are_named_in_the_answer() -> None:
    """The Enchanter and the Illusionist are not held by a side state; listed by hand (no
    battle on the board to fight through the real path) the answer names them. The Abjurer,
    Breathweapon and Invoker are modelled now (R-COMBAT-12)."""
    enchanter = kind("ENCH", "DAW", attributes=["enchanter"])
    o = odds([enchanter], [ORCI])
    assert o.unsupported == ("enchanter",)
    assert odds([INF], [ORCI]).unsupported == ()
    abjurer = kind("CLERIC", "DAW", attributes=["abjurer"])
    assert odds([abjurer], [ORCI]).unsupported == ()


# --------------------------------------------------------------------------- Monte Carlo

K = {
    "inf": INF,
    "elite": kind("ELITE", "DAW", attributes=["elite"]),
    "weak": kind("WEAK", "DAW", attributes=["weak"]),
    "vet": kind("VET", "ORC", attributes=["veteran"]),
    "meek": kind("MEEK", "ORC", attributes=["meek"]),
    "wood": kind("WOOD", "ORC", attributes=["woodlore"]),
    "cav": kind("CAV", "DAW", "cavalry"),
    "orccav": kind("ORCCAV", "ORC", "cavalry"),
    "pred": kind("PRED", "DAW", "cavalry", ["predator"]),
    "fear": kind("FEAR", "ORC", attributes=["fear"]),
    "insp": kind("INSP", "DAW", attributes=["inspiring"]),
    "mighty": kind("MIGHTY", "DAW", attributes=["mighty"]),
    "orcmighty": kind("OMIGHTY", "ORC", attributes=["mighty"]),
    "arch": kind("ARCH", "DAW", attributes=["missile"]),
    "orcarch": kind("OARCH", "ORC", attributes=["missile"]),
    "woodarch": kind("WARCH", "ORC", attributes=["missile", "woodlore"]),
    "fort": kind("FORT", "DAW", attributes=["fortitude"]),
    "orcfort": ORCFORT,
    "merc": kind("MERC", "DAW", attributes=["mercenary"], cost=2),
    "orcmerc": kind("OMERC", "ORC", attributes=["mercenary"], cost=2),
    "orci": ORCI,
    "tower": kind("TOWER", "ORC", "tower"),
    "necro": kind("NECRO", "DAW", attributes=["necromancer"], cost=1),
    "und": kind("UND", "DAW", attributes=["undead"], race="undead", cost=5),
    "orcnecro": kind("ONECRO", "ORC", attributes=["necromancer"], cost=1),
    "orcund": kind("OUND", "ORC", attributes=["undead"], race="undead", cost=5),
    "hero": kind("H-ORC-01", "ORC", hero=True),
    "breath": kind("BREATH", "DAW", attributes=["breathweapon"], cost=18),
    "mbreath": kind("MBREATH", "DAW", attributes=["breathweapon", "mighty"], cost=18),
    "orcbreath": kind("OBREATH", "ORC", attributes=["breathweapon"], cost=18),
    "fortbreath": kind("FBREATH", "ORC", "cavalry", ["breathweapon", "fortitude"], cost=24),
    "cleric": kind("CLERIC", "DAW", attributes=["abjurer", "veteran"], cost=18),
    "orccleric": kind("OCLERIC", "ORC", attributes=["abjurer"], cost=18),
    "shaman": kind("SHAMAN", "DAW", attributes=["invoker", "weak"], cost=18),
    "orcshaman": kind("OSHAMAN", "ORC", attributes=["invoker"], cost=18),
}

#: Eight battles of each attribute family: (attackers, defenders, terrain).
FAMILIES: dict[str, list[tuple[str, str, Terrain | None]]] = {
    "values": [
        ("elite elite", "vet inf", None),
        ("weak inf inf", "meek", None),
        ("elite", "vet vet", None),
        ("inf inf", "wood wood", Terrain.FOREST),
        ("weak weak weak", "meek meek", None),
        ("elite inf", "wood", Terrain.PLAINS),
        ("cav", "vet", None),
        ("elite weak", "meek vet", None),
    ],
    "predator": [
        ("pred", "orccav", None),
        ("pred inf", "orccav orccav", None),
        ("pred pred", "orccav orci", None),
        ("pred cav", "orccav", None),
        ("inf pred", "orccav orccav orccav", None),
        ("pred", "orccav orci orci", None),
        ("pred cav cav", "orccav orccav", None),
        ("pred", "orci", None),
    ],
    "fear_inspiring": [
        ("inf", "fear", None),
        ("insp", "fear", None),
        ("insp inf", "orci orci", None),
        ("inf inf", "fear orci", None),
        ("insp insp", "fear", None),
        ("insp cav", "fear orccav", None),
        ("inf", "fear fear", None),
        ("insp", "orci", None),
    ],
    "mighty": [
        ("mighty", "orci", None),
        ("mighty", "orcmighty", None),
        ("mighty inf", "orci orci", None),
        ("inf", "orcmighty", None),
        ("mighty mighty", "orcmighty orci", None),
        ("mighty", "orcfort", None),
        ("cav mighty", "orcmighty", None),
        ("mighty", "orci orci orci", None),
    ],
    "missile": [
        ("arch", "orci", None),
        ("arch arch", "orcarch", None),
        ("arch inf", "orcarch orci", None),
        ("arch", "woodarch", Terrain.FOREST),
        ("arch arch", "orci", Terrain.FOREST),
        ("inf", "orcarch orcarch", None),
        ("arch cav", "orcarch orcfort", None),
        ("arch", "orcarch", None),
    ],
    "fortitude": [
        ("fort", "orci", None),
        ("fort", "orcfort", None),
        ("fort fort", "orcfort", None),
        ("inf inf", "orcfort", None),
        ("fort inf", "orcfort orci", None),
        ("fort", "orcfort orcfort", None),
        ("fort fort", "orcfort orcfort", None),
        ("cav", "orcfort", None),
    ],
    "mercenary": [
        ("merc inf", "orci", None),
        ("merc merc inf", "orci", None),
        ("merc inf inf", "orci orci", None),
        ("inf", "orcmerc orci", None),
        ("merc inf", "orcmerc orci", None),
        ("merc", "orci", None),
        ("merc fort", "orcfort", None),
        ("merc cav", "orci orci", None),
    ],
    "undead_bonds": [
        ("necro und", "orci", None),
        ("necro und und", "orci orci", None),
        ("inf", "orcnecro orcund", None),
        ("necro und", "orcnecro orcund", None),
        ("und necro inf", "orci orcfort", None),
        ("inf inf", "orcnecro orcund orcund", None),
        ("necro und", "fear", None),
        ("arch", "orcnecro orcund orcarch", None),
    ],
    "tower_hero_factions": [
        ("inf inf", "tower", None),
        ("cav cav", "tower orci", None),
        ("inf", "hero", None),
        ("inf inf", "hero orci", None),
        ("inf inf", "orci orci/LIZ", None),
        ("inf inf inf", "orci/LIZ orcfort orci/LIZ", None),
        ("cav", "hero/LIZ orci", None),
        ("inf inf", "tower/LIZ orci orci", None),
    ],
    "breath": [
        ("inf", "orcbreath", None),
        ("breath", "orci", None),
        ("breath inf", "orcbreath orci", None),
        ("mbreath", "orci orci", None),
        ("fort", "fortbreath", None),
        ("breath breath", "orcfort", None),
        ("arch", "orcbreath orcarch", None),
        ("insp breath", "fear orcbreath", None),
    ],
    "magic": [
        ("cleric inf", "orci orci", None),
        ("shaman", "orci", None),
        ("cleric shaman", "orcbreath", None),
        ("cleric cleric inf", "orci orci orci", None),
        ("shaman fort", "orcfort", None),
        ("cleric arch", "orcarch orci", None),
        ("inf inf", "orcshaman orccleric", None),
        ("cleric breath", "orccleric fortbreath", None),
    ],
}


def _side(words: str) -> list[UnitKind | tuple[UnitKind, str]]:
    out: list[UnitKind | tuple[UnitKind, str]] = []
    for word in words.split():
        name, _, faction = word.partition("/")
        out.append((K[name], faction) if faction else K[name])
    return out


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_monte_carlo_agrees_with_exact_odds_within_its_standard_error(family: str) -> None:
    """For eight battles of each attribute family, each Monte Carlo chance lies within 4.5 of its
    standard errors of the exact chance (seeded: the same every run)."""
    runs = 4000
    for n, (att, dfn, terrain) in enumerate(FAMILIES[family]):
        attackers = [k for k in _side(att) if isinstance(k, UnitKind)]
        exact = odds(attackers, _side(dfn), Options(), terrain=terrain)
        mc = odds(
            attackers,
            _side(dfn),
            Options(),
            terrain=terrain,
            method="monte_carlo",
            runs=runs,
            seed=n,
        )
        assert exact.method == "exact" and mc.method == "monte_carlo" and mc.runs == runs
        assert mc.standard_error is not None
        for name in ("attacker_wins", "defender_holds", "both_destroyed"):
            p = getattr(exact, name)
            sigma = (p * (1 - p) / runs) ** 0.5
            assert abs(getattr(mc, name) - p) <= 4.5 * sigma + 1e-9, (family, att, dfn, name)
            assert sigma <= mc.standard_error + 0.01
        assert mc.expected_rounds == pytest.approx(exact.expected_rounds, rel=0.1, abs=0.1)


def test_monte_carlo_agrees_with_real_battles() -> None:
    """The Monte Carlo odds of a mixed battle against 1,200 battles fought by the real battle
    path (the same battle as the exact check in test_odds)."""
    from caedes_bot.rules.combat.arithmetic import BattleResult
    from caedes_bot.rules.odds import battle_odds
    from tests.rules.combat.test_battle import battle_setup

    attackers = ["ARCHER", "INF", "FORT", "PREDCAV"]
    defenders = [("ORCI", "ORC"), ("ORCCAV", "ORC"), ("ORCFORT", "ORC"), ("ORCARROW", "ORC")]
    rs, st = battle_setup(attackers, defenders)
    exact = battle_odds(st, rs, "x")
    from caedes_bot.rules.odds.planned import battle_now

    setup = battle_now(st, rs, "x")
    mc = odds_for(
        setup.fighters,
        st.options,
        attacker=setup.attacker,
        defender_order=setup.defender_order,
        method="monte_carlo",
        runs=20_000,
        seed=7,
    )
    battles = 1200
    seen = _real_results(attackers, defenders, battles)
    for result, name in (
        (BattleResult.ATTACKER_WON, "attacker_wins"),
        (BattleResult.DEFENDER_HELD, "defender_holds"),
        (BattleResult.BOTH_DESTROYED, "both_destroyed"),
    ):
        p = getattr(mc, name)
        sigma = (p * (1 - p) / battles) ** 0.5 + (p * (1 - p) / 20_000) ** 0.5
        assert abs(seen[result] / battles - p) <= 4.5 * sigma + 1e-9, (result, seen)
        assert abs(getattr(exact, name) - p) <= 4.5 * (p * (1 - p) / 20_000) ** 0.5 + 1e-9


def test_r_attr_undead_03_undead_fall_with_the_last_necromancer() -> None:
    """R-ATTR-UNDEAD-03: a cheap Necromancer (taken first, R-COMBAT-06) with a dearer Undead
    unit, against Infantry (D3). The first hit on the attacker takes the Necromancer and the
    Undead with it, so a round ends: attacker hits at least once 1 - 0.8**2 = 0.36; win
    0.36 * 0.7 = 0.252, both destroyed 0.36 * 0.3 = 0.108, held 0.64 * 0.3 = 0.192, hitless
    0.448; each over 0.552. With a Necromancer elsewhere the Undead stay and win more."""
    necro = kind("NECRO", "ACH", attributes=["necromancer"], cost=1)
    undead = kind("UND", "ACH", attributes=["undead"], race="undead", cost=5)
    fighters = [
        Fighter(1, necro, "ACH", Side.ATTACKER),
        Fighter(2, undead, "ACH", Side.ATTACKER),
        Fighter(3, ORCI, "ORC", Side.DEFENDER),
    ]
    alone = odds_for(fighters, NO_STALEMATE, attacker="ACH", defender_order=["ORC"])
    assert alone.attacker_wins == pytest.approx(0.252 / 0.552, abs=1e-12)
    assert alone.both_destroyed == pytest.approx(0.108 / 0.552, abs=1e-12)
    assert alone.defender_holds == pytest.approx(0.192 / 0.552, abs=1e-12)
    safe = odds_for(
        fighters,
        NO_STALEMATE,
        attacker="ACH",
        defender_order=["ORC"],
        masters_elsewhere=frozenset({("ACH", "necromancer")}),
    )
    assert safe.attacker_wins > alone.attacker_wins + 0.05


def test_listed_battles_and_battles_ahead() -> None:
    """Units listed by hand: one attacking faction, no faction on both sides, no attacking
    Tower (R-COMBAT-15); battles ahead in step 6 are where the faction's attacking units stand
    among others (R-COMBAT-01), in step 7 those due (R-COMBAT-02)."""
    from caedes_bot.rules.odds.planned import battles_ahead, listed_battle
    from caedes_bot.rules.state import Step
    from tests.rules.combat.test_battle import battle_setup

    rs, st = battle_setup(["INF"], [("ORCI", "ORC")])
    inf, orci = rs.kind("INF"), rs.kind("ORCI")
    setup = listed_battle(rs, Options(), [inf, inf], [orci], terrain=Terrain.FOREST)
    assert setup.attacker == "DAW" and setup.defender_order == ("ORC",)
    assert [f.terrain for f in setup.fighters] == [Terrain.FOREST] * 3
    for attackers, defenders in (([inf, orci], [orci]), ([inf], [inf]), ([], [orci])):
        with pytest.raises(ValueError):
            listed_battle(rs, Options(), attackers, defenders)
    assert battles_ahead(st, rs, "DAW") == ["x"]
    assert battles_ahead(st, rs, "ORC") == []
    st.step = Step.MOVE
    st.battles_due = []
    assert battles_ahead(st, rs, "DAW") == ["x"]


def test_monte_carlo_of_a_battle_every_run_loses_has_a_standard_error() -> None:
    """R-COMBAT-05: one Infantry (hits on 1-2 of a d10) must score 20 hits before 20 Orc
    Infantry score one; across 20,000 rolled battles none does, so the defender holds in all of
    them. The chances are 0 and 1 and their standard error 0 (it was a math domain error: the
    chance summed past 1 by rounding)."""
    o = odds([INF], [ORCI] * 20, method="monte_carlo", runs=20_000)
    assert o.method == "monte_carlo" and o.runs == 20_000
    assert o.defender_holds == 1.0
    assert o.attacker_wins == 0.0 and o.both_destroyed == 0.0 and o.stalemate == 0.0
    assert o.standard_error == 0.0
