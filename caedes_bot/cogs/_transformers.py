"""Names typed by players, and the choices offered while they type (ux.md "Autocomplete that
knows the game"): what every parser of typed text shares, and the factions, commodities and
trade offers typed.

The parsers are split by what they read: places in :mod:`caedes_bot.cogs._place_names`, unit
kinds in :mod:`caedes_bot.cogs._kind_names`, the units on the board in
:mod:`caedes_bot.cogs._unit_names`, and the rest here. Each has two halves, both pure functions
of the static ruleset and a game state (no discord), so they are tested without a bot:

* **resolving** what a member typed into ids, with near-match suggestions for a misspelt name
  (``No province 'Ormee'. Did you mean Orme?``):
  :func:`~caedes_bot.cogs._place_names.resolve_province`,
  :func:`~caedes_bot.cogs._kind_names.resolve_kind`, :func:`resolve_faction`,
  :func:`~caedes_bot.cogs._unit_names.parse_units`,
  :func:`~caedes_bot.cogs._unit_names.pick_units`. Names are matched as people type them,
  folded by :func:`caedes_bot.gamedata.names.fold` (curly apostrophes, doubled spaces, case,
  accents), and a unique start of a name counts; a start shared by several names is refused,
  listing them;
* **choices** for autocomplete: ONLY what is legal now, best first (the member's own places
  first), labelled so the label alone is enough to choose ("Orme (plains, river) - Dawnian -
  3 units"), at most 25, labels under 100 characters. Each returns ``(label, value)`` pairs;
  :func:`caedes_bot.ui.text.choices` turns them into Discord choices. The commands still check
  the final value: autocomplete is a help, never a guarantee. Both halves match names with the
  same folding, so what the autocomplete finds the command accepts.

Here: :data:`MAX_CHOICES` and :data:`Choice`, quoting back what was typed (:func:`echo`),
counts typed as text (:func:`parse_count`), factions (:func:`resolve_faction`,
:func:`faction_choices`), commodities (:func:`parse_bundle`) and trade offers
(:func:`offer_choices`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from caedes_bot.gamedata.loader import suggest
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.gamedata.names import contains, find
from caedes_bot.rules.errors import AmbiguousName, RuleViolation, UnknownName, quoted
from caedes_bot.rules.state import GameState

#: At most this many choices (Discord's limit).
MAX_CHOICES = 25

Choice = tuple[str, str]


def echo(text: str) -> str:
    """What the member typed, on one line and short enough to quote back."""
    return quoted(text)


# --------------------------------------------------------------------------- counts


_COUNTED = re.compile(
    r"(?:(?P<count>[-+]?\d+)\s*[x×*]?\s*)?(?P<name>.*)", re.IGNORECASE | re.DOTALL
)


def counted(part: str) -> tuple[str | None, str]:
    """One item of a count list (``"2 knights"``, ``"2xU-DAW-01"``, ``"grain"``) as its count's
    digits (``None`` if it has none) and the name after them. Any text is read: whitespace of
    any kind, line breaks included, counts as one space."""
    one_line = " ".join(part.split())
    match = _COUNTED.fullmatch(one_line)
    if match is None:  # the name takes any text, so this does not happen
        return None, one_line
    return match["count"], match["name"]


#: At most this many of one item in a count typed as text (units of a kind to move,
#: commodities of a set).
MAX_TEXT_COUNT = 99


def parse_count(digits: str, typed: str, *, most: int = MAX_TEXT_COUNT, rule: str) -> int:
    """The count ``digits`` (an optional sign and decimal digits) found in ``typed``, from 1 to
    ``most``.

    The digits are measured before they become a number, so a count of thousands of digits is
    refused at once (Python will not read more than 4,300 digits) and never makes anything
    that many times.

    Raises:
        RuleViolation: 0 or negative, or more than ``most``; cites ``rule``.
    """
    value = digits.strip()
    magnitude = value.lstrip("+-").lstrip("0")
    allowed = f"a count from 1 to {most}"
    if value.startswith("-") or not magnitude:
        raise RuleViolation(
            f"Counts must be positive: '{echo(typed)}'.", rule=rule, allowed=allowed
        )
    if len(magnitude) > len(str(most)) or int(magnitude) > most:
        raise RuleViolation(
            f"At most {most} of one item: '{echo(typed)}' is too many.", rule=rule, allowed=allowed
        )
    return int(magnitude)


# --------------------------------------------------------------------------- factions


def resolve_faction(
    ruleset: Ruleset, text: str, codes: Sequence[str], *, rule: str = "R-SETUP-02"
) -> str:
    """The faction code among ``codes`` named by ``text``: code, name or adjective as people
    type them (:func:`caedes_bot.gamedata.names.fold`), or the start of exactly one of those
    (R-GEN-04).

    Raises:
        UnknownName: none of ``codes`` (a faction of the game that is not in this campaign is
            said to be so), with near matches and the factions allowed.
        AmbiguousName: ``text`` is the start of the names of several of ``codes``.
    """

    def entries(pool: Iterable[str]) -> list[tuple[str, tuple[str, str, str]]]:
        out = []
        for code in pool:
            faction = ruleset.faction(code)
            out.append((code, (code, faction.name, faction.adjective)))
        return out

    found = find(text, entries(codes))
    if found.item is not None:
        return found.item
    allowed = ", ".join(f"{ruleset.faction(c).name} ({c})" for c in codes) or "none"
    if found.ambiguous:
        names = tuple(ruleset.faction(c).name for c in found.ambiguous)
        error: RuleViolation = AmbiguousName("faction", echo(text), names, rule=rule)
        error.allowed = allowed
        raise error
    others = [f.code for f in ruleset.factions if f.code not in codes]
    elsewhere = find(text, entries(others)).item
    if elsewhere is not None:
        name = ruleset.faction(elsewhere).name
        raise RuleViolation(
            f"The {name} are not in play in this campaign.", rule=rule, allowed=allowed
        )
    near = suggest(text, [*codes, *(ruleset.faction(c).name for c in codes)])
    error = UnknownName("faction", echo(text), near, rule=rule)
    error.allowed = allowed
    raise error


def faction_choices(
    ruleset: Ruleset, codes: Sequence[str], current: str, first: Sequence[str] = ()
) -> list[Choice]:
    """Factions among ``codes`` matching ``current``; those in ``first`` come first."""
    out: list[tuple[bool, Choice]] = []
    for code in codes:
        faction = ruleset.faction(code)
        if not contains(current, faction.name, code, faction.adjective):
            continue
        out.append((code not in first, (f"{faction.emoji} {faction.name} ({code})", code)))
    out.sort(key=lambda item: item[0])
    return [choice for _, choice in out[:MAX_CHOICES]]


# --------------------------------------------------------------------------- commodities, offers


def parse_bundle(
    text: str | None, *, rule: str = "R-TRADE-04", most: int = MAX_TEXT_COUNT
) -> dict[str, int]:
    """Commodities typed as ``"2 grain, 1 iron"`` (a name alone counts 1; repeats add up)
    into ``{"grain": 2, "iron": 1}`` (R-COMM-01 names, near matches suggested).

    Args:
        most: the largest count of one item (checked before the digits become a number).

    Raises:
        UnknownName: not a commodity. RuleViolation: a count below 1 or above ``most``.
    """
    from caedes_bot.rules.redeem import parse_commodity

    bundle: dict[str, int] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        digits, named = counted(part)
        count = parse_count(digits, part, most=most, rule=rule) if digits else 1
        commodity = parse_commodity(named or part, rule=rule).value
        bundle[commodity] = bundle.get(commodity, 0) + count
    return bundle


def offer_choices(
    state: GameState, ruleset: Ruleset, faction: str, current: str, *, as_proposer: bool
) -> list[Choice]:
    """Open trade offers ``faction`` may answer (as counterparty) or withdraw (as proposer)
    (R-TRADE-02): ``"#12 from Dawnians: they give 3 RP; you give 1 Iron"``."""
    from caedes_bot.ui.describe import bundle_text

    out: list[Choice] = []
    for offer in state.trades:
        mine = offer.proposer if as_proposer else offer.counterparty
        if mine != faction:
            continue
        other = offer.counterparty if as_proposer else offer.proposer
        name = ruleset.faction(other).name
        give = bundle_text(offer.give_rp, offer.give_commodities)
        get = bundle_text(offer.receive_rp, offer.receive_commodities)
        if as_proposer:
            label = f"#{offer.id} to {name}: you give {give}; they give {get}"
        else:
            label = f"#{offer.id} from {name}: they give {give}; you give {get}"
        if contains(current, label):
            out.append((label, str(offer.id)))
    return out[:MAX_CHOICES]
