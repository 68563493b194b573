"""Hostile text for the bot's text parsers (issue: "Hostile input that still logs tracebacks").

What careless, confused or malicious players put into a text option: line breaks and tabs
inside a count list, separators doubled or alone, counts that are huge, negative, zero or in
other scripts' digits, names with curly apostrophes, accents, zero-width and direction marks,
markdown and mentions, control characters, and plain noise of any Unicode. Two sources of the
same pieces:

* :func:`hostile_text`, a hypothesis strategy, for the parser-level property tests;
* :func:`samples`, a fixed list from a seeded generator, for the end-to-end tests (the same
  seed gives the same texts on every run).
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

#: Separators and joiners the parsers read, and the whitespace that breaks them.
SEPARATORS = (",", ";", "@", "x", "×", "*", " ", "  ", "\n", "\r\n", "\t", "\r", "\v", "\f")
#: Counts of every troublesome kind.
COUNTS = (
    "1",
    "2",
    "0",
    "-1",
    "+3",
    "007",
    "99",
    "100",
    "10000",
    "10001",
    "9" * 30,
    "9" * 4400,  # more digits than Python turns into an int
    "١٢",  # Arabic-Indic digits
    "１２",  # full-width digits
    "²",  # a superscript: a digit to the eye, not to a parser
    "1.5",
    "1e3",
    "0x10",
)
#: Names, real and not, as people and phones type them.
NAMES = (
    "grain",
    "Iron",
    "SALT",
    "livestock",
    "timber",
    "cloth",
    "gräin",
    "grain x",
    "Infantry",
    "dawnian   infantry",
    "Knights",
    "U-DAW-01",
    "Tower",
    "Troopers",
    "all",
    "Serpent’s  Tooth",
    "Harrowgate",
    "Bay of Sorrows",
    "orcs",
    "Dawn",
    "Gr",
    "#12",
    "",
)
#: Characters that make trouble in text shown back to people.
ODD = (
    "\u200b",  # zero-width space
    "\u200d",  # zero-width joiner
    "\u202e",  # right-to-left override
    "\ufeff",  # byte order mark
    "\x00",
    "\x1b[31m",
    "**",
    "`",
    "```",
    "<@123>",
    "@everyone",
    "<#456>",
    "||",
    "🐉",
    "e\u0301",  # a combining accent
    "’",
    "“",
    "\\",
    "%s",
    "{0}",
)

_PIECES = (SEPARATORS, COUNTS, NAMES, ODD)


def hostile_text() -> st.SearchStrategy[str]:
    """Text built from the pieces above, mixed with arbitrary Unicode (surrogates excluded)."""
    piece = st.one_of(
        *(st.sampled_from(group) for group in _PIECES),
        st.text(st.characters(exclude_categories=["Cs"]), max_size=12),
    )
    built = st.lists(piece, max_size=14).map("".join)
    noise = st.text(st.characters(exclude_categories=["Cs"]), max_size=60)
    return st.one_of(built, built, noise)


def samples(count: int, seed: int) -> list[str]:
    """``count`` hostile texts from a generator seeded with ``seed``, each one a slash command
    option could hold (not blank, at most 6,000 characters)."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        parts = []
        for _ in range(rng.randint(1, 8)):
            group = rng.choice(_PIECES)
            parts.append(rng.choice(group))
            if rng.random() < 0.15:
                parts.append(chr(rng.randint(0x20, 0x2FFF)))
        text = "".join(parts)
        if text.strip() and len(text) <= 6000:  # Discord: required, at most 6,000 characters
            out.append(text)
    return out
