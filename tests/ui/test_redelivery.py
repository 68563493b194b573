"""A second delivery of one interaction (caedes_bot/ui/replies.py) is recognised and dropped
with an INFO line, never handled as an error."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, cast

import discord
import pytest

from caedes_bot.ui.replies import first_delivery, report_error


@dataclass
class Client:
    pass


@dataclass
class User:
    id: int = 101


@dataclass
class StubInteraction:
    id: int
    client: Client
    done: bool = False
    sent: list[str] = field(default_factory=list)
    command: Any = None
    user: User = field(default_factory=User)
    extras: dict[str, object] = field(default_factory=dict)

    @property
    def response(self) -> StubInteraction:
        return self

    @property
    def followup(self) -> StubInteraction:
        return self

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str, *, ephemeral: bool) -> None:
        self.sent.append(content)

    async def send(self, content: str, *, ephemeral: bool) -> None:
        self.sent.append(content)


class Response:
    status = 400
    reason = "Bad Request"


def already_acknowledged() -> discord.HTTPException:
    return discord.HTTPException(
        Response(),  # type: ignore[arg-type]
        {"code": 40060, "message": "Interaction has already been acknowledged."},
    )


def test_the_same_interaction_id_is_first_only_once_per_client() -> None:
    client = Client()
    one = cast(discord.Interaction, StubInteraction(7, client))
    assert first_delivery(one) is True
    assert first_delivery(one) is False
    assert first_delivery(cast(discord.Interaction, StubInteraction(8, client))) is True
    assert first_delivery(cast(discord.Interaction, StubInteraction(7, Client()))) is True


async def test_already_acknowledged_by_another_delivery_is_logged_at_info(
    caplog: pytest.LogCaptureFixture,
) -> None:
    stub = StubInteraction(9, Client())
    with caplog.at_level(logging.INFO, logger="caedes_bot"):
        await report_error(cast(discord.Interaction, stub), already_acknowledged())
    assert stub.sent == []  # nothing to answer: the other delivery answered
    assert [r.levelno for r in caplog.records] == [logging.INFO]
    assert "interaction 9 was delivered again" in caplog.records[0].getMessage()


async def test_answering_twice_itself_is_still_a_bug(caplog: pytest.LogCaptureFixture) -> None:
    """If this very interaction was answered already, "already acknowledged" is the bot's own
    mistake: logged at ERROR."""
    stub = StubInteraction(10, Client(), done=True)
    with caplog.at_level(logging.INFO, logger="caedes_bot"):
        await report_error(cast(discord.Interaction, stub), already_acknowledged())
    assert logging.ERROR in [r.levelno for r in caplog.records]
    assert stub.sent and stub.sent[0].startswith("Sorry, something went wrong")
