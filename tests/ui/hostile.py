"""Hostile clicks, generated (issue: hostile input): custom ids and chosen values that a damaged
message, an older bot or a forged client could send, for every kind of control of
:data:`caedes_bot.ui.components.SHAPES`.

Every click starts from a control the bot could really show in the skirmish world of these
tests (campaign 1, the Dawnians' turn in game round 1; campaign 2 is another campaign of the
same server) and gets at least one defect that the bot must refuse:

* :func:`broken` breaks the grammar (too few or too many parts, a round that is no number, a
  number with a leading zero or too many digits, an unknown kind, action, faction, space or
  unit kind, a select sent as a button, bad values, or no custom id of the bot at all);
  :func:`~caedes_bot.ui.components.read_control` must refuse it with ``BadControl``;
* :func:`well_formed` keeps the grammar but names what the campaign clicked in does not hold
  (another campaign of the server, an unknown campaign, a faction not in play, another round
  or step, an unknown decision or offer): it is read, and the handlers must refuse it.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, replace
from functools import cache

from hypothesis import strategies as st

from caedes_bot.ui.components import SHAPES, Part, Value

#: The campaign the clicks are made in, and another campaign of the same server.
HOME, OTHER = 1, 2
#: Factions of the game data that are not in play in the skirmish.
NOT_IN_PLAY = ("WEL", "LIZ", "DWA", "HEL")

#: A part of each kind the bot could write for the Dawnians' first turn.
GOOD_PART = {
    Part.FACTION: "DAW",
    Part.ROUND: "1",
    Part.STEP: "1",
    Part.NUMBER: "1",
    Part.SPACE: "harrowgate",
    Part.KIND: "U-DAW-01",
    Part.COUNT: "1",
}
#: A value of each shape the bot could offer.
GOOD_VALUE = {
    Value.SPACE: "harrowgate",
    Value.KIND: "U-DAW-01",
    Value.STACK: "harrowgate|U-DAW-01",
    Value.COUNT: "1",
    Value.UNIT: "4",
    Value.CASUALTY: "u4",
    Value.DECLARE: "2a",
    Value.NUMBER: "0",
}


@dataclass(frozen=True)
class Click:
    """A click to send: the custom id, whether the control is a select, and its values."""

    custom_id: str
    select: bool
    values: tuple[str, ...] = ()
    #: what is wrong with it, for the failure message
    defect: str = ""


@dataclass(frozen=True)
class Plan:
    """A control the bot could show: campaign, object parts, action."""

    campaign: str
    parts: tuple[str, ...]
    action: str
    select: bool
    values: tuple[str, ...]

    def click(self, defect: str) -> Click:
        return Click(
            f"caedes:{self.campaign}:{'.'.join(self.parts)}:{self.action}",
            self.select,
            self.values,
            defect,
        )


def plan_of(kind: str, action: str) -> Plan:
    """The control ``kind``/``action`` as the bot could show it (a valid starting point)."""
    shape = SHAPES[kind]
    found = shape.actions[action]
    parts = (kind, *(GOOD_PART[p] for p in (*shape.parts, *found.extra)))
    values = (GOOD_VALUE[found.values],) if found.values is not None else ()
    return Plan(str(HOME), parts, action, found.is_select, values)


def _parts_of(plan: Plan) -> tuple[Part, ...]:
    shape = SHAPES[plan.parts[0]]
    return (*shape.parts, *shape.actions[plan.action].extra)


_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")
_OBJECT_CHARS = string.ascii_letters + string.digits + "_-"

#: Text of any kind, including what phones and forged clients send.
any_text = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=40
)
#: Text that may sit inside an object (no dot, no colon).
part_text = st.text(_OBJECT_CHARS, min_size=1, max_size=12)

#: A "number" the bot never writes: signs, letters, leading zeros, spaces, other digits.
bad_numbers = st.one_of(
    st.sampled_from(["", "x", "-1", "+1", "1.5", "1e3", "01", "00", " 1", "１", "٣", "NaN"]),
    st.integers(10**9, 10**40).map(str),
    any_text.filter(lambda t: _NUMBER.fullmatch(t) is None),
)
#: A faction code that the game data does not know.
bad_factions = st.one_of(
    st.sampled_from(["daw", "ZZZ", "D", "DAWNIANS", "DAW!", "", "Daw", "ＤＡＷ"]),
    any_text.filter(lambda t: t not in {"DAW", "ORC", "ACH", *NOT_IN_PLAY}),
)
#: A name (space or unit kind) that the game data does not know.
bad_names = st.one_of(
    st.sampled_from(["atlantis", "U-XXX-99", "Harrowgate", "harrowgate ", "", "..", "u-daw-01"]),
    any_text.filter(lambda t: t not in {"harrowgate", "U-DAW-01"}),
)
#: A campaign id as the bot never writes it.
bad_campaigns = st.one_of(
    st.sampled_from(["0", "00", "01", "-1", "", "x", " 1", "１"]),
    st.integers(10**18, 10**60).map(str),
    any_text.filter(lambda t: re.fullmatch(r"[1-9][0-9]{0,17}", t) is None),
)
_CASUALTY_LIKE = re.compile(r"u[1-9][0-9]*b?|g[0-9]+:[1-9][0-9]*")
#: Values of no shape the bot offers, by shape.
BAD_VALUES = {
    Value.SPACE: bad_names,
    Value.KIND: bad_names,
    Value.STACK: st.one_of(
        bad_names, bad_names.map(lambda n: f"{n}|U-DAW-01"), st.just("harrowgate")
    ),
    Value.COUNT: st.one_of(bad_numbers, st.just("0")),
    Value.UNIT: bad_numbers,
    Value.CASUALTY: st.one_of(
        st.sampled_from(["u", "u0", "ub", "g", "g0", "g0:0", "g01:1", "x4", "4", "u4bb"]),
        any_text.filter(lambda t: _CASUALTY_LIKE.fullmatch(t) is None),
    ),
    Value.DECLARE: st.one_of(
        st.sampled_from(["a", "aa", "01", "2b", "-1", "2aa", " 2"]),
        any_text.filter(lambda t: re.fullmatch(r"(0|[1-9][0-9]{0,8})a?", t) is None),
    ),
    Value.NUMBER: bad_numbers,
}
#: Parts of no form the bot writes, by part.
BAD_PARTS = {
    Part.FACTION: bad_factions,
    Part.ROUND: bad_numbers,
    Part.NUMBER: bad_numbers,
    Part.COUNT: st.one_of(bad_numbers, st.just("0")),
    Part.STEP: st.one_of(st.sampled_from(["0", "9", "10", "99", "-1"]), bad_numbers),
    Part.SPACE: bad_names,
    Part.KIND: bad_names,
}
ACTIONS = sorted({a for shape in SHAPES.values() for a in shape.actions})


def _with(plan: Plan, defect: str, **changes: object) -> Click:
    return replace(plan, **changes).click(defect)


def _part_changed(plan: Plan, index: int, text: str, defect: str) -> Click:
    parts = list(plan.parts)
    parts[index + 1] = text
    return _with(plan, defect, parts=tuple(parts))


def _broken_of(plan: Plan) -> list[st.SearchStrategy[Click]]:
    """Every way to break ``plan``'s grammar, each a strategy."""
    kind, shape_parts = plan.parts[0], _parts_of(plan)
    cid = plan.click("").custom_id
    ways: list[st.SearchStrategy[Click]] = [
        bad_campaigns.map(lambda c: _with(plan, "campaign", campaign=c)),
        st.integers(0, len(plan.parts) - 1).map(
            lambda keep: _with(plan, "fewer parts", parts=plan.parts[:keep] or ("",))
        ),
        st.lists(part_text, min_size=1, max_size=3).map(
            lambda extra: _with(plan, "more parts", parts=(*plan.parts, *extra))
        ),
        st.one_of(any_text, part_text)
        .filter(lambda t: t not in SHAPES)
        .map(lambda k: _with(plan, "unknown kind", parts=(k, *plan.parts[1:]))),
        st.one_of(st.sampled_from(ACTIONS), any_text)
        .filter(lambda a: a not in SHAPES[kind].actions)
        .map(lambda a: _with(plan, "unknown action", action=a)),
        st.just(
            _with(
                plan,
                "control type",
                select=not plan.select,
                values=() if plan.select else (GOOD_VALUE[Value.SPACE],),
            )
        ),
        st.integers(41, 120).map(
            lambda n: _with(plan, "too long", parts=(*plan.parts[:-1], plan.parts[-1] + "9" * n))
        ),
        st.one_of(
            any_text.filter(lambda t: not t.startswith("caedes:")),
            st.sampled_from(
                [
                    cid.replace(":", ";"),
                    cid.replace("caedes:", "Caedes:"),
                    cid + ":",
                    cid + "\n",
                    " " + cid,
                    "caedes::" + ".".join(plan.parts) + ":" + plan.action,
                    cid.replace(".", ":"),
                ]
            ),
        ).map(lambda text: Click(text, plan.select, plan.values, "not ours")),
    ]
    for index, part in enumerate(shape_parts):
        ways.append(
            BAD_PARTS[part].map(
                lambda text, i=index, p=part: _part_changed(plan, i, text, f"bad {p.value}")
            )
        )
    action = SHAPES[kind].actions[plan.action]
    found = action.values
    if found is not None:
        bad_values: list[st.SearchStrategy[tuple[str, ...]]] = [
            st.just((plan.values[0],) * 26),
            st.lists(BAD_VALUES[found], min_size=1, max_size=3).map(tuple),
        ]
        if action.least > 0:  # a select that may send nothing (the marks menu) is not broken so
            bad_values.insert(0, st.just(()))
        ways.append(
            st.one_of(*bad_values).map(lambda values: _with(plan, "bad values", values=values))
        )
    return ways


def _well_formed_of(plan: Plan) -> list[st.SearchStrategy[Click]]:
    """Every way to name what campaign 1 does not hold in ``plan``, keeping the grammar."""
    shape_parts = _parts_of(plan)
    ways: list[st.SearchStrategy[Click]] = [
        st.just(_with(plan, "other campaign", campaign=str(OTHER))),
        st.integers(3, 10**18 - 1).map(lambda c: _with(plan, "unknown campaign", campaign=str(c))),
    ]
    changes = {
        Part.FACTION: ("faction not in play", st.sampled_from(NOT_IN_PLAY)),
        Part.ROUND: ("another round", st.integers(2, 10**9 - 1).map(str)),
        Part.STEP: ("another step", st.integers(2, 8).map(str)),
        Part.NUMBER: ("unknown object", st.integers(1000, 10**9 - 1).map(str)),
    }
    for index, part in enumerate(shape_parts):
        if part in changes:
            defect, texts = changes[part]
            ways.append(texts.map(lambda t, i=index, d=defect: _part_changed(plan, i, t, d)))
    return ways


@cache
def broken(kind: str) -> st.SearchStrategy[Click]:
    """A click on a control of ``kind`` whose custom id or values break the grammar (never an
    empty custom id: Discord holds none)."""
    ways = [w for a in sorted(SHAPES[kind].actions) for w in _broken_of(plan_of(kind, a))]
    return st.one_of(ways).filter(lambda c: c.custom_id != "")


@cache
def well_formed(kind: str) -> st.SearchStrategy[Click]:
    """A click on a control of ``kind`` that fits the grammar but that campaign 1, where it is
    clicked, does not hold."""
    return st.one_of(
        [w for a in sorted(SHAPES[kind].actions) for w in _well_formed_of(plan_of(kind, a))]
    )


@cache
def hostile(kind: str) -> st.SearchStrategy[tuple[bool, Click]]:
    """``(breaks the grammar, click)`` for a control of ``kind``, broken or well formed."""
    return st.one_of(
        broken(kind).map(lambda c: (True, c)), well_formed(kind).map(lambda c: (False, c))
    )
