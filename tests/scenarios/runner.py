"""Running a scenario case: its orders through ``engine.apply``, each checked as the file says.

For every order the runner checks, beyond what the file lists, that ``apply`` left the state it
was given unchanged (a refused order changes nothing) and, for an accepted order, that every
scripted die was rolled. A failure names the file, the case and its sentence, the order, and
each difference found.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

import pytest

from caedes_bot.rules.dice import DiceScriptError, ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.errors import RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState
from tests.scenarios.schema import Case, OrderStep, error_classes


def run(case: Case) -> None:
    """Play ``case`` and fail (``pytest.fail``) at the first order that goes otherwise."""
    state = case.state
    for step in case.orders:
        state = _run_order(case, step, state)
    problems = check_state(case.expect, state)
    if problems:
        _fail(case, "after the last order", problems)


def _run_order(case: Case, step: OrderStep, state: GameState) -> GameState:
    dice = ScriptedDice(step.dice)
    before = state.clone()
    refusal: RuleViolation | None = None
    dice_error: DiceScriptError | None = None
    try:
        out = apply(state, step.order, case.ruleset, dice)
    except RuleViolation as err:
        refusal = err
    except DiceScriptError as err:
        dice_error = err
    except Exception as err:
        err.add_note(f"in {case.heading}\n  at {step.label}")
        raise
    # failing outside the except clauses keeps the refusal out of the report's traceback
    if dice_error is not None:
        _fail(case, step.label, [f"scripted dice: {dice_error}"])
    if refusal is not None:
        if state != before:
            _fail(case, step.label, ["the refused order changed the state it was given"])
        if step.refused is None:
            _fail(
                case, step.label, [f"refused: {refusal.player_text()} [{type(refusal).__name__}]"]
            )
        problems = check_refusal(step.refused, refusal)
        problems += check_state(step.expect, state)
        if problems:
            _fail(case, step.label, problems)
        return state
    if state != before:
        _fail(case, step.label, ["apply changed the state it was given"])
    if step.refused is not None:
        expected = f"{step.refused['error']} ({step.refused['rule']})"
        _fail(case, step.label, [f"expected a refusal {expected}, but it was accepted"], out.events)
    problems = []
    try:
        dice.assert_exhausted()
    except DiceScriptError as err:
        problems.append(f"scripted dice: {err}")
    problems += check_events(step, out.events)
    problems += check_state(step.expect, out.state)
    if problems:
        _fail(case, step.label, problems, out.events)
    return out.state


# --------------------------------------------------------------------------- refusals


def check_refusal(expected: Mapping[str, Any], err: RuleViolation) -> list[str]:
    problems = []
    cls = error_classes()[expected["error"]]
    if not isinstance(err, cls):
        problems.append(f"refused with {type(err).__name__}, expected {cls.__name__}")
    if err.rule != expected["rule"]:
        problems.append(f"refused under {err.rule}, expected {expected['rule']}")
    texts = {"message": err.message, "allowed": err.allowed}
    for what, text in texts.items():
        if what in expected and text != expected[what]:
            problems.append(f"{what}: expected {expected[what]!r}, got {text!r}")
        for part in _as_list(expected.get(f"{what}_has", [])):
            if text is None or part not in text:
                problems.append(f"{what} should contain {part!r}: {text!r}")
    starts = expected.get("allowed_starts")
    if starts is not None and not (err.allowed or "").startswith(starts):
        problems.append(f"allowed should start with {starts!r}: {err.allowed!r}")
    if "suggestions" in expected or "suggestions_has" in expected:
        found = list(err.suggestions) if isinstance(err, UnknownName) else []
        if "suggestions" in expected and found != expected["suggestions"]:
            problems.append(f"suggestions: expected {expected['suggestions']!r}, got {found!r}")
        for name in _as_list(expected.get("suggestions_has", [])):
            if name not in found:
                problems.append(f"suggestions should hold {name!r}: {found!r}")
    return problems


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


# --------------------------------------------------------------------------- events


def check_events(step: OrderStep, events: Sequence[Event]) -> list[str]:
    problems = []
    if step.events is not None:
        if len(step.events) != len(events):
            problems.append(f"expected {len(step.events)} events, got {len(events)}")
        else:
            for i, (want, event) in enumerate(zip(step.events, events, strict=True), start=1):
                problems += match_event(want, event, f"event {i}")
    position = 0
    for want in step.events_include:
        while position < len(events) and match_event(want, events[position], ""):
            position += 1
        if position == len(events):
            problems.append(
                f"no {want['type']} like {_show(want)} (in this order, after the ones before)"
            )
            break
        position += 1
    for name, count in step.events_count.items():
        seen = sum(type(e).__name__ == name for e in events)
        if seen != count:
            problems.append(f"expected {count} {name} events, got {seen}")
    return problems


def match_event(want: Mapping[str, Any], event: Event, where: str) -> list[str]:
    """Differences between the expected event table ``want`` and ``event``."""
    name = type(event).__name__
    if want["type"] != name:
        return [f"{where}: expected {want['type']}, got {name}"]
    problems = match_record(
        {k: v for k, v in want.items() if k not in ("type", "audience")}, event, f"{where} {name}"
    )
    if "audience" in want:
        audience = event.audience()
        seen = "everyone" if audience is None else list(audience)
        if seen != want["audience"]:
            problems.append(f"{where} {name}: seen by {seen!r}, expected {want['audience']!r}")
    return problems


# --------------------------------------------------------------------------- the state


def check_state(expect: Mapping[str, Any], state: GameState) -> list[str]:
    """Differences between the expected state table (see the README) and ``state``."""
    problems = []
    for key, value in expect.items():
        if key == "none":
            problems += [
                f"{a}: expected none, got {_show(getattr(state, a))}"
                for a in value
                if getattr(state, a) is not None
            ]
        elif key == "owners":
            for province, owner in value.items():
                if state.owner(province) != owner:
                    problems.append(
                        f"owner of {province}: expected {owner}, got {state.owner(province)}"
                    )
        elif key == "unowned":
            for province in value:
                if state.owner(province) is not None:
                    problems.append(f"{province} should be unowned, is {state.owner(province)}'s")
        elif key == "units":
            for space, kinds in value.items():
                found = [u.kind for u in state.units_at(space)]
                if found != kinds:
                    problems.append(f"units in {space}: expected {kinds}, got {found}")
        elif key == "unit":
            for uid, fields_ in value.items():
                if uid not in state.units:
                    problems.append(f"unit {uid} is not on the board")
                else:
                    problems += match_record(fields_, state.units[uid], f"unit {uid}")
        elif key == "gone":
            problems += [
                f"unit {uid} is still on the board" for uid in value if str(uid) in state.units
            ]
        elif key == "factions":
            for code, fields_ in value.items():
                problems += match_record(fields_, state.factions[code], code)
        else:
            problems += match_value(value, getattr(state, key), key)
    return problems


# --------------------------------------------------------------------------- comparing values


def match_record(want: Mapping[str, Any], record: object, where: str) -> list[str]:
    """A record (dataclass) is compared on the fields given; ``none`` lists fields that must be
    ``None``."""
    problems = []
    for key, value in want.items():
        if key == "none":
            problems += [
                f"{where}.{f}: expected none, got {_show(getattr(record, f))}"
                for f in value
                if getattr(record, f) is not None
            ]
        elif not hasattr(record, key):
            names = [f.name for f in dataclasses.fields(record)]  # type: ignore[arg-type]
            problems.append(f"{where}: no field {key!r}; fields: {', '.join(names)}")
        else:
            problems += match_value(value, getattr(record, key), f"{where}.{key}")
    return problems


def match_value(want: Any, actual: Any, where: str) -> list[str]:
    """Records are compared on the fields given; mappings, lists and plain values whole.

    An enum matches its value or its name in any case (``step = "move"`` or ``6``); a list
    matches a tuple.
    """
    if dataclasses.is_dataclass(actual) and not isinstance(actual, type):
        if isinstance(want, dict):
            return match_record(want, actual, where)
    elif isinstance(actual, enum.Enum):
        if want == actual.value or (isinstance(want, str) and want.upper() == actual.name):
            return []
    elif isinstance(actual, list | tuple):
        if isinstance(want, list) and len(want) == len(actual):
            return [
                p
                for i, (w, a) in enumerate(zip(want, actual, strict=True))
                for p in match_value(w, a, f"{where}[{i}]")
            ]
    elif isinstance(actual, dict):
        if isinstance(want, dict) and set(want) == set(actual):
            return [p for k in want for p in match_value(want[k], actual[k], f"{where}.{k}")]
    elif (
        actual is not None and isinstance(want, bool) == isinstance(actual, bool) and want == actual
    ):
        return []
    return [f"{where}: expected {_show(want)}, got {_show(actual)}"]


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"type": type(value).__name__} | {
            f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)
        }
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _show(value: Any) -> str:
    return "none" if value is None else repr(_plain(value))


def _fail(case: Case, where: str, problems: list[str], events: Sequence[Event] = ()) -> NoReturn:
    lines = [case.heading, f"  at {where}:", *(f"  - {p}" for p in problems)]
    if events:
        lines.append("  events of the order:")
        lines += [f"    {_show(e)}" for e in events]
    pytest.fail("\n".join(lines), pytrace=False)
