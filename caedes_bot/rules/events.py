"""Events: what happened, in the past tense (design.md section 3).

Events are frozen dataclasses. They are the campaign's history: the event log, replays and every
announcement come from them. Each event says who may see it (R-GEN-07): ``audience`` ``None``
means everyone; otherwise the listed factions (the umpire sees everything).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.rules.frozen import quick_init


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event.

    Subclasses set :attr:`private` to ``True`` when they reveal a faction's secrets (RP,
    commodities, purchases: R-GEN-07); then :meth:`audience` is the event's ``faction`` field.
    """

    private: ClassVar[bool] = False
    registry: ClassVar[dict[str, type[Event]]] = {}

    def __init_subclass__(cls, **kwargs: object) -> None:
        # explicit super(): slots=True rebuilds the class, so the zero-arg form fails on 3.11
        super(Event, cls).__init_subclass__(**kwargs)
        Event.registry[cls.__name__] = cls
        if "__dataclass_fields__" in cls.__dict__:  # the slotted class the decorator made
            quick_init(cls)  # each field set through its slot (frozen.py): same values

    def audience(self) -> tuple[str, ...] | None:
        """Factions that may see this event, or ``None`` for everyone (R-GEN-07)."""
        if not self.private:
            return None
        faction = getattr(self, "faction", None)
        return (faction,) if isinstance(faction, str) else ()
