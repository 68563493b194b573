"""The service's refusals (all :class:`~caedes_bot.rules.errors.Refusal`; most of them
:class:`~caedes_bot.rules.errors.RuleViolation` with the rule behind them) and the one bug
report of a replay.

A refusal changes nothing and writes nothing; the Discord edge shows it privately.
"""

from __future__ import annotations

from caedes_bot.rules.errors import Refusal, RuleViolation


class NotAuthorised(RuleViolation):
    """The actor may not give this order: a faction's orders come from its player, or from the
    umpire, who may act for any faction (R-SETUP-02, R-PBP-UMP-01, R-PBP-UMP-02)."""

    default_rule = "R-SETUP-02"


class CampaignNotActive(RuleViolation):
    """The campaign is being set up, paused or finished; no orders are taken (R-PBP-UMP-05)."""

    default_rule = "R-PBP-UMP-05"


class DeadlineRefused(RuleViolation):
    """The umpire's change of deadlines cannot be made (R-PBP-UMP-03); nothing changed."""

    default_rule = "R-PBP-UMP-03"


class PauseRefused(RuleViolation):
    """``pause`` of a campaign that is not under way, or ``resume`` of one that is not paused
    (R-PBP-UMP-05); nothing changed."""

    default_rule = "R-PBP-UMP-05"


class StaleOrder(RuleViolation):
    """An order given from a button, select or command meant for a moment of the game that has
    passed: another step, turn or decision (a double click, a command given twice at once, a
    control left over). Nothing changes (R-TURN-02)."""

    default_rule = "R-TURN-02"


class AdminRefused(RuleViolation):
    """A campaign administration command refused (a name, a faction already held, a start
    already made). It cites a rule only when a rule is behind it; nothing changed."""

    def __init__(
        self, message: str, *, rule: str | None = None, allowed: str | None = None
    ) -> None:
        super().__init__(message, rule=rule, allowed=allowed)
        self.cites_rule = rule is not None

    def player_text(self) -> str:
        """The message, the rule ID if one is behind the refusal, and what is allowed."""
        if self.cites_rule:
            return super().player_text()
        return self.message + (f"\nAllowed: {self.allowed}" if self.allowed else "")


class InvalidCampaignName(AdminRefused):
    """A campaign name that is blank, too long or holds control or invisible characters."""


class CampaignNameTaken(AdminRefused):
    """The guild already has a campaign of that name that is not finished."""


class FactionHeld(AdminRefused):
    """The faction already has a player; a faction has one player (R-SETUP-02)."""


class AlreadyStarted(AdminRefused):
    """``start`` on a campaign that is no longer being set up."""


class NoUmpire(AdminRefused):
    """A campaign cannot start without its umpire (R-PBP-UMP-01)."""


class UnknownCampaign(Refusal, LookupError):
    """No campaign with this id (it never existed or was deleted); cites no rule.

    Attributes:
        campaign_id: the id asked for.
    """

    def __init__(self, campaign_id: int) -> None:
        super().__init__(
            f"There is no campaign {campaign_id}; it may have been deleted.",
            allowed="use the command in a channel or thread of a running campaign",
        )
        self.campaign_id = campaign_id


class ReplayMismatch(AssertionError):
    """Replaying the order log did not reproduce the stored dice counts or state."""
