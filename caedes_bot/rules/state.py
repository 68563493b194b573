"""The game state: everything that changes during a campaign, as plain dataclasses.

The state is a tree of plain dataclasses holding only JSON-friendly values (str, int, bool,
None, lists, dicts with str keys, enums that are ``StrEnum``/``IntEnum``, nested dataclasses), so
that :mod:`caedes_bot.persistence` can store it as JSON (in parts: one per unit, per faction and
per section, docs/decisions/0008).

The rules never mutate a state they were given: :func:`caedes_bot.rules.engine.apply` works on
a :meth:`GameState.clone` and returns it; the clone shares what the order does not change
(:mod:`caedes_bot.rules.sharing`, docs/decisions/0012).

Space ids are province ids, sea zone ids, or river edge ids (see
:func:`caedes_bot.gamedata.model.river_edge_id`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar

from caedes_bot.gamedata.model import Options, Terrain
from caedes_bot.rules.frozen import quick_init
from caedes_bot.rules.sharing import CopyPlan, CowTable, copy_plain


class Step(enum.IntEnum):
    """The eight steps of a turn, in order (R-TURN-02)."""

    TRADE = 1
    REDEEM = 2
    COLLECT = 3
    UPKEEP = 4
    BUY = 5
    MOVE = 6
    COMBAT = 7
    MUSTER = 8

    @property
    def label(self) -> str:
        return f"{self.value} {self.name.title()}"


@dataclass
class Unit:
    """One unit on the board.

    Attributes:
        id: unique within the campaign, never reused.
        kind: unit kind id (``U-DAW-01``, ``H-DAW-01``).
        owner: faction code.
        location: space id (province, sea zone or river edge).
        wounded: a Fortitude unit that has taken one hit (R-ATTR-FORTI-01).
        movement_used: movement points spent this turn (R-MOVE-01).
        move_ended: may not move again this turn (entire-movement cost paid, attack made,
            withdrawal, R-MOVE-04, R-MOVE-02, R-COMBAT-08).
        entered_from: the space this unit entered its current space from during this turn's
            movement, or ``None`` if it has not moved (R-COMBAT-08).
        path: every space entered this turn, in order (for display and blitz withdrawal).
        terrain: the terrain it uses in its multi-terrain province, for movement and combat
            (R-MOVE-03); ``None`` means the rules choose the best.
        muster_seq: order of muster in the campaign: scenario units first, in the scenario's
            order (R-UPK-03 tie-break).
        aboard: id of the ship carrying it, if any (R-MOVE-14).
        attacking: it entered a space with units of a non-pact faction this turn and waits
            to fight there in step 7 (R-MOVE-02, R-COMBAT-01).
        flew: it made a flying move this turn, so it may not fly out of a battle (R-ATTR-FLY-02).
        embarked: it went aboard a ship this turn (its boarding move, R-MOVE-15).
        landed: it disembarked from a ship this turn (R-MOVE-15): it entered its province by a
            boarding move (R-COMBAT-09, R-MOVE-20).
    """

    id: int
    kind: str
    owner: str
    location: str
    wounded: bool = False
    movement_used: int = 0
    move_ended: bool = False
    entered_from: str | None = None
    path: list[str] = field(default_factory=list)
    terrain: Terrain | None = None
    muster_seq: int = 0
    aboard: int | None = None
    attacking: bool = False
    flew: bool = False
    embarked: bool = False
    landed: bool = False


@dataclass(frozen=True)
class DivinerBonus:
    """A one-time bonus a Diviner rolled (R-MAGIC-DIV-01): ``amount`` of ``commodity``, paid at
    the faction's next step 3 if ``province`` is then collectible (R-COLL-04)."""

    province: str
    commodity: str
    amount: int


@dataclass
class FactionState:
    """One faction's private holdings and turn bookkeeping (R-GEN-07: secret from others).

    Attributes:
        code: faction code.
        rp: resource points, never negative (R-BUY-02).
        commodities: stock by commodity value (``"grain"``), no limit (R-COMM-01).
        purchases: unit kind ids bought this turn, waiting for step 8 (R-BUY-01).
        purchase_prices: RP paid for each entry of ``purchases``, same order and length
            (``CancelPurchase`` refunds what was paid).
        earmarks: commodities earmarked in step 2 for discounts this turn (R-COMM-02).
        salt_credit: Salt redeemed against this turn's upkeep (R-COMM-07).
        disband_marks: ids of its units marked to be disbanded at the start of step 4, in id
            order (R-UPK-02 as ruled); marked in steps 1 to 4 of its own turn, dropped with a
            unit that leaves the board or the faction, and empty once step 4 has begun.
        income_basis: provinces owned and garrisoned without a break since the end of this
            faction's previous turn (R-COLL-04); kept up to date as units move and owners change.
        held_since_turn_start: provinces owned (and garrisoned) without a break since the start
            of this faction's current or last turn; becomes ``income_basis`` at the end of its
            turn under the ``full_round`` option of R-COLL-04.
        turns_taken: how many turns this faction has begun (0 before its first, R-TURN-06).
        eliminated: out of the game (R-VIC-05).
        hero_alive: its designated Hero is on the board (or it never had one) (R-FEAL-03).
        diviner_bonuses: divinations waiting for its next step 3 (R-MAGIC-DIV-01).
    """

    code: str
    rp: int = 0
    commodities: dict[str, int] = field(default_factory=dict)
    purchases: list[str] = field(default_factory=list)
    purchase_prices: list[int] = field(default_factory=list)
    earmarks: dict[str, int] = field(default_factory=dict)
    salt_credit: int = 0
    disband_marks: list[int] = field(default_factory=list)
    income_basis: list[str] = field(default_factory=list)
    held_since_turn_start: list[str] = field(default_factory=list)
    turns_taken: int = 0
    eliminated: bool = False
    hero_alive: bool = True
    diviner_bonuses: list[DivinerBonus] = field(default_factory=list)


class Side(enum.StrEnum):
    """The two sides of a battle (glossary; R-COMBAT-01)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


class CombatStep(enum.StrEnum):
    """The dice-rolling steps of a battle round (R-COMBAT-04, R-COMBAT-05)."""

    MISSILE = "missile"
    MELEE = "melee"


class BattlePhase(enum.StrEnum):
    """Where a battle stands (R-COMBAT-03); the battle waits in the last three.

    ``round_start``: the round-start phase (R-COMBAT-03, :attr:`Battle.start_done` says how far
    it is; it may wait for a decision), then the missile step.
    ``missile_casualties`` / ``melee_casualties``: that step's dice are rolled; waiting for
    casualty choices (R-COMBAT-06). ``press_or_withdraw``: waiting for the attacker (R-COMBAT-08).
    ``missile_illusion`` / ``melee_illusion``: that step's dice are rolled; waiting for an
    Illusionist's rerolls before the hits are counted (R-MAGIC-ILL-01). ``enchantment``: the
    round is over; waiting for the victims of its enchantments to be picked (R-MAGIC-ENCH-01).
    """

    ROUND_START = "round_start"
    MISSILE_CASUALTIES = "missile_casualties"
    MELEE_CASUALTIES = "melee_casualties"
    PRESS_OR_WITHDRAW = "press_or_withdraw"
    MISSILE_ILLUSION = "missile_illusion"
    MELEE_ILLUSION = "melee_illusion"
    ENCHANTMENT = "enchantment"


class DiePurpose(enum.StrEnum):
    """What a battle die is rolled for (R-COMBAT-04, R-COMBAT-12)."""

    NORMAL = "normal"
    """The unit's attack or defense roll (two dice if Mighty, R-ATTR-MIGHTY-01)."""
    BREATH = "breath"
    """A breath die (R-ATTR-BREATH-01): at or under the target hits the enemy, a 10 its own side."""
    INVOKE = "invoke"
    """An invoker die (R-MAGIC-INV-01)."""
    ENCHANT = "enchant"
    """An Enchanter's die (R-MAGIC-ENCH-01): ``hit`` means the enchantment succeeded."""


class BattleAction(enum.StrEnum):
    """A special action a unit may declare at the start of a round instead of its normal
    dice (R-COMBAT-12); each is the unit's attribute of the same name."""

    BREATH = "breathweapon"
    ABJURE = "abjurer"
    ENCHANT = "enchanter"
    INVOKE = "invoker"


@dataclass(frozen=True)
class BattleDie:
    """One battle die (R-GEN-08, R-COMBAT-16): who rolled it, against what, and what it showed.

    Attributes:
        unit: the rolling unit's id. kind: its kind id. side: its side.
        target: the number to roll at or under (R-GEN-02); for breath dice under
            ``breath_mode = over``, the lowest face that hits (up to 9). value: the face (1..10).
        hit: whether it hit the other side (for an enchant die: whether it succeeded).
        purpose: what it was rolled for. own_side: a breath 10, a hit on the roller's own
            side (R-ATTR-BREATH-01).
        rerolled: an Illusionist forced a reroll; the die of the step whose ``replaces`` is
            this die's place in the step's dice counts instead (R-MAGIC-ILL-01).
        replaces: for a reroll, the place in the step's dice of the die it replaced.
        void: the die does not count: its Illusionist used its power this step instead.
    """

    unit: int
    kind: str
    side: Side
    target: int
    value: int
    hit: bool
    purpose: DiePurpose = DiePurpose.NORMAL
    own_side: bool = False
    rerolled: bool = False
    replaces: int | None = None
    void: bool = False

    @property
    def counts(self) -> bool:
        """Whether the die's result stands (not rerolled away, not void)."""
        return not (self.rerolled or self.void)


@dataclass
class BattleStepRecord:
    """One missile or melee step of a battle, every die included (R-COMBAT-04, -05, -16).

    ``destroyed`` and ``wounded`` are filled in when the step's casualties are removed.
    """

    round: int
    step: CombatStep
    dice: list[BattleDie] = field(default_factory=list)
    hits_on_attacker: int = 0
    hits_on_defender: int = 0
    destroyed: list[int] = field(default_factory=list)
    wounded: list[int] = field(default_factory=list)
    absorbed: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class StandingOrder:
    """A standing declaration for one battle (R-COMBAT-12): ``count`` of ``faction``'s units of
    ``kind`` use ``action`` every round; ``ask``: ask the faction again at every round start."""

    faction: str
    kind: str
    action: BattleAction
    count: int
    ask: bool = False


@dataclass(frozen=True)
class Enchantment:
    """Unit ``unit`` fights for ``faction`` on the side of the Enchanter ``enchanter``
    (R-MAGIC-ENCH-01, -03)."""

    unit: int
    enchanter: int
    faction: str


class NoteKind(enum.StrEnum):
    """What a :class:`BattleNote` records."""

    DECLARED = "declared"
    """A faction set its standing declarations (R-COMBAT-12)."""
    ENCHANTED = "enchanted"
    """Units changed sides to their Enchanters' (R-MAGIC-ENCH-01)."""
    REVERTED = "reverted"
    """Units went back to their owner when their Enchanter fell (R-MAGIC-ENCH-03)."""


@dataclass(frozen=True)
class BattleNote:
    """Something the battle message shows beside the dice (R-COMBAT-16): a change of standing
    declarations or of sides, in round ``round``.

    Attributes:
        faction: who declared, or whose units were taken or came back.
        units: the units concerned (for ``enchanted``: the units taken, in the order of
            ``enchanters``).
        orders: for ``declared``, the faction's standing orders after the change.
        illusion_threshold: for ``declared``, its Illusionists' rule (``None``: none).
        enchanters: for ``enchanted``, the Enchanter of each unit taken.
        by_default: for ``declared``, a missed deadline set them (R-PBP-DEAD-04).
    """

    round: int
    kind: NoteKind
    faction: str
    units: tuple[int, ...] = ()
    orders: tuple[StandingOrder, ...] = ()
    illusion_threshold: int | None = None
    enchanters: tuple[int, ...] = ()
    by_default: bool = False


@dataclass
class CasualtyShare:
    """Hits one faction's units must take in the current step (R-COMBAT-06).

    Attributes:
        faction: whose units take the hits. side: its side.
        hits: hits to assign, already capped at what its units can absorb.
        chooser: the faction that chooses (option ``casualty_chooser``).
        decision: id of the pending ``casualties`` decision, if the chooser has a real choice.
        assignment: chosen unit ids (a Fortitude unit listed twice takes two hits), once known.
    """

    faction: str
    side: Side
    hits: int
    chooser: str
    decision: int | None = None
    assignment: list[int] | None = None


@dataclass
class Battle:
    """The battle being fought in step 7 (R-COMBAT-01..13); rules in :mod:`caedes_bot.rules.combat`.

    Attributes:
        id: unique within the campaign.
        space: where it is fought.
        attacker: the active faction. defenders: the defending factions, hand-out order first
            (the province owner, then turn order: R-COMBAT-06).
        attacker_units / defender_units: ids of the units still fighting on each side.
        round: battle round, from 1. phase: where the round stands.
        owed: this step's hits, per faction, while casualties are being chosen; a share in
            the list is never changed (:func:`~caedes_bot.rules.combat.battle.settle` puts a
            settled copy in its place), so the clones of the state share them.
        hitless_rounds: rounds in a row with no unit removed or wounded (R-COMBAT-13).
        round_losses: a unit has been removed or wounded in the current round.
        records: every missile and melee step so far, with every die.
        withdrawn: attacking units that withdrew; still cleaned up at the end (R-ATTR-FORTI-02).
        start_done: slots of the round-start phase done this round
            (:mod:`caedes_bot.rules.combat.round_start`, R-COMBAT-03).
        no_summons: factions that answered "no summons this battle": not asked again in it
            (R-MAGIC-SUMM-01).
        standing: the standing declarations of special actions (R-COMBAT-12).
        illusion_rules: per faction, reroll whenever at least this many eligible hits land;
            0 means ask each time (R-MAGIC-ILL-01).
        declared: units using their special action this round (R-COMBAT-12).
        abjured: declared Abjurers whose cancel is used up this round (R-MAGIC-ABJ-01).
        illusion_used: Illusionists that used their power this round (R-MAGIC-ILL-01).
        enchant_successes: Enchanters whose die succeeded this round (R-MAGIC-ENCH-01).
        enchanted: units fighting for the other side (R-MAGIC-ENCH-01, -03); each stands in
            the unit list of the side it fights for.
        notes: changes of declarations and of sides, for the battle message (R-COMBAT-16).

    The containers of :data:`BATTLE_REPLACED` (``withdrawn`` and ``no_summons`` to ``notes``)
    are never changed in place: every writer assigns a new list or dict, so a clone of the
    state shares them with its source (:meth:`GameState.clone`, decision 0013).
    """

    id: int
    space: str
    attacker: str
    defenders: list[str]
    attacker_units: list[int]
    defender_units: list[int]
    round: int = 1
    phase: BattlePhase = BattlePhase.ROUND_START
    owed: list[CasualtyShare] = field(default_factory=list)
    hitless_rounds: int = 0
    round_losses: bool = False
    records: list[BattleStepRecord] = field(default_factory=list)
    withdrawn: list[int] = field(default_factory=list)
    start_done: int = 0
    no_summons: list[str] = field(default_factory=list)
    standing: list[StandingOrder] = field(default_factory=list)
    illusion_rules: dict[str, int] = field(default_factory=dict)
    declared: list[int] = field(default_factory=list)
    abjured: list[int] = field(default_factory=list)
    illusion_used: list[int] = field(default_factory=list)
    enchant_successes: list[int] = field(default_factory=list)
    enchanted: list[Enchantment] = field(default_factory=list)
    notes: list[BattleNote] = field(default_factory=list)

    def units(self, side: Side) -> list[int]:
        """Ids of the units still fighting on ``side``."""
        return self.attacker_units if side is Side.ATTACKER else self.defender_units

    def memo(self) -> dict[object, object]:
        """Scratch values worked out once for this battle (each unit's fighter,
        :func:`caedes_bot.rules.combat.sides.battle_fighters`). Not a field: never stored,
        compared or pickled; a clone gets its own copy of the dict, but the values in it may be
        shared with the source's, so each use must check what a value was made from."""
        memo: dict[object, object] | None = self.__dict__.get("_memo")
        if memo is None:
            memo = self.__dict__["_memo"] = {}
        return memo

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state.pop("_memo", None)
        return state


#: the fields of :class:`Battle` whose containers are only ever replaced, never changed in
#: place (the battle magic's and the withdrawals' bookkeeping): a clone shares them
#: (``tests/rules/test_copy_plan.py`` checks the rules write them only by assignment)
BATTLE_REPLACED = (
    "withdrawn",
    "no_summons",
    "standing",
    "illusion_rules",
    "declared",
    "abjured",
    "illusion_used",
    "enchant_successes",
    "enchanted",
    "notes",
)


@dataclass
class TradeOffer:
    """An open trade offer made in step 1, waiting for the counterparty (R-TRADE-01, R-TRADE-02).

    Attributes:
        id: unique within the campaign (from :meth:`GameState.new_id`).
        proposer: the active faction that made the offer.
        counterparty: the faction that may accept or decline it.
        give_rp: RP the proposer gives.
        give_commodities: commodity value -> count the proposer gives.
        receive_rp: RP the counterparty gives.
        receive_commodities: commodity value -> count the counterparty gives.
    """

    id: int
    proposer: str
    counterparty: str
    give_rp: int = 0
    give_commodities: dict[str, int] = field(default_factory=dict)
    receive_rp: int = 0
    receive_commodities: dict[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------- pending decisions


class DecisionKind(enum.StrEnum):
    """What a pending decision asks (design.md section 3); stored as its value.

    Each kind has one detail class (:data:`DecisionDetail`) and one default answer, in the
    ``defaults`` of the spec of the step that asks it (R-PBP-DEAD-04).
    """

    CASUALTIES = "casualties"
    """Which of a faction's units take the hits it owes in a battle step (R-COMBAT-06);
    detail :class:`CasualtiesDetail`."""

    PRESS_OR_WITHDRAW = "press_or_withdraw"
    """Whether the attacker fights another round or withdraws (R-COMBAT-08), some units
    perhaps bound to stay (R-COMBAT-09); detail :class:`PressOrWithdrawDetail`."""

    UPKEEP_DISBAND = "upkeep_disband"
    """Which units go when RP cannot pay the upkeep bill (R-UPK-03); detail
    :class:`UpkeepDisbandDetail`."""

    SUMMONS = "summons"
    """Whether a faction with a Summoner in a battle summons units into it as a round begins
    (R-MAGIC-SUMM-01); detail :class:`SummonsDetail`."""
    DECLARE_ACTIONS = "declare_actions"
    """How many of each kind of a faction's units use their special action, as standing
    orders for the battle, and the Illusionists' standing rule (R-COMBAT-12, R-MAGIC-ILL-01);
    detail :class:`DeclarationsDetail`."""

    ILLUSION_REROLL = "illusion_reroll"
    """Which enemy hit dice an Illusionist forces to be rerolled (R-MAGIC-ILL-01); detail
    :class:`RerollDetail`."""

    ENCHANT_VICTIM = "enchant_victim"
    """Which of its units an enchantment takes (R-MAGIC-ENCH-01); detail
    :class:`EnchantVictimDetail`."""

    BLITZ = "blitz"
    """Whether blitz units that won a battle move on, and where (R-ATTR-BLITZ-02); detail
    :class:`BlitzDetail`."""

    COME_ASHORE = "come_ashore"
    """Where Amphibian units that won a battle at sea go ashore (R-ATTR-AMPH-02); detail
    :class:`ComeAshoreDetail`."""

    MERCENARIES = "mercenaries"
    """Which of a faction's excess Mercenaries are destroyed, at the start of a turn in one
    space or at the start of a battle round on one side (R-ATTR-MERC-01); detail
    :class:`MercenariesDetail`."""


@dataclass(frozen=True, slots=True)
class CasualtyCandidate:
    """One unit that may take a hit, as a ``casualties`` decision shows it (R-COMBAT-06).

    Attributes:
        id: unit id. kind: unit kind id. wounded: it has already taken a hit (R-ATTR-FORTI-01).
        max_hits: hits it can still absorb this step (2 for an unwounded Fortitude unit).
    """

    id: int
    kind: str
    wounded: bool
    max_hits: int


@dataclass(frozen=True, slots=True)
class CasualtiesDetail:
    """What a ``casualties`` decision asks (R-COMBAT-06).

    Attributes:
        battle: the battle's id. space: where it is fought. round: battle round, from 1.
        step: the dice step whose hits are owed.
        faction: whose units take the hits (the chooser may be the opponent, option
            ``casualty_chooser``).
        hits: hits to assign, already capped at what the units can absorb.
        units: the faction's fighting units, in id order.
        default: the unit ids the bot chooses if asked to (a unit listed twice takes two hits).
    """

    kind: ClassVar[DecisionKind] = DecisionKind.CASUALTIES
    battle: int
    space: str
    round: int
    step: CombatStep
    faction: str
    hits: int
    units: tuple[CasualtyCandidate, ...]
    default: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PressOrWithdrawDetail:
    """What a ``press_or_withdraw`` decision asks the attacker (R-COMBAT-08, R-COMBAT-09).

    Attributes:
        battle: the battle's id. space: where it is fought. round: the round just ended.
        can_withdraw: ids of the attacking units that may withdraw.
        must_stay: ids of the attacking units that may not (R-COMBAT-09).
    """

    kind: ClassVar[DecisionKind] = DecisionKind.PRESS_OR_WITHDRAW
    battle: int
    space: str
    round: int
    can_withdraw: tuple[int, ...]
    must_stay: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DisbandCandidate:
    """One unit that counts for upkeep, as an ``upkeep_disband`` decision shows it (R-UPK-03).

    Attributes:
        id: unit id. kind: unit kind id. name: the kind's display name. space: where it is.
        cost: the kind's price in RP, ``None`` for a kind that is never bought (a Hero).
        hero: it is a Hero (disbanded last by default).
        cargo: ids of the units aboard it, which go with it (R-MOVE-19).
    """

    id: int
    kind: str
    name: str
    space: str
    cost: int | None
    hero: bool
    cargo: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class UpkeepDisbandDetail:
    """What an ``upkeep_disband`` decision asks (R-UPK-01, R-UPK-03, R-COMM-07).

    Attributes:
        round: game round. bill: RP owed after Salt. upkeep: ceil(N/6) before Salt.
        salt: Salt credit redeemed this turn. rp: RP held. units_counted: N.
        must_disband_at_least: counted units that must leave the board before the bill fits.
        candidates: the counted units, in the bot's disbanding order.
        default: the unit ids the bot disbands if asked to.
    """

    kind: ClassVar[DecisionKind] = DecisionKind.UPKEEP_DISBAND
    round: int
    bill: int
    upkeep: int
    salt: int
    rp: int
    units_counted: int
    must_disband_at_least: int
    candidates: tuple[DisbandCandidate, ...]
    default: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ComeAshoreDetail:
    """Where the Amphibian units that won a battle at sea go ashore (R-ATTR-AMPH-02).

    Attributes:
        after_battle: the id of the battle just won. space: the sea zone it was fought in.
        units: ids of the surviving Amphibian attackers there.
        choices: the provinces on that sea zone's coast they may go to (no non-pact units
            there), in id order.
        default: the bot's answer if none comes: each unit back to its origin (empty here:
            the origins are the units' ``entered_from``).
    """

    kind: ClassVar[DecisionKind] = DecisionKind.COME_ASHORE
    after_battle: int
    space: str
    units: tuple[int, ...]
    choices: tuple[str, ...]
    default: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class BlitzDetail:
    """What a ``blitz`` decision asks the attacker after a won battle (R-ATTR-BLITZ-02).

    Attributes:
        after_battle: the id of the battle just won. space: where it was fought.
        units: ids of the surviving blitz units there with movement left.
        default: the bot's answer if none comes: stop (no unit moves on).
    """

    kind: ClassVar[DecisionKind] = DecisionKind.BLITZ
    after_battle: int
    space: str
    units: tuple[int, ...]
    default: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DeclarableKind:
    """One kind of unit with a special action, as a ``declare_actions`` decision shows it
    (R-COMBAT-12).

    Attributes:
        kind: unit kind id. action: its special action. units: how many of the faction's units
            of that kind fight. default: how many would use it on a missed deadline.
        standing: the standing count so far, ``None`` if none was declared. ask: the faction
            asked to be asked at every round start.
        chosen, chosen_ask: the count (and ask) the faction picked for this kind while the
            decision is open (a partial answer), ``None`` if not picked yet.
    """

    kind: str
    action: BattleAction
    units: int
    default: int
    standing: int | None = None
    ask: bool = False
    chosen: int | None = None
    chosen_ask: bool = False


@dataclass(frozen=True, slots=True)
class DeclarationsDetail:
    """What a ``declare_actions`` decision asks (R-COMBAT-12, R-MAGIC-ILL-01).

    Attributes:
        battle, space, round: the battle, where, and the round about to be fought.
        faction: who declares. choices: each kind of its units with a special action.
        illusionists: how many Illusionists it has fighting (0: no standing rule asked).
        illusion_default: the standing rule on a missed deadline: reroll whenever at least
            this many eligible hits land.
        illusion_chosen: the Illusionist rule picked while the decision is open (a partial
            answer), ``None`` if not picked yet.
    """

    kind: ClassVar[DecisionKind] = DecisionKind.DECLARE_ACTIONS
    battle: int
    space: str
    round: int
    faction: str
    choices: tuple[DeclarableKind, ...]
    illusionists: int = 0
    illusion_default: int = 1
    illusion_chosen: int | None = None


@dataclass(frozen=True, slots=True)
class RerollCandidate:
    """An enemy hit die an Illusionist may force to be rerolled (R-MAGIC-ILL-01).

    Attributes:
        index: its place in the step's dice. unit, kind: who rolled it. purpose: what for.
        value: its face. target: its target.
    """

    index: int
    unit: int
    kind: str
    purpose: DiePurpose
    value: int
    target: int


@dataclass(frozen=True, slots=True)
class RerollDetail:
    """What an ``illusion_reroll`` decision asks (R-MAGIC-ILL-01).

    Attributes:
        battle, space, round, step: the battle, where, and the step just rolled.
        faction: whose Illusionists act. dice: the eligible dice. most: how many may be picked
            (three per Illusionist). default: the dice picked on a missed deadline.
    """

    kind: ClassVar[DecisionKind] = DecisionKind.ILLUSION_REROLL
    battle: int
    space: str
    round: int
    step: CombatStep
    faction: str
    dice: tuple[RerollCandidate, ...]
    most: int
    default: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EnchantVictimDetail:
    """What an ``enchant_victim`` decision asks (R-MAGIC-ENCH-01).

    Attributes:
        battle, space, round: the battle, where, and the round just fought.
        faction: whose units are taken. enchanters: the successful Enchanters, one unit each.
        units: its susceptible units. default: the units taken on a missed deadline.
    """

    kind: ClassVar[DecisionKind] = DecisionKind.ENCHANT_VICTIM
    battle: int
    space: str
    round: int
    faction: str
    enchanters: tuple[int, ...]
    units: tuple[CasualtyCandidate, ...]
    default: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MercenaryCandidate:
    """One Mercenary that may be destroyed, as a ``mercenaries`` decision shows it
    (R-ATTR-MERC-01).

    Attributes:
        id: unit id. kind: unit kind id. wounded: it has taken a hit (R-ATTR-FORTI-01).
        cost: the kind's price in RP, ``None`` for a kind that is never bought.
        aboard: the ship carrying it, if any (R-MOVE-14).
    """

    id: int
    kind: str
    wounded: bool = False
    cost: int | None = None
    aboard: int | None = None


@dataclass(frozen=True, slots=True)
class MercenariesDetail:
    """What a ``mercenaries`` decision asks (R-ATTR-MERC-01, R-PBP-DEAD-04): a faction's
    Mercenaries outnumber its other units in ``space`` (at the start of a turn) or on its side
    of a battle (at the start of a round), and the excess can be chosen in more than one way
    that matters.

    Attributes:
        space: where. faction: whose Mercenaries. deserting: how many must go.
        mercenaries, others: the counts compared (enchanted units count for neither).
        candidates: the faction's Mercenaries there, in id order.
        default: the ids destroyed on a missed deadline: cheapest, ties most recently mustered.
        battle: the battle's id at a round start; ``None`` at the start of a turn (then the
            turn waits for the answer before its first step, R-TURN-04).
        round: the battle round beginning (0 at the start of a turn).
    """

    kind: ClassVar[DecisionKind] = DecisionKind.MERCENARIES
    space: str
    faction: str
    deserting: int
    mercenaries: int
    others: int
    candidates: tuple[MercenaryCandidate, ...]
    default: tuple[int, ...]
    battle: int | None = None
    round: int = 0


#: The detail of a pending decision: one frozen dataclass per :class:`DecisionKind`, each
#: naming its kind in ``kind``. Stored as a JSON object of its fields; the decision's stored
#: ``kind`` says which one it is.
@dataclass(frozen=True, slots=True)
class SummonsDetail:
    """What a ``summons`` decision asks (R-MAGIC-SUMM-01, R-COMM-11): a round of the battle
    begins in a province where ``faction`` has a Summoner among the fighting units.

    Attributes:
        battle: the battle's id. space: where it is fought. round: the round beginning.
        side: the side ``faction`` fights on (the defender is asked after the attacker).
        faction: who may summon.
        options: ``(kind id, price in RP)`` of each Summoned kind it may summon into this side
            now (full cost outside its own turn, R-COMM-11).
        rp: RP it holds.
    """

    kind: ClassVar[DecisionKind] = DecisionKind.SUMMONS
    battle: int
    space: str
    round: int
    side: Side
    faction: str
    options: tuple[tuple[str, int], ...]
    rp: int


DecisionDetail = (
    CasualtiesDetail
    | PressOrWithdrawDetail
    | UpkeepDisbandDetail
    | SummonsDetail
    | BlitzDetail
    | ComeAshoreDetail
    | DeclarationsDetail
    | RerollDetail
    | EnchantVictimDetail
    | MercenariesDetail
)

#: The detail class of each decision kind.
DETAIL_TYPES: dict[DecisionKind, type[DecisionDetail]] = {
    cls.kind: cls
    for cls in (
        CasualtiesDetail,
        PressOrWithdrawDetail,
        UpkeepDisbandDetail,
        SummonsDetail,
        BlitzDetail,
        ComeAshoreDetail,
        DeclarationsDetail,
        RerollDetail,
        EnchantVictimDetail,
        MercenariesDetail,
    )
}


@dataclass(frozen=True)
class PendingDecision:
    """A decision the game waits for (design.md section 3).

    Attributes:
        id: unique within the campaign.
        faction: who must decide.
        kind: what is asked; always ``detail.kind``.
        reaction: ``True`` if asked of a non-active faction, or before the active faction's
            turn has begun (the turn-start Mercenary choice, R-ATTR-MERC-01): a reaction
            deadline (R-PBP-DEAD-01).
        detail: what the Discord edge needs to show the choice, of the class of ``kind``.

    Frozen: never changed once made (an answered decision leaves ``GameState.pending``), so the
    clones of the state and the undo records share it (:meth:`GameState.clone`).

    Raises:
        ValueError: ``detail`` is not of the class of ``kind`` (on loading, pydantic reports it
            as a ``ValidationError``).
    """

    id: int
    faction: str
    kind: DecisionKind
    reaction: bool
    detail: DecisionDetail

    def __post_init__(self) -> None:
        if self.detail.kind is not self.kind:
            raise ValueError(
                f"decision {self.id} is of kind {self.kind!s} but its detail is a "
                f"{type(self.detail).__name__} ({self.detail.kind!s})"
            )

    @property
    def battle_id(self) -> int | None:
        """The battle this decision belongs to, or ``None`` for a decision outside battles."""
        battle = getattr(self.detail, "battle", None)
        return battle if isinstance(battle, int) else None


@dataclass
class UndoRecord:
    """What one undoable order changed, to take it back (:mod:`caedes_bot.rules.undo`).

    Attributes:
        faction: who gave it. label: what it did, in a player's words.
        units: unit id -> the unit before the order (``None``: the order made it), for every
            unit it changed.
        factions: faction code -> its record before the order, for those it changed.
        owners: every province's owner before the order, if it changed any.
        next_id: the id counter before the order.
        trades: the open trade offers before the order, if it changed them (R-TRADE-02).
        mustered_seq: the muster counter before the order, if it changed it (R-MUSTER-01).
        muster_counts: the step's limited-race musters before the order, if it changed them
            (R-MUSTER-04).
        stats: every faction's statistics before the order, if it changed them (a purchase
            counts a unit bought; decision 0021).
        step: the step before the order, if it ended it (step 4's answers, R-UPK-01,
            R-UPK-03). pending: the decisions owed before the order, if it changed them.
    """

    faction: str
    label: str
    units: dict[str, Unit | None] = field(default_factory=dict)
    factions: dict[str, FactionState] = field(default_factory=dict)
    owners: dict[str, str] | None = None
    next_id: int = 0
    trades: list[TradeOffer] | None = None
    mustered_seq: int | None = None
    muster_counts: dict[str, int] | None = None
    stats: dict[str, FactionStats] | None = None
    step: Step | None = None
    pending: list[PendingDecision] | None = None


@dataclass(frozen=True, slots=True)
class PactProposal:
    """A pact change asked for and not yet in force (R-ALLY-01, R-ALLY-02, R-FEAL-01).

    Attributes:
        id: its number (from :meth:`GameState.new_id`).
        kind: ``"alliance"`` (form one of ``members``), ``"break"`` (end the alliance of
            ``members``), ``"fealty"`` (``members[0]`` swears to ``members[1]``) or ``"revoke"``
            (``members[0]`` leaves the fealty it swore to ``members[1]``).
        members: the factions concerned, as described for ``kind``.
        confirmed: the members who have confirmed it so far.
        agreed: every member needed has confirmed; it takes effect at the next turn's start.
    """

    id: int
    kind: str
    members: tuple[str, ...]
    confirmed: tuple[str, ...] = ()
    agreed: bool = False


@dataclass(frozen=True, slots=True)
class FactionStats:
    """One faction's statistics (:mod:`caedes_bot.rules.statistics`, decision 0021):
    ``income`` and ``provinces`` are ``(game round, value)`` pairs; ``expected_tenths`` is
    the hits its dice were expected to score, in tenths of a hit."""

    income: tuple[tuple[int, int], ...] = ()
    bought: int = 0
    lost: int = 0
    battles_won: int = 0
    battles_lost: int = 0
    provinces: tuple[tuple[int, int], ...] = ()
    dice: int = 0
    hits: int = 0
    expected_tenths: int = 0


@dataclass(frozen=True, slots=True)
class EarlyEndVote:
    """The umpire's open proposal to end the campaign early, put to the players' vote
    (R-VIC-04; rules in :mod:`caedes_bot.rules.early_end`): ``proposal`` its number,
    ``winners`` the factions it names, ``accepts`` and ``refusals`` the player keys that
    answered so far."""

    proposal: int
    winners: tuple[str, ...]
    accepts: tuple[str, ...] = ()
    refusals: tuple[str, ...] = ()


@dataclass
class GameState:
    """The whole changing state of one campaign.

    Attributes:
        scenario: scenario id the campaign started from.
        options: the campaign's rule options (section 17); the umpire may change them (R-SETUP-04).
        options_next: the options from the next turn start, when the umpire changed some
            (R-SETUP-04; rules in :mod:`caedes_bot.rules.umpire_game`); ``None`` if unchanged.
        round: game round, from 1 (R-TURN-01).
        active: the faction whose turn it is, or ``None`` before start / after the end.
        step: the current step of the active faction's turn (R-TURN-02).
        in_play: factions in the scenario, in turn order (R-TURN-01).
        factions: per-faction holdings, keyed by code.
        units: units on the board, keyed by id (as ``str`` for JSON).
        owners: province id -> owning faction code (absent = unowned, R-COLL-01).
        next_id: the next unit / decision id to hand out.
        dice_seed: the campaign's dice seed (R-GEN-01; design.md section 3).
        dice_rolls: dice rolled so far, so :class:`~caedes_bot.rules.dice.SeededDice` resumes.
        pending: decisions the game waits for, oldest first.
        battles_due: spaces where the active faction must still fight this step 7 (R-COMBAT-01).
        battle: the battle being fought, or ``None`` (rules in :mod:`caedes_bot.rules.combat`).
        alliances: each alliance as a sorted list of faction codes (R-ALLY-01).
        fealty: vassal -> liege (R-FEAL-01).
        turn_limit: game rounds to play, or ``None`` (R-VIC-03).
        finished: the game is over.
        winner: winning faction codes, when decided.
        mustered_seq: counter for :attr:`Unit.muster_seq`.
        muster_start_seq: ``mustered_seq`` when the current step 8 began: units with a higher
            ``muster_seq`` were placed during it and qualify no muster (R-MUSTER-01, R-ATTR-FORT-05).
        muster_counts: limited-race units mustered in the current step 8, by province (or
            ``"province|race"`` when ``muster_limit_scope`` is ``race``) (R-MUSTER-04).
        trades: open trade offers of the current step 1, oldest first (R-TRADE-02; rules in
            :mod:`caedes_bot.rules.trade`).
        passive: the active faction missed its turn deadline; the bot plays the rest of its
            turn passively (R-PBP-DEAD-03; rules in :mod:`caedes_bot.rules.turn`).
        turn_start_waits: the start of the active faction's turn waits for ``mercenaries``
            decisions (R-TURN-04, R-ATTR-MERC-01): the rest of the turn-start checks and its
            first step run once they are answered (:mod:`caedes_bot.rules.turn`).
        undo_log: what the active faction's last orders changed, oldest first, while they may
            still be taken back (:mod:`caedes_bot.rules.undo`).
        pact_proposals: alliances, breaks and fealty awaiting every member's confirmation, and
            pact changes agreed that take effect at the start of the next turn (R-ALLY-01,
            R-ALLY-02, R-FEAL-01; rules in :mod:`caedes_bot.rules.pacts`).
        parting: ``(faction, province)`` pairs of R-ALLY-05: after a break, ``faction``'s units
            in ``province`` (owned by a former partner) must leave or attack at its next turn.
        neighbour_view: the neighbouring pairs as judged at the last recompute, each a sorted
            pair (R-PBP-NEG-03); ``neighbour_judged`` the round (or turn count) of that judgement,
            0 for never (the live board is read then).
        players: faction -> the player key of whoever controls it (R-VIC-01, R-SETUP-02); a
            faction absent is umpire-run and counts as a player of its own.
        early_end: the umpire's early end waiting for the players' vote, or ``None``
            (R-VIC-04).
        stats: each faction's statistics, by code (:mod:`caedes_bot.rules.statistics`);
            ``stats_battles`` the sides of battles under way, by battle id, for them.
        scenario_events_done: ids of the scenario's events that have happened (R-SETUP-01;
            :mod:`caedes_bot.rules.scenario_events`).
    """

    scenario: str
    dice_seed: str
    options: Options = field(default_factory=Options)
    options_next: Options | None = None
    round: int = 0
    active: str | None = None
    step: Step = Step.TRADE
    in_play: list[str] = field(default_factory=list)
    factions: dict[str, FactionState] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)
    next_id: int = 1
    dice_rolls: int = 0
    pending: list[PendingDecision] = field(default_factory=list)
    battles_due: list[str] = field(default_factory=list)
    battle: Battle | None = None
    alliances: list[list[str]] = field(default_factory=list)
    fealty: dict[str, str] = field(default_factory=dict)
    turn_limit: int | None = None
    finished: bool = False
    winner: list[str] = field(default_factory=list)
    mustered_seq: int = 0
    muster_start_seq: int = 0
    muster_counts: dict[str, int] = field(default_factory=dict)
    trades: list[TradeOffer] = field(default_factory=list)
    passive: bool = False
    turn_start_waits: bool = False
    undo_log: list[UndoRecord] = field(default_factory=list)
    pact_proposals: list[PactProposal] = field(default_factory=list)
    parting: list[tuple[str, str]] = field(default_factory=list)
    neighbour_view: list[tuple[str, str]] = field(default_factory=list)
    neighbour_judged: int = 0
    players: dict[str, str] = field(default_factory=dict)
    early_end: EarlyEndVote | None = None
    stats: dict[str, FactionStats] = field(default_factory=dict)
    stats_battles: dict[str, list[str]] = field(default_factory=dict)
    scenario_events_done: list[str] = field(default_factory=list)

    def clone(self) -> GameState:
        """A copy that the rules may change freely, sharing what they have not changed yet.

        Copy-on-write (docs/decisions/0012, 0013): the units and the factions stay shared
        until one is handed out (:class:`~caedes_bot.rules.sharing.CowTable`); the rest, whose
        size is bounded by the factions, the provinces and one battle, is copied one level
        deep. Frozen parts (options,
        decision details, battle dice) are shared, and so are the parts the rules never change
        once made, only replace: the pending decisions, the battle's casualty shares and the
        containers of :data:`BATTLE_REPLACED`. After a clone, ``self`` also treats its units
        and factions as shared, so changing either state never changes the other.
        """
        units = self.units if isinstance(self.units, CowTable) else CowTable(self.units)
        new = _STATE_COPY.copy(self)
        new.units = units.share()
        self.units = units
        factions = self.factions if isinstance(self.factions, CowTable) else CowTable(self.factions)
        new.factions = factions.share()
        self.factions = factions
        new.pending = list(self.pending)  # a decision is never changed once made: shared
        new.alliances = list(map(list, self.alliances))
        new.trades = list(map(copy_plain, self.trades))
        if self.battle is not None:
            new.battle = _copy_battle(self.battle)
        return new

    def new_id(self) -> int:
        """Hand out the next id (units, decisions)."""
        value = self.next_id
        self.next_id += 1
        return value

    def place_new_unit(
        self,
        kind: str,
        owner: str,
        location: str,
        *,
        move_ended: bool = True,
        attacking: bool = False,
    ) -> Unit:
        """Put a new unit of ``kind`` on the board at ``location`` and return it: the next id,
        the next muster number (the order R-UPK-03 disbands by), and by default no move left
        this turn (R-MOVE-22). Mustering, summons, set-up, scenario events and the umpire's
        units all place units this way."""
        uid = self.new_id()
        self.mustered_seq += 1
        unit = Unit(
            id=uid,
            kind=kind,
            owner=owner,
            location=location,
            muster_seq=self.mustered_seq,
            move_ended=move_ended,
            attacking=attacking,
        )
        self.units[str(uid)] = unit
        return unit

    def unit(self, unit_id: int) -> Unit:
        """The unit with ``unit_id``. Raises ``KeyError`` if it is not on the board."""
        return self.units[str(unit_id)]

    def peek_unit(self, unit_id: int) -> Unit:
        """The unit with ``unit_id``, for reading only: the caller must not change it (it may be
        shared with the state this one was cloned from, :meth:`clone`). Raises ``KeyError``."""
        unit: Unit = dict.__getitem__(self.units, str(unit_id))  # no copy, even in a CowTable
        return unit

    def units_at(self, space: str) -> list[Unit]:
        """Units in ``space``, in id order (only these are copied, :meth:`clone`)."""
        found = sorted(u.id for u in self.peek_units() if u.location == space)
        return [self.units[str(i)] for i in found]

    def peek_units_at(self, space: str) -> list[Unit]:
        """Units in ``space``, in id order, for reading only: the caller must not change them
        (they may be shared with the state this one was cloned from, :meth:`clone`)."""
        return sorted((u for u in self.peek_units() if u.location == space), key=_unit_id)

    def units_of(self, faction: str) -> list[Unit]:
        """A faction's units on the board, in id order (only these are copied, :meth:`clone`)."""
        found = sorted(u.id for u in self.peek_units() if u.owner == faction)
        return [self.units[str(i)] for i in found]

    def peek_units_of(self, faction: str) -> list[Unit]:
        """A faction's units on the board, in id order, for reading only: the caller must not
        change them (they may be shared with the state this one was cloned from, :meth:`clone`)."""
        return sorted((u for u in self.peek_units() if u.owner == faction), key=_unit_id)

    def peek_units(self) -> Iterable[Unit]:
        """Every unit on the board, for reading only: the caller must not change them (they
        may be shared with the state this one was cloned from, :meth:`clone`)."""
        units = self.units
        if isinstance(units, CowTable):
            return units.peek_values()
        return units.values()

    def owner(self, province: str) -> str | None:
        return self.owners.get(province)

    def are_partners(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are the same faction or joined by an alliance or fealty (section 14)."""
        if a == b:
            return True
        if self.fealty.get(a) == b or self.fealty.get(b) == a:
            return True
        return any(a in group and b in group for group in self.alliances)


def _unit_id(unit: Unit) -> int:
    return unit.id


def _copy_battle(battle: Battle) -> Battle:
    """A copy of ``battle`` for a clone: its lists are new (but those of
    :data:`BATTLE_REPLACED`, which are only ever replaced), the casualty shares are shared
    (a listed share is never changed: settling one replaces it), and of the step records only
    the last (the one whose casualties are still filled in) is copied; earlier records and
    every die are shared."""
    new = _BATTLE_COPY.copy(battle)
    new.owed = list(battle.owed)
    if battle.records:
        new.records[-1] = _RECORD_COPY.copy(battle.records[-1])
    return new


#: what :meth:`GameState.clone` copies of the state (the fields it replaces next left out),
#: of the battle and of a step record
_STATE_COPY = CopyPlan(
    GameState, skip=("units", "factions", "pending", "alliances", "trades", "battle")
)
_BATTLE_COPY = CopyPlan(Battle, skip=("owed",), shared=BATTLE_REPLACED, extras=("_memo",))
_RECORD_COPY = CopyPlan(BattleStepRecord)

#: the frozen values made many times a battle get each field set through its slot
#: (:mod:`caedes_bot.rules.frozen`): the same classes and values, made about twice as fast
for _made_often in (FactionStats, CasualtiesDetail, CasualtyCandidate, PressOrWithdrawDetail):
    quick_init(_made_often)
