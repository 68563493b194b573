"""Helpers for the gameplay end-to-end tests: scripted dice for the campaign, a staffed and
started campaign, and finding the turn panel and battle messages the bot posted.

The dice hook: :class:`QueuedDice` is handed to the bot's service as ``dice_factory`` (through
``CaedesBot(service_options=...)``), so every die a battle rolls is one the test queued; a die
asked for that was not queued fails the test, and so does one left over
(:meth:`QueuedDice.assert_used_up`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from caedes_bot.rules.dice import DiceScriptError, Roll
from caedes_bot.rules.state import GameState
from tests.e2e.campaigns import new_campaign, thread_members
from tests.e2e.conftest import MakeBot
from tests.e2e.harness import BotRunner
from tests.fakediscord import FakeDiscord, FakeUser, message_text

JSON = dict[str, Any]


@dataclass
class QueuedDice:
    """Dice for a whole campaign in a test: :meth:`push` the faces a step will roll, in order.

    Implements the rules' ``Dice`` protocol; one object serves every order of the campaign
    (``count`` only grows, as the engine expects), across bot restarts.
    """

    queue: list[int] = field(default_factory=list)
    history: list[Roll] = field(default_factory=list)
    rolled: int = 0

    @property
    def count(self) -> int:
        return self.rolled

    def push(self, *faces: int) -> None:
        self.queue.extend(faces)

    def roll(self, sides: int, count: int, *, reason: str) -> tuple[int, ...]:
        if count > len(self.queue):
            raise DiceScriptError(f"{count}d{sides} asked for ({reason}); {len(self.queue)} queued")
        values = tuple(self.queue[:count])
        del self.queue[:count]
        self.rolled += count
        self.history.append(Roll(reason, sides, values))
        return values

    def factory(self) -> Callable[[GameState], QueuedDice]:
        return lambda _state: self

    def assert_used_up(self) -> None:
        if self.queue:
            raise DiceScriptError(f"{len(self.queue)} queued dice were never rolled: {self.queue}")


async def start_bot(make_bot: MakeBot, dice: QueuedDice) -> BotRunner:
    """A bot whose campaigns roll ``dice``."""
    return await make_bot(service_options={"dice_factory": dice.factory()})


@dataclass
class Table:
    """A started campaign: its channels and threads, and who plays what."""

    found: dict[str, Any]
    players: dict[str, FakeUser]
    umpire: FakeUser

    def thread(self, faction: str) -> JSON:
        thread: JSON = self.found[f"orders:{faction}"]
        return thread

    @property
    def battles(self) -> JSON:
        battles: JSON = self.found["battles"]
        return battles

    @property
    def announcements(self) -> JSON:
        announcements: JSON = self.found["announcements"]
        return announcements


async def staffed_campaign(
    fake: FakeDiscord,
    *,
    scenario: str = "skirmish",
    seats: dict[str, FakeUser] | None = None,
    name: str = "Seven Swords",
    channel: JSON | None = None,
) -> Table:
    """As the server admin: create a campaign with ``fake.players[3]`` as umpire and give the
    factions in ``seats`` to their members; then the umpire starts it, once everyone is in
    their orders thread. ``channel``: where ``/campaign new`` is used (its server's), by
    default the first server's #general."""
    umpire = fake.players[3]
    found = await new_campaign(fake, name=name, scenario=scenario, umpire=umpire, channel=channel)
    talk = found["table-talk"]
    seats = seats or {}
    for faction, member in seats.items():
        given = await fake.slash(
            fake.admin, "campaign assign", member=member, faction=faction, channel=talk
        )
        assert "now plays" in given.text, given.text
    await fake.wait_for(
        lambda: all(
            m.id in thread_members(fake, found[f"orders:{f}"])
            and umpire.id in thread_members(fake, found[f"orders:{f}"])
            for f, m in seats.items()
        ),
        what="players and umpire in their orders threads",
    )
    started = await fake.slash(umpire, "campaign start", channel=talk)
    assert "has begun" in started.text, started.text
    return Table(found, dict(seats), umpire)


def panels(fake: FakeDiscord, table: Table, faction: str) -> list[JSON]:
    """The turn panels posted in ``faction``'s orders thread, oldest first."""
    return [
        m
        for m in fake.messages_in(table.thread(faction))
        if m.get("embeds") and "game round" in (m["embeds"][0].get("title") or "")
    ]


async def panel(
    fake: FakeDiscord, table: Table, faction: str, round_no: int, *, showing: str = ""
) -> JSON:
    """The turn panel of ``faction``'s turn of game round ``round_no``, once its text shows
    ``showing``."""

    def find() -> JSON | None:
        for m in panels(fake, table, faction):
            if f"game round {round_no}" in m["embeds"][0]["title"] and showing in message_text(m):
                return m
        return None

    found: JSON = await fake.wait_for(
        find, what=f"the {faction} panel of round {round_no} showing {showing!r}"
    )
    return found


def custom_ids(message: JSON) -> list[str]:
    return [
        c["custom_id"]
        for row in message.get("components") or []
        for c in row.get("components") or []
        if "custom_id" in c
    ]


def control(message: JSON, action: str) -> str:
    """The custom_id of the control on ``message`` whose action is ``action``."""
    found = [cid for cid in custom_ids(message) if cid.endswith(f":{action}")]
    assert found, f"no control {action!r} on the message; it has {custom_ids(message)}"
    return found[0]


async def battle(fake: FakeDiscord, table: Table, place: str, *, showing: str = "") -> JSON:
    """The battle message of the battle at ``place`` in #battles, once it shows ``showing``."""

    def find() -> JSON | None:
        for m in fake.messages_in(table.battles):
            title = (m.get("embeds") or [{}])[0].get("title") or ""
            if f"Battle at {place}" in title and showing in message_text(m):
                return m
        return None

    found: JSON = await fake.wait_for(find, what=f"the battle at {place} showing {showing!r}")
    return found


def option_values(message: JSON, action: str) -> list[str]:
    """The values of the select whose action is ``action``."""
    cid = control(message, action)
    for row in message.get("components") or []:
        for c in row.get("components") or []:
            if c.get("custom_id") == cid:
                return [o["value"] for o in c.get("options") or []]
    return []


def option_labels(message: JSON, action: str) -> dict[str, str]:
    """value -> label of the select whose action is ``action``."""
    cid = control(message, action)
    for row in message.get("components") or []:
        for c in row.get("components") or []:
            if c.get("custom_id") == cid:
                return {o["value"]: o["label"] for o in c.get("options") or []}
    return {}
