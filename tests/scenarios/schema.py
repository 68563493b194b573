"""Reading scenario files: TOML in, checked cases out (the format is in README.md here).

Every key of a file is checked: an unknown key, an unknown order or event class, a field the
class does not have, an option that does not exist or a place the map lacks is a
:class:`ScenarioFileError` naming the file, the case, the order and what would be allowed.

Orders, events and refusals are looked up by class name (``Order.registry``,
``Event.registry``, the subclasses of ``RuleViolation``), after every module of
``caedes_bot.rules`` has been imported, so a file keeps working when a class moves between
modules.
"""

from __future__ import annotations

import importlib
import pkgutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

import caedes_bot.rules
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.engine import giver_of
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, TradeOffer, Unit
from tests.scenarios import board, checks
from tests.scenarios.board import FACTION_FIELDS
from tests.scenarios.checks import ROOT, ScenarioFileError

FILE_KEYS = {"title", "base", "map", "kinds", "options", "victory", "event", "setup", "case"}
CASE_KEYS = {"name", "rules", "says", "options", "setup", "order", "expect"}
ORDER_STEP_KEYS = {
    "by",
    "order",
    "dice",
    "events",
    "events_include",
    "events_count",
    "refused",
    "expect",
}
REFUSAL_KEYS = {
    "error",
    "rule",
    "message",
    "message_has",
    "allowed",
    "allowed_has",
    "allowed_starts",
    "suggestions",
    "suggestions_has",
}
#: expectations on the state; ``none`` lists attributes that must be ``None``
STATE_ATTRS = {
    "step",
    "active",
    "round",
    "finished",
    "winner",
    "passive",
    "trades",
    "alliances",
    "fealty",
    "battles_due",
    "turn_limit",
}
EXPECT_KEYS = STATE_ATTRS | {"owners", "unowned", "units", "unit", "gone", "factions", "none"}
UNIT_FIELDS = {f.name for f in fields(Unit)} - {"id"}
TRADE_FIELDS = {f.name for f in fields(TradeOffer)}
#: keys of an expected event that are not fields of the event
EVENT_EXTRA_KEYS = {"type", "audience", "none"}


# --------------------------------------------------------------------------- what a file holds


@dataclass(frozen=True)
class OrderStep:
    """One order of a case, with what is expected of it.

    ``events`` is ``None`` when the file does not list every event; ``refused`` is the expected
    refusal's table, or ``None`` when the order must be accepted; ``expect`` is checked on the
    state after the order (the unchanged state after a refusal).
    """

    number: int
    by: str
    order: Order
    dice: tuple[int, ...]
    events: tuple[Mapping[str, Any], ...] | None
    events_include: tuple[Mapping[str, Any], ...]
    events_count: Mapping[str, int]
    refused: Mapping[str, Any] | None
    expect: Mapping[str, Any]

    @property
    def label(self) -> str:
        return f"order {self.number} ({self.by}: {type(self.order).__name__})"


@dataclass(frozen=True)
class Case:
    """One case of a scenario file, ready to run."""

    path: Path
    test_id: str
    title: str
    name: str
    rules: tuple[str, ...]
    says: str
    ruleset: Ruleset
    state: GameState
    orders: tuple[OrderStep, ...]
    expect: Mapping[str, Any]

    @property
    def heading(self) -> str:
        """Where the case is and what it says, for failure messages."""
        where = checks.relative(self.path)
        named = f", case {self.name!r}" if self.name else ""
        return f"{where}{named} ({', '.join(self.rules)}): {self.title}.\n  {self.says}"


@dataclass(frozen=True)
class CaseRef:
    """Where a case is, found without checking the file (so one bad file fails alone)."""

    path: Path
    index: int
    test_id: str


# --------------------------------------------------------------------------- registries


@cache
def _rules_loaded() -> None:
    """Import every module of ``caedes_bot.rules`` so the registries hold every class."""
    for info in pkgutil.walk_packages(caedes_bot.rules.__path__, "caedes_bot.rules."):
        importlib.import_module(info.name)


def order_classes() -> Mapping[str, type[Order]]:
    _rules_loaded()
    return Order.registry


def event_classes() -> Mapping[str, type[Event]]:
    _rules_loaded()
    return Event.registry


def error_classes() -> Mapping[str, type[RuleViolation]]:
    """``RuleViolation`` and every subclass of it, by class name."""
    _rules_loaded()
    found: dict[str, type[RuleViolation]] = {}
    todo: list[type[RuleViolation]] = [RuleViolation]
    while todo:
        cls = todo.pop()
        found[cls.__name__] = cls
        todo.extend(cls.__subclasses__())
    return found


# --------------------------------------------------------------------------- finding files


def collect(root: Path = ROOT) -> list[CaseRef]:
    """Every case of every ``*.toml`` under ``root``, with its test id: the file's path below
    ``root`` without ``.toml``, plus ``/name`` when the file holds more than one case. A file
    that cannot even be parsed gives one entry, which fails when run."""
    refs: list[CaseRef] = []
    for path in sorted(root.rglob("*.toml")):
        stem = path.relative_to(root).with_suffix("").as_posix()
        try:
            cases = tomllib.loads(path.read_text(encoding="utf-8")).get("case")
        except tomllib.TOMLDecodeError:
            cases = None
        if not isinstance(cases, list) or len(cases) < 2:
            refs.append(CaseRef(path, 0, stem))
            continue
        for i, case in enumerate(cases):
            name = case.get("name") if isinstance(case, dict) else None
            refs.append(CaseRef(path, i, f"{stem}/{name if isinstance(name, str) else i + 1}"))
    return refs


def load(ref: CaseRef) -> Case:
    """Read and check the file of ``ref`` and build its case. Raises :class:`ScenarioFileError`."""
    where = checks.relative(ref.path)
    try:
        doc = tomllib.loads(ref.path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ScenarioFileError(f"{where}: not valid TOML: {err}") from None
    return load_document(doc, ref.path, ref.index, ref.test_id)


def load_document(doc: Mapping[str, Any], path: Path, index: int, test_id: str) -> Case:
    """Check a parsed file and build its case number ``index`` (from 0)."""
    where = checks.relative(path)
    checks.keys(doc, FILE_KEYS, where, required={"title", "case"})
    title = checks.text(doc["title"], f"{where}: title")
    cases = doc["case"]
    if not isinstance(cases, list) or not cases or not all(isinstance(c, dict) for c in cases):
        raise ScenarioFileError(f"{where}: give at least one [[case]] table")
    if len(cases) > 1:
        names = [c.get("name") for c in cases]
        if not all(isinstance(n, str) and n for n in names):
            raise ScenarioFileError(f"{where}: every case needs a name when a file holds several")
        if len(set(names)) != len(names):
            raise ScenarioFileError(f"{where}: two cases share a name")
    raw = cases[index]
    name = raw.get("name", "")
    here = f"{where}, case {name!r}" if name else where
    checks.keys(raw, CASE_KEYS, here, required={"rules", "says", "order"})
    rules = checks.rule_ids(raw["rules"], f"{here}: rules")
    says = checks.text(raw["says"], f"{here}: says")

    ruleset, state = board.build(doc, raw, where, here)

    steps = raw["order"]
    if not isinstance(steps, list) or not steps:
        raise ScenarioFileError(f"{here}: give at least one [[case.order]]")
    orders = tuple(
        _order_step(step, n, ruleset, state, here) for n, step in enumerate(steps, start=1)
    )
    expect = _expectation(raw.get("expect", {}), ruleset, state, f"{here}: [case.expect]")
    return Case(path, test_id, title, name, rules, says, ruleset, state, orders, expect)


# --------------------------------------------------------------------------- orders


def _order_step(item: Any, number: int, rs: Ruleset, st: GameState, where: str) -> OrderStep:
    here = f"{where}, order {number}"
    raw = checks.table(item, here)
    checks.keys(raw, ORDER_STEP_KEYS, here, required={"by", "order"})
    by = raw["by"]
    if by != "umpire":
        by = checks.faction(by, rs.turn_order, f"{here}: by")
    spec = dict(checks.table(raw["order"], f"{here}: order"))
    name = spec.pop("type", None)
    classes = order_classes()
    if not isinstance(name, str) or name not in classes:
        raise ScenarioFileError(f"{here}: unknown order type {name!r}{checks.near(name, classes)}")
    cls = classes[name]
    names = [f.name for f in fields(cls)]
    unknown = sorted(set(spec) - set(names))
    if unknown:
        raise ScenarioFileError(
            f"{here}: {name} has no field {', '.join(map(repr, unknown))}; its fields are "
            f"{', '.join(n for n in names if n != 'faction')}"
        )
    giver = giver_of(cls)
    umpires = giver is not None and giver.value == "umpire"
    if umpires != (by == "umpire"):
        who = "only by the umpire" if umpires else "by a faction"
        raise ScenarioFileError(f"{here}: the rules say {name} is given {who}; by = {by!r}")
    if by == "umpire":
        spec.setdefault("faction", "umpire")
    elif "faction" in spec:
        raise ScenarioFileError(
            f"{here}: a faction gives orders for itself; drop 'faction' (by = {by!r})"
        )
    else:
        spec["faction"] = by
    order = checks.validated(cls, spec, f"{here}: {name}")
    dice = tuple(raw.get("dice", ()))
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in dice):
        raise ScenarioFileError(f"{here}: dice must be a list of whole numbers")
    refused = raw.get("refused")
    if refused is not None:
        refused = _refusal(refused, f"{here}: refused")
        for key in ("events", "events_include", "events_count", "dice"):
            if key in raw:
                raise ScenarioFileError(f"{here}: a refused order has no {key}")
    events = raw.get("events")
    return OrderStep(
        number=number,
        by=by,
        order=order,
        dice=dice,
        events=None if events is None else _events(events, f"{here}: events"),
        events_include=_events(raw.get("events_include", []), f"{here}: events_include"),
        events_count=_event_counts(raw.get("events_count", {}), here),
        refused=refused,
        expect=_expectation(raw.get("expect", {}), rs, st, f"{here}: expect"),
    )


def _refusal(item: Any, where: str) -> Mapping[str, Any]:
    raw = checks.table(item, where)
    checks.keys(raw, REFUSAL_KEYS, where, required={"error", "rule"})
    errors = error_classes()
    if raw["error"] not in errors:
        raise ScenarioFileError(
            f"{where}: unknown error class {raw['error']!r}{checks.near(raw['error'], errors)}"
        )
    checks.rule_ids([raw["rule"]], f"{where}: rule")
    return raw


def _events(raw: Any, where: str) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(raw, list):
        raise ScenarioFileError(f"{where}: give a list of event tables")
    classes = event_classes()
    out = []
    for i, event in enumerate(raw, start=1):
        here = f"{where} #{i}"
        event = checks.table(event, here)
        name = event.get("type")
        if not isinstance(name, str) or name not in classes:
            raise ScenarioFileError(
                f"{here}: unknown event type {name!r}{checks.near(name, classes)}"
            )
        names = {f.name for f in fields(classes[name])}
        checks.keys(event, names | EVENT_EXTRA_KEYS, f"{here} ({name})")
        for field_name in event.get("none", []):
            if field_name not in names:
                raise ScenarioFileError(f"{here} ({name}): none lists {field_name!r}, no field")
        audience = event.get("audience")
        if audience is not None and audience != "everyone" and not isinstance(audience, list):
            raise ScenarioFileError(f"{here}: audience is 'everyone' or a list of factions")
        out.append(event)
    return tuple(out)


def _event_counts(raw: Any, where: str) -> Mapping[str, int]:
    counts = checks.table(raw, f"{where}: events_count")
    classes = event_classes()
    for name, count in counts.items():
        if name not in classes:
            raise ScenarioFileError(
                f"{where}: events_count: unknown event type {name!r}{checks.near(name, classes)}"
            )
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ScenarioFileError(f"{where}: events_count.{name}: give a whole number")
    return counts


# --------------------------------------------------------------------------- expectations


def _expectation(item: Any, rs: Ruleset, st: GameState, where: str) -> Mapping[str, Any]:
    raw = checks.table(item, where)
    checks.keys(raw, EXPECT_KEYS, where)
    for attr in raw.get("none", []):
        if attr not in STATE_ATTRS:
            raise ScenarioFileError(f"{where}: none lists {attr!r}; it takes {sorted(STATE_ATTRS)}")
    for province in [*checks.table(raw.get("owners", {}), where), *raw.get("unowned", [])]:
        if province not in rs.map.provinces:
            raise ScenarioFileError(
                f"{where}: no province {province!r}{checks.near(province, rs.map.provinces)}"
            )
    for space in checks.table(raw.get("units", {}), where):
        checks.space(rs, space, f"{where}: units")
    for uid, unit in checks.table(raw.get("unit", {}), where).items():
        if not uid.isdigit():
            raise ScenarioFileError(f"{where}: unit.{uid}: unit ids are numbers")
        checks.keys(
            checks.table(unit, f"{where}: unit.{uid}"),
            UNIT_FIELDS | {"none"},
            f"{where}: unit.{uid}",
        )
    for code, fs in checks.table(raw.get("factions", {}), where).items():
        checks.faction(code, st.in_play, f"{where}: factions")
        checks.keys(
            checks.table(fs, f"{where}: factions.{code}"),
            FACTION_FIELDS,
            f"{where}: factions.{code}",
        )
    for i, trade in enumerate(raw.get("trades", []), start=1):
        checks.keys(
            checks.table(trade, f"{where}: trades #{i}"), TRADE_FIELDS, f"{where}: trades #{i}"
        )
    if "step" in raw:
        checks.step(raw["step"], f"{where}: step")
    return raw
