"""End-to-end: hostile text in every text option, through the real bot and the fake Discord
(issue: "Hostile input that still logs tracebacks"; the parser-level property tests are in
tests/ui/test_hostile_text.py).

About 50 texts per command family (tests/hostile.py, seeded, the same on every run), sent in
step 1 Trade of the skirmish, where none of these commands can change the game. Each answer is
private and says what was wrong and what is allowed instead (or a near name), never the
apology for a bug; nothing is logged above INFO; the game state is the same at the end.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from caedes_bot.ui.replies import APOLOGY, APOLOGY_AFTER_ORDER
from tests.e2e.conftest import MakeBot
from tests.e2e.gameplay import QueuedDice, panel, staffed_campaign, start_bot
from tests.fakediscord import FakeDiscord, InteractionRecord
from tests.hostile import samples

#: Texts per command family.
PER_FAMILY = 50

#: The loggers that must stay quiet above INFO.
QUIET = ("caedes_bot", "discord.app_commands")


class _Loud(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def loud() -> Iterator[_Loud]:
    handler = _Loud()
    for name in QUIET:
        logging.getLogger(name).addHandler(handler)
    try:
        yield handler
    finally:
        for name in QUIET:
            logging.getLogger(name).removeHandler(handler)


def _refused_cleanly(record: InteractionRecord, typed: str) -> None:
    """A private refusal that says what was wrong and what is allowed (or a near name)."""
    text = record.text
    assert record.ephemeral, (typed, text)
    assert text.strip() and APOLOGY not in text and APOLOGY_AFTER_ORDER not in text, (typed, text)
    first = text.splitlines()[0]
    assert first.strip(), (typed, text)
    assert "Allowed: " in text or "Did you mean" in text or "sea zone" in first, (typed, text)
    assert len(text) < 1000, (typed, text)


def _answered_privately(record: InteractionRecord, typed: str) -> None:
    """A private answer: what was asked for (an embed), or a clean refusal."""
    if record.reply.get("embeds"):
        assert record.ephemeral, typed
    else:
        _refused_cleanly(record, typed)


FAMILIES: dict[str, tuple[str, dict[str, Any], str]] = {
    # family: (command, fixed options, option that gets the hostile text)
    "move units": ("move", {"from": "Harrowgate", "to": "Wolfsgate"}, "units"),
    "move from": ("move", {"units": "1 Infantry", "to": "Wolfsgate"}, "from"),
    "trade offer give": ("trade offer", {"to": "DAW"}, "give"),
    "trade offer get": ("trade offer", {"to": "DAW", "give": "1 grain"}, "get"),
    "redeem sets": ("redeem sets", {}, "sets"),
    "trade accept": ("trade accept", {}, "offer"),
    "buy unit": ("buy", {}, "unit"),
    "muster unit": ("muster", {"province": "Brightholm"}, "unit"),
    "sail ship": ("sail", {"to": "Dilgac Sound"}, "ship"),
    "sail via": ("sail", {"ship": "#1", "to": "Dilgac Sound"}, "via"),
    "embark units": ("embark", {"ship": "#1"}, "units"),
    "disembark to": ("disembark", {"units": "#1"}, "to"),
}


async def test_hostile_text_gets_a_clean_private_answer_and_changes_nothing(
    fake: FakeDiscord, make_bot: MakeBot, loud: _Loud
) -> None:
    """R-MOVE-01, R-TRADE-04, R-COMM-10, R-TRADE-02, R-BUY-01, R-MUSTER-01, R-GEN-04: about 50
    hostile texts per command family, each refused cleanly (or, for a look-up, answered);
    the game stands where it was."""
    runner = await start_bot(make_bot, QueuedDice())
    alice, bob, carol, _umpire = fake.players
    table = await staffed_campaign(fake, seats={"DAW": alice, "ORC": bob, "ACH": carol})
    await panel(fake, table, "DAW", 1, showing="**Step 1 Trade**")
    daw = table.thread("DAW")
    before = await runner.bot.service.get_state(1)

    for seed, (family, (command, fixed, option)) in enumerate(FAMILIES.items()):
        for typed in samples(PER_FAMILY, seed):
            record = await fake.slash(alice, command, channel=daw, **{**fixed, option: typed})
            _refused_cleanly(record, f"{family}: {typed!r}")
    for seed, (command, option) in enumerate(
        [("province", "name"), ("unit", "name"), ("status", "faction")], start=len(FAMILIES)
    ):
        for typed in samples(PER_FAMILY, seed):
            record = await fake.slash(alice, command, channel=daw, **{option: typed})
            _answered_privately(record, f"{command}: {typed!r}")

    assert not loud.records, [f"{r.name}: {r.getMessage()}" for r in loud.records]
    after = await runner.bot.service.get_state(1)
    assert after == before
