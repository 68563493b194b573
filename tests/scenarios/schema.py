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

import dataclasses
import difflib
import importlib
import pkgutil
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

import caedes_bot.rules
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import OPTION_CHOICES, Options, Ruleset
from caedes_bot.rules.engine import giver_of
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import FactionState, GameState, Step, TradeOffer, Unit
from tests.rules import builders

ROOT = Path(__file__).parent
T = TypeVar("T")
SEED = "scenario"
RULE_ID = re.compile(r"^R(-[A-Z0-9]+)+$")

FILE_KEYS = {"title", "base", "map", "kinds", "options", "setup", "case"}
MAP_KEYS = {
    "provinces",
    "borders",
    "rivers",
    "navigable",
    "seas",
    "coasts",
    "sea_borders",
    "islands",
    "rp",
    "commodities",
}
KIND_KEYS = {"faction", "type", "attributes", "cost", "race", "hero", "name"}
CASE_KEYS = {"name", "rules", "says", "options", "setup", "order", "expect"}
TURN_SETUP_KEYS = {
    "start",
    "active",
    "step",
    "round",
    "in_play",
    "owners",
    "alliances",
    "fealty",
    "turn_limit",
    "units",
    "factions",
}
NEW_GAME_SETUP_KEYS = {"start", "owners", "alliances", "fealty", "turn_limit", "units", "factions"}
NEW_GAME_FACTION_KEYS = {"rp", "commodities"}
ORDER_STEP_KEYS = {"by", "order", "dice", "events", "events_include", "events_count"}
ORDER_STEP_KEYS |= {"refused", "expect"}
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
UNIT_SETUP_FIELDS = {f.name for f in fields(Unit)} - {"id", "location", "muster_seq"}
UNIT_FIELDS = {f.name for f in fields(Unit)} - {"id"}
FACTION_FIELDS = {f.name for f in fields(FactionState)} - {"code"}
TRADE_FIELDS = {f.name for f in fields(TradeOffer)}
#: keys of an expected event that are not fields of the event
EVENT_EXTRA_KEYS = {"type", "audience", "none"}


class ScenarioFileError(Exception):
    """A scenario file that breaks the format; the message names the file and the place."""


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
        where = _relative(self.path)
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


@cache
def _shipped_ruleset() -> Ruleset:
    return load_ruleset()


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
    where = _relative(ref.path)
    try:
        doc = tomllib.loads(ref.path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ScenarioFileError(f"{where}: not valid TOML: {err}") from None
    return load_document(doc, ref.path, ref.index, ref.test_id)


def load_document(doc: Mapping[str, Any], path: Path, index: int, test_id: str) -> Case:
    """Check a parsed file and build its case number ``index`` (from 0)."""
    where = _relative(path)
    _keys(doc, FILE_KEYS, where, required={"title", "case"})
    title = _text(doc["title"], f"{where}: title")
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
    _keys(raw, CASE_KEYS, here, required={"rules", "says", "order"})
    rules = _rule_ids(raw["rules"], f"{here}: rules")
    says = _text(raw["says"], f"{here}: says")

    base = doc.get("base", "test")
    options = {**_table(doc.get("options", {}), f"{where}: [options]")}
    options.update(_table(raw.get("options", {}), f"{here}: [case.options]"))
    setup = _merged_setup(doc.get("setup", {}), raw.get("setup", {}), here)
    if base == "test":
        ruleset = _test_ruleset(doc, where)
        state = _test_state(ruleset, setup, here)
    elif base == "skirmish":
        for key in ("map", "kinds"):
            if key in doc:
                raise ScenarioFileError(f"{where}: [{key}] is only for base = 'test'")
        ruleset = _shipped_ruleset()
        state = _scenario_state(ruleset, "skirmish", setup, here)
    else:
        raise ScenarioFileError(f"{where}: base must be 'test' or 'skirmish', not {base!r}")
    state.options = _options(state.options, options, here)

    steps = raw["order"]
    if not isinstance(steps, list) or not steps:
        raise ScenarioFileError(f"{here}: give at least one [[case.order]]")
    orders = tuple(
        _order_step(step, n, ruleset, state, here) for n, step in enumerate(steps, start=1)
    )
    expect = _expectation(raw.get("expect", {}), ruleset, state, f"{here}: [case.expect]")
    return Case(path, test_id, title, name, rules, says, ruleset, state, orders, expect)


# --------------------------------------------------------------------------- the board


def _test_ruleset(doc: Mapping[str, Any], where: str) -> Ruleset:
    """The hand-drawn map and unit kinds of a ``base = 'test'`` file (tests/rules/builders)."""
    raw_map = _table(doc.get("map"), f"{where}: [map]")
    _keys(raw_map, MAP_KEYS, f"{where}: [map]", required={"provinces"})
    provinces = {
        p: tuple(_strings(t, f"{where}: map.provinces.{p}"))
        for p, t in _table(raw_map["provinces"], f"{where}: map.provinces").items()
    }
    kinds = []
    for kind_id, spec in _table(doc.get("kinds", {}), f"{where}: [kinds]").items():
        spec = _table(spec, f"{where}: kinds.{kind_id}")
        _keys(spec, KIND_KEYS, f"{where}: kinds.{kind_id}", required={"faction"})
        race = spec.get("race", "default")
        try:
            kinds.append(
                builders.kind(
                    kind_id,
                    spec["faction"],
                    spec.get("type", "infantry"),
                    spec.get("attributes", ()),
                    cost=spec.get("cost"),
                    race=None if race == "none" else race,
                    hero=spec.get("hero", False),
                    name=spec.get("name"),
                )
            )
        except ValueError as err:
            raise ScenarioFileError(f"{where}: kinds.{kind_id}: {err}") from None

    def pairs(key: str) -> list[tuple[str, str]]:
        out = []
        for pair in raw_map.get(key, []):
            names = _strings(pair, f"{where}: map.{key}")
            if len(names) != 2:
                raise ScenarioFileError(f"{where}: map.{key}: {pair!r} is not a pair")
            out.append((names[0], names[1]))
        return out

    borders = pairs("borders") + pairs("rivers") + pairs("navigable")
    known = set(provinces) | set(raw_map.get("seas", [])) | {s for _, s in pairs("coasts")}
    for a, b in [*borders, *pairs("coasts"), *pairs("sea_borders")]:
        for space in (a, b):
            if space not in known:
                raise ScenarioFileError(f"{where}: [map] names {space!r}, which it never defines")
    commodities = {
        p: tuple(_strings(c, f"{where}: map.commodities.{p}"))
        for p, c in _table(raw_map.get("commodities", {}), f"{where}: map.commodities").items()
    }
    return builders.ruleset(
        provinces=provinces,
        borders=pairs("borders"),
        rivers=pairs("rivers"),
        navigable=pairs("navigable"),
        seas=_strings(raw_map.get("seas", []), f"{where}: map.seas"),
        coasts=pairs("coasts"),
        sea_borders=pairs("sea_borders"),
        islands=dict(_table(raw_map.get("islands", {}), f"{where}: map.islands")),
        rp=dict(_table(raw_map.get("rp", {}), f"{where}: map.rp")),
        commodities=commodities,
        kinds=kinds,
    )


def _merged_setup(file_setup: Any, case_setup: Any, where: str) -> dict[str, Any]:
    """The file's [setup] with the case's on top: key by key, and faction by faction under
    ``factions``."""
    merged = dict(_table(file_setup, f"{where}: [setup]"))
    for key, value in _table(case_setup, f"{where}: [case.setup]").items():
        if key == "factions" and isinstance(value, dict):
            factions = dict(_table(merged.get("factions", {}), f"{where}: setup.factions"))
            for code, fields_ in value.items():
                factions[code] = {**factions.get(code, {}), **fields_}
            merged[key] = factions
        else:
            merged[key] = value
    return merged


def _test_state(rs: Ruleset, setup: Mapping[str, Any], where: str) -> GameState:
    start = setup.get("start", "turn")
    if start == "new_game":
        return _new_game_on_test_map(rs, setup, where)
    if start != "turn":
        raise ScenarioFileError(f"{where}: setup.start must be 'turn' or 'new_game'")
    _keys(setup, TURN_SETUP_KEYS, f"{where}: [setup]")
    codes = rs.turn_order
    in_play = [_faction(c, codes, f"{where}: setup.in_play") for c in setup.get("in_play", codes)]
    active = _faction(setup.get("active", "DAW"), in_play, f"{where}: setup.active")
    placed = _units(rs, setup.get("units", {}), f"{where}: setup.units", flags=True)
    st = builders.state(
        rs,
        units=[(kind, owner, space) for kind, owner, space, _ in placed],
        owners=_owners(rs, setup.get("owners", {}), in_play, where),
        active=active,
        step=_step(setup.get("step", "move"), f"{where}: setup.step"),
        in_play=in_play,
        round=setup.get("round", 1),
    )
    for uid, (_, _, _, flags) in enumerate(placed, start=1):
        if flags:
            st.units[str(uid)] = _validated(
                Unit, {**dataclasses.asdict(st.unit(uid)), **flags}, f"{where}: unit {uid}"
            )
    for code, raw in _table(setup.get("factions", {}), f"{where}: setup.factions").items():
        code = _faction(code, in_play, f"{where}: setup.factions")
        raw = _table(raw, f"{where}: setup.factions.{code}")
        _keys(raw, FACTION_FIELDS, f"{where}: setup.factions.{code}")
        fs = st.factions[code]
        if "purchases" in raw and "purchase_prices" not in raw:
            raw = {**raw, "purchase_prices": [_cost(rs, k, where) for k in raw["purchases"]]}
        st.factions[code] = _validated(
            FactionState, {**dataclasses.asdict(fs), **raw}, f"{where}: setup.factions.{code}"
        )
    st.alliances = [sorted(g) for g in setup.get("alliances", [])]
    st.fealty = dict(setup.get("fealty", {}))
    st.turn_limit = setup.get("turn_limit")
    # Everything placed by the setup stood on the board when the current step began.
    st.muster_start_seq = st.mustered_seq
    return st


def _new_game_on_test_map(rs: Ruleset, setup: Mapping[str, Any], where: str) -> GameState:
    """The campaign before its first round, from starting positions on the test map."""
    _keys(setup, NEW_GAME_SETUP_KEYS, f"{where}: [setup] (start = 'new_game')")
    factions = _table(setup.get("factions"), f"{where}: setup.factions (start = 'new_game')")
    start: dict[str, tuple[int, Mapping[str, int]]] = {}
    for code, raw in factions.items():
        code = _faction(code, rs.turn_order, f"{where}: setup.factions")
        raw = _table(raw, f"{where}: setup.factions.{code}")
        _keys(raw, NEW_GAME_FACTION_KEYS, f"{where}: setup.factions.{code} (start = 'new_game')")
        start[code] = (raw.get("rp", 0), dict(raw.get("commodities", {})))
    placed = _units(rs, setup.get("units", {}), f"{where}: setup.units", flags=False)
    rs = builders.with_scenario(
        rs,
        factions=start,
        owners=_owners(rs, setup.get("owners", {}), list(start), where),
        units=[(kind, space, 1) for kind, _, space, _ in placed],
        turn_limit=setup.get("turn_limit"),
        alliances=setup.get("alliances", ()),
        fealty=setup.get("fealty"),
    )
    return new_game(rs, "test", SEED)


def _scenario_state(rs: Ruleset, scenario: str, setup: Mapping[str, Any], where: str) -> GameState:
    """A shipped scenario before its first round, with the setup's owners and treasuries."""
    if setup.get("start", "new_game") != "new_game":
        raise ScenarioFileError(f"{where}: a shipped scenario starts with start = 'new_game'")
    _keys(setup, {"start", "owners", "factions"}, f"{where}: [setup] (base = {scenario!r})")
    st = new_game(rs, scenario, SEED)
    st.owners.update(_owners(rs, setup.get("owners", {}), st.in_play, where))
    for code, raw in _table(setup.get("factions", {}), f"{where}: setup.factions").items():
        code = _faction(code, st.in_play, f"{where}: setup.factions")
        raw = _table(raw, f"{where}: setup.factions.{code}")
        _keys(raw, NEW_GAME_FACTION_KEYS, f"{where}: setup.factions.{code}")
        if "rp" in raw:
            st.factions[code].rp = raw["rp"]
        if "commodities" in raw:
            st.factions[code].commodities = dict(raw["commodities"])
    return st


def _units(
    rs: Ruleset, raw: Any, where: str, *, flags: bool
) -> list[tuple[str, str, str, dict[str, Any]]]:
    """``{place = [kind or {kind = ..., flag = ...}, ...]}`` as (kind, owner, place, flags), in
    the order written: unit ids follow that order from 1."""
    out = []
    for space, entries in _table(raw, where).items():
        _space(rs, space, where)
        if not isinstance(entries, list):
            raise ScenarioFileError(f"{where}.{space}: give a list of unit kinds")
        for entry in entries:
            extra: dict[str, Any] = {}
            if isinstance(entry, dict):
                if not flags:
                    raise ScenarioFileError(
                        f"{where}.{space}: units of a new game are kind names only"
                    )
                _keys(entry, UNIT_SETUP_FIELDS, f"{where}.{space}", required={"kind"})
                extra = {k: v for k, v in entry.items() if k != "kind"}
                entry = entry["kind"]
            if not isinstance(entry, str) or entry not in rs.units:
                raise ScenarioFileError(
                    f"{where}.{space}: unknown unit kind {entry!r}{_near(entry, rs.units)}"
                )
            owner = extra.pop("owner", rs.units[entry].faction)
            out.append((entry, owner, space, extra))
    return out


def _owners(rs: Ruleset, raw: Any, codes: Iterable[str], where: str) -> dict[str, str]:
    owners = {}
    for province, owner in _table(raw, f"{where}: setup.owners").items():
        if province not in rs.map.provinces:
            raise ScenarioFileError(
                f"{where}: setup.owners: no province {province!r}{_near(province, rs.map.provinces)}"
            )
        owners[province] = _faction(owner, list(codes), f"{where}: setup.owners.{province}")
    return owners


# --------------------------------------------------------------------------- orders


def _order_step(raw: Any, number: int, rs: Ruleset, st: GameState, where: str) -> OrderStep:
    here = f"{where}, order {number}"
    raw = _table(raw, here)
    _keys(raw, ORDER_STEP_KEYS, here, required={"by", "order"})
    by = raw["by"]
    if by != "umpire":
        by = _faction(by, rs.turn_order, f"{here}: by")
    spec = dict(_table(raw["order"], f"{here}: order"))
    name = spec.pop("type", None)
    classes = order_classes()
    if not isinstance(name, str) or name not in classes:
        raise ScenarioFileError(f"{here}: unknown order type {name!r}{_near(name, classes)}")
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
    order = _validated(cls, spec, f"{here}: {name}")
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


def _refusal(raw: Any, where: str) -> Mapping[str, Any]:
    raw = _table(raw, where)
    _keys(raw, REFUSAL_KEYS, where, required={"error", "rule"})
    errors = error_classes()
    if raw["error"] not in errors:
        raise ScenarioFileError(
            f"{where}: unknown error class {raw['error']!r}{_near(raw['error'], errors)}"
        )
    _rule_ids([raw["rule"]], f"{where}: rule")
    return raw


def _events(raw: Any, where: str) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(raw, list):
        raise ScenarioFileError(f"{where}: give a list of event tables")
    classes = event_classes()
    out = []
    for i, event in enumerate(raw, start=1):
        here = f"{where} #{i}"
        event = _table(event, here)
        name = event.get("type")
        if not isinstance(name, str) or name not in classes:
            raise ScenarioFileError(f"{here}: unknown event type {name!r}{_near(name, classes)}")
        names = {f.name for f in fields(classes[name])}
        _keys(event, names | EVENT_EXTRA_KEYS, f"{here} ({name})")
        for field_name in event.get("none", []):
            if field_name not in names:
                raise ScenarioFileError(f"{here} ({name}): none lists {field_name!r}, no field")
        audience = event.get("audience")
        if audience is not None and audience != "everyone" and not isinstance(audience, list):
            raise ScenarioFileError(f"{here}: audience is 'everyone' or a list of factions")
        out.append(event)
    return tuple(out)


def _event_counts(raw: Any, where: str) -> Mapping[str, int]:
    counts = _table(raw, f"{where}: events_count")
    classes = event_classes()
    for name, count in counts.items():
        if name not in classes:
            raise ScenarioFileError(
                f"{where}: events_count: unknown event type {name!r}{_near(name, classes)}"
            )
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ScenarioFileError(f"{where}: events_count.{name}: give a whole number")
    return counts


# --------------------------------------------------------------------------- expectations


def _expectation(raw: Any, rs: Ruleset, st: GameState, where: str) -> Mapping[str, Any]:
    raw = _table(raw, where)
    _keys(raw, EXPECT_KEYS, where)
    for attr in raw.get("none", []):
        if attr not in STATE_ATTRS:
            raise ScenarioFileError(f"{where}: none lists {attr!r}; it takes {sorted(STATE_ATTRS)}")
    for province in [*_table(raw.get("owners", {}), where), *raw.get("unowned", [])]:
        if province not in rs.map.provinces:
            raise ScenarioFileError(
                f"{where}: no province {province!r}{_near(province, rs.map.provinces)}"
            )
    for space in _table(raw.get("units", {}), where):
        _space(rs, space, f"{where}: units")
    for uid, unit in _table(raw.get("unit", {}), where).items():
        if not uid.isdigit():
            raise ScenarioFileError(f"{where}: unit.{uid}: unit ids are numbers")
        _keys(_table(unit, f"{where}: unit.{uid}"), UNIT_FIELDS | {"none"}, f"{where}: unit.{uid}")
    for code, fs in _table(raw.get("factions", {}), where).items():
        _faction(code, st.in_play, f"{where}: factions")
        _keys(_table(fs, f"{where}: factions.{code}"), FACTION_FIELDS, f"{where}: factions.{code}")
    for i, trade in enumerate(raw.get("trades", []), start=1):
        _keys(_table(trade, f"{where}: trades #{i}"), TRADE_FIELDS, f"{where}: trades #{i}")
    if "step" in raw:
        _step(raw["step"], f"{where}: step")
    return raw


# --------------------------------------------------------------------------- small checks


def _keys(
    table: Mapping[str, Any], allowed: set[str], where: str, *, required: Iterable[str] = ()
) -> None:
    for key in table:
        if key not in allowed:
            raise ScenarioFileError(
                f"{where}: unknown key {key!r}{_near(key, allowed)}; allowed: "
                f"{', '.join(sorted(allowed))}"
            )
    for key in required:
        if key not in table:
            raise ScenarioFileError(f"{where}: missing key {key!r}")


def _near(name: object, choices: Iterable[str]) -> str:
    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name, list(choices), n=3)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def _table(value: Any, where: str) -> Mapping[str, Any]:
    if value is None:
        raise ScenarioFileError(f"{where}: missing")
    if not isinstance(value, dict):
        raise ScenarioFileError(f"{where}: expected a table, got {value!r}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ScenarioFileError(f"{where}: give some text")
    return " ".join(value.split())


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioFileError(f"{where}: expected a list of names, got {value!r}")
    return value


def _rule_ids(value: Any, where: str) -> tuple[str, ...]:
    ids = _strings(value, where)
    if not ids:
        raise ScenarioFileError(f"{where}: name at least one rule ID")
    for rule in ids:
        if not RULE_ID.match(rule):
            raise ScenarioFileError(f"{where}: {rule!r} is not a rule ID like R-MOVE-06")
    return tuple(ids)


def _faction(code: Any, codes: Iterable[str], where: str) -> str:
    codes = list(codes)
    if code not in codes:
        raise ScenarioFileError(
            f"{where}: {code!r} is not a faction here; factions: {', '.join(codes)}"
        )
    return str(code)


def _space(rs: Ruleset, space: str, where: str) -> None:
    m = rs.map
    if space not in m.provinces and space not in m.sea_zones and space not in m.rivers:
        spaces = [*m.provinces, *m.sea_zones, *m.rivers]
        raise ScenarioFileError(f"{where}: no space {space!r}{_near(space, spaces)}")


def _step(value: Any, where: str) -> Step:
    try:
        if isinstance(value, str):
            return Step[value.upper()]
        if isinstance(value, int) and not isinstance(value, bool):
            return Step(value)
    except (KeyError, ValueError):
        pass
    names = ", ".join(s.name.lower() for s in Step)
    raise ScenarioFileError(f"{where}: {value!r} is not a step; give 1..8 or one of {names}")


def _cost(rs: Ruleset, kind_id: str, where: str) -> int:
    kind = rs.units.get(kind_id)
    if kind is None or kind.cost is None:
        raise ScenarioFileError(f"{where}: purchases: {kind_id!r} is not a unit kind with a cost")
    return kind.cost


def _options(base: Options, raw: Mapping[str, Any], where: str) -> Options:
    """``base`` with the options of ``raw``, each checked against its default's type and, for
    an enumerated option, its choices."""
    defaults = Options()
    known = {f.name for f in fields(Options)}
    changes: dict[str, object] = {}
    for key, value in raw.items():
        if key not in known:
            raise ScenarioFileError(f"{where}: unknown option {key!r}{_near(key, known)}")
        default = getattr(defaults, key)
        ok = (
            isinstance(value, bool)
            if isinstance(default, bool)
            else isinstance(value, int | float) and not isinstance(value, bool)
            if isinstance(default, float)
            else isinstance(value, int) and not isinstance(value, bool)
            if isinstance(default, int)
            else isinstance(value, str)
            if isinstance(default, str)
            else isinstance(value, list) and all(isinstance(v, str) for v in value)
        )
        if not ok:
            raise ScenarioFileError(
                f"{where}: option {key} takes a value like {default!r}, not {value!r}"
            )
        choices = OPTION_CHOICES.get(key)
        if choices is not None and value not in choices:
            raise ScenarioFileError(f"{where}: option {key} is one of {', '.join(choices)}")
        changes[key] = tuple(value) if isinstance(value, list) else value
    return replace(base, **changes)  # type: ignore[arg-type]


@cache
def _adapter(cls: type[T]) -> TypeAdapter[T]:
    return TypeAdapter(cls)


def _validated(cls: type[T], data: Mapping[str, Any], where: str) -> T:
    try:
        return _adapter(cls).validate_python(dict(data))
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in err.errors()
        )
        raise ScenarioFileError(f"{where}: {problems}") from None


def _relative(path: Path) -> str:
    try:
        return path.relative_to(ROOT.parent.parent).as_posix()
    except ValueError:
        return path.as_posix()
