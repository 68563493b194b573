"""The answer of the odds calculator: :class:`Odds`, and :func:`summarise`, which turns the
masses of a battle's ends (by attacker and defender side state) into it (R-COMBAT-10, -11,
-13, R-ATTR-FORTI-02)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from caedes_bot.gamedata.model import Options
from caedes_bot.rules.combat.arithmetic import BattleResult, classify
from caedes_bot.rules.odds.model import BattleModel, SideSpace
from caedes_bot.rules.odds.tables import Floats

Method = Literal["exact", "pruned", "monte_carlo"]


@dataclass(frozen=True, slots=True)
class Odds:
    """Chances of a battle fought to the end with the defaults of a missed deadline.

    Attributes:
        attacker_wins: the attacker is left with units after cleanup and the defender with none.
        defender_holds: the defender is left with units and the attacker with none.
        both_destroyed: neither side has a unit after cleanup (R-COMBAT-11: owner unchanged).
        stalemate: ``stalemate_rounds`` hitless rounds in a row (R-COMBAT-13).
        expected_attacker_survivors / expected_defender_survivors: units of each side still on
            the board after the battle (in a stalemate, attackers that withdrew).
        attacker_by_kind / defender_by_kind: the same by unit kind id, ``(kind, expected)``
            for every kind that fought, in kind id order.
        expected_rounds: rounds fought from now to the end (a stalemate counts its rounds).
        method: ``exact``, ``pruned`` or ``monte_carlo``.
        error_bound: pruned: the chance dropped, by which any chance may be too low (0 for
            exact). standard_error: Monte Carlo: the largest standard error of the chances.
        runs: Monte Carlo: battles rolled. states: battle states worked out (or met).
        unsupported: attributes in the battle that this answer does not model
            (:data:`.model.UNMODELLED`), counted as if rolling their normal dice.
        fought: the attributes for which the battle was fought on the real battle path
            (:mod:`.fought`); empty for the other methods.
    """

    attacker_wins: float
    defender_holds: float
    both_destroyed: float
    stalemate: float
    expected_attacker_survivors: float
    expected_defender_survivors: float
    states: int
    attacker_by_kind: tuple[tuple[str, float], ...] = ()
    defender_by_kind: tuple[tuple[str, float], ...] = ()
    expected_rounds: float = 0.0
    method: Method = "exact"
    error_bound: float = 0.0
    standard_error: float | None = None
    runs: int | None = None
    unsupported: tuple[str, ...] = ()
    fought: tuple[str, ...] = ()


def _kinds(space: SideSpace) -> list[str]:
    return sorted({f.kind.id for f in space.whole})


def _survivor_table(space: SideSpace, options: Options, stalemate: bool) -> Floats:
    """Survivors of each kind (columns, :func:`_kinds` order) in each side state (rows)."""
    kinds = {k: n for n, k in enumerate(_kinds(space))}
    table = np.zeros((len(space.states), len(kinds)))
    for n in range(len(space.states)):
        for f in space.survivors(n, options, stalemate):
            table[n, kinds[f.kind.id]] += 1.0
    return table


def summarise(
    model: BattleModel,
    ends: Floats,
    stalls: Floats,
    *,
    states: int,
    rounds: float,
    method: Method,
    error_bound: float = 0.0,
    standard_error: float | None = None,
    runs: int | None = None,
) -> Odds:
    """The :class:`Odds` of a battle whose ends have the masses ``ends`` (fought to the end,
    by attacker and defender side state) and ``stalls`` (stalemates) (R-COMBAT-10, -11, -13)."""
    rows, cols = len(model.att.states), len(model.dfn.states)
    ends, stalls = ends[:rows, :cols], stalls[:rows, :cols]
    options = model.options
    att_end = _survivor_table(model.att, options, False)
    att_stall = _survivor_table(model.att, options, True)
    dfn_end = _survivor_table(model.dfn, options, False)
    att_left = att_end.sum(axis=1)
    dfn_left = dfn_end.sum(axis=1)
    totals = dict.fromkeys(BattleResult, 0.0)
    for a_alive in (False, True):
        for d_alive in (False, True):
            mask = np.outer((att_left > 0) == a_alive, (dfn_left > 0) == d_alive)
            result = classify(int(a_alive), int(d_alive))
            totals[result] += float(ends[mask].sum())
    stalemate = float(stalls.sum())
    att_kinds = ends.sum(axis=1) @ att_end + stalls.sum(axis=1) @ att_stall
    dfn_kinds = (ends + stalls).sum(axis=0) @ dfn_end
    return Odds(
        attacker_wins=totals[BattleResult.ATTACKER_WON],
        defender_holds=totals[BattleResult.DEFENDER_HELD],
        both_destroyed=totals[BattleResult.BOTH_DESTROYED],
        stalemate=stalemate,
        expected_attacker_survivors=float(att_kinds.sum()),
        expected_defender_survivors=float(dfn_kinds.sum()),
        states=states,
        attacker_by_kind=tuple(zip(_kinds(model.att), att_kinds.tolist(), strict=True)),
        defender_by_kind=tuple(zip(_kinds(model.dfn), dfn_kinds.tolist(), strict=True)),
        expected_rounds=rounds,
        method=method,
        error_bound=error_bound,
        standard_error=standard_error,
        runs=runs,
        unsupported=model.unmodelled,
    )
