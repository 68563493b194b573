"""Wording of the pacts listing (``/diplomacy``) and of a proposal put to a member in its orders
thread (R-ALLY-01, R-FEAL-01..04). Pure functions of the state and the ruleset."""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.pacts import may_revoke
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import faction_name


def _names(ruleset: Ruleset, codes: list[str] | tuple[str, ...]) -> str:
    return ", ".join(faction_name(ruleset, c) for c in codes)


def pacts_listing(state: GameState, ruleset: Ruleset, viewer: str | None) -> str:
    """The alliances and fealty in force and the proposals waiting, as ``viewer`` may see them:
    everything for the umpire (``None``) or with the option ``public_alliances``, else the
    pacts ``viewer`` belongs to (R-ALLY-01)."""

    def seen(members: list[str] | tuple[str, ...]) -> bool:
        return viewer is None or state.options.public_alliances or viewer in members

    lines = ["**Pacts** (R-ALLY-01, R-FEAL-01)"]
    alliances = [g for g in state.alliances if seen(g)]
    for group in alliances:
        lines.append(f"- Alliance: {_names(ruleset, group)}")
    for vassal, liege in sorted(state.fealty.items()):
        if not seen((vassal, liege)):
            continue
        revocable = (
            " (may be revoked: its liege's Hero has fallen)" if may_revoke(state, vassal) else ""
        )
        lines.append(
            f"- Fealty: {faction_name(ruleset, vassal)} to {faction_name(ruleset, liege)}{revocable}"
        )
    for p in state.pact_proposals:
        if not seen(p.members):
            continue
        status = (
            "agreed, in force from the start of the next turn (R-ALLY-02)"
            if p.agreed
            else "waiting for " + _names(ruleset, [m for m in p.members if m not in p.confirmed])
        )
        lines.append(f"- Proposal {p.id}, {p.kind} of {_names(ruleset, p.members)}: {status}")
    if len(lines) == 1:
        lines.append("- none that you may see")
    return "\n".join(lines)
