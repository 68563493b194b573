"""The Mercenary rule (R-ATTR-MERC-01, R-ATTR-MERC-02, R-ATTR-MISS-03).

Mercenaries may never outnumber the other units of their own faction in one place. At the very
start of every turn :func:`mercenary_check` finds the excess in every space (R-TURN-04); in
battle the same count is made at the start of every round on each side
(:func:`caedes_bot.rules.combat.arithmetic.mercenary_losses`, which the battle machine and the
odds calculator share). The Orc Giant allies count as Mercenaries only under the option
``giant_allies_mercenary``.

Which Mercenaries go is the player's choice (R-ATTR-MERC-01). When every way of choosing the
excess comes to the same (all of one kind and state, or all must go), they go at once. Otherwise
a ``mercenaries`` decision asks the faction (a reaction, whoever's turn it is: R-PBP-DEAD-01),
with the default shown: cheapest first, ties the most recently mustered. At a turn start the
turn waits for every such answer before the rest of its checks and its first step
(:class:`caedes_bot.rules.turn.Turn`); at a round start the round waits
(:mod:`caedes_bot.rules.combat.round_start`). The answer is
:class:`caedes_bot.rules.mercenary_answer.ChooseMercenaries`; on a missed deadline the default
is applied (R-PBP-DEAD-04).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import Attribute, Options, Ruleset, UnitKind
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import (
    DecisionKind,
    GameState,
    MercenariesDetail,
    MercenaryCandidate,
    PendingDecision,
    Unit,
)


@dataclass(frozen=True, slots=True)
class MercenariesDeserted(Event):
    """Mercenaries outnumbering their faction's other units in ``space`` were destroyed
    (R-ATTR-MERC-01). ``units`` are ``(unit id, kind id)`` pairs."""

    faction: str
    space: str
    units: tuple[tuple[int, str], ...]
    mercenaries: int
    others: int


@dataclass(frozen=True, slots=True)
class MercenariesOwed(Event):
    """``faction`` must choose which ``deserting`` of its Mercenaries in ``space`` are
    destroyed (R-ATTR-MERC-01): decision ``decision``; ``battle`` is the battle whose round
    begins, ``None`` at the start of a turn."""

    faction: str
    space: str
    deserting: int
    decision: int
    battle: int | None = None


#: The Orc Giant allies, Mercenary only under the option ``giant_allies_mercenary``.
GIANT_ALLIES = "U-ORC-07"


def is_mercenary(kind: UnitKind, options: Options) -> bool:
    """Whether ``kind`` is a Mercenary (R-ATTR-MERC-01), counting the Giant allies when the
    option ``giant_allies_mercenary`` is on (R-ATTR-MISS-03)."""
    if kind.has(Attribute.MERCENARY):
        return True
    return options.giant_allies_mercenary and kind.id == GIANT_ALLIES


def mercenary_excess(units: Sequence[Unit], ruleset: Ruleset, options: Options) -> list[Unit]:
    """The Mercenaries of one faction that must go from one space or battle side (R-ATTR-MERC-01).

    Args:
        units: every unit of ONE faction in one space (or on one battle side); enchanted units
            should be left out by the caller.

    Returns:
        The excess Mercenaries, as many as they outnumber the other units, cheapest first
        (ties: most recently mustered first): the default choice.
    """
    mercs = [u for u in units if is_mercenary(ruleset.kind(u.kind), options)]
    excess = len(mercs) - (len(units) - len(mercs))
    if excess <= 0:
        return []
    mercs.sort(key=lambda u: (ruleset.kind(u.kind).cost or 0, -u.muster_seq))
    return mercs[:excess]


def real_choice(likeness: Sequence[Hashable], deserting: int) -> bool:
    """Whether choosing ``deserting`` of the Mercenaries whose ``likeness`` is given (one each:
    what about a unit matters when it goes) has more than one outcome (R-ATTR-MERC-01): not
    when all must go, nor when they are all alike."""
    if deserting <= 0 or deserting >= len(likeness):
        return False
    return len(set(likeness)) > 1


def unit_likeness(state: GameState, unit: Unit) -> Hashable:
    """What about ``unit`` matters when it deserts outside a battle (R-ATTR-MERC-01): its kind,
    its wound, the terrain it uses, the ship it is aboard and whether units ride aboard it."""
    carries = any(u.aboard == unit.id for u in state.peek_units())
    return (unit.kind, unit.wounded, unit.terrain, unit.aboard, carries)


def candidate(ruleset: Ruleset, unit: Unit) -> MercenaryCandidate:
    """``unit`` as a ``mercenaries`` decision shows it."""
    return MercenaryCandidate(
        unit.id, unit.kind, unit.wounded, ruleset.kind(unit.kind).cost, unit.aboard
    )


def check_choice(detail: MercenariesDetail, unit_ids: Sequence[int]) -> None:
    """Check an answer to a ``mercenaries`` decision (R-ATTR-MERC-01): exactly
    ``detail.deserting`` different units among its candidates.

    Raises:
        RuleViolation: another count, a unit twice, or a unit not among the candidates.
    """
    ids = {c.id for c in detail.candidates}
    n = detail.deserting
    if len(unit_ids) != n or len(set(unit_ids)) != n or not set(unit_ids) <= ids:
        raise RuleViolation(
            f"Choose exactly {n} of the Mercenaries listed, each once.",
            rule="R-ATTR-MERC-01",
            allowed=f"{n} of units {', '.join(map(str, sorted(ids)))}",
        )


def desert(
    state: GameState, ruleset: Ruleset, detail: MercenariesDetail, unit_ids: Sequence[int]
) -> Event:
    """The turn-start answer (R-ATTR-MERC-01): the units chosen, ``unit_ids``, are destroyed.

    The board may have changed since the question was asked (the umpire may correct it while
    the turn's start waits, R-PBP-UMP-01), so the faction's excess in the space is counted
    again on the board as it stands: the units chosen that are still its Mercenaries there go
    first, then the default order (cheapest, ties the newest) fills what is still owed, and no
    more go than the excess now is (none, if there is none). Mutates ``state``; returns the
    :class:`MercenariesDeserted`."""
    here = sorted(
        (u for u in state.peek_units() if u.location == detail.space and u.owner == detail.faction),
        key=lambda u: u.id,
    )
    excess = mercenary_excess(here, ruleset, state.options)
    mercs = {u.id for u in here if is_mercenary(ruleset.kind(u.kind), state.options)}
    chosen = list(dict.fromkeys(uid for uid in unit_ids if uid in mercs))[: len(excess)]
    chosen += [u.id for u in excess if u.id not in chosen][: len(excess) - len(chosen)]
    gone = [state.units[str(uid)] for uid in chosen]
    for unit in gone:
        del state.units[str(unit.id)]
    return MercenariesDeserted(
        detail.faction,
        detail.space,
        tuple((u.id, u.kind) for u in gone),
        mercenaries=len(mercs),
        others=len(here) - len(mercs),
    )


def ask(state: GameState, detail: MercenariesDetail, *, reaction: bool = True) -> MercenariesOwed:
    """Add the ``mercenaries`` decision of ``detail`` to ``state.pending`` (R-ATTR-MERC-01);
    returns its :class:`MercenariesOwed`."""
    decision = PendingDecision(
        id=state.new_id(),
        faction=detail.faction,
        kind=DecisionKind.MERCENARIES,
        reaction=reaction,
        detail=detail,
    )
    state.pending.append(decision)
    return MercenariesOwed(
        detail.faction, detail.space, detail.deserting, decision.id, battle=detail.battle
    )


def turn_start_owing(state: GameState) -> list[str]:
    """The factions that owe a turn-start ``mercenaries`` answer, sorted (R-TURN-04,
    R-ATTR-MERC-01): the turn's start waits for them."""
    return sorted(
        {
            d.faction
            for d in state.pending
            if d.kind is DecisionKind.MERCENARIES and d.battle_id is None
        }
    )


def turn_start_waiting(state: GameState) -> bool:
    """Whether a turn-start ``mercenaries`` decision is open (R-TURN-04, R-ATTR-MERC-01)."""
    return bool(turn_start_owing(state))


def mercenary_check(state: GameState, ruleset: Ruleset) -> list[Event]:
    """The turn-start Mercenary check in every space for every faction (R-TURN-04,
    R-ATTR-MERC-01): in each space where a faction's Mercenaries outnumber its other units
    (Towers, ships, cargo, Heroes all count), the excess goes. With no real choice
    (:func:`real_choice`) it is destroyed at once, cheapest first; otherwise the faction is
    asked (a ``mercenaries`` decision, always with a reaction deadline: the turn has not begun)
    and the caller waits for the answer. Mutates ``state``; returns one
    :class:`MercenariesDeserted` or :class:`MercenariesOwed` per space and faction hit."""
    groups: dict[tuple[str, str], list[Unit]] = {}
    for unit in sorted(state.peek_units(), key=lambda u: u.id):  # read only: none changes
        groups.setdefault((unit.location, unit.owner), []).append(unit)
    events: list[Event] = []
    for (space, faction), units in sorted(groups.items()):
        gone = mercenary_excess(units, ruleset, state.options)
        if not gone:
            continue
        mercs = [u for u in units if is_mercenary(ruleset.kind(u.kind), state.options)]
        detail = MercenariesDetail(
            space=space,
            faction=faction,
            deserting=len(gone),
            mercenaries=len(mercs),
            others=len(units) - len(mercs),
            candidates=tuple(candidate(ruleset, u) for u in mercs),
            default=tuple(u.id for u in gone),
        )
        if real_choice([unit_likeness(state, u) for u in mercs], len(gone)):
            events.append(ask(state, detail))
        else:
            events.append(desert(state, ruleset, detail, detail.default))
    return events
