"""Pending decisions for tests: small builders and hypothesis strategies, one per kind
(casualties R-COMBAT-06, press_or_withdraw R-COMBAT-08 and R-COMBAT-09, upkeep_disband
R-UPK-03, summons R-MAGIC-SUMM-01, blitz R-ATTR-BLITZ-02, come_ashore R-ATTR-AMPH-02,
mercenaries R-ATTR-MERC-01)."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from caedes_bot.rules.state import (
    BattleAction,
    BlitzDetail,
    CasualtiesDetail,
    CasualtyCandidate,
    CombatStep,
    ComeAshoreDetail,
    DecisionDetail,
    DecisionKind,
    DeclarableKind,
    DeclarationsDetail,
    DiePurpose,
    DisbandCandidate,
    EnchantVictimDetail,
    MercenariesDetail,
    MercenaryCandidate,
    PendingDecision,
    PressOrWithdrawDetail,
    RerollCandidate,
    RerollDetail,
    Side,
    SummonsDetail,
    UpkeepDisbandDetail,
)


def decision(
    id: int, faction: str, detail: DecisionDetail, *, reaction: bool = False
) -> PendingDecision:
    """A pending decision of the kind of ``detail``."""
    return PendingDecision(
        id=id, faction=faction, kind=detail.kind, reaction=reaction, detail=detail
    )


def casualties(
    hits: int,
    units: Sequence[tuple[int, str, int]],
    default: Sequence[int],
    *,
    faction: str = "ORC",
    battle: int = 1,
    space: str = "x",
) -> CasualtiesDetail:
    """A ``casualties`` detail: ``units`` as ``(id, kind, max_hits)``, none wounded."""
    return CasualtiesDetail(
        battle=battle,
        space=space,
        round=1,
        step=CombatStep.MELEE,
        faction=faction,
        hits=hits,
        units=tuple(CasualtyCandidate(uid, kind, False, room) for uid, kind, room in units),
        default=tuple(default),
    )


def press(
    can_withdraw: Sequence[int], must_stay: Sequence[int] = (), *, battle: int = 1
) -> PressOrWithdrawDetail:
    """A ``press_or_withdraw`` detail in space ``x``, round 1."""
    return PressOrWithdrawDetail(battle, "x", 1, tuple(can_withdraw), tuple(must_stay))


# --------------------------------------------------------------------------- strategies

_ids = st.integers(min_value=1, max_value=10_000)
_id_tuples = st.lists(_ids, max_size=6).map(tuple)
_codes = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789", min_size=1, max_size=10)
_names = st.text(max_size=20)
_counts = st.integers(min_value=0, max_value=500)

casualties_details = st.builds(
    CasualtiesDetail,
    battle=_ids,
    space=_codes,
    round=st.integers(min_value=1, max_value=50),
    step=st.sampled_from(CombatStep),
    faction=_codes,
    hits=st.integers(min_value=1, max_value=30),
    units=st.lists(
        st.builds(
            CasualtyCandidate,
            id=_ids,
            kind=_codes,
            wounded=st.booleans(),
            max_hits=st.integers(min_value=1, max_value=2),
        ),
        max_size=6,
    ).map(tuple),
    default=_id_tuples,
)

press_details = st.builds(
    PressOrWithdrawDetail,
    battle=_ids,
    space=_codes,
    round=st.integers(min_value=1, max_value=50),
    can_withdraw=_id_tuples,
    must_stay=_id_tuples,
)

upkeep_details = st.builds(
    UpkeepDisbandDetail,
    round=st.integers(min_value=1, max_value=50),
    bill=_counts,
    upkeep=_counts,
    salt=_counts,
    rp=_counts,
    units_counted=_counts,
    must_disband_at_least=_counts,
    candidates=st.lists(
        st.builds(
            DisbandCandidate,
            id=_ids,
            kind=_codes,
            name=_names,
            space=_codes,
            cost=st.none() | _counts,
            hero=st.booleans(),
            cargo=_id_tuples,
        ),
        max_size=6,
    ).map(tuple),
    default=_id_tuples,
)

summons_details = st.builds(
    SummonsDetail,
    battle=_ids,
    space=_codes,
    round=st.integers(min_value=1, max_value=50),
    side=st.sampled_from(Side),
    faction=_codes,
    options=st.lists(st.tuples(_codes, _counts), max_size=4).map(tuple),
    rp=_counts,
)

blitz_details = st.builds(
    BlitzDetail,
    after_battle=_ids,
    space=_codes,
    units=_id_tuples,
    default=st.just(()),
)

ashore_details = st.builds(
    ComeAshoreDetail,
    after_battle=_ids,
    space=_codes,
    units=_id_tuples,
    choices=st.lists(_codes, max_size=4).map(tuple),
    default=st.just(()),
)

_rounds = st.integers(min_value=1, max_value=50)

declaration_details = st.builds(
    DeclarationsDetail,
    battle=_ids,
    space=_codes,
    round=_rounds,
    faction=_codes,
    choices=st.lists(
        st.builds(
            DeclarableKind,
            kind=_codes,
            action=st.sampled_from(BattleAction),
            units=st.integers(min_value=1, max_value=9),
            default=st.integers(min_value=0, max_value=9),
            standing=st.none() | st.integers(min_value=0, max_value=9),
            ask=st.booleans(),
        ),
        max_size=4,
    ).map(tuple),
    illusionists=st.integers(min_value=0, max_value=3),
    illusion_default=st.integers(min_value=0, max_value=9),
)

reroll_details = st.builds(
    RerollDetail,
    battle=_ids,
    space=_codes,
    round=_rounds,
    step=st.sampled_from(CombatStep),
    faction=_codes,
    dice=st.lists(
        st.builds(
            RerollCandidate,
            index=st.integers(min_value=0, max_value=40),
            unit=_ids,
            kind=_codes,
            purpose=st.sampled_from(DiePurpose),
            value=st.integers(min_value=1, max_value=10),
            target=st.integers(min_value=-3, max_value=12),
        ),
        max_size=6,
    ).map(tuple),
    most=st.integers(min_value=3, max_value=9),
    default=_id_tuples,
)

enchant_details = st.builds(
    EnchantVictimDetail,
    battle=_ids,
    space=_codes,
    round=_rounds,
    faction=_codes,
    enchanters=_id_tuples,
    units=st.lists(
        st.builds(
            CasualtyCandidate,
            id=_ids,
            kind=_codes,
            wounded=st.booleans(),
            max_hits=st.just(1),
        ),
        max_size=6,
    ).map(tuple),
    default=_id_tuples,
)

mercenary_details = st.builds(
    MercenariesDetail,
    space=_codes,
    faction=_codes,
    deserting=st.integers(min_value=1, max_value=5),
    mercenaries=st.integers(min_value=1, max_value=9),
    others=st.integers(min_value=0, max_value=9),
    candidates=st.lists(
        st.builds(
            MercenaryCandidate,
            id=_ids,
            kind=_codes,
            wounded=st.booleans(),
            cost=st.none() | st.integers(min_value=0, max_value=20),
            aboard=st.none() | _ids,
        ),
        max_size=6,
    ).map(tuple),
    default=_id_tuples,
    battle=st.none() | _ids,
    round=_rounds,
)

#: The strategy of each kind's detail; a test checks that every kind is here.
STRATEGIES: dict[DecisionKind, st.SearchStrategy[DecisionDetail]] = {
    DecisionKind.CASUALTIES: casualties_details,
    DecisionKind.PRESS_OR_WITHDRAW: press_details,
    DecisionKind.UPKEEP_DISBAND: upkeep_details,
    DecisionKind.SUMMONS: summons_details,
    DecisionKind.BLITZ: blitz_details,
    DecisionKind.COME_ASHORE: ashore_details,
    DecisionKind.DECLARE_ACTIONS: declaration_details,
    DecisionKind.ILLUSION_REROLL: reroll_details,
    DecisionKind.ENCHANT_VICTIM: enchant_details,
    DecisionKind.MERCENARIES: mercenary_details,
}

#: A detail of any kind.
details = st.one_of(*STRATEGIES.values())
