"""What players read about summons, Undead, Heroes and Towers, and the controls of a summons
offer (R-MAGIC-SUMM-01..04, R-ATTR-UNDEAD-03, R-MAGIC-NEC-01, R-ATTR-HERO-01, R-ATTR-FORT-06).

* :func:`summons_components`: on the battle message, while a ``summons`` decision is open: a
  select of the Summoned units on offer (each one chosen summons one unit), and the buttons
  "No summons this round" and "No summons this battle" (custom ids ``sum.<decision>``).
* :func:`board_notes`, :func:`province_notes`, :func:`kind_notes`: the lines ``/status``,
  ``/province`` and ``/unit`` add: the Heroes, the Towers, the summoned units and when they
  vanish, the Undead and the Necromancers they hang on.
* :func:`needs_text`: what an Undead or Summoned unit needs, for ``/buy``'s choices
  ("needs a Necromancer: Archursia has one").

Pure functions of the state and the ruleset: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from caedes_bot.gamedata.model import Attribute, BaseType, Race, Ruleset, UnitKind
from caedes_bot.rules import summons
from caedes_bot.rules.dependants import designated_hero
from caedes_bot.rules.state import GameState, PendingDecision, Step, SummonsDetail, Unit
from caedes_bot.ui import views
from caedes_bot.ui.describe import faction_name, kind_counts, kind_name, space_name

__all__ = [
    "board_notes",
    "kind_notes",
    "needs_text",
    "province_notes",
    "summons_components",
    "summons_decision_text",
    "vanish_text",
]


#: What the Summoners' line of ``/status`` adds in another faction's turn, when ``/summon`` is
#: refused outside a battle (R-MAGIC-SUMM-01).
WHEN_NOT_PLAYING = " in your turn, or into a battle there when the bot asks"


# --------------------------------------------------------------------------- the offer


def summons_decision_text(ruleset: Ruleset, detail: SummonsDetail) -> str:
    """What a ``summons`` decision asks, in a few words."""
    offered = ", ".join(f"{kind_name(ruleset, k)} {p} RP" for k, p in detail.options)
    return (
        f"summon into the battle at {space_name(ruleset, detail.space)} as round "
        f"{detail.round} begins, or not ({offered}; {detail.rp} RP held) (R-MAGIC-SUMM-01)"
    )


def summons_components(
    campaign_id: int, ruleset: Ruleset, decision: PendingDecision
) -> list[views.JSON]:
    """The controls of a ``summons`` decision on the battle message (R-MAGIC-SUMM-01)."""
    detail = decision.detail
    if not isinstance(detail, SummonsDetail):
        return []
    obj = ["sum", decision.id]
    who = faction_name(ruleset, detail.faction)
    options = views.options(
        (f"{kind_name(ruleset, k)} - {price} RP", k) for k, price in detail.options
    )
    return [
        views.select(
            views.custom_id(campaign_id, obj, "pick"),
            options,
            placeholder=f"{who}: summon one of each chosen…",
            min_values=1,
            max_values=len(options),
        ),
        views.button(views.custom_id(campaign_id, obj, "skip"), "No summons this round"),
        views.button(
            views.custom_id(campaign_id, obj, "never"), "No summons this battle", style="danger"
        ),
    ]


# --------------------------------------------------------------------------- when they vanish


def vanish_text(state: GameState, ruleset: Ruleset) -> str:
    """When the summoned units now on the board vanish (R-MAGIC-SUMM-02): at the start of the
    next Muster step of any faction."""
    if state.active is None:
        return "when the next Muster step begins"
    if state.step < Step.MUSTER:
        return f"when step 8 of {faction_name(ruleset, state.active)} begins, this turn"
    return "when the next faction's step 8 begins"


# --------------------------------------------------------------------------- notes


def _where(ruleset: Ruleset, units: Sequence[Unit]) -> str:
    by_place: dict[str, list[str]] = {}
    for unit in units:
        by_place.setdefault(unit.location, []).append(unit.kind)
    return "; ".join(
        f"{space_name(ruleset, p)}: {kind_counts(ruleset, kinds)}"
        for p, kinds in sorted(by_place.items(), key=lambda kv: space_name(ruleset, kv[0]))
    )


def _places(ruleset: Ruleset, units: Sequence[Unit]) -> str:
    names = sorted({space_name(ruleset, u.location) for u in units})
    return ", ".join(names)


def board_notes(state: GameState, ruleset: Ruleset, faction: str) -> list[str]:
    """``/status`` lines on ``faction``'s Hero, Towers, summoned units and Undead."""
    mine = state.peek_units_of(faction)
    kinds = {u.id: ruleset.kind(u.kind) for u in mine}
    lines: list[str] = []
    hero = designated_hero(state, ruleset, faction)
    heroes = [u for u in mine if kinds[u.id].hero]
    if heroes:
        lines.append(f"Heroes (R-ATTR-HERO-01): {_where(ruleset, heroes)}")
    elif hero is not None and not state.factions[faction].hero_alive:
        lines.append(
            f"Your Hero {kind_name(ruleset, hero)} has fallen: your vassals may revoke "
            "their fealty (R-FEAL-03)"
        )
    towers = [u for u in mine if kinds[u.id].has(Attribute.FORTIFICATION)]
    if towers:
        lines.append(f"Fortifications (R-ATTR-FORT-02): {_where(ruleset, towers)}")
    summoned = [u for u in mine if kinds[u.id].race is Race.SUMMONED]
    summoners = [u for u in mine if kinds[u.id].has(Attribute.SUMMONER)]
    if summoned:
        lines.append(
            f"Summoned (R-MAGIC-SUMM-02): {_where(ruleset, summoned)}; they vanish "
            f"{vanish_text(state, ruleset)}, or at once if your last Summoner goes"
        )
    if summoners:
        can = summons.summon_places(state, ruleset, faction)
        where = ", ".join(space_name(ruleset, p) for p in can) or "nowhere now (all afloat)"
        when = "" if state.active == faction else WHEN_NOT_PLAYING  # R-MAGIC-SUMM-01
        lines.append(f"Summoners: {_places(ruleset, summoners)}; /summon into {where}{when}")
    undead = [u for u in mine if kinds[u.id].race is Race.UNDEAD]
    necromancers = [u for u in mine if kinds[u.id].has(Attribute.NECROMANCER)]
    if undead:
        held = (
            f"they hang on your Necromancers at {_places(ruleset, necromancers)}"
            if necromancers
            else "no Necromancer holds them"
        )
        lines.append(
            f"Undead (R-ATTR-UNDEAD-03): {len(undead)}, {held}; all go if the last one is destroyed"
        )
    elif necromancers:
        lines.append(
            f"Necromancers: {_places(ruleset, necromancers)}; Undead muster there in any "
            "number (R-RACE-UND-01)"
        )
    return lines


def province_notes(state: GameState, ruleset: Ruleset, province: str) -> list[str]:
    """``/province`` lines on the Heroes, Fortifications, summoned units and Undead there."""
    here = state.units_at(province)
    lines: list[str] = []
    for unit in here:
        kind = ruleset.kind(unit.kind)
        owner = faction_name(ruleset, unit.owner)
        if kind.hero:
            lines.append(f"{kind.display_name}, Hero of {owner} (R-ATTR-HERO-01)")
        elif kind.has(Attribute.FORTIFICATION):
            what = "summoned " if kind.race is Race.SUMMONED else ""
            lines.append(f"A {what}Fortification of {owner}: {kind.display_name} (R-ATTR-FORT-02)")
    summoned = [u for u in here if ruleset.kind(u.kind).race is Race.SUMMONED]
    if summoned:
        lines.append(
            f"Summoned: {kind_counts(ruleset, [u.kind for u in summoned])}; they vanish "
            f"{vanish_text(state, ruleset)} (R-MAGIC-SUMM-02)"
        )
    undead = [u for u in here if ruleset.kind(u.kind).race is Race.UNDEAD]
    for owner in sorted({u.owner for u in undead}):
        masters = [
            u for u in state.peek_units_of(owner) if ruleset.kind(u.kind).has(Attribute.NECROMANCER)
        ]
        held = f"Necromancers at {_places(ruleset, masters)}" if masters else "no Necromancer"
        count = sum(1 for u in undead if u.owner == owner)
        lines.append(
            f"{count} Undead of {faction_name(ruleset, owner)}, hanging on its {held} "
            "(R-ATTR-UNDEAD-03)"
        )
    return lines


def kind_notes(ruleset: Ruleset, kind: UnitKind, state: GameState | None = None) -> list[str]:
    """``/unit`` lines on how ``kind`` comes onto the board and what keeps it there."""
    lines: list[str] = []
    if kind.hero:
        lines.append(
            "A Hero: placed by the scenario, never bought or discounted; pays upkeep; its "
            "death frees its faction's vassals (R-ATTR-HERO-01, R-FEAL-03)."
        )
    if kind.race is Race.UNDEAD:
        lines.append(
            "Undead: mustered in any number beside a Necromancer of its faction, no upkeep, "
            "and all destroyed when the faction's last Necromancer goes (R-RACE-UND-01, "
            "R-ATTR-UNDEAD-02, R-ATTR-UNDEAD-03)."
        )
    if kind.race is Race.SUMMONED:
        tower = (
            " A Tower type: a Fortification, so never where one stands, and it only defends "
            "(R-ATTR-FORT-06)."
            if kind.base_type is BaseType.TOWER
            else ""
        )
        lines.append(
            "Summoned: bought and placed at once where a Summoner of its faction stands, at "
            "any time (/summon); it vanishes when the next Muster step begins, or when the "
            "faction's last Summoner goes (R-MAGIC-SUMM-01..03)." + tower
        )
    if state is not None and (kind.race in (Race.UNDEAD, Race.SUMMONED)):
        master = Attribute.NECROMANCER if kind.race is Race.UNDEAD else Attribute.SUMMONER
        holders = [u for u in state.peek_units_of(kind.faction) if ruleset.kind(u.kind).has(master)]
        word = "Necromancers" if master is Attribute.NECROMANCER else "Summoners"
        where = _places(ruleset, holders) or "none on the board"
        lines.append(f"{faction_name(ruleset, kind.faction)}'s {word} now: {where}.")
    return lines


def needs_text(state: GameState, ruleset: Ruleset, faction: str, kind: UnitKind) -> str | None:
    """What an Undead or Summoned unit needs, for ``/buy``'s choices: ``"needs a Necromancer:
    Archursia has one"`` (R-RACE-UND-01, R-RACE-SUM-01); ``None`` for other units."""
    if kind.race is Race.UNDEAD:
        places = sorted(
            {
                space_name(ruleset, u.location)
                for u in state.peek_units_of(faction)
                if ruleset.kind(u.kind).has(Attribute.NECROMANCER)
            }
        )
        if not places:
            return "needs a Necromancer: you have none"
        return (
            f"needs a Necromancer: {', '.join(places)} {'has' if len(places) == 1 else 'have'} one"
        )
    if kind.race is Race.SUMMONED:
        spots = [space_name(ruleset, p) for p in summons.summon_places(state, ruleset, faction)]
        if not spots:
            return "summoned: needs a Summoner on land; you have none"
        verb = "has" if len(spots) == 1 else "have"
        return f"summoned at once: needs a Summoner: {', '.join(spots)} {verb} one"
    return None
