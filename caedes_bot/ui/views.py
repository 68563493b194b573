"""Buttons and selects that keep working after a restart (design.md section 5).

Every component the bot shows has a STABLE custom_id::

    caedes:<campaign id>:<object>:<action>

``object`` names what the component acts on, its parts joined by dots (``panel.DAW.1.5`` is the
Dawnians' turn panel in game round 1, step 5; ``dec.42`` is pending decision 42); ``action``
is what it does (``done``, ``buy``, ``press``, ``pick``...); :mod:`caedes_bot.ui.components`
holds the grammar of every kind. Nothing is kept in memory: one :class:`CaedesComponent` (a
:class:`discord.ui.DynamicItem`) registered at start-up with ``bot.add_dynamic_items`` matches
every custom id, on any message, old or new, reads it against that grammar (a damaged or forged
one is refused privately, logged at INFO) and hands the click to the one handler registered
for the object's first part (:func:`register`). Handlers reload the game from the service on
each click, so a button posted before a restart works after it.

Components are written as Discord's own JSON (:func:`button`, :func:`select`, :func:`layout`),
which the announcer stores in outbox rows; :func:`components_view` turns that JSON into a
:class:`discord.ui.View` for sending (the outbox sender and interaction replies). Such a view is
stopped before it is sent, so discord.py keeps nothing of it in memory: the dynamic item
answers the clicks.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

import discord

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.ui.components import SHAPES, BadControl, check_built, read_control
from caedes_bot.ui.components import ComponentRef as ComponentRef
from caedes_bot.ui.replies import first_delivery, hold_wakes, report_error, send_private
from caedes_bot.ui.text import (
    BUTTON_LABEL_LIMIT,
    CUSTOM_ID_LIMIT,
    SELECT_LABEL_LIMIT,
    SELECT_OPTIONS_LIMIT,
    truncate,
)

log = logging.getLogger(__name__)

#: Every custom_id of the bot matches this.
TEMPLATE = r"caedes:(?P<campaign>[0-9]+):(?P<object>[A-Za-z0-9._\-]+):(?P<action>[a-z]+)"

#: Buttons and selects per action row, and rows per message (Discord's limits).
ROW_WIDTH = 5
MAX_ROWS = 5

#: Button styles by name.
STYLES: Mapping[str, int] = {"primary": 1, "secondary": 2, "success": 3, "danger": 4}

JSON = dict[str, Any]


def custom_id(campaign_id: int, parts: Sequence[object], action: str) -> str:
    """``caedes:<campaign>:<part.part...>:<action>``.

    Raises:
        ValueError: the id would be longer than Discord's 100 characters, not match
            :data:`TEMPLATE`, or not fit its kind's shape
            (:data:`caedes_bot.ui.components.SHAPES`).
    """
    texts = tuple(map(str, parts))
    value = f"caedes:{campaign_id}:{'.'.join(texts)}:{action}"
    _checked(value, texts, action)
    return value


@functools.lru_cache(maxsize=4096)
def _checked(value: str, parts: tuple[str, ...], action: str) -> None:
    """Check one custom id (see :func:`custom_id`); a panel makes the same few ids at every
    order, so each is checked once (a failed check is not kept, and raises every time).

    Raises:
        ValueError: it does not fit.
    """
    if len(value) > CUSTOM_ID_LIMIT or not re.fullmatch(TEMPLATE, value):
        raise ValueError(f"bad custom_id {value!r}")
    check_built(parts, action)


def parse_custom_id(value: str) -> ComponentRef | None:
    """The :class:`ComponentRef` of a custom_id of the bot, or ``None`` for any other id."""
    match = re.fullmatch(TEMPLATE, value)
    if match is None:
        return None
    return ComponentRef(int(match["campaign"]), tuple(match["object"].split(".")), match["action"])


# --------------------------------------------------------------------------- component JSON


def button(
    cid: str,
    label: str,
    *,
    style: str = "secondary",
    emoji: str | None = None,
    disabled: bool = False,
) -> JSON:
    """A button as Discord JSON (type 2)."""
    data: JSON = {
        "type": 2,
        "style": STYLES[style],
        "label": truncate(label, BUTTON_LABEL_LIMIT),
        "custom_id": cid,
    }
    if emoji:
        data["emoji"] = {"name": emoji}
    if disabled:
        data["disabled"] = True
    return data


def option(
    label: str, value: str, *, description: str | None = None, default: bool = False
) -> JSON:
    """One option of a string select."""
    data: JSON = {"label": truncate(label, SELECT_LABEL_LIMIT), "value": value}
    if description:
        data["description"] = truncate(description, SELECT_LABEL_LIMIT)
    if default:
        data["default"] = True
    return data


def select(
    cid: str,
    options: Sequence[JSON],
    *,
    placeholder: str,
    min_values: int = 1,
    max_values: int = 1,
) -> JSON:
    """A string select as Discord JSON (type 3), cut to 25 options; ``min_values`` and
    ``max_values`` are kept within the number of options."""
    options = list(options)[:SELECT_OPTIONS_LIMIT]
    top = max(1, min(max_values, len(options)))
    return {
        "type": 3,
        "custom_id": cid,
        "placeholder": truncate(placeholder, 150),
        "options": options,
        "min_values": max(0, min(min_values, top)),
        "max_values": top,
    }


def options(pairs: Iterable[tuple[str, str]]) -> list[JSON]:
    """Select options from ``(label, value)`` pairs (the autocomplete choices' shape)."""
    return [option(label, value) for label, value in pairs]


def select_rows(
    cid: str,
    choices: Sequence[JSON],
    *,
    placeholder: str,
    min_values: int = 1,
    max_values: int = 1,
) -> list[JSON]:
    """The action rows of a message holding one select (none if it has no option)."""
    return layout(
        [
            select(
                cid, choices, placeholder=placeholder, min_values=min_values, max_values=max_values
            )
        ]
    )


def answer_rows(
    campaign_id: int,
    parts: Sequence[object],
    yes: tuple[str, str] = ("accept", "Accept"),
    no: tuple[str, str] = ("refuse", "Refuse"),
) -> list[JSON]:
    """The action row of a yes-or-no question (a trade offer, a pact, an early end): a green
    button and a red one, each ``(action, label)``, on the component ``parts``."""
    return layout(
        [
            button(custom_id(campaign_id, parts, yes[0]), yes[1], style="success"),
            button(custom_id(campaign_id, parts, no[0]), no[1], style="danger"),
        ]
    )


def layout(items: Sequence[JSON]) -> list[JSON]:
    """Action rows for ``items``: each select alone in a row, buttons five to a row, in order;
    at most five rows (extra items are dropped). Selects with no option are left out."""
    rows: list[JSON] = []
    buttons: list[JSON] = []

    def flush() -> None:
        if buttons:
            rows.append({"type": 1, "components": list(buttons)})
            buttons.clear()

    for item in items:
        if item["type"] == 3:
            if not item.get("options"):
                continue
            flush()
            rows.append({"type": 1, "components": [item]})
        else:
            if len(buttons) == ROW_WIDTH:
                flush()
            buttons.append(item)
    flush()
    return rows[:MAX_ROWS]


def components_view(rows: Sequence[Mapping[str, Any]] | None) -> discord.ui.View | None:
    """A :class:`discord.ui.View` that renders ``rows`` (Discord JSON), or ``None`` for no
    components (an edit with ``None`` removes them). The view is stopped: discord.py keeps no
    trace of it, and :class:`CaedesComponent` answers its clicks."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows):
        for data in row.get("components") or ():
            item: discord.ui.Item[Any]
            if int(data["type"]) == 2:
                emoji = (data.get("emoji") or {}).get("name")
                item = discord.ui.Button(
                    style=discord.ButtonStyle(int(data.get("style", 2))),
                    label=data.get("label"),
                    custom_id=data["custom_id"],
                    emoji=emoji,
                    disabled=bool(data.get("disabled", False)),
                    row=index,
                )
            else:
                item = discord.ui.Select(
                    custom_id=data["custom_id"],
                    placeholder=data.get("placeholder"),
                    min_values=int(data.get("min_values", 1)),
                    max_values=int(data.get("max_values", 1)),
                    options=[
                        discord.SelectOption(
                            label=o["label"],
                            value=o["value"],
                            description=o.get("description"),
                            default=bool(o.get("default", False)),
                        )
                        for o in data.get("options") or ()
                    ],
                    row=index,
                )
            view.add_item(item)
    view.stop()
    return view


def reply_view(rows: Sequence[Mapping[str, Any]] | None) -> discord.ui.View:
    """:func:`components_view` for a new message: ``MISSING`` (no components) instead of
    ``None``."""
    view = components_view(rows)
    return view if view is not None else discord.utils.MISSING


# --------------------------------------------------------------------------- dispatch

Handler = Callable[[discord.Interaction, ComponentRef], Awaitable[None]]

#: The attribute of the client that holds the handlers.
_HANDLERS_ATTR = "caedes_component_handlers"


def handlers_of(client: discord.Client) -> dict[str, Handler]:
    """The client's handlers by object kind (made on first use)."""
    handlers: dict[str, Handler] | None = getattr(client, _HANDLERS_ATTR, None)
    if handlers is None:
        handlers = {}
        setattr(client, _HANDLERS_ATTR, handlers)
    return handlers


class DuplicateKind(ValueError):
    """A second handler was registered for a component kind that already has one."""


def register(client: discord.Client, kind: str, handler: Handler) -> None:
    """Send clicks on components whose object starts with ``kind`` to ``handler``; also makes
    sure :class:`CaedesComponent` is registered with the client (idempotent).

    Raises:
        ValueError: ``kind`` is not a kind of :data:`caedes_bot.ui.components.SHAPES`.
        DuplicateKind: ``kind`` already has a handler on this client (two cogs claiming one
            kind would otherwise silently take each other's clicks).
    """
    if kind not in SHAPES:
        raise ValueError(f"the component kind {kind!r} has no shape in caedes_bot.ui.components")
    handlers = handlers_of(client)
    if kind in handlers:
        raise DuplicateKind(
            f"the component kind {kind!r} already has a handler, "
            f"{getattr(handlers[kind], '__qualname__', handlers[kind])!s}"
        )
    handlers[kind] = handler
    client.add_dynamic_items(CaedesComponent)


STALE_REPLY = (
    "This control is no longer in use: the game has moved on. Use /help to see what you can do now."
)


#: Every custom id at all: the bot answers any click on its messages, even one whose id is
#: damaged or forged, with a clean private answer (:class:`~caedes_bot.ui.components.BadControl`)
#: instead of letting it fail unanswered.
ANY_ID = r"(?P<raw>[\s\S]+)"


class CaedesComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=ANY_ID):
    """Every button and select of the bot (see the module docstring)."""

    def __init__(self, item: discord.ui.Item[Any], raw: str) -> None:
        super().__init__(item)
        self.raw = raw

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CaedesComponent:
        return cls(item, match["raw"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Read the click against the grammar of custom ids and hand it to the handler of its
        kind (:func:`handle_click`)."""
        item = self.item
        if isinstance(item, discord.ui.Select):
            values = tuple(str(v) for v in item.values)
            await handle_click(interaction, self.raw, values, select=True)
        else:
            await handle_click(interaction, self.raw, (), select=False)


async def handle_click(
    interaction: discord.Interaction[Any], raw: str, values: tuple[str, ...], *, select: bool
) -> None:
    """Hand the click on the control ``raw`` (its custom id; ``values``: what a select chose)
    to the handler of its kind; a click that does not fit the grammar is refused privately and
    logged at INFO, and a second delivery of the interaction is dropped."""
    if not first_delivery(interaction):
        log.info("interaction %s was delivered again; dropped", interaction.id)
        return
    hold_wakes(interaction)  # the outbox waits for the answer (ui/replies.py)
    try:
        ruleset = getattr(interaction.client, "ruleset", None)
        if not isinstance(ruleset, Ruleset):
            raise RuntimeError("this client has no ruleset (setup_hook did not run?)")
        try:
            ref = read_control(raw, values, select=select, ruleset=ruleset)
        except BadControl as bad:
            log.info(
                "control %r of interaction %s refused: %s",
                truncate(raw, 120),
                interaction.id,
                bad.reason,
            )
            raise
        handler = handlers_of(interaction.client).get(ref.kind)
        if handler is None:
            await send_private(interaction, STALE_REPLY)
            return
        await handler(interaction, ref)
    except Exception as error:
        await report_error(interaction, error)


#: Discord's component types of a button and of a string select.
BUTTON_TYPE, STRING_SELECT_TYPE = 2, 3


def _dispatched(message: discord.Message | None, custom_id: str, kind: object) -> bool:
    """Whether discord.py calls :class:`CaedesComponent` for a click on ``custom_id`` of
    Discord's component type ``kind`` carried with ``message``, worked out as discord.py works
    it out: an id the template matches (any but the empty one), and an item of that id and
    type among those of the view it makes of the message (a message it cannot make a view of
    is dispatched to nobody)."""
    if message is None or not custom_id:
        return False
    made = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    try:
        view = made.from_message(message, timeout=None)
    except Exception:  # a layout discord.py refuses: it calls no dynamic item either
        return False
    return any(
        getattr(item, "custom_id", None) == custom_id and item.type.value == kind
        for item in view.walk_children()
    )


async def answer_unmatched(interaction: discord.Interaction[Any]) -> None:
    """Answer a click that :class:`CaedesComponent` never sees: discord.py hands a click to a
    dynamic item only when the message the interaction carries still shows the control, and
    drops it silently otherwise. Discord sends the message as it is when the member clicks, so
    a click on a render the bot has since edited (a turn panel redrawn a moment before) carries
    a message without that control. Such a click is handled as any other (its custom id says
    what it is; the handlers refuse what is stale); call this for every interaction (the
    client's ``on_interaction``): it does nothing for one that is not such a click."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: Mapping[str, Any] = interaction.data or {}
    raw = data.get("custom_id")
    kind = data.get("component_type")
    if not isinstance(raw, str):
        return
    if _dispatched(interaction.message, raw, kind):
        return  # CaedesComponent has it
    log.info(
        "interaction %s clicked %r, which its message no longer shows; handled as sent",
        interaction.id,
        truncate(raw, 120),
    )
    if kind == BUTTON_TYPE:
        await handle_click(interaction, raw, (), select=False)
    elif kind == STRING_SELECT_TYPE:
        values = tuple(str(v) for v in data.get("values") or ())
        await handle_click(interaction, raw, values, select=True)
    elif first_delivery(interaction):  # the bot draws buttons and string selects only
        await send_private(interaction, STALE_REPLY)
