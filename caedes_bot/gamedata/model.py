"""Typed, immutable game data: unit types, units, factions, the map, options, scenarios.

This module is the contract between the data files in ``config/caedes/`` (loaded and checked
by :mod:`caedes_bot.gamedata.loader`) and the pure rules core in :mod:`caedes_bot.rules`. It
holds plain frozen dataclasses and enums only: no I/O, no discord, no database.

Identifiers:

* unit kinds use the catalogue's IDs, ``U-<FACTION>-<NN>`` (catalogue section 15); scenario
  heroes use ``H-<FACTION>-<NN>``;
* factions use the catalogue's three-letter codes (``DAW``, ``ORC``, ``WEL``, ``LIZ``, ``DWA``,
  ``HEL``, ``ACH``);
* provinces and sea zones use lower-case slugs (``orme``, ``sea-of-estlon``); a river edge is
  named by :func:`river_edge_id` of its two provinces.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field


class Terrain(enum.StrEnum):
    """Province terrains (R-MOVE-05..08). "Shore" is not a terrain: see :meth:`GameMap.is_shore`."""

    PLAINS = "plains"
    HILLS = "hills"
    FOREST = "forest"
    MOUNTAINS = "mountains"
    SWAMP = "swamp"


class BaseType(enum.StrEnum):
    """The four unit types (catalogue glossary, section 15)."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    SHIP = "ship"
    TOWER = "tower"


class Commodity(enum.StrEnum):
    """The six commodities (R-COMM-01)."""

    CLOTH = "cloth"
    GRAIN = "grain"
    IRON = "iron"
    LIVESTOCK = "livestock"
    SALT = "salt"
    TIMBER = "timber"


class Attribute(enum.StrEnum):
    """Unit attributes (section 11) and magical attributes (section 12), canonical spellings (R-GEN-04)."""

    AMPHIBIAN = "amphibian"
    BLITZ = "blitz"
    BREATHWEAPON = "breathweapon"
    ELITE = "elite"
    FEAR = "fear"
    FLYING = "flying"
    FORTIFICATION = "fortification"
    FORTITUDE = "fortitude"
    HERO = "hero"
    INSPIRING = "inspiring"
    MEEK = "meek"
    MERCENARY = "mercenary"
    MIGHTY = "mighty"
    MISSILE = "missile"
    MOUNTAINLORE = "mountainlore"
    PREDATOR = "predator"
    QUICK = "quick"
    SLOW = "slow"
    SWAMPLORE = "swamplore"
    UNDEAD = "undead"
    VETERAN = "veteran"
    WATERCRAFT = "watercraft"
    WEAK = "weak"
    WOODLORE = "woodlore"
    # magical
    ABJURER = "abjurer"
    DIVINER = "diviner"
    ENCHANTER = "enchanter"
    ILLUSIONIST = "illusionist"
    INVOKER = "invoker"
    NECROMANCER = "necromancer"
    SUMMONER = "summoner"
    TELEPORTATION = "teleportation"


MAGICAL_ATTRIBUTES: frozenset[Attribute] = frozenset(
    {
        Attribute.ABJURER,
        Attribute.DIVINER,
        Attribute.ENCHANTER,
        Attribute.ILLUSIONIST,
        Attribute.INVOKER,
        Attribute.NECROMANCER,
        Attribute.SUMMONER,
        Attribute.TELEPORTATION,
    }
)


class Race(enum.StrEnum):
    """Race attributes, which decide where a unit may be mustered (section 13)."""

    ACHEROUSIAN = "acherousian"
    BUGBEAR = "bugbear"
    DAWNIAN = "dawnian"
    DWARVEN = "dwarven"
    HIGH_ELVEN = "high_elven"
    LIZARDMAN = "lizardman"
    OGRE = "ogre"
    ORC = "orc"
    WOOD_ELVEN = "wood_elven"
    UNDEAD = "undead"
    SUMMONED = "summoned"


#: Where each limited race musters (R-RACE-*): beside one of its infantry units, in a province
#: with any of these terrains (R-MUSTER-06), with the ID of the race's rule. The one definition,
#: read by the loader's checks and by the rules core's muster step.
MUSTER_TERRAINS: Mapping[Race, tuple[frozenset[Terrain], str]] = {
    Race.BUGBEAR: (frozenset({Terrain.HILLS, Terrain.MOUNTAINS}), "R-RACE-BUG-01"),
    Race.DAWNIAN: (frozenset({Terrain.PLAINS}), "R-RACE-DAW-01"),
    Race.DWARVEN: (frozenset({Terrain.MOUNTAINS}), "R-RACE-DWA-01"),
    Race.LIZARDMAN: (frozenset({Terrain.SWAMP}), "R-RACE-LIZ-01"),
    Race.OGRE: (frozenset({Terrain.HILLS}), "R-RACE-OGR-01"),
    Race.ORC: (frozenset({Terrain.HILLS, Terrain.PLAINS}), "R-RACE-ORC-01"),
    Race.WOOD_ELVEN: (frozenset({Terrain.FOREST}), "R-RACE-WEL-01"),
}

#: Races limited to one muster per province per step 8 without a Fortification (R-MUSTER-04):
#: the races that muster beside their own infantry on their terrain.
LIMITED_RACES: frozenset[Race] = frozenset(MUSTER_TERRAINS)


#: The one province where Acherousian units muster (R-RACE-ACH-01).
ARCHURSIA = "archursia"

#: The island group (:attr:`Province.island`) where High Elven units muster (R-RACE-HEL-01).
ESTLON = "estlon"


#: The ids of the eight steps of a turn (R-TURN-02): the lower-case names of the rules core's
#: ``Step`` members. Their order is game data (``turn.toml``, :attr:`Ruleset.step_order`); the
#: loader checks that the file names exactly these.
STEP_IDS: frozenset[str] = frozenset(
    {"trade", "redeem", "collect", "upkeep", "buy", "move", "combat", "muster"}
)


class Direction(enum.StrEnum):
    """Compass point of the Map Area Index, relative to Orme (catalogue section 16)."""

    N = "N"
    NE = "NE"
    E = "E"
    SE = "SE"
    S = "S"
    SW = "SW"
    W = "W"
    NW = "NW"
    CENTRE = "centre"


@dataclass(frozen=True, slots=True)
class UnitTypeDef:
    """A base unit type (catalogue section 15): base values and inherent attributes.

    ``attack`` and ``move`` are ``None`` for Towers, which never attack or move.
    """

    base_type: BaseType
    attack: int | None
    defense: int
    move: int | None
    cost: int
    inherent: frozenset[Attribute]


@dataclass(frozen=True, slots=True)
class UnitKind:
    """One entry of a faction's order of battle (section 15), or a scenario Hero.

    ``attack``/``defense``/``move`` are the *base* values of the unit type; attribute modifiers
    are applied by the rules (R-GEN-03), except the movement allowance, which
    :func:`movement_allowance` gives. ``attributes`` includes the type's inherent ones
    (Blitz for cavalry when the option is on is decided by the rules, not here).
    ``cost`` is ``None`` for Heroes (R-ATTR-HERO-01).
    """

    id: str
    faction: str
    name: str
    display_name: str
    race: Race | None
    cost: int | None
    base_type: BaseType
    attack: int | None
    defense: int
    move: int | None
    attributes: frozenset[Attribute]
    hero: bool = False
    description: str = ""

    def has(self, attribute: Attribute) -> bool:
        """Whether this kind carries ``attribute``."""
        return attribute in self.attributes


def movement_allowance(kind: UnitKind) -> int:
    """Movement points of ``kind`` for one turn (R-MOVE-01, R-ATTR-QUICK-01, R-ATTR-SLOW-01).

    The type's move, +1 for Quick, -1 for Slow, never below 1. Kinds that never move (Towers,
    ``move`` is ``None``) have 0. The one definition, read by the rules core
    (:mod:`caedes_bot.rules.movement`) and the balance report (:mod:`caedes_bot.gamedata.balance`).
    """
    if kind.move is None:
        return 0
    value = kind.move
    if kind.has(Attribute.QUICK):
        value += 1
    if kind.has(Attribute.SLOW):
        value -= 1
    return max(value, 1)


@dataclass(frozen=True, slots=True)
class FactionDef:
    """A faction (R-TURN-01): code, names, presentation, and the races it musters."""

    code: str
    name: str
    adjective: str
    colour: int
    tag: str
    emoji: str
    races: frozenset[Race]
    home_region: str


@dataclass(frozen=True, slots=True)
class Province:
    """A land province (catalogue section 16, Appendix C of the Caedes rules).

    ``commodities`` may repeat a commodity (several of one kind, R-COLL-07).
    ``inches`` is the approximate distance from Orme; ``direction`` the compass point.
    ``island`` names the island group (``"estlon"``, ``"dilgac"``) or is ``None`` on the mainland.
    ``special`` marks a province the map authors made rich in several commodities (section 16).
    """

    id: str
    name: str
    direction: Direction
    inches: float
    rp: int
    terrains: tuple[Terrain, ...]
    commodities: tuple[Commodity, ...]
    colour_text: str
    region: str
    island: str | None = None
    special: bool = False

    def has_terrain(self, terrain: Terrain) -> bool:
        """Whether any of the province's terrains is ``terrain`` (R-MUSTER-06)."""
        return terrain in self.terrains


@dataclass(frozen=True, slots=True)
class SeaZone:
    """A sea zone (glossary): no owner, no RP, no commodities.

    ``direction`` and ``inches`` place it on the drawn map like a province's Map Area Index
    (for drawing only; ``None`` = not placed).
    """

    id: str
    name: str
    colour_text: str = ""
    direction: Direction | None = None
    inches: float = 0.0


def river_edge_id(a: str, b: str) -> str:
    """The space id of the river edge between provinces ``a`` and ``b`` (order-free)."""
    x, y = sorted((a, b))
    return f"river:{x}|{y}"


@dataclass(frozen=True, slots=True)
class RiverEdge:
    """A border between two adjacent provinces along which a river runs (R-MOVE-11)."""

    a: str
    b: str
    river: str
    navigable: bool
    mouth: str | None = None  # sea zone id where this edge meets the sea, if it is a mouth

    @property
    def id(self) -> str:
        return river_edge_id(self.a, self.b)


Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class MapGeometry:
    """The drawn map (``map_shapes.toml``), checked against the borders by the loader.

    Coordinates are inches east (x) and north (y) of Orme. ``shapes`` maps every province and
    sea zone to its outline (counter-clockwise corners, the first not repeated); ``inner``
    maps each to a point well inside it, away from its edges (where its name and owner colour
    go); ``rivers`` maps each river edge id (:func:`river_edge_id`) to the polyline of the
    shared border it runs along; ``bounds`` is (min x, min y, max x, max y) of all shapes.
    """

    shapes: Mapping[str, tuple[Point, ...]]
    inner: Mapping[str, Point]
    rivers: Mapping[str, tuple[Point, ...]]
    bounds: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class GameMap:
    """The map: provinces, sea zones, and adjacency written out (never derived from positions).

    ``land_adjacency`` maps each province to the provinces it shares a land border with;
    ``coasts`` maps each province to the sea zones it touches; ``sea_adjacency`` maps each sea
    zone to the sea zones it touches; ``rivers`` maps :func:`river_edge_id` to the edge.
    All mappings are symmetric (the loader checks this).
    """

    provinces: Mapping[str, Province]
    sea_zones: Mapping[str, SeaZone]
    land_adjacency: Mapping[str, frozenset[str]]
    coasts: Mapping[str, frozenset[str]]
    sea_adjacency: Mapping[str, frozenset[str]]
    rivers: Mapping[str, RiverEdge]
    geometry: MapGeometry | None = None  # the drawn map, when map_shapes.toml is present

    def is_province(self, space: str) -> bool:
        return space in self.provinces

    def is_sea(self, space: str) -> bool:
        return space in self.sea_zones

    def land_neighbours(self, province: str) -> frozenset[str]:
        """Provinces sharing a land border with ``province`` (river borders included)."""
        return self.land_adjacency.get(province, frozenset())

    def river_between(self, a: str, b: str) -> RiverEdge | None:
        """The river edge on the border ``a``-``b``, if a river runs there (R-MOVE-11)."""
        return self.rivers.get(river_edge_id(a, b))

    def seas_of(self, province: str) -> frozenset[str]:
        """Sea zones touching ``province``."""
        return self.coasts.get(province, frozenset())

    def coast_of(self, sea: str) -> frozenset[str]:
        """Provinces touching sea zone ``sea``."""
        return frozenset(p for p, seas in self.coasts.items() if sea in seas)

    def is_shore(self, province: str) -> bool:
        """A shore province is one adjacent to a sea zone (R-MOVE-08)."""
        return bool(self.coasts.get(province))

    def river_edges_of(self, province: str) -> tuple[RiverEdge, ...]:
        return tuple(e for e in self.rivers.values() if province in (e.a, e.b))

    def space_name(self, space: str) -> str:
        """Human-readable name of any space id."""
        if space in self.provinces:
            return self.provinces[space].name
        if space in self.sea_zones:
            return self.sea_zones[space].name
        edge = self.rivers.get(space)
        if edge is not None:
            return f"{edge.river} ({self.provinces[edge.a].name}/{self.provinces[edge.b].name})"
        return space


@dataclass(frozen=True, slots=True)
class Options:
    """Campaign rule options with their defaults (catalogue section 17).

    Each field names the rule it configures.
    """

    allied_includes_pacts: bool = False  # R-GEN-05
    public_treasuries: bool = False  # R-GEN-07
    trade_requires_neighbour: bool = False  # R-TRADE-01
    public_trade_log: str = "parties_only"  # R-TRADE-02: none | parties_only | full
    redeem_fresh_commodities: bool = False  # R-COMM-02
    capture_on_entry: bool = False  # R-COLL-02
    income_hold_rule: str = (
        "since_last_turn"  # R-COLL-04: since_last_turn | full_round | at_collection
    )
    income_requires_garrison: bool = True  # R-COLL-04
    upkeep_exempt_types: tuple[str, ...] = ()  # R-UPK-01: unit types (BaseType values)
    upkeep_waits: bool = False  # R-TURN-02, R-UPK-02: step 4 waits for the faction every turn
    rp_carryover: bool = True  # R-BUY-02
    terrain_single_choice: bool = True  # R-MOVE-03
    entire_move_mode: str = "full_allowance"  # R-MOVE-04: full_allowance | stop_on_entry
    river_ship_occupies: bool = True  # R-MOVE-13
    carry_pact_units: bool = False  # R-MOVE-15
    landing_cavalry_penalty: bool = True  # R-MOVE-20
    casualty_chooser: str = "owner"  # R-COMBAT-06: owner | opponent
    withdraw_mixed: str = "partial"  # R-COMBAT-09: partial | forbidden
    stalemate_rounds: int = 20  # R-COMBAT-13
    battle_message_odds: bool = False  # R-COMBAT-16 (issue 13): odds open the battle message
    cargo_fights: bool = True  # R-COMBAT-14
    cavalry_blitz: bool = True  # R-ATTR-BLITZ-01
    blitz_after_flying: bool = True  # R-ATTR-BLITZ-03
    breath_mode: str = "under"  # R-ATTR-BREATH-01: under | over
    breath_mighty_dice: int = 3  # R-ATTR-BREATH-03: 3 | 6
    fort_is_muster_point: bool = False  # R-ATTR-FORT-04
    summoned_tower_is_fortification: bool = True  # R-ATTR-FORT-06
    fortitude_end: str = "destroy"  # R-ATTR-FORTI-02: destroy | heal
    hero_leadership_bonus: bool = False  # R-ATTR-HERO-02
    predator_symmetric: bool = False  # R-ATTR-PRED-01
    giant_allies_mercenary: bool = False  # R-ATTR-MISS-03
    diviner_commodity: str = "produced"  # R-MAGIC-DIV-01: produced | any
    diviner_timing: str = "next_collect"  # R-MAGIC-DIV-01: next_collect | immediate
    enchant_immune_types: tuple[str, ...] = ()  # R-MAGIC-ENCH-02
    muster_requires_ownership: bool = True  # R-MUSTER-02
    muster_limit_scope: str = "province"  # R-MUSTER-04: province | race
    bugbear_rule: str = "union"  # R-RACE-BUG-01: union | procedure | appendix
    multiparty_threads: bool = True  # R-PBP-NEG-01
    neighbour_via_sea: bool = True  # R-PBP-NEG-02
    neighbour_recompute: str = "round"  # R-PBP-NEG-03: round | turn
    public_alliances: bool = False  # R-ALLY-01
    score_mode: str = "provinces"  # R-VIC-03: provinces | rp_income
    early_end_needs_vote: bool = True  # R-VIC-04
    turn_deadline_hours: float = 24.0  # R-PBP-DEAD-01
    reaction_deadline_hours: float = 6.0  # R-PBP-DEAD-01


#: The allowed values of every enumerated option (the loader and the umpire's override check these).
OPTION_CHOICES: Mapping[str, tuple[str, ...]] = {
    "public_trade_log": ("none", "parties_only", "full"),
    "income_hold_rule": ("since_last_turn", "full_round", "at_collection"),
    "entire_move_mode": ("full_allowance", "stop_on_entry"),
    "casualty_chooser": ("owner", "opponent"),
    "withdraw_mixed": ("partial", "forbidden"),
    "breath_mode": ("under", "over"),
    "diviner_commodity": ("produced", "any"),
    "diviner_timing": ("next_collect", "immediate"),
    "muster_limit_scope": ("province", "race"),
    "bugbear_rule": ("union", "procedure", "appendix"),
    "neighbour_recompute": ("round", "turn"),
    "score_mode": ("provinces", "rp_income"),
}


@dataclass(frozen=True, slots=True)
class ScenarioUnit:
    """Starting units of one kind at one space (R-SETUP-01). ``location`` is a space id."""

    kind: str
    location: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class ScenarioFaction:
    """One faction's starting position in a scenario."""

    code: str
    rp: int
    commodities: Mapping[Commodity, int]
    hero: str | None  # the designated Hero's kind id (R-ATTR-HERO-02), if any


@dataclass(frozen=True, slots=True)
class ScenarioVictory:
    """A scenario's own victory conditions (R-VIC-06).

    ``replaces``: which of the standard conditions no longer apply, ``"military"`` (R-VIC-01)
    and/or ``"diplomatic"`` (R-VIC-02); a scenario without the turn-limit victory (R-VIC-03)
    sets no turn limit. ``hold``: sets of provinces; a player whose factions and their vassals
    own every province of one set at the start of a turn wins.
    """

    replaces: frozenset[str] = frozenset()
    hold: tuple[frozenset[str], ...] = ()


@dataclass(frozen=True, slots=True)
class EventUnits:
    """Units a scenario event places or removes (R-SETUP-01): ``count`` units of ``kind`` of
    ``faction`` at the space ``location``."""

    faction: str
    kind: str
    location: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class ScenarioEvent:
    """Something a scenario makes happen at a given moment of play (R-SETUP-01; decision 0026).

    It happens at the start of game round ``round`` (before anything else at the start of the
    round's first turn) or, with ``faction``, at the start of that faction's turn in that round.
    Each effect is optional; an event has at least one effect or an ``announce`` line.

    Attributes:
        id: a slug, unique in the scenario (``"relief-column"``).
        round: the game round, from 1.
        faction: whose turn it waits for, or ``None`` for the round's start.
        announce: a line posted in ``#announcements`` when it happens (may be empty).
        rp: faction -> RP given (positive) or taken (negative, never below 0).
        commodities: faction -> commodity -> units given or taken (never below 0).
        place: units put on the board (reinforcements).
        remove: units taken off the board (as many as are there, up to ``count``).
        owners: province -> its new owner, ``None`` for nobody.
        alliances_made: groups of factions allied from then on (R-ALLY-02).
        alliances_ended: alliances broken then (R-ALLY-05 follows).
        fealty_sworn: vassal -> liege, in force from then on (R-FEAL-01).
        fealty_ended: vassals released from their fealty then.
    """

    id: str
    round: int
    faction: str | None = None
    announce: str = ""
    rp: Mapping[str, int] = field(default_factory=dict)
    commodities: Mapping[str, Mapping[Commodity, int]] = field(default_factory=dict)
    place: tuple[EventUnits, ...] = ()
    remove: tuple[EventUnits, ...] = ()
    owners: Mapping[str, str | None] = field(default_factory=dict)
    alliances_made: tuple[tuple[str, ...], ...] = ()
    alliances_ended: tuple[tuple[str, ...], ...] = ()
    fealty_sworn: Mapping[str, str] = field(default_factory=dict)
    fealty_ended: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Scenario:
    """A scenario (R-SETUP-01): who is in play, who owns what, who stands where, and for how long.

    ``units`` are listed in the scenario's order, which is the muster order used for the
    disbanding tie-break of R-UPK-03. ``heroes`` are this scenario's Hero kinds.
    ``options`` overrides the campaign option defaults.
    """

    id: str
    name: str
    description: str
    factions: tuple[ScenarioFaction, ...]
    owners: Mapping[str, str]
    units: tuple[ScenarioUnit, ...]
    heroes: Mapping[str, UnitKind]
    turn_limit: int | None
    options: Options
    alliances: tuple[frozenset[str], ...] = ()
    fealty: Mapping[str, str] = field(default_factory=dict)  # vassal -> liege
    victory: ScenarioVictory = field(default_factory=ScenarioVictory)  # R-VIC-06
    events: tuple[ScenarioEvent, ...] = ()  # R-SETUP-01, in the file's order

    @property
    def faction_codes(self) -> tuple[str, ...]:
        return tuple(f.code for f in self.factions)

    def faction(self, code: str) -> ScenarioFaction:
        for f in self.factions:
            if f.code == code:
                return f
        raise KeyError(code)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Everything static about the game: the rules core's read-only input.

    ``factions`` is in turn order (R-TURN-01, from ``turn.toml``). ``units`` holds the order of
    battle of every faction (section 15); scenario Heroes live in :attr:`Scenario.heroes` and
    are looked up through :meth:`kind`. ``step_order`` is the eight step ids of
    :data:`STEP_IDS` in the order a turn takes them (R-TURN-02, from ``turn.toml``), e.g.
    ``("trade", "redeem", ..., "muster")``.
    """

    unit_types: Mapping[BaseType, UnitTypeDef]
    units: Mapping[str, UnitKind]
    factions: tuple[FactionDef, ...]
    map: GameMap
    scenarios: Mapping[str, Scenario]
    step_order: tuple[str, ...]

    @property
    def turn_order(self) -> tuple[str, ...]:
        """The faction codes in the order they take their turns (R-TURN-01)."""
        return tuple(f.code for f in self.factions)

    def faction(self, code: str) -> FactionDef:
        for f in self.factions:
            if f.code == code:
                return f
        raise KeyError(code)

    def order_of_battle(self, faction: str) -> tuple[UnitKind, ...]:
        """The purchasable-or-not units listed for ``faction`` (section 15), in list order."""
        return tuple(u for u in self.units.values() if u.faction == faction)

    def kind(self, kind_id: str) -> UnitKind:
        """Look up a unit kind in the order of battle or any scenario's heroes.

        Raises:
            KeyError: no such kind.
        """
        found = self.units.get(kind_id)
        if found is not None:
            return found
        for scenario in self.scenarios.values():
            hero = scenario.heroes.get(kind_id)
            if hero is not None:
                return hero
        raise KeyError(kind_id)

    def iter_kinds(self) -> Iterator[UnitKind]:
        yield from self.units.values()
        for scenario in self.scenarios.values():
            yield from scenario.heroes.values()
