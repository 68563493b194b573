"""The special actions on the battle message (R-COMBAT-12, R-COMBAT-16, R-ATTR-BREATH-01,
R-MAGIC-ABJ-01, R-MAGIC-INV-01, R-MAGIC-ENCH-01..03, R-MAGIC-ILL-01): how their dice read, the
standing declarations and the changes of sides, and the controls of their decisions.

Dice: a breath die is marked 🔥, an invoker die ✨, the enchant die 🌀; a breath 10 that hits
its own side is marked "own side"; a rerolled die is struck through with its reroll beside it;
a die that does not count because its Illusionist acted instead is struck through.

Controls (``dec.<decision>``, see :mod:`caedes_bot.ui.components`):

* ``declare_actions``: one select per unit kind (``declare``, object part ``<kind>``) whose
  values are ``<count>`` or ``<count>a`` (and ask me again every round); one select for the
  Illusionists' rule (``illusion``, values ``0`` = ask each time, ``1``..``3`` hits); a
  **Use defaults** button. With a single thing to choose, the select answers the decision.
  With several, each select is a partial answer recorded on the decision (it survives a
  restart, and choosing the same twice changes nothing) and a **Confirm** button
  (``confirm``) answers it: kinds not picked keep their standing count or default.
* ``illusion_reroll``: a select of the eligible dice (``reroll``, values: their place in the
  step), a **No reroll** button (``keep``) and a **Use default** button.
* ``enchant_victim``: a select of the units (``enchant``) and a **Use default** button.
* **Change declarations** (``chg.<battle>.<faction>:open``), for a faction with standing
  declarations and none owed: a private menu of the same selects
  (``chg.<battle>.<faction>.<kind>:declare``, ``chg.<battle>.<faction>:illusion``), each pick
  changing its standing order from the next round start; picking what already stands changes
  nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.combat.actions import DeclareActions, DeclaredKind, change_detail
from caedes_bot.rules.combat.orders import ChooseEnchanted, RerollDice
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import (
    BattleAction,
    BattleDie,
    BattleNote,
    DecisionDetail,
    DecisionKind,
    DeclarableKind,
    DeclarationsDetail,
    DiePurpose,
    EnchantVictimDetail,
    GameState,
    NoteKind,
    PendingDecision,
    RerollDetail,
    StandingOrder,
)
from caedes_bot.ui import views
from caedes_bot.ui.describe import faction_name, kind_counts, kind_name, space_name

JSON = dict[str, Any]

#: How each action reads in a declaration (R-COMBAT-12).
ACTION_VERB: Mapping[BattleAction, str] = {
    BattleAction.BREATH: "breathe",
    BattleAction.ABJURE: "abjure",
    BattleAction.ENCHANT: "enchant",
    BattleAction.INVOKE: "invoke",
}

#: The mark of each kind of special die on the battle message.
PURPOSE_MARK: Mapping[DiePurpose, str] = {
    DiePurpose.NORMAL: "",
    DiePurpose.BREATH: "🔥",
    DiePurpose.INVOKE: "✨",
    DiePurpose.ENCHANT: "🌀",
}

#: The most counts one declaration select offers (each count twice: with and without asking).
MOST_COUNT = 11


def die_face(d: BattleDie) -> str:
    """One die's face as the battle message shows it: hits in bold, a special die's mark,
    "own side" for a breath 10 (R-ATTR-BREATH-01), "enchants" for a successful enchant die."""
    face = f"**{d.value}**" if d.hit or d.own_side else str(d.value)
    if d.purpose is DiePurpose.ENCHANT:
        face += " (enchants)" if d.hit else ""
    if d.own_side:
        face += " (own side)"
    return PURPOSE_MARK[d.purpose] + face


def dice_line(
    dice: Sequence[BattleDie], name: Mapping[int, str], all_dice: Sequence[BattleDie]
) -> str:
    """The dice of one side, grouped by unit: ``"Military Engineer #3: 🔥2 🔥7 🔥**10** (own
    side) vs 4"``. A rerolled die is struck through with its reroll beside it (R-MAGIC-ILL-01);
    a void die is struck through. ``all_dice``: the step's dice, to find each reroll."""
    rerolls = {d.replaces: d for d in all_dice if d.replaces is not None}
    parts: list[str] = []
    current: int | None = None
    faces: list[str] = []
    target: int | None = None

    def flush() -> None:
        if current is not None:
            parts.append(f"{name.get(current, f'unit #{current}')}: {' '.join(faces)} vs {target}")

    for d in dice:
        if d.replaces is not None:
            continue  # shown beside the die it replaced
        if d.unit != current:
            flush()
            current, faces, target = d.unit, [], d.target
        if d.rerolled:
            place = next((n for n, x in enumerate(all_dice) if x is d), -1)
            new = rerolls.get(place)
            text = f"~~{d.value}~~"
            if new is not None:
                text += f"→{die_face(new)}"
            faces.append(PURPOSE_MARK[d.purpose] + text)
        elif d.void:
            faces.append(f"~~{d.value}~~ (Illusionist acts)")
        else:
            faces.append(die_face(d))
    flush()
    return " · ".join(parts) if parts else "no dice"


def orders_text(
    ruleset: Ruleset, orders: Sequence[StandingOrder], illusion_threshold: int | None
) -> str:
    """A faction's standing declarations: ``"1 Military Engineer breathes every round; the
    Illusionists reroll whenever 2 or more hits land"`` (R-COMBAT-12, R-MAGIC-ILL-01)."""
    parts = []
    for o in orders:
        what = f"{o.count} {kind_name(ruleset, o.kind)} {ACTION_VERB[o.action]} every round"
        if o.ask:
            what += " (asked each round)"
        parts.append(what)
    if illusion_threshold is not None:
        if illusion_threshold <= 0:
            parts.append("the Illusionists are asked each time hits land")
        else:
            parts.append(f"the Illusionists reroll whenever {illusion_threshold} or more hits land")
    return "; ".join(parts) or "no special actions"


def note_text(ruleset: Ruleset, note: BattleNote, name: Mapping[int, str]) -> str:
    """One change on the battle message: a declaration, units changing sides or coming back."""
    who = faction_name(ruleset, note.faction)
    if note.kind is NoteKind.DECLARED:
        how = " (by default: the deadline passed)" if note.by_default else ""
        return (
            f"📜 {who} declares{how}: {orders_text(ruleset, note.orders, note.illusion_threshold)}."
        )
    units = ", ".join(name.get(u, f"unit #{u}") for u in note.units)
    if note.kind is NoteKind.ENCHANTED:
        by = ", ".join(name.get(u, f"unit #{u}") for u in note.enchanters)
        return (
            f"🌀 {units} of {who} enchanted by {by}: fights for the other side from the next round."
        )
    return f"🌀 {units} of {who} freed: its Enchanter fell, it fights for its owner again."


def picks_text(ruleset: Ruleset, detail: DeclarationsDetail) -> str | None:
    """What a declaration of several kinds has picked so far, before **Confirm**
    (R-COMBAT-12): ``"picked so far: 1 Dawnian Cleric abjure every round; Dawnian Mesmer not
    yet"``; ``None`` while nothing is picked."""
    if detail.illusion_chosen is None and all(c.chosen is None for c in detail.choices):
        return None
    parts = []
    for c in detail.choices:
        name = kind_name(ruleset, c.kind)
        if c.chosen is None:
            parts.append(f"{name} not yet")
            continue
        what = f"{c.chosen} {name} {ACTION_VERB[c.action]} every round"
        parts.append(what + (" (asked each round)" if c.chosen_ask else ""))
    if detail.illusionists:
        rule = detail.illusion_chosen
        if rule is None:
            parts.append("the Illusionists' rule not yet")
        elif rule <= 0:
            parts.append("the Illusionists are asked each time hits land")
        else:
            parts.append(f"the Illusionists reroll whenever {rule} or more hits land")
    return "picked so far: " + "; ".join(parts)


def decision_text(ruleset: Ruleset, detail: DecisionDetail) -> str | None:
    """What a magic decision asks, in a few words; ``None`` for other kinds."""
    if isinstance(detail, DeclarationsDetail):
        where = space_name(ruleset, detail.space)
        return f"declare special actions in the battle at {where} (R-COMBAT-12)"
    if isinstance(detail, RerollDetail):
        where = space_name(ruleset, detail.space)
        return f"choose the Illusionist's rerolls in the battle at {where} (R-MAGIC-ILL-01)"
    if isinstance(detail, EnchantVictimDetail):
        where = space_name(ruleset, detail.space)
        n = len(detail.enchanters)
        return f"choose {n} unit{'s' if n > 1 else ''} to lose to enchantment at {where} (R-MAGIC-ENCH-01)"
    return None


def _declare_options(
    ruleset: Ruleset, kind: str, action: BattleAction, units: int, picked: str | None = None
) -> list[JSON]:
    verb = ACTION_VERB[action]
    top = min(units, MOST_COUNT)
    out = [
        views.option(f"{n} of {units} {verb} every round", str(n), default=picked == str(n))
        for n in range(top, -1, -1)
    ]
    out += [
        views.option(
            f"{n} of {units} {verb}, ask me each round", f"{n}a", default=picked == f"{n}a"
        )
        for n in range(top, -1, -1)
    ]
    return out[:25]


def several_choices(detail: DeclarationsDetail) -> bool:
    """Whether a declaration asks more than one thing (then selects give partial answers and
    a **Confirm** button answers)."""
    return len(detail.choices) + (1 if detail.illusionists else 0) > 1


def _picked(choice: DeclarableKind) -> str | None:
    """The value a decision's partial pick of ``choice`` shows preselected."""
    if choice.chosen is None:
        return None
    return f"{choice.chosen}{'a' if choice.chosen_ask else ''}"


def _standing(choice: DeclarableKind) -> str | None:
    """The value of ``choice``'s standing order, preselected in the change menu."""
    if choice.standing is None:
        return None
    return f"{choice.standing}{'a' if choice.ask else ''}"


def _declaration_selects(
    campaign_id: int,
    ruleset: Ruleset,
    obj: Sequence[object],
    detail: DeclarationsDetail,
    *,
    picked_of: Callable[[DeclarableKind], str | None],
    illusion_picked: int | None = None,
) -> list[JSON]:
    """One select per kind (at most three) and the Illusionists' select, under ``obj``."""
    items: list[JSON] = []
    for choice in detail.choices[:3]:
        items.append(
            views.select(
                views.custom_id(campaign_id, [*obj, choice.kind], "declare"),
                _declare_options(
                    ruleset, choice.kind, choice.action, choice.units, picked_of(choice)
                ),
                placeholder=f"{kind_name(ruleset, choice.kind)}: how many "
                f"{ACTION_VERB[choice.action]}? (default {choice.default})",
            )
        )
    if detail.illusionists:
        shown = detail.illusion_chosen if illusion_picked is None else illusion_picked
        items.append(
            views.select(
                views.custom_id(campaign_id, obj, "illusion"),
                [
                    views.option(
                        "Illusionists: ask me each time hits land", "0", default=shown == 0
                    ),
                    *(
                        views.option(
                            f"Illusionists: reroll whenever {n}+ hits land",
                            str(n),
                            default=shown == n,
                        )
                        for n in (1, 2, 3)
                    ),
                ],
                placeholder=f"Illusionists' standing rule (default: {detail.illusion_default}+ hits)",
            )
        )
    return items


def change_buttons(
    campaign_id: int, ruleset: Ruleset, state: GameState, battle_id: int
) -> list[JSON]:
    """A **Change declarations** button (``chg.<battle>.<faction>:open``) for each faction with
    standing declarations in the battle under way and no declaration owed (R-COMBAT-12)."""
    battle = state.battle
    if battle is None or battle.id != battle_id:
        return []
    owed = {
        d.faction
        for d in state.pending
        if d.battle_id == battle_id and d.kind is DecisionKind.DECLARE_ACTIONS
    }
    factions = dict.fromkeys([*(o.faction for o in battle.standing), *battle.illusion_rules])
    return [
        views.button(
            views.custom_id(campaign_id, ["chg", battle_id, code], "open"),
            f"Change declarations: {faction_name(ruleset, code)}",
            emoji="📜",
        )
        for code in factions
        if code not in owed
    ]


def change_menu(
    campaign_id: int, ruleset: Ruleset, state: GameState, faction: str
) -> tuple[str, list[JSON]] | None:
    """The private menu of **Change declarations**: the same selects as a declaration, each
    preselected with the standing order, each pick a change from the next round start
    (R-COMBAT-12); ``None`` when ``faction`` has nothing to declare in the battle under way."""
    battle = state.battle
    if battle is None:
        return None
    detail = change_detail(state, ruleset, battle, faction)
    if detail is None:
        return None
    obj: list[object] = ["chg", battle.id, faction]
    rows = views.layout(
        _declaration_selects(
            campaign_id,
            ruleset,
            obj,
            detail,
            picked_of=_standing,
            illusion_picked=battle.illusion_rules.get(faction),
        )
    )
    now = orders_text(
        ruleset,
        [o for o in battle.standing if o.faction == faction],
        battle.illusion_rules.get(faction),
    )
    text = (
        f"Standing declarations of {faction_name(ruleset, faction)}: {now}.\n"
        "Each choice below changes one kind from the next round start (R-COMBAT-12)."
    )
    return text, rows


def change_order(
    faction: str, action: str, parts: Sequence[str], values: Sequence[str]
) -> tuple[Order, str]:
    """The order a pick in the **Change declarations** menu gives (``chg.<battle>.<faction>``
    [``.<kind>``]): a change of that kind or of the Illusionists' rule, from the next round
    start (partial, so a declaration owed meanwhile only records it) (R-COMBAT-12)."""
    value = values[0] if values else ""
    if action == "illusion":
        threshold = int(value) if value.isdigit() else -1
        return DeclareActions(faction, (), threshold, partial=True), (
            "Illusionists' rule changed from the next round (R-MAGIC-ILL-01)."
        )
    kind = parts[3] if len(parts) > 3 else ""
    return DeclareActions(faction, (declared_kind(kind, value),), partial=True), (
        "Declaration changed from the next round (R-COMBAT-12)."
    )


def components(campaign_id: int, ruleset: Ruleset, decision: PendingDecision) -> list[JSON]:
    """The controls of a magic decision (see the module docstring); ``[]`` for other kinds."""
    obj: list[object] = ["dec", decision.id]
    detail = decision.detail
    if isinstance(detail, DeclarationsDetail):
        items = _declaration_selects(campaign_id, ruleset, obj, detail, picked_of=_picked)
        if several_choices(detail):
            items.append(
                views.button(
                    views.custom_id(campaign_id, obj, "confirm"),
                    "Confirm (kinds not chosen: standing order or default)",
                    style="primary",
                )
            )
        items.append(views.button(views.custom_id(campaign_id, obj, "default"), "Use defaults"))
        return items
    if isinstance(detail, RerollDetail):
        return [
            views.select(
                views.custom_id(campaign_id, obj, "reroll"),
                [
                    views.option(
                        f"{kind_name(ruleset, c.kind)} #{c.unit}: {c.value} vs {c.target}",
                        str(c.index),
                        description=f"{c.purpose.value} die",
                        default=c.index in detail.default,
                    )
                    for c in detail.dice
                ],
                placeholder=f"Force up to {detail.most} hits to be rerolled",
                min_values=1,
                max_values=detail.most,
            ),
            views.button(views.custom_id(campaign_id, obj, "keep"), "No reroll"),
            views.button(
                views.custom_id(campaign_id, obj, "default"),
                f"Use default: reroll {len(detail.default)}",
            ),
        ]
    if isinstance(detail, EnchantVictimDetail):
        n = len(detail.enchanters)
        kinds = {u.id: u.kind for u in detail.units}
        default = kind_counts(ruleset, [kinds.get(u, "?") for u in detail.default])
        return [
            views.select(
                views.custom_id(campaign_id, obj, "enchant"),
                [
                    views.option(
                        f"{kind_name(ruleset, u.kind)} #{u.id}"
                        + (" (wounded)" if u.wounded else ""),
                        str(u.id),
                        default=u.id in detail.default,
                    )
                    for u in detail.units
                ],
                placeholder=f"Choose {n} unit{'s' if n > 1 else ''} the enchantment takes",
                min_values=n,
                max_values=n,
            ),
            views.button(views.custom_id(campaign_id, obj, "default"), f"Use default: {default}"),
        ]
    return []


def declared_kind(kind: str, value: str) -> DeclaredKind:
    """A declaration select's value (``<count>`` or ``<count>a``) for ``kind``; a value that
    does not read gives the count -1, which the rules refuse."""
    ask = value.endswith("a")
    digits = value.removesuffix("a")
    return DeclaredKind(kind, int(digits) if digits.isdigit() else -1, ask)


def order_for(
    decision: PendingDecision, action: str, parts: Sequence[str], values: Sequence[str]
) -> tuple[Order, str] | None:
    """The order a click on a magic decision's control gives, and a headline for the reply;
    ``None`` when the decision is not a magic one. Values that do not read are left out (the
    rules check the order)."""
    detail = decision.detail
    faction = decision.faction
    if isinstance(detail, DeclarationsDetail):
        if action == "default":
            choices = tuple(DeclaredKind(c.kind, c.default) for c in detail.choices)
            threshold = detail.illusion_default if detail.illusionists else None
            return DeclareActions(
                faction, choices, threshold
            ), "Declared: the defaults (R-COMBAT-12)."
        if action == "confirm":
            return DeclareActions(faction), "Declared (R-COMBAT-12)."
        partial = several_choices(detail)
        later = " Choose the other kinds, then press Confirm." if partial else ""
        if action == "illusion":
            value = values[0] if values else ""
            threshold = int(value) if value.isdigit() else -1
            return DeclareActions(
                faction, (), threshold, partial=partial
            ), f"Illusionists' rule set (R-MAGIC-ILL-01).{later}"
        kind = parts[2] if len(parts) > 2 else ""
        value = values[0] if values else ""
        return (
            DeclareActions(faction, (declared_kind(kind, value),), partial=partial),
            f"Declared (R-COMBAT-12).{later}",
        )
    if isinstance(detail, RerollDetail):
        if action == "default":
            return RerollDice(faction, detail.default), "Rerolls: the default (R-MAGIC-ILL-01)."
        if action == "keep":
            return RerollDice(faction, ()), "No reroll (R-MAGIC-ILL-01)."
        places = tuple(int(v) for v in values if v.isdigit())
        return RerollDice(faction, places), "Rerolls chosen (R-MAGIC-ILL-01)."
    if isinstance(detail, EnchantVictimDetail):
        if action == "default":
            return ChooseEnchanted(
                faction, detail.default
            ), "Enchanted: the default (R-MAGIC-ENCH-01)."
        ids = tuple(int(v) for v in values if v.isdigit())
        return ChooseEnchanted(faction, ids), "Enchanted units chosen (R-MAGIC-ENCH-01)."
    return None
