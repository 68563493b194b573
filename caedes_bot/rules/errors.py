"""Typed refusals (design.md section 3).

:class:`Refusal` is the one base of everything the bot refuses because of what a member asked
(not because of a bug): a message a player understands, optionally the catalogue rule behind it
and what is allowed instead. It knows nothing of Discord; the edge has one handler that turns
any refusal into a private reply, and nothing changes when one is raised.

Every refusal of an order by the rules is a :class:`RuleViolation`, which always cites a rule
ID. The service's refusals (``caedes_bot.service``) and the cogs' ``UserError`` are refusals
too.
"""

from __future__ import annotations


class Refusal(Exception):
    """Something a member asked for that is refused; nothing was changed.

    Attributes:
        message: what was wrong, in plain words.
        rule: the catalogue rule ID behind the refusal (e.g. ``"R-MOVE-06"``), or ``None``
            when no rule is behind it.
        allowed: what is allowed instead, if there is something useful to say.
    """

    def __init__(
        self, message: str, *, rule: str | None = None, allowed: str | None = None
    ) -> None:
        super().__init__(message if rule is None else f"{message} ({rule})")
        self.message = message
        self.rule: str | None = rule
        self.allowed = allowed

    def player_text(self) -> str:
        """The text for the member: the message, the rule ID when there is one, and what is
        allowed instead."""
        text = self.message if self.rule is None else f"{self.message} ({self.rule})"
        if self.allowed:
            text += f"\nAllowed: {self.allowed}"
        return text


class RuleViolation(Refusal):
    """An order that the rules refuse; it always cites a rule.

    Attributes:
        rule: the catalogue rule ID, e.g. ``"R-MOVE-06"`` (the class's ``default_rule`` when
            none is given).
        message: what was wrong, in plain words.
        allowed: what is allowed instead, if there is something useful to say.
    """

    default_rule = "R-GEN-00"
    rule: str

    def __init__(
        self, message: str, *, rule: str | None = None, allowed: str | None = None
    ) -> None:
        super().__init__(message, rule=rule or self.default_rule, allowed=allowed)


class NotYourTurn(RuleViolation):
    """Only the active faction may give this order (R-TURN-03)."""

    default_rule = "R-TURN-03"


class WrongStep(RuleViolation):
    """The order belongs to another step of the turn (R-TURN-02)."""

    default_rule = "R-TURN-02"


#: At most this many characters of a typed name are quoted back in a refusal.
QUOTED_MAX = 40


def quoted(text: str) -> str:
    """What a member typed, as a refusal quotes it: on one line (whitespace of any kind
    collapsed to single spaces) and at most :data:`QUOTED_MAX` characters, ending in "…" if
    cut."""
    one_line = " ".join(text.split())
    if len(one_line) <= QUOTED_MAX:
        return one_line
    return one_line[: QUOTED_MAX - 1] + "…"


class UnknownName(RuleViolation):
    """A name (province, unit kind, faction) that does not exist; carries near matches. The
    name is quoted on one line and cut short (:func:`quoted`). With near matches and no
    ``allowed`` given, what is allowed is those names or another of that kind ("Orme, or
    another province by its name"), so a "Did you mean" refusal says it as every other
    refusal does (R-GEN-04)."""

    def __init__(
        self,
        what: str,
        name: str,
        suggestions: tuple[str, ...] = (),
        *,
        rule: str = "R-GEN-04",
        allowed: str | None = None,
    ) -> None:
        self.suggestions = suggestions
        msg = f"No {what} '{quoted(name)}'."
        if suggestions:
            msg += " Did you mean " + " or ".join(suggestions) + "?"
            if allowed is None:
                allowed = " or ".join(suggestions) + f", or another {what} by its name"
        super().__init__(msg, rule=rule, allowed=allowed)


class AmbiguousName(RuleViolation):
    """A name typed that is the start of several names; carries them (R-GEN-04)."""

    #: At most this many of the names are listed in the message.
    SHOWN = 8

    def __init__(
        self, what: str, name: str, candidates: tuple[str, ...], *, rule: str = "R-GEN-04"
    ) -> None:
        self.candidates = candidates
        shown = list(candidates[: self.SHOWN])
        more = len(candidates) - len(shown)
        listed = ", ".join(shown[:-1]) + f" or {shown[-1]}" if len(shown) > 1 else "".join(shown)
        if more:
            listed = ", ".join(shown) + f" or {more} more"
        super().__init__(
            f"'{quoted(name)}' could be more than one {what}: {listed}.",
            rule=rule,
            allowed="type more of the name, or choose from the list",
        )


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
