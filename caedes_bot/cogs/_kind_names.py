"""Unit kinds typed by players (:mod:`caedes_bot.cogs._transformers`): a kind named by id,
display name or short name, or a part of one (R-GEN-04), with near matches for a misspelt
name; the kind to buy or to muster; and the kinds offered while they type (to buy with their
price, to muster, for ``/unit``).

Pure functions of the static ruleset and a game state (no discord).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from caedes_bot.cogs._transformers import MAX_CHOICES, Choice, echo
from caedes_bot.gamedata.model import Ruleset, UnitKind
from caedes_bot.gamedata.names import NAME_MAX, Found, contains, find, fold
from caedes_bot.rules import buy, muster, summons
from caedes_bot.rules.errors import AmbiguousName, UnknownName
from caedes_bot.rules.state import GameState
from caedes_bot.ui.describe import kind_stats
from caedes_bot.ui.summoning import needs_text

# --------------------------------------------------------------------------- resolving


#: What is allowed instead of a name that matches nothing and nothing near.
_PICK_UNIT = "a unit's name (or its start), like Dawnian Infantry; the list offers them as you type"


def _kind_names(kind: UnitKind) -> tuple[str, str, str]:
    return (kind.id, kind.display_name, kind.name)


def _find_kind(text: str, kinds: Sequence[UnitKind]) -> Found[UnitKind]:
    """The kind among ``kinds`` named by ``text`` (see :func:`resolve_kind`): by a name, by the
    start of names, else by a part of the display or short name found in one kind only."""
    found = find(text, ((k, _kind_names(k)) for k in kinds))
    if found.item is not None or found.ambiguous:
        return found
    typed = fold(text)
    if len(typed) > NAME_MAX:
        return Found()
    inside = [k for k in kinds if typed and _inside(typed, k)]
    return Found(inside[0]) if len(inside) == 1 else Found()


def _inside(typed: str, kind: UnitKind) -> bool:
    """Whether ``typed`` (folded) is a part of the display or short name of ``kind``."""
    return typed in fold(kind.display_name) or typed in fold(kind.name)


#: How alike (difflib's ratio) a name must be to what was typed to be suggested.
_CLOSE = 0.6


def kind_suggestions(text: str, kinds: Sequence[UnitKind]) -> tuple[str, ...]:
    """Up to three display names of ``kinds`` near ``text``, compared with both the display
    names and the short names, folded (``"Knigths"`` -> Dawnian Knights, R-GEN-04); only
    names about as close as the closest are offered."""
    by_name: dict[str, list[str]] = {}
    for kind in kinds:
        for name in (kind.display_name, kind.name):
            shown = by_name.setdefault(fold(name), [])
            if kind.display_name not in shown:
                shown.append(kind.display_name)
    typed = fold(text)
    if len(typed) > NAME_MAX:
        return ()
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(typed)  # the typed text is studied once, as difflib.get_close_matches does
    close: list[tuple[float, str]] = []
    for name in by_name:
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= _CLOSE and matcher.quick_ratio() >= _CLOSE:
            score = matcher.ratio()
            if score >= _CLOSE:
                close.append((score, name))
    scored = sorted(close, reverse=True)
    best = scored[0][0] if scored else 0.0
    out: list[str] = []
    for score, name in scored:
        if score < best - 0.1:  # only names about as close as the closest
            break
        out += [d for d in by_name[name] if d not in out]
    if not out:
        out = [k.display_name for k in kinds if typed and _inside(typed, k)]
    return tuple(out[:3])


def resolve_kind(
    ruleset: Ruleset,
    text: str,
    among: Iterable[UnitKind] | None = None,
    *,
    rule: str = "R-BUY-01",
) -> UnitKind:
    """The unit kind named by ``text``: its id, its display name ("Dawnian Knights") or its short
    name ("Knights") as people type them (:func:`caedes_bot.gamedata.names.fold`); the start of
    the names of exactly one kind, or a part of one kind's name only, also counts (R-GEN-04).

    Args:
        among: the kinds to look in (default: every kind of the order of battle).

    Raises:
        UnknownName: no such kind among them, with near matches by display or short name.
        AmbiguousName: ``text`` is the start of the names of several kinds; lists them.
    """
    kinds = list(among) if among is not None else list(ruleset.units.values())
    return resolve_kind_in(ruleset, text, [kinds], rule=rule)


def find_kind(ruleset: Ruleset, text: str) -> UnitKind | None:
    """The kind ``text`` names among every kind (as :func:`resolve_kind`), or ``None``: for an
    autocomplete, which offers and never refuses."""
    return _find_kind(text, list(ruleset.units.values())).item


def resolve_kind_in(
    ruleset: Ruleset, text: str, pools: Sequence[Sequence[UnitKind]], *, rule: str
) -> UnitKind:
    """The kind named by ``text`` in the first of ``pools`` that has it (the member's likeliest
    meaning first: units here, then the faction's own, then everyone's). A full name in any
    pool comes before a start of a name or a part of one.

    Raises:
        UnknownName: in none of them; near matches from the first pool that has some.
        AmbiguousName: in the first pool where ``text`` names anything, it is the start of the
            names of several kinds; lists their display names.
    """
    typed = fold(text)
    for pool in pools:
        for kind in pool:
            if typed in (fold(n) for n in _kind_names(kind)):
                return kind
    for pool in pools:
        found = _find_kind(text, pool)
        if found.item is not None:
            return found.item
        if found.ambiguous:
            names = tuple(dict.fromkeys(k.display_name for k in found.ambiguous))
            raise AmbiguousName("unit", echo(text), names, rule=rule)
    close: tuple[str, ...] = ()
    for pool in pools:
        close = kind_suggestions(text, pool)
        if close:
            break
    unknown = UnknownName("unit", echo(text), close, rule=rule)
    unknown.allowed = _PICK_UNIT
    raise unknown


def kind_to_buy(ruleset: Ruleset, faction: str, text: str) -> UnitKind:
    """The kind named ``text``: looked for in the faction's own order of battle first, then
    among every faction's (so that another faction's unit is refused by R-BUY-01 with a
    reason, not reported unknown).

    Raises:
        UnknownName: no such unit anywhere (near matches from the faction's own list first).
    """
    own = [k for k in ruleset.order_of_battle(faction) if not k.hero]
    return resolve_kind_in(ruleset, text, [own, list(ruleset.units.values())], rule="R-BUY-01")


def kind_to_muster(state: GameState, ruleset: Ruleset, faction: str, text: str) -> UnitKind:
    """The kind named ``text``: looked for among the units ``faction`` bought this turn and has
    not placed first, then its own order of battle, then every faction's (R-MUSTER-01). The
    rules refuse a kind that is not waiting, with the reason and what is.

    Raises:
        UnknownName: no such unit at all.
    """
    waiting = state.factions[faction].purchases
    waiting_kinds = list({k: ruleset.kind(k) for k in waiting}.values())
    own = list(ruleset.order_of_battle(faction))
    pools = [waiting_kinds, own, list(ruleset.units.values())]
    return resolve_kind_in(ruleset, text, pools, rule="R-MUSTER-01")


# --------------------------------------------------------------------------- choices


def kind_choices(ruleset: Ruleset, faction: str | None, current: str) -> list[Choice]:
    """Unit kinds for ``/unit``: the faction's own order of battle first."""
    kinds = sorted(
        (k for k in ruleset.units.values() if contains(current, k.display_name, k.id)),
        key=lambda k: (k.faction != faction, ruleset.turn_order.index(k.faction), k.id),
    )
    out: list[Choice] = []
    for kind in kinds[:MAX_CHOICES]:
        cost = "no cost" if kind.cost is None else f"{kind.cost} RP"
        out.append((f"{kind.display_name} - {cost} - {kind_stats(kind)}", kind.id))
    return out


def buy_choices(state: GameState, ruleset: Ruleset, faction: str, current: str) -> list[Choice]:
    """Units ``faction`` may buy now with their price after discounts (R-BUY-01, R-COMM-09;
    :func:`caedes_bot.rules.buy.buy_options`): the affordable ones first. Label:
    ``"Dawnian Knights - 6 RP - A5 D4 M2"``; an Undead or Summoned unit says what it needs
    (``"- needs a Necromancer: Archursia has one"``, R-RACE-UND-01, R-RACE-SUM-01). Summoned
    units come last: buying one summons it at once (R-MAGIC-SUMM-01)."""
    items: list[tuple[tuple[int, int], Choice]] = []
    offers = [(o.kind, o.price, o.affordable) for o in buy.buy_options(state, ruleset, faction)]
    rp = state.factions[faction].rp
    for kind in summons.summoned_kinds(ruleset, faction):
        price = summons.summon_prices(state, faction, kind, 1)[0][0]
        offers.append((kind, price, price <= rp))
    for index, (kind, price, affordable) in enumerate(offers):
        if not contains(current, kind.display_name, kind.id):
            continue
        note = "" if affordable else " - too dear now"
        need = needs_text(state, ruleset, faction, kind)
        if need:
            note += f" - {need}"
        label = f"{kind.display_name} - {price} RP - {kind_stats(kind)}{note}"
        items.append(((0 if affordable else 1, index), (label, kind.id)))
    items.sort(key=lambda item: item[0])
    return [choice for _, choice in items[:MAX_CHOICES]]


def muster_kind_choices(
    state: GameState, ruleset: Ruleset, faction: str, current: str
) -> list[Choice]:
    """Units bought this turn and waiting for step 8 (R-MUSTER-01): ``"Dawnian Knights (2
    waiting)"``; those with somewhere to go first."""
    waiting: dict[str, int] = {}
    for kind_id in state.factions[faction].purchases:
        waiting[kind_id] = waiting.get(kind_id, 0) + 1
    items: list[tuple[int, Choice]] = []
    for kind_id, count in waiting.items():
        kind = ruleset.kind(kind_id)
        if not contains(current, kind.display_name, kind_id):
            continue
        legal = muster.legal_muster_provinces(state, ruleset, faction, kind_id)
        note = "" if legal else " - nowhere to muster"
        items.append((0 if legal else 1, (f"{kind.display_name} ({count} waiting){note}", kind_id)))
    items.sort(key=lambda item: item[0])
    return [choice for _, choice in items[:MAX_CHOICES]]
