"""Naval battles and ships in battles (R-COMBAT-14, R-COMBAT-06, R-COMBAT-08, R-COMBAT-15,
R-MOVE-13, R-MOVE-19, R-MOVE-20, R-ATTR-WATER-02).

Every battle is fought with scripted dice: in each step the attacker's dice first, then the
defender's, each in unit id order. Values from the unit-type table: Ship A2 D2, Infantry A2
D3, Cavalry A5 D3; a die hits at or under its value (R-GEN-02). Nobody has Missile, so only
the melee step rolls.

The map::

    sea zones  s1 - s2          provinces  a (coast s1), b (coast s2), r
    land       a-b, a-r, with the navigable river edge a|r
"""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.cargo import Disembark
from caedes_bot.rules.combat.arithmetic import BattleResult
from caedes_bot.rules.combat.events import (
    BattleBegan,
    BattleEnded,
    BattleStepResolved,
    CasualtiesRemoved,
)
from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle, Withdraw
from caedes_bot.rules.combat.sides import battle_sides
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import Outcome, apply
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import ProvinceCaptured
from caedes_bot.rules.ships import SailShips
from caedes_bot.rules.state import CasualtiesDetail, GameState
from caedes_bot.rules.turn import EndStep
from tests.rules.builders import kind, ruleset, state, with_options

EDGE = "river:a|r"
KINDS = [
    kind("SHIP", "DAW", "ship"),
    kind("INF", "DAW"),
    kind("CAV", "DAW", "cavalry"),
    kind("OSHIP", "ORC", "ship"),
    kind("ORCI", "ORC"),
    kind("WSHIP", "WEL", "ship"),
]


def _rs(**options: object) -> Ruleset:
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "r": ("plains",)},
        borders=[("a", "b")],
        seas=["s1", "s2"],
        coasts=[("a", "s1"), ("b", "s2")],
        sea_borders=[("s1", "s2")],
        navigable=[("a", "r")],
        kinds=KINDS,
    )
    return with_options(rs, **options) if options else rs


def _go(st: GameState, rs: Ruleset, order: Order, dice: Sequence[int] = ()) -> Outcome:
    script = ScriptedDice(dice)
    out = apply(st, order, rs, script)
    script.assert_exhausted()
    return out


def _place(
    rs: Ruleset, units: list[tuple[str, str, str]], aboard: dict[int, int] | None = None
) -> GameState:
    st = state(rs, units=units, owners={"a": "DAW", "b": "ORC"})
    for uid, ship in (aboard or {}).items():
        st.unit(uid).aboard = ship
    return st


def _to_battle(st: GameState, rs: Ruleset, *moves: Order) -> GameState:
    for order in moves:
        st = _go(st, rs, order).state
    return _go(st, rs, EndStep("DAW")).state


def _of(events: Sequence[Event], cls: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, cls)]


def _ended(out: Outcome) -> BattleEnded:
    (event,) = _of(out.events, BattleEnded)
    assert isinstance(event, BattleEnded)
    return event


# --------------------------------------------------------------------------- R-COMBAT-14


def test_r_combat_14_cargo_fights_and_may_be_chosen_and_dies_with_its_ship() -> None:
    """R-COMBAT-14, R-MOVE-19, R-COMBAT-11: the Dawnian ship #1 with infantry #2 aboard sails
    into s2 against the Orc ship #3 with infantry #4 aboard. Attacker dice: ship 1 (hits, at
    most 2), infantry 10; defender: ship 10, infantry 10 (need 2 and 3). One hit on the Orcs:
    a real choice between the ship and the infantry aboard (the default is the cheaper
    infantry, 3 RP). They give the ship: it sinks and #4 goes down with it, so the defender has
    nothing left. The attacker wins; a sea zone has no owner to change."""
    rs = _rs()
    st = _place(
        rs,
        [
            ("SHIP", "DAW", "s1"),
            ("INF", "DAW", "s1"),
            ("OSHIP", "ORC", "s2"),
            ("ORCI", "ORC", "s2"),
        ],
        {2: 1, 4: 3},
    )
    st = _to_battle(st, rs, SailShips("DAW", (1,), "s2"))
    assert st.battles_due == ["s2"]
    out = _go(st, rs, FightBattle("DAW", "s2"), [1, 10, 10, 10])
    (began,) = _of(out.events, BattleBegan)
    assert began.attacker_units == (1, 2) and began.defender_units == (3, 4)  # type: ignore[attr-defined]
    (step,) = _of(out.events, BattleStepResolved)
    assert [(d.unit, d.target, d.hit) for d in step.dice] == [  # type: ignore[attr-defined]
        (1, 2, True),
        (2, 2, False),
        (3, 2, False),
        (4, 3, False),
    ]
    (decision,) = out.state.pending
    assert isinstance(decision.detail, CasualtiesDetail) and decision.faction == "ORC"
    assert decision.detail.default == (4,)
    done = _go(out.state, rs, AssignCasualties("ORC", (3,)))
    (removed,) = _of(done.events, CasualtiesRemoved)
    assert removed.defender_destroyed == (3, 4)  # type: ignore[attr-defined]
    assert _ended(done).result is BattleResult.ATTACKER_WON
    assert not _of(done.events, ProvinceCaptured) and "s2" not in done.state.owners
    assert {u.id for u in done.state.units.values()} == {1, 2}


def test_r_combat_14_option_cargo_fights_off() -> None:
    """R-COMBAT-14 option cargo_fights false: only the ships roll (attacker 1 hits, defender
    10 misses); the Orc ship is the only one to take the hit, and its cargo goes down with it
    without fighting (R-MOVE-19)."""
    rs = _rs(cargo_fights=False)
    st = _place(
        rs,
        [
            ("SHIP", "DAW", "s1"),
            ("INF", "DAW", "s1"),
            ("OSHIP", "ORC", "s2"),
            ("ORCI", "ORC", "s2"),
        ],
        {2: 1, 4: 3},
    )
    st = _to_battle(st, rs, SailShips("DAW", (1,), "s2"))
    out = _go(st, rs, FightBattle("DAW", "s2"), [1, 10])
    (began,) = _of(out.events, BattleBegan)
    assert began.attacker_units == (1,) and began.defender_units == (3,)  # type: ignore[attr-defined]
    (removed,) = _of(out.events, CasualtiesRemoved)
    assert removed.defender_destroyed == (3, 4)  # type: ignore[attr-defined]
    assert _ended(out).result is BattleResult.ATTACKER_WON
    assert "4" not in out.state.units


def test_r_move_19_an_attacking_ship_sunk_takes_its_cargo() -> None:
    """R-MOVE-19: the Dawnian ship with cavalry aboard attacks a lone Orc ship. Attacker dice:
    ship 10, cavalry 10; defender ship 1 (hits, at most 2). The Dawnians choose their ship
    (the cavalry, 5 RP, is their default): both go, and the Orcs hold s2."""
    rs = _rs()
    st = _place(rs, [("SHIP", "DAW", "s1"), ("CAV", "DAW", "s1"), ("OSHIP", "ORC", "s2")], {2: 1})
    st = _to_battle(st, rs, SailShips("DAW", (1,), "s2"))
    out = _go(st, rs, FightBattle("DAW", "s2"), [10, 10, 1])
    (decision,) = out.state.pending
    assert isinstance(decision.detail, CasualtiesDetail) and decision.detail.default == (2,)
    done = _go(out.state, rs, AssignCasualties("DAW", (1,)))
    assert _ended(done).result is BattleResult.DEFENDER_HELD
    assert {u.id for u in done.state.units.values()} == {3}


# --------------------------------------------------------------------------- R-MOVE-20


def test_r_move_20_cavalry_aboard_attacks_at_minus_3() -> None:
    """R-MOVE-20: cavalry aboard an attacking ship rolls against 5 - 3 = 2."""
    rs = _rs()
    st = _place(rs, [("SHIP", "DAW", "s1"), ("CAV", "DAW", "s1"), ("OSHIP", "ORC", "s2")], {2: 1})
    st = _to_battle(st, rs, SailShips("DAW", (1,), "s2"))
    out = _go(st, rs, FightBattle("DAW", "s2"), [10, 3, 10])
    (step,) = _of(out.events, BattleStepResolved)
    assert [(d.unit, d.target, d.hit) for d in step.dice] == [  # type: ignore[attr-defined]
        (1, 2, False),
        (2, 2, False),
        (3, 2, False),
    ]


def test_r_move_20_option_landing_cavalry_penalty() -> None:
    """R-MOVE-20 option landing_cavalry_penalty: cavalry that lands from s1 into a, held by Orc
    infantry, rolls a 3: against 5 - 3 = 2 it misses (default true); with the option false it
    rolls against 5 and hits. The Orc's 1 hits the cavalry either way, which ends the battle
    (a landed unit is never offered a withdrawal)."""
    for flag, target, hit in ((True, 2, False), (False, 5, True)):
        rs = _rs(landing_cavalry_penalty=flag)
        st = _place(rs, [("SHIP", "DAW", "s1"), ("CAV", "DAW", "s1"), ("ORCI", "ORC", "a")], {2: 1})
        st = _to_battle(st, rs, Disembark("DAW", (2,), "a"))
        out = _go(st, rs, FightBattle("DAW", "a"), [3, 1])  # the Orc 1 kills the cavalry

        step = _of(out.events, BattleStepResolved)[0]
        attacker_die = step.dice[0]  # type: ignore[attr-defined]
        assert (attacker_die.unit, attacker_die.target, attacker_die.hit) == (2, target, hit)


# --------------------------------------------------------------------------- R-COMBAT-06


def test_r_combat_06_joint_defence_at_sea_starts_with_the_faction_with_most_units() -> None:
    """R-COMBAT-06 at sea: one Orc ship and two Wood Elven ships defend s2 (no owner); the
    hand-out starts with the Wood Elves (2 units), not in turn order (Orcs first). The two
    Dawnian ships roll 1 and 10: one hit, taken by a Wood Elven ship."""
    rs = _rs()
    st = _place(
        rs,
        [
            ("SHIP", "DAW", "s1"),
            ("SHIP", "DAW", "s1"),
            ("OSHIP", "ORC", "s2"),
            ("WSHIP", "WEL", "s2"),
            ("WSHIP", "WEL", "s2"),
        ],
    )
    st = _to_battle(st, rs, SailShips("DAW", (1, 2), "s2"))
    out = _go(st, rs, FightBattle("DAW", "s2"), [1, 10, 10, 10, 10])
    (began,) = _of(out.events, BattleBegan)
    assert began.defenders == ("WEL", "ORC")  # type: ignore[attr-defined]
    (removed,) = _of(out.events, CasualtiesRemoved)
    assert removed.defender_destroyed in ((4,), (5,))  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- R-COMBAT-08


def test_r_combat_08_a_ship_withdraws_with_its_cargo_to_where_it_came_from() -> None:
    """R-COMBAT-08 at sea: a hitless round (attacker 10, 10; defender 10); the ship and the
    infantry aboard may withdraw, and go back to s1 together."""
    rs = _rs()
    st = _place(rs, [("SHIP", "DAW", "s1"), ("INF", "DAW", "s1"), ("OSHIP", "ORC", "s2")], {2: 1})
    st = _to_battle(st, rs, SailShips("DAW", (1,), "s2"))
    out = _go(st, rs, FightBattle("DAW", "s2"), [10, 10, 10])
    (decision,) = out.state.pending
    assert decision.detail.can_withdraw == (1, 2)  # type: ignore[union-attr]
    done = _go(out.state, rs, Withdraw("DAW"))
    assert [(done.state.unit(u).location, done.state.unit(u).aboard) for u in (1, 2)] == [
        ("s1", None),
        ("s1", 1),
    ]
    assert _ended(done).result is BattleResult.WITHDRAWN


# --------------------------------------------------------------------------- land battles


def test_r_combat_15_ships_in_a_sea_zone_never_join_a_land_battle() -> None:
    """R-COMBAT-15, R-ATTR-WATER-02: Dawnian infantry attacks b, held by Orc infantry; the Orc
    ship on s2 beside b does not defend, and a Dawnian ship on s2 does not attack."""
    rs = _rs()
    st = _place(
        rs,
        [("INF", "DAW", "a"), ("SHIP", "DAW", "s1"), ("ORCI", "ORC", "b"), ("OSHIP", "ORC", "s2")],
    )
    st = _go(st, rs, MoveUnits("DAW", (1,), "b")).state
    attackers, defenders = battle_sides(st, rs, "b", "DAW")
    assert [u.id for u in attackers] == [1] and [u.id for u in defenders] == [3]


def test_r_move_13_a_river_ship_and_its_cargo_defend_a_province_beside_it() -> None:
    """R-MOVE-13, R-COMBAT-14: an Orc ship on the edge a|r with Orc infantry aboard defends r
    with its cargo; with cargo_fights false only the ship defends."""
    for flag, defending in ((True, [3, 4]), (False, [3])):
        rs = _rs(cargo_fights=flag)
        st = state(
            rs,
            units=[
                ("INF", "DAW", "a"),
                ("INF", "DAW", "a"),
                ("OSHIP", "ORC", EDGE),
                ("ORCI", "ORC", EDGE),
            ],
        )
        st.unit(4).aboard = 3
        st = _go(st, rs, MoveUnits("DAW", (1,), "r")).state
        assert st.unit(1).attacking
        _attackers, defenders = battle_sides(st, rs, "r", "DAW")
        assert [u.id for u in defenders] == defending


def test_r_combat_14_the_odds_of_a_naval_battle_use_its_sides_and_hand_out() -> None:
    """R-COMBAT-14, R-COMBAT-06: the odds calculator sets up a naval battle as the battle does:
    the attacker's two ships against the Orc ship and two Wood Elven ships, hits handed out
    from the Wood Elves (most units there)."""
    from caedes_bot.rules.odds.planned import battle_now

    rs = _rs()
    st = _place(
        rs,
        [
            ("SHIP", "DAW", "s1"),
            ("SHIP", "DAW", "s1"),
            ("OSHIP", "ORC", "s2"),
            ("WSHIP", "WEL", "s2"),
            ("WSHIP", "WEL", "s2"),
        ],
    )
    st = _go(st, rs, SailShips("DAW", (1, 2), "s2")).state
    setup = battle_now(st, rs, "s2")
    assert setup.attacker == "DAW" and list(setup.defender_order) == ["WEL", "ORC"]
    assert sorted(f.id for f in setup.fighters) == [1, 2, 3, 4, 5]
