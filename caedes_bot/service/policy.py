"""How long deadlines run and when reminders go (R-PBP-DEAD-01, R-PBP-DEAD-02)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from caedes_bot.rules.state import GameState


@dataclass(frozen=True, slots=True)
class DeadlinePolicy:
    """How long each kind of deadline runs and when its reminder goes (R-PBP-DEAD-01, -02).

    The turn and reaction windows come from the campaign's options (default 24 h and 6 h);
    the reminder goes ``reminder_fraction`` of the window before the deadline, but at most
    ``max_reminder_lead`` before it.
    """

    reminder_fraction: float = 0.25
    max_reminder_lead: timedelta = timedelta(hours=2)

    def wanted(self, state: GameState) -> dict[str, tuple[str | None, float]]:
        """The deadlines the state owes: key -> (faction, window in hours).

        * the active faction's turn: ``turn:<round>:<faction>``, the turn window;
        * each pending reaction of another faction: ``decision:<id>``, the reaction window.
        """
        if state.finished or state.active is None:
            return {}
        wanted: dict[str, tuple[str | None, float]] = {
            f"turn:{state.round}:{state.active}": (
                state.active,
                state.options.turn_deadline_hours,
            )
        }
        for decision in state.pending:
            if decision.reaction:
                wanted[f"decision:{decision.id}"] = (
                    decision.faction,
                    state.options.reaction_deadline_hours,
                )
        return wanted

    def times(self, now: datetime, hours: float) -> tuple[datetime, datetime]:
        """``(due_at, reminder_at)`` for a window of ``hours`` starting ``now``."""
        window = timedelta(hours=hours)
        lead = min(window * self.reminder_fraction, self.max_reminder_lead)
        return now + window, now + window - lead
