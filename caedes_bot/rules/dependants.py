"""Units whose place on the board hangs on another: Undead on a Necromancer, Summoned units on a
Summoner, and the designated Hero whose death frees vassals (R-ATTR-UNDEAD-01..03,
R-MAGIC-NEC-01, R-MAGIC-SUMM-03, R-ATTR-HERO-01, R-FEAL-03).

* The moment a faction has no Necromancer on the board, all its Undead are destroyed; the
  moment it has no Summoner, all its Summoned units are (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03:
  the whole faction, not one battle side). A Summoner aboard a ship still counts here: it only
  cannot summon (R-MAGIC-SUMM-01). :func:`lose_bound_units` does it, for every faction; the
  battle calls it with each step's casualties (so Undead whose last Necromancer falls in the
  missile step do not roll in the melee step), the turn start after the Mercenary check, and
  the engine after every order, which catches every other way a unit can leave the board
  (disbanding, the umpire's overrides).
* The designated Hero of a faction (the scenario's ``hero``) that is no longer on the board
  is recorded as fallen, once (:func:`record_fallen_heroes`, R-FEAL-03).
* What Undead are immune to (R-ATTR-UNDEAD-01) is answered here for every rule that asks:
  :func:`is_immune_to_magic` (Illusionist, Enchanter), :func:`ignores_battle_morale` (Fear,
  Inspiring) and :func:`ignores_predator`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter

from caedes_bot.gamedata.model import Attribute, Race, Ruleset, UnitKind
from caedes_bot.rules.events import Event
from caedes_bot.rules.sharing import CowTable
from caedes_bot.rules.state import GameState, Unit

# --------------------------------------------------------------------------- what Undead ignore


def is_undead(kind: UnitKind) -> bool:
    """Whether ``kind`` is Undead (the attribute or the race, R-ATTR-UNDEAD-01)."""
    return kind.has(Attribute.UNDEAD) or kind.race is Race.UNDEAD


def is_immune_to_magic(kind: UnitKind) -> bool:
    """Whether ``kind`` is out of reach of the Illusionist and the Enchanter: an Illusionist
    cannot force its dice to be rolled again (R-MAGIC-ILL-01) and an Enchanter cannot take it
    (R-MAGIC-ENCH-02). True for Undead (R-ATTR-UNDEAD-01)."""
    return is_undead(kind)


def ignores_battle_morale(kind: UnitKind) -> bool:
    """Whether Fear and Inspiring leave ``kind``'s dice alone (R-ATTR-FEAR-01, R-ATTR-INSP-01,
    R-ATTR-UNDEAD-01). True for Undead."""
    return is_undead(kind)


def ignores_predator(kind: UnitKind) -> bool:
    """Whether an enemy Predator leaves ``kind``'s defense alone (R-ATTR-PRED-01,
    R-ATTR-UNDEAD-01). True for Undead (the cavalry and Predator conditions are the combat
    rules' own)."""
    return is_undead(kind)


# --------------------------------------------------------------------------- bonds


@dataclass(frozen=True, slots=True)
class Bond:
    """One kind of dependence: units of ``race`` stay on the board only while their faction
    has a unit with ``master`` on it (``rule``; ``reason`` in a player's words)."""

    master: Attribute
    race: Race
    rule: str
    reason: str


#: Undead hang on a Necromancer (R-ATTR-UNDEAD-03), Summoned units on a Summoner
#: (R-MAGIC-SUMM-03).
BONDS: tuple[Bond, ...] = (
    Bond(Attribute.NECROMANCER, Race.UNDEAD, "R-ATTR-UNDEAD-03", "no Necromancer left"),
    Bond(Attribute.SUMMONER, Race.SUMMONED, "R-MAGIC-SUMM-03", "no Summoner left"),
)


def bound_to(kind: UnitKind) -> Bond | None:
    """The bond ``kind`` hangs on, or ``None`` (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03): by its race,
    Undead or Summoned (R-RACE-UND-01, R-RACE-SUM-01), as the order of battle lists them."""
    for bond in BONDS:
        if kind.race is bond.race:
            return bond
    return None


def masters_of(ruleset: Ruleset, units: Iterable[Unit], bond: Bond) -> list[Unit]:
    """The units of ``units`` that hold ``bond`` up (its Necromancers or Summoners)."""
    return [u for u in units if ruleset.kind(u.kind).has(bond.master)]


def units_lost_without(
    ruleset: Ruleset, units: Iterable[Unit], gone: set[int]
) -> list[tuple[list[Unit], Bond]]:
    """Of one faction's ``units``, those lost if the units ``gone`` leave the board: every
    Undead if no Necromancer stays, every Summoned unit if no Summoner stays
    (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03), as ``(units, bond)`` per bond that breaks, in id
    order."""
    left = sorted((u for u in units if u.id not in gone), key=lambda u: u.id)
    out: list[tuple[list[Unit], Bond]] = []
    for bond in BONDS:
        if masters_of(ruleset, left, bond):
            continue
        lost = [u for u in left if bound_to(ruleset.kind(u.kind)) is bond]
        if lost:
            out.append((lost, bond))
    return out


@dataclass(frozen=True, slots=True)
class BoundUnitsLost(Event):
    """``faction``'s last Necromancer (or Summoner) left the board, and with it every one of its
    Undead (or Summoned) units (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03). ``units`` are ``(unit id,
    kind id, space)``; ``rule`` and ``reason`` say which bond broke. ``battle`` is the battle
    it happened in, if any. Public: the board is public (R-GEN-07)."""

    faction: str
    units: tuple[tuple[int, str, str], ...]
    rule: str
    reason: str
    battle: int | None = None


def lose_bound_units(
    state: GameState, ruleset: Ruleset, *, battle: int | None = None
) -> tuple[list[Event], set[int]]:
    """Destroy every Undead of a faction with no Necromancer on the board and every Summoned
    unit of a faction with no Summoner (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03), for every faction.

    Units destroyed are taken off the sides of the battle under way, if any. Mutates
    ``state``. Returns the events (one :class:`BoundUnitsLost` per faction and bond) and the
    ids destroyed.
    """
    return _lose_bound_units(state, ruleset, set(map(_KIND, state.peek_units())), battle)


def _lose_bound_units(
    state: GameState, ruleset: Ruleset, on_board: set[str], battle: int | None
) -> tuple[list[Event], set[int]]:
    """:func:`lose_bound_units`, given the kind ids on the board (``on_board``)."""
    # the kinds on the board that hang on a bond or hold one up, read from the ruleset's
    # list of them (this runs after every order and after every casualty removal in a
    # battle: most boards have none, found with set operations in C)
    known, bonded_kinds = _bonded_kinds(ruleset)
    if on_board <= known:
        bonded = on_board & bonded_kinds
    else:  # a kind the ruleset does not list: asked (and refused) as before
        bonded = {k for k in on_board if _bonded(ruleset.kind(k))}
    if not bonded:
        return [], set()
    by_owner: dict[str, list[Unit]] = {}
    for unit in state.peek_units():
        if unit.kind in bonded:
            by_owner.setdefault(unit.owner, []).append(unit)
    events: list[Event] = []
    gone: set[int] = set()
    for faction in sorted(by_owner):
        for lost, bond in units_lost_without(ruleset, by_owner[faction], set()):
            for unit in lost:
                del state.units[str(unit.id)]
                gone.add(unit.id)
            events.append(
                BoundUnitsLost(
                    faction,
                    tuple((u.id, u.kind, u.location) for u in lost),
                    bond.rule,
                    bond.reason,
                    battle,
                )
            )
    fight = state.battle
    if gone and fight is not None:
        fight.attacker_units = [u for u in fight.attacker_units if u not in gone]
        fight.defender_units = [u for u in fight.defender_units if u not in gone]
        fight.withdrawn = [u for u in fight.withdrawn if u not in gone]
    return events, gone


def _bonded_kinds(ruleset: Ruleset) -> tuple[frozenset[str], frozenset[str]]:
    """Every kind id ``ruleset`` knows (its units and every scenario's Heroes), and those
    of them that hang on a bond or hold one up (:func:`_bonded` of :meth:`Ruleset.kind`).

    A memo of a pure function of immutable game data, keyed by the ruleset's identity (the
    ruleset is kept with its answer, so the key cannot be reused by another) and bounded to
    a few rulesets, as the movement step tables are; no game can see another's."""
    held = _BONDED.get(id(ruleset))
    if held is None or held[0] is not ruleset:
        if len(_BONDED) >= _RULESETS_KEPT:
            _BONDED.clear()
        ids = frozenset(k.id for k in ruleset.iter_kinds())
        bonded = frozenset(k for k in ids if _bonded(ruleset.kind(k)))
        held = _BONDED[id(ruleset)] = (ruleset, ids, bonded)
    return held[1], held[2]


#: :func:`_bonded_kinds` of the last few rulesets, by identity (a process plays one ruleset;
#: tests build many small ones)
_BONDED: dict[int, tuple[Ruleset, frozenset[str], frozenset[str]]] = {}
_RULESETS_KEPT = 8


def holds_a_bond(kind: UnitKind) -> bool:
    """Whether ``kind`` holds a bond up (a Necromancer or a Summoner, R-ATTR-UNDEAD-03,
    R-MAGIC-SUMM-03): only losing such a unit can leave bound units without their master."""
    return not kind.attributes.isdisjoint(_MASTERS)


def _bonded(kind: UnitKind) -> bool:
    """``kind`` hangs on a bond or holds one up (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03); Heroes
    included, as :meth:`Ruleset.kind` finds them."""
    return kind.race in _BOUND_RACES or not kind.attributes.isdisjoint(_MASTERS)


_KIND = attrgetter("kind")
#: the attributes that hold a bond up (Necromancer, Summoner)
_MASTERS = frozenset(bond.master for bond in BONDS)
#: the races that hang on a bond (what :func:`bound_to` looks for), for one set test per kind
_BOUND_RACES = frozenset(bond.race for bond in BONDS)


# --------------------------------------------------------------------------- heroes


@dataclass(frozen=True, slots=True)
class HeroFell(Event):
    """``faction``'s designated Hero ``kind_id`` is no longer on the board (R-ATTR-HERO-01,
    R-FEAL-03): from now on its vassals may revoke fealty, and nobody may swear it to this
    faction again. Recorded once. Public."""

    faction: str
    kind_id: str


def designated_hero(state: GameState, ruleset: Ruleset, faction: str) -> str | None:
    """The kind id of ``faction``'s designated Hero in the campaign's scenario, or ``None``
    (R-ATTR-HERO-02)."""
    scenario = ruleset.scenarios.get(state.scenario)
    if scenario is None:
        return None
    try:
        return scenario.faction(faction).hero
    except KeyError:
        return None


def record_fallen_heroes(state: GameState, ruleset: Ruleset) -> list[Event]:
    """Mark ``hero_alive`` false for every faction whose designated Hero is no longer on the
    board, whatever removed it (battle, disbanding, the umpire) (R-FEAL-03). Mutates
    ``state``; returns one :class:`HeroFell` per Hero newly fallen."""
    units = list(state.peek_units())
    return _record_fallen_heroes(state, ruleset, units, list(map(_KIND, units)))


def _record_fallen_heroes(
    state: GameState, ruleset: Ruleset, units: list[Unit], kinds: list[str]
) -> list[Event]:
    """:func:`record_fallen_heroes`, given the units on the board and their kind ids, in the
    same order."""
    events: list[Event] = []
    for code in state.in_play:
        fs = dict.get(state.factions, code)  # read only: copied on write (GameState.clone)
        if fs is None or not fs.hero_alive:
            continue
        hero = designated_hero(state, ruleset, code)
        if hero is None or _on_board(units, kinds, code, hero):
            continue
        state.factions[code].hero_alive = False
        events.append(HeroFell(code, hero))
    return events


def _on_board(units: list[Unit], kinds: list[str], owner: str, kind: str) -> bool:
    """Whether a unit of ``kind`` owned by ``owner`` is among ``units`` (``kinds`` their kind
    ids): the units of the kind are found by ``list.index`` (in C; a Hero's kind is on the
    board once at most, as a rule), and only their owners are looked at."""
    at = 0
    while True:
        try:
            at = kinds.index(kind, at)
        except ValueError:
            return False
        if units[at].owner == owner:
            return True
        at += 1


def after_every_order(state: GameState, ruleset: Ruleset) -> list[Event]:
    """What must hold after every order: no Undead without a Necromancer, no Summoned unit
    without a Summoner (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03), and every fallen Hero recorded
    (R-FEAL-03). Mutates ``state``; returns the events.

    The board is read once for both checks (its units and their kinds, in C) and again only
    when bound units were lost. When the state is a clone of one these checks passed, and
    since then no unit they look at (a Hero of a faction in play, a unit that hangs on a bond
    or holds one up) was written or removed, no faction was written and the factions in play,
    the scenario and the ruleset are the same, there is nothing to find and the board is not
    read (:class:`_Census`)."""
    if state.round == 0:
        return []  # before the campaign starts the scenario's board is as set up
    table, factions = state.units, state.factions
    if isinstance(table, CowTable) and isinstance(factions, CowTable):
        census = table.carried()
        if (
            census is not None
            and factions.carried() is census
            and not factions.writes
            and type(census) is _Census
            and census.holds(state, ruleset, table)
        ):
            table.note(census)
            factions.note(census)
            return []
    units = list(state.peek_units())
    kinds = list(map(_KIND, units))
    events, gone = _lose_bound_units(state, ruleset, set(kinds), None)
    if gone:  # the board changed: read it again
        units = list(state.peek_units())
        kinds = list(map(_KIND, units))
    events += _record_fallen_heroes(state, ruleset, units, kinds)
    table, factions = state.units, state.factions
    if isinstance(table, CowTable) and isinstance(factions, CowTable):
        census = _Census.of(state, ruleset, list(dict.keys(table)), kinds)
        table.note(census)
        factions.note(census)
    return events


class _Census:
    """What :func:`after_every_order` looked at when its checks last passed, noted on the
    unit and faction tables (:meth:`CowTable.note`) and carried by their clones: the keys of
    the units the checks read (every unit of a kind in ``watched``: the designated Heroes of
    the factions in play, and the kinds that hang on a bond or hold one up), the kinds the
    ruleset lists, the factions in play, the scenario and the ruleset.

    The checks can find something new only if one of those units was written or removed, a
    unit of a watched kind (or of a kind the ruleset does not list) was written or placed, a
    faction was written, or the factions in play, the scenario or the ruleset changed.
    """

    __slots__ = ("in_play", "keys", "known", "ruleset", "scenario", "watched")

    def __init__(
        self,
        ruleset: Ruleset,
        scenario: str,
        in_play: list[str],
        known: frozenset[str],
        watched: frozenset[str],
        keys: frozenset[str],
    ) -> None:
        self.ruleset = ruleset
        self.scenario = scenario
        self.in_play = in_play
        self.known = known
        self.watched = watched
        self.keys = keys

    @classmethod
    def of(cls, state: GameState, ruleset: Ruleset, keys: list[str], kinds: list[str]) -> _Census:
        """The census of ``state`` as it is now; ``keys`` and ``kinds`` are the unit table's
        keys and their units' kind ids, in the same order."""
        known, bonded = _bonded_kinds(ruleset)
        heroes = [designated_hero(state, ruleset, code) for code in state.in_play]
        watched = bonded.union(hero for hero in heroes if hero is not None)
        read = frozenset(compress(keys, map(watched.__contains__, kinds)))
        return cls(ruleset, state.scenario, list(state.in_play), known, watched, read)

    def holds(self, state: GameState, ruleset: Ruleset, table: CowTable[Unit]) -> bool:
        """Whether ``table`` (a clone of the table this census was noted on) and ``state``
        can give the checks nothing new to find (see the class docstring)."""
        if (
            self.ruleset is not ruleset
            or self.scenario != state.scenario
            or self.in_play != state.in_play
        ):
            return False
        for key in self.keys:
            if key not in table:
                return False  # a unit the checks read was removed
        keys, watched, known = self.keys, self.watched, self.known
        for key in table.written_keys():
            if key in keys:
                return False
            kind = table.peek(key).kind
            if kind in watched or kind not in known:
                return False
        return True
