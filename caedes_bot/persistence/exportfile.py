"""The campaign export file: what ``/campaign export`` writes and ``/campaign import`` and
``python -m caedes_bot.verify`` read (decision 0023).

A file is gzipped JSON (UTF-8), one object::

    {"format": "caedes-bot campaign", "schema": 2, "exported_at": "2026-...Z",
     "campaign": {"name", "scenario", "status", "finished"},
     "options": {...}, "dice": {"commitment": "<sha-256 hex>", "seed": "<seed>" | null,
                                "rolled": <dice rolled so far>},
     "state": {<the rules state, as stored>},
     "orders": [{"seq", "faction", "acting_as", "actor", "dice_before", "dice_after", "at",
                 "order": {"type": ..., ...}}],
     "events": [{"seq", "order_seq", "audience", "at", "event": {"type": ..., ...}}]}

Until the campaign is finished the seed is left out: ``dice.seed`` is ``null`` and the
state's ``dice_seed`` is ``""``, so a file made mid-game tells nothing of a future die. The
commitment (SHA-256 of the seed, :func:`~caedes_bot.rules.dice.seed_commitment`) is always
there. Private treasuries are in the state: only the umpire and admins may export.

**Schema versions.** :data:`SCHEMA` is what this version writes; :func:`read_export` reads
every earlier one by upgrading it first (:data:`_UPGRADES`). Schema 1 (the first layout) kept
the seed as a top-level ``"seed"`` and had no commitment; its upgrade moves the seed into
``dice`` and leaves the commitment out (nothing was published to check it against).

:func:`check_export` replays a file with its revealed seed (:class:`~caedes_bot.rules.replay.Replay`)
and compares every order's dice count, every event (the dice are in them: R-GEN-08) and the
final state with what the file says.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from caedes_bot.domain.records import (
    ActingAs,
    CampaignInfo,
    CampaignStatus,
    StoredEvent,
    StoredOrder,
)
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.mappers import (
    UnknownType,
    dump_event,
    dump_state,
    load_order,
    load_state,
)
from caedes_bot.rules.dice import seed_commitment
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.orders import Order
from caedes_bot.rules.replay import ApplyFn, Replay
from caedes_bot.rules.state import GameState

#: What the ``format`` field of every export says.
FORMAT = "caedes-bot campaign"
#: The schema this version writes.
SCHEMA = 2
#: Largest file read (gzipped) and largest JSON text once unpacked: a file is refused before
#: it can fill the memory.
MAX_FILE = 25 * 1024 * 1024
MAX_JSON = 200 * 1024 * 1024

#: Builds a campaign's first state: ``(ruleset, scenario id, seed) -> GameState``.
NewGameFn = Callable[[Ruleset, str, str], GameState]


class BadExport(ValueError):
    """The bytes are not a campaign export this version can read; the message says what is
    wrong, in words for the member who gave the file."""


@dataclass(frozen=True, slots=True)
class ExportedOrder:
    """One order of the log, as in the file."""

    seq: int
    faction: str | None
    acting_as: str
    actor: int | None
    dice_before: int
    dice_after: int
    at: str
    order: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ExportedEvent:
    """One event of the log, as in the file."""

    seq: int
    order_seq: int
    audience: list[str] | None
    at: str
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class CampaignExport:
    """A file read and upgraded to :data:`SCHEMA`.

    Attributes:
        schema: the schema the file was written in (before any upgrade).
        seed: the dice seed, or ``None`` when the campaign was not finished.
        commitment: the published SHA-256 of the seed, or ``None`` (schema 1).
        state: the final state; its ``dice_seed`` is ``seed`` (``""`` when hidden).
    """

    schema: int
    name: str
    scenario: str
    status: str
    finished: bool
    seed: str | None
    commitment: str | None
    state: GameState
    orders: tuple[ExportedOrder, ...]
    events: tuple[ExportedEvent, ...]


def _at(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def build_export(
    info: CampaignInfo,
    state: GameState,
    orders: Sequence[StoredOrder],
    events: Sequence[StoredEvent],
    *,
    now: datetime,
) -> dict[str, Any]:
    """The document of a campaign (schema :data:`SCHEMA`); the seed only if ``info`` is
    finished."""
    finished = info.status is CampaignStatus.FINISHED
    doc_state = json.loads(dump_state(state))
    if not finished:
        doc_state["dice_seed"] = ""
    return {
        "format": FORMAT,
        "schema": SCHEMA,
        "exported_at": _at(now),
        "campaign": {
            "name": info.name,
            "scenario": info.scenario,
            "status": info.status.value,
            "finished": finished,
        },
        "options": doc_state.get("options", {}),
        "dice": {
            "commitment": seed_commitment(state.dice_seed),
            "seed": state.dice_seed if finished else None,
            "rolled": state.dice_rolls,
        },
        "state": doc_state,
        "orders": [
            {
                "seq": o.seq,
                "faction": o.faction,
                "acting_as": o.acting_as.value,
                "actor": o.actor_user_id,
                "dice_before": o.dice_before,
                "dice_after": o.dice_after,
                "at": _at(o.created_at),
                "order": o.payload,
            }
            for o in orders
        ],
        "events": [
            {
                "seq": e.seq,
                "order_seq": e.order_seq,
                "audience": e.audience,
                "at": _at(e.created_at),
                "event": e.payload,
            }
            for e in events
        ],
    }


def encode_export(doc: Mapping[str, Any]) -> bytes:
    """The file's bytes: compact JSON, gzipped (no time stamp in the gzip header, so the same
    document gives the same bytes)."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def _upgrade_1(doc: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 -> 2: the seed moves into ``dice``; there is no commitment to check."""
    seed = doc.pop("seed", None)
    state = doc.get("state") or {}
    doc["dice"] = {
        "commitment": None,
        "seed": seed,
        "rolled": state.get("dice_rolls", 0) if isinstance(state, dict) else 0,
    }
    doc["schema"] = 2
    return doc


#: schema -> the function that upgrades a document of that schema by one.
_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _upgrade_1}


def _unpack(data: bytes) -> dict[str, Any]:
    if len(data) > MAX_FILE:
        raise BadExport(f"The file is {len(data):,} bytes; an export is at most {MAX_FILE:,}.")
    try:
        unpacker = zlib.decompressobj(wbits=31)  # gzip
        text = unpacker.decompress(data, MAX_JSON)
        if unpacker.unconsumed_tail:
            raise BadExport(f"The file unpacks to more than {MAX_JSON:,} bytes.")
    except zlib.error as err:
        raise BadExport("The file is not gzipped (an export is a .json.gz file).") from err
    if not unpacker.eof:
        # the gzip trailer (length and checksum) is missing: the file was cut short
        raise BadExport("The file is cut short (its gzip ending is missing).")
    try:
        doc = json.loads(text)
    except (UnicodeDecodeError, ValueError) as err:
        raise BadExport(f"The file does not hold JSON ({err}).") from err
    except RecursionError as err:
        raise BadExport(
            "The file does not hold an export (its JSON is nested too deeply)."
        ) from err
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BadExport("The file is not a Caedes Bot campaign export (no `format` field).")
    return doc


def _field(doc: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = doc.get(name)
    if not isinstance(value, kind):
        raise BadExport(f"The field `{name}` is missing or of the wrong kind.")
    return value


def read_export(data: bytes) -> CampaignExport:
    """A file's bytes, checked and upgraded to :data:`SCHEMA`.

    Raises:
        BadExport: not gzip, not JSON, not an export, a schema newer than this version
            reads, a field missing or of the wrong kind, or a state this version cannot read.
    """
    doc = _unpack(data)
    schema = doc.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise BadExport("The field `schema` is missing or not a schema number.")
    if schema > SCHEMA:
        raise BadExport(
            f"The file is of schema {schema}; this version of the bot reads schemas 1 to "
            f"{SCHEMA}. Update the bot to import it."
        )
    written = schema
    while schema < SCHEMA:
        doc = _UPGRADES[schema](doc)
        schema = doc["schema"]
    campaign = _field(doc, "campaign", dict)
    dice = _field(doc, "dice", dict)
    seed = dice.get("seed")
    commitment = dice.get("commitment")
    if seed is not None and not isinstance(seed, str):
        raise BadExport("The field `dice.seed` is not text.")
    if commitment is not None and not isinstance(commitment, str):
        raise BadExport("The field `dice.commitment` is not text.")
    try:
        state = load_state(_field(doc, "state", dict))
        orders = tuple(
            ExportedOrder(
                seq=int(o["seq"]),
                faction=o.get("faction"),
                acting_as=str(o.get("acting_as", "system")),
                actor=o.get("actor"),
                dice_before=int(o["dice_before"]),
                dice_after=int(o["dice_after"]),
                at=str(o.get("at", "")),
                order=dict(o["order"]),
            )
            for o in _field(doc, "orders", list)
        )
        events = tuple(
            ExportedEvent(
                seq=int(e["seq"]),
                order_seq=int(e["order_seq"]),
                audience=e.get("audience"),
                at=str(e.get("at", "")),
                event=dict(e["event"]),
            )
            for e in _field(doc, "events", list)
        )
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise BadExport(f"The state in the file cannot be read: {where}: {first['msg']}.") from err
    except (KeyError, TypeError, ValueError) as err:
        raise BadExport(f"An order or event of the file is incomplete ({err}).") from err
    _check_rows(orders, events)
    if seed is not None and state.dice_seed != seed:
        raise BadExport("The state's dice seed is not the seed the file reveals.")
    return CampaignExport(
        schema=written,
        name=str(_field(campaign, "name", str)),
        scenario=str(_field(campaign, "scenario", str)),
        status=str(campaign.get("status", "")),
        finished=bool(campaign.get("finished")),
        seed=seed,
        commitment=commitment,
        state=state,
        orders=orders,
        events=events,
    )


_ACTING_AS = frozenset(a.value for a in ActingAs)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_rows(orders: Sequence[ExportedOrder], events: Sequence[ExportedEvent]) -> None:
    """Refuse rows that could not be stored as they are: numbers out of order or repeated,
    a capacity, faction, member or audience of the wrong kind."""
    last = 0
    for o in orders:
        if o.seq <= last:
            raise BadExport(
                f"Order {o.seq} of the file follows order {last}; the numbers must rise."
            )
        last = o.seq
        if o.acting_as not in _ACTING_AS:
            raise BadExport(
                f"Order {o.seq} of the file was given as {o.acting_as!r}; allowed: "
                f"{', '.join(sorted(_ACTING_AS))}."
            )
        if o.faction is not None and not isinstance(o.faction, str):
            raise BadExport(f"The faction of order {o.seq} of the file is not text.")
        if o.actor is not None and not _is_int(o.actor):
            raise BadExport(f"The member who gave order {o.seq} of the file is not a number.")
    last = 0
    for e in events:
        if e.seq <= last:
            raise BadExport(
                f"Event {e.seq} of the file follows event {last}; the numbers must rise."
            )
        last = e.seq
        audience = e.audience
        if audience is not None and not (
            isinstance(audience, list) and all(isinstance(f, str) for f in audience)
        ):
            raise BadExport(f"The audience of event {e.seq} of the file is not a list of factions.")


@dataclass(frozen=True, slots=True)
class Verdict:
    """What :func:`check_export` found.

    Attributes:
        ok: the replay matched everything (and the commitment, when the file has one).
        line: one line saying so, or the first mismatch.
        state: the replayed state (as far as the replay got).
        dice: dice rolled in the replay.
    """

    ok: bool
    line: str
    state: GameState | None
    dice: int = 0


def _difference(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> str:
    """The first field that differs between two event documents, in words."""
    for key in sorted(set(mine) | set(theirs)):
        if mine.get(key) != theirs.get(key):
            return f"{key} is {theirs.get(key)!r} in the file but {mine.get(key)!r} in the replay"
    return "they differ"


def _seen_by(audience: list[str] | None) -> str:
    return "everyone" if audience is None else ", ".join(audience) or "no faction"


def check_export(
    export: CampaignExport, ruleset: Ruleset, apply: ApplyFn, new_game: NewGameFn
) -> Verdict:
    """Replay ``export`` from its scenario with its revealed seed and compare every order's
    dice count, every event and the final state with the file; check the seed against its
    commitment (R-GEN-01, R-GEN-08).

    Returns a :class:`Verdict`; never raises for a file that :func:`read_export` accepted.
    """
    name = export.name
    if export.seed is None:
        return Verdict(
            False,
            f"FAIL: {name}: the dice seed is not in this file (the campaign was not finished "
            "when it was exported), so its dice cannot be checked yet.",
            None,
        )
    seed = export.seed
    if export.commitment is not None and seed_commitment(seed) != export.commitment:
        return Verdict(
            False,
            f"FAIL: {name}: the revealed seed does not match the commitment published at the "
            f"start (SHA-256 {seed_commitment(seed)} against {export.commitment}).",
            None,
        )
    if export.scenario not in ruleset.scenarios:
        return Verdict(False, f"FAIL: {name}: this bot has no scenario {export.scenario!r}.", None)
    replay = Replay(new_game(ruleset, export.scenario, seed), ruleset, apply)
    by_order: dict[int, list[ExportedEvent]] = {}
    for event in export.events:
        by_order.setdefault(event.order_seq, []).append(event)
    for row in export.orders:
        what = f"order {row.seq} ({row.order.get('type')}, {row.faction})"
        if row.dice_before != replay.state.dice_rolls:
            return Verdict(
                False,
                f"FAIL: {name}: {what}: the file says {row.dice_before} dice were rolled "
                f"before it, the replay {replay.state.dice_rolls}.",
                replay.state,
                replay.state.dice_rolls,
            )
        try:
            order: Order = load_order(row.order)
            done = replay.give(row.seq, order)
        except (UnknownType, ValidationError) as err:
            return Verdict(False, f"FAIL: {name}: {what} cannot be read: {err}.", replay.state)
        except RuleViolation as err:
            return Verdict(
                False, f"FAIL: {name}: {what} is refused in the replay: {err}", replay.state
            )
        mine = [dump_event(e) for e in done.events]
        theirs = [e.event for e in by_order.get(row.seq, [])]
        for i, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            if a != b:
                return Verdict(
                    False,
                    f"FAIL: {name}: {what}: event {i + 1} ({b.get('type')}) differs: "
                    f"{_difference(a, b)}.",
                    done.state,
                    done.state.dice_rolls,
                )
        for i, (replayed, row_event) in enumerate(
            zip(done.events, by_order.get(row.seq, []), strict=False)
        ):
            audience = replayed.audience()
            seen_by = None if audience is None else list(audience)
            if seen_by != row_event.audience:
                return Verdict(
                    False,
                    f"FAIL: {name}: {what}: event {i + 1} ({row_event.event.get('type')}) is "
                    f"seen by {_seen_by(row_event.audience)} in the file but by "
                    f"{_seen_by(seen_by)} in the replay.",
                    done.state,
                    done.state.dice_rolls,
                )
        if len(mine) != len(theirs):
            return Verdict(
                False,
                f"FAIL: {name}: {what}: the file has {len(theirs)} events, the replay {len(mine)}.",
                done.state,
                done.state.dice_rolls,
            )
        if row.dice_after != done.state.dice_rolls:
            return Verdict(
                False,
                f"FAIL: {name}: {what}: the file says {row.dice_after} dice were rolled after "
                f"it, the replay {done.state.dice_rolls}.",
                done.state,
                done.state.dice_rolls,
            )
    final = replay.state
    if not export.state.stats:  # a file from before the statistics (decision 0021)
        final = replace(final, stats={}, stats_battles={})
    # What /undo could take back is not part of the game: an older bot kept it for fewer orders
    # (moves only), so a file's last orders may have left none where the replay keeps some.
    if dump_state(replace(final, undo_log=[])) != dump_state(replace(export.state, undo_log=[])):
        return Verdict(
            False,
            f"FAIL: {name}: every order replays, but the final state differs from the file's.",
            final,
            final.dice_rolls,
        )
    against = (
        f"and the seed matches its published SHA-256 {export.commitment}"
        if export.commitment is not None
        else "(a schema-1 file has no published commitment to check the seed against)"
    )
    return Verdict(
        True,
        f"PASS: {name}: {len(export.orders)} orders and {final.dice_rolls} dice replayed from "
        f"the revealed seed match every event and the final state, {against}.",
        final,
        final.dice_rolls,
    )
