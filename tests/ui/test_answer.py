"""Every private answer goes through ``caedes_bot.cogs._play.answer``: nothing it sends is over
Discord's 2,000 characters; long text goes on in follow-ups, the components stay with the
first message."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import discord

from caedes_bot.cogs._play import answer
from caedes_bot.ui import views


@dataclass
class Sent:
    kind: str
    content: str
    view: Any = None


@dataclass
class StubInteraction:
    """Records what is sent, as discord.Interaction's response and followup would."""

    sent: list[Sent] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)  # as discord.Interaction.extras

    @property
    def response(self) -> StubInteraction:
        return self

    @property
    def followup(self) -> StubInteraction:
        return self

    async def send_message(self, content: str, *, view: Any, ephemeral: bool) -> None:
        assert ephemeral
        self.sent.append(Sent("reply", content, view))

    async def edit_message(self, *, content: str, view: Any) -> None:
        self.sent.append(Sent("edit", content, view))

    async def send(self, content: str, *, ephemeral: bool) -> None:
        assert ephemeral
        self.sent.append(Sent("followup", content))


def _lines(count: int) -> str:
    return "\n".join(f"Trade offer #{n} lapsed unanswered when step 1 ended." for n in range(count))


async def test_a_long_answer_is_split_at_line_breaks_into_follow_ups() -> None:
    stub = StubInteraction()
    text = _lines(80)  # about 4,300 characters, as the tester's /done reply
    await answer(cast(discord.Interaction, stub), text)
    assert [s.kind for s in stub.sent] == ["reply", "followup", "followup"]
    assert all(len(s.content) <= 2000 for s in stub.sent)
    assert "\n".join(s.content for s in stub.sent) == text  # nothing lost, nothing cut


async def test_components_go_with_the_first_message_and_an_update_edits() -> None:
    rows = views.layout([views.button("caedes:1:panel.DAW.1.1:done", "Done")])
    stub = StubInteraction()
    await answer(cast(discord.Interaction, stub), _lines(60), rows, update=True)
    assert stub.sent[0].kind == "edit" and stub.sent[0].view is not None
    assert [s.kind for s in stub.sent[1:]] == ["followup"]
    short = StubInteraction()
    await answer(cast(discord.Interaction, short), "Bought 1 Dawnian Infantry.")
    assert [(s.kind, s.content) for s in short.sent] == [("reply", "Bought 1 Dawnian Infantry.")]
    assert short.sent[0].view is discord.utils.MISSING
