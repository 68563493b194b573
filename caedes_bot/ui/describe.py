"""Words for the game: names, labels, offers and turn summaries (ux.md "Every order gets an
answer").

Everything here is a pure function of the static :class:`~caedes_bot.gamedata.model.Ruleset`,
a :class:`~caedes_bot.rules.state.GameState` and events: no discord, no I/O. The announcer
(:mod:`caedes_bot.ui.announcer`), the embeds (:mod:`caedes_bot.ui.embeds`,
:mod:`caedes_bot.ui.battle_embeds`) and the cogs' replies all take their names from here, so a
unit or a province reads the same everywhere. The line of each event is in
:mod:`caedes_bot.ui.lines`, the wording of each step in :mod:`caedes_bot.ui.steps`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from caedes_bot.gamedata.model import Attribute, Ruleset, UnitKind
from caedes_bot.rules import (
    buy,
    collect,
    mercenary,
    muster,
    ownership,
    upkeep,
)
from caedes_bot.rules.combat import events as combat_events
from caedes_bot.rules.events import Event
from caedes_bot.rules.state import GameState

#: What each attribute does, in one sentence, with the rule that says so (``/unit``).
ATTRIBUTE_TEXT: Mapping[Attribute, tuple[str, str]] = {
    Attribute.AMPHIBIAN: (
        "R-ATTR-AMPH-01",
        "may cross one sea zone into a province beside it instead of its normal move, and "
        "ignores the entire-movement cost of rivers and swamps",
    ),
    Attribute.BLITZ: (
        "R-ATTR-BLITZ-02",
        "after a battle its side won as attacker it may go on moving with the movement it has left",
    ),
    Attribute.BREATHWEAPON: (
        "R-ATTR-BREATH-01",
        "may roll three breath dice instead of its own: each 1-4 hits the enemy, each 10 hits "
        "its own side",
    ),
    Attribute.ELITE: ("R-ATTR-ELITE-01", "attacks at +1"),
    Attribute.FEAR: ("R-ATTR-FEAR-01", "in the first round of a battle enemy dice hit on 1 less"),
    Attribute.FLYING: (
        "R-ATTR-FLY-01",
        "may fly up to 4 spaces instead of its normal move, over units, terrain and sea",
    ),
    Attribute.FORTIFICATION: (
        "R-ATTR-FORT-01",
        "never moves or attacks; defends where it stands, one per province",
    ),
    Attribute.FORTITUDE: (
        "R-ATTR-FORTI-01",
        "takes two hits to destroy; the first wounds it, and wounded units are lost when the "
        "battle ends",
    ),
    Attribute.HERO: ("R-ATTR-HERO-01", "comes from the scenario; it is never bought"),
    Attribute.INSPIRING: (
        "R-ATTR-INSP-01",
        "in the first round of a battle its own side's dice hit on 1 more",
    ),
    Attribute.MEEK: ("R-ATTR-MEEK-01", "defends at -1"),
    Attribute.MERCENARY: (
        "R-ATTR-MERC-01",
        "deserts when its faction's mercenaries outnumber its other units in a space or a "
        "battle side",
    ),
    Attribute.MIGHTY: ("R-ATTR-MIGHTY-01", "rolls two dice instead of one"),
    Attribute.MISSILE: (
        "R-ATTR-MISS-01",
        "shoots in the missile step, before melee, and not in the melee step",
    ),
    Attribute.MOUNTAINLORE: (
        "R-ATTR-MTN-01",
        "defends at +1 in mountains; as cavalry it may enter mountains",
    ),
    Attribute.PREDATOR: (
        "R-ATTR-PRED-01",
        "while it attacks, defending cavalry without Predator defends at -1",
    ),
    Attribute.QUICK: ("R-ATTR-QUICK-01", "moves one space further"),
    Attribute.SLOW: ("R-ATTR-SLOW-01", "moves one space less, never below one"),
    Attribute.SWAMPLORE: ("R-ATTR-SWAMP-01", "defends at +1 in swamp"),
    Attribute.UNDEAD: (
        "R-ATTR-UNDEAD-01",
        "pays no upkeep, ignores Fear, Inspiring and Predator, and is lost with its faction's "
        "last Necromancer",
    ),
    Attribute.VETERAN: ("R-ATTR-VET-01", "defends at +1"),
    Attribute.WATERCRAFT: (
        "R-ATTR-WATER-01",
        "moves on sea zones and navigable rivers only and carries land units",
    ),
    Attribute.WEAK: ("R-ATTR-WEAK-01", "attacks at -1"),
    Attribute.WOODLORE: (
        "R-ATTR-WOOD-01",
        "defends at +1 in forest; as cavalry it enters forest at no extra cost, and it may "
        "shoot there",
    ),
    Attribute.ABJURER: (
        "R-MAGIC-ABJ-01",
        "instead of rolling, may cancel the first hit its side assigns to it in a round",
    ),
    Attribute.DIVINER: (
        "R-MAGIC-DIV-01",
        "instead of moving, may divine extra commodities from a province of its faction",
    ),
    Attribute.ENCHANTER: (
        "R-MAGIC-ENCH-01",
        "instead of rolling, may try to turn an enemy unit to its side (4 or less)",
    ),
    Attribute.ILLUSIONIST: (
        "R-MAGIC-ILL-01",
        "once a round may force up to three enemy hits on its side to be rolled again",
    ),
    Attribute.INVOKER: (
        "R-MAGIC-INV-01",
        "instead of rolling, may roll five dice that each hit on 2 or less",
    ),
    Attribute.NECROMANCER: (
        "R-MAGIC-NEC-01",
        "lets its faction muster Undead where it stands; its loss destroys them",
    ),
    Attribute.SUMMONER: (
        "R-MAGIC-SUMM-01",
        "lets its faction buy and place Summoned units where it stands, at any time",
    ),
    Attribute.TELEPORTATION: (
        "R-MAGIC-TELE-01",
        "instead of moving, may take itself and up to 1d10 companions to an empty province",
    ),
}

# --------------------------------------------------------------------------- names


def faction_name(ruleset: Ruleset, code: str) -> str:
    """``"🌅 Dawnians (DAW)"``: emoji, name and code, so colour is never the only cue; an
    unknown code is returned as it is."""
    try:
        faction = ruleset.faction(code)
    except KeyError:
        return code
    return f"{faction.emoji} {faction.name} ({faction.code})".strip()


def faction_adjective(ruleset: Ruleset, code: str | None) -> str:
    """``"Dawnian"``; ``"unowned"`` for ``None``."""
    if code is None:
        return "unowned"
    try:
        return ruleset.faction(code).adjective
    except KeyError:
        return code


def kind_name(ruleset: Ruleset, kind_id: str) -> str:
    """The display name of a unit kind (``"Dawnian Knights"``), or the id if unknown."""
    try:
        return ruleset.kind(kind_id).display_name
    except KeyError:
        return kind_id


def kind_counts(ruleset: Ruleset, kind_ids: Iterable[str]) -> str:
    """``"2 Dawnian Infantry, 1 Dawnian Knights"`` in first-seen order; ``"nothing"`` if empty."""
    counts = Counter(kind_ids)
    if not counts:
        return "nothing"
    return ", ".join(f"{n} {kind_name(ruleset, k)}" for k, n in counts.items())


def space_name(ruleset: Ruleset, space: str) -> str:
    return ruleset.map.space_name(space)


def unit_label(ruleset: Ruleset, unit_id: int, kind_id: str, space: str) -> str:
    """``"Dawnian Knights #4 in Orme"``: one unit, by kind, id and place."""
    return f"{kind_name(ruleset, kind_id)} #{unit_id} in {space_name(ruleset, space)}"


def commodities_text(stock: Mapping[str, int]) -> str:
    """``"2 Grain, 1 Iron"`` (sorted), ``"none"`` if empty."""
    items = [(c, n) for c, n in sorted(stock.items()) if n]
    if not items:
        return "none"
    return ", ".join(f"{n} {c.title()}" for c, n in items)


def kind_stats(kind: UnitKind) -> str:
    """``"A5 D4 M2"``: attack and defense values after attribute modifiers (R-GEN-03) and the
    movement allowance; ``-`` for what a kind never does (a Tower's attack and move)."""
    from caedes_bot.gamedata.model import movement_allowance
    from caedes_bot.rules.combat.arithmetic import attack_value, defense_value

    attack = attack_value(kind)
    move = movement_allowance(kind)
    a = "-" if attack is None else str(attack)
    m = "-" if kind.move is None else str(move)
    return f"A{a} D{defense_value(kind, None)} M{m}"


def province_label(state: GameState, ruleset: Ruleset, province_id: str) -> str:
    """``"Orme (plains, river) - Dawnian - 3 units"``: enough to choose a province from the label
    alone (ux.md "Autocomplete that knows the game"). ``river`` when a river runs along one of
    its borders (R-MOVE-11)."""
    game_map = ruleset.map
    province = game_map.provinces.get(province_id)
    if province is None:
        return game_map.space_name(province_id)
    terrain = [t.value for t in province.terrains]
    if game_map.river_edges_of(province_id):
        terrain.append("river")
    owner = faction_adjective(ruleset, state.owner(province_id))
    units = len(state.units_at(province_id))
    unit_text = "empty" if units == 0 else f"{units} unit{'s' if units != 1 else ''}"
    return f"{province.name} ({', '.join(terrain)}) - {owner} - {unit_text}"


# --------------------------------------------------------------------------- summaries


#: The longest a turn summary may be: one line of an ``#announcements`` post (ux.md).
SUMMARY_LIMIT = 700


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def turn_summary(
    faction: str,
    events: Sequence[Event],
    state: GameState,
    ruleset: Ruleset,
    *,
    whole_turn: bool = True,
) -> str:
    """The ``#announcements`` line for the end of ``faction``'s turn (ux.md "Channels").

    It tells what anyone may see (R-GEN-07: the board is public): provinces taken, units
    mustered, units lost (disbanded, deserted, or destroyed while attacking). Only when the
    campaign option ``public_treasuries`` is on (R-GEN-07) does it add the turn's income (RP and
    commodities), upkeep paid, purchases (less cancellations) and the RP left in ``state``;
    otherwise it holds none of those figures.

    Args:
        faction: the faction code whose turn ended.
        events: the events of this one turn as far as known, in order; only this faction's
            count, and battle casualties on the attacking side (in its turn it attacks,
            R-COMBAT-01).
        state: the state after the turn, for the RP left.
        ruleset: names of factions, provinces and unit kinds.
        whole_turn: ``events`` go back to the start of the turn; when ``False`` the income,
            upkeep and purchase figures are unknown and left out (only the RP left is told).

    Returns:
        One line of at most :data:`SUMMARY_LIMIT` characters.
    """
    from caedes_bot.ui.text import truncate

    taken: list[str] = []
    mustered: list[str] = []
    lost = 0
    income_rp = 0
    income_goods: Counter[str] = Counter()
    upkeep_rp = 0
    paid_upkeep = False
    bought: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    for event in events:
        if isinstance(event, combat_events.CasualtiesRemoved):
            lost += len(event.attacker_destroyed)  # its turn: it attacks (R-COMBAT-01)
            continue
        if getattr(event, "faction", None) != faction:
            continue
        if isinstance(event, ownership.ProvinceCaptured):
            taken.append(space_name(ruleset, event.province))
        elif isinstance(event, muster.UnitsMustered):
            mustered += [kind for _, kind, _ in event.units]
        elif isinstance(event, upkeep.UnitsDisbanded | mercenary.MercenariesDeserted):
            lost += len(event.units)
        elif isinstance(event, collect.IncomeCollected):
            income_rp += event.rp_gained
            income_goods.update(dict(event.commodities))
        elif isinstance(event, upkeep.UpkeepPaid):
            upkeep_rp += event.bill
            paid_upkeep = True
        elif isinstance(event, buy.UnitsBought):
            bought[event.kind_id] += event.count
            spent[event.kind_id] += event.total
        elif isinstance(event, buy.PurchaseCancelled):
            bought[event.kind_id] -= event.count
            spent[event.kind_id] -= event.refund
    seen = []
    if taken:
        seen.append("took " + ", ".join(taken))
    if mustered:
        seen.append("mustered " + kind_counts(ruleset, mustered))
    if lost:
        seen.append("lost " + _plural(lost, "unit"))
    text = f"{faction_name(ruleset, faction)} ends its turn"
    text += (": " + "; ".join(seen) + ".") if seen else "."
    if state.options.public_treasuries:
        treasury = []
        if whole_turn:
            goods = commodities_text(income_goods)
            treasury.append(f"income {income_rp} RP" + (f" and {goods}" if goods != "none" else ""))
            if paid_upkeep:
                treasury.append(f"upkeep paid {upkeep_rp} RP")
            purchases = [
                f"{n} {kind_name(ruleset, k)} for {spent[k]} RP" for k, n in bought.items() if n > 0
            ]
            treasury.append("bought " + (", ".join(purchases) if purchases else "nothing"))
        holdings = state.factions.get(faction)
        if holdings is not None:
            treasury.append(f"{holdings.rp} RP left")
        text += " Treasury (public, R-GEN-07): " + "; ".join(treasury) + "."
    return truncate(text, SUMMARY_LIMIT)


def bundle_text(rp: int | None, commodities: Mapping[str, int] | None) -> str:
    """``"3 RP and 1 Grain"``; ``"nothing"`` if empty."""
    parts = []
    if rp:
        parts.append(f"{rp} RP")
    if commodities:
        parts += [f"{n} {c.title()}" for c, n in sorted(commodities.items()) if n]
    return " and ".join(parts) if parts else "nothing"


def offer_text(
    ruleset: Ruleset,
    proposer: str,
    counterparty: str,
    give_rp: int,
    give: Mapping[str, int],
    receive_rp: int,
    receive: Mapping[str, int],
) -> str:
    """``"🌅 Dawnians (DAW) give 3 RP; 👹 Orcs (ORC) give 1 Iron"`` (R-TRADE-01)."""
    return (
        f"{faction_name(ruleset, proposer)} give {bundle_text(give_rp, give)}; "
        f"{faction_name(ruleset, counterparty)} give {bundle_text(receive_rp, receive)}"
    )
