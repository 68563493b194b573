"""The grammar of the bot's custom ids, and the one reader that checks a click against it.

Every button and select the bot shows has the custom id ``caedes:<campaign>:<object>:<action>``
(:mod:`caedes_bot.ui.views`); the object's first part is its *kind*. :data:`SHAPES` says, for
every kind, what each further part of the object is (a faction code, a game round, a step, a
number, a space or a unit kind of the game data) and which actions it has, each a button or a
select with the shape of its chosen values. The ids the bot builds are checked against it when
they are made (:func:`check_built`), and every click is read against it before any handler
runs (:func:`read_control`): an id or a choice that does not fit (too few parts, a round that
is not a number, a kind or faction the game data does not know, an unknown action, a huge
number) is refused with :class:`BadControl`, a clean private answer, and nothing is done.

What the grammar cannot know (whether the campaign is the one of the channel clicked in, or the
faction is in play there) the handlers check against the campaign (``caedes_bot.cogs._play``).
Pure: no discord, no I/O.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.errors import Refusal
from caedes_bot.rules.state import Step

__all__ = [
    "SHAPES",
    "Action",
    "BadControl",
    "ComponentRef",
    "Part",
    "Shape",
    "Value",
    "check_built",
    "read_control",
]

#: The most digits of a campaign id (SQLite keeps 64-bit integers: 18 digits always fit).
CAMPAIGN_DIGITS = 18
#: The most digits of a round, a decision, an offer or a unit id.
NUMBER_DIGITS = 9
#: The most values one select may send (Discord's limit of options).
MAX_VALUES = 25

#: ``caedes:<campaign>:<object>:<action>``, with limits on every piece; numbers are written as
#: the bot writes them (``7``, never ``07``), so one control has exactly one id.
STRICT = re.compile(
    rf"caedes:(?P<campaign>[1-9][0-9]{{0,{CAMPAIGN_DIGITS - 1}}}):"
    r"(?P<object>[A-Za-z0-9_\-]{1,40}(?:\.[A-Za-z0-9_\-]{1,40}){0,7}):(?P<action>[a-z]{1,20})"
)

_NAME = re.compile(r"[A-Za-z0-9_\-]{1,40}")
#: A number as the bot writes it: no sign, no leading zero, at most :data:`NUMBER_DIGITS` digits.
_NUMBER = re.compile(rf"0|[1-9][0-9]{{0,{NUMBER_DIGITS - 1}}}")
_FACTION = re.compile(r"[A-Z][A-Z0-9]{1,7}")
_CASUALTY = re.compile(
    rf"u[1-9][0-9]{{0,{NUMBER_DIGITS - 1}}}b?|g(?:0|[1-9][0-9]{{0,2}}):[1-9][0-9]{{0,2}}"
)


class Part(enum.Enum):
    """What one part of an object after its kind is."""

    #: A faction code of the game data (``DAW``).
    FACTION = "faction"
    #: A game round, a number.
    ROUND = "round"
    #: A step of the turn, 1 to 8 (R-TURN-02).
    STEP = "step"
    #: The id of a pending decision or a trade offer.
    NUMBER = "number"
    #: A province or sea zone of the map (``harrowgate``).
    SPACE = "space"
    #: A unit kind of the game data (``U-DAW-01``).
    KIND = "kind"
    #: How many units, 1 or more.
    COUNT = "count"


class Value(enum.Enum):
    """The shape of the values a select sends."""

    #: A province or sea zone of the map.
    SPACE = "space"
    #: A unit kind of the game data.
    KIND = "kind"
    #: ``<space>|<kind>``: the units of one kind in one space.
    STACK = "stack"
    #: How many, 1 or more.
    COUNT = "count"
    #: A unit id.
    UNIT = "unit"
    #: A casualty option: ``u<unit>``, ``u<unit>b`` (a second hit) or ``g<group>:<hit>``.
    CASUALTY = "casualty"
    #: A declaration: ``<count>`` or ``<count>a`` (ask again every round), count from 0.
    DECLARE = "declare"
    #: A number from 0: an Illusionist rule's hits, a die's place in a step.
    NUMBER = "number"


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a kind of control.

    Attributes:
        values: ``None`` for a button; for a select, the shape of each value it sends.
        least: for a select, the fewest values it may send (0 for a select whose empty choice
            means "none", like the marks to disband at upkeep).
        extra: parts the object has after the kind's own, for this action only.
    """

    values: Value | None = None
    least: int = 1
    extra: tuple[Part, ...] = ()

    @property
    def is_select(self) -> bool:
        return self.values is not None


BUTTON = Action()


@dataclass(frozen=True, slots=True)
class Shape:
    """The object parts after the kind, and the actions, of one kind of control."""

    parts: tuple[Part, ...]
    actions: Mapping[str, Action]


_TURN = (Part.FACTION, Part.ROUND)

#: Every kind of control the bot shows: where it is shown and what it does.
SHAPES: Mapping[str, Shape] = {
    # The turn panel in the faction's orders thread: panel.<faction>.<round>.<step>.
    "panel": Shape(
        (*_TURN, Part.STEP),
        {
            "done": BUTTON,
            "status": BUTTON,
            "help": BUTTON,
            "disband": BUTTON,
            "buy": BUTTON,
            "move": BUTTON,
            "ships": BUTTON,  # "Ships…" in step 6 (R-MOVE-14..18)
            "muster": BUTTON,
            "undo": Action(extra=(Part.NUMBER,)),  # the undo records shown (a double click)
            "fight": Action(Value.SPACE),
            "odds": BUTTON,
            # a blitz after a won battle (R-ATTR-BLITZ-02): the decision's id
            "blitz": Action(Value.SPACE, extra=(Part.NUMBER,)),
            "stop": Action(extra=(Part.NUMBER,)),
            # Amphibian units that won at sea (R-ATTR-AMPH-02): the decision's id
            "ashore": Action(Value.SPACE, extra=(Part.NUMBER,)),
            "home": Action(extra=(Part.NUMBER,)),
        },
    ),
    # A battle decision on the battle message: dec.<decision>.
    "dec": Shape(
        (Part.NUMBER,),
        {
            "press": BUTTON,
            "withdraw": BUTTON,
            "seaward": Action(Value.SPACE),  # a retreat by sea (R-ATTR-AMPH-03)
            # after a won battle: blitz on or stop (R-ATTR-BLITZ-02), go ashore or home
            # (R-ATTR-AMPH-02); the decision is the one in the object
            "blitz": Action(Value.SPACE),
            "stop": BUTTON,
            "ashore": Action(Value.SPACE),
            "home": BUTTON,
            "default": BUTTON,
            "pick": Action(Value.CASUALTY),
            # battle magic (R-COMBAT-12, R-MAGIC-ILL-01, R-MAGIC-ENCH-01): ui/battle_magic.py
            "declare": Action(Value.DECLARE, extra=(Part.KIND,)),
            "illusion": Action(Value.NUMBER),
            "confirm": BUTTON,  # answers a declaration of several partial picks
            "reroll": Action(Value.NUMBER),
            "keep": BUTTON,
            "enchant": Action(Value.UNIT),
            # the Mercenaries who desert (R-ATTR-MERC-01): ui/mercenaries.py; also on a
            # turn start's post in the orders thread
            "merc": Action(Value.UNIT),
            "mercdefault": BUTTON,  # its Use default (its own, so a late click names its rule)
        },
    ),
    # Changing standing declarations from the battle message: chg.<battle>.<faction>
    # (R-COMBAT-12): the button, then the private menu's selects (ui/battle_magic.py).
    "chg": Shape(
        (Part.NUMBER, Part.FACTION),
        {
            "open": BUTTON,
            "declare": Action(Value.DECLARE, extra=(Part.KIND,)),
            "illusion": Action(Value.NUMBER),
        },
    ),
    # A summons offer on the battle message: sum.<decision> (R-MAGIC-SUMM-01).
    "sum": Shape(
        (Part.NUMBER,),
        {"pick": Action(Value.KIND), "skip": BUTTON, "never": BUTTON},
    ),
    # A trade offer in the counterparty's orders thread: trade.<offer>.
    "trade": Shape((Part.NUMBER,), {"accept": BUTTON, "decline": BUTTON}),
    # A pact proposal in a member's orders thread: pact.<proposal>.<faction> (R-ALLY-01).
    "pact": Shape((Part.NUMBER, Part.FACTION), {"accept": BUTTON, "refuse": BUTTON}),
    # The vote on the umpire's early end in a player's orders thread: endvote.<proposal>.<faction>
    # (R-VIC-04).
    "endvote": Shape((Part.NUMBER, Part.FACTION), {"accept": BUTTON, "refuse": BUTTON}),
    # The private menus of the turn panel: buy.<faction>.<round> and so on.
    "buy": Shape(_TURN, {"kind": Action(Value.KIND)}),
    "move": Shape(_TURN, {"stack": Action(Value.STACK)}),
    "mv": Shape(
        (*_TURN, Part.SPACE, Part.KIND, Part.COUNT),
        {"count": Action(Value.COUNT), "to": Action(Value.SPACE)},
    ),
    "mu": Shape(_TURN, {"kind": Action(Value.KIND)}),
    # "Ships…" of step 6 (R-MOVE-14..18): sh.<faction>.<round>, then
    # sv.<faction>.<round>.<ship>.<digest of the sail destinations> (cogs/ships.py)
    "sh": Shape(_TURN, {"ship": Action(Value.UNIT)}),
    "sv": Shape(
        (*_TURN, Part.NUMBER, Part.NUMBER),
        {"sail": Action(Value.NUMBER), "board": Action(Value.UNIT), "land": Action(Value.SPACE)},
    ),
    "mp": Shape((*_TURN, Part.KIND), {"to": Action(Value.SPACE)}),
    "db": Shape(_TURN, {"pick": Action(Value.UNIT), "default": Action(extra=(Part.NUMBER,))}),
    # "Disband at upkeep…": dm.<faction>.<round>.<step>; no unit chosen takes every mark back.
    "dm": Shape((*_TURN, Part.STEP), {"pick": Action(Value.UNIT, least=0)}),
}


@dataclass(frozen=True, slots=True)
class ComponentRef:
    """A custom id read, and what the member chose.

    Attributes:
        campaign_id: the campaign. parts: the object's parts (``["panel", "DAW", "1", "5"]``).
        action: the action. values: the chosen values of a select (empty for a button).
    """

    campaign_id: int
    parts: tuple[str, ...]
    action: str
    values: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return self.parts[0]


class BadControl(Refusal):
    """A click whose custom id or chosen values do not fit :data:`SHAPES`: damaged, forged, or
    from a version of the bot that is gone. Nothing is done.

    Attributes:
        reason: what did not fit, for the log (never shown to the member).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(
            "This control is not one the bot can use: it may be damaged or left over from an "
            "older version of the bot. Nothing was done.",
            allowed="the controls of the current turn panel, or /help",
        )
        self.reason = reason


def _static_part(part: Part, text: str) -> bool:
    """Whether ``text`` has the form of ``part`` (without the game data)."""
    if part is Part.FACTION:
        return _FACTION.fullmatch(text) is not None
    if part is Part.STEP:
        return text in {str(int(s)) for s in Step}
    if part in (Part.ROUND, Part.NUMBER):
        return _NUMBER.fullmatch(text) is not None
    if part is Part.COUNT:
        return _NUMBER.fullmatch(text) is not None and int(text) >= 1
    return _NAME.fullmatch(text) is not None


def _is_space(ruleset: Ruleset, text: str) -> bool:
    return text in ruleset.map.provinces or text in ruleset.map.sea_zones


def _is_kind(ruleset: Ruleset, text: str) -> bool:
    try:
        ruleset.kind(text)
    except KeyError:
        return False
    return True


def _is_faction(ruleset: Ruleset, text: str) -> bool:
    try:
        ruleset.faction(text)
    except KeyError:
        return False
    return True


def _known_part(ruleset: Ruleset, part: Part, text: str) -> bool:
    """Whether ``text`` is a ``part`` the game data knows."""
    if not _static_part(part, text):
        return False
    if part is Part.FACTION:
        return _is_faction(ruleset, text)
    if part is Part.SPACE:
        return _is_space(ruleset, text)
    if part is Part.KIND:
        return _is_kind(ruleset, text)
    return True


def _known_value(ruleset: Ruleset, shape: Value, text: str) -> bool:
    """Whether ``text`` is a value of ``shape`` the game data knows."""
    if shape is Value.SPACE:
        return _NAME.fullmatch(text) is not None and _is_space(ruleset, text)
    if shape is Value.KIND:
        return _NAME.fullmatch(text) is not None and _is_kind(ruleset, text)
    if shape is Value.STACK:
        space, _, kind = text.partition("|")
        return _known_value(ruleset, Value.SPACE, space) and _known_value(ruleset, Value.KIND, kind)
    if shape is Value.COUNT:
        return _NUMBER.fullmatch(text) is not None and int(text) >= 1
    if shape is Value.UNIT or shape is Value.NUMBER:
        return _NUMBER.fullmatch(text) is not None
    if shape is Value.DECLARE:
        return _NUMBER.fullmatch(text.removesuffix("a")) is not None
    return _CASUALTY.fullmatch(text) is not None


def _shape_of(parts: Sequence[str], action: str) -> tuple[Shape, Action]:
    """The shape and action an object's parts and action name, checked for their number.

    Raises:
        BadControl: an unknown kind or action, or the wrong number of parts.
    """
    shape = SHAPES.get(parts[0])
    if shape is None:
        raise BadControl(f"unknown kind {parts[0]!r}")
    found = shape.actions.get(action)
    if found is None:
        raise BadControl(f"kind {parts[0]!r} has no action {action!r}")
    want = len(shape.parts) + len(found.extra)
    if len(parts) - 1 != want:
        raise BadControl(f"{parts[0]}:{action} takes {want} parts, not {len(parts) - 1}")
    return shape, found


def check_built(parts: Sequence[str], action: str) -> None:
    """Check an object the bot is about to put in a custom id against :data:`SHAPES` (the form
    of each part, not the game data).

    Raises:
        ValueError: it does not fit; a bug in the code that builds it.
    """
    try:
        shape, found = _shape_of(parts, action)
    except BadControl as bad:
        raise ValueError(bad.reason) from None
    for part, text in zip((*shape.parts, *found.extra), parts[1:], strict=True):
        if not _static_part(part, text):
            raise ValueError(f"part {text!r} of {parts[0]}:{action} is no {part.value}")


def read_control(
    custom_id: str, values: Sequence[str], *, select: bool, ruleset: Ruleset
) -> ComponentRef:
    """Read a click: its custom id and the values chosen, checked against :data:`SHAPES` and
    the game data.

    Args:
        custom_id: the id of the button or select, as Discord sent it (any text).
        values: the values chosen in a select (none for a button).
        select: the control clicked is a select.
        ruleset: the game data, for the factions, spaces and unit kinds named.

    Returns:
        The click, with ``parts`` that fit their shapes.

    Raises:
        BadControl: anything does not fit; :attr:`BadControl.reason` says what.
    """
    match = STRICT.fullmatch(custom_id)
    if match is None:
        raise BadControl("not a custom id of the bot")
    parts = tuple(match["object"].split("."))
    action = match["action"]
    shape, found = _shape_of(parts, action)
    for part, text in zip((*shape.parts, *found.extra), parts[1:], strict=True):
        if not _known_part(ruleset, part, text):
            raise BadControl(f"part {text[:40]!r} of {parts[0]}:{action} is no known {part.value}")
    if found.is_select != select:
        what = "a select" if found.is_select else "a button"
        raise BadControl(f"{parts[0]}:{action} is {what}")
    if found.values is None:
        if values:
            raise BadControl(f"the button {parts[0]}:{action} sent values")
    else:
        if not found.least <= len(values) <= MAX_VALUES:
            raise BadControl(f"the select {parts[0]}:{action} sent {len(values)} values")
        bad = [v for v in values if not _known_value(ruleset, found.values, v)]
        if bad:
            raise BadControl(
                f"{parts[0]}:{action} value {bad[0][:40]!r} is no {found.values.value}"
            )
    return ComponentRef(int(match["campaign"]), parts, action, tuple(values))
