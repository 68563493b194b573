"""The board a scenario case starts from: the ruleset and the state of its ``[map]``,
``[kinds]``, ``[options]`` and ``[setup]`` tables (README.md here says what each holds)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import fields, replace
from functools import cache
from pathlib import Path
from typing import Any

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import OPTION_CHOICES, Options, Ruleset, ScenarioVictory
from caedes_bot.gamedata.options import OptionNotBuilt, check_option_built
from caedes_bot.gamedata.scenario_events import load_events
from caedes_bot.gamedata.schema import DataReader
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import FactionState, GameState, Unit
from tests.rules import builders
from tests.scenarios import checks
from tests.scenarios.checks import ScenarioFileError

SEED = "scenario"
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
UNIT_SETUP_FIELDS = {f.name for f in fields(Unit)} - {"id", "location", "muster_seq"}
FACTION_FIELDS = {f.name for f in fields(FactionState)} - {"code"}


def build(
    doc: Mapping[str, Any], case: Mapping[str, Any], where: str, here: str
) -> tuple[Ruleset, GameState]:
    """The ruleset and starting state of ``case`` in the file ``doc``; ``where`` names the
    file and ``here`` the case in messages."""
    base = doc.get("base", "test")
    options = {**checks.table(doc.get("options", {}), f"{where}: [options]")}
    options.update(checks.table(case.get("options", {}), f"{here}: [case.options]"))
    setup = _merged_setup(doc.get("setup", {}), case.get("setup", {}), here)
    if base == "test":
        ruleset = _with_victory(_test_ruleset(doc, where), doc.get("victory"), where)
        ruleset = _with_events(ruleset, doc.get("event"), where)
        state = _test_state(ruleset, setup, here)
    elif base == "skirmish":
        for key in ("map", "kinds"):
            if key in doc:
                raise ScenarioFileError(f"{where}: [{key}] is only for base = 'test'")
        ruleset = shipped_ruleset()
        state = _scenario_state(ruleset, "skirmish", setup, here)
    else:
        raise ScenarioFileError(f"{where}: base must be 'test' or 'skirmish', not {base!r}")
    state.options = _options(state.options, options, here)
    return ruleset, state


def _with_victory(rs: Ruleset, raw: Any, where: str) -> Ruleset:
    """The ruleset with the ``[victory]`` of the file as its scenario's own conditions
    (R-VIC-06): ``replaces`` (``military``, ``diplomatic``) and ``hold`` (lists of provinces)."""
    if raw is None:
        return rs
    table = checks.table(raw, f"{where}: [victory]")
    checks.keys(table, {"replaces", "hold"}, f"{where}: [victory]")
    replaces = checks.strings(table.get("replaces", []), f"{where}: victory.replaces")
    for name in replaces:
        if name not in ("military", "diplomatic"):
            raise ScenarioFileError(
                f"{where}: victory.replaces: {name!r} is not 'military' or 'diplomatic'"
            )
    holds = []
    for index, provinces in enumerate(table.get("hold", [])):
        names = checks.strings(provinces, f"{where}: victory.hold.{index}")
        for name in names:
            if name not in rs.map.provinces:
                raise ScenarioFileError(f"{where}: victory.hold.{index}: no province {name!r}")
        holds.append(frozenset(names))
    victory = ScenarioVictory(frozenset(replaces), tuple(holds))
    scenario = replace(rs.scenarios["test"], victory=victory)
    return replace(rs, scenarios={"test": scenario})


def _with_events(rs: Ruleset, raw: Any, where: str) -> Ruleset:
    """The ruleset with the ``[[event]]`` tables of the file as its scenario's events
    (R-SETUP-01), read by the game data loader itself, so they are checked as a scenario file's
    are; any problem stops the case with the loader's message."""
    if raw is None:
        return rs
    if not isinstance(raw, list):
        raise ScenarioFileError(f"{where}: give the events as [[event]] tables")
    reader = DataReader(Path("."))
    events = load_events(reader, where, raw, rs.turn_order, rs.units, rs.map, None)
    if reader.problems:
        raise ScenarioFileError("; ".join(reader.problems))
    scenario = replace(rs.scenarios["test"], events=events)
    return replace(rs, scenarios={"test": scenario})


def _test_ruleset(doc: Mapping[str, Any], where: str) -> Ruleset:
    """The hand-drawn map and unit kinds of a ``base = 'test'`` file (tests/rules/builders)."""
    raw_map = checks.table(doc.get("map"), f"{where}: [map]")
    checks.keys(raw_map, MAP_KEYS, f"{where}: [map]", required={"provinces"})
    provinces = {
        p: tuple(checks.strings(t, f"{where}: map.provinces.{p}"))
        for p, t in checks.table(raw_map["provinces"], f"{where}: map.provinces").items()
    }
    kinds = []
    for kind_id, spec in checks.table(doc.get("kinds", {}), f"{where}: [kinds]").items():
        spec = checks.table(spec, f"{where}: kinds.{kind_id}")
        checks.keys(spec, KIND_KEYS, f"{where}: kinds.{kind_id}", required={"faction"})
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
            names = checks.strings(pair, f"{where}: map.{key}")
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
        p: tuple(checks.strings(c, f"{where}: map.commodities.{p}"))
        for p, c in checks.table(
            raw_map.get("commodities", {}), f"{where}: map.commodities"
        ).items()
    }
    return builders.ruleset(
        provinces=provinces,
        borders=pairs("borders"),
        rivers=pairs("rivers"),
        navigable=pairs("navigable"),
        seas=checks.strings(raw_map.get("seas", []), f"{where}: map.seas"),
        coasts=pairs("coasts"),
        sea_borders=pairs("sea_borders"),
        islands=dict(checks.table(raw_map.get("islands", {}), f"{where}: map.islands")),
        rp=dict(checks.table(raw_map.get("rp", {}), f"{where}: map.rp")),
        commodities=commodities,
        kinds=kinds,
    )


def _merged_setup(file_setup: Any, case_setup: Any, where: str) -> dict[str, Any]:
    """The file's [setup] with the case's on top: key by key, and faction by faction under
    ``factions``."""
    merged = dict(checks.table(file_setup, f"{where}: [setup]"))
    for key, value in checks.table(case_setup, f"{where}: [case.setup]").items():
        if key == "factions" and isinstance(value, dict):
            factions = dict(checks.table(merged.get("factions", {}), f"{where}: setup.factions"))
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
    checks.keys(setup, TURN_SETUP_KEYS, f"{where}: [setup]")
    codes = rs.turn_order
    in_play = [
        checks.faction(c, codes, f"{where}: setup.in_play") for c in setup.get("in_play", codes)
    ]
    active = checks.faction(setup.get("active", "DAW"), in_play, f"{where}: setup.active")
    placed = _units(rs, setup.get("units", {}), f"{where}: setup.units", flags=True)
    st = builders.state(
        rs,
        units=[(kind, owner, space) for kind, owner, space, _ in placed],
        owners=_owners(rs, setup.get("owners", {}), in_play, where),
        active=active,
        step=checks.step(setup.get("step", "move"), f"{where}: setup.step"),
        in_play=in_play,
        round=setup.get("round", 1),
    )
    for uid, (_, _, _, flags) in enumerate(placed, start=1):
        if flags:
            st.units[str(uid)] = checks.validated(
                Unit, {**dataclasses.asdict(st.unit(uid)), **flags}, f"{where}: unit {uid}"
            )
    for code, raw in checks.table(setup.get("factions", {}), f"{where}: setup.factions").items():
        code = checks.faction(code, in_play, f"{where}: setup.factions")
        raw = checks.table(raw, f"{where}: setup.factions.{code}")
        checks.keys(raw, FACTION_FIELDS, f"{where}: setup.factions.{code}")
        fs = st.factions[code]
        if "purchases" in raw and "purchase_prices" not in raw:
            raw = {**raw, "purchase_prices": [_cost(rs, k, where) for k in raw["purchases"]]}
        st.factions[code] = checks.validated(
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
    checks.keys(setup, NEW_GAME_SETUP_KEYS, f"{where}: [setup] (start = 'new_game')")
    factions = checks.table(setup.get("factions"), f"{where}: setup.factions (start = 'new_game')")
    start: dict[str, tuple[int, Mapping[str, int]]] = {}
    for code, raw in factions.items():
        code = checks.faction(code, rs.turn_order, f"{where}: setup.factions")
        raw = checks.table(raw, f"{where}: setup.factions.{code}")
        checks.keys(
            raw, NEW_GAME_FACTION_KEYS, f"{where}: setup.factions.{code} (start = 'new_game')"
        )
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
    checks.keys(setup, {"start", "owners", "factions"}, f"{where}: [setup] (base = {scenario!r})")
    st = new_game(rs, scenario, SEED)
    st.owners.update(_owners(rs, setup.get("owners", {}), st.in_play, where))
    for code, raw in checks.table(setup.get("factions", {}), f"{where}: setup.factions").items():
        code = checks.faction(code, st.in_play, f"{where}: setup.factions")
        raw = checks.table(raw, f"{where}: setup.factions.{code}")
        checks.keys(raw, NEW_GAME_FACTION_KEYS, f"{where}: setup.factions.{code}")
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
    for space, entries in checks.table(raw, where).items():
        checks.space(rs, space, where)
        if not isinstance(entries, list):
            raise ScenarioFileError(f"{where}.{space}: give a list of unit kinds")
        for entry in entries:
            extra: dict[str, Any] = {}
            if isinstance(entry, dict):
                if not flags:
                    raise ScenarioFileError(
                        f"{where}.{space}: units of a new game are kind names only"
                    )
                checks.keys(entry, UNIT_SETUP_FIELDS, f"{where}.{space}", required={"kind"})
                extra = {k: v for k, v in entry.items() if k != "kind"}
                entry = entry["kind"]
            if not isinstance(entry, str) or entry not in rs.units:
                raise ScenarioFileError(
                    f"{where}.{space}: unknown unit kind {entry!r}{checks.near(entry, rs.units)}"
                )
            owner = extra.pop("owner", rs.units[entry].faction)
            out.append((entry, owner, space, extra))
    return out


def _owners(rs: Ruleset, raw: Any, codes: Iterable[str], where: str) -> dict[str, str]:
    owners = {}
    for province, owner in checks.table(raw, f"{where}: setup.owners").items():
        if province not in rs.map.provinces:
            raise ScenarioFileError(
                f"{where}: setup.owners: no province {province!r}{checks.near(province, rs.map.provinces)}"
            )
        owners[province] = checks.faction(owner, list(codes), f"{where}: setup.owners.{province}")
    return owners


def _cost(rs: Ruleset, kind_id: str, where: str) -> int:
    kind = rs.units.get(kind_id)
    if kind is None or kind.cost is None:
        raise ScenarioFileError(f"{where}: purchases: {kind_id!r} is not a unit kind with a cost")
    return kind.cost


def _options(base: Options, raw: Mapping[str, Any], where: str) -> Options:
    """``base`` with the options of ``raw``, each checked against its default's type and, for
    an enumerated option, its choices; an option whose rule is not built yet keeps its
    default, as in the game data."""
    defaults = Options()
    known = {f.name for f in fields(Options)}
    changes: dict[str, object] = {}
    for key, value in raw.items():
        if key not in known:
            raise ScenarioFileError(f"{where}: unknown option {key!r}{checks.near(key, known)}")
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
        try:
            check_option_built(key, value)
        except OptionNotBuilt as err:
            raise ScenarioFileError(f"{where}: {err}") from None
        changes[key] = tuple(value) if isinstance(value, list) else value
    return replace(base, **changes)  # type: ignore[arg-type]


@cache
def shipped_ruleset() -> Ruleset:
    return load_ruleset()
