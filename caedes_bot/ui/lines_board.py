"""The lines of the turn and of the board (:mod:`caedes_bot.ui.lines`): turns and steps, moves,
ships and cargo, blitzes and landings, captures, musters and losses, summons, disband marks,
the battles due and the end of the campaign.

Each function is registered with :func:`~caedes_bot.ui.lines_registry.line_of` as the line of
its event classes. Pure functions of the event, the state after it and the static ruleset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import (
    cargo,
    dependants,
    early_end,
    mercenary,
    movement,
    muster,
    ownership,
    ships,
    summons,
    turn,
    undo,
    upkeep,
    upkeep_marks,
    victory,
)
from caedes_bot.rules.combat import events as combat_events
from caedes_bot.rules.movement import amphibian, blitz, magic_moves
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import faction_name, kind_counts, kind_name, space_name, unit_label
from caedes_bot.ui.lines_registry import line_of


def _units_text(ruleset: Ruleset, units: Sequence[tuple[int, str, str]] | Sequence[str]) -> str:
    kinds = [u[1] if isinstance(u, tuple) else u for u in units]
    return kind_counts(ruleset, kinds)


# --------------------------------------------------------------------------- the turn


@line_of(turn.GameRoundBegan)
def _game_round_began(event: turn.GameRoundBegan, state: GameState, ruleset: Ruleset) -> str:
    return f"**Game round {event.round} begins.**"


@line_of(turn.TurnBegan)
def _turn_began(event: turn.TurnBegan, state: GameState, ruleset: Ruleset) -> str:
    return f"{faction_name(ruleset, event.faction)} begins its turn (game round {event.round})."


@line_of(turn.TurnEnded)
def _turn_ended(event: turn.TurnEnded, state: GameState, ruleset: Ruleset) -> str:
    return f"{faction_name(ruleset, event.faction)} ends its turn."


@line_of(turn.StepEnded)
def _step_ended(event: turn.StepEnded, state: GameState, ruleset: Ruleset) -> str | None:
    if event.by_umpire:
        who = faction_name(ruleset, event.faction)
        return f"The umpire ended step {event.step.label} of {who}."
    return None  # the next step's turn panel shows it


@line_of(turn.TurnForfeited)
def _turn_forfeited(event: turn.TurnForfeited, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"{faction_name(ruleset, event.faction)} missed its turn deadline at step "
        f"{event.step.label}: the bot plays the rest of its turn passively (R-PBP-DEAD-03)."
    )


@line_of(turn.DecisionDefaulted)
def _decision_defaulted(event: turn.DecisionDefaulted, state: GameState, ruleset: Ruleset) -> str:
    what = event.kind.replace("_", " ")
    who = faction_name(ruleset, event.faction)
    return f"The {what} decision of {who} was answered by default (R-PBP-DEAD-04)."


# --------------------------------------------------------------------------- the board
@line_of(movement.UnitsMoved)
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


@line_of(ships.ShipsSailed)
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


@line_of(cargo.UnitsEmbarked)
def _units_embarked(event: cargo.UnitsEmbarked, state: GameState, ruleset: Ruleset) -> str:
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    what = kind_counts(ruleset, kinds) if kinds else f"{len(event.unit_ids)} units"
    return (
        f"{faction_name(ruleset, event.faction)} put {what} from "
        f"{space_name(ruleset, event.origin)} aboard a ship on {space_name(ruleset, event.space)}."
    )


@line_of(cargo.UnitsLanded)
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


@line_of(undo.OrderTakenBack)
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


@line_of(magic_moves.UnitsTeleported)
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


@line_of(magic_moves.Divined)
def _divined(event: magic_moves.Divined, state: GameState, ruleset: Ruleset) -> str:
    first, second = event.dice
    when = "now" if event.immediate else "at its next Collect step"
    gain = f"{event.amount} {event.commodity.title()} {when}" if event.amount else "nothing"
    return (
        f"{faction_name(ruleset, event.faction)}'s Diviner in "
        f"{space_name(ruleset, event.province)} rolled **{first}** and **{second}**: {gain}."
    )


@line_of(blitz.BlitzOffered)
def _blitz_offered(event: blitz.BlitzOffered, state: GameState, ruleset: Ruleset) -> str:
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    return (
        f"{faction_name(ruleset, event.faction)}: {kind_counts(ruleset, kinds)} in "
        f"{space_name(ruleset, event.space)} may blitz on (/blitz to a province; /blitz alone "
        "stops them, as the deadline does) (R-ATTR-BLITZ-02)."
    )


@line_of(amphibian.AshoreOffered)
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


@line_of(amphibian.CameAshore)
def _came_ashore(event: amphibian.CameAshore, state: GameState, ruleset: Ruleset) -> str:
    places = list(dict.fromkeys(event.destinations))
    where = ", ".join(space_name(ruleset, p) for p in places)
    how = " (by default, back where they came from)" if event.by_default else ""
    kinds = [state.units[str(u)].kind for u in event.unit_ids if str(u) in state.units]
    return (
        f"{faction_name(ruleset, event.faction)}: {kind_counts(ruleset, kinds)} went ashore "
        f"from {space_name(ruleset, event.space)} in {where}{how} (R-ATTR-AMPH-02)."
    )


@line_of(blitz.BlitzEnded)
def _blitz_ended(event: blitz.BlitzEnded, state: GameState, ruleset: Ruleset) -> str:
    how = " (the deadline passed)" if event.by_default else ""
    return (
        f"{faction_name(ruleset, event.faction)}'s blitz stops in "
        f"{space_name(ruleset, event.space)}{how}."
    )


@line_of(ownership.ProvinceCaptured)
def _province_captured(
    event: ownership.ProvinceCaptured, state: GameState, ruleset: Ruleset
) -> str:
    was = f" from {faction_name(ruleset, event.previous_owner)}" if event.previous_owner else ""
    return (
        f"**{faction_name(ruleset, event.faction)} takes "
        f"{space_name(ruleset, event.province)}**{was}."
    )


@line_of(muster.UnitsMustered)
def _units_mustered(event: muster.UnitsMustered, state: GameState, ruleset: Ruleset) -> str:
    how = " (placed by the bot)" if event.by_bot else ""
    where = ", ".join(Counter(space_name(ruleset, u[2]) for u in event.units))
    return (
        f"{faction_name(ruleset, event.faction)} mustered {_units_text(ruleset, event.units)} "
        f"in {where}{how}."
    )


@line_of(upkeep.UnitsDisbanded)
def _units_disbanded(event: upkeep.UnitsDisbanded, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"{faction_name(ruleset, event.faction)} lost {_units_text(ruleset, event.units)}: "
        f"{event.reason} ({event.rule})."
    )


@line_of(dependants.BoundUnitsLost)
def _bound_units_lost(event: dependants.BoundUnitsLost, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"{faction_name(ruleset, event.faction)} lost {_units_text(ruleset, event.units)}: "
        f"{event.reason} ({event.rule})."
    )


@line_of(dependants.HeroFell)
def _hero_fell(event: dependants.HeroFell, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"**{kind_name(ruleset, event.kind_id)}**, Hero of "
        f"{faction_name(ruleset, event.faction)}, has fallen: its vassals may now revoke "
        "their fealty (R-FEAL-03)."
    )


@line_of(summons.UnitsSummoned)
def _units_summoned(event: summons.UnitsSummoned, state: GameState, ruleset: Ruleset) -> str:
    what = kind_counts(ruleset, [k for _uid, k in event.units])
    joined = " and they join the battle there at once" if event.battle is not None else ""
    return (
        f"{faction_name(ruleset, event.faction)} summoned {what} at "
        f"{space_name(ruleset, event.province)}{joined}; summoned units vanish when the next "
        "Muster step begins (R-MAGIC-SUMM-01, R-MAGIC-SUMM-02)."
    )


@line_of(summons.SummonsPaid)
def _summons_paid(event: summons.SummonsPaid, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"Paid {event.total} RP for {event.count} {kind_name(ruleset, event.kind_id)}. "
        f"{event.rp_after} RP left."
    )


@line_of(summons.SummonsOffered)
def _summons_offered(event: summons.SummonsOffered, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"Round {event.round} of the battle at {space_name(ruleset, event.space)} begins and "
        "your Summoner fights there: summon units into it now, or not (the buttons on the "
        "battle message, or /summon) (R-MAGIC-SUMM-01)."
    )


@line_of(summons.SummonsDeclined)
def _summons_declined(event: summons.SummonsDeclined, state: GameState, ruleset: Ruleset) -> str:
    who = faction_name(ruleset, event.faction)
    if event.by_default:
        return f"{who} summoned nothing in round {event.round}: its time to answer ran out."
    if event.whole_battle:
        return f"{who} will summon nothing in this battle."
    return f"{who} summoned nothing as round {event.round} began."


@line_of(summons.SummonsVanished)
def _summons_vanished(event: summons.SummonsVanished, state: GameState, ruleset: Ruleset) -> str:
    by_owner: dict[str, list[str]] = {}
    for _uid, kind_id, _space, owner in event.units:
        by_owner.setdefault(owner, []).append(kind_id)
    parts = "; ".join(
        f"{faction_name(ruleset, owner)}: {kind_counts(ruleset, kinds)}"
        for owner, kinds in sorted(by_owner.items())
    )
    return f"A Muster step begins and every summoned unit vanishes ({parts}) (R-MAGIC-SUMM-02)."


@line_of(upkeep_marks.DisbandMarksChanged)
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


@line_of(mercenary.MercenariesDeserted)
def _mercenaries_deserted(
    event: mercenary.MercenariesDeserted, state: GameState, ruleset: Ruleset
) -> str:
    units = [k for _, k in event.units]
    return (
        f"{kind_counts(ruleset, units)} of {faction_name(ruleset, event.faction)} deserted at "
        f"{space_name(ruleset, event.space)} (R-ATTR-MERC-01)."
    )


@line_of(mercenary.MercenariesOwed)
def _mercenaries_owed(event: mercenary.MercenariesOwed, state: GameState, ruleset: Ruleset) -> str:
    n = event.deserting
    what = "which Mercenary deserts" if n == 1 else f"which {n} Mercenaries desert"
    wait = "the battle round" if event.battle is not None else "the turn"
    return (
        f"{faction_name(ruleset, event.faction)} must choose {what} at "
        f"{space_name(ruleset, event.space)}; {wait} waits for the answer (R-ATTR-MERC-01)."
    )


@line_of(combat_events.BattlesDue)
def _battles_due(event: combat_events.BattlesDue, state: GameState, ruleset: Ruleset) -> str:
    places = ", ".join(space_name(ruleset, s) for s in event.spaces)
    return f"{faction_name(ruleset, event.faction)} must fight at {places}."


@line_of(victory.FactionEliminated)
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


@line_of(victory.CampaignEnded)
def _campaign_ended(event: victory.CampaignEnded, state: GameState, ruleset: Ruleset) -> str:
    winners = ", ".join(faction_name(ruleset, w) for w in event.winners) or "nobody"
    reason = _END_REASONS.get(event.reason, event.reason.replace("_", " "))
    return f"**The campaign is over** ({reason}). Winner: {winners}."


@line_of(early_end.EarlyEndProposed)
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


@line_of(early_end.EarlyEndVoted)
def _early_end_voted(event: early_end.EarlyEndVoted, state: GameState, ruleset: Ruleset) -> str:
    answer = "accepts" if event.accepted else "refuses"
    return (
        f"The player of {faction_name(ruleset, event.faction)} {answer} the early end: "
        f"{event.accepts} accept, {event.refusals} refuse, {event.needed} needed (R-VIC-04)."
    )


@line_of(early_end.EarlyEndRefused)
def _early_end_refused(event: early_end.EarlyEndRefused, state: GameState, ruleset: Ruleset) -> str:
    return (
        f"The early end is refused ({event.accepts} accept, {event.refusals} refuse): the "
        "campaign goes on (R-VIC-04)."
    )
