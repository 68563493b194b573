"""Hostile text at the parser level (issue: "Hostile input that still logs tracebacks").

Every text parser of the slash commands either reads what was typed or refuses it cleanly: a
:class:`~caedes_bot.rules.errors.Refusal` (which the edge answers privately) whose message says
on one line what was wrong, quoting at most a little of the text, and which says what is
allowed instead (or suggests a near name); nothing else is raised, nothing is logged above
INFO, and the game state is not changed. Each command family gets at least 1,000 generated
inputs (tests/hostile.py); the hypothesis profile of tests/conftest.py derandomises them in CI.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings

from caedes_bot.cogs._kind_names import kind_to_buy, kind_to_muster
from caedes_bot.cogs._place_names import resolve_province
from caedes_bot.cogs._transformers import parse_bundle, resolve_faction
from caedes_bot.cogs._unit_names import parse_units, pick_units
from caedes_bot.cogs.redeem import parse_sets
from caedes_bot.cogs.trade import MAX_COUNT, _offer_id
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.errors import Refusal
from caedes_bot.rules.movement import parse_terrain
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep
from tests.hostile import hostile_text
from tests.ui.skirmish import apply, at_step, ruleset

#: Generated inputs per command family, at least.
EXAMPLES = 1000

#: The longest refusal a parser may give (message, rule and what is allowed).
LONGEST = 700


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def _nothing_above_info() -> Iterator[None]:
    handler = _Records()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
    assert not handler.records, [r.getMessage() for r in handler.records]


def check_clean(read: Callable[[], Any], text: str) -> Any:
    """Run one parser on ``text``: a value, or a clean refusal (see the module docstring)."""
    with _nothing_above_info():
        try:
            return read()
        except Refusal as refusal:
            shown = refusal.player_text()
            assert refusal.message.strip(), repr(text)
            assert "\n" not in refusal.message, (text, refusal.message)
            assert len(shown) <= LONGEST, (text, shown)
            says_instead = refusal.allowed or getattr(refusal, "suggestions", ())
            assert says_instead or "sea zone" in refusal.message, (text, shown)
            return None


def family(test: Callable[[str], None]) -> Callable[[], None]:
    """Turn ``test(text)`` into a test that runs it on at least :data:`EXAMPLES` hostile
    texts, and checks that it did."""
    seen: list[str] = []

    @settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
    @given(hostile_text())
    def each(text: str) -> None:
        seen.append(text)
        test(text)

    def run() -> None:
        seen.clear()
        each()
        assert len(seen) >= EXAMPLES

    run.__name__ = test.__name__
    run.__doc__ = test.__doc__
    return run


def _mustering() -> GameState:
    """The Dawnians bought 2 Infantry and reached step 8."""
    state = at_step(Step.BUY)
    state, _ = apply(state, BuyUnits("DAW", "U-DAW-01", 2))
    while state.step is not Step.MUSTER:
        state, _ = apply(state, EndStep("DAW"))
    return state


_MOVING: GameState = at_step(Step.MOVE)
_MUSTERING: GameState = _mustering()
_BEFORE = copy.deepcopy(_MOVING), copy.deepcopy(_MUSTERING)


def _unchanged() -> None:
    assert (_MOVING, _MUSTERING) == _BEFORE


@family
def test_move_units_text_is_read_or_refused_cleanly(text: str) -> None:
    """``/move units`` (R-MOVE-01): what parse_units reads is picked among the units at
    Harrowgate; line breaks, huge counts and noise are refused, nothing moves."""

    def read() -> tuple[int, ...]:
        return pick_units(_MOVING, ruleset(), "DAW", "harrowgate", parse_units(text))

    picked = check_clean(read, text)
    if picked is not None:
        assert picked and set(picked) <= {4, 5, 6}
    _unchanged()


@family
def test_trade_offer_bundles_are_read_or_refused_cleanly(text: str) -> None:
    """``/trade offer give|get`` (R-TRADE-04, R-COMM-01): commodities with counts up to
    10,000."""
    bundle = check_clean(lambda: parse_bundle(text, most=MAX_COUNT), text)
    if bundle is not None:
        assert all(1 <= n <= MAX_COUNT for n in bundle.values())


@family
def test_redeem_sets_are_read_or_refused_cleanly(text: str) -> None:
    """``/redeem sets`` (R-COMM-10): ``sets="1 grain\\nx"`` and the like get a refusal."""
    sets = check_clean(lambda: parse_sets(text), text)
    if sets is not None:
        assert all(len(one) >= 1 for one in sets)


@family
def test_trade_offer_numbers_are_read_or_refused_cleanly(text: str) -> None:
    """``/trade accept|decline|withdraw offer`` (R-TRADE-02): a number of at most nine digits."""
    number = check_clean(lambda: _offer_id(text), text)
    if number is not None:
        assert 0 <= number < 10**9


@family
def test_province_names_are_read_or_refused_cleanly(text: str) -> None:
    """``/move from|to``, ``/muster province``, ``/province`` and the umpire's province
    options (R-GEN-04, R-MOVE-09); and ``/move terrain`` (R-MOVE-03)."""
    province = check_clean(lambda: resolve_province(ruleset(), text), text)
    if province is not None:
        assert province in ruleset().map.provinces
    check_clean(lambda: parse_terrain(text), text)


@family
def test_unit_names_are_read_or_refused_cleanly(text: str) -> None:
    """``/buy unit`` and ``/muster unit`` (R-BUY-01, R-MUSTER-01, R-GEN-04)."""
    for read in (
        lambda: kind_to_buy(ruleset(), "DAW", text),
        lambda: kind_to_muster(_MUSTERING, ruleset(), "DAW", text),
    ):
        kind = check_clean(read, text)
        if kind is not None:
            assert kind.id in ruleset().units
    _unchanged()


@family
def test_faction_names_are_read_or_refused_cleanly(text: str) -> None:
    """Every ``faction`` option, ``/trade offer to`` and ``/negotiate`` (R-SETUP-02)."""
    code = check_clean(lambda: resolve_faction(ruleset(), text, ["DAW", "ORC", "ACH"]), text)
    if code is not None:
        assert code in ("DAW", "ORC", "ACH")


def test_a_line_break_inside_a_count_list_is_refused_not_an_assert() -> None:
    """The cases of the issue, by hand: a line break inside a count list is a clean refusal
    that quotes the item on one line."""
    for read in (
        lambda: parse_sets("1 grain\nx"),
        lambda: parse_bundle("1 grain\nx", most=MAX_COUNT),
    ):
        try:
            read()
        except Refusal as refusal:
            assert refusal.message == "No commodity 'grain x'. Did you mean Grain?"
            assert refusal.allowed == "Cloth, Grain, Iron, Livestock, Salt, Timber"
        else:  # pragma: no cover
            raise AssertionError("accepted")
    requests = parse_units("2 Dawnian\nInfantry")
    assert [(r.name, r.count) for r in requests] == [("Dawnian Infantry", 2)]
