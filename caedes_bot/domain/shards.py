"""Which Discord guilds a bot process serves: its shards (decision 0025).

Discord spreads a bot's guilds over ``count`` shards by ``(guild_id >> 22) % count``; a
process runs some of them (``ids``) and receives the gateway events of those guilds only. The
outbox and the scheduler of a process therefore deliver and fire only for campaigns whose guild
is on one of its shards.
"""

from __future__ import annotations

import functools
import os
import secrets
import socket
from dataclasses import dataclass


def shard_of(guild_id: int, count: int) -> int:
    """The shard of a guild among ``count`` shards: ``(guild_id >> 22) % count`` (Discord's
    formula). ``count`` must be at least 1."""
    return (guild_id >> 22) % count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards a process runs: ``ids`` out of ``count`` (``ids`` ``None``: all of them).

    Raises:
        ValueError: ``count`` below 1, or an id outside ``0 .. count - 1``.
    """

    count: int = 1
    ids: frozenset[int] | None = None

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"the shard count must be at least 1, not {self.count}")
        bad = sorted(i for i in self.ids or () if not 0 <= i < self.count)
        if bad:
            raise ValueError(f"shard ids {bad} are not between 0 and {self.count - 1}")

    @property
    def all(self) -> bool:
        """Whether every guild is served (one shard, or every id named)."""
        return self.ids is None or len(self.ids) == self.count

    def serves(self, guild_id: int) -> bool:
        """Whether a guild's events and messages belong to this process."""
        return self.all or shard_of(guild_id, self.count) in (self.ids or ())


#: One process serving every guild (the default).
ALL_SHARDS = Shards()


@functools.cache
def process_name() -> str:
    """The name of this operating-system process in leases and claims (decision 0025): host,
    pid and a random tail, at most 64 characters; the same for every service of the process,
    different at every start (a restarted process waits for its old leases to run out)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"[:64]
