"""Summoned units (R-MAGIC-SUMM-01..04, R-RACE-SUM-01, R-ATTR-FORT-06, R-COMM-11, R-BUY-05).

A Summoned unit is never bought to wait for step 8: summoning it pays for it and places it at
once in the province of a Summoner of its faction (R-MAGIC-SUMM-01, R-RACE-SUM-01):

* **in the faction's own turn, at any step** (:class:`SummonUnits`), into a province where one
  of its Summoners stands on land (a Summoner aboard a ship or at sea cannot summon), in any
  number, but not into a province where a battle is due or under way: there units join only
  as a round of the battle begins;
* **as a round of a battle begins** in a province where the faction has a Summoner among the
  fighting units, in its own turn or another's: the round-start phase asks it
  (:func:`offer_summons`, a ``summons`` decision; the defender is asked after the attacker) and
  the units join the battle at once (:mod:`caedes_bot.rules.combat.summon_answer`). A faction
  that answers "no summons this battle" is not asked again in it. Summoned Tower-type units can
  only ever defend (R-ATTR-FORT-06, R-COMBAT-15), so an attacker is not offered them.

What it costs (R-COMM-11, R-BUY-05): the list cost, less the earmarked commodity discounts
(R-COMM-03..09) only in the faction's own turn after step 2; at any other time the full cost.

Summoned Tower-type units (Earth Elemental, Demi-Shadow Tower) are Fortifications: at most one
Fortification per province, summoned or not (R-ATTR-FORT-06; option
``summoned_tower_is_fortification``, default true; false lifts that limit for them). Units
summoned before step 6 of the faction's own turn may move and attack (R-MAGIC-SUMM-04); later
ones have ended their movement.

Summoned units last only until the next Muster step of any faction: when a step 8 begins,
every Summoned unit on the board vanishes (R-MAGIC-SUMM-02), before the board that step's
musters are judged on is fixed (R-MUSTER-01). A unit summoned during a step 8 lasts until the
next one. Losing the last Summoner takes them too (:mod:`caedes_bot.rules.dependants`).
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from caedes_bot.gamedata.model import Attribute, BaseType, Race, Ruleset, UnitKind
from caedes_bot.rules import redeem
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import IllegalMuster, NotEnoughRP, RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import hostile_units
from caedes_bot.rules.state import (
    Battle,
    DecisionKind,
    GameState,
    PendingDecision,
    Side,
    Step,
    SummonsDetail,
    Unit,
)
from caedes_bot.rules.steps import Accepts, Giver, StepSpec

# --------------------------------------------------------------------------- orders, events


@dataclass(frozen=True, slots=True)
class SummonUnits(Order):
    """Summon ``count`` units of the Summoned kind ``kind_id`` into ``province`` now, in the
    faction's own turn, at any step (R-MAGIC-SUMM-01). ``province`` ``None`` means the one
    province where a Summoner of the faction can summon; refused when there are several."""

    label = "Summoning units"
    undoable = True  # /undo takes it back in the faction's own turn (caedes_bot.rules.undo)

    kind_id: str
    count: int = 1
    province: str | None = None


@dataclass(frozen=True, slots=True)
class UnitsSummoned(Event):
    """``faction`` summoned units into ``province`` (R-MAGIC-SUMM-01): ``units`` are ``(unit
    id, kind id)``. ``battle`` is the battle they joined at once, on ``side``, if any. They
    vanish when the next Muster step begins (R-MAGIC-SUMM-02). Public (the board is public)."""

    faction: str
    province: str
    units: tuple[tuple[int, str], ...]
    battle: int | None = None
    side: Side | None = None


@dataclass(frozen=True, slots=True)
class SummonsPaid(Event):
    """What ``faction`` paid for the units it summoned: ``total`` RP (``discounts``: commodity,
    units discounted; only in its own turn after step 2, R-COMM-11). Private (R-GEN-07)."""

    private: ClassVar[bool] = True
    faction: str
    kind_id: str
    count: int
    total: int
    rp_before: int
    rp_after: int
    discounts: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class SummonsOffered(Event):
    """A round of battle ``battle`` at ``space`` begins and ``faction``, with a Summoner among
    its fighting units, is asked whether it summons (decision ``decision``, R-MAGIC-SUMM-01).
    Private: the offer shows what it can afford."""

    private: ClassVar[bool] = True
    faction: str
    battle: int
    space: str
    round: int
    decision: int


@dataclass(frozen=True, slots=True)
class SummonsDeclined(Event):
    """``faction`` summons nothing as round ``round`` of battle ``battle`` begins;
    ``whole_battle`` when it will not be asked again in this battle; ``by_default`` when its
    reaction deadline passed (R-PBP-DEAD-04: summons default to none)."""

    faction: str
    battle: int
    round: int
    whole_battle: bool = False
    by_default: bool = False


@dataclass(frozen=True, slots=True)
class SummonsVanished(Event):
    """A Muster step began (``faction``'s, game round ``round``) and every Summoned unit on
    the board vanished (R-MAGIC-SUMM-02); ``units`` are ``(unit id, kind id, space, owner)``.
    Public."""

    faction: str
    round: int
    units: tuple[tuple[int, str, str, str], ...]


# --------------------------------------------------------------------------- what may be summoned


def is_summoned(kind: UnitKind) -> bool:
    """Whether ``kind`` is a Summoned unit (R-RACE-SUM-01)."""
    return kind.race is Race.SUMMONED


def summoned_kinds(ruleset: Ruleset, faction: str) -> list[UnitKind]:
    """The Summoned kinds of ``faction``'s order of battle, in list order (R-RACE-SUM-01)."""
    return [k for k in ruleset.order_of_battle(faction) if is_summoned(k) and k.cost is not None]


def can_summon_from(ruleset: Ruleset, unit: Unit) -> bool:
    """Whether ``unit`` is a Summoner that can summon where it stands: on land, not aboard a
    ship (R-MAGIC-SUMM-01)."""
    if unit.aboard is not None or unit.location not in ruleset.map.provinces:
        return False
    return ruleset.kind(unit.kind).has(Attribute.SUMMONER)


def summon_places(state: GameState, ruleset: Ruleset, faction: str) -> list[str]:
    """Province ids where ``faction`` has a Summoner that can summon, sorted by name
    (R-MAGIC-SUMM-01, R-RACE-SUM-01). Whether it is the right time is not checked."""
    found = {
        u.location for u in state.peek_units() if u.owner == faction and can_summon_from(ruleset, u)
    }
    return sorted(found, key=lambda p: (ruleset.map.provinces[p].name, p))


def discounts_allowed(state: GameState, faction: str) -> bool:
    """Whether earmarked discounts apply to a summons by ``faction`` now: only in its own turn
    after step 2 (R-COMM-11)."""
    return state.active == faction and state.step > Step.REDEEM


def summon_prices(
    state: GameState, faction: str, kind: UnitKind, count: int
) -> tuple[list[int], list[str]]:
    """The prices of ``count`` units of ``kind`` summoned now by ``faction``, and the
    commodities the discounts use (R-COMM-11, R-COMM-03..09): full cost outside its own turn
    or before step 3."""
    if discounts_allowed(state, faction):
        return redeem.price_batch(kind, state.factions[faction].earmarks, count)
    assert kind.cost is not None
    return [kind.cost] * count, []


def fortification_refusal(
    state: GameState, ruleset: Ruleset, kind: UnitKind, province: str, count: int
) -> str | None:
    """Why ``count`` summoned units of ``kind`` may not go into ``province``: a Tower-type unit
    is a Fortification, and a province holds at most one (R-ATTR-FORT-06, R-ATTR-FORT-02),
    unless the option ``summoned_tower_is_fortification`` is off. ``None`` if they may."""
    if kind.base_type is not BaseType.TOWER or not state.options.summoned_tower_is_fortification:
        return None
    name = ruleset.map.space_name(province)
    if any(ruleset.kind(u.kind).has(Attribute.FORTIFICATION) for u in state.units_at(province)):
        return f"{name} already has a Fortification; a summoned {kind.display_name} is one too."
    if count > 1:
        return f"A province holds one Fortification; summon at most one {kind.display_name}."
    return None


def check_summonable(ruleset: Ruleset, faction: str, kind_id: str) -> UnitKind:
    """The Summoned kind ``kind_id`` of ``faction``'s order of battle (R-RACE-SUM-01).

    Raises:
        UnknownName: no such kind (near matches from the faction's Summoned kinds).
        RuleViolation: another faction's unit (R-BUY-01), or a unit that is not summoned
            (R-RACE-SUM-01: it is bought in step 5).
    """
    own = summoned_kinds(ruleset, faction)
    allowed = ", ".join(f"{k.display_name} ({k.cost} RP)" for k in own) or "none: you have none"
    kind = ruleset.units.get(kind_id)
    if kind is None:
        names = [k.display_name for k in own] + [k.id for k in own]
        close = difflib.get_close_matches(kind_id, names, n=3, cutoff=0.5)
        raise UnknownName("unit kind", kind_id, tuple(close), rule="R-RACE-SUM-01")
    if kind.faction != faction:
        owner, own_name = ruleset.faction(kind.faction).name, ruleset.faction(faction).name
        raise RuleViolation(
            f"{kind.display_name} are units of the {owner}, not of the {own_name}.",
            rule="R-BUY-01",
            allowed=f"your Summoned units: {allowed}",
        )
    if not is_summoned(kind):
        raise RuleViolation(
            f"{kind.display_name} is not a Summoned unit: buy it in step 5 (/buy).",
            rule="R-RACE-SUM-01",
            allowed=f"your Summoned units: {allowed}",
        )
    return kind


# --------------------------------------------------------------------------- placing


def place_summoned(
    state: GameState,
    ruleset: Ruleset,
    faction: str,
    kind: UnitKind,
    province: str,
    count: int,
    *,
    battle: Battle | None = None,
    side: Side | None = None,
) -> list[Event]:
    """Pay for ``count`` units of ``kind`` and place them in ``province`` (joining ``battle``
    on ``side`` at once, if given). The caller has checked where and when; the price and the
    RP are checked here (R-BUY-02, R-COMM-11). Mutates ``state``.

    Raises:
        RuleViolation: a count below 1.
        NotEnoughRP: the faction cannot pay.
    """
    if count < 1:
        raise RuleViolation(
            "Summon at least one unit.", rule="R-MAGIC-SUMM-01", allowed="1 or more"
        )
    fs = state.factions[faction]
    prices, used = summon_prices(state, faction, kind, count)
    total = sum(prices)
    if total > fs.rp:
        affordable = 0
        paid = 0
        for price in prices:
            if paid + price > fs.rp:
                break
            paid += price
            affordable += 1
        raise NotEnoughRP(
            f"{count} × {kind.display_name} cost {total} RP; you have {fs.rp} RP.",
            allowed=f"at most {affordable} × {kind.display_name}"
            if affordable
            else f"a unit that costs at most {fs.rp} RP",
        )
    before = fs.rp
    fs.rp -= total
    for commodity in used:
        redeem.consume_earmark(fs, commodity)
    own_turn_early = state.active == faction and state.step < Step.MOVE
    placed: list[Unit] = []
    for _ in range(count):
        unit = state.place_new_unit(
            kind.id,
            faction,
            province,
            move_ended=battle is not None or not own_turn_early,  # R-MAGIC-SUMM-04
            attacking=battle is not None and side is Side.ATTACKER,
        )
        placed.append(unit)
    if battle is not None and side is not None:
        battle.units(side).extend(u.id for u in placed)
    return [
        UnitsSummoned(
            faction,
            province,
            tuple((u.id, u.kind) for u in placed),
            battle.id if battle is not None else None,
            side,
        ),
        SummonsPaid(
            faction, kind.id, count, total, before, fs.rp, tuple(sorted(Counter(used).items()))
        ),
    ]


def _places_text(state: GameState, ruleset: Ruleset, faction: str) -> str:
    places = summon_places(state, ruleset, faction)
    if not places:
        return "nowhere: none of your Summoners stands on land"
    return ", ".join(ruleset.map.space_name(p) for p in places)


def _resolve_place(state: GameState, ruleset: Ruleset, faction: str, province: str | None) -> str:
    places = summon_places(state, ruleset, faction)
    allowed = _places_text(state, ruleset, faction)
    if province is None:
        if len(places) == 1:
            return places[0]
        if not places:
            raise IllegalMuster(
                "You have no Summoner on land to summon with (a Summoner aboard a ship cannot "
                "summon).",
                rule="R-MAGIC-SUMM-01",
                allowed=allowed,
            )
        raise IllegalMuster(
            "Your Summoners stand in several provinces: name the one to summon into.",
            rule="R-MAGIC-SUMM-01",
            allowed=allowed,
        )
    if province in places:
        return province
    if province not in ruleset.map.provinces:
        names = [p.name for p in ruleset.map.provinces.values()]
        close = difflib.get_close_matches(province, names, n=3)
        raise UnknownName("province", province, tuple(close), rule="R-MAGIC-SUMM-01")
    name = ruleset.map.space_name(province)
    afloat = any(
        u.owner == faction
        and ruleset.kind(u.kind).has(Attribute.SUMMONER)
        and not can_summon_from(ruleset, u)
        for u in state.peek_units()
    )
    why = f"no Summoner of yours stands in {name}"
    if afloat:
        why += " (a Summoner aboard a ship or at sea cannot summon)"
    raise IllegalMuster(
        f"Summoned units go where your Summoner stands: {why}.",
        rule="R-RACE-SUM-01",
        allowed=allowed,
    )


def handle_summon_units(
    state: GameState, order: Order, ruleset: Ruleset, dice: Dice
) -> list[Event]:
    """Summon units in the faction's own turn, at any step (R-MAGIC-SUMM-01, R-RACE-SUM-01,
    R-BUY-05, R-COMM-11, R-ATTR-FORT-06, R-MAGIC-SUMM-04).

    Raises:
        RuleViolation: not the faction's turn (in another faction's turn it summons only when
            a battle round begins, and is asked then), a passive turn (R-PBP-DEAD-03), a
            province where a battle is due or under way; see :func:`check_summonable`.
        IllegalMuster: no Summoner that can summon there; a second Fortification
            (R-ATTR-FORT-06).
        NotEnoughRP: the faction cannot pay.
    """
    assert isinstance(order, SummonUnits)
    faction = order.faction
    fs = state.factions.get(faction)
    if fs is None or fs.eliminated:
        raise RuleViolation(f"{faction} is not in play.", rule="R-VIC-05")
    kind = check_summonable(ruleset, faction, order.kind_id)
    if state.active != faction:
        offer = next(
            (
                d.detail
                for d in state.pending
                if d.kind is DecisionKind.SUMMONS
                and d.faction == faction
                and isinstance(d.detail, SummonsDetail)
            ),
            None,
        )
        if offer is not None:
            where = ruleset.map.space_name(offer.space)
            raise RuleViolation(
                f"In another faction's turn you summon only into the battle at {where}, "
                "whose round is beginning.",
                rule="R-MAGIC-SUMM-01",
                allowed=f"summon into the battle at {where} (name no other province)",
            )
        raise RuleViolation(
            "In another faction's turn you summon only as a round of a battle begins in a "
            "province where your Summoner fights; the bot asks you then.",
            rule="R-MAGIC-SUMM-01",
            allowed="wait for your turn, or for the summons offer of a battle",
        )
    if state.passive:
        raise RuleViolation(
            f"{faction} missed its turn deadline: nothing is bought in a passive turn.",
            rule="R-PBP-DEAD-03",
            allowed="wait for your next turn",
        )
    province = _resolve_place(state, ruleset, faction, order.province)
    name = ruleset.map.space_name(province)
    if hostile_units(state, ruleset, province, faction):
        raise RuleViolation(
            f"A battle is due or under way at {name}: summoned units join it only as one of "
            "its rounds begins, when the bot asks you.",
            rule="R-MAGIC-SUMM-01",
            allowed="summon where no battle is due, or answer the offer as the round begins",
        )
    refusal = fortification_refusal(state, ruleset, kind, province, order.count)
    if refusal is not None:
        raise IllegalMuster(refusal, rule="R-ATTR-FORT-06", allowed="a unit that is no Tower")
    return place_summoned(state, ruleset, faction, kind, province, order.count)


# --------------------------------------------------------------------------- battle round starts


def battle_options(
    state: GameState, ruleset: Ruleset, battle: Battle, side: Side, faction: str
) -> tuple[tuple[str, int], ...]:
    """``(kind id, price)`` of each Summoned kind ``faction`` may summon into ``side`` of
    ``battle`` now and can afford one of: Tower-type units only for the defender
    (R-ATTR-FORT-06, R-COMBAT-15) and only where no Fortification stands (with
    ``summoned_tower_is_fortification``) (R-MAGIC-SUMM-01, R-COMM-11)."""
    rp = state.factions[faction].rp
    out: list[tuple[str, int]] = []
    for kind in summoned_kinds(ruleset, faction):
        if kind.base_type is BaseType.TOWER and (
            side is Side.ATTACKER
            or fortification_refusal(state, ruleset, kind, battle.space, 1) is not None
        ):
            continue
        price = summon_prices(state, faction, kind, 1)[0][0]
        if price <= rp:
            out.append((kind.id, price))
    return tuple(out)


def offer_summons(
    state: GameState, ruleset: Ruleset, dice: Dice, battle: Battle, side: Side
) -> list[Event]:
    """The summons slot of the round-start phase (R-COMBAT-03, R-MAGIC-SUMM-01): each faction
    on ``side`` with a Summoner among its fighting units (not aboard a ship), RP for at least
    one Summoned unit it may summon there, and no "no summons this battle" answer gets a
    ``summons`` decision; the battle waits for the answers (reaction deadline; default: none,
    R-PBP-DEAD-04). Mutates ``state``."""
    fighting = [state.peek_unit(u) for u in battle.units(side)]
    # each kind asked once: most battles have no Summoner at all, and this runs every round
    if not any(ruleset.kind(k).has(Attribute.SUMMONER) for k in {u.kind for u in fighting}):
        return []
    factions = [battle.attacker] if side is Side.ATTACKER else list(battle.defenders)
    events: list[Event] = []
    for faction in factions:
        if faction in battle.no_summons:
            continue
        if not any(u.owner == faction and can_summon_from(ruleset, u) for u in fighting):
            continue
        options = battle_options(state, ruleset, battle, side, faction)
        if not options:
            continue
        decision = PendingDecision(
            id=state.new_id(),
            faction=faction,
            kind=DecisionKind.SUMMONS,
            reaction=faction != state.active,
            detail=SummonsDetail(
                battle=battle.id,
                space=battle.space,
                round=battle.round,
                side=side,
                faction=faction,
                options=options,
                rp=state.factions[faction].rp,
            ),
        )
        state.pending.append(decision)
        events.append(SummonsOffered(faction, battle.id, battle.space, battle.round, decision.id))
    return events


# --------------------------------------------------------------------------- step 8


def vanish_summons(state: GameState, ruleset: Ruleset) -> list[Event]:
    """At the start of a Muster step, of any faction, every Summoned unit on the board is
    destroyed (R-MAGIC-SUMM-02). Mutates ``state``; returns ``[SummonsVanished]`` or nothing."""
    gone = sorted(
        (u for u in state.peek_units() if is_summoned(ruleset.kind(u.kind))), key=lambda u: u.id
    )
    if not gone:
        return []
    for unit in gone:
        del state.units[str(unit.id)]
    return [
        SummonsVanished(
            state.active or "",
            state.round,
            tuple((u.id, u.kind, u.location, u.owner) for u in gone),
        )
    ]


#: Summoning in the faction's own turn, at any step (R-MAGIC-SUMM-01): any faction may give
#: the order; the handler refuses it outside the faction's own turn.
SPEC = StepSpec(
    "summons",
    accepts=(Accepts(SummonUnits, handle_summon_units, Giver.ANY, steps=()),),
)
