"""How a step of the turn is described to the engine (design.md section 3: steps are data).

Who may give an order is declared by the rules, never guessed from its class name:
:class:`Giver` says it for every order the rules know (:func:`caedes_bot.rules.engine.giver_of`
reads it), so the service asks the rules who may give an order before it applies it.
"""

from __future__ import annotations

import enum


class Giver(enum.Enum):
    """Who may give an order (R-TURN-03, R-PBP-UMP-01)."""

    #: Only the faction whose turn it is (R-TURN-03); the engine refuses anyone else with
    #: ``NotYourTurn`` and refuses the faction's own orders in a passive turn (R-PBP-DEAD-03).
    ACTIVE = "active"
    #: The party a decision or offer is put to, in anyone's turn (a casualty choice, the answer
    #: to a trade offer); the order's handler checks that the giver is the one asked.
    REACTION = "reaction"
    #: Only the umpire, a server admin or the bot itself (R-PBP-UMP-01); the service checks
    #: who asks, the engine takes it in any faction's turn.
    UMPIRE = "umpire"
    #: Any faction in play, at any time of anyone's turn; the handler checks what it may do.
    ANY = "any"
