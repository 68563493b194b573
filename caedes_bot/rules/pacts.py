"""Alliances and fealty: proposing, confirming, breaking, and when they take effect (R-ALLY-01,
R-ALLY-02, R-ALLY-05, R-FEAL-01, R-FEAL-03, R-FEAL-04).

Every order here may be given by any faction in play at any time of anyone's turn (``Giver.ANY``);
the handlers check who may do what.

* :class:`ProposeAlliance`: the proposer asks for an alliance with the factions named; every
  member confirms it (:class:`AnswerPact`) before it is agreed (R-ALLY-01).
* :class:`BreakAlliance`: any member breaks its alliance alone (R-ALLY-01); agreed at once.
* :class:`SwearFealty`: a vassal swears to a liege, who accepts with :class:`AnswerPact`
  (R-FEAL-01). Refused when the liege is itself a vassal (R-FEAL-04) or its Hero has fallen
  (R-FEAL-03).
* :class:`RevokeFealty`: a vassal leaves its liege, only once the liege's Hero has fallen
  (R-FEAL-03; a liege that never had a Hero holds fealty for good).

An agreed change waits in ``GameState.pact_proposals`` and takes effect at the start of the next
turn, whoever's it is (R-ALLY-02, R-FEAL-01): :func:`apply_agreed`, called from the turn-start
checks. Fealty sworn by a faction with vassals makes them vassals of the new liege (R-FEAL-04,
chains flattened). When partners part (a break, a revoked fealty), units of one left in a
province the other owns must leave it or attack at their next turn (R-ALLY-05): see
:func:`parting_attacks`, called when step 7 opens.

Events are seen by the members and the umpire, or by everyone with the option
``public_alliances`` (R-ALLY-01).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, PactProposal
from caedes_bot.rules.steps import Accepts, Giver, Handled, StepSpec

KINDS = ("alliance", "break", "fealty", "revoke")


@dataclass(frozen=True, slots=True)
class PactEvent(Event):
    """Base of the pact events: seen by ``members`` and the umpire, or by everyone when
    ``public`` (the option ``public_alliances``, R-ALLY-01)."""

    proposal: int
    kind: str
    members: tuple[str, ...]
    public: bool

    def audience(self) -> tuple[str, ...] | None:
        """Everyone if public, else the members (R-ALLY-01)."""
        return None if self.public else self.members


@dataclass(frozen=True, slots=True)
class PactProposed(PactEvent):
    """``by`` asked for the pact change ``kind`` among ``members`` (R-ALLY-01, R-FEAL-01);
    ``waiting`` must still confirm it."""

    by: str
    waiting: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PactAnswered(PactEvent):
    """``by`` confirmed (``accepted``) or refused the proposal; ``waiting`` still to confirm.
    A refusal drops the proposal (R-ALLY-01)."""

    by: str
    accepted: bool
    waiting: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PactAgreed(PactEvent):
    """Every member needed agreed the change; it takes effect at the start of the next turn,
    whoever's it is (R-ALLY-02, R-FEAL-01)."""


@dataclass(frozen=True, slots=True)
class PactTookEffect(PactEvent):
    """The agreed change took effect at the start of ``round``'s turn of ``turn_of``
    (R-ALLY-02). ``also_vassals``: vassals of the new vassal passed to the new liege
    (R-FEAL-04). ``parting``: ``(faction, province)`` that must leave or attack at that
    faction's next turn (R-ALLY-05)."""

    round: int
    turn_of: str
    also_vassals: tuple[str, ...] = ()
    parting: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class PactLapsed(PactEvent):
    """A change could not take effect (``reason``: ``"eliminated"`` a member eliminated,
    ``"liege_is_vassal"``, ``"hero_fallen"``, ``"already_vassal"``, ``"gone"`` the alliance
    already gone, ``"over"`` the campaign ended with it still waiting) (R-FEAL-03, R-FEAL-04,
    R-VIC-05). ``waiting``: the members that had not confirmed it yet (their buttons go)."""

    reason: str
    waiting: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ProposeAlliance(Order):
    """``faction`` proposes an alliance with ``partners`` (R-ALLY-01)."""

    label = "Proposing an alliance"

    partners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BreakAlliance(Order):
    """``faction`` breaks the alliance it has with ``partners`` (R-ALLY-01; whole group)."""

    label = "Breaking an alliance"

    partners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SwearFealty(Order):
    """``faction`` swears fealty to ``liege`` (R-FEAL-01); the liege must accept."""

    label = "Swearing fealty"

    liege: str


@dataclass(frozen=True, slots=True)
class RevokeFealty(Order):
    """``faction`` revokes the fealty it swore (R-FEAL-03: only once the liege's Hero fell)."""

    label = "Revoking fealty"


@dataclass(frozen=True, slots=True)
class AnswerPact(Order):
    """``faction`` confirms (``accept``) or refuses proposal ``proposal`` (R-ALLY-01,
    R-FEAL-01)."""

    label = "Answering a pact proposal"

    proposal: int
    accept: bool


# --------------------------------------------------------------------------- reading


def alliance_of(state: GameState, members: frozenset[str]) -> list[str] | None:
    """The alliance whose members are exactly ``members``, or ``None``."""
    for group in state.alliances:
        if frozenset(group) == members:
            return group
    return None


def vassals_of(state: GameState, liege: str) -> list[str]:
    """The vassals of ``liege``, in turn order (R-FEAL-01)."""
    return [f for f in state.in_play if state.fealty.get(f) == liege]


def may_revoke(state: GameState, vassal: str) -> bool:
    """Whether ``vassal`` may revoke its fealty now: its liege's Hero has fallen (R-FEAL-03)."""
    liege = state.fealty.get(vassal)
    return liege is not None and not state.factions[liege].hero_alive


def _public(state: GameState) -> bool:
    return state.options.public_alliances


def _live(state: GameState, code: str) -> bool:
    fs = state.factions.get(code)
    return code in state.in_play and fs is not None and not fs.eliminated


def _check_faction(state: GameState, code: str, rule: str) -> None:
    if not _live(state, code):
        live = ", ".join(f for f in state.in_play if _live(state, f))
        raise RuleViolation(
            f"{code} is not a faction in the game.", rule=rule, allowed=f"one of {live}"
        )


def _propose(
    state: GameState, kind: str, members: tuple[str, ...], by: str, *, agreed: bool = False
) -> list[Event]:
    proposal = PactProposal(state.new_id(), kind, members, (by,), agreed)
    state.pact_proposals.append(proposal)
    waiting = tuple(m for m in members if m not in proposal.confirmed)
    if kind == "revoke":
        waiting = ()
    public = _public(state)
    events: list[Event] = [PactProposed(proposal.id, kind, members, public, by, waiting)]
    if agreed:
        events.append(PactAgreed(proposal.id, kind, members, public))
    return events


def _already_asked(state: GameState, kind: str, members: tuple[str, ...], by: str) -> None:
    """Refuse a proposal of ``kind`` among ``members`` that is already waiting, saying what
    ``by`` (who gives it again) can do: nothing for an agreed change (it takes effect at the
    next turn's start, R-ALLY-02); wait for the others if ``by`` has confirmed it (a proposer
    always has: there is no withdrawing); else answer it with the buttons of its own orders
    thread (R-ALLY-01, R-FEAL-01)."""
    for p in state.pact_proposals:
        if p.kind != kind or frozenset(p.members) != frozenset(members):
            continue
        waiting = [m for m in p.members if m not in p.confirmed]
        if p.agreed:
            allowed = "nothing more to do: it takes effect at the start of the next turn"
        elif by in p.confirmed:
            allowed = (
                f"wait for {', '.join(waiting)} to confirm or refuse it in their orders "
                "threads (/diplomacy shows where it stands)"
            )
        else:
            allowed = "confirm or refuse it with the buttons in your orders thread"
        raise RuleViolation(
            "That has already been proposed and is waiting"
            + (" for the start of the next turn." if p.agreed else " for confirmation."),
            rule="R-ALLY-02" if p.agreed else ("R-FEAL-01" if kind == "fealty" else "R-ALLY-01"),
            allowed=allowed,
        )


# --------------------------------------------------------------------------- handlers


def handle_propose_alliance(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> Handled:
    """Record an alliance proposal, confirmed by its proposer (R-ALLY-01).

    Raises:
        RuleViolation: no partner, a partner not in the game or the proposer itself, or that
            exact alliance exists or is already proposed (R-ALLY-01).
    """
    assert isinstance(order, ProposeAlliance)
    _check_faction(state, order.faction, "R-ALLY-01")
    partners = tuple(dict.fromkeys(order.partners))
    if not partners or order.faction in partners:
        raise RuleViolation(
            "An alliance needs at least one other faction.",
            rule="R-ALLY-01",
            allowed="name the factions to ally with, not your own",
        )
    for code in partners:
        _check_faction(state, code, "R-ALLY-01")
    members = tuple(f for f in state.in_play if f == order.faction or f in partners)
    if alliance_of(state, frozenset(members)) is not None:
        raise RuleViolation(
            "That alliance already exists.", rule="R-ALLY-01", allowed="/diplomacy lists pacts"
        )
    _already_asked(state, "alliance", members, order.faction)
    return _propose(state, "alliance", members, order.faction)


def handle_break_alliance(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Handled:
    """Break ``faction``'s alliance with ``partners``, agreed at once (R-ALLY-01); it ends at
    the start of the next turn (R-ALLY-02).

    Raises:
        RuleViolation: no such alliance of the faction, or its break already agreed.
    """
    assert isinstance(order, BreakAlliance)
    _check_faction(state, order.faction, "R-ALLY-01")
    wanted = frozenset({order.faction, *order.partners})
    group = alliance_of(state, wanted)
    if group is None:
        mine = [g for g in state.alliances if order.faction in g]
        listed = "; ".join(", ".join(g) for g in mine) or "none"
        raise RuleViolation(
            f"{order.faction} has no alliance with exactly those factions.",
            rule="R-ALLY-01",
            allowed=f"break one of its alliances: {listed}",
        )
    members = tuple(group)
    _already_asked(state, "break", members, order.faction)
    return _propose(state, "break", members, order.faction, agreed=True)


def handle_swear_fealty(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Handled:
    """Record ``faction``'s oath to ``liege``, waiting for the liege (R-FEAL-01).

    Raises:
        RuleViolation: the liege not in the game or the faction itself; the faction already a
            vassal (revoke first, R-FEAL-03); the liege a vassal (R-FEAL-04); the liege's Hero
            fallen (R-FEAL-03).
    """
    assert isinstance(order, SwearFealty)
    vassal, liege = order.faction, order.liege
    _check_faction(state, vassal, "R-FEAL-01")
    _check_faction(state, liege, "R-FEAL-01")
    if vassal == liege:
        raise RuleViolation(
            "A faction cannot swear fealty to itself.",
            rule="R-FEAL-01",
            allowed="swear to another faction",
        )
    if vassal in state.fealty:
        raise RuleViolation(
            f"{vassal} already owes fealty to {state.fealty[vassal]}.",
            rule="R-FEAL-03",
            allowed="revoke it first, once that liege's Hero has fallen",
        )
    if liege in state.fealty:
        raise RuleViolation(
            f"{liege} is itself a vassal of {state.fealty[liege]}, and a vassal cannot "
            "receive fealty.",
            rule="R-FEAL-04",
            allowed=f"swear to {state.fealty[liege]} instead",
        )
    if not state.factions[liege].hero_alive:
        raise RuleViolation(
            f"{liege}'s Hero has fallen: nobody may swear fealty to {liege} again.",
            rule="R-FEAL-03",
        )
    members = (vassal, liege)
    _already_asked(state, "fealty", members, order.faction)
    return _propose(state, "fealty", members, vassal)


def handle_revoke_fealty(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Handled:
    """Revoke ``faction``'s fealty, agreed at once, ending at the next turn's start
    (R-FEAL-03, R-ALLY-02).

    Raises:
        RuleViolation: the faction is nobody's vassal, or its liege's Hero lives (R-FEAL-03).
    """
    assert isinstance(order, RevokeFealty)
    liege = state.fealty.get(order.faction)
    if liege is None:
        raise RuleViolation(
            f"{order.faction} owes fealty to nobody.", rule="R-FEAL-03", allowed="nothing to revoke"
        )
    if not may_revoke(state, order.faction):
        raise RuleViolation(
            f"{order.faction} cannot revoke its fealty while {liege}'s Hero lives.",
            rule="R-FEAL-03",
            allowed=f"wait until {liege}'s Hero falls",
        )
    members = (order.faction, liege)
    _already_asked(state, "revoke", members, order.faction)
    return _propose(state, "revoke", members, order.faction, agreed=True)


def handle_answer_pact(state: GameState, order: Order, ruleset: Ruleset, dice: Dice) -> Handled:
    """Confirm or refuse a proposal put to ``faction`` (R-ALLY-01, R-FEAL-01); once every
    member has confirmed, it is agreed (it takes effect at the next turn's start).

    Raises:
        RuleViolation: no such open proposal, or not one waiting for this faction.
    """
    assert isinstance(order, AnswerPact)
    found = next((p for p in state.pact_proposals if p.id == order.proposal), None)
    if found is None or found.agreed or order.faction not in found.members:
        raise RuleViolation(
            f"No proposal number {order.proposal} is waiting for {order.faction}.",
            rule="R-ALLY-01",
            allowed="answer a proposal shown in your orders thread",
        )
    if order.faction in found.confirmed:
        raise RuleViolation(
            f"{order.faction} has already confirmed proposal {found.id}.",
            rule="R-ALLY-01",
            allowed="wait for the other members",
        )
    index = state.pact_proposals.index(found)
    public = _public(state)
    if not order.accept:
        del state.pact_proposals[index]
        return [PactAnswered(found.id, found.kind, found.members, public, order.faction, False, ())]
    updated = replace(found, confirmed=(*found.confirmed, order.faction))
    waiting = tuple(m for m in updated.members if m not in updated.confirmed)
    if not waiting:
        updated = replace(updated, agreed=True)
    state.pact_proposals[index] = updated
    events: list[Event] = [
        PactAnswered(found.id, found.kind, found.members, public, order.faction, True, waiting)
    ]
    if not waiting:
        events.append(PactAgreed(found.id, found.kind, found.members, public))
    return events


# --------------------------------------------------------------------------- turn start


def apply_agreed(state: GameState) -> list[Event]:
    """Make every agreed change take effect, oldest first (R-ALLY-02, R-FEAL-01), at the start
    of the active faction's turn; close every proposal with an eliminated member, agreed or
    still waiting, with a :class:`PactLapsed` (reason ``"eliminated"``; ``waiting``, the
    members that had not confirmed it, whose buttons go). Mutates ``state``."""
    events: list[Event] = []
    keep: list[PactProposal] = []
    public = _public(state)
    for p in state.pact_proposals:
        if not all(_live(state, m) for m in p.members):
            waiting = () if p.agreed else tuple(m for m in p.members if m not in p.confirmed)
            events.append(PactLapsed(p.id, p.kind, p.members, public, "eliminated", waiting))
            continue
        if not p.agreed:
            keep.append(p)
            continue
        events.append(_take_effect(state, p, public))
    state.pact_proposals = keep
    return events


def close_at_end(state: GameState) -> list[Event]:
    """Close every proposal still waiting, agreed or not, when the campaign ends: none can take
    effect any more (R-ALLY-02: a change takes effect at a turn start, and no turn starts
    again). One :class:`PactLapsed` (reason ``"over"``) each, oldest first. Mutates
    ``state``."""
    public = _public(state)
    events: list[Event] = [
        PactLapsed(
            p.id,
            p.kind,
            p.members,
            public,
            "over",
            () if p.agreed else tuple(m for m in p.members if m not in p.confirmed),
        )
        for p in state.pact_proposals
    ]
    state.pact_proposals = []
    return events


def _take_effect(state: GameState, p: PactProposal, public: bool) -> Event:
    turn_of = state.active or ""
    if p.kind == "alliance":
        if alliance_of(state, frozenset(p.members)) is None:
            state.alliances.append(sorted(p.members))
        return PactTookEffect(p.id, p.kind, p.members, public, state.round, turn_of)
    if p.kind == "break":
        group = alliance_of(state, frozenset(p.members))
        if group is None:
            return PactLapsed(p.id, p.kind, p.members, public, "gone")
        state.alliances = [g for g in state.alliances if g is not group]
        parting = _part(state, p.members)
        return PactTookEffect(p.id, p.kind, p.members, public, state.round, turn_of, (), parting)
    vassal, liege = p.members
    if p.kind == "fealty":
        if liege in state.fealty:
            return PactLapsed(p.id, p.kind, p.members, public, "liege_is_vassal")
        if not state.factions[liege].hero_alive:
            return PactLapsed(p.id, p.kind, p.members, public, "hero_fallen")
        if vassal in state.fealty:
            return PactLapsed(p.id, p.kind, p.members, public, "already_vassal")
        moved = tuple(vassals_of(state, vassal))
        for sub in moved:  # chains are flattened (R-FEAL-04)
            state.fealty[sub] = liege
        state.fealty[vassal] = liege
        return PactTookEffect(p.id, p.kind, p.members, public, state.round, turn_of, moved)
    if state.fealty.get(vassal) != liege:
        return PactLapsed(p.id, p.kind, p.members, public, "gone")
    del state.fealty[vassal]
    parting = _part(state, p.members)
    return PactTookEffect(p.id, p.kind, p.members, public, state.round, turn_of, (), parting)


def _part(state: GameState, members: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Record R-ALLY-05 for former partners now hostile: each unit owner left in a province
    that another former member owns must leave or attack at its next turn."""
    found: list[tuple[str, str]] = []
    for province, owner in sorted(state.owners.items()):
        if owner not in members:
            continue
        guests = {
            u.owner
            for u in state.peek_units_at(province)
            if u.owner in members and not state.are_partners(u.owner, owner)
        }
        found += [(g, province) for g in state.in_play if g in guests]
    for pair in found:
        if pair not in state.parting:
            state.parting.append(pair)
    return tuple(found)


def parting_attacks(state: GameState) -> None:
    """When the active faction's step 7 opens (R-ALLY-05): its units still in a province it
    must leave, where the owner's units remain and are hostile, are treated as having entered
    it and attack; its parting entries are then done. Mutates ``state``."""
    faction = state.active
    mine = [pair for pair in state.parting if pair[0] == faction]
    if faction is None or not mine:
        return
    state.parting = [pair for pair in state.parting if pair[0] != faction]
    for _, province in mine:
        owner = state.owners.get(province)
        if owner is None or state.are_partners(owner, faction):
            continue
        if not any(u.owner == owner for u in state.peek_units_at(province)):
            continue
        for unit in state.units_at(province):
            if unit.owner == faction:
                unit.attacking = True


#: Pact orders: any faction in play, at any time (R-ALLY-01, R-FEAL-01).
SPEC = StepSpec(
    "pacts",
    accepts=(
        Accepts(ProposeAlliance, handle_propose_alliance, Giver.ANY),
        Accepts(BreakAlliance, handle_break_alliance, Giver.ANY),
        Accepts(SwearFealty, handle_swear_fealty, Giver.ANY),
        Accepts(RevokeFealty, handle_revoke_fealty, Giver.ANY),
        Accepts(AnswerPact, handle_answer_pact, Giver.ANY),
    ),
)
