"""A quicker ``__init__`` for the frozen, slotted dataclasses the rules make most often (events,
decision details, statistics; issue 9, decision 0013).

The ``__init__`` that :func:`dataclasses.dataclass` writes for a frozen class sets each field
with ``object.__setattr__(self, name, value)``: a look-up of ``object.__setattr__`` and a
generic attribute set that finds the slot by name, per field. :func:`quick_init` gives such a
class an ``__init__`` with the same parameters and defaults that sets each slot through its
own member descriptor, found once (the same store ``object.__setattr__`` ends in, about twice
as fast). The class, its fields, equality, hashing, pickling, ``dataclasses.replace`` and the
frozen ``__setattr__`` are untouched: only how a new instance gets its values changes.

A class it cannot do this for exactly is left as it is: not a frozen dataclass with
``__slots__``, a ``__post_init__``, a field with a default factory, a keyword-only field, an
``InitVar``, or anything else that makes the dataclass's ``__init__`` differ from "one
positional-or-keyword parameter per field, in order, with the field's default".
"""

from __future__ import annotations

import dataclasses
import inspect
from types import MemberDescriptorType
from typing import Any, TypeVar

T = TypeVar("T")

#: the ``__init__`` :func:`dataclasses.dataclass` wrote, for each class :func:`quick_init`
#: changed (``tests/rules/test_frozen_init.py`` builds instances both ways and compares them)
DATACLASS_INITS: dict[type, Any] = {}


def quick_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass ``cls`` an ``__init__`` that sets each slot through its
    member descriptor (see the module docstring); returns ``cls``. Leaves ``cls`` unchanged
    when that would not be exactly the same ``__init__``."""
    init = _quick_init_of(cls)
    if init is not None:
        DATACLASS_INITS[cls] = cls.__dict__["__init__"]
        type.__setattr__(cls, "__init__", init)
    return cls


def _quick_init_of(cls: type) -> Any:
    params = cls.__dict__.get("__dataclass_params__")
    original = cls.__dict__.get("__init__")
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        return None
    if original is None or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    if any(not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING for f in fields):
        return None
    wanted = [p for p in inspect.signature(original).parameters.values()][1:]  # after self
    if [p.name for p in wanted] != [f.name for f in fields] or any(
        p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD
        or (p.default is not inspect.Parameter.empty) != (f.default is not dataclasses.MISSING)
        or (p.default is not inspect.Parameter.empty and p.default is not f.default)
        for p, f in zip(wanted, fields, strict=True)
    ):
        return None  # an InitVar, keyword-only parameters, or defaults not the fields'
    scope: dict[str, Any] = {}
    args: list[str] = []
    body: list[str] = []
    for n, f in enumerate(fields):
        slot = _slot(cls, f.name)
        if slot is None:
            return None
        scope[f"__set{n}__"] = slot.__set__
        if f.default is dataclasses.MISSING:
            args.append(f.name)
        else:
            scope[f"__default{n}__"] = f.default
            args.append(f"{f.name}=__default{n}__")
        body.append(f"    __set{n}__(self, {f.name})")
    source = f"def __init__(self, {', '.join(args)}):\n" + ("\n".join(body) or "    pass")
    exec(source, scope)  # the same technique dataclasses itself uses for __init__
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = original.__doc__
    init.__annotations__ = dict(getattr(original, "__annotations__", {}))
    return init


def _slot(cls: type, name: str) -> MemberDescriptorType | None:
    """The member descriptor of slot ``name`` of ``cls`` (or of a base class), if it is one."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            found = klass.__dict__[name]
            return found if type(found) is MemberDescriptorType else None
    return None
