"""Who fights a battle, and how: the units on each side, the terrain each fights on, whether it
is a Mercenary and whether it may withdraw (R-COMBAT-01, R-COMBAT-08, R-COMBAT-09, R-COMBAT-15,
R-MOVE-03, R-MOVE-13). Real battles and the odds calculator build their :class:`Fighter` lists
here, from the game state."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from itertools import repeat
from operator import attrgetter, is_

from caedes_bot.gamedata.model import Attribute, BaseType, Options, Ruleset, Terrain
from caedes_bot.rules.combat.arithmetic import (
    Fighter,
    FighterValues,
    StepContext,
    best_combat_terrain,
    fighter_values,
    step_context,
)
from caedes_bot.rules.combat.kept import Roster
from caedes_bot.rules.combat.naval import (
    attack_penalty,
    fighting_defenders,
    is_naval,
    may_withdraw_at_sea,
    naval_sides,
)
from caedes_bot.rules.mercenary import is_mercenary
from caedes_bot.rules.ownership import peek_hostile_units
from caedes_bot.rules.state import (
    Battle,
    CasualtyCandidate,
    GameState,
    Side,
    Unit,
)


def combat_terrain(state: GameState, ruleset: Ruleset, unit: Unit) -> Terrain | None:
    """The terrain ``unit`` fights on where it stands (R-MOVE-03): the province's only terrain,
    else the one it chose (stored when it moved in), else the best for its combat. Off land
    (river edges) there is none."""
    province = ruleset.map.provinces.get(unit.location)
    if province is None or not province.terrains:
        return None
    if len(province.terrains) == 1:
        return province.terrains[0]
    if unit.terrain is not None and unit.terrain in province.terrains:
        return unit.terrain
    return best_combat_terrain(ruleset.kind(unit.kind), province.terrains)


def can_withdraw(state: GameState, ruleset: Ruleset, unit: Unit, space: str) -> bool:
    """Whether ``unit`` may withdraw from the battle in ``space`` (R-COMBAT-08, R-COMBAT-09):
    it entered this turn from a province with a land border to ``space``. Units that came by a
    boarding move, an Amphibian crossing or teleportation entered from elsewhere and must stay;
    Towers never withdraw (R-ATTR-FORT-01). A unit that flew in withdraws only to where it
    entered from and only where a normal move could take it (R-ATTR-FLY-02): cavalry without
    Mountainlore never withdraws into mountains it flew over, and no flyer withdraws into a
    province it flew over that holds units of a faction not its pact partner (a normal move
    there ends as an attack, R-MOVE-02)."""
    kind = ruleset.kind(unit.kind)
    if kind.base_type is BaseType.TOWER:
        return False
    origin = unit.entered_from
    if unit.flew and origin is not None and origin in ruleset.map.provinces:
        if (
            kind.base_type is BaseType.CAVALRY
            and not kind.has(Attribute.MOUNTAINLORE)
            and all(t is Terrain.MOUNTAINS for t in ruleset.map.provinces[origin].terrains)
        ):
            return False
        if peek_hostile_units(state, ruleset, origin, unit.owner):
            return False
    return (
        origin is not None
        and unit.aboard is None
        and ruleset.map.is_province(origin)
        and origin in ruleset.map.land_neighbours(space)
    )


def fighter_of(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    side: Side,
    space: str,
    values: dict[tuple[str, Terrain | None], FighterValues] | None = None,
) -> Fighter:
    """The :class:`Fighter` for ``unit`` on ``side`` of the battle in ``space``. ``values``, if
    given, keeps the :func:`fighter_values` of each kind id and terrain of one ruleset. At sea
    a ship and its cargo withdraw together (R-COMBAT-08), and cavalry based on a ship attacks
    at -3 (R-MOVE-20, :mod:`.naval`)."""
    kind = ruleset.kind(unit.kind)
    terrain = combat_terrain(state, ruleset, unit)
    known = None
    if values is not None:
        known = values.get((kind.id, terrain))
        if known is None:
            known = values[(kind.id, terrain)] = fighter_values(kind, terrain)
    if is_naval(ruleset, space):
        withdraws = may_withdraw_at_sea(state, ruleset, unit, space)
    else:
        withdraws = can_withdraw(state, ruleset, unit, space)
    return Fighter(
        id=unit.id,
        kind=kind,
        faction=unit.owner,
        side=side,
        terrain=terrain,
        wounded=unit.wounded,
        muster_seq=unit.muster_seq,
        mercenary=is_mercenary(kind, state.options),
        can_withdraw=side is Side.ATTACKER and withdraws,
        known_values=known,
        attack_penalty=attack_penalty(state, ruleset, unit, side),
    )


def battle_sides(
    state: GameState, ruleset: Ruleset, space: str, attacker: str
) -> tuple[list[Unit], list[Unit]]:
    """The units of each side of a battle ``attacker`` fights in ``space`` (R-COMBAT-01,
    R-COMBAT-15): its own units there except Towers and ships; every unit of a non-partner
    faction there (with river-edge ships under ``river_ship_occupies``, R-MOVE-13; their cargo
    only with ``cargo_fights``, R-COMBAT-14). At sea, the sides of :func:`.naval.naval_sides`.
    Each side in id order. For reading only: the units are not copied, the caller must not
    change them."""
    if is_naval(ruleset, space):
        return naval_sides(state, ruleset, space, attacker)
    fights = _ATTACKING_BASES
    attackers = sorted(
        [
            u
            for u in state.peek_units()
            if u.location == space
            and u.owner == attacker
            and ruleset.kind(u.kind).base_type in fights
        ],
        key=_UNIT_ID,
    )
    return attackers, fighting_defenders(state, peek_hostile_units(state, ruleset, space, attacker))


#: the base types that attack on land (R-COMBAT-15: not Towers, not ships), held once (an
#: enum member read off its class is slow)
_ATTACKING_BASES = (BaseType.INFANTRY, BaseType.CAVALRY)
_UNIT_ID = attrgetter("id")


class _Memo:
    """What :func:`battle_fighters` and :func:`battle_context` keep in :meth:`Battle.memo`
    for one ruleset, one set of options and one space; shared by the clones of the state (every
    use checks what it was made from, so a clone never sees another's stale value)."""

    __slots__ = (
        "candidates",
        "context",
        "fighters",
        "keys",
        "last",
        "options",
        "ruleset",
        "space",
        "values",
    )

    def __init__(self, ruleset: Ruleset, options: Options, space: str) -> None:
        self.ruleset, self.options, self.space = ruleset, options, space
        #: each unit's fighter, by side and unit id
        self.fighters: dict[Side, dict[int, Fighter]] = {Side.ATTACKER: {}, Side.DEFENDER: {}}
        #: each unit's key in the state's unit table (its id as text), by unit id
        self.keys: dict[int, str] = {}
        #: :func:`fighter_values` of each kind id and terrain
        self.values: dict[tuple[str, Terrain | None], FighterValues] = {}
        #: the last roster made (:func:`battle_roster`)
        self.last: Roster | None = None
        self.context: tuple[list[Fighter], int, StepContext] | None = None
        #: each fighter's line in a casualty decision, by ``id(fighter)`` with the fighter
        #: (kept, so that its id is not reused while the line is)
        self.candidates: dict[int, tuple[Fighter, CasualtyCandidate]] = {}


def _memo(state: GameState, ruleset: Ruleset, battle: Battle) -> _Memo:
    memo = battle.memo()
    held = memo.get("sides")
    if (
        not isinstance(held, _Memo)
        or held.ruleset is not ruleset
        or held.options is not state.options
        or held.space != battle.space
    ):
        held = memo["sides"] = _Memo(ruleset, state.options, battle.space)
    return held


def battle_fighters(state: GameState, ruleset: Ruleset, battle: Battle) -> list[Fighter]:
    """The fighters of ``battle``, attackers then defenders, in the order of its unit lists:
    :attr:`Roster.fighters` of :func:`battle_roster`. The caller must not change the list."""
    return battle_roster(state, ruleset, battle).fighters


def battle_roster(state: GameState, ruleset: Ruleset, battle: Battle) -> Roster:
    """The :class:`~caedes_bot.rules.combat.kept.Roster` of ``battle`` as it stands.

    Kept from one call to the next (:meth:`Battle.memo`): while a unit fights only its wound
    changes (it neither moves nor changes kind, owner, terrain or origin until it withdraws or
    the battle ends, R-COMBAT-03..13), so a unit's fighter is kept by id and side for the
    ruleset, options and space it was made for, and remade when its wound changes. The roster
    is the same object while the unit lists and the unit objects are unchanged; when units have
    only left the lists or changed their wounds (and no battle magic is in play) the next
    roster is made from the last by taking them out (:meth:`Roster.without`); otherwise it is
    made again from the unit lists. Reads the units without copying them."""
    units = state.units
    attackers, defenders = battle.attacker_units, battle.defender_units
    # the common case first, without a call: the memo made for this ruleset, options and
    # space, no battle magic, the same unit lists, and nothing handed out for writing since
    memo = battle.__dict__.get("_memo")
    held = memo.get("sides") if memo is not None else None
    if (
        type(held) is _Memo
        and held.ruleset is ruleset
        and held.options is state.options
        and held.space == battle.space
    ):
        last = held.last
        if (
            last is not None
            and last.magic is None
            and not battle.declared
            and not battle.enchanted
            and last.attackers == attackers
            and last.defenders == defenders
        ):
            if last.table is units:
                if last.writes == getattr(units, "writes", None):
                    return last
            elif _shared_unchanged(last, units):  # the first ask after the state's clone
                return last
    else:
        held = _memo(state, ruleset, battle)
    magic = (
        (tuple(battle.declared), tuple(battle.abjured), tuple(battle.enchanted))
        if battle.declared or battle.enchanted
        else None
    )
    last = held.last
    if last is not None and last.magic == magic:
        if last.attackers == attackers and last.defenders == defenders:
            if last.table is units and last.writes == getattr(units, "writes", None):
                return last  # nothing handed out for writing since it was checked
            if last.table is not units and _shared_unchanged(last, units):
                return last
            listed = last.keys
            if listed is None:  # not kept (handed on by a step): the units' keys in the table
                listed = last.keys = list(map(str, (*last.attackers, *last.defenders)))
            look = dict.__getitem__  # reads without copying, even in a CowTable
            try:
                now = list(map(look, repeat(units), listed))
            except KeyError:
                now = None
            if now is not None and (
                (last.units is not None and all(map(is_, now, last.units)))
                or [u.wounded for u in now] == [f.wounded for f in last.fighters]
            ):
                last.seen(units, now)
                return last
        if magic is None:
            derived = _derive(held, last, units, attackers, defenders)
            if derived is not None:
                held.last = derived
                return derived
    keys: list[str] = []
    objs: list[Unit] = []
    out: list[Fighter] = []
    for side, ids in ((Side.ATTACKER, attackers), (Side.DEFENDER, defenders)):
        known = held.fighters[side]
        for uid in ids:
            key = held.keys.get(uid)
            if key is None:
                key = held.keys[uid] = str(uid)
            unit: Unit = dict.__getitem__(units, key)
            fighter = known.get(uid)
            if fighter is None:
                fighter = fighter_of(state, ruleset, unit, side, battle.space, held.values)
                known[uid] = fighter
            elif fighter.wounded is not unit.wounded:
                fighter = known[uid] = _with_wound(fighter, unit.wounded)
            keys.append(key)
            objs.append(unit)
            out.append(fighter)
    if magic is not None:
        out = _with_magic(state, battle, out)
    roster = Roster(list(attackers), list(defenders), keys, objs, out, state.options, magic)
    roster.seen(units, objs)
    held.last = roster
    return roster


def _shared_unchanged(last: Roster, units: dict[str, Unit]) -> bool:
    """Whether ``units`` is a table shared (:meth:`CowTable.share`, a clone of the state) from
    the table ``last`` was last checked against, at the count of writes it was checked at,
    and nothing was written to it since: it then holds the same objects, and ``last`` holds
    for it too (it is noted as checked against it)."""
    origin = getattr(units, "origin", None)
    if (
        origin is not None
        and origin[0] is last.token
        and origin[1] == last.writes
        and units.writes == 0  # type: ignore[attr-defined]
    ):
        last.seen(units, last.units)
        return True
    return False


def _derive(
    held: _Memo,
    last: Roster,
    units: dict[str, Unit],
    attackers: list[int],
    defenders: list[int],
) -> Roster | None:
    """The roster after units left ``last``'s lists or changed their wounds, made from
    ``last`` (:meth:`Roster.without`); ``None`` when the lists changed otherwise (a unit joined
    or changed sides) or a unit is not on the board."""
    # this runs after every step's casualties: comprehensions and set operations, a few
    # passes over the units staying
    here = set(attackers)
    here.update(defenders)
    if [u for u in last.attackers if u in here] != attackers:
        return None  # a unit joined the attackers, changed sides, or they changed order
    if [u for u in last.defenders if u in here] != defenders:
        return None
    ids = attackers + defenders
    gone = set(last.attackers)
    gone.update(last.defenders)
    gone.difference_update(here)
    fighters = [f for f in last.fighters if f.id in here] if gone else last.fighters
    key_of = held.keys
    try:
        keys = [key_of[uid] for uid in ids]
        now = list(map(dict.__getitem__, repeat(units), keys))  # no copy, even in a CowTable
    except KeyError:
        return None
    swapped: dict[int, Fighter] = {}
    for unit, f in zip(now, fighters, strict=True):
        if unit.wounded is not f.wounded:
            f = held.fighters[f.side][f.id] = _with_wound(f, unit.wounded)
            swapped[f.id] = f
    roster = last.without(gone, swapped, list(attackers), list(defenders), keys, now, fighters)
    roster.seen(units, now)
    return roster


def hand_on(
    state: GameState,
    ruleset: Ruleset,
    battle: Battle,
    roster: Roster,
    gone: set[int],
    wounded: Iterable[int],
) -> None:
    """Keep as ``battle``'s roster the one after a step's casualties: ``roster`` without the
    units ``gone`` and with the units ``wounded`` wounded (:meth:`Roster.without`), made by
    the step that removed them, so that the next :func:`battle_roster` finds it at once
    instead of working out from the unit lists what left. Only when ``roster`` is the battle's
    last roster and the unit lists are exactly its lists without ``gone``; otherwise nothing is
    kept and the next :func:`battle_roster` works it out as before."""
    held = _memo(state, ruleset, battle)
    if held.last is not roster or roster.magic is not None:
        return
    attackers, defenders = battle.attacker_units, battle.defender_units
    kept = [f for f in roster.fighters if f.id not in gone]
    if len(kept) != len(attackers) + len(defenders):
        return  # not only ``gone`` left: worked out from the unit lists when next asked
    swapped: dict[int, Fighter] = {}
    if wounded:
        by_id = roster.by_id
        known = held.fighters
        for uid in wounded:
            f = by_id[uid]
            if not f.wounded:
                f = known[f.side][uid] = _with_wound(f, True)
                swapped[uid] = f
    # the units' keys and objects are not listed: while nothing is written to the table or
    # to a clone of it, nothing is looked up (decision 0013); when something is, they are
    units = state.units
    new = roster.without(gone, swapped, list(attackers), list(defenders), None, None, kept)
    new.seen(units, None)
    held.last = new


def _with_wound(f: Fighter, wounded: bool) -> Fighter:
    """``dataclasses.replace(f, wounded=wounded)``, made directly (``replace`` looks at every
    field of the class on every call)."""
    return Fighter(
        id=f.id,
        kind=f.kind,
        faction=f.faction,
        side=f.side,
        terrain=f.terrain,
        wounded=wounded,
        muster_seq=f.muster_seq,
        mercenary=f.mercenary,
        can_withdraw=f.can_withdraw,
        known_values=f.known_values,
        attack_penalty=f.attack_penalty,
        shield=f.shield,
        enchanted=f.enchanted,
    )


def controller(state: GameState, battle: Battle, unit_id: int) -> str:
    """The faction a unit fights for: its owner, or for an enchanted unit the faction its
    Enchanter fought for when it took it (R-MAGIC-ENCH-01)."""
    for e in battle.enchanted:
        if e.unit == unit_id:
            return e.faction
    return state.peek_unit(unit_id).owner


def _with_magic(state: GameState, battle: Battle, fighters: list[Fighter]) -> list[Fighter]:
    """``fighters`` with this round's Abjurer shields (R-MAGIC-ABJ-01) and the enchanted units
    fighting for their Enchanter's faction (R-MAGIC-ENCH-01, -03)."""
    declared, used = set(battle.declared), set(battle.abjured)
    taken = {e.unit for e in battle.enchanted}
    out: list[Fighter] = []
    for f in fighters:
        shield = 1 if f.id in declared and f.id not in used and f.kind.has(Attribute.ABJURER) else 0
        enchanted = f.id in taken
        faction = controller(state, battle, f.id) if enchanted else f.faction
        if (shield, enchanted, faction) != (f.shield, f.enchanted, f.faction):
            # an enchanted unit never withdraws: it did not come from anywhere (R-COMBAT-08)
            withdraw = f.can_withdraw and not enchanted
            f = replace(
                f, shield=shield, enchanted=enchanted, faction=faction, can_withdraw=withdraw
            )
        out.append(f)
    return out


def battle_context(
    state: GameState, ruleset: Ruleset, battle: Battle, fighters: list[Fighter]
) -> StepContext:
    """:func:`~caedes_bot.rules.combat.arithmetic.step_context` of ``fighters`` (as
    :func:`battle_fighters` returned them) in the battle's current round, kept while the same
    list is asked for in the same round."""
    held = _memo(state, ruleset, battle)
    if held.last is not None and held.last.fighters is fighters:
        return held.last.context(battle.round)
    known = held.context
    if known is not None and known[0] is fighters and known[1] == battle.round:
        return known[2]
    ctx = step_context(fighters, battle.round, state.options)
    held.context = (fighters, battle.round, ctx)
    return ctx


def battle_candidates(
    state: GameState, ruleset: Ruleset, battle: Battle, fighters: Iterable[Fighter]
) -> tuple[CasualtyCandidate, ...]:
    """The lines of a ``casualties`` decision for ``fighters`` (R-COMBAT-06), in unit id order;
    each fighter's line (frozen) is made once per battle and wound and kept."""
    known = _memo(state, ruleset, battle).candidates
    out: list[CasualtyCandidate] = []
    for f in sorted(fighters, key=_BY_ID):
        held = known.get(id(f))
        if held is None or held[0] is not f:
            held = known[id(f)] = (f, CasualtyCandidate(f.id, f.kind.id, f.wounded, f.capacity))
        out.append(held[1])
    return tuple(out)


_BY_ID = attrgetter("id")
