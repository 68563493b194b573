"""The campaign's bookkeeping vocabulary, shared by every ring outside the rules.

The rules core knows the game; this package names what the bot keeps about a campaign around
the game: its status, the capacity in which an order was given, the messages owed to Discord,
the places of a campaign and the stored rows the Discord edge reads (campaigns, deadlines,
events, the audit log). It holds plain frozen dataclasses and enums only, no I/O, so the
storage (``persistence``), the service and the Discord edge (``cogs``, ``ui``, the outbox and
the scheduler) all speak it without importing each other.

* :mod:`caedes_bot.domain.records`: enums and records.
* :mod:`caedes_bot.domain.places`: the key of a campaign's channel or thread.
"""
