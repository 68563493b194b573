"""What the special actions of a battle report (R-COMBAT-12, R-MAGIC-ABJ-01, R-MAGIC-ENCH-01..03,
R-MAGIC-ILL-01): declarations asked and set, Illusionist rerolls, enchanted units changing
sides and coming back. The dice themselves are in
:class:`~caedes_bot.rules.combat.events.BattleStepResolved`."""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.rules.events import Event
from caedes_bot.rules.state import BattleDie, CombatStep, StandingOrder


@dataclass(frozen=True, slots=True)
class DeclarationsOwed(Event):
    """``faction`` must declare its special actions before round ``round`` (R-COMBAT-12)."""

    battle: int
    space: str
    faction: str
    round: int
    decision: int


@dataclass(frozen=True, slots=True)
class StandingOrdersSet(Event):
    """``faction``'s standing declarations for the battle, from round ``round`` on
    (R-COMBAT-12): every kind with its count; ``illusion_threshold`` its Illusionists'
    standing rule (0: ask each time; ``None``: it has none); ``by_default``: a missed
    deadline set them (R-PBP-DEAD-04)."""

    battle: int
    space: str
    faction: str
    round: int
    orders: tuple[StandingOrder, ...]
    illusion_threshold: int | None
    by_default: bool = False


@dataclass(frozen=True, slots=True)
class RerollOwed(Event):
    """``faction``'s Illusionists may force a reroll of enemy hit dice (R-MAGIC-ILL-01)."""

    battle: int
    space: str
    faction: str
    round: int
    step: CombatStep
    decision: int


@dataclass(frozen=True, slots=True)
class DiceRerolled(Event):
    """``faction``'s Illusionists ``illusionists`` forced ``old`` to be rerolled; ``new``
    replaces them, die for die (R-MAGIC-ILL-01). Empty when it chose not to."""

    battle: int
    space: str
    faction: str
    round: int
    step: CombatStep
    illusionists: tuple[int, ...]
    old: tuple[BattleDie, ...]
    new: tuple[BattleDie, ...]


@dataclass(frozen=True, slots=True)
class EnchantVictimsOwed(Event):
    """``faction`` must pick which of its units the enchantments of the round take
    (R-MAGIC-ENCH-01)."""

    battle: int
    space: str
    faction: str
    count: int
    decision: int


@dataclass(frozen=True, slots=True)
class UnitsEnchanted(Event):
    """``units`` (``(unit, enchanter)`` pairs) now fight for the Enchanters' side, from the
    next round (R-MAGIC-ENCH-01); ``faction`` owned them."""

    battle: int
    space: str
    faction: str
    round: int
    units: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class EnchantmentsBroken(Event):
    """The Enchanters of ``units`` fell: they fight for their owners again (R-MAGIC-ENCH-03)."""

    battle: int
    space: str
    units: tuple[int, ...]
