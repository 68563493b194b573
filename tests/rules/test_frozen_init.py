"""The quicker ``__init__`` of frozen, slotted dataclasses (``rules/frozen.py``, decision 0013)
makes exactly what the dataclass's own ``__init__`` makes: every event class and the decision
details and statistics it is given to, built both ways with the same arguments (each field a
value of its own, then with every default left out), field by field; and the classes it
cannot do exactly are left alone."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

import caedes_bot.rules.engine  # imports every step module, so every event class
import caedes_bot.rules.replay  # noqa: F401
from caedes_bot.rules.events import Event
from caedes_bot.rules.frozen import DATACLASS_INITS, quick_init
from caedes_bot.rules.state import (
    CasualtiesDetail,
    CasualtyCandidate,
    FactionStats,
    PressOrWithdrawDetail,
)

CHANGED = sorted(DATACLASS_INITS, key=lambda c: f"{c.__module__}.{c.__qualname__}")


def test_every_simple_event_class_and_the_hot_state_values_get_the_quick_init() -> None:
    simple = [  # the rules' own (tests register stand-ins of their own)
        cls
        for cls in Event.registry.values()
        if cls.__module__.startswith("caedes_bot.")
        and all(f.default_factory is dataclasses.MISSING for f in dataclasses.fields(cls))
    ]
    assert len(simple) > 80
    assert set(simple) <= set(DATACLASS_INITS)
    for cls in (FactionStats, CasualtiesDetail, CasualtyCandidate, PressOrWithdrawDetail):
        assert cls in DATACLASS_INITS


def _both(cls: type, *args: object, **kwargs: object) -> tuple[object, object]:
    quick = cls(*args, **kwargs)
    made = object.__new__(cls)
    DATACLASS_INITS[cls](made, *args, **kwargs)
    return quick, made


@pytest.mark.parametrize("cls", CHANGED, ids=lambda c: c.__qualname__)
def test_the_quick_init_sets_what_the_dataclass_init_sets(cls: type) -> None:
    fields = dataclasses.fields(cls)
    values = [object() for _ in fields]
    quick, made = _both(cls, *values)
    for f, value in zip(fields, values, strict=True):
        assert getattr(quick, f.name) is value is getattr(made, f.name)
    quick, made = _both(cls, **{f.name: v for f, v in zip(fields, values, strict=True)})
    assert quick == made
    needed = [v for f, v in zip(fields, values, strict=True) if f.default is dataclasses.MISSING]
    quick, made = _both(cls, *needed)
    assert quick == made
    for f in fields:
        assert getattr(quick, f.name) is getattr(made, f.name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(quick, fields[0].name, 1)
    with pytest.raises(TypeError):
        cls(*values, object())  # one argument too many, as before


def test_classes_it_cannot_do_exactly_are_left_alone() -> None:
    @dataclass(frozen=True, slots=True)
    class Factory:
        items: list[int] = field(default_factory=list)

    @dataclass(frozen=True, slots=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("n")

    @dataclass(frozen=True)
    class NoSlots:
        n: int

    @dataclass(frozen=True, slots=True, kw_only=True)
    class KeywordOnly:
        n: int

    for cls in (Factory, Checked, NoSlots, KeywordOnly):
        before = cls.__init__
        assert quick_init(cls) is cls
        assert cls.__init__ is before
        assert cls not in DATACLASS_INITS
    with pytest.raises(ValueError):
        Checked(-1)
