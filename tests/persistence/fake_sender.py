"""A fake Discord for outbox tests: remembers channels, threads and messages, can fail on
purpose, and behaves like the real sender should (finds an existing channel by name before
creating one; drops a message whose nonce it has seen)."""

from __future__ import annotations

from dataclasses import dataclass, field

from caedes_bot.domain.records import OutboxKind
from caedes_bot.outbox import DeliveryResult, OutboxRow, PermanentError, RetryableError


class SimulatedCrash(BaseException):
    """The process dies here (not an ``Exception``: nothing catches it)."""


@dataclass
class FakeDiscord:
    next_id: int = 1000
    places: dict[tuple[int | None, str], int] = field(default_factory=dict)
    creations: list[str] = field(default_factory=list)
    messages: dict[int, list[str]] = field(default_factory=dict)
    message_ids: dict[int, str] = field(default_factory=dict)
    nonces: dict[str, int] = field(default_factory=dict)
    members: dict[int, set[int]] = field(default_factory=dict)
    #: thread id -> whether it is locked (R-PBP-NEG-03)
    locked: dict[int, bool] = field(default_factory=dict)
    calls: list[int] = field(default_factory=list)
    #: row id -> errors to raise on its next attempts, in order
    failures: dict[int, list[Exception]] = field(default_factory=dict)
    #: die right after the n-th creation reaches Discord (before the answer is stored)
    crash_after_creations: int | None = None

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    async def deliver(self, row: OutboxRow) -> DeliveryResult:
        self.calls.append(row.id)
        planned = self.failures.get(row.id)
        if planned:
            raise planned.pop(0)
        if row.kind in (
            OutboxKind.CREATE_CATEGORY,
            OutboxKind.CREATE_CHANNEL,
            OutboxKind.CREATE_THREAD,
        ):
            key = (
                row.parent_id if row.kind is not OutboxKind.CREATE_CATEGORY else row.guild_id,
                str(row.payload["name"]),
            )
            existing = self.places.get(key)
            if existing is not None:  # look before creating
                return DeliveryResult(existing, {"found": True})
            new = self.places[key] = self._new_id()
            self.creations.append(key[1])
            self.messages[new] = []
            if (
                self.crash_after_creations is not None
                and len(self.creations) >= self.crash_after_creations
            ):
                raise SimulatedCrash(key[1])
            return DeliveryResult(new)
        if row.channel_id is None or row.channel_id not in self.messages:
            raise PermanentError("Unknown Channel")
        if row.kind is OutboxKind.POST:
            if row.nonce in self.nonces:  # enforce_nonce: Discord returns the first message
                return DeliveryResult(self.nonces[row.nonce])
            msg = self._new_id()
            self.nonces[row.nonce] = msg
            self.messages[row.channel_id].append(str(row.payload["content"]))
            self.message_ids[msg] = str(row.payload["content"])
            return DeliveryResult(msg)
        if row.kind is OutboxKind.EDIT:
            assert row.message_id in self.message_ids
            old = self.message_ids[row.message_id]
            new_text = str(row.payload["content"])
            self.message_ids[row.message_id] = new_text
            texts = self.messages[row.channel_id]
            texts[texts.index(old)] = new_text
            return DeliveryResult(row.message_id)
        if row.kind in (OutboxKind.ADD_THREAD_MEMBER, OutboxKind.GRANT_CHANNEL_ACCESS):
            self.members.setdefault(row.channel_id, set()).add(int(row.payload["user_id"]))
            return DeliveryResult()
        if row.kind is OutboxKind.REMOVE_THREAD_MEMBER:
            self.members.setdefault(row.channel_id, set()).discard(int(row.payload["user_id"]))
            return DeliveryResult()
        if row.kind is OutboxKind.LOCK_THREAD:
            self.locked[row.channel_id] = bool(row.payload["locked"])
            return DeliveryResult(row.channel_id)
        raise RetryableError(f"fake cannot do {row.kind}")
