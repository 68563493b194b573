"""One line per event class: what each event of the rules tells its audience (ux.md "Every
order gets an answer").

Each event class of the rules has its own entry in :data:`LINES`, made by a function below
registered with :func:`_line`. An entry may say "no line of its own" (``None``) only for a
reason recorded in :data:`SILENT` (a battle's events are shown on its battle message, a step's
start on the turn panel). There is no generic fallback: :func:`event_line` raises
:class:`NoWording` for a class without an entry, and ``tests/ui/test_meta.py`` fails for any
event class of the rules that has none. A new event gets its line here.

Pure functions of the event, the state after it and the static ruleset: no discord, no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import (
    buy,
    cargo,
    collect,
    dependants,
    diplomacy,
    early_end,
    mercenary,
    movement,
    muster,
    ownership,
    pacts,
    redeem,
    replay,
    scenario_events,
    ships,
    summons,
    trade,
    turn,
    umpire,
    umpire_game,
    umpire_step,
    umpire_units,
    undo,
    upkeep,
    upkeep_marks,
    victory,
)
from caedes_bot.rules.combat import events as combat_events
from caedes_bot.rules.combat import magic_events
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement import amphibian, blitz, magic_moves
from caedes_bot.rules.state import GameState
from caedes_bot.ui import scenario_text, umpire_text
from caedes_bot.ui.describe import (
    commodities_text,
    faction_name,
    kind_counts,
    kind_name,
    offer_text,
    space_name,
    unit_label,
)
from caedes_bot.ui.wording import moment

__all__ = ["BATTLE_DETAIL", "LINES", "SILENT", "NoWording", "event_line"]

E = TypeVar("E", bound=Event)

#: Makes the line of one event: ``(event, state after it, ruleset) -> line or None``.
LineMaker = Callable[[Any, GameState, Ruleset], "str | None"]

#: The line maker of every event class, by its exact class.
LINES: dict[type[Event], LineMaker] = {}

#: Battle events (each names its battle): shown on the battle message rather than as lines of
#: their own, and grouped by battle by the announcer.
BATTLE_DETAIL = (
    combat_events.BattleBegan,
    combat_events.BattleOddsAsked,
    combat_events.BattleOddsNoted,
    combat_events.BattleStepResolved,
    combat_events.CasualtiesOwed,
    combat_events.CasualtiesRemoved,
    combat_events.BattleRoundEnded,
    combat_events.WithdrawalOffered,
    combat_events.AttackerWithdrew,
    combat_events.BattleEnded,
    magic_events.DeclarationsOwed,
    magic_events.StandingOrdersSet,
    magic_events.RerollOwed,
    magic_events.DiceRerolled,
    magic_events.EnchantVictimsOwed,
    magic_events.UnitsEnchanted,
    magic_events.EnchantmentsBroken,
)

#: The events that have no line of their own, and where they are shown instead.
SILENT: Mapping[type[Event], str] = {
    turn.StepBegan: "the turn panel shows the step the turn is at",
    **{cls: "the battle message in #battles shows it (R-COMBAT-16)" for cls in BATTLE_DETAIL},
}


class NoWording(LookupError):
    """An event class has no line in :data:`LINES` (a new event was added without one)."""


def _line(
    *classes: type[E],
) -> Callable[[Callable[[E, GameState, Ruleset], str | None]], LineMaker]:
    """Register the decorated function as the line maker of ``classes``.

    Raises:
        ValueError: one of them already has a line maker.
    """

    def register(make: Callable[[E, GameState, Ruleset], str | None]) -> LineMaker:
        for cls in classes:
            if cls in LINES:
                raise ValueError(f"{cls.__name__} already has a line")
            LINES[cls] = make
        return make

    return register


def event_line(event: Event, state: GameState, ruleset: Ruleset) -> str | None:
    """One line telling what ``event`` did, for its audience; ``None`` for the events of
    :data:`SILENT`, shown elsewhere.

    Raises:
        NoWording: ``type(event)`` has no line of its own.
    """
    make = LINES.get(type(event))
    if make is None:
        raise NoWording(
            f"the event {type(event).__name__} has no line: add one in caedes_bot/ui/lines.py"
        )
    return make(event, state, ruleset)


def _silent(event: Event, state: GameState, ruleset: Ruleset) -> None:
    return None


for _cls in SILENT:
    LINES[_cls] = _silent


def _units_text(ruleset: Ruleset, units: Sequence[tuple[int, str, str]] | Sequence[str]) -> str:
    kinds = [u[1] if isinstance(u, tuple) else u for u in units]
    return kind_counts(ruleset, kinds)


# --------------------------------------------------------------------------- the turn


@_line(turn.GameRoundBegan)
def _game_round_began(event: turn.GameRoundBegan, state: GameState, ruleset: Ruleset) -> str:
    return f"**Game round {event.round} begins.**"


@_line(turn.TurnBegan)
def _turn_began(event: turn.TurnBegan, state: GameState, ruleset: Ruleset) -> str:
    return f"{faction_name(ruleset, event.faction)} begins its turn (game round {event.round})."


@_line(turn.TurnEnded)
def _turn_ended(event: turn.TurnEnded, state: GameState, ruleset: Ruleset) -> str:
    return f"{faction_name(ruleset, event.faction)} ends its turn."


@_line(turn.StepEnded)
def _step_ended(event: turn.StepEnded, state: GameState, ruleset: Ruleset) -> str | None:
    if event.by_umpire:
        who = faction_name(ruleset, event.faction)
        return f"The umpire ended step {event.step.label} of {who}."
    return None  # the next step's turn panel shows it


@_line(turn.TurnForfeited)
def _turn_forfeited(event: turn.TurnForfeited, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"{faction_name(ruleset, event.faction)} missed its turn deadline at step "
        f"{event.step.label}: the bot plays the rest of its turn passively (R-PBP-DEAD-03)."
    )


@_line(turn.DecisionDefaulted)
def _decision_defaulted(event: turn.DecisionDefaulted, state: GameState, ruleset: Ruleset) -> str:
    what = event.kind.replace("_", " ")
    who = faction_name(ruleset, event.faction)
    return f"The {what} decision of {who} was answered by default (R-PBP-DEAD-04)."


# --------------------------------------------------------------------------- the board


@_line(movement.UnitsMoved)
def _units_moved(event: movement.UnitsMoved, state: GameState, ruleset: Ruleset) -> str:
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    what = kind_counts(ruleset, kinds) if kinds else f"{len(event.unit_ids)} units"
    if event.how is movement.MoveKind.SEA_ATTACK:
        return (
            f"{faction_name(ruleset, event.faction)} sent {what} from "
            f"{space_name(ruleset, event.origin)} into {space_name(ruleset, event.destination)}: "
            "**an attack at sea** (R-ATTR-AMPH-02)."
        )
    verb = {
        movement.MoveKind.FLIGHT: "flew",
        movement.MoveKind.CROSSING: "sent across the sea",
    }.get(event.how, "moved")
    line = (
        f"{faction_name(ruleset, event.faction)} {verb} {what} from "
        f"{space_name(ruleset, event.origin)} to {space_name(ruleset, event.destination)}"
    )
    if len(event.path) > 1:
        over = "over" if event.how is movement.MoveKind.FLIGHT else "by"
        line += f" {over} " + ", ".join(space_name(ruleset, p) for p in event.path[:-1])
    return line + (": **an attack**." if event.attack else ".")


@_line(ships.ShipsSailed)
def _ships_sailed(event: ships.ShipsSailed, state: GameState, ruleset: Ruleset) -> str:
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    what = kind_counts(ruleset, kinds) if kinds else f"{len(event.unit_ids)} ships"
    line = (
        f"{faction_name(ruleset, event.faction)} sailed {what} from "
        f"{space_name(ruleset, event.origin)} to {space_name(ruleset, event.destination)}"
    )
    if len(event.path) > 1:
        line += " by " + ", ".join(space_name(ruleset, p) for p in event.path[:-1])
    if event.cargo:
        line += f", carrying {len(event.cargo)} unit" + ("s" if len(event.cargo) > 1 else "")
    return line + (": **an attack at sea**." if event.attack else ".")


@_line(cargo.UnitsEmbarked)
def _units_embarked(event: cargo.UnitsEmbarked, state: GameState, ruleset: Ruleset) -> str:
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    what = kind_counts(ruleset, kinds) if kinds else f"{len(event.unit_ids)} units"
    return (
        f"{faction_name(ruleset, event.faction)} put {what} from "
        f"{space_name(ruleset, event.origin)} aboard a ship on {space_name(ruleset, event.space)}."
    )


@_line(cargo.UnitsLanded)
def _units_landed(event: cargo.UnitsLanded, state: GameState, ruleset: Ruleset) -> str:
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    what = kind_counts(ruleset, kinds) if kinds else f"{len(event.unit_ids)} units"
    line = (
        f"{faction_name(ruleset, event.faction)} landed {what} from "
        f"{space_name(ruleset, event.space)} in {space_name(ruleset, event.destination)}"
    )
    if event.attack:
        return line + ": **an amphibious assault** (no withdrawal, R-COMBAT-09)."
    return line + "."


@_line(undo.OrderTakenBack)
def _order_taken_back(event: undo.OrderTakenBack, state: GameState, ruleset: Ruleset) -> str:
    back = []
    for uid, place in zip(event.unit_ids, event.places, strict=True):
        unit = state.units.get(str(uid))
        if unit is not None and place:
            back.append(unit_label(ruleset, uid, unit.kind, place))
    where = "; back: " + ", ".join(back) if back else ""
    return (
        f"Correction: {faction_name(ruleset, event.faction)} took back an order "
        f"({event.label.lower()}){where}. Disregard the post about it."
    )


@_line(magic_moves.UnitsTeleported)
def _units_teleported(
    event: magic_moves.UnitsTeleported, state: GameState, ruleset: Ruleset
) -> str:
    kinds = [
        state.units[str(u)].kind for u in (event.unit_id, *event.went) if str(u) in state.units
    ]
    line = (
        f"{faction_name(ruleset, event.faction)} teleported {kind_counts(ruleset, kinds)} from "
        f"{space_name(ruleset, event.origin)} to {space_name(ruleset, event.destination)}: "
        f"the die showed **{event.roll}**"
    )
    if event.stayed:
        line += f", so {len(event.stayed)} listed stayed behind"
    return line + "."


@_line(magic_moves.Divined)
def _divined(event: magic_moves.Divined, state: GameState, ruleset: Ruleset) -> str:
    first, second = event.dice
    when = "now" if event.immediate else "at its next Collect step"
    gain = f"{event.amount} {event.commodity.title()} {when}" if event.amount else "nothing"
    return (
        f"{faction_name(ruleset, event.faction)}'s Diviner in "
        f"{space_name(ruleset, event.province)} rolled **{first}** and **{second}**: {gain}."
    )


@_line(blitz.BlitzOffered)
def _blitz_offered(event: blitz.BlitzOffered, state: GameState, ruleset: Ruleset) -> str:
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    return (
        f"{faction_name(ruleset, event.faction)}: {kind_counts(ruleset, kinds)} in "
        f"{space_name(ruleset, event.space)} may blitz on (/blitz to a province; /blitz alone "
        "stops them, as the deadline does) (R-ATTR-BLITZ-02)."
    )


@_line(amphibian.AshoreOffered)
def _ashore_offered(event: amphibian.AshoreOffered, state: GameState, ruleset: Ruleset) -> str:
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    where = (
        ", ".join(space_name(ruleset, p) for p in event.choices) or "only back where they came from"
    )
    return (
        f"{faction_name(ruleset, event.faction)}: {kind_counts(ruleset, kinds)} won at sea in "
        f"{space_name(ruleset, event.space)} and must go ashore: {where} (the turn panel's "
        '"Go ashore at…"; by default each goes back where it came from) (R-ATTR-AMPH-02).'
    )


@_line(amphibian.CameAshore)
def _came_ashore(event: amphibian.CameAshore, state: GameState, ruleset: Ruleset) -> str:
    places = list(dict.fromkeys(event.destinations))
    where = ", ".join(space_name(ruleset, p) for p in places)
    how = " (by default, back where they came from)" if event.by_default else ""
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    return (
        f"{faction_name(ruleset, event.faction)}: {kind_counts(ruleset, kinds)} went ashore "
        f"from {space_name(ruleset, event.space)} in {where}{how} (R-ATTR-AMPH-02)."
    )


@_line(blitz.BlitzEnded)
def _blitz_ended(event: blitz.BlitzEnded, state: GameState, ruleset: Ruleset) -> str:
    how = " (the deadline passed)" if event.by_default else ""
    return (
        f"{faction_name(ruleset, event.faction)}'s blitz stops in "
        f"{space_name(ruleset, event.space)}{how}."
    )


@_line(ownership.ProvinceCaptured)
def _province_captured(
    event: ownership.ProvinceCaptured, state: GameState, ruleset: Ruleset
) -> str:
    was = f" from {faction_name(ruleset, event.previous_owner)}" if event.previous_owner else ""
    return (
        f"**{faction_name(ruleset, event.faction)} takes "
        f"{space_name(ruleset, event.province)}**{was}."
    )


@_line(muster.UnitsMustered)
def _units_mustered(event: muster.UnitsMustered, state: GameState, ruleset: Ruleset) -> str:
    how = " (placed by the bot)" if event.by_bot else ""
    where = ", ".join(Counter(space_name(ruleset, u[2]) for u in event.units))
    return (
        f"{faction_name(ruleset, event.faction)} mustered {_units_text(ruleset, event.units)} "
        f"in {where}{how}."
    )


@_line(upkeep.UnitsDisbanded)
def _units_disbanded(event: upkeep.UnitsDisbanded, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"{faction_name(ruleset, event.faction)} lost {_units_text(ruleset, event.units)}: "
        f"{event.reason} ({event.rule})."
    )


@_line(dependants.BoundUnitsLost)
def _bound_units_lost(event: dependants.BoundUnitsLost, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"{faction_name(ruleset, event.faction)} lost {_units_text(ruleset, event.units)}: "
        f"{event.reason} ({event.rule})."
    )


@_line(dependants.HeroFell)
def _hero_fell(event: dependants.HeroFell, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"**{kind_name(ruleset, event.kind_id)}**, Hero of "
        f"{faction_name(ruleset, event.faction)}, has fallen: its vassals may now revoke "
        "their fealty (R-FEAL-03)."
    )


@_line(summons.UnitsSummoned)
def _units_summoned(event: summons.UnitsSummoned, state: GameState, ruleset: Ruleset) -> str:
    what = kind_counts(ruleset, [k for _uid, k in event.units])
    joined = " and they join the battle there at once" if event.battle is not None else ""
    return (
        f"{faction_name(ruleset, event.faction)} summoned {what} at "
        f"{space_name(ruleset, event.province)}{joined}; summoned units vanish when the next "
        "Muster step begins (R-MAGIC-SUMM-01, R-MAGIC-SUMM-02)."
    )


@_line(summons.SummonsPaid)
def _summons_paid(event: summons.SummonsPaid, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"Paid {event.total} RP for {event.count} {kind_name(ruleset, event.kind_id)}. "
        f"{event.rp_after} RP left."
    )


@_line(summons.SummonsOffered)
def _summons_offered(event: summons.SummonsOffered, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"Round {event.round} of the battle at {space_name(ruleset, event.space)} begins and "
        "your Summoner fights there: summon units into it now, or not (the buttons on the "
        "battle message, or /summon) (R-MAGIC-SUMM-01)."
    )


@_line(summons.SummonsDeclined)
def _summons_declined(event: summons.SummonsDeclined, state: GameState, ruleset: Ruleset) -> str:
    who = faction_name(ruleset, event.faction)
    if event.by_default:
        return f"{who} summoned nothing in round {event.round}: its time to answer ran out."
    if event.whole_battle:
        return f"{who} will summon nothing in this battle."
    return f"{who} summoned nothing as round {event.round} began."


@_line(summons.SummonsVanished)
def _summons_vanished(event: summons.SummonsVanished, state: GameState, ruleset: Ruleset) -> str:
    by_owner: dict[str, list[str]] = {}
    for _uid, kind_id, _space, owner in event.units:
        by_owner.setdefault(owner, []).append(kind_id)
    parts = "; ".join(
        f"{faction_name(ruleset, owner)}: {kind_counts(ruleset, kinds)}"
        for owner, kinds in sorted(by_owner.items())
    )
    return f"A Muster step begins and every summoned unit vanishes ({parts}) (R-MAGIC-SUMM-02)."


@_line(upkeep_marks.DisbandMarksChanged)
def _disband_marks_changed(
    event: upkeep_marks.DisbandMarksChanged, state: GameState, ruleset: Ruleset
) -> str:
    def named(units: Sequence[tuple[int, str, str]]) -> str:
        return ", ".join(unit_label(ruleset, *u) for u in units)

    parts = []
    if event.marked:
        parts.append(f"Marked to disband at upkeep: {named(event.marked)}.")
    if event.unmarked:
        parts.append(f"Mark taken back: {named(event.unmarked)}.")
    if not parts:
        parts.append("The marks did not change.")
    n = len(event.marks)
    if n:
        what = "1 unit is" if n == 1 else f"{n} units are"
        parts.append(f"{what} marked; they are disbanded when step 4 begins (R-UPK-02).")
    else:
        parts.append("No unit is marked to disband at upkeep (R-UPK-02).")
    return " ".join(parts)


@_line(mercenary.MercenariesDeserted)
def _mercenaries_deserted(
    event: mercenary.MercenariesDeserted, state: GameState, ruleset: Ruleset
) -> str:
    units = [k for _, k in event.units]
    return (
        f"{kind_counts(ruleset, units)} of {faction_name(ruleset, event.faction)} deserted at "
        f"{space_name(ruleset, event.space)} (R-ATTR-MERC-01)."
    )


@_line(combat_events.BattlesDue)
def _battles_due(event: combat_events.BattlesDue, state: GameState, ruleset: Ruleset) -> str:
    places = ", ".join(space_name(ruleset, s) for s in event.spaces)
    return f"{faction_name(ruleset, event.faction)} must fight at {places}."


@_line(victory.FactionEliminated)
def _faction_eliminated(
    event: victory.FactionEliminated, state: GameState, ruleset: Ruleset
) -> str:
    return f"**{faction_name(ruleset, event.faction)} is eliminated** (R-VIC-05)."


_END_REASONS = {
    "military": "military victory, R-VIC-01",
    "diplomatic": "diplomatic victory, R-VIC-02",
    "turn_limit": "turn limit, R-VIC-03",
    "early": "ended early by the umpire, R-VIC-04",
    "scenario": "the scenario's own victory condition, R-VIC-06",
}


@_line(victory.CampaignEnded)
def _campaign_ended(event: victory.CampaignEnded, state: GameState, ruleset: Ruleset) -> str:
    winners = ", ".join(faction_name(ruleset, w) for w in event.winners) or "nobody"
    reason = _END_REASONS.get(event.reason, event.reason.replace("_", " "))
    return f"**The campaign is over** ({reason}). Winner: {winners}."


@_line(early_end.EarlyEndProposed)
def _early_end_proposed(
    event: early_end.EarlyEndProposed, state: GameState, ruleset: Ruleset
) -> str:
    winners = ", ".join(faction_name(ruleset, w) for w in event.winners)
    again = " (this replaces the earlier proposal)" if event.replaced else ""
    return (
        f"**The umpire proposes to end the campaign now**, with {winners} the winner{again} "
        f"(R-VIC-04). It ends when {event.needed} of the {len(event.voters)} players still in "
        "the game accept: each has Accept and Refuse buttons in their orders thread."
    )


@_line(early_end.EarlyEndVoted)
def _early_end_voted(event: early_end.EarlyEndVoted, state: GameState, ruleset: Ruleset) -> str:
    answer = "accepts" if event.accepted else "refuses"
    return (
        f"The player of {faction_name(ruleset, event.faction)} {answer} the early end: "
        f"{event.accepts} accept, {event.refusals} refuse, {event.needed} needed (R-VIC-04)."
    )


@_line(early_end.EarlyEndRefused)
def _early_end_refused(event: early_end.EarlyEndRefused, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"The early end is refused ({event.accepts} accept, {event.refusals} refuse): the "
        "campaign goes on (R-VIC-04)."
    )


# --------------------------------------------------------------------------- pacts


def _names(ruleset: Ruleset, codes: Sequence[str]) -> str:
    return ", ".join(faction_name(ruleset, c) for c in codes)


def _pact_text(ruleset: Ruleset, kind: str, members: Sequence[str]) -> str:
    if kind == "alliance":
        return f"an alliance of {_names(ruleset, members)}"
    if kind == "break":
        return f"the end of the alliance of {_names(ruleset, members)}"
    vassal, liege = faction_name(ruleset, members[0]), faction_name(ruleset, members[1])
    if kind == "fealty":
        return f"{vassal}'s fealty to {liege}"
    return f"{vassal} revoking its fealty to {liege}"


def _pact_rule(kind: str) -> str:
    """The rule a proposal of ``kind`` is confirmed under: fealty's own, or the alliance's."""
    return "R-FEAL-01" if kind in ("fealty", "revoke") else "R-ALLY-01"


@_line(pacts.PactProposed)
def _pact_proposed(event: pacts.PactProposed, state: GameState, ruleset: Ruleset) -> str:
    if event.kind == "fealty":  # the vassal swears; its liege accepts (R-FEAL-01)
        vassal, liege = (faction_name(ruleset, m) for m in event.members)
        text = f"{vassal} swears fealty to {liege} (proposal {event.proposal})."
    else:
        text = (
            f"{faction_name(ruleset, event.by)} proposes "
            f"{_pact_text(ruleset, event.kind, event.members)} (proposal {event.proposal})."
        )
    if event.waiting:
        verb = "accept" if event.kind == "fealty" else "confirm"
        text += (
            f" Waiting for {_names(ruleset, event.waiting)} to {verb} ({_pact_rule(event.kind)})."
        )
    return text


@_line(pacts.PactAnswered)
def _pact_answered(event: pacts.PactAnswered, state: GameState, ruleset: Ruleset) -> str:
    who = faction_name(ruleset, event.by)
    what = _pact_text(ruleset, event.kind, event.members)
    if not event.accepted:
        return f"{who} refused {what}; the proposal is dropped ({_pact_rule(event.kind)})."
    if event.waiting:
        return f"{who} confirmed {what}; still waiting for {_names(ruleset, event.waiting)}."
    return f"{who} confirmed {what}."


@_line(pacts.PactAgreed)
def _pact_agreed(event: pacts.PactAgreed, state: GameState, ruleset: Ruleset) -> str:
    what = _pact_text(ruleset, event.kind, event.members)
    return f"Agreed: {what}. It takes effect at the start of the next turn (R-ALLY-02)."


@_line(pacts.PactTookEffect)
def _pact_took_effect(event: pacts.PactTookEffect, state: GameState, ruleset: Ruleset) -> str:
    what = _pact_text(ruleset, event.kind, event.members)
    text = f"**In force from now:** {what}."
    if event.also_vassals:
        text += (
            f" {_names(ruleset, event.also_vassals)} now owe fealty to "
            f"{faction_name(ruleset, event.members[1])} too (R-FEAL-04)."
        )
    for faction, province in event.parting:
        text += (
            f" {faction_name(ruleset, faction)}'s units in {space_name(ruleset, province)} must "
            "leave it at its next turn or attack there (R-ALLY-05)."
        )
    return text


_LAPSED = {
    "eliminated": "a member was eliminated",
    "liege_is_vassal": "the liege has become a vassal itself (R-FEAL-04)",
    "hero_fallen": "the liege's Hero has fallen (R-FEAL-03)",
    "already_vassal": "the vassal already owes fealty elsewhere",
    "gone": "the pact it changes no longer exists",
    "over": "the campaign is over",
}


@_line(pacts.PactLapsed)
def _pact_lapsed(event: pacts.PactLapsed, state: GameState, ruleset: Ruleset) -> str:
    what = _pact_text(ruleset, event.kind, event.members)
    return f"{what[0].upper()}{what[1:]} did not take effect: {_LAPSED[event.reason]}."


@_line(diplomacy.NeighboursJudged)
def _neighbours_judged(
    event: diplomacy.NeighboursJudged, state: GameState, ruleset: Ruleset
) -> str:
    parts = []
    if event.gained:
        pairs = "; ".join(_names(ruleset, p).replace(", ", " and ") for p in event.gained)
        parts.append(f"now neighbours: {pairs}")
    if event.lost:
        pairs = "; ".join(_names(ruleset, p).replace(", ", " and ") for p in event.lost)
        parts.append(f"no longer neighbours (their threads are read-only): {pairs}")
    return "Borders judged again (R-PBP-NEG-03): " + "; ".join(parts) + "."


# --------------------------------------------------------------------------- the treasury


@_line(collect.IncomeCollected)
def _income_collected(event: collect.IncomeCollected, state: GameState, ruleset: Ruleset) -> str:
    goods = ", ".join(f"{n} {c.title()}" for c, n in event.commodities)
    text = f"Collected {event.rp_gained} RP" + (f" and {goods}" if goods else "")
    if event.provinces:
        text += " from " + ", ".join(space_name(ruleset, p) for p in event.provinces)
    text += f". {event.rp_after} RP now."
    if event.divined:
        bonus = ", ".join(
            f"{n} {c.title()} in {space_name(ruleset, p)}" for p, c, n in event.divined
        )
        text += f" Diviner bonus included: {bonus} (R-MAGIC-DIV-01)."
    if event.withheld:
        paid = "; ".join(f"{space_name(ruleset, p)} ({why})" for p, why in event.withheld)
        text += f" Paid nothing: {paid} (R-COLL-04)."
    return text


@_line(upkeep.UpkeepDue)
def _upkeep_due(event: upkeep.UpkeepDue, state: GameState, ruleset: Ruleset) -> str:
    salt = f", less {event.salt_used} Salt" if event.salt_used else ""
    text = (
        f"Upkeep due: {event.units_counted} units cost {event.upkeep} RP{salt}: a bill of "
        f"{event.bill} RP; you hold {event.rp} RP (R-UPK-01)."
    )
    if event.must_disband:
        text += f" You must disband at least {event.must_disband} of them before paying (R-UPK-03)."
    return text


@_line(upkeep.UpkeepPaid)
def _upkeep_paid(event: upkeep.UpkeepPaid, state: GameState, ruleset: Ruleset) -> str:
    salt = f", less {event.salt_used} Salt" if event.salt_used else ""
    return (
        f"Upkeep: {event.units_counted} units cost {event.upkeep} RP{salt}; paid "
        f"{event.bill} RP. {event.rp_after} RP left (R-UPK-01)."
    )


@_line(buy.UnitsBought)
def _units_bought(event: buy.UnitsBought, state: GameState, ruleset: Ruleset) -> str:
    text = f"Bought {event.count} {event.name} for {event.total} RP. {event.rp_after} RP left."
    if event.warning:
        text += f" Warning: {event.warning}"
    return text


@_line(buy.PurchaseCancelled)
def _purchase_cancelled(event: buy.PurchaseCancelled, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"Cancelled {event.count} {kind_name(ruleset, event.kind_id)}: {event.refund} RP "
        f"back. {event.rp_after} RP now."
    )


@_line(buy.RPForfeited)
def _rp_forfeited(event: buy.RPForfeited, state: GameState, ruleset: Ruleset) -> str:
    return f"{event.rp} unspent RP were lost at the end of step 5 (R-BUY-02)."


@_line(muster.PurchaseLost)
def _purchase_lost(event: muster.PurchaseLost, state: GameState, ruleset: Ruleset) -> str:
    lost = kind_counts(ruleset, event.kind_ids)
    text = f"Lost without refund, with nowhere to muster: {lost} (R-MUSTER-01)."
    return text + _reasons_text(ruleset, event.reasons)


@_line(muster.MusterShortfall)
def _muster_shortfall(event: muster.MusterShortfall, state: GameState, ruleset: Ruleset) -> str:
    lost = kind_counts(ruleset, event.kind_ids)
    return (
        f"Warning: no province can take {lost} on the board as it stands; unless placed, "
        "they are lost without refund when step 8 ends (R-MUSTER-01)."
        + _reasons_text(ruleset, event.reasons)
    )


def _reasons_text(ruleset: Ruleset, reasons: Sequence[tuple[str, str]]) -> str:
    return "".join(f" {kind_name(ruleset, k)}: {why}." for k, why in reasons)


@_line(redeem.SetsRedeemed)
def _sets_redeemed(event: redeem.SetsRedeemed, state: GameState, ruleset: Ruleset) -> str:
    sets = "; ".join(", ".join(c.title() for c in group) for group in event.sets)
    many = "set" if len(event.sets) == 1 else "sets"
    return (
        f"Redeemed {len(event.sets)} {many} ({sets}) for {event.rp_gained} RP. "
        f"{event.rp} RP now (R-COMM-10)."
    )


@_line(redeem.IronRedeemed)
def _iron_redeemed(event: redeem.IronRedeemed, state: GameState, ruleset: Ruleset) -> str:
    return f"Redeemed {event.count} Iron for {event.rp_gained} RP. {event.rp} RP now (R-COMM-05)."


@_line(redeem.SaltRedeemed)
def _salt_redeemed(event: redeem.SaltRedeemed, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"Redeemed {event.count} Salt: {event.salt_credit} RP off this turn's upkeep (R-COMM-07)."
    )


@_line(redeem.CommoditiesEarmarked)
def _commodities_earmarked(
    event: redeem.CommoditiesEarmarked, state: GameState, ruleset: Ruleset
) -> str:
    return (
        f"Earmarked {event.count} {event.commodity.title()} for discounts this turn; "
        f"earmarked now: {commodities_text(event.earmarks)} (R-COMM-02)."
    )


@_line(redeem.EarmarksReturned)
def _earmarks_returned(event: redeem.EarmarksReturned, state: GameState, ruleset: Ruleset) -> str:
    returned = commodities_text(event.commodities)
    return f"Unused earmarks went back to stock: {returned} (R-COMM-02)."


# --------------------------------------------------------------------------- the umpire


@_line(umpire.UmpireOverride)
def _umpire_override(event: umpire.UmpireOverride, state: GameState, ruleset: Ruleset) -> str:
    if event.what == "owner":
        owner = faction_name(ruleset, event.detail) if event.detail else "nobody"
        return f"The umpire gave {space_name(ruleset, event.target)} to {owner} (R-PBP-UMP-01)."
    item = "RP" if event.what == "rp" else f"{event.detail.title()} stock"
    target = faction_name(ruleset, event.target)
    return f"The umpire changed the {item} of {target} (R-PBP-UMP-01)."


@_line(umpire.TreasuryOverridden)
def _treasury_overridden(
    event: umpire.TreasuryOverridden, state: GameState, ruleset: Ruleset
) -> str:
    item = "RP" if event.item == "rp" else event.item.title()
    return f"The umpire set your {item} from {event.before} to {event.after} (R-PBP-UMP-01)."


@_line(replay.RolledBack)
def _rolled_back(event: replay.RolledBack, state: GameState, ruleset: Ruleset) -> str:
    where = moment(ruleset, event.step, event.active, event.round)
    return (
        f"The umpire rolled the campaign back to the state after order #{event.to_seq}: "
        f"{where}. The {event.voided} order(s) given since no longer count; the dice rolled "
        "since stay rolled, so the next dice are new ones; the deadlines owed start again "
        "from now (R-PBP-UMP-01)."
    )


@_line(replay.CampaignContinued)
def _continued(event: replay.CampaignContinued, state: GameState, ruleset: Ruleset) -> str:
    where = moment(ruleset, event.step, event.active, event.round)
    return (
        f"This campaign continues **{event.source}** from {where}, with dice from a new seed "
        "(R-GEN-01)."
    )


@_line(umpire_units.UnitsOverridden)
def _units_overridden(
    event: umpire_units.UnitsOverridden, state: GameState, ruleset: Ruleset
) -> str:
    return umpire_text.units_line(event, ruleset)


@_line(umpire_game.OptionChangeAnnounced)
def _option_change(
    event: umpire_game.OptionChangeAnnounced, state: GameState, ruleset: Ruleset
) -> str:
    return umpire_text.option_change_line(event)


@_line(umpire_game.OptionsChanged)
def _options_changed(event: umpire_game.OptionsChanged, state: GameState, ruleset: Ruleset) -> str:
    return umpire_text.options_changed_line(event)


@_line(umpire_step.StepSet)
def _step_set(event: umpire_step.StepSet, state: GameState, ruleset: Ruleset) -> str:
    return umpire_text.step_set_line(event, ruleset)


@_line(umpire_game.TurnLimitSet)
def _turn_limit_set(event: umpire_game.TurnLimitSet, state: GameState, ruleset: Ruleset) -> str:
    return umpire_text.turn_limit_line(event)


# --------------------------------------------------------------------------- trade


def _terms(
    ruleset: Ruleset, event: trade.TradeProposed | trade.TradeExecuted | trade.TradeAnnounced
) -> str:
    """:func:`~caedes_bot.ui.describe.offer_text` of a trade event's contents (absent contents
    count as nothing)."""
    return offer_text(
        ruleset,
        event.proposer,
        event.counterparty,
        event.give_rp or 0,
        event.give_commodities or {},
        event.receive_rp or 0,
        event.receive_commodities or {},
    )


@_line(trade.TradeProposed)
def _trade_proposed(event: trade.TradeProposed, state: GameState, ruleset: Ruleset) -> str:
    return f"Trade offer #{event.trade_id}: {_terms(ruleset, event)}."


@_line(trade.TradeExecuted)
def _trade_executed(event: trade.TradeExecuted, state: GameState, ruleset: Ruleset) -> str:
    return f"Trade #{event.trade_id} done: {_terms(ruleset, event)} (R-TRADE-02)."


@_line(trade.TradeDeclined)
def _trade_declined(event: trade.TradeDeclined, state: GameState, ruleset: Ruleset) -> str:
    who = faction_name(ruleset, event.counterparty)
    return f"Trade offer #{event.trade_id} was declined by {who}."


@_line(trade.TradeWithdrawn)
def _trade_withdrawn(event: trade.TradeWithdrawn, state: GameState, ruleset: Ruleset) -> str:
    who = faction_name(ruleset, event.proposer)
    return f"Trade offer #{event.trade_id} was withdrawn by {who}."


@_line(trade.TradeLapsed)
def _trade_lapsed(event: trade.TradeLapsed, state: GameState, ruleset: Ruleset) -> str:
    return f"Trade offer #{event.trade_id} lapsed unanswered when step 1 ended (R-TRADE-02)."


@_line(trade.TradeAnnounced)
def _trade_announced(event: trade.TradeAnnounced, state: GameState, ruleset: Ruleset) -> str:
    a, b = faction_name(ruleset, event.proposer), faction_name(ruleset, event.counterparty)
    if event.give_rp is None and event.give_commodities is None:
        return f"{a} and {b} traded."
    return f"{a} and {b} traded: {_terms(ruleset, event)}."


# --------------------------------------------------------------------------- scenario events


@_line(scenario_events.ScenarioEventFired)
def _scenario_event(
    event: scenario_events.ScenarioEventFired, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.fired_line(event, ruleset)


@_line(scenario_events.ScenarioTreasuryChanged)
def _scenario_treasury(
    event: scenario_events.ScenarioTreasuryChanged, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.treasury_line(event)


@_line(scenario_events.ScenarioUnitsPlaced)
def _scenario_placed(
    event: scenario_events.ScenarioUnitsPlaced, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.placed_line(event, ruleset)


@_line(scenario_events.ScenarioUnitsRemoved)
def _scenario_removed(
    event: scenario_events.ScenarioUnitsRemoved, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.removed_line(event, ruleset)


@_line(scenario_events.ScenarioOwnerChanged)
def _scenario_owner(
    event: scenario_events.ScenarioOwnerChanged, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.owner_line(event, ruleset)


@_line(scenario_events.ScenarioEffectSkipped)
def _scenario_skipped(
    event: scenario_events.ScenarioEffectSkipped, state: GameState, ruleset: Ruleset
) -> str:
    return scenario_text.skipped_line(event, ruleset)
