"""Each faction's statistics in words (``/stats`` during play, the final summary at the end;
counters of :mod:`caedes_bot.rules.statistics`).

The board is public (R-GEN-07): provinces held, battles, losses and battle dice are shown to
everyone. Income and purchases are secret to the faction and the umpire unless the option
``public_treasuries`` is on, and at the end of the campaign, when everything is shown.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.state import FactionStats, GameState
from caedes_bot.rules.victory import CampaignEnded
from caedes_bot.ui.describe import faction_name


def luck_text(stats: FactionStats) -> str:
    """Dice luck: ``"9 hits from 24 dice, 8.4 expected (+0.6)"``, or ``"no battle dice"``."""
    if not stats.dice:
        return "no battle dice"
    expected = stats.expected_tenths / 10
    diff = stats.hits - expected
    return f"{stats.hits} hits from {stats.dice} dice, {expected:.1f} expected ({diff:+.1f})"


def _by_round(pairs: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"R{r} {v}" for r, v in pairs) if pairs else "none yet"


def faction_stats_lines(
    state: GameState, ruleset: Ruleset, faction: str, *, treasury: bool
) -> list[str]:
    """Lines for one faction; ``treasury``: include its income and purchases."""
    stats = state.stats.get(faction) or FactionStats()
    name = faction_name(ruleset, faction)
    out = "out of the game" if state.factions[faction].eliminated else ""
    lines = [f"**{name}**{' (' + out + ')' if out else ''}"]
    lines.append(f"- provinces by round: {_by_round(stats.provinces)}")
    lines.append(
        f"- battles won {stats.battles_won}, lost {stats.battles_lost}; units lost {stats.lost}"
    )
    lines.append(f"- dice luck: {luck_text(stats)}")
    if treasury:
        lines.append(f"- income by round: {_by_round(stats.income)}; units bought {stats.bought}")
    return lines


def stats_text(
    state: GameState, ruleset: Ruleset, own: Collection[str] | None, *, everything: bool = False
) -> str:
    """``/stats``: every faction in play; income and purchases only for ``own`` factions
    (``None``: the umpire, who sees all) unless ``public_treasuries`` or ``everything``."""
    public = everything or state.options.public_treasuries
    lines: list[str] = []
    for faction in state.in_play:
        treasury = public or own is None or faction in own
        lines += faction_stats_lines(state, ruleset, faction, treasury=treasury)
    if not public:
        lines.append("_Income and purchases are shown for your own factions only (R-GEN-07)._")
    return "\n".join(lines)


def final_summary(event: CampaignEnded, state: GameState, ruleset: Ruleset) -> str:
    """The summary posted in ``#announcements`` when the campaign ends: the winners, the
    scores (by player, at the turn limit), and every faction's statistics, income included."""
    winners = ", ".join(faction_name(ruleset, w) for w in event.winners) or "nobody"
    lines = [f"**Final summary** after game round {event.round}. Winner: {winners}."]
    if event.player_scores:
        lines.append("Scores (R-VIC-03):")
        for score in event.player_scores:
            names = ", ".join(faction_name(ruleset, f) for f in score.factions)
            lines.append(
                f"- {names}: {score.points} points ({score.provinces} provinces, "
                f"{score.fortifications} fortified; RP income {score.rp_income}, "
                f"units on the board worth {score.unit_cost})"
            )
    lines.append(stats_text(state, ruleset, None, everything=True))
    return "\n".join(lines)
