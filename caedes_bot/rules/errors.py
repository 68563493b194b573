"""Typed rule violations (design.md section 3).

Every refusal of an order is a :class:`RuleViolation` carrying the rule ID it enforces and a
message a player understands, plus optionally what is allowed instead. The Discord edge turns
them into ephemeral replies; nothing changes when one is raised.
"""

from __future__ import annotations


class RuleViolation(Exception):
    """An order that the rules refuse.

    Attributes:
        rule: the catalogue rule ID, e.g. ``"R-MOVE-06"``.
        message: what was wrong, in plain words.
        allowed: what is allowed instead, if there is something useful to say.
    """

    default_rule = "R-GEN-00"

    def __init__(
        self, message: str, *, rule: str | None = None, allowed: str | None = None
    ) -> None:
        self.rule = rule or self.default_rule
        self.message = message
        self.allowed = allowed
        super().__init__(f"{message} ({self.rule})")

    def player_text(self) -> str:
        """The full text for a player: message, rule ID and what is allowed."""
        text = f"{self.message} ({self.rule})"
        if self.allowed:
            text += f"\nAllowed: {self.allowed}"
        return text


class NotYourTurn(RuleViolation):
    """Only the active faction may give this order (R-TURN-03)."""

    default_rule = "R-TURN-03"


class WrongStep(RuleViolation):
    """The order belongs to another step of the turn (R-TURN-02)."""

    default_rule = "R-TURN-02"


class UnknownName(RuleViolation):
    """A name (province, unit kind, faction) that does not exist; carries near matches."""

    def __init__(
        self, what: str, name: str, suggestions: tuple[str, ...] = (), *, rule: str = "R-GEN-04"
    ) -> None:
        self.suggestions = suggestions
        msg = f"No {what} '{name}'."
        if suggestions:
            msg += " Did you mean " + " or ".join(suggestions) + "?"
        super().__init__(msg, rule=rule)


class NotEnoughRP(RuleViolation):
    """RP can never be negative (R-BUY-02)."""

    default_rule = "R-BUY-02"


class IllegalMove(RuleViolation):
    """A move the movement rules forbid (R-MOVE)."""

    default_rule = "R-MOVE-01"


class IllegalMuster(RuleViolation):
    """A muster the muster rules forbid (R-MUSTER, R-RACE)."""

    default_rule = "R-MUSTER-01"


class IllegalCombat(RuleViolation):
    """A battle order the combat rules refuse (R-COMBAT)."""

    default_rule = "R-COMBAT-01"


class NotBuiltYet(RuleViolation):
    """A rule of the game that this version of the bot does not run yet; says which."""


class GameOver(RuleViolation):
    """The campaign has ended (R-VIC); no more orders are taken."""

    default_rule = "R-VIC-03"
