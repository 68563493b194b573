"""The command tree's one error handler (caedes_bot.cogs._errors), through the real bot.

A refusal is answered privately with the rule ID and what is allowed; a bug gets a short
private apology and is logged at ERROR with its traceback.
"""

from __future__ import annotations

from caedes_bot.app import EXTENSIONS
from caedes_bot.ui.replies import APOLOGY
from tests.e2e.conftest import MakeBot
from tests.fakediscord import FakeDiscord

WITH_FAILING = (*EXTENSIONS, "tests.e2e.errors_cog")


async def test_rule_violation_is_a_private_answer_with_rule_and_allowed(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    await make_bot(extensions=WITH_FAILING)
    record = await fake.slash(fake.players[0], "failing rule")
    assert record.ephemeral
    assert record.text == (
        "Cavalry may not enter mountains: Ironpeak is mountains. (R-MOVE-06)\n"
        "Allowed: a move to a plains or hills province"
    )
    user = await fake.slash(fake.players[0], "failing user")
    assert user.ephemeral and user.text == "Not here.\nAllowed: somewhere else"


async def test_a_bug_is_logged_and_apologised_for(fake: FakeDiscord, make_bot: MakeBot) -> None:
    runner = await make_bot(extensions=WITH_FAILING)
    with runner.expect_errors() as records:
        record = await fake.slash(fake.players[0], "failing bug")
        assert record.ephemeral and record.text == APOLOGY
        assert any("a bug in a command" in str(r.exc_info[1]) for r in records if r.exc_info)
    with runner.expect_errors() as records:
        late = await fake.slash(fake.players[0], "failing late")
        assert late.callback_type == 5  # deferred, then the apology as a follow-up
        assert late.ephemeral and late.text == APOLOGY
        assert records
