"""One whole bot process against the fake Discord, for the several-process test
(``tests/e2e/test_two_processes.py``, decision 0025).

``python -m tests.e2e.bot_process API_BASE GATEWAY_URL LEASE`` runs ``bot.py`` as it is (its
settings from the ``CAEDES_*`` environment: token, database, shards), with discord.py pointed
at the fake, outbox leases and deadline claims of ``LEASE`` seconds instead of 30 and 60 (so
a killed process's queues are taken over soon), and a scheduler that looks at the database
every 0.2 s (the test moves a deadline there).
"""

from __future__ import annotations

import sys
from typing import Any

import discord.gateway
import discord.http
import yarl

import bot as entry_point
from caedes_bot.app import CaedesBot
from caedes_bot.settings import Settings


def main() -> int:
    api, gateway, lease = sys.argv[1], sys.argv[2], float(sys.argv[3])
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    built = CaedesBot.__init__
    set_up = CaedesBot.setup_hook

    def init(self: CaedesBot, settings: Settings, **options: Any) -> None:
        options.setdefault("scheduler_options", {"idle_poll": 0.2})
        options.setdefault("guild_ready_timeout", 0.01)
        built(self, settings, **options)

    async def setup_hook(self: CaedesBot) -> None:
        await set_up(self)
        self.service.delivery.lease_seconds = lease
        self.service.deadline_claim_seconds = lease

    CaedesBot.__init__ = init  # type: ignore[method-assign]
    CaedesBot.setup_hook = setup_hook  # type: ignore[method-assign]
    return entry_point.main()


if __name__ == "__main__":
    raise SystemExit(main())
