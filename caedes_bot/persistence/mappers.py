"""Between rules objects and stored JSON (design.md section 4).

* The game state is one JSON document (stored as parts, one per unit, faction and section, by
  :mod:`caedes_bot.persistence.stateparts`, which joins them back into this document), read
  with pydantic's ``TypeAdapter(GameState)``, which round-trips the rules' plain dataclasses (enums, tuples and
  nested dataclasses included) without any serialisation code in the rules core. The document
  carries no version of its own, so its shape is kept: a pending decision is stored as
  ``{"id", "faction", "kind", "reaction", "detail"}`` with ``kind`` the
  :class:`~caedes_bot.rules.state.DecisionKind` value and ``detail`` an object of its typed
  detail's fields, as before details were typed (``tests/persistence/saved`` holds documents
  of that time).
* Orders and events are stored as ``{"type": ClassName, ...fields}``; the class is found in
  :attr:`Order.registry` / :attr:`Event.registry` and each class has its own cached adapter.
  Importing :mod:`caedes_bot.rules.catalogue` fills both registries, so every class is found
  in a process that has not applied an order.

Raises :class:`UnknownType` for a stored ``type`` that no class of this version knows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import TypeAdapter

from caedes_bot.rules import catalogue
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState

T = TypeVar("T")

# imported for its effect: every order and event class is registered
_CATALOGUE = catalogue.MODULES

_STATE = TypeAdapter(GameState)


class UnknownType(LookupError):
    """A stored order or event names a class this version of the bot does not have."""


def dump_state(state: GameState) -> str:
    """The state as compact JSON text."""
    return _STATE.dump_json(state).decode()


def load_state(data: str | bytes | Mapping[str, Any]) -> GameState:
    """A state from JSON text, or from an already parsed JSON object.

    Raises:
        pydantic.ValidationError: the document does not fit :class:`GameState`.
    """
    if isinstance(data, str | bytes):
        return _STATE.validate_json(data)
    return _STATE.validate_python(data)


_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def _adapter(cls: type[T]) -> TypeAdapter[T]:
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


def _dump(obj: object) -> dict[str, Any]:
    fields = _adapter(type(obj)).dump_python(obj, mode="json")
    if not isinstance(fields, dict):  # pragma: no cover - dataclasses always dump to dicts
        raise TypeError(f"{type(obj).__name__} did not dump to an object")
    return {"type": type(obj).__name__, **fields}


def _load(registry: Mapping[str, type[T]], data: Mapping[str, Any], what: str) -> T:
    fields = dict(data)
    name = fields.pop("type", None)
    if not isinstance(name, str) or name not in registry:
        raise UnknownType(f"unknown {what} type {name!r}")
    loaded: T = _adapter(registry[name]).validate_python(fields)
    return loaded


def dump_order(order: Order) -> dict[str, Any]:
    """``{"type": "Buy", "faction": "DAW", ...}``."""
    return _dump(order)


def load_order(data: Mapping[str, Any]) -> Order:
    """The order stored by :func:`dump_order`. Raises :class:`UnknownType`."""
    return _load(Order.registry, data, "order")


def dump_event(event: Event) -> dict[str, Any]:
    """``{"type": "UnitsBought", ...fields}``."""
    return _dump(event)


def load_event(data: Mapping[str, Any]) -> Event:
    """The event stored by :func:`dump_event`. Raises :class:`UnknownType`."""
    return _load(Event.registry, data, "event")
