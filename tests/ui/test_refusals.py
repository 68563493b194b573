"""One refusal hierarchy (caedes_bot/rules/errors.py): the rules' violations, the service's
refusals and the cogs' user errors share :class:`Refusal`, and the edge has one handler for it
(caedes_bot/ui/replies.py)."""

from __future__ import annotations

import pytest
from discord import app_commands

from caedes_bot import service
from caedes_bot.cogs._errors import NotInCampaign, NotPermitted, UserError
from caedes_bot.rules.errors import NotYourTurn, Refusal, RuleViolation, UnknownName
from caedes_bot.ui.replies import error_text


@pytest.mark.parametrize(
    "refusal",
    [
        RuleViolation("No.", rule="R-MOVE-06"),
        NotYourTurn("Not now."),
        service.NotAuthorised("Not yours."),
        service.StaleOrder("Too late."),
        service.AdminRefused("Taken."),
        service.UnknownCampaign(7),
        UserError("Not here.", allowed="somewhere else"),
        NotInCampaign(),
        NotPermitted("Umpires only."),
    ],
    ids=lambda refusal: type(refusal).__name__,
)
def test_every_refusal_is_one_kind_and_reaches_the_one_handler(refusal: Refusal) -> None:
    assert isinstance(refusal, Refusal)
    assert error_text(refusal) == refusal.player_text()


def test_a_rule_violation_always_cites_its_rule() -> None:
    assert RuleViolation("No.").player_text() == "No. (R-GEN-00)"
    assert NotYourTurn("Not now.").rule == "R-TURN-03"
    assert str(RuleViolation("No.", rule="R-MOVE-06")) == "No. (R-MOVE-06)"


def test_a_refusal_cites_a_rule_only_when_one_is_behind_it() -> None:
    assert Refusal("Not here.").player_text() == "Not here."
    assert Refusal("Not here.", allowed="there").player_text() == "Not here.\nAllowed: there"
    assert Refusal("Mine.", rule="R-PBP-NEG-01").player_text() == "Mine. (R-PBP-NEG-01)"
    assert service.AdminRefused("Taken.").player_text() == "Taken."


def test_r_gen_04_a_did_you_mean_refusal_says_what_is_allowed() -> None:
    """R-GEN-04 (ux.md: what was wrong and what is allowed): near matches are what is allowed,
    or another name of that kind, unless the refusal says more itself."""
    near = UnknownName("province", "Ormee", ("Orme",), rule="R-MOVE-01")
    assert near.player_text() == (
        "No province 'Ormee'. Did you mean Orme? (R-MOVE-01)\n"
        "Allowed: Orme, or another province by its name"
    )
    two = UnknownName("unit kind", "Knigts", ("Dawnian Knights", "Orc Knights"))
    assert two.allowed == "Dawnian Knights or Orc Knights, or another unit kind by its name"
    told = UnknownName("faction", "Orks", ("Orcs",), allowed="Dawnians (DAW), Orcs (ORC)")
    assert told.allowed == "Dawnians (DAW), Orcs (ORC)"


def test_user_errors_stay_app_command_errors_so_checks_pass_them_on() -> None:
    assert isinstance(UserError("x"), app_commands.AppCommandError)


def test_an_unknown_campaign_is_still_a_lookup_error() -> None:
    assert isinstance(service.UnknownCampaign(3), LookupError)
    assert "3" in service.UnknownCampaign(3).player_text()
