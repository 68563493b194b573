"""The game state stored as parts, and what an order changed (docs/decisions/0008).

A campaign's state is stored as rows of ``campaign_state_parts``, one JSON document each:

* ``u:<id>``: one row per unit, without the fields at their defaults (:func:`unit_text`);
  ``f:<code>``: one row per faction;
* ``owners`` (province -> owner), ``options``, ``pending`` (the pending decisions);
* ``battle``: the battle being fought without its step records, and ``r:<i>``: its ``i``-th
  step record (from 0); none of them when no battle is being fought;
* ``undo:<i>``: the ``i``-th record of the undo log (from 0), so that an undoable order adds
  one row instead of rewriting the whole log (decision 0009);
* ``game``: every other field of :class:`~caedes_bot.rules.state.GameState` (a field added
  later lands here without any change to this module).

Each row has an ``ord`` that keeps the order of the units and factions dicts exactly (the
rules iterate them, so a loaded state must iterate them as the one in memory does): a part
added later has a larger ``ord``. Rows are read back in ``ord`` order and joined into the
JSON document that :func:`~caedes_bot.persistence.mappers.load_state` has always read.

Because :func:`caedes_bot.rules.engine.apply` never changes the state it is given, and the
state is copied on write (docs/decisions/0012), the state before an order and the one after
share every object the order did not touch. :func:`diff_state` compares the two part by part,
first by identity then by value, and returns only the parts to insert, update or delete, so
an order writes what it changed, not the whole board. The cached state before the order is
exactly what the database holds at that version (the version guard makes sure), so the
comparison needs nothing read back.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import is_, is_not
from typing import Any, get_type_hints

from pydantic import TypeAdapter

from caedes_bot.persistence.mappers import load_state
from caedes_bot.rules.state import (
    Battle,
    BattleStepRecord,
    FactionState,
    GameState,
    UndoRecord,
    Unit,
)

#: ``ord`` values handed out by the order that makes version ``v`` start at ``v * ORD_STEP``,
#: so they are larger than every ``ord`` already stored (an order adds far fewer parts).
ORD_STEP = 1_000_000

#: The fields of :class:`GameState` stored in parts of their own (the rest is ``game``).
SPLIT_FIELDS = frozenset(
    {"units", "factions", "owners", "options", "pending", "battle", "undo_log"}
)

_HINTS = get_type_hints(GameState)
_GAME = TypeAdapter(GameState)
_UNIT = TypeAdapter(Unit)
_FACTION = TypeAdapter(FactionState)
_BATTLE = TypeAdapter(Battle)
_RECORD = TypeAdapter(BattleStepRecord)
_UNDO = TypeAdapter(UndoRecord)
_OWNERS: TypeAdapter[Any] = TypeAdapter(_HINTS["owners"])
_OPTIONS: TypeAdapter[Any] = TypeAdapter(_HINTS["options"])
_PENDING: TypeAdapter[Any] = TypeAdapter(_HINTS["pending"])
_GAME_FIELDS = tuple(f.name for f in dataclasses.fields(GameState) if f.name not in SPLIT_FIELDS)
_NO_RECORDS = frozenset({"records"})
_BATTLE_FIELDS = tuple(f.name for f in dataclasses.fields(Battle) if f.name != "records")


@dataclass(frozen=True, slots=True)
class Part:
    """One stored part: its key, its place (``ord``) and its JSON text."""

    key: str
    ord: int
    doc: str


@dataclass(slots=True)
class PartChanges:
    """What an order changed in the stored parts of a campaign.

    Attributes:
        inserts: parts that were not stored before.
        updates: ``(key, JSON text)`` of stored parts whose value changed (their ``ord`` kept).
        reorders: ``(key, ord)`` of stored parts that move (rare: only when a dict's order
            changed other than by adding at its end or removing).
        deletes: keys of stored parts that are gone.
    """

    inserts: list[Part] = field(default_factory=list)
    updates: list[tuple[str, str]] = field(default_factory=list)
    reorders: list[tuple[str, int]] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)

    @property
    def bytes_written(self) -> int:
        """Characters of JSON text written (inserts and updates)."""
        return sum(len(p.doc) for p in self.inserts) + sum(len(d) for _, d in self.updates)


def _text(adapter: TypeAdapter[Any], value: object, **kwargs: Any) -> str:
    return adapter.dump_json(value, **kwargs).decode()


def unit_text(unit: Unit) -> str:
    """A unit's part: its JSON without the fields at their defaults (a unit mostly keeps
    them, and the text to read back and validate is a third as long, decision 0009). A
    stored unit part therefore means what :class:`Unit`'s defaults say: changing a default
    needs a data migration of the stored parts."""
    return _UNIT.dump_json(unit, exclude_defaults=True).decode()


def _game(state: GameState) -> str:
    return _text(_GAME, state, exclude=SPLIT_FIELDS)


def _faction_text(faction: FactionState) -> str:
    return _text(_FACTION, faction)


def _battle(battle: Battle) -> str:
    return _text(_BATTLE, battle, exclude=_NO_RECORDS)


def split_state(state: GameState) -> list[Part]:
    """Every part of ``state`` (for a new campaign, or a state replaced whole)."""
    parts = [
        Part("game", 0, _game(state)),
        Part("options", 0, _text(_OPTIONS, state.options)),
        Part("owners", 0, _text(_OWNERS, state.owners)),
        Part("pending", 0, _text(_PENDING, state.pending)),
    ]
    parts += [
        Part(f"f:{code}", i, _text(_FACTION, f))
        for i, (code, f) in enumerate(dict.items(state.factions))
    ]
    parts += [
        Part(f"u:{key}", i, unit_text(u)) for i, (key, u) in enumerate(dict.items(state.units))
    ]
    if state.battle is not None:
        parts.append(Part("battle", 0, _battle(state.battle)))
        parts += [Part(f"r:{i}", i, _text(_RECORD, r)) for i, r in enumerate(state.battle.records)]
    parts += [Part(f"undo:{i}", i, _text(_UNDO, r)) for i, r in enumerate(state.undo_log)]
    return parts


def _same(old: object, new: object) -> bool:
    return old is new or old == new


def diff_state(old: GameState, new: GameState, version: int) -> PartChanges:
    """The parts that differ between ``old`` (as stored) and ``new``, the state of ``version``.

    Costs one identity check per unit (and a value comparison for each unit the order handed
    out), and JSON text only for the parts that changed.
    """
    changes = PartChanges()
    base = version * ORD_STEP
    if not all(_same(getattr(old, name), getattr(new, name)) for name in _GAME_FIELDS):
        changes.updates.append(("game", _game(new)))
    if not _same(old.options, new.options):
        changes.updates.append(("options", _text(_OPTIONS, new.options)))
    if not _same(old.owners, new.owners):
        changes.updates.append(("owners", _text(_OWNERS, new.owners)))
    if not _same(old.pending, new.pending):
        changes.updates.append(("pending", _text(_PENDING, new.pending)))
    _diff_table(changes, "f:", old.factions, new.factions, _faction_text, base)
    _diff_table(changes, "u:", old.units, new.units, unit_text, base)
    _diff_battle(changes, old.battle, new.battle)
    _diff_list(changes, "undo:", old.undo_log, new.undo_log, _UNDO)
    return changes


def _diff_table(
    changes: PartChanges,
    prefix: str,
    old: dict[str, Any],
    new: dict[str, Any],
    text: Callable[[Any], str],
    base: int,
) -> None:
    """Parts of one dict (units or factions) keyed ``prefix + key``, its order kept."""
    keys = list(dict.keys(new))
    values = list(dict.values(new))
    befores = list(map(dict.get.__get__(old), keys))  # no copy, even from a CowTable
    # the usual case: almost every unit is the very object it was (shared), found in C
    moved = map(is_not, befores, values)
    for key, before, value in compress(zip(keys, befores, values, strict=True), moved):
        if before is not None and before != value:  # None: new, inserted below
            changes.updates.append((prefix + key, text(value)))
    added = sum(map(is_, befores, repeat(None)))  # (not list.count: that calls __eq__)
    if len(old) > len(keys) - added:  # some are gone
        gone = dict.keys(old) - dict.keys(new)
        changes.deletes += [prefix + key for key in gone]
        kept = [k for k in dict.keys(old) if k not in gone]
    else:
        kept = list(dict.keys(old))
    order = keys
    if order[: len(kept)] == kept:  # the usual case: removed from, or added at the end
        places = list(enumerate(order[len(kept) :]))
    else:  # the order changed: every part of the table gets a new place
        places = list(enumerate(order))
        changes.reorders += [(prefix + k, base + i) for i, k in places if k in old]
        places = [(i, k) for i, k in places if k not in old]
    changes.inserts += [
        Part(prefix + key, base + i, text(dict.__getitem__(new, key))) for i, key in places
    ]


def _diff_battle(changes: PartChanges, old: Battle | None, new: Battle | None) -> None:
    old_records = old.records if old is not None else []
    new_records = new.records if new is not None else []
    if new is None:
        if old is not None:
            changes.deletes.append("battle")
    elif old is None:
        changes.inserts.append(Part("battle", 0, _battle(new)))
    elif not all(_same(getattr(old, name), getattr(new, name)) for name in _BATTLE_FIELDS):
        changes.updates.append(("battle", _battle(new)))
    _diff_list(changes, "r:", old_records, new_records, _RECORD)


def _diff_list(
    changes: PartChanges,
    prefix: str,
    old: Sequence[Any],
    new: Sequence[Any],
    adapter: TypeAdapter[Any],
) -> None:
    """Parts of a list keyed ``prefix + index`` (a battle's step records, the undo log): the
    items at the same place are compared by identity first (in C: a list that grew shares
    every item it had), then by value."""
    kept = min(len(old), len(new))
    for i in compress(range(kept), map(is_not, old, new)):
        if old[i] != new[i]:
            changes.updates.append((f"{prefix}{i}", _text(adapter, new[i])))
    changes.inserts += [
        Part(f"{prefix}{i}", i, _text(adapter, new[i])) for i in range(kept, len(new))
    ]
    changes.deletes += [f"{prefix}{i}" for i in range(len(new), len(old))]


def join_parts(rows: Iterable[tuple[str, str]]) -> str:
    """The state document (JSON text) of a campaign's parts, given as ``(key, JSON text)`` in
    ``ord`` order; parts not stored take their defaults.

    Raises:
        ValueError: a key this version does not know.
    """
    singles: dict[str, str] = {}
    factions: list[str] = []
    units: list[str] = []
    records: list[tuple[int, str]] = []
    undo: list[tuple[int, str]] = []
    for key, doc in rows:
        kind, _, name = key.partition(":")
        if kind == "u":
            units.append(f'"{name}":{doc}')
        elif kind == "f":
            factions.append(f"{json.dumps(name)}:{doc}")
        elif kind == "r":
            records.append((int(name), doc))
        elif kind == "undo":
            undo.append((int(name), doc))
        elif key in ("game", "options", "owners", "pending", "battle"):
            singles[key] = doc
        else:
            raise ValueError(f"unknown state part {key!r}")
    game = singles.pop("game", "{}")[1:-1]
    out = [game] if game else []
    battle = singles.pop("battle", None)
    out += [f'"{key}":{doc}' for key, doc in singles.items()]
    out.append('"factions":{' + ",".join(factions) + "}")
    out.append('"units":{' + ",".join(units) + "}")
    if undo:
        undo.sort()
        out.append('"undo_log":[' + ",".join(doc for _, doc in undo) + "]")
    if battle is not None:
        records.sort()
        kept = ",".join(doc for _, doc in records)
        out.append(f'"battle":{battle[:-1]},"records":[{kept}]}}')
    return "{" + ",".join(out) + "}"


def load_parts(rows: Sequence[tuple[str, str]]) -> GameState:
    """The state stored as ``rows`` (``(key, JSON text)`` in ``ord`` order).

    Raises:
        ValueError: an unknown key; pydantic.ValidationError: the parts do not make a state.
    """
    return load_state(join_parts(rows))
