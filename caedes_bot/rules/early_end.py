"""The umpire's early end, put to the players' vote (R-VIC-04, R-PBP-UMP-05).

:class:`~caedes_bot.rules.victory.EndEarly` (the umpire, naming the winning factions) ends the
campaign at once when the option ``early_end_needs_vote`` is false, or when no faction in the
game has a player (the umpire then decides alone). Otherwise it opens a vote, kept in
``GameState.early_end``: each player still in the game (a person holding at least one faction
not eliminated, :func:`voters`) accepts or refuses with :class:`VoteEarlyEnd`, given for any of
their factions at any time of anyone's turn. A player with two factions has one vote.
Umpire-run factions have no vote: the umpire proposed.

The vote is counted after every answer, against the players in the game at that moment: when
more than half of them accept, the campaign ends early with the proposed winners; when so many
refuse that half or fewer could still accept, the proposal is dropped. A new ``EndEarly`` while
a vote is open replaces it (its answers are forgotten).
"""

from __future__ import annotations

from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import EarlyEndVote, GameState
from caedes_bot.rules.steps import Accepts, Giver, Handled, StepSpec
from caedes_bot.rules.victory import EndEarly, finish, player_of


def voters(state: GameState) -> list[str]:
    """The players whose vote counts (R-VIC-04): every person holding a faction in play that is
    not eliminated, in the turn order of their first such faction. Umpire-run factions have
    none."""
    found: list[str] = []
    for f in state.in_play:
        holder = state.players.get(f)
        if holder and not state.factions[f].eliminated and holder not in found:
            found.append(holder)
    return found


def vote_faction(state: GameState, player: str) -> str | None:
    """The faction through which ``player`` is asked to vote: their first faction in play, not
    eliminated, in turn order (its orders thread gets the buttons); ``None`` if none."""
    for f in state.in_play:
        if state.players.get(f) == player and not state.factions[f].eliminated:
            return f
    return None


@dataclass(frozen=True, slots=True)
class EarlyEndProposed(Event):
    """The umpire proposed to end the campaign now with ``winners`` (R-VIC-04); ``voters`` are
    the players asked (their first factions ``ask``, one per voter), ``needed`` the accepts
    that carry it. ``replaced``: an earlier proposal was dropped for this one. Public."""

    proposal: int
    winners: tuple[str, ...]
    voters: tuple[str, ...]
    ask: tuple[str, ...]
    needed: int
    replaced: bool = False


@dataclass(frozen=True, slots=True)
class EarlyEndVoted(Event):
    """``player`` (voting as ``faction``) accepted or refused the early end ``proposal``
    (R-VIC-04); ``accepts`` and ``refusals`` so far, ``needed`` to carry it. Public."""

    proposal: int
    faction: str
    player: str
    accepted: bool
    accepts: int
    refusals: int
    needed: int


@dataclass(frozen=True, slots=True)
class EarlyEndRefused(Event):
    """The early end ``proposal`` can no longer win a majority and is dropped (R-VIC-04).
    Public."""

    proposal: int
    winners: tuple[str, ...]
    accepts: int
    refusals: int


@dataclass(frozen=True, slots=True)
class VoteEarlyEnd(Order):
    """``faction``'s player accepts (``accept``) or refuses the open early end ``proposal``
    (R-VIC-04). Any of the player's factions may give it, in anyone's turn."""

    label = "Voting on the early end"

    proposal: int
    accept: bool


def needed(state: GameState) -> int:
    """Accepts that carry an early end now: more than half the players in the game."""
    return len(voters(state)) // 2 + 1


def finish_early(state: GameState, winners: tuple[str, ...]) -> list[Event]:
    """End the campaign now with ``winners`` (R-VIC-04), the winning players being theirs.
    Mutates ``state``."""
    state.early_end = None
    players = tuple(dict.fromkeys(player_of(state, w) for w in winners))
    return finish(state, "early", winners, (), (), players)


def handle_end_early(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Handled:
    """The umpire's early end naming ``winners`` (R-VIC-04): at once without the option
    ``early_end_needs_vote`` or when no player has a vote, else a vote opens (replacing any
    open one). Mutates ``state``.

    Raises:
        RuleViolation: no winner named, or one not a live faction in play.
    """
    assert isinstance(order, EndEarly)
    live = [f for f in state.in_play if not state.factions[f].eliminated]
    if not order.winners or any(w not in live for w in order.winners):
        raise RuleViolation(
            "An early end names the winning factions, each still in the game.",
            rule="R-VIC-04",
            allowed="one or more of " + ", ".join(live),
        )
    winners = tuple(f for f in live if f in order.winners)
    asked = voters(state)
    if not state.options.early_end_needs_vote or not asked:
        return finish_early(state, winners)
    replaced = state.early_end is not None
    proposal = state.new_id()
    state.early_end = EarlyEndVote(proposal, winners)
    ask = tuple(f for f in (vote_faction(state, p) for p in asked) if f is not None)
    return [EarlyEndProposed(proposal, winners, tuple(asked), ask, needed(state), replaced)]


def handle_vote(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Handled:
    """Count ``faction``'s player's answer, then the vote (see the module docstring).

    Raises:
        RuleViolation: no vote open, or another one (R-VIC-04); the faction has no player or
            is out of the game; the player's vote is already that answer (a second click on a
            stale message: nothing is counted or announced twice).
    """
    assert isinstance(order, VoteEarlyEnd)
    vote = state.early_end
    if vote is None or vote.proposal != order.proposal:
        raise RuleViolation(
            "There is no early end open to vote on by that number.",
            rule="R-VIC-04",
            allowed="vote on the umpire's current proposal, if any",
        )
    fs = state.factions.get(order.faction)
    player = state.players.get(order.faction)
    if fs is None or fs.eliminated or not player:
        raise RuleViolation(
            f"{order.faction} has no vote: only the players still in the game vote.",
            rule="R-VIC-04",
            allowed="vote for a faction you play",
        )
    if player in (vote.accepts if order.accept else vote.refusals):
        answer = "accept" if order.accept else "refuse"
        raise RuleViolation(
            f"Your vote to {answer} the early end is already recorded.",
            rule="R-VIC-04",
            allowed="nothing more to do: the vote is decided by the other players' answers",
        )
    yes = tuple(p for p in vote.accepts if p != player)
    no = tuple(p for p in vote.refusals if p != player)
    if order.accept:
        yes += (player,)
    else:
        no += (player,)
    counted = set(voters(state))
    accepts = sum(1 for p in yes if p in counted)
    refusals = sum(1 for p in no if p in counted)
    need = needed(state)
    events: list[Event] = [
        EarlyEndVoted(vote.proposal, order.faction, player, order.accept, accepts, refusals, need)
    ]
    if accepts >= need:
        return events + finish_early(state, vote.winners)
    if len(counted) - refusals < need:
        state.early_end = None
        return [*events, EarlyEndRefused(vote.proposal, vote.winners, accepts, refusals)]
    state.early_end = EarlyEndVote(vote.proposal, vote.winners, yes, no)
    return events


#: The umpire's early end and the players' answers (R-VIC-04).
SPEC = StepSpec(
    "early_end",
    accepts=(
        Accepts(EndEarly, handle_end_early, Giver.UMPIRE),
        Accepts(VoteEarlyEnd, handle_vote, Giver.ANY),
    ),
)
