"""Words for the rules' reasons: why a unit cannot move, why two factions cannot negotiate.

The rules answer "what is legal now" with typed reasons (:class:`~caedes_bot.rules.movement.Stuck`,
:class:`~caedes_bot.rules.diplomacy.NoTalks`), each carrying its rule ID; this module gives
them the sentences a player reads. Every function is pure and Discord-free.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.diplomacy import NoTalks
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.movement import Stuck
from caedes_bot.ui.describe import faction_name

#: Why units of one kind cannot move, as the end of "Your Dawnian Tower in Brightholm cannot
#: move: ..." (R-MOVE-01, -02, -04, -15, -18, -22, R-ATTR-FORT-01).
STUCK_TEXT: Mapping[Stuck, str] = {
    Stuck.FORTIFICATION: "Towers never move",
    Stuck.SHIP: "ships sail with /sail",
    Stuck.AFLOAT: "they are aboard a ship and land with /disembark",
    Stuck.ATTACKING: "they entered another faction's units and must fight there in step 7",
    Stuck.MUSTERED: "they were mustered this turn and move from your next turn",
    Stuck.MOVE_ENDED: "their movement has ended this turn",
    Stuck.NO_MOVEMENT_LEFT: "no movement left this turn",
    Stuck.NOWHERE: "they can reach no province from here now",
}


def cannot_move(ruleset: Ruleset, province: str, reasons: Sequence[tuple[str, Stuck]]) -> str:
    """The refusal to move a faction's units from ``province``, none of which can move.

    Args:
        reasons: ``(kind id, reason)`` for each kind of unit named, at least one.

    Returns:
        ``"Your Dawnian Tower in Brightholm cannot move: Towers never move."`` for one kind;
        ``"None of your units in Harrowgate can move now: Dawnian Infantry: ...; ..."`` for
        several.
    """
    where = ruleset.map.space_name(province)
    named = [(ruleset.kind(kind).display_name, STUCK_TEXT[why]) for kind, why in reasons]
    if len(named) == 1:
        name, reason = named[0]
        return f"Your {name} in {where} cannot move: {reason}."
    return (
        f"None of your units in {where} can move now: "
        + "; ".join(f"{name}: {reason}" for name, reason in named)
        + "."
    )


def no_group_talks(
    ruleset: Ruleset,
    why: NoTalks,
    mine: str,
    others: Sequence[str],
    apart: Sequence[tuple[str, str]],
    near: Sequence[str],
) -> RuleViolation:
    """The refusal of ``/negotiate`` with a group (``others`` besides ``mine``), citing
    ``why.rule`` (R-PBP-NEG-01): threads for pairs only (option ``multiparty_threads`` off), or
    the ``apart`` pairs of the group are not neighbours; ``near`` are ``mine``'s neighbours."""
    if why is NoTalks.NO_GROUPS:
        return RuleViolation(
            "This campaign has negotiation threads for two factions only (option "
            "multiparty_threads is off).",
            rule=why.rule,
            allowed="negotiate with one faction at a time",
        )
    if why is NoTalks.SAME_FACTION:
        return RuleViolation(
            f"{faction_name(ruleset, mine)} cannot negotiate with itself.", rule=why.rule
        )
    pairs = "; ".join(
        f"{faction_name(ruleset, a)} and {faction_name(ruleset, b)}" for a, b in apart
    )
    names = [faction_name(ruleset, code) for code in near]
    return RuleViolation(
        "A group thread needs every member to neighbour every other, and these are not "
        f"neighbours: {pairs}.",
        rule=why.rule,
        allowed="a group of mutual neighbours, or a pair: "
        + (", ".join(names) if names else "nobody neighbours you for now"),
    )


def no_talks(
    ruleset: Ruleset, why: NoTalks, mine: str, theirs: str, near: Sequence[str]
) -> RuleViolation:
    """The refusal of ``/negotiate`` between the factions ``mine`` and ``theirs``, citing
    ``why.rule`` (R-PBP-NEG-01, R-PBP-NEG-02); ``near`` are the codes of the factions that are
    ``mine``'s neighbours now, offered instead."""
    me, them = faction_name(ruleset, mine), faction_name(ruleset, theirs)
    if why is NoTalks.SAME_FACTION:
        return RuleViolation(f"{me} cannot negotiate with itself.", rule=why.rule)
    names = [faction_name(ruleset, code) for code in near]
    return RuleViolation(
        f"{me} and {them} are not neighbours: no province or unit of one is in or beside a "
        "province or unit of the other.",
        rule=why.rule,
        allowed="negotiate with " + (", ".join(names) if names else "nobody for now"),
    )
