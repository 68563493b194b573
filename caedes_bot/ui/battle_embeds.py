"""The battle message in #battles and its controls (ux.md "The battle message", R-COMBAT-16).

:class:`BattleHistory` is what the announcer gathers of a battle; :func:`battle_message` turns it
into the one embed of the battle, with every die, and the controls of the decisions it waits
for: Press on / Withdraw, the casualty select (:func:`casualty_options`, read back by
:func:`casualty_assignment`), and after a won battle the blitz and landing controls. Like
:mod:`caedes_bot.ui.embeds` (whose turn panel shares the landing controls and the wording of a
pending decision), each function is a pure function of the ruleset, a game state and plain
values, and nothing here decides a rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from caedes_bot.gamedata.model import Attribute, Ruleset
from caedes_bot.rules.combat import arithmetic, sides
from caedes_bot.rules.combat.arithmetic import (
    BattleResult,
    CasualtyGroup,
    casualty_groups,
    spread_hits,
)
from caedes_bot.rules.combat.events import AttackerWithdrew, BattleEnded
from caedes_bot.rules.movement import amphibian, blitz
from caedes_bot.rules.state import (
    BattleNote,
    BattleStepRecord,
    BlitzDetail,
    CasualtiesDetail,
    CasualtyCandidate,
    ComeAshoreDetail,
    DeclarationsDetail,
    DiePurpose,
    Enchantment,
    GameState,
    MercenariesDetail,
    PendingDecision,
    PressOrWithdrawDetail,
    Side,
    StandingOrder,
    SummonsDetail,
)
from caedes_bot.ui import battle_magic, mercenaries, views
from caedes_bot.ui.describe import faction_name, kind_counts, kind_name, space_name
from caedes_bot.ui.embeds import (
    BLITZ_PLACEHOLDER,
    BLITZ_STOP,
    ashore_components,
    decision_text,
    faction_colour,
    timestamp,
)
from caedes_bot.ui.odds import OPENING_PENDING, opening_text
from caedes_bot.ui.summoning import summons_components
from caedes_bot.ui.text import (
    EMBED_DESCRIPTION_LIMIT,
    EMBED_FIELD_VALUE_LIMIT,
    fit_embed,
    truncate,
)

JSON = dict[str, Any]

#: Characters of round detail kept on a battle message before earlier rounds are folded.
BATTLE_DETAIL_BUDGET = 3500

#: The battle message's select of a retreat by sea (R-ATTR-AMPH-03).
SEAWARD_PLACEHOLDER = "Withdraw; Amphibians retreat by sea to…"
#: A won battle's message once what it led to (a blitz, a landing) is answered.
AFTER_BATTLE_ANSWERED = (
    "After this battle nothing more is asked: the blitz or the landing is settled."
)


@dataclass
class BattleHistory:
    """Everything a battle message shows, gathered by the announcer from the state and the
    events (R-COMBAT-16, R-GEN-08).

    Attributes:
        id, space, attacker, defenders: as in :class:`~caedes_bot.rules.state.Battle`.
        records: every missile and melee step so far, with every die.
        attacker_units / defender_units: units still fighting on each side.
        kinds / owners: unit id -> kind id / faction, for every unit seen in the battle.
        withdrawals: the attacker's withdrawals. ended: the end, if it has ended.
        round: the current round.
        notes: changes of declarations and of sides (R-COMBAT-12, R-MAGIC-ENCH-01, -03).
        standing / illusion_rules / enchanted: as in the battle (R-COMBAT-12,
            R-MAGIC-ILL-01, R-MAGIC-ENCH-01).
    """

    id: int
    space: str
    attacker: str
    defenders: tuple[str, ...]
    records: list[BattleStepRecord] = field(default_factory=list)
    attacker_units: list[int] = field(default_factory=list)
    defender_units: list[int] = field(default_factory=list)
    kinds: dict[int, str] = field(default_factory=dict)
    owners: dict[int, str] = field(default_factory=dict)
    withdrawals: list[AttackerWithdrew] = field(default_factory=list)
    ended: BattleEnded | None = None
    round: int = 1
    #: the odds it began with (option ``battle_message_odds``): figures, method, unsupported
    opening: tuple[tuple[float, ...], str, tuple[str, ...]] = ((), "", ())
    #: the option ``battle_message_odds`` asked for its odds, not known yet
    opening_pending: bool = False
    notes: list[BattleNote] = field(default_factory=list)
    standing: list[StandingOrder] = field(default_factory=list)
    illusion_rules: dict[str, int] = field(default_factory=dict)
    enchanted: list[Enchantment] = field(default_factory=list)


def _unit_name(ruleset: Ruleset, history: BattleHistory, uid: int) -> str:
    kind = history.kinds.get(uid)
    return f"{kind_name(ruleset, kind)} #{uid}" if kind else f"unit #{uid}"


def _dice_text(
    ruleset: Ruleset, history: BattleHistory, record: BattleStepRecord, side: Side
) -> str:
    dice = [d for d in record.dice if d.side is side]
    if not dice:
        return "no dice"
    if all(d.purpose is DiePurpose.NORMAL and d.counts for d in dice):
        parts = []
        for d in dice:
            face = f"**{d.value}**" if d.hit else str(d.value)
            parts.append(f"{_unit_name(ruleset, history, d.unit)}: {face} vs {d.target}")
        return " · ".join(parts)
    names = {d.unit: _unit_name(ruleset, history, d.unit) for d in dice}
    return battle_magic.dice_line(dice, names, record.dice)


def _names(ruleset: Ruleset, history: BattleHistory, ids: Iterable[int]) -> dict[int, str]:
    return {u: _unit_name(ruleset, history, u) for u in ids}


def _step_text(ruleset: Ruleset, history: BattleHistory, record: BattleStepRecord) -> str:
    lines = [f"__Round {record.round}, {record.step.value} step__"]
    lines.append(f"Attacker: {_dice_text(ruleset, history, record, Side.ATTACKER)}")
    lines.append(f"Defender: {_dice_text(ruleset, history, record, Side.DEFENDER)}")
    result = f"Hits: {record.hits_on_defender} on the defender, {record.hits_on_attacker} on the attacker."
    if record.destroyed:
        result += (
            " Lost: " + ", ".join(_unit_name(ruleset, history, u) for u in record.destroyed) + "."
        )
    if record.wounded:
        result += (
            " Wounded: " + ", ".join(_unit_name(ruleset, history, u) for u in record.wounded) + "."
        )
    if record.absorbed:
        result += (
            " Hit cancelled by (R-MAGIC-ABJ-01): "
            + ", ".join(_unit_name(ruleset, history, u) for u in record.absorbed)
            + "."
        )
    lines.append(result)
    return "\n".join(lines)


def _notes_text(ruleset: Ruleset, history: BattleHistory, round_no: int) -> list[str]:
    out = []
    for note in history.notes:
        if note.round == round_no:
            ids = (*note.units, *note.enchanters)
            out.append(battle_magic.note_text(ruleset, note, _names(ruleset, history, ids)))
    return out


def _fold(records: Sequence[BattleStepRecord]) -> str:
    rounds = sorted({r.round for r in records})
    on_attacker = sum(r.hits_on_attacker for r in records)
    on_defender = sum(r.hits_on_defender for r in records)
    lost = sum(len(r.destroyed) for r in records)
    span = f"Round {rounds[0]}" if len(rounds) == 1 else f"Rounds {rounds[0]}–{rounds[-1]}"
    return (
        f"*{span}: {on_defender} hits on the defender, {on_attacker} on the attacker; "
        f"{lost} units lost.*"
    )


def battle_detail(
    ruleset: Ruleset, history: BattleHistory, budget: int = BATTLE_DETAIL_BUDGET
) -> str:
    """Every step of the battle with every die (R-GEN-08); the oldest rounds fold into one
    summary line when the text would pass ``budget`` characters (ux.md "The battle message")."""
    rounds = sorted({r.round for r in history.records} | {n.round for n in history.notes})
    blocks = {
        n: "\n".join(
            [
                *_notes_text(ruleset, history, n),
                *(_step_text(ruleset, history, r) for r in history.records if r.round == n),
            ]
        )
        for n in rounds
    }
    kept: list[int] = []
    used = 0
    for n in reversed(rounds):
        size = len(blocks[n]) + 2
        if kept and used + size > budget:
            break
        kept.insert(0, n)
        used += size
    text = "\n\n".join(blocks[n] for n in kept)
    folded = [r for r in history.records if r.round not in kept]
    if folded:
        text = _fold(folded) + "\n\n" + text
    return truncate(text, budget + 200) if text else "The first round is about to be fought."


def _side_units(state: GameState, ruleset: Ruleset, history: BattleHistory, side: Side) -> str:
    ids = history.attacker_units if side is Side.ATTACKER else history.defender_units
    if not ids:
        return "none left"
    fighters = []
    for uid in ids:
        if str(uid) in state.units:  # read only: no copy (decision 0012)
            unit = state.peek_unit(uid)
            fighters.append(sides.fighter_of(state, ruleset, unit, side, history.space))
    ctx = arithmetic.step_context(fighters, history.round, state.options)
    groups: Counter[tuple[str, int | None, bool, str | None]] = Counter()
    for f in fighters:
        terrain = f.terrain.value if f.terrain is not None else None
        groups[(f.kind.id, arithmetic.die_target(f, ctx), f.wounded, terrain)] += 1
    parts = []
    for (kind_id, target, wounded, terrain), n in groups.items():
        value = "never rolls" if target is None else f"hits on {target} or less"
        extra = ", wounded" if wounded else ""
        where = f", on {terrain}" if terrain else ""
        parts.append(f"{n} {kind_name(ruleset, kind_id)} ({value}{where}{extra})")
    return "\n".join(parts) or "none left"


RESULT_TEXT: Mapping[BattleResult, str] = {
    BattleResult.ATTACKER_WON: "the attacker won",
    BattleResult.DEFENDER_HELD: "the defender held",
    BattleResult.BOTH_DESTROYED: "both sides were destroyed",
    BattleResult.WITHDRAWN: "the attacker withdrew",
    BattleResult.STALEMATE: "stalemate (R-COMBAT-13)",
}


def battle_message(
    campaign_id: int,
    state: GameState,
    ruleset: Ruleset,
    history: BattleHistory,
    *,
    deadlines: Mapping[int, datetime | None] | None = None,
) -> tuple[discord.Embed, list[JSON]]:
    """The one message of a battle in #battles (ux.md "The battle message", R-COMBAT-16): the
    province and the terrain each side uses, each side's units with their values, every die
    with the unit that rolled it and its target (hits in bold), casualties and wounds, and,
    while a decision is owed, its controls and deadline; at the end the result, the owner and
    the survivors.

    Args:
        deadlines: decision id -> deadline, for the decisions owed.

    Returns:
        The embed and the component rows (empty once the battle has ended).
    """
    province = ruleset.map.provinces.get(history.space)
    terrain = f" ({', '.join(t.value for t in province.terrains)})" if province else ""
    title = f"⚔️ Battle at {space_name(ruleset, history.space)}{terrain}"
    embed = discord.Embed(title=title, colour=faction_colour(ruleset, history.attacker))
    detail = battle_detail(ruleset, history)
    if history.opening[0]:
        detail = f"{opening_text(ruleset, history.attacker, *history.opening)}\n{detail}"
    elif history.opening_pending:
        detail = f"{OPENING_PENDING}\n{detail}"
    embed.description = truncate(detail, EMBED_DESCRIPTION_LIMIT)
    defenders = ", ".join(faction_name(ruleset, d) for d in history.defenders)
    embed.add_field(
        name=f"Attacker: {faction_name(ruleset, history.attacker)}",
        value=truncate(
            _side_units(state, ruleset, history, Side.ATTACKER), EMBED_FIELD_VALUE_LIMIT
        ),
        inline=True,
    )
    embed.add_field(
        name=f"Defender: {defenders}",
        value=truncate(
            _side_units(state, ruleset, history, Side.DEFENDER), EMBED_FIELD_VALUE_LIMIT
        ),
        inline=True,
    )
    standing = _standing_text(ruleset, history)
    if standing:
        embed.add_field(
            name="Standing declarations (R-COMBAT-12)",
            value=truncate(standing, EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    if history.enchanted and history.ended is None:
        taken = ", ".join(
            f"{_unit_name(ruleset, history, e.unit)} fights for {faction_name(ruleset, e.faction)}"
            f" (enchanted by {_unit_name(ruleset, history, e.enchanter)})"
            for e in history.enchanted
        )
        embed.add_field(
            name="Enchanted (R-MAGIC-ENCH-01)",
            value=truncate(taken, EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    for withdrawal in history.withdrawals:
        back = ", ".join(
            f"{_unit_name(ruleset, history, u)} to {space_name(ruleset, d)}"
            for u, d in zip(withdrawal.unit_ids, withdrawal.destinations, strict=False)
        )
        embed.add_field(
            name="Withdrawn (R-COMBAT-08)",
            value=truncate(back, EMBED_FIELD_VALUE_LIMIT),
            inline=False,
        )
    rows: list[JSON] = []
    if history.ended is not None:
        after = [d for d in state.pending if after_battle_of(d) == history.id]
        if after:
            embed.add_field(
                name="Waiting for",
                value="\n".join(
                    f"{faction_name(ruleset, d.faction)}: {decision_text(ruleset, d)}"
                    for d in after
                ),
                inline=False,
            )
            rows = views.layout(after_battle_components(campaign_id, state, ruleset, history.id))
        ended = history.ended
        owner = faction_name(ruleset, ended.owner) if ended.owner else "nobody"
        survivors = (
            f"attacker: {kind_counts(ruleset, [history.kinds.get(u, '?') for u in ended.attacker_survivors])}; "
            f"defender: {kind_counts(ruleset, [history.kinds.get(u, '?') for u in ended.defender_survivors])}"
        )
        text = f"**{RESULT_TEXT[ended.result].capitalize()}.** {space_name(ruleset, ended.space)} is held by {owner}.\nSurvivors: {survivors}."
        if ended.destroyed_at_end:
            lost = ", ".join(_unit_name(ruleset, history, u) for u in ended.destroyed_at_end)
            text += f"\nLost at the end of the battle (R-ATTR-FORTI-02): {lost}."
        embed.add_field(
            name="Result (R-COMBAT-11)", value=truncate(text, EMBED_FIELD_VALUE_LIMIT), inline=False
        )
    else:
        owed = [d for d in state.pending if d.battle_id == history.id]
        lines = []
        items: list[JSON] = []
        for decision in owed:
            due = (deadlines or {}).get(decision.id)
            picks = (
                battle_magic.picks_text(ruleset, decision.detail)
                if isinstance(decision.detail, DeclarationsDetail)
                else None
            )
            lines.append(
                f"{faction_name(ruleset, decision.faction)}: {decision_text(ruleset, decision)}"
                + (f", by {timestamp(due)}" if due else "")
                + (f"; {picks}, then Confirm" if picks else "")
            )
            items += decision_components(campaign_id, ruleset, decision, state)
        items += battle_magic.change_buttons(campaign_id, ruleset, state, history.id)
        if lines:
            embed.add_field(
                name="Waiting for",
                value=truncate("\n".join(lines), EMBED_FIELD_VALUE_LIMIT),
                inline=False,
            )
        rows = views.layout(items)
    embed.set_footer(text=f"Battle {history.id} · round {history.round}")
    return fit_embed(embed), rows


def after_battle_of(decision: PendingDecision) -> int | None:
    """The battle a decision asked after it ended belongs to: a blitz (R-ATTR-BLITZ-02) or
    Amphibian units going ashore (R-ATTR-AMPH-02); ``None`` for any other."""
    detail = decision.detail
    if isinstance(detail, BlitzDetail | ComeAshoreDetail):
        return detail.after_battle
    return None


def after_battle_components(
    campaign_id: int, state: GameState, ruleset: Ruleset, battle_id: int
) -> list[JSON]:
    """The controls a battle message keeps after battle ``battle_id`` ended, while a decision
    it led to is pending: **Blitz on to…** and **Stop the blitz** (R-ATTR-BLITZ-02), or
    **Go ashore at…** and **Back where they came from** (R-ATTR-AMPH-02). Each names its
    decision (``dec.<id>``), so a click after it was answered, or on an earlier blitz's
    controls after a second battle, changes nothing."""
    items: list[JSON] = []
    for decision in state.pending:
        if after_battle_of(decision) != battle_id:
            continue
        obj: list[object] = ["dec", decision.id]
        if isinstance(decision.detail, ComeAshoreDetail):
            items += ashore_components(campaign_id, ruleset, obj, decision)
            continue
        reach = blitz.blitz_destinations(state, ruleset, decision.faction)
        options = [
            views.option(space_name(ruleset, s) + (" - starts a battle" if attack else ""), s)
            for s, attack in sorted(reach.items(), key=lambda kv: space_name(ruleset, kv[0]))
        ][:25]
        if options:
            items.append(
                views.select(
                    views.custom_id(campaign_id, obj, "blitz"),
                    options,
                    placeholder=BLITZ_PLACEHOLDER,
                )
            )
        items.append(
            views.button(views.custom_id(campaign_id, obj, "stop"), BLITZ_STOP, style="secondary")
        )
    return items


def _standing_text(ruleset: Ruleset, history: BattleHistory) -> str:
    factions = list(
        dict.fromkeys([*(o.faction for o in history.standing), *history.illusion_rules])
    )
    lines = []
    for code in factions:
        orders = [o for o in history.standing if o.faction == code]
        text = battle_magic.orders_text(ruleset, orders, history.illusion_rules.get(code))
        lines.append(f"{faction_name(ruleset, code)}: {text}")
    return "\n".join(lines)


def decision_components(
    campaign_id: int,
    ruleset: Ruleset,
    decision: PendingDecision,
    state: GameState | None = None,
) -> list[JSON]:
    """The controls of one battle decision: Press on / Withdraw (R-COMBAT-08) and, given the
    ``state``, a select of the provinces its Amphibian units may retreat to by sea
    (R-ATTR-AMPH-03); or the casualty select with a "Use default" button (R-COMBAT-06)."""
    obj = ["dec", decision.id]
    detail = decision.detail
    if isinstance(detail, PressOrWithdrawDetail):
        items = [
            views.button(
                views.custom_id(campaign_id, obj, "press"), "Press on", style="primary", emoji="⚔️"
            ),
            views.button(
                views.custom_id(campaign_id, obj, "withdraw"), "Withdraw", style="danger", emoji="🏳️"
            ),
        ]
        retreats = (
            amphibian.sea_retreats(
                state, ruleset, detail.space, decision.faction, detail.can_withdraw
            )
            if state is not None
            else {}
        )
        if retreats:
            options = [
                views.option(f"{space_name(ruleset, p)} (across {space_name(ruleset, sea)})", p)
                for p, sea in retreats.items()
            ][:25]
            items.append(
                views.select(
                    views.custom_id(campaign_id, obj, "seaward"),
                    options,
                    placeholder=SEAWARD_PLACEHOLDER,
                )
            )
        return items
    if isinstance(detail, CasualtiesDetail):
        hits = detail.hits
        options = casualty_options(ruleset, detail)
        who = faction_name(ruleset, detail.faction)
        default = casualty_default_text(ruleset, detail)
        return [
            views.select(
                views.custom_id(campaign_id, obj, "pick"),
                options,
                placeholder=f"{who}: choose {hits} casualt{'y' if hits == 1 else 'ies'}",
                min_values=min(hits, len(options)),
                max_values=min(hits, len(options)),
            ),
            views.button(
                views.custom_id(campaign_id, obj, "default"),
                f"Use default: {default}",
            ),
        ]
    if isinstance(detail, SummonsDetail):
        return summons_components(campaign_id, ruleset, decision)
    if isinstance(detail, MercenariesDetail):
        return mercenaries.components(campaign_id, ruleset, decision)  # R-ATTR-MERC-01
    return battle_magic.components(campaign_id, ruleset, decision)


def casualty_default_text(ruleset: Ruleset, detail: CasualtiesDetail) -> str:
    """The default casualties of a decision (R-COMBAT-06), e.g. ``"2 Orc Troopers"``."""
    kinds = {u.id: u.kind for u in detail.units}
    return kind_counts(ruleset, [kinds.get(u, "?") for u in dict.fromkeys(detail.default)])


def casualty_options(ruleset: Ruleset, detail: CasualtiesDetail) -> list[JSON]:
    """The options of a casualty select (R-COMBAT-06, R-ATTR-FORTI-01; ux.md "Casualties with
    many units").

    With room for every hit a unit can take, one option per hit: ``u<id>`` for a unit and
    ``u<id>b`` for a Fortitude unit's second hit. Otherwise by unit kind and wound: ``g<n>:<k>``
    is the k-th hit on group n (units of one kind and wound state), as many as the hits owed.
    The default is preselected.
    """
    units = detail.units
    hits = detail.hits
    default_ids = Counter(detail.default)
    slots = sum(u.max_hits for u in units)
    out: list[JSON] = []
    if slots <= 25:
        for u in sorted(units, key=lambda u: u.id):
            uid = u.id
            name = f"{kind_name(ruleset, u.kind)} #{uid}"
            # a unit that can take two hits without Fortitude is an Abjurer with its cancel
            shield = u.max_hits >= 2 and not _has_fortitude(ruleset, u.kind)
            first = "destroyed" if u.max_hits == 1 else "wounded"
            out.append(
                views.option(
                    name + (" (wounded)" if u.wounded else ""),
                    f"u{uid}",
                    description="hit cancelled (Abjurer, R-MAGIC-ABJ-01)" if shield else first,
                    default=default_ids[uid] >= 1,
                )
            )
            if u.max_hits >= 2:
                second = "R-MAGIC-ABJ-01" if shield else "Fortitude, R-ATTR-FORTI-01"
                out.append(
                    views.option(
                        f"{name}: second hit",
                        f"u{uid}b",
                        description=f"destroyed ({second})",
                        default=default_ids[uid] >= 2,
                    )
                )
        return out
    for index, group in enumerate(_groups(units)):
        ids = group.unit_ids
        room = sum(u.max_hits for u in units if u.id in ids)
        chosen = sum(default_ids[i] for i in ids)
        hurt = " (wounded)" if group.wounded else ""
        for k in range(1, min(hits, room) + 1):
            label = f"{len(ids)} {kind_name(ruleset, group.kind)}{hurt}: hit {k}"
            out.append(views.option(label, f"g{index}:{k}", default=k <= chosen))
    return out[:25]


def _has_fortitude(ruleset: Ruleset, kind_id: str) -> bool:
    try:
        return ruleset.kind(kind_id).has(Attribute.FORTITUDE)
    except KeyError:
        return False


def _groups(units: Sequence[CasualtyCandidate]) -> list[CasualtyGroup]:
    """The rules' groups of like units (:func:`caedes_bot.rules.combat.arithmetic.casualty_groups`)."""
    return casualty_groups((u.id, u.kind, u.wounded) for u in units)


def casualty_assignment(detail: CasualtiesDetail, values: Sequence[str]) -> tuple[int, ...]:
    """The unit ids (one per hit, R-COMBAT-06) chosen with :func:`casualty_options` values.

    A group's hits spread over its units as the rules say
    (:func:`caedes_bot.rules.combat.arithmetic.spread_hits`: in turn, each taking as many as it
    can, a Fortitude unit two, before the next). Unknown values are ignored; the rules check
    the result.
    """
    units = detail.units
    capacity = {u.id: u.max_hits for u in units}
    chosen: list[int] = []
    per_group: Counter[int] = Counter()
    for value in values:
        if value.startswith("u"):
            digits = value[1:].rstrip("b")
            if digits.isdigit() and int(digits) in capacity:
                chosen.append(int(digits))
        elif value.startswith("g") and ":" in value:
            head = value[1:].split(":", 1)[0]
            if head.isdigit():
                per_group[int(head)] += 1
    groups = _groups(units)
    for index, count in sorted(per_group.items()):
        if index < len(groups):
            chosen += spread_hits([(uid, capacity[uid]) for uid in groups[index].unit_ids], count)
    return tuple(chosen)
