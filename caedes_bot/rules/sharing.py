"""Copy-on-write for the game state: what :meth:`GameState.clone` shares and what it copies.

:func:`caedes_bot.rules.engine.apply` never changes the state it is given, but copying the whole
state for every order makes an order cost grow with the campaign (docs/decisions/0012). So a
clone shares what it can:

* :class:`CowTable` holds the units. A clone starts with the same unit objects as its source,
  and a unit is copied the first time it is looked up by key, by ``get``, ``values``, ``items``,
  ``pop``, ``popitem`` or ``setdefault`` (anything that hands the object to a caller who might
  change it). Lookups that promise not to change what they see (:meth:`CowTable.peek`,
  :meth:`CowTable.peek_values`) never copy. So an order copies the units it handles, not the board.
* :func:`copy_plain` copies one plain dataclass one level deep (its lists and dicts of plain
  values), for the small parts of the state whose size does not grow with units or events.

Both sides of a clone treat every unit as shared afterwards, so neither can change the other's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import fields as dataclass_fields
from types import UnionType
from typing import (
    Any,
    Generic,
    Literal,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
    overload,
)

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
_new_dict = dict.__new__


class CopyPlan(Generic[T]):
    """:func:`copy_plain` for one dataclass, looking only at the fields whose declared type
    can hold a list, dict or set (worked out once from the type hints: a union is looked
    into, ``Any`` or an unknown hint counts as one), and at any attribute that is not a
    field (a memo). What it copies and shares is what :func:`copy_plain` would; it just
    passes over the fields that cannot hold a container (numbers, strings, enums, tuples,
    frozen dataclasses), which the engine copies on every order (decision 0013).

    ``plan.copy(obj)`` is :func:`copy_plain` of ``obj``, an instance of the plan's class: a
    function written for the plan when it is made, one test per field looked at, without a
    loop (the engine copies the state and the battle on every order; decision 0013, sixth
    pass).

    ``skip``: fields the caller replaces at once after the copy (they are shared here).
    ``shared``: fields whose containers are never changed in place, only replaced by new
    ones (every writer assigns a new list or dict): the copy shares them, which is then no
    different from copying them.
    ``extras``: attributes that are not fields which instances may carry (the battle's memo),
    looked at by name before any other attribute that is not a field is looked for.
    An instance must hold every field in its ``__dict__``, as a dataclass's ``__init__``
    sets them.
    """

    __slots__ = ("_extras", "_fields", "_names", "_size", "copy")

    def __init__(
        self,
        cls: type[T],
        *,
        skip: Iterable[str] = (),
        shared: Iterable[str] = (),
        extras: Iterable[str] = (),
    ) -> None:
        hints = get_type_hints(cls)
        names = [f.name for f in dataclass_fields(cast("type[Any]", cls))]
        left_out = {*skip, *shared}
        self._extras = tuple(extras)
        self._fields = frozenset((*names, *self._extras))
        self._size = len(names)
        self._names = tuple(n for n in names if n not in left_out and _may_hold(hints[n]))
        self.copy: Callable[[T], T] = self._written()

    @property
    def names(self) -> tuple[str, ...]:
        """The fields looked at, in declaration order."""
        return self._names

    def _written(self) -> Callable[[T], T]:
        """The plan's ``copy``: for each field looked at, and each extra, the test and copy
        the loop of :func:`copy_plain` makes, written out (the technique :mod:`dataclasses`
        uses for ``__init__``); other attributes that are not fields are left to
        :meth:`_rest`."""
        for name in (*self._names, *self._extras):
            if not name.isidentifier():  # (a dataclass field always is one)
                raise ValueError(f"not an attribute name: {name!r}")
        fields = [
            line
            for name in self._names
            for line in (
                f"    value = attrs[{name!r}]",
                "    if _type(value) in _containers:",
                f"        attrs[{name!r}] = value.copy()",
            )
        ]
        extras = [
            line
            for name in self._extras
            for line in (
                f"        value = attrs.get({name!r}, _containers)  # (a marker no attribute holds)",
                "        if value is not _containers:",
                "            others -= 1",
                "            if _type(value) in _containers:",
                f"                attrs[{name!r}] = value.copy()",
            )
        ]
        source = "\n".join(
            [
                "def copy(obj, _new=_new, _type=type, _containers=_containers, _size=_size,"
                " _rest=_rest):",
                "    new = _new(_type(obj))",
                "    attrs = obj.__dict__.copy()",
                *fields,
                "    others = len(attrs) - _size",
                "    if others:  # attributes that are not fields: as copy_plain does",
                *extras,
                "        if others:",
                "            _rest(attrs)",
                "    new.__dict__ = attrs",
                "    return new",
            ]
        )
        scope: dict[str, Any] = {
            "_new": object.__new__,
            "_containers": _CONTAINERS,
            "_size": self._size,
            "_rest": self._rest,
        }
        exec(source, scope)
        made: Callable[[T], T] = scope["copy"]
        made.__qualname__ = f"CopyPlan.copy<{', '.join(self._names)}>"
        return made

    def _rest(self, attrs: dict[str, Any]) -> None:
        """The attributes of ``attrs`` (a copy's ``__dict__``) that are neither fields nor
        extras: each list, dict or set copied, as :func:`copy_plain` does."""
        for name in attrs.keys() - self._fields:
            value = attrs[name]
            if type(value) in _CONTAINERS:
                attrs[name] = value.copy()


def _may_hold(hint: object) -> bool:
    """Whether a field declared ``hint`` may hold a ``list``, ``dict`` or ``set``."""
    origin = get_origin(hint)
    if origin is Union or origin is UnionType:
        return any(_may_hold(arg) for arg in get_args(hint))
    if origin is Literal or hint is type(None):
        return False
    if hint is Any:  # a class itself since Python 3.11
        return True
    cls = origin if origin is not None else hint
    if isinstance(cls, type):
        return cls is object or issubclass(cls, (list, dict, set))
    return True  # Any, a type variable, something unknown: look at it


class CowTable(dict[str, T]):
    """A ``dict`` of plain dataclasses (units) that shares them with the table it was cloned
    from and copies one (:func:`copy_plain`) the first time it is handed out.

    It is a real ``dict`` (pydantic and pickle store it as one) whose stored values are always
    this table's current view: shared objects for what nobody changed, own copies for the rest.
    """

    __slots__ = ("_carried", "_lineage", "_noted", "_noted_at", "_own", "origin", "writes")

    def __init__(self, items: Iterable[tuple[str, T]] | dict[str, T] = ()) -> None:
        super().__init__(items)
        #: keys whose objects belong to this table alone (it may hand them out as they are)
        self._own: set[str] = set()
        #: how many times an object was handed out for writing, set or deleted: while it is
        #: unchanged, nothing in the table can have changed through the table (a reader that
        #: keeps something worked out from the objects checks it, decision 0013)
        self.writes = 0
        #: what :meth:`note` was last given, and this table's count of writes then
        self._noted: object = None
        self._noted_at = -1
        #: the note of the table this one was shared from (:meth:`carried`)
        self._carried: object = None
        #: :meth:`lineage`, made when first asked
        self._lineage: object = None
        #: ``(lineage, writes)`` of the table this one was shared from, at the share, if that
        #: table's lineage had been asked for (else that table's own origin if nothing was
        #: written to it: it held the same objects); else ``None``
        self.origin: tuple[object, int] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (CowTable, (dict(self.peek_items()),))

    def share(self) -> CowTable[T]:
        """A new table holding the same objects; from now on both treat all of them as shared.
        Costs one pointer per entry, no object is copied. The new table carries this one's
        note if nothing was written since it was made (:meth:`carried`)."""
        self._own = set()
        self._carried = None  # its record of what was handed out since its own sharing is gone
        new: CowTable[T] = _new_dict(CowTable)  # what __init__ does, without its Python call
        dict.update(new, self)  # a dict's own fast copy: CowTable does not change iteration
        new._own = set()
        new.writes = 0
        new._noted = None
        new._noted_at = -1
        new._carried = self._noted if self._noted_at == self.writes else None
        new._lineage = None
        if self._lineage is not None:
            new.origin = (self._lineage, self.writes)
        else:  # unchanged since its own share: it holds what its origin held
            new.origin = self.origin if self.writes == 0 else None
        return new

    def lineage(self) -> object:
        """A token naming this table (made once, compared by identity): a reader that keeps
        what it worked out from the table at a count of writes (:attr:`writes`) knows that a
        table whose :attr:`origin` is this token and that count, and which has no writes of
        its own, holds the same objects (the battle's roster, decision 0013)."""
        token = self._lineage
        if token is None:
            token = self._lineage = object()
        return token

    # -------------------------------------------------------------- what changed since a note

    def note(self, census: object) -> None:
        """Record that ``census`` (any object a reader made) describes the table as it is now,
        at its present count of writes. A table shared from this one while the count is still
        the same carries it (:meth:`carried`): a reader can then look only at what was written
        since, instead of at every object (the checks after every order, decision 0013)."""
        self._noted = census
        self._noted_at = self.writes

    def carried(self) -> object:
        """The note of the table this one was shared from, made when that table held exactly
        what this one held when it was made; ``None`` if there was none (a table built from a
        ``dict`` or unpickled, a note made before a later write, or this table shared on since,
        which forgets what was handed out). While it is not ``None``, :meth:`written_keys` is
        every key written since this table was made."""
        return self._carried

    def written_keys(self) -> Iterable[str]:
        """The keys still in the table whose objects were handed out for writing or set since
        the table was made by :meth:`share` (a deleted key is not among them: a reader keeps
        the keys it cares about and looks for them). Meaningful only while :meth:`carried`
        is not ``None``; the caller must not change the set."""
        return self._own

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

    # ``dict``'s own versions of these would set, hand out or drop objects without the table
    # knowing: a shared object handed out to be changed (``setdefault``, ``popitem``, ``|``),
    # or writes not counted (``update``, ``clear``), which readers that keep what they worked
    # out from the table rely on (decision 0013)

    def update(  # type: ignore[override]
        self, other: Mapping[str, T] | Iterable[tuple[str, T]] = (), /, **more: T
    ) -> None:
        """Set every ``(key, object)`` of ``other`` and then of ``more``, as ``table[key] = ...``
        does: each becomes this table's own."""
        pairs = other.items() if isinstance(other, Mapping) else other
        for key, value in pairs:
            self[key] = value
        for key, value in more.items():
            self[key] = value

    def setdefault(self, key: str, default: T, /) -> T:
        """The object at ``key``, this table's own (copied if it was shared); if there is none,
        ``default``, set at ``key`` first."""
        if key in self:
            return self._mine(key)
        self[key] = default
        return default

    def popitem(self) -> tuple[str, T]:
        """Remove the last ``(key, object)`` set and return it, the object this table's own.

        Raises:
            KeyError: the table is empty.
        """
        if not self:
            raise KeyError("popitem(): the table is empty")
        key = next(reversed(dict.keys(self)))
        return key, self.pop(key)

    def clear(self) -> None:
        """Remove every object (a write)."""
        dict.clear(self)
        self._own.clear()
        self.writes += 1

    def __ior__(self, other: Mapping[str, T] | Iterable[tuple[str, T]]) -> CowTable[T]:  # type: ignore[override]
        self.update(other)
        return self

    def __or__(self, other: Mapping[str, T]) -> dict[str, T]:  # type: ignore[override]
        """A plain ``dict``: own copies of this table's objects, then ``other``'s."""
        if not isinstance(other, Mapping):
            return NotImplemented
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other: Mapping[str, T]) -> dict[str, T]:  # type: ignore[override]
        """A plain ``dict``: ``other``'s objects, then own copies of this table's."""
        if not isinstance(other, Mapping):
            return NotImplemented
        merged = dict(other)
        merged.update(self.items())
        return merged

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
