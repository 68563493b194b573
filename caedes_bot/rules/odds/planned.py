"""Battles to work odds out for: the one set up in a province now, an attack still being
planned, or units listed by hand (issue 13; R-COMBAT-01, R-COMBAT-06, R-COMBAT-09,
R-COMBAT-15, R-MOVE-03, R-ATTR-UNDEAD-03).

Each gives a :class:`BattleSetup`: the fighters as real battles would make them
(:mod:`caedes_bot.rules.combat.sides`), the attacker, the defenders' hand-out order, the round
about to begin, the hitless rounds behind, and which factions' bound units are safe because a
Necromancer or Summoner of theirs stands elsewhere on the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from caedes_bot.gamedata.model import BaseType, Options, Ruleset, Terrain, UnitKind
from caedes_bot.rules.combat.arithmetic import Fighter, best_combat_terrain, handout_order
from caedes_bot.rules.combat.naval import attack_penalty, first_defender
from caedes_bot.rules.combat.sides import battle_sides, fighter_of
from caedes_bot.rules.combat.specials import special_action
from caedes_bot.rules.dependants import BONDS
from caedes_bot.rules.mercenary import is_mercenary
from caedes_bot.rules.odds.model import default_declared
from caedes_bot.rules.ownership import hostile_units
from caedes_bot.rules.state import Battle, BattleAction, BattlePhase, GameState, Side, Step

#: Most units a side may list by hand.
MAX_LISTED = 300


@dataclass(frozen=True, slots=True)
class BattleSetup:
    """A battle to work out (arguments of :func:`caedes_bot.rules.odds.odds_for`).

    Attributes:
        space: the province, if any. fighters: both sides. attacker: the attacking faction.
        defender_order: defending factions, hand-out order (R-COMBAT-06).
        start_round / hitless_rounds: where a battle under way stands (1 and 0 for a new one).
        masters_elsewhere: ``(faction, master attribute)`` pairs whose Necromancer or Summoner
            stands outside the battle, so its Undead or Summoned units cannot be lost with the
            masters fighting here (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03).
        declared: ``(unit id, action)`` of the units using a special action every round, from
            the standing orders of a battle under way (R-COMBAT-12); ``None``: the defaults of
            a missed deadline.
        aboard: ``(unit id, ship id)`` of the fighters carried by a fighting ship (R-MOVE-19).
    """

    space: str | None
    fighters: tuple[Fighter, ...]
    attacker: str
    defender_order: tuple[str, ...]
    start_round: int = 1
    hitless_rounds: int = 0
    masters_elsewhere: frozenset[tuple[str, str]] = frozenset()
    declared: tuple[tuple[int, BattleAction], ...] | None = None
    aboard: tuple[tuple[int, int], ...] = ()

    def odds_arguments(self) -> dict[str, Any]:
        """The keyword arguments of :func:`caedes_bot.rules.odds.odds_for` for this battle,
        after the fighters and options."""
        return {
            "attacker": self.attacker,
            "defender_order": self.defender_order,
            "start_round": self.start_round,
            "hitless_rounds": self.hitless_rounds,
            "masters_elsewhere": self.masters_elsewhere,
            "declared": None if self.declared is None else dict(self.declared),
            "aboard": dict(self.aboard),
        }


def masters_elsewhere(
    state: GameState, ruleset: Ruleset, fighters: Sequence[Fighter]
) -> frozenset[tuple[str, str]]:
    """The ``(faction, master)`` pairs of the fighters' factions with a master of a bond on the
    board outside the battle (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03)."""
    fighting = {f.id for f in fighters}
    factions = {f.faction for f in fighters}
    out: set[tuple[str, str]] = set()
    for unit in state.peek_units():
        if unit.owner not in factions or unit.id in fighting:
            continue
        kind = ruleset.kind(unit.kind)
        for bond in BONDS:
            if kind.has(bond.master):
                out.add((unit.owner, bond.master.value))
    return frozenset(out)


def battle_now(
    state: GameState, ruleset: Ruleset, space: str, attacker: str | None = None
) -> BattleSetup:
    """The battle ``attacker`` (default: the active faction) fights in ``space``, as
    :class:`~caedes_bot.rules.combat.orders.FightBattle` would set it up (R-COMBAT-01); if that
    battle is under way, from the start of its next round with its wounds.

    Raises:
        ValueError: no attacker, nobody to fight there, or casualties are owed right now.
    """
    battle = state.battle
    if battle is not None and battle.space == space:
        if battle.phase not in (BattlePhase.ROUND_START, BattlePhase.PRESS_OR_WITHDRAW):
            raise ValueError("odds are worked out between rounds, not while casualties are owed")
        fighters = [
            fighter_of(state, ruleset, state.unit(uid), Side.ATTACKER, space)
            for uid in battle.attacker_units
        ] + [
            fighter_of(state, ruleset, state.unit(uid), Side.DEFENDER, space)
            for uid in battle.defender_units
        ]
        next_round = battle.round + (0 if battle.phase is BattlePhase.ROUND_START else 1)
        return BattleSetup(
            space,
            tuple(fighters),
            battle.attacker,
            tuple(battle.defenders),
            next_round,
            battle.hitless_rounds,
            masters_elsewhere(state, ruleset, fighters),
            standing_declarations(battle, fighters, state.options),
            carried(state, fighters),
        )
    faction = attacker or state.active
    if faction is None:
        raise ValueError("no attacking faction")
    attackers, defenders = battle_sides(state, ruleset, space, faction)
    if not attackers or not defenders:
        raise ValueError(f"no battle to fight at {space}")
    fighters = [fighter_of(state, ruleset, u, Side.ATTACKER, space) for u in attackers] + [
        fighter_of(state, ruleset, u, Side.DEFENDER, space) for u in defenders
    ]
    first = first_defender(state, ruleset, space, defenders)  # R-COMBAT-06: at sea, most units
    order = handout_order({u.owner for u in defenders}, first, ruleset.turn_order)
    return BattleSetup(
        space,
        tuple(fighters),
        faction,
        tuple(order),
        masters_elsewhere=masters_elsewhere(state, ruleset, fighters),
        aboard=carried(state, fighters),
    )


def standing_declarations(
    battle: Battle, fighters: Sequence[Fighter], options: Options
) -> tuple[tuple[int, BattleAction], ...]:
    """The units of ``battle`` that will use a special action from the next round
    (R-COMBAT-12): per faction and kind, the first ``count`` by id of its standing order; a
    kind with no order takes the default of a missed deadline."""
    defaults = default_declared(fighters, options, battle.round)
    groups: dict[tuple[str, str], list[Fighter]] = {}
    for f in sorted(fighters, key=lambda f: f.id):
        if special_action(f.kind) is not None:
            groups.setdefault((f.faction, f.kind.id), []).append(f)
    out: list[tuple[int, BattleAction]] = []
    for (faction, kind_id), members in sorted(groups.items()):
        order = next(
            (o for o in battle.standing if o.faction == faction and o.kind == kind_id), None
        )
        if order is None:
            out += [(f.id, defaults[f.id]) for f in members if f.id in defaults]
        else:
            out += [(f.id, order.action) for f in members[: order.count]]
    return tuple(sorted(out))


def carried(state: GameState, fighters: Sequence[Fighter]) -> tuple[tuple[int, int], ...]:
    """``(unit id, ship id)`` of the fighters aboard a ship that fights too: they go down
    with it (R-MOVE-19)."""
    ids = {f.id for f in fighters}
    out = []
    for f in fighters:
        unit = state.units.get(str(f.id))
        if unit is not None and unit.aboard is not None and unit.aboard in ids:
            out.append((f.id, unit.aboard))
    return tuple(sorted(out))


def planned_board(
    state: GameState, faction: str, space: str, origin: str, unit_ids: Sequence[int]
) -> GameState:
    """A copy of ``state`` with ``faction``'s ``unit_ids`` moved from ``origin`` into ``space``
    as attackers (R-COMBAT-01), to fight the planned battle on the real battle path
    (:mod:`caedes_bot.rules.odds.fought`). Nothing is checked about the move; ``state`` does
    not change."""
    board = state.clone()
    for uid in unit_ids:
        unit = board.unit(uid)
        if unit.owner != faction:
            continue
        unit.location = space
        unit.attacking, unit.move_ended = True, True
        unit.entered_from = origin
    return board


def can_attack_with(ruleset: Ruleset, kind: UnitKind) -> bool:
    """Whether units of ``kind`` can be on an attacking side (R-COMBAT-15: no Towers, no ships
    in a land battle)."""
    return kind.base_type in (BaseType.INFANTRY, BaseType.CAVALRY)


def planned_attack(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    space: str,
    origin: str,
    unit_ids: Sequence[int],
) -> BattleSetup:
    """The battle ``faction`` would fight in ``space`` after moving ``unit_ids`` there from
    ``origin`` (R-COMBAT-01): those units and its units already there that fight, against every
    unit there of a faction that is not its partner. Each moved unit fights on the terrain best
    for it (R-MOVE-03) and may withdraw if ``origin`` borders ``space`` by land (R-COMBAT-09).
    Nothing is checked about the move itself.

    Raises:
        ValueError: nobody to fight in ``space``, or no unit that can attack.
    """
    defenders = hostile_units(state, ruleset, space, faction)
    if not defenders:
        raise ValueError(f"no unit to fight at {space}")
    there, _ = battle_sides(state, ruleset, space, faction)
    province = ruleset.map.provinces.get(space)
    terrains = province.terrains if province is not None else ()
    by_land = origin in ruleset.map.land_neighbours(space)
    moved: list[Fighter] = []
    for uid in unit_ids:
        unit = state.unit(uid)
        kind = ruleset.kind(unit.kind)
        if unit.owner != faction or not can_attack_with(ruleset, kind):
            continue
        moved.append(
            Fighter(
                id=unit.id,
                kind=kind,
                faction=faction,
                side=Side.ATTACKER,
                terrain=best_combat_terrain(kind, terrains),
                wounded=unit.wounded,
                muster_seq=unit.muster_seq,
                mercenary=is_mercenary(kind, state.options),
                can_withdraw=by_land and unit.aboard is None,
                attack_penalty=attack_penalty(state, ruleset, unit, Side.ATTACKER),  # R-MOVE-20
            )
        )
    if not moved and not there:
        raise ValueError("no unit that can attack")
    seen = {f.id for f in moved}
    fighters = (
        moved
        + [fighter_of(state, ruleset, u, Side.ATTACKER, space) for u in there if u.id not in seen]
        + [fighter_of(state, ruleset, u, Side.DEFENDER, space) for u in defenders]
    )
    first = first_defender(state, ruleset, space, defenders)  # R-COMBAT-06: at sea, most units
    order = handout_order({u.owner for u in defenders}, first, ruleset.turn_order)
    return BattleSetup(
        space,
        tuple(fighters),
        faction,
        tuple(order),
        masters_elsewhere=masters_elsewhere(state, ruleset, fighters),
        aboard=carried(state, fighters),
    )


def listed_battle(
    ruleset: Ruleset,
    options: Options,
    attackers: Sequence[UnitKind],
    defenders: Sequence[UnitKind],
    *,
    terrain: Terrain | None = None,
    space: str | None = None,
    owner: str | None = None,
) -> BattleSetup:
    """A battle of units listed by hand: ``attackers`` (all of one faction) against
    ``defenders`` (of other factions), on ``terrain``, else on the terrain of ``space`` best for
    each unit (R-MOVE-03), else on none. Units are numbered in the order listed, the later
    ones the more recently mustered (R-COMBAT-06); the defenders' hand-out order starts with
    ``owner`` (R-COMBAT-06). A Necromancer or Summoner listed is taken as its faction's only one.

    Raises:
        ValueError: a side is empty or over :data:`MAX_LISTED`, the attackers are of several
            factions or cannot attack (R-COMBAT-15), or a faction is on both sides.
    """
    if not attackers or not defenders:
        raise ValueError("both sides need at least one unit")
    if len(attackers) > MAX_LISTED or len(defenders) > MAX_LISTED:
        raise ValueError(f"at most {MAX_LISTED} units a side")
    attacker = {k.faction for k in attackers}
    if len(attacker) != 1:
        raise ValueError("the attackers must all be of one faction")
    (faction,) = attacker
    if faction in {k.faction for k in defenders}:
        raise ValueError("a faction cannot fight itself")
    if any(not can_attack_with(ruleset, k) for k in attackers):
        raise ValueError("Towers and ships never attack in a land battle")
    terrains: tuple[Terrain, ...] = ()
    if terrain is not None:
        terrains = (terrain,)
    elif space is not None and space in ruleset.map.provinces:
        terrains = tuple(ruleset.map.provinces[space].terrains)
    fighters: list[Fighter] = []
    for side, kinds in ((Side.ATTACKER, attackers), (Side.DEFENDER, defenders)):
        for kind in kinds:
            uid = len(fighters) + 1
            fighters.append(
                Fighter(
                    id=uid,
                    kind=kind,
                    faction=kind.faction,
                    side=side,
                    terrain=best_combat_terrain(kind, terrains),
                    muster_seq=uid,
                    mercenary=is_mercenary(kind, options),
                    can_withdraw=side is Side.ATTACKER,
                )
            )
    order = handout_order({k.faction for k in defenders}, owner, ruleset.turn_order)
    return BattleSetup(space, tuple(fighters), faction, tuple(order))


def battles_ahead(state: GameState, ruleset: Ruleset, faction: str) -> list[str]:
    """The battles ``faction`` is about to fight, in the order they come by default: in step 6,
    where its units have moved in among other factions' units (R-COMBAT-01); in step 7 the one
    under way and those still due (R-COMBAT-02). Empty in other steps or on another's turn."""
    if state.active != faction:
        return []
    if state.step is Step.COMBAT:
        out = [state.battle.space] if state.battle is not None else []
        return out + [s for s in state.battles_due if s not in out]
    if state.step is not Step.MOVE:
        return []
    spaces = sorted({u.location for u in state.units_of(faction) if u.attacking})
    due = [s for s in spaces if hostile_units(state, ruleset, s, faction)]
    due.sort(key=lambda s: (ruleset.map.space_name(s), s))
    return due
