"""The umpire's rollback (``/umpire rollback``, R-PBP-UMP-01): the points it may return to,
and the state it returns to, found by a replay of the order log
(:class:`~caedes_bot.rules.replay.Replay`, where replay lives).

A rollback is an order of the log like any other (:class:`~caedes_bot.rules.replay.RollBack`),
given through ``RulesService.submit`` under the campaign's lock: the service replays the log
from the campaign's first state with its seeded dice, checks that the replay reaches the state
the campaign is in (else it refuses: the log would not reproduce the rollback), and lets the
replay apply the rollback. Nothing of the logs is ever removed; the dice counter never goes
back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from caedes_bot.domain.records import StoredOrder
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.mappers import dump_state, load_order
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.orders import Order
from caedes_bot.rules.replay import RULE, ApplyFn, Replay, Replayed, RollBack
from caedes_bot.rules.state import GameState, Step

#: The event types that begin a game round, or the game the log continues from: the orders
#: from the one that holds the latest of them on are the points of the round.
ROUND_BEGINS = ("GameRoundBegan", "CampaignContinued")


@dataclass(frozen=True, slots=True)
class RollbackPoint:
    """An earlier point of the current game round: the state right after order ``seq``.

    Attributes:
        seq: the order's number in the log.
        order_type: its class name (``"BuyUnits"``, ``"RollBack"``).
        label: what it did, in words (:attr:`Order.label`).
        faction: for whom it was given.
        at: when it was given (UTC).
        to_seq: for a rollback, the point it returned to.
    """

    seq: int
    order_type: str
    label: str
    faction: str | None
    at: datetime
    to_seq: int | None = None


def points_of(orders: Sequence[StoredOrder]) -> list[RollbackPoint]:
    """The points a rollback may return to, oldest first, from the orders of the current game
    round (from the one that began it): every order that still counts but the last one (the
    state now). A rollback drops the orders after its point; it is a point itself."""
    line: list[RollbackPoint] = []
    for row in orders:
        cls = Order.registry.get(row.type)
        to_seq = row.payload.get("to_seq") if row.type == RollBack.__name__ else None
        if isinstance(to_seq, int):
            line = [p for p in line if p.seq <= to_seq]
        line.append(
            RollbackPoint(
                row.seq,
                row.type,
                cls.label if cls is not None else row.type,
                row.faction,
                row.created_at,
                to_seq if isinstance(to_seq, int) else None,
            )
        )
    return line[:-1]


def replay_rollback(
    first: GameState,
    ruleset: Ruleset,
    apply: ApplyFn,
    orders: Sequence[StoredOrder],
    now: GameState,
    order: RollBack,
    seq: int,
) -> Replayed:
    """Replay ``orders`` from ``first``, check that the replay reaches ``now``, then apply
    ``order`` as order number ``seq``.

    Raises:
        RuleViolation: the log does not replay to the current state, or ``order.to_seq`` is
            not a point of the current game round (R-PBP-UMP-01).
    """
    replay = _replayed(first, ruleset, apply, orders, now, "a rollback cannot be reproduced")
    return replay.give(seq, order)


def step_starts_of(
    first: GameState,
    ruleset: Ruleset,
    apply: ApplyFn,
    orders: Sequence[StoredOrder],
    now: GameState,
) -> dict[tuple[str, Step], int]:
    """Replay ``orders`` from ``first`` and return where each turn of the game round under way
    began each step it rested at (:meth:`Replay.step_starts`).

    Raises:
        RuleViolation: the log does not replay to ``now`` (as :func:`replay_rollback`).
    """
    replay = _replayed(first, ruleset, apply, orders, now, "the turn cannot be taken back")
    return replay.step_starts()


def _replayed(
    first: GameState,
    ruleset: Ruleset,
    apply: ApplyFn,
    orders: Sequence[StoredOrder],
    now: GameState,
    cannot: str,
) -> Replay:
    """``orders`` replayed from ``first``, checked to reach ``now``.

    Raises:
        RuleViolation: the log does not replay to ``now``; ``cannot`` ends the message with
            what therefore cannot be done.
    """
    replay = Replay(first, ruleset, apply)
    for row in orders:
        replay.give(row.seq, load_order(row.payload))
    if dump_state(replay.state) != dump_state(now):
        raise RuleViolation(
            "The campaign's order log does not replay to the state it is in (its dice were "
            f"not the campaign's own), so {cannot}.",
            rule=RULE,
            allowed="set what is wrong with the other `/umpire` commands",
        )
    return replay
