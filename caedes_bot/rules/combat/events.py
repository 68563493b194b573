"""What a battle reports, in the order it happens (R-COMBAT-01..13): the battles due when step 6
ends, each battle's beginning, every step's dice, the casualties owed and removed, each round's
end, the withdrawal offered and made, and the end with its result. The capture a won battle
brings is :class:`~caedes_bot.rules.ownership.ProvinceCaptured`."""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.rules.combat.arithmetic import BattleResult
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import (
    BattleDie,
    CombatStep,
)


@dataclass(frozen=True, slots=True)
class BattlesDue(Event):
    """``faction`` must fight in ``spaces`` this step 7 (R-COMBAT-01), default order first."""

    faction: str
    spaces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BattleBegan(Event):
    """A battle began (R-COMBAT-01): who fights on each side."""

    battle: int
    space: str
    attacker: str
    defenders: tuple[str, ...]
    attacker_units: tuple[int, ...]
    defender_units: tuple[int, ...]


#: One fighter of :class:`BattleOddsAsked`: unit id, kind id, faction, side (``Side.value``),
#: terrain (``Terrain.value``, "" off land), wounded, muster order, Mercenary, may withdraw,
#: attack penalty (the fields of :class:`~caedes_bot.rules.combat.arithmetic.Fighter`).
FighterRow = tuple[int, str, str, str, str, bool, int, bool, bool, int]


@dataclass(frozen=True, slots=True)
class BattleOddsAsked(Event):
    """With the option ``battle_message_odds``, a battle began whose message will show its
    odds (R-COMBAT-16, issue 13): the battle as it began, for the odds worked out after the
    order, off its path (decision 0020). ``fighters`` as :data:`FighterRow`; ``defenders`` in
    hand-out order; ``masters_elsewhere`` the ``(faction, master attribute)`` pairs whose
    master stands outside the battle; ``aboard`` ``(unit id, ship id)`` of the cargo;
    ``declared`` ``(unit id, BattleAction value)`` the declarations it begins with (R-COMBAT-12;
    :mod:`caedes_bot.rules.odds.opening` makes it and reads it back)."""

    battle: int
    space: str
    attacker: str
    defenders: tuple[str, ...]
    fighters: tuple[FighterRow, ...]
    masters_elsewhere: tuple[tuple[str, str], ...] = ()
    aboard: tuple[tuple[int, int], ...] = ()
    declared: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class BattleOddsNoted(Event):
    """The odds a battle began with, as an earlier version of the bot worked them out on the
    order's path (option ``battle_message_odds``, R-COMBAT-16): ``figures`` (attacker takes
    it, defender holds, both destroyed, expected rounds, standard error, battles rolled),
    ``method`` and the attributes not modelled. No longer made (:class:`BattleOddsAsked` is,
    decision 0020); kept so that the events stored then still load."""

    battle: int
    space: str
    figures: tuple[float, ...]
    method: str
    unsupported: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BattleStepResolved(Event):
    """The dice of one missile or melee step (R-COMBAT-04, -05, R-GEN-08): every die with its
    unit, target, face and whether it hit; and the hits on each side."""

    battle: int
    space: str
    round: int
    step: CombatStep
    dice: tuple[BattleDie, ...]
    hits_on_attacker: int
    hits_on_defender: int


@dataclass(frozen=True, slots=True)
class CasualtiesOwed(Event):
    """``chooser`` must choose which of ``faction``'s units take ``hits`` (R-COMBAT-06)."""

    battle: int
    space: str
    chooser: str
    faction: str
    hits: int
    decision: int


@dataclass(frozen=True, slots=True)
class CasualtiesRemoved(Event):
    """Casualties of one step, removed from both sides at once (R-COMBAT-04, -06)."""

    battle: int
    space: str
    round: int
    step: CombatStep
    attacker_destroyed: tuple[int, ...]
    attacker_wounded: tuple[int, ...]
    defender_destroyed: tuple[int, ...]
    defender_wounded: tuple[int, ...]
    absorbed: tuple[int, ...] = ()
    """Abjurers that cancelled a hit (R-MAGIC-ABJ-01), either side."""


@dataclass(frozen=True, slots=True)
class BattleRoundEnded(Event):
    """A round ended with both sides still fighting (R-COMBAT-03)."""

    battle: int
    space: str
    round: int
    attacker_units: tuple[int, ...]
    defender_units: tuple[int, ...]
    hitless_rounds: int


@dataclass(frozen=True, slots=True)
class WithdrawalOffered(Event):
    """The attacker may press on or withdraw ``can_withdraw`` (R-COMBAT-08, -09)."""

    battle: int
    space: str
    faction: str
    round: int
    decision: int
    can_withdraw: tuple[int, ...]
    must_stay: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AttackerWithdrew(Event):
    """Attacking units withdrew, each to the space it came from (R-COMBAT-08)."""

    battle: int
    space: str
    faction: str
    unit_ids: tuple[int, ...]
    destinations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    """A battle ended (R-COMBAT-10, R-COMBAT-11).

    Attributes:
        destroyed_at_end: wounded units destroyed by cleanup (R-ATTR-FORTI-02) and, in a
            stalemate, attacking units that could not withdraw (R-COMBAT-13).
        owner: the province's owner after the battle.
    """

    battle: int
    space: str
    result: BattleResult
    attacker_survivors: tuple[int, ...]
    defender_survivors: tuple[int, ...]
    destroyed_at_end: tuple[int, ...]
    owner: str | None
