"""The words of battle odds (issue 13): the answer of ``/odds`` and of the turn panel's "Odds"
button, and the line a battle message can open with (option ``battle_message_odds``,
R-COMBAT-16).

Every figure says how it was found: exactly, by the pruned enumeration with its bound, or by
Monte Carlo with its standard error and number of battles; attributes that no method models
are named. The text of one battle stays far under Discord's 2,000 characters (at most a line
per unit kind that fought).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from caedes_bot.gamedata.model import Ruleset, Terrain
from caedes_bot.rules.odds import Odds
from caedes_bot.ui.text import EMBED_DESCRIPTION_LIMIT, truncate

#: What the odds assume (the standing declarations of a missed deadline, R-PBP-DEAD-04).
ASSUMPTION = (
    "Both sides fight to the end as on a missed deadline: default casualties (cheapest "
    "first, R-COMBAT-06), the default special actions (R-COMBAT-12), no withdrawal "
    "(R-COMBAT-08)."
)


def percent(p: float) -> str:
    """A chance as a percentage people read: ``65.2%``, ``0.36%``, ``<0.01%``, ``100%``."""
    if p <= 0.0:
        return "0%"
    if p < 0.0001:
        return "<0.01%"
    if p >= 1.0:
        return "100%"
    if p > 0.9999:
        return ">99.99%"
    value = p * 100
    return f"{value:.1f}%" if value >= 10 else f"{value:.2f}%"


def _states(count: int) -> str:
    return f"{count:,} battle state{'' if count == 1 else 's'}"


def points(p: float) -> str:
    """A small chance in percentage points, to two significant figures: ``0.00021``."""
    value = p * 100
    if value <= 0.0:
        return "0"
    return f"{value:.2g}" if value < 0.01 else f"{value:.2f}"


def method_text(odds: Odds) -> str:
    """How the figures were found."""
    if odds.method == "exact":
        return f"exact (every way the battle can go: {_states(odds.states)})"
    if odds.method == "pruned":
        return (
            f"worked out over {_states(odds.states)}, leaving out the least likely: each "
            f"chance may be up to {points(odds.error_bound)} percentage points too low"
        )
    error = odds.standard_error or 0.0
    runs = odds.runs or 0
    how = f"Monte Carlo estimate of {runs:,} battles"
    if odds.fought:
        names = ", ".join(a.capitalize() for a in odds.fought)
        how += f" fought by the battle rules themselves (for the {names})"
    return f"{how}, standard error {error * 100:.2f} percentage points"


def _survivors(ruleset: Ruleset, by_kind: Sequence[tuple[str, float]]) -> str:
    parts = [
        f"{ruleset.kind(k).name} {n:.2f}"
        for k, n in sorted(by_kind, key=lambda item: (-item[1], item[0]))
    ]
    return ", ".join(parts) if parts else "none"


def odds_text(
    ruleset: Ruleset,
    odds: Odds,
    *,
    title: str,
    attacker: str,
    defenders: Sequence[str],
    stalemate_rounds: int,
) -> str:
    """The full answer for one battle: chances, expected rounds and survivors by kind, the
    method, what is assumed and what is not modelled."""
    def_names = ", ".join(ruleset.faction(d).name for d in defenders)
    lines = [
        f"**{title}**",
        f"{ruleset.faction(attacker).name} take the province: **{percent(odds.attacker_wins)}**",
        f"{def_names} hold it: **{percent(odds.defender_holds)}**",
        f"Both sides destroyed: **{percent(odds.both_destroyed)}**",
    ]
    if odds.stalemate > 0.0:
        lines.append(
            f"Stalemate ({stalemate_rounds} hitless rounds in a row, R-COMBAT-13): "
            f"{percent(odds.stalemate)}"
        )
    lines.append(f"Expected rounds: {odds.expected_rounds:.1f}")
    lines.append(
        f"Expected survivors, attacker: {odds.expected_attacker_survivors:.2f} "
        f"({_survivors(ruleset, odds.attacker_by_kind)})"
    )
    lines.append(
        f"Expected survivors, defender: {odds.expected_defender_survivors:.2f} "
        f"({_survivors(ruleset, odds.defender_by_kind)})"
    )
    lines.append(f"Method: {method_text(odds)}.")
    lines.append(ASSUMPTION)
    if odds.unsupported:
        names = ", ".join(a.capitalize() for a in odds.unsupported)
        lines.append(
            f"Not modelled here: {names} (counted as if rolling their normal dice, so these "
            "figures may be off; a battle on the board, or units sent from a place, is fought "
            "through the battle rules instead)."
        )
    return "\n".join(lines)


def opening_text(
    ruleset: Ruleset,
    attacker: str,
    figures: Sequence[float],
    method: str,
    unsupported: Sequence[str] = (),
) -> str:
    """The line a battle message opens with under the option ``battle_message_odds``
    (R-COMBAT-16): ``figures`` are the attacker's, the defender's and both-destroyed chances,
    the expected rounds, the standard error and the battles rolled (as
    :func:`caedes_bot.rules.odds.opening.opening_figures` gives them)."""
    wins, holds, both, rounds, error, runs = (list(figures) + [0.0] * 6)[:6]
    if method == "monte_carlo":
        how = f"Monte Carlo of {int(runs):,} battles, standard error {error * 100:.1f} points"
    else:
        how = method
    text = (
        f"{OPENING_HEAD} ({how}): {ruleset.faction(attacker).name} take it "
        f"{percent(wins)}, held {percent(holds)}, both destroyed {percent(both)}; "
        f"about {rounds:.1f} rounds."
    )
    if unsupported:
        names = ", ".join(a.capitalize() for a in unsupported)
        text += f" Not modelled: {names} (counted as rolling their normal dice)."
    return text


#: The line a battle message opens with while its odds are being worked out (option
#: ``battle_message_odds``: off the order's path, decision 0020).
OPENING_PENDING = "🎲 Odds at the start: being worked out…"
#: How every line of the odds a battle message opens with begins.
OPENING_HEAD = "🎲 Odds at the start"


def with_opening(embed: Mapping[str, Any], line: str) -> dict[str, Any]:
    """The embed (Discord JSON) of a battle message with ``line`` as the first line of its
    description, in place of the odds line it opens with (being worked out, or older odds),
    or before its description if it has none; cut to Discord's limit."""
    out = dict(embed)
    text = str(out.get("description") or "")
    first, _, rest = text.partition("\n")
    body = rest if first.startswith(OPENING_HEAD) else text
    out["description"] = truncate(f"{line}\n{body}" if body else line, EMBED_DESCRIPTION_LIMIT)
    return out


def title(
    ruleset: Ruleset,
    attacker: str,
    attackers: int,
    defenders: int,
    where: str,
    start_round: int,
) -> str:
    """The head of one battle's odds: who, how many, where, and from which round."""
    head = f"Odds: {attackers} {ruleset.faction(attacker).adjective} units against {defenders}"
    head += f" at {where}" if not where.startswith("a battle") else f" ({where})"
    if start_round > 1:
        head += f", from round {start_round}"
    return head


#: The turn panel's "Odds" button when no battle is ahead.
NO_BATTLE_AHEAD = (
    "No battle is ahead of you yet: move units into a province held by another faction in "
    "step 6 (R-COMBAT-01), or ask `/odds` about any battle."
)


def more_battles(count: int) -> str:
    return f"…and {count} more battle{'s' if count != 1 else ''}: ask `/odds` about each."


_ALLOWED = (
    "`/odds province` (the battle there now), `/odds province from [units]` (your units sent "
    "there), or `/odds attackers defenders [terrain]` (units listed by hand)"
)

#: Why ``/odds`` names no battle, and what it takes: ``(message, allowed)`` by reason.
_REFUSALS: dict[str, tuple[str, str]] = {
    "nothing": ("Name a battle: a province, or units listed by hand.", _ALLOWED),
    "by_hand": (
        "Units listed by hand need both attackers and defenders, without from or units.",
        _ALLOWED,
    ),
    "terrain_alone": ("Terrain is for units listed by hand.", _ALLOWED),
    "units_alone": ("Units need the place they come from (the from option).", _ALLOWED),
    "no_units": ("'{0}' names no units.", "a count and a unit, like `3 Knights, 2 Yeomen`"),
    "none_at": (
        "You have no unit at {0} that can attack.",
        "a place where you have infantry or cavalry",
    ),
    "count_alone": ("'{0}' gives a count but no unit.", "a count and a unit, like `3 Knights`"),
    "too_many": (
        "You asked for {0}, but {1} has {2} of them.",
        "at most what {1} has that can attack: {3}",
    ),
    "nobody_there": (
        "Nobody is there to fight at {0}.",
        "a province holding another faction's units",
    ),
    "no_battle": (
        "No battle is set up at {0}: you have no unit there to fight, or nobody opposes it.",
        "add from (and units) to send your units there, or list units by hand",
    ),
    "listed": ("Those units cannot fight that battle: {0}.", _ALLOWED),
    "sea_planned": (
        "{0} is a sea zone: units sent from a place go into a province (R-MOVE-09).",
        "the sea zone alone, for the naval battle there, or units listed by hand",
    ),
    "terrain": (
        "'{0}' is not a terrain.",
        ", ".join(t.value for t in Terrain),
    ),
}


def refusal(reason: str, *args: object) -> tuple[str, str]:
    """Why ``/odds`` was refused, and what it takes instead: ``(message, allowed)``."""
    message, allowed = _REFUSALS[reason]
    return message.format(*args), allowed.format(*args)
