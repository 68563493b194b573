"""Orders: what a faction (or the umpire) asks the game to do (design.md section 3).

Orders are imperative, frozen dataclasses. Every order names the faction it is given for;
:func:`caedes_bot.rules.engine.apply` checks turn and step once and dispatches.
Concrete orders live beside the rules that apply them and are re-exported here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Order:
    """Base of every order.

    Attributes:
        faction: the faction the order is given for.
    """

    faction: str

    #: registry of order classes by name, for storage and replay
    registry: ClassVar[dict[str, type[Order]]] = {}
    #: what the order does, in a player's words, for messages ("Buying units"); a class that
    #: gives none gets its name in words ("End step")
    label: ClassVar[str] = "This order"
    #: the giver may take it back with ``UndoLastOrder`` while no die has been rolled and no
    #: other faction has given an order since (:mod:`caedes_bot.rules.undo`)
    undoable: ClassVar[bool] = False
    #: an undoable order that may end the step (step 4's answers): its record also keeps the
    #: step and the pending decisions, so taking it back returns to the step it ended
    undo_keeps_step: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        # explicit super(): slots=True rebuilds the class, so the zero-arg form fails on 3.11
        super(Order, cls).__init_subclass__(**kwargs)
        Order.registry[cls.__name__] = cls
        if "label" not in cls.__dict__:
            words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", cls.__name__).lower()
            cls.label = words[:1].upper() + words[1:]
