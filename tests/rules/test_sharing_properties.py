"""Property tests of copy-on-write (docs/decisions/0012, design.md section 3).

Random sequences of orders, legal or not, are played from the shipped skirmish scenario
through :func:`~caedes_bot.rules.engine.apply` with the campaign's seeded dice (R-GEN-01):

* ``apply`` never changes the state it is given, whether it takes the order or refuses it;
  and the states it returned earlier stay as they were while later orders are applied to
  their successors (they share the units nobody changed);
* saving and loading the state after every order gives the same state, and the same dice, as
  applying the same orders in memory: as one document, and as parts where each order writes
  only the parts it changed (docs/decisions/0008);
* a state that shares units with a clone can still be changed on its own (a test builder's
  habit) without the clone seeing it.
"""

from __future__ import annotations

import contextlib
import pickle

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.mappers import dump_state, load_state
from caedes_bot.persistence.stateparts import diff_state
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.combat.orders import FightBattle, PressOn, Withdraw
from caedes_bot.rules.dice import SeededDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.orders import Order
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import BattlePhase, GameState, Step
from caedes_bot.rules.turn import EndStep, ForfeitTurn, StartCampaign, UmpireAdvance
from tests.persistence.support import PartStore

RS: Ruleset = load_ruleset()
# "act" gives the order the current step calls for; the others are given in any step
KINDS = ("act",) * 12 + ("move", "buy", "end", "end", "advance", "fight", "press", "withdraw")
KINDS += ("forfeit",)
STEP_ORDERS = {Step.BUY: "buy", Step.MOVE: "move", Step.COMBAT: "fight"}


def _snapshot(state: GameState) -> bytes:
    """A deep snapshot of everything in ``state``: the stored document and a pickle."""
    return dump_state(state).encode() + b"\0" + pickle.dumps(state)


def _start() -> GameState:
    state = new_game(RS, "skirmish", "sharing-seed")
    return _apply(state, StartCampaign("umpire"))


def _dice(state: GameState) -> SeededDice:
    return SeededDice(state.dice_seed, state.dice_rolls)


def _apply(state: GameState, order: Order) -> GameState:
    return apply(state, order, RS, _dice(state)).state


def _order(state: GameState, kind: str, pick: int) -> Order:
    """An order of ``kind`` for the active faction, its details chosen by ``pick``; often
    legal, sometimes not (the rules refuse those)."""
    faction = state.active or "DAW"
    if kind == "act":
        if state.battle is not None and state.battle.phase is BattlePhase.PRESS_OR_WITHDRAW:
            kind = "press" if pick % 3 else "withdraw"
        elif state.pending:
            kind = "advance"
        else:
            kind = STEP_ORDERS.get(state.step, "end") if pick % 4 else "end"
    if kind == "move":
        own = sorted(u.id for u in state.peek_units() if u.owner == faction)
        if own:
            unit = state.units[str(own[pick % len(own)])]
            near = sorted(RS.map.land_neighbours(unit.location)) or [unit.location]
            enemy = [
                p
                for p in near
                if any(u.location == p and u.owner != faction for u in state.peek_units())
            ]
            near = enemy if enemy and pick % 2 else near
            return MoveUnits(faction, (unit.id,), near[pick % len(near)])
    if kind == "buy":
        kinds = [k.id for k in RS.order_of_battle(faction) if k.cost is not None]
        if kinds:
            return BuyUnits(faction, kinds[pick % len(kinds)], 1 + pick % 2)
    if kind == "fight" and state.battles_due:
        return FightBattle(faction, state.battles_due[pick % len(state.battles_due)])
    if kind == "press":
        return PressOn(faction)
    if kind == "withdraw":
        return Withdraw(faction)
    if kind == "advance":
        return UmpireAdvance(faction)
    if kind == "forfeit":
        return ForfeitTurn(faction)
    return EndStep(faction)


plays = st.lists(
    st.tuples(st.sampled_from(KINDS), st.integers(min_value=0, max_value=50)),
    min_size=1,
    max_size=60,
)


def _play(moves: list[tuple[str, int]]) -> list[tuple[GameState, Order]]:
    """Play ``moves`` from the start; every state met, with the order given to it."""
    state = _start()
    met = []
    for kind, pick in moves:
        if state.finished:
            break
        order = _order(state, kind, pick)
        met.append((state, order))
        with contextlib.suppress(RuleViolation):
            state = _apply(state, order)
    return met


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plays)
def test_apply_never_changes_the_state_it_is_given(moves: list[tuple[str, int]]) -> None:
    state = _start()
    kept: list[tuple[GameState, bytes]] = []
    for kind, pick in moves:
        if state.finished:
            break
        order = _order(state, kind, pick)
        before = _snapshot(state)
        try:
            new = _apply(state, order)
        except RuleViolation:
            new = state
        assert _snapshot(state) == before, order
        kept.append((state, before))
        state = new
    for old, snapshot in kept:  # no later order reached an earlier state through what it shares
        assert _snapshot(old) == snapshot


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plays)
def test_saving_and_loading_after_every_order_gives_the_state_kept_in_memory(
    moves: list[tuple[str, int]],
) -> None:
    orders = [order for _, order in _play(moves)]
    in_memory = stored = _start()
    for order in orders:
        with contextlib.suppress(RuleViolation):
            in_memory = _apply(in_memory, order)
        try:
            stored = load_state(dump_state(_apply(stored, order)))
        except RuleViolation:
            stored = load_state(dump_state(stored))
        assert stored == in_memory
        assert dump_state(stored) == dump_state(in_memory)
    assert stored.dice_rolls == in_memory.dice_rolls
    assert _dice(stored).roll(10, 5, reason="next") == _dice(in_memory).roll(10, 5, reason="next")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plays)
def test_storing_only_the_parts_each_order_changed_gives_the_state_kept_in_memory(
    moves: list[tuple[str, int]],
) -> None:
    state = _start()
    store = PartStore(state)
    version = 0
    for kind, pick in moves:
        if state.finished:
            break
        try:
            new = _apply(state, _order(state, kind, pick))
        except RuleViolation:
            continue
        version += 1
        store.write(diff_state(state, new, version))
        state = new
        loaded = store.load()
        assert loaded == state
        assert dump_state(loaded) == dump_state(state)  # the same order of units and factions
    assert _dice(store.load()).roll(10, 5, reason="next") == _dice(state).roll(10, 5, reason="next")


def test_a_state_changed_after_a_clone_does_not_change_the_clone() -> None:
    state = _start()
    clone = state.clone()
    unit = next(iter(sorted(state.units)))
    before = _snapshot(clone)
    state.units[unit].wounded = not state.units[unit].wounded
    state.units[unit].path.append("somewhere")
    state.factions["DAW"].commodities["grain"] = 99
    assert _snapshot(clone) == before
    clone.units[unit].movement_used += 3
    assert state.units[unit].movement_used != clone.units[unit].movement_used


def test_an_order_shares_the_factions_it_does_not_change() -> None:
    # decision 0013: factions are copied on write like units, so the stored parts of the
    # factions an order leaves alone are the very objects they were (found by identity)
    state = _start()
    after = _apply(state, EndStep(state.active or "DAW"))
    untouched = [
        code
        for code in state.in_play
        if code != state.active and dict.get(after.factions, code) == dict.get(state.factions, code)
    ]
    assert untouched
    for code in untouched:
        assert dict.__getitem__(after.factions, code) is dict.__getitem__(state.factions, code)
    clone = after.clone()
    clone.factions[untouched[0]].rp += 5
    assert after.factions[untouched[0]].rp + 5 == clone.factions[untouched[0]].rp
    assert dict.__getitem__(state.factions, untouched[0]).rp == after.factions[untouched[0]].rp


def test_peek_units_of_reads_a_clone_without_copying() -> None:
    """``peek_units_of`` gives a faction's units in id order, as ``units_of`` does, but the very
    objects the clone shares with its source: reading copies nothing (decision 0012)."""
    source = new_game(RS, "skirmish", "sharing-seed")
    clone = source.clone()
    peeked = clone.peek_units_of("DAW")
    assert [u.id for u in peeked] == sorted(u.id for u in source.peek_units() if u.owner == "DAW")
    assert all(u is dict.__getitem__(source.units, str(u.id)) for u in peeked)
    assert [u.id for u in clone.units_of("DAW")] == [u.id for u in peeked]
