"""Copy-on-write for the game state: what :meth:`GameState.clone` shares and what it copies.

:func:`caedes_bot.rules.engine.apply` never changes the state it is given, but copying the whole
state for every order makes an order cost grow with the campaign (docs/decisions/0012). So a
clone shares what it can:

* :class:`CowTable` holds the units. A clone starts with the same unit objects as its source,
  and a unit is copied the first time it is looked up by key, by ``get``, ``values``, ``items``
  or ``pop`` (anything that hands the object to a caller who might change it). Lookups that
  promise not to change what they see (:meth:`CowTable.peek`, :meth:`CowTable.peek_values`)
  never copy. So an order copies the units it handles, not the board.
* :func:`copy_plain` copies one plain dataclass one level deep (its lists and dicts of plain
  values), for the small parts of the state whose size does not grow with units or events.

Both sides of a clone treat every unit as shared afterwards, so neither can change the other's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar, overload

T = TypeVar("T")
D = TypeVar("D")


def copy_plain(obj: T) -> T:
    """A copy of the dataclass ``obj`` (not slotted) whose list, dict and set attributes are
    new containers holding the same items; other attributes are shared (they must be immutable:
    numbers, strings, enums, frozen dataclasses, tuples)."""
    new: T = object.__new__(type(obj))
    attrs = obj.__dict__.copy()
    for name, value in attrs.items():
        if type(value) in _CONTAINERS:
            attrs[name] = value.copy()
    new.__dict__ = attrs
    return new


#: the containers :func:`copy_plain` copies (exactly these types, not subclasses)
_CONTAINERS = frozenset((list, dict, set))


class CowTable(dict[str, T]):
    """A ``dict`` of plain dataclasses (units) that shares them with the table it was cloned
    from and copies one (:func:`copy_plain`) the first time it is handed out.

    It is a real ``dict`` (pydantic and pickle store it as one) whose stored values are always
    this table's current view: shared objects for what nobody changed, own copies for the rest.
    """

    __slots__ = ("_own", "writes")

    def __init__(self, items: Iterable[tuple[str, T]] | dict[str, T] = ()) -> None:
        super().__init__(items)
        #: keys whose objects belong to this table alone (it may hand them out as they are)
        self._own: set[str] = set()
        #: how many times an object was handed out for writing, set or deleted: while it is
        #: unchanged, nothing in the table can have changed through the table (a reader that
        #: keeps something worked out from the objects checks it, decision 0013)
        self.writes = 0

    def __reduce__(self) -> tuple[Any, ...]:
        return (CowTable, (dict(self.peek_items()),))

    def share(self) -> CowTable[T]:
        """A new table holding the same objects; from now on both treat all of them as shared.
        Costs one pointer per entry, no object is copied."""
        self._own = set()
        return CowTable(self)  # a dict's own fast copy: CowTable does not change iteration

    def _mine(self, key: str) -> T:
        value = dict.__getitem__(self, key)
        self.writes += 1
        if key not in self._own:
            value = copy_plain(value)
            dict.__setitem__(self, key, value)
            self._own.add(key)
        return value

    # -------------------------------------------------------------- lookups that may change

    def __getitem__(self, key: str) -> T:
        return self._mine(key)

    def __setitem__(self, key: str, value: T) -> None:
        dict.__setitem__(self, key, value)
        self._own.add(key)
        self.writes += 1

    def __delitem__(self, key: str) -> None:
        dict.__delitem__(self, key)
        self._own.discard(key)
        self.writes += 1

    @overload
    def get(self, key: str, default: None = None, /) -> T | None: ...
    @overload
    def get(self, key: str, default: T, /) -> T: ...
    @overload
    def get(self, key: str, default: D, /) -> T | D: ...
    def get(self, key: str, default: object = None, /) -> object:
        if key in self:
            return self._mine(key)
        return default

    @overload
    def pop(self, key: str, /) -> T: ...
    @overload
    def pop(self, key: str, default: T | D, /) -> T | D: ...
    def pop(self, key: str, *default: object) -> object:
        if key in self:
            value = self._mine(key)
            del self[key]
            return value
        if default:
            return default[0]
        raise KeyError(key)

    def values(self) -> list[T]:  # type: ignore[override]
        """Every object, each this table's own (copied if it was shared)."""
        return [self._mine(key) for key in list(dict.keys(self))]

    def items(self) -> list[tuple[str, T]]:  # type: ignore[override]
        """Every ``(key, object)``, each object this table's own."""
        return [(key, self._mine(key)) for key in list(dict.keys(self))]

    def copy(self) -> dict[str, T]:
        """A plain ``dict`` of own copies (for callers that change what they take)."""
        return dict(self.items())

    # -------------------------------------------------------------- lookups that promise not to

    def peek(self, key: str) -> T:
        """The object at ``key``, perhaps shared: the caller must not change it."""
        return dict.__getitem__(self, key)

    def peek_values(self) -> Iterator[T]:
        """Every object, perhaps shared: the caller must not change them."""
        return iter(dict.values(self))

    def peek_items(self) -> Iterator[tuple[str, T]]:
        """Every ``(key, object)``, perhaps shared: the caller must not change them."""
        return iter(dict.items(self))
