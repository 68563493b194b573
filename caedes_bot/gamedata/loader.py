"""Load the game data in ``config/caedes/`` into a frozen :class:`~caedes_bot.gamedata.model.Ruleset`.

The data is TOML (read with :mod:`tomllib`), checked in two passes:

1. **Shape**: every item is validated on its own by a pydantic schema that forbids unknown
   keys, so one bad entry does not hide the others (:mod:`~caedes_bot.gamedata.schema`).
2. **Meaning**: names are resolved (unit kinds, factions, provinces, sea zones, races,
   attributes, terrains, commodities, options) with near-match suggestions, and the
   cross-checks below run over everything that parsed.

This module is the entry point and reads ``factions.toml`` and ``turn.toml``; the other files
are read by :mod:`~caedes_bot.gamedata.units` (``unit_types.toml``, ``units.toml``),
:mod:`~caedes_bot.gamedata.options` (``options.toml``), :mod:`~caedes_bot.gamedata.maps`
(``map.toml``) and :mod:`~caedes_bot.gamedata.scenarios` (``scenarios/*.toml``); the checks
between files are in :mod:`~caedes_bot.gamedata.checks`.

Every problem found is collected; if there are any, :class:`GameDataError` is raised once with
all of them, each naming its file and item. Nothing is half-loaded.

Cross-checks (rule IDs in brackets):

* ids unique and well formed;
* ``turn.toml``: the eight known steps, each once [R-TURN-02]; every faction of
  ``factions.toml`` once in the turn order, and nothing else [R-TURN-01];
* land borders, coasts and sea links between known spaces, no self-borders or duplicates;
  the file lists each pair once, so adjacency is symmetric by construction;
* island provinces border only their own island [R-MOVE-10];
* river edges lie on land borders, chain along the river, and a navigable river's mouth
  edge has both provinces on its sea zone [R-MOVE-11, R-MOVE-13];
* every province and sea zone can be reached from the centre province (Orme) through land
  borders, coasts and sea links;
* ``map_shapes.toml`` (the drawn map, optional): one shape per space, sharing a border of
  positive length exactly where ``map.toml`` says two spaces border, no overlaps, no holes,
  islands apart, rivers joined and reaching their mouth (:mod:`~caedes_bot.gamedata.geometry`);
* every faction can muster each race it needs somewhere in its home region
  [R-RACE-*, R-MUSTER-06];
* scenarios: known factions, owners, kinds and spaces; each unit where it could be
  (no land unit or Tower at sea, no ship on land [R-MOVE-09, R-ATTR-WATER-01], at most one
  Fortification per province [R-ATTR-FORT-02], only in its owner's provinces [R-SETUP-03],
  Undead beside a Necromancer [R-RACE-UND-01], Summoned beside a Summoner [R-RACE-SUM-01],
  no Mercenary stack that would die at once [R-ATTR-MERC-01], one faction per space);
  every limited race it musters has a starting infantry unit on qualifying ground
  [R-MUSTER-08]; options valid.

Typical use::

    ruleset = load_ruleset()               # the shipped data
    ruleset = load_ruleset(Path("my-data"))  # a copy being edited
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from caedes_bot.gamedata.checks import check_faction_homes, order_factions
from caedes_bot.gamedata.geometry import load_geometry
from caedes_bot.gamedata.maps import load_map
from caedes_bot.gamedata.model import STEP_IDS, FactionDef, Race, Ruleset
from caedes_bot.gamedata.options import load_options
from caedes_bot.gamedata.scenarios import load_scenarios
from caedes_bot.gamedata.schema import (
    FACTION_CODE,
    DataReader,
    FactionSchema,
    TurnSchema,
    suggest,
)
from caedes_bot.gamedata.units import load_unit_types, load_units

__all__ = [
    "GameDataError",
    "default_config_dir",
    "load_ruleset",
    "suggest",
]


class GameDataError(Exception):
    """The game data has problems; :attr:`problems` lists every one found, each with its file.

    Attributes:
        problems: one line per problem, e.g.
            ``"map.toml: land border ['orme', 'ormee']: unknown province 'ormee' (did you
            mean 'orme'?)"``.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: list[str] = list(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in the game data:"
        super().__init__("\n".join([head, *(f"  - {p}" for p in self.problems)]))


def default_config_dir() -> Path:
    """The shipped game data: ``config/caedes/`` at the root of the repository.

    The package lives at ``<repo>/caedes_bot/``; the data ships beside it in the repository
    (design.md section 2). This is the only place that knows where the data lives.
    """
    return Path(__file__).resolve().parents[2] / "config" / "caedes"


def load_ruleset(root: Path | None = None) -> Ruleset:
    """Read, check and build the whole ruleset.

    Args:
        root: the data directory (holding ``unit_types.toml``, ``units.toml``,
            ``factions.toml``, ``turn.toml``, ``options.toml``, ``map.toml``, optionally
            ``map_shapes.toml``, and
            ``scenarios/*.toml``); :func:`default_config_dir` if ``None``.

    Returns:
        The frozen ruleset: factions in turn order (R-TURN-01), the step order (R-TURN-02),
        the order of battle (catalogue section 15), the map, and every scenario keyed by its
        file name.

    Raises:
        GameDataError: listing every problem found, if there is at least one.
    """
    folder = root or default_config_dir()
    if not folder.is_dir():
        raise GameDataError([f"the game data folder {folder} does not exist"])
    return _load(DataReader(folder))


# ---------------------------------------------------------------------------------------------
# One loading run


def _load(r: DataReader) -> Ruleset:
    unit_types = load_unit_types(r)
    factions = _load_factions(r)
    turn_codes, step_order = _load_turn(r)
    if factions and turn_codes is not None:
        factions = order_factions(r, factions, turn_codes)
    faction_codes = {f.code for f in factions}
    units = load_units(r, unit_types, {f.code: f for f in factions})
    options = load_options(r)
    game_map = load_map(r)
    if game_map is not None:
        game_map = replace(game_map, geometry=load_geometry(r, game_map))
        check_faction_homes(r, factions, units, game_map)
    scenarios = load_scenarios(r, unit_types, units, factions, faction_codes, game_map, options)
    if r.problems:
        raise GameDataError(r.problems)
    assert game_map is not None
    return Ruleset(
        unit_types=unit_types,
        units=units,
        factions=tuple(factions),
        map=game_map,
        scenarios=scenarios,
        step_order=step_order,
    )


def _load_factions(r: DataReader) -> list[FactionDef]:
    """The factions of ``factions.toml``, in the file's order (R-TURN-01 sorts them later)."""
    file = "factions.toml"
    out: list[FactionDef] = []
    seen: dict[str, set[object]] = {
        "code": set(),
        "colour": set(),
        "emoji": set(),
        "tag": set(),
    }
    for index, raw in enumerate(r.items(r.read(file), "faction", file)):
        label = f"faction #{index + 1}"
        if isinstance(raw, dict) and isinstance(raw.get("code"), str):
            label = f"faction '{raw['code']}'"
        parsed = r.validate(FactionSchema, raw, file, label)
        if parsed is None:
            continue
        if not FACTION_CODE.match(parsed.code):
            r.problem(file, label, "a faction code is three capital letters")
        for key in ("code", "colour", "emoji", "tag"):
            value = getattr(parsed, key)
            if value in seen[key]:
                r.problem(file, label, f"duplicate {key} {value!r}")
            seen[key].add(value)
        races: set[Race] = set()
        for name in parsed.races:
            race = r.enum_value(Race, name, file, label, "race")
            if race is not None:
                races.add(race)
        out.append(
            FactionDef(
                code=parsed.code,
                name=parsed.name,
                adjective=parsed.adjective,
                colour=parsed.colour,
                tag=parsed.tag,
                emoji=parsed.emoji,
                races=frozenset(races),
                home_region=parsed.home_region,
            )
        )
    return out


def _load_turn(r: DataReader) -> tuple[list[str] | None, tuple[str, ...]]:
    """Read ``turn.toml``: the faction codes in turn order, and the step ids in order.

    The steps must be the ids of :data:`~caedes_bot.gamedata.model.STEP_IDS`, each once
    (R-TURN-02). The codes are checked against ``factions.toml`` by
    :func:`~caedes_bot.gamedata.checks.order_factions` (R-TURN-01). ``None`` and ``()`` if the
    file could not be read.
    """
    file = "turn.toml"
    data = r.read(file)
    parsed = r.validate(TurnSchema, data, file, "") if data is not None else None
    if parsed is None:
        return None, ()
    seen_steps: set[str] = set()
    for step in parsed.steps:
        if step in seen_steps:
            r.problem(file, f"step '{step}'", "listed twice (R-TURN-02)")
        elif step not in STEP_IDS:
            r.unknown(file, "steps", "step", step, sorted(STEP_IDS))
        seen_steps.add(step)
    for step in sorted(STEP_IDS - seen_steps):
        r.problem(file, f"step '{step}'", "missing; a turn has all eight steps (R-TURN-02)")
    return list(parsed.factions), tuple(parsed.steps)
