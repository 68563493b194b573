"""Export and import of a campaign (decision 0023; the file format is
:mod:`caedes_bot.persistence.exportfile`).

* :meth:`Exports.export_campaign`: the campaign as a gzipped JSON file: scenario, options,
  state, the order and event logs; the dice seed only once the campaign is finished.
* :meth:`Exports.import_campaign`: a new campaign from a file. A finished campaign's file is
  replayed with its revealed seed and must match in every die, event and the final state; the
  new campaign then holds the same logs and state, finished. An unfinished one (no seed in it)
  is continued: the new campaign gets a fresh seed, whose commitment is posted as at any start,
  and its first order, :class:`~caedes_bot.rules.replay.ContinueFrom`, carries the state.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from sqlalchemy.engine import Connection

from caedes_bot.domain.records import (
    ActingAs,
    CampaignInfo,
    CampaignStatus,
    OutboxMessage,
    StoredEvent,
    StoredOrder,
)
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.exportfile import (
    MAX_FILE,
    BadExport,
    CampaignExport,
    build_export,
    encode_export,
    read_export,
)
from caedes_bot.persistence.exportfile import check_export as check_file
from caedes_bot.persistence.stateparts import split_state
from caedes_bot.rules.replay import ContinueFrom
from caedes_bot.rules.state import GameState
from caedes_bot.service.access import acting_role
from caedes_bot.service.campaigns import Campaigns, tidy_campaign_name
from caedes_bot.service.core import Cached
from caedes_bot.service.errors import AdminRefused, CampaignNameTaken
from caedes_bot.service.seeds import seed_messages
from caedes_bot.service.values import Actor

#: The largest file ``/campaign import`` reads, in bytes.
MAX_IMPORT_BYTES = MAX_FILE


class ImportRefused(AdminRefused):
    """A file ``/campaign import`` cannot take: not an export, of a newer schema, damaged, or
    a finished campaign whose replay does not match it. Nothing was created."""


class ExportTooLarge(AdminRefused):
    """The export is bigger than Discord takes here (``size`` and ``limit`` in bytes;
    ``limit`` ``None`` when Discord refused the upload without saying its limit)."""

    def __init__(self, size: int, limit: int | None) -> None:
        self.size = size
        self.limit = limit
        takes = (
            f"Discord takes files of at most {limit / MIB:.1f} MiB ({limit:,} bytes) in this server"
            if limit is not None
            else "Discord refused it as larger than this server takes (Request entity too large)"
        )
        super().__init__(
            f"The export is {size / MIB:.1f} MiB ({size:,} bytes) and {takes}, so it was not sent.",
            allowed="a server with more boosts takes bigger files (Discord raises the upload "
            "limit at Server Boost levels 2 and 3); or whoever runs the bot can write the file "
            "from its database with `python -m caedes_bot.export` (see the README)",
        )


#: Bytes in a mebibyte, for the sizes an export refusal names.
MIB = 1024 * 1024


class Exports(Campaigns):
    """Export a campaign to a file; start a new campaign from one."""

    async def export_campaign(
        self, campaign_id: int, *, by: int | None, limit: int | None = None, logged: bool = True
    ) -> tuple[str, bytes]:
        """The campaign as ``(file name, gzipped JSON)``; logged in the audit log as done by
        ``by``, in the one transaction the export writes (after the size check, so a file
        that is not sent is not logged). The seed is in it only if the campaign is finished
        (decision 0023).

        Args:
            limit: the largest file Discord takes here, in bytes (``None``: no limit).
            logged: ``False`` only for ``python -m caedes_bot.export``, which reads the
                database beside a running bot and so writes nothing to it.

        Raises:
            UnknownCampaign: no such campaign.
            ExportTooLarge: the file is larger than ``limit``; nothing is written.
        """
        cached = await self._load(campaign_id)
        info, state, last_event = cached.info, cached.state, cached.last_event_seq

        def _tx(conn: Connection) -> tuple[list[StoredOrder], list[StoredEvent]]:
            # only the logs the state read above has seen: an order committed in between is
            # left out, so the file's state is always the end of its own order log
            orders = [o for o in repo.list_orders(conn, campaign_id) if o.seq <= info.version]
            events = [e for e in repo.list_events(conn, campaign_id) if e.seq <= last_event]
            return orders, events

        orders, events = await self.db.read(_tx)  # a snapshot: reads commit nothing
        now = self._clock()
        # building and packing a long campaign's file takes a while: off the event loop
        data = await asyncio.to_thread(
            lambda: encode_export(build_export(info, state, orders, events, now=now))
        )
        if limit is not None and len(data) > limit:
            raise ExportTooLarge(len(data), limit)

        def _audit(conn: Connection) -> None:
            repo.insert_audit(
                conn,
                campaign_id=campaign_id,
                user_id=by,
                action="campaign_exported",
                detail={
                    "orders": len(orders),
                    "bytes": len(data),
                    "with_seed": info.status is CampaignStatus.FINISHED,
                    "as": acting_role(info, by),
                },
                now=now,
            )

        if logged:
            await self.db.write(_audit)
        stem = "".join(c if c.isalnum() else "-" for c in info.name.lower()).strip("-")
        return f"{stem or 'campaign'}-{info.version}.json.gz", data

    async def import_campaign(
        self, guild_id: int, name: str, data: bytes, created_by: int
    ) -> tuple[CampaignInfo, CampaignExport]:
        """A new campaign from an export's bytes, umpired by ``created_by``, with its channels
        set up as by :meth:`create_campaign`.

        A finished campaign's file is replayed first (its revealed seed, every order): the new
        campaign is finished and holds the same order and event logs and state. An unfinished
        one is continued under way with a fresh seed (its commitment posted at once), the
        factions run by the umpire until they are assigned again.

        Raises:
            ImportRefused: the file is not an export this version reads, names a scenario it
                does not have, or (finished) does not replay to what it says.
            InvalidCampaignName, CampaignNameTaken: as :meth:`create_campaign`.
        """
        try:
            # unpacking and checking up to MAX_JSON bytes takes a while: off the event loop
            export = await asyncio.to_thread(read_export, data)
        except BadExport as err:
            raise ImportRefused(
                f"This file cannot be imported: {err}",
                allowed="a .json.gz file made by `/campaign export`",
            ) from err
        if export.scenario not in self.ruleset.scenarios:
            raise ImportRefused(
                f"The file's scenario {export.scenario!r} is not one this bot has.",
                allowed=", ".join(sorted(self.ruleset.scenarios)),
            )
        if export.seed is None:
            return await self._continue(guild_id, name, export, created_by), export
        return await self._replayed(guild_id, name, export, created_by), export

    async def _continue(
        self, guild_id: int, name: str, export: CampaignExport, created_by: int
    ) -> CampaignInfo:
        """The new campaign, its ``ContinueFrom`` and the audit entry in one transaction."""
        order = ContinueFrom(faction="UMPIRE", state=export.state, source=export.name)

        def then(conn: Connection, info: CampaignInfo, first: GameState) -> Cached:
            cached = Cached(info, first, 0, {}, frozenset())
            outcome = self._apply(first, order, self.ruleset, self._dice_factory(first))
            changed = outcome.state.neighbour_view != first.neighbour_view  # R-PBP-NEG-03
            threads = frozenset(repo.channels_of(conn, info.id)) if changed else frozenset()
            prepared = self._prepare_now(
                cached,
                Actor.system_actor(),
                ActingAs.SYSTEM,
                order,
                outcome,
                None,
                CampaignStatus.ACTIVE,
                players=None,
                earlier=(),
                threads=threads,
            )
            prepared.write(conn)
            repo.insert_audit(
                conn,
                campaign_id=info.id,
                user_id=created_by,
                action="campaign_imported",
                detail={
                    "name": info.name,
                    "source": export.name,
                    "schema": export.schema,
                    "orders": len(export.orders),
                    "finished": False,
                    "as": ActingAs.ADMIN.value,
                },
                now=self._clock(),
            )
            return prepared.after

        return await self.create_campaign(
            guild_id, name, export.scenario, created_by, umpire_user_id=created_by, then=then
        )

    async def _replayed(
        self, guild_id: int, name: str, export: CampaignExport, created_by: int
    ) -> CampaignInfo:
        verdict = await asyncio.to_thread(
            check_file, export, self.ruleset, self._apply, self._new_game
        )
        if not verdict.ok or verdict.state is None:
            raise ImportRefused(
                f"This finished campaign does not replay as its file says: {verdict.line}",
                allowed="the file exactly as `/campaign export` made it",
            )
        # a finished campaign takes no more orders, so it keeps nothing /undo could take back
        state = replace(verdict.state, undo_log=[])
        name = tidy_campaign_name(name)
        now = self._clock()
        parts = split_state(state)
        last_seq = export.orders[-1].seq if export.orders else 0
        last_event = export.events[-1].seq if export.events else 0

        def _tx(conn: Connection) -> CampaignInfo | None:
            existing = repo.open_campaign_named(conn, guild_id, name)
            if existing is not None:
                raise CampaignNameTaken(
                    f"This server already has a campaign called {existing.name}.",
                    allowed="another name, or finish the old campaign first",
                )
            campaign_id = repo.insert_campaign(
                conn,
                guild_id=guild_id,
                name=name,
                scenario=export.scenario,
                parts=parts,
                created_by=created_by,
                umpire_user_id=created_by,
                now=now,
            )
            for row in export.orders:
                repo.insert_order(
                    conn,
                    campaign_id=campaign_id,
                    seq=row.seq,
                    actor_user_id=row.actor,
                    acting_as=ActingAs(row.acting_as),
                    faction=row.faction,
                    payload=row.order,
                    interaction_id=None,
                    dice_before=row.dice_before,
                    dice_after=row.dice_after,
                    now=now,
                )
            for event in export.events:
                repo.insert_events(
                    conn,
                    campaign_id=campaign_id,
                    first_seq=event.seq,
                    order_seq=event.order_seq,
                    events=[(event.event, event.audience)],
                    now=now,
                )
            repo.update_campaign(
                conn,
                campaign_id,
                now=now,
                version=last_seq,
                last_event_seq=last_event,
                status=CampaignStatus.FINISHED,
            )
            messages: list[OutboxMessage] = self._setup_rows(
                conn, campaign_id, name, state, created_by, table_talk=True
            )
            messages += seed_messages(name, CampaignStatus.ACTIVE, CampaignStatus.FINISHED, state)
            repo.insert_outbox(conn, campaign_id, messages, now=now)
            repo.insert_audit(
                conn,
                campaign_id=campaign_id,
                user_id=created_by,
                action="campaign_imported",
                detail={
                    "name": name,
                    "source": export.name,
                    "schema": export.schema,
                    "orders": len(export.orders),
                    "finished": True,
                    "as": ActingAs.ADMIN.value,
                },
                now=now,
            )
            return repo.campaign_info(conn, campaign_id)

        info = await self.db.write(_tx, inline=False)  # a whole campaign's log: off the loop
        assert info is not None
        self._store(Cached(info, state, last_event, {}, frozenset()))
        self._notify(info.id)
        return info
