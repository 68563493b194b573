"""Words for export, import and rollback (decision 0023): the private replies of
``/campaign export``, ``/campaign import`` and ``/umpire rollback``, and the label of each point
a rollback may return to."""

from __future__ import annotations

from caedes_bot.domain.records import CampaignInfo, CampaignStatus
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.replay import RolledBack
from caedes_bot.rules.state import GameState
from caedes_bot.service import RollbackPoint
from caedes_bot.ui.describe import faction_name
from caedes_bot.ui.wording import moment


def export_reply(info: CampaignInfo, size: int) -> str:
    """The reply that carries the export file."""
    if info.status is CampaignStatus.FINISHED:
        seed = (
            "The campaign is finished, so the dice seed is in it: anyone can check every die "
            "with `python -m caedes_bot.verify` on this file."
        )
    else:
        seed = (
            "The campaign is not finished, so the dice seed is left out (no future die can be "
            "worked out from this file). It holds private treasuries: keep it among umpires "
            "and admins."
        )
    return f"The export of **{info.name}** ({size:,} bytes, gzipped JSON). {seed}"


def import_reply(
    info: CampaignInfo, source: str, orders: int, state: GameState, ruleset: Ruleset
) -> str:
    """The reply to an import: replayed (finished) or continued (under way)."""
    if info.status is CampaignStatus.FINISHED:
        return (
            f"Imported **{source}** as **{info.name}**: its {orders} orders were replayed with "
            "its revealed dice seed, and every die, event and the final state match the file. "
            "The campaign is finished; its channels are being set up."
        )
    where = moment(ruleset, state.step, state.active, state.round)
    return (
        f"**{info.name}** continues **{source}** at {where}, with a fresh dice seed: its "
        "SHA-256 is posted in #announcements. You are its umpire; the factions are run by the "
        "umpire until you give them to players with `/campaign assign`."
    )


def point_label(point: RollbackPoint, ruleset: Ruleset) -> str:
    """``"#12 · 16:32 · Dawnians: Buying units"``: an autocomplete choice of ``/umpire
    rollback`` (the state right after that order)."""
    who = "" if point.faction in (None, "UMPIRE") else faction_name(ruleset, str(point.faction))
    what = f"rollback to #{point.to_seq}" if point.to_seq is not None else point.label
    head = f"{who}: {what}" if who else f"umpire: {what}"
    return f"#{point.seq} · {point.at:%H:%M} · after {head}"


def rollback_reply(event: RolledBack, point: RollbackPoint, ruleset: Ruleset) -> str:
    """The umpire's private answer after a rollback."""
    where = moment(ruleset, event.step, event.active, event.round)
    return (
        f"Rolled back to the state after order #{event.to_seq} ({point.label}): {where}. "
        f"{event.voided} order(s) given since no longer count; they stay in the log. Dice "
        "rolled since stay rolled: the next dice are new ones. Everyone has been told in "
        "#announcements (R-PBP-UMP-01)."
    )
