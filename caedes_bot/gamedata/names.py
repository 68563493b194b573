"""Names as people type them (R-GEN-04): one folding and one way of matching, used wherever a
typed name is looked up (provinces, units, factions, commodities, terrains, scenarios), in
autocomplete and in the final check alike.

:func:`fold` makes two spellings of one name equal when they differ only by what a keyboard or
a phone changes without the member meaning it:

* typographic apostrophes and quotes (``’ ‘ ʼ ´ ` “ ” „ « »``) become ``'`` and ``"``, and
  typographic dashes become ``-`` (phones put in curly apostrophes: "Serpent’s Tooth");
* accents and other combining marks go ("Orlëan" is "Orlean"), and compatibility forms are
  unified (full-width letters, ligatures);
* invisible format characters (zero-width spaces and joiners) go;
* case is ignored (Unicode case folding), and runs of whitespace of any kind (tabs, line
  breaks, no-break spaces) become one space, none at either end ("Serpent's  Tooth").

:func:`find` matches a typed name against named items: a name equal after folding wins;
otherwise a typed text that is the start of the names of exactly one item is that item, and
the start of several is ambiguous (the caller refuses, listing them).

:func:`canonical` goes one step further for matching: the variant spellings of the sources
(R-GEN-04: "Flight" for Flying, "Missle", "Amphibious", "Necromancy", "Phallanx", "Wood Elf",
"High Elf", "Lizard Man", "Mountain", "Plain", ...) become the one spelling of :data:`VARIANTS`,
on both sides of every comparison, so a name typed or written either way names the same thing.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

_TYPOGRAPHIC = str.maketrans(
    {
        "\u2018": "'",  # left single quotation mark
        "\u2019": "'",  # right single quotation mark (the phones' apostrophe)
        "\u201a": "'",  # single low-9 quotation mark
        "\u201b": "'",  # single high-reversed-9 quotation mark
        "\u2032": "'",  # prime
        "\u02bc": "'",  # modifier letter apostrophe
        "\u00b4": "'",  # acute accent used as an apostrophe
        "`": "'",
        "\u201c": '"',  # left double quotation mark
        "\u201d": '"',  # right double quotation mark
        "\u201e": '"',  # double low-9 quotation mark
        "\u201f": '"',  # double high-reversed-9 quotation mark
        "\u2033": '"',  # double prime
        "\u00ab": '"',  # left-pointing double angle quotation mark
        "\u00bb": '"',  # right-pointing double angle quotation mark
        "\u2010": "-",  # hyphen
        "\u2011": "-",  # non-breaking hyphen
        "\u2012": "-",  # figure dash
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2212": "-",  # minus sign
    }
)


def fold(text: str) -> str:
    """``text`` as it is compared with names (see the module docstring): typographic
    apostrophes, quotes and dashes made plain, accents and invisible characters removed,
    case folded, whitespace collapsed to single spaces and stripped.

    ``fold("  Serpent’s\\u00a0 TOOTH ") == "serpent's tooth"``; folding twice changes nothing.
    Short texts (every name of the game data) are folded once and remembered.
    """
    if len(text) <= _REMEMBERED:
        return _fold_remembered(text)
    return _fold(text)


#: No name is longer than this once folded, so a longer text names nothing (and is not
#: compared with every name, which would take long for 6,000 characters).
NAME_MAX = 100

#: Texts up to this long are remembered once folded (names are; what is typed may be long).
_REMEMBERED = 100


@functools.lru_cache(maxsize=8192)
def _fold_remembered(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    if text.isascii():  # nothing to decompose and no invisible characters: the quick way
        return " ".join(text.translate(_TYPOGRAPHIC).casefold().split())
    decomposed = unicodedata.normalize("NFKD", text).translate(_TYPOGRAPHIC)
    kept = "".join(
        ch
        for ch in decomposed
        if not unicodedata.combining(ch) and unicodedata.category(ch) != "Cf"
    )
    return " ".join(kept.casefold().split())


#: The variant spellings of the sources and the one each stands for (R-GEN-04), folded: whole
#: words or phrases, longest first when applied. "Transmuter" is a unit with Teleportation.
VARIANTS: dict[str, str] = {
    "flight": "flying",
    "missle": "missile",
    "amphibious": "amphibian",
    "necromancy": "necromancer",
    "transmuter": "teleportation",
    "phallanx": "phalanx",
    "withdrawl": "withdrawal",
    "wood elf": "wood elven",
    "high elf": "high elven",
    "lizard man": "lizardman",
    "lizard men": "lizardman",
    "lizardmen": "lizardman",
    "mountain": "mountains",
    "plain": "plains",
    "ocean province": "sea zone",
    "sea province": "sea zone",
    "land zone": "province",
}

_VARIANT_WORDS = sorted(VARIANTS, key=lambda v: (-v.count(" "), v))


def canonical(text: str) -> str:
    """``text`` folded (:func:`fold`), with each variant spelling of :data:`VARIANTS` (a whole
    word or phrase) replaced by the spelling it stands for (R-GEN-04).

    ``canonical("Flight") == "flying"``; ``canonical("Wood Elf Archers") == "wood elven archers"``;
    ``canonical("Lizardmen") == canonical("Lizard Man") == "lizardman"``. Underscores count as
    spaces (``"wood_elf"`` is ``"wood elven"``), so enum values compare too.
    """
    return _canonical(fold(text))


@functools.lru_cache(maxsize=8192)
def _canonical(folded: str) -> str:
    words = folded.replace("_", " ").split(" ")
    out: list[str] = []
    at = 0
    while at < len(words):
        for variant in _VARIANT_WORDS:
            size = variant.count(" ") + 1
            if " ".join(words[at : at + size]) == variant:
                out.append(VARIANTS[variant])
                at += size
                break
        else:
            out.append(words[at])
            at += 1
    return " ".join(out)


def contains(needle: str, *texts: str) -> bool:
    """Whether the folded ``needle`` is empty or found in one of ``texts`` folded (or, R-GEN-04,
    in their :func:`canonical` forms): the test an autocomplete applies to what has been typed
    so far."""
    folded = fold(needle)
    if not folded or any(folded in fold(t) for t in texts):
        return True
    same = _canonical(folded)
    return any(same in canonical(t) for t in texts)


@dataclass(frozen=True, slots=True)
class Found(Generic[T]):
    """What :func:`find` made of a typed name.

    Attributes:
        item: the one item meant, or ``None``.
        ambiguous: when ``item`` is ``None``, the items whose names all start with the text
            (two or more, in the order given); empty when nothing matched.
    """

    item: T | None = None
    ambiguous: tuple[T, ...] = ()


def find(text: str, entries: Iterable[tuple[T, Iterable[str]]]) -> Found[T]:
    """The item among ``entries`` (``(item, its names)``) that ``text`` names (R-GEN-04).

    A name equal to ``text`` after :func:`fold` wins (the first such item, in the order given),
    then one equal in :func:`canonical` form (a variant spelling, R-GEN-04);
    otherwise ``text`` may be the start of names: of one item, that item; of several, they are
    returned as :attr:`Found.ambiguous`. An empty text names nothing, and neither does one
    longer than :data:`NAME_MAX` once folded.
    """
    typed = fold(text)
    if not typed or len(typed) > NAME_MAX:
        return Found()
    listed = [(item, [fold(n) for n in names]) for item, names in entries]
    for item, names in listed:
        if typed in names:
            return Found(item)
    same = _canonical(typed)  # a variant spelling names the same thing (R-GEN-04)
    for item, names in listed:
        if same in (_canonical(n) for n in names):
            return Found(item)
    starts: list[T] = []
    for item, names in listed:
        if item not in starts and any(
            n.startswith(typed) or _canonical(n).startswith(same) for n in names
        ):
            starts.append(item)
    if len(starts) == 1:
        return Found(starts[0])
    return Found(None, tuple(starts))
