"""RulesService: the only door to a campaign's state (design.md sections 1 and 4).

Every change to a campaign goes through here, as ONE database transaction:

``submit(campaign_id, actor, order)``
    per-campaign lock -> state from the in-memory cache (keyed by version) or the database ->
    may this actor give this order? -> ``rules.engine.apply`` with the campaign's seeded dice ->
    ``UPDATE campaigns SET state=:s, version=version+1 WHERE id=:id AND version=:v`` + the
    order row + the event rows + the outbox rows (from the :class:`Announcer`) + deadline rows
    + the processed interaction -> COMMIT -> cache -> return the events.

Every refusal here is a :class:`~caedes_bot.rules.errors.Refusal`. A refused order (a
:class:`~caedes_bot.rules.errors.RuleViolation`, including this module's :class:`NotAuthorised`
and :class:`CampaignNotActive`) changes nothing and writes nothing; it
reaches the caller unchanged. A stale version (another writer got there first) reloads and
re-applies, never merges. The same interaction id twice has one effect and returns the first
result.

All writes of the process share the single writer connection of
:class:`~caedes_bot.persistence.db.Database`; reads for the Discord edge use the reader pool.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from caedes_bot.domain.records import (
    ActingAs,
    AuditRecord,
    CampaignInfo,
    CampaignStatus,
    CampaignView,
    ChannelRecord,
    DeadlineRecord,
    DeliveryProblem,
    OutboxKind,
    OutboxMessage,
    StoredEvent,
    StoredOrder,
    utcnow,
)
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.persistence.mappers import (
    dump_event,
    dump_order,
    dump_state,
    load_event,
    load_order,
    load_state,
)
from caedes_bot.rules import engine
from caedes_bot.rules.dice import Dice, SeededDice
from caedes_bot.rules.errors import Refusal, RuleViolation, UnknownName
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.steps import Giver
from caedes_bot.rules.turn import TurnEnded

log = logging.getLogger(__name__)

ApplyFn = Callable[[GameState, Order, Ruleset, Dice], engine.Outcome]
NewGameFn = Callable[[Ruleset, str, str], GameState]

#: Channels of a campaign (ux.md "Channels of a campaign"): key -> (name, read-only, private).
CAMPAIGN_CHANNELS: tuple[tuple[str, str, bool, bool], ...] = (
    ("announcements", "announcements", True, False),
    ("battles", "battles", True, False),
    ("table-talk", "table-talk", False, False),
    ("umpire", "umpire", False, True),
)

#: The channel that holds the private orders and negotiation threads (players must see it).
THREAD_PARENT = "announcements"


# --------------------------------------------------------------------------- errors


class NotAuthorised(RuleViolation):
    """The actor may not give this order: a faction's orders come from its player, or from the
    umpire, who may act for any faction (R-SETUP-02, R-PBP-UMP-01, R-PBP-UMP-02)."""

    default_rule = "R-SETUP-02"


class CampaignNotActive(RuleViolation):
    """The campaign is being set up, paused or finished; no orders are taken (R-PBP-UMP-05)."""

    default_rule = "R-PBP-UMP-05"


class StaleOrder(RuleViolation):
    """An order given from a button, select or command meant for a moment of the game that has
    passed: another step, turn or decision (a double click, a command given twice at once, a
    control left over). Nothing changes (R-TURN-02)."""

    default_rule = "R-TURN-02"


class AdminRefused(RuleViolation):
    """A campaign administration command refused (a name, a faction already held, a start
    already made). It cites a rule only when a rule is behind it; nothing changed."""

    def __init__(
        self, message: str, *, rule: str | None = None, allowed: str | None = None
    ) -> None:
        super().__init__(message, rule=rule, allowed=allowed)
        self.cites_rule = rule is not None

    def player_text(self) -> str:
        """The message, the rule ID if one is behind the refusal, and what is allowed."""
        if self.cites_rule:
            return super().player_text()
        return self.message + (f"\nAllowed: {self.allowed}" if self.allowed else "")


class InvalidCampaignName(AdminRefused):
    """A campaign name that is blank, too long or holds control or invisible characters."""


class CampaignNameTaken(AdminRefused):
    """The guild already has a campaign of that name that is not finished."""


class FactionHeld(AdminRefused):
    """The faction already has a player; a faction has one player (R-SETUP-02)."""


class AlreadyStarted(AdminRefused):
    """``start`` on a campaign that is no longer being set up."""


class NoUmpire(AdminRefused):
    """A campaign cannot start without its umpire (R-PBP-UMP-01)."""


class UnknownCampaign(Refusal, LookupError):
    """No campaign with this id (it never existed or was deleted); cites no rule.

    Attributes:
        campaign_id: the id asked for.
    """

    def __init__(self, campaign_id: int) -> None:
        super().__init__(
            f"There is no campaign {campaign_id}; it may have been deleted.",
            allowed="use the command in a channel or thread of a running campaign",
        )
        self.campaign_id = campaign_id


#: Longest campaign name: it is also the category's name (Discord allows 100).
NAME_MAX = 90

#: What a campaign name may hold, for refusals.
NAME_ALLOWED = (
    f"a name of 1 to {NAME_MAX} visible characters (letters, digits, punctuation, emoji, "
    "single spaces), such as Seven Swords"
)

#: Unicode categories never allowed in a name: control, format (zero-width and direction
#: marks), private use, surrogates, unassigned.
_BANNED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})


def tidy_campaign_name(raw: str) -> str:
    """The name a campaign is stored and shown under: runs of whitespace become one space,
    none at either end.

    Returns:
        The tidied name: 1 to :data:`NAME_MAX` characters, at least one of them a letter,
        digit, punctuation mark or symbol.

    Raises:
        InvalidCampaignName: blank once tidied, longer than :data:`NAME_MAX`, or holding a
            control or invisible character (zero-width space, direction mark...).
    """
    name = " ".join(raw.split())
    for char in name:
        if unicodedata.category(char) in _BANNED_CATEGORIES:
            raise InvalidCampaignName(
                f"The name holds an invisible or control character (U+{ord(char):04X}).",
                allowed=NAME_ALLOWED,
            )
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        raise InvalidCampaignName("The name is blank.", allowed=NAME_ALLOWED)
    if len(name) > NAME_MAX:
        raise InvalidCampaignName(f"The name is {len(name)} characters long.", allowed=NAME_ALLOWED)
    return name


class ReplayMismatch(AssertionError):
    """Replaying the order log did not reproduce the stored dice counts or state."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Actor:
    """Who gives an order.

    Attributes:
        user_id: the Discord user, or ``None`` for the system (scheduler).
        is_admin: a server administrator (may give umpire orders, never a faction's orders).
        system: the bot itself (deadlines); may give any order.
    """

    user_id: int | None
    is_admin: bool = False
    system: bool = False

    @classmethod
    def system_actor(cls) -> Actor:
        """The bot acting on its own (a passed deadline, R-PBP-DEAD-03)."""
        return cls(user_id=None, system=True)


@dataclass(frozen=True, slots=True)
class Expect:
    """What the member saw when giving an order, checked by :meth:`RulesService.submit` under
    the campaign's lock against the state the order would be applied to: if the game has moved
    on, the order is refused with :class:`StaleOrder` and nothing changes. So a double click,
    or the same command given twice at once, has one effect.

    Attributes:
        round: the game round shown. faction: the faction whose turn it was. step: the step
            shown (R-TURN-02). Each is checked if given.
        decision_id: the pending decision being answered (it must still be pending).
        via: what was used, for the message: ``"button"``, ``"choice"``, ``"command"``.
        rule: the rule of the decision, cited if it was already answered (R-COMBAT-06, -08).
    """

    round: int | None = None
    faction: str | None = None
    step: Step | None = None
    decision_id: int | None = None
    via: str = "button"
    rule: str | None = None

    @classmethod
    def turn_of(cls, state: GameState, *, via: str = "command") -> Expect:
        """The turn as ``state`` shows it: its round, active faction and step."""
        return cls(round=state.round, faction=state.active, step=state.step, via=via)

    def refusal(self, state: GameState, ruleset: Ruleset) -> StaleOrder | None:
        """Why an order given with this expectation is stale in ``state``, or ``None``."""
        now = _turn_text(state, ruleset)
        if self.decision_id is not None and all(d.id != self.decision_id for d in state.pending):
            return StaleOrder(
                f"This choice has already been made; {now}.",
                rule=self.rule or "R-PBP-DEAD-04",
                allowed=(
                    "the controls now shown on the battle message, or /help"
                    if self.rule is None or self.rule.startswith("R-COMBAT")
                    else "the controls of the current turn panel, or /help"
                ),
            )
        moved_on = (
            state.finished
            or (self.faction is not None and state.active != self.faction)
            or (self.round is not None and state.round != self.round)
        )
        if moved_on:
            was = _moment(ruleset, self.step, self.faction, self.round)
            return StaleOrder(
                f"That {self.via} was for {was}, which is over; {now}.",
                allowed="the controls of the current turn panel, or /help",
            )
        if self.step is not None and state.step is not self.step:
            return StaleOrder(
                f"That {self.via} was for step {self.step.label}, which is over; "
                f"the turn is now at step {state.step.label}.",
                allowed="the controls of the current turn panel, or /help",
            )
        return None

    def check(self, state: GameState, ruleset: Ruleset) -> None:
        """Raise :meth:`refusal`, if any.

        Raises:
            StaleOrder: the game has moved on from what the member saw (R-TURN-02).
        """
        refused = self.refusal(state, ruleset)
        if refused is not None:
            raise refused


def _faction_word(ruleset: Ruleset, code: str) -> str:
    try:
        return ruleset.faction(code).name
    except KeyError:
        return code


def _moment(ruleset: Ruleset, step: Step | None, faction: str | None, round_no: int | None) -> str:
    """``"step 8 Muster (Dawnians, game round 1)"`` from what is known of it."""
    where = [_faction_word(ruleset, faction)] if faction else []
    if round_no is not None:
        where.append(f"game round {round_no}")
    head = f"step {step.label}" if step is not None else "that turn"
    return f"{head} ({', '.join(where)})" if where else head


def _turn_text(state: GameState, ruleset: Ruleset) -> str:
    """Where the game stands, as the end of a sentence."""
    if state.finished:
        return "the campaign is over"
    if state.active is None:
        return "no faction is playing"
    return f"now: {_moment(ruleset, state.step, state.active, state.round)}"


@dataclass(frozen=True, slots=True)
class UmpireChange:
    """What :meth:`RulesService.set_umpire` did.

    Attributes:
        previous: the umpire replaced (``None``: there was none).
        changed: ``False`` when the member was the umpire already (nothing was written).
        plays: the factions the umpire also plays, sorted.
    """

    previous: int | None
    changed: bool
    plays: tuple[str, ...]


#: A campaign's status in words ("it is under way").
STATUS_TEXT: Mapping[CampaignStatus, str] = {
    CampaignStatus.SETTING_UP: "being set up",
    CampaignStatus.ACTIVE: "under way",
    CampaignStatus.PAUSED: "paused",
    CampaignStatus.FINISHED: "finished",
}


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """The result of an accepted order.

    Attributes:
        campaign_id: the campaign.
        events: what happened, in order.
        state_version: the campaign's version after the order (= its number in the order log).
        order_seq: the order's number in the campaign's order log.
        acting_as: in which capacity the order was given.
        duplicate: ``True`` if this interaction id was handled before and this is the FIRST
            result, returned again (nothing changed this time).
        state: the state after the order; for a duplicate, the campaign's current state.
        before: the state the order was applied to (``None`` for a duplicate).
    """

    campaign_id: int
    events: tuple[Event, ...]
    state_version: int
    order_seq: int
    acting_as: ActingAs
    duplicate: bool
    state: GameState
    before: GameState | None = None


class Announcer(Protocol):
    """Turns events into messages owed to Discord (written in the order's transaction).

    Must be pure and quick: no I/O. Direct replies to the interaction are not its job.
    """

    def announce(
        self,
        campaign: CampaignView,
        events: Sequence[Event],
        state: GameState,
        ruleset: Ruleset,
        *,
        before: GameState | None = None,
    ) -> list[OutboxMessage]: ...


def _words(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower()


def event_text(event: Event) -> str:
    """A plain one-line description of an event: ``"units bought: faction=DAW, kind=U-DAW-01"``."""
    parts = [f"{f.name}={getattr(event, f.name)}" for f in fields(event)]
    head = _words(type(event).__name__)
    return head[:1].upper() + head[1:] + (": " + ", ".join(parts) if parts else "")


class PlainAnnouncer:
    """The default :class:`Announcer`: one plain-text post per event.

    Public events (``audience() is None``) go to ``#announcements``; private ones to the orders
    thread of each faction in their audience (R-GEN-07). Lines are grouped per place into
    messages under Discord's 2,000 characters.
    """

    limit = 1900

    def announce(
        self,
        campaign: CampaignView,
        events: Sequence[Event],
        state: GameState,
        ruleset: Ruleset,
        *,
        before: GameState | None = None,
    ) -> list[OutboxMessage]:
        lines: dict[str, list[str]] = {}
        for event in events:
            audience = event.audience()
            keys = ["announcements"] if audience is None else [f"orders:{f}" for f in audience]
            for key in keys:
                lines.setdefault(key, []).append(event_text(event))
        out: list[OutboxMessage] = []
        for key, texts in lines.items():
            chunk = ""
            for text in texts:
                text = text[: self.limit]
                if chunk and len(chunk) + 1 + len(text) > self.limit:
                    out.append(OutboxMessage(key, OutboxKind.POST, {"content": chunk}))
                    chunk = ""
                chunk = f"{chunk}\n{text}" if chunk else text
            if chunk:
                out.append(OutboxMessage(key, OutboxKind.POST, {"content": chunk}))
        return out


@dataclass(frozen=True, slots=True)
class DeadlinePolicy:
    """How long each kind of deadline runs and when its reminder goes (R-PBP-DEAD-01, -02).

    The turn and reaction windows come from the campaign's options (default 24 h and 6 h);
    the reminder goes ``reminder_fraction`` of the window before the deadline, but at most
    ``max_reminder_lead`` before it.
    """

    reminder_fraction: float = 0.25
    max_reminder_lead: timedelta = timedelta(hours=2)

    def wanted(self, state: GameState) -> dict[str, tuple[str | None, float]]:
        """The deadlines the state owes: key -> (faction, window in hours).

        * the active faction's turn: ``turn:<round>:<faction>``, the turn window;
        * each pending reaction of another faction: ``decision:<id>``, the reaction window.
        """
        if state.finished or state.active is None:
            return {}
        wanted: dict[str, tuple[str | None, float]] = {
            f"turn:{state.round}:{state.active}": (
                state.active,
                state.options.turn_deadline_hours,
            )
        }
        for decision in state.pending:
            if decision.reaction:
                wanted[f"decision:{decision.id}"] = (
                    decision.faction,
                    state.options.reaction_deadline_hours,
                )
        return wanted

    def times(self, now: datetime, hours: float) -> tuple[datetime, datetime]:
        """``(due_at, reminder_at)`` for a window of ``hours`` starting ``now``."""
        window = timedelta(hours=hours)
        lead = min(window * self.reminder_fraction, self.max_reminder_lead)
        return now + window, now + window - lead


@dataclass
class _Cached:
    """The last known state of a campaign, valid for ``info.version``."""

    info: CampaignInfo
    state: GameState
    last_event_seq: int
    players: dict[str, int]
    deadline_keys: frozenset[str]
    deadline_due: dict[str, datetime] = field(default_factory=dict)

    def view(self) -> CampaignView:
        return CampaignView(self.info, dict(self.players), dict(self.deadline_due))


@dataclass
class _Locks:
    by_campaign: dict[int, asyncio.Lock] = field(default_factory=dict)

    def get(self, campaign_id: int) -> asyncio.Lock:
        lock = self.by_campaign.get(campaign_id)
        if lock is None:
            lock = self.by_campaign[campaign_id] = asyncio.Lock()
        return lock


# --------------------------------------------------------------------------- the service


class RulesService:
    """The only door to campaign state. One instance per process.

    Args:
        db: the engines (single writer + readers).
        ruleset: the static game data.
        apply: the rules entry point (``rules.engine.apply``; tests may pass a stand-in).
        new_game: builds a campaign's first state (``rules.setup.new_game`` by default).
        announcer: turns events into outbox messages (:class:`PlainAnnouncer` by default).
        clock: the current UTC time.
        deadlines: turn and reaction deadline windows (:class:`DeadlinePolicy`).
        max_retries: how often a stale write is retried before giving up.
        dice_factory: the dice an order is applied with, from the state before it; by default
            the campaign's seeded dice (R-GEN-01). End-to-end tests pass scripted dice.
    """

    def __init__(
        self,
        db: Database,
        ruleset: Ruleset,
        *,
        apply: ApplyFn = engine.apply,
        new_game: NewGameFn | None = None,
        announcer: Announcer | None = None,
        clock: Callable[[], datetime] = utcnow,
        deadlines: DeadlinePolicy | None = None,
        max_retries: int = 5,
        dice_factory: Callable[[GameState], Dice] | None = None,
    ) -> None:
        if new_game is None:
            from caedes_bot.rules.setup import new_game as default_new_game

            new_game = default_new_game
        self.db = db
        self.ruleset = ruleset
        self._apply = apply
        self._new_game = new_game
        self.announcer: Announcer = announcer or PlainAnnouncer()
        self._clock = clock
        self.deadline_policy = deadlines or DeadlinePolicy()
        self._max_retries = max_retries
        self._dice_factory = dice_factory or _seeded_dice
        self._cache: dict[int, _Cached] = {}
        self._locks = _Locks()
        self._listeners: list[Callable[[int], None]] = []

    # ----------------------------------------------------------------------- notifications

    def add_listener(self, callback: Callable[[int], None]) -> None:
        """Call ``callback(campaign_id)`` after every commit that may have queued outbox rows
        or deadlines (the outbox dispatcher's and scheduler's ``wake``)."""
        self._listeners.append(callback)

    def _notify(self, campaign_id: int) -> None:
        for callback in self._listeners:
            try:
                callback(campaign_id)
            except Exception:  # a listener must never undo a committed order
                log.exception("listener failed after commit of campaign %s", campaign_id)

    # ----------------------------------------------------------------------- campaigns

    async def create_campaign(
        self,
        guild_id: int,
        name: str,
        scenario_id: str,
        created_by: int,
        *,
        umpire_user_id: int | None = None,
        table_talk: bool = True,
    ) -> CampaignInfo:
        """Create a campaign in ``setting_up`` with its first state and queue its Discord set-up.

        The set-up is a resumable sequence of outbox rows (ux.md): the category, then
        ``#announcements``, ``#battles``, ``#table-talk`` (if ``table_talk``), ``#umpire``, then
        one private orders thread per faction in play (R-PBP-NEG-06) under ``#announcements``,
        the umpire added to each, and a welcome post. The dice seed comes from
        :mod:`secrets` (R-GEN-01). The name is checked and tidied
        (:func:`tidy_campaign_name`) and must be free in the guild, in the same transaction
        as the insert, so two creations at once cannot both take it. Logged in the audit log
        as done by ``created_by``.

        Raises:
            UnknownName: no such scenario (R-SETUP-01).
            InvalidCampaignName: the name is blank, too long or holds invisible characters.
            CampaignNameTaken: the guild has a campaign of that name that is not finished.
        """
        if scenario_id not in self.ruleset.scenarios:
            raise UnknownName(
                "scenario", scenario_id, tuple(sorted(self.ruleset.scenarios)), rule="R-SETUP-01"
            )
        name = tidy_campaign_name(name)
        state = self._new_game(self.ruleset, scenario_id, secrets.token_hex(16))
        now = self._clock()
        state_json = dump_state(state)

        def taken(existing: str) -> CampaignNameTaken:
            return CampaignNameTaken(
                f"This server already has a campaign called {existing}.",
                allowed="another name, or finish the old campaign first",
            )

        def _tx(conn: Connection) -> tuple[int, CampaignInfo | None]:
            existing = repo.open_campaign_named(conn, guild_id, name)
            if existing is not None:
                raise taken(existing.name)
            campaign_id = repo.insert_campaign(
                conn,
                guild_id=guild_id,
                name=name,
                scenario=scenario_id,
                state_json=state_json,
                created_by=created_by,
                umpire_user_id=umpire_user_id,
                now=now,
            )
            messages = self._setup_rows(
                conn, campaign_id, name, state, umpire_user_id, table_talk=table_talk
            )
            repo.insert_outbox(conn, campaign_id, messages, now=now)
            repo.insert_audit(
                conn,
                campaign_id=campaign_id,
                user_id=created_by,
                action="campaign_created",
                detail={
                    "name": name,
                    "scenario": scenario_id,
                    "umpire": umpire_user_id,
                    "as": ActingAs.ADMIN.value,
                },
                now=now,
            )
            info = repo.campaign_info(conn, campaign_id)
            return campaign_id, info

        try:
            campaign_id, info = await self.db.write(_tx)
        except IntegrityError as err:  # another process took the name first (unique index)
            raise taken(name) from err
        assert info is not None
        self._cache[campaign_id] = _Cached(info, state, 0, {}, frozenset())
        self._notify(campaign_id)
        return info

    def _setup_rows(
        self,
        conn: Connection,
        campaign_id: int,
        name: str,
        state: GameState,
        umpire: int | None,
        *,
        table_talk: bool,
    ) -> list[OutboxMessage]:
        rows = [
            OutboxMessage(
                "category",
                OutboxKind.CREATE_CATEGORY,
                {"name": name[:100]},
                dedupe_key="setup:category",
            )
        ]
        repo.add_channel(conn, campaign_id, "category", None)
        for key, channel_name, read_only, private in CAMPAIGN_CHANNELS:
            if key == "table-talk" and not table_talk:
                continue
            repo.add_channel(conn, campaign_id, key, "category")
            payload: dict[str, Any] = {
                "name": channel_name,
                "parent_key": "category",
                "read_only": read_only,
                "private": private,
            }
            if private and umpire is not None:
                payload["allow_users"] = [umpire]
            rows.append(
                OutboxMessage(
                    key,
                    OutboxKind.CREATE_CHANNEL,
                    payload,
                    dedupe_key=f"setup:{key}",
                    depends_on_key="setup:category",
                )
            )
        for faction in state.in_play:
            key = f"orders:{faction}"
            repo.add_channel(conn, campaign_id, key, THREAD_PARENT)
            rows.append(
                OutboxMessage(
                    key,
                    OutboxKind.CREATE_THREAD,
                    {
                        "name": f"orders-{faction.lower()}",
                        "parent_key": THREAD_PARENT,
                        "private": True,
                        "faction": faction,
                    },
                    dedupe_key=f"setup:{key}",
                    depends_on_key=f"setup:{THREAD_PARENT}",
                )
            )
            if umpire is not None:
                rows.append(_add_member(key, umpire))
        scenario = self.ruleset.scenarios[state.scenario]
        rows.append(
            OutboxMessage(
                "announcements",
                OutboxKind.POST,
                {
                    "content": (
                        f"Campaign **{name}** ({scenario.name}) is being set up. "
                        f"Factions: {', '.join(state.in_play)}."
                    )
                },
                dedupe_key="setup:welcome",
            )
        )
        return rows

    async def assign(
        self,
        campaign_id: int,
        user_id: int,
        faction: str,
        *,
        by: int | None = None,
        replace: bool = False,
    ) -> bool:
        """Give ``faction`` to ``user_id`` (R-SETUP-02): a user may hold several factions, a
        faction has one player. The user joins the faction's orders thread and its negotiation
        threads; a replaced player leaves them (unless they still belong: the umpire, or the
        player of the other side). The check and the change are one step under the campaign's
        lock, so two assignments at once cannot both succeed. Logged as done by ``by``.

        Args:
            replace: take the faction from its current player instead of refusing.

        Returns:
            ``True`` if the faction changed hands, ``False`` if ``user_id`` held it already.

        Raises:
            UnknownName: the faction is not in play in this campaign (R-SETUP-02).
            FactionHeld: another member plays it and ``replace`` is false (R-SETUP-02).
            UnknownCampaign: no such campaign.
        """
        async with self._locks.get(campaign_id):
            cached = await self._load(campaign_id)
            if faction not in cached.state.in_play:
                raise UnknownName(
                    "faction", faction, tuple(cached.state.in_play), rule="R-SETUP-02"
                )
            previous = cached.players.get(faction)
            if previous == user_id:
                return False
            if previous is not None and not replace:
                label = self._faction_label(faction)
                raise FactionHeld(
                    f"{label} is already held by <@{previous}>.",
                    rule="R-SETUP-02",
                    allowed=f"`/campaign unassign faction:{faction}` first, or another faction",
                )
            after = {**cached.players, faction: user_id}
            await self._change_members(
                cached,
                after,
                cached.info.umpire_user_id,
                action="faction_assigned",
                detail={"faction": faction, "user_id": user_id, "previous": previous},
                by=by,
            )
        self._notify(campaign_id)
        return True

    async def unassign(self, campaign_id: int, faction: str, *, by: int | None = None) -> bool:
        """Leave ``faction`` to the umpire (R-PBP-UMP-02): its player leaves its orders and
        negotiation threads (unless they still belong there). Logged as done by ``by``.

        Returns:
            ``True`` if a player was taken off, ``False`` if nobody held the faction.

        Raises:
            UnknownCampaign: no such campaign.
        """
        async with self._locks.get(campaign_id):
            cached = await self._load(campaign_id)
            previous = cached.players.get(faction)
            if previous is None:
                return False
            after = {f: u for f, u in cached.players.items() if f != faction}
            await self._change_members(
                cached,
                after,
                cached.info.umpire_user_id,
                action="faction_unassigned",
                detail={"faction": faction, "previous": previous},
                by=by,
            )
        self._notify(campaign_id)
        return True

    def _faction_label(self, code: str) -> str:
        try:
            return f"{self.ruleset.faction(code).name} ({code})"
        except (KeyError, LookupError):
            return code

    async def _change_members(
        self,
        cached: _Cached,
        players: dict[str, int],
        umpire: int | None,
        *,
        action: str,
        detail: dict[str, Any],
        by: int | None,
    ) -> None:
        """Store who plays what and who umpires, queue the Discord access that follows
        (:func:`access_changes`) and log it, in one transaction; then update the cache.
        The caller holds the campaign's lock."""
        campaign_id = cached.info.id
        before_players = dict(cached.players)
        before_umpire = cached.info.umpire_user_id
        role = acting_role(cached.info, by)
        now = self._clock()

        def _tx(conn: Connection) -> CampaignInfo | None:
            for faction in before_players.keys() - players.keys():
                repo.remove_member(conn, campaign_id, faction)
            for faction, user in players.items():
                if before_players.get(faction) != user:
                    repo.set_member(conn, campaign_id, faction, user)
            if umpire != before_umpire:
                repo.update_campaign(conn, campaign_id, now=now, umpire_user_id=umpire)
            keys = sorted(repo.channels_of(conn, campaign_id))
            messages = access_changes(keys, (before_players, before_umpire), (players, umpire))
            repo.insert_outbox(conn, campaign_id, messages, now=now)
            repo.insert_audit(
                conn,
                campaign_id=campaign_id,
                user_id=by,
                action=action,
                detail={**detail, "as": role},
                now=now,
            )
            return repo.campaign_info(conn, campaign_id)

        info = await self.db.write(_tx)
        assert info is not None
        cached.info = info
        cached.players.clear()
        cached.players.update(players)

    async def open_thread(
        self,
        campaign_id: int,
        key: str,
        name: str,
        members: Sequence[int],
        *,
        by: int | None = None,
    ) -> tuple[ChannelRecord | None, bool]:
        """Make a private thread ``key`` under ``#announcements``, or reuse it if it was made
        before, and add ``members`` to it (adding a member twice changes nothing). Used for
        negotiation threads (R-PBP-NEG-01). Logged in the audit log.

        Returns:
            The thread's record as it was before this call (``None`` if new) and whether it is
            new. Its ``discord_id`` is ``None`` until the outbox has made it.
        """
        async with self._locks.get(campaign_id):
            await self._load(campaign_id)
            now = self._clock()

            def _tx(conn: Connection) -> tuple[ChannelRecord | None, bool]:
                existing = repo.channels_of(conn, campaign_id).get(key)
                messages: list[OutboxMessage] = []
                if existing is None:
                    repo.add_channel(conn, campaign_id, key, THREAD_PARENT)
                    messages.append(
                        OutboxMessage(
                            key,
                            OutboxKind.CREATE_THREAD,
                            {"name": name, "parent_key": THREAD_PARENT, "private": True},
                            dedupe_key=f"setup:{key}",
                            depends_on_key=f"setup:{THREAD_PARENT}",
                        )
                    )
                messages += [_add_member(key, user) for user in dict.fromkeys(members)]
                repo.insert_outbox(conn, campaign_id, messages, now=now)
                repo.insert_audit(
                    conn,
                    campaign_id=campaign_id,
                    user_id=by,
                    action="thread_opened" if existing is None else "thread_reused",
                    detail={"key": key, "members": list(members)},
                    now=now,
                )
                return existing, existing is None

            found = await self.db.write(_tx)
        self._notify(campaign_id)
        return found

    async def set_umpire(
        self, campaign_id: int, user_id: int, *, by: int | None = None
    ) -> UmpireChange:
        """Make ``user_id`` the campaign's umpire (R-PBP-UMP-01): ``#umpire`` and every orders
        and negotiation thread are opened to them (R-PBP-UMP-04) and closed to the umpire they
        replace, who stays only where they play a faction. The umpire may also play factions;
        the orders they give for factions they do not play are logged as the umpire's. Naming
        the same umpire again changes nothing. Logged as done by ``by``.

        Returns:
            The umpire replaced, whether anything changed, and the factions the new umpire
            plays.

        Raises:
            UnknownCampaign: no such campaign.
        """
        async with self._locks.get(campaign_id):
            cached = await self._load(campaign_id)
            previous = cached.info.umpire_user_id
            plays = tuple(sorted(f for f, u in cached.players.items() if u == user_id))
            if previous == user_id:
                return UmpireChange(previous, False, plays)
            await self._change_members(
                cached,
                dict(cached.players),
                user_id,
                action="umpire_set",
                detail={"umpire": user_id, "previous": previous},
                by=by,
            )
        self._notify(campaign_id)
        return UmpireChange(previous, True, plays)

    async def start(self, campaign_id: int, actor: Actor) -> SubmitResult:
        """Start the campaign: status ``active`` and the first game round begins
        (``StartCampaign``, R-TURN-01), in one transaction. Of two starts at once, one starts
        the campaign and the other is refused with :class:`AlreadyStarted`.

        Raises:
            NoUmpire: the campaign has no umpire yet (R-PBP-UMP-01).
            AlreadyStarted: the campaign is not being set up any more.
            NotAuthorised: the actor is neither the umpire, an admin nor the system.
        """
        from caedes_bot.rules.turn import StartCampaign

        info = (await self._load(campaign_id)).info
        if info.umpire_user_id is None:
            raise NoUmpire(
                f"{info.name} has no umpire yet.",
                rule="R-PBP-UMP-01",
                allowed="an admin names one with `/campaign umpire`",
            )
        try:
            return await self._submit(
                campaign_id,
                actor,
                StartCampaign(faction="UMPIRE"),
                interaction_id=None,
                from_status=CampaignStatus.SETTING_UP,
                to_status=CampaignStatus.ACTIVE,
            )
        except CampaignNotActive as err:  # started meanwhile (another /campaign start)
            now = (await self._load(campaign_id)).info
            raise AlreadyStarted(
                f"{now.name} has already started (it is {STATUS_TEXT[now.status]}).",
                allowed="`/campaign info` to see where it stands",
            ) from err

    async def set_status(
        self, campaign_id: int, status: CampaignStatus, *, by: int | None = None
    ) -> CampaignInfo:
        """Pause, resume or finish a campaign (R-PBP-UMP-05); logged in the audit log as done
        by ``by``."""
        async with self._locks.get(campaign_id):
            cached = await self._load(campaign_id)
            now = self._clock()

            def _tx(conn: Connection) -> CampaignInfo | None:
                repo.update_campaign(conn, campaign_id, now=now, status=status)
                repo.insert_audit(
                    conn,
                    campaign_id=campaign_id,
                    user_id=by,
                    action="status_changed",
                    detail={
                        "from": cached.info.status.value,
                        "to": status.value,
                        "as": acting_role(cached.info, by),
                    },
                    now=now,
                )
                info = repo.campaign_info(conn, campaign_id)
                return info

            info = await self.db.write(_tx)
            assert info is not None
            cached.info = info
            return info

    # ----------------------------------------------------------------------- orders

    async def submit(
        self,
        campaign_id: int,
        actor: Actor,
        order: Order,
        *,
        interaction_id: str | None = None,
        expect: Expect | None = None,
    ) -> SubmitResult:
        """Apply ``order`` to the campaign in one transaction.

        Args:
            campaign_id: the campaign.
            actor: who gives it (checked: the faction's player, the umpire for any faction,
                admins and the umpire for umpire orders, the system for anything).
            order: the order.
            interaction_id: the Discord interaction that caused it; the same id twice has
                one effect and the second call returns the first result (``duplicate=True``).
            expect: what the member saw (step, turn, decision), checked under the campaign's
                lock against the state the order is applied to.

        Returns:
            The events, the new version and the new state.

        Raises:
            RuleViolation: the rules refuse the order (nothing changed, nothing written).
            NotAuthorised: the actor may not give it (R-SETUP-02).
            CampaignNotActive: the campaign is not running (R-PBP-UMP-05).
            StaleOrder: ``expect`` no longer holds: the game has moved on (R-TURN-02).
            UnknownCampaign: no such campaign.
        """
        return await self._submit(
            campaign_id, actor, order, interaction_id=interaction_id, expect=expect
        )

    async def _submit(
        self,
        campaign_id: int,
        actor: Actor,
        order: Order,
        *,
        interaction_id: str | None,
        from_status: CampaignStatus = CampaignStatus.ACTIVE,
        to_status: CampaignStatus | None = None,
        expect: Expect | None = None,
    ) -> SubmitResult:
        async with self._locks.get(campaign_id):
            for _attempt in range(self._max_retries):
                cached = await self._load(campaign_id)
                try:
                    acting_as = self._authorise(cached, actor, order, from_status)
                    state = cached.state
                    if expect is not None:
                        expect.check(state, self.ruleset)
                    dice = self._dice_factory(state)
                    outcome = self._apply(state, order, self.ruleset, dice)
                except RuleViolation:
                    if interaction_id is not None:
                        first = await self._first_result(campaign_id, interaction_id)
                        if first is not None:
                            return first
                    raise
                try:
                    return await self._commit(
                        cached, actor, acting_as, order, outcome, interaction_id, to_status
                    )
                except repo.StaleVersion:
                    log.warning("campaign %s: stale version, reloading", campaign_id)
                    self._cache.pop(campaign_id, None)
                except IntegrityError:
                    if interaction_id is None:
                        raise
                    # another writer handled this interaction: our cached state is behind
                    self._cache.pop(campaign_id, None)
                    first = await self._first_result(campaign_id, interaction_id)
                    if first is None:
                        raise
                    return first
            raise RuntimeError(
                f"campaign {campaign_id}: gave up after {self._max_retries} stale writes"
            )

    def _authorise(
        self, cached: _Cached, actor: Actor, order: Order, from_status: CampaignStatus
    ) -> ActingAs:
        info = cached.info
        if info.status is not from_status:
            raise CampaignNotActive(
                f"Campaign {info.name} is {info.status.value.replace('_', ' ')}; "
                "no orders are taken now.",
                allowed="ask the umpire to start or resume it"
                if info.status is not CampaignStatus.FINISHED
                else "nothing: the campaign is over",
            )
        # who may give it is declared by the rules (R-PBP-UMP-01)
        umpire_order = engine.giver_of(type(order)) is Giver.UMPIRE
        if actor.system:
            return ActingAs.SYSTEM
        is_umpire = actor.user_id is not None and actor.user_id == info.umpire_user_id
        if umpire_order:
            if is_umpire:
                return ActingAs.UMPIRE
            if actor.is_admin:
                return ActingAs.ADMIN
            raise NotAuthorised(
                f"Only the umpire or an admin may give {type(order).__name__}.",
                rule="R-PBP-UMP-01",
                allowed="ask the umpire",
            )
        if actor.user_id is not None and cached.players.get(order.faction) == actor.user_id:
            return ActingAs.PLAYER
        if is_umpire:
            return ActingAs.UMPIRE
        mine = sorted(f for f, user in cached.players.items() if user == actor.user_id)
        raise NotAuthorised(
            f"You do not play {order.faction}.",
            allowed=f"orders for {', '.join(mine)}" if mine else "ask the umpire for a faction",
        )

    async def _commit(
        self,
        cached: _Cached,
        actor: Actor,
        acting_as: ActingAs,
        order: Order,
        outcome: engine.Outcome,
        interaction_id: str | None,
        to_status: CampaignStatus | None,
    ) -> SubmitResult:
        info = cached.info
        new_state = outcome.state
        events = outcome.events
        version = info.version + 1
        now = self._clock()
        state_json = dump_state(new_state)
        order_payload = dump_order(order)
        event_rows = [(dump_event(e), _audience(e)) for e in events]
        status = CampaignStatus.FINISHED if new_state.finished else to_status
        wanted = self.deadline_policy.wanted(new_state)
        new_keys = [k for k in wanted if k not in cached.deadline_keys]
        gone_keys = [k for k in cached.deadline_keys if k not in wanted]
        new_times = {k: self.deadline_policy.times(now, wanted[k][1]) for k in new_keys}
        due = {k: when for k, when in cached.deadline_due.items() if k in wanted}
        due.update({k: times[0] for k, times in new_times.items()})
        earlier: tuple[Event, ...] = ()
        if any(isinstance(e, TurnEnded) for e in events):
            stored = await self.db.read(lambda conn: repo.events_of_current_turn(conn, info.id))
            earlier = tuple(load_event(s.payload) for s in stored)
        view = CampaignView(cached.info, dict(cached.players), dict(due), earlier)
        messages = self.announcer.announce(
            view, events, new_state, self.ruleset, before=cached.state
        )
        result_doc = {
            "events": [payload for payload, _ in event_rows],
            "state_version": version,
            "order_seq": version,
            "acting_as": acting_as.value,
        }

        def _tx(conn: Connection) -> None:
            if interaction_id is not None:
                repo.insert_processed(
                    conn,
                    interaction_id=interaction_id,
                    campaign_id=info.id,
                    result=result_doc,
                    now=now,
                )
            repo.save_state(
                conn,
                campaign_id=info.id,
                expected_version=info.version,
                state_json=state_json,
                last_event_seq=cached.last_event_seq + len(events),
                now=now,
                status=status,
            )
            repo.insert_order(
                conn,
                campaign_id=info.id,
                seq=version,
                actor_user_id=actor.user_id,
                acting_as=acting_as,
                faction=order.faction,
                payload=order_payload,
                interaction_id=interaction_id,
                dice_before=cached.state.dice_rolls,
                dice_after=new_state.dice_rolls,
                now=now,
            )
            repo.insert_events(
                conn,
                campaign_id=info.id,
                first_seq=cached.last_event_seq + 1,
                order_seq=version,
                events=event_rows,
                now=now,
            )
            repo.insert_outbox(conn, info.id, messages, now=now)
            if gone_keys:
                repo.close_open_deadlines(conn, info.id, gone_keys)
            for key in new_keys:
                faction, _hours = wanted[key]
                due_at, reminder_at = new_times[key]
                repo.insert_deadline(
                    conn,
                    campaign_id=info.id,
                    decision_key=key,
                    faction=faction,
                    due_at=due_at,
                    reminder_at=reminder_at,
                )
            if acting_as in (ActingAs.UMPIRE, ActingAs.ADMIN):
                repo.insert_audit(
                    conn,
                    campaign_id=info.id,
                    user_id=actor.user_id,
                    action=f"order:{type(order).__name__}",
                    detail={"order": order_payload, "acting_as": acting_as.value, "seq": version},
                    now=now,
                )

        await self.db.write(_tx)
        new_info = CampaignInfo(
            id=info.id,
            guild_id=info.guild_id,
            name=info.name,
            scenario=info.scenario,
            status=status or info.status,
            version=version,
            created_by=info.created_by,
            umpire_user_id=info.umpire_user_id,
            category_id=info.category_id,
            created_at=info.created_at,
            updated_at=now,
        )
        self._cache[info.id] = _Cached(
            new_info,
            new_state,
            cached.last_event_seq + len(events),
            cached.players,
            frozenset(wanted),
            due,
        )
        self._notify(info.id)
        return SubmitResult(
            info.id, events, version, version, acting_as, False, new_state, cached.state
        )

    async def _first_result(self, campaign_id: int, interaction_id: str) -> SubmitResult | None:
        found = await self.db.read(lambda conn: repo.get_processed(conn, interaction_id))
        if found is None:
            return None
        stored_campaign, doc = found
        if stored_campaign != campaign_id:
            raise RuleViolation(
                "This interaction was already used for another campaign.", rule="R-GEN-00"
            )
        cached = await self._load(campaign_id)
        return SubmitResult(
            campaign_id=campaign_id,
            events=tuple(load_event(e) for e in doc["events"]),
            state_version=int(doc["state_version"]),
            order_seq=int(doc["order_seq"]),
            acting_as=ActingAs(doc["acting_as"]),
            duplicate=True,
            state=cached.state,
        )

    # ----------------------------------------------------------------------- loading

    async def _load(self, campaign_id: int) -> _Cached:
        cached = self._cache.get(campaign_id)
        if cached is not None:
            return cached

        def _tx(
            conn: Connection,
        ) -> tuple[repo.CampaignRecord, GameState, dict[str, int], list[DeadlineRecord], set[str]]:
            record = repo.load_campaign(conn, campaign_id)
            if record is None:
                raise UnknownCampaign(campaign_id)
            state = load_state(record.state_json)
            players = repo.players_of(conn, campaign_id)
            open_deadlines = repo.open_deadlines(conn, campaign_id)
            # a deadline the state still wants but that was acted on (a forfeited turn waiting
            # for a reaction) is closed, not missing: it must not be armed a second time
            armed = repo.existing_deadline_keys(
                conn, campaign_id, list(self.deadline_policy.wanted(state))
            )
            return record, state, players, open_deadlines, armed

        record, state, players, open_deadlines, armed = await self.db.read(_tx)
        cached = _Cached(
            record.info,
            state,
            record.last_event_seq,
            players,
            frozenset(d.decision_key for d in open_deadlines) | armed,
            {d.decision_key: d.due_at for d in open_deadlines},
        )
        current = self._cache.get(campaign_id)
        if current is None or current.info.version < cached.info.version:
            self._cache[campaign_id] = cached
        return self._cache[campaign_id]

    def forget(self, campaign_id: int | None = None) -> None:
        """Drop cached states (all, or one campaign's); the next access reads the database."""
        if campaign_id is None:
            self._cache.clear()
        else:
            self._cache.pop(campaign_id, None)

    # ----------------------------------------------------------------------- queries

    async def get_state(self, campaign_id: int) -> GameState:
        """The campaign's current state. Shared with the cache: read it, never change it.

        Raises:
            UnknownCampaign: no such campaign.
        """
        return (await self._load(campaign_id)).state

    async def get_view(self, campaign_id: int) -> CampaignView:
        """The campaign's row and who plays which faction, from the in-memory cache (read from
        the database on a miss); every change made through this service keeps it current.

        Raises:
            UnknownCampaign: no such campaign.
        """
        return (await self._load(campaign_id)).view()

    async def get_campaign(self, campaign_id: int) -> CampaignInfo:
        """The campaign's row. Raises :class:`UnknownCampaign`."""

        def _tx(conn: Connection) -> CampaignInfo | None:
            info = repo.campaign_info(conn, campaign_id)
            return info

        info = await self.db.read(_tx)
        if info is None:
            raise UnknownCampaign(campaign_id)
        return info

    async def campaigns(
        self, *, guild_id: int | None = None, statuses: Iterable[CampaignStatus] | None = None
    ) -> list[CampaignInfo]:
        """Campaigns in id order, optionally of one guild and in some statuses."""

        def _tx(conn: Connection) -> list[CampaignInfo]:
            return repo.list_campaigns(
                conn, guild_id=guild_id, statuses=None if statuses is None else list(statuses)
            )

        return await self.db.read(_tx)

    async def campaign_for_channel(self, discord_channel_id: int) -> CampaignInfo | None:
        """The campaign whose category, channel or thread has this Discord id, if any."""

        def _tx(conn: Connection) -> CampaignInfo | None:
            channel = repo.channel_by_discord_id(conn, discord_channel_id)
            if channel is None:
                return None
            return repo.campaign_info(conn, channel.campaign_id)

        return await self.db.read(_tx)

    async def channels(self, campaign_id: int) -> dict[str, ChannelRecord]:
        """The campaign's channels by key (``discord_id`` ``None`` until created)."""

        def _tx(conn: Connection) -> dict[str, ChannelRecord]:
            return repo.channels_of(conn, campaign_id)

        return await self.db.read(_tx)

    async def factions_of(self, campaign_id: int, user_id: int) -> list[str]:
        """The factions ``user_id`` plays in the campaign, sorted."""

        def _tx(conn: Connection) -> list[str]:
            return repo.factions_of(conn, campaign_id, user_id)

        return await self.db.read(_tx)

    async def players(self, campaign_id: int) -> dict[str, int]:
        """Faction -> player user id (factions without a player are the umpire's)."""

        def _tx(conn: Connection) -> dict[str, int]:
            return repo.players_of(conn, campaign_id)

        return await self.db.read(_tx)

    async def events(
        self, campaign_id: int, *, after_seq: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """The campaign's event log after ``after_seq``."""

        def _tx(conn: Connection) -> list[StoredEvent]:
            return repo.list_events(conn, campaign_id, after_seq=after_seq, limit=limit)

        return await self.db.read(_tx)

    async def deadlines(self, campaign_id: int) -> list[DeadlineRecord]:
        """The campaign's open deadlines, soonest first."""

        def _tx(conn: Connection) -> list[DeadlineRecord]:
            return repo.open_deadlines(conn, campaign_id)

        return await self.db.read(_tx)

    async def delivery_problems(self, campaign_id: int, *, limit: int = 5) -> list[DeliveryProblem]:
        """What the bot could not deliver to Discord for this campaign, for good (failed outbox
        rows: a channel it could not make, a member it could not add), newest first."""

        def _tx(conn: Connection) -> list[DeliveryProblem]:
            rows = repo.failed_outbox_rows(conn, campaign_id, limit=limit)
            return [
                DeliveryProblem(r.channel_key, r.kind, r.last_error or "no reason given", r.payload)
                for r in rows
            ]

        return await self.db.read(_tx)

    async def report_delivery_failure(
        self,
        campaign_id: int,
        row_id: int,
        problem: DeliveryProblem,
    ) -> None:
        """A row of the campaign failed for good: log it in the audit log and tell the umpire in
        ``#umpire`` (once per row), so a set-up or a post that Discord refused is never lost
        silently. A failure in ``#umpire`` itself, or of such a notice, is only logged."""
        now = self._clock()
        text = describe_problem(problem)
        notice = OutboxMessage(
            "umpire",
            OutboxKind.POST,
            {
                "content": f"⚠️ {text}. Check the bot's permissions in this server; "
                "`/campaign info` lists what failed.",
                "notice": True,
            },
            dedupe_key=f"failure:{row_id}",
        )
        tell = problem.channel_key != "umpire" and not problem.payload.get("notice")

        def _tx(conn: Connection) -> None:
            if repo.campaign_info(conn, campaign_id) is None:
                return
            if tell and not repo.outbox_key_exists(conn, campaign_id, notice.dedupe_key or ""):
                repo.insert_outbox(conn, campaign_id, [notice], now=now)
            repo.insert_audit(
                conn,
                campaign_id=campaign_id,
                user_id=None,
                action="delivery_failed",
                detail={
                    "row": row_id,
                    "channel_key": problem.channel_key,
                    "kind": problem.kind.value,
                    "error": problem.error[:500],
                    "as": ActingAs.SYSTEM.value,
                },
                now=now,
            )

        await self.db.write(_tx)
        self._notify(campaign_id)

    async def audit_log(self, campaign_id: int) -> list[AuditRecord]:
        """The campaign's audit log, oldest first."""

        def _tx(conn: Connection) -> list[AuditRecord]:
            return repo.list_audit(conn, campaign_id)

        return await self.db.read(_tx)

    async def queue_messages(self, campaign_id: int, messages: Sequence[OutboxMessage]) -> None:
        """Queue messages that report no state change (reminders, notices) in one transaction."""

        def _tx(conn: Connection) -> None:
            repo.insert_outbox(conn, campaign_id, messages, now=self._clock())

        await self.db.write(_tx)
        self._notify(campaign_id)

    # ----------------------------------------------------------------------- deadlines

    async def due_reminders(self, now: datetime) -> list[DeadlineRecord]:
        """Deadlines of active campaigns whose reminder is due and not sent (R-PBP-DEAD-02)."""
        return await self.db.read(lambda conn: repo.due_reminders(conn, now=now))

    async def due_deadlines(self, now: datetime) -> list[DeadlineRecord]:
        """Deadlines of active campaigns that have passed and not fired (R-PBP-DEAD-03)."""
        return await self.db.read(lambda conn: repo.due_deadlines(conn, now=now))

    async def next_deadline_time(self) -> datetime | None:
        """When the next reminder or deadline of an active campaign falls due."""
        return await self.db.read(repo.next_deadline_time)

    async def remind(self, deadline: DeadlineRecord, *, post: bool = True) -> None:
        """Queue the reminder of ``deadline`` to its faction's orders thread, pinging the
        faction's player only (ux.md "Pings"), and mark it sent, in one transaction.

        With ``post=False`` it is only marked sent: the faction owes nothing any more, and
        reminders go only to those who still owe something."""
        if not post:
            await self.db.write(lambda conn: repo.mark_reminded(conn, deadline.id))
            return
        cached = await self._load(deadline.campaign_id)
        unix = int(deadline.due_at.timestamp())
        faction = deadline.faction
        what = "its turn" if deadline.decision_key.startswith("turn:") else "a decision"
        player = cached.players.get(faction) if faction else None
        message = OutboxMessage(
            f"orders:{faction}" if faction else "umpire",
            OutboxKind.POST,
            {
                "content": f"Reminder: {faction or 'someone'} still owes {what}; "
                f"the deadline is <t:{unix}:R>.",
                "mention_user_ids": [player] if player is not None else [],
                "deadline": deadline.decision_key,
            },
            dedupe_key=f"reminder:{deadline.id}",
        )
        now = self._clock()

        def _tx(conn: Connection) -> None:
            if not repo.outbox_key_exists(conn, deadline.campaign_id, f"reminder:{deadline.id}"):
                repo.insert_outbox(conn, deadline.campaign_id, [message], now=now)
            repo.mark_reminded(conn, deadline.id)

        await self.db.write(_tx)
        self._notify(deadline.campaign_id)

    async def mark_deadline_fired(self, deadline: DeadlineRecord) -> None:
        """The deadline has been acted on (or needs nothing more)."""
        await self.db.write(lambda conn: repo.mark_fired(conn, deadline))

    async def move_deadline(
        self, deadline: DeadlineRecord, due_at: datetime, *, by: int | None = None
    ) -> None:
        """The umpire moves a deadline (R-PBP-UMP-03); its reminder is re-armed. Logged."""
        window = due_at - self._clock()
        lead = min(
            window * self.deadline_policy.reminder_fraction,
            self.deadline_policy.max_reminder_lead,
        )
        now = self._clock()

        def _tx(conn: Connection) -> None:
            repo.set_deadline_due(conn, deadline.id, due_at=due_at, reminder_at=due_at - lead)
            repo.insert_audit(
                conn,
                campaign_id=deadline.campaign_id,
                user_id=by,
                action="deadline_moved",
                detail={"deadline": deadline.decision_key, "due_at": due_at.isoformat()},
                now=now,
            )

        await self.db.write(_tx)
        cached = self._cache.get(deadline.campaign_id)
        if cached is not None and deadline.decision_key in cached.deadline_keys:
            cached.deadline_due[deadline.decision_key] = due_at
        self._notify(deadline.campaign_id)

    # ----------------------------------------------------------------------- replay

    async def replay(self, campaign_id: int, *, check: bool = True) -> GameState:
        """The campaign's state rebuilt from its order log: ``new_game`` with the stored seed,
        then every stored order applied with the campaign's seeded dice (R-GEN-01).

        Args:
            check: compare each order's dice counts with the log, and the end state with the
                stored one.

        Raises:
            ReplayMismatch: ``check`` and the replay differs from what was stored.
            UnknownCampaign: no such campaign.
        """

        def _tx(conn: Connection) -> tuple[repo.CampaignRecord, list[StoredOrder]]:
            record = repo.load_campaign(conn, campaign_id)
            if record is None:
                raise UnknownCampaign(campaign_id)
            orders = repo.list_orders(conn, campaign_id)
            return record, orders

        record, orders = await self.db.read(_tx)
        stored = load_state(record.state_json)
        state = self._new_game(self.ruleset, record.info.scenario, stored.dice_seed)
        for row in orders:
            if check and row.dice_before != state.dice_rolls:
                raise ReplayMismatch(
                    f"order {row.seq}: {state.dice_rolls} dice rolled before, log says "
                    f"{row.dice_before}"
                )
            dice = SeededDice(state.dice_seed, state.dice_rolls)
            state = self._apply(state, load_order(row.payload), self.ruleset, dice).state
            if check and row.dice_after != state.dice_rolls:
                raise ReplayMismatch(f"order {row.seq}: dice count differs after it")
        if check and dump_state(state) != dump_state(stored):
            raise ReplayMismatch(f"campaign {campaign_id}: replayed state differs from stored")
        return state


def _seeded_dice(state: GameState) -> Dice:
    """The campaign's own dice: seeded, resuming at its roll count (R-GEN-01)."""
    return SeededDice(state.dice_seed, state.dice_rolls)


def _audience(event: Event) -> list[str] | None:
    audience = event.audience()
    return None if audience is None else list(audience)


def _add_member(channel_key: str, user_id: int) -> OutboxMessage:
    return OutboxMessage(channel_key, OutboxKind.ADD_THREAD_MEMBER, {"user_id": user_id})


def _thread_factions(key: str) -> list[str] | None:
    """The factions whose players belong in a thread: ``orders:DAW`` -> ``["DAW"]``,
    ``talks:DAW+ORC`` -> ``["DAW", "ORC"]``; ``None`` for a key that is not such a thread."""
    kind, _, rest = key.partition(":")
    if kind == "orders" and rest:
        return [rest]
    if kind == "talks" and rest:
        return rest.split("+")
    return None


def _wanted_members(
    keys: Iterable[str], players: Mapping[str, int], umpire: int | None
) -> dict[str, set[int]]:
    """Who belongs in each orders and negotiation thread: the players of its factions and the
    umpire (R-PBP-NEG-01, R-PBP-NEG-06, R-PBP-UMP-04)."""
    wanted: dict[str, set[int]] = {}
    for key in keys:
        factions = _thread_factions(key)
        if factions is None:
            continue
        members = {players[f] for f in factions if f in players}
        if umpire is not None:
            members.add(umpire)
        wanted[key] = members
    return wanted


def access_changes(
    keys: Sequence[str],
    before: tuple[Mapping[str, int], int | None],
    after: tuple[Mapping[str, int], int | None],
) -> list[OutboxMessage]:
    """The outbox rows that take a campaign's Discord access from ``before`` to ``after``,
    each a ``(players, umpire)`` pair.

    Threads (``orders:*``, ``talks:*`` among ``keys``) hold their factions' players and the
    umpire: a member who no longer belongs is removed and one who newly belongs is added; a
    member who belongs both before and after (an old umpire who plays the faction) is left
    alone. ``#umpire`` (if among ``keys``) is opened to a new umpire and closed to the old one.
    Rows for the same place keep their order, so applying them again changes nothing.
    """
    rows: list[OutboxMessage] = []
    old_umpire, new_umpire = before[1], after[1]
    if old_umpire != new_umpire and "umpire" in keys:
        if old_umpire is not None:
            rows.append(
                OutboxMessage("umpire", OutboxKind.REVOKE_CHANNEL_ACCESS, {"user_id": old_umpire})
            )
        if new_umpire is not None:
            rows.append(
                OutboxMessage("umpire", OutboxKind.GRANT_CHANNEL_ACCESS, {"user_id": new_umpire})
            )
    was = _wanted_members(keys, *before)
    now = _wanted_members(keys, *after)
    for key in now:
        for user in sorted(was[key] - now[key]):
            rows.append(OutboxMessage(key, OutboxKind.REMOVE_THREAD_MEMBER, {"user_id": user}))
        for user in sorted(now[key] - was[key]):
            rows.append(_add_member(key, user))
    return rows


def acting_role(info: CampaignInfo, user_id: int | None) -> str:
    """In which capacity a member does an administration act, for the audit log:
    ``"umpire"`` (the campaign's umpire), ``"admin"`` (anyone else allowed to), ``"system"``
    (the bot itself)."""
    if user_id is None:
        return ActingAs.SYSTEM.value
    if user_id == info.umpire_user_id:
        return ActingAs.UMPIRE.value
    return ActingAs.ADMIN.value


def place_text(key: str) -> str:
    """A campaign place in words: ``"#battles"``, ``"the orders thread of DAW"``."""
    kind, _, rest = key.partition(":")
    if key == "category":
        return "the campaign's category"
    if kind == "orders":
        return f"the orders thread of {rest}"
    if kind == "talks":
        return "the negotiation thread of " + " and ".join(rest.split("+"))
    return f"#{key}"


def describe_problem(problem: DeliveryProblem) -> str:
    """A failed delivery in one line: ``"Could not make #battles: Discord refused (403 ...)"``."""
    payload = problem.payload
    place = place_text(problem.channel_key)
    user = f"<@{payload['user_id']}>" if isinstance(payload.get("user_id"), int) else "a member"
    name = str(payload.get("name") or problem.channel_key)
    what = {
        OutboxKind.CREATE_CATEGORY: f"make the category {name}",
        OutboxKind.CREATE_CHANNEL: f"make #{name}",
        OutboxKind.CREATE_THREAD: f"make the thread {name}",
        OutboxKind.POST: f"post in {place}",
        OutboxKind.EDIT: f"edit a message in {place}",
        OutboxKind.ADD_THREAD_MEMBER: f"add {user} to {place}",
        OutboxKind.REMOVE_THREAD_MEMBER: f"remove {user} from {place}",
        OutboxKind.GRANT_CHANNEL_ACCESS: f"open {place} to {user}",
        OutboxKind.REVOKE_CHANNEL_ACCESS: f"close {place} to {user}",
    }.get(problem.kind, f"deliver to {place}")
    error = " ".join(problem.error.split())
    return f"Could not {what}: {error[:300]}"
