"""The values the service takes and returns: who gives an order (:class:`Actor`), what the
member saw when giving it (:class:`Expect`), and what an accepted order or an umpire change did
(:class:`SubmitResult`, :class:`UmpireChange`).
"""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.domain.records import ActingAs
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState, Step
from caedes_bot.service.errors import StaleOrder
from caedes_bot.ui import wording


@dataclass(frozen=True, slots=True)
class Actor:
    """Who gives an order.

    Attributes:
        user_id: the Discord user, or ``None`` for the system (scheduler).
        is_admin: a server administrator (may give umpire orders, never a faction's orders).
        system: the bot itself (deadlines); may give any order.
    """

    user_id: int | None
    is_admin: bool = False
    system: bool = False

    @classmethod
    def system_actor(cls) -> Actor:
        """The bot acting on its own (a passed deadline, R-PBP-DEAD-03)."""
        return cls(user_id=None, system=True)


@dataclass(frozen=True, slots=True)
class Expect:
    """What the member saw when giving an order, checked by :meth:`RulesService.submit` under
    the campaign's lock against the state the order would be applied to: if the game has moved
    on, the order is refused with :class:`StaleOrder` and nothing changes. So a double click,
    or the same command given twice at once, has one effect.

    Attributes:
        round: the game round shown. faction: the faction whose turn it was. step: the step
            shown (R-TURN-02). Each is checked if given.
        decision_id: the pending decision being answered (it must still be pending).
        via: what was used, for the message: ``"button"``, ``"choice"``, ``"command"``.
        rule: the rule of the decision, cited if it was already answered (R-COMBAT-06, -08).
    """

    round: int | None = None
    faction: str | None = None
    step: Step | None = None
    decision_id: int | None = None
    via: str = "button"
    rule: str | None = None

    @classmethod
    def turn_of(cls, state: GameState, *, via: str = "command") -> Expect:
        """The turn as ``state`` shows it: its round, active faction and step."""
        return cls(round=state.round, faction=state.active, step=state.step, via=via)

    def refusal(self, state: GameState, ruleset: Ruleset) -> StaleOrder | None:
        """Why an order given with this expectation is stale in ``state``, or ``None``."""
        if self.decision_id is not None and all(d.id != self.decision_id for d in state.pending):
            words = wording.already_chosen(state, ruleset, self.rule)
            return StaleOrder(
                words.message, rule=self.rule or "R-PBP-DEAD-04", allowed=words.allowed
            )
        moved_on = (
            state.finished
            or (self.faction is not None and state.active != self.faction)
            or (self.round is not None and state.round != self.round)
        )
        if moved_on:
            words = wording.moment_over(
                self.via, self.step, self.faction, self.round, state, ruleset
            )
            return StaleOrder(words.message, allowed=words.allowed)
        if self.step is not None and state.step is not self.step:
            words = wording.step_over(self.via, self.step, state.step)
            return StaleOrder(words.message, allowed=words.allowed)
        return None

    def check(self, state: GameState, ruleset: Ruleset) -> None:
        """Raise :meth:`refusal`, if any.

        Raises:
            StaleOrder: the game has moved on from what the member saw (R-TURN-02).
        """
        refused = self.refusal(state, ruleset)
        if refused is not None:
            raise refused


@dataclass(frozen=True, slots=True)
class UmpireChange:
    """What :meth:`RulesService.set_umpire` did.

    Attributes:
        previous: the umpire replaced (``None``: there was none).
        changed: ``False`` when the member was the umpire already (nothing was written).
        plays: the factions the umpire also plays, sorted.
    """

    previous: int | None
    changed: bool
    plays: tuple[str, ...]


#: A campaign's status in words ("it is under way").


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """The result of an accepted order.

    Attributes:
        campaign_id: the campaign.
        events: what happened, in order.
        state_version: the campaign's version after the order (= its number in the order log).
        order_seq: the order's number in the campaign's order log.
        acting_as: in which capacity the order was given.
        duplicate: ``True`` if this interaction id was handled before and this is the FIRST
            result, returned again (nothing changed this time).
        state: the state after the order; for a duplicate, the campaign's current state.
        before: the state the order was applied to (``None`` for a duplicate).
    """

    campaign_id: int
    events: tuple[Event, ...]
    state_version: int
    order_seq: int
    acting_as: ActingAs
    duplicate: bool
    state: GameState
    before: GameState | None = None
