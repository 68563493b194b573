"""Property tests for battles and odds (design.md section 6), with seeded dice.

Random armies fight through :func:`~caedes_bot.rules.engine.apply`, with random but legal
casualty choices and press-on / withdraw answers, and the invariants are checked after every
order: no unit is in two places, nothing goes negative, the battle ends within the bound that
R-COMBAT-13 implies, and a refused order leaves the state unchanged.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from caedes_bot.gamedata.model import Attribute, Options, Ruleset
from caedes_bot.rules.combat.arithmetic import Fighter
from caedes_bot.rules.combat.events import BattleEnded
from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle, PressOn, Withdraw
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.mercenary_answer import ChooseMercenaries
from caedes_bot.rules.movement.blitz import BlitzStop
from caedes_bot.rules.odds import odds_for
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import CasualtiesDetail, GameState, MercenariesDetail, Side
from tests.rules.combat.test_battle import KINDS, battle_setup

ATTACKER_KINDS = [
    "INF",
    "ARCHER",
    "RANGER",
    "ELITE",
    "MIGHTY",
    "PREDCAV",
    "MERC",
    "FORT",
    "UNDEAD",
    "H-DAW-01",
]
DEFENDER_KINDS = [
    "ORCI",
    "ORCMEEK",
    "ORCVET",
    "ORCCAV",
    "ORCARROW",
    "ORCFORT",
    "ORCTWR",
    "ORCWOOD",
    "H-ORC-01",
]
TERRAINS = [("plains",), ("forest",), ("plains", "forest"), ("mountains", "swamp")]


def _check(st_: GameState, known: set[str], spaces: set[str]) -> None:
    """No unit in two places, none created, nothing negative (R-COMBAT-06, R-COMBAT-13)."""
    assert set(st_.units) <= known
    for key, unit in st_.units.items():
        assert str(unit.id) == key and unit.location in spaces
        assert unit.movement_used >= 0
    battle = st_.battle
    if battle is None:
        return
    fighting = battle.attacker_units + battle.defender_units
    assert len(fighting) == len(set(fighting))
    for uid in fighting:
        assert st_.unit(uid).location == battle.space
    for uid in battle.withdrawn:
        unit = st_.units.get(str(uid))
        assert unit is None or unit.location != battle.space
    assert 0 <= battle.hitless_rounds < st_.options.stalemate_rounds
    for share in battle.owed:
        assert share.hits > 0


def _refused_changes_nothing(st_: GameState, rs: Ruleset, order: Order) -> None:
    before = st_.clone()
    try:
        apply(st_, order, rs, SeededDice("refused"))
    except RuleViolation:
        assert st_ == before
    else:  # pragma: no cover - the property would be wrong
        raise AssertionError(f"{order} was not refused")


@settings(max_examples=60)
@given(
    attackers=st.lists(st.sampled_from(ATTACKER_KINDS), min_size=1, max_size=4),
    defenders=st.lists(st.sampled_from(DEFENDER_KINDS), min_size=1, max_size=4),
    terrain=st.sampled_from(TERRAINS),
    stalemate_rounds=st.sampled_from([1, 2, 3, 20]),
    landed=st.lists(st.booleans(), min_size=4, max_size=4),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_battles_keep_their_invariants(
    attackers: list[str],
    defenders: list[str],
    terrain: tuple[str, ...],
    stalemate_rounds: int,
    landed: list[bool],
    seed: int,
    data: st.DataObject,
) -> None:
    rs, state0 = battle_setup(
        attackers,
        [(k, "ORC") for k in defenders],
        terrain=terrain,
        options=Options(stalemate_rounds=stalemate_rounds),
    )
    for uid, came_by_sea in zip(range(1, len(attackers) + 1), landed, strict=False):
        if came_by_sea:
            state0.unit(uid).entered_from = "sea"
    known = set(state0.units)
    spaces = {"a", "x", "z", "sea"}
    hit_points = sum(
        2 if rs.kind(u.kind).has(Attribute.FORTITUDE) else 1 for u in state0.units.values()
    )
    dice = SeededDice(f"prop-{seed}")
    out = apply(state0, FightBattle("DAW", "x"), rs, dice)
    events = list(out.events)
    current = out.state
    orders = 0
    while current.battle is not None:
        _check(current, known, spaces)
        orders += 1
        # Every round but the hitless ones costs a hit point; hitless runs stop at the bound.
        assert current.battle.round <= (hit_points + 1) * stalemate_rounds
        assert orders < 1000
        decision = current.pending[0]
        if decision.kind == "casualties":
            detail = decision.detail
            assert isinstance(detail, CasualtiesDetail)
            hits = detail.hits
            room = {u.id: u.max_hits for u in detail.units}
            _refused_changes_nothing(current, rs, AssignCasualties(decision.faction, ()))
            picks: list[int] = []
            for _ in range(hits):
                choice = data.draw(st.sampled_from(sorted(k for k, v in room.items() if v > 0)))
                room[choice] -= 1
                picks.append(choice)
            order: Order = AssignCasualties(decision.faction, tuple(picks))
        elif isinstance(decision.detail, MercenariesDetail):  # R-ATTR-MERC-01: any of them
            merc = decision.detail
            ids = [c.id for c in merc.candidates]
            _refused_changes_nothing(
                current, rs, ChooseMercenaries(decision.faction, decision.id, ())
            )
            chosen = data.draw(st.permutations(ids))[: merc.deserting]
            order = ChooseMercenaries(decision.faction, decision.id, tuple(chosen))
        else:
            _refused_changes_nothing(current, rs, AssignCasualties("DAW", (1,)))
            _refused_changes_nothing(current, rs, FightBattle("DAW", "x"))
            order = Withdraw("DAW") if data.draw(st.booleans()) else PressOn("DAW")
        before = current.clone()
        out = apply(current, order, rs, dice)
        assert current == before  # apply never changes the state it is given
        events += out.events
        current = out.state
    _check(current, known, spaces)
    (end,) = [e for e in events if isinstance(e, BattleEnded)]
    assert isinstance(end, BattleEnded)
    if current.pending and current.pending[0].kind == "blitz":  # R-ATTR-BLITZ-02: a won
        current = apply(current, BlitzStop("DAW"), rs, dice).state  # cavalry may move on
    assert current.pending == [] and current.battles_due == []
    for uid in end.attacker_survivors + end.defender_survivors:
        assert current.unit(uid).location == "x" and not current.unit(uid).wounded
    assert not any(u.attacking for u in current.units.values())


KINDS_BY_ID = {k.id: k for k in KINDS}


@settings(max_examples=40)
@given(
    attackers=st.lists(st.sampled_from(ATTACKER_KINDS[:-1]), min_size=1, max_size=3),
    defenders=st.lists(st.sampled_from(DEFENDER_KINDS[:-1]), min_size=1, max_size=3),
    stalemate_rounds=st.sampled_from([1, 3, 20]),
)
def test_odds_are_probabilities(
    attackers: list[str], defenders: list[str], stalemate_rounds: int
) -> None:
    fighters = [
        Fighter(i, KINDS_BY_ID[k], "DAW", Side.ATTACKER, mercenary=k == "MERC")
        for i, k in enumerate(attackers, start=1)
    ] + [Fighter(10 + i, KINDS_BY_ID[k], "ORC", Side.DEFENDER) for i, k in enumerate(defenders)]
    odds = odds_for(
        fighters, Options(stalemate_rounds=stalemate_rounds), attacker="DAW", defender_order=["ORC"]
    )
    parts = [odds.attacker_wins, odds.defender_holds, odds.both_destroyed, odds.stalemate]
    assert all(-1e-12 <= p <= 1 + 1e-12 for p in parts)
    assert abs(sum(parts) - 1.0) < 1e-9
    assert 0 <= odds.expected_attacker_survivors <= len(attackers) + 1e-9
    assert 0 <= odds.expected_defender_survivors <= len(defenders) + 1e-9
