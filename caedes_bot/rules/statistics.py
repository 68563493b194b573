"""Each faction's statistics, kept as counters folded from every order's events (issue 15;
decision 0021).

After each order the engine calls :func:`record` with the events the order made; it updates
``GameState.stats`` (faction code -> :class:`~caedes_bot.rules.state.FactionStats`). The
counters are part of the state, so they are stored, replayed and rolled back with it, and
reading them costs nothing. What is counted, per faction:

* ``income``: RP collected in step 3, by game round (R-COLL-04);
* ``bought``: units bought and not cancelled (R-BUY-01); ``lost``: its units destroyed in battle (casualties
  and cleanup, R-COMBAT-05, R-COMBAT-11), disbanded (R-UPK-02, R-UPK-03) or lost with their
  Necromancer or Summoner (R-ATTR-UNDEAD-03, R-MAGIC-SUMM-03);
* ``battles_won`` / ``battles_lost``: as the attacker, a battle won or held against it; as a
  defender, a battle held or lost (R-COMBAT-10, R-COMBAT-11); a withdrawal is lost by the
  attacker and won by the defenders; both destroyed and a stalemate count for nobody;
* ``provinces``: provinces owned when its turn of each game round began (R-COLL-01);
* dice luck: ``dice`` attack and defence dice rolled (R-COMBAT-04, dice that stand only),
  ``hits`` those that hit, and ``expected_tenths`` the hits expected, in tenths: each die at
  or under its target on a d10 hits with chance target/10 (R-GEN-02).

Counters never change what the rules decide.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from types import MappingProxyType

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import buy, collect, dependants, turn, upkeep
from caedes_bot.rules.combat import events as combat
from caedes_bot.rules.combat.arithmetic import BattleResult
from caedes_bot.rules.combat.luck import kept_step_luck
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import BattleDie, DiePurpose, FactionStats, GameState, Side

#: where each counter an order adds to is summed (:func:`record`): one list per faction
_BOUGHT, _LOST, _WON, _LOST_BATTLES, _DICE, _HITS, _TENTHS = range(7)

Tally = Callable[[str], list[int]]


def _add_round(
    pairs: tuple[tuple[int, int], ...], round_no: int, value: int, *, total: bool
) -> tuple[tuple[int, int], ...]:
    found = dict(pairs)
    found[round_no] = (found.get(round_no, 0) + value) if total else value
    return tuple(sorted(found.items()))


def record(before: GameState, after: GameState, events: Sequence[Event], ruleset: Ruleset) -> None:
    """Fold one order's ``events`` into ``after.stats`` (see the module docstring). ``before``
    is the state the order was applied to (never changed), for the owners of units the order
    destroyed. Mutates ``after``.

    The counters an order adds to are summed first and each faction's are written once at
    the end (one new :class:`FactionStats` per faction and order, not one per die or unit: a
    battle step rolls a dozen dice). A faction met for the first time enters ``stats`` at
    once, so the factions keep the order in which the events first named them. Each event is
    sorted by its class (:data:`_BRANCHES`, one dictionary look-up; a class not listed there,
    a subclass, is sorted by ``isinstance`` as the list of folded events gives it)."""
    stats = after.stats
    sums: dict[str, list[int]] = {}
    for event in events:
        branch = _BRANCH_OF.get(type(event), _UNLISTED)
        if branch == _UNLISTED:
            branch = _branch_of(event)
        if branch is None:
            continue
        if branch == _STEP:
            assert isinstance(event, combat.BattleStepResolved)
            sides = after.stats_battles.get(str(event.battle))
            luck = _counted_luck(after, sides, event.dice)
            if luck is None:
                luck = _dice_luck(ruleset, sides, event.dice)
            for who, (count, hits, tenths) in luck.items():
                if who is not None:
                    mine = sums.get(who) or _tally(stats, sums, who)
                    mine[_DICE] += count
                    mine[_HITS] += hits
                    mine[_TENTHS] += tenths
        elif branch == _REMOVED:
            assert isinstance(event, combat.CasualtiesRemoved)
            gone = event.attacker_destroyed + event.defender_destroyed
            if gone:
                _count_lost(stats, sums, before, after, gone)
        elif branch == _INCOME:
            assert isinstance(event, collect.IncomeCollected)
            old = stats.get(event.faction) or FactionStats()
            stats[event.faction] = replace(
                old, income=_add_round(old.income, event.round, event.rp_gained, total=True)
            )
        elif branch == _BOUGHT_EVENT:
            assert isinstance(event, buy.UnitsBought)
            _tally(stats, sums, event.faction)[_BOUGHT] += event.count
        elif branch == _CANCELLED:
            assert isinstance(event, buy.PurchaseCancelled)
            _tally(stats, sums, event.faction)[_BOUGHT] -= event.count
        elif branch == _BEGAN:
            assert isinstance(event, combat.BattleBegan)
            after.stats_battles[str(event.battle)] = [event.attacker, *event.defenders]
        elif branch == _ENDED:
            assert isinstance(event, combat.BattleEnded)
            _count_lost(stats, sums, before, after, event.destroyed_at_end)
            sides = after.stats_battles.pop(str(event.battle), None)
            if sides:
                _battle_result(partial(_tally, stats, sums), sides[0], sides[1:], event.result)
        elif branch == _UNITS_GONE:
            assert isinstance(event, upkeep.UnitsDisbanded | dependants.BoundUnitsLost)
            _tally(stats, sums, event.faction)[_LOST] += len(event.units)
        else:  # _TURN
            assert isinstance(event, turn.TurnBegan)
            owned = sum(1 for owner in after.owners.values() if owner == event.faction)
            old = stats.get(event.faction) or FactionStats()
            stats[event.faction] = replace(
                old, provinces=_add_round(old.provinces, event.round, owned, total=False)
            )
    for faction, (bought, lost, won, lost_battles, dice, hits, tenths) in sums.items():
        old = stats[faction]  # the counters summed are not those set above
        stats[faction] = FactionStats(  # every field, in order: dataclasses.replace costs more
            old.income,
            old.bought + bought,
            old.lost + lost,
            old.battles_won + won,
            old.battles_lost + lost_battles,
            old.provinces,
            old.dice + dice,
            old.hits + hits,
            old.expected_tenths + tenths,
        )


def _tally(stats: dict[str, FactionStats], sums: dict[str, list[int]], faction: str) -> list[int]:
    """The sums of ``faction``, made (and the faction entered in ``stats``) when first met."""
    mine = sums.get(faction)
    if mine is None:
        mine = sums[faction] = [0, 0, 0, 0, 0, 0, 0]
        if faction not in stats:
            stats[faction] = FactionStats()
    return mine


def _count_lost(
    stats: dict[str, FactionStats],
    sums: dict[str, list[int]],
    before: GameState,
    after: GameState,
    unit_ids: Sequence[int],
) -> None:
    """Count each of ``unit_ids`` as lost by its owner, read from ``before`` (the state the
    order was applied to) or else ``after``; a unit in neither counts for nobody."""
    old, new = before.units, after.units
    for uid in unit_ids:
        key = str(uid)
        unit = dict.get(old, key) or dict.get(new, key)  # read only, no copy
        if unit is not None:
            mine = sums.get(unit.owner)
            if mine is None:
                mine = _tally(stats, sums, unit.owner)
            mine[_LOST] += 1


#: the events :func:`record` folds, in the order it sorts them (an event of a subclass of
#: two of them is folded as the first); any other is passed over
_FOLDED: tuple[type[Event] | tuple[type[Event], ...], ...] = (
    combat.BattleStepResolved,
    combat.CasualtiesRemoved,
    collect.IncomeCollected,
    buy.UnitsBought,
    buy.PurchaseCancelled,
    combat.BattleBegan,
    combat.BattleEnded,
    (upkeep.UnitsDisbanded, dependants.BoundUnitsLost),
    turn.TurnBegan,
)
#: how :func:`record` folds each of them (a branch of its loop), by their place in _FOLDED
_STEP, _REMOVED, _INCOME, _BOUGHT_EVENT, _CANCELLED, _BEGAN, _ENDED, _UNITS_GONE, _TURN = range(9)
_UNLISTED = -1


def _branch_of(event: Event) -> int | None:
    """The branch of :func:`record` that folds ``event``, by ``isinstance`` in the order of
    :data:`_FOLDED`; ``None`` for an event it passes over."""
    for branch, classes in enumerate(_FOLDED):
        if isinstance(event, classes):
            return branch
    return None


def _branches() -> dict[type[Event], int | None]:
    """Every event class the rules define (the subclasses of :class:`Event`, however deep,
    at import time) with its branch (:func:`_branch_of` of an instance, worked out from the
    class without making one). A class made later (a test's) is not listed: :func:`record`
    asks :func:`_branch_of` for it."""
    found: dict[type[Event], int | None] = {}
    todo = [Event]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        found[cls] = next(
            (n for n, classes in enumerate(_FOLDED) if issubclass(cls, classes)), None
        )
    return found


#: event class -> branch of :func:`record` (``None``: passed over); read-only after import
_BRANCHES: Mapping[type[Event], int | None] = MappingProxyType(_branches())
#: the same table as a plain ``dict``, which :func:`record` reads (a ``mappingproxy``'s ``get``
#: is a method call of its own, once per event of every order); never changed
_BRANCH_OF: dict[type[Event], int | None] = dict(_BRANCHES)


def _dice_luck(
    ruleset: Ruleset, sides: list[str] | None, dice: Sequence[BattleDie]
) -> dict[str | None, list[int]]:
    """Per roller (:func:`_roller`), in the order the rollers first appear: the standing
    normal dice of one step, those that hit, and the hits expected in tenths (each die's
    target held to 0..10, R-GEN-02). One bump per roller and step instead of one per die:
    the same sums, and the factions enter ``stats`` in the same order."""
    if sides is not None and len(sides) == 2:  # one defender: the roller is the die's side's
        quick = _one_defender(sides, dice)
        if quick is not None:
            return quick
    by_kind: tuple[dict[str, list[int]], dict[str, list[int]]] = ({}, {})  # attacker's, defender's
    met: list[tuple[Side, str, list[int]]] = []  # each side and kind as first met
    normal, attacker = DiePurpose.NORMAL, Side.ATTACKER
    for die in dice:
        if die.purpose is not normal or die.rerolled or die.void:  # not ``die.counts``
            continue
        table = by_kind[0] if die.side is attacker else by_kind[1]
        tally = table.get(die.kind)
        if tally is None:
            tally = table[die.kind] = [0, 0, 0]
            met.append((die.side, die.kind, tally))
        tally[0] += 1
        if die.hit:
            tally[1] += 1
        target = die.target
        tally[2] += 0 if target < 0 else 10 if target > 10 else target
    out: dict[str | None, list[int]] = {}
    for side, kind, (count, hits, tenths) in met:
        who = _roller(ruleset, sides, side, kind)
        mine = out.get(who)
        if mine is None:
            out[who] = [count, hits, tenths]
        else:
            mine[0] += count
            mine[1] += hits
            mine[2] += tenths
    return out


def _counted_luck(
    after: GameState, sides: list[str] | None, dice: tuple[BattleDie, ...]
) -> dict[str | None, list[int]] | None:
    """:func:`_dice_luck` of a step of the battle under way in ``after`` with one attacker and
    one defender, as the step counted it when it rolled its dice (only a step whose every die
    is a normal die that stands, the attacker's first, keeps it:
    :func:`~caedes_bot.rules.combat.luck.keep_step_luck`): what :func:`_one_defender` would
    work out die by die, or :func:`_dice_luck` when a target is outside 0..10 (each held to
    0..10, every die still its side's faction's). ``None`` when nothing was kept for these
    dice (the caller counts them)."""
    if sides is None or len(sides) != 2:
        return None
    kept = kept_step_luck(after.battle, dice)
    if kept is None:
        return None
    attacker, defender = kept
    out: dict[str | None, list[int]] = {}
    if attacker[0]:
        out[sides[0]] = list(attacker)
    if defender[0]:
        out[sides[1]] = list(defender)
    return out


def _one_defender(
    sides: list[str], dice: Sequence[BattleDie]
) -> dict[str | None, list[int]] | None:
    """:func:`_dice_luck` of a battle of one attacker and one defender (every die is its
    side's faction's, :func:`_roller`) when every die is a normal die that stands, with a
    target in 0..10, and the attacker's come first, as a step rolls them: one pass over the
    dice, without the tally per kind. ``None`` otherwise (the caller counts die by die)."""
    normal, attacker = _NORMAL, _ATTACKER
    dice_a = hits_a = tenths_a = dice_d = hits_d = tenths_d = 0
    for die in dice:
        if die.purpose is not normal or die.rerolled or die.void:
            return None
        target = die.target
        if target < 0 or target > 10:
            return None  # a target to hold to 0..10: die by die
        if die.side is attacker:
            if dice_d:
                return None  # not every attacker die first
            dice_a += 1
            tenths_a += target
            if die.hit:
                hits_a += 1
        else:
            dice_d += 1
            tenths_d += target
            if die.hit:
                hits_d += 1
    if not dice_a and not dice_d:
        return None
    out: dict[str | None, list[int]] = {}
    if dice_a:
        out[sides[0]] = [dice_a, hits_a, tenths_a]
    if dice_d:
        out[sides[1]] = [dice_d, hits_d, tenths_d]
    return out


_NORMAL = DiePurpose.NORMAL
_ATTACKER = Side.ATTACKER


def _roller(ruleset: Ruleset, sides: list[str] | None, side: Side, kind: str) -> str | None:
    """Whose die it is: the attacker's, or the defender whose kind it is (else the first
    defender); without the battle's sides, the kind's faction."""
    owner = ruleset.kind(kind).faction
    if not sides:
        return owner
    if side is Side.ATTACKER:
        return sides[0]
    if owner in sides[1:]:
        return owner
    return sides[1] if len(sides) > 1 else None


def _battle_result(
    tally: Tally, attacker: str, defenders: Sequence[str], result: BattleResult
) -> None:
    if result is BattleResult.ATTACKER_WON:
        tally(attacker)[_WON] += 1
        for d in defenders:
            tally(d)[_LOST_BATTLES] += 1
    elif result in (BattleResult.DEFENDER_HELD, BattleResult.WITHDRAWN):
        tally(attacker)[_LOST_BATTLES] += 1
        for d in defenders:
            tally(d)[_WON] += 1
